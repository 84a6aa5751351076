// Package testmode tells the repository's tests how much work to do.
//
// Two things decide it. CONDENSE_TEST_LONG=1 asks for the long modes: more
// random cases, more kill points, full-size sessions. The race detector, which
// the README's test command turns on, slows code that runs on one goroutine
// some fivefold to tenfold; a sweep over a 2 MB session or ten thousand
// reference texts checks no concurrency, so under the race detector, outside
// the long modes, such a sweep runs on a part of its input (Light). The whole
// input is still checked by a run without -race, and by the long modes.
package testmode

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// EnvLong is the environment variable that, set to "1", asks for the long
// test modes.
const EnvLong = "CONDENSE_TEST_LONG"

// Long reports whether CONDENSE_TEST_LONG=1 asks for the long test modes.
func Long() bool { return os.Getenv(EnvLong) == "1" }

// Light reports whether a single-goroutine sweep should run on a part of its
// input: under the race detector, outside the long modes.
func Light() bool { return raceEnabled && !Long() }

// Stride returns 1 normally and n when Light: a sweep that visits every
// Stride()-th entry checks all of them in a normal run and one in n under
// the race detector.
func Stride(n int) int {
	if Light() && n > 1 {
		return n
	}
	return 1
}

// Part returns path itself, or, when Light, a copy in t.TempDir() of the
// first n-th of its lines (a JSONL session stays a valid session, shorter):
// a whole-file test then reads a third or a quarter of a large sample.
func Part(t testing.TB, path string, n int) string {
	t.Helper()
	if !Light() || n <= 1 {
		return path
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	keep := max(1, len(lines)/n)
	part := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(part, bytes.Join(lines[:keep], nil), 0o644); err != nil {
		t.Fatal(err)
	}
	return part
}
