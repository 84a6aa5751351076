package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
)

// compact compacts on demand under the session lock, the session marked
// busy (a second compaction or a prompt meanwhile gets 409 busy).
func (s *Server) compact(w http.ResponseWriter, r *http.Request, h *hosted) {
	var req CompactRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	// A manual compaction does not wait for another compaction or a run,
	// here or on another replica: it is 409 busy. It waits for the rest.
	sess, release, err := h.acquire(r.Context(), busyForCompact)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	ctx, done, err := h.begin(r.Context(), activityCompaction)
	if err != nil {
		writeError(w, err)
		return
	}
	h.mark(ctx, activityCompaction)
	h.publish(EventCompacting, map[string]any{"phase": "started", "manual": true})
	var opts []condense.CallOption
	if req.Instructions != "" {
		opts = append(opts, condense.WithInstructions(req.Instructions))
	}
	ctx, end := s.tel.Start(ctx, "condense.compaction")
	res, err := sess.Compact(ctx, opts...)
	if err == nil {
		h.compacted(ctx, res.Records, true, sess)
	}
	end(err)
	done()
	release()
	if err != nil {
		if !errors.Is(err, condense.ErrNothingToCompact) {
			h.publish(EventError, apiError(err))
		}
		h.settled(r.Context())
		writeError(w, err)
		return
	}
	h.changed()
	snap, err := h.snapshot(context.WithoutCancel(r.Context()))
	if err != nil {
		writeError(w, err)
		return
	}
	h.publish(EventSettled, snap)
	writeJSON(w, http.StatusOK, CompactResponse{Snapshot: snap, Compactions: records(res.Records)})
}

// abort cancels the prompt or compaction in progress. A save that has
// started completes.
func (s *Server) abort(w http.ResponseWriter, r *http.Request, h *hosted) {
	what := h.abort()
	writeJSON(w, http.StatusOK, map[string]any{"aborted": what != "", "activity": what})
}

func (s *Server) flush(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, release, err := h.acquire(r.Context(), nil)
	if err != nil {
		writeError(w, err)
		return
	}
	err = sess.Flush(r.Context())
	release()
	if err != nil {
		writeError(w, err)
		return
	}
	h.changed()
	h.settled(r.Context())
	s.getSession(w, r, h)
}

func checkpointInfo(cp session.Checkpoint) CheckpointInfo {
	ci := CheckpointInfo{ID: cp.ID, Strategy: cp.Strategy, Boundary: cp.FirstKept, HistoryCount: cp.HistoryCount, Time: cp.Time,
		Summary: cp.Summary, Provider: cp.Provider, Model: cp.Model, Usage: cp.Usage, Records: records(cp.Records), Unsaved: cp.Unsaved,
		Edits: []EditInfo{}}
	for _, e := range cp.Edits {
		ci.Edits = append(ci.Edits, EditInfo{Edit: string(e.Edit), Start: e.Start, End: e.End})
	}
	return ci
}

func (s *Server) listCheckpoints(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, err := h.session(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	out := []CheckpointInfo{}
	for _, cp := range sess.Checkpoints() {
		out = append(out, checkpointInfo(cp))
	}
	writeJSON(w, http.StatusOK, map[string]any{"checkpoints": out})
}

func (s *Server) getCheckpoint(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, err := h.session(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("cp")
	for _, cp := range sess.Checkpoints() {
		if cp.ID == id {
			writeJSON(w, http.StatusOK, checkpointInfo(cp))
			return
		}
	}
	writeError(w, notFound("checkpoint "+id))
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, release, err := h.acquire(r.Context(), busyForChange)
	if err != nil {
		writeError(w, err)
		return
	}
	ctx, done, err := h.begin(r.Context(), activityCompaction)
	if err != nil {
		release()
		writeError(w, err)
		return
	}
	h.mark(ctx, activityCompaction)
	ids, err := sess.Undo(ctx, r.PathValue("cp"))
	done()
	release()
	if err != nil {
		h.settled(r.Context())
		writeError(w, err)
		return
	}
	h.changed()
	snap, err := h.snapshot(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	h.publish(EventSettled, snap)
	writeJSON(w, http.StatusOK, UndoResponse{Undone: ids, Snapshot: snap})
}

func (s *Server) recall(w http.ResponseWriter, r *http.Request, h *hosted) {
	ref := r.URL.Query().Get("ref")
	if ref == "" {
		writeError(w, invalid("ref", "a recall reference is needed (?ref=r42-3fa9c2d1, c3, 5-28)"))
		return
	}
	sess, err := h.session(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	spans, err := sess.Recall(r.Context(), ref)
	if err != nil {
		writeError(w, err)
		return
	}
	out := RecallResponse{Spans: []RecallSpan{}}
	for _, sp := range spans {
		out.Spans = append(out.Spans, RecallSpan{Start: sp.Start, Messages: sp.Messages})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) events(w http.ResponseWriter, r *http.Request, h *hosted) {
	if _, err := h.session(r.Context()); err != nil {
		writeError(w, err)
		return
	}
	s.serveSSE(w, r, h)
}
