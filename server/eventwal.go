package server

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/condense-dev/condense/internal/redact"
)

// eventWAL is the server's event journal: every event of every session is
// appended to one file and synced before it is shown or the request that
// made it is answered. Events published at the same time — by concurrent
// requests on any session — share one sync (a group commit), so durable
// events cost one sync per batch rather than one per session file. The
// sessions' own event files are written without syncing; when the journal
// has grown past walMax, the files written since the last rotation are
// synced and the journal starts a new generation. At start, the journals
// left are replayed into the session files (replayEventWAL).
//
//	DIR/events-<gen>.wal   {"session": id, …event…} per line
type eventWAL struct {
	dir string
	log *slog.Logger
	max int64

	mu     sync.Mutex // guards the fields below and orders writes
	f      *os.File
	gen    int
	size   int64
	seq    uint64 // lines written
	synced uint64 // lines known durable
	dirty  map[*eventLog]struct{}
	err    error // the last failed sync, reported once

	syncMu sync.Mutex // one sync at a time; the others wait and share it
	rotMu  sync.Mutex // one rotation at a time
}

// walMax is the size at which the journal rotates.
const walMax = 8 << 20

var walName = func(gen int) string { return fmt.Sprintf("events-%08d.wal", gen) }

// walFiles lists the journals in dir by generation.
func walFiles(dir string) ([]int, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var gens []int
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, "events-") || !strings.HasSuffix(name, ".wal") {
			continue
		}
		g, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "events-"), ".wal"))
		if err != nil {
			continue
		}
		gens = append(gens, g)
	}
	sort.Ints(gens)
	return gens, nil
}

// replayEventWAL writes the events of the journals left in st.dir into the
// session files (those with a record; a deleted session's events are
// dropped), syncs them, removes the journals and returns the next
// generation.
func replayEventWAL(st *stateDir, live map[string]bool, keep int) (int, error) {
	gens, err := walFiles(st.dir)
	if err != nil || len(gens) == 0 {
		return 1, err
	}
	bySession := map[string][]Event{}
	reserves := map[string]int64{}
	for _, g := range gens {
		data, err := os.ReadFile(filepath.Join(st.dir, walName(g)))
		if err != nil {
			return 0, err
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 64<<10), 64<<20)
		for sc.Scan() {
			var line struct {
				Session string `json:"session"`
				Event
				Reserve int64 `json:"reserve"`
			}
			// A torn last line (a crash mid-write) was never synced, so
			// never acknowledged: it is skipped.
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil || !live[line.Session] {
				continue
			}
			if line.Reserve > 0 {
				reserves[line.Session] = max(reserves[line.Session], line.Reserve)
				continue
			}
			if line.ID == 0 {
				continue
			}
			bySession[line.Session] = append(bySession[line.Session], line.Event)
		}
	}
	ids := map[string]bool{}
	for id := range bySession {
		ids[id] = true
	}
	for id := range reserves {
		ids[id] = true
	}
	for id := range ids {
		evs := bySession[id]
		path := st.eventsPath(id)
		have, reserved, err := readEvents(path, keep)
		if err != nil {
			return 0, err
		}
		var last int64
		if len(have) > 0 {
			last = have[len(have)-1].ID
		}
		add := 0
		for _, ev := range evs {
			if ev.ID > last {
				have = append(have, ev)
				last = ev.ID
				add++
			}
		}
		if add == 0 && reserves[id] <= reserved {
			continue
		}
		if len(have) > keep {
			have = have[len(have)-keep:]
		}
		f, err := writeEvents(path, have, max(reserved, reserves[id]))
		if err != nil {
			return 0, err
		}
		f.Close()
	}
	if err := syncDir(filepath.Join(st.dir, "events")); err != nil {
		return 0, err
	}
	for _, g := range gens {
		if err := os.Remove(filepath.Join(st.dir, walName(g))); err != nil {
			return 0, err
		}
	}
	return gens[len(gens)-1] + 1, syncDir(st.dir)
}

// openEventWAL starts the journal's generation gen.
func openEventWAL(dir string, gen int, log *slog.Logger) (*eventWAL, error) {
	w := &eventWAL{dir: dir, log: log, max: walMax, dirty: map[*eventLog]struct{}{}}
	f, err := w.create(gen)
	if err != nil {
		return nil, err
	}
	w.f, w.gen = f, gen
	return w, nil
}

func (w *eventWAL) create(gen int) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(w.dir, walName(gen)), os.O_CREATE|os.O_EXCL|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syncDir(w.dir); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// add writes a line of l's and returns its sequence number for sync. The
// caller holds l.mu, so that each session's lines are in id order.
func (w *eventWAL) add(l *eventLog, line []byte) uint64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return 0
	}
	n, err := w.f.Write(line)
	w.size += int64(n)
	if err != nil && w.err == nil {
		w.err = err
		w.log.Warn("condense/server: writing the event journal failed; events may be lost on a crash", "err", redact.Err(err))
	}
	w.seq++
	w.dirty[l] = struct{}{}
	return w.seq
}

// sync returns once line seq is durable: one caller syncs for every line
// written so far, and those who came meanwhile find their lines synced.
// A journal that has grown past max rotates after the sync.
func (w *eventWAL) sync(seq uint64) {
	w.syncMu.Lock()
	w.mu.Lock()
	if w.synced >= seq || w.f == nil {
		w.mu.Unlock()
		w.syncMu.Unlock()
		return
	}
	f, upto := w.f, w.seq
	w.mu.Unlock()
	err := f.Sync()
	w.mu.Lock()
	if err == nil {
		w.synced = max(w.synced, upto)
	} else if w.err == nil {
		w.err = err
		w.log.Warn("condense/server: syncing the event journal failed; events may be lost on a crash", "err", redact.Err(err))
	}
	rotate := w.size > w.max
	w.mu.Unlock()
	w.syncMu.Unlock()
	if rotate {
		if err := w.rotate(); err != nil {
			w.log.Warn("condense/server: rotating the event journal failed", "err", redact.Err(err))
		}
	}
}

// rotate starts a new generation, syncs the session files written during
// the old one and removes it: its lines are all in synced session files.
func (w *eventWAL) rotate() error {
	w.rotMu.Lock()
	defer w.rotMu.Unlock()
	w.syncMu.Lock()
	w.mu.Lock()
	if w.size <= w.max || w.f == nil {
		w.mu.Unlock()
		w.syncMu.Unlock()
		return nil
	}
	nf, err := w.create(w.gen + 1)
	if err != nil {
		w.mu.Unlock()
		w.syncMu.Unlock()
		return err
	}
	old, oldGen, dirty := w.f, w.gen, w.dirty
	// The old generation's lines are synced before anyone is told so.
	err = old.Sync()
	if err == nil {
		w.synced = w.seq
	}
	w.f, w.gen, w.size, w.dirty = nf, w.gen+1, 0, map[*eventLog]struct{}{}
	w.mu.Unlock()
	w.syncMu.Unlock()
	old.Close()
	if err != nil {
		return err
	}
	var errs []error
	for l := range dirty {
		errs = append(errs, l.sync())
	}
	if err := errors.Join(errs...); err != nil {
		return err // the old generation stays, replayed at the next start
	}
	if err := syncDir(filepath.Join(w.dir, "events")); err != nil {
		return err
	}
	return os.Remove(filepath.Join(w.dir, walName(oldGen)))
}

// forget drops l from the files to sync (its session was deleted).
func (w *eventWAL) forget(l *eventLog) {
	w.mu.Lock()
	delete(w.dirty, l)
	w.mu.Unlock()
}

// close syncs and closes the journal.
func (w *eventWAL) close() error {
	w.syncMu.Lock()
	defer w.syncMu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return nil
	}
	err := w.f.Sync()
	err = errors.Join(err, w.f.Close())
	w.f = nil
	return err
}
