// Package openaimodel adapts OpenAI's Chat Completions API, or its
// Responses API, to agent.Model; a custom base URL serves OpenAI-compatible
// servers (vLLM, Ollama, llama.cpp). It is a thin layer over package
// provider/openai: that package's codecs write every request body and read
// every answer, and its client (on the official SDK) sends them. Error
// answers become *condense.APIError: a context_length_exceeded answer
// unwraps to condense.ErrContextTooLarge, which the agent's loop recovers
// from once.
//
// Chat Completions is the default (Options.API): every compatible server
// speaks it. With the Responses API, requests are stateless — "store":
// false, the whole rendered history as input, and
// "include": ["reasoning.encrypted_content"] — so that compaction, replay
// and resume work from the history alone: a reasoning model's reasoning
// comes back as thinking parts holding the reasoning item (encrypted
// content included) and goes back as that item, without its id, as
// nothing is stored on the server to look it up by.
package openaimodel

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"

	"github.com/openai/openai-go/v3/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/provider/openai"
)

// Provider names the provider in usage and errors.
const Provider = "openai"

// Options configure a Model. The zero value reads $OPENAI_API_KEY and
// $OPENAI_BASE_URL and speaks Chat Completions.
type Options struct {
	APIKey string
	// BaseURL is the API's address with its "/v1" ("http://localhost:11434/v1").
	BaseURL    string
	HTTPClient *http.Client
	// MaxRetries is the SDK's retry count; 0 means the SDK's default,
	// negative means none.
	MaxRetries int
	// Settings are client-level budget settings (agent.ClientSettings).
	Settings       condense.Settings
	RequestOptions []option.RequestOption
	// API selects the wire API: openai.APIChat ("" means it) or
	// openai.APIResponses.
	API openai.API
}

// Model is an agent.Model on Chat Completions or the Responses API.
type Model struct {
	client *openai.Client
	opts   Options
}

var (
	_ agent.Model          = (*Model)(nil)
	_ agent.ClientSettings = (*Model)(nil)
)

// New returns a Model.
func New(opts Options) *Model {
	c := openai.NewClient(openai.ClientOptions{
		APIKey:         opts.APIKey,
		BaseURL:        opts.BaseURL,
		HTTPClient:     opts.HTTPClient,
		MaxRetries:     opts.MaxRetries,
		RequestOptions: opts.RequestOptions,
	})
	return &Model{client: c, opts: opts}
}

// Settings returns the client-level budget settings.
func (m *Model) Settings() condense.Settings { return m.opts.Settings }

func (m *Model) responses() bool { return m.opts.API == openai.APIResponses }

// Generate sends req and returns the answer.
func (m *Model) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	if m.responses() {
		resp, err := m.client.Responses(ctx, responsesRequest(req))
		if err != nil {
			return nil, err
		}
		return &agent.Response{Message: answer(resp.Message), StopReason: responsesStop(resp.FinishReason, resp.Refusal != ""),
			Usage: resp.Usage, Model: resp.Model}, nil
	}
	resp, err := m.client.Chat(ctx, chatRequest(req))
	if err != nil {
		return nil, err
	}
	if resp.Choices == 0 {
		return nil, errors.New("openaimodel: the answer has no choices")
	}
	stop := stopReason(resp.FinishReason)
	if resp.Refusal != "" {
		stop = agent.StopRefusal
	}
	return &agent.Response{Message: answer(resp.Message), StopReason: stop, Usage: resp.Usage, Model: resp.Model}, nil
}

// Stream sends req and yields the answer as it comes. Over Chat
// Completions usage is asked for (stream_options.include_usage) and
// reported at the end.
func (m *Model) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	if m.responses() {
		return m.streamResponses(ctx, req)
	}
	return func(yield func(agent.StreamEvent, error) bool) {
		s, err := m.client.StreamChat(ctx, chatRequest(req))
		if err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		defer s.Close()
		model := ""
		var stop agent.StopReason
		for s.Next() {
			ch := s.Chunk()
			if ch.Model != "" {
				model = ch.Model
			}
			var out []agent.StreamEvent
			if ch.Text != "" {
				out = append(out, agent.StreamEvent{Type: agent.EventText, Index: 0, Text: ch.Text})
			}
			if ch.Refusal != "" {
				out = append(out, agent.StreamEvent{Type: agent.EventText, Index: 0, Text: ch.Refusal})
				stop = agent.StopRefusal
			}
			for _, tc := range ch.ToolCalls {
				i := 1 + tc.Index
				if tc.ID != "" || tc.Name != "" {
					out = append(out, agent.StreamEvent{Type: agent.EventToolCall, Index: i, ID: tc.ID, Name: tc.Name})
				}
				if tc.Arguments != "" {
					out = append(out, agent.StreamEvent{Type: agent.EventToolInput, Index: i, Text: tc.Arguments})
				}
			}
			if ch.FinishReason != "" && stop == "" {
				stop = stopReason(ch.FinishReason)
			}
			if u := ch.Usage; u != nil && u.InputTokens+u.OutputTokens > 0 {
				out = append(out, agent.StreamEvent{Type: agent.EventUsage, Usage: *u})
			}
			for _, e := range out {
				if !yield(e, nil) {
					return
				}
			}
		}
		if err := s.Err(); err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		yield(agent.StreamEvent{Type: agent.EventStop, Stop: stop, Model: model}, nil)
	}
}

// chatRequest is req as sent over Chat Completions: assistant messages
// with neither text nor tool calls (thinking alone, which Chat Completions
// cannot take back) are left out.
func chatRequest(req *condense.Request) *openai.ChatRequest {
	r := *req
	r.Messages = make([]condense.Message, 0, len(req.Messages))
	for _, msg := range req.Messages {
		if msg.Role == condense.RoleAssistant && !msg.HasToolCalls() && msg.TextContent() == "" {
			continue
		}
		r.Messages = append(r.Messages, msg)
	}
	return &openai.ChatRequest{Request: r}
}

// statelessExtra asks the Responses API to store nothing and to send the
// encrypted content of reasoning items, which then travel in the history.
var statelessExtra = openai.Fields{
	{Name: "store", Value: json.RawMessage("false")},
	{Name: "include", Value: json.RawMessage(`["reasoning.encrypted_content"]`)},
}

// responsesRequest is req as sent over the Responses API: stateless, its
// reasoning items without their ids.
func responsesRequest(req *condense.Request) *openai.ResponsesRequest {
	r := *req
	r.Messages = make([]condense.Message, len(req.Messages))
	for i, msg := range req.Messages {
		r.Messages[i] = msg
		copied := false
		for k := range msg.Parts {
			p := &msg.Parts[k]
			if p.Type != condense.PartThinking {
				continue
			}
			item, ok := withoutID(p)
			if !ok {
				continue
			}
			if !copied {
				r.Messages[i].Parts = append([]condense.Part(nil), msg.Parts...)
				copied = true
			}
			r.Messages[i].Parts[k] = condense.Part{Type: condense.PartThinking, Text: p.Text, Signature: item}
		}
	}
	return &openai.ResponsesRequest{Request: r, Extra: statelessExtra}
}

// withoutID returns the reasoning item a thinking part holds, without its
// "id" member.
func withoutID(p *condense.Part) (string, bool) {
	for _, s := range []string{p.Signature, p.Redacted} {
		if len(s) < 2 || s[0] != '{' {
			continue
		}
		var item map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &item) != nil || string(item["type"]) != `"reasoning"` {
			continue
		}
		if _, ok := item["id"]; !ok {
			return s, true
		}
		delete(item, "id")
		b, err := json.Marshal(item)
		if err != nil {
			continue
		}
		return string(b), true
	}
	return "", false
}

// reasoningPlaceholder is the text of a reasoning item that came without
// a summary. Stream events carry a thinking part's text and signature
// only, so such an item travels as the signature of a thinking part with
// this text, in Generate as in Stream; the text is never sent.
const reasoningPlaceholder = "[encrypted reasoning]"

// answer is an answer's message as the agent keeps it: tool calls whose
// arguments were empty have the input {}, as a stream accumulates them,
// and reasoning without a summary is a thinking part with a placeholder
// text and the item as its signature.
func answer(m condense.Message) condense.Message {
	empty := openai.ArgumentsInput("")
	for i := range m.Parts {
		p := &m.Parts[i]
		switch {
		case p.Type == condense.PartToolCall && string(p.Input) == string(empty):
			p.Input = json.RawMessage("{}")
		case p.Type == condense.PartThinking && p.Redacted != "" && p.Text == "":
			*p = condense.Part{Type: condense.PartThinking, Text: reasoningPlaceholder, Signature: p.Redacted}
		}
	}
	return m
}

func stopReason(s string) agent.StopReason {
	switch s {
	case "stop":
		return agent.StopEndTurn
	case "tool_calls", "function_call":
		return agent.StopToolUse
	case "length":
		return agent.StopMaxTokens
	case "content_filter":
		return agent.StopRefusal
	}
	return agent.StopReason(s)
}

// responsesStop maps a response's finish reason (in Chat Completions'
// words, see openai.ResponsesResponse) and whether it refused.
func responsesStop(finish string, refused bool) agent.StopReason {
	if refused {
		return agent.StopRefusal
	}
	return stopReason(finish)
}

// streamResponses streams over the Responses API. Text, refusals and tool
// call arguments stream as they come; a reasoning item is one thinking
// event when it is done, as only the finished item holds the whole
// encrypted content. Output items of other types cannot be streamed as
// agent events and are left out of the stream.
func (m *Model) streamResponses(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	return func(yield func(agent.StreamEvent, error) bool) {
		s, err := m.client.StreamResponses(ctx, responsesRequest(req))
		if err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		defer s.Close()
		// Each output item's parts get indices of their own: item i's
		// content part k is i*maxParts+k.
		const maxParts = 1 << 16
		seen := map[int]bool{}  // indices that had an event
		calls := map[int]bool{} // tool calls whose arguments streamed
		refused := false
		var final *openai.ResponsesResponse
		for s.Next() {
			ev := s.Event()
			base := ev.OutputIndex * maxParts
			var out []agent.StreamEvent
			switch ev.Type {
			case "response.output_item.added":
				for _, p := range openai.OutputItemParts(ev.Item) {
					if p.Type == condense.PartToolCall {
						out = append(out, agent.StreamEvent{Type: agent.EventToolCall, Index: base, ID: p.ID, Name: p.Name})
						seen[base] = true
					}
				}
			case "response.output_text.delta", "response.refusal.delta":
				if ev.Type == "response.refusal.delta" {
					refused = true
				}
				out = append(out, agent.StreamEvent{Type: agent.EventText, Index: base + ev.ContentIndex, Text: ev.Delta})
				seen[base+ev.ContentIndex] = true
			case "response.function_call_arguments.delta":
				if ev.Delta != "" {
					out = append(out, agent.StreamEvent{Type: agent.EventToolInput, Index: base, Text: ev.Delta})
					calls[base] = true
				}
			case "response.output_item.done":
				out = doneItem(ev.Item, base, seen, calls)
			case "response.completed", "response.incomplete":
				final = ev.Response
			}
			for _, e := range out {
				if !yield(e, nil) {
					return
				}
			}
		}
		if err := s.Err(); err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		if final == nil {
			yield(agent.StreamEvent{}, errors.New("openaimodel: the stream ended before the response did"))
			return
		}
		if u := final.Usage; u.InputTokens+u.OutputTokens > 0 {
			if !yield(agent.StreamEvent{Type: agent.EventUsage, Usage: u}, nil) {
				return
			}
		}
		yield(agent.StreamEvent{Type: agent.EventStop, Stop: responsesStop(final.FinishReason, refused || final.Refusal != ""), Model: final.Model}, nil)
	}
}

// doneItem returns the events a finished output item adds: a reasoning
// item whole, and what of a message or a tool call did not stream.
func doneItem(item json.RawMessage, base int, seen, calls map[int]bool) []agent.StreamEvent {
	var out []agent.StreamEvent
	parts := answer(condense.Message{Parts: openai.OutputItemParts(item)}).Parts
	for k, p := range parts {
		switch p.Type {
		case condense.PartThinking:
			out = append(out, agent.StreamEvent{Type: agent.EventThinking, Index: base, Text: p.Text, Signature: p.Signature})
		case condense.PartText:
			if !seen[base+k] {
				out = append(out, agent.StreamEvent{Type: agent.EventText, Index: base + k, Text: p.Text})
			}
		case condense.PartToolCall:
			if !seen[base] {
				out = append(out, agent.StreamEvent{Type: agent.EventToolCall, Index: base, ID: p.ID, Name: p.Name})
			}
			if !calls[base] && string(p.Input) != "{}" {
				out = append(out, agent.StreamEvent{Type: agent.EventToolInput, Index: base, Text: openai.InputArguments(p.Input)})
			}
		}
	}
	return out
}
