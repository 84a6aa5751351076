package server

import (
	"bytes"
	"net/http"
	"strconv"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/transcript"
)

func (s *Server) listMessages(w http.ResponseWriter, r *http.Request, h *hosted) {
	sess, err := h.session(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	q := r.URL.Query()
	from, limit := 0, 100
	if v := q.Get("from"); v != "" {
		if from, err = strconv.Atoi(v); err != nil || from < 0 {
			writeError(w, invalid("from", "from %q is not a log index", v))
			return
		}
	}
	if v := q.Get("limit"); v != "" {
		if limit, err = strconv.Atoi(v); err != nil || limit < 1 || limit > 10000 {
			writeError(w, invalid("limit", "limit %q is not a number in 1..10000", v))
			return
		}
	}
	total := sess.Len()
	page := MessagesPage{From: from, Total: total, Messages: []condense.Message{}}
	if from < total {
		end := min(total, from+limit)
		spans, err := sess.Recall(r.Context(), strconv.Itoa(from)+"-"+strconv.Itoa(end-1))
		if err != nil {
			writeError(w, err)
			return
		}
		for _, sp := range spans {
			page.Messages = append(page.Messages, sp.Messages...)
		}
	}
	writeJSON(w, http.StatusOK, page)
}

// newMessages returns the messages an append adds: the condense messages
// as given, or the messages of a provider body beyond the session's
// history (which the body must start with).
func (s *Server) newMessages(r *http.Request, h *hosted, req *AppendRequest) ([]condense.Message, error) {
	if req.Format == "" || req.Format == "condense" && len(req.Body) == 0 {
		if len(req.Messages) == 0 {
			return nil, invalid("messages", "no messages to append")
		}
		return req.Messages, nil
	}
	if len(req.Messages) > 0 {
		return nil, invalid("messages", "give messages or a provider body, not both")
	}
	f, err := transcript.ParseFormat(req.Format)
	if err != nil || (f != transcript.FormatOpenAI && f != transcript.FormatAnthropic && f != transcript.FormatCondense) {
		return nil, invalid("format", "format %q: one of condense, openai, anthropic", req.Format)
	}
	if len(req.Body) == 0 {
		return nil, invalid("body", "a %s request body is needed", f)
	}
	tr, err := transcript.ReadBytes(req.Body, transcript.Options{Format: f, Name: "body", MaxBytes: s.opts.MaxBodyBytes})
	if err != nil {
		return nil, invalid("body", "%v", err)
	}
	sess, err := h.session(r.Context())
	if err != nil {
		return nil, err
	}
	msgs := tr.Request.Messages
	n := sess.Len()
	if len(msgs) < n {
		return nil, &Error{Code: CodeHistoryMismatch, Field: "body", status: http.StatusConflict,
			Message: "the body holds " + strconv.Itoa(len(msgs)) + " messages, fewer than the session's " + strconv.Itoa(n) + ": a provider body holds the whole conversation"}
	}
	if n > 0 {
		hist, err := sess.Recall(r.Context(), "0-"+strconv.Itoa(n-1))
		if err != nil {
			return nil, err
		}
		k := 0
		for _, sp := range hist {
			for i := range sp.Messages {
				if !sameMessage(&sp.Messages[i], &msgs[k]) {
					return nil, &Error{Code: CodeHistoryMismatch, Field: "body", status: http.StatusConflict,
						Message: "message " + strconv.Itoa(k) + " of the body differs from the session's: a provider body must start with the session's history"}
				}
				k++
			}
		}
	}
	return msgs[n:], nil
}

// sameMessage compares two messages by their content, ids aside: a
// provider body carries no message ids.
func sameMessage(a, b *condense.Message) bool {
	x, y := *a, *b
	x.ID, y.ID = "", ""
	ja, err1 := x.MarshalJSON()
	jb, err2 := y.MarshalJSON()
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

func (s *Server) appendMessages(w http.ResponseWriter, r *http.Request, h *hosted) {
	var req AppendRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := h.idle(); err != nil {
		writeError(w, err)
		return
	}
	sess, release, err := h.acquire(r.Context(), busyForChange)
	if err != nil {
		writeError(w, err)
		return
	}
	defer release()
	if f := s.hooks.appending.Load(); f != nil {
		(*f)()
	}
	msgs, err := s.newMessages(r, h, &req)
	if err != nil {
		writeError(w, err)
		return
	}
	if len(msgs) == 0 {
		writeJSON(w, http.StatusOK, AppendResponse{From: sess.Len(), Messages: sess.Len()})
		return
	}
	if err := sess.Append(r.Context(), msgs...); err != nil {
		writeError(w, err)
		return
	}
	if f := s.hooks.appended.Load(); f != nil {
		(*f)()
	}
	n := sess.Len()
	from := n - len(msgs)
	h.changed()
	h.publishAppended(from, msgs)
	release()
	s.prefetch.consider(h, 0, nil)
	writeJSON(w, http.StatusOK, AppendResponse{From: from, Count: len(msgs), Messages: n})
}
