package proxy

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/condense-dev/condense"
)

// The caller's key is forwarded upstream and nowhere else: not in the
// logs (at debug level), the metrics or any answer the proxy writes itself,
// whatever happens to the request.
func TestKeyNeverLoggedOrShown(t *testing.T) {
	reg := prometheus.NewRegistry()
	m, err := NewMetrics(reg)
	if err != nil {
		t.Fatal(err)
	}
	h := newHarness(t, Options{Settings: smallWindow, Metrics: m, MaxBodyBytes: 200_000})
	var answers bytes.Buffer
	keep := func(resp *http.Response) {
		b, _ := io.ReadAll(resp.Body)
		answers.Write(b)
		for k, vs := range resp.Header {
			answers.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
		}
	}
	for _, tc := range apiCases {
		keep(h.post(t, tc.path, body(t, tc.head, tc.array, tc.history(2, 300))))       // forwarded
		keep(h.post(t, tc.path, body(t, tc.head, tc.array, tc.history(12, 4000))))     // compacted
		keep(h.post(t, tc.path, body(t, tc.head, tc.array, tc.history(60, 4000))))     // too large
		keep(h.post(t, tc.path, []byte(`{"model":"gpt-4o","messages":[{"role":7}]}`))) // unreadable, forwarded
	}
	huge := map[string]any{"role": "user", "content": strings.Repeat("read this carefully ", 5000)}
	keep(h.post(t, "/v1/chat/completions", body(t, `{"model":"gpt-4o"}`, "messages", []any{huge}))) // cannot fit
	keep(h.post(t, "/v1/models", nil))                                                              // passthrough
	// An upstream that cannot be reached.
	down := httptest.NewServer(http.NotFoundHandler())
	down.Close()
	h2 := newHarness(t, Options{})
	h2.p.openai, _ = upstreamURL("OpenAI", down.URL+"/v1", "")
	keep(h2.post(t, "/v1/chat/completions", body(t, `{"model":"gpt-4o"}`, "messages", chatHistory(1, 100))))

	rec := httptest.NewRecorder()
	promhttp.HandlerFor(reg, promhttp.HandlerOpts{}).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for name, text := range map[string]string{"logs": h.logs.String() + h2.logs.String(), "metrics": rec.Body.String(), "answers": answers.String()} {
		if strings.Contains(text, plantedKey) || strings.Contains(text, plantedKey[8:30]) {
			t.Errorf("the key appears in the %s", name)
		}
		if text == "" {
			t.Errorf("no %s to check", name)
		}
	}
	for _, want := range []string{`outcome="compacted"`, `outcome="forwarded"`, `outcome="too_large"`, `outcome="too_long"`, `outcome="unread"`, `outcome="passthrough"`, "condense_proxy_compactions_total"} {
		if !strings.Contains(rec.Body.String(), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if !strings.Contains(h2.logs.String(), "upstream call failed") {
		t.Errorf("no log of the failed upstream call")
	}
	for i := range h.up.calls() {
		if !strings.Contains(h.up.headers[i].Get("Authorization"), plantedKey) {
			t.Errorf("call %d: key not forwarded", i)
		}
	}
}

// A body over the limit is refused in the provider's shape, and so is a
// client with too many requests in flight; other clients go on.
func TestPerClientLimits(t *testing.T) {
	h := newHarness(t, Options{MaxBodyBytes: 1000, MaxConcurrent: 1, Settings: condense.Settings{}})
	resp := h.post(t, "/v1/messages", body(t, `{"model":"claude-sonnet-4-5","max_tokens":10}`, "messages", anthropicHistory(3, 500)))
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(b), `"type":"request_too_large"`) {
		t.Errorf("too large: %d %s", resp.StatusCode, b)
	}

	entered, release := make(chan struct{}), make(chan struct{})
	h.up.answer(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") == "Bearer first" {
			close(entered)
			<-release
		}
		io.WriteString(w, cannedReply(r.URL.Path))
	})
	small := []byte(`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`)
	send := func(key string) *http.Response {
		req, _ := http.NewRequest("POST", h.srv.URL+"/v1/chat/completions", bytes.NewReader(small))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	done := make(chan int)
	go func() { done <- send("first").StatusCode }()
	<-entered
	if code := send("first").StatusCode; code != http.StatusTooManyRequests {
		t.Errorf("second request of the same client: %d, want 429", code)
	}
	if code := send("other").StatusCode; code != http.StatusOK {
		t.Errorf("another client: %d, want 200", code)
	}
	close(release)
	if code := <-done; code != http.StatusOK {
		t.Errorf("first request: %d", code)
	}
}

// One client never finds another's conversation: the same history under
// two keys is two conversations.
func TestConversationsScopedByKey(t *testing.T) {
	h := newHarness(t, Options{Settings: smallWindow})
	in := body(t, `{"model":"gpt-4o"}`, "messages", chatHistory(3, 300))
	for _, key := range []string{"key-a", "key-b", "key-a"} {
		req, _ := http.NewRequest("POST", h.srv.URL+"/v1/chat/completions", bytes.NewReader(in))
		req.Header.Set("Authorization", "Bearer "+key)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	if n := h.p.Conversations(); n != 2 {
		t.Errorf("%d conversations, want 2", n)
	}
}
