package transcript

func readClaudeCode(b *builder, data []byte) error   { return nil }
func readCodex(b *builder, data []byte) error        { return nil }
func readMiniSWEAgent(b *builder, data []byte) error { return nil }
func readSWEAgent(b *builder, data []byte) error     { return nil }
