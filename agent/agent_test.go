package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/strategy"
)

type lookupIn struct {
	Order string `json:"order" jsonschema:"required,description=the order id"`
}

func lookupTool(calls *int) agent.Tool {
	return agent.NewTool("lookup", "Look an order up.", func(ctx context.Context, in lookupIn) (string, error) {
		*calls++
		if in.Order == "bad" {
			return "", errors.New("no such order")
		}
		return "order " + in.Order + ": refunded twice", nil
	})
}

func TestJournalToolLoop(t *testing.T) {
	ctx := context.Background()
	var toolCalls int
	llm := agenttest.NewFakeModel(
		agenttest.CallTools("Let me look.", agenttest.Call{ID: "c1", Name: "lookup", Input: lookupIn{Order: "o-7"}},
			agenttest.Call{ID: "c2", Name: "lookup", Input: lookupIn{Order: "bad"}}),
		agenttest.CallTools("", agenttest.Call{ID: "c3", Name: "nope", Input: map[string]int{}}),
		agenttest.Text("Refund the second charge."),
	)
	st := journal.NewMemory()
	a := &agent.Agent{Model: llm, Tools: []agent.Tool{lookupTool(&toolCalls)}, NewCounter: newCounter, Journal: st,
		Settings: condense.Settings{Window: 100_000, ReservedOutput: 200, Fraction: 0.3}}
	res, err := a.Run(ctx, condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("Why two charges?")}}, agent.WithRunID("loop"))
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "Refund the second charge." || res.ModelCalls != 3 || res.ToolCalls != 3 || toolCalls != 2 {
		t.Fatalf("result %q, %d model calls, %d tool calls, %d run", res.Text(), res.ModelCalls, res.ToolCalls, toolCalls)
	}
	calls := llm.Calls()
	if len(calls[0].Tools) != 1 || calls[0].Tools[0].Name != "lookup" || !strings.Contains(string(calls[0].Tools[0].InputSchema), `"required":["order"]`) {
		t.Fatalf("tools offered: %+v", calls[0].Tools)
	}
	// The second request holds the answers of both calls, the failed one
	// marked as an error.
	second := calls[1].Messages
	if len(second) != 4 || second[2].Role != condense.RoleTool || second[3].Parts[0].IsError != true ||
		second[3].Parts[0].Content[0].Text != "no such order" || second[2].Parts[0].Content[0].Text != "order o-7: refunded twice" {
		t.Fatalf("second request: %+v", second)
	}
	if last := calls[2].Messages[len(calls[2].Messages)-1].Parts[0]; !last.IsError || !strings.Contains(last.Content[0].Text, "unknown tool") {
		t.Fatalf("an unknown tool: %+v", last)
	}
	got := strings.Join(kinds(mustLoad(t, st, "loop")), " ")
	want := "run:started step:done/llm step:done/tool step:done/tool step:done/llm step:done/tool step:done/llm run:done"
	if got != want {
		t.Fatalf("journal:\n got %s\nwant %s", got, want)
	}
}

func TestJournalStreamedRunAccumulatesTheSameMessage(t *testing.T) {
	ctx := context.Background()
	script := []agenttest.Reply{
		agenttest.CallTools("Checking.", agenttest.Call{ID: "c1", Name: "lookup", Input: lookupIn{Order: "o-1"}}).WithUsage(condense.Usage{InputTokens: 50, OutputTokens: 7}),
		agenttest.Text("Done.").WithUsage(condense.Usage{InputTokens: 80, OutputTokens: 2}),
	}
	var n int
	plain, err := (&agent.Agent{Model: agenttest.NewFakeModel(script...), Tools: []agent.Tool{lookupTool(&n)}, NewCounter: newCounter}).
		Run(ctx, condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("go")}})
	if err != nil {
		t.Fatal(err)
	}
	var events []agent.StreamEvent
	streamed, err := (&agent.Agent{Model: agenttest.NewFakeModel(script...), Tools: []agent.Tool{lookupTool(&n)}, NewCounter: newCounter}).
		Run(ctx, condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("go")}}, agent.WithStream(func(e agent.StreamEvent) { events = append(events, e) }))
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(plain.Messages)
	b, _ := json.Marshal(streamed.Messages)
	if string(a) != string(b) || plain.Usage != streamed.Usage {
		t.Fatalf("streamed run differs:\n%s\n%s", a, b)
	}
	if len(events) < 6 || events[len(events)-1].Type != agent.EventStop {
		t.Fatalf("events: %+v", events)
	}
}

func TestJournalAccumulatorPieces(t *testing.T) {
	evs := []agent.StreamEvent{
		{Type: agent.EventThinking, Index: 0, Text: "hm"}, {Type: agent.EventThinking, Index: 0, Text: "m", Signature: "sig"},
		{Type: agent.EventText, Index: 1, Text: "Hel"}, {Type: agent.EventText, Index: 1, Text: "lo"},
		{Type: agent.EventToolCall, Index: 2, ID: "t1", Name: "f"}, {Type: agent.EventToolInput, Index: 2, Text: `{"a":`}, {Type: agent.EventToolInput, Index: 2, Text: `1}`},
		{Type: agent.EventToolCall, Index: 3, ID: "t2", Name: "g"},
		{Type: agent.EventUsage, Usage: condense.Usage{InputTokens: 10}}, {Type: agent.EventUsage, Usage: condense.Usage{OutputTokens: 4}},
		{Type: agent.EventStop, Stop: agent.StopToolUse, Model: "m-1"},
	}
	var acc agent.Accumulator
	for _, e := range evs {
		if err := acc.Add(e); err != nil {
			t.Fatal(err)
		}
	}
	r, err := acc.Response()
	if err != nil {
		t.Fatal(err)
	}
	p := r.Message.Parts
	if len(p) != 4 || p[0].Text != "hmm" || p[0].Signature != "sig" || p[1].Text != "Hello" || string(p[2].Input) != `{"a":1}` || string(p[3].Input) != "{}" ||
		r.Usage.InputTokens != 10 || r.Usage.OutputTokens != 4 || r.StopReason != agent.StopToolUse || r.Model != "m-1" {
		t.Fatalf("accumulated %+v", r)
	}
	// Events of a response accumulate back to it.
	back, err := agent.Accumulate(agent.Events(r))
	if err != nil {
		t.Fatal(err)
	}
	x, _ := json.Marshal(r.Message)
	y, _ := json.Marshal(back.Message)
	if string(x) != string(y) || back.Usage != r.Usage {
		t.Fatalf("Events → Accumulate changed the response:\n%s\n%s", x, y)
	}
	var bad agent.Accumulator
	bad.Add(agent.StreamEvent{Type: agent.EventText, Index: 0, Text: "x"})
	if err := bad.Add(agent.StreamEvent{Type: agent.EventToolInput, Index: 0, Text: "{"}); err == nil {
		t.Error("tool input for a text part was accepted")
	}
}

// The preflight runs before every model call of the loop, streamed or not:
// a loop whose tool results grow the history compacts before the call that
// would cross the threshold.
func TestJournalPreflightBeforeEveryCall(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			ctx := context.Background()
			big := agent.NewTool("read", "Read a file.", func(ctx context.Context, in struct{}) (string, error) {
				return strings.Repeat("file contents ", 60), nil // ~210 tokens
			})
			var script []agenttest.Reply
			for i := range 8 {
				script = append(script, agenttest.CallTools("", agenttest.Call{ID: fmt.Sprintf("c%d", i), Name: "read", Input: struct{}{}}))
			}
			script = append(script, agenttest.Text("done"))
			llm := agenttest.NewFakeModel(script...)
			st := journal.NewMemory()
			a := &agent.Agent{Model: llm, Tools: []agent.Tool{big}, NewCounter: newCounter, Journal: st,
				Strategy: strategy.DropOldest{}, Settings: condense.Settings{Window: 2000, ReservedOutput: 200, Fraction: 0.5}}
			var opts []agent.RunOption
			if stream {
				opts = append(opts, agent.WithStream(func(agent.StreamEvent) {}))
			}
			res, err := a.Run(ctx, condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("Read it all.")}}, append(opts, agent.WithRunID("r"))...)
			if err != nil {
				t.Fatal(err)
			}
			limit := 2000 - 200
			for i, c := range llm.Calls() {
				if n := condense.CountRequest(charCounter{}, &c); n > limit {
					t.Errorf("call %d sent %d tokens, over the input limit %d", i+1, n, limit)
				}
			}
			cs := compactions(mustLoad(t, st, "r"))
			if len(cs) == 0 || len(res.Compactions) != len(cs) {
				t.Fatalf("%d compactions journaled, %d in the result", len(cs), len(res.Compactions))
			}
			for _, c := range cs {
				if c.Strategy != "drop-oldest" || c.TokensAfter >= c.TokensBefore || c.Window != 2000 || c.CallIndex < 2 {
					t.Errorf("compaction %+v", c)
				}
			}
			if len(res.Messages) != 18 {
				t.Errorf("the result's history has %d messages, want all 18", len(res.Messages))
			}
		})
	}
}

// A request that cannot fit ends the run with context_window_exceeded,
// journaled with the tokens and the window, and no provider call.
func TestJournalWindowExceeded(t *testing.T) {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(agenttest.Text("never"))
	st := journal.NewMemory()
	a := &agent.Agent{Model: llm, NewCounter: newCounter, Journal: st, NoCompaction: true, Settings: condense.Settings{Window: 500, ReservedOutput: 100}}
	_, err := a.Run(ctx, ticket(4), agent.WithRunID("r"))
	var we *condense.WindowError
	if !errors.As(err, &we) {
		t.Fatalf("err = %v, want a WindowError", err)
	}
	if len(llm.Calls()) != 0 {
		t.Fatal("a provider call was made")
	}
	evs := mustLoad(t, st, "r")
	last := evs[len(evs)-1]
	if last.Kind != journal.KindRunError || last.Error.Code != "context_window_exceeded" || last.Error.Tokens != we.Tokens || last.Error.Window != 500 {
		t.Fatalf("last event %s", journal.Comparable(last))
	}
}

// One-shot calls are sent as given, never compacted.
func TestJournalOneShotNotCompacted(t *testing.T) {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(agenttest.Text("fine"), agenttest.Text("```json\n{\"action\":\"refund\",\"amount\":12}\n```"))
	a := &agent.Agent{Model: llm, ModelName: "m", NewCounter: newCounter, Strategy: strategy.DropOldest{}, Settings: condense.Settings{Window: 600, ReservedOutput: 100}}
	req := ticket(6)
	if _, err := a.Complete(ctx, req); err != nil {
		t.Fatal(err)
	}
	type plan struct {
		Action string `json:"action"`
		Amount int    `json:"amount"`
	}
	got, _, err := agent.Structured[plan](ctx, a, req)
	if err != nil {
		t.Fatal(err)
	}
	if got != (plan{"refund", 12}) {
		t.Fatalf("structured answer %+v", got)
	}
	for i, c := range llm.Calls() {
		if len(c.Messages) != len(req.Messages) || c.Model != "test-model" {
			t.Errorf("one-shot call %d sent %d messages, want %d as given", i, len(c.Messages), len(req.Messages))
		}
	}
	if !strings.Contains(llm.Calls()[1].System, `"amount"`) {
		t.Error("the structured call did not carry the schema")
	}
}

// Settings resolve per call → agent → client → default.
func TestJournalSettingsResolution(t *testing.T) {
	ctx := context.Background()
	run := func(a *agent.Agent, opts ...agent.RunOption) journal.Compacted {
		t.Helper()
		st := journal.NewMemory()
		a.Journal, a.NewCounter, a.Strategy = st, newCounter, strategy.DropOldest{}
		if _, err := a.Run(ctx, ticket(8), append(opts, agent.WithRunID("r"))...); err != nil {
			t.Fatal(err)
		}
		cs := compactions(mustLoad(t, st, "r"))
		if len(cs) == 0 {
			return journal.Compacted{}
		}
		return cs[0]
	}
	client := &clientModel{FakeModel: agenttest.NewFakeModel(agenttest.Text("ok")), s: condense.Settings{Window: 3000, ReservedOutput: 200, Fraction: 0.3}}
	if c := run(&agent.Agent{Model: client}); c.Window != 3000 {
		t.Errorf("client level: window %d", c.Window)
	}
	client = &clientModel{FakeModel: agenttest.NewFakeModel(agenttest.Text("ok")), s: condense.Settings{Window: 3000, ReservedOutput: 200, Fraction: 0.3}}
	if c := run(&agent.Agent{Model: client, Settings: condense.Settings{Window: 2500}}); c.Window != 2500 {
		t.Errorf("agent level: window %d", c.Window)
	}
	client = &clientModel{FakeModel: agenttest.NewFakeModel(agenttest.Text("ok")), s: condense.Settings{Window: 3000, ReservedOutput: 200, Fraction: 0.3}}
	if c := run(&agent.Agent{Model: client, Settings: condense.Settings{Window: 2500}}, agent.WithSettings(condense.Settings{Window: 2200})); c.Window != 2200 {
		t.Errorf("call level: window %d", c.Window)
	}
	// A window with room: no compaction at the default fraction.
	client = &clientModel{FakeModel: agenttest.NewFakeModel(agenttest.Text("ok")), s: condense.Settings{Window: 100_000, ReservedOutput: 200, Fraction: 0.3}}
	if c := run(&agent.Agent{Model: client}); c.Window != 0 {
		t.Errorf("compacted under a 100k window: %+v", c)
	}
}

type clientModel struct {
	*agenttest.FakeModel
	s condense.Settings
}

func (c *clientModel) Settings() condense.Settings { return c.s }

// Billed usage feeds the counter's correction.
func TestJournalCalibrationFromUsage(t *testing.T) {
	ctx := context.Background()
	var counter condense.Counter
	llm := agenttest.NewFakeModel(
		agenttest.CallTools("", agenttest.Call{ID: "c1", Name: "lookup", Input: lookupIn{Order: "o"}}).WithUsage(condense.Usage{InputTokens: 10_000, OutputTokens: 5}),
		agenttest.Text("ok").WithUsage(condense.Usage{InputTokens: 10_000, OutputTokens: 5}),
	)
	var n int
	a := &agent.Agent{Model: llm, Tools: []agent.Tool{lookupTool(&n)}, NewCounter: func(m string) condense.Counter { counter = newCounter(m); return counter }}
	if _, err := a.Run(ctx, condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("go")}}); err != nil {
		t.Fatal(err)
	}
	if f := counter.(condense.Corrector).Correction(); f <= 1 {
		t.Fatalf("correction %v after billed usage far above the estimate", f)
	}
}
