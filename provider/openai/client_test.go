package openai

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/replay"
)

func testClient(srv *replay.Server) *Client {
	return NewClient(ClientOptions{APIKey: "test-key", BaseURL: srv.URL + "/v1", HTTPClient: srv.Client(), MaxRetries: -1})
}

func question() condense.Request {
	return condense.Request{Model: "gpt-4o", System: "Answer briefly.", Messages: []condense.Message{condense.UserText("Why?")}}
}

func TestClientChat(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/chat/completions", File: "chat_tool_calls.json"})
	req := &ChatRequest{Request: question()}
	req.Extra.Set("temperature", json.RawMessage(`0.25`))
	req.Extra.Set("stream", json.RawMessage(`true`))
	resp, err := testClient(srv).Chat(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Choices != 1 || resp.FinishReason != "tool_calls" || !resp.Message.HasToolCalls() || resp.Model == "" {
		t.Errorf("response %+v", resp)
	}
	body := string(srv.Requests()[0].Body)
	if !strings.Contains(body, `"temperature":0.25`) || strings.Contains(body, `"stream"`) {
		t.Errorf("body %s: the extra members go as given, stream is StreamChat's", body)
	}
}

func TestClientStreamChat(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/chat/completions", File: "chat_stream_tool_calls.sse"})
	s, err := testClient(srv).StreamChat(context.Background(), &ChatRequest{Request: question()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var text, args strings.Builder
	var usage *condense.Usage
	finish, id := "", ""
	for s.Next() {
		c := s.Chunk()
		text.WriteString(c.Text)
		for _, tc := range c.ToolCalls {
			if tc.ID != "" {
				id = tc.ID
			}
			args.WriteString(tc.Arguments)
		}
		if c.FinishReason != "" {
			finish = c.FinishReason
		}
		if c.Usage != nil {
			usage = c.Usage
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if text.String() != "Let me look the order up." || id != "call_7f3a" || args.String() != `{"order":"o-7"}` || finish != "tool_calls" {
		t.Errorf("text %q id %q args %q finish %q", text.String(), id, args.String(), finish)
	}
	if usage == nil || usage.InputTokens != 1712 || usage.CacheReadTokens != 1280 || usage.OutputTokens != 57 {
		t.Errorf("usage %+v", usage)
	}
	body := srv.Requests()[0].JSON(t)
	if body["stream"] != true || body["stream_options"].(map[string]any)["include_usage"] != true {
		t.Errorf("body %v", body)
	}
}

func TestClientResponses(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/responses", File: "responses_tool_call.json"})
	resp, err := testClient(srv).Responses(context.Background(), &ResponsesRequest{Request: question()})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Status != "completed" || resp.FinishReason != "tool_calls" || resp.Model != "o4-mini-2025-04-16" {
		t.Errorf("response %+v", resp)
	}
	if got := partKinds(resp.Message); got != "thinking tool_call" {
		t.Errorf("parts %s", got)
	}
	if u := resp.Usage; u.InputTokens != 1712 || u.CacheReadTokens != 1280 || u.OutputTokens != 57 {
		t.Errorf("usage %+v", u)
	}
	body := srv.Requests()[0].JSON(t)
	if body["instructions"] != "Answer briefly." || body["model"] != "gpt-4o" {
		t.Errorf("body %v", body)
	}
}

// The events of a streamed response rebuild the response: the text of
// the deltas, the items of output_item.done.
func TestClientStreamResponses(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/responses", File: "responses_tool_call.sse"})
	s, err := testClient(srv).StreamResponses(context.Background(), &ResponsesRequest{Request: question()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var types []string
	var summary, args strings.Builder
	var done []condense.Part
	var final *ResponsesResponse
	for s.Next() {
		ev := s.Event()
		types = append(types, ev.Type)
		switch ev.Type {
		case "response.reasoning_summary_text.delta":
			summary.WriteString(ev.Delta)
		case "response.function_call_arguments.delta":
			args.WriteString(ev.Delta)
		case "response.output_item.done":
			done = append(done, OutputItemParts(ev.Item)...)
		case "response.completed":
			final = ev.Response
		}
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	if len(types) != 15 || types[0] != "response.created" {
		t.Errorf("events %v", types)
	}
	if len(done) != 2 || done[0].Text != summary.String() || string(done[1].Input) != args.String() {
		t.Errorf("items %+v, summary %q, args %q", done, summary.String(), args.String())
	}
	if final == nil || final.FinishReason != "tool_calls" || final.Usage.OutputTokens != 57 || partKinds(final.Message) != "thinking tool_call" {
		t.Errorf("final %+v", final)
	}
	if final.Message.Parts[0].Signature != done[0].Signature {
		t.Errorf("the stream's reasoning item differs from the final response's")
	}
	if srv.Requests()[0].JSON(t)["stream"] != true {
		t.Error("stream not asked for")
	}
}

func TestClientErrors(t *testing.T) {
	srv := replay.New(t,
		replay.Step{Status: 429, File: "error_429.json", Header: map[string]string{"Retry-After": "7"}},
		replay.Step{Status: 400, File: "error_400_context.json"},
		replay.Step{Body: "event: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"boom\"}\n\n"},
		replay.Step{Body: `data: {"error":{"message":"overloaded","type":"server_error","code":null}}` + "\n\n"},
		replay.Step{Body: `{"id":"r","object":"response","status":"failed","error":{"code":"rate_limit_exceeded","message":"slow down"},"output":[]}`},
	)
	c := testClient(srv)
	_, err := c.Chat(context.Background(), &ChatRequest{Request: question()})
	var ae *condense.APIError
	if !errors.As(err, &ae) || !errors.Is(err, condense.ErrRateLimited) || ae.RetryAfter != 7*time.Second || ae.Provider != "openai" {
		t.Fatalf("429: %#v", err)
	}
	if _, err := c.StreamChat(context.Background(), &ChatRequest{Request: question()}); !errors.Is(err, condense.ErrContextTooLarge) {
		t.Fatalf("streamed 400: %v", err)
	}
	rs, err := c.StreamResponses(context.Background(), &ResponsesRequest{Request: question()})
	if err != nil {
		t.Fatal(err)
	}
	for rs.Next() {
	}
	rs.Close()
	if !errors.Is(rs.Err(), condense.ErrServer) {
		t.Fatalf("error event: %v", rs.Err())
	}
	cs, err := c.StreamChat(context.Background(), &ChatRequest{Request: question()})
	if err != nil {
		t.Fatal(err)
	}
	for cs.Next() {
	}
	cs.Close()
	if !errors.Is(cs.Err(), condense.ErrServer) || !strings.Contains(cs.Err().Error(), "overloaded") {
		t.Fatalf("error chunk: %v", cs.Err())
	}
	if _, err := c.Responses(context.Background(), &ResponsesRequest{Request: question()}); !errors.Is(err, condense.ErrRateLimited) {
		t.Fatalf("failed response: %v", err)
	}
}

func TestClientCountInputTokens(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/responses/input_tokens", File: "input_tokens_21.json"})
	req := &ResponsesRequest{Request: question()}
	req.MaxOutputTokens = 100
	req.Extra.Set("store", json.RawMessage("false"))
	req.Extra.Set("reasoning", json.RawMessage(`{"effort":"low"}`))
	n, err := testClient(srv).CountInputTokens(context.Background(), req)
	if err != nil || n != 21 {
		t.Fatalf("count %d, %v", n, err)
	}
	body := srv.Requests()[0].JSON(t)
	if _, ok := body["store"]; ok || body["max_output_tokens"] != nil || body["reasoning"] == nil {
		t.Errorf("body %v: members the endpoint does not take are left out", body)
	}
}

func TestDecodeChatResponseShapes(t *testing.T) {
	for _, tt := range []struct{ body, kinds, finish, refusal string }{
		{`{"choices":[{"message":{"role":"assistant","content":"hi","refusal":null},"finish_reason":"stop"}]}`, "text", "stop", ""},
		{`{"choices":[{"message":{"role":"assistant","content":null,"refusal":"no"},"finish_reason":"stop"}]}`, "text", "stop", "no"},
		{`{"choices":[{"message":{"content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},"finish_reason":"length"}]}`, "text text", "length", ""},
		{`{"choices":[{"message":{"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":""}},{"id":"d","type":"custom","custom":{"name":"g","input":"x"}}]},"finish_reason":"tool_calls"}]}`, "tool_call tool_call", "tool_calls", ""},
		{`{"object":"chat.completion","choices":[]}`, "", "", ""},
	} {
		r, err := DecodeChatResponse([]byte(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		if partKinds(r.Message) != tt.kinds || r.FinishReason != tt.finish || r.Refusal != tt.refusal || r.Message.Role != condense.RoleAssistant {
			t.Errorf("%s: %s %q %q", tt.body, partKinds(r.Message), r.FinishReason, r.Refusal)
		}
	}
}
