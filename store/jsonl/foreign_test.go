package jsonl_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
)

// Open never writes over a file that is not a session: a foreign file
// without a newline, a symbolic link (to a session or anything else), a
// directory or a FIFO at a session's name is refused with ErrCorrupt and
// left exactly as it was.
func TestOpenRefusesForeignFiles(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, dir, path string) (check func(t *testing.T))
	}{
		{"foreign file without a newline", func(t *testing.T, dir, path string) func(t *testing.T) {
			os.WriteFile(path, []byte("precious data, no newline"), 0o644)
			return unchanged(path, "precious data, no newline")
		}},
		{"foreign file with a newline", func(t *testing.T, dir, path string) func(t *testing.T) {
			os.WriteFile(path, []byte("line one\nline two"), 0o644)
			return unchanged(path, "line one\nline two")
		}},
		{"symbolic link to another file", func(t *testing.T, dir, path string) func(t *testing.T) {
			target := filepath.Join(dir, "target.txt")
			os.WriteFile(target, []byte("not yours"), 0o644)
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
			return unchanged(target, "not yours")
		}},
		{"dangling symbolic link", func(t *testing.T, dir, path string) func(t *testing.T) {
			target := filepath.Join(dir, "elsewhere.txt")
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
			return func(t *testing.T) {
				if _, err := os.Stat(target); !os.IsNotExist(err) {
					t.Errorf("the link's target was created: %v", err)
				}
			}
		}},
		{"directory", func(t *testing.T, dir, path string) func(t *testing.T) {
			os.Mkdir(path, 0o755)
			return func(t *testing.T) {}
		}},
		{"fifo", func(t *testing.T, dir, path string) func(t *testing.T) {
			if err := syscall.Mkfifo(path, 0o644); err != nil {
				t.Skip(err)
			}
			return func(t *testing.T) {}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			s, err := jsonl.Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			check := tc.plant(t, dir, s.Path("s1"))
			l, err := s.Open(ctx, "s1")
			if err == nil {
				l.Close()
				t.Fatal("opened")
			}
			if !errors.Is(err, store.ErrCorrupt) && !errors.Is(err, syscall.EISDIR) {
				t.Errorf("err = %v, want ErrCorrupt", err)
			}
			check(t)
		})
	}
}

func unchanged(path, want string) func(t *testing.T) {
	return func(t *testing.T) {
		b, err := os.ReadFile(path)
		if err != nil || string(b) != want {
			t.Errorf("%s now holds %q (%v), want %q", path, b, err, want)
		}
	}
}

// A header torn while the file was created (any prefix of it) still opens:
// that file is ours.
func TestOpenTornHeaderPrefixes(t *testing.T) {
	ctx := context.Background()
	h := `{"condense":"session","version":1,"id":"s1"}`
	for _, n := range []int{0, 1, 12, len(h) - 1, len(h)} {
		dir := t.TempDir()
		s, _ := jsonl.Open(dir, &jsonl.Options{Logger: slog.New(slog.DiscardHandler)})
		os.WriteFile(s.Path("s1"), []byte(h[:n]), 0o644)
		l, err := s.Open(ctx, "s1")
		if err != nil {
			t.Fatalf("prefix of %d bytes: %v", n, err)
		}
		l.Close()
	}
}
