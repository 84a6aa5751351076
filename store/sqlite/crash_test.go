package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/sqlite"
	"github.com/condense-dev/condense/store/storetest"
)

func openSQLite(dir string) (store.Store, error) {
	return sqlite.Open(filepath.Join(dir, "condense.db"), nil)
}

func TestCrash(t *testing.T) { storetest.Crash(t, openSQLite, storetest.Kills()) }

func TestTwoProcesses(t *testing.T) { storetest.TwoProcesses(t, openSQLite) }
