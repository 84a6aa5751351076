package jsonl_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/faultfs"
	"github.com/condense-dev/condense/internal/testmode"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
)

// model is what the session holds after the acknowledged appends.
type model struct {
	msgs  []condense.Message
	cps   []string
	undos int
	// opened: an Open of the session returned, so its file and name are
	// durable; before that, a cut may leave no file at all.
	opened bool
}

// cutStats counts what the cuts hit.
type cutStats struct {
	midCreate, vanished, midCheckpoint, midUndo, kills, killedCreating int
}

// TestPowerCut runs sessions over a simulated disk that, at a power cut,
// keeps only what was synced plus a random subset of the sectors written
// since, and loses half the time a file whose directory was not synced
// since its creation. Each of 60 rounds (2,000 under CONDENSE_TEST_LONG=1)
// opens a session, a new one a third of the time, and appends messages,
// checkpoints and undos until the power goes: while a new session is
// created (at its header write, the header's sync or the directory's
// sync), mid-append, mid-checkpoint, mid-undo, and in about a quarter of
// the rounds after a killed process (page cache intact; some killed while
// creating the session) whose successor reopens the session and goes on.
// After the cut, a session whose Open had returned is there with every
// acknowledged batch and the one in flight whole or not at all (what a
// reopen after a kill found counts as acknowledged: Open makes it
// durable); one whose creation never finished is absent or opens empty,
// never unopenable or corrupt.
func TestPowerCut(t *testing.T) {
	cuts := 60
	if testmode.Long() {
		cuts = 2000
	}
	seed := uint64(1)
	if s := os.Getenv("CONDENSE_POWERCUT_SEED"); s != "" {
		fmt.Sscan(s, &seed)
	}
	t.Logf("seed %d (CONDENSE_POWERCUT_SEED repeats this run)", seed)
	r := rand.New(rand.NewPCG(seed, 1))
	ctx := context.Background()
	quietLog := slog.New(slog.DiscardHandler)
	dir := t.TempDir()
	models := map[string]*model{}
	var ids []string
	var st cutStats
	for cut := 0; cut < cuts; cut++ {
		fail := fmt.Sprintf("cut %d (seed %d)", cut, seed)
		id := ""
		if len(ids) == 0 || r.IntN(3) == 0 {
			id = fmt.Sprintf("s%d", len(ids)+1)
			ids = append(ids, id)
			models[id] = &model{}
		} else {
			id = ids[r.IntN(len(ids))]
		}
		m := models[id]
		plan := faultfs.Plan{Cut: 1 + r.IntN(12)}
		switch k := r.IntN(6); {
		case k == 0 && !m.opened:
			// Cut the power while the session is created: at its header
			// write, the header's sync or the directory's sync.
			plan.Cut = 1 + r.IntN(3)
		case k < 3 && !m.opened:
			// Kill the process creating the session once its header is
			// written, at the header's sync or the directory's: its
			// successor finds a file holding the header only, whose name
			// may not be durable, and appends before the cut.
			plan.Kill = 2 + r.IntN(2)
			plan.Cut = plan.Kill + 8 + r.IntN(10)
		case k == 3:
			// Kill a process anywhere; the cut follows soon, in its
			// successor's Open or first append, before an append of its
			// own would sync what the killed one left unsynced.
			plan.Kill = 1 + r.IntN(12)
			plan.Cut = plan.Kill + 1 + r.IntN(3)
		}
		d := faultfs.New(plan)
		// The files in the directory now are durable, names included: the
		// previous round's cut left only what the disk kept.
		named := namesIn(t, dir)
		// openLog opens the session as a new process of the disk would.
		openLog := func(id string) (store.Log, error) {
			proc := d.Process()
			s, err := jsonl.Open(dir, &jsonl.Options{Logger: quietLog, WrapFile: func(name string, f jsonl.File) jsonl.File {
				return proc.Wrap(name, f, named[name])
			}})
			if err != nil {
				t.Fatal(err)
			}
			jsonl.SetSyncDir(s, proc.SyncDir)
			return s.Open(ctx, id)
		}
		var (
			l        store.Log
			inflight *store.Batch
		)
		// Open, and append until the power goes. A killed process's
		// successor reopens the session and finds the acknowledged
		// batches, and the one in flight if its write was done.
		for l == nil && !d.Cut() {
			var err error
			l, err = openLog(id)
			switch {
			case err == nil:
				if err := check(ctx, l, m, inflight); err != nil {
					t.Fatalf("%s: session %s as opened: %v", fail, id, err)
				}
				m.adopt(l, inflight)
				m.opened, inflight = true, nil
			case errors.Is(err, faultfs.ErrKilled):
				st.kills++
				if !m.opened {
					st.killedCreating++
				}
				l = nil
				continue
			case errors.Is(err, faultfs.ErrPowerCut):
				if !m.opened {
					st.midCreate++
				}
				l = nil
				continue
			default:
				t.Fatalf("%s: open %s: %v", fail, id, err)
			}
			for !d.Cut() {
				b := nextBatch(r, m, l.Len())
				_, err := l.Append(ctx, b)
				if err == nil {
					m.acknowledge(b)
					continue
				}
				inflight = &b
				switch {
				case errors.Is(err, faultfs.ErrPowerCut):
					if b.Checkpoint != nil {
						st.midCheckpoint++
					}
					if b.Undo != nil {
						st.midUndo++
					}
				case errors.Is(err, faultfs.ErrKilled):
					st.kills++
					l.Close()
					l = nil
				default:
					t.Fatalf("%s: append: %v", fail, err)
				}
				break
			}
		}
		if l != nil {
			l.Close()
		}
		if err := d.Restore(r); err != nil {
			t.Fatal(err)
		}
		// Power back.
		path := filepath.Join(dir, id+".jsonl")
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			if m.opened {
				t.Fatalf("%s: session %s is gone, yet an Open of it had returned", fail, id)
			}
			st.vanished++
			continue
		}
		s2, _ := jsonl.Open(dir, &jsonl.Options{Logger: quietLog})
		l2, err := s2.Open(ctx, id)
		if err != nil {
			t.Fatalf("%s: session %s (opened before: %v) does not open after a power cut: %v", fail, id, m.opened, err)
		}
		if !m.opened && (l2.Len() != 0 || len(l2.Checkpoints()) != 0 || len(l2.Undos()) != 0) {
			t.Fatalf("%s: session %s was never created, yet opens with %d messages", fail, id, l2.Len())
		}
		if err := check(ctx, l2, m, inflight); err != nil {
			t.Fatalf("%s: session %s: %v", fail, id, err)
		}
		m.adopt(l2, inflight)
		m.opened = true
		l2.Close()
	}
	if st.midCreate == 0 || st.vanished == 0 || st.midCheckpoint == 0 || st.midUndo == 0 || st.killedCreating == 0 {
		t.Errorf("a kind of cut never happened: %+v", st)
	}
	n := 0
	for _, m := range models {
		n += len(m.msgs)
	}
	t.Logf("%d cuts over %d sessions: %+v; %d messages", cuts, len(ids), st, n)
}

// acknowledge adds an acknowledged batch to the model.
func (m *model) acknowledge(b store.Batch) {
	m.msgs = append(m.msgs, b.Messages...)
	if b.Checkpoint != nil {
		m.cps = append(m.cps, b.Checkpoint.ID)
	}
	if b.Undo != nil {
		m.undos++
	}
}

// adopt acknowledges the batch in flight when l, opened after it failed,
// holds it (check has said it holds it whole or not at all).
func (m *model) adopt(l store.Log, inflight *store.Batch) {
	switch {
	case inflight == nil:
	case l.Len() > len(m.msgs) || inflight.Checkpoint != nil && len(l.Checkpoints()) > len(m.cps):
		m.acknowledge(*inflight)
	case inflight.Undo != nil && len(inflight.Messages) == 0 && len(l.Undos()) > m.undos:
		m.acknowledge(*inflight)
	}
}

// namesIn returns the files in dir.
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

// nextBatch returns a random batch: messages, sometimes with a checkpoint,
// sometimes an undo of the newest live checkpoint.
func nextBatch(r *rand.Rand, m *model, n int) store.Batch {
	var b store.Batch
	k := r.IntN(3)
	for i := 0; i < k+1; i++ {
		b.Messages = append(b.Messages, condense.UserText(fmt.Sprintf("message %d: ", n+i)+
			strings.Repeat("x", r.IntN(900))))
	}
	switch r.IntN(4) {
	case 0:
		id := fmt.Sprintf("c%d", len(m.cps)+1)
		b.Checkpoint = &store.Checkpoint{ID: id, Strategy: "test", HistoryCount: n + len(b.Messages), Time: time.Unix(0, 0).UTC()}
	case 1:
		if len(m.cps) > 0 {
			b.Messages = nil
			b.Undo = &store.Undo{Checkpoints: []string{m.cps[len(m.cps)-1]}, Time: time.Unix(0, 0).UTC()}
		}
	}
	return b
}

// check compares a log with the model: the acknowledged state, plus the
// batch in flight whole or not at all.
func check(ctx context.Context, l store.Log, m *model, inflight *store.Batch) error {
	want := len(m.msgs)
	if inflight != nil && l.Len() == want+len(inflight.Messages) {
		want = l.Len()
	}
	if l.Len() != want {
		return fmt.Errorf("the log holds %d messages, %d acknowledged (in flight: %v)", l.Len(), len(m.msgs), inflight != nil)
	}
	got, err := l.Messages(ctx, 0, len(m.msgs))
	if err != nil {
		return err
	}
	for i := range m.msgs {
		if got[i].Parts[0].Text != m.msgs[i].Parts[0].Text {
			return fmt.Errorf("message %d differs", i)
		}
	}
	var ids []string
	for _, cp := range l.Checkpoints() {
		ids = append(ids, cp.ID)
	}
	if len(ids) < len(m.cps) || !slices.Equal(ids[:len(m.cps)], m.cps) {
		return fmt.Errorf("checkpoints %v, acknowledged %v", ids, m.cps)
	}
	if len(ids) > len(m.cps)+1 || len(ids) == len(m.cps)+1 && (inflight == nil || inflight.Checkpoint == nil) {
		return fmt.Errorf("checkpoints %v, acknowledged %v: one was never appended", ids, m.cps)
	}
	if len(l.Undos()) < m.undos {
		return fmt.Errorf("%d undos, %d acknowledged", len(l.Undos()), m.undos)
	}
	return nil
}
