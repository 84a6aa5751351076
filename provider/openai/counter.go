package openai

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

// Counter counts tokens exactly with the API. It implements
// condense.Counter and is safe for concurrent use.
//
// With Options.API empty or APIResponses (the default) it asks POST
// /responses/input_tokens, OpenAI's input-token count endpoint, which
// costs nothing: messages are counted as the Responses API input items
// this package's codec writes for them (EncodeResponsesRequest), tools as
// function tools (without "strict"). With APIChat it sends a Chat
// Completions request capped at one output token and reads the prompt
// tokens of its usage: any compatible server that reports usage (vLLM,
// Ollama, llama.cpp) can count that way, at the price of a request's input
// and one output token each time; a tool message is then counted against
// the same request with empty results, which leaves out the few tokens of
// a result's framing.
//
// Thinking that holds no OpenAI reasoning item, which has no plain-text
// form on the wire, is counted as text of its message, and so are images
// of assistant messages ("[image …]") and other providers' blocks (their
// JSON). CountMessage counts one message as the difference between a
// request holding it and the same request without it: both start with a
// one-character user message, then, for tool results, the function calls
// they answer; that baseline is counted once and cached. CountOverhead
// counts the system text and the tools, with the one-character message as
// input, so a request's sum errs high by that message's few tokens, never
// low. Counts are cached by condense.Fingerprint (a bounded LRU) and by
// the content of system and tools.
//
// condense.Counter has no context and no error: when the API cannot answer,
// the count comes from the heuristic of package tokens (OpenAI's for a model
// tokens.Models knows as OpenAI's, else the Claude one, which over-counts
// most), and the first failure is logged at Warn. A bad key or a server
// without the endpoint (most OpenAI-compatible servers: Ollama, vLLM)
// switches the API off for the counter's life; a rate limit, overload or
// network error for apicount.Cooldown.
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
	client, err := resolve(&opts)
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
		chat:   opts.API == APIChat,
		legacy: opts.LegacyMaxTokens,
		policy: retry.Policy{MaxRetries: retries, MaxWait: DefaultCountTimeout / 2, Sleep: opts.sleep, Logger: opts.Logger},
		base:   map[string]int{},
	}
	name := "openai-input-tokens"
	if b.chat {
		name = "openai-chat-usage"
	}
	family := tokens.FamilyAnthropic
	if info, ok := tokens.Models.Lookup(opts.Model); ok && info.Family == tokens.FamilyOpenAI {
		family = tokens.FamilyOpenAI
	}
	return &Counter{model: opts.Model, c: apicount.New(apicount.Config{
		Name:      name,
		Backend:   b,
		Fallback:  tokens.Heuristic(family),
		Timeout:   cmp.Or(opts.Timeout, DefaultCountTimeout),
		CacheSize: opts.CacheSize,
		OnCount:   opts.OnCount,
		Logger:    opts.Logger,
	})}, nil
}

// Name returns "openai-input-tokens" ("openai-chat-usage" with APIChat).
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

// countBackend asks the API.
type countBackend struct {
	client *Client
	model  string
	chat   bool
	legacy bool
	policy retry.Policy

	mu   sync.Mutex
	base map[string]int // baseline counts by scaffold key
}

// count returns the input tokens of a request of system, tools and msgs.
func (b *countBackend) count(ctx context.Context, system string, tools []condense.Tool, msgs []condense.Message) (int, error) {
	req := condense.Request{Model: b.model, System: system, Tools: tools, Messages: msgs}
	var n int
	err := retry.Do(ctx, b.policy, func(ctx context.Context) error {
		if !b.chat {
			var err error
			n, err = b.client.countTokens(ctx, &ResponsesRequest{Request: req}, true, nil)
			return err
		}
		req.MaxOutputTokens = 1
		resp, err := b.client.Chat(ctx, &ChatRequest{Request: req, LegacyMaxTokens: b.legacy})
		if err != nil {
			return err
		}
		n = resp.Usage.InputTokens
		return nil
	})
	return n, err
}

// dot is the one-character user message every count request starts with,
// so that no request has an empty input.
func (b *countBackend) dot() condense.Message {
	if b.chat {
		return condense.UserText(".")
	}
	return condense.Message{Role: condense.RoleUser, Parts: []condense.Part{
		condense.ProviderBlock(Provider, json.RawMessage(`{"type":"message","role":"user","content":"."}`))}}
}

func (b *countBackend) Overhead(ctx context.Context, system string, tools []condense.Tool) (int, error) {
	return b.count(ctx, system, tools, []condense.Message{b.dot()})
}

func (b *countBackend) Message(ctx context.Context, m *condense.Message) (int, error) {
	msg, answered := countable(m)
	prefix, base, key := b.scaffold(answered)
	total, err := b.count(ctx, "", nil, append(prefix, msg))
	if err != nil {
		return 0, err
	}
	b.mu.Lock()
	n, ok := b.base[key]
	b.mu.Unlock()
	if !ok {
		if n, err = b.count(ctx, "", nil, base); err != nil {
			return 0, err
		}
		b.mu.Lock()
		if len(b.base) >= 1024 {
			clear(b.base)
		}
		b.base[key] = n
		b.mu.Unlock()
	}
	return max(1, total-n), nil
}

// scaffold returns what precedes a message in its count request (the
// one-character user message, then the function calls that results
// answering calls need), the baseline request, and a key naming it. Chat
// Completions takes no call left without its result, so there the
// baseline answers each call with an empty result.
func (b *countBackend) scaffold(calls []string) (prefix, base []condense.Message, key string) {
	prefix = []condense.Message{b.dot()}
	if len(calls) > 0 {
		stubs := condense.Message{Role: condense.RoleAssistant}
		for _, id := range calls {
			stubs.Parts = append(stubs.Parts, condense.ToolCall(id, "tool", json.RawMessage("{}")))
		}
		prefix = append(prefix, stubs)
	}
	base = prefix
	if b.chat && len(calls) > 0 {
		base = append([]condense.Message(nil), prefix...)
		for _, id := range calls {
			base = append(base, condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false)}})
		}
	}
	return prefix, base, strings.Join(calls, ",")
}

// countable returns m as it is counted, and the ids of the calls its tool
// results answer that m does not make itself. Thinking that holds no
// reasoning item becomes text of the message, and so do images of
// assistant messages and other providers' blocks; a message with nothing
// in it is counted as one character of its role.
func countable(m *condense.Message) (condense.Message, []string) {
	out := condense.Message{Role: m.Role}
	if out.Role == "" {
		out.Role = condense.RoleUser
	}
	made := map[string]bool{}
	var results []string
	text := func(s string) {
		if s != "" {
			out.Parts = append(out.Parts, condense.Text(s))
		}
	}
	for i := range m.Parts {
		p := &m.Parts[i]
		switch p.Type {
		case condense.PartText:
			text(p.Text)
		case condense.PartThinking:
			if _, ok := reasoningItem(p); ok {
				out.Parts = append(out.Parts, *p)
				continue
			}
			text(p.Text)
			text(p.Redacted)
		case condense.PartImage:
			if m.Role == condense.RoleAssistant {
				text(fmt.Sprintf("[image %s]", p.MediaType))
				continue
			}
			if p.URL != "" || len(p.Data) > 0 {
				out.Parts = append(out.Parts, *p)
			}
		case condense.PartToolCall:
			out.Parts = append(out.Parts, *p)
			made[p.ID] = true
		case condense.PartToolResult:
			out.Parts = append(out.Parts, *p)
			results = append(results, p.CallID)
		case condense.PartProvider:
			if p.Provider == Provider && json.Valid(p.Raw) {
				out.Parts = append(out.Parts, *p)
			} else if len(p.Raw) > 0 {
				text(string(p.Raw))
			}
		}
	}
	if len(out.Parts) == 0 {
		out.Parts = []condense.Part{condense.Text(".")}
	}
	var answered []string
	for _, id := range results {
		if !made[id] {
			answered = append(answered, id)
		}
	}
	return out, answered
}
