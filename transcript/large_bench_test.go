package transcript

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/condense-dev/condense/internal/gen"
	"github.com/condense-dev/condense/internal/memtest"
	"github.com/condense-dev/condense/internal/testmode"
)

// largeRounds is the number of rounds of the generated session the large
// benchmarks read: 64 (about 20 MB) by default, 625 (about 200 MB) under
// CONDENSE_TEST_LONG=1.
func largeRounds() int {
	if testmode.Long() {
		return 625
	}
	return 64
}

// writeLargeSession writes the generator's Claude Code session of rounds
// rounds (about 320 KB each) to a file under dir and returns its path and
// size.
func writeLargeSession(tb testing.TB, dir string, rounds int) (string, int64) {
	tb.Helper()
	path := filepath.Join(dir, "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := gen.Session(w, 7, rounds); err != nil {
		tb.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, st.Size()
}

// BenchmarkReadLarge reads a generated Claude Code session of about 20 MB
// (200 MB under CONDENSE_TEST_LONG=1) with ReadFile and reports, besides
// time and allocations, the peak heap while reading (x-input-peak) and the
// heap the transcript keeps (x-input-kept), each as a multiple of the
// input's size.
func BenchmarkReadLarge(b *testing.B) {
	path, size := writeLargeSession(b, b.TempDir(), largeRounds())
	b.SetBytes(size)
	b.ReportAllocs()
	var peak, kept uint64
	for b.Loop() {
		var tr *Transcript
		p := memtest.Peak(func() {
			var err error
			if tr, err = ReadFile(path, Options{MaxBytes: -1}); err != nil {
				b.Fatal(err)
			}
		})
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(tr)
		peak, kept = max(peak, p), max(kept, ms.HeapAlloc)
	}
	b.ReportMetric(float64(peak)/float64(size), "x-input-peak")
	b.ReportMetric(float64(kept)/float64(size), "x-input-kept")
}

// writeLargeDocument writes the generated Claude Code session of rounds
// rounds as one JSON document of format f (the whole history, uncompacted;
// see writeDocument) to a file under dir and returns its path and size.
func writeLargeDocument(tb testing.TB, dir string, rounds int, f Format) (string, int64) {
	tb.Helper()
	src, _ := writeLargeSession(tb, dir, rounds)
	tr, err := ReadFile(src, Options{MaxBytes: -1})
	if err != nil {
		tb.Fatal(err)
	}
	path := filepath.Join(dir, "session-"+string(f)+".json")
	out, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	if err := writeDocument(out, f, tr.Request); err != nil {
		tb.Fatal(err)
	}
	if err := out.Close(); err != nil {
		tb.Fatal(err)
	}
	if err := os.Remove(src); err != nil {
		tb.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		tb.Fatal(err)
	}
	return path, st.Size()
}

// BenchmarkReadLargeDocument reads the generated session written as one
// document of each whole-document format (docFormats; about 17 MB, 170 MB
// under CONDENSE_TEST_LONG=1) with ReadFile, detecting its format, and
// reports the peak heap while reading (x-input-peak) and the heap the
// transcript keeps (x-input-kept) as multiples of the input's size.
func BenchmarkReadLargeDocument(b *testing.B) {
	for _, f := range docFormats {
		b.Run(string(f), func(b *testing.B) {
			path, size := writeLargeDocument(b, b.TempDir(), largeRounds(), f)
			b.SetBytes(size)
			b.ReportAllocs()
			var peak, kept uint64
			for b.Loop() {
				var tr *Transcript
				p := memtest.Peak(func() {
					var err error
					if tr, err = ReadFile(path, Options{MaxBytes: -1}); err != nil {
						b.Fatal(err)
					}
				})
				if tr.Format != f {
					b.Fatalf("read as %s", tr.Format)
				}
				runtime.GC()
				var ms runtime.MemStats
				runtime.ReadMemStats(&ms)
				runtime.KeepAlive(tr)
				peak, kept = max(peak, p), max(kept, ms.HeapAlloc)
			}
			b.ReportMetric(float64(peak)/float64(size), "x-input-peak")
			b.ReportMetric(float64(kept)/float64(size), "x-input-kept")
		})
	}
}
