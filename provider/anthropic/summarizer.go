package anthropic

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/condense-dev/condense"
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

// Options configure a Summarizer, a Counter or a Client. The zero value
// reads the key and base URL from the environment and uses DefaultModel.
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
	// (0 means DefaultCountTimeout); for a Client one Send or CountTokens
	// call (0 means no bound but the context's).
	Timeout time.Duration
	// MaxRetries is the number of retries after a rate limit, an overload
	// or a server error; 0 means 3, negative means none.
	MaxRetries int
	// HTTPClient sends the requests; nil means the SDK's default client.
	HTTPClient *http.Client
	// Logger receives retries and counter fallbacks; nil means none.
	Logger *slog.Logger
	// Limits bound the summary request. Zero fields get defaults:
	// MaxPayloadBytes DefaultMaxPayloadBytes, MaxInputTokens the model's
	// window (tokens.Models) minus the output cap, or no limit when the
	// model is unknown.
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
	client    *Client
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
	if opts.Model == "" {
		opts.Model = DefaultModel
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

// Model returns the compaction model.
func (s *Summarizer) Model() string { return s.model }

// Summarize asks the model for a summary of in. The request has the
// summary system prompt (as one system block), one user message built by
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
	req := &Request{
		Request: condense.Request{
			Model:           s.model,
			MaxOutputTokens: maxTokens,
			System:          p.System,
			Messages:        []condense.Message{condense.UserText(p.User)},
		},
		SystemBlocks: []SystemBlock{{Text: p.System}},
	}
	body, err := EncodeRequest(req)
	if err != nil {
		return nil, err
	}

	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var resp *Response
	err = retry.Do(cctx, s.policy, func(ctx context.Context) error {
		var err error
		resp, err = s.client.send(ctx, req, body, nil)
		return err
	})
	if err != nil {
		return nil, retry.Deadline(ctx, err, s.timeout, "anthropic: summary request")
	}

	text, stop := resp.Text(), resp.StopReason
	if stop == "refusal" {
		return nil, &summarize.RejectedError{Reason: summarize.ErrFailed, StopReason: stop}
	}
	// model_context_window_exceeded: generation stopped at the window, which
	// truncates the summary just as max_tokens does.
	if err := summarize.Check(text, stop, resp.ToolUse(), "max_tokens", "model_context_window_exceeded"); err != nil {
		return nil, err
	}
	return &condense.Summary{
		Text:  strings.TrimSpace(text),
		Usage: resp.Usage,
		Trim:  p.Trim,
	}, nil
}

// prices is the built-in price table summaries are priced with.
var prices = tokens.DefaultPrices()
