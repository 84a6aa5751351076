package openai

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

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

// Counter counts tokens exactly with POST /responses/input_tokens, OpenAI's
// input-token count endpoint. It implements condense.Counter and is safe
// for concurrent use.
//
// The endpoint counts a Responses API request, so messages are counted as
// Responses input items (messages, function calls, function call outputs);
// thinking, which has no plain-text form there, is counted as assistant
// text. CountMessage counts one message as the difference between a request
// holding it and the same request without it: both start with a
// one-character user message, then, for tool results, the function calls
// they answer; that baseline is counted once and cached. CountOverhead
// counts the system text as instructions and the tools as function tools,
// with the one-character message as input, so a request's sum errs high by
// that message's few tokens, never low. Counts are cached by
// condense.Fingerprint (a bounded LRU) and by the content of system and
// tools.
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
	family := tokens.FamilyAnthropic
	if info, ok := tokens.Models.Lookup(opts.Model); ok && info.Family == tokens.FamilyOpenAI {
		family = tokens.FamilyOpenAI
	}
	return &Counter{model: opts.Model, c: apicount.New(apicount.Config{
		Name:      "openai-input-tokens",
		Backend:   b,
		Fallback:  tokens.Heuristic(family),
		Timeout:   cmp.Or(opts.Timeout, DefaultCountTimeout),
		CacheSize: opts.CacheSize,
		OnCount:   opts.OnCount,
		Logger:    opts.Logger,
	})}, nil
}

// Name returns "openai-input-tokens".
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

// countBackend talks to the input-token count endpoint.
type countBackend struct {
	client *client
	model  string
	policy retry.Policy

	mu   sync.Mutex
	base map[string]int // baseline counts by scaffold key
}

func (b *countBackend) count(ctx context.Context, system string, tools []condense.Tool, input []json.RawMessage) (int, error) {
	req := responses.InputTokenCountParams{Model: openai.String(b.model)}
	if system != "" {
		req.Instructions = openai.String(system)
	}
	for _, t := range tools {
		ft := &responses.FunctionToolParam{Name: t.Name, Parameters: schemaOf(t.InputSchema)}
		if t.Description != "" {
			ft.Description = openai.String(t.Description)
		}
		req.Tools = append(req.Tools, responses.ToolUnionParam{OfFunction: ft})
	}
	// Items are built as JSON (toItems) and sent as they are, so that
	// OpenAI's own opaque items travel byte for byte.
	for _, it := range input {
		req.Input.OfResponseInputItemArray = append(req.Input.OfResponseInputItemArray,
			param.Override[responses.ResponseInputItemUnionParam](it))
	}
	var resp *responses.InputTokenCountResponse
	err := retry.Do(ctx, b.policy, func(ctx context.Context) error {
		var res *http.Response
		var err error
		resp, err = b.client.sdk.Responses.InputTokens.Count(ctx, req, option.WithResponseInto(&res))
		return classify(err, res)
	})
	if err != nil {
		return 0, err
	}
	return int(resp.InputTokens), nil
}

// schemaOf returns a tool's input schema as the SDK takes it; a schema that
// is not a JSON object counts as {"type":"object"}.
func schemaOf(raw json.RawMessage) map[string]any {
	var m map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&m); err != nil || m == nil {
		return map[string]any{"type": "object"}
	}
	return m
}

// dot is the one-character user message every count request starts with,
// so that no request has an empty input.
var dot = item(map[string]any{"type": "message", "role": "user", "content": "."})

func (b *countBackend) Overhead(ctx context.Context, system string, tools []condense.Tool) (int, error) {
	return b.count(ctx, system, tools, []json.RawMessage{dot})
}

func (b *countBackend) Message(ctx context.Context, m *condense.Message) (int, error) {
	items, answered := toItems(m)
	prefix, key := scaffold(answered)
	total, err := b.count(ctx, "", nil, append(prefix, items...))
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

// scaffold returns what precedes a message in both of its count requests:
// the one-character user message, then the function calls that outputs
// answering calls need; and a key naming it.
func scaffold(calls []string) ([]json.RawMessage, string) {
	items := []json.RawMessage{dot}
	for _, id := range calls {
		items = append(items, item(map[string]any{"type": "function_call", "call_id": id, "name": "tool", "arguments": "{}"}))
	}
	return items, strings.Join(calls, ",")
}

func item(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

// toItems converts m to Responses input items and returns the ids of the
// calls its tool results answer that m does not make itself. Text of a
// message becomes one message item of its role; tool calls become function
// calls; tool results function call outputs; thinking is counted as
// assistant text; OpenAI's opaque items travel as they are and other
// providers' as text. A message with nothing in it is counted as one
// character of its role, its framing and a token.
func toItems(m *condense.Message) ([]json.RawMessage, []string) {
	role := string(m.Role)
	if m.Role == condense.RoleTool || role == "" {
		role = "user"
	}
	var items []json.RawMessage
	var content []map[string]any // the message item's content, in order
	var texts []string           // for an assistant or system message
	made := map[string]bool{}
	var results []string
	flush := func() {
		switch {
		case role == "user" && len(content) > 0:
			items = append(items, item(map[string]any{"type": "message", "role": role, "content": content}))
		case role != "user" && len(texts) > 0:
			items = append(items, item(map[string]any{"type": "message", "role": role, "content": strings.Join(texts, "\n")}))
		}
		content, texts = nil, nil
	}
	addText := func(s string) {
		if s == "" {
			return
		}
		if role == "user" {
			content = append(content, map[string]any{"type": "input_text", "text": s})
		} else {
			texts = append(texts, s)
		}
	}
	for i := range m.Parts {
		p := &m.Parts[i]
		switch p.Type {
		case condense.PartText:
			addText(p.Text)
		case condense.PartThinking:
			addText(p.Text)
			addText(p.Redacted)
		case condense.PartImage:
			if u := imageURL(p); u != "" {
				if role == "user" {
					content = append(content, map[string]any{"type": "input_image", "image_url": u, "detail": "auto"})
				} else {
					addText(fmt.Sprintf("[image %s]", p.MediaType))
				}
			}
		case condense.PartToolCall:
			flush()
			args := string(p.Input)
			if args == "" {
				args = "{}"
			}
			items = append(items, item(map[string]any{"type": "function_call", "call_id": p.ID, "name": p.Name, "arguments": args}))
			made[p.ID] = true
		case condense.PartToolResult:
			flush()
			items = append(items, item(map[string]any{"type": "function_call_output", "call_id": p.CallID, "output": resultOutput(p.Content)}))
			results = append(results, p.CallID)
		case condense.PartProvider:
			if p.Provider == Provider && json.Valid(p.Raw) {
				flush()
				items = append(items, append(json.RawMessage(nil), p.Raw...))
			} else if len(p.Raw) > 0 {
				addText(string(p.Raw))
			}
		}
	}
	flush()
	if len(items) == 0 {
		items = append(items, item(map[string]any{"type": "message", "role": role, "content": "."}))
	}
	var answered []string
	for _, id := range results {
		if !made[id] {
			answered = append(answered, id)
		}
	}
	return items, answered
}

// resultOutput is a function call output: its text, or a list of input
// parts when it holds images.
func resultOutput(parts []condense.Part) any {
	var texts []string
	var list []map[string]any
	images := false
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			texts = append(texts, p.Text)
			list = append(list, map[string]any{"type": "input_text", "text": p.Text})
		case condense.PartImage:
			if u := imageURL(p); u != "" {
				images = true
				list = append(list, map[string]any{"type": "input_image", "image_url": u, "detail": "auto"})
			}
		}
	}
	if images {
		return list
	}
	return strings.Join(texts, "\n")
}

// imageURL returns an image's address, or its bytes as a data URL.
func imageURL(p *condense.Part) string {
	if p.URL != "" {
		return p.URL
	}
	if len(p.Data) == 0 {
		return ""
	}
	mt := p.MediaType
	if mt == "" {
		mt = "image/png"
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
}
