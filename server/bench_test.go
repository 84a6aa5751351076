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
// operation of the steady state. Each session takes at most 20 operations,
// so sessions stay near their starting size.
//
// Before the timer starts, every session takes one operation through the
// same workers and HTTP client (the warm-up): a session's first render
// counts all its messages and opens its usage file, and the client opens
// its keep-alive connections. Those first operations are reported apart,
// as cold-cpu-ms/op (CPU per first operation, client and server) and
// cold-p50-ms, so that the timed figures are the steady state's whatever
// -benchtime is, and the cold cost stays in sight.
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
	base, stop := benchServer(b, url)
	defer stop()
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * inflight}}
	const perSession = 20
	ids := benchSessions(b, &client{t: b, base: base, hc: hc}, max((b.N+perSession-1)/perSession, inflight))
	msg, _ := json.Marshal(server.AppendRequest{Messages: []condense.Message{condense.UserText("one more thing: " + strings.Repeat("check the backoff. ", 10))}})
	op := func(i int) error {
		id := ids[i%len(ids)]
		if err := post(hc, base+"/v1/sessions/"+id+"/messages", msg); err != nil {
			return err
		}
		return post(hc, base+"/v1/sessions/"+id+"/render?format=openai", nil)
	}

	cold, err := benchRun(len(ids), inflight, op)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	stopProfile := benchProfile(b)
	warm, err := benchRun(b.N, inflight, op)
	stopProfile()
	b.StopTimer()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(warm.pct(0.50), "p50-ms")
	b.ReportMetric(warm.pct(0.99), "p99-ms")
	b.ReportMetric(float64(b.N)/warm.elapsed.Seconds(), "ops/s")
	if warm.cpuOK {
		// CPU per operation, client and server together: what bounds
		// ops/s on an idle machine (2 cores: 2s / cpu-ms), and unlike
		// ops/s it does not follow the load of other jobs sharing the
		// cores.
		b.ReportMetric(warm.cpuPerOp(), "cpu-ms/op")
	}
	if warm.ioOK {
		// Read- and write-like system calls per operation (network and
		// files, client and server).
		b.ReportMetric(float64(warm.syscalls)/float64(b.N), "syscalls/op")
	}
	b.ReportMetric(cold.pct(0.50), "cold-p50-ms")
	if cold.cpuOK {
		b.ReportMetric(cold.cpuPerOp(), "cold-cpu-ms/op")
	}
}

// benchSessions creates n sessions of benchHistory and returns their ids.
func benchSessions(b *testing.B, c *client, n int) []string {
	ids := make([]string, n)
	hist := benchHistory()
	for i := range ids {
		var snap server.Snapshot
		c.must(201, "POST", "/v1/sessions", server.CreateRequest{
			SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 128000, Strategy: "mask"},
			Messages:      hist}, &snap)
		ids[i] = snap.ID
	}
	return ids
}

// benchRound is what benchRun measured.
type benchRound struct {
	lat      []time.Duration // sorted
	elapsed  time.Duration
	cpu      time.Duration
	cpuOK    bool
	syscalls int64
	ioOK     bool
}

// pct returns the latency percentile p in milliseconds.
func (r *benchRound) pct(p float64) float64 {
	return float64(r.lat[min(len(r.lat)-1, int(float64(len(r.lat))*p))]) / 1e6
}

func (r *benchRound) cpuPerOp() float64 { return float64(r.cpu) / 1e6 / float64(len(r.lat)) }

// benchRun runs op(0) … op(n-1), inflight at a time, and measures them.
func benchRun(n, inflight int, op func(i int) error) (benchRound, error) {
	r := benchRound{lat: make([]time.Duration, n)}
	var next atomic.Int64
	var failed atomic.Value
	var wg sync.WaitGroup
	cpu0, cpuOK := processCPU()
	io0, ioOK := processSyscalls()
	start := time.Now()
	for w := 0; w < inflight; w++ {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				t0 := time.Now()
				if err := op(i); err != nil {
					failed.Store(err)
					return
				}
				r.lat[i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	r.elapsed = time.Since(start)
	cpu1, _ := processCPU()
	io1, _ := processSyscalls()
	r.cpu, r.cpuOK = cpu1-cpu0, cpuOK
	r.syscalls, r.ioOK = io1-io0, ioOK
	if err, _ := failed.Load().(error); err != nil {
		return r, err
	}
	slices.Sort(r.lat)
	return r, nil
}
