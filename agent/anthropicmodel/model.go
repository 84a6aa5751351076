// Package anthropicmodel adapts the Anthropic Messages API, through the
// official Go SDK, to agent.Model: requests and answers are converted
// between condense's provider-neutral messages and the SDK's, streams
// become agent.StreamEvents, and error answers become *condense.APIError
// (a "prompt is too long" answer unwraps to condense.ErrContextTooLarge,
// which the agent's loop recovers from once).
package anthropicmodel

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
)

// Provider names the provider in usage and errors.
const Provider = "anthropic"

// DefaultMaxTokens caps an answer when neither the request nor the options
// say how much: the Messages API requires a cap.
const DefaultMaxTokens = 4096

// Options configure a Model. The zero value reads $ANTHROPIC_API_KEY and
// $ANTHROPIC_BASE_URL, as the SDK does.
type Options struct {
	APIKey  string
	BaseURL string
	// HTTPClient sends the requests; nil means the SDK's default.
	HTTPClient *http.Client
	// MaxRetries is the SDK's retry count for rate limits, overloads and
	// server errors; 0 means the SDK's default (2), negative means none.
	MaxRetries int
	// MaxTokens caps answers of requests that set no MaxOutputTokens; 0
	// means DefaultMaxTokens, which is also what the budget reserves by
	// default (condense.DefaultReservedOutput).
	MaxTokens int
	// Settings are client-level budget settings (agent.ClientSettings).
	Settings condense.Settings
	// RequestOptions are passed to every SDK call.
	RequestOptions []option.RequestOption
}

// Model is an agent.Model on the Anthropic Messages API.
type Model struct {
	client anthropic.Client
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
	return &Model{client: anthropic.NewClient(ro...), opts: opts}
}

// Settings returns the client-level budget settings.
func (m *Model) Settings() condense.Settings { return m.opts.Settings }

// Generate sends req and returns the answer.
func (m *Model) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	params, err := m.params(req)
	if err != nil {
		return nil, err
	}
	msg, err := m.client.Messages.New(ctx, params)
	if err != nil {
		return nil, mapError(err)
	}
	return response(msg)
}

// Stream sends req and yields the answer as it comes.
func (m *Model) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	return func(yield func(agent.StreamEvent, error) bool) {
		params, err := m.params(req)
		if err != nil {
			yield(agent.StreamEvent{}, err)
			return
		}
		stream := m.client.Messages.NewStreaming(ctx, params)
		defer stream.Close()
		var usage condense.Usage
		model := ""
		for stream.Next() {
			ev := stream.Current()
			var out []agent.StreamEvent
			switch ev.Type {
			case "message_start":
				model = string(ev.Message.Model)
				u := ev.Message.Usage
				usage = usageOf(u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens)
				out = append(out, agent.StreamEvent{Type: agent.EventUsage, Usage: usage})
			case "content_block_start":
				cb := ev.ContentBlock
				i := int(ev.Index)
				switch cb.Type {
				case "text":
					out = append(out, agent.StreamEvent{Type: agent.EventText, Index: i, Text: cb.Text})
				case "thinking":
					out = append(out, agent.StreamEvent{Type: agent.EventThinking, Index: i, Text: cb.Thinking, Signature: cb.Signature})
				case "tool_use":
					out = append(out, agent.StreamEvent{Type: agent.EventToolCall, Index: i, ID: cb.ID, Name: cb.Name})
				}
			case "content_block_delta":
				d := ev.Delta
				i := int(ev.Index)
				switch d.Type {
				case "text_delta":
					out = append(out, agent.StreamEvent{Type: agent.EventText, Index: i, Text: d.Text})
				case "thinking_delta":
					out = append(out, agent.StreamEvent{Type: agent.EventThinking, Index: i, Text: d.Thinking})
				case "signature_delta":
					out = append(out, agent.StreamEvent{Type: agent.EventThinking, Index: i, Signature: d.Signature})
				case "input_json_delta":
					out = append(out, agent.StreamEvent{Type: agent.EventToolInput, Index: i, Text: d.PartialJSON})
				}
			case "message_delta":
				u := ev.Usage
				if u.InputTokens > 0 || u.CacheCreationInputTokens > 0 || u.CacheReadInputTokens > 0 {
					usage = usageOf(u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens)
				} else {
					usage.OutputTokens = int(u.OutputTokens)
				}
				out = append(out, agent.StreamEvent{Type: agent.EventUsage, Usage: usage},
					agent.StreamEvent{Type: agent.EventStop, Stop: stopReason(string(ev.Delta.StopReason)), Model: model})
			}
			for _, e := range out {
				if !yield(e, nil) {
					return
				}
			}
		}
		if err := stream.Err(); err != nil {
			yield(agent.StreamEvent{}, mapError(err))
		}
	}
}

func (m *Model) maxTokens(req *condense.Request) int {
	if req.MaxOutputTokens > 0 {
		return req.MaxOutputTokens
	}
	if m.opts.MaxTokens > 0 {
		return m.opts.MaxTokens
	}
	return DefaultMaxTokens
}

func usageOf(input, cacheWrite, cacheRead, output int64) condense.Usage {
	return condense.Usage{
		InputTokens:      int(input + cacheWrite + cacheRead),
		OutputTokens:     int(output),
		CacheReadTokens:  int(cacheRead),
		CacheWriteTokens: int(cacheWrite),
	}
}

func stopReason(s string) agent.StopReason {
	switch s {
	case "end_turn", "stop_sequence", "pause_turn":
		return agent.StopEndTurn
	case "tool_use":
		return agent.StopToolUse
	case "max_tokens", "model_context_window_exceeded":
		return agent.StopMaxTokens
	case "refusal":
		return agent.StopRefusal
	}
	return agent.StopReason(s)
}

func response(msg *anthropic.Message) (*agent.Response, error) {
	out := condense.Message{Role: condense.RoleAssistant}
	for _, b := range msg.Content {
		switch b.Type {
		case "text":
			out.Parts = append(out.Parts, condense.Text(b.Text))
		case "thinking":
			out.Parts = append(out.Parts, condense.Thinking(b.Thinking, b.Signature))
		case "redacted_thinking":
			out.Parts = append(out.Parts, condense.RedactedThinking(b.Data))
		case "tool_use":
			in := b.Input
			if len(in) == 0 {
				in = json.RawMessage("{}")
			}
			out.Parts = append(out.Parts, condense.ToolCall(b.ID, b.Name, in))
		default:
			// Server tool blocks and the like are carried byte for byte.
			out.Parts = append(out.Parts, condense.ProviderBlock(Provider, json.RawMessage(b.RawJSON())))
		}
	}
	u := msg.Usage
	return &agent.Response{
		Message:    out,
		StopReason: stopReason(string(msg.StopReason)),
		Usage:      usageOf(u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens),
		Model:      string(msg.Model),
	}, nil
}

// mapError turns an SDK error answer into a *condense.APIError.
func mapError(err error) error {
	var ae *anthropic.Error
	if !errors.As(err, &ae) {
		return err
	}
	msg := ae.Message
	if msg == "" {
		msg = ae.RawJSON()
	}
	return condense.ClassifyHTTP(Provider, ae.StatusCode, string(ae.Type()), string(ae.ErrorCode()), msg)
}

// The request as the Messages API takes it; decoded into the SDK's params.
type wireRequest struct {
	Model     string        `json:"model"`
	MaxTokens int           `json:"max_tokens"`
	System    string        `json:"system,omitempty"`
	Messages  []wireMessage `json:"messages"`
	Tools     []wireTool    `json:"tools,omitempty"`
	Thinking  *wireThinking `json:"thinking,omitempty"`
}

type wireThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

type wireMessage struct {
	Role    string      `json:"role"`
	Content []wireBlock `json:"content"`
}

type wireBlock struct {
	Type      string          `json:"type"`
	Text      string          `json:"text,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   []wireBlock     `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
	Thinking  string          `json:"thinking,omitempty"`
	Signature string          `json:"signature,omitempty"`
	Data      string          `json:"data,omitempty"`
	Source    *wireSource     `json:"source,omitempty"`
}

type wireSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

type wireTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// params converts req: system messages join the system text, tool results
// travel in user messages, consecutive messages of one role merge (the API
// wants them alternating), opaque Anthropic blocks pass byte for byte.
func (m *Model) params(req *condense.Request) (anthropic.MessageNewParams, error) {
	w := wireRequest{Model: req.Model, MaxTokens: m.maxTokens(req), System: req.System}
	if req.ThinkingBudget > 0 {
		w.Thinking = &wireThinking{Type: "enabled", BudgetTokens: req.ThinkingBudget}
		w.MaxTokens += req.ThinkingBudget
	}
	for _, t := range req.Tools {
		schema := t.InputSchema
		if len(schema) == 0 {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		w.Tools = append(w.Tools, wireTool{Name: t.Name, Description: t.Description, InputSchema: schema})
	}
	var raws []json.RawMessage // provider blocks, spliced in after encoding
	for i := range req.Messages {
		msg := &req.Messages[i]
		role := "user"
		switch msg.Role {
		case condense.RoleSystem:
			if w.System != "" {
				w.System += "\n\n"
			}
			w.System += msg.TextContent()
			continue
		case condense.RoleAssistant:
			role = "assistant"
		}
		var blocks []wireBlock
		for _, p := range msg.Parts {
			b, raw, err := block(&p)
			if err != nil {
				return anthropic.MessageNewParams{}, fmt.Errorf("anthropicmodel: message %d: %w", i, err)
			}
			if raw != nil {
				raws = append(raws, raw)
				b = wireBlock{Type: rawMarker(len(raws) - 1)}
			}
			blocks = append(blocks, b)
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(w.Messages); n > 0 && w.Messages[n-1].Role == role {
			w.Messages[n-1].Content = append(w.Messages[n-1].Content, blocks...)
			continue
		}
		w.Messages = append(w.Messages, wireMessage{Role: role, Content: blocks})
	}
	body, err := json.Marshal(w)
	if err != nil {
		return anthropic.MessageNewParams{}, err
	}
	for i, raw := range raws {
		marker, _ := json.Marshal(wireBlock{Type: rawMarker(i)})
		body = replaceOnce(body, marker, raw)
	}
	var params anthropic.MessageNewParams
	if err := json.Unmarshal(body, &params); err != nil {
		return anthropic.MessageNewParams{}, fmt.Errorf("anthropicmodel: building the request: %w", err)
	}
	return params, nil
}

func rawMarker(i int) string { return fmt.Sprintf("\x00condense-raw-%d", i) }

func replaceOnce(b, old, new []byte) []byte {
	i := indexOf(b, old)
	if i < 0 {
		return b
	}
	out := make([]byte, 0, len(b)-len(old)+len(new))
	out = append(out, b[:i]...)
	out = append(out, new...)
	return append(out, b[i+len(old):]...)
}

func indexOf(b, sub []byte) int {
	for i := 0; i+len(sub) <= len(b); i++ {
		if string(b[i:i+len(sub)]) == string(sub) {
			return i
		}
	}
	return -1
}

func block(p *condense.Part) (wireBlock, json.RawMessage, error) {
	switch p.Type {
	case condense.PartText:
		return wireBlock{Type: "text", Text: p.Text}, nil, nil
	case condense.PartToolCall:
		in := p.Input
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		return wireBlock{Type: "tool_use", ID: p.ID, Name: p.Name, Input: in}, nil, nil
	case condense.PartToolResult:
		b := wireBlock{Type: "tool_result", ToolUseID: p.CallID, IsError: p.IsError}
		for i := range p.Content {
			c, _, err := block(&p.Content[i])
			if err != nil {
				return wireBlock{}, nil, err
			}
			b.Content = append(b.Content, c)
		}
		return b, nil, nil
	case condense.PartThinking:
		if p.Redacted != "" {
			return wireBlock{Type: "redacted_thinking", Data: p.Redacted}, nil, nil
		}
		return wireBlock{Type: "thinking", Thinking: p.Text, Signature: p.Signature}, nil, nil
	case condense.PartImage:
		if p.URL != "" {
			return wireBlock{Type: "image", Source: &wireSource{Type: "url", URL: p.URL}}, nil, nil
		}
		return wireBlock{Type: "image", Source: &wireSource{Type: "base64", MediaType: p.MediaType, Data: base64.StdEncoding.EncodeToString(p.Data)}}, nil, nil
	case condense.PartProvider:
		if p.Provider == Provider && json.Valid(p.Raw) {
			return wireBlock{}, p.Raw, nil
		}
		return wireBlock{Type: "text", Text: "[" + p.Provider + " block omitted]"}, nil, nil
	}
	return wireBlock{}, nil, fmt.Errorf("unknown part type %q", p.Type)
}
