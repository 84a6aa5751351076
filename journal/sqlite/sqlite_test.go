package sqlite_test

import (
	"context"
	"database/sql"
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

// The settings durability rests on are in force on a store Open returned.
func TestJournalSQLiteDurabilitySettings(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "journal.db")
	s, err := sqlite.Open(ctx, p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	db, err := sql.Open("sqlite", "file:"+p)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var mode string
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal (it is stored in the file)", mode, err)
	}
}
