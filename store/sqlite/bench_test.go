package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
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

// go test ./store/sqlite -run XXX -bench AppendSessions -benchmem
//
// One durable append of one message by each of 64 goroutines, each to its
// own session (the server under load): group commits across sessions.
func BenchmarkAppendSessions(b *testing.B) {
	st, err := sqlite.Open(filepath.Join(b.TempDir(), "db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	ctx := context.Background()
	const sessions = 64
	logs := make([]store.Log, sessions)
	for i := range logs {
		if logs[i], err = st.Open(ctx, fmt.Sprintf("s%d", i)); err != nil {
			b.Fatal(err)
		}
		if _, err := logs[i].Append(ctx, store.Batch{Messages: []condense.Message{storetest.BenchMessage(0)}}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for i := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if _, err := logs[i].Append(ctx, store.Batch{Messages: []condense.Message{storetest.BenchMessage(i)}}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}
