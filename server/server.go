package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
)

// DefaultMaxBodyBytes bounds a request body (Options.MaxBodyBytes).
const DefaultMaxBodyBytes = 32 << 20

// Options configure a Server. The zero value is ready to use: no auth (the
// caller listens on loopback), the extractive summarizer, the fake model
// only, no tools.
type Options struct {
	// Logger receives the access log and warnings; nil means
	// slog.Default().
	Logger *slog.Logger
	// Tokens maps each bearer token to the name of its owner. When it is
	// not empty every request needs a token (or the cookie of a login),
	// and each owner sees only the sessions it created.
	Tokens map[string]string
	// MaxBodyBytes bounds request bodies; 0 means DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// EventsKept is how many events each session keeps for reconnecting
	// clients; 0 means DefaultEventsKept.
	EventsKept int
	// NewModel returns the model client of hosted runs for a session's
	// provider and model name. nil serves the "fake" provider only.
	NewModel func(provider, model string) (agent.Model, error)
	// DefaultProvider is the provider of sessions that name none; ""
	// means "fake".
	DefaultProvider string
	// NewSummarizer returns the summarizer of a session whose summarizer is
	// "model", for renders and manual compactions (hosted runs ask the
	// run's model). nil means such sessions summarize extractively outside
	// hosted runs.
	NewSummarizer func(provider, model string) (condense.Summarizer, error)
	// Tools are the tools hosted runs may call; none by default
	// (agent/workspace gives read-only tools over a directory).
	Tools []agent.Tool
	// Registry supplies model windows; nil means tokens.Models.
	Registry condense.Registry
	// Now is the clock of events and records; nil means time.Now.
	Now func() time.Time
	// Telemetry, when set, receives metrics and trace spans, and serves
	// /metrics (package server/telemetry).
	Telemetry Telemetry
	// OpenMetrics serves /metrics without auth even when Tokens are set
	// (for a scraper on a private network). Otherwise /metrics needs a
	// token like the API; any owner's token may read it, since the metrics
	// add up every session and name none.
	OpenMetrics bool
	// PrefetchFraction is the fraction of a session's compaction threshold
	// past which, on PostgreSQL, the summary its next compaction needs is
	// computed ahead by a background job (sessions whose summarizer is
	// "model"). 0 means DefaultPrefetchFraction; a negative value turns it
	// off.
	PrefetchFraction float64
	// FakeLatency, when set, makes the fake provider summarize (sessions
	// whose summarizer is "model") after waiting this long, as a slow
	// model would.
	FakeLatency time.Duration
	// Mounts serves other handlers beside the API, each under its path
	// prefix ("/proxy" serves /proxy/…, with the prefix stripped), outside
	// the API's auth and body limit and without a write timeout: a
	// compacting proxy (package proxy) is one, authorized by the provider
	// keys its callers send.
	Mounts map[string]http.Handler
}

// Server serves condense sessions over HTTP (docs/server.md). Create it
// with New, serve Handler, and Close it after the HTTP server has shut
// down.
type Server struct {
	opts          Options
	log           *slog.Logger
	st            store.Store
	pg            *postgres.Store // shared mode: the sessions are opened in its shared mode
	reopens       atomic.Int64    // shared sessions made again from the store (for tests)
	prefetch      *prefetcher     // summaries computed ahead; nil when off
	prefetchStats PrefetchStats
	journals      journal.Store
	state         serverState // records, usage, events and logins
	tel           Telemetry
	mux           *http.ServeMux
	logins        loginStore // the login cookies, kept across restarts
	patterns      []string   // the routes, for the OpenAPI test

	mu       sync.Mutex
	sessions map[string]*hosted
	closed   bool
	closing  chan struct{}
	stopOnce sync.Once
	work     sync.WaitGroup // hosted runs in flight

	hooks hooks
}

// hooks let tests stop an operation at a chosen point. All nil in use.
type hooks struct {
	// appending is called by an append that holds the session (in shared
	// mode, its lease), before it appends.
	appending atomic.Pointer[func()]
	// appended is called by an append once its messages are committed,
	// before anything else.
	appended atomic.Pointer[func()]
}

// New returns a server over the backend's stores. It reads the sessions'
// records; each session's log is opened on first use.
func New(b *Backend, opts *Options) (*Server, error) {
	s := &Server{st: b.Store, pg: b.Postgres, journals: b.Journal, sessions: map[string]*hosted{}, closing: make(chan struct{})}
	if opts != nil {
		s.opts = *opts
	}
	for prefix := range s.opts.Mounts {
		if err := checkMount(prefix); err != nil {
			return nil, err
		}
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.Default()
	}
	if s.opts.MaxBodyBytes <= 0 {
		s.opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if s.opts.EventsKept <= 0 {
		s.opts.EventsKept = DefaultEventsKept
	}
	if s.opts.Now == nil {
		s.opts.Now = time.Now
	}
	s.tel = s.opts.Telemetry
	if s.tel == nil {
		s.tel = noTelemetry{}
	}
	st, err := s.openState(b)
	if err != nil {
		return nil, err
	}
	s.state, s.logins = st, st.logins()
	recs, err := st.records(context.Background())
	if err != nil {
		st.close()
		return nil, err
	}
	for _, rec := range recs {
		s.sessions[rec.ID] = s.newHosted(rec)
	}
	st.watch(s.recordChanged)
	if err := s.startPrefetch(context.Background()); err != nil {
		st.close()
		return nil, err
	}
	s.mux = s.routes()
	return s, nil
}

// Handler returns the HTTP handler: the API under /v1, /metrics and
// /healthz, with auth, body limits and the access log.
func (s *Server) Handler() http.Handler {
	return s.accessLog(s.mux)
}

// Close cancels the hosted runs, waits for them and every save in flight,
// and closes the sessions. Call it after http.Server.Shutdown has drained
// the requests. It does not close the backend.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.stopOnce.Do(func() { close(s.closing) })
	hs := make([]*hosted, 0, len(s.sessions))
	for _, h := range s.sessions {
		hs = append(hs, h)
	}
	s.mu.Unlock()
	for _, h := range hs {
		h.abort()
	}
	s.work.Wait()
	var errs []error
	errs = append(errs, s.prefetch.stop(context.Background()))
	for _, h := range hs {
		errs = append(errs, h.close())
	}
	errs = append(errs, s.state.close())
	return errors.Join(errs...)
}

// Closing is closed when Close starts: event streams end then, so that
// http.Server.Shutdown need not wait for them.
func (s *Server) Closing() <-chan struct{} { return s.closing }

func (s *Server) routes() *http.ServeMux {
	m := http.NewServeMux()
	handle := func(pattern string, h http.Handler) {
		s.patterns = append(s.patterns, pattern)
		m.Handle(pattern, h)
	}
	handle("GET /healthz", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, map[string]bool{"ok": true}) }))
	handle("GET /v1/openapi.json", http.HandlerFunc(s.openAPI))
	metrics := s.tel.Handler()
	if !s.opts.OpenMetrics {
		open := metrics
		metrics = s.auth(func(w http.ResponseWriter, r *http.Request, _ string) { open.ServeHTTP(w, r) })
	}
	handle("GET /metrics", metrics)
	handle("POST /v1/login", http.HandlerFunc(s.login))
	handle("POST /v1/logout", http.HandlerFunc(s.logout))
	handle("GET /v1/sessions", http.HandlerFunc(s.auth(s.listSessions)))
	handle("POST /v1/sessions", http.HandlerFunc(s.auth(s.createSession)))
	handle("GET /v1/sessions/{id}", http.HandlerFunc(s.withSession(s.getSession)))
	handle("PATCH /v1/sessions/{id}", http.HandlerFunc(s.withSession(s.patchSession)))
	handle("DELETE /v1/sessions/{id}", http.HandlerFunc(s.withSession(s.deleteSession)))
	handle("GET /v1/sessions/{id}/messages", http.HandlerFunc(s.withSession(s.listMessages)))
	handle("POST /v1/sessions/{id}/messages", http.HandlerFunc(s.withSession(s.appendMessages)))
	handle("POST /v1/sessions/{id}/render", http.HandlerFunc(s.withSession(s.render)))
	handle("POST /v1/sessions/{id}/compact", http.HandlerFunc(s.withSession(s.compact)))
	handle("POST /v1/sessions/{id}/abort", http.HandlerFunc(s.withSession(s.abort)))
	handle("POST /v1/sessions/{id}/flush", http.HandlerFunc(s.withSession(s.flush)))
	handle("GET /v1/sessions/{id}/checkpoints", http.HandlerFunc(s.withSession(s.listCheckpoints)))
	handle("GET /v1/sessions/{id}/checkpoints/{cp}", http.HandlerFunc(s.withSession(s.getCheckpoint)))
	handle("POST /v1/sessions/{id}/checkpoints/{cp}/undo", http.HandlerFunc(s.withSession(s.undo)))
	handle("GET /v1/sessions/{id}/recall", http.HandlerFunc(s.withSession(s.recall)))
	handle("GET /v1/sessions/{id}/events", http.HandlerFunc(s.withSession(s.events)))
	handle("GET /v1/sessions/{id}/usage", http.HandlerFunc(s.withSession(s.usageSeries)))
	handle("GET /v1/sessions/{id}/overlay", http.HandlerFunc(s.withSession(s.overlay)))
	handle("POST /v1/sessions/{id}/prompt", http.HandlerFunc(s.withSession(s.prompt)))
	handle("GET /v1/sessions/{id}/runs/{run}", http.HandlerFunc(s.withSession(s.getRun)))
	handle("GET /v1/sessions/{id}/runs/{run}/journal", http.HandlerFunc(s.withSession(s.runJournal)))
	handle("GET /v1/page/sessions", http.HandlerFunc(s.auth(s.pageSessions)))
	handle("GET /v1/sessions/{id}/ledger", http.HandlerFunc(s.withSession(s.ledgerInfo)))
	handle("GET /v1/sessions/{id}/status", http.HandlerFunc(s.withSession(s.pageStatus)))
	s.pageRoutes(m)
	for prefix, h := range s.opts.Mounts {
		m.Handle(prefix+"/", mounted(prefix, h))
	}
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &Error{Code: CodeNotFound, Message: r.Method + " " + r.URL.Path + " is not an endpoint (GET /v1/openapi.json lists them)", status: http.StatusNotFound})
	})
	return m
}

// decode reads a JSON body into v; an empty body leaves v as it is.
func (s *Server) decode(w http.ResponseWriter, r *http.Request, v any) error {
	body := http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	var data []byte
	var err error
	if n := r.ContentLength; n > 0 && n <= min(s.opts.MaxBodyBytes, 1<<20) {
		// The length is known (and small enough to trust before the
		// bytes come): one read into a buffer of that size.
		data = make([]byte, n)
		_, err = io.ReadFull(body, data)
	} else {
		data, err = io.ReadAll(body)
	}
	if err != nil {
		return err
	}
	if len(data) == 0 {
		return nil
	}
	if err := json.Unmarshal(data, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return invalid(te.Field, "field %q: %v", te.Field, err)
		}
		return invalid("", "malformed JSON body: %v", err)
	}
	return nil
}

// newID returns a new random session id.
func newID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// lookup returns the session id visible to owner.
func (s *Server) lookup(ctx context.Context, id, owner string) (*hosted, error) {
	h, err := s.find(ctx, id)
	if err != nil {
		return nil, err
	}
	if h == nil || h.owner != owner {
		// Another owner's session is not found, rather than forbidden:
		// its existence is not told.
		return nil, notFound("session " + id)
	}
	return h, nil
}

// visible lists the ids owner sees, sorted.
func (s *Server) visible(ctx context.Context, owner string) []*hosted {
	if s.state.shared() {
		// Other replicas create sessions too: the list is the database's.
		if recs, err := s.state.records(ctx); err == nil {
			s.mu.Lock()
			for _, rec := range recs {
				if _, ok := s.sessions[rec.ID]; !ok && !s.closed {
					s.sessions[rec.ID] = s.newHosted(rec)
				}
			}
			s.mu.Unlock()
		} else {
			s.log.Warn("condense/server: listing the sessions of other replicas failed", "err", redact.Err(err))
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*hosted
	for _, h := range s.sessions {
		if h.owner == owner {
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out
}

// checkMount refuses a mount prefix that is not a path of its own or that
// would take routes of the server.
func checkMount(prefix string) error {
	if !strings.HasPrefix(prefix, "/") || strings.HasSuffix(prefix, "/") || strings.ContainsAny(prefix, "{}? ") {
		return fmt.Errorf("server: mount %q: want a path such as /proxy", prefix)
	}
	first, _, _ := strings.Cut(prefix[1:], "/")
	switch first {
	case "v1", "page", "metrics", "healthz":
		return fmt.Errorf("server: mount %q: /%s is the server's own", prefix, first)
	}
	return nil
}

// mounted serves h under prefix, without the server's write deadline (a
// streamed answer lasts as long as it lasts).
func mounted(prefix string, h http.Handler) http.Handler {
	strip := http.StripPrefix(prefix, h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = http.NewResponseController(w).SetWriteDeadline(time.Time{})
		strip.ServeHTTP(w, r)
	})
}
