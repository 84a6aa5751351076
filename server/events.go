package server

import (
	"encoding/json"
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

// eventLog is a session's event stream: the last kept events in memory, all
// of them appended to a file (written, not synced: a process crash keeps
// them, a power cut may lose the newest), and the clients waiting for more.
type eventLog struct {
	mu      sync.Mutex
	f       *os.File
	kept    []Event
	keep    int
	next    int64
	written int // lines in the file
	changed chan struct{}
	now     func() time.Time
}

// openEventLog opens the stream stored at path, rewriting the file to its
// kept tail when it has grown to twice that.
func openEventLog(path string, keep int, now func() time.Time) (*eventLog, error) {
	evs, err := readEvents(path, keep)
	if err != nil {
		return nil, err
	}
	l := &eventLog{kept: evs, keep: keep, next: 1, changed: make(chan struct{}), now: now}
	if len(evs) > 0 {
		l.next = evs[len(evs)-1].ID + 1
	}
	if err := l.rewrite(path); err != nil {
		return nil, err
	}
	return l, nil
}

// rewrite writes the kept events to a fresh file and opens it for appends.
func (l *eventLog) rewrite(path string) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	var buf []byte
	for _, ev := range l.kept {
		line, _ := json.Marshal(ev)
		buf = append(append(buf, line...), '\n')
	}
	if _, err := f.Write(buf); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		f.Close()
		return err
	}
	if l.f != nil {
		l.f.Close()
	}
	l.f = f
	l.written = len(l.kept)
	return nil
}

// publish appends an event and wakes the clients waiting.
func (l *eventLog) publish(typ string, data any) {
	raw, err := json.Marshal(data)
	if err != nil {
		raw = []byte("null")
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	ev := Event{ID: l.next, Type: typ, Time: l.now().UTC(), Data: raw}
	l.next++
	l.kept = append(l.kept, ev)
	if len(l.kept) > 2*l.keep {
		l.kept = append([]Event(nil), l.kept[len(l.kept)-l.keep:]...)
	}
	line, _ := json.Marshal(ev)
	if _, err := l.f.Write(append(line, '\n')); err == nil {
		l.written++
	}
	if l.written > 4*l.keep {
		_ = l.rewrite(l.f.Name())
	}
	close(l.changed)
	l.changed = make(chan struct{})
}

// after returns the kept events with ids above id, whether events between
// id and the oldest kept are gone, and a channel closed at the next
// publish.
func (l *eventLog) after(id int64) (evs []Event, gap bool, changed <-chan struct{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.kept
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
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f != nil {
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
	return l.next - 1
}
