package anthropic

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/apicount"
	"github.com/condense-dev/condense/provider/internal/retry"
	"github.com/condense-dev/condense/tokens"
)

// DefaultCountTimeout bounds one count request of a Counter, retries
// included.
const DefaultCountTimeout = 10 * time.Second

// CounterStats says how a Counter has answered: requests made, cache hits
// and fallbacks to the heuristic.
type CounterStats = apicount.Stats

// Counter counts tokens exactly with POST /v1/messages/count_tokens. It
// implements condense.Counter and is safe for concurrent use.
//
// CountMessage counts one message as the difference between a request
// holding it and the same request without it: the smallest valid
// conversation before it (a one-character user message, and for tool
// results the assistant turn calling those tools) is the baseline, counted
// once and cached. CountOverhead counts the system text and tools with a
// one-character user message, so a request's sum errs high by the few tokens
// of that message, never low. Counts are cached by condense.Fingerprint (a
// bounded LRU) and by the content of system and tools, so a preflight asks
// only about new messages.
//
// condense.Counter has no context and no error: when the API cannot answer,
// the count comes from the Claude heuristic of package tokens, which
// over-counts, and the first failure is logged at Warn. A bad key or a
// missing endpoint switches the API off for the counter's life; a rate
// limit, overload or network error for apicount.Cooldown; a request the API
// rejects falls back for that message alone.
type Counter struct {
	c     *apicount.Counter
	model string
}

var _ condense.Counter = (*Counter)(nil)

// NewCounter returns a Counter for opts.Model (DefaultModel when empty): a
// count is the model's own. Options.Timeout bounds one count (0 means
// DefaultCountTimeout); MaxRetries defaults to 1 here, as a preflight waits
// on it. Options.OnCount receives each exact count beside the heuristic's
// estimate of the same thing.
func NewCounter(opts Options) (*Counter, error) {
	client, err := newClient(&opts)
	if err != nil {
		return nil, err
	}
	retries := opts.MaxRetries
	if retries == 0 {
		retries = 1
	}
	b := &countBackend{
		client: client,
		model:  opts.Model,
		policy: retry.Policy{MaxRetries: retries, MaxWait: DefaultCountTimeout / 2, Sleep: opts.sleep, Logger: opts.Logger},
		base:   map[string]int{},
	}
	return &Counter{model: opts.Model, c: apicount.New(apicount.Config{
		Name:      "anthropic-count-tokens",
		Backend:   b,
		Fallback:  tokens.Heuristic(tokens.FamilyAnthropic),
		Timeout:   cmp.Or(opts.Timeout, DefaultCountTimeout),
		CacheSize: opts.CacheSize,
		OnCount:   opts.OnCount,
		Logger:    opts.Logger,
	})}, nil
}

// Name returns "anthropic-count-tokens".
func (c *Counter) Name() string { return c.c.Name() }

// Exact reports true: counts are the API's. A fallback count over-counts.
func (c *Counter) Exact() bool { return true }

// Model returns the model whose tokenizer counts.
func (c *Counter) Model() string { return c.model }

// CountMessage returns the tokens of m, its framing included.
func (c *Counter) CountMessage(m *condense.Message) int { return c.c.CountMessage(m) }

// CountOverhead returns the tokens of the system text, the tool definitions
// and the request's framing.
func (c *Counter) CountOverhead(system string, tools []condense.Tool) int {
	return c.c.CountOverhead(system, tools)
}

// Stats returns how the counter has answered so far.
func (c *Counter) Stats() CounterStats { return c.c.Stats() }

// countBackend talks to the count_tokens endpoint through the SDK's
// Messages.CountTokens.
type countBackend struct {
	client *client
	model  string
	policy retry.Policy

	mu   sync.Mutex
	base map[string]int // baseline counts by scaffold key
}

// message is a request message being built: its role and blocks.
type message struct {
	role    string
	content []anthropic.ContentBlockParamUnion
}

func (m message) param() anthropic.MessageParam {
	if m.role == "assistant" {
		return anthropic.NewAssistantMessage(m.content...)
	}
	return anthropic.NewUserMessage(m.content...)
}

func textBlock(s string) anthropic.ContentBlockParamUnion { return anthropic.NewTextBlock(s) }

var dot = message{role: "user", content: []anthropic.ContentBlockParamUnion{textBlock(".")}}

func (b *countBackend) count(ctx context.Context, system string, tools []condense.Tool, msgs []message) (int, error) {
	req := anthropic.MessageCountTokensParams{Model: anthropic.Model(b.model)}
	for _, m := range msgs {
		req.Messages = append(req.Messages, m.param())
	}
	if system != "" {
		req.System.OfTextBlockArray = []anthropic.TextBlockParam{{Text: system}}
	}
	for _, t := range tools {
		schema := t.InputSchema
		if !json.Valid(schema) {
			schema = json.RawMessage(`{"type":"object"}`)
		}
		tp := &anthropic.ToolParam{
			Name: t.Name,
			// The schema is sent as the tool declares it.
			InputSchema: param.Override[anthropic.ToolInputSchemaParam](schema),
		}
		if t.Description != "" {
			tp.Description = anthropic.String(t.Description)
		}
		req.Tools = append(req.Tools, anthropic.MessageCountTokensToolUnionParam{OfTool: tp})
	}
	var resp *anthropic.MessageTokensCount
	err := retry.Do(ctx, b.policy, func(ctx context.Context) error {
		var err error
		resp, err = b.client.sdk.Messages.CountTokens(ctx, req)
		return classify(err)
	})
	if err != nil {
		return 0, err
	}
	return int(resp.InputTokens), nil
}

func (b *countBackend) Overhead(ctx context.Context, system string, tools []condense.Tool) (int, error) {
	return b.count(ctx, system, tools, []message{dot})
}

func (b *countBackend) Message(ctx context.Context, m *condense.Message) (int, error) {
	msg, calls, ok := toMessage(m)
	if !ok {
		return 0, apicount.ErrUnsupported
	}
	if len(msg.content) == 0 {
		// The API takes no empty message; one character stands in, so the
		// count is the message's framing and a token.
		msg.content = []anthropic.ContentBlockParamUnion{textBlock(".")}
	}
	prefix, key := scaffold(msg.role, calls)
	total, err := b.count(ctx, "", nil, append(prefix, msg))
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	base, ok := b.base[key]
	b.mu.Unlock()
	if !ok {
		if base, err = b.count(ctx, "", nil, prefix); err != nil {
			return 0, err
		}
		b.mu.Lock()
		if len(b.base) >= 1024 {
			clear(b.base)
		}
		b.base[key] = base
		b.mu.Unlock()
	}
	return max(1, total-base), nil
}

// scaffold returns the smallest valid conversation before a message of role
// answering calls, and a key naming it.
func scaffold(role string, calls []string) ([]message, string) {
	if role == "assistant" {
		return []message{dot}, "assistant"
	}
	if len(calls) == 0 {
		return []message{dot, {role: "assistant", content: []anthropic.ContentBlockParamUnion{textBlock(".")}}}, "user"
	}
	stubs := make([]anthropic.ContentBlockParamUnion, len(calls))
	for i, id := range calls {
		stubs[i] = anthropic.NewToolUseBlock(id, json.RawMessage(`{}`), "tool")
	}
	return []message{dot, {role: "assistant", content: stubs}}, "results:" + strings.Join(calls, ",")
}

// toMessage converts m to the Messages API's form and returns the ids of
// the calls its tool results answer. System and tool messages travel as
// user messages; tool results come first, as the API requires. Blocks the
// role cannot hold (a tool call in a user message, thinking outside an
// assistant message) and other providers' opaque blocks are rendered as
// text, so their tokens still count. ok is false for a message no request
// can hold: tool results in an assistant message.
func toMessage(m *condense.Message) (msg message, calls []string, ok bool) {
	role := "user"
	if m.Role == condense.RoleAssistant {
		role = "assistant"
	}
	var results, rest []anthropic.ContentBlockParamUnion
	for i := range m.Parts {
		p := &m.Parts[i]
		switch p.Type {
		case condense.PartText:
			if p.Text != "" {
				rest = append(rest, textBlock(p.Text))
			}
		case condense.PartToolCall:
			input := p.Input
			if !json.Valid(input) || !strings.HasPrefix(strings.TrimSpace(string(input)), "{") {
				input = json.RawMessage(`{}`)
			}
			if role == "assistant" {
				rest = append(rest, anthropic.NewToolUseBlock(p.ID, input, p.Name))
			} else {
				rest = append(rest, textBlock(fmt.Sprintf("%s(%s)", p.Name, p.Input)))
			}
		case condense.PartToolResult:
			if role == "assistant" {
				return message{}, nil, false
			}
			r := &anthropic.ToolResultBlockParam{ToolUseID: p.CallID, Content: resultBlocks(p.Content)}
			if p.IsError {
				r.IsError = anthropic.Bool(true)
			}
			results = append(results, anthropic.ContentBlockParamUnion{OfToolResult: r})
			calls = append(calls, p.CallID)
		case condense.PartThinking:
			switch {
			case role != "assistant":
				if p.Text != "" {
					rest = append(rest, textBlock(p.Text))
				}
			case p.Redacted != "":
				rest = append(rest, anthropic.NewRedactedThinkingBlock(p.Redacted))
			default:
				rest = append(rest, anthropic.NewThinkingBlock(p.Signature, p.Text))
			}
		case condense.PartImage:
			if src, ok := imageSource(p); ok {
				rest = append(rest, anthropic.ContentBlockParamUnion{OfImage: &anthropic.ImageBlockParam{Source: src}})
			}
		case condense.PartProvider:
			switch {
			case p.Provider == Provider && json.Valid(p.Raw):
				// An opaque Anthropic block, sent as it is.
				rest = append(rest, param.Override[anthropic.ContentBlockParamUnion](json.RawMessage(p.Raw)))
			case len(p.Raw) > 0:
				rest = append(rest, textBlock(string(p.Raw)))
			}
		}
	}
	return message{role: role, content: append(results, rest...)}, calls, true
}

func resultBlocks(parts []condense.Part) []anthropic.ToolResultBlockParamContentUnion {
	var out []anthropic.ToolResultBlockParamContentUnion
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			if p.Text != "" {
				out = append(out, anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: p.Text}})
			}
		case condense.PartImage:
			if src, ok := imageSource(p); ok {
				out = append(out, anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{Source: src}})
			}
		}
	}
	return out
}

func imageSource(p *condense.Part) (anthropic.ImageBlockParamSourceUnion, bool) {
	switch {
	case len(p.Data) > 0:
		return anthropic.ImageBlockParamSourceUnion{OfBase64: &anthropic.Base64ImageSourceParam{
			Data:      base64.StdEncoding.EncodeToString(p.Data),
			MediaType: anthropic.Base64ImageSourceMediaType(p.MediaType),
		}}, true
	case p.URL != "":
		return anthropic.ImageBlockParamSourceUnion{OfURL: &anthropic.URLImageSourceParam{URL: p.URL}}, true
	}
	return anthropic.ImageBlockParamSourceUnion{}, false
}
