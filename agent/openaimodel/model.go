// Package openaimodel adapts OpenAI's Chat Completions API, through the
// official Go SDK, to agent.Model; a custom base URL serves
// OpenAI-compatible servers (vLLM, Ollama, llama.cpp). Error answers
// become *condense.APIError: a context_length_exceeded answer unwraps to
// condense.ErrContextTooLarge, which the agent's loop recovers from once.
package openaimodel

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"iter"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
)

// Provider names the provider in usage and errors.
const Provider = "openai"

// Options configure a Model. The zero value reads $OPENAI_API_KEY and
// $OPENAI_BASE_URL, as the SDK does.
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
}

// Model is an agent.Model on Chat Completions.
type Model struct {
	client openai.Client
	opts   Options
}

var (
	_ agent.Model          = (*Model)(nil)
	_ agent.ClientSettings = (*Model)(nil)
)

// New returns a Model.
func New(opts Options) *Model {
	var ro []option.RequestOption
	if opts.APIKey != "" {
		ro = append(ro, option.WithAPIKey(opts.APIKey))
	}
	if opts.BaseURL != "" {
		ro = append(ro, option.WithBaseURL(opts.BaseURL))
	}
	if opts.HTTPClient != nil {
		ro = append(ro, option.WithHTTPClient(opts.HTTPClient))
	}
	if opts.MaxRetries < 0 {
		ro = append(ro, option.WithMaxRetries(0))
	} else if opts.MaxRetries > 0 {
		ro = append(ro, option.WithMaxRetries(opts.MaxRetries))
	}
	ro = append(ro, opts.RequestOptions...)
	return &Model{client: openai.NewClient(ro...), opts: opts}
}

// Settings returns the client-level budget settings.
func (m *Model) Settings() condense.Settings { return m.opts.Settings }

// Generate sends req and returns the answer.
func (m *Model) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	params, err := params(req, false)
	if err != nil {
		return nil, err
	}
	c, err := m.client.Chat.Completions.New(ctx, params)
	if err != nil {
		return nil, mapError(err)
	}
	if len(c.Choices) == 0 {
		return nil, errors.New("openaimodel: the answer has no choices")
	}
	ch := c.Choices[0]
	out := condense.Message{Role: condense.RoleAssistant}
	stop := stopReason(ch.FinishReason)
	if ch.Message.Content != "" {
		out.Parts = append(out.Parts, condense.Text(ch.Message.Content))
	}
	if ch.Message.Refusal != "" {
		out.Parts = append(out.Parts, condense.Text(ch.Message.Refusal))
		stop = agent.StopRefusal
	}
	for _, tc := range ch.Message.ToolCalls {
		in := json.RawMessage(tc.Function.Arguments)
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		out.Parts = append(out.Parts, condense.ToolCall(tc.ID, tc.Function.Name, in))
	}
	return &agent.Response{Message: out, StopReason: stop, Usage: usageOf(c.Usage), Model: c.Model}, nil
}

// Stream sends req and yields the answer as it comes. Usage is asked for
// (stream_options.include_usage) and reported at the end.
func (m *Model) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	return func(yield func(agent.StreamEvent, error) bool) {
		p, err := params(req, true)
		if err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		stream := m.client.Chat.Completions.NewStreaming(ctx, p)
		defer stream.Close()
		model := ""
		var stop agent.StopReason
		for stream.Next() {
			ch := stream.Current()
			if ch.Model != "" {
				model = ch.Model
			}
			var out []agent.StreamEvent
			if len(ch.Choices) > 0 {
				c := ch.Choices[0]
				if c.Delta.Content != "" {
					out = append(out, agent.StreamEvent{Type: agent.EventText, Index: 0, Text: c.Delta.Content})
				}
				if c.Delta.Refusal != "" {
					out = append(out, agent.StreamEvent{Type: agent.EventText, Index: 0, Text: c.Delta.Refusal})
					stop = agent.StopRefusal
				}
				for _, tc := range c.Delta.ToolCalls {
					i := 1 + int(tc.Index)
					if tc.ID != "" || tc.Function.Name != "" {
						out = append(out, agent.StreamEvent{Type: agent.EventToolCall, Index: i, ID: tc.ID, Name: tc.Function.Name})
					}
					if tc.Function.Arguments != "" {
						out = append(out, agent.StreamEvent{Type: agent.EventToolInput, Index: i, Text: tc.Function.Arguments})
					}
				}
				if c.FinishReason != "" && stop == "" {
					stop = stopReason(c.FinishReason)
				}
			}
			if ch.JSON.Usage.Valid() && ch.Usage.PromptTokens+ch.Usage.CompletionTokens > 0 {
				out = append(out, agent.StreamEvent{Type: agent.EventUsage, Usage: usageOf(ch.Usage)})
			}
			for _, e := range out {
				if !yield(e, nil) {
					return
				}
			}
		}
		if err := stream.Err(); err != nil {
			yield(agent.StreamEvent{}, mapError(err))
			return
		}
		yield(agent.StreamEvent{Type: agent.EventStop, Stop: stop, Model: model}, nil)
	}
}

func usageOf(u openai.CompletionUsage) condense.Usage {
	return condense.Usage{
		InputTokens:      int(u.PromptTokens),
		OutputTokens:     int(u.CompletionTokens),
		CacheReadTokens:  int(u.PromptTokensDetails.CachedTokens),
		CacheWriteTokens: int(u.PromptTokensDetails.CacheWriteTokens),
	}
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

func mapError(err error) error {
	var ae *openai.Error
	if !errors.As(err, &ae) {
		return err
	}
	msg := ae.Message
	if msg == "" {
		msg = ae.RawJSON()
	}
	return condense.ClassifyHTTP(Provider, ae.StatusCode, ae.Type, ae.Code, msg)
}

type wireRequest struct {
	Model               string         `json:"model"`
	Messages            []wireMessage  `json:"messages"`
	Tools               []wireTool     `json:"tools,omitempty"`
	MaxCompletionTokens int            `json:"max_completion_tokens,omitempty"`
	StreamOptions       *streamOptions `json:"stream_options,omitempty"`
}

type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireMessage struct {
	Role       string         `json:"role"`
	Content    any            `json:"content,omitempty"`
	ToolCalls  []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type wireToolCall struct {
	ID       string       `json:"id"`
	Type     string       `json:"type"`
	Function wireFunction `json:"function"`
}

type wireFunction struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

type wireTool struct {
	Type     string      `json:"type"`
	Function wireToolDef `json:"function"`
}

type wireToolDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

type contentPart struct {
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
}

type imageURL struct {
	URL string `json:"url"`
}

// params converts req: the system text is the first message, each tool
// result is a tool message, thinking and other providers' opaque blocks
// are left out (Chat Completions has no place for them).
func params(req *condense.Request, stream bool) (openai.ChatCompletionNewParams, error) {
	w := wireRequest{Model: req.Model, MaxCompletionTokens: req.MaxOutputTokens}
	if stream {
		w.StreamOptions = &streamOptions{IncludeUsage: true}
	}
	if req.System != "" {
		w.Messages = append(w.Messages, wireMessage{Role: "system", Content: req.System})
	}
	for _, t := range req.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireToolDef{Name: t.Name, Description: t.Description, Parameters: schema}})
	}
	for i := range req.Messages {
		msg := &req.Messages[i]
		switch msg.Role {
		case condense.RoleSystem:
			w.Messages = append(w.Messages, wireMessage{Role: "system", Content: msg.TextContent()})
		case condense.RoleTool:
			for _, p := range msg.Parts {
				if p.Type == condense.PartToolResult {
					w.Messages = append(w.Messages, wireMessage{Role: "tool", ToolCallID: p.CallID, Content: resultText(&p)})
				}
			}
		case condense.RoleAssistant:
			wm := wireMessage{Role: "assistant"}
			if t := msg.TextContent(); t != "" {
				wm.Content = t
			}
			for _, p := range msg.Parts {
				if p.Type == condense.PartToolCall {
					args := string(p.Input)
					if args == "" {
						args = "{}"
					}
					wm.ToolCalls = append(wm.ToolCalls, wireToolCall{ID: p.ID, Type: "function", Function: wireFunction{Name: p.Name, Arguments: args}})
				}
			}
			if wm.Content == nil && len(wm.ToolCalls) == 0 {
				continue
			}
			w.Messages = append(w.Messages, wm)
		default:
			w.Messages = append(w.Messages, wireMessage{Role: "user", Content: userContent(msg)})
		}
	}
	body, err := json.Marshal(w)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	var p openai.ChatCompletionNewParams
	if err := json.Unmarshal(body, &p); err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	return p, nil
}

func userContent(m *condense.Message) any {
	hasImage := false
	for _, p := range m.Parts {
		if p.Type == condense.PartImage {
			hasImage = true
		}
	}
	if !hasImage {
		return m.TextContent()
	}
	var parts []contentPart
	for _, p := range m.Parts {
		switch p.Type {
		case condense.PartText:
			parts = append(parts, contentPart{Type: "text", Text: p.Text})
		case condense.PartImage:
			url := p.URL
			if url == "" {
				url = "data:" + p.MediaType + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
			}
			parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: url}})
		}
	}
	return parts
}

func resultText(p *condense.Part) string {
	var s string
	for i, c := range p.Content {
		if i > 0 {
			s += "\n"
		}
		switch c.Type {
		case condense.PartText:
			s += c.Text
		case condense.PartImage:
			s += "[image]"
		}
	}
	return s
}
