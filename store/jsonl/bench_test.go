package jsonl_test

import (
	"fmt"
	"testing"

	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/storetest"
)

// go test ./store/jsonl -run XXX -bench Append -benchmem
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("appenders=%d", n), func(b *testing.B) {
			st, err := jsonl.Open(b.TempDir(), nil)
			if err != nil {
				b.Fatal(err)
			}
			storetest.BenchmarkAppend(b, st, n)
		})
	}
}
