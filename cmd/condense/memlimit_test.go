package main

import (
	"bytes"
	"context"
	"os"
	"runtime/debug"
	"testing"

	"github.com/condense-dev/condense/transcript"
)

// The soft memory limit is 2.5 times the input, never under the floor.
func TestMemoryLimitFor(t *testing.T) {
	for _, c := range []struct{ size, want int64 }{
		{0, memLimitFloor},
		{1 << 20, memLimitFloor},
		{200 << 20, 500 << 20},
	} {
		if got := memoryLimitFor(c.size); got != c.want {
			t.Errorf("memoryLimitFor(%d) = %d, want %d", c.size, got, c.want)
		}
	}
}

// setMemoryLimit sets the limit unless GOMEMLIMIT is set, "off" included.
func TestSetMemoryLimit(t *testing.T) {
	before := debug.SetMemoryLimit(-1)
	t.Cleanup(func() { debug.SetMemoryLimit(before) })
	t.Setenv("GOMEMLIMIT", "off")
	setMemoryLimit(200 << 20)
	if got := debug.SetMemoryLimit(-1); got != before {
		t.Errorf("GOMEMLIMIT=off: limit %d, want %d (unchanged)", got, before)
	}
	t.Setenv("GOMEMLIMIT", "")
	setMemoryLimit(200 << 20)
	if got := debug.SetMemoryLimit(-1); got != 500<<20 {
		t.Errorf("limit %d, want %d", got, 500<<20)
	}
}

// The size hint is the file's size, or for a pipe the --max-input cap
// (none when the cap is lifted), and is given before the input is read.
func TestSizeHint(t *testing.T) {
	path := testdata + "claude-code.jsonl"
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		args  []string
		stdin []byte
		want  int64
	}{
		{"file", []string{"count", "--window", "8k", path}, nil, fi.Size()},
		{"file over the cap", []string{"count", "--window", "8k", "--max-input", "1k", path}, nil, 1000},
		{"pipe", []string{"count", "--window", "8k", "-"}, data, transcript.DefaultMaxBytes},
		{"pipe with a cap", []string{"count", "--window", "8k", "--max-input", "1m", "-"}, data, 1_000_000},
		{"pipe without a cap", []string{"count", "--window", "8k", "--max-input", "0", "-"}, data, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got int64
			var out, errb bytes.Buffer
			e := &env{stdin: bytes.NewReader(c.stdin), stdout: &out, stderr: &errb, sizeHint: func(n int64) { got = n }}
			_ = runEnv(context.Background(), c.args, e)
			if got != c.want {
				t.Errorf("size hint %d, want %d (%s)", got, c.want, errb.String())
			}
		})
	}
}
