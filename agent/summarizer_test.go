package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/summarize"
)

// The built-in summarize strategy, given JournaledSummarizer, has its
// summaries journaled, counted and served on resume like a custom
// strategy's.
func TestResumeBuiltInSummarizeJournaled(t *testing.T) {
	ctx := context.Background()
	summary := "## Summary\nThe customer was double-charged for order o-7.\n## Decisions\n- Refund approved.\n## Pending\n- Issue the refund."
	llm := agenttest.NewFakeModel(agenttest.Text(summary).WithUsage(condense.Usage{InputTokens: 900, OutputTokens: 40}), agenttest.Text("Issue the refund."))
	r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter,
		Strategy: strategy.Summarize{Summarizer: agent.JournaledSummarizer(), RecentTokens: 1}, Settings: ticketSettings})
	r.CrashAt(agent.CallModel, 1)
	if _, err := r.Run(ctx, ticket(8)); !errors.Is(err, agenttest.ErrCrash) {
		t.Fatal(err)
	}
	res, err := r.Run(ctx, ticket(8))
	if err != nil {
		t.Fatal(err)
	}
	if n := len(llm.Calls()); n != 2 {
		t.Fatalf("%d model calls, want 2 (one summary, one answer)", n)
	}
	if len(res.Compactions) != 1 || res.ModelCalls != 2 || res.Usage.InputTokens != 900 {
		t.Fatalf("compactions %d, model calls %d, usage %+v", len(res.Compactions), res.ModelCalls, res.Usage)
	}
	last := llm.Calls()[1]
	joined := ""
	for _, m := range last.Messages {
		joined += m.TextContent()
	}
	if !strings.Contains(joined, "double-charged for order o-7") || !strings.Contains(joined, "<summary") {
		t.Fatalf("the summary is not in the final request:\n%s", joined)
	}
	evs, _ := r.Journal(ctx)
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm/summary context:compacted step:done/llm run:done" {
		t.Fatalf("journal %s", got)
	}
	if _, err := r.Verify(ctx, ticket(8)); err != nil {
		t.Fatal(err)
	}
	if _, err := agent.JournaledSummarizer().Summarize(ctx, summarize.Input{Messages: []condense.Message{condense.UserText("x")}}); err == nil {
		t.Fatal("JournaledSummarizer outside a run did not fail")
	}
}
