package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/session"
)

// What the web page needs beyond the API's other routes: a session list
// with each session's state in one call, and what each checkpoint's ledger
// kept. Both only read.

// PageSession is one row of GET /v1/page/sessions.
type PageSession struct {
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	// Title is the start of the first user message ("" when there is none).
	Title    string `json:"title"`
	Model    string `json:"model"`
	Messages int    `json:"messages"`
	Usage    Usage  `json:"usage"`
	Busy     bool   `json:"busy"`
	Activity string `json:"activity,omitempty"`
	// Checkpoint is the latest live checkpoint, with the tokens of its
	// last compaction.
	Checkpoint  *PageCheckpoint `json:"checkpoint,omitempty"`
	Checkpoints int             `json:"checkpoints"`
}

// PageCheckpoint is the latest checkpoint of a PageSession.
type PageCheckpoint struct {
	ID           string    `json:"id"`
	Strategy     string    `json:"strategy"`
	Time         time.Time `json:"time"`
	TokensBefore int       `json:"tokens_before"`
	TokensAfter  int       `json:"tokens_after"`
}

// LedgerInfo is what one live checkpoint's ledger kept: the items its
// summary or its placeholders and drop markers hold, and how many items
// went over the ledger's budget and are recall-only.
type LedgerInfo struct {
	Checkpoint string   `json:"checkpoint"`
	Kept       []string `json:"kept"`
	Demoted    int      `json:"demoted"`
}

// PageStatus is GET …/status: whether the session is busy and the id of
// its newest event, read without waiting for the session (a snapshot waits
// while a compaction holds the session), so that a page loaded during a
// run can show it at once and replay the latest events.
type PageStatus struct {
	Busy        bool   `json:"busy"`
	Activity    string `json:"activity,omitempty"`
	Run         string `json:"run,omitempty"`
	LastEventID int64  `json:"last_event_id"`
}

// titleChars bounds a PageSession's title.
const titleChars = 80

// pageSessions lists the caller's sessions with their state: messages,
// usage of the next request, latest checkpoint, busy.
func (s *Server) pageSessions(w http.ResponseWriter, r *http.Request, owner string) {
	out := []PageSession{}
	for _, h := range s.visible(r.Context(), owner) {
		h.mu.Lock()
		activity := h.activity
		if activity != "" {
			// A busy session is listed from its record: its snapshot would
			// wait for the work to end.
			out = append(out, PageSession{ID: h.id, Created: h.rec.Created, Model: h.rec.Config.Model, Busy: true, Activity: activity})
			h.mu.Unlock()
			continue
		}
		h.mu.Unlock()
		snap, err := h.snapshot(r.Context())
		if err != nil {
			// A session that cannot be opened is listed with what its
			// record says, so the list still loads.
			h.mu.Lock()
			out = append(out, PageSession{ID: h.id, Created: h.rec.Created, Model: h.rec.Config.Model, Title: "(cannot open: " + apiError(err).Code + ")"})
			h.mu.Unlock()
			continue
		}
		ps := PageSession{ID: snap.ID, Created: snap.Created, Model: snap.Config.Model, Messages: snap.Messages,
			Usage: snap.Usage, Busy: snap.Busy, Activity: snap.Activity}
		if sess, err := h.session(r.Context()); err == nil {
			cps := sess.Checkpoints()
			ps.Checkpoints = len(cps)
			if len(cps) > 0 {
				cp := cps[len(cps)-1]
				pc := &PageCheckpoint{ID: cp.ID, Strategy: cp.Strategy, Time: cp.Time}
				if n := len(cp.Records); n > 0 {
					pc.TokensBefore, pc.TokensAfter = cp.Records[0].TokensBefore, cp.Records[n-1].TokensAfter
				}
				ps.Checkpoint = pc
			}
			if n := min(sess.Len(), 4); n > 0 {
				if spans, err := sess.Recall(r.Context(), "0-"+strconv.Itoa(n-1)); err == nil {
					ps.Title = firstUserText(spans)
				}
			}
		}
		out = append(out, ps)
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": out})
}

// pageStatus answers GET …/status.
func (s *Server) pageStatus(w http.ResponseWriter, r *http.Request, h *hosted) {
	if err := h.openEvents(); err != nil {
		writeError(w, err)
		return
	}
	h.mu.Lock()
	out := PageStatus{Busy: h.activity != "", Activity: h.activity, Run: h.lastRun}
	if h.events != nil {
		out.LastEventID = h.events.lastID()
	}
	h.mu.Unlock()
	writeJSON(w, http.StatusOK, out)
}

// firstUserText returns the start of the first user message's text.
func firstUserText(spans []session.Recalled) string {
	for _, sp := range spans {
		for i := range sp.Messages {
			if sp.Messages[i].Role != condense.RoleUser {
				continue
			}
			t := strings.Join(strings.Fields(sp.Messages[i].TextContent()), " ")
			if utf8.RuneCountInString(t) > titleChars {
				t = string([]rune(t)[:titleChars-1]) + "…"
			}
			if t != "" {
				return t
			}
		}
	}
	return ""
}

// ledgerInfo returns what each live checkpoint's ledger kept: the items
// of the summaries it wrote (their "## Ledger") and of the placeholders
// and drop markers it made ("kept: …"), in the order of the rendering,
// and the items it demoted to recall-only.
func (s *Server) ledgerInfo(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, err := h.session(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	cps := sess.Checkpoints()
	byID := map[string]*LedgerInfo{}
	out := make([]*LedgerInfo, 0, len(cps))
	for _, cp := range cps {
		li := &LedgerInfo{Checkpoint: cp.ID, Kept: []string{}}
		for _, rec := range cp.Records {
			li.Demoted += rec.Demoted
		}
		byID[cp.ID] = li
		out = append(out, li)
	}
	owner := func(i int, e condense.Edit) string { return editOwner(cps, i, e) }
	seen := map[string]map[string]bool{}
	add := func(cp string, items []string) {
		li := byID[cp]
		if li == nil {
			return
		}
		if seen[cp] == nil {
			seen[cp] = map[string]bool{}
		}
		for _, it := range items {
			if !seen[cp][it] {
				seen[cp][it] = true
				li.Kept = append(li.Kept, it)
			}
		}
	}
	for _, it := range sess.Rendering() {
		if it.Edit == condense.EditNone {
			continue
		}
		var cp string
		switch {
		case it.Covers.End > it.Covers.Start:
			cp = owner(it.Covers.Start, it.Edit)
		case it.Index >= 0:
			cp = owner(it.Index, it.Edit)
		}
		if cp == "" {
			continue
		}
		if len(it.Ledger) > 0 {
			add(cp, it.Ledger)
		}
		text := placeholderText(&it.Message)
		if items := ledger.KeptItems(text); len(items) > 0 {
			add(cp, ledger.Strings(items))
		}
		if it.Edit == condense.EditSummary {
			add(cp, ledgerSection(text))
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"checkpoints": out})
}

// ledgerSection returns the item lines of a summary's "## Ledger" section.
func ledgerSection(text string) []string {
	_, sec, ok := strings.Cut(text, "## Ledger\n")
	if !ok {
		return nil
	}
	var out []string
	for _, line := range strings.Split(sec, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "#") {
			break
		}
		item, ok := strings.CutPrefix(line, "- ")
		if !ok {
			continue
		}
		if _, ok := ledger.ParseItem(item); ok {
			out = append(out, item)
		}
	}
	return out
}
