package journal

import (
	"bufio"
	"bytes"
	"context"
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
// line. An append is one write, synced (fsync) before it returns; the
// first append of a Dir to a run also syncs what the file already holds
// and the directory, so that the file's lines and its very name are
// durable before anything is acknowledged. A power cut mid-append can
// leave a torn tail: a last line cut short or garbled where sectors never
// reached the disk, or part of an append of several events (each line of
// such an append carries "batch_end", the seq of its last event). A torn
// tail is ignored when read and cut off, durably, by the next append; any
// other bad line is an error. It is safe for concurrent use.
//
// The first Append to a run locks its file with flock(2) until Close, the
// lock the session stores take: another Dir appending to that run, in
// another process or in this one, gets ErrLocked rather than interleaving
// its events with this one's. Load and Runs take no lock.
type Dir struct {
	dir string
	// Test hooks (fault injection): wrap wraps each run's file once it is
	// open and locked; syncDir syncs the directory.
	wrap    func(path string, f file) file
	syncDir func(dir string) error

	mu   sync.Mutex
	runs map[string]*dirRun
}

// file is what a Dir writes a run's file through (an *os.File, or a test's
// fault-injecting wrapper of one).
type file interface {
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
	Sync() error
	Truncate(size int64) error
	Close() error
}

type dirRun struct {
	mu    sync.Mutex
	os    *os.File // the run's file, locked; nil until the first Append
	f     file     // os, as written through
	n     int      // events stored
	good  int64    // bytes of whole lines
	known bool     // n and good are read
	// dirty: bytes past good may be on disk; they are cut off durably
	// before the next write.
	dirty bool
	// adopted: since it opened the file, this Dir has synced it and its
	// directory, so its lines and its name are durable.
	adopted bool
}

// ErrLocked: the run is being written by another store (another process,
// or another Dir in this one), as store.ErrLocked is for sessions.
var ErrLocked = errors.New("journal: run is locked by another writer")

// lock opens and locks r's file for appending, once.
func (r *dirRun) lock(run, path string, wrap func(string, file) file) error {
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
	r.os, r.f, r.known, r.adopted = f, f, false, false
	if wrap != nil {
		r.f = wrap(path, f)
	}
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
	return &Dir{dir: dir, runs: map[string]*dirRun{}, syncDir: syncDir}, nil
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
	if err := r.lock(run, path, d.wrap); err != nil {
		return err
	}
	fi, err := r.os.Stat()
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
		r.dirty = r.dirty || fi.Size() != good
	}
	if err := checkSequence(run, r.n, events); err != nil {
		return err
	}
	var buf bytes.Buffer
	var batchEnd int64 // marks the events of an append of several
	if len(events) > 1 {
		batchEnd = events[len(events)-1].Seq
	}
	for _, e := range events {
		e.Run = run
		b, err := e.encode(batchEnd)
		if err != nil {
			return fmt.Errorf("journal: encode event %d: %w", e.Seq, err)
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := r.write(buf.Bytes(), d.dir, d.syncDir); err != nil {
		r.known = false
		return err
	}
	r.n += len(events)
	return nil
}

// write writes the lines b after the whole lines of r's file and makes
// them durable, or, failing, leaves the file as it was for this process
// (what a later append reads) and marks it dirty.
func (r *dirRun) write(b []byte, dir string, syncDir func(string) error) error {
	f := r.f
	if r.dirty || !r.adopted {
		// Bytes past the whole lines (a torn tail, or a failed append's)
		// may be on disk. Cut them off durably before writing over them:
		// after a power cut mid-write, a mix of their sectors and the new
		// ones could otherwise read as an event never appended.
		if r.dirty {
			if err := f.Truncate(r.good); err != nil {
				return fmt.Errorf("journal: %w", err)
			}
		}
		// The first append of this process builds on lines that a
		// process which died before its sync may have left in the page
		// cache only, and on a name that may be new: make both durable
		// first, so that a power cut can tear nothing but this append.
		if err := f.Sync(); err != nil {
			return fmt.Errorf("journal: %w", err)
		}
		if !r.adopted {
			if err := syncDir(dir); err != nil {
				return err
			}
		}
		r.dirty, r.adopted = false, true
	}
	// A failed write or sync is undone: the events of an append are stored
	// all together or not at all, so the next append's sequence still holds.
	if _, err := f.WriteAt(b, r.good); err != nil {
		return r.undo(err)
	}
	if err := f.Sync(); err != nil {
		return r.undo(err)
	}
	r.good += int64(len(b))
	return nil
}

// undo takes back a failed append's bytes, as far as this process sees
// them; the next append cuts them off durably.
func (r *dirRun) undo(err error) error {
	r.dirty = true
	r.f.Truncate(r.good)
	return fmt.Errorf("journal: %w", err)
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

// readFile returns the events of a journal file and the length of the
// lines that hold them (parseJSONL).
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

// parseJSONL returns the events of a journal and the length of the lines
// that hold them. What follows them may be a torn tail, the last append
// of a writer that lost its power mid-write: its last line cut short, or
// garbled where sectors of the write never reached the disk, or, for an
// append of several events (marked with batch_end), some of its lines
// missing. A torn tail is left out. Anything else bad is an error naming
// the file and the first bad line.
func parseJSONL(rd io.Reader, name string) ([]Event, int64, error) {
	br := bufio.NewReaderSize(rd, 64<<10)
	var evs, batch []Event // batch: the events of an append not yet complete
	var good, end int64    // the length of the whole appends; of the lines read
	var batchEnd int64
	bad := 0 // the first bad line, once one is found: the tail starts at good
	var badErr error
	for line := 1; ; line++ {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			return evs, good, nil // what follows good is torn, if anything
		}
		if err != nil {
			return nil, 0, fmt.Errorf("journal: %s: %w", name, err)
		}
		end += int64(len(b))
		if len(bytes.TrimSpace(b)) == 0 {
			if bad == 0 && len(batch) == 0 {
				good = end
			}
			continue
		}
		var e Event
		mark, err := e.decode(b)
		if bad == 0 && err != nil {
			bad, badErr = line, err
		}
		if bad > 0 {
			// Past a bad line, in a torn tail, every line that reads as
			// an event belongs to the one append of several in progress.
			if err == nil && (mark == 0 || batchEnd != 0 && mark != batchEnd || e.Seq <= int64(len(evs)) || e.Seq > mark) {
				return nil, 0, fmt.Errorf("journal: %s:%d: %v", name, bad, badErr)
			}
			if err == nil {
				batchEnd = mark
			}
			continue
		}
		if want := int64(len(evs) + len(batch) + 1); e.Seq != want {
			return nil, 0, fmt.Errorf("journal: %s:%d: event seq %d, want %d", name, line, e.Seq, want)
		}
		if len(batch) > 0 && mark != batchEnd || mark != 0 && mark < e.Seq {
			return nil, 0, fmt.Errorf("journal: %s:%d: event %d does not belong to the append of the events before it", name, line, e.Seq)
		}
		batch, batchEnd = append(batch, e), mark
		if mark == 0 || mark == e.Seq {
			evs, batch, batchEnd, good = append(evs, batch...), batch[:0], 0, end
		}
	}
}

// ParseJSONL reads journal events from r, one per line, as OpenDir writes
// them. A torn tail (see Dir) is ignored.
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
			r.os, r.f, r.known = nil, nil, false
		}
		r.mu.Unlock()
	}
	return errors.Join(errs...)
}
