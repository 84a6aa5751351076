package journal_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/faultfs"
	"github.com/condense-dev/condense/internal/testmode"
	"github.com/condense-dev/condense/journal"
)

// powerModel is what the test knows of each run: the events that are
// durable (acknowledged, or found after a cut), and the batches tried
// since without an acknowledgement, any of which a cut may leave whole.
type powerModel struct {
	acked map[string][]journal.Event
	tried map[string][][]journal.Event
}

// powerStats counts what the cuts hit.
type powerStats struct {
	cuts, midBatch, kills, injected, runs, vanished, inDoubt int
}

// TestPowerCut appends to JSONL journals whose files lose every write not
// yet synced at a simulated power cut (a random subset of the unsynced
// sectors survives, and a file whose directory was not synced since its
// creation may be gone), at 300 random points (5,000 under
// CONDENSE_TEST_LONG=1): mid-write, mid-sync, mid-truncate and mid
// directory sync, in batches of one event and of several, some rounds
// after an injected I/O error or a killed process whose successor goes
// on. Every acknowledged append must be there after the cut; beyond it,
// only whole batches that were tried; and the journal must open and take
// further appends.
func TestPowerCut(t *testing.T) {
	cuts := 300
	if testmode.Long() {
		cuts = 5000
	}
	seed := uint64(1)
	if s := os.Getenv("CONDENSE_POWERCUT_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (CONDENSE_POWERCUT_SEED repeats this run)", seed)
	r := rand.New(rand.NewPCG(seed, 2))
	ctx := context.Background()
	dir := t.TempDir()
	m := powerModel{acked: map[string][]journal.Event{}, tried: map[string][][]journal.Event{}}
	var runs []string
	var st powerStats
	attempt := 0
	for cut := 0; cut < cuts; cut++ {
		fail := fmt.Sprintf("cut %d (seed %d)", cut, seed)
		plan := faultfs.Plan{Cut: 1 + r.IntN(16)}
		switch r.IntN(4) {
		case 0:
			plan.Fail = 1 + r.IntN(plan.Cut)
		case 1:
			plan.Kill = 1 + r.IntN(plan.Cut)
		}
		disk := faultfs.New(plan)
		named := namesIn(t, dir)
		open := func() *journal.Dir {
			d, err := journal.OpenDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			journal.Faults(d, disk.Process(), func(path string) bool { return named[path] })
			return d
		}
		run := ""
		if len(runs) == 0 || r.IntN(5) == 0 {
			run = fmt.Sprintf("r%d", len(runs)+1)
			runs = append(runs, run)
			st.runs++
		} else {
			run = runs[r.IntN(len(runs))]
		}
		d := open()
		view := m.acked[run]
		// Append until the power goes.
		for !disk.Cut() {
			attempt++
			batch := powerEvents(r, run, len(view)+1, attempt)
			err := d.Append(ctx, run, batch...)
			if err == nil {
				view = append(view[:len(view):len(view)], batch...)
				m.acked[run], m.tried[run] = view, nil
				continue
			}
			m.tried[run] = append(m.tried[run], batch)
			switch {
			case errors.Is(err, faultfs.ErrPowerCut):
				if len(batch) > 1 {
					st.midBatch++
				}
			case errors.Is(err, faultfs.ErrKilled):
				// The process is gone with its lock; its page cache stays.
				// A new one opens the journal and goes on from what it
				// finds.
				st.kills++
				d.Close()
				d = open()
			case errors.Is(err, faultfs.ErrInjected):
				st.injected++
			default:
				t.Fatalf("%s: append: %v", fail, err)
			}
			if !disk.Cut() {
				var err error
				if view, err = loadRun(ctx, d, run); err != nil {
					t.Fatalf("%s: after %v: %v", fail, err, err)
				}
				if err := m.check(run, view); err != nil {
					t.Fatalf("%s: the running journal after a failed append: %v", fail, err)
				}
			}
		}
		d.Close()
		if err := disk.Restore(r); err != nil {
			t.Fatal(err)
		}
		st.cuts++
		// Power back: the run opens with its acknowledged events and whole
		// tried batches only (the next round appends to it, or another).
		// The other runs' files were not opened.
		d2, err := journal.OpenDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		{
			got, err := loadRun(ctx, d2, run)
			if err != nil {
				raw, _ := os.ReadFile(d2.Path(run))
				for i, l := range strings.SplitAfter(string(raw), "\n") {
					t.Logf("line %d: %q", i+1, l[:min(len(l), 120)])
				}
				t.Logf("faults %+v; %d tried batches, %d events acknowledged", plan, len(m.tried[run]), len(m.acked[run]))
				t.Fatalf("%s: run %s does not load after the cut: %v", fail, run, err)
			}
			if err := m.check(run, got); err != nil {
				t.Fatalf("%s: after the cut: %v", fail, err)
			}
			if len(got) > len(m.acked[run]) {
				st.inDoubt++
			}
			if len(got) == 0 && len(m.tried[run]) > 0 {
				if _, err := os.Stat(d2.Path(run)); errors.Is(err, os.ErrNotExist) {
					st.vanished++
				}
			}
			m.acked[run], m.tried[run] = got, nil
		}
		d2.Close()
	}
	// The journals take appends after the last cut.
	d, err := journal.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	total := 0
	for _, run := range runs {
		attempt++
		batch := powerEvents(r, run, len(m.acked[run])+1, attempt)
		if err := d.Append(ctx, run, batch...); err != nil {
			t.Fatalf("run %s: append after the last cut: %v", run, err)
		}
		m.acked[run], m.tried[run] = append(m.acked[run], batch...), nil
		got, err := loadRun(ctx, d, run)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.check(run, got); err != nil || len(got) != len(m.acked[run]) {
			t.Fatalf("run %s after the last append: %d events, %d appended: %v", run, len(got), len(m.acked[run]), err)
		}
		total += len(got)
	}
	if st.midBatch == 0 || st.kills == 0 || st.injected == 0 || st.inDoubt == 0 {
		t.Errorf("a kind of fault never happened: %+v", st)
	}
	t.Logf("%d cuts (%d mid-batch), %d kills, %d injected errors, %d runs (%d vanished: created, never acknowledged), %d in-doubt batches found whole, %d events",
		st.cuts, st.midBatch, st.kills, st.injected, st.runs, st.vanished, st.inDoubt, total)
}

// namesIn returns the files in dir: the names that are durable.
func namesIn(t *testing.T, dir string) map[string]bool {
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, e := range ents {
		named[filepath.Join(dir, e.Name())] = true
	}
	return named
}

// loadRun loads run, nil when it has no events.
func loadRun(ctx context.Context, d *journal.Dir, run string) ([]journal.Event, error) {
	evs, err := d.Load(ctx, run)
	if errors.Is(err, journal.ErrNotFound) {
		return nil, nil
	}
	return evs, err
}

// check says whether got is what run may hold: its acknowledged events,
// then only whole batches among those tried since.
func (m *powerModel) check(run string, got []journal.Event) error {
	acked := m.acked[run]
	if len(got) < len(acked) {
		return fmt.Errorf("run %s holds %d events, %d acknowledged", run, len(got), len(acked))
	}
	for i := range acked {
		if !journal.Same(got[i], acked[i]) {
			return fmt.Errorf("run %s: acknowledged event %d differs:\n got  %s\n want %s", run, i+1, journal.Comparable(got[i]), journal.Comparable(acked[i]))
		}
	}
	rest := got[len(acked):]
next:
	for len(rest) > 0 {
		for _, b := range m.tried[run] {
			if len(b) <= len(rest) && sameEvents(b, rest[:len(b)]) {
				rest = rest[len(b):]
				continue next
			}
		}
		return fmt.Errorf("run %s: event %d is neither acknowledged nor part of a whole batch that was tried: %s", run, rest[0].Seq, journal.Comparable(rest[0]))
	}
	return nil
}

func sameEvents(a, b []journal.Event) bool {
	for i := range a {
		if !journal.Same(a[i], b[i]) {
			return false
		}
	}
	return true
}

// powerEvents returns a batch of run's events from seq first: one most of
// the time, else two or three; of every kind, up to a few sectors long,
// marked with attempt so that no two tries look alike.
func powerEvents(r *rand.Rand, run string, first, attempt int) []journal.Event {
	n := 1
	if r.IntN(4) == 0 {
		n = 2 + r.IntN(2)
	}
	evs := make([]journal.Event, n)
	for i := range evs {
		seq := first + i
		e := journal.Event{Seq: int64(seq), Run: run, Time: time.Unix(int64(seq), 0).UTC()}
		text := fmt.Sprintf("attempt %d: %s", attempt, strings.Repeat(string(rune('a'+r.IntN(26))), r.IntN(1500)))
		switch r.IntN(4) {
		case 0:
			msg := condense.AssistantText(text)
			e.Kind, e.Step = journal.KindStepDone, &journal.Step{StepKind: journal.StepLLM, CallIndex: seq, Fingerprint: fmt.Sprint(attempt), Response: &msg}
		case 1:
			e.Kind, e.Step = journal.KindStepDone, &journal.Step{StepKind: journal.StepTool, ToolIndex: seq, Tool: "bash", Fingerprint: fmt.Sprint(attempt), Output: &text}
		case 2:
			e.Kind, e.Compacted = journal.KindCompacted, &journal.Compacted{CallIndex: attempt, TokensBefore: len(text), Strategy: "s"}
		default:
			e.Kind, e.Error = journal.KindRunError, &journal.RunError{Code: "provider_error", Message: text}
		}
		evs[i] = e
	}
	return evs
}
