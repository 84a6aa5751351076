package eval

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
	"testing"

	"github.com/condense-dev/condense"
)

// exchange is a recorded HTTP exchange under testdata/judge.
type exchange struct {
	Request struct {
		Method  string            `json:"method"`
		Path    string            `json:"path"`
		Headers map[string]string `json:"headers"`
	} `json:"request"`
	Status   int             `json:"status"`
	Response json.RawMessage `json:"response"`
}

// serve serves a recorded exchange, checking the request against it, and
// hands each request body to check.
func serve(t *testing.T, name string, check func(body map[string]any)) *httptest.Server {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("testdata", "judge", name))
	if err != nil {
		t.Fatal(err)
	}
	var ex exchange
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != ex.Request.Method || r.URL.Path != ex.Request.Path {
			t.Errorf("%s %s, want %s %s", r.Method, r.URL.Path, ex.Request.Method, ex.Request.Path)
		}
		for k, v := range ex.Request.Headers {
			if got := r.Header.Get(k); got != v {
				t.Errorf("header %s = %q, want %q", k, got, v)
			}
		}
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		if err := json.Unmarshal(data, &body); err != nil {
			t.Errorf("request body is not JSON: %v", err)
		}
		if check != nil {
			check(body)
		}
		w.Header().Set("content-type", "application/json")
		w.WriteHeader(ex.Status)
		w.Write(ex.Response)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func judgeContext() []condense.Message {
	return []condense.Message{
		condense.UserText("Where do sessions get written?"),
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c1", "Bash", json.RawMessage(`{"command":"rg -l Append"}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", false, condense.Text("internal/store/jsonl.go"))}},
		// A newest step still waiting for its result is left out.
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c2", "Bash", json.RawMessage(`{"command":"sleep 100"}`))}},
	}
}

// lastUserText returns the text of the last message of an Anthropic or
// OpenAI body, and the number of messages.
func lastUserText(t *testing.T, body map[string]any) (string, int) {
	msgs, _ := body["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatalf("no messages in %v", body)
	}
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "user" {
		t.Errorf("last message is %v, want the user's question", last["role"])
	}
	raw, _ := json.Marshal(last["content"])
	return string(raw), len(msgs)
}

func TestAnthropicJudge(t *testing.T) {
	var sent map[string]any
	srv := serve(t, "anthropic_success.json", func(b map[string]any) { sent = b })
	j := &AnthropicJudge{BaseURL: srv.URL, APIKey: "test-key", Model: "claude-sonnet-4-5"}
	ans, err := j.Ask(context.Background(), judgeContext(), "Quote the path that starts with \"internal/st\".")
	if err != nil {
		t.Fatal(err)
	}
	if ans != "The file is internal/store/jsonl.go." {
		t.Fatalf("answer %q", ans)
	}
	if sent["model"] != "claude-sonnet-4-5" || sent["max_tokens"] == nil || !strings.Contains(sent["system"].(string), "NOT FOUND") {
		t.Errorf("body: %v", sent)
	}
	q, _ := lastUserText(t, sent)
	if !strings.Contains(q, "internal/st") {
		t.Errorf("question not sent last: %s", q)
	}
	if raw, _ := json.Marshal(sent); strings.Contains(string(raw), "sleep 100") {
		t.Errorf("the unanswered newest step was sent: %s", raw)
	}
}

func TestOpenAIJudge(t *testing.T) {
	var sent map[string]any
	srv := serve(t, "openai_success.json", func(b map[string]any) { sent = b })
	j := &OpenAIJudge{BaseURL: srv.URL + "/v1", APIKey: "test-key", Model: "gpt-4.1"}
	ans, err := j.Ask(context.Background(), judgeContext(), "Quote the path that starts with \"internal/st\".")
	if err != nil {
		t.Fatal(err)
	}
	if ans != "The file is internal/store/jsonl.go." {
		t.Fatalf("answer %q", ans)
	}
	if sent["model"] != "gpt-4.1" {
		t.Errorf("body: %v", sent)
	}
	q, n := lastUserText(t, sent)
	if !strings.Contains(q, "internal/st") || n < 4 {
		t.Errorf("question %s, %d messages", q, n)
	}
}

func TestJudgeUnauthorized(t *testing.T) {
	for _, tt := range []struct {
		file  string
		judge func(url string) Judge
		typ   string
	}{
		{"anthropic_401.json", func(u string) Judge { return &AnthropicJudge{BaseURL: u, APIKey: "test-key"} }, "authentication_error"},
		{"openai_401.json", func(u string) Judge { return &OpenAIJudge{BaseURL: u + "/v1", APIKey: "test-key"} }, "invalid_request_error"},
	} {
		srv := serve(t, tt.file, nil)
		_, err := tt.judge(srv.URL).Ask(context.Background(), judgeContext(), "q?")
		var je *condense.APIError
		if !errors.As(err, &je) || je.Status != 401 || je.Type != tt.typ || je.Message == "" || !errors.Is(err, condense.ErrAuth) {
			t.Errorf("%s: %v", tt.file, err)
		}
	}
}

func TestNewJudgeNeedsKey(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("OPENAI_API_KEY", "")
	if _, err := NewAnthropicJudge(""); !errors.Is(err, ErrNoKey) {
		t.Errorf("anthropic: %v", err)
	}
	if _, err := NewOpenAIJudge(""); !errors.Is(err, ErrNoKey) {
		t.Errorf("openai: %v", err)
	}
	t.Setenv("OPENAI_API_KEY", "k")
	t.Setenv("OPENAI_BASE_URL", "http://localhost:1/v1")
	j, err := NewOpenAIJudge("")
	if err != nil || j.BaseURL != "http://localhost:1/v1" || j.Model == "" {
		t.Errorf("openai from env: %+v %v", j, err)
	}
}

// fakeJudge answers by looking the expected strings up in the context.
type fakeJudge struct {
	know  []string
	calls int
}

var _ Judge = (*fakeJudge)(nil)

func (f *fakeJudge) Ask(_ context.Context, msgs []condense.Message, q string) (string, error) {
	f.calls++
	text := Flatten(msgs)
	for _, k := range f.know {
		if strings.Contains(text, k) {
			return "It is " + k + ".", nil
		}
	}
	return "NOT FOUND", nil
}

func TestJudgeProbesVerdicts(t *testing.T) {
	full := []condense.Message{condense.UserText("edit internal/a.go and internal/b.go; panic: boom")}
	compacted := []condense.Message{condense.UserText("edit internal/a.go")}
	probes := []Resolved{
		{Probe: Probe{Category: "path", Text: "internal/a.go"}, Expect: "internal/a.go"},
		{Probe: Probe{Category: "path", Text: "internal/b.go"}, Expect: "internal/b.go"},
		{Probe: Probe{Category: "error", Regex: "panic: \\w+"}, Expect: "panic: boom"},
		{Probe: Probe{Category: "path", Text: "gone.go"}, Expect: "gone.go", Absent: true},
	}
	f := &fakeJudge{}
	// The fake knows one string per question: answer the probe asked.
	ask := func(ctx context.Context, j *fakeJudge, askFull bool) []Verdict {
		var out []Verdict
		for _, p := range probes {
			j.know = []string{p.Expect}
			vs, err := JudgeProbes(ctx, j, full, compacted, []Resolved{p}, askFull)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, vs...)
		}
		return out
	}
	vs := ask(context.Background(), f, true)
	want := []string{"same", "lost", "lost"}
	if len(vs) != len(want) {
		t.Fatalf("verdicts %+v", vs)
	}
	for i, v := range vs {
		if v.Verdict != want[i] || v.Question == "" || v.Compacted == "" || v.Full == "" {
			t.Errorf("probe %d: %+v, want %s", i, v, want[i])
		}
	}
	if f.calls != 6 {
		t.Errorf("%d calls, want 2 per present probe", f.calls)
	}
	vs = ask(context.Background(), &fakeJudge{}, false)
	for i, w := range []string{"kept", "missing", "missing"} {
		if vs[i].Verdict != w || vs[i].Full != "" {
			t.Errorf("compacted only, probe %d: %+v, want %s", i, vs[i], w)
		}
	}
	// The question never gives the whole text away.
	if q := Question(probes[0]); strings.Contains(q, "internal/a.go") || !strings.Contains(q, "path") {
		t.Errorf("question %q", q)
	}
	if q := Question(Resolved{Probe: Probe{Category: "x", Text: "abc", Question: "Which?"}}); q != "Which?" {
		t.Errorf("own question: %q", q)
	}
}
