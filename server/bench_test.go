package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/server"
)

// benchServer serves a server over a JSONL store (durable appends, an
// fdatasync each) on a loopback port.
func benchServer(b *testing.B, url string) (base string, stop func()) {
	b.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	be, err := server.OpenBackend(ctx, strings.ReplaceAll(url, "DIR", b.TempDir()), nil)
	if err != nil {
		b.Fatal(err)
	}
	s, err := server.New(be, &server.Options{Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); s.Serve(ctx, ln, server.Timeouts{}) }()
	return "http://" + ln.Addr().String(), func() { cancel(); <-done; be.Close() }
}

// benchHistory is ~50 messages of ~10k tokens, well under the threshold
// of a 128k window.
func benchHistory() []condense.Message {
	var out []condense.Message
	for k := 0; k < 25; k++ {
		out = append(out,
			condense.UserText(fmt.Sprintf("step %d: ", k)+strings.Repeat("please look at internal/queue/lease.go and explain the retry path. ", 12)),
			condense.AssistantText(fmt.Sprintf("answer %d: ", k)+strings.Repeat("the lease is renewed every 5s and the worker backs off exponentially. ", 12)))
	}
	return out
}

func post(hc *http.Client, url string, body []byte) error {
	resp, err := hc.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		return fmt.Errorf("%s: status %d", url, resp.StatusCode)
	}
	return err
}

// BenchmarkAppendRender is the load benchmark: each operation appends one
// message to a session of ~50 messages / ~10k tokens under the threshold
// and renders it as an OpenAI request, over loopback HTTP, with 1 or 64
// sessions in flight (client and server share the machine). It reports
// the latency percentiles, operations per second and the CPU time per
// operation. Each session takes at
// most 20 operations, so sessions stay near their starting size.
func BenchmarkAppendRender(b *testing.B) {
	for _, st := range []struct{ name, url string }{{"jsonl", "jsonl:DIR/store"}, {"sqlite", "sqlite:DIR/condense.db"}} {
		for _, inflight := range []int{1, 64} {
			b.Run(fmt.Sprintf("store=%s/inflight=%d", st.name, inflight), func(b *testing.B) { benchAppendRender(b, st.url, inflight) })
		}
	}
}

// benchProfile, when CONDENSE_BENCH_CPUPROFILE names a file, profiles the
// CPU of the timed part of a benchmark only (go test -cpuprofile also
// takes in the setup, which here creates every session). With
// CONDENSE_BENCH_MARK set, it stats the paths /condense-bench-start and
// /condense-bench-stop around it, so that a trace (strace -f) can be cut
// to the timed part.
func benchProfile(b *testing.B) (stop func()) {
	mark := os.Getenv("CONDENSE_BENCH_MARK") != ""
	if mark {
		os.Stat("/condense-bench-start")
	}
	path := os.Getenv("CONDENSE_BENCH_CPUPROFILE")
	if path == "" || b.N == 1 {
		return func() {
			if mark {
				os.Stat("/condense-bench-stop")
			}
		}
	}
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		b.Fatal(err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
		if mark {
			os.Stat("/condense-bench-stop")
		}
	}
}

func benchAppendRender(b *testing.B, url string, inflight int) {
	{
		{
			base, stop := benchServer(b, url)
			defer stop()
			hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * inflight}}
			c := &client{t: b, base: base, hc: hc}
			perSession := 20
			sessions := (b.N + perSession - 1) / perSession
			sessions = max(sessions, inflight)
			ids := make([]string, sessions)
			hist := benchHistory()
			for i := range ids {
				var snap server.Snapshot
				c.must(201, "POST", "/v1/sessions", server.CreateRequest{
					SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 128000, Strategy: "mask"},
					Messages:      hist}, &snap)
				ids[i] = snap.ID
			}
			msg, _ := json.Marshal(server.AppendRequest{Messages: []condense.Message{condense.UserText("one more thing: " + strings.Repeat("check the backoff. ", 10))}})
			lat := make([]time.Duration, b.N)
			var next atomic.Int64
			var failed atomic.Value
			var wg sync.WaitGroup
			b.ResetTimer()
			stopProfile := benchProfile(b)
			cpu0, cpuOK := processCPU()
			io0, ioOK := processSyscalls()
			start := time.Now()
			for w := 0; w < inflight; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for {
						i := int(next.Add(1)) - 1
						if i >= b.N {
							return
						}
						id := ids[i%sessions]
						t0 := time.Now()
						if err := post(hc, base+"/v1/sessions/"+id+"/messages", msg); err != nil {
							failed.Store(err)
							return
						}
						if err := post(hc, base+"/v1/sessions/"+id+"/render?format=openai", nil); err != nil {
							failed.Store(err)
							return
						}
						lat[i] = time.Since(t0)
					}
				}()
			}
			wg.Wait()
			elapsed := time.Since(start)
			cpu1, _ := processCPU()
			io1, _ := processSyscalls()
			stopProfile()
			b.StopTimer()
			if err, _ := failed.Load().(error); err != nil {
				b.Fatal(err)
			}
			slices.Sort(lat)
			pct := func(p float64) float64 { return float64(lat[min(len(lat)-1, int(float64(len(lat))*p))]) / 1e6 }
			b.ReportMetric(pct(0.50), "p50-ms")
			b.ReportMetric(pct(0.99), "p99-ms")
			b.ReportMetric(float64(b.N)/elapsed.Seconds(), "ops/s")
			if cpuOK {
				// CPU per operation, client and server together: what
				// bounds ops/s on an idle machine (2 cores: 2s / cpu-ms),
				// and unlike ops/s it does not follow the load of other
				// jobs sharing the cores.
				b.ReportMetric(float64(cpu1-cpu0)/1e6/float64(b.N), "cpu-ms/op")
			}
			if ioOK {
				// Read- and write-like system calls per operation
				// (network and files, client and server).
				b.ReportMetric(float64(io1-io0)/float64(b.N), "syscalls/op")
			}
		}
	}
}
