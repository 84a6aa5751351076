package proxy

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store/postgres"
)

// BenchmarkProxy measures the latency of a Chat Completions request of a
// 126k-token history (390 KB, 100 tool steps) on loopback: sent straight to the fake upstream
// (direct), through the proxy when the conversation is known and the
// request is under the threshold (known: each call is the known history
// plus the exchanges of the calls before, as an agent's calls grow), and through the proxy
// when the request is over the threshold of a conversation it has not seen
// (compacting: a new key each call, so nothing is reused). It reports the
// median and 99th percentile; the proxy's added latency is the difference
// from direct.
//
//	go test ./proxy -run '^$' -bench Proxy -benchmem -count 5
func BenchmarkProxy(b *testing.B) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, cannedReply(r.URL.Path))
	}))
	defer up.Close()
	history := chatHistory(100, 3600)
	base := body(b, `{"model":"gpt-4o","temperature":0}`, "messages", history)
	tokensOf := func(p *Proxy, body []byte) int {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/v1/chat/completions", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer bench")
		p.ServeHTTP(rec, req)
		n, _ := strconv.Atoi(rec.Header().Get(HeaderTokensBefore))
		return n
	}
	// grown(i) is the history after i more exchanges of a user message and
	// an answer, as an agent's next calls send it.
	var tail []byte
	grown := func(i int) []byte {
		for n := bytes.Count(tail, []byte(`"role":"user"`)); n < i; n++ {
			tail = fmt.Appendf(tail, `,{"role":"user","content":"Now look at case %d."},{"role":"assistant","content":"Case %d is fine."}`, n, n)
		}
		out := append(slices.Clip(base[:len(base)-2]), tail...)
		return append(out, "]}"...)
	}
	quiet := slog.New(slog.DiscardHandler)
	newProxy := func(window int) (*Proxy, *httptest.Server) {
		p, err := New(&Options{OpenAIUpstream: up.URL + "/v1", Logger: quiet, Settings: condense.Settings{Window: window}})
		if err != nil {
			b.Fatal(err)
		}
		return p, httptest.NewServer(p)
	}
	run := func(b *testing.B, url string, body func(i int) []byte, key func(i int) string) {
		client := &http.Client{}
		var lat []time.Duration
		b.SetBytes(int64(len(base)))
		for i := 0; b.Loop(); i++ {
			req, _ := http.NewRequest("POST", url+"/v1/chat/completions", bytes.NewReader(body(i)))
			req.Header.Set("Authorization", "Bearer "+key(i))
			start := time.Now()
			resp, err := client.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			lat = append(lat, time.Since(start))
			if resp.StatusCode != 200 {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
		b.StopTimer()
		slices.Sort(lat)
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
	}
	fixed := func(int) string { return "bench" }

	b.Run("direct", func(b *testing.B) {
		tail = nil
		run(b, up.URL, grown, fixed)
	})
	b.Run("known", func(b *testing.B) {
		p, srv := newProxy(1_000_000)
		defer srv.Close()
		tail = nil
		n := tokensOf(p, base)
		run(b, srv.URL, grown, fixed)
		b.ReportMetric(float64(n), "tokens")
	})
	b.Run("compacting", func(b *testing.B) {
		p, srv := newProxy(64_000)
		defer srv.Close()
		n := tokensOf(p, base)
		run(b, srv.URL, func(int) []byte { return base }, func(i int) string { return "bench-" + strconv.Itoa(i) })
		b.ReportMetric(float64(n), "tokens")
	})
}

// BenchmarkPrepareKnown is the proxy's own work on a call of a known
// conversation under the threshold, without the network: finding the
// elements, the hash chain, the lookup and the preflight of the new
// messages.
//
//	go test ./proxy -run '^$' -bench PrepareKnown -benchmem -count 5
func BenchmarkPrepareKnown(b *testing.B) {
	p, err := New(&Options{Logger: slog.New(slog.DiscardHandler), Settings: condense.Settings{Window: 1_000_000}})
	if err != nil {
		b.Fatal(err)
	}
	base := body(b, `{"model":"gpt-4o","temperature":0}`, "messages", chatHistory(100, 3600))
	var tail []byte
	next := func(i int) []byte {
		tail = fmt.Appendf(tail, `,{"role":"user","content":"Now look at case %d."},{"role":"assistant","content":"Case %d is fine."}`, i, i)
		out := append(slices.Clip(base[:len(base)-2]), tail...)
		return append(out, "]}"...)
	}
	ctx := b.Context()
	out, err := p.prepare(ctx, digest{}, chatAPI, base)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(base)))
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		in := next(i)
		b.StartTimer()
		if out, err := p.prepare(ctx, digest{}, chatAPI, in); err != nil || out.compacted {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(out.before), "tokens")
}

// BenchmarkPrepareKnownShared is BenchmarkPrepareKnown with the
// conversation kept in PostgreSQL (CONDENSE_TEST_POSTGRES): each call
// also finds the conversation by its links, claims the two new ones and
// refreshes the session.
func BenchmarkPrepareKnownShared(b *testing.B) {
	url, schema := pgSchema(b)
	ctx := b.Context()
	st, err := postgres.Open(ctx, url, &postgres.Options{Schema: schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	shared, err := NewPostgresStore(ctx, st)
	if err != nil {
		b.Fatal(err)
	}
	p, err := New(&Options{Logger: slog.New(slog.DiscardHandler), Settings: condense.Settings{Window: 1_000_000}, Shared: shared})
	if err != nil {
		b.Fatal(err)
	}
	base := body(b, `{"model":"gpt-4o","temperature":0}`, "messages", chatHistory(100, 3600))
	var tail []byte
	next := func(i int) []byte {
		tail = fmt.Appendf(tail, `,{"role":"user","content":"Now look at case %d."},{"role":"assistant","content":"Case %d is fine."}`, i, i)
		out := append(slices.Clip(base[:len(base)-2]), tail...)
		return append(out, "]}"...)
	}
	if _, err := p.prepare(ctx, digest{}, chatAPI, base); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(base)))
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		in := next(i)
		b.StartTimer()
		if out, err := p.prepare(ctx, digest{}, chatAPI, in); err != nil || out.compacted {
			b.Fatal(err)
		}
	}
}
