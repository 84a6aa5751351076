package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/httpx"
	"github.com/condense-dev/condense/provider/internal/retry"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

// Provider is the provider name in usage records and errors.
const Provider = "anthropic"

// DefaultModel is the compaction model when Options.Model is empty: the
// cheapest current Claude model, which summarizes well.
const DefaultModel = "claude-haiku-4-5"

// DefaultMaxPayloadBytes is the Messages API's request size limit (32 MB,
// Anthropic "API overview", request size limits).
const DefaultMaxPayloadBytes = 32_000_000

// Environment variables read when the matching option is empty.
const (
	EnvAPIKey  = "ANTHROPIC_API_KEY"
	EnvBaseURL = "ANTHROPIC_BASE_URL"
)

// DefaultBaseURL is the API's address when neither Options.BaseURL nor
// $ANTHROPIC_BASE_URL is set. Paths ("/v1/messages") are appended to it.
const DefaultBaseURL = "https://api.anthropic.com"

// APIVersion is the anthropic-version header sent with every request: the
// API version of anthropic-sdk-go v2, which sends it.
const APIVersion = "2026-10-21"

// Options configure a Summarizer or a Counter. The zero value reads the key
// and base URL from the environment and uses DefaultModel.
type Options struct {
	// APIKey authenticates; "" means $ANTHROPIC_API_KEY.
	APIKey string
	// BaseURL is the API's address, without "/v1"; "" means
	// $ANTHROPIC_BASE_URL, else DefaultBaseURL.
	BaseURL string
	// Model is the compaction model; "" means DefaultModel. It may be a
	// cheaper model than the agent's own.
	Model string
	// MaxOutputTokens caps a summary when Input.MaxOutputTokens is 0; the
	// cap is never above summarize.DefaultMaxOutput nor ModelMaxOutput.
	MaxOutputTokens int
	// ModelMaxOutput is the model's own output limit; 0 means the figure of
	// tokens.Models, or none when the model is unknown.
	ModelMaxOutput int
	// Timeout bounds one Summarize call, retries and waits included; 0 means
	// summarize.DefaultTimeout. For a Counter it bounds one count request
	// (0 means DefaultCountTimeout).
	Timeout time.Duration
	// MaxRetries is the number of retries after a rate limit, an overload
	// or a server error; 0 means 3, negative means none.
	MaxRetries int
	// HTTPClient sends the requests; nil means http.DefaultClient.
	HTTPClient *http.Client
	// Logger receives retries and counter fallbacks; nil means none.
	Logger *slog.Logger
	// Limits bound the summary request (DESIGN B15). Zero fields get
	// defaults: MaxPayloadBytes DefaultMaxPayloadBytes, MaxInputTokens the
	// model's window (tokens.Models) minus the output cap, or no limit when
	// the model is unknown.
	Limits summarize.Limits

	// OnCount, for a Counter, receives every count the API answered with
	// the fallback heuristic's estimate of the same message or overhead:
	// feed it to a tokens.Calibration to correct the offline counter. It
	// may be called from several goroutines at once.
	OnCount func(estimated, exact int)
	// CacheSize, for a Counter, bounds the cached message counts; 0 means
	// 16,384.
	CacheSize int

	// sleep replaces the retry wait in tests.
	sleep func(context.Context, time.Duration) error
}

// Summarizer summarizes history with a Claude model through the Messages
// API. It implements condense.Summarizer and is safe for concurrent use.
type Summarizer struct {
	client    *client
	model     string
	maxOutput int
	modelMax  int
	window    int
	timeout   time.Duration
	limits    summarize.Limits
	policy    retry.Policy
	logger    *slog.Logger
}

var _ condense.Summarizer = (*Summarizer)(nil)

// New returns a Summarizer. It fails when no API key is given or set in the
// environment.
func New(opts Options) (*Summarizer, error) {
	client, err := newClient(&opts)
	if err != nil {
		return nil, err
	}
	s := &Summarizer{
		client:    client,
		model:     opts.Model,
		maxOutput: opts.MaxOutputTokens,
		modelMax:  opts.ModelMaxOutput,
		timeout:   opts.Timeout,
		limits:    opts.Limits,
		logger:    opts.Logger,
	}
	if info, ok := tokens.Models.Lookup(s.model); ok {
		s.window = info.Window
		if s.modelMax <= 0 {
			s.modelMax = info.MaxOutput
		}
	}
	if s.timeout <= 0 {
		s.timeout = summarize.DefaultTimeout
	}
	if s.limits.MaxPayloadBytes <= 0 {
		s.limits.MaxPayloadBytes = DefaultMaxPayloadBytes
	}
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	s.policy = retry.Policy{MaxRetries: opts.MaxRetries, Sleep: opts.sleep, Logger: s.logger}
	return s, nil
}

// client sends requests to the Messages API through the official SDK.
type client struct {
	sdk anthropic.Client
}

// newClient resolves the key, base URL and model of opts in place and
// builds the SDK client. The SDK reads nothing from the environment (the
// key and base URL are resolved here, from Options or the two variables)
// and makes no retries of its own: retry.Do is the only retry loop, so that
// every answer is classified alike and Retry-After is honoured exactly.
func newClient(opts *Options) (*client, error) {
	if opts.APIKey == "" {
		opts.APIKey = os.Getenv(EnvAPIKey)
	}
	if opts.APIKey == "" {
		return nil, fmt.Errorf("anthropic: no API key: set Options.APIKey or $%s", EnvAPIKey)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = os.Getenv(EnvBaseURL)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	if opts.Model == "" {
		opts.Model = DefaultModel
	}
	ro := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(opts.BaseURL),
		// The key travels as x-api-key, which the API, proxies and
		// gateways all take, rather than as a bearer token.
		option.WithHeader("X-Api-Key", opts.APIKey),
		option.WithMaxRetries(0),
		option.WithMiddleware(httpx.JSONAnswers),
	}
	if opts.HTTPClient != nil {
		ro = append(ro, option.WithHTTPClient(opts.HTTPClient))
	}
	return &client{sdk: anthropic.NewClient(ro...)}, nil
}

// classify maps an error answer of the SDK (*anthropic.Error) to a
// *condense.APIError; other errors (transport, context) are returned as
// they are.
func classify(err error) error {
	var ae *anthropic.Error
	if !errors.As(err, &ae) {
		return err
	}
	raw := []byte(ae.RawJSON())
	var body errorBody
	msg := strings.TrimSpace(string(raw))
	if json.Unmarshal(raw, &body) == nil && body.Error.Message != "" {
		msg = body.Error.Message
	}
	var h http.Header
	if ae.Response != nil {
		h = ae.Response.Header
	}
	return retry.Classify(Provider, ae.StatusCode, body.Error.Type, "", msg, h)
}

// errorBody is the Messages API's error answer.
type errorBody struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// Model returns the compaction model.
func (s *Summarizer) Model() string { return s.model }

// Summarize asks the model for a summary of in (DESIGN B14–B16). The request
// has the summary system prompt, one user message built by
// summarize.BuildPrompt, no tools, and an output cap of
// summarize.OutputCap. Responses that stop at max tokens, call a tool, are
// empty or refused are rejected with a *summarize.RejectedError; provider
// errors are *condense.APIError; a timeout unwraps to
// context.DeadlineExceeded and a cancellation to context.Canceled.
func (s *Summarizer) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	requested := in.MaxOutputTokens
	if requested <= 0 {
		requested = s.maxOutput
	}
	maxTokens := summarize.OutputCap(requested, s.modelMax)
	lim := s.limits
	if lim.MaxInputTokens <= 0 && s.window > 0 {
		lim.MaxInputTokens = max(0, s.window-maxTokens)
	}
	p, err := summarize.BuildPrompt(in, lim)
	if err != nil {
		return nil, err
	}
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(s.model),
		MaxTokens: int64(maxTokens),
		System:    []anthropic.TextBlockParam{{Text: p.System}},
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(p.User))},
	}

	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var resp *anthropic.Message
	err = retry.Do(cctx, s.policy, func(ctx context.Context) error {
		var err error
		resp, err = s.client.sdk.Messages.New(ctx, params)
		return classify(err)
	})
	if err != nil {
		return nil, retry.Deadline(ctx, err, s.timeout, "anthropic: summary request")
	}

	text, toolUse := responseText(resp)
	stop := string(resp.StopReason)
	if resp.StopReason == anthropic.StopReasonRefusal {
		return nil, &summarize.RejectedError{Reason: summarize.ErrFailed, StopReason: stop}
	}
	// model_context_window_exceeded: generation stopped at the window, which
	// truncates the summary just as max_tokens does.
	if err := summarize.Check(text, stop, toolUse, "max_tokens", "model_context_window_exceeded"); err != nil {
		return nil, err
	}
	return &condense.Summary{
		Text:  strings.TrimSpace(text),
		Usage: usage(resp, s.model),
		Trim:  p.Trim,
	}, nil
}

// responseText joins the text blocks of r and says whether any block is a
// tool use, of a client, server or MCP tool.
func responseText(r *anthropic.Message) (string, bool) {
	var b strings.Builder
	toolUse := false
	for _, c := range r.Content {
		switch c.Type {
		case "text":
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		case "tool_use", "server_tool_use", "mcp_tool_use":
			toolUse = true
		}
	}
	return b.String(), toolUse
}

// usage returns the usage of r. Input tokens include the cache writes and
// reads, which are billed input too.
func usage(r *anthropic.Message, requested string) condense.Usage {
	model := string(r.Model)
	if model == "" {
		model = requested
	}
	u := r.Usage
	in, write, read, out := int(u.InputTokens), int(u.CacheCreationInputTokens), int(u.CacheReadInputTokens), int(u.OutputTokens)
	cu := condense.Usage{
		Provider:         Provider,
		Model:            model,
		InputTokens:      in + write + read,
		OutputTokens:     out,
		CacheReadTokens:  read,
		CacheWriteTokens: write,
	}
	cu.CostUSD = prices.Cost(model, cu)
	return cu
}

// prices is the built-in price table summaries are priced with.
var prices = tokens.DefaultPrices()
