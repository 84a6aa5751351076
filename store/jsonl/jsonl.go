// Package jsonl is the embedded default store: one JSONL file per session
// under a data directory. See format.go for the file format.
//
// Appends are durable when acknowledged: each is fsynced (fdatasync) before
// Append returns, and concurrent appends to one session share a write and a
// sync (group commit). A torn tail left by a crash — a last line cut short,
// or lines of a batch that never got its end line — is dropped on open with
// a log line; anything bad earlier is an error naming the line. Opening a
// session reads the file once to index where each message lies (checking
// every line's CRC) but decodes no message: Messages decodes on demand.
// Before Open returns it syncs the file, and the directory while the file
// holds no more than its header, so the session it reports, and a new
// session's name, survive a power cut even when the process that wrote
// them died before its own syncs.
//
// The file grows in preallocated, zero-filled chunks (PreallocChunk), so an
// append overwrites blocks that already exist and its fdatasync flushes data
// without a metadata journal commit: on ext4 that is several times cheaper
// than a sync that also extends the file. Zero bytes after the last line
// are that preallocation, not data (a record line never holds a zero byte);
// a clean Close trims them.
//
// A session is locked for writing with flock(2) on its file: a second
// writer, in this process or another, gets store.ErrLocked.
package jsonl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"syscall"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// PreallocChunk is how much the file grows at a time, zero-filled.
const PreallocChunk = 4 << 20

// File is what the store needs of a session file. Tests wrap the real one
// (Options.WrapFile) to inject faults.
type File interface {
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
	// Sync makes written data durable.
	Sync() error
	Truncate(size int64) error
	Close() error
}

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// Logger receives the torn-tail notices. nil means slog.Default().
	Logger *slog.Logger
	// WrapFile, when set, wraps each session file once it is open and
	// locked (fault injection in tests): every write, truncate and sync of
	// the file goes through it, from the header of a new session on.
	WrapFile func(name string, f File) File
}

// Store keeps sessions as files in a directory.
type Store struct {
	dir  string
	opts Options
	log  *slog.Logger
	// syncDir makes the names of the files in a directory durable
	// (replaced by tests that simulate a disk).
	syncDir func(dir string) error
}

var _ store.Store = (*Store)(nil)

// Open returns the store over dir, creating the directory if needed.
func Open(dir string, opts *Options) (*Store, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &Store{dir: dir, syncDir: syncDir}
	if opts != nil {
		s.opts = *opts
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.Default()
	}
	return s, nil
}

// Close does nothing: each Log holds its own file.
func (s *Store) Close() error { return nil }

// Path returns the file of session id. The id must be valid
// (store.ValidID), which keeps it a plain file name inside the directory.
func (s *Store) Path(id string) string { return filepath.Join(s.dir, id+".jsonl") }

// osFile syncs with fdatasync: the data and the file size, not the times.
type osFile struct{ *os.File }

func (f osFile) Sync() error {
	for {
		err := syscall.Fdatasync(int(f.Fd()))
		if err != syscall.EINTR {
			return err
		}
	}
}

// Open opens session id for writing, creating its file when needed.
func (s *Store) Open(ctx context.Context, id string) (store.Log, error) {
	if err := store.ValidID(id); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path := s.Path(id)
	// O_NOFOLLOW: a link planted at a session's name must not make the
	// store write through it to another file.
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%w: %s is a symbolic link, not a session file; refusing to follow it", store.ErrCorrupt, path)
	}
	if err != nil {
		return nil, err
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fmt.Errorf("%w: %s is not a regular file (%s)", store.ErrCorrupt, path, fi.Mode().Type())
		}
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("%w: session %q (%s) is open for writing elsewhere", store.ErrLocked, id, path)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	var file File = osFile{f}
	if s.opts.WrapFile != nil {
		file = s.opts.WrapFile(path, file)
	}
	l, err := s.load(f, file, path, id)
	if err != nil {
		file.Close()
		return nil, err
	}
	return l, nil
}

// trimZeros returns the length of data without its trailing zero bytes:
// the preallocation a crash leaves after the last record, up to
// PreallocChunk long. It compares a page at a time.
func trimZeros(data []byte) int {
	var zeros [4096]byte
	end := len(data)
	for end >= len(zeros) && bytes.Equal(data[end-len(zeros):end], zeros[:]) {
		end -= len(zeros)
	}
	for end > 0 && data[end-1] == 0 {
		end--
	}
	return end
}

// load reads the session file f, which is written through file: it writes
// the header of a new file, cuts off a torn tail, and makes what it found
// durable before the session is handed out.
func (s *Store) load(f *os.File, file File, path, id string) (*log, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, err
	}
	physical := int64(len(data))
	end := trimZeros(data)
	ix, err := scan(data[:end], id)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	switch {
	case ix.headerless:
		if len(data) > 0 {
			s.log.Warn("condense/jsonl: dropping a torn header", "file", path, "bytes", len(data))
			if err := file.Truncate(0); err != nil {
				return nil, err
			}
		}
		h, _ := json.Marshal(header{Condense: "session", Version: Version, ID: id})
		h = append(h, '\n')
		if _, err := file.WriteAt(h, 0); err != nil {
			return nil, err
		}
		ix.size = int64(len(h))
		physical = ix.size
	case ix.size < int64(end):
		s.log.Warn("condense/jsonl: dropping a torn tail left by a crash", "file", path,
			"bytes", int64(end)-ix.size, "lines", ix.tornLines, "kept_messages", len(ix.offs))
		if err := file.Truncate(ix.size); err != nil {
			return nil, err
		}
		physical = ix.size
	}
	// What Open reports must survive a power cut before Open returns: the
	// header just written or the torn tail just cut off, and lines that a
	// process killed before its sync left in the page cache only. On a
	// file already durable the sync finds nothing to write.
	if err := file.Sync(); err != nil {
		return nil, err
	}
	// So must the file's name, which is not durable until its directory
	// is synced: without it, appends acknowledged later could vanish with
	// the file. A file holding nothing past its header may have been
	// created by this Open or by a process that died before its own
	// directory sync, so the directory is synced. Anything past the header
	// was written after an Open of the session had returned, and that Open
	// synced the directory first (this rule, from the file's creation on),
	// so other files are spared a directory sync, which costs a journal
	// commit.
	if ix.headerless || len(data) == bytes.IndexByte(data, '\n')+1 {
		if err := s.syncDir(filepath.Dir(path)); err != nil {
			return nil, err
		}
	}
	l := &log{f: file, path: path, ix: ix, alloc: physical}
	l.cond = sync.NewCond(&l.mu)
	return l, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

var _ store.Log = (*log)(nil)

// log is one open session file.
type log struct {
	f    File
	path string

	mu     sync.Mutex
	cond   *sync.Cond
	ix     *index // durable state; ix.size is the file's good length
	closed bool
	// dirty: a failed write may have left bytes after ix.size; the next
	// write truncates them first.
	dirty bool
	// alloc is the file's physical size: ix.size plus zero-filled
	// preallocation. Only the committing goroutine touches it.
	alloc int64

	// group commit
	queue   []*pending
	writing bool
}

type pending struct {
	b     *store.Batch
	msgs  [][]byte // encoded messages
	cp    []byte
	undo  []byte
	first int
	err   error
	done  bool
}

func (l *log) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.ix.offs)
}

func (l *log) Checkpoints() []store.Checkpoint {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]store.Checkpoint(nil), l.ix.cps...)
}

func (l *log) Undos() []store.Undo {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]store.Undo(nil), l.ix.undos...)
}

func (l *log) Messages(ctx context.Context, from, to int) ([]condense.Message, error) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return nil, store.ErrClosed
	}
	n := len(l.ix.offs)
	if from < 0 || to > n || from > to {
		l.mu.Unlock()
		return nil, fmt.Errorf("%w: [%d, %d) of %d", store.ErrOutOfRange, from, to, n)
	}
	if from == to {
		l.mu.Unlock()
		return []condense.Message{}, nil
	}
	offs := l.ix.offs[from:to:to]
	lens := l.ix.lens[from:to:to]
	l.mu.Unlock()
	base := offs[0]
	buf := make([]byte, offs[len(offs)-1]+int64(lens[len(lens)-1])-base)
	if _, err := l.f.ReadAt(buf, base); err != nil {
		return nil, fmt.Errorf("read %s: %w", l.path, err)
	}
	out := make([]condense.Message, len(offs))
	for i := range offs {
		if i%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		raw, err := unwrap(buf[offs[i]-base : offs[i]-base+int64(lens[i])])
		if err == nil {
			err = out[i].UnmarshalJSON(raw)
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %s: message %d: %v", store.ErrCorrupt, l.path, from+i, err)
		}
	}
	return out, nil
}

// Append writes b and waits until it is durable. Concurrent Appends are
// written and synced together.
func (l *log) Append(ctx context.Context, b store.Batch) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	p := &pending{b: &b}
	enc, err := store.Encode(b)
	if err != nil {
		return 0, err
	}
	p.msgs, p.cp, p.undo = enc.Messages, enc.Checkpoint, enc.Undo
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return 0, store.ErrClosed
	}
	if b.Empty() {
		return len(l.ix.offs), nil
	}
	l.queue = append(l.queue, p)
	for !p.done {
		if l.writing {
			l.cond.Wait()
			continue
		}
		if l.closed { // closed while this append waited behind a commit
			l.queue = slices.DeleteFunc(l.queue, func(q *pending) bool { return q == p })
			return 0, store.ErrClosed
		}
		l.commit()
	}
	return p.first, p.err
}

// commit writes the queued batches as one write and one sync. Called with
// l.mu held; releases it while writing.
func (l *log) commit() {
	l.writing = true
	batch := l.queue
	l.queue = nil
	n := len(l.ix.offs)
	size := l.ix.size
	dirty := l.dirty
	l.mu.Unlock()

	var buf []byte
	type placed struct {
		offs []int64
		lens []int32
	}
	places := make([]placed, len(batch))
	var ok []*pending
	for k, p := range batch {
		if p.b.Checkpoint != nil && p.b.Checkpoint.HistoryCount > n+len(p.msgs) {
			p.err = fmt.Errorf("%w: checkpoint %s counts %d messages, the log would hold %d",
				store.ErrInvalidBatch, p.b.Checkpoint.ID, p.b.Checkpoint.HistoryCount, n+len(p.msgs))
			continue
		}
		p.first = n
		lines := len(p.msgs)
		if p.cp != nil {
			lines++
		}
		if p.undo != nil {
			lines++
		}
		line := 0
		for i, raw := range p.msgs {
			line++
			prefix := messagePrefix(n+i, line == lines)
			places[k].offs = append(places[k].offs, size+int64(len(buf)+len(prefix)))
			places[k].lens = append(places[k].lens, int32(len(raw)))
			buf = appendRecord(buf, prefix, raw)
		}
		if p.cp != nil {
			line++
			buf = appendRecord(buf, otherPrefix('c', line == lines), p.cp)
		}
		if p.undo != nil {
			line++
			buf = appendRecord(buf, otherPrefix('u', line == lines), p.undo)
		}
		n += len(p.msgs)
		ok = append(ok, p)
	}
	var err error
	if dirty {
		err = l.f.Truncate(size)
		l.alloc = size
	}
	if err == nil && size+int64(len(buf)) > l.alloc {
		err = l.grow(size + int64(len(buf)))
	}
	if err == nil && len(buf) > 0 {
		var w int
		w, err = l.f.WriteAt(buf, size)
		if err == nil && w < len(buf) {
			err = io.ErrShortWrite
		}
		if err == nil {
			err = l.f.Sync()
		}
	}
	if err != nil {
		err = fmt.Errorf("append to %s: %w", l.path, err)
		// Take back whatever reached the file; if that fails too, the
		// next write tries again (and open drops a torn tail anyway).
		dirty = l.f.Truncate(size) != nil
		l.alloc = size
	} else {
		dirty = false
	}

	l.mu.Lock()
	l.dirty = dirty
	for k, p := range batch {
		p.done = true
		if p.err != nil {
			continue
		}
		if err != nil {
			p.err = err
			continue
		}
		l.ix.offs = append(l.ix.offs, places[k].offs...)
		l.ix.lens = append(l.ix.lens, places[k].lens...)
		if p.b.Checkpoint != nil {
			var cp store.Checkpoint
			if jerr := json.Unmarshal(p.cp, &cp); jerr == nil {
				l.ix.cps = append(l.ix.cps, cp)
			}
		}
		if p.b.Undo != nil {
			var u store.Undo
			if jerr := json.Unmarshal(p.undo, &u); jerr == nil {
				l.ix.undos = append(l.ix.undos, u)
			}
		}
	}
	if err == nil {
		l.ix.size = size + int64(len(buf))
	}
	_ = ok
	l.writing = false
	l.cond.Broadcast()
}

// grow extends the file with zeros to a multiple of PreallocChunk past
// need. The zeros are written (not just allocated), so later appends are
// plain overwrites; the commit's sync makes them durable.
func (l *log) grow(need int64) error {
	target := (need + PreallocChunk - 1) / PreallocChunk * PreallocChunk
	zeros := make([]byte, 1<<20)
	for off := l.alloc; off < target; {
		n := min(int64(len(zeros)), target-off)
		if _, err := l.f.WriteAt(zeros[:n], off); err != nil {
			return err
		}
		off += n
	}
	l.alloc = target
	return nil
}

func (l *log) Close() error {
	l.mu.Lock()
	for l.writing {
		l.cond.Wait()
	}
	if l.closed {
		l.mu.Unlock()
		return nil
	}
	l.closed = true
	size, alloc := l.ix.size, l.alloc
	l.mu.Unlock()
	if alloc > size {
		// Trim the preallocation; if this does not reach the disk, the
		// zeros are read as preallocation again on open.
		l.f.Truncate(size)
	}
	return l.f.Close()
}
