package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense/journal/journaltest"
	"github.com/condense-dev/condense/journal/sqlite"
)

// BenchmarkJournalSQLiteAppend appends one event per call (one synced
// transaction).
func BenchmarkJournalSQLiteAppend(b *testing.B) {
	s, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), "j.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	evs := journaltest.Events("r", 1, b.N)
	b.ResetTimer()
	for i := range b.N {
		if err := s.Append(context.Background(), "r", evs[i]); err != nil {
			b.Fatal(err)
		}
	}
}
