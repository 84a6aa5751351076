package anthropic

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

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
	if opts.Model == "" {
		opts.Model = DefaultModel
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

// countBackend talks to the count_tokens endpoint through Client.count;
// the codec writes the bodies.
type countBackend struct {
	client *Client
	model  string
	policy retry.Policy

	mu   sync.Mutex
	base map[string]int // baseline counts by scaffold key
}

var dot = condense.UserText(".")

func (b *countBackend) count(ctx context.Context, system string, tools []condense.Tool, msgs []condense.Message) (int, error) {
	req := &Request{Request: condense.Request{Model: b.model, Messages: msgs}}
	if system != "" {
		req.System = system
		req.SystemBlocks = []SystemBlock{{Text: system}}
	}
	for _, t := range tools {
		if !json.Valid(t.InputSchema) {
			// The schema is sent as the tool declares it, or as the
			// smallest schema when it declares none.
			t.InputSchema = json.RawMessage(`{"type":"object"}`)
		}
		req.Tools = append(req.Tools, t)
	}
	body, err := EncodeRequest(req)
	if err != nil {
		return 0, err
	}
	var n int
	err = retry.Do(ctx, b.policy, func(ctx context.Context) error {
		var err error
		n, err = b.client.count(ctx, body, nil)
		return err
	})
	return n, err
}

func (b *countBackend) Overhead(ctx context.Context, system string, tools []condense.Tool) (int, error) {
	return b.count(ctx, system, tools, []condense.Message{dot})
}

func (b *countBackend) Message(ctx context.Context, m *condense.Message) (int, error) {
	msg, calls, ok := toMessage(m)
	if !ok {
		return 0, apicount.ErrUnsupported
	}
	if !hasBlock(msg.Parts) {
		// The API takes no empty message; one character stands in, so the
		// count is the message's framing and a token.
		msg.Parts = dot.Parts
	}
	prefix, key := scaffold(msg.Role, calls)
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
func scaffold(role condense.Role, calls []string) ([]condense.Message, string) {
	if role == condense.RoleAssistant {
		return []condense.Message{dot}, "assistant"
	}
	if len(calls) == 0 {
		return []condense.Message{dot, condense.AssistantText(".")}, "user"
	}
	stubs := make([]condense.Part, len(calls))
	for i, id := range calls {
		stubs[i] = condense.ToolCall(id, "tool", json.RawMessage(`{}`))
	}
	return []condense.Message{dot, {Role: condense.RoleAssistant, Parts: stubs}}, "results:" + strings.Join(calls, ",")
}

// hasBlock reports whether parts make at least one block (a fields part
// alone makes none).
func hasBlock(parts []condense.Part) bool {
	for i := range parts {
		if !isFieldsPart(&parts[i]) {
			return true
		}
	}
	return false
}

// toMessage returns m as it can be counted, and the ids of the calls its
// tool results answer. System and tool messages travel as user messages
// (tool results first, as the API requires, which the codec sees to).
// What the role cannot hold (a tool call in a user message, thinking
// outside an assistant message) and other providers' opaque blocks become
// text, so their tokens still count; what the codec would leave out
// (unsigned thinking, empty text, images with neither data nor address) is
// left out here too. ok is false for a message no request can hold: tool
// results in an assistant message.
func toMessage(m *condense.Message) (msg condense.Message, calls []string, ok bool) {
	msg.Role = condense.RoleUser
	if m.Role == condense.RoleAssistant {
		msg.Role = condense.RoleAssistant
	}
	assistant := msg.Role == condense.RoleAssistant
	for i := range m.Parts {
		p := m.Parts[i]
		switch p.Type {
		case condense.PartText:
			if p.Text != "" {
				msg.Parts = append(msg.Parts, p)
			}
		case condense.PartToolCall:
			input := p.Input
			if !json.Valid(input) || !strings.HasPrefix(strings.TrimSpace(string(input)), "{") {
				input = json.RawMessage(`{}`)
			}
			if assistant {
				msg.Parts = append(msg.Parts, condense.ToolCall(p.ID, p.Name, input))
			} else {
				msg.Parts = append(msg.Parts, condense.Text(fmt.Sprintf("%s(%s)", p.Name, p.Input)))
			}
		case condense.PartToolResult:
			if assistant {
				return condense.Message{}, nil, false
			}
			p.Content = resultParts(p.Content)
			msg.Parts = append(msg.Parts, p)
			calls = append(calls, p.CallID)
		case condense.PartThinking:
			switch {
			case !assistant:
				if p.Text != "" {
					msg.Parts = append(msg.Parts, condense.Text(p.Text))
				}
			case p.Redacted != "" || p.Signature != "":
				msg.Parts = append(msg.Parts, p)
			}
		case condense.PartImage:
			if len(p.Data) > 0 || p.URL != "" {
				msg.Parts = append(msg.Parts, p)
			}
		case condense.PartProvider:
			switch {
			case isMessageFieldsPart(&p):
				// A message's other members hold no tokens, and one the
				// endpoint does not know would make it refuse the count.
			case p.Provider == Provider && json.Valid(p.Raw):
				// An opaque Anthropic block, sent as it is; a fields part
				// adds its members to the block before it.
				msg.Parts = append(msg.Parts, p)
			case len(p.Raw) > 0:
				msg.Parts = append(msg.Parts, condense.Text(string(p.Raw)))
			}
		}
	}
	return msg, calls, true
}

// resultParts returns the content of a tool result as it can be counted:
// non-empty text, images and Anthropic blocks.
func resultParts(parts []condense.Part) []condense.Part {
	var out []condense.Part
	for _, p := range parts {
		switch {
		case p.Type == condense.PartText && p.Text != "",
			p.Type == condense.PartImage && (len(p.Data) > 0 || p.URL != ""),
			p.Type == condense.PartProvider && p.Provider == Provider && json.Valid(p.Raw):
			out = append(out, p)
		}
	}
	return out
}
