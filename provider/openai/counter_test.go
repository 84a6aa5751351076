package openai

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

const countPath = "/v1/responses/input_tokens"

func newTestCounter(t *testing.T, url string, hc *http.Client, mod func(*Options)) *Counter {
	t.Helper()
	w := &waits{}
	opts := Options{APIKey: "test-key", BaseURL: url + "/v1", HTTPClient: hc, sleep: w.sleep, MaxRetries: -1}
	if mod != nil {
		mod(&opts)
	}
	c, err := NewCounter(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func inputOf(t *testing.T, r replay.Request) string {
	t.Helper()
	body := r.JSON(t)
	if body["model"] != DefaultModel {
		t.Errorf("model = %v", body["model"])
	}
	in, _ := json.Marshal(body["input"])
	return string(in)
}

const dotJSON = `{"content":".","role":"user","type":"message"}`

func TestCounterInputTokensAndCache(t *testing.T) {
	srv := replay.New(t,
		replay.Step{Path: countPath, File: "input_tokens_21.json"}, // dot + "hello world"
		replay.Step{Path: countPath, File: "input_tokens_9.json"},  // dot alone
		replay.Step{Path: countPath, File: "input_tokens_37.json"}, // dot + the assistant reply
	)
	type obs struct{ est, exact int }
	var seen []obs
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) {
		o.OnCount = func(est, exact int) { seen = append(seen, obs{est, exact}) }
	})
	if !c.Exact() || c.Name() != "openai-input-tokens" {
		t.Errorf("name %q exact %v", c.Name(), c.Exact())
	}
	hello := condense.UserText("hello world")
	if n := c.CountMessage(&hello); n != 12 {
		t.Errorf("count = %d, want 21-9", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	if got, want := inputOf(t, reqs[0]), `[`+dotJSON+`,{"content":[{"text":"hello world","type":"input_text"}],"role":"user","type":"message"}]`; got != want {
		t.Errorf("input\n%s\nwant\n%s", got, want)
	}
	if got := inputOf(t, reqs[1]); got != `[`+dotJSON+`]` {
		t.Errorf("baseline input %s", got)
	}
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer test-key" {
		t.Errorf("authorization = %q", got)
	}

	again := condense.UserText("hello world")
	if n := c.CountMessage(&again); n != 12 {
		t.Errorf("cached count = %d", n)
	}
	if n := len(srv.Requests()); n != 2 {
		t.Errorf("%d requests after a cached count, want 2", n)
	}

	reply := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.Text("Reading it."),
		condense.ToolCall("call_1", "read_file", json.RawMessage(`{"path":"a.go"}`)),
	}}
	if n := c.CountMessage(&reply); n != 28 {
		t.Errorf("count = %d, want 37-9", n)
	}
	reqs = srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (baseline cached)", len(reqs))
	}
	want := `[` + dotJSON + `,{"content":"Reading it.","role":"assistant","type":"message"},` +
		`{"arguments":"{\"path\":\"a.go\"}","call_id":"call_1","name":"read_file","type":"function_call"}]`
	if got := inputOf(t, reqs[2]); got != want {
		t.Errorf("input\n%s\nwant\n%s", got, want)
	}
	h := tokens.Heuristic(tokens.FamilyOpenAI)
	wantObs := []obs{{h.CountMessage(&hello), 12}, {h.CountMessage(&reply), 28}}
	if fmt.Sprint(seen) != fmt.Sprint(wantObs) {
		t.Errorf("OnCount saw %v, want %v", seen, wantObs)
	}
	if st := c.Stats(); st.Requests != 2 || st.Hits != 1 || st.Fallbacks != 0 {
		t.Errorf("stats = %+v", st)
	}
}

func TestCounterFunctionCallOutputScaffold(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "input_tokens_212.json"}, replay.Step{File: "input_tokens_21.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	m := condense.Message{Role: condense.RoleTool, Parts: []condense.Part{
		condense.ToolResult("call_1", false, condense.Text("package main")),
	}}
	if n := c.CountMessage(&m); n != 191 {
		t.Errorf("count = %d, want 212-21", n)
	}
	stub := `{"arguments":"{}","call_id":"call_1","name":"tool","type":"function_call"}`
	reqs := srv.Requests()
	if got, want := inputOf(t, reqs[0]), `[`+dotJSON+`,`+stub+`,{"call_id":"call_1","output":"package main","type":"function_call_output"}]`; got != want {
		t.Errorf("input\n%s\nwant\n%s", got, want)
	}
	if got, want := inputOf(t, reqs[1]), `[`+dotJSON+`,`+stub+`]`; got != want {
		t.Errorf("baseline\n%s\nwant\n%s", got, want)
	}
}

func TestCounterOverhead(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "input_tokens_212.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	tools := []condense.Tool{{Name: "bash", Description: "Run a command", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	for range 2 {
		if n := c.CountOverhead("You are a coding agent.", tools); n != 212 {
			t.Errorf("overhead = %d", n)
		}
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests, want 1 (cached by content)", len(reqs))
	}
	body := reqs[0].JSON(t)
	tl, _ := json.Marshal(body["tools"])
	if body["instructions"] != "You are a coding agent." ||
		string(tl) != `[{"description":"Run a command","name":"bash","parameters":{"type":"object"},"type":"function"}]` {
		t.Errorf("instructions %v, tools %s", body["instructions"], tl)
	}
}

func TestCounterFallbackOnFailure(t *testing.T) {
	srv := replay.New(t, replay.Step{Status: 503, File: "error_503.json"})
	var logs bytes.Buffer
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))
	})
	h := tokens.Heuristic(tokens.FamilyOpenAI)
	m := condense.UserText(strings.Repeat("some words of text ", 50))
	if n, want := c.CountMessage(&m), h.CountMessage(&m); n != want {
		t.Errorf("fallback count = %d, want the heuristic's %d", n, want)
	}
	m2 := condense.UserText("another")
	if n, want := c.CountMessage(&m2), h.CountMessage(&m2); n != want {
		t.Errorf("fallback count = %d, want %d", n, want)
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1 (cooldown after an overload)", n)
	}
	if n := strings.Count(logs.String(), "level=WARN"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, logs.String())
	}
}

// An OpenAI-compatible server without the endpoint: the counter switches
// the API off after the first 404 and counts with the heuristic that
// over-counts most, as the model is unknown.
func TestCounterFallbackOllama(t *testing.T) {
	srv := replay.New(t, replay.Step{Status: 404, File: "error_404_not_found.json"})
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) { o.APIKey, o.Model = "", "llama3.1:8b" })
	h := tokens.Heuristic(tokens.FamilyAnthropic)
	for i := range 3 {
		m := condense.UserText(fmt.Sprint("message ", i))
		if n, want := c.CountMessage(&m), h.CountMessage(&m); n != want {
			t.Errorf("count %d, want the heuristic's %d", n, want)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestCounterFallbackPerMessage(t *testing.T) {
	srv := replay.New(t,
		replay.Step{Status: 400, Body: `{"error":{"message":"Invalid 'input[1].call_id': empty string.","type":"invalid_request_error","param":"input[1].call_id","code":"empty_string"}}`},
		replay.Step{File: "input_tokens_21.json"},
		replay.Step{File: "input_tokens_9.json"},
	)
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	bad := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("", "x", nil)}}
	want := tokens.Heuristic(tokens.FamilyOpenAI).CountMessage(&bad)
	for range 2 {
		if n := c.CountMessage(&bad); n != want {
			t.Errorf("rejected message: %d, want %d", n, want)
		}
	}
	good := condense.UserText("hello world")
	if n := c.CountMessage(&good); n != 12 {
		t.Errorf("count = %d, want 12", n)
	}
	if n := len(srv.Requests()); n != 3 {
		t.Errorf("%d requests, want 3", n)
	}
}

// fakeCountAPI answers input_tokens with a deterministic count: one token
// per 4 bytes of input, instructions and tools, and 1,445 per image.
func fakeCountAPI(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Instructions string          `json:"instructions"`
			Tools        json.RawMessage `json:"tools"`
			Input        json.RawMessage `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		images := bytes.Count(req.Input, []byte(`"type":"input_image"`))
		fmt.Fprintf(w, `{"object":"response.input_tokens","input_tokens":%d}`,
			(len(req.Instructions)+len(req.Tools)+len(req.Input))/4+images*1445)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCounterConformance(t *testing.T) {
	srv := fakeCountAPI(t)
	c := newTestCounter(t, srv.URL, srv.Client(), nil)
	countertest.Run(t, c)
	if st := c.Stats(); st.Fallbacks != 0 {
		t.Errorf("stats = %+v: every count should come from the API", st)
	}
}

func TestCounterConcurrent(t *testing.T) {
	srv := fakeCountAPI(t)
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) { o.CacheSize = 4 })
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 10 {
				m := condense.UserText(fmt.Sprint("message ", (i+g)%10))
				if n := c.CountMessage(&m); n <= 0 {
					t.Errorf("count %d", n)
				}
			}
		}()
	}
	wg.Wait()
}

func TestNewCounterKey(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	if _, err := NewCounter(Options{}); err == nil {
		t.Error("NewCounter without a key or base URL succeeded")
	}
	if _, err := NewCounter(Options{BaseURL: "http://localhost:11434/v1"}); err != nil {
		t.Errorf("a local server needs no key: %v", err)
	}
}

// With APIChat the counter reads the prompt tokens of one-token chat
// completions; a tool message's baseline answers its call with an empty
// result, as Chat Completions takes no call left open.
func TestCounterChatUsage(t *testing.T) {
	usage := func(n int) string {
		return fmt.Sprintf(`{"id":"c","object":"chat.completion","model":"llama3.1:8b","choices":[{"index":0,"message":{"role":"assistant","content":"."},"finish_reason":"length"}],"usage":{"prompt_tokens":%d,"completion_tokens":1,"total_tokens":%d}}`, n, n+1)
	}
	srv := replay.New(t,
		replay.Step{Path: "/v1/chat/completions", Body: usage(30)},
		replay.Step{Path: "/v1/chat/completions", Body: usage(11)},
		replay.Step{Path: "/v1/chat/completions", Body: usage(52)},
		replay.Step{Path: "/v1/chat/completions", Body: usage(40)},
	)
	c := newTestCounter(t, srv.URL, srv.Client(), func(o *Options) { o.API, o.Model, o.APIKey = APIChat, "llama3.1:8b", "" })
	if c.Name() != "openai-chat-usage" {
		t.Errorf("name %q", c.Name())
	}
	hello := condense.UserText("hello world")
	if n := c.CountMessage(&hello); n != 19 {
		t.Errorf("count = %d, want 30-11", n)
	}
	res := condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("call_1", false, condense.Text("package main"))}}
	if n := c.CountMessage(&res); n != 12 {
		t.Errorf("count = %d, want 52-40", n)
	}
	reqs := srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := reqs[0].JSON(t)
	if first["max_completion_tokens"] != float64(1) || first["model"] != "llama3.1:8b" {
		t.Errorf("body %v", first)
	}
	msgs, _ := json.Marshal(first["messages"])
	if string(msgs) != `[{"content":".","role":"user"},{"content":"hello world","role":"user"}]` {
		t.Errorf("messages %s", msgs)
	}
	total, _ := json.Marshal(reqs[2].JSON(t)["messages"])
	base, _ := json.Marshal(reqs[3].JSON(t)["messages"])
	call := `{"role":"assistant","tool_calls":[{"function":{"arguments":"{}","name":"tool"},"id":"call_1","type":"function"}]}`
	if string(total) != `[{"content":".","role":"user"},`+call+`,{"content":"package main","role":"tool","tool_call_id":"call_1"}]` ||
		string(base) != `[{"content":".","role":"user"},`+call+`,{"content":"","role":"tool","tool_call_id":"call_1"}]` {
		t.Errorf("total %s\nbaseline %s", total, base)
	}
}
