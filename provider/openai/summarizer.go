package openai

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/retry"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

// Provider is the provider name in usage records and errors.
const Provider = "openai"

// DefaultModel is the compaction model when Options.Model is empty: a
// cheap, fast model that follows the summary format well and is not a
// reasoning model (reasoning tokens would eat the output cap).
const DefaultModel = "gpt-4o-mini"

// DefaultBaseURL is the API's address when neither Options.BaseURL nor
// $OPENAI_BASE_URL is set. Like the official SDKs, it ends in "/v1": an
// OpenAI-compatible server is given as "http://localhost:11434/v1" (Ollama)
// or "http://localhost:8000/v1" (vLLM).
const DefaultBaseURL = "https://api.openai.com/v1"

// Environment variables read when the matching option is empty.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
)

// Options configure a Summarizer or a Counter. The zero value reads the key
// and base URL from the environment and uses DefaultModel.
type Options struct {
	// APIKey authenticates; "" means $OPENAI_API_KEY. It may stay empty
	// when a base URL is set: local OpenAI-compatible servers need none.
	APIKey string
	// BaseURL is the API's address, "/v1" included; "" means
	// $OPENAI_BASE_URL, else DefaultBaseURL.
	BaseURL string
	// Model is the compaction model; "" means DefaultModel. It may be a
	// cheaper model than the agent's own, or any model a compatible server
	// serves ("llama3.1:8b").
	Model string
	// MaxOutputTokens caps a summary when Input.MaxOutputTokens is 0; the
	// cap is never above summarize.DefaultMaxOutput nor ModelMaxOutput.
	MaxOutputTokens int
	// ModelMaxOutput is the model's own output limit; 0 means the figure of
	// tokens.Models, or none when the model is unknown.
	ModelMaxOutput int
	// LegacyMaxTokens sends the cap as "max_tokens" instead of
	// "max_completion_tokens", for servers that know only the old name.
	// OpenAI's reasoning models reject "max_tokens".
	LegacyMaxTokens bool
	// Timeout bounds one Summarize call, retries and waits included; 0 means
	// summarize.DefaultTimeout. For a Counter it bounds one count request
	// (0 means DefaultCountTimeout).
	Timeout time.Duration
	// MaxRetries is the number of retries after a rate limit, an overload
	// or a server error; 0 means 3, negative means none.
	MaxRetries int
	// HTTPClient sends the requests; nil means the SDK's default client (a
	// clone of http.DefaultTransport).
	HTTPClient *http.Client
	// Logger receives retries and counter fallbacks; nil means none.
	Logger *slog.Logger
	// Limits bound the summary request, so that it never overflows the
	// compaction model's window nor the server's size limit. Zero fields get
	// defaults: MaxInputTokens is the model's window (tokens.Models) minus
	// the output cap, or no limit when the model is unknown (set it for a
	// local model: Ollama's default context is small). OpenAI publishes no
	// request size limit for chat completions, so MaxPayloadBytes has no
	// default.
	Limits summarize.Limits

	// OnCount, for a Counter, receives every count the API answered with
	// the fallback heuristic's estimate of the same message or overhead:
	// feed it to a tokens.Calibration to correct the offline counter. It
	// may be called from several goroutines at once.
	OnCount func(estimated, exact int)
	// CacheSize, for a Counter, bounds the cached message counts; 0 means
	// 16,384.
	CacheSize int
	// API, for a Counter, selects how it counts: APIResponses (the
	// default: the free input-token count endpoint) or APIChat (the usage
	// of a one-token chat completion, for compatible servers without that
	// endpoint). A Summarizer always uses Chat Completions, which every
	// compatible server speaks.
	API API

	// sleep replaces the retry wait in tests.
	sleep func(context.Context, time.Duration) error
}

// Summarizer summarizes history through the Chat Completions API, which
// OpenAI and OpenAI-compatible servers (Ollama, vLLM, llama.cpp, LiteLLM)
// all serve. It implements condense.Summarizer and is safe for concurrent
// use.
type Summarizer struct {
	client    *Client
	model     string
	maxOutput int
	modelMax  int
	window    int
	legacy    bool
	timeout   time.Duration
	limits    summarize.Limits
	policy    retry.Policy
	logger    *slog.Logger
}

var _ condense.Summarizer = (*Summarizer)(nil)

// New returns a Summarizer. It fails when no API key is given or set in the
// environment, unless a base URL is: local servers need no key.
func New(opts Options) (*Summarizer, error) {
	client, err := resolve(&opts)
	if err != nil {
		return nil, err
	}
	s := &Summarizer{
		client:    client,
		model:     opts.Model,
		maxOutput: opts.MaxOutputTokens,
		modelMax:  opts.ModelMaxOutput,
		legacy:    opts.LegacyMaxTokens,
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
	if s.logger == nil {
		s.logger = slog.New(slog.DiscardHandler)
	}
	s.policy = retry.Policy{MaxRetries: opts.MaxRetries, Sleep: opts.sleep, Logger: s.logger}
	return s, nil
}

// resolve fills in the key, base URL and model of opts from the
// environment and the defaults, and builds the client. The key and base
// URL resolved here override what the SDK reads from the environment, and
// the SDK makes no retries of its own: retry.Do is the only retry loop, so
// that every answer is classified alike and Retry-After is honoured
// exactly.
func resolve(opts *Options) (*Client, error) {
	if opts.APIKey == "" {
		opts.APIKey = os.Getenv(EnvAPIKey)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = os.Getenv(EnvBaseURL)
	}
	if opts.APIKey == "" && opts.BaseURL == "" {
		return nil, fmt.Errorf("openai: no API key: set Options.APIKey or $%s (a local server given by base URL needs none)", EnvAPIKey)
	}
	if opts.Model == "" {
		opts.Model = DefaultModel
	}
	return NewClient(ClientOptions{APIKey: opts.APIKey, BaseURL: opts.BaseURL, HTTPClient: opts.HTTPClient, MaxRetries: -1}), nil
}

// Model returns the compaction model.
func (s *Summarizer) Model() string { return s.model }

// Summarize asks the model for a summary of in. The request
// has the summary system prompt, one user message built by
// summarize.BuildPrompt, no tools, and an output cap of
// summarize.OutputCap. Responses cut at the cap (finish reason "length"),
// calling a tool, empty, filtered ("content_filter") or refused are
// rejected with a *summarize.RejectedError; provider errors are
// *condense.APIError; a timeout unwraps to context.DeadlineExceeded and a
// cancellation to context.Canceled.
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
	req := &ChatRequest{
		Request: condense.Request{
			Model:           s.model,
			System:          p.System,
			Messages:        []condense.Message{condense.UserText(p.User)},
			MaxOutputTokens: maxTokens,
		},
		LegacyMaxTokens: s.legacy,
	}

	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var resp *ChatResponse
	err = retry.Do(cctx, s.policy, func(ctx context.Context) error {
		var err error
		resp, err = s.client.Chat(ctx, req)
		return err
	})
	if err != nil {
		return nil, retry.Deadline(ctx, err, s.timeout, "openai: summary request")
	}
	if resp.Choices == 0 {
		return nil, &summarize.RejectedError{Reason: summarize.ErrEmpty}
	}
	finish := resp.FinishReason
	if finish == "content_filter" || (resp.Refusal != "" && !resp.Message.HasToolCalls()) {
		return nil, &summarize.RejectedError{Reason: summarize.ErrFailed, StopReason: finish}
	}
	toolCalls := resp.Message.HasToolCalls() || finish == "tool_calls" || finish == "function_call"
	content := resp.Message.TextContent()
	if err := summarize.Check(content, finish, toolCalls, "length"); err != nil {
		return nil, err
	}
	return &condense.Summary{
		Text:  strings.TrimSpace(content),
		Usage: usage(resp.Usage, resp.Model, s.model),
		Trim:  p.Trim,
	}, nil
}

// usage returns a summary's usage, priced: the answering model's name
// when the server gave one, else the requested one. Input tokens include
// the cached ones, which are billed at the cached price.
func usage(u condense.Usage, answered, requested string) condense.Usage {
	model := answered
	if model == "" {
		model = requested
	}
	u.Provider, u.Model = Provider, model
	u.CacheWriteTokens = 0
	u.CostUSD = prices.Cost(model, u)
	return u
}

// prices is the built-in price table summaries are priced with.
var prices = tokens.DefaultPrices()
