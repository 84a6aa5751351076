package anthropicmodel_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/anthropicmodel"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/provider/anthropic"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// exchange is one recorded answer: a status and a testdata body.
type exchange struct {
	status int
	file   string
}

// server answers /v1/messages with the exchanges in order and keeps the
// request bodies.
type server struct {
	t      *testing.T
	mu     sync.Mutex
	script []exchange
	bodies []map[string]any
	srv    *httptest.Server
}

func newServer(t *testing.T, script ...exchange) *server {
	s := &server{t: t, script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/messages" {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		key := r.Header.Get("X-Api-Key")
		if key == "" {
			key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		if key != "test-key" || r.Header.Get("Anthropic-Version") == "" {
			http.Error(w, "missing headers", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		s.mu.Lock()
		n := len(s.bodies)
		s.bodies = append(s.bodies, body)
		s.mu.Unlock()
		if n >= len(s.script) {
			http.Error(w, "no more exchanges", http.StatusInternalServerError)
			return
		}
		ex := s.script[n]
		data, err := os.ReadFile(filepath.Join("testdata", ex.file))
		if err != nil {
			t.Error(err)
		}
		if strings.HasSuffix(ex.file, ".sse") {
			w.Header().Set("Content-Type", "text/event-stream")
		} else {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(ex.status)
		w.Write(data)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *server) model() *anthropicmodel.Model {
	return anthropicmodel.New(anthropicmodel.Options{APIKey: "test-key", BaseURL: s.srv.URL, HTTPClient: s.srv.Client(), MaxRetries: -1})
}

func request() *condense.Request {
	return &condense.Request{
		Model:  "claude-sonnet-4-5",
		System: "You handle billing tickets.",
		Tools:  []condense.Tool{{Name: "lookup", Description: "Look an order up.", InputSchema: json.RawMessage(`{"type":"object","properties":{"order":{"type":"string"}},"required":["order"]}`)}},
		Messages: []condense.Message{
			condense.UserText("Why was I charged twice?"),
			{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("Checking."), condense.ToolCall("toolu_0", "lookup", json.RawMessage(`{"order":"o-1"}`))}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("toolu_0", false, condense.Text("order o-1: not found"))}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("toolu_x", true, condense.Text("second result"))}},
		},
		MaxOutputTokens: 1024,
	}
}

func TestGenerateToolUse(t *testing.T) {
	s := newServer(t, exchange{200, "messages_tool_use.json"})
	resp, err := s.model().Generate(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	p := resp.Message.Parts
	if len(p) != 3 || p[0].Type != condense.PartThinking || p[0].Signature == "" || p[1].Text != "Let me look the order up." ||
		p[2].ID != "toolu_01A09q90qw90lq917835lq9" || p[2].Name != "lookup" || string(compact(p[2].Input)) != `{"order":"o-7"}` {
		t.Fatalf("parts %+v", p)
	}
	if resp.StopReason != agent.StopToolUse || resp.Model != "claude-sonnet-4-5-20250929" {
		t.Fatalf("stop %q model %q", resp.StopReason, resp.Model)
	}
	if u := resp.Usage; u.InputTokens != 1712 || u.CacheReadTokens != 1200 || u.CacheWriteTokens != 100 || u.OutputTokens != 57 {
		t.Fatalf("usage %+v", u)
	}
	// The request on the wire: system text, tools, alternating roles with
	// both tool results in one user message, the output cap.
	body := s.bodies[0]
	if body["system"] == nil || body["max_tokens"].(float64) != 1024 || body["model"] != "claude-sonnet-4-5" {
		t.Fatalf("body %v", body)
	}
	msgs := body["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("%d wire messages, want 3 (tool results merged into one user message)", len(msgs))
	}
	last := msgs[2].(map[string]any)
	content := last["content"].([]any)
	if last["role"] != "user" || len(content) != 2 || content[0].(map[string]any)["tool_use_id"] != "toolu_0" || content[1].(map[string]any)["is_error"] != true {
		t.Fatalf("tool results on the wire: %v", last)
	}
	tools := body["tools"].([]any)
	if tools[0].(map[string]any)["input_schema"].(map[string]any)["required"] == nil {
		t.Fatalf("tool schema lost: %v", tools[0])
	}
}

// The stream accumulates to the same response as the recorded JSON answer.
func TestStreamAccumulatesToGenerate(t *testing.T) {
	s := newServer(t, exchange{200, "messages_tool_use.json"}, exchange{200, "stream_tool_use.sse"})
	m := s.model()
	want, err := m.Generate(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	got, err := agent.Accumulate(m.Stream(context.Background(), request()))
	if err != nil {
		t.Fatal(err)
	}
	want.Message.Parts[2].Input = compact(want.Message.Parts[2].Input)
	got.Message.Parts[2].Input = compact(got.Message.Parts[2].Input)
	a, _ := json.Marshal(want)
	b, _ := json.Marshal(got)
	if string(a) != string(b) {
		t.Fatalf("streamed:\n%s\nwant:\n%s", b, a)
	}
	if s.bodies[1]["stream"] != true {
		t.Fatalf("stream request body: %v", s.bodies[1])
	}
}

func TestErrorsAreTyped(t *testing.T) {
	s := newServer(t, exchange{400, "error_400_too_long.json"}, exchange{429, "error_429.json"}, exchange{400, "error_400_too_long.json"})
	m := s.model()
	_, err := m.Generate(context.Background(), request())
	var ae *condense.APIError
	if !errors.As(err, &ae) || !errors.Is(err, condense.ErrContextTooLarge) || ae.Status != 400 || !strings.Contains(ae.Message, "prompt is too long") {
		t.Fatalf("400 too long: %v", err)
	}
	if _, err := m.Generate(context.Background(), request()); !errors.Is(err, condense.ErrRateLimited) {
		t.Fatalf("429: %v", err)
	}
	_, err = agent.Accumulate(m.Stream(context.Background(), request()))
	if !errors.Is(err, condense.ErrContextTooLarge) {
		t.Fatalf("streamed 400: %v", err)
	}
}

// The agent's loop over the adapter, streamed and not: a tool call, then
// the answer; replaying the journal needs no server.
func TestReplayAgentOverAnthropic(t *testing.T) {
	for _, stream := range []bool{false, true} {
		script := []exchange{{200, "messages_tool_use.json"}, {200, "messages_final.json"}}
		if stream {
			script = []exchange{{200, "stream_tool_use.sse"}, {200, "stream_final.sse"}}
		}
		s := newServer(t, script...)
		st := journal.NewMemory()
		lookup := agent.NewTool("lookup", "Look an order up.", func(ctx context.Context, in struct {
			Order string `json:"order"`
		}) (string, error) {
			return "order " + in.Order + ": charged twice", nil
		})
		a := &agent.Agent{Model: s.model(), Tools: []agent.Tool{lookup}, Journal: st}
		req := condense.Request{Model: "claude-sonnet-4-5", Messages: []condense.Message{condense.UserText("Why was I charged twice?")}}
		var opts []agent.RunOption
		var events int
		if stream {
			opts = append(opts, agent.WithStream(func(agent.StreamEvent) { events++ }))
		}
		res, err := a.Run(context.Background(), req, append(opts, agent.WithRunID("a1"))...)
		if err != nil {
			t.Fatal(err)
		}
		if res.Text() != "Refund the second charge." || res.ToolCalls != 1 || res.Usage.OutputTokens != 66 || res.Usage.CacheReadTokens != 2500 {
			t.Fatalf("stream=%v: %q, %d tool calls, usage %+v", stream, res.Text(), res.ToolCalls, res.Usage)
		}
		if stream && events < 10 {
			t.Fatalf("%d stream events", events)
		}
		// The tool result went back as a tool_result block.
		msgs := s.bodies[1]["messages"].([]any)
		tr := msgs[2].(map[string]any)["content"].([]any)[0].(map[string]any)
		if tr["type"] != "tool_result" || tr["tool_use_id"] != "toolu_01A09q90qw90lq917835lq9" {
			t.Fatalf("tool result on the wire: %v", tr)
		}
		s.srv.Close()
		a.Model = nil
		if _, err := a.Run(context.Background(), req, append(opts, agent.WithRunID("a1"), agent.Verify())...); err != nil {
			t.Fatalf("stream=%v: replay: %v", stream, err)
		}
	}
}

func compact(b []byte) []byte {
	var v any
	json.Unmarshal(b, &v)
	out, _ := json.Marshal(v)
	return out
}

// A cache breakpoint travels as a fields part after its block: the body
// keeps the block's text and puts cache_control on it (the message used to
// go out with no content at all).
func TestCacheMarkerKeepsTextAndBreakpoint(t *testing.T) {
	s := newServer(t, exchange{200, "messages_final.json"})
	req := request()
	req.Messages = []condense.Message{{Role: condense.RoleUser, Parts: []condense.Part{
		condense.Text("Why was I charged twice?"),
		anthropic.FieldsPart(anthropic.Field{Name: "cache_control", Value: json.RawMessage(`{"type":"ephemeral"}`)}),
	}}}
	if _, err := s.model().Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	msgs := s.bodies[0]["messages"].([]any)
	got, _ := json.Marshal(msgs)
	if want := `[{"content":[{"cache_control":{"type":"ephemeral"},"text":"Why was I charged twice?","type":"text"}],"role":"user"}]`; string(got) != want {
		t.Fatalf("messages on the wire:\n%s\nwant\n%s", got, want)
	}
}

// What the adapter adds to the codec's rules: the thinking budget inside
// max_tokens, system messages in the system text, other providers' blocks
// as a note, a schema for tools without one.
func TestAdapterRequest(t *testing.T) {
	s := newServer(t, exchange{200, "messages_final.json"})
	req := request()
	req.ThinkingBudget = 2000
	req.Tools = append(req.Tools, condense.Tool{Name: "ping"})
	req.Messages = []condense.Message{
		{Role: condense.RoleSystem, Parts: []condense.Part{condense.Text("Be polite.")}},
		{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("Hi"), condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning"}`))}},
	}
	if _, err := s.model().Generate(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	body := s.bodies[0]
	if body["max_tokens"].(float64) != 3024 || body["system"] != "You handle billing tickets.\n\nBe polite." {
		t.Errorf("max_tokens %v system %q", body["max_tokens"], body["system"])
	}
	if th, _ := json.Marshal(body["thinking"]); string(th) != `{"budget_tokens":2000,"type":"enabled"}` {
		t.Errorf("thinking %s", th)
	}
	msgs, _ := json.Marshal(body["messages"])
	if want := `[{"content":[{"text":"Hi","type":"text"},{"text":"[openai block omitted]","type":"text"}],"role":"user"}]`; string(msgs) != want {
		t.Errorf("messages %s", msgs)
	}
	tools := body["tools"].([]any)
	if schema, _ := json.Marshal(tools[1].(map[string]any)["input_schema"]); string(schema) != `{"type":"object"}` {
		t.Errorf("tool schema %s", schema)
	}
}

// An error event in the middle of a stream is a typed error.
func TestStreamErrorEvent(t *testing.T) {
	sse := "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"model\":\"m\",\"usage\":{\"input_tokens\":5}}}\n\n" +
		"event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse)
	}))
	defer srv.Close()
	m := anthropicmodel.New(anthropicmodel.Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client(), MaxRetries: -1})
	var n int
	var err error
	for ev, e := range m.Stream(context.Background(), request()) {
		if e != nil {
			err = e
			break
		}
		if ev.Type == agent.EventUsage && ev.Usage.InputTokens != 5 {
			t.Errorf("usage %+v", ev.Usage)
		}
		n++
	}
	if n != 1 || !errors.Is(err, condense.ErrOverloaded) {
		t.Fatalf("%d events, err %v", n, err)
	}
}
