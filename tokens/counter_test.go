package tokens_test

import (
	"sync/atomic"
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

// countingCounter counts a token per text byte and how often it was asked.
type countingCounter struct{ calls atomic.Int64 }

func (*countingCounter) Name() string { return "counting" }
func (*countingCounter) Exact() bool  { return true }
func (c *countingCounter) CountMessage(m *condense.Message) int {
	c.calls.Add(1)
	return 3 + len(m.TextContent())
}
func (*countingCounter) CountOverhead(system string, _ []condense.Tool) int { return len(system) }

// A Memo asks its base counter once per distinct message content, however
// many times and through however many messages the same content is counted.
func TestMemo(t *testing.T) {
	o200k, _ := tokens.BPE(tokens.O200kBase)
	countertest.Run(t, tokens.Memo(o200k))
	base := &countingCounter{}
	m := tokens.Memo(base)
	a, b := condense.UserText("the same words"), condense.UserText("the same words")
	other := condense.AssistantText("the same words")
	for range 5 {
		if m.CountMessage(&a) != 17 || m.CountMessage(&b) != 17 || m.CountMessage(&other) != 17 {
			t.Fatal("wrong count")
		}
	}
	if n := base.calls.Load(); n != 2 {
		t.Fatalf("base counted %d times, want 2 (one per distinct message)", n)
	}
	if m.Name() != "counting" || !m.Exact() || m.Correction() != 1 || m.Unwrap() != condense.Counter(base) {
		t.Fatal("Memo does not forward the base counter's identity")
	}
	cal := tokens.NewCalibration()
	cal.Observe("claude-sonnet-4-5", 1000, 1500)
	if c := tokens.Memo(tokens.Corrected(tokens.Heuristic(tokens.FamilyAnthropic), "claude-sonnet-4-5", cal)); c.Correction() <= 1 {
		t.Fatalf("the base counter's correction is lost: %v", c.Correction())
	}
}
