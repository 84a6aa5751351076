package transcript

func readMiniSWEAgent(b *builder, data []byte) error { return nil }
func readSWEAgent(b *builder, data []byte) error     { return nil }
