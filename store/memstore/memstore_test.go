package memstore_test

import (
	"testing"

	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) func() store.Store {
		s := memstore.New()
		return func() store.Store { return s }
	})
}
