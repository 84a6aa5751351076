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
//	DIR/usage/<id>.jsonl     the usage series, one rendered request per line
type stateDir struct {
	dir string
	mu  sync.Mutex // serializes record writes
}

func openStateDir(dir string) (*stateDir, error) {
	for _, d := range []string{"sessions", "events", "usage"} {
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

func (s *stateDir) usagePath(id string) string {
	return filepath.Join(s.dir, "usage", id+".jsonl")
}

// put writes rec durably. Its usage series is not in the record: it is
// appended to its own file as requests are rendered (appendUsage).
func (s *stateDir) put(rec *record) error {
	if err := store.ValidID(rec.ID); err != nil {
		return err
	}
	bare := *rec
	bare.Series = nil
	data, err := json.Marshal(&bare)
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
		if err := s.loadUsage(&rec); err != nil {
			return nil, err
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
	for _, path := range []string{s.eventsPath(id), s.usagePath(id)} {
		if rerr := os.Remove(path); rerr != nil && !errors.Is(rerr, os.ErrNotExist) {
			err = errors.Join(err, rerr)
		}
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Join(s.dir, "sessions"))
}

// appendUsage adds p to the usage file of session id, unsynced: the
// series is a record of what was rendered, for the page's chart, and a
// crash of the machine may cost its newest points (a crash of the server
// alone costs none). f, when not nil, is that file already open for
// appends (openUsage), which saves opening it for every point.
func (s *stateDir) appendUsage(id string, f *os.File, p UsagePoint) error {
	line, err := json.Marshal(p)
	if err != nil {
		return err
	}
	line = append(line, '\n')
	if f != nil {
		_, err = f.Write(line)
		return err
	}
	if f, err = s.openUsage(id); err != nil {
		return err
	}
	_, err = f.Write(line)
	return errors.Join(err, f.Close())
}

// openUsage opens session id's usage file for appends.
func (s *stateDir) openUsage(id string) (*os.File, error) {
	return os.OpenFile(s.usagePath(id), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
}

// rewriteUsage replaces session id's usage file with series.
func (s *stateDir) rewriteUsage(id string, series []UsagePoint) error {
	var b bytes.Buffer
	for _, p := range series {
		line, err := json.Marshal(p)
		if err != nil {
			return err
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return writeFileAtomic(s.usagePath(id), b.Bytes())
}

// loadUsage reads rec's usage series: what an older record held itself,
// then its usage file, the last maxSeries points. A torn last line (a crash
// mid-write) is left out. A series found in the record moves to the file,
// and a file longer than the series is cut to it.
func (s *stateDir) loadUsage(rec *record) error {
	legacy := len(rec.Series) > 0
	data, err := os.ReadFile(s.usagePath(rec.ID))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for line := range bytes.Lines(data) {
		var p UsagePoint
		if json.Unmarshal(line, &p) == nil {
			rec.Series = append(rec.Series, p)
		}
	}
	trimmed := len(rec.Series) > maxSeries
	if trimmed {
		rec.Series = append([]UsagePoint(nil), rec.Series[len(rec.Series)-maxSeries:]...)
	}
	if legacy || trimmed {
		return s.rewriteUsage(rec.ID, rec.Series)
	}
	return nil
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
