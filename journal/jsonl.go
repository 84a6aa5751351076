package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
)

// Dir is a Store of JSONL files: one file "<run>.jsonl" per run in a
// directory (under the data directory, beside the sessions), one event per
// line. Appends are written with one write and synced before they return;
// a torn last line, left by a crash mid-write, is ignored when read and cut
// off by the next append. It is safe for concurrent use.
//
// The first Append to a run locks its file with flock(2) until Close, the
// lock the session stores take: another Dir appending to that run, in
// another process or in this one, gets ErrLocked rather than interleaving
// its events with this one's. Load and Runs take no lock.
type Dir struct {
	dir string

	mu   sync.Mutex
	runs map[string]*dirRun
}

type dirRun struct {
	mu    sync.Mutex
	f     *os.File // the run's file, locked; nil until the first Append
	n     int      // events stored
	good  int64    // bytes of whole lines
	known bool
}

// ErrLocked: the run is being written by another store (another process,
// or another Dir in this one), as store.ErrLocked is for sessions.
var ErrLocked = errors.New("journal: run is locked by another writer")

// lock opens and locks r's file for appending, once.
func (r *dirRun) lock(run, path string) error {
	if r.f != nil {
		return nil
	}
	// O_NOFOLLOW: a link planted at a run's name must not make the store
	// write through it to another file.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return fmt.Errorf("journal: %s is a symbolic link, not a journal; refusing to follow it", path)
	}
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			return fmt.Errorf("journal: %s is not a regular file (%s)", path, fi.Mode().Type())
		}
		return fmt.Errorf("journal: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("%w: run %q (%s) is open for appending elsewhere; close the other store first", ErrLocked, run, path)
		}
		return fmt.Errorf("journal: lock %s: %w", path, err)
	}
	r.f, r.known = f, false
	return nil
}

var _ Store = (*Dir)(nil)

// OpenDir returns the store of the JSONL journals in dir, creating dir
// when it does not exist. Give journals a directory of their own beside the
// sessions' (for example <data dir>/journals next to store/jsonl's
// <data dir>/sessions): both name their files <id>.jsonl.
func OpenDir(dir string) (*Dir, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	return &Dir{dir: dir, runs: map[string]*dirRun{}}, nil
}

// Path returns the file of run.
func (d *Dir) Path(run string) string { return filepath.Join(d.dir, run+".jsonl") }

func (d *Dir) run(id string) *dirRun {
	d.mu.Lock()
	defer d.mu.Unlock()
	r := d.runs[id]
	if r == nil {
		r = &dirRun{}
		d.runs[id] = r
	}
	return r
}

// Append implements Store.
func (d *Dir) Append(ctx context.Context, run string, events ...Event) error {
	if err := ValidRun(run); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	r := d.run(run)
	r.mu.Lock()
	defer r.mu.Unlock()
	path := d.Path(run)
	_, statErr := os.Stat(path)
	if err := r.lock(run, path); err != nil {
		return err
	}
	fi, err := r.f.Stat()
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	// The cached length holds while the file is as this store left it;
	// otherwise (first use, a torn tail, another writer) the file is read.
	if !r.known || fi.Size() != r.good {
		evs, good, err := readFile(path)
		if err != nil && !errors.Is(err, ErrNotFound) {
			return err
		}
		r.n, r.good, r.known = len(evs), good, true
	}
	if err := checkSequence(run, r.n, events); err != nil {
		return err
	}
	var buf bytes.Buffer
	for _, e := range events {
		e.Run = run
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("journal: encode event %d: %w", e.Seq, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	f := r.f
	// Cut a torn tail off, then write at the end of the whole lines.
	if err := f.Truncate(r.good); err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	// A failed write or sync is undone: the events of an append are stored
	// all together or not at all, so the next append's sequence still holds.
	if _, err := f.WriteAt(buf.Bytes(), r.good); err != nil {
		f.Truncate(r.good)
		r.known = false
		return fmt.Errorf("journal: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Truncate(r.good)
		r.known = false
		return fmt.Errorf("journal: %w", err)
	}
	if os.IsNotExist(statErr) {
		if err := syncDir(d.dir); err != nil {
			return err
		}
	}
	r.n += len(events)
	r.good += int64(buf.Len())
	return nil
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return fmt.Errorf("journal: sync %s: %w", dir, err)
	}
	return nil
}

// Load implements Store.
func (d *Dir) Load(ctx context.Context, run string) ([]Event, error) {
	if err := ValidRun(run); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	r := d.run(run)
	r.mu.Lock()
	defer r.mu.Unlock()
	evs, _, err := readFile(d.Path(run))
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, ErrNotFound
	}
	return evs, nil
}

// ReadFile reads a JSONL journal file (as OpenDir writes them), for tools
// that are given a file rather than a store.
func ReadFile(path string) ([]Event, error) {
	evs, _, err := readFile(path)
	if err != nil {
		return nil, err
	}
	if len(evs) == 0 {
		return nil, fmt.Errorf("%w: %s holds no events", ErrNotFound, path)
	}
	return evs, nil
}

// readFile returns the events of a journal file and the length of its
// whole lines. A last line without its newline is torn and left out; a bad
// line elsewhere is an error naming the file and the line.
func readFile(path string) ([]Event, int64, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil, 0, ErrNotFound
	}
	if err != nil {
		return nil, 0, fmt.Errorf("journal: %w", err)
	}
	defer f.Close()
	return parseJSONL(f, path)
}

func parseJSONL(rd io.Reader, name string) ([]Event, int64, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	var evs []Event
	var good int64
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			return evs, good, nil // a torn last line, or none
		}
		if err != nil {
			return nil, 0, fmt.Errorf("journal: %s: %w", name, err)
		}
		if len(bytes.TrimSpace(b)) > 0 {
			var e Event
			if err := json.Unmarshal(b, &e); err != nil {
				return nil, 0, fmt.Errorf("journal: %s:%d: %v", name, line, err)
			}
			if want := int64(len(evs) + 1); e.Seq != want {
				return nil, 0, fmt.Errorf("journal: %s:%d: event seq %d, want %d", name, line, e.Seq, want)
			}
			evs = append(evs, e)
		}
		good += int64(len(b))
	}
}

// ParseJSONL reads journal events from r, one per line, as OpenDir writes
// them. A torn last line is ignored.
func ParseJSONL(r io.Reader) ([]Event, error) {
	evs, _, err := parseJSONL(r, "input")
	return evs, err
}

// Runs implements Store.
func (d *Dir) Runs(ctx context.Context) ([]string, error) {
	ents, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	var ids []string
	for _, e := range ents {
		if id, ok := strings.CutSuffix(e.Name(), ".jsonl"); ok && !e.IsDir() && ValidRun(id) == nil {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids, nil
}

// Close implements Store: it releases the locks of the runs this Dir
// appended to. A Dir may be used again after Close; its next Append to a
// run locks that run again.
func (d *Dir) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	var errs []error
	for _, r := range d.runs {
		r.mu.Lock()
		if r.f != nil {
			errs = append(errs, r.f.Close())
			r.f, r.known = nil, false
		}
		r.mu.Unlock()
	}
	return errors.Join(errs...)
}
