package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// --exact counts a Claude transcript with Anthropic's count_tokens
// endpoint (here a recorded-shape fake: a count per request body), each
// message once, and says the count is exact.
func TestCountExactClaude(t *testing.T) {
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/messages/count_tokens" || r.Header.Get("x-api-key") != "test-key" {
			t.Errorf("%s %s (key %q)", r.Method, r.URL.Path, r.Header.Get("x-api-key"))
		}
		body, _ := io.ReadAll(r.Body)
		var req struct {
			Messages []json.RawMessage `json:"messages"`
		}
		if err := json.Unmarshal(body, &req); err != nil {
			t.Errorf("body: %v", err)
		}
		requests.Add(1)
		w.Header().Set("content-type", "application/json")
		// A count that grows with the body, as a tokenizer's would.
		json.NewEncoder(w).Encode(map[string]int{"input_tokens": 3 + len(body)/4})
	}))
	defer srv.Close()
	t.Setenv("ANTHROPIC_API_KEY", "test-key")
	t.Setenv("ANTHROPIC_BASE_URL", srv.URL)
	out, errOut, code := runCLI(t, "count", "--exact", "--json", testdata+"anthropic-messages.json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep CountReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.Counter.Exact || rep.Total <= 0 || requests.Load() == 0 {
		t.Fatalf("counter %+v, total %d, %d requests", rep.Counter, rep.Total, requests.Load())
	}
	// Without --exact nothing is asked.
	before := requests.Load()
	out, _, code = runCLI(t, "count", "--json", testdata+"anthropic-messages.json")
	if code != 0 || requests.Load() != before || !strings.Contains(out, `"exact": false`) {
		t.Fatalf("without --exact: exit %d, %d requests, %s", code, requests.Load()-before, out)
	}
}

// --exact without a key, or for a model with no exact counter, is a usage
// error that says what to do.
func TestCountExactErrors(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	_, errOut, code := runCLI(t, "count", "--exact", testdata+"anthropic-messages.json")
	if code != 2 || !strings.Contains(errOut, "ANTHROPIC_API_KEY") {
		t.Fatalf("no key: exit %d: %s", code, errOut)
	}
	_, errOut, code = runCLI(t, "count", "--exact", "--model", "qwen3-coder", testdata+"anthropic-messages.json")
	if code != 2 || !strings.Contains(errOut, "no exact counter") {
		t.Fatalf("qwen: exit %d: %s", code, errOut)
	}
	// OpenAI models are exact already: --exact asks nothing and succeeds.
	if _, errOut, code = runCLI(t, "count", "--exact", "--model", "gpt-4o", testdata+"openai-chat.json"); code != 0 {
		t.Fatalf("gpt-4o: exit %d: %s", code, errOut)
	}
}
