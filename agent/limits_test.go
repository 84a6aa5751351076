package agent_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/tokens"
)

func TestJournalLimits(t *testing.T) {
	ctx := context.Background()
	loop := func(n int, u condense.Usage) []agenttest.Reply {
		var rs []agenttest.Reply
		for i := range n {
			rs = append(rs, agenttest.CallTools("", agenttest.Call{ID: fmt.Sprintf("c%d", i), Name: "lookup", Input: lookupIn{Order: "o"}}).WithUsage(u))
		}
		return append(rs, agenttest.Text("done").WithUsage(u))
	}
	u := condense.Usage{InputTokens: 500, OutputTokens: 100}
	cases := []struct {
		name    string
		limits  agent.Limits
		replies []agenttest.Reply
		ticket  bool
		limit   string
		call    int
		calls   int // model calls made
	}{
		{"model calls", agent.Limits{MaxModelCalls: 2}, loop(4, u), false, agent.LimitModelCalls, 3, 2},
		{"tokens", agent.Limits{MaxTotalTokens: 1000}, loop(4, u), false, agent.LimitTotalTokens, 3, 2},
		{"cost", agent.Limits{MaxCostUSD: 1.0}, loop(4, u), false, agent.LimitCostUSD, 3, 2},
		{"room enough", agent.Limits{MaxModelCalls: 5, MaxTotalTokens: 3000, MaxCostUSD: 2.6}, loop(4, u), false, "", 0, 5},
		// Summaries made for compaction count: three summaries, then the
		// agent's call is refused, or the third summary is.
		{"summaries count", agent.Limits{MaxModelCalls: 3}, []agenttest.Reply{agenttest.Text("A"), agenttest.Text("B"), agenttest.Text("C")}, true, agent.LimitModelCalls, 1, 3},
		{"summary refused", agent.Limits{MaxModelCalls: 2}, []agenttest.Reply{agenttest.Text("A"), agenttest.Text("B")}, true, agent.LimitModelCalls, 4, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			llm := agenttest.NewFakeModel(c.replies...)
			st := journal.NewMemory()
			var n int
			a := &agent.Agent{Name: "ticket", Model: llm, Journal: st, NewCounter: newCounter, Limits: c.limits, Tools: []agent.Tool{lookupTool(&n)},
				Prices: tokens.Prices{"test-model": {Input: 800, Output: 1000}}} // $0.50 a call
			req := condense.Request{Model: "test-model", Messages: []condense.Message{condense.UserText("go")}}
			if c.ticket {
				a.Strategy, a.Settings, req = summarizeMiddle("summarize_middle", 5), ticketSettings, ticket(8)
			} else {
				a.Settings = condense.Settings{Window: 100_000}
			}
			res, err := a.Run(ctx, req, agent.WithRunID("r"))
			if len(llm.Calls()) != c.calls {
				t.Errorf("%d model calls made, want %d", len(llm.Calls()), c.calls)
			}
			evs := mustLoad(t, st, "r")
			last := evs[len(evs)-1]
			if c.limit == "" {
				if err != nil {
					t.Fatal(err)
				}
				if res.Usage.CostUSD < 2.49 || res.Usage.Total() != 3000 {
					t.Errorf("usage %+v", res.Usage)
				}
				return
			}
			var le *agent.LimitError
			if !errors.As(err, &le) || !errors.Is(err, agent.ErrLimitExceeded) || le.Limit != c.limit || le.CallIndex != c.call {
				t.Fatalf("err = %v (%+v), want %s before call %d", err, le, c.limit, c.call)
			}
			if last.Kind != journal.KindRunError || last.Error.Code != "limit_exceeded" || last.Error.Limit != c.limit || last.Error.CallIndex != c.call {
				t.Errorf("last event %s", journal.Comparable(last))
			}
		})
	}
}
