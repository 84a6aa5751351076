package jsonl_test

import (
	"testing"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() store.Store {
		dir := t.TempDir()
		return func() store.Store {
			s, err := jsonl.Open(dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	})
}
