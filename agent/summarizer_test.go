package agent_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

// The built-in summarize strategy has its summaries written by the agent
// (its model, here), journaled, counted and served on resume like a custom
// strategy's.
func TestResumeBuiltInSummarizeJournaled(t *testing.T) {
	ctx := context.Background()
	summary := "## Summary\nThe customer was double-charged for order o-7.\n## Decisions\n- Refund approved.\n## Pending\n- Issue the refund."
	llm := agenttest.NewFakeModel(agenttest.Text(summary).WithUsage(condense.Usage{InputTokens: 900, OutputTokens: 40}), agenttest.Text("Issue the refund."))
	r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter,
		Strategy: strategy.Summarize{RecentTokens: 1}, Settings: ticketSettings})
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

}

// countingSummarizer writes a fixed summary and counts its calls.
type countingSummarizer struct{ calls int }

func (c *countingSummarizer) Summarize(_ context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	c.calls++
	return &condense.Summary{Text: "## Summary\nThe customer of ticket T-9 wrote " + strconv.Itoa(len(req.Messages)) + " messages."}, nil
}

// Agent.Summarizer writes the summaries of the default strategy (no
// strategy given): journaled, and served on replay without calling it.
func TestAgentSummarizerUnderDefaultStrategy(t *testing.T) {
	ctx := context.Background()
	sum := &countingSummarizer{}
	llm := agenttest.NewFakeModel(agenttest.Text("Refund the customer."))
	r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter,
		Summarizer: sum, Settings: ticketSettings})
	res, err := r.Run(ctx, ticket(8))
	if err != nil {
		t.Fatal(err)
	}
	if sum.calls != 1 || len(llm.Calls()) != 1 || len(res.Compactions) != 1 {
		t.Fatalf("summarizer calls %d, model calls %d, compactions %d; want 1, 1, 1", sum.calls, len(llm.Calls()), len(res.Compactions))
	}
	if !strings.Contains(joinedText(llm.Calls()[0].Messages), "The customer of ticket T-9 wrote") {
		t.Fatal("the summarizer's summary is not in the request")
	}
	evs, _ := r.Journal(ctx)
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm/summary context:compacted step:done/llm run:done" {
		t.Fatalf("journal %s", got)
	}
	if _, err := r.Verify(ctx, ticket(8)); err != nil {
		t.Fatal(err)
	}
	if sum.calls != 1 {
		t.Fatalf("replay called the summarizer again (%d calls)", sum.calls)
	}
}

func joinedText(msgs []condense.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		b.WriteString(m.TextContent())
	}
	return b.String()
}

// The agent's own model writes summaries under the same bounds as a
// provider summarizer: a model that never answers fails the summary with
// a timeout (the run goes on without compacting), and a span larger than
// the model's window is trimmed to fit the summary request.
func TestModelSummaryBounds(t *testing.T) {
	ctx := context.Background()
	t.Run("timeout", func(t *testing.T) {
		llm := agenttest.NewFakeModel()
		llm.Func = func(ctx context.Context, n int, req *condense.Request) (*agent.Response, error) {
			if req.System == summarize.SystemPrompt {
				<-ctx.Done() // a summary request that never answers
				return nil, ctx.Err()
			}
			return agenttest.Text("Refund the customer.").Response, nil
		}
		r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter, SummaryTimeout: time.Millisecond,
			Strategy: strategy.Summarize{RecentTokens: 1}, Settings: ticketSettings})
		res, err := r.Run(ctx, ticket(8))
		if err != nil {
			t.Fatalf("the run failed with the summary: %v", err)
		}
		if len(res.Compactions) != 0 {
			t.Fatalf("compactions %d after a timed-out summary", len(res.Compactions))
		}
		evs, _ := r.Journal(ctx)
		found := false
		for _, e := range evs {
			if e.Step != nil && e.Step.Summarize() && e.Step.Error != nil && strings.Contains(e.Step.Error.Message, "timed out") {
				found = true
			}
		}
		if !found {
			t.Fatalf("no timed-out summary step in the journal: %v", kinds(evs))
		}
	})
	t.Run("input budget", func(t *testing.T) {
		var sent string
		llm := agenttest.NewFakeModel()
		llm.Func = func(ctx context.Context, n int, req *condense.Request) (*agent.Response, error) {
			if req.System == summarize.SystemPrompt {
				sent = req.Messages[0].TextContent()
				return agenttest.Text("## Summary\nNotes about ticket T-9.").Response, nil
			}
			return agenttest.Text("Refund the customer.").Response, nil
		}
		reg := tokens.NewRegistry(condense.ModelInfo{Name: "test-model", Window: 1500, MaxOutput: 500})
		r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter, Registry: reg,
			Strategy: strategy.Summarize{RecentTokens: 1}, Settings: condense.Settings{Window: 100_000, Fraction: 0.01}})
		if _, err := r.Run(ctx, ticket(40)); err != nil {
			t.Fatal(err)
		}
		// 40 notes of ~480 bytes do not fit a 1,000-token summary request:
		// the oldest are left out.
		if sent == "" || strings.Contains(sent, "Note 0: ") || !strings.Contains(sent, "Note 39: ") {
			t.Fatalf("summary request of %d bytes; has the oldest note %v, the newest %v",
				len(sent), strings.Contains(sent, "Note 0: "), strings.Contains(sent, "Note 39: "))
		}
	})
}
