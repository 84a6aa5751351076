package anthropic

import (
	"context"
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
// client and counter tests (the summarizer kit brings its own).
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

// TestSummarizer runs the summarizer kit on the recorded Messages API
// answers of testdata.
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
		Path:         "/v1/messages",
		DefaultModel: DefaultModel,
		Models: []summarizertest.Model{
			{Name: "claude-3-haiku-20240307", MaxOutputTokens: 4096}, // the registry's maximum
			{Name: "claude-sonnet-4-5", MaxOutputTokens: 4096},       // a compaction model
		},
		Sent:  sentMessages,
		Check: checkMessagesRequest,
		// 500ms·2ⁿ with equal jitter: [250ms, 500ms], then [500ms, 1s].
		Backoff: func(n int) (time.Duration, time.Duration) {
			d := 500 * time.Millisecond << n
			return d / 2, d
		},

		Success: step{File: "messages_success.json"},
		Text:    "## Summary\nThe agent fixed",
		Usage: condense.Usage{Provider: "anthropic", Model: "claude-haiku-4-5-20251001",
			InputTokens: 1600, OutputTokens: 80, CacheReadTokens: 300, CacheWriteTokens: 100,
			// haiku 4.5: $1 in, $1.25 cache write, $0.10 cache read, $5 out per MTok.
			CostUSD: (1200*1 + 100*1.25 + 300*0.10 + 80*5) / 1e6},
		Auth:           step{Status: 401, File: "error_401.json"},
		AuthType:       "authentication_error",
		AuthMessage:    "invalid x-api-key",
		RateLimited:    step{Status: 429, File: "error_429.json"},
		ServerError:    step{Status: 500, File: "error_500.json"},
		Overloaded:     step{Status: 529, File: "error_529.json"},
		OverloadedType: "overloaded_error",
		ContextTooLarge: []step{
			{Status: 400, File: "error_400_too_long.json"},
			{Status: 413, File: "error_413.json"},
		},
		ClientError: step{Status: 400, File: "error_400_invalid.json"},
		Rejections: []summarizertest.Rejection{
			{Name: "Truncated", Answer: step{File: "messages_max_tokens.json"}, Reason: summarize.ErrTruncated, StopReason: "max_tokens"},
			{Name: "ToolCall", Answer: step{File: "messages_tool_use.json"}, Reason: summarize.ErrToolCall, StopReason: "tool_use"},
			{Name: "Empty", Answer: step{File: "messages_empty.json"}, Reason: summarize.ErrEmpty, StopReason: "end_turn"},
			{Name: "Refusal", Answer: step{File: "messages_refusal.json"}, Reason: summarize.ErrFailed, StopReason: "refusal"},
		},
	}
}

// sentMessages reads a Messages API summary request: the system prompt as
// one system block, one user message of one text block.
func sentMessages(t summarizertest.TB, r summarizertest.Request) summarizertest.Sent {
	t.Helper()
	body := r.JSON(t)
	var s summarizertest.Sent
	s.Model, _ = body["model"].(string)
	if n, ok := body["max_tokens"].(float64); ok {
		s.MaxOutputTokens = int(n)
	}
	system, _ := body["system"].([]any)
	if len(system) != 1 {
		t.Errorf("system = %v, want one block", body["system"])
	} else if b, ok := system[0].(map[string]any); ok {
		s.System, _ = b["text"].(string)
	}
	msgs, _ := body["messages"].([]any)
	if len(msgs) != 1 {
		t.Fatalf("%d messages, want 1", len(msgs))
	}
	m, _ := msgs[0].(map[string]any)
	if m["role"] != "user" {
		t.Errorf("role = %v, want user", m["role"])
	}
	content, _ := m["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("user content = %v, want one text block", m["content"])
	}
	if b, ok := content[0].(map[string]any); ok {
		s.User, _ = b["text"].(string)
	}
	return s
}

// checkMessagesRequest checks what every summary request carries: the
// key, the API version, no retries of the SDK's own, and no tools,
// streaming or thinking.
func checkMessagesRequest(t summarizertest.TB, r summarizertest.Request) {
	t.Helper()
	if got := r.Header.Get("X-Api-Key"); got != "test-key" {
		t.Errorf("x-api-key = %q", got)
	}
	if got := r.Header.Get("Anthropic-Version"); got != APIVersion {
		t.Errorf("anthropic-version = %q, want %q", got, APIVersion)
	}
	if got := r.Header.Get("X-Stainless-Retry-Count"); got != "0" {
		t.Errorf("retry count header %q: the SDK must not retry", got)
	}
	body := r.JSON(t)
	for _, k := range []string{"tools", "tool_choice", "stream", "thinking"} {
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

	srv := replay.New(t, replay.Step{Path: "/v1/messages", File: "messages_success.json"})
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
	if got := srv.Requests()[0].Header.Get("X-Api-Key"); got != "env-key" {
		t.Errorf("x-api-key = %q, want the environment's", got)
	}

	s, err = New(Options{APIKey: "opt-key", BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Summarize(context.Background(), summarizertest.History()); err != nil {
		t.Fatal(err)
	}
	if got := srv.Requests()[1].Header.Get("X-Api-Key"); got != "opt-key" {
		t.Errorf("x-api-key = %q, want the option's", got)
	}
}

// The SDK reads nothing from the environment: the key is the one resolved
// here, sent as x-api-key, and no other credential goes along.
func TestSDKReadsNoEnvironment(t *testing.T) {
	t.Setenv("ANTHROPIC_AUTH_TOKEN", "env-token")
	t.Setenv("ANTHROPIC_CUSTOM_HEADERS", "X-Leak: yes")
	srv := replay.New(t, replay.Step{File: "messages_success.json"})
	s, err := New(Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Summarize(context.Background(), summarizertest.History()); err != nil {
		t.Fatal(err)
	}
	h := srv.Requests()[0].Header
	if h.Get("Authorization") != "" || h.Get("X-Leak") != "" || h.Get("X-Api-Key") != "test-key" {
		t.Errorf("headers %v", h)
	}
	if got := h.Get("X-Stainless-Retry-Count"); got != "0" {
		t.Errorf("retry count header %q: the SDK must not retry", got)
	}
}
