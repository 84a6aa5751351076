package jsonl_test

import (
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/storetest"
)

func openJSONL(dir string) (store.Store, error) {
	return jsonl.Open(dir, &jsonl.Options{Logger: slog.New(slog.DiscardHandler)})
}

func crashKills() int {
	if os.Getenv("CI") == "true" || !testing.Short() {
		return 200
	}
	return 20
}

func TestCrash(t *testing.T) { storetest.Crash(t, openJSONL, crashKills(), 50*time.Second) }

func TestTwoProcesses(t *testing.T) { storetest.TwoProcesses(t, openJSONL) }
