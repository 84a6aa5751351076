package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/httpx"
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
	// Limits bound the summary request (DESIGN B15). Zero fields get
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

	// sleep replaces the retry wait in tests.
	sleep func(context.Context, time.Duration) error
}

// Summarizer summarizes history through the Chat Completions API, which
// OpenAI and OpenAI-compatible servers (Ollama, vLLM, llama.cpp, LiteLLM)
// all serve. It implements condense.Summarizer and is safe for concurrent
// use.
type Summarizer struct {
	client    *client
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
	client, err := newClient(&opts)
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

// client sends requests to an OpenAI-compatible API through the official
// SDK.
type client struct {
	sdk openai.Client
}

// newClient resolves the key, base URL and model of opts in place and
// builds the SDK client. The key and base URL resolved here override what
// the SDK reads from the environment, and the SDK makes no retries of its
// own: retry.Do is the only retry loop, so that every answer is classified
// alike and Retry-After is honoured exactly.
func newClient(opts *Options) (*client, error) {
	if opts.APIKey == "" {
		opts.APIKey = os.Getenv(EnvAPIKey)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = os.Getenv(EnvBaseURL)
	}
	if opts.APIKey == "" && opts.BaseURL == "" {
		return nil, fmt.Errorf("openai: no API key: set Options.APIKey or $%s (a local server given by base URL needs none)", EnvAPIKey)
	}
	if opts.BaseURL == "" {
		opts.BaseURL = DefaultBaseURL
	}
	if opts.Model == "" {
		opts.Model = DefaultModel
	}
	ro := []option.RequestOption{
		option.WithBaseURL(opts.BaseURL),
		// An empty key sends no Authorization header: local servers
		// need none.
		option.WithAPIKey(opts.APIKey),
		option.WithMaxRetries(0),
		option.WithMiddleware(httpx.JSONAnswers),
	}
	if opts.HTTPClient != nil {
		ro = append(ro, option.WithHTTPClient(opts.HTTPClient))
	}
	return &client{sdk: openai.NewClient(ro...)}, nil
}

// classify maps an error answer to a *condense.APIError. res is the
// answer the SDK saw (option.WithResponseInto): its body is read whatever
// its shape, as the SDK builds an *openai.Error only from OpenAI's own
// ({"error": {…}}), not from vLLM's or a proxy's. Other errors (transport,
// context) are returned as they are.
func classify(err error, res *http.Response) error {
	if err == nil {
		return nil
	}
	var oe *openai.Error
	if errors.As(err, &oe) && oe.Response != nil {
		res = oe.Response
	}
	if res == nil || res.StatusCode < 400 {
		return err
	}
	var body []byte
	if res.Body != nil {
		body, _ = io.ReadAll(io.LimitReader(res.Body, httpx.MaxResponseBytes))
	}
	typ, code, msg := parseError(body)
	return retry.Classify(Provider, res.StatusCode, typ, code, msg, res.Header)
}

// Model returns the compaction model.
func (s *Summarizer) Model() string { return s.model }

// Summarize asks the model for a summary of in (DESIGN B14–B16). The request
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
	params := openai.ChatCompletionNewParams{
		Model: s.model,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(p.System),
			openai.UserMessage(p.User),
		},
	}
	if s.legacy {
		params.MaxTokens = openai.Int(int64(maxTokens))
	} else {
		params.MaxCompletionTokens = openai.Int(int64(maxTokens))
	}

	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var resp *openai.ChatCompletion
	err = retry.Do(cctx, s.policy, func(ctx context.Context) error {
		var res *http.Response
		var err error
		resp, err = s.client.sdk.Chat.Completions.New(ctx, params, option.WithResponseInto(&res))
		return classify(err, res)
	})
	if err != nil {
		return nil, retry.Deadline(ctx, err, s.timeout, "openai: summary request")
	}
	if len(resp.Choices) == 0 {
		return nil, &summarize.RejectedError{Reason: summarize.ErrEmpty}
	}
	c := resp.Choices[0]
	finish := c.FinishReason
	if finish == "content_filter" || (c.Message.Refusal != "" && len(c.Message.ToolCalls) == 0) {
		return nil, &summarize.RejectedError{Reason: summarize.ErrFailed, StopReason: finish}
	}
	toolCalls := len(c.Message.ToolCalls) > 0 || c.Message.JSON.FunctionCall.Valid() ||
		finish == "tool_calls" || finish == "function_call"
	if err := summarize.Check(c.Message.Content, finish, toolCalls, "length"); err != nil {
		return nil, err
	}
	return &condense.Summary{
		Text:  strings.TrimSpace(c.Message.Content),
		Usage: usage(resp, s.model),
		Trim:  p.Trim,
	}, nil
}

// parseError reads the error answers of OpenAI ({"error": {"message",
// "type", "code"}}), Ollama (the same shape) and vLLM ({"object": "error",
// "message", "type", "code"}); for any other body the message is the body.
func parseError(body []byte) (typ, code, msg string) {
	var e struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body, &e) != nil {
		return "", "", strings.TrimSpace(string(body))
	}
	var inner struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if len(e.Error) > 0 && json.Unmarshal(e.Error, &inner) == nil && inner.Message != "" {
		return inner.Type, rawString(inner.Code), inner.Message
	}
	var s string
	if len(e.Error) > 0 && json.Unmarshal(e.Error, &s) == nil && s != "" {
		return "", "", s // {"error": "model not found"}
	}
	if e.Message != "" {
		return e.Type, rawString(e.Code), e.Message
	}
	return "", "", strings.TrimSpace(string(body))
}

// rawString returns a JSON string's value, or a number's text; "" for null.
func rawString(r json.RawMessage) string {
	var s string
	if json.Unmarshal(r, &s) == nil {
		return s
	}
	if t := strings.TrimSpace(string(r)); t != "null" {
		return t
	}
	return ""
}

// usage returns the usage of r. Prompt tokens include the cached ones,
// which are billed at the cached price.
func usage(r *openai.ChatCompletion, requested string) condense.Usage {
	model := r.Model
	if model == "" {
		model = requested
	}
	u := r.Usage
	in, cached, out := int(u.PromptTokens), int(u.PromptTokensDetails.CachedTokens), int(u.CompletionTokens)
	cu := condense.Usage{
		Provider:        Provider,
		Model:           model,
		InputTokens:     in,
		OutputTokens:    out,
		CacheReadTokens: cached,
	}
	cu.CostUSD = prices.Cost(model, cu)
	return cu
}

// prices is the built-in price table summaries are priced with.
var prices = tokens.DefaultPrices()
