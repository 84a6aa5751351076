package agenttest

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
)

// Reply is one scripted answer of a FakeModel: a response or an error.
type Reply struct {
	Response *agent.Response
	Err      error
}

// Text returns a reply that answers s and stops.
func Text(s string) Reply {
	return Reply{Response: &agent.Response{Message: condense.AssistantText(s), StopReason: agent.StopEndTurn}}
}

// Call is a tool call of a scripted reply.
type Call struct {
	ID    string
	Name  string
	Input any // marshalled to JSON; a json.RawMessage is taken as is
}

// CallTools returns a reply that says text (when not empty) and calls the
// tools.
func CallTools(text string, calls ...Call) Reply {
	m := condense.Message{Role: condense.RoleAssistant}
	if text != "" {
		m.Parts = append(m.Parts, condense.Text(text))
	}
	for _, c := range calls {
		in, ok := c.Input.(json.RawMessage)
		if !ok {
			b, err := json.Marshal(c.Input)
			if err != nil {
				panic(fmt.Sprintf("agenttest: input of %s: %v", c.Name, err))
			}
			in = b
		}
		m.Parts = append(m.Parts, condense.ToolCall(c.ID, c.Name, in))
	}
	return Reply{Response: &agent.Response{Message: m, StopReason: agent.StopToolUse}}
}

// Fail returns a reply that fails with err.
func Fail(err error) Reply { return Reply{Err: err} }

// WithUsage returns r billed u.
func (r Reply) WithUsage(u condense.Usage) Reply {
	if r.Response != nil {
		c := *r.Response
		c.Usage = u
		r.Response = &c
	}
	return r
}

// FakeModel answers model calls from a script, in order, and records the
// requests it was sent. It implements agent.Model; Stream yields the
// scripted response as events (agent.Events). Safe for concurrent use.
type FakeModel struct {
	// Func, when set, answers the calls the script does not cover; n
	// numbers the calls from 1.
	Func func(ctx context.Context, n int, req *condense.Request) (*agent.Response, error)

	mu     sync.Mutex
	script []Reply
	calls  []condense.Request
}

var _ agent.Model = (*FakeModel)(nil)

// NewFakeModel returns a model answering replies in order.
func NewFakeModel(replies ...Reply) *FakeModel { return &FakeModel{script: replies} }

// Add appends replies to the script.
func (f *FakeModel) Add(replies ...Reply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = append(f.script, replies...)
}

// Calls returns copies of the requests sent so far, in order.
func (f *FakeModel) Calls() []condense.Request {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]condense.Request, len(f.calls))
	for i := range f.calls {
		out[i] = f.calls[i].Clone()
	}
	return out
}

// Generate answers the next scripted reply.
func (f *FakeModel) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	n := len(f.calls)
	f.calls = append(f.calls, req.Clone())
	var rep *Reply
	if n < len(f.script) {
		rep = &f.script[n]
	}
	fn := f.Func
	f.mu.Unlock()
	switch {
	case rep != nil && rep.Err != nil:
		return nil, rep.Err
	case rep != nil && rep.Response != nil:
		c := *rep.Response
		c.Message.Parts = append([]condense.Part(nil), c.Message.Parts...)
		if c.Model == "" {
			c.Model = req.Model
		}
		return &c, nil
	case fn != nil:
		return fn(ctx, n+1, req)
	}
	return nil, fmt.Errorf("agenttest: fake model has no reply for call %d", n+1)
}

// Stream answers the next scripted reply as stream events.
func (f *FakeModel) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	return func(yield func(agent.StreamEvent, error) bool) {
		resp, err := f.Generate(ctx, req)
		if err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		for ev, err := range agent.Events(resp) {
			if !yield(ev, err) {
				return
			}
		}
	}
}
