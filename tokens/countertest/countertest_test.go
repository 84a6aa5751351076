package countertest_test

import (
	"testing"
	"unicode/utf8"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens/countertest"
)

// runeCounter is the simplest counter a user might write: a token per two
// characters of every piece of text, 4 per message, 1,000 per image or
// opaque block.
type runeCounter struct{}

var _ condense.Counter = runeCounter{}

func (runeCounter) Name() string { return "runes/2" }
func (runeCounter) Exact() bool  { return false }

func (runeCounter) CountMessage(m *condense.Message) int {
	n := 4
	for _, p := range m.Parts {
		n += countPart(&p)
	}
	return n
}

func countPart(p *condense.Part) int {
	n := text(p.Text) + text(p.ID) + text(p.Name) + text(string(p.Input)) + text(p.CallID) + text(p.Redacted)
	if p.Type == condense.PartImage || p.Type == condense.PartProvider {
		n += 1000 + text(string(p.Raw))
	}
	for _, q := range p.Content {
		n += countPart(&q)
	}
	return n
}

func (runeCounter) CountOverhead(system string, tools []condense.Tool) int {
	n := 3 + text(system)
	for _, t := range tools {
		n += 4 + text(t.Name) + text(t.Description) + text(string(t.InputSchema))
	}
	return n
}

func text(s string) int { return (utf8.RuneCountInString(s) + 1) / 2 }

func TestRunOnAUserCounter(t *testing.T) {
	countertest.Run(t, runeCounter{})
}
