package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"github.com/condense-dev/condense/internal/redact"
	"net/http"
	"strconv"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/transcript"
)

// render runs the preflight through the session (session.Prepare: compact
// when the budget asks, save the checkpoint, refuse what cannot fit) and
// returns the request to send in the format asked for.
func (s *Server) render(w http.ResponseWriter, r *http.Request, h *hosted) {
	var req RenderRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if v := r.URL.Query().Get("format"); v != "" {
		req.Format = v
	}
	f := transcript.FormatCondense
	if req.Format != "" {
		var err error
		f, err = transcript.ParseFormat(req.Format)
		if err != nil || (f != transcript.FormatOpenAI && f != transcript.FormatAnthropic && f != transcript.FormatCondense) {
			writeError(w, invalid("format", "format %q: one of condense, openai, anthropic", req.Format))
			return
		}
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
	ctx, end := s.tel.Start(r.Context(), "condense.render")
	before := sess.Len()
	h.mu.Lock()
	tmpl := h.rec.Config.template()
	h.mu.Unlock()
	tmpl.Messages = req.Messages
	res, err := sess.Prepare(ctx, tmpl)
	if len(req.Messages) > 0 && sess.Len() > before {
		h.publishAppended(before, req.Messages)
	}
	if err != nil {
		var we *condense.WindowError
		if errors.As(err, &we) && len(we.Records) > 0 {
			h.compacted(ctx, we.Records, false, sess)
		}
		end(err)
		writeError(w, err)
		return
	}
	if len(res.Records) > 0 {
		h.compacted(ctx, res.Records, false, sess)
	}
	end(nil)
	h.changed()
	messages := sess.Len()
	release()
	buf := renderBufs.Get().(*[]byte)
	defer putRenderBuf(buf)
	body, err := transcript.AppendEncode((*buf)[:0], f, res.Request, transcript.WriteOptions{})
	*buf = body
	if err != nil {
		writeError(w, err)
		return
	}
	out := RenderResponse{
		Format:       string(f),
		Request:      bytes.TrimRight(body, "\n"),
		Usage:        usageOf(res.Tokens, res.Budget, res.Counter, res.Exact),
		TokensBefore: res.TokensBefore,
		Compactions:  records(res.Records),
		Pressured:    res.Pressured,
		Suppressed:   res.Suppressed,
		Messages:     len(res.Request.Messages),
	}
	h.recordUsage(out, messages)
	if len(res.Records) > 0 {
		h.s.forgetSummaries(h)
	} else {
		s.prefetch.consider(h, res.Tokens, &res.Budget)
	}
	writeRender(w, &out)
}

// renderBufs holds the buffers renders encode their request into (tens
// of kilobytes each), for the next render once the answer is written:
// allocating one per render cost more than a tenth of the server's CPU,
// mostly zeroing it and collecting it again.
var renderBufs = sync.Pool{New: func() any { return new([]byte) }}

// maxRenderBuf is the largest buffer renderBufs keeps: a window of a
// million tokens encodes to a few megabytes, and a buffer that large
// kept for a rare render would stay in memory for nothing.
const maxRenderBuf = 8 << 20

func putRenderBuf(buf *[]byte) {
	if cap(*buf) > maxRenderBuf {
		return
	}
	*buf = (*buf)[:0]
	renderBufs.Put(buf)
}

// writeRender writes a render's answer. The request body, most of the
// answer, is spliced in as the provider's encoder made it (one JSON value):
// encoding/json would validate and compact a json.RawMessage of tens of
// kilobytes again, which cost more than the rest of the render.
func writeRender(w http.ResponseWriter, out *RenderResponse) {
	raw := out.Request
	out.Request = json.RawMessage("null")
	var rest bytes.Buffer
	enc := json.NewEncoder(&rest)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(out); err != nil {
		writeError(w, err)
		return
	}
	// "format" (one of three names) comes first, so the first
	// "request":null is the field.
	mark := []byte(`"request":null`)
	i := bytes.Index(rest.Bytes(), mark)
	if i < 0 || len(raw) == 0 {
		out.Request = raw
		writeJSON(w, http.StatusOK, out)
		return
	}
	b := rest.Bytes()
	head, tail := b[:i+len(mark)-len("null")], b[i+len(mark):]
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(head)+len(raw)+len(tail)))
	w.WriteHeader(http.StatusOK)
	w.Write(head)
	if cap(raw)-len(raw) >= len(tail) {
		// The encoder's buffer has room after the body (it is sized an
		// eighth over): the tail goes there, and the answer leaves in one
		// write fewer (the server's buffer takes the head and the start
		// of the body, the rest goes out in one write).
		w.Write(append(raw, tail...))
		return
	}
	w.Write(raw)
	w.Write(tail)
}

func records(rs []condense.Record) []condense.Record {
	if rs == nil {
		return []condense.Record{}
	}
	return rs
}

// compacted publishes and counts the compactions of a preflight, each
// with the checkpoint that saved it.
func (h *hosted) compacted(ctx context.Context, recs []condense.Record, manual bool, sess *session.Session) {
	h.compactedIn(ctx, recs, manual, sess, "")
}

// compactedIn is compacted for the compactions of run ("" outside hosted
// runs).
func (h *hosted) compactedIn(ctx context.Context, recs []condense.Record, manual bool, sess *session.Session, run string) {
	cp := ""
	if cps := sess.Checkpoints(); len(cps) > 0 {
		cp = cps[len(cps)-1].ID
	}
	for _, rec := range recs {
		h.s.tel.Compaction(ctx, rec.Strategy, rec.TokensBefore, rec.TokensAfter, manual)
		id := rec.Checkpoint
		if id == "" {
			id = cp
		}
		data := map[string]any{
			"checkpoint": id, "strategy": rec.Strategy, "manual": manual, "emergency": rec.Emergency,
			"tokens_before": rec.TokensBefore, "tokens_after": rec.TokensAfter,
			"messages_before": rec.MessagesBefore, "messages_after": rec.MessagesAfter,
			"ledger_items": rec.LedgerItems, "demoted": rec.Demoted,
		}
		if run != "" {
			data["run"] = run
		}
		h.publish(EventCompacted, data)
	}
}

// recordUsage adds a rendered request to the usage series.
func (h *hosted) recordUsage(out RenderResponse, messages int) {
	p := UsagePoint{Time: h.s.opts.Now().UTC(), Messages: messages, Tokens: out.Usage.Tokens, TokensBefore: out.TokensBefore,
		Threshold: out.Usage.Threshold, InputLimit: out.Usage.InputLimit}
	for _, rec := range out.Compactions {
		if rec.Checkpoint != "" {
			p.Compactions = append(p.Compactions, rec.Checkpoint)
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.rec.Series = append(h.rec.Series, p)
	if len(h.rec.Series) > maxSeries {
		h.rec.Series = append([]UsagePoint(nil), h.rec.Series[len(h.rec.Series)-maxSeries:]...)
	}
	if h.gone {
		return // a render finishing after its session was deleted keeps nothing
	}
	if err := h.s.state.addUsage(context.Background(), h.rec, p); err != nil {
		h.s.log.Warn("condense/server: usage series not kept", "session", h.rec.ID, "err", redact.Err(err))
	}
}
