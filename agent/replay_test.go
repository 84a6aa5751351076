package agent_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
)

var ticketSettings = condense.Settings{Window: 2000, ReservedOutput: 200, Fraction: 0.5}

// recordTicket runs the ticket agent with a strategy making summarize
// calls of at most per messages, and returns its journal store.
func recordTicket(t *testing.T, per int, replies ...agenttest.Reply) (*journal.Memory, *agenttest.FakeModel) {
	t.Helper()
	llm := agenttest.NewFakeModel(replies...)
	st := journal.NewMemory()
	a := &agent.Agent{Name: "ticket", Model: llm, Journal: st, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", per), Settings: ticketSettings}
	if _, err := a.Run(context.Background(), ticket(8), agent.WithRunID("t")); err != nil {
		t.Fatal(err)
	}
	return st, llm
}

func verify(st journal.Store, a *agent.Agent, opts ...agent.RunOption) (*agent.Result, error) {
	a.Journal = st
	if a.NewCounter == nil {
		a.NewCounter = newCounter
	}
	return a.Run(context.Background(), ticket(8), append(opts, agent.WithRunID("t"), agent.Verify())...)
}

func TestReplayMatchesWithoutCalls(t *testing.T) {
	st, _ := recordTicket(t, 0, agenttest.Text("Refund approved."), agenttest.Text("Issue the refund."))
	res, err := verify(st, &agent.Agent{Name: "ticket", Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings})
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "Issue the refund." || len(res.Request.Messages) != 4 {
		t.Fatalf("replayed %q with %d messages", res.Text(), len(res.Request.Messages))
	}
	if n := len(mustLoad(t, st, "t")); n != 5 {
		t.Fatalf("journal has %d events after a replay, want 5", n)
	}
}

// A strategy that makes fewer summarize calls than the journal recorded
// stops replay with "recorded context compaction was not consumed".
func TestReplayFewerSummarizeCallsNotConsumed(t *testing.T) {
	st, _ := recordTicket(t, 5, agenttest.Text("A."), agenttest.Text("B."), agenttest.Text("C."), agenttest.Text("Issue the refund."))
	evs := mustLoad(t, st, "t")
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm/summary step:done/llm/summary step:done/llm/summary context:compacted step:done/llm run:done" {
		t.Fatalf("recorded %s", got)
	}
	_, err := verify(st, &agent.Agent{Name: "ticket", Strategy: summarizeMiddle("summarize_middle", 8), Settings: ticketSettings})
	if err == nil || err.Error() != "recorded context compaction was not consumed" || !errors.Is(err, journal.ErrCompactionNotConsumed) {
		t.Fatalf("err = %v", err)
	}
	// The same strategy consumes them all.
	if _, err := verify(st, &agent.Agent{Name: "ticket", Strategy: summarizeMiddle("summarize_middle", 5), Settings: ticketSettings}); err != nil {
		t.Fatal(err)
	}
	// A strategy that makes more calls than recorded diverges too.
	_, err = verify(st, &agent.Agent{Name: "ticket", Strategy: summarizeMiddle("summarize_middle", 2), Settings: ticketSettings})
	if !errors.Is(err, journal.ErrDiverged) || !strings.Contains(err.Error(), "summarize call the journal does not hold") {
		t.Fatalf("more summarize calls: %v", err)
	}
}

// Changing only the window (or the fraction) does not make a recorded call
// look changed: the fingerprint is taken before compaction.
func TestReplayWindowChangeStillMatches(t *testing.T) {
	st, _ := recordTicket(t, 0, agenttest.Text("Refund approved."), agenttest.Text("Issue the refund."))
	for _, s := range []condense.Settings{
		{Window: 2100, ReservedOutput: 200, Fraction: 0.5},
		{Window: 2000, ReservedOutput: 200, Fraction: 0.4},
	} {
		res, err := verify(st, &agent.Agent{Name: "ticket", Strategy: summarizeMiddle("summarize_middle", 0), Settings: s})
		if err != nil {
			t.Fatalf("%+v: %v", s, err)
		}
		if w := res.Compactions[0].Window; w != s.Window {
			t.Errorf("compaction under window %d", w)
		}
	}
	// A window so large that nothing is compacted leaves the recorded
	// summary unconsumed.
	_, err := verify(st, &agent.Agent{Name: "ticket", Strategy: summarizeMiddle("summarize_middle", 0), Settings: condense.Settings{Window: 100_000, ReservedOutput: 200}})
	if !errors.Is(err, journal.ErrCompactionNotConsumed) {
		t.Fatalf("no compaction: %v", err)
	}
}

func TestReplayDivergences(t *testing.T) {
	st, _ := recordTicket(t, 0, agenttest.Text("Refund approved."), agenttest.Text("Issue the refund."))
	a := &agent.Agent{Name: "ticket", Journal: st, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings}
	req := ticket(8)
	req.Messages[3] = condense.UserText("Note 1: changed")
	_, err := a.Run(context.Background(), req, agent.WithRunID("t"), agent.Verify())
	var de *journal.DivergenceError
	if !errors.As(err, &de) || de.Seq != 1 || !strings.Contains(err.Error(), "different request") {
		t.Fatalf("changed request: %v", err)
	}
	// A tool that was not there: the agent offers it, the request's
	// fingerprint changes.
	a.Tools = []agent.Tool{agent.NewTool("x", "x", func(context.Context, struct{}) (string, error) { return "", nil })}
	if _, err := a.Run(context.Background(), ticket(8), agent.WithRunID("t"), agent.Verify()); !errors.Is(err, journal.ErrDiverged) {
		t.Fatalf("changed tools: %v", err)
	}
	if _, err := (&agent.Agent{Journal: st}).Run(context.Background(), ticket(8), agent.WithRunID("missing"), agent.Verify()); !errors.Is(err, journal.ErrNotFound) {
		t.Fatalf("missing journal: %v", err)
	}
}

// A crash after a journaled summary resumes without asking for it again
// and writes no second context:compacted event.
func TestResumeAfterSummaryCrash(t *testing.T) {
	ctx := context.Background()
	for _, crash := range []struct {
		kind agent.CallKind
		nth  int
	}{{agent.CallModel, 1}, {agent.CallSummarize, 2}, {agent.CallSummarize, 3}} {
		llm := agenttest.NewFakeModel(agenttest.Text("A."), agenttest.Text("B."), agenttest.Text("C."), agenttest.Text("Issue the refund."))
		r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 5), Settings: ticketSettings})
		r.CrashAt(crash.kind, crash.nth)
		if _, err := r.Run(ctx, ticket(8)); !errors.Is(err, agenttest.ErrCrash) {
			t.Fatalf("%v: %v", crash, err)
		}
		before := len(llm.Calls())
		res, err := r.Run(ctx, ticket(8))
		if err != nil {
			t.Fatalf("%v: resume: %v", crash, err)
		}
		if n := len(llm.Calls()); n != 4 {
			t.Errorf("%v: %d model calls in all (%d before the crash), want 4: a summary was asked for again", crash, n, before)
		}
		if res.Text() != "Issue the refund." {
			t.Errorf("%v: answer %q", crash, res.Text())
		}
		evs, _ := r.Journal(ctx)
		if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm/summary step:done/llm/summary step:done/llm/summary context:compacted step:done/llm run:done" {
			t.Errorf("%v: journal %s", crash, got)
		}
		// Resuming a finished run serves everything.
		if _, err := r.Run(ctx, ticket(8)); err != nil || len(llm.Calls()) != 4 {
			t.Errorf("%v: rerun of a finished run: %v, %d calls", crash, err, len(llm.Calls()))
		}
	}
}

// A journal captured below full cannot be resumed, and holds no content.
func TestJournalCaptureCountsHasNoContent(t *testing.T) {
	ctx := context.Background()
	for _, c := range []journal.Capture{journal.CaptureCounts, journal.CaptureNone} {
		st := journal.NewMemory()
		llm := agenttest.NewFakeModel(agenttest.Text("Customer was double-charged."), agenttest.Text("Issue the refund."))
		a := &agent.Agent{Name: "ticket", Model: llm, Journal: st, Capture: c, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings}
		if _, err := a.Run(ctx, ticket(8), agent.WithRunID("t")); err != nil {
			t.Fatal(err)
		}
		evs := mustLoad(t, st, "t")
		for _, e := range evs {
			b, _ := e.MarshalJSON()
			for _, secret := range []string{"double-charged", "Issue the refund", "details", "T-9"} {
				if strings.Contains(string(b), secret) {
					t.Errorf("capture %s: %s holds %q", c, e.Kind, secret)
				}
			}
		}
		if cs := compactions(evs); len(cs) != 1 || cs[0].MessagesBefore != 18 || cs[0].MessagesAfter != 4 || cs[0].Strategy != "summarize_middle" {
			t.Errorf("capture %s: compactions %+v", c, cs)
		}
		if _, err := a.Run(ctx, ticket(8), agent.WithRunID("t")); !errors.Is(err, journal.ErrNotReplayable) {
			t.Errorf("capture %s: resume: %v", c, err)
		}
	}
}

// A provider failure other than "context too large" ends the run with a
// transient run:error: resuming calls the provider again and goes on.
func TestResumeAfterTransientError(t *testing.T) {
	ctx := context.Background()
	rate := &condense.APIError{Provider: "fake", Status: 429, Message: "slow down", Kind: condense.ErrRateLimited}
	llm := agenttest.NewFakeModel(agenttest.Text("Refund approved."), agenttest.Fail(rate), agenttest.Text("Issue the refund."))
	r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings})
	if _, err := r.Run(ctx, ticket(8)); !errors.Is(err, condense.ErrRateLimited) {
		t.Fatalf("first run: %v", err)
	}
	res, err := r.Run(ctx, ticket(8))
	if err != nil {
		t.Fatal(err)
	}
	if res.Text() != "Issue the refund." || len(llm.Calls()) != 3 {
		t.Fatalf("%q after %d calls", res.Text(), len(llm.Calls()))
	}
	evs, _ := r.Journal(ctx)
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm/summary context:compacted run:error step:done/llm run:done" {
		t.Fatalf("journal %s", got)
	}
	if evs[3].Error.Code != "rate_limited" || evs[3].Error.Final() {
		t.Fatalf("run:error %+v", evs[3].Error)
	}
	// The journal, transient error included, resumes and replays.
	if _, err := r.Run(ctx, ticket(8)); err != nil || len(llm.Calls()) != 3 {
		t.Fatalf("rerun: %v, %d calls", err, len(llm.Calls()))
	}
	if _, err := r.Verify(ctx, ticket(8)); err != nil {
		t.Fatal(err)
	}
}

// A resumed streamed run hands the served answers to the stream callback
// too, and the caller's request is never modified.
func TestResumeStreamsServedAnswers(t *testing.T) {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(agenttest.Text("Refund approved."), agenttest.Text("Issue the refund."))
	r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings})
	req := ticket(8)
	before := agent.Fingerprint(req)
	n := len(req.Messages)
	if _, err := r.Run(ctx, req); err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	res, err := r.Run(ctx, req, agent.WithStream(func(e agent.StreamEvent) {
		if e.Type == agent.EventText {
			text.WriteString(e.Text)
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if text.String() != "Issue the refund." || res.Text() != text.String() || len(llm.Calls()) != 2 {
		t.Fatalf("streamed %q, result %q, %d calls", text.String(), res.Text(), len(llm.Calls()))
	}
	if agent.Fingerprint(req) != before || len(req.Messages) != n {
		t.Fatal("the caller's request was modified")
	}
}

// A summary that comes back while the run is being cancelled is journaled:
// the resumed run is served it instead of paying for it again.
func TestResumeAfterCancelDuringSummary(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	llm := agenttest.NewFakeModel() // answers through Func
	llm.Func = func(_ context.Context, n int, _ *condense.Request) (*agent.Response, error) {
		if n == 1 { // the summary: the run is cancelled while it is on the wire
			cancel()
			return &agent.Response{Message: condense.AssistantText("Customer was double-charged."), StopReason: agent.StopEndTurn}, nil
		}
		return &agent.Response{Message: condense.AssistantText("Issue the refund."), StopReason: agent.StopEndTurn}, nil
	}
	r := agenttest.NewRunner(&agent.Agent{Name: "ticket", Model: llm, NewCounter: newCounter, Strategy: summarizeMiddle("summarize_middle", 0), Settings: ticketSettings})
	if _, err := r.Run(ctx, ticket(8)); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
	if len(llm.Calls()) != 1 {
		t.Fatalf("%d calls before the resume", len(llm.Calls()))
	}
	res, err := r.Run(context.Background(), ticket(8))
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if len(llm.Calls()) != 2 || res.Text() != "Issue the refund." {
		t.Fatalf("%d calls in all (the summary was asked for again?), answer %q", len(llm.Calls()), res.Text())
	}
}
