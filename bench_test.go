package condense_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// benchHistory returns n messages of an agent conversation: user prompts,
// tool steps and answers, a few hundred bytes each, with ids.
func benchHistory(n int) []condense.Message {
	s := &session{}
	for len(s.msgs) < n {
		s.user("please look at the failing handler test and fix it " + big("context", 10))
		s.step("bash", "=== RUN TestHandler\n--- FAIL: TestHandler (0.01s)\n    handler_test.go:42: got 500, want 200\n"+big("log line", 20))
		s.assistant("The handler returned 500 because the cache was cold; I changed the lookup. " + big("explanation", 8))
	}
	return s.msgs[:n]
}

// BenchmarkPreflight measures one Prepare call of a long session that
// appends one message per call with no compaction due: the cost must stay
// flat as the session grows: the preflight remembers the prefix it has seen,
// so a call costs only its new messages.
func BenchmarkPreflight(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			ctx := context.Background()
			counter := tokens.Heuristic("openai")
			pf := condense.NewPreflight(counter, nil, &condense.Options{Settings: condense.Settings{Window: 1 << 30}, Logger: quiet})
			msgs := benchHistory(n)
			if _, err := pf.Prepare(ctx, condense.Request{Model: "m", Messages: msgs}); err != nil {
				b.Fatal(err)
			}
			extra := make([]condense.Message, 0, b.N)
			for i := 0; i < b.N; i++ {
				role := condense.RoleUser
				if i%2 == 1 {
					role = condense.RoleAssistant
				}
				extra = append(extra, condense.Message{ID: fmt.Sprintf("x%d", i), Role: role, Parts: []condense.Part{condense.Text("one more message " + big("word", 20))}})
			}
			all := append(msgs[:n:n], extra...)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := pf.Prepare(ctx, condense.Request{Model: "m", Messages: all[:n+i+1]}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkFullRecount is what a stateless preflight pays per call: count
// every message of the request again.
func BenchmarkFullRecount(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		b.Run(fmt.Sprintf("messages=%d", n), func(b *testing.B) {
			counter := tokens.Heuristic("openai")
			req := condense.Request{Model: "m", Messages: benchHistory(n)}
			b.ReportAllocs()
			for b.Loop() {
				condense.CountRequest(counter, &req)
			}
		})
	}
}
