// Package faultfs simulates what a disk keeps through faults, for the
// durability tests of the file stores. A store's files are wrapped: every
// write and truncate goes through to the real file (the page cache, which a
// process crash leaves intact), and the Disk also records which of them a
// Sync made durable. At a simulated power cut, Restore rewrites each file
// as the disk could hold it when the power comes back: the synced bytes,
// plus any subset of the 512-byte sectors written since, in any order; a
// file whose directory was never synced after its creation may be gone.
//
// Faults are planned by operation: every WriteAt, Truncate, Sync and
// SyncDir counts one, across all files. A Plan fails one operation with an
// I/O error, kills the process at one (its page cache survives, its later
// operations do nothing) and cuts the power at one.
package faultfs

import (
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
)

// File is what the stores write through: a subset of *os.File.
type File interface {
	ReadAt(p []byte, off int64) (int, error)
	WriteAt(p []byte, off int64) (int, error)
	// Sync makes what was written durable.
	Sync() error
	Truncate(size int64) error
	Close() error
}

// The faults an operation returns.
var (
	// ErrPowerCut: the power is off; nothing more reaches the disk.
	ErrPowerCut = errors.New("faultfs: power cut")
	// ErrInjected: this one operation failed (as with EIO) and did
	// nothing; later ones work.
	ErrInjected = errors.New("faultfs: injected I/O error")
	// ErrKilled: the process died; the operation and every later one of
	// the same process do nothing.
	ErrKilled = errors.New("faultfs: process killed")
)

// Plan places the faults of a Disk by operation number, counted from 1;
// zero places none.
type Plan struct {
	Fail int // fails with ErrInjected
	Kill int // the process dies (ErrKilled)
	Cut  int // the power goes (ErrPowerCut), for good
}

// Disk records the durable state of the files wrapped through it.
type Disk struct {
	plan Plan

	mu     sync.Mutex
	ops    int
	cut    bool
	killed int // processes killed so far
	files  map[string]*state
}

// state is one file: what a sync made durable, and the operations since.
type state struct {
	durable []byte
	pending []op
	// named: the file's directory entry is durable (it existed when first
	// wrapped, or its directory was synced since).
	named bool
}

type op struct {
	truncate bool
	off      int64
	data     []byte
}

// New returns a disk whose faults follow plan.
func New(plan Plan) *Disk { return &Disk{plan: plan, files: map[string]*state{}} }

// Ops returns the number of operations so far.
func (d *Disk) Ops() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.ops
}

// Cut reports whether the power has been cut.
func (d *Disk) Cut() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cut
}

// Killed returns how many processes were killed.
func (d *Disk) Killed() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.killed
}

// Proc is one process using the disk: a kill ends it, and a restarted
// process is a new Proc.
type Proc struct {
	d    *Disk
	dead bool // guarded by d.mu
}

// Process returns a new process.
func (d *Disk) Process() *Proc { return &Proc{d: d} }

// step counts an operation of p and returns the fault it meets, if any.
// Called with d.mu held.
func (p *Proc) step() error {
	d := p.d
	if d.cut {
		return ErrPowerCut
	}
	if p.dead {
		return ErrKilled
	}
	d.ops++
	switch d.ops {
	case d.plan.Cut:
		d.cut = true
		return ErrPowerCut
	case d.plan.Kill:
		p.dead = true
		d.killed++
		return ErrKilled
	case d.plan.Fail:
		return ErrInjected
	}
	return nil
}

// Wrap returns f, the open file at path, with its operations going through
// the disk. The file's content at the first Wrap of path is taken as
// durable; named says whether its directory entry is (false for a file
// this process just created and whose directory it has not synced).
func (p *Proc) Wrap(path string, f File, named bool) File {
	d := p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.files[path] == nil {
		data, _ := os.ReadFile(path)
		d.files[path] = &state{durable: data, named: named}
	}
	return &file{File: f, p: p, st: d.files[path]}
}

// SyncDir syncs the directory dir, making the names of the files in it
// durable.
func (p *Proc) SyncDir(dir string) error {
	d := p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := p.step(); err != nil {
		return err
	}
	for path, st := range d.files {
		if filepath.Dir(path) == filepath.Clean(dir) {
			st.named = true
		}
	}
	return nil
}

type file struct {
	File
	p  *Proc
	st *state
}

func (f *file) WriteAt(b []byte, off int64) (int, error) {
	d := f.p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	on := !d.cut
	err := f.p.step()
	if errors.Is(err, ErrPowerCut) && on {
		// The power went while this write was in flight: part of it may
		// reach the disk.
		f.st.pending = append(f.st.pending, op{off: off, data: slices.Clone(b)})
	}
	if err != nil {
		return 0, err
	}
	f.st.pending = append(f.st.pending, op{off: off, data: slices.Clone(b)})
	return f.File.WriteAt(b, off)
}

func (f *file) Truncate(size int64) error {
	d := f.p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := f.p.step(); err != nil {
		return err
	}
	f.st.pending = append(f.st.pending, op{truncate: true, off: size})
	return f.File.Truncate(size)
}

func (f *file) Sync() error {
	d := f.p.d
	d.mu.Lock()
	defer d.mu.Unlock()
	if err := f.p.step(); err != nil {
		return err
	}
	// The real file is not synced: what is durable is what the disk
	// records, and a real sync would only slow the tests down.
	for _, o := range f.st.pending {
		f.st.durable = apply(f.st.durable, o, nil)
	}
	f.st.pending = nil
	return nil
}

// apply applies one operation to an image; with r set, a write lands only
// in a random subset of its sectors.
func apply(img []byte, o op, r *rand.Rand) []byte {
	if o.truncate {
		if int(o.off) <= len(img) {
			return img[:o.off]
		}
		return append(img, make([]byte, int(o.off)-len(img))...)
	}
	const sector = 512
	for s := int64(0); s < int64(len(o.data)); s += sector {
		if r != nil && r.IntN(2) == 0 {
			continue
		}
		end := min(s+sector, int64(len(o.data)))
		at := o.off + s
		if need := at + end - s; need > int64(len(img)) {
			img = append(img, make([]byte, need-int64(len(img)))...)
		}
		copy(img[at:], o.data[s:end])
	}
	return img
}

// Image returns the file at path as the disk could hold it after a power
// cut now, and whether it exists at all: the durable bytes, then of each
// operation since, a truncate or not, and a random subset of a write's
// sectors. A file whose name is not durable is gone half the time.
func (d *Disk) Image(path string, r *rand.Rand) (data []byte, exists bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	st := d.files[path]
	if st == nil {
		return nil, false
	}
	if !st.named && r.IntN(2) == 0 {
		return nil, false
	}
	img := slices.Clone(st.durable)
	for _, o := range st.pending {
		switch {
		case o.truncate && r.IntN(2) == 0:
		case o.truncate:
			img = apply(img, o, nil)
		default:
			img = apply(img, o, r)
		}
	}
	return img, true
}

// Restore rewrites every wrapped file as Image returns it (removing the
// ones that are gone), as the power comes back. The files must be closed.
func (d *Disk) Restore(r *rand.Rand) error {
	d.mu.Lock()
	paths := make([]string, 0, len(d.files))
	for p := range d.files {
		paths = append(paths, p)
	}
	d.mu.Unlock()
	sort.Strings(paths) // the same seed restores the same way
	for _, path := range paths {
		img, ok := d.Image(path, r)
		if !ok {
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return err
			}
			continue
		}
		if err := os.WriteFile(path, img, 0o644); err != nil {
			return err
		}
	}
	return nil
}
