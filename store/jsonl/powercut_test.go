package jsonl_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/faultfs"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/storetest"
)

// model is what the session holds after the acknowledged appends.
type model struct {
	msgs  []condense.Message
	cps   []string
	undos int
}

// TestPowerCut runs appends, checkpoints and undos against a store whose
// file loses every write not yet synced at a simulated power cut (a random
// subset of the unsynced sectors survives), at 60 random points (2,000
// under CONDENSE_TEST_LONG=1), mid-checkpoint and mid-undo included. Every
// acknowledged batch must be there after the cut, the batch in flight must
// be there whole or not at all, and the session must open.
func TestPowerCut(t *testing.T) {
	cuts := 60
	if os.Getenv(storetest.EnvLong) == "1" {
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
	var m model
	midCheckpoint, midUndo := 0, 0
	for cut := 0; cut < cuts; cut++ {
		// The store syncs the file and its directory before it wraps it:
		// what is there is durable.
		d := faultfs.New(faultfs.Plan{Cut: 1 + r.IntN(12)})
		proc := d.Process()
		s, err := jsonl.Open(dir, &jsonl.Options{Logger: quietLog, WrapFile: func(name string, f jsonl.File) jsonl.File {
			return proc.Wrap(name, f, true)
		}})
		if err != nil {
			t.Fatal(err)
		}
		l, err := s.Open(ctx, "s")
		if err != nil {
			t.Fatalf("cut %d: the session does not open after the previous cut: %v", cut, err)
		}
		if err := check(ctx, l, m, nil); err != nil {
			t.Fatalf("cut %d: %v", cut, err)
		}
		// Append until the power goes.
		var inflight *store.Batch
		for !d.Cut() {
			b := nextBatch(r, &m, l.Len())
			if _, err := l.Append(ctx, b); err != nil {
				if !errors.Is(err, faultfs.ErrPowerCut) {
					t.Fatalf("cut %d: append: %v", cut, err)
				}
				inflight = &b
				if b.Checkpoint != nil {
					midCheckpoint++
				}
				if b.Undo != nil {
					midUndo++
				}
				break
			}
			m.msgs = append(m.msgs, b.Messages...)
			if b.Checkpoint != nil {
				m.cps = append(m.cps, b.Checkpoint.ID)
			}
			if b.Undo != nil {
				m.undos++
			}
		}
		l.Close()
		if err := d.Restore(r); err != nil {
			t.Fatal(err)
		}
		// Power back: the session opens with every acknowledged batch, and
		// the batch in flight whole or not at all.
		s2, _ := jsonl.Open(dir, &jsonl.Options{Logger: quietLog})
		l2, err := s2.Open(ctx, "s")
		if err != nil {
			t.Fatalf("cut %d (seed %d): the session does not open after a power cut: %v", cut, seed, err)
		}
		if err := check(ctx, l2, m, inflight); err != nil {
			t.Fatalf("cut %d (seed %d): %v", cut, seed, err)
		}
		if inflight != nil && l2.Len() > len(m.msgs) || inflight != nil && inflight.Checkpoint != nil && len(l2.Checkpoints()) > len(m.cps) {
			m.msgs = append(m.msgs, inflight.Messages...)
			if inflight.Checkpoint != nil {
				m.cps = append(m.cps, inflight.Checkpoint.ID)
			}
			if inflight.Undo != nil {
				m.undos++
			}
		} else if inflight != nil && inflight.Undo != nil && len(inflight.Messages) == 0 && len(l2.Undos()) > m.undos {
			m.undos++
		}
		l2.Close()
	}
	if midCheckpoint == 0 || midUndo == 0 {
		t.Errorf("no cut landed mid-checkpoint (%d) or mid-undo (%d)", midCheckpoint, midUndo)
	}
	t.Logf("%d cuts, %d mid-checkpoint, %d mid-undo, %d messages", cuts, midCheckpoint, midUndo, len(m.msgs))
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
func check(ctx context.Context, l store.Log, m model, inflight *store.Batch) error {
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
