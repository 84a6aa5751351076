package transcript

func readCodex(b *builder, data []byte) error        { return nil }
func readMiniSWEAgent(b *builder, data []byte) error { return nil }
func readSWEAgent(b *builder, data []byte) error     { return nil }
