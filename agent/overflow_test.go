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
	"github.com/condense-dev/condense/strategy"
)

func tooLarge() error {
	return &condense.APIError{Provider: "fake", Status: 400, Type: "invalid_request_error", Message: "prompt is too long: 210000 tokens > 200000 maximum", Kind: condense.ErrContextTooLarge}
}

func overflowAgent(llm agent.Model, st journal.Store) *agent.Agent {
	return &agent.Agent{Name: "ticket", Model: llm, Journal: st, NewCounter: newCounter, Strategy: strategy.DropOldest{},
		Settings: condense.Settings{Window: 100_000, ReservedOutput: 200}}
}

// A provider that still answers "context too large" once gets one
// emergency compaction and one retry.
func TestJournalOverflowRecoversOnce(t *testing.T) {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(agenttest.Fail(tooLarge()), agenttest.Text("Issue the refund."))
	st := journal.NewMemory()
	res, err := overflowAgent(llm, st).Run(ctx, ticket(8), agent.WithRunID("r"))
	if err != nil {
		t.Fatal(err)
	}
	calls := llm.Calls()
	if len(calls) != 2 || len(calls[1].Messages) >= len(calls[0].Messages) {
		t.Fatalf("%d calls; the retry sent %d messages after %d", len(calls), len(calls[len(calls)-1].Messages), len(calls[0].Messages))
	}
	if res.Text() != "Issue the refund." {
		t.Fatalf("answer %q", res.Text())
	}
	evs := mustLoad(t, st, "r")
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm context:compacted step:done/llm run:done" {
		t.Fatalf("journal %s", got)
	}
	if e := evs[1].Step.Error; e == nil || e.Code != "context_too_large" {
		t.Errorf("the refused call is journaled with %+v", e)
	}
	if c := evs[2].Compacted; !c.Emergency || c.CallIndex != 2 || c.Strategy != "drop-oldest" || c.MessagesAfter >= c.MessagesBefore {
		t.Errorf("emergency compaction %+v", c)
	}

	// Resuming after a crash before the retry serves the refusal and
	// compacts the same way.
	llm2 := agenttest.NewFakeModel(agenttest.Fail(tooLarge()), agenttest.Text("Issue the refund."))
	r := agenttest.NewRunner(overflowAgent(llm2, nil))
	r.CrashAt(agent.CallModel, 2)
	if _, err := r.Run(ctx, ticket(8)); !errors.Is(err, agenttest.ErrCrash) {
		t.Fatal(err)
	}
	if _, err := r.Run(ctx, ticket(8)); err != nil {
		t.Fatal(err)
	}
	got, _ := r.Journal(ctx)
	if len(got) != len(evs) || len(llm2.Calls()) != 2 {
		t.Fatalf("resumed journal has %d events (want %d), %d calls", len(got), len(evs), len(llm2.Calls()))
	}
	for i := range got {
		if !journal.Same(got[i], evs[i].Redact(journal.CaptureFull)) {
			got[i].Run, evs[i].Run = "", ""
			if !journal.Same(got[i], evs[i]) {
				t.Errorf("event %d:\n got %s\nwant %s", i, journal.Comparable(got[i]), journal.Comparable(evs[i]))
			}
		}
	}
}

// Twice: the run ends with a typed error, journaled.
func TestJournalOverflowTwiceIsTypedError(t *testing.T) {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(agenttest.Fail(tooLarge()), agenttest.Fail(tooLarge()), agenttest.Text("never"))
	st := journal.NewMemory()
	_, err := overflowAgent(llm, st).Run(ctx, ticket(8), agent.WithRunID("r"))
	var oe *agent.OverflowError
	if !errors.As(err, &oe) || !errors.Is(err, condense.ErrContextTooLarge) || oe.CallIndex != 2 || oe.Window != 100_000 {
		t.Fatalf("err = %v", err)
	}
	if len(llm.Calls()) != 2 {
		t.Fatalf("%d calls, want 2: one retry only", len(llm.Calls()))
	}
	evs := mustLoad(t, st, "r")
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm context:compacted step:done/llm run:error" {
		t.Fatalf("journal %s", got)
	}
	last := evs[len(evs)-1].Error
	if last.Code != "context_too_large" || last.Window != 100_000 || last.Tokens == 0 {
		t.Errorf("run:error %+v", last)
	}
	// Nothing to compact: the refusal ends the run at once.
	llm = agenttest.NewFakeModel(agenttest.Fail(tooLarge()))
	short := condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("hi")}}
	if _, err := overflowAgent(llm, nil).Run(ctx, short); !errors.As(err, &oe) || oe.Compaction == nil || len(llm.Calls()) != 1 {
		t.Fatalf("nothing to compact: %v, %d calls", err, len(llm.Calls()))
	}
}

// The size a "context too large" answer reports feeds the counter's
// correction before the emergency compaction.
func TestJournalOverflowCalibrates(t *testing.T) {
	ctx := context.Background()
	var counter condense.Counter
	llm := agenttest.NewFakeModel(agenttest.Fail(tooLarge()), agenttest.Text("ok"))
	a := overflowAgent(llm, nil)
	a.NewCounter = func(m string) condense.Counter { counter = newCounter(m); return counter }
	if _, err := a.Run(ctx, ticket(8)); err != nil {
		t.Fatal(err)
	}
	if f := counter.(condense.Corrector).Correction(); f < 2 {
		t.Fatalf("correction %v after the provider reported 210,000 tokens for a ~1,100-token estimate", f)
	}
}

// An emergency compaction that the corrected count still finds over the
// input limit is not sent: context_window_exceeded, journaled, one
// provider call in all.
func TestJournalOverflowEmergencyStillTooLarge(t *testing.T) {
	ctx := context.Background()
	dropOne := condense.Func("drop_one", func(ctx context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		msgs := cc.Current.Messages()
		return append(msgs[:1:1], msgs[2:]...), nil
	})
	llm := agenttest.NewFakeModel(agenttest.Fail(tooLarge()), agenttest.Text("never"))
	st := journal.NewMemory()
	a := &agent.Agent{Model: llm, Journal: st, NewCounter: newCounter, Strategy: dropOne,
		Settings: condense.Settings{Window: 4000, ReservedOutput: 200, Fraction: 0.9}}
	_, err := a.Run(ctx, ticket(8), agent.WithRunID("r"))
	var we *condense.WindowError
	if !errors.As(err, &we) || we.Tokens <= we.InputLimit {
		t.Fatalf("err = %v", err)
	}
	if len(llm.Calls()) != 1 {
		t.Fatalf("%d provider calls, want 1", len(llm.Calls()))
	}
	evs := mustLoad(t, st, "r")
	if got := strings.Join(kinds(evs), " "); got != "run:started step:done/llm context:compacted run:error" {
		t.Fatalf("journal %s", got)
	}
	if e := evs[len(evs)-1].Error; e.Code != "context_window_exceeded" || e.Tokens != we.Tokens || e.Window != 4000 {
		t.Fatalf("run:error %+v", e)
	}
}
