package journal_test

import (
	"context"
	"testing"

	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/journal/journaltest"
)

// BenchmarkJournalDirAppend appends one event per call (one synced write).
func BenchmarkJournalDirAppend(b *testing.B) {
	d, err := journal.OpenDir(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	evs := journaltest.Events("r", 1, b.N)
	b.ResetTimer()
	for i := range b.N {
		if err := d.Append(context.Background(), "r", evs[i]); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJournalEventMarshal(b *testing.B) {
	e := journaltest.Events("r", 1, 2)[1]
	b.ReportAllocs()
	for b.Loop() {
		if _, err := e.MarshalJSON(); err != nil {
			b.Fatal(err)
		}
	}
}
