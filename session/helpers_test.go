package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/tokens"
)

var bg = context.Background()

// turn returns a user prompt and `steps` tool steps with long results,
// ids prefixed by p.
func turn(p string, steps int) []condense.Message {
	out := []condense.Message{{ID: p + "-u", Role: condense.RoleUser, Parts: []condense.Part{condense.Text("task " + p + ": look at the files and fix the failing test")}}}
	for k := 0; k < steps; k++ {
		id := fmt.Sprintf("%s-call%d", p, k)
		out = append(out,
			condense.Message{ID: id + "-a", Role: condense.RoleAssistant, Parts: []condense.Part{
				condense.Text("reading file " + id),
				condense.ToolCall(id, "read", json.RawMessage(fmt.Sprintf(`{"path":"internal/%s.go"}`, id)))}},
			condense.Message{ID: id + "-t", Role: condense.RoleTool, Parts: []condense.Part{
				condense.ToolResult(id, false, condense.Text(strings.Repeat(fmt.Sprintf("line of output from %s that goes on\n", id), 40)))}},
		)
	}
	out = append(out, condense.Message{ID: p + "-done", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("done with " + p)}})
	return out
}

func options(window int, st condense.Strategy) *session.Options {
	return &session.Options{
		Request:   condense.Request{Model: "gpt-4o", System: "You are a coding agent."},
		Counter:   tokens.Heuristic(tokens.FamilyOpenAI),
		Strategy:  st,
		Preflight: condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 500}},
	}
}

func open(t testing.TB, st store.Store, id string, o *session.Options) *session.Session {
	t.Helper()
	s, err := session.Open(bg, st, id, o)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func appendAll(t testing.TB, s *session.Session, msgs []condense.Message) {
	t.Helper()
	if err := s.Append(bg, msgs...); err != nil {
		t.Fatalf("Append: %v", err)
	}
}

func prepare(t testing.TB, s *session.Session, opts ...condense.CallOption) *condense.Result {
	t.Helper()
	res, err := s.Prepare(bg, condense.Request{Model: "gpt-4o", System: "You are a coding agent."}, opts...)
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return res
}

// requestJSON is the condense JSON of a rendered request.
func requestJSON(t testing.TB, r condense.Request) string {
	t.Helper()
	raw, err := json.Marshal(condense.DocumentOf(r))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func newMem() *memstore.Store { return memstore.New() }

// countingStrategy counts Compact calls and can block or fail.
type countingStrategy struct {
	inner condense.Strategy
	calls int
	hook  func(ctx context.Context, cc *condense.CompactionContext) error
}

func (c *countingStrategy) Name() string { return c.inner.Name() }

func (c *countingStrategy) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	c.calls++
	if c.hook != nil {
		if err := c.hook(ctx, cc); err != nil {
			return nil, err
		}
	}
	return c.inner.Compact(ctx, cc)
}

var _ condense.Strategy = (*countingStrategy)(nil)
