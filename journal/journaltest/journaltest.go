package journaltest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
)

// Events returns n events of run: a run:started, then alternating steps and
// compactions, numbered from first.
func Events(run string, first, n int) []journal.Event {
	out := make([]journal.Event, 0, n)
	for i := first; i < first+n; i++ {
		e := journal.Event{Seq: int64(i), Run: run, Time: time.Unix(int64(i), 0).UTC()}
		switch {
		case i == 1:
			doc := condense.DocumentOf(condense.Request{Model: "m", Messages: []condense.Message{condense.UserText("task")}})
			e.Kind, e.Started = journal.KindRunStarted, &journal.RunStarted{Model: "m", Capture: journal.CaptureFull, Strategy: "s", Messages: 1, Fingerprint: "00", Request: &doc}
		case i%2 == 0:
			msg := condense.AssistantText(fmt.Sprintf("answer %d", i))
			e.Kind, e.Step = journal.KindStepDone, &journal.Step{StepKind: journal.StepLLM, CallIndex: i, Fingerprint: fmt.Sprintf("%016x", i), Response: &msg,
				Usage: &condense.Usage{InputTokens: i * 10, OutputTokens: i, CostUSD: 0.001}}
			e.Duration = time.Duration(i) * time.Millisecond
		default:
			e.Kind, e.Compacted = journal.KindCompacted, &journal.Compacted{CallIndex: i, TokensBefore: 100 * i, TokensAfter: 10 * i, Window: 2000, MessagesBefore: 18, MessagesAfter: 4, Strategy: "summarize_middle"}
		}
		out = append(out, e)
	}
	return out
}

// Run runs the conformance suite against stores made by open. open is
// called once per subtest and must return an empty store; reopen, when
// not nil, returns a new store over the same data as the one given
// (closing it), to check durability.
func Run(t *testing.T, open func(t *testing.T) journal.Store, reopen func(t *testing.T, s journal.Store) journal.Store) {
	ctx := context.Background()
	t.Run("JournalAppendLoad", func(t *testing.T) {
		s := open(t)
		defer s.Close()
		if _, err := s.Load(ctx, "r1"); !errors.Is(err, journal.ErrNotFound) {
			t.Fatalf("Load of a new run: %v, want ErrNotFound", err)
		}
		evs := Events("r1", 1, 5)
		if err := s.Append(ctx, "r1", evs[:2]...); err != nil {
			t.Fatal(err)
		}
		if err := s.Append(ctx, "r1", evs[2:]...); err != nil {
			t.Fatal(err)
		}
		got, err := s.Load(ctx, "r1")
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(evs) {
			t.Fatalf("loaded %d events, want %d", len(got), len(evs))
		}
		for i := range evs {
			if !journal.Same(got[i], evs[i]) || got[i].Duration != evs[i].Duration || !got[i].Time.Equal(evs[i].Time) {
				t.Errorf("event %d:\n got %s\nwant %s", i, journal.Comparable(got[i]), journal.Comparable(evs[i]))
			}
		}
	})
	t.Run("JournalSequence", func(t *testing.T) {
		s := open(t)
		defer s.Close()
		evs := Events("r1", 1, 4)
		if err := s.Append(ctx, "r1", evs[1]); !errors.Is(err, journal.ErrSequence) {
			t.Fatalf("append starting at seq 2 to an empty run: %v, want ErrSequence", err)
		}
		if err := s.Append(ctx, "r1", evs[0], evs[2]); !errors.Is(err, journal.ErrSequence) {
			t.Fatalf("append with a gap: %v, want ErrSequence", err)
		}
		if _, err := s.Load(ctx, "r1"); !errors.Is(err, journal.ErrNotFound) {
			t.Fatalf("a refused append stored something: %v", err)
		}
		if err := s.Append(ctx, "bad/id", evs[0]); !errors.Is(err, journal.ErrInvalidRun) {
			t.Fatalf("append to run \"bad/id\": %v, want ErrInvalidRun", err)
		}
	})
	t.Run("JournalRuns", func(t *testing.T) {
		s := open(t)
		defer s.Close()
		for _, id := range []string{"b", "a", "c"} {
			if err := s.Append(ctx, id, Events(id, 1, 2)...); err != nil {
				t.Fatal(err)
			}
		}
		ids, err := s.Runs(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(ids) != "[a b c]" {
			t.Fatalf("Runs = %v, want [a b c]", ids)
		}
	})
	t.Run("JournalConcurrentRuns", func(t *testing.T) {
		s := open(t)
		defer s.Close()
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for w := range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("run-%d", w)
				for i := 1; i <= 10; i++ {
					if err := s.Append(ctx, id, Events(id, i, 1)...); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		for w := range 8 {
			got, err := s.Load(ctx, fmt.Sprintf("run-%d", w))
			if err != nil || len(got) != 10 {
				t.Fatalf("run-%d: %d events, %v", w, len(got), err)
			}
		}
	})
	if reopen != nil {
		t.Run("JournalDurable", func(t *testing.T) {
			s := open(t)
			evs := Events("r1", 1, 3)
			if err := s.Append(ctx, "r1", evs...); err != nil {
				t.Fatal(err)
			}
			s = reopen(t, s)
			defer s.Close()
			got, err := s.Load(ctx, "r1")
			if err != nil || len(got) != 3 {
				t.Fatalf("after reopening: %d events, %v", len(got), err)
			}
			if err := s.Append(ctx, "r1", Events("r1", 4, 1)...); err != nil {
				t.Fatalf("append after reopening: %v", err)
			}
		})
	}
}
