package session_test

import (
	"errors"
	"path/filepath"
	"sync"
	"syscall"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/store/sqlite"
	"github.com/condense-dev/condense/strategy"
)

// fault is an injectable write failure.
type fault struct {
	mu  sync.Mutex
	err error
}

func (f *fault) set(err error) { f.mu.Lock(); f.err = err; f.mu.Unlock() }
func (f *fault) get() error    { f.mu.Lock(); defer f.mu.Unlock(); return f.err }

var errShort = errors.New("short write")

// faultyFile fails WriteAt with the fault: disk full and permission errors
// after writing part of the data, a short write by writing less.
type faultyFile struct {
	jsonl.File
	f *fault
}

func (ff faultyFile) WriteAt(p []byte, off int64) (int, error) {
	switch err := ff.f.get(); {
	case err == nil:
		return ff.File.WriteAt(p, off)
	case errors.Is(err, errShort):
		return ff.File.WriteAt(p[:len(p)/2], off)
	default:
		n, _ := ff.File.WriteAt(p[:len(p)/3], off)
		return n, err
	}
}

type faultStore struct {
	name string
	open func(t *testing.T, f *fault) func() store.Store
}

func faultStores() []faultStore {
	return []faultStore{
		{"memstore", func(t *testing.T, f *fault) func() store.Store {
			st := memstore.New()
			st.Fail = func(*store.Batch) error { return f.get() }
			return func() store.Store { return st }
		}},
		{"jsonl", func(t *testing.T, f *fault) func() store.Store {
			dir := t.TempDir()
			return func() store.Store {
				st, err := jsonl.Open(dir, &jsonl.Options{WrapFile: func(_ string, file jsonl.File) jsonl.File { return faultyFile{file, f} }})
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
		}},
		{"sqlite", func(t *testing.T, f *fault) func() store.Store {
			path := filepath.Join(t.TempDir(), "db")
			return func() store.Store {
				st, err := sqlite.Open(path, &sqlite.Options{BeforeCommit: f.get})
				if err != nil {
					t.Fatal(err)
				}
				return st
			}
		}},
	}
}

func TestFailedSaves(t *testing.T) {
	faults := []struct {
		name string
		err  error
	}{{"disk full", syscall.ENOSPC}, {"permission denied", syscall.EACCES}, {"short write", errShort}}
	for _, fs := range faultStores() {
		for _, fc := range faults {
			t.Run(fs.name+"/"+fc.name, func(t *testing.T) {
				f := &fault{}
				openStore := fs.open(t, f)
				st := openStore()
				cs := &countingStrategy{inner: strategy.Default()}
				o := options(4000, cs)
				s := open(t, st, "s", o)
				appendAll(t, s, turn("a", 2))

				// A failed append: kept in memory, new work refused.
				f.set(fc.err)
				msgs := turn("b", 6)
				err := s.Append(bg, msgs...)
				var se *session.SaveError
				if !errors.As(err, &se) || !errors.Is(err, session.ErrUnsaved) {
					t.Fatalf("Append under fault: %v, want a SaveError", err)
				}
				if s.Len() != len(turn("a", 2))+len(msgs) || !s.Unsaved() {
					t.Fatalf("pending messages not held: len %d", s.Len())
				}
				for name, call := range map[string]func() error{
					"Append":  func() error { return s.Append(bg, condense.UserText("x")) },
					"Prepare": func() error { _, err := s.Prepare(bg, condense.Request{Model: "gpt-4o"}); return err },
					"Compact": func() error { _, err := s.Compact(bg); return err },
					"Undo":    func() error { _, err := s.Undo(bg, "c1"); return err },
				} {
					if err := call(); !errors.Is(err, session.ErrUnsaved) {
						t.Fatalf("%s while unsaved: %v, want ErrUnsaved", name, err)
					}
				}
				if err := s.Flush(bg); !errors.Is(err, session.ErrUnsaved) {
					t.Fatalf("Flush under fault: %v", err)
				}
				f.set(nil)
				if err := s.Flush(bg); err != nil {
					t.Fatalf("Flush after the fault cleared: %v", err)
				}

				// A failed checkpoint save: the compaction is kept in
				// memory, and Flush saves it without compacting again.
				f.set(fc.err)
				_, err = s.Prepare(bg, condense.Request{Model: "gpt-4o", System: "You are a coding agent."})
				if !errors.Is(err, session.ErrUnsaved) {
					t.Fatalf("Prepare with a failing checkpoint save: %v", err)
				}
				cps := s.Checkpoints()
				if len(cps) != 1 || !cps[0].Unsaved {
					t.Fatalf("unsaved checkpoint not held: %+v", cps)
				}
				calls := cs.calls
				rendered := requestJSON(t, condense.Request{Model: "gpt-4o", System: "You are a coding agent.", Messages: s.Rendering().Messages()})
				f.set(nil)
				if err := s.Flush(bg); err != nil {
					t.Fatal(err)
				}
				if cs.calls != calls {
					t.Fatal("Flush ran the strategy again")
				}
				if cps := s.Checkpoints(); len(cps) != 1 || cps[0].Unsaved {
					t.Fatalf("after Flush: %+v", cps)
				}
				res := prepare(t, s, condense.WithoutCompaction())
				if requestJSON(t, res.Request) != rendered {
					t.Fatal("rendering changed across Flush")
				}
				n := s.Len()
				s.Close()
				st.Close()

				// What was flushed is what a reopened session has.
				st = openStore()
				defer st.Close()
				s = open(t, st, "s", o)
				defer s.Close()
				if s.Len() != n || len(s.Checkpoints()) != 1 {
					t.Fatalf("reopened: len %d (want %d), %d checkpoints", s.Len(), n, len(s.Checkpoints()))
				}
				if got := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request); got != rendered {
					t.Fatal("reopened session renders differently")
				}
			})
		}
	}
}
