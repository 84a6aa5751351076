package session

import (
	"context"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// Checkpoint describes one live checkpoint: what Checkpoints lists.
type Checkpoint struct {
	ID       string
	Strategy string
	// Edits are the changes the checkpoint's rendering makes over the log,
	// by log span.
	Edits []Edit
	// HistoryCount is the history length when it was made; FirstKept the
	// lowest log index rendered after its last summary or drop marker.
	HistoryCount int
	FirstKept    int
	Summary      string
	Time         time.Time
	Provider     string
	Model        string
	Usage        []condense.Usage
	Records      []condense.Record
	// Unsaved is set while a failed save holds the checkpoint in memory.
	Unsaved bool
}

// Edit is one change of a rendering over the log span [Start, End): masked
// or cleared tool results, minified JSON, a summary, dropped messages.
// Notes and synthetic messages that stand for no span have Start = End = -1.
type Edit struct {
	Edit       condense.Edit
	Start, End int
}

// Checkpoints lists the live checkpoints, oldest first.
func (s *Session) Checkpoints() []Checkpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	unsaved := map[string]bool{}
	for _, b := range s.pending {
		if b.Checkpoint != nil {
			unsaved[b.Checkpoint.ID] = true
		}
	}
	out := make([]Checkpoint, len(s.cps))
	for k := range s.cps {
		cp := &s.cps[k]
		out[k] = Checkpoint{
			ID: cp.ID, Strategy: cp.Strategy, Edits: edits(cp.Rendering),
			HistoryCount: cp.HistoryCount, FirstKept: cp.FirstKept, Summary: cp.Summary, Time: cp.Time,
			Provider: cp.Provider, Model: cp.Model,
			Usage:   append([]condense.Usage(nil), cp.Usage...),
			Records: append([]condense.Record(nil), cp.Records...),
			Unsaved: unsaved[cp.ID],
		}
	}
	return out
}

func edits(o store.Overlay) []Edit {
	var out []Edit
	for _, e := range o {
		if e.Run != nil || e.Edit == condense.EditNone {
			continue
		}
		ed := Edit{Edit: e.Edit, Start: -1, End: -1}
		switch {
		case e.Covers != nil && e.Covers[1] > e.Covers[0]:
			ed.Start, ed.End = e.Covers[0], e.Covers[1]
		case e.Index >= 0:
			ed.Start, ed.End = e.Index, e.Index+1
		}
		if n := len(out); n > 0 && ed.Start >= 0 && out[n-1].Edit == ed.Edit && out[n-1].End == ed.Start {
			out[n-1].End = ed.End
			continue
		}
		out = append(out, ed)
	}
	return out
}

// Undo removes checkpoint id and every later one (each later overlay is
// built on it) and returns their ids, oldest first. The rendering returns
// byte for byte to what it was before id: the previous checkpoint's
// overlay (or the verbatim log) with later messages appended verbatim
// (compaction only ever changed the rendering, never the log). Nothing is
// deleted: an undo marker is appended to the log. An id of a pass merged
// into a checkpoint names that checkpoint.
func (s *Session) Undo(ctx context.Context, id string) ([]string, error) {
	if err := s.lk.lock(ctx, true); err != nil {
		return nil, err
	}
	defer s.lk.unlock(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return nil, err
	}
	k := -1
	for i := range s.cps {
		for _, cid := range checkpointIDs(&s.cps[i]) {
			if cid == id {
				k = i
			}
		}
	}
	if k < 0 {
		return nil, &CheckpointError{ID: id, Reason: "no live checkpoint has this id", Err: ErrUnknownCheckpoint}
	}
	var undone []string
	for i := k; i < len(s.cps); i++ {
		undone = append(undone, s.cps[i].ID)
	}
	if err := s.restoreOverlay(ctx, k); err != nil {
		return nil, err
	}
	s.cps = s.cps[:k]
	b := store.Batch{Undo: &store.Undo{Checkpoints: undone, Time: s.now().UTC()}}
	if _, err := s.log.Append(context.WithoutCancel(ctx), b); err != nil {
		return undone, s.failed(b, err)
	}
	return undone, nil
}
