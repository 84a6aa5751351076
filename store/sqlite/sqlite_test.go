package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/sqlite"
	"github.com/condense-dev/condense/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() store.Store {
		path := filepath.Join(t.TempDir(), "condense.db")
		return func() store.Store {
			s, err := sqlite.Open(path, nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	})
}

func TestPragmas(t *testing.T) {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), "db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var mode string
	var sync int
	if err := st.DB().QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v", mode, err)
	}
	if err := st.DB().QueryRow("PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
		t.Fatalf("synchronous = %d, %v; want 2 (FULL)", sync, err)
	}
}
