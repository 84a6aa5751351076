package openaimodel_test

import (
	"bytes"
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

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/openaimodel"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/provider/openai"
)

// respServer answers POST /v1/responses with recorded exchanges in order
// and keeps the request bodies, raw and decoded.
type respServer struct {
	mu     sync.Mutex
	script []exchange
	raw    [][]byte
	bodies []map[string]any
	srv    *httptest.Server
}

func newRespServer(t *testing.T, script ...exchange) *respServer {
	s := &respServer{script: script}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.URL.Path != "/v1/responses" {
			http.Error(w, "unexpected "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		if r.Header.Get("Authorization") != "Bearer test-key" {
			http.Error(w, "missing headers", http.StatusUnauthorized)
			return
		}
		b, _ := io.ReadAll(r.Body)
		var body map[string]any
		json.Unmarshal(b, &body)
		s.mu.Lock()
		n := len(s.bodies)
		s.raw = append(s.raw, b)
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

func (s *respServer) model() *openaimodel.Model {
	return openaimodel.New(openaimodel.Options{APIKey: "test-key", BaseURL: s.srv.URL + "/v1", HTTPClient: s.srv.Client(),
		MaxRetries: -1, API: openai.APIResponses})
}

const reasoning1 = `{"id": "rs_68a1f0c3a1b48190a0c1d2e3f4a5b6c7",
      "type": "reasoning",
      "encrypted_content": "gAAAAABoofDD_enc_reasoning_lookup_01==",
      "summary": [
        {"type": "summary_text", "text": "**Checking the order**\n\nThe customer was charged twice; look the order up first."}
      ]
    }`

func TestResponsesGenerateToolUse(t *testing.T) {
	s := newRespServer(t, exchange{200, "responses_tool_call.json"})
	resp, err := s.model().Generate(context.Background(), request())
	if err != nil {
		t.Fatal(err)
	}
	p := resp.Message.Parts
	if len(p) != 2 || p[0].Type != condense.PartThinking || p[1].ID != "call_7f3a" || p[1].Name != "lookup" || string(p[1].Input) != `{"order":"o-7"}` {
		t.Fatalf("parts %+v", p)
	}
	// The reasoning item is kept whole (compacted), its summary as text.
	if p[0].Text != "**Checking the order**\n\nThe customer was charged twice; look the order up first." ||
		p[0].Signature != string(compactJSON(reasoning1)) {
		t.Fatalf("thinking %+v", p[0])
	}
	if resp.StopReason != agent.StopToolUse || resp.Model != "o4-mini-2025-04-16" {
		t.Fatalf("stop %q model %q", resp.StopReason, resp.Model)
	}
	if u := resp.Usage; u.InputTokens != 1712 || u.CacheReadTokens != 1280 || u.OutputTokens != 57 {
		t.Fatalf("usage %+v", u)
	}
	// The request on the wire: stateless, the system text as instructions,
	// one item per message part, non-strict function tools, the cap.
	body := s.bodies[0]
	if body["store"] != false || body["instructions"] != "You handle billing tickets." || body["max_output_tokens"].(float64) != 1024 {
		t.Fatalf("body %v", body)
	}
	if inc, _ := json.Marshal(body["include"]); string(inc) != `["reasoning.encrypted_content"]` {
		t.Fatalf("include %s", inc)
	}
	var kinds []string
	for _, it := range body["input"].([]any) {
		it := it.(map[string]any)
		k := it["type"].(string)
		if r, ok := it["role"]; ok {
			k += ":" + r.(string)
		}
		kinds = append(kinds, k)
	}
	if got := strings.Join(kinds, " "); got != "message:user message:assistant function_call function_call_output function_call_output" {
		t.Fatalf("items on the wire: %s", got)
	}
	in := body["input"].([]any)
	if call := in[2].(map[string]any); call["call_id"] != "toolu_0" || call["arguments"] != `{"order":"o-1"}` {
		t.Fatalf("function call on the wire: %v", call)
	}
	if out := in[3].(map[string]any); out["call_id"] != "toolu_0" || out["output"] != "order o-1: not found" {
		t.Fatalf("function output on the wire: %v", out)
	}
	tool := body["tools"].([]any)[0].(map[string]any)
	if tool["type"] != "function" || tool["name"] != "lookup" || tool["strict"] != false || tool["parameters"].(map[string]any)["required"] == nil {
		t.Fatalf("tool on the wire: %v", tool)
	}
}

// The streams accumulate to the same responses as the recorded JSON
// answers, reasoning without a summary included.
func TestResponsesStreamAccumulatesToGenerate(t *testing.T) {
	for _, files := range [][2]string{{"responses_tool_call.json", "responses_tool_call.sse"}, {"responses_final.json", "responses_final.sse"}} {
		t.Run(files[1], func(t *testing.T) {
			s := newRespServer(t, exchange{200, files[0]}, exchange{200, files[1]})
			m := s.model()
			want, err := m.Generate(context.Background(), request())
			if err != nil {
				t.Fatal(err)
			}
			got, err := agent.Accumulate(m.Stream(context.Background(), request()))
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range []*agent.Response{want, got} {
				for i := range r.Message.Parts {
					if p := &r.Message.Parts[i]; p.Type == condense.PartToolCall {
						p.Input = compact(p.Input)
					}
				}
			}
			a, _ := json.Marshal(want)
			b, _ := json.Marshal(got)
			if string(a) != string(b) {
				t.Fatalf("streamed:\n%s\nwant:\n%s", b, a)
			}
			if s.bodies[1]["stream"] != true {
				t.Fatalf("stream request body: %v", s.bodies[1])
			}
		})
	}
}

func TestResponsesErrorsAreTyped(t *testing.T) {
	s := newRespServer(t, exchange{400, "error_400_context.json"}, exchange{429, "error_429.json"},
		exchange{200, "responses_error_stream.sse"}, exchange{200, "responses_incomplete.json"})
	m := s.model()
	_, err := m.Generate(context.Background(), request())
	var ae *condense.APIError
	if !errors.As(err, &ae) || !errors.Is(err, condense.ErrContextTooLarge) || ae.Status != 400 {
		t.Fatalf("400 too long: %v", err)
	}
	if _, err := m.Generate(context.Background(), request()); !errors.Is(err, condense.ErrRateLimited) {
		t.Fatalf("429: %v", err)
	}
	if _, err := agent.Accumulate(m.Stream(context.Background(), request())); !errors.Is(err, condense.ErrRateLimited) {
		t.Fatalf("error event: %v", err)
	}
	resp, err := m.Generate(context.Background(), request())
	if err != nil || resp.StopReason != agent.StopMaxTokens || resp.Text() != "Refund the" {
		t.Fatalf("incomplete: %v %+v", err, resp)
	}
}

// The agent's loop over the Responses API, streamed and not: the
// reasoning item goes back whole but for its id, before the call it led
// to; replaying the journal needs no server.
func TestResponsesAgentLoop(t *testing.T) {
	for _, stream := range []bool{false, true} {
		script := []exchange{{200, "responses_tool_call.json"}, {200, "responses_final.json"}}
		if stream {
			script = []exchange{{200, "responses_tool_call.sse"}, {200, "responses_final.sse"}}
		}
		s := newRespServer(t, script...)
		st := journal.NewMemory()
		lookup := agent.NewTool("lookup", "Look an order up.", func(ctx context.Context, in struct {
			Order string `json:"order"`
		}) (string, error) {
			return "order " + in.Order + ": charged twice", nil
		})
		a := &agent.Agent{Model: s.model(), Tools: []agent.Tool{lookup}, Journal: st}
		req := condense.Request{Model: "o4-mini", Messages: []condense.Message{condense.UserText("Why was I charged twice?")}}
		var opts []agent.RunOption
		if stream {
			opts = append(opts, agent.WithStream(func(agent.StreamEvent) {}))
		}
		res, err := a.Run(context.Background(), req, append(opts, agent.WithRunID("r1"))...)
		if err != nil {
			t.Fatal(err)
		}
		if res.Text() != "Refund the second charge." || res.ToolCalls != 1 || res.Usage.OutputTokens != 66 || res.Usage.CacheReadTokens != 2500 {
			t.Fatalf("stream=%v: %q, %d tool calls, usage %+v", stream, res.Text(), res.ToolCalls, res.Usage)
		}
		in := s.bodies[1]["input"].([]any)
		var kinds []string
		for _, it := range in {
			kinds = append(kinds, it.(map[string]any)["type"].(string))
		}
		if got := strings.Join(kinds, " "); got != "message reasoning function_call function_call_output" {
			t.Fatalf("stream=%v: items %s", stream, got)
		}
		rs := in[1].(map[string]any)
		if _, hasID := rs["id"]; hasID || rs["encrypted_content"] != "gAAAAABoofDD_enc_reasoning_lookup_01==" {
			t.Fatalf("stream=%v: reasoning on the wire: %v", stream, rs)
		}
		if out := in[3].(map[string]any); out["call_id"] != "call_7f3a" || out["output"] != "order o-7: charged twice" {
			t.Fatalf("stream=%v: output on the wire: %v", stream, out)
		}
		// The last answer's reasoning, which had no summary, is kept too.
		last := res.Messages[len(res.Messages)-1]
		if th := last.Parts[0]; th.Type != condense.PartThinking || !strings.Contains(th.Signature, "gAAAAABoofDK_enc_reasoning_final_02==") {
			t.Fatalf("stream=%v: last answer %+v", stream, last.Parts)
		}
		s.srv.Close()
		a.Model = nil
		if _, err := a.Run(context.Background(), req, append(opts, agent.WithRunID("r1"), agent.Verify())...); err != nil {
			t.Fatalf("stream=%v: replay: %v", stream, err)
		}
	}
}

func compactJSON(s string) []byte {
	var b bytes.Buffer
	json.Compact(&b, []byte(s))
	return b.Bytes()
}
