package condense_test

import (
	"context"
	"slices"
	"testing"

	"github.com/condense-dev/condense"
)

// TestRememberKeepsValuesAcrossCompactions: a strategy's Remember computes a
// value once per log message for the whole conversation, across refused
// compactions, and again only for the messages an edit of the history
// changed.
func TestRememberKeepsValuesAcrossCompactions(t *testing.T) {
	computed := map[int]int{} // log index → computations
	attempts := 0
	refuse := condense.Func("remember", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		attempts++
		for i := range cc.History {
			got := cc.Remember("text", i, -1, func() any {
				computed[i]++
				return cc.History[i].TextContent()
			}).(string)
			if want := cc.History[i].TextContent(); got != want {
				t.Errorf("Remember(%d) = %q, want %q", i, got, want)
			}
		}
		return nil, condense.ErrNothingToCompact
	})
	o := opts(6_000)
	o.MaxPressured = 1000 // ask at every call over the threshold
	o.VerifyPrefix = true // and see an edit in the middle of the history
	pf := condense.NewPreflight(&byteCounter{}, refuse, o)
	s := &session{}
	s.user("the task")
	for k := range 48 {
		s.step("bash", big("out", 100+k%3))
		if _, err := pf.Prepare(context.Background(), condense.Request{Messages: slices.Clone(s.msgs)}); err != nil {
			t.Fatalf("step %d: %v", k, err)
		}
	}
	if attempts < 3 {
		t.Fatalf("the strategy was asked to compact %d times, want several: the test's window is wrong", attempts)
	}
	for i, n := range computed {
		if n != 1 {
			t.Errorf("message %d computed %d times, want once", i, n)
		}
	}
	// An edit of message 3 forgets the values from there on, not before.
	edited := slices.Clone(s.msgs)
	edited[3] = condense.Message{ID: edited[3].ID, Role: edited[3].Role, Parts: slices.Clone(edited[3].Parts)}
	edited[3].Parts[0].Content = []condense.Part{condense.Text(big("changed", 80))}
	s.msgs = edited
	s.step("bash", big("out", 20))
	clear(computed)
	attempts = 0
	if _, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs}); err != nil {
		t.Fatal(err)
	}
	if attempts == 0 {
		t.Fatal("no compaction was attempted after the edit")
	}
	for i := range s.msgs {
		want := 0
		if i >= 3 {
			want = 1
		}
		if computed[i] != want {
			t.Errorf("after the edit, message %d computed %d times, want %d", i, computed[i], want)
		}
	}
}

// TestRememberOutsideAPreflight: a context built by hand computes every time.
func TestRememberOutsideAPreflight(t *testing.T) {
	cc := &condense.CompactionContext{History: []condense.Message{condense.UserText("x")}}
	n := 0
	for range 2 {
		cc.Remember("k", 0, -1, func() any { n++; return n })
	}
	if n != 2 {
		t.Errorf("computed %d times, want 2", n)
	}
}
