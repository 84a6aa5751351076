package sqlite_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/sqlite"
	"github.com/condense-dev/condense/store/storetest"
)

func openSQLite(dir string) (store.Store, error) {
	return sqlite.Open(filepath.Join(dir, "condense.db"), nil)
}

func crashKills() int {
	if os.Getenv("CI") == "true" || !testing.Short() {
		return 200
	}
	return 20
}

func TestCrash(t *testing.T) { storetest.Crash(t, openSQLite, crashKills(), 50*time.Second) }

func TestTwoProcesses(t *testing.T) { storetest.TwoProcesses(t, openSQLite) }
