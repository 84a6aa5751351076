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
