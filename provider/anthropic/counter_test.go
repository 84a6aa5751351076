package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/replay"
	"github.com/condense-dev/condense/tokens"
	"github.com/condense-dev/condense/tokens/countertest"
)

const countPath = "/v1/messages/count_tokens"

func newTestCounter(t *testing.T, url string, hc *http.Client, mod func(*Options)) *Counter {
	t.Helper()
	w := &waits{}
	opts := Options{APIKey: "test-key", BaseURL: url, HTTPClient: hc, sleep: w.sleep, MaxRetries: -1}
	if mod != nil {
		mod(&opts)
	}
	c, err := NewCounter(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func messagesOf(t *testing.T, r replay.Request) []any {
	t.Helper()
	body := r.JSON(t)
	if _, ok := body["max_tokens"]; ok {
		t.Errorf("count request has max_tokens")
	}
	if body["model"] != DefaultModel {
		t.Errorf("model = %v", body["model"])
	}
	return body["messages"].([]any)
}

func TestCounterCountTokensAndCache(t *testing.T) {
	srv := replay.New(t,
		replay.Step{Path: countPath, File: "count_19.json"}, // baseline + "hello world"
		replay.Step{Path: countPath, File: "count_12.json"}, // baseline alone
		replay.Step{Path: countPath, File: "count_15.json"}, // baseline + "bye"
	)
	type obs struct{ est, exact int }
	var seen []obs
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) {
		o.OnCount = func(est, exact int) { seen = append(seen, obs{est, exact}) }
	})
	if !c.Exact() || c.Name() != "anthropic-count-tokens" {
		t.Errorf("name %q exact %v", c.Name(), c.Exact())
	}

	hello := condense.UserText("hello world")
	if n := c.CountMessage(&hello); n != 7 {
		t.Errorf("count = %d, want 19-12", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	msgs := messagesOf(t, reqs[0])
	if len(msgs) != 3 {
		t.Fatalf("counted %d messages, want baseline user, assistant, then the message", len(msgs))
	}
	last, _ := json.Marshal(msgs[2])
	if string(last) != `{"content":[{"text":"hello world","type":"text"}],"role":"user"}` {
		t.Errorf("message sent as %s", last)
	}
	if n := len(messagesOf(t, reqs[1])); n != 2 {
		t.Errorf("baseline has %d messages, want 2", n)
	}

	// The same message again: from the cache, no request.
	again := condense.UserText("hello world")
	if n := c.CountMessage(&again); n != 7 {
		t.Errorf("cached count = %d", n)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests after a cached count, want 2", n)
	}

	// Another user message: the baseline is cached, one request.
	bye := condense.UserText("bye")
	if n := c.CountMessage(&bye); n != 3 {
		t.Errorf("count = %d, want 15-12", n)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
	st := c.Stats()
	if st.Requests != 2 || st.Hits != 1 || st.Fallbacks != 0 {
		t.Errorf("stats = %+v", st)
	}
	h := tokens.Heuristic(tokens.FamilyAnthropic)
	want := []obs{{h.CountMessage(&hello), 7}, {h.CountMessage(&bye), 3}}
	if fmt.Sprint(seen) != fmt.Sprint(want) {
		t.Errorf("OnCount saw %v, want %v", seen, want)
	}
}

func TestCounterToolResultScaffold(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "count_431.json"}, replay.Step{File: "count_40.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	m := condense.Message{Role: condense.RoleTool, Parts: []condense.Part{
		condense.ToolResult("toolu_01", false, condense.Text("file contents")),
	}}
	if n := c.CountMessage(&m); n != 391 {
		t.Errorf("count = %d, want 431-40", n)
	}
	msgs := messagesOf(t, srv.Requests()[0])
	got, _ := json.Marshal(msgs)
	want := `[{"content":[{"text":".","type":"text"}],"role":"user"},` +
		`{"content":[{"id":"toolu_01","input":{},"name":"tool","type":"tool_use"}],"role":"assistant"},` +
		`{"content":[{"content":[{"text":"file contents","type":"text"}],"tool_use_id":"toolu_01","type":"tool_result"}],"role":"user"}]`
	if string(got) != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
}

func TestCounterAssistantBlocks(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "count_40.json"}, replay.Step{File: "count_12.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	m := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
		// The message's own members are not counted (nor sent).
		MessageFieldsPart(Field{"id", json.RawMessage(`"msg_01"`)}),
		condense.Thinking("let me see", "sig"),
		condense.Text("Reading it."),
		condense.ToolCall("toolu_02", "read", json.RawMessage(`{"path":"a.go"}`)),
		condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}`)),
		condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning"}`)),
	}}
	if n := c.CountMessage(&m); n != 28 {
		t.Errorf("count = %d, want 40-12", n)
	}
	msgs := messagesOf(t, srv.Requests()[0])
	got, _ := json.Marshal(msgs[len(msgs)-1])
	want := `{"content":[{"signature":"sig","thinking":"let me see","type":"thinking"},{"text":"Reading it.","type":"text"},` +
		`{"id":"toolu_02","input":{"path":"a.go"},"name":"read","type":"tool_use"},` +
		`{"id":"srvtoolu_1","input":{},"name":"web_search","type":"server_tool_use"},` +
		`{"text":"{\"type\":\"reasoning\"}","type":"text"}],"role":"assistant"}`
	if string(got) != want {
		t.Errorf("sent\n%s\nwant\n%s", got, want)
	}
	if n := len(messagesOf(t, srv.Requests()[1])); n != 1 {
		t.Errorf("assistant baseline has %d messages, want 1", n)
	}
}

func TestCounterOverhead(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "count_431.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	tools := []condense.Tool{{Name: "bash", Description: "Run a command", InputSchema: json.RawMessage(`{"type":"object","properties":{"cmd":{"type":"string"}}}`)}}
	if n := c.CountOverhead("You are a coding agent.", tools); n != 431 {
		t.Errorf("overhead = %d", n)
	}
	if n := c.CountOverhead("You are a coding agent.", tools); n != 431 {
		t.Errorf("cached overhead = %d", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1 (cached by content)", len(reqs))
	}
	body := reqs[0].JSON(t)
	sys, _ := json.Marshal(body["system"])
	tl, _ := json.Marshal(body["tools"])
	if string(sys) != `[{"text":"You are a coding agent.","type":"text"}]` {
		t.Errorf("system = %s", sys)
	}
	if string(tl) != `[{"description":"Run a command","input_schema":{"properties":{"cmd":{"type":"string"}},"type":"object"},"name":"bash"}]` {
		t.Errorf("tools = %s", tl)
	}
}

func TestCounterFallbackOnFailure(t *testing.T) {
	srv := replay.New(t, replay.Step{Status: 500, File: "error_500.json"})
	var logs bytes.Buffer
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	h := tokens.Heuristic(tokens.FamilyAnthropic)
	m := condense.UserText(strings.Repeat("some words of text ", 50))
	if n, want := c.CountMessage(&m), h.CountMessage(&m); n != want {
		t.Errorf("fallback count = %d, want the heuristic's %d", n, want)
	}
	if n, want := c.CountOverhead("sys", nil), h.CountOverhead("sys", nil); n != want {
		t.Errorf("fallback overhead = %d, want %d", n, want)
	}
	// The failure started a cooldown: no more requests, still answers.
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1 (cooldown after a server error)", n)
	}
	if st := c.Stats(); st.Fallbacks != 2 || st.Requests != 0 {
		t.Errorf("stats = %+v", st)
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
}

func TestCounterFallbackDisablesOnAuthAndMissingEndpoint(t *testing.T) {
	for _, st := range []replay.Step{{Status: 401, File: "error_401.json"}, {Status: 404, File: "error_404.json"}} {
		srv := replay.New(t, st)
		c := newTestCounter(t, srv.URL, srv.Client(), nil)
		for i := range 3 {
			m := condense.UserText(fmt.Sprint("message ", i))
			if n := c.CountMessage(&m); n <= 0 {
				t.Errorf("count %d", n)
			}
		}
		if n := len(srv.Requests()); n != 1 {
			t.Errorf("%s: %d requests, want 1 (disabled after it)", st.File, n)
		}
	}
}

func TestCounterFallbackPerMessage(t *testing.T) {
	srv := replay.New(t,
		replay.Step{Status: 400, File: "error_400_thinking.json"},
		replay.Step{File: "count_19.json"},
		replay.Step{File: "count_12.json"},
	)
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	bad := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Thinking("hmm", "forged")}}
	want := tokens.Heuristic(tokens.FamilyAnthropic).CountMessage(&bad)
	if n := c.CountMessage(&bad); n != want {
		t.Errorf("rejected message: %d, want the heuristic's %d", n, want)
	}
	if n := c.CountMessage(&bad); n != want {
		t.Errorf("rejected message again: %d", n)
	}
	good := condense.UserText("hello world")
	if n := c.CountMessage(&good); n != 7 {
		t.Errorf("a rejection concerns its message alone: count = %d, want 7", n)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3 (the rejection is cached)", n)
	}
}

func TestCounterUnsupportedMessage(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "count_19.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	m := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.ToolResult("toolu_1", false, condense.Text("a result in the wrong place")),
	}}
	want := tokens.Heuristic(tokens.FamilyAnthropic).CountMessage(&m)
	for range 2 {
		if n := c.CountMessage(&m); n != want {
			t.Errorf("count = %d, want the heuristic's %d", n, want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d requests for a message no request can hold", n)
	}
	if st := c.Stats(); st.Fallbacks != 1 || st.Hits != 1 {
		t.Errorf("stats = %+v, want one fallback, then cached", st)
	}
}

func TestCounterEmptyMessage(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "count_15.json"}, replay.Step{File: "count_12.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	m := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("")}}
	if n := c.CountMessage(&m); n != 3 {
		t.Errorf("empty message counted %d, want 15-12", n)
	}
	msgs := messagesOf(t, srv.Requests()[0])
	got, _ := json.Marshal(msgs[len(msgs)-1])
	if string(got) != `{"content":[{"text":".","type":"text"}],"role":"user"}` {
		t.Errorf("an empty message is sent as %s, want a one-character stand-in", got)
	}
}

// fakeCountAPI answers count_tokens with a deterministic count: 3 tokens of
// framing, one token per 4 bytes of the request's messages, system and
// tools, and 1,600 per image. It counts the requests.
func fakeCountAPI(t *testing.T) (*httptest.Server, *int64, *sync.Mutex) {
	var mu sync.Mutex
	var n int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			System   json.RawMessage `json:"system"`
			Tools    json.RawMessage `json:"tools"`
			Messages json.RawMessage `json:"messages"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		mu.Lock()
		n++
		mu.Unlock()
		// Images cost what Claude charges at most (tokens.AnthropicImageMax).
		images := bytes.Count(req.Messages, []byte(`"type":"image"`))
		fmt.Fprintf(w, `{"input_tokens":%d}`, 3+(len(req.System)+len(req.Tools)+len(req.Messages))/4+images*tokens.AnthropicImageMax)
	}))
	t.Cleanup(srv.Close)
	return srv, &n, &mu
}

func TestCounterConcurrentAndBounded(t *testing.T) {
	srv, requests, mu := fakeCountAPI(t)
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) { o.CacheSize = 8 })
	msgs := make([]condense.Message, 16)
	for i := range msgs {
		msgs[i] = condense.UserText(strings.Repeat(fmt.Sprint("message ", i, " "), i+1))
	}
	want := make([]int, len(msgs))
	for i := range msgs {
		want[i] = c.CountMessage(&msgs[i])
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range msgs {
				k := (i + g) % len(msgs)
				if n := c.CountMessage(&msgs[k]); n != want[k] {
					t.Errorf("message %d: %d, want %d", k, n, want[k])
				}
			}
		}()
	}
	wg.Wait()
	if c.c.Stats().Fallbacks != 0 {
		t.Errorf("fallbacks: %+v", c.Stats())
	}
	// With 8 cached of 16, the concurrent rounds had to ask again.
	mu.Lock()
	defer mu.Unlock()
	if *requests <= 17 {
		t.Errorf("%d requests: the cache is not bounded", *requests)
	}
}

func TestCounterConformance(t *testing.T) {
	srv, _, _ := fakeCountAPI(t)
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	countertest.Run(t, c)
}

func TestNewCounterNoKey(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	if _, err := NewCounter(Options{}); err == nil {
		t.Error("NewCounter without a key succeeded")
	}
}

// TestCounterFallbackLogRedacted: the warning of a failed count carries
// the API's error message with any key it quotes redacted.
func TestCounterFallbackLogRedacted(t *testing.T) {
	const key = "sk-ant-api03-Zk9Xq2Lm8Vb1Nc7Jd3Pr6Wy0Ae5Hf4Tg7Qm2Xv9Lr4Tz8Nc1Pb6W"
	srv := replay.New(t, replay.Step{Status: 500, Body: `{"type":"error","error":{"type":"api_error","message":"upstream rejected x-api-key ` + key + `"}}`})
	var logs bytes.Buffer
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	m := condense.UserText("some words of text")
	c.CountMessage(&m)
	out := logs.String()
	if strings.Contains(out, key[:20]) {
		t.Errorf("key in the log: %s", out)
	}
	if !strings.Contains(out, "upstream rejected x-api-key [REDACTED]") {
		t.Errorf("the error's message is missing from the log: %s", out)
	}
}
