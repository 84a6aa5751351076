package server

import (
	"net/http"
	"regexp"
	"strconv"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
)

// usageSeries returns the usage of every request rendered (the last
// maxSeries), for the page's chart: tokens before and after compaction,
// threshold, input limit and the checkpoints made.
func (s *Server) usageSeries(w http.ResponseWriter, r *http.Request, h *hosted) {
	out, shared, err := s.state.series(r.Context(), h.id)
	if err != nil {
		writeError(w, err)
		return
	}
	if !shared {
		h.mu.Lock()
		out = append([]UsagePoint{}, h.rec.Series...)
		h.mu.Unlock()
	}
	if out == nil {
		out = []UsagePoint{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"series": out})
}

var recallRe = regexp.MustCompile(`recall (r[0-9]+-[0-9a-f]{8})`)

// renderingNames maps edits to the overlay's words.
var renderingNames = map[condense.Edit]string{
	condense.EditNone: "verbatim", condense.EditMasked: "masked", condense.EditCleared: "cleared",
	condense.EditMinified: "minified", condense.EditTruncated: "truncated", condense.EditSummary: "summary",
	condense.EditDropped: "dropped", condense.EditNote: "note", condense.EditSynthetic: "synthetic",
}

// overlay returns how the next request renders each log message:
// verbatim, masked with its recall reference, summarized or dropped under
// which checkpoint.
func (s *Server) overlay(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, err := h.session(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	cps := sess.Checkpoints()
	owner := func(i int, e condense.Edit) string { return editOwner(cps, i, e) }
	items := []OverlayItem{}
	seen := 0
	for _, it := range sess.Rendering() {
		oi := OverlayItem{Index: it.Index, Rendering: renderingNames[it.Edit]}
		if oi.Rendering == "" {
			oi.Rendering = string(it.Edit)
		}
		if it.Covers.End > it.Covers.Start {
			oi.Covers = &[2]int{it.Covers.Start, it.Covers.End}
			oi.Recall = strconv.Itoa(it.Covers.Start) + "-" + strconv.Itoa(it.Covers.End-1)
			oi.Checkpoint = owner(it.Covers.Start, it.Edit)
		}
		if it.Edit != condense.EditNone && it.Index >= 0 {
			oi.Checkpoint = owner(it.Index, it.Edit)
			if m := recallRe.FindStringSubmatch(placeholderText(&it.Message)); m != nil {
				oi.Recall = m[1]
			}
		}
		items = append(items, oi)
		seen = max(seen, it.Index+1, it.Covers.End)
	}
	for i := seen; i < sess.Len(); i++ {
		items = append(items, OverlayItem{Index: i, Rendering: "verbatim"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"messages": sess.Len(), "items": items})
}

// placeholderText returns the text of a message and of its tool results.
func placeholderText(m *condense.Message) string {
	var out string
	for _, p := range m.Parts {
		out += p.Text
		for _, c := range p.Content {
			out += c.Text
		}
	}
	return out
}

// editOwner returns the newest of cps with an edit of kind e over log index
// i, or "".
func editOwner(cps []session.Checkpoint, i int, e condense.Edit) string {
	for k := len(cps) - 1; k >= 0; k-- {
		for _, ed := range cps[k].Edits {
			if ed.Edit == e && ed.Start <= i && i < max(ed.End, ed.Start+1) {
				return cps[k].ID
			}
		}
	}
	return ""
}
