package proxy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense"
)

// plantedKey is the API key every test client sends; no log line, metric,
// error or stored byte may hold it.
const plantedKey = "sk-proj-PLANTEDkey0123456789abcdefghijklmnopqrstuvwxyzABCDEF"

// upstream is a fake provider API on loopback that records what it
// receives and answers with a canned reply.
type upstream struct {
	*httptest.Server
	mu       sync.Mutex
	bodies   [][]byte
	paths    []string
	headers  []http.Header
	handler  http.HandlerFunc // answers; nil means the canned reply of the path
	received chan struct{}    // one send per request, when not nil
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("upstream: reading the body: %v", err)
		}
		u.mu.Lock()
		u.bodies = append(u.bodies, b)
		u.paths = append(u.paths, r.URL.Path)
		u.headers = append(u.headers, r.Header.Clone())
		h := u.handler
		u.mu.Unlock()
		if u.received != nil {
			u.received <- struct{}{}
		}
		if h != nil {
			h(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, cannedReply(r.URL.Path))
	}))
	t.Cleanup(u.Close)
	return u
}

// answer sets the upstream's handler. It takes the lock: requests can
// reach the upstream through another process (the Node clients), which
// the race detector cannot see as ordering them after the test's writes.
func (u *upstream) answer(h http.HandlerFunc) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.handler = h
}

func (u *upstream) calls() int {
	u.mu.Lock()
	defer u.mu.Unlock()
	return len(u.bodies)
}

func (u *upstream) body(i int) []byte {
	u.mu.Lock()
	defer u.mu.Unlock()
	if i < 0 {
		i += len(u.bodies)
	}
	return u.bodies[i]
}

func cannedReply(path string) string {
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"done"},"finish_reason":"stop"}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`
	case strings.HasSuffix(path, "/responses"):
		return `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-4o","output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"done","annotations":[]}]}],"usage":{"input_tokens":1,"output_tokens":1,"total_tokens":2,"input_tokens_details":{"cached_tokens":0},"output_tokens_details":{"reasoning_tokens":0}}}`
	case strings.HasSuffix(path, "/count_tokens"):
		return `{"input_tokens":42}`
	}
	return `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"done"}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`
}

// logBuffer is a concurrency-safe log sink.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// harness is a proxy in front of a fake upstream.
type harness struct {
	up    *upstream
	p     *Proxy
	srv   *httptest.Server
	logs  *logBuffer
	opts  Options
	tried int
}

func newHarness(t *testing.T, opts Options) *harness {
	return newHarnessOn(t, newUpstream(t), opts)
}

// newHarnessOn is a proxy in front of the fake upstream up.
func newHarnessOn(t *testing.T, up *upstream, opts Options) *harness {
	h := &harness{up: up, logs: &logBuffer{}}
	opts.OpenAIUpstream = h.up.URL + "/v1"
	opts.AnthropicUpstream = h.up.URL
	opts.Logger = slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	p, err := New(&opts)
	if err != nil {
		t.Fatal(err)
	}
	h.p, h.opts = p, opts
	h.srv = httptest.NewServer(p)
	t.Cleanup(h.srv.Close)
	return h
}

// post sends body to the proxy as a plain HTTP client would.
func (h *harness) post(t *testing.T, path string, body []byte) *http.Response {
	t.Helper()
	req, err := http.NewRequest("POST", h.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+plantedKey)
	req.Header.Set("X-Api-Key", plantedKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// smallWindow makes a few thousand tokens of tool output overflow.
var smallWindow = condense.Settings{Window: 12000, ReservedOutput: 1000}

// toolOutput is a distinct tool output of about n characters.
func toolOutput(step, n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "step %d line %d: internal/parse/file%d.go:%d: checked value %d ok\n", step, i, i%7, i*3, step*1000+i)
	}
	return b.String()
}

// chatHistory is a Chat Completions history: a system message, the task,
// then steps of a tool call and its result with outChars of output each.
func chatHistory(steps, outChars int) []map[string]any {
	msgs := []map[string]any{
		{"role": "system", "content": "You are a coding agent."},
		{"role": "user", "content": "Make the test suite in ./internal/parse pass."},
	}
	for i := range steps {
		msgs = append(msgs, chatStep(i, outChars)...)
	}
	return msgs
}

func chatStep(i, outChars int) []map[string]any {
	id := fmt.Sprintf("call_%d", i)
	return []map[string]any{
		{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": id, "type": "function",
			"function": map[string]any{"name": "run", "arguments": fmt.Sprintf(`{"cmd":"go test ./internal/parse -run Test%d"}`, i)}}}},
		{"role": "tool", "tool_call_id": id, "content": toolOutput(i, outChars)},
	}
}

// anthropicHistory is the same history in Messages API form.
func anthropicHistory(steps, outChars int) []map[string]any {
	msgs := []map[string]any{{"role": "user", "content": "Make the test suite in ./internal/parse pass."}}
	for i := range steps {
		msgs = append(msgs, anthropicStep(i, outChars)...)
	}
	return msgs
}

func anthropicStep(i, outChars int) []map[string]any {
	id := fmt.Sprintf("toolu_%02d", i)
	return []map[string]any{
		{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": id, "name": "run",
			"input": map[string]any{"cmd": fmt.Sprintf("go test ./internal/parse -run Test%d", i)}}}},
		{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": toolOutput(i, outChars)}}},
	}
}

// responsesHistory is the same history as Responses API input items.
func responsesHistory(steps, outChars int) []map[string]any {
	items := []map[string]any{{"role": "user", "content": "Make the test suite in ./internal/parse pass."}}
	for i := range steps {
		items = append(items, responsesStep(i, outChars)...)
	}
	return items
}

func responsesStep(i, outChars int) []map[string]any {
	id := fmt.Sprintf("call_%d", i)
	return []map[string]any{
		{"type": "reasoning", "id": fmt.Sprintf("rs_%d", i), "summary": []any{}, "encrypted_content": fmt.Sprintf("gAAAAENCRYPTED%04d==", i)},
		{"type": "function_call", "call_id": id, "name": "run", "arguments": fmt.Sprintf(`{"cmd":"go test -run Test%d"}`, i)},
		{"type": "function_call_output", "call_id": id, "output": toolOutput(i, outChars)},
	}
}

// body writes a request body: the members in order, then the history
// array under name.
func body(t testing.TB, head string, name string, history any) []byte {
	t.Helper()
	h, err := json.Marshal(history)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(head[:len(head)-1] + `,"` + name + `":` + string(h) + `}`)
}

// elements returns the raw elements of the array name of body.
func elements(body []byte, name string) []string {
	var out []string
	gjson.GetBytes(body, name).ForEach(func(_, v gjson.Result) bool {
		out = append(out, v.Raw)
		return true
	})
	return out
}

func quietLogger() *slog.Logger { return slog.New(slog.DiscardHandler) }
