package bpe

import (
	"strings"
	"testing"
)

// referenceText returns the texts of the reference corpus joined into one.
func referenceText(b *testing.B) string {
	var parts []string
	for _, e := range loadReference(b) {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, "\n\n")
}

func BenchmarkCount(b *testing.B) {
	text := referenceText(b)
	for _, name := range []string{O200kBase, Cl100kBase} {
		enc := mustGet(b, name)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				enc.Count(text)
			}
		})
	}
}
