package proxy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	anthropicsdk "github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	openaisdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/condense-dev/condense"
)

func openaiClient(h *harness, opts ...ooption.RequestOption) openaisdk.Client {
	return openaisdk.NewClient(append([]ooption.RequestOption{ooption.WithBaseURL(h.srv.URL + "/v1"),
		ooption.WithAPIKey(plantedKey), ooption.WithMaxRetries(0)}, opts...)...)
}

func anthropicClient(h *harness, opts ...aoption.RequestOption) anthropicsdk.Client {
	return anthropicsdk.NewClient(append([]aoption.RequestOption{aoption.WithoutEnvironmentDefaults(),
		aoption.WithBaseURL(h.srv.URL), aoption.WithAPIKey(plantedKey), aoption.WithMaxRetries(0)}, opts...)...)
}

// sentBodies records the bodies an SDK client sends, through its
// middleware.
type sentBodies struct{ bodies [][]byte }

func (s *sentBodies) openai() ooption.RequestOption {
	return ooption.WithMiddleware(func(r *http.Request, next ooption.MiddlewareNext) (*http.Response, error) {
		s.bodies = append(s.bodies, readBody(r))
		return next(r)
	})
}

func (s *sentBodies) anthropic() aoption.RequestOption {
	return aoption.WithMiddleware(func(r *http.Request, next aoption.MiddlewareNext) (*http.Response, error) {
		s.bodies = append(s.bodies, readBody(r))
		return next(r)
	})
}

func readBody(r *http.Request) []byte {
	if r.Body == nil {
		return nil
	}
	b, _ := io.ReadAll(r.Body)
	r.Body = io.NopCloser(bytes.NewReader(b))
	return b
}

// The official Go clients work through the proxy unchanged: what they send
// under the threshold reaches the upstream byte for byte, the answer comes
// back, and the headers say what the proxy did.
func TestGoSDKsUnderThreshold(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Options{Settings: smallWindow})
	var sent sentBodies

	var hr *http.Response
	oc := openaiClient(h, sent.openai())
	comp, err := oc.Chat.Completions.New(ctx, openaisdk.ChatCompletionNewParams{
		Model:    "gpt-4o",
		Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.SystemMessage("Be brief."), openaisdk.UserMessage("Hello")},
	}, ooption.WithJSONSet("x_unknown", map[string]any{"kept": true}), ooption.WithResponseInto(&hr))
	if err != nil {
		t.Fatal(err)
	}
	if comp.Choices[0].Message.Content != "done" || hr.Header.Get(HeaderCompacted) != "false" {
		t.Errorf("chat: answer %q, %s %q", comp.Choices[0].Message.Content, HeaderCompacted, hr.Header.Get(HeaderCompacted))
	}

	resp, err := oc.Responses.New(ctx, responses.ResponseNewParams{
		Model: "gpt-4o",
		Input: responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage("Hello", responses.EasyInputMessageRoleUser)}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.OutputText() != "done" {
		t.Errorf("responses: answer %q", resp.OutputText())
	}

	ac := anthropicClient(h, sent.anthropic())
	msg, err := ac.Messages.New(ctx, anthropicsdk.MessageNewParams{
		Model: "claude-sonnet-4-5", MaxTokens: 100,
		Messages: []anthropicsdk.MessageParam{anthropicsdk.NewUserMessage(anthropicsdk.NewTextBlock("Hello"))},
	}, aoption.WithResponseInto(&hr))
	if err != nil {
		t.Fatal(err)
	}
	if msg.Content[0].Text != "done" || hr.Header.Get(HeaderTokensAfter) == "" {
		t.Errorf("messages: answer %+v, headers %v", msg.Content, hr.Header)
	}

	// count_tokens is passed through as it is.
	n, err := ac.Messages.CountTokens(ctx, anthropicsdk.MessageCountTokensParams{
		Model:    "claude-sonnet-4-5",
		Messages: []anthropicsdk.MessageParam{anthropicsdk.NewUserMessage(anthropicsdk.NewTextBlock("Hello"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	if n.InputTokens != 42 {
		t.Errorf("count_tokens: %d", n.InputTokens)
	}

	if h.up.calls() != 4 || len(sent.bodies) != 4 {
		t.Fatalf("upstream saw %d calls, clients sent %d", h.up.calls(), len(sent.bodies))
	}
	wantPaths := []string{"/v1/chat/completions", "/v1/responses", "/v1/messages", "/v1/messages/count_tokens"}
	for i, b := range sent.bodies {
		if !bytes.Equal(h.up.body(i), b) {
			t.Errorf("call %d: upstream got\n%s\nclient sent\n%s", i, h.up.body(i), b)
		}
		if h.up.paths[i] != wantPaths[i] {
			t.Errorf("call %d: upstream path %s, want %s", i, h.up.paths[i], wantPaths[i])
		}
		if got := h.up.headers[i].Get("Authorization") + h.up.headers[i].Get("X-Api-Key"); !strings.Contains(got, plantedKey) {
			t.Errorf("call %d: the key was not forwarded", i)
		}
	}
}

// Ten calls of one growing conversation, compacted over the threshold: the
// proxy recognises the conversation on each call and reuses its
// checkpoint, so the body sent upstream only grows at its end except at a
// compaction, and the provider's prompt cache keeps hitting.
func TestCheckpointReuseAcrossCalls(t *testing.T) {
	for _, tc := range apiCases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Settings: smallWindow})
			history := tc.history(4, 3000)
			step := map[string]func(int, int) []map[string]any{"chat": chatStep, "responses": responsesStep, "messages": anthropicStep}[tc.name]
			var prev []string
			kept, compactions, breaks := 0, 0, 0
			for call := range 10 {
				history = append(history, step(4+call, 3000)...)
				in := body(t, tc.head, tc.array, history)
				logsBefore := strings.Count(h.logs.String(), "condense proxy: compacted")
				resp := h.post(t, tc.path, in)
				if resp.StatusCode != 200 {
					b, _ := io.ReadAll(resp.Body)
					t.Fatalf("call %d: status %d: %s", call, resp.StatusCode, b)
				}
				compacted := strings.Count(h.logs.String(), "condense proxy: compacted") > logsBefore
				if compacted {
					compactions++
				}
				cur := elements(h.up.body(-1), tc.array)
				if call > 0 {
					if isPrefix(prev, cur) {
						kept++
					} else {
						breaks++
						if !compacted {
							t.Errorf("call %d: the upstream history changed before its end without a compaction", call)
						}
					}
				}
				prev = cur
			}
			t.Logf("%s: %d compactions, %d of 9 calls kept the previous body as their prefix", tc.name, compactions, kept)
			if compactions == 0 || kept < 5 {
				t.Errorf("%d compactions, %d calls kept the prefix: want at least one and five", compactions, kept)
			}
			if h.p.Conversations() != 1 {
				t.Errorf("%d conversations, want 1", h.p.Conversations())
			}
		})
	}
}

func isPrefix(a, b []string) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// A request that cannot fit even compacted is answered with the provider's
// own error and never sent.
func TestCannotFitIsRefusedInProviderShape(t *testing.T) {
	ctx := context.Background()
	h := newHarness(t, Options{Settings: condense.Settings{Window: 3000, ReservedOutput: 500}})
	huge := strings.Repeat("please read all of this carefully ", 2000)

	oc := openaiClient(h)
	_, err := oc.Chat.Completions.New(ctx, openaisdk.ChatCompletionNewParams{
		Model: "gpt-4o", Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage(huge)}})
	var oe *openaisdk.Error
	if !errors.As(err, &oe) || oe.StatusCode != 400 || oe.Code != "context_length_exceeded" || !strings.Contains(oe.Message, "prompt is too long") {
		t.Errorf("openai: %v", err)
	}

	ac := anthropicClient(h)
	_, err = ac.Messages.New(ctx, anthropicsdk.MessageNewParams{
		Model: "claude-sonnet-4-5", MaxTokens: 100,
		Messages: []anthropicsdk.MessageParam{anthropicsdk.NewUserMessage(anthropicsdk.NewTextBlock(huge))}})
	var ae *anthropicsdk.Error
	if !errors.As(err, &ae) || ae.StatusCode != 400 || !strings.Contains(ae.RawJSON(), `"type":"invalid_request_error"`) ||
		!strings.Contains(ae.RawJSON(), "prompt is too long") {
		t.Errorf("anthropic: %v", err)
	}
	if n := h.up.calls(); n != 0 {
		t.Errorf("the upstream got %d calls", n)
	}
}

// Streamed answers are relayed chunk by chunk: the fake upstream sends
// chunk N+1 only once the client has received chunk N, so a proxy that
// buffered would never finish.
func TestStreamingRelayedUnbuffered(t *testing.T) {
	const n = 8
	ctx := context.Background()

	t.Run("chat", func(t *testing.T) {
		h := newHarness(t, Options{})
		ack := make(chan int)
		h.up.answer(func(w http.ResponseWriter, r *http.Request) { streamChat(t, w, n, ack) })
		oc := openaiClient(h)
		s := oc.Chat.Completions.NewStreaming(ctx, openaisdk.ChatCompletionNewParams{
			Model: "gpt-4o", Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("count")}})
		i := 0
		for s.Next() {
			if got := s.Current().Choices[0].Delta.Content; got != fmt.Sprint(i) {
				t.Errorf("chunk %d holds %q", i, got)
			}
			ack <- i
			i++
		}
		if err := s.Err(); err != nil || i != n {
			t.Fatalf("stream ended after %d chunks: %v", i, err)
		}
	})

	t.Run("messages", func(t *testing.T) {
		h := newHarness(t, Options{})
		ack := make(chan int)
		h.up.answer(func(w http.ResponseWriter, r *http.Request) { streamMessages(t, w, n, ack) })
		ac := anthropicClient(h)
		s := ac.Messages.NewStreaming(ctx, anthropicsdk.MessageNewParams{
			Model: "claude-sonnet-4-5", MaxTokens: 100,
			Messages: []anthropicsdk.MessageParam{anthropicsdk.NewUserMessage(anthropicsdk.NewTextBlock("count"))}})
		i := 0
		for s.Next() {
			ev := s.Current()
			if ev.Type != "content_block_delta" {
				continue
			}
			if got := ev.Delta.Text; got != fmt.Sprint(i) {
				t.Errorf("delta %d holds %q", i, got)
			}
			ack <- i
			i++
		}
		if err := s.Err(); err != nil || i != n {
			t.Fatalf("stream ended after %d deltas: %v", i, err)
		}
	})
}

// A client that goes away cancels the upstream call.
func TestClientDisconnectCancelsUpstream(t *testing.T) {
	h := newHarness(t, Options{})
	cancelled := make(chan struct{})
	h.up.answer(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\"},\"finish_reason\":null}]}\n\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
		close(cancelled)
	})
	ctx, cancel := context.WithCancel(context.Background())
	oc := openaiClient(h)
	s := oc.Chat.Completions.NewStreaming(ctx, openaisdk.ChatCompletionNewParams{
		Model: "gpt-4o", Messages: []openaisdk.ChatCompletionMessageParamUnion{openaisdk.UserMessage("count")}})
	if !s.Next() {
		t.Fatalf("no first chunk: %v", s.Err())
	}
	cancel()
	s.Close()
	<-cancelled // the upstream handler returns only when its request is cancelled
}

// streamChat answers with n chunks of a streamed chat completion, chunk i
// holding the text i, and sends chunk i+1 only after ack has received i.
func streamChat(t *testing.T, w http.ResponseWriter, n int, ack <-chan int) {
	w.Header().Set("Content-Type", "text/event-stream")
	for i := range n {
		fmt.Fprintf(w, "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"created\":1,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"%d\"},\"finish_reason\":null}]}\n\n", i)
		w.(http.Flusher).Flush()
		if got := <-ack; got != i {
			t.Errorf("client acknowledged chunk %d, want %d", got, i)
		}
	}
	io.WriteString(w, "data: [DONE]\n\n")
}

// streamMessages is streamChat for the Messages API: n text deltas.
func streamMessages(t *testing.T, w http.ResponseWriter, n int, ack <-chan int) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(typ, data string) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", typ, data)
		w.(http.Flusher).Flush()
	}
	ev("message_start", `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":0}}}`)
	ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
	for i := range n {
		ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"%d"}}`, i))
		if got := <-ack; got != i {
			t.Errorf("client acknowledged delta %d, want %d", got, i)
		}
	}
	ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
	ev("message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":8}}`)
	ev("message_stop", `{"type":"message_stop"}`)
}
