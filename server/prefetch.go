package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivermigrate"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

// Summaries ready before they are needed. On PostgreSQL, when a request
// leaves a session whose summarizer is "model" past PrefetchFraction of
// its compaction threshold (but not yet over it), the replica runs the
// next compaction as a dry run — the session's strategy on a copy of its
// state, with a summarizer that only records what it is asked — and
// queues a River job per summary request the compaction would make,
// keyed by the request's fingerprint (a SHA-256 of its messages, base,
// previous summary, instructions and output cap). The job, on any replica,
// does the dry run again (a session that moved on — other messages, a
// checkpoint — gives another fingerprint, and the job is cancelled),
// calls the model and stores the summary under its fingerprint. The
// compaction that crosses the threshold asks the session's summarizer as
// always; the summarizer looks the request's fingerprint up first and uses
// a stored summary only on an exact match, so a summary of another span
// is never used. Jobs are unique by session and fingerprint, retried with
// River's backoff, and the stored summaries of a session are dropped once
// it has a new checkpoint.

// DefaultPrefetchFraction is the fraction of a session's compaction
// threshold past which its next summary is computed ahead
// (Options.PrefetchFraction).
const DefaultPrefetchFraction = 0.8

// prefetchArgs is a River job: compute the summary of session's next
// compaction whose request has fingerprint Fingerprint.
type prefetchArgs struct {
	Session     string `json:"session" river:"unique"`
	Fingerprint string `json:"fingerprint" river:"unique"`
}

func (prefetchArgs) Kind() string { return "condense_summary_prefetch" }

func (prefetchArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: 5, UniqueOpts: river.UniqueOpts{ByArgs: true}}
}

// PrefetchStats count the summaries computed ahead (Server.PrefetchStats).
type PrefetchStats struct {
	Queued    atomic.Int64 // jobs queued (not counting a duplicate of a job queued already)
	DryRuns   atomic.Int64 // dry runs under way, or about to start
	Stored    atomic.Int64 // summaries computed and stored
	Cancelled atomic.Int64 // jobs cancelled: their session moved on
	Used      atomic.Int64 // stored summaries a compaction used
}

// PrefetchStats returns the counts of summaries computed ahead on this
// replica.
func (s *Server) PrefetchStats() *PrefetchStats { return &s.prefetchStats }

// prefetcher queues and works the prefetch jobs of one replica.
type prefetcher struct {
	s        *Server
	pool     *pgxpool.Pool
	schema   string
	fraction float64
	river    *river.Client[pgx.Tx]
}

// summaryFingerprint identifies a summary request: equal fingerprints ask
// for the same summary.
func summaryFingerprint(req condense.SummaryRequest) (string, error) {
	raw, err := json.Marshal(struct {
		Messages        []condense.Message
		Base            int
		Previous        string
		Instructions    string
		MaxOutputTokens int
	}{req.Messages, req.Base, req.Previous, req.Instructions, req.MaxOutputTokens})
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:]), nil
}

// startPrefetch migrates River's tables into the store's schema (under an
// advisory lock, so replicas starting together migrate once), adds the
// table of stored summaries, and starts a River client working the queue.
func (s *Server) startPrefetch(ctx context.Context) error {
	if s.pg == nil || s.opts.PrefetchFraction < 0 {
		return nil
	}
	f := s.opts.PrefetchFraction
	if f == 0 {
		f = DefaultPrefetchFraction
	}
	p := &prefetcher{s: s, pool: s.pg.Pool(), schema: s.pg.Schema(), fraction: f}
	if err := p.migrate(ctx); err != nil {
		return fmt.Errorf("summary prefetch: %w", err)
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, river.WorkFunc(p.work))
	log := s.log
	if !s.log.Enabled(ctx, slog.LevelDebug) {
		log = slog.New(slog.DiscardHandler) // River logs every retry at info
	}
	rc, err := river.NewClient(riverpgxv5.New(p.pool), &river.Config{
		Schema:            p.schema,
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}},
		Workers:           workers,
		Logger:            log,
		JobTimeout:        5 * time.Minute,
		FetchCooldown:     20 * time.Millisecond,
		FetchPollInterval: 500 * time.Millisecond,
	})
	if err != nil {
		return fmt.Errorf("summary prefetch: %w", err)
	}
	if err := rc.Start(ctx); err != nil {
		return fmt.Errorf("summary prefetch: %w", err)
	}
	p.river = rc
	s.prefetch = p
	return nil
}

func (p *prefetcher) migrate(ctx context.Context) error {
	conn, err := p.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	key := "condense_server_river " + p.schema
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock(hashtextextended($1, 0))", key); err != nil {
		return err
	}
	defer conn.Exec(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock(hashtextextended($1, 0))", key)
	m, err := rivermigrate.New(riverpgxv5.New(p.pool), &rivermigrate.Config{Schema: p.schema, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return err
	}
	// River's own tables, by its migrator; the summaries' table is one of
	// the server's embedded migrations (pgmigrations/002_summaries.sql).
	_, err = m.Migrate(ctx, rivermigrate.DirectionUp, nil)
	return err
}

func (p *prefetcher) table() string {
	return pgx.Identifier{p.schema, "condense_server_summaries"}.Sanitize()
}

func (p *prefetcher) stop(ctx context.Context) error {
	if p == nil || p.river == nil {
		return nil
	}
	return p.river.Stop(ctx)
}

// consider queues the summaries of h's next compaction when the tokens of
// its next request have passed the pre-threshold but not the threshold.
// It runs after the request is answered, and at most once at a time per
// session on this replica.
func (p *prefetcher) consider(h *hosted, tokens int, b *condense.Budget) {
	if p == nil {
		return
	}
	over := func(tokens int, b condense.Budget) bool {
		th := b.Threshold()
		return th > 0 && tokens < th && float64(tokens) >= p.fraction*float64(th)
	}
	if b != nil && !over(tokens, *b) {
		return
	}
	h.mu.Lock()
	cfg := h.rec.Config
	if cfg.Summarizer != "model" {
		h.mu.Unlock()
		return
	}
	if h.prefetching {
		// The dry run under way may have read an older state: one more
		// follows it.
		h.prefetchAgain = true
		h.mu.Unlock()
		return
	}
	h.prefetching = true
	h.mu.Unlock()
	p.s.mu.Lock()
	if p.s.closed {
		p.s.mu.Unlock()
		h.mu.Lock()
		h.prefetching = false
		h.mu.Unlock()
		return
	}
	p.s.work.Add(1)
	p.s.mu.Unlock()
	p.s.prefetchStats.DryRuns.Add(1)
	go func() {
		defer p.s.work.Done()
		defer p.s.prefetchStats.DryRuns.Add(-1)
		for {
			p.queue(h, b == nil)
			h.mu.Lock()
			again := h.prefetchAgain
			h.prefetchAgain = false
			h.prefetching = again
			h.mu.Unlock()
			if !again {
				return
			}
			b = nil // the state has changed since: estimate it again
		}
	}()
}

// queue does the dry run of h's next compaction and queues a job per
// summary request it makes; estimate first checks the estimate of the next
// request against the pre-threshold.
func (p *prefetcher) queue(h *hosted, estimate bool) {
	ctx := context.Background()
	if estimate {
		sess, err := h.session(ctx)
		if err != nil {
			return
		}
		est, err := sess.Estimate(ctx)
		if err != nil {
			return
		}
		th := est.Budget.Threshold()
		if th <= 0 || est.Tokens >= th || float64(est.Tokens) < p.fraction*float64(th) {
			return
		}
	}
	reqs, err := p.dryRun(ctx, h)
	if err != nil {
		p.s.log.Debug("condense/server: no summary prefetch", "session", h.id, "err", redact.Err(err))
		return
	}
	for _, req := range reqs {
		fp, err := summaryFingerprint(req)
		if err != nil {
			continue
		}
		res, err := p.river.Insert(ctx, prefetchArgs{Session: h.id, Fingerprint: fp}, nil)
		if err != nil {
			p.s.log.Warn("condense/server: queueing a summary prefetch failed", "session", h.id, "err", redact.Err(err))
			continue
		}
		if !res.UniqueSkippedAsDuplicate {
			p.s.prefetchStats.Queued.Add(1)
		}
	}
}

// recorder is the summarizer of a dry run: it records each request and
// answers at once.
type recorder struct{ reqs []condense.SummaryRequest }

func (r *recorder) Summarize(_ context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	req.Messages = append([]condense.Message(nil), req.Messages...)
	r.reqs = append(r.reqs, req)
	return &condense.Summary{Text: "(dry run)"}, nil
}

// dryRun runs the session's next compaction on a copy of its state (as of
// the store's latest version), with a recorder for summarizer, and returns
// the summary requests it made. Nothing is saved.
func (p *prefetcher) dryRun(ctx context.Context, h *hosted) ([]condense.SummaryRequest, error) {
	sess, err := h.session(ctx)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	cfg := h.rec.Config
	h.mu.Unlock()
	hist, err := sess.History(ctx)
	if err != nil {
		return nil, err
	}
	r := sess.Rendering()
	last := 0
	for _, cp := range sess.Checkpoints() {
		if n, err := strconv.Atoi(cp.ID[min(1, len(cp.ID)):]); err == nil {
			last = max(last, n)
		}
	}
	st, err := strategyByName(cfg.Strategy)
	if err != nil {
		return nil, err
	}
	reg := h.s.registry()
	seenN := 0
	for i := range r {
		seenN = max(seenN, r[i].Index+1, r[i].Covers.End)
	}
	seenN = min(seenN, len(hist))
	est, err := sess.Estimate(ctx)
	if err != nil {
		return nil, err
	}
	// The request that crosses the threshold carries messages not written
	// yet, and what they weigh moves the span a compaction summarizes
	// (the newest turns it keeps verbatim must fit beside the summary).
	// The dry run tries the likely ones: the current turn going on, or a
	// new turn, with just enough to cross, twice and four times that. Each
	// distinct summary request is a job; only the one that matches the
	// real request is used.
	gap := max(est.Budget.Threshold()-est.Tokens, 1)
	var out []condense.SummaryRequest
	seen := map[string]bool{}
	for _, role := range []condense.Role{condense.RoleAssistant, condense.RoleUser} {
		for _, grow := range []int{gap, 2 * gap, 4 * gap} {
			rec := &recorder{}
			pf := condense.NewPreflight(tokens.ForModel(cfg.Model, reg), st, &condense.Options{
				Settings: cfg.settings(), Registry: reg, Summarizer: rec, Logger: slog.New(slog.DiscardHandler),
			})
			if seenN == 0 {
				err = pf.Restore(nil, nil, last)
			} else {
				err = pf.Restore(hist[:seenN:seenN], r.Clone(), last)
			}
			if err != nil {
				return nil, err
			}
			req := cfg.template()
			req.Messages = append(hist[:len(hist):len(hist)], condense.Message{ID: "condense-prefetch", Role: role,
				Parts: []condense.Part{condense.Text(strings.Repeat("word ", grow))}})
			if _, err := pf.Prepare(ctx, req); err != nil {
				continue // this guess cannot be rendered: another may
			}
			for _, q := range rec.reqs {
				if fp, err := summaryFingerprint(q); err == nil && !seen[fp] && !mentions(q, "condense-prefetch") {
					seen[fp] = true
					out = append(out, q)
				}
			}
		}
	}
	return out, nil
}

// mentions reports whether a summary request's span holds message id (a
// guess of the dry run's own, which no real request holds).
func mentions(q condense.SummaryRequest, id string) bool {
	for i := range q.Messages {
		if q.Messages[i].ID == id {
			return true
		}
	}
	return false
}

// errMovedOn cancels a job whose session no longer asks for its summary.
var errMovedOn = errors.New("the session moved on: its next compaction asks for another summary")

// work is a prefetch job: the dry run again, then the summary from the
// session's model, stored under its fingerprint.
func (p *prefetcher) work(ctx context.Context, job *river.Job[prefetchArgs]) error {
	h, err := p.s.find(ctx, job.Args.Session)
	if err != nil {
		return err
	}
	if h == nil {
		return river.JobCancel(fmt.Errorf("session %s: %w", job.Args.Session, errMovedOn))
	}
	reqs, err := p.dryRun(ctx, h)
	if err != nil {
		return err
	}
	var req *condense.SummaryRequest
	for i := range reqs {
		if fp, err := summaryFingerprint(reqs[i]); err == nil && fp == job.Args.Fingerprint {
			req = &reqs[i]
			break
		}
	}
	if req == nil {
		p.s.prefetchStats.Cancelled.Add(1)
		return river.JobCancel(errMovedOn)
	}
	h.mu.Lock()
	cfg := h.rec.Config
	h.mu.Unlock()
	sm := p.s.modelSummarizer(cfg)
	if sm == nil {
		return river.JobCancel(fmt.Errorf("session %s: no model summarizer", h.id))
	}
	out, err := sm.Summarize(ctx, *req)
	if err != nil {
		return err // retried with backoff
	}
	if _, err := p.pool.Exec(ctx, `INSERT INTO `+p.table()+` (session, fingerprint, summary) VALUES ($1, $2, $3)
		ON CONFLICT (session, fingerprint) DO NOTHING`, h.id, job.Args.Fingerprint, out); err != nil {
		return err
	}
	p.s.prefetchStats.Stored.Add(1)
	return nil
}

// lookup returns the summary stored for a request's fingerprint, if any.
func (p *prefetcher) lookup(ctx context.Context, session string, req condense.SummaryRequest) (*condense.Summary, bool) {
	fp, err := summaryFingerprint(req)
	if err != nil {
		return nil, false
	}
	var out condense.Summary
	err = p.pool.QueryRow(ctx, `SELECT summary FROM `+p.table()+` WHERE session = $1 AND fingerprint = $2`, session, fp).Scan(&out)
	if err != nil {
		return nil, false
	}
	return &out, true
}

// forget drops a session's stored summaries (it has a new checkpoint:
// none of them can match again).
func (p *prefetcher) forget(session string) {
	if p == nil {
		return
	}
	if _, err := p.pool.Exec(context.Background(), `DELETE FROM `+p.table()+` WHERE session = $1`, session); err != nil {
		p.s.log.Warn("condense/server: dropping stored summaries failed", "session", session, "err", redact.Err(err))
	}
}

// storedSummarizer uses a summary computed ahead when one was stored for
// the exact request, and asks inner otherwise.
type storedSummarizer struct {
	h     *hosted
	inner condense.Summarizer
}

func (s storedSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	if out, ok := s.h.s.prefetch.lookup(ctx, s.h.id, req); ok {
		s.h.s.prefetchStats.Used.Add(1)
		return out, nil
	}
	return s.inner.Summarize(ctx, req)
}

// FakeSummarizer is the summarizer of the fake provider when the server
// gives it latency (Options.FakeLatency): it waits, then summarizes
// extractively. Demos and tests use it to see what a slow model costs.
type FakeSummarizer struct {
	Latency time.Duration
}

func (f FakeSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	t := time.NewTimer(f.Latency)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-t.C:
	}
	return summarize.Extractive{}.Summarize(ctx, req)
}

// forgetSummaries drops the summaries computed ahead for h once it has a
// new checkpoint.
func (s *Server) forgetSummaries(h *hosted) {
	h.mu.Lock()
	model := h.rec.Config.Summarizer == "model"
	h.mu.Unlock()
	if model {
		s.prefetch.forget(h.id)
	}
}
