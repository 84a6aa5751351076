package tokens_test

import (
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
	"github.com/condense-dev/condense/tokens/countertest"
)

func TestConformance(t *testing.T) {
	o200k, err := tokens.BPE(tokens.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	cl100k, err := tokens.BPE(tokens.Cl100kBase)
	if err != nil {
		t.Fatal(err)
	}
	cal := tokens.NewCalibration()
	cal.Observe("claude-sonnet-4-5", 1000, 1100)
	for _, c := range []condense.Counter{
		o200k,
		cl100k,
		tokens.Heuristic(tokens.FamilyOpenAI),
		tokens.Heuristic(tokens.FamilyAnthropic),
		tokens.Heuristic(tokens.FamilyGemini),
		tokens.ForModel("gpt-4o", nil),
		tokens.ForModel("claude-sonnet-4-5-20250929", nil),
		tokens.ForModel("gemini-2.5-pro", nil),
		tokens.ForModel("some-unknown-model", nil),
		tokens.Open(tokens.FamilyQwen),
		tokens.ForModel("deepseek-chat", nil),
		tokens.Corrected(tokens.Heuristic(tokens.FamilyAnthropic), "claude-sonnet-4-5", cal),
	} {
		t.Run(c.Name(), func(t *testing.T) { countertest.Run(t, c) })
	}
}

func TestBPEUnknownEncoding(t *testing.T) {
	if _, err := tokens.BPE("p50k_base"); err == nil {
		t.Error("BPE(p50k_base) did not fail")
	}
	if _, err := tokens.BPE(""); err == nil {
		t.Error("BPE(\"\") did not fail")
	}
}

func TestBPECountsDEL(t *testing.T) {
	c, _ := tokens.BPE(tokens.O200kBase)
	for s, want := range map[string]int{"\x7f": 1, "\x7f\x7f\x7f": 3, "hello": 1} {
		if got := c.CountText(s); got < want {
			t.Errorf("CountText(%q) = %d, want at least %d", s, got, want)
		}
	}
}
