package server

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

// Activities that keep a session busy.
const (
	activityPrompt     = "prompt"
	activityCompaction = "compaction"
	// activityAutoCompaction marks a shared session's lease while a render
	// compacts (shared.go); the API calls it a compaction.
	activityAutoCompaction = "autocompaction"
)

// hosted is a session the server serves: its record, its open session
// (opened on first use), its event stream and what it is busy with.
type hosted struct {
	s     *Server
	id    string
	owner string

	openMu sync.Mutex // held while opening

	mu       sync.Mutex
	rec      *record
	sess     *session.Session
	events   eventStream
	activity string
	cancel   context.CancelFunc
	runs     map[string]*RunInfo
	lastRun  string
	avail    *bool // compaction_available, nil when it must be computed again
	gone     bool
	deleted  chan struct{}
	// prefetching: a dry run for the summaries to compute ahead is under
	// way (prefetch.go).
	prefetching, prefetchAgain bool

	// Shared mode (shared.go): the session's shared log, the log its
	// session works on, the store version that session reflects, the lock
	// an operation of this replica holds with the lease, and the lease
	// that operation holds with what it marked.
	sh        *postgres.SharedLog
	swap      *swapLog
	version   int64
	opMu      sync.Mutex
	lease     store.Log
	leaseMark string
}

// strategyByName builds a strategy from its API name.
func strategyByName(name string) (condense.Strategy, error) {
	st, err := strategy.ByName(name)
	if err != nil {
		return nil, invalid("strategy", "unknown strategy %q (%s)", name, strings.Join(strategy.Names, ", "))
	}
	return st, nil
}

func (s *Server) registry() condense.Registry {
	if s.opts.Registry != nil {
		return s.opts.Registry
	}
	return tokens.Models
}

// check validates a session's settings.
func (s *Server) check(c *SessionConfig) error {
	if c.Model == "" {
		return invalid("model", "a session needs a model")
	}
	if _, err := strategyByName(c.Strategy); err != nil {
		return err
	}
	switch c.Summarizer {
	case "", "extractive", "model":
	default:
		return invalid("summarizer", "unknown summarizer %q (extractive, model)", c.Summarizer)
	}
	if c.Window < 0 || c.ReservedOutput < 0 || c.Safety < 0 || c.MaxOutputTokens < 0 {
		return invalid("window", "token counts cannot be negative")
	}
	if c.Fraction < 0 || c.Fraction > 1 {
		return invalid("fraction", "fraction %v is outside (0, 1]", c.Fraction)
	}
	if c.LowWater < 0 || c.LowWater > 1 {
		return invalid("low_water", "low_water %v is outside (0, 1]", c.LowWater)
	}
	if c.Window == 0 {
		if info, ok := s.registry().Lookup(c.Model); !ok || info.Window == 0 {
			return invalid("window", "model %q has no known context window: set window", c.Model)
		}
	}
	if c.Provider == "" {
		c.Provider = s.defaultProvider()
	}
	if c.Provider != "fake" && s.opts.NewModel == nil {
		return invalid("provider", "provider %q is not configured on this server (fake only)", c.Provider)
	}
	return nil
}

func (s *Server) defaultProvider() string {
	if s.opts.DefaultProvider != "" {
		return s.opts.DefaultProvider
	}
	return "fake"
}

// summarizer returns the summarizer of renders and manual compactions.
func (h *hosted) summarizer(c SessionConfig) condense.Summarizer {
	var inner condense.Summarizer = summarize.Extractive{}
	if c.Summarizer == "model" {
		if sm := h.s.modelSummarizer(c); sm != nil {
			inner = sm
		}
		if h.s.prefetch != nil {
			// A summary computed ahead for the exact request is used.
			inner = storedSummarizer{h: h, inner: inner}
		}
	}
	return &eventSummarizer{h: h, inner: inner}
}

// modelSummarizer returns the summarizer of a session whose summarizer is
// "model", nil when the server has none for its provider.
func (s *Server) modelSummarizer(c SessionConfig) condense.Summarizer {
	if c.Provider == "fake" && s.opts.FakeLatency > 0 {
		return FakeSummarizer{Latency: s.opts.FakeLatency}
	}
	if s.opts.NewSummarizer == nil {
		return nil
	}
	sm, err := s.opts.NewSummarizer(c.Provider, c.Model)
	if err != nil {
		s.log.Warn("condense/server: no summarizer for the session's model; summarizing extractively", "model", c.Model, "err", redact.Err(err))
		return nil
	}
	return sm
}

// eventSummarizer publishes the summary phase of a compaction and measures
// it.
type eventSummarizer struct {
	h     *hosted
	inner condense.Summarizer
}

func (e *eventSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	e.h.publish(EventCompacting, map[string]any{"phase": "summary"})
	ctx, end := e.h.s.tel.Start(ctx, "condense.summary")
	start := time.Now()
	out, err := e.inner.Summarize(ctx, req)
	e.h.s.tel.Summary(time.Since(start), err)
	end(err)
	return out, err
}

// session returns the open session, opening it (and its event stream) on
// first use; a shared session is brought up to date with the store.
func (h *hosted) session(ctx context.Context) (*session.Session, error) {
	sess, err := h.open(ctx)
	if err != nil {
		return nil, err
	}
	return h.fresh(ctx, sess)
}

// open returns the open session, opening it on first use.
func (h *hosted) open(ctx context.Context) (*session.Session, error) {
	h.mu.Lock()
	if h.gone {
		h.mu.Unlock()
		return nil, notFound("session " + h.id)
	}
	if h.sess != nil {
		s := h.sess
		h.mu.Unlock()
		return s, nil
	}
	cfg := h.rec.Config
	h.mu.Unlock()
	h.openMu.Lock()
	defer h.openMu.Unlock()
	h.mu.Lock()
	if h.sess != nil {
		s := h.sess
		h.mu.Unlock()
		return s, nil
	}
	h.mu.Unlock()
	if err := h.openEvents(); err != nil {
		return nil, err
	}
	if h.shared() {
		if _, err := h.openShared(ctx); err != nil {
			return nil, err
		}
	}
	var v int64
	if h.shared() {
		sh, _, err := h.sharedLog()
		if err != nil {
			return nil, err
		}
		v = sh.Version()
	}
	sess, err := h.openSession(ctx, cfg)
	if err != nil {
		return nil, err
	}
	// A shared session's appended events commit with their messages
	// (swapLog.Append): none is missing.
	if !h.shared() {
		if err := h.reconcile(ctx, sess); err != nil {
			sess.Close()
			return nil, err
		}
	}
	h.mu.Lock()
	h.sess, h.version = sess, v
	h.mu.Unlock()
	return sess, nil
}

// reconcile publishes the appended event a crash lost: the messages the
// log holds beyond those the kept appended events account for.
func (h *hosted) reconcile(ctx context.Context, sess *session.Session) error {
	h.mu.Lock()
	ev := h.events
	h.mu.Unlock()
	to, ok := ev.appendedTo()
	n := sess.Len()
	if !ok || n <= to {
		return nil
	}
	spans, err := sess.Recall(ctx, strconv.Itoa(to)+"-"+strconv.Itoa(n-1))
	if err != nil {
		return err
	}
	var msgs []condense.Message
	for _, sp := range spans {
		msgs = append(msgs, sp.Messages...)
	}
	h.publishAppended(to, msgs)
	return nil
}

func (h *hosted) openEvents() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.events != nil {
		return nil
	}
	ev, err := h.s.state.openEvents(h.id)
	if err != nil {
		return err
	}
	h.events = ev
	return nil
}

func (h *hosted) openSession(ctx context.Context, cfg SessionConfig) (*session.Session, error) {
	st, err := strategyByName(cfg.Strategy)
	if err != nil {
		return nil, err
	}
	st = h.marking(h.withPhases(st, ""))
	var where store.Store = h.s.st
	if h.shared() {
		h.mu.Lock()
		where = swapStore{h.swap}
		h.mu.Unlock()
	}
	return session.Open(ctx, where, h.id, &session.Options{
		Request:  cfg.template(),
		Counter:  tokens.ForModel(cfg.Model, h.s.registry()),
		Strategy: st,
		Preflight: condense.Options{
			Settings:   cfg.settings(),
			Registry:   h.s.registry(),
			Summarizer: h.summarizer(cfg),
			Logger:     h.s.log,
		},
		Logger: h.s.log,
		Now:    h.s.opts.Now,
	})
}

// publish adds an event to the session's stream.
func (h *hosted) publish(typ string, data any) {
	h.mu.Lock()
	ev := h.events
	h.mu.Unlock()
	if ev != nil {
		// Appended events are made again from the log if a crash loses
		// them (reconcile): they need no sync of their own.
		ev.publish(typ, data, typ != EventAppended)
	}
}

// idle returns a busy error while a prompt or compaction runs.
func (h *hosted) idle() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.activity != "" {
		return busy(h.activity)
	}
	return nil
}

// begin marks the session busy with activity, or fails with busy. The
// context it returns is cancelled by abort; done marks it idle again.
func (h *hosted) begin(parent context.Context, activity string) (context.Context, func(), error) {
	h.mu.Lock()
	if h.activity != "" {
		a := h.activity
		h.mu.Unlock()
		return nil, nil, busy(a)
	}
	ctx, cancel := context.WithCancel(parent)
	h.activity, h.cancel = activity, cancel
	h.avail = nil
	h.mu.Unlock()
	h.publish(EventBusy, map[string]any{"busy": true, "activity": activity})
	return ctx, func() {
		cancel()
		h.mu.Lock()
		h.activity, h.cancel = "", nil
		h.mu.Unlock()
	}, nil
}

// abort cancels the prompt or compaction in progress; it reports what it
// cancelled ("" when the session was idle).
func (h *hosted) abort() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cancel != nil {
		h.cancel()
	}
	return h.activity
}

// changed forgets what a change of history or settings makes stale.
func (h *hosted) changed() {
	h.mu.Lock()
	h.avail = nil
	h.mu.Unlock()
}

// close closes the session and its event stream.
func (h *hosted) close() error {
	h.openMu.Lock()
	defer h.openMu.Unlock()
	h.mu.Lock()
	sess, ev, sh := h.sess, h.events, h.sh
	h.sess, h.events, h.sh, h.swap = nil, nil, nil, nil
	h.s.state.releaseUsage(h.rec.ID)
	h.mu.Unlock()
	var err error
	if sess != nil {
		err = sess.Close()
	}
	if sh != nil {
		err = errors.Join(err, sh.Close())
	}
	if ev != nil {
		ev.close()
	}
	return err
}

// snapshot describes the session now.
func (h *hosted) snapshot(ctx context.Context) (Snapshot, error) {
	sess, err := h.session(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	est, err := sess.Estimate(ctx)
	if err != nil {
		return Snapshot{}, err
	}
	h.mu.Lock()
	snap := Snapshot{ID: h.id, Created: h.rec.Created, Config: h.rec.Config, Busy: h.activity != "", Activity: h.activity, Run: h.lastRun}
	avail, activity := h.avail, h.activity
	if h.events != nil {
		snap.LastEventID = h.events.lastID()
	}
	h.mu.Unlock()
	snap.Messages = sess.Len()
	snap.Unsaved = sess.Unsaved()
	snap.Usage = usageOf(est.Tokens, est.Budget, est.Counter, est.Exact)
	if cps := sess.Checkpoints(); len(cps) > 0 {
		cp := cps[len(cps)-1]
		snap.Checkpoint = &CheckpointSummary{ID: cp.ID, Boundary: cp.FirstKept, HistoryCount: cp.HistoryCount, Time: cp.Time, Strategy: cp.Strategy}
	}
	if avail == nil && activity == "" && !snap.Unsaved {
		ok, err := sess.CompactionAvailable(ctx)
		if err != nil {
			return Snapshot{}, err
		}
		avail = &ok
		h.mu.Lock()
		if h.activity == "" {
			h.avail = avail
		}
		h.mu.Unlock()
	}
	if activity == "" {
		snap.CompactionAvailable = avail
	}
	return snap, nil
}

func usageOf(tok int, b condense.Budget, counter string, exact bool) Usage {
	u := Usage{Tokens: tok, InputLimit: b.InputLimit(), Threshold: b.Threshold(), Window: b.Window, Counter: counter, Exact: exact}
	if u.InputLimit > 0 {
		u.Percent = float64(int(float64(tok)*10000/float64(u.InputLimit))) / 100
	}
	return u
}

// settled publishes the settled event with the snapshot.
func (h *hosted) settled(ctx context.Context) {
	snap, err := h.snapshot(context.WithoutCancel(ctx))
	if err != nil {
		h.publish(EventSettled, map[string]any{"busy": false})
		return
	}
	h.publish(EventSettled, snap)
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request, owner string) {
	var req CreateRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if err := s.check(&req.SessionConfig); err != nil {
		writeError(w, err)
		return
	}
	if len(req.Messages) > 0 {
		if err := condense.Validate(req.Messages); err != nil {
			writeError(w, invalid("messages", "%v", err))
			return
		}
	}
	rec := &record{ID: newID("s-"), Owner: owner, Created: s.opts.Now().UTC(), Config: req.SessionConfig}
	h := s.newHosted(rec)
	// The record is durable before the session is acknowledged.
	if err := s.state.put(r.Context(), rec); err != nil {
		writeError(w, err)
		return
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		writeError(w, ErrClosing)
		return
	}
	s.sessions[rec.ID] = h
	s.mu.Unlock()
	sess, release, err := h.acquire(r.Context(), nil)
	if err != nil {
		writeError(w, err)
		return
	}
	if len(req.Messages) > 0 {
		if err := sess.Append(r.Context(), req.Messages...); err != nil {
			release()
			writeError(w, err)
			return
		}
		h.publishAppended(0, req.Messages)
	}
	release()
	snap, err := h.snapshot(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Location", "/v1/sessions/"+rec.ID)
	writeJSON(w, http.StatusCreated, snap)
}

// publishAppended publishes the appended event of msgs, appended at from.
// A shared session's appended events are written by its log, in the
// append's own transaction (swapLog.Append): nothing is published here.
func (h *hosted) publishAppended(from int, msgs []condense.Message) {
	if h.shared() {
		return
	}
	h.publish(EventAppended, appendedData(from, msgs))
}

// appendedData is an appended event's data.
func appendedData(from int, msgs []condense.Message) map[string]any {
	ids := make([]string, 0, len(msgs))
	for i := range msgs {
		ids = append(ids, msgs[i].ID)
	}
	return map[string]any{"from": from, "count": len(msgs), "ids": ids}
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request, owner string) {
	limit := 50
	if v := r.URL.Query().Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, invalid("limit", "limit %q is not a number in 1..1000", v))
			return
		}
		limit = n
	}
	after := r.URL.Query().Get("after")
	out := SessionList{Sessions: []SessionItem{}}
	for _, h := range s.visible(r.Context(), owner) {
		if h.id <= after {
			continue
		}
		if len(out.Sessions) == limit {
			out.Next = out.Sessions[len(out.Sessions)-1].ID
			break
		}
		h.mu.Lock()
		out.Sessions = append(out.Sessions, SessionItem{ID: h.id, Created: h.rec.Created, Model: h.rec.Config.Model})
		h.mu.Unlock()
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getSession(w http.ResponseWriter, r *http.Request, h *hosted) {
	snap, err := h.snapshot(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, snap)
}

// patchSession changes the model, window or other settings. The session is
// reopened with them (a configuration change waits for no work: it is
// refused while the session is busy), which refreshes
// compaction_available.
func (s *Server) patchSession(w http.ResponseWriter, r *http.Request, h *hosted) {
	var ch ConfigChange
	if err := s.decode(w, r, &ch); err != nil {
		writeError(w, err)
		return
	}
	ctx, done, err := h.begin(r.Context(), "configuration")
	if err != nil {
		writeError(w, err)
		return
	}
	defer done()
	h.mu.Lock()
	cfg := h.rec.Config
	h.mu.Unlock()
	applyChange(&cfg, ch)
	if err := s.check(&cfg); err != nil {
		h.settled(ctx)
		writeError(w, err)
		return
	}
	h.mu.Lock()
	rec := *h.rec
	h.mu.Unlock()
	rec.Config = cfg
	if err := s.state.put(ctx, &rec); err != nil {
		writeError(w, err)
		return
	}
	h.openMu.Lock()
	h.mu.Lock()
	old := h.sess
	h.rec.Config = cfg
	h.sess = nil
	h.avail = nil
	h.mu.Unlock()
	var cerr error
	if old != nil {
		cerr = old.Close()
	}
	h.openMu.Unlock()
	if cerr != nil {
		writeError(w, cerr)
		return
	}
	h.mu.Lock()
	h.activity = ""
	h.mu.Unlock()
	snap, err := h.snapshot(ctx)
	if err != nil {
		writeError(w, err)
		return
	}
	h.publish(EventSettled, snap)
	writeJSON(w, http.StatusOK, snap)
}

func applyChange(c *SessionConfig, ch ConfigChange) {
	set := func(dst *string, v *string) {
		if v != nil {
			*dst = *v
		}
	}
	seti := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	setf := func(dst *float64, v *float64) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.Model, ch.Model)
	set(&c.Provider, ch.Provider)
	set(&c.Strategy, ch.Strategy)
	set(&c.Summarizer, ch.Summarizer)
	set(&c.System, ch.System)
	seti(&c.Window, ch.Window)
	seti(&c.ReservedOutput, ch.ReservedOutput)
	seti(&c.Safety, ch.Safety)
	seti(&c.MaxOutputTokens, ch.MaxOutputTokens)
	setf(&c.Fraction, ch.Fraction)
	setf(&c.LowWater, ch.LowWater)
}

// deleteSession forgets a session: its record and events go, the server
// stops serving it. Its log stays in the store, where nothing is deleted.
func (s *Server) deleteSession(w http.ResponseWriter, r *http.Request, h *hosted) {
	if err := h.idle(); err != nil {
		writeError(w, err)
		return
	}
	s.mu.Lock()
	delete(s.sessions, h.id)
	s.mu.Unlock()
	h.mu.Lock()
	h.gone = true
	close(h.deleted)
	h.mu.Unlock()
	cerr := h.close()
	if err := errors.Join(cerr, s.state.remove(context.WithoutCancel(r.Context()), h.id)); err != nil && !errors.Is(err, store.ErrClosed) {
		writeError(w, fmt.Errorf("delete %s: %w", h.id, err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
