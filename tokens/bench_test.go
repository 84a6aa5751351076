package tokens

import (
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/tiktoken-go/tokenizer"
)

// corpusText returns the whole corpus as one mixed text.
func corpusText(b testing.TB) string {
	var parts []string
	for _, e := range loadCorpus(b) {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, "\n\n")
}

// BenchmarkHeuristic measures the heuristic counters' throughput on the
// mixed corpus (target: at least 300 MB/s).
func BenchmarkHeuristic(b *testing.B) {
	text := corpusText(b)
	for _, family := range []string{FamilyOpenAI, FamilyAnthropic} {
		c := Heuristic(family)
		b.Run(family, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c.CountText(text)
			}
		})
	}
	msgs, _ := corpusMessages(b)
	var size int64
	for _, m := range msgs {
		for _, p := range m.Parts {
			size += int64(len(p.Text) + len(p.Input))
			for _, q := range p.Content {
				size += int64(len(q.Text))
			}
		}
	}
	c := Heuristic(FamilyOpenAI)
	b.Run("messages", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			for i := range msgs {
				c.CountMessage(&msgs[i])
			}
		}
	})
}

// BenchmarkBPE measures the BPE counter's throughput on the mixed corpus,
// in one goroutine, beside the Count of the tokenizer library it once used
// (tiktoken-go, whose split runs on the regexp2 engine).
func BenchmarkBPE(b *testing.B) {
	text := corpusText(b)
	for _, tt := range []struct {
		name string
		enc  tokenizer.Encoding
	}{{"o200k", tokenizer.O200kBase}, {"cl100k", tokenizer.Cl100kBase}} {
		c, err := BPE(string(tt.enc))
		if err != nil {
			b.Fatal(err)
		}
		lib, err := tokenizer.Get(tt.enc)
		if err != nil {
			b.Fatal(err)
		}
		c.CountText("load the codec before timing")
		b.Run(tt.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				c.CountText(text)
			}
		})
		b.Run(tt.name+"-library", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := lib.Count(text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkCountMessages counts the corpus as messages (prose, code, JSON
// tool inputs and outputs, logs) with each counter, the way a preflight
// does: one goroutine per core, each counting whole messages. Run it with
// -cpu 1,2 for the single-core and all-core figures of docs/benchmarks.md.
func BenchmarkCountMessages(b *testing.B) {
	msgs, _ := corpusMessages(b)
	var size int64
	for _, m := range msgs {
		for _, p := range m.Parts {
			size += int64(len(p.Text) + len(p.Input))
			for _, q := range p.Content {
				size += int64(len(q.Text))
			}
		}
	}
	o200k, _ := BPE(O200kBase)
	cl100k, _ := BPE(Cl100kBase)
	for _, c := range []condense.Counter{o200k, cl100k, Open(FamilyQwen), Heuristic(FamilyAnthropic), Heuristic(FamilyOpenAI)} {
		c.CountMessage(&msgs[0]) // load the vocabulary before timing
		b.Run(c.Name(), func(b *testing.B) {
			b.SetBytes(size)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					for i := range msgs {
						c.CountMessage(&msgs[i])
					}
				}
			})
		})
	}
}
