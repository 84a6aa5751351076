package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// Event types published on a session's event stream (GET …/events).
const (
	EventBusy       = "busy"       // a prompt or compaction started: {"busy":true,"activity"}
	EventCompacting = "compacting" // a compaction started a phase: {"phase","manual"}
	EventCompacted  = "compacted"  // a compaction was saved: a CompactionRecord
	EventSettled    = "settled"    // the session is idle again: a Snapshot
	EventError      = "error"      // a prompt or compaction failed: an Error
	EventAppended   = "appended"   // messages were appended: {"from","count","ids"}
	EventGap        = "gap"        // events between the client's last id and the oldest kept are gone
)

// DefaultEventsKept is how many events each session keeps for clients that
// reconnect (Options.EventsKept).
const DefaultEventsKept = 1000

// Event is one entry of a session's event stream. Ids count up from 1 per
// session and survive a restart. Events carry counts, ids and strategy
// names, never message content.
type Event struct {
	ID   int64           `json:"id"`
	Type string          `json:"type"`
	Time time.Time       `json:"time"`
	Data json.RawMessage `json:"data"`
}

// eventLog is a session's event stream: the last kept events in memory,
// all of them appended to the session's file, and the clients waiting for
// more. The file is not synced on each event: every event also goes into
// the server's event journal (eventWAL), whose group-committed sync makes
// it durable before it is shown to a client or the request that caused it
// is answered, and which is replayed into the session files at start. So
// the file is a checkpoint of the journal, written in batches: the lines
// wait in memory until a batch fills, the journal rotates (which syncs
// the file) or the stream closes. The appended events describe what the store
// already holds durably: when the newest of them are lost in a crash, the
// session makes them again from its log when it is next opened
// (hosted.reconcile). So that an event lost that way never shares its id
// with a later one, ids are reserved ahead, reserveStep at a time, with a
// durable line; a restart goes on after the reservation.
type eventLog struct {
	mu       sync.Mutex
	id       string // the session's
	wal      *eventWAL
	f        *os.File
	kept     []Event
	keep     int
	next     int64
	reserved int64  // ids up to this one are durably reserved
	visible  int64  // the newest event shown
	written  int    // lines in the file, pending ones included
	pending  []byte // lines not written to the file yet (journaled)
	changed  chan struct{}
	now      func() time.Time
}

// reserveStep is how many ids a durable reservation covers.
const reserveStep = 1000

// pendingMax is how many bytes of journaled lines a session's stream
// holds before it writes them to its file: a batch of about 25 events,
// and at most a few tens of megabytes over ten thousand open sessions.
const pendingMax = 4 << 10

// openEventLog opens the stream stored at path, rewriting the file to its
// kept tail when it has grown to twice that.
func openEventLog(path, id string, wal *eventWAL, keep int, now func() time.Time) (*eventLog, error) {
	evs, reserved, err := readEvents(path, keep)
	if err != nil {
		return nil, err
	}
	l := &eventLog{id: id, wal: wal, kept: evs, keep: keep, next: 1, changed: make(chan struct{}), now: now}
	if len(evs) > 0 {
		l.next = evs[len(evs)-1].ID + 1
	}
	// Ids shown before a crash but lost with their events are never
	// given again: numbering goes on after the reservation.
	if len(evs) > 0 {
		l.visible = evs[len(evs)-1].ID
	}
	l.next = max(l.next, reserved+1)
	l.reserved = l.next - 1
	if err := l.rewrite(path); err != nil {
		return nil, err
	}
	return l, nil
}

// appendedTo returns the log length the kept appended events account for,
// and false when it cannot be told (none kept, among a full tail).
func (l *eventLog) appendedTo() (int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return appendedEnd(l.kept, l.keep)
}

// appendedEnd returns the log length the newest appended event of kept
// accounts for, and false when it cannot be told: none is kept while the
// stream keeps keep events and is full.
func appendedEnd(kept []Event, keep int) (int, bool) {
	for i := len(kept) - 1; i >= 0; i-- {
		if kept[i].Type != EventAppended {
			continue
		}
		var d struct{ From, Count int }
		if json.Unmarshal(kept[i].Data, &d) != nil {
			return 0, false
		}
		return d.From + d.Count, true
	}
	return 0, len(kept) < keep
}

// rewrite writes the kept events to a fresh file and opens it for appends.
func (l *eventLog) rewrite(path string) error {
	f, err := writeEvents(path, l.kept, l.reserved)
	if err != nil {
		return err
	}
	if l.f != nil {
		l.f.Close()
	}
	l.f = f
	l.written = len(l.kept)
	l.pending = l.pending[:0] // the kept events hold them
	return nil
}

// flush writes the pending lines to the file. The caller holds l.mu.
func (l *eventLog) flush() error {
	if len(l.pending) == 0 || l.f == nil {
		return nil
	}
	_, err := l.f.Write(l.pending)
	l.pending = l.pending[:0]
	return err
}

// writeEvents writes evs to path atomically (a synced file renamed over
// the old one) and returns the new file, open for appends.
func writeEvents(path string, evs []Event, reserved int64) (*os.File, error) {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	var buf []byte
	for i := range evs {
		buf = appendEventLine(buf, "", &evs[i])
	}
	if reserved > 0 {
		buf = appendReserveLine(buf, "", reserved)
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return nil, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// appendEventLine appends ev as one JSON line, with the session id first
// when session is not "" (a line of the event journal). It is what
// json.Marshal makes of an Event, without validating Data again.
func appendEventLine(b []byte, session string, ev *Event) []byte {
	b = append(b, '{')
	if session != "" {
		b = append(b, `"session":`...)
		b = strconv.AppendQuote(b, session) // ids are plain ASCII
		b = append(b, ',')
	}
	b = append(b, `"id":`...)
	b = strconv.AppendInt(b, ev.ID, 10)
	b = append(b, `,"type":`...)
	b = strconv.AppendQuote(b, ev.Type) // one of the Event constants
	b = append(b, `,"time":"`...)
	b = ev.Time.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","data":`...)
	b = append(b, ev.Data...)
	return append(b, '}', '\n')
}

// appendReserveLine appends the line that reserves ids up to n.
func appendReserveLine(b []byte, session string, n int64) []byte {
	b = append(b, '{')
	if session != "" {
		b = append(b, `"session":`...)
		b = strconv.AppendQuote(b, session)
		b = append(b, ',')
	}
	b = append(b, `"reserve":`...)
	b = strconv.AppendInt(b, n, 10)
	return append(b, '}', '\n')
}

// publish appends an event, makes it durable (unless it is an appended
// event: the caller passes sync false) and wakes the clients waiting.
func (l *eventLog) publish(typ string, data any, sync bool) {
	raw, err := json.Marshal(data)
	if err != nil {
		raw = []byte("null")
	}
	l.mu.Lock()
	if l.f == nil {
		l.mu.Unlock()
		return
	}
	ev := Event{ID: l.next, Type: typ, Time: l.now().UTC(), Data: raw}
	l.next++
	l.kept = append(l.kept, ev)
	if len(l.kept) > 2*l.keep {
		l.kept = append([]Event(nil), l.kept[len(l.kept)-l.keep:]...)
	}
	line := appendEventLine(make([]byte, 0, 128+len(l.id)+len(raw)), "", &ev)
	var reserve int64
	if ev.ID > l.reserved {
		reserve = ev.ID + reserveStep - 1
		l.reserved, sync = reserve, true
		line = appendReserveLine(line, "", reserve)
	}
	l.written++
	if l.wal == nil {
		_, _ = l.f.Write(line)
	} else if l.pending = append(l.pending, line...); len(l.pending) >= pendingMax {
		_ = l.flush() // the journal holds them: a failed write is replayed
	}
	if l.written > 4*l.keep {
		_ = l.rewrite(l.f.Name())
	}
	// The journal's lines are written in id order (under l.mu), then
	// synced together with the lines of other sessions and requests.
	var seq uint64
	if l.wal != nil {
		jl := appendEventLine(line[:0], l.id, &ev)
		if reserve > 0 {
			jl = appendReserveLine(jl, l.id, reserve)
		}
		seq = l.wal.add(l, jl)
	}
	l.mu.Unlock()
	if l.wal != nil && sync {
		l.wal.sync(seq)
	}
	l.mu.Lock()
	l.visible = max(l.visible, ev.ID)
	close(l.changed)
	l.changed = make(chan struct{})
	l.mu.Unlock()
}

// sync writes the pending lines to the session's file and syncs it (a
// checkpoint of the event journal).
func (l *eventLog) sync() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	return errors.Join(l.flush(), l.f.Sync())
}

// after returns the kept events with ids above id, whether events between
// id and the oldest kept are gone, and a channel closed at the next
// publish.
func (l *eventLog) after(id int64) (evs []Event, gap bool, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.kept
	for len(kept) > 0 && kept[len(kept)-1].ID > l.visible {
		kept = kept[:len(kept)-1] // not durable yet
	}
	if len(kept) > l.keep {
		kept = kept[len(kept)-l.keep:]
	}
	for i := range kept {
		if kept[i].ID > id {
			if id > 0 && kept[i].ID > id+1 && i == 0 {
				gap = true
			}
			evs = append(evs, kept[i:]...)
			break
		}
	}
	return evs, gap, l.changed
}

func (l *eventLog) close() {
	if l.wal != nil {
		l.wal.forget(l)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
		_ = l.flush() // not synced: the journal, synced at close, holds them
		l.f.Close()
		l.f = nil
	}
	close(l.changed)
	l.changed = make(chan struct{})
}

// serveSSE streams a session's events as server-sent events, starting after
// the Last-Event-ID header (or ?last_event_id=), until the client goes
// away or the server shuts down.
func (s *Server) serveSSE(w http.ResponseWriter, r *http.Request, h *hosted) {
	var last int64
	if v := r.Header.Get("Last-Event-ID"); v != "" {
		last, _ = strconv.ParseInt(v, 10, 64)
	} else if v := r.URL.Query().Get("last_event_id"); v != "" {
		last, _ = strconv.ParseInt(v, 10, 64)
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		writeError(w, fmt.Errorf("streaming unsupported"))
		return
	}
	// An event stream outlives the server's write timeout.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "retry: 2000\n\n")
	fl.Flush()
	for {
		evs, gap, changed := h.events.after(last)
		if gap {
			fmt.Fprintf(w, "event: %s\ndata: {\"after\":%d,\"oldest\":%d}\n\n", EventGap, last, evs[0].ID)
		}
		for _, ev := range evs {
			data, _ := json.Marshal(ev)
			fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", ev.ID, ev.Type, data)
			last = ev.ID
		}
		if len(evs) > 0 || gap {
			fl.Flush()
		}
		select {
		case <-changed:
		case <-r.Context().Done():
			return
		case <-s.closing:
			return
		case <-h.deleted:
			return
		}
	}
}

// lastID returns the id of the newest event, 0 when there is none.
func (l *eventLog) lastID() int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.visible
}
