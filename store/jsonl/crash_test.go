package jsonl_test

import (
	"log/slog"
	"testing"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/storetest"
)

func openJSONL(dir string) (store.Store, error) {
	return jsonl.Open(dir, &jsonl.Options{Logger: slog.New(slog.DiscardHandler)})
}

func TestCrash(t *testing.T) { storetest.Crash(t, openJSONL, storetest.Kills()) }

func TestTwoProcesses(t *testing.T) { storetest.TwoProcesses(t, openJSONL) }
