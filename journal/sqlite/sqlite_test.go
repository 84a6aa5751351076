package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/journal/journaltest"
	"github.com/condense-dev/condense/journal/sqlite"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestJournalSQLiteConformance(t *testing.T) {
	paths := map[journal.Store]string{}
	journaltest.Run(t, func(t *testing.T) journal.Store {
		p := filepath.Join(t.TempDir(), "journal.db")
		s, err := sqlite.Open(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		paths[s] = p
		return s
	}, func(t *testing.T, s journal.Store) journal.Store {
		p := paths[s]
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s2, err := sqlite.Open(context.Background(), p)
		if err != nil {
			t.Fatal(err)
		}
		return s2
	})
}
