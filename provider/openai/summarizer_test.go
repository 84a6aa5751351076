package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/replay"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/summarize/summarizertest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// waits records the retry waits instead of sleeping, for the package's
// counter tests (the summarizer kit brings its own).
type waits struct {
	mu sync.Mutex
	d  []time.Duration
}

func (w *waits) sleep(ctx context.Context, d time.Duration) error {
	w.mu.Lock()
	w.d = append(w.d, d)
	w.mu.Unlock()
	return ctx.Err()
}

func (w *waits) all() []time.Duration {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]time.Duration(nil), w.d...)
}

// TestSummarizer runs the summarizer kit on the recorded Chat Completions
// answers of testdata (OpenAI's, vLLM's and Ollama's).
func TestSummarizer(t *testing.T) {
	summarizertest.Run(t, kitProvider())
}

// kitProvider describes the Summarizer to summarizertest.
func kitProvider() summarizertest.Provider {
	type step = summarizertest.Step
	return summarizertest.Provider{
		Name: Provider,
		New: func(c summarizertest.Config) (condense.Summarizer, error) {
			return New(Options{
				APIKey: "test-key", BaseURL: c.BaseURL, HTTPClient: c.HTTPClient,
				Model: c.Model, MaxOutputTokens: c.MaxOutputTokens, ModelMaxOutput: c.ModelMaxOutput,
				MaxRetries: c.MaxRetries, Timeout: c.Timeout, Limits: c.Limits,
				sleep: c.Sleep,
			})
		},
		Path:         "/chat/completions",
		DefaultModel: DefaultModel,
		Models: []summarizertest.Model{
			{Name: "gpt-4.1-mini", MaxOutputTokens: 4096}, // a compaction model
			{Name: "llama3.1:8b", MaxOutputTokens: 4096},  // a local model the registry does not know
		},
		Sent:  sentChat,
		Check: checkChatRequest,
		// 500ms·2ⁿ with equal jitter: [250ms, 500ms], then [500ms, 1s].
		Backoff: func(n int) (time.Duration, time.Duration) {
			d := 500 * time.Millisecond << n
			return d / 2, d
		},

		Success: step{File: "chat_success.json"},
		Text:    "## Summary\nThe agent fixed",
		Usage: condense.Usage{Provider: "openai", Model: "gpt-4o-mini-2024-07-18",
			InputTokens: 1500, OutputTokens: 80, CacheReadTokens: 1024,
			// gpt-4o-mini: $0.15 in, $0.075 cached in, $0.60 out per MTok.
			CostUSD: (476*0.15 + 1024*0.075 + 80*0.60) / 1e6},
		Auth:           step{Status: 401, File: "error_401.json"},
		AuthType:       "invalid_request_error",
		AuthMessage:    "Incorrect API key provided: sk-test. You can find your API key at https://platform.openai.com/account/api-keys.",
		RateLimited:    step{Status: 429, File: "error_429.json"},
		ServerError:    step{Status: 500, File: "error_500.json"},
		Overloaded:     step{Status: 503, File: "error_503.json"},
		OverloadedType: "server_error",
		ContextTooLarge: []step{
			{Status: 400, File: "error_400_context.json"},
			{Status: 400, File: "error_400_vllm_context.json"},
			{Status: 413, Body: "request entity too large"},
		},
		ClientError: step{Status: 404, File: "error_404_ollama.json"},
		Rejections: []summarizertest.Rejection{
			{Name: "Truncated", Answer: step{File: "chat_length.json"}, Reason: summarize.ErrTruncated, StopReason: "length"},
			{Name: "ToolCall", Answer: step{File: "chat_tool_calls.json"}, Reason: summarize.ErrToolCall, StopReason: "tool_calls"},
			{Name: "Empty", Answer: step{File: "chat_empty.json"}, Reason: summarize.ErrEmpty, StopReason: "stop"},
			{Name: "ContentFilter", Answer: step{File: "chat_content_filter.json"}, Reason: summarize.ErrFailed, StopReason: "content_filter"},
			{Name: "Refusal", Answer: step{File: "chat_refusal.json"}, Reason: summarize.ErrFailed, StopReason: "stop"},
			{Name: "NoChoices", Answer: step{Body: `{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o-mini","choices":[]}`}, Reason: summarize.ErrEmpty, StopReason: ""},
		},
	}
}

// sentChat reads a Chat Completions summary request: a system message and
// a user message, both plain strings, and the cap as
// max_completion_tokens.
func sentChat(t summarizertest.TB, r summarizertest.Request) summarizertest.Sent {
	t.Helper()
	body := r.JSON(t)
	var s summarizertest.Sent
	s.Model, _ = body["model"].(string)
	if n, ok := body["max_completion_tokens"].(float64); ok {
		s.MaxOutputTokens = int(n)
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 2 {
		t.Fatalf("%d messages, want system and user", len(msgs))
	}
	sys, _ := msgs[0].(map[string]any)
	if sys["role"] != "system" {
		t.Errorf("system message = %v", sys)
	}
	s.System, _ = sys["content"].(string)
	m, _ := msgs[1].(map[string]any)
	if m["role"] != "user" {
		t.Errorf("role = %v, want user", m["role"])
	}
	var ok bool
	if s.User, ok = m["content"].(string); !ok {
		t.Errorf("user content = %v, want a string", m["content"])
	}
	return s
}

// checkChatRequest checks what every summary request carries: the key as
// a bearer token, no retries of the SDK's own, and no tools, streaming or
// legacy cap.
func checkChatRequest(t summarizertest.TB, r summarizertest.Request) {
	t.Helper()
	if got := r.Header.Get("Authorization"); got != "Bearer test-key" {
		t.Errorf("authorization = %q", got)
	}
	if got := r.Header.Get("X-Stainless-Retry-Count"); got != "0" {
		t.Errorf("retry count header %q: the SDK must not retry", got)
	}
	body := r.JSON(t)
	for _, k := range []string{"tools", "tool_choice", "functions", "stream", "max_tokens"} {
		if _, ok := body[k]; ok {
			t.Errorf("request has %q", k)
		}
	}
}

func TestNewKeyAndBaseURL(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	if _, err := New(Options{}); err == nil || !strings.Contains(err.Error(), EnvAPIKey) {
		t.Errorf("New without a key: err = %v, want one naming %s", err, EnvAPIKey)
	}

	srv := replay.New(t, replay.Step{Path: "/chat/completions", File: "chat_success.json"})
	t.Setenv(EnvAPIKey, "env-key")
	t.Setenv(EnvBaseURL, srv.URL+"/")
	s, err := New(Options{HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if s.Model() != DefaultModel {
		t.Errorf("model = %q", s.Model())
	}
	if _, err := s.Summarize(context.Background(), summarizertest.History()); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[0].Header.Get("Authorization"); got != "Bearer env-key" {
		t.Errorf("authorization = %q, want the environment's", got)
	}

	s, err = New(Options{APIKey: "opt-key", BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Summarize(context.Background(), summarizertest.History()); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[1].Header.Get("Authorization"); got != "Bearer opt-key" {
		t.Errorf("authorization = %q, want the option's", got)
	}
}

func TestSummarizeOllamaNoKey(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	srv := replay.New(t, replay.Step{Path: "/v1/chat/completions", File: "chat_ollama.json"})
	s, err := New(Options{BaseURL: srv.URL + "/v1", Model: "llama3.1:8b", LegacyMaxTokens: true, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatalf("a local server needs no key: %v", err)
	}
	out, err := s.Summarize(context.Background(), summarizertest.History())
	if err != nil {
		t.Fatal(err)
	}
	want := condense.Usage{Provider: "openai", Model: "llama3.1:8b", InputTokens: 812, OutputTokens: 15}
	if out.Usage != want {
		t.Errorf("usage = %+v, want %+v (no cost for an unknown model)", out.Usage, want)
	}
	r := srv.Requests()[0]
	if got := r.Header.Get("Authorization"); got != "" {
		t.Errorf("authorization = %q, want none without a key", got)
	}
	body := r.JSON(t)
	if body["max_tokens"] != float64(summarize.DefaultMaxOutput) || body["max_completion_tokens"] != nil {
		t.Errorf("legacy cap: max_tokens = %v, max_completion_tokens = %v", body["max_tokens"], body["max_completion_tokens"])
	}
}

func TestParseError(t *testing.T) {
	tests := []struct{ body, typ, code, msg string }{
		{`{"error":{"message":"m","type":"t","param":null,"code":"c"}}`, "t", "c", "m"},
		{`{"object":"error","message":"m","type":"BadRequestError","param":null,"code":400}`, "BadRequestError", "400", "m"},
		{`{"error":"model not found"}`, "", "", "model not found"},
		{`<html>bad gateway</html>`, "", "", "<html>bad gateway</html>"},
	}
	for _, tt := range tests {
		typ, code, msg := parseError([]byte(tt.body))
		if typ != tt.typ || code != tt.code || msg != tt.msg {
			t.Errorf("parseError(%s) = %q, %q, %q", tt.body, typ, code, msg)
		}
	}
}

func FuzzParseError(f *testing.F) {
	for _, s := range []string{
		`{"error":{"message":"m","type":"t","param":null,"code":"c"}}`,
		`{"object":"error","message":"m","type":"BadRequestError","param":null,"code":400}`,
		`{"error":"model not found"}`, `{"error":null}`, `[]`, `<html>`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		typ, code, msg := parseError(body)
		if msg == "" && typ == "" && code == "" && len(strings.TrimSpace(string(body))) > 0 && !json.Valid(body) {
			t.Errorf("%q: an unreadable body must be its own message", body)
		}
	})
}

// Options beat the environment the SDK reads, and the SDK does not retry.
func TestSDKOptionsBeatEnvironment(t *testing.T) {
	t.Setenv(EnvBaseURL, "http://127.0.0.1:1/v1")
	t.Setenv(EnvAPIKey, "env-key")
	srv := replay.New(t, replay.Step{Status: 500, File: "error_500.json"})
	s, err := New(Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client(), MaxRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Summarize(context.Background(), summarizertest.History()); !errors.Is(err, condense.ErrServer) {
		t.Fatalf("err = %v, want ErrServer", err)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1: the SDK must not retry", len(reqs))
	}
	h := reqs[0].Header
	if h.Get("Authorization") != "Bearer test-key" || h.Get("X-Stainless-Retry-Count") != "0" {
		t.Errorf("headers %v", h)
	}
}
