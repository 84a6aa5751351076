package condense_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/condense-dev/condense"
)

// byteCounter counts one token per 4 bytes of every field plus 4 per
// message: simple, deterministic and easy to reason about in tests. It
// counts its calls so tests can see what the preflight recounts.
type byteCounter struct {
	calls atomic.Int64
}

var _ condense.Counter = (*byteCounter)(nil)

func (*byteCounter) Name() string { return "bytes/4" }
func (*byteCounter) Exact() bool  { return false }

func (c *byteCounter) CountMessage(m *condense.Message) int {
	c.calls.Add(1)
	return 4 + partsBytes(m.Parts)/4
}

func (*byteCounter) CountOverhead(system string, tools []condense.Tool) int {
	n := 3 + len(system)/4
	for _, t := range tools {
		n += (len(t.Name) + len(t.Description) + len(t.InputSchema)) / 4
	}
	return n
}

func partsBytes(ps []condense.Part) int {
	n := 0
	for _, p := range ps {
		n += len(p.Text) + len(p.Input) + len(p.Name) + len(p.Data) + len(p.Raw) + len(p.Redacted) + partsBytes(p.Content)
	}
	return n
}

// session builds histories for tests.
type session struct {
	msgs []condense.Message
	n    int
}

func (s *session) user(text string) *session {
	s.n++
	s.msgs = append(s.msgs, condense.Message{ID: fmt.Sprintf("m%d", s.n), Role: condense.RoleUser, Parts: []condense.Part{condense.Text(text)}})
	return s
}

func (s *session) assistant(text string) *session {
	s.n++
	s.msgs = append(s.msgs, condense.Message{ID: fmt.Sprintf("m%d", s.n), Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}})
	return s
}

// step appends an assistant message calling tool `name` once per output,
// and a tool message per result.
func (s *session) step(name string, outputs ...string) *session {
	s.n++
	a := condense.Message{ID: fmt.Sprintf("m%d", s.n), Role: condense.RoleAssistant}
	var results []condense.Message
	for k, out := range outputs {
		id := fmt.Sprintf("call_%d_%d", s.n, k)
		in, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("%s %d", name, k)})
		a.Parts = append(a.Parts, condense.ToolCall(id, name, in))
		results = append(results, condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(out))}})
	}
	s.msgs = append(s.msgs, a)
	for _, r := range results {
		s.n++
		r.ID = fmt.Sprintf("m%d", s.n)
		s.msgs = append(s.msgs, r)
	}
	return s
}

func big(word string, n int) string { return strings.Repeat(word+" ", n) }
