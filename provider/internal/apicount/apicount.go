// Package apicount is what the API-backed counters of the provider packages
// share: a bounded, concurrency-safe cache of counts per message
// fingerprint and per system-and-tools, the heuristic fallback when the API
// cannot answer, and the OnCount hook that lets exact counts correct an
// offline counter.
package apicount

import (
	"container/list"
	"context"
	"errors"
	"hash/fnv"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
)

// Defaults of Config.
const (
	DefaultTimeout   = 10 * time.Second
	DefaultCacheSize = 16384
	// Cooldown is how long counting uses the fallback alone after a
	// transient failure (rate limit, overload, network, timeout).
	Cooldown = 30 * time.Second
)

// ErrUnsupported is returned by a Backend for a message it cannot put in a
// valid request (a tool result in an assistant message); the fallback counts
// it, and that count is cached like an exact one.
var ErrUnsupported = errors.New("message cannot be sent to the count API")

// Backend counts through a provider's API.
type Backend interface {
	// Message returns the tokens of m, its framing included.
	Message(ctx context.Context, m *condense.Message) (int, error)
	// Overhead returns the tokens of the system text, the tools and the
	// request's framing.
	Overhead(ctx context.Context, system string, tools []condense.Tool) (int, error)
}

// Config configures a Counter.
type Config struct {
	Name     string
	Backend  Backend
	Fallback condense.Counter
	// Timeout bounds one count request, retries included.
	Timeout time.Duration
	// CacheSize bounds the cached message counts; the least recently used
	// are evicted.
	CacheSize int
	OnCount   func(estimated, exact int)
	Logger    *slog.Logger
	// Now replaces the clock in tests.
	Now func() time.Time
}

// Stats says how a Counter has answered.
type Stats struct {
	// Requests counts successful count requests (each may be two API calls
	// when a baseline was not yet cached).
	Requests int64
	// Hits counts answers from the cache.
	Hits int64
	// Fallbacks counts answers from the fallback counter.
	Fallbacks int64
}

// Counter is an exact condense.Counter backed by an API.
type Counter struct {
	cfg Config

	mu       sync.Mutex
	msgs     *lru
	overhead map[uint64]int
	until    time.Time // no API calls before this (cooldown)
	disabled bool
	logged   bool
	stats    Stats
}

// New returns a Counter.
func New(cfg Config) *Counter {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.CacheSize <= 0 {
		cfg.CacheSize = DefaultCacheSize
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Counter{cfg: cfg, msgs: newLRU(cfg.CacheSize), overhead: map[uint64]int{}}
}

// Name returns the counter's name.
func (c *Counter) Name() string { return c.cfg.Name }

// Exact reports true: counts come from the provider's own tokenizer. A
// count from the fallback is an over-estimate, never an under-count.
func (c *Counter) Exact() bool { return true }

// Stats returns how the counter has answered so far.
func (c *Counter) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// CountMessage returns the tokens of m: from the cache when m (by
// condense.Fingerprint) was counted before, else from the API, else from the
// fallback.
func (c *Counter) CountMessage(m *condense.Message) int {
	key := condense.Fingerprint(m)
	c.mu.Lock()
	if n, ok := c.msgs.get(key); ok {
		c.stats.Hits++
		c.mu.Unlock()
		return n
	}
	c.mu.Unlock()
	n, cache := c.count(func(ctx context.Context) (int, error) { return c.cfg.Backend.Message(ctx, m) },
		func() int { return c.cfg.Fallback.CountMessage(m) })
	if cache {
		c.mu.Lock()
		c.msgs.put(key, n)
		c.mu.Unlock()
	}
	return n
}

// CountOverhead returns the tokens of the system text, the tools and the
// request's framing, cached by their content.
func (c *Counter) CountOverhead(system string, tools []condense.Tool) int {
	key := overheadKey(system, tools)
	c.mu.Lock()
	if n, ok := c.overhead[key]; ok {
		c.stats.Hits++
		c.mu.Unlock()
		return n
	}
	c.mu.Unlock()
	n, cache := c.count(func(ctx context.Context) (int, error) { return c.cfg.Backend.Overhead(ctx, system, tools) },
		func() int { return c.cfg.Fallback.CountOverhead(system, tools) })
	if cache {
		c.mu.Lock()
		if len(c.overhead) >= 64 { // a handful of system prompts in practice
			clear(c.overhead)
		}
		c.overhead[key] = n
		c.mu.Unlock()
	}
	return n
}

// count asks the API unless it is disabled or cooling down, and falls back
// on failure. cache says whether the answer may be cached: exact counts and
// fallbacks for requests the API rejected as such, not fallbacks for
// transient failures.
func (c *Counter) count(api func(context.Context) (int, error), fallback func() int) (n int, cache bool) {
	c.mu.Lock()
	skip := c.disabled || c.cfg.Now().Before(c.until)
	c.mu.Unlock()
	if skip {
		return c.fallback(fallback), false
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.Timeout)
	exact, err := api(ctx)
	cancel()
	if err == nil {
		c.mu.Lock()
		c.stats.Requests++
		c.mu.Unlock()
		if c.cfg.OnCount != nil {
			c.cfg.OnCount(fallback(), exact)
		}
		return exact, true
	}
	permanent, perMessage := c.classify(err)
	c.mu.Lock()
	first := !c.logged
	c.logged = true
	switch {
	case permanent:
		c.disabled = true
	case !perMessage:
		c.until = c.cfg.Now().Add(Cooldown)
	}
	c.mu.Unlock()
	level := slog.LevelDebug
	if first || permanent {
		level = slog.LevelWarn
	}
	c.cfg.Logger.Log(context.Background(), level, "token count API failed; using the heuristic counter",
		slog.String("counter", c.cfg.Name), slog.String("fallback", c.cfg.Fallback.Name()),
		slog.Bool("disabled", permanent), slog.Any("error", redact.Err(err)))
	return c.fallback(fallback), perMessage
}

func (c *Counter) fallback(f func() int) int {
	c.mu.Lock()
	c.stats.Fallbacks++
	c.mu.Unlock()
	return f()
}

// classify says whether err disables the API for good (bad key, or a
// server without the count endpoint) or concerns this request alone (the
// API rejected what was sent); else it is transient.
func (c *Counter) classify(err error) (permanent, perMessage bool) {
	if errors.Is(err, ErrUnsupported) {
		return false, true
	}
	var api *condense.APIError
	if !errors.As(err, &api) {
		return false, false
	}
	switch {
	case api.Kind == condense.ErrAuth,
		api.Status == http.StatusNotFound, api.Status == http.StatusMethodNotAllowed,
		api.Status == http.StatusNotImplemented:
		return true, false
	case api.Kind == nil && api.Status >= 400 && api.Status < 500:
		return false, true
	}
	return false, false
}

func overheadKey(system string, tools []condense.Tool) uint64 {
	h := fnv.New64a()
	write := func(s string) {
		var n [8]byte
		for i := range n {
			n[i] = byte(len(s) >> (8 * i))
		}
		h.Write(n[:])
		h.Write([]byte(s))
	}
	write(system)
	for _, t := range tools {
		write(t.Name)
		write(t.Description)
		write(string(t.InputSchema))
	}
	return h.Sum64()
}

// lru is a least-recently-used map of counts. Not safe for concurrent use:
// the Counter's mutex guards it.
type lru struct {
	size  int
	order *list.List // front = most recent; values are *entry
	items map[uint64]*list.Element
}

type entry struct {
	key uint64
	n   int
}

func newLRU(size int) *lru {
	return &lru{size: size, order: list.New(), items: make(map[uint64]*list.Element)}
}

func (l *lru) get(key uint64) (int, bool) {
	e, ok := l.items[key]
	if !ok {
		return 0, false
	}
	l.order.MoveToFront(e)
	return e.Value.(*entry).n, true
}

func (l *lru) put(key uint64, n int) {
	if e, ok := l.items[key]; ok {
		e.Value.(*entry).n = n
		l.order.MoveToFront(e)
		return
	}
	l.items[key] = l.order.PushFront(&entry{key: key, n: n})
	for l.order.Len() > l.size {
		last := l.order.Back()
		l.order.Remove(last)
		delete(l.items, last.Value.(*entry).key)
	}
}

func (l *lru) len() int { return l.order.Len() }
