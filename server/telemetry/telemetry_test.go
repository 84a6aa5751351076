package telemetry_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/server"
	"github.com/condense-dev/condense/server/telemetry"
	"github.com/condense-dev/condense/store/memstore"
)

type harness struct {
	t     *testing.T
	base  string
	token string
	spans *tracetest.SpanRecorder
}

func start(t *testing.T, opts server.Options) *harness {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	tel, err := telemetry.New(&telemetry.Options{TracerProvider: sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec))})
	if err != nil {
		t.Fatal(err)
	}
	opts.Telemetry = tel
	opts.Logger = slog.New(slog.DiscardHandler)
	s, err := server.New(&server.Backend{Store: memstore.New(), Journal: journal.NewMemory(), StateDir: t.TempDir()}, &opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() { hs.Close(); s.Close() })
	return &harness{t: t, base: hs.URL, spans: rec}
}

func (h *harness) do(method, path string, body any) (int, []byte) {
	h.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	}
	req, _ := http.NewRequest(method, h.base+path, rd)
	if h.token != "" {
		req.Header.Set("Authorization", "Bearer "+h.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		h.t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, out
}

func (h *harness) must(want int, method, path string, body, v any) {
	h.t.Helper()
	st, out := h.do(method, path, body)
	if st != want {
		h.t.Fatalf("%s %s: %d, want %d: %s", method, path, st, want, out)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			h.t.Fatal(err)
		}
	}
}

// scrape reads /metrics into metric families.
func (h *harness) scrape() map[string]*dto {
	h.t.Helper()
	st, out := h.do("GET", "/metrics", nil)
	if st != 200 {
		h.t.Fatalf("/metrics: %d %s", st, out)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(bytes.NewReader(out))
	if err != nil {
		h.t.Fatalf("/metrics does not parse: %v\n%s", err, out)
	}
	got := map[string]*dto{}
	for name, f := range fams {
		for _, m := range f.GetMetric() {
			var labels []string
			for _, l := range m.GetLabel() {
				labels = append(labels, l.GetName()+"="+l.GetValue())
			}
			v := m.GetCounter().GetValue()
			if m.GetHistogram() != nil {
				v = float64(m.GetHistogram().GetSampleCount())
			}
			got[name+"{"+strings.Join(labels, ",")+"}"] = &dto{v}
		}
	}
	return got
}

type dto struct{ value float64 }

// turns is a history of n long turns: about 250 tokens each.
func turns(n int) []condense.Message {
	var out []condense.Message
	for k := 0; k < n; k++ {
		out = append(out,
			condense.UserText(fmt.Sprintf("question %d: ", k)+strings.Repeat("how does the lease renewal interact with retries? ", 10)),
			condense.AssistantText(fmt.Sprintf("answer %d: ", k)+strings.Repeat("renewal runs every five seconds and retries back off. ", 10)))
	}
	return out
}

func TestMetricsAndSpans(t *testing.T) {
	h := start(t, server.Options{})
	var snap server.Snapshot
	h.must(201, "POST", "/v1/sessions", server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "drop-oldest"}, Messages: turns(20)}, &snap)
	var rr server.RenderResponse
	h.must(200, "POST", "/v1/sessions/"+snap.ID+"/render?format=openai", nil, &rr)
	if len(rr.Compactions) == 0 {
		t.Fatalf("a render over the window made no compaction: %+v", rr)
	}
	auto := rr.Compactions
	var small server.Snapshot
	h.must(201, "POST", "/v1/sessions", server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 128000, Strategy: "drop-oldest"}, Messages: turns(12)}, &small)
	var cr server.CompactResponse
	h.must(200, "POST", "/v1/sessions/"+small.ID+"/compact", nil, &cr)

	m := h.scrape()
	check := func(key string, want float64) {
		t.Helper()
		got, ok := m[key]
		if !ok {
			t.Fatalf("no %s in /metrics", key)
		}
		if got.value != want {
			t.Fatalf("%s = %v, want %v", key, got.value, want)
		}
	}
	check(`condense_http_requests_total{code=200,route=POST /v1/sessions/{id}/render}`, 1)
	check(`condense_http_requests_total{code=201,route=POST /v1/sessions}`, 2)
	check(`condense_http_request_duration_seconds{route=POST /v1/sessions/{id}/render}`, 1)
	check(`condense_compactions_total{strategy=drop-oldest,trigger=auto}`, float64(len(auto)))
	check(`condense_compactions_total{strategy=drop-oldest,trigger=manual}`, float64(len(cr.Compactions)))
	saved := 0
	for _, r := range append(auto, cr.Compactions...) {
		saved += r.TokensBefore - r.TokensAfter
	}
	check(`condense_tokens_saved_total{strategy=drop-oldest}`, float64(saved))

	names := map[string]int{}
	events := 0
	for _, sp := range h.spans.Ended() {
		names[sp.Name()]++
		for _, ev := range sp.Events() {
			if ev.Name == "compaction" {
				events++
			}
		}
	}
	if names["condense.render"] != 1 || names["condense.compaction"] != 1 {
		t.Fatalf("spans %v, want one render and one compaction", names)
	}
	if events != len(auto)+len(cr.Compactions) {
		t.Fatalf("%d compaction events on the spans, want %d", events, len(auto)+len(cr.Compactions))
	}
}

func TestMetricsAuth(t *testing.T) {
	const tok = "0123456789abcdef-metrics"
	h := start(t, server.Options{Tokens: map[string]string{tok: "ops"}})
	if st, _ := h.do("GET", "/metrics", nil); st != 401 {
		t.Fatalf("/metrics without a token: %d, want 401", st)
	}
	h.token = tok
	if st, _ := h.do("GET", "/metrics", nil); st != 200 {
		t.Fatalf("/metrics with a token: %d", st)
	}
	open := start(t, server.Options{Tokens: map[string]string{tok: "ops"}, OpenMetrics: true})
	if st, _ := open.do("GET", "/metrics", nil); st != 200 {
		t.Fatalf("/metrics opened: %d", st)
	}
	if st, _ := open.do("GET", "/v1/sessions", nil); st != 401 {
		t.Fatalf("the API with metrics opened: %d, want 401", st)
	}
}
