package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/replay"
)

func newTestClient(t *testing.T, srv *replay.Server, mod func(*Options)) (*Client, *waits) {
	t.Helper()
	w := &waits{}
	opts := Options{APIKey: "test-key", BaseURL: srv.URL, HTTPClient: srv.Client(), sleep: w.sleep}
	if mod != nil {
		mod(&opts)
	}
	c, err := NewClient(opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, w
}

func clientRequest() *Request {
	return &Request{Request: condense.Request{
		Model: "claude-haiku-4-5", MaxOutputTokens: 256, System: "Answer briefly.",
		Messages: []condense.Message{condense.UserText("What is in the log?")},
	}}
}

// TestClientSend: the body on the wire is the codec's, byte for byte, and
// the answer is decoded and priced.
func TestClientSend(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/messages", File: "messages_success.json"})
	c, _ := newTestClient(t, srv, nil)
	req := clientRequest()
	req.SetField("temperature", json.RawMessage(`0.5`))
	resp, err := c.Send(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := EncodeRequest(req)
	if got := srv.Requests()[0].Body; string(got) != string(want) {
		t.Errorf("body\n%s\nwant\n%s", got, want)
	}
	if resp.StopReason != "end_turn" || resp.Model != "claude-haiku-4-5-20251001" || resp.Usage.InputTokens != 1600 || resp.Usage.CostUSD <= 0 {
		t.Errorf("response %+v", resp)
	}
	if h := srv.Requests()[0].Header; h.Get("X-Api-Key") != "test-key" || h.Get("Anthropic-Version") != APIVersion {
		t.Errorf("headers %v", h)
	}
}

func TestClientSendRetriesAndClassifies(t *testing.T) {
	srv := replay.New(t,
		replay.Step{Status: 529, File: "error_529.json", Header: map[string]string{"Retry-After-Ms": "10"}},
		replay.Step{File: "messages_success.json"},
	)
	c, w := newTestClient(t, srv, nil)
	if _, err := c.Send(context.Background(), clientRequest()); err != nil {
		t.Fatal(err)
	}
	if got := w.all(); len(got) != 1 || got[0] != 10*time.Millisecond {
		t.Errorf("waits %v", got)
	}

	srv = replay.New(t, replay.Step{Status: 400, File: "error_400_too_long.json"})
	c, _ = newTestClient(t, srv, nil)
	_, err := c.Send(context.Background(), clientRequest())
	var api *condense.APIError
	if !errors.Is(err, condense.ErrContextTooLarge) || !errors.As(err, &api) || api.Status != 400 {
		t.Errorf("err = %v", err)
	}

	// A client over the caller's SDK client makes no retries of its own.
	srv = replay.New(t, replay.Step{Status: 529, File: "error_529.json"}, replay.Step{File: "messages_success.json"})
	base, _ := newTestClient(t, srv, nil)
	_, err = NewSDKClient(base.sdk).Send(context.Background(), clientRequest())
	if !errors.Is(err, condense.ErrOverloaded) || len(srv.Requests()) != 1 {
		t.Errorf("err = %v after %d requests", err, len(srv.Requests()))
	}
}

func TestClientCountTokens(t *testing.T) {
	srv := replay.New(t, replay.Step{Path: "/v1/messages/count_tokens", File: "count_19.json"})
	c, _ := newTestClient(t, srv, nil)
	n, err := c.CountTokens(context.Background(), clientRequest())
	if err != nil || n != 19 {
		t.Fatalf("count %d, %v", n, err)
	}
	if body := srv.Requests()[0].JSON(t); body["max_tokens"] != nil {
		t.Errorf("count request with max_tokens: %v", body)
	}
}

// TestClientStream: events decode with the usage so far; the body asks for
// a stream.
func TestClientStream(t *testing.T) {
	srv := replay.New(t, replay.Step{File: "stream_tool_use.sse"})
	c, _ := newTestClient(t, srv, nil)
	var types []string
	var last StreamEvent
	var input string
	for ev, err := range c.Stream(context.Background(), clientRequest()) {
		if err != nil {
			t.Fatal(err)
		}
		types = append(types, ev.Type)
		if ev.DeltaType == "input_json_delta" {
			input += ev.Delta
		}
		if ev.Type == "content_block_start" && ev.Index == 2 && (ev.Part.Type != condense.PartToolCall || ev.Part.Name != "lookup") {
			t.Errorf("tool call start %+v", ev.Part)
		}
		last = ev
	}
	if len(types) != 17 || types[0] != "message_start" || last.Type != "message_stop" {
		t.Errorf("events %v", types)
	}
	if input != `{"order": "o-7"}` {
		t.Errorf("input %q", input)
	}
	u := last.Usage
	if u.InputTokens != 1712 || u.OutputTokens != 57 || u.CacheReadTokens != 1200 || last.Model != "claude-sonnet-4-5-20250929" {
		t.Errorf("usage %+v model %q", u, last.Model)
	}
	if body := srv.Requests()[0].JSON(t); body["stream"] != true {
		t.Errorf("body %v", body)
	}
}
