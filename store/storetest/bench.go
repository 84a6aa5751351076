package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// BenchMessage is a tool message of about 500 bytes of condense JSON.
func BenchMessage(i int) condense.Message {
	return condense.Message{ID: fmt.Sprintf("m%d", i), Role: condense.RoleTool, Parts: []condense.Part{
		condense.ToolResult(fmt.Sprintf("call_%d", i), false, condense.Text(strings.Repeat("ok  \tgithub.com/x/y/z\t0.12s\n", 15)))}}
}

// BenchmarkAppend measures durable appends of one message each, by
// `appenders` goroutines sharing one session (group commit), and reports
// messages per second.
func BenchmarkAppend(b *testing.B, st store.Store, appenders int) {
	ctx := context.Background()
	var seq atomic.Int64
	l, err := st.Open(ctx, fmt.Sprintf("bench-%d-%d", appenders, seq.Add(1)+int64(b.N)))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	msgs := make([]condense.Message, 64)
	for i := range msgs {
		msgs[i] = BenchMessage(i)
	}
	raw, _ := json.Marshal(msgs[0])
	b.SetBytes(int64(len(raw)))
	b.ResetTimer()
	var next atomic.Int64
	var wg sync.WaitGroup
	for a := 0; a < appenders; a++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				if _, err := l.Append(ctx, store.Batch{Messages: msgs[i%64 : i%64+1]}); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
	if l.Len() != b.N {
		b.Fatalf("log holds %d messages, want %d", l.Len(), b.N)
	}
}
