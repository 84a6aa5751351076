package agenttest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestResumeTicket pins every claim of the ticket example (ExampleRunner
// shows it as documentation).
func TestResumeTicket(t *testing.T) {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(
		agenttest.Text("Customer was double-charged; refund approved."),
		agenttest.Text("Issue the refund."),
	)
	runner := agenttest.NewRunner(&agent.Agent{
		Name:     "ticket",
		Model:    llm,
		Strategy: summarizeMiddle,
		Settings: condense.Settings{Window: 2_000, ReservedOutput: 200, Fraction: 0.5},
	})
	var notes []string
	for i := range 8 {
		notes = append(notes, fmt.Sprintf("Note %d: ", i)+strings.Repeat("details ", 60))
	}
	runner.CrashAt(agent.CallModel, 1)
	if _, err := runner.Run(ctx, ticket(notes)); !errors.Is(err, agenttest.ErrCrash) {
		t.Fatalf("first run: %v, want the injected crash", err)
	}
	if n := len(llm.Calls()); n != 1 {
		t.Fatalf("%d calls before the crash, want 1 (the summary)", n)
	}
	crashed, _ := runner.Journal(ctx)

	res, err := runner.Run(ctx, ticket(notes))
	if err != nil {
		t.Fatal(err)
	}
	calls := llm.Calls()
	summaries := 0
	for _, c := range calls {
		if len(c.Tools) == 0 && strings.Contains(c.Messages[0].TextContent(), "Summarize the ticket history.") {
			summaries++
		}
	}
	if len(calls) != 2 || summaries != 1 {
		t.Fatalf("%d calls, %d summaries: the summary was asked for again", len(calls), summaries)
	}
	if n := len(calls[1].Messages); n != 4 {
		t.Fatalf("the final request has %d messages, want 4", n)
	}
	if !strings.HasPrefix(calls[1].Messages[1].TextContent(), "Earlier: Customer was double-charged") {
		t.Fatalf("the summary message: %q", calls[1].Messages[1].TextContent())
	}
	if res.Text() != "Issue the refund." {
		t.Fatalf("answer %q", res.Text())
	}
	events, _ := runner.Journal(ctx)
	var compacted []*journal.Compacted
	for _, e := range events {
		if e.Compacted != nil {
			compacted = append(compacted, e.Compacted)
		}
	}
	if len(compacted) != 1 {
		t.Fatalf("%d context:compacted events, want 1: a resumed run writes none for a call already served", len(compacted))
	}
	c := compacted[0]
	if c.MessagesBefore != 18 || c.MessagesAfter != 4 || c.Strategy != "summarize_middle" || c.Window != 2000 || c.TokensAfter >= c.TokensBefore {
		t.Fatalf("context:compacted %+v", c)
	}
	// The resumed journal continues the crashed one.
	for i := range crashed {
		if !journal.Same(crashed[i], events[i]) {
			t.Fatalf("event %d changed on resume", i+1)
		}
	}
	if last := events[len(events)-1]; last.Kind != journal.KindRunDone || *last.Done.Result != "Issue the refund." {
		t.Fatalf("last event %s", journal.Comparable(last))
	}
	// The journal replays offline.
	if _, err := runner.Verify(ctx, ticket(notes)); err != nil {
		t.Fatalf("verify: %v", err)
	}
}

func TestJournalFakeModelScript(t *testing.T) {
	ctx := context.Background()
	f := agenttest.NewFakeModel(agenttest.Text("one"), agenttest.Fail(errors.New("boom")))
	req := &condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("hi")}}
	if r, err := f.Generate(ctx, req); err != nil || r.Text() != "one" {
		t.Fatal(r, err)
	}
	if _, err := agent.Accumulate(f.Stream(ctx, req)); err == nil || err.Error() != "boom" {
		t.Fatalf("scripted failure: %v", err)
	}
	if _, err := f.Generate(ctx, req); err == nil {
		t.Fatal("a call past the script succeeded")
	}
	req.Messages[0] = condense.UserText("changed")
	if got := f.Calls()[0].Messages[0].TextContent(); got != "hi" {
		t.Fatalf("recorded call shares the caller's messages: %q", got)
	}
}
