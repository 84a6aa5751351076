package session_test

import (
	"testing"

	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/strategy"
)

// Estimate counts what the next Prepare renders before compacting, and
// changes nothing: a session asked for estimates renders the same bytes as
// one never asked.
func TestEstimateMatchesPrepareAndChangesNothing(t *testing.T) {
	st := memstore.New()
	a := open(t, st, "a", options(6000, strategy.Mask{}))
	b := open(t, st, "b", options(6000, strategy.Mask{}))
	for k, p := range []string{"p1", "p2", "p3"} {
		msgs := turn(p, 3+k)
		appendAll(t, a, msgs)
		appendAll(t, b, msgs)
		e, err := a.Estimate(bg)
		if err != nil {
			t.Fatal(err)
		}
		if e.Budget.Window != 6000 || e.Budget.ReservedOutput != 500 || e.Counter == "" {
			t.Fatalf("estimate budget %+v counter %q", e.Budget, e.Counter)
		}
		ra := prepare(t, a)
		rb := prepare(t, b)
		if e.Tokens != ra.TokensBefore {
			t.Errorf("turn %s: estimate %d tokens, Prepare counted %d before compacting", p, e.Tokens, ra.TokensBefore)
		}
		if requestJSON(t, ra.Request) != requestJSON(t, rb.Request) {
			t.Fatalf("turn %s: a session asked for an estimate renders differently", p)
		}
		after, err := a.Estimate(bg)
		if err != nil {
			t.Fatal(err)
		}
		if after.Tokens != ra.Tokens || after.Messages != len(ra.Request.Messages) {
			t.Errorf("turn %s: estimate after Prepare %d tokens / %d messages, want %d / %d", p, after.Tokens, after.Messages, ra.Tokens, len(ra.Request.Messages))
		}
		if len(ra.Records) > 0 && after.Percent() >= 100 {
			t.Errorf("turn %s: %.1f%% of the input limit after compacting", p, after.Percent())
		}
	}
	if len(a.Checkpoints()) == 0 {
		t.Fatal("no compaction happened: the test proves nothing about estimates over a checkpoint")
	}
}

func TestEstimateClosed(t *testing.T) {
	s := open(t, memstore.New(), "a", options(6000, nil))
	s.Close()
	if _, err := s.Estimate(bg); err == nil {
		t.Fatal("Estimate on a closed session succeeded")
	}
	var e session.Estimate
	if e.Percent() != 0 {
		t.Fatal("percent of an unknown window")
	}
}
