package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/memstore"
)

// driven runs the crash helper's writes in this process over a memstore
// session, reopening it every so often as a new helper would, and returns
// the log's contents.
func driven(t *testing.T, steps int) ([]condense.Message, []store.Checkpoint, []store.Undo) {
	t.Helper()
	ctx := context.Background()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	st := memstore.New()
	rng := rand.New(rand.NewPCG(7, 7))
	var l store.Log
	for i := 0; i < steps; i += 50 {
		if l != nil {
			l.Close()
		}
		if l, err = st.Open(ctx, "s"); err != nil {
			t.Fatal(err)
		}
		h := &helper{ctx: ctx, l: l, rep: null, rng: rng, run: fmt.Sprintf("r%d", i/50)}
		h.restore()
		for j := 0; j < 50 && i+j < steps; j++ {
			h.step(j)
		}
	}
	defer l.Close()
	hist, err := l.Messages(ctx, 0, l.Len())
	if err != nil {
		t.Fatal(err)
	}
	return hist, l.Checkpoints(), l.Undos()
}

// The helper's writes make a log the checks accept, with checkpoints that
// drop, mask and get undone.
func TestHelperWritesCheck(t *testing.T) {
	hist, cps, undos := driven(t, 3000)
	if err := checkLog(hist, cps, undos); err != nil {
		t.Fatal(err)
	}
	dropped, masked := 0, 0
	for _, cp := range cps {
		for _, e := range cp.Rendering {
			switch e.Edit {
			case condense.EditDropped:
				dropped++
			case condense.EditMasked:
				masked++
			}
		}
	}
	if len(hist) < 1000 || len(cps) < 300 || len(undos) < 100 || dropped == 0 || masked == 0 {
		t.Fatalf("%d messages, %d checkpoints (%d drop markers, %d masked items), %d undos: too little", len(hist), len(cps), dropped, masked, len(undos))
	}
	t.Logf("%d messages, %d checkpoints (%d drop markers, %d masked items), %d undos", len(hist), len(cps), dropped, masked, len(undos))
}

// The checks are not vacuous: each kind of damage is caught.
func TestCheckLogCatches(t *testing.T) {
	hist, cps, undos := driven(t, 400)
	last := len(cps) - 1
	for _, tc := range []struct {
		name   string
		damage func(hist []condense.Message, cps []store.Checkpoint, undos []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo)
		want   string
	}{
		{"lost tool result", func(h []condense.Message, c []store.Checkpoint, u []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo) {
			for i := range h { // an early one: the newest step may lack results
				if h[i].Role == condense.RoleTool {
					return append(h[:i:i], h[i+1:]...), nil, nil
				}
			}
			panic("no tool message")
		}, "history"},
		{"checkpoint beyond the log", func(h []condense.Message, c []store.Checkpoint, u []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo) {
			return h[:c[last].HistoryCount-1], c, u
		}, "counts"},
		{"rendering of another message", func(h []condense.Message, c []store.Checkpoint, u []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo) {
			h = append([]condense.Message(nil), h...)
			for k := range c[last].Rendering {
				if e := c[last].Rendering[k]; e.Edit == condense.EditMasked {
					h[e.Index].ID = "someone-else"
					return h, c, u
				}
			}
			panic("no masked item")
		}, "renders"},
		{"first kept index", func(h []condense.Message, c []store.Checkpoint, u []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo) {
			c = append([]store.Checkpoint(nil), c...)
			c[last].FirstKept++
			return h, c, u
		}, "first kept"},
		{"checkpoint saved twice", func(h []condense.Message, c []store.Checkpoint, u []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo) {
			return h, append(c[:len(c):len(c)], c[last]), u
		}, "twice"},
		{"undo of nothing", func(h []condense.Message, c []store.Checkpoint, u []store.Undo) ([]condense.Message, []store.Checkpoint, []store.Undo) {
			return h, c, append(u[:len(u):len(u)], store.Undo{Checkpoints: []string{"c999999"}})
		}, "not saved"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, c, u := tc.damage(hist, cps, undos)
			err := checkLog(h, c, u)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("checkLog: %v, want an error about %q", err, tc.want)
			}
		})
	}
}

// A reopened session must hold the acknowledged writes, plus the write in
// flight only whole.
func TestOpenedCatchesPartialWrites(t *testing.T) {
	c := &crashTally{}
	s := &sessionTally{id: "s", state: counts{10, 2, 1}, inFlight: &op{msgs: []string{"a", "t"}, cp: "c3", hc: 12}}
	for _, got := range []counts{{11, 2, 1}, {12, 2, 1}, {10, 3, 1}, {9, 2, 1}, {10, 2, 0}} {
		s2 := *s
		if err := c.opened(&s2, got); err == nil {
			t.Errorf("opened %v accepted; want %v or %v", got, s.state, s.state.after(s.inFlight))
		}
	}
	for _, got := range []counts{{10, 2, 1}, {12, 3, 1}} {
		s2 := *s
		if err := c.opened(&s2, got); err != nil {
			t.Errorf("opened %v: %v", got, err)
		}
	}
	if c.lost != 1 || c.landed != 1 {
		t.Fatalf("lost %d, landed %d; want 1 and 1", c.lost, c.landed)
	}
}
