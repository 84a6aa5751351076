package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
	"github.com/condense-dev/condense/store/storetest"
)

// The benchmarks run against CONDENSE_TEST_POSTGRES, each in a schema of
// its own, with every store instance standing for one replica (its own
// pool of benchConns connections):
//
//	go test ./store/postgres -run XXX -bench . -benchmem -count 6
//
// Append/instances=N/sessions=64: 64 sessions, each open exclusively on
// one of N instances, one appender per session; durable appends of one
// ~500-byte message each.
// SharedAppend/instances=N: one session in shared mode on N instances,
// 8 appenders per instance.
// SharedLock/instances=N: below.
// Read/instances=N: renders' reads: refresh a shared session (64 of them,
// 200 messages each) and read its newest 50 messages, from N instances.
const benchConns = 16

func benchStores(b *testing.B, n int) []*postgres.Store {
	schema := newSchema(b)
	stores := make([]*postgres.Store, n)
	for i := range stores {
		stores[i] = open(b, schema, &postgres.Options{MaxConns: benchConns})
		b.Cleanup(func() { stores[i].Close() })
		// Connect the whole pool before the clock starts.
		var conns []*pgxpool.Conn
		for range benchConns {
			c, err := stores[i].Pool().Acquire(context.Background())
			if err != nil {
				b.Fatal(err)
			}
			conns = append(conns, c)
		}
		for _, c := range conns {
			c.Release()
		}
	}
	return stores
}

func benchMsgs() []condense.Message {
	m := make([]condense.Message, 64)
	for i := range m {
		m[i] = storetest.BenchMessage(i)
	}
	return m
}

// run runs b.N operations over workers goroutines; op gets the worker
// and the operation's number.
func run(b *testing.B, workers int, op func(w int, i int64) error) {
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				if err := op(w, i); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
}

func BenchmarkAppend(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("instances=%d/sessions=64", n), func(b *testing.B) {
			stores := benchStores(b, n)
			logs := make([]store.Log, 64)
			for k := range logs {
				l, err := stores[k%n].Open(ctx, fmt.Sprintf("bench-%d", k))
				if err != nil {
					b.Fatal(err)
				}
				defer l.Close()
				logs[k] = l
			}
			msgs := benchMsgs()
			run(b, len(logs), func(w int, i int64) error {
				_, err := logs[w].Append(ctx, store.Batch{Messages: msgs[i%64 : i%64+1]})
				return err
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			total := 0
			for _, l := range logs {
				total += l.Len()
			}
			if total != b.N {
				b.Fatalf("the logs hold %d messages, want %d", total, b.N)
			}
		})
	}
}

func BenchmarkSharedAppend(b *testing.B) {
	ctx := context.Background()
	const perInstance = 8
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			stores := benchStores(b, n)
			logs := make([]*postgres.SharedLog, n)
			for k := range logs {
				l, err := stores[k].OpenShared(ctx, "shared")
				if err != nil {
					b.Fatal(err)
				}
				logs[k] = l
			}
			msgs := benchMsgs()
			run(b, n*perInstance, func(w int, i int64) error {
				_, err := logs[w%n].Append(ctx, store.Batch{Messages: msgs[i%64 : i%64+1]})
				return err
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
			if _, err := logs[0].Refresh(ctx); err != nil || logs[0].Len() != b.N {
				b.Fatalf("the log holds %d messages (%v), want %d", logs[0].Len(), err, b.N)
			}
		})
	}
}

func BenchmarkRead(b *testing.B) {
	ctx := context.Background()
	const sessions, size, last = 64, 200, 50
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			stores := benchStores(b, n)
			msgs := benchMsgs()
			logs := make([][]*postgres.SharedLog, n) // [instance][session]
			for k := range sessions {
				id := fmt.Sprintf("read-%d", k)
				for r := range n {
					l, err := stores[r].OpenShared(ctx, id)
					if err != nil {
						b.Fatal(err)
					}
					logs[r] = append(logs[r], l)
				}
				for j := 0; j < size; j += 50 {
					if _, err := logs[0][k].Append(ctx, store.Batch{Messages: msgs[:50]}); err != nil {
						b.Fatal(err)
					}
				}
			}
			run(b, 4*n, func(w int, i int64) error {
				l := logs[w%n][i%sessions]
				if _, err := l.Refresh(ctx); err != nil {
					return err
				}
				got, err := l.Messages(ctx, l.Len()-last, l.Len())
				if err == nil && len(got) != last {
					err = fmt.Errorf("read %d messages", len(got))
				}
				return err
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "reads/s")
		})
	}
}

// SharedLock/instances=N: one session on N instances, 2 goroutines per
// instance each taking the session's lock, appending one message and
// unlocking: how often the lock changes hands (in the process and across
// instances).
func BenchmarkSharedLock(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{1, 3} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			stores := benchStores(b, n)
			logs := make([]*postgres.SharedLog, n)
			for k := range logs {
				l, err := stores[k].OpenShared(ctx, "locked")
				if err != nil {
					b.Fatal(err)
				}
				logs[k] = l
			}
			msgs := benchMsgs()
			run(b, 2*n, func(w int, i int64) error {
				l, err := logs[w%n].Lock(ctx)
				if err != nil {
					return err
				}
				defer l.Close()
				_, err = l.Append(ctx, store.Batch{Messages: msgs[i%64 : i%64+1]})
				return err
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "locks/s")
			if _, err := logs[0].Refresh(ctx); err != nil || logs[0].Len() != b.N {
				b.Fatalf("the log holds %d messages (%v), want %d", logs[0].Len(), err, b.N)
			}
		})
	}
}
