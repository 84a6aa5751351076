package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/condense-dev/condense/store"
)

// record is what the server keeps of a session beside its log: its
// settings and owner. It is written atomically (a new file renamed over the
// old, both synced) before the request that changed it is answered.
type record struct {
	ID      string        `json:"id"`
	Owner   string        `json:"owner,omitempty"`
	Created time.Time     `json:"created"`
	Config  SessionConfig `json:"config"`
	// Series is the usage of each request rendered, for the page.
	Series []UsagePoint `json:"series,omitempty"`
}

// maxSeries bounds the usage series kept per session.
const maxSeries = 2000

// stateDir keeps the records and event streams of every session:
//
//	DIR/sessions/<id>.json   the record
//	DIR/events/<id>.jsonl    the event stream, one event per line
type stateDir struct {
	dir string
	mu  sync.Mutex // serializes record writes
}

func openStateDir(dir string) (*stateDir, error) {
	for _, d := range []string{"sessions", "events"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	return &stateDir{dir: dir}, nil
}

func (s *stateDir) recordPath(id string) string {
	return filepath.Join(s.dir, "sessions", id+".json")
}

func (s *stateDir) eventsPath(id string) string {
	return filepath.Join(s.dir, "events", id+".jsonl")
}

// put writes rec durably.
func (s *stateDir) put(rec *record) error {
	if err := store.ValidID(rec.ID); err != nil {
		return err
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return writeFileAtomic(s.recordPath(rec.ID), data)
}

// writeFileAtomic replaces path with data (0600): a synced new file renamed
// over the old one, and the directory synced.
func writeFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// all reads every record.
func (s *stateDir) all() ([]*record, error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, "sessions"))
	if err != nil {
		return nil, err
	}
	var out []*record
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(s.dir, "sessions", name))
		if err != nil {
			return nil, err
		}
		var rec record
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("session record %s: %w", name, err)
		}
		out = append(out, &rec)
	}
	return out, nil
}

// remove forgets a session's record and events (its log stays in the
// store: nothing of a history is deleted).
func (s *stateDir) remove(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	err := os.Remove(s.recordPath(id))
	if errors.Is(err, os.ErrNotExist) {
		err = nil
	}
	if rerr := os.Remove(s.eventsPath(id)); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
		err = errors.Join(err, rerr)
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Join(s.dir, "sessions"))
}

// readEvents reads a session's stored events, the last keep of them, and
// the ids reserved (reserveLine). A torn last line (a crash mid-write) is
// ignored.
func readEvents(path string, keep int) ([]Event, int64, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var out []Event
	var reserved int64
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var ev struct {
			Event
			Reserve int64 `json:"reserve"`
		}
		if err := json.Unmarshal(sc.Bytes(), &ev); err != nil {
			continue
		}
		reserved = max(reserved, ev.Reserve)
		if ev.ID == 0 {
			continue
		}
		out = append(out, ev.Event)
	}
	if len(out) > keep {
		out = out[len(out)-keep:]
	}
	return out, reserved, nil
}
