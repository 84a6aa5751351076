// Package anthropicmodel adapts the Anthropic Messages API to agent.Model.
// It is a thin layer over package provider/anthropic: the request body is
// written by that package's codec (anthropic.EncodeRequest), sent by its
// Client over the official Go SDK's transport, and the answer is read by
// its decoder; streamed events become agent.StreamEvents. Error answers are
// *condense.APIError (a "prompt is too long" answer unwraps to
// condense.ErrContextTooLarge, which the agent's loop recovers from once).
package anthropicmodel

import (
	"context"
	"encoding/json"
	"iter"
	"net/http"
	"slices"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/provider/anthropic"
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
	client *anthropic.Client
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
	return &Model{client: anthropic.NewSDKClient(sdk.NewClient(ro...)), opts: opts}
}

// Settings returns the client-level budget settings.
func (m *Model) Settings() condense.Settings { return m.opts.Settings }

// Generate sends req and returns the answer.
func (m *Model) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	resp, err := m.client.Send(ctx, m.request(req))
	if err != nil {
		return nil, err
	}
	u := resp.Usage
	return &agent.Response{
		Message:    resp.Message,
		StopReason: stopReason(resp.StopReason),
		Usage:      tokensOnly(u),
		Model:      resp.Model,
	}, nil
}

// Stream sends req and yields the answer as it comes.
func (m *Model) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	return func(yield func(agent.StreamEvent, error) bool) {
		for ev, err := range m.client.Stream(ctx, m.request(req)) {
			if err != nil {
				yield(agent.StreamEvent{}, err)
				return
			}
			for _, e := range events(ev) {
				if !yield(e, nil) {
					return
				}
			}
		}
	}
}

// events turns one provider stream event into agent events: block starts
// and deltas of text, thinking and tool calls, usage, and the stop. Other
// blocks (server tools, redacted thinking) are not streamed.
func events(ev anthropic.StreamEvent) []agent.StreamEvent {
	i := ev.Index
	switch ev.Type {
	case "message_start":
		return []agent.StreamEvent{{Type: agent.EventUsage, Usage: tokensOnly(ev.Usage)}}
	case "content_block_start":
		p := ev.Part
		switch {
		case p.Type == condense.PartText:
			return []agent.StreamEvent{{Type: agent.EventText, Index: i, Text: p.Text}}
		case p.Type == condense.PartThinking && p.Redacted == "":
			return []agent.StreamEvent{{Type: agent.EventThinking, Index: i, Text: p.Text, Signature: p.Signature}}
		case p.Type == condense.PartToolCall:
			return []agent.StreamEvent{{Type: agent.EventToolCall, Index: i, ID: p.ID, Name: p.Name}}
		}
	case "content_block_delta":
		switch ev.DeltaType {
		case "text_delta":
			return []agent.StreamEvent{{Type: agent.EventText, Index: i, Text: ev.Delta}}
		case "thinking_delta":
			return []agent.StreamEvent{{Type: agent.EventThinking, Index: i, Text: ev.Delta}}
		case "signature_delta":
			return []agent.StreamEvent{{Type: agent.EventThinking, Index: i, Signature: ev.Delta}}
		case "input_json_delta":
			return []agent.StreamEvent{{Type: agent.EventToolInput, Index: i, Text: ev.Delta}}
		}
	case "message_delta":
		return []agent.StreamEvent{{Type: agent.EventUsage, Usage: tokensOnly(ev.Usage)},
			{Type: agent.EventStop, Stop: stopReason(ev.StopReason), Model: ev.Model}}
	}
	return nil
}

// tokensOnly keeps the token counts of u: the agent prices usage itself.
func tokensOnly(u condense.Usage) condense.Usage {
	return condense.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
		CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
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

// request is req as this adapter sends it; the codec writes the body. On
// top of the codec's rules: max_tokens is the request's cap (or the
// options', or DefaultMaxTokens) plus the thinking budget, which the API
// counts inside it; a tool without a schema gets the empty object schema;
// system messages join the system text; other providers' opaque blocks and
// Anthropic blocks that are not JSON go out as a short text saying a block
// was left out, so the model sees that something was there.
func (m *Model) request(req *condense.Request) *anthropic.Request {
	r := &anthropic.Request{Request: *req}
	r.MaxOutputTokens = m.maxTokens(req)
	if req.ThinkingBudget > 0 {
		r.MaxOutputTokens += req.ThinkingBudget
	}
	for i, t := range req.Tools {
		if len(t.InputSchema) == 0 {
			if &r.Tools[0] == &req.Tools[0] {
				r.Tools = append([]condense.Tool(nil), req.Tools...)
			}
			r.Tools[i].InputSchema = json.RawMessage(`{"type":"object"}`)
		}
	}
	if !slices.ContainsFunc(req.Messages, rewritten) {
		return r
	}
	r.Messages = make([]condense.Message, 0, len(req.Messages))
	for _, msg := range req.Messages {
		if msg.Role == condense.RoleSystem {
			if r.System != "" {
				r.System += "\n\n"
			}
			r.System += msg.TextContent()
			continue
		}
		if slices.ContainsFunc(msg.Parts, foreign) {
			parts := make([]condense.Part, len(msg.Parts))
			for k, p := range msg.Parts {
				if foreign(p) {
					p = condense.Text("[" + p.Provider + " block omitted]")
				}
				parts[k] = p
			}
			msg.Parts = parts
		}
		r.Messages = append(r.Messages, msg)
	}
	return r
}

// rewritten reports whether request changes m.
func rewritten(m condense.Message) bool {
	return m.Role == condense.RoleSystem || slices.ContainsFunc(m.Parts, foreign)
}

// foreign reports whether p is a provider block the API cannot take: another
// provider's, or an Anthropic one that is not JSON.
func foreign(p condense.Part) bool {
	return p.Type == condense.PartProvider && (p.Provider != anthropic.Provider || !json.Valid(p.Raw))
}
