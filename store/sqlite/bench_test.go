package sqlite_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense/store/sqlite"
	"github.com/condense-dev/condense/store/storetest"
)

// go test ./store/sqlite -run XXX -bench Append -benchmem
func BenchmarkAppend(b *testing.B) {
	for _, n := range []int{1, 16} {
		b.Run(fmt.Sprintf("appenders=%d", n), func(b *testing.B) {
			st, err := sqlite.Open(filepath.Join(b.TempDir(), "db"), nil)
			if err != nil {
				b.Fatal(err)
			}
			defer st.Close()
			storetest.BenchmarkAppend(b, st, n)
		})
	}
}
