package proxy

import (
	"bytes"
	"container/list"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// Defaults of Options.
const (
	DefaultConversations = 256
	DefaultMaxBodyBytes  = 32 << 20
	DefaultMaxConcurrent = 16
)

// The response headers the proxy adds to every answer of a request it
// compacts or could have compacted.
const (
	HeaderCompacted    = "Condense-Compacted"
	HeaderTokensBefore = "Condense-Tokens-Before"
	HeaderTokensAfter  = "Condense-Tokens-After"
	// HeaderRecallCalls counts the extra upstream calls recall made.
	HeaderRecallCalls = "Condense-Recall-Calls"
)

// Options configure a Proxy. The zero value proxies to OpenAI's and
// Anthropic's public APIs with the default compaction pipeline.
type Options struct {
	// OpenAIUpstream is the base URL of the OpenAI-compatible API, "/v1"
	// included, as OPENAI_BASE_URL takes it; "" means
	// openai.DefaultBaseURL. AnthropicUpstream is the base URL of the
	// Messages API, without "/v1", as ANTHROPIC_BASE_URL takes it; ""
	// means anthropic.DefaultBaseURL.
	OpenAIUpstream    string
	AnthropicUpstream string
	// Transport carries the upstream calls; nil means a clone of
	// http.DefaultTransport.
	Transport http.RoundTripper
	// Strategy compacts; nil means strategy.Default().
	Strategy condense.Strategy
	// Summarizer writes the summaries of the strategies that ask for one;
	// nil means the embedded extractive summarizer (no model call).
	Summarizer condense.Summarizer
	// Registry gives model windows; nil means tokens.Models. A model it
	// does not know is forwarded without a window guard (and a warning)
	// unless Settings.Window is set.
	Registry condense.Registry
	// Settings are the budget settings of every conversation (window,
	// reserved output, fraction, low-water mark); zero fields take the
	// model's and the built-in defaults.
	Settings condense.Settings
	// Conversations bounds the conversations remembered (least recently
	// used first out); 0 means DefaultConversations. With Shared, it
	// bounds those this proxy keeps ready in memory.
	Conversations int
	// Shared, when set, keeps the conversations in a store that several
	// proxies share (NewPostgresStore): replicas behind a load balancer
	// continue each other's conversations with the same checkpoints, and a
	// compaction runs once per conversation, under its lease, whichever
	// replicas see its requests. nil keeps them in this proxy's memory.
	Shared SharedStore
	// MaxBodyBytes bounds the body of a request the proxy reads to compact
	// (other requests stream through unread); 0 means DefaultMaxBodyBytes.
	// MaxConcurrent bounds the requests in flight per client (per API key);
	// 0 means DefaultMaxConcurrent.
	MaxBodyBytes  int64
	MaxConcurrent int
	// Recall adds the condense_recall tool to non-streaming requests whose
	// rendering masks content, and answers the model's calls of it from the
	// history (see the package documentation).
	Recall bool
	// Logger receives a line per compaction and the errors; nil means
	// slog.Default(). It never sees credentials or message content.
	Logger *slog.Logger
	// Metrics, when set, counts requests, compactions and tokens (see
	// NewMetrics).
	Metrics *Metrics
}

// Proxy is an http.Handler that forwards OpenAI and Anthropic API requests
// upstream, compacting the history of those that need it on the way.
type Proxy struct {
	opts      Options
	log       *slog.Logger
	strategy  condense.Strategy
	registry  condense.Registry
	openai    *url.URL
	anthropic *url.URL
	rp        *httputil.ReverseProxy
	client    *http.Client
	convs     *memory
	shared    SharedStore
	cache     *sharedCache
	// beforeLease, when set (by tests), is called before a compaction
	// waits for a conversation's lease.
	beforeLease func(conversation string)
	metrics     *Metrics
	mux         *http.ServeMux

	mu       sync.Mutex
	inFlight map[digest]int
	counters map[string]condense.Counter
}

// New returns a Proxy. An upstream URL that does not parse, or is not
// http or https, is an error.
func New(opts *Options) (*Proxy, error) {
	p := &Proxy{inFlight: map[digest]int{}, counters: map[string]condense.Counter{}}
	if opts != nil {
		p.opts = *opts
	}
	o := &p.opts
	var err error
	if p.openai, err = upstreamURL("OpenAI", o.OpenAIUpstream, openai.DefaultBaseURL); err != nil {
		return nil, err
	}
	if p.anthropic, err = upstreamURL("Anthropic", o.AnthropicUpstream, anthropic.DefaultBaseURL); err != nil {
		return nil, err
	}
	p.log = o.Logger
	if p.log == nil {
		p.log = slog.Default()
	}
	p.strategy = o.Strategy
	if p.strategy == nil {
		p.strategy = strategy.Default()
	}
	p.registry = o.Registry
	if p.registry == nil {
		p.registry = tokens.Models
	}
	if o.Conversations <= 0 {
		o.Conversations = DefaultConversations
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.MaxConcurrent <= 0 {
		o.MaxConcurrent = DefaultMaxConcurrent
	}
	if o.Transport == nil {
		o.Transport = http.DefaultTransport.(*http.Transport).Clone()
	}
	p.metrics = o.Metrics
	p.convs = newMemory(o.Conversations)
	p.shared = o.Shared
	p.cache = &sharedCache{max: o.Conversations, byID: map[string]*list.Element{}, tips: map[Link]*conversation{}}
	p.client = &http.Client{Transport: o.Transport, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	p.rp = &httputil.ReverseProxy{
		Rewrite:       p.rewrite,
		Transport:     o.Transport,
		FlushInterval: -1, // every write reaches the client at once: streams are relayed as they come
		ErrorHandler:  p.upstreamError,
		ErrorLog:      slog.NewLogLogger(p.log.Handler(), slog.LevelWarn),
	}
	p.mux = http.NewServeMux()
	p.mux.HandleFunc("POST /v1/chat/completions", p.compacting(chatAPI))
	p.mux.HandleFunc("POST /v1/responses", p.compacting(responsesAPI))
	p.mux.HandleFunc("POST /v1/messages", p.compacting(messagesAPI))
	p.mux.HandleFunc("/", p.passthrough)
	return p, nil
}

func upstreamURL(name, s, def string) (*url.URL, error) {
	if s == "" {
		s = def
	}
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("proxy: the %s upstream %q is not an http(s) URL", name, redact.String(s))
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	return u, nil
}

// ServeHTTP proxies one request.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) { p.mux.ServeHTTP(w, r) }

// Conversations returns the number of conversations the proxy remembers.
func (p *Proxy) Conversations() int { return p.convs.len() + p.cache.len() }

// target is the upstream address of a request, kept in its context.
type targetKey struct{}

// providerOf says which upstream serves a request the proxy does not
// compact: the Anthropic API for its paths and for requests that carry its
// headers, the OpenAI API otherwise.
func providerOf(r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, "/v1/messages") || r.Header.Get("Anthropic-Version") != "" || r.Header.Get("X-Api-Key") != "" {
		return anthropic.Provider
	}
	return openai.Provider
}

// upstreamFor returns the upstream URL of a request path for provider.
func (p *Proxy) upstreamFor(provider string, in *url.URL) *url.URL {
	u := *p.anthropic
	path := in.Path
	if provider == openai.Provider {
		u = *p.openai
		path = strings.TrimPrefix(path, "/v1")
	}
	u.Path += path
	u.RawPath = ""
	u.RawQuery = in.RawQuery
	return &u
}

func (p *Proxy) rewrite(pr *httputil.ProxyRequest) {
	u, _ := pr.In.Context().Value(targetKey{}).(*url.URL)
	pr.Out.URL = u
	pr.Out.Host = ""
}

// forward sends r upstream with body and relays the answer.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, provider string, body []byte) {
	// A server with a write timeout must not cut a long stream.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
	ctx := context.WithValue(r.Context(), targetKey{}, p.upstreamFor(provider, r.URL))
	out := r.Clone(ctx)
	if body != nil {
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.ContentLength = int64(len(body))
		out.Header.Del("Content-Length")
	}
	p.rp.ServeHTTP(w, out)
}

// upstreamError answers a request whose upstream call failed: nothing when
// the client went away, else a 502 in the provider's error shape.
func (p *Proxy) upstreamError(w http.ResponseWriter, r *http.Request, err error) {
	if r.Context().Err() != nil {
		return
	}
	p.log.Warn("condense proxy: upstream call failed", "path", r.URL.Path, "err", redact.Err(err))
	writeError(w, providerOf(r), http.StatusBadGateway, "the upstream API could not be reached")
}

// passthrough forwards a request the proxy does not compact, untouched.
func (p *Proxy) passthrough(w http.ResponseWriter, r *http.Request) {
	provider := providerOf(r)
	release, ok := p.admit(w, r, provider)
	if !ok {
		return
	}
	defer release()
	// The body streams through unread: no size limit (file uploads are
	// large), the upstream applies its own.
	p.metrics.request(provider, "passthrough")
	p.forward(w, r, provider, nil)
}

// admit applies the per-client limit on requests in flight.
func (p *Proxy) admit(w http.ResponseWriter, r *http.Request, provider string) (release func(), ok bool) {
	client := clientOf(r)
	p.mu.Lock()
	if p.inFlight[client] >= p.opts.MaxConcurrent {
		p.mu.Unlock()
		p.metrics.request(provider, "limited")
		writeError(w, provider, http.StatusTooManyRequests,
			fmt.Sprintf("condense proxy: more than %d requests of this client in flight", p.opts.MaxConcurrent))
		return nil, false
	}
	p.inFlight[client]++
	p.mu.Unlock()
	return func() {
		p.mu.Lock()
		if p.inFlight[client]--; p.inFlight[client] == 0 {
			delete(p.inFlight, client)
		}
		p.mu.Unlock()
	}, true
}

// compacting returns the handler of an endpoint whose requests are
// compacted.
func (p *Proxy) compacting(api *wireAPI) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		release, ok := p.admit(w, r, api.provider)
		if !ok {
			return
		}
		defer release()
		if r.Header.Get("Content-Encoding") != "" {
			// A compressed body is forwarded as it is.
			p.metrics.request(api.name, "passthrough")
			p.forward(w, r, api.provider, nil)
			return
		}
		body, err := readAll(http.MaxBytesReader(w, r.Body, p.opts.MaxBodyBytes), r.ContentLength, p.opts.MaxBodyBytes)
		if err != nil {
			var tooBig *http.MaxBytesError
			if errors.As(err, &tooBig) {
				p.metrics.request(api.name, "too_large")
				writeError(w, api.provider, http.StatusRequestEntityTooLarge,
					fmt.Sprintf("condense proxy: the request body is over %d bytes", p.opts.MaxBodyBytes))
			}
			return
		}
		client := clientOf(r)
		out, err := p.prepare(r.Context(), client, api, body)
		if err != nil {
			p.refuse(w, r, api, body, err)
			return
		}
		p.report(w, api, out)
		if p.opts.Recall && out.masked && !streaming(body) {
			p.recall(w, r, api, out)
			return
		}
		p.forward(w, r, api.provider, out.body)
	}
}

// refuse answers a request the preflight did not let through: one that
// cannot fit is answered with the provider's own error and never sent; a
// history the codec cannot read or that breaks turn safety is forwarded as
// it came, for the upstream to judge.
func (p *Proxy) refuse(w http.ResponseWriter, r *http.Request, api *wireAPI, body []byte, err error) {
	var we *condense.WindowError
	switch {
	case errors.As(err, &we):
		p.metrics.request(api.name, "too_long")
		p.log.Warn("condense proxy: request cannot fit; not sent", "api", api.name, "model", we.Model,
			"tokens", we.Tokens, "input_limit", we.InputLimit, "window", we.Window)
		msg := fmt.Sprintf("prompt is too long: %d tokens > %d maximum (condense proxy: the history does not fit the input limit of %s even after compaction; window %d tokens)",
			we.Tokens, we.InputLimit, we.Model, we.Window)
		writeError(w, api.provider, http.StatusBadRequest, msg)
	case r.Context().Err() != nil:
	default:
		p.metrics.request(api.name, "unread")
		p.log.Warn("condense proxy: forwarding a request it could not compact", "api", api.name, "err", redact.Err(err))
		p.forward(w, r, api.provider, body)
	}
}

// report sets the response headers of a prepared request, counts it and
// logs its compactions.
func (p *Proxy) report(w http.ResponseWriter, api *wireAPI, out *outcome) {
	if out.conv == nil {
		p.metrics.request(api.name, "forwarded")
		return
	}
	h := w.Header()
	h.Set(HeaderCompacted, strconv.FormatBool(out.compacted))
	h.Set(HeaderTokensBefore, strconv.Itoa(out.before))
	h.Set(HeaderTokensAfter, strconv.Itoa(out.after))
	outcome := "forwarded"
	if out.compacted {
		outcome = "compacted"
	}
	p.metrics.request(api.name, outcome)
	p.metrics.tokens(api.name, out.before, out.after)
	for _, rec := range out.records {
		p.metrics.compaction(api.name, rec.Strategy)
		p.log.Info("condense proxy: compacted", "api", api.name, "conversation", out.conv.id, "model", out.req.Model,
			"checkpoint", rec.Checkpoint, "strategy", rec.Strategy,
			"tokens_before", rec.TokensBefore, "tokens_after", rec.TokensAfter,
			"messages_before", rec.MessagesBefore, "messages_after", rec.MessagesAfter)
	}
}

// maxCounters bounds the counters kept by model name.
const maxCounters = 64

// counterFor returns the token counter of a model, shared by its
// conversations (counters cache per message).
func (p *Proxy) counterFor(model string) condense.Counter {
	p.mu.Lock()
	defer p.mu.Unlock()
	c, ok := p.counters[model]
	if !ok {
		c = tokens.ForModel(model, p.registry)
		if len(p.counters) < maxCounters { // model names come from clients: keep the map bounded
			p.counters[model] = c
		}
	}
	return c
}

// streaming reports whether a request body asks for a streamed answer.
func streaming(body []byte) bool {
	return gjsonBool(body, "stream")
}

// readAll reads a body, in one allocation when its length is known.
func readAll(r io.Reader, n, limit int64) ([]byte, error) {
	if n <= 0 || n > limit {
		return io.ReadAll(r)
	}
	buf := bytes.NewBuffer(make([]byte, 0, n+1))
	_, err := buf.ReadFrom(r)
	return buf.Bytes(), err
}
