package condense

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/condense-dev/condense/internal/redact"
)

// DefaultMaxPressured is how many consecutive pressured preflights may
// compact before automatic compaction is suppressed, so a history that
// compaction cannot shrink below the threshold does not compact on every
// call.
const DefaultMaxPressured = 2

// Options configure a Preflight. The zero value is ready to use.
type Options struct {
	// Settings are the agent's or session's budget settings; Client the
	// client's. A per-call WithSettings option overrides both, field by
	// field.
	Settings Settings
	Client   Settings
	// Registry supplies model windows when no setting gives one. nil means
	// no registry: set a Window.
	Registry Registry
	// Summarizer writes the summaries strategies ask for; it is handed to
	// them in CompactionContext.Summarizer. nil lets the built-in
	// strategies use the extractive summarizer.
	Summarizer Summarizer
	// EagerTurns, when positive, compacts every EagerTurns new user turns
	// even below the threshold (eager mode); the default, lazy mode,
	// compacts only over the threshold.
	EagerTurns int
	// MaxPressured overrides DefaultMaxPressured.
	MaxPressured int
	// BudgetNote appends to every request a one-line note telling the model
	// how full its context is and when compaction will happen.
	BudgetNote bool
	// VerifyPrefix makes every call check the whole history it has seen
	// against a rolling hash, so a caller that edits old messages in place
	// is noticed. Without it the preflight checks the first and the last
	// message it has seen (by id, else by fingerprint) and costs O(new
	// messages) per call.
	VerifyPrefix bool
	// Logger receives warnings (unknown models, rejected candidates). nil
	// means slog.Default(). Error values in its lines (a strategy's or a
	// summarizer's error may quote the history) have their secrets
	// redacted, as ledger.Redact does.
	Logger *slog.Logger
}

// CallOption adjusts one Prepare or Compact call.
type CallOption func(*callConfig)

type callConfig struct {
	settings     Settings
	noCompaction bool
	instructions string
	emergency    bool
	summarizer   Summarizer
}

// WithSettings sets budget settings for this call. They are the most
// specific level: a call's settings override the agent's or session's
// (Options.Settings), which override the client's (Options.Client), which
// override the built-in defaults, field by field.
func WithSettings(s Settings) CallOption { return func(c *callConfig) { c.settings = s } }

// WithoutCompaction keeps the window guard but compacts nothing in this
// Prepare call.
func WithoutCompaction() CallOption { return func(c *callConfig) { c.noCompaction = true } }

// WithInstructions hands a manual compaction's instructions to the
// strategy and its summarizer ("focus on the failing test"), as /compact
// does in Claude Code.
func WithInstructions(s string) CallOption { return func(c *callConfig) { c.instructions = s } }

// WithSummarizer writes this call's summaries with s instead of
// Options.Summarizer. It is for a caller that prepares through a preflight
// it does not own — an agent run through a durable session — and must write
// (and journal) its summaries itself.
func WithSummarizer(s Summarizer) CallOption { return func(c *callConfig) { c.summarizer = s } }

// WithEmergency asks a manual compaction for recent retention zero; the
// task, pinned messages and the newest step still stay verbatim.
func WithEmergency() CallOption { return func(c *callConfig) { c.emergency = true } }

// Result is a prepared request and how it came to be.
type Result struct {
	// Request is the request to send. Its Messages slice is shared with
	// later results of the same Preflight: treat it as read-only.
	Request Request
	// Rendering is the source map of Request.Messages (read-only).
	Rendering Rendering
	Budget    Budget
	// Tokens is the estimate of Request; TokensBefore the estimate before
	// this call's compactions.
	Tokens       int
	TokensBefore int
	Counter      string
	Exact        bool
	// Pressured: the estimate before compaction was over the threshold.
	// Suppressed: compaction was skipped by the pressure rule (see
	// DefaultMaxPressured).
	Pressured  bool
	Suppressed bool
	// Records describes the compactions this call made.
	Records []Record
	// Rejected holds the candidates this call refused, with why.
	Rejected []error
}

// Preflight renders the requests of one conversation: before every model
// call it counts the request, compacts it when it is over the threshold,
// and refuses it when it cannot fit.
// It remembers the history it has seen, its counts, its validation and the
// current rendering, so each call costs O(new messages) unless it compacts.
// It is safe for concurrent use; calls are serialized.
type Preflight struct {
	counter  Counter
	strategy Strategy
	opts     Options
	log      *slog.Logger

	mu     sync.Mutex
	st     state
	warned map[string]bool // models warned about, under mu
}

type state struct {
	history []Message
	fps     []uint64 // fingerprint per history message
	chain   []uint64 // rolling hash up to and including each message
	counts  []int    // per history message

	rendering Rendering
	out       []Message // rendering's messages, shared read-only with results
	total     int       // sum of item counts (uncorrected)
	// compactedUpTo is the history length when the overlay was last
	// changed by a compaction; edits below it need the overlay.
	compactedUpTo int
	compacted     bool

	val      validator
	valDirty bool

	system       string
	reqTools     []Tool // as the caller sent them
	tools        []Tool // without repeated definitions
	overhead     int
	haveOverhead bool

	pressured      int
	turnsSinceEdit int
	// memo keeps what strategies computed from log messages across
	// compactions (CompactionContext.Remember).
	memo *memo
	// checkpoints is the number of the last checkpoint id handed out.
	checkpoints int
}

// NewPreflight returns a preflight for one conversation. counter is
// required; strategy may be nil, which keeps the window guard and never
// compacts.
func NewPreflight(counter Counter, strategy Strategy, opts *Options) *Preflight {
	if counter == nil {
		panic("condense: NewPreflight needs a Counter")
	}
	p := &Preflight{counter: counter, strategy: strategy}
	if opts != nil {
		p.opts = *opts
	}
	p.log = p.opts.Logger
	if p.log == nil {
		p.log = slog.Default()
	}
	return p
}

// Rendering returns the current rendering (read-only).
func (p *Preflight) Rendering() Rendering {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.st.rendering[:len(p.st.rendering):len(p.st.rendering)]
}

// sameMessage reports whether a and b are the same message: cheaply when
// they share their parts (a rendering built from the history), else by
// fingerprint.
func sameMessage(a, b *Message) bool {
	if a.ID == b.ID && a.Role == b.Role && a.Status == b.Status && a.Pinned == b.Pinned &&
		len(a.Parts) == len(b.Parts) && (len(a.Parts) == 0 || &a.Parts[0] == &b.Parts[0]) {
		return true
	}
	return Fingerprint(a) == Fingerprint(b)
}

// Restore replaces the preflight's state with history rendered as r (a
// saved overlay), as a session does when it reopens. r must render history:
// every item's Index lies inside it and the messages pass Validate; an
// empty r with an empty history starts afresh. lastCheckpoint is the number
// of the last checkpoint the conversation has made, undone ones included:
// the next compaction is "c<lastCheckpoint+1>", so ids are never reused.
func (p *Preflight) Restore(history []Message, r Rendering, lastCheckpoint int) error {
	for i := range r {
		it := &r[i]
		switch {
		case it.Index >= len(history) || it.Covers.End > len(history):
			return fmt.Errorf("%w: rendering item %d refers to log index %d beyond the history (%d messages)",
				ErrInvalidHistory, i, max(it.Index, it.Covers.End-1), len(history))
		case it.Index < -1 || it.Covers.Start < 0 || it.Covers.End < it.Covers.Start:
			return fmt.Errorf("%w: rendering item %d has a bad index %d or span %d-%d",
				ErrInvalidHistory, i, it.Index, it.Covers.Start, it.Covers.End)
		case it.Index >= 0 && it.Edit == EditNone && !sameMessage(&it.Message, &history[it.Index]):
			return fmt.Errorf("%w: rendering item %d claims log message %d verbatim but differs from it",
				ErrInvalidHistory, i, it.Index)
		}
	}
	v, err := validateRendering(r)
	if err != nil {
		return err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.st = state{checkpoints: max(lastCheckpoint, 0)}
	if len(history) == 0 && len(r) == 0 {
		return nil
	}
	p.appendHistory(history)
	p.setRendering(r.Clone())
	p.st.val = v
	p.st.compacted = true
	p.st.compactedUpTo = len(history)
	return nil
}

// Prepare renders req for sending: it brings the preflight up to date with
// req.Messages, compacts when the estimate is over the threshold, and checks
// the result against the input limit. When the compactions leave the
// request over the limit because of the newest step's tool output, that
// output is cut to its head and tail around a truncation marker
// (EditTruncated, a record with strategy TruncateStrategy), the biggest
// results first and no more than fits. When the request still cannot fit it
// returns a *WindowError (ErrContextWindowExceeded) and no request. A
// history that breaks turn safety (a tool result without its call, a call
// left without its result before the newest step) yields a
// *ValidationError. req is never modified.
func (p *Preflight) Prepare(ctx context.Context, req Request, opts ...CallOption) (*Result, error) {
	cfg := callOptions(opts)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, newUsers, err := p.begin(&req, cfg)
	if err != nil {
		return nil, err
	}
	tokens, budget := res.TokensBefore, res.Budget
	if !budget.Known() {
		p.warnUnknownModel(req.Model)
		return p.finish(res, &req, tokens), nil
	}
	limit := budget.InputLimit()
	if p.strategy != nil && !cfg.noCompaction && p.due(res, newUsers) {
		tokens, err = p.attempt(ctx, &req, budget, res, tokens, pass{summarizer: cfg.summarizer})
		if err == nil && tokens > limit {
			tokens, err = p.attempt(ctx, &req, budget, res, tokens, pass{emergency: true, summarizer: cfg.summarizer})
		}
		if err != nil {
			return nil, err
		}
		if tokens > limit {
			// The last resort: the newest step's tool output is cut to its
			// head and tail when that is what keeps the request out.
			tokens = p.truncateNewest(&req, budget, res, tokens)
		}
	}
	if tokens > limit {
		return nil, &WindowError{Model: req.Model, Tokens: tokens, InputLimit: limit, Window: budget.Window, Records: res.Records}
	}
	res = p.finish(res, &req, tokens)
	if res.Tokens > limit { // the budget note does not fit: leave it out
		res.Request.Messages = res.Request.Messages[: len(res.Request.Messages)-1 : len(res.Request.Messages)-1]
		res.Rendering = res.Rendering[: len(res.Rendering)-1 : len(res.Rendering)-1]
		res.Tokens = tokens
	}
	return res, nil
}

func callOptions(opts []CallOption) callConfig {
	var cfg callConfig
	for _, o := range opts {
		o(&cfg)
	}
	return cfg
}

// begin brings the state up to date with req and returns the result so
// far (budget and the estimate before compaction) and how many new user
// messages arrived.
func (p *Preflight) begin(req *Request, cfg callConfig) (*Result, int, error) {
	newUsers, err := p.sync(req.Messages)
	if err != nil {
		return nil, 0, err
	}
	p.syncOverhead(req.System, req.Tools)
	budget := p.budget(req, cfg.settings)
	res := &Result{Budget: budget, Counter: p.counter.Name(), Exact: p.counter.Exact(), TokensBefore: p.tokens()}
	return res, newUsers, nil
}

// due applies the pressure rule and reports whether this call compacts.
// A call is pressured when its estimate is over the threshold; after
// MaxPressured pressured calls in a row, automatic compaction is suppressed
// until a call starts under the threshold or a new user message arrives,
// so a history that compaction cannot shrink does not loop. A request over
// the hard limit compacts anyway: it cannot be sent as it is. Eager mode
// compacts every EagerTurns user turns, whatever the pressure.
func (p *Preflight) due(res *Result, newUsers int) bool {
	if newUsers > 0 {
		p.st.pressured = 0
		p.st.turnsSinceEdit += newUsers
	}
	res.Pressured = res.TokensBefore > res.Budget.Threshold()
	if res.Pressured {
		p.st.pressured++
	} else {
		p.st.pressured = 0
	}
	maxP := p.opts.MaxPressured
	if maxP <= 0 {
		maxP = DefaultMaxPressured
	}
	res.Suppressed = res.Pressured && p.st.pressured > maxP
	eagerDue := p.opts.EagerTurns > 0 && p.st.turnsSinceEdit >= p.opts.EagerTurns
	overLimit := res.TokensBefore > res.Budget.InputLimit()
	return ((res.Pressured || eagerDue) && !res.Suppressed) || overLimit
}

// Compact runs the strategy on req now, whatever the pressure: a manual
// compaction, which may keep a candidate that does not reduce the count.
// It returns ErrNothingToCompact, leaving everything as it was, when the
// strategy finds nothing to do.
func (p *Preflight) Compact(ctx context.Context, req Request, opts ...CallOption) (*Result, error) {
	cfg := callOptions(opts)
	if p.strategy == nil {
		return nil, fmt.Errorf("%w: compaction is off (no strategy)", ErrNothingToCompact)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	res, _, err := p.begin(&req, cfg)
	if err != nil {
		return nil, err
	}
	tokens, err := p.attempt(ctx, &req, res.Budget, res, res.TokensBefore,
		pass{emergency: cfg.emergency, manual: true, instructions: cfg.instructions, summarizer: cfg.summarizer})
	if err != nil {
		return nil, err
	}
	if len(res.Records) == 0 {
		if len(res.Rejected) > 0 {
			return nil, res.Rejected[len(res.Rejected)-1]
		}
		return nil, ErrNothingToCompact
	}
	return p.finish(res, &req, tokens), nil
}

// pass says what kind of compaction an attempt is.
type pass struct {
	// emergency asks for recent retention zero, the second attempt of an
	// automatic compaction or a manual one that asks for it.
	emergency bool
	// manual is a compaction the user asked for: it may keep a candidate
	// that does not reduce the count.
	manual       bool
	instructions string
	// summarizer, when set, writes this call's summaries
	// (WithSummarizer).
	summarizer Summarizer
}

// attempt runs the strategy once and adopts its candidate when it is valid
// and (unless manual) strictly smaller. It returns the estimate afterwards.
// Only cancellation is returned as an error: a failed or refused candidate
// leaves the state as it was and is noted in res.Rejected.
func (p *Preflight) attempt(ctx context.Context, req *Request, budget Budget, res *Result, tokens int, ps pass) (int, error) {
	cc := p.compactionContext(req, budget, tokens, ps)
	start := time.Now()
	cand, err := p.strategy.Compact(ctx, cc)
	if cerr := ctx.Err(); cerr != nil {
		return tokens, cerr
	}
	var v validator
	if err == nil {
		v, err = p.vet(cand)
	}
	var after int
	if err == nil {
		after = cc.Count(cand.Rendering)
		if !ps.manual && after >= tokens {
			err = fmt.Errorf("%w (%d → %d tokens)", errNoReduction, tokens, after)
		}
	}
	if err != nil {
		p.refuse(res, err, ps)
		return tokens, nil
	}
	rec := p.record(cc, cand, tokens, after, ps)
	rec.Duration = time.Since(start)
	p.adopt(cand.Rendering, v)
	res.Records = append(res.Records, rec)
	return after, nil
}

// memo returns the state's memo, made on first use.
func (p *Preflight) memo() *memo {
	if p.st.memo == nil {
		p.st.memo = &memo{}
	}
	return p.st.memo
}

// compactionContext is what the strategy sees in one attempt.
func (p *Preflight) compactionContext(req *Request, budget Budget, tokens int, ps pass) *CompactionContext {
	sm := p.opts.Summarizer
	if ps.summarizer != nil {
		sm = ps.summarizer
	}
	return &CompactionContext{
		History:      p.st.history,
		Current:      p.st.rendering[:len(p.st.rendering):len(p.st.rendering)],
		System:       req.System,
		Tools:        p.st.tools,
		Tokens:       tokens,
		Budget:       budget,
		Model:        req.Model,
		Emergency:    ps.emergency,
		Manual:       ps.manual,
		Instructions: ps.instructions,
		Counter:      p.counter,
		Checkpoint:   fmt.Sprintf("c%d", p.st.checkpoints+1),
		Summarizer:   sm,
		Logger:       p.log,
		overhead:     p.st.overhead,
		hist:         p.st.counts,
		chain:        p.st.chain,
		memo:         p.memo(),
	}
}

// vet checks a strategy's candidate before it is counted: it must change
// the rendering, refer only to log messages that exist, and keep every
// tool call with its results. It returns the candidate's validation state.
func (p *Preflight) vet(cand *Candidate) (validator, error) {
	if cand == nil || cand.Rendering.Equal(p.st.rendering) {
		return validator{}, ErrNothingToCompact
	}
	for i := range cand.Rendering {
		if ix := cand.Rendering[i].Index; ix >= len(p.st.history) {
			return validator{}, fmt.Errorf("%w: item %d refers to log index %d beyond the history", ErrInvalidHistory, i, ix)
		}
	}
	v, err := validateRendering(cand.Rendering)
	if err != nil {
		return v, fmt.Errorf("candidate breaks turn safety: %w", err)
	}
	if err := keepsProtected(p.st.history, p.st.rendering, cand.Rendering); err != nil {
		return v, err
	}
	return v, nil
}

// ErrLostProtected: a candidate rendering does not keep verbatim a message
// every compaction must keep — the task (the first user message), a pinned
// message, the newest user message, or a message of the newest step (the
// last assistant message and its tool results). The preflight refuses such
// a candidate, whichever strategy made it. The one change to the newest
// step it accepts is its own: tool results cut to their head and tail
// around a truncation marker (EditTruncated), made when the step alone
// cannot fit.
var ErrLostProtected = errors.New("candidate drops a message every compaction keeps")

// keepsProtected checks that r renders verbatim the messages of history
// every compaction must keep; a tool message of the newest step may
// instead be rendered with results truncated (IsTruncationOf), nothing
// else changed. A message base (the current rendering) already does not
// render verbatim is not asked of r: a compaction cannot bring back what an
// earlier one, such as the agent's own compaction restored from a
// transcript, summarized away.
func keepsProtected(history []Message, base, r Rendering) error {
	protected := map[int]string{}
	firstUser, lastUser := -1, -1
	for i := range history {
		if history[i].Pinned {
			protected[i] = "a pinned message"
		}
		if history[i].Role == RoleUser {
			if firstUser < 0 {
				firstUser = i
			}
			lastUser = i
		}
	}
	if lastUser >= 0 {
		protected[lastUser] = "the newest user message"
		protected[firstUser] = "the task"
	}
	step, _ := LastStep(history)
	for i := step.Start; i < step.End; i++ {
		protected[i] = "the newest step"
	}
	if base != nil {
		inBase := map[int]bool{}
		for i := range base {
			it := &base[i]
			if _, ok := protected[it.Index]; ok && it.Index >= 0 && it.Index < len(history) &&
				(it.Edit == EditNone && sameMessage(&it.Message, &history[it.Index]) || it.Edit == EditTruncated) {
				inBase[it.Index] = true
			}
		}
		for i := range protected {
			if !inBase[i] {
				delete(protected, i)
			}
		}
	}
	for i := range r {
		it := &r[i]
		if _, ok := protected[it.Index]; !ok {
			continue
		}
		switch {
		case it.Edit == EditNone && sameMessage(&it.Message, &history[it.Index]):
		case it.Edit == EditTruncated && step.Contains(it.Index) && IsTruncationOf(&history[it.Index], &it.Message, it.Index):
		default:
			continue
		}
		delete(protected, it.Index)
	}
	first := -1
	for i := range protected {
		if first < 0 || i < first {
			first = i
		}
	}
	if first < 0 {
		return nil
	}
	return fmt.Errorf("%w: %s (log message %d) is not rendered verbatim", ErrLostProtected, protected[first], first)
}

// validateRendering runs the turn-safety checks over r's messages and
// returns the validation state after them.
func validateRendering(r Rendering) (validator, error) {
	var v validator
	for i := range r {
		if err := v.add(i, &r[i].Message); err != nil {
			return v, err
		}
	}
	return v, nil
}

// refuse notes a candidate the preflight did not adopt, and logs why
// unless the strategy merely found nothing to do.
func (p *Preflight) refuse(res *Result, err error, ps pass) {
	name := strategyName(p.strategy)
	err = &StrategyError{Strategy: name, Err: err}
	res.Rejected = append(res.Rejected, err)
	switch {
	case errors.Is(err, ErrNothingToCompact):
	case errors.Is(err, errNoReduction):
		p.log.Info("condense: compaction candidate refused", "strategy", name, "emergency", ps.emergency, "err", redact.Err(err))
	default:
		p.log.Warn("condense: compaction candidate refused", "strategy", name, "emergency", ps.emergency, "err", redact.Err(err))
	}
}

// record describes an adopted candidate and hands out its checkpoint id.
func (p *Preflight) record(cc *CompactionContext, cand *Candidate, before, after int, ps pass) Record {
	p.st.checkpoints++
	rec := Record{
		Checkpoint:     cc.Checkpoint,
		Strategy:       strategyName(p.strategy),
		Emergency:      ps.emergency,
		Manual:         ps.manual,
		TokensBefore:   before,
		TokensAfter:    after,
		MessagesBefore: len(p.st.rendering),
		MessagesAfter:  len(cand.Rendering),
		Window:         cc.Budget.Window,
		Threshold:      cc.Budget.Threshold(),
		Target:         cc.Budget.Target(),
		LedgerItems:    cand.LedgerItems,
		Demoted:        cand.Demoted,
		LedgerBudget:   cand.LedgerBudget,
		Steps:          cand.Steps,
		Summary:        cand.Summary,
		Usage:          cand.Usage,
		Trim:           cand.Trim,
	}
	if cand.Gate != nil {
		rec.Gate = *cand.Gate
	}
	return rec
}

// adopt makes r, a vetted candidate, the current rendering; v is its
// validation state.
func (p *Preflight) adopt(r Rendering, v validator) {
	p.setRendering(r)
	p.st.val = v
	p.st.valDirty = false
	p.st.compacted = true
	p.st.compactedUpTo = len(p.st.history)
	p.st.turnsSinceEdit = 0
}

func (p *Preflight) finish(res *Result, req *Request, tokens int) *Result {
	out := p.st.out[:len(p.st.out):len(p.st.out)]
	r := p.st.rendering[:len(p.st.rendering):len(p.st.rendering)]
	// The note goes last, so it is left out while calls wait for their
	// results: a message between a call and its result breaks turn safety.
	if p.opts.BudgetNote && res.Budget.Known() && len(p.st.val.open) == 0 {
		note := Item{Index: -1, Edit: EditNote, Message: Message{Role: RoleUser, Parts: []Part{Text(budgetNoteText(tokens, res.Budget))}}}
		tokens += corrected(p.counter, p.counter.CountMessage(&note.Message))
		out = append(out, note.Message)
		r = append(r, note)
	}
	res.Request = Request{
		Model:           req.Model,
		System:          req.System,
		Tools:           p.st.tools[:len(p.st.tools):len(p.st.tools)],
		Messages:        out,
		MaxOutputTokens: req.MaxOutputTokens,
		ThinkingBudget:  req.ThinkingBudget,
	}
	res.Rendering = r
	res.Tokens = tokens
	return res
}

// budgetNoteText is the agent-visible budget note: how full the context is
// and when compaction will happen.
func budgetNoteText(tokens int, b Budget) string {
	limit := b.InputLimit()
	pct := 0
	if limit > 0 {
		pct = tokens * 100 / limit
	}
	return fmt.Sprintf("[condense: context %d%% full (%s of %s input tokens); older context is compacted above %s tokens]",
		pct, humanize.Comma(int64(tokens)), humanize.Comma(int64(limit)), humanize.Comma(int64(b.Threshold())))
}

func (p *Preflight) budget(req *Request, call Settings) Budget {
	var info ModelInfo
	if p.opts.Registry != nil {
		info, _ = p.opts.Registry.Lookup(req.Model)
	}
	return ResolveBudget(req, info, call, p.opts.Settings, p.opts.Client)
}

func (p *Preflight) tokens() int {
	return corrected(p.counter, p.st.overhead+p.st.total)
}

func (p *Preflight) syncOverhead(system string, tools []Tool) {
	if p.st.haveOverhead && system == p.st.system && toolsEqual(tools, p.st.reqTools) {
		return
	}
	p.st.system = system
	p.st.reqTools = append([]Tool(nil), tools...)
	p.st.tools = dedupTools(tools)
	p.st.overhead = max(1, p.counter.CountOverhead(system, p.st.tools))
	p.st.haveOverhead = true
}

// dedupTools returns tools with exact repeats of a definition (same name,
// description and schema bytes) left out: lossless, and what minify
// promises for tool definitions.
func dedupTools(tools []Tool) []Tool {
	out := make([]Tool, 0, len(tools))
	for _, t := range tools {
		if !slices.ContainsFunc(out, func(o Tool) bool {
			return o.Name == t.Name && o.Description == t.Description && bytes.Equal(o.InputSchema, t.InputSchema)
		}) {
			out = append(out, t)
		}
	}
	return out
}

func toolsEqual(a, b []Tool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Description != b[i].Description || !bytes.Equal(a[i].InputSchema, b[i].InputSchema) {
			return false
		}
	}
	return true
}

func (p *Preflight) setRendering(r Rendering) {
	p.st.rendering = r
	p.st.out = r.Messages()
	cc := CompactionContext{Counter: p.counter, hist: p.st.counts}
	total := 0
	for i := range r {
		total += cc.CountItem(&r[i])
	}
	p.st.total = total
}

// sync brings the state up to date with msgs and returns how many new user
// messages arrived.
func (p *Preflight) sync(msgs []Message) (int, error) {
	k := len(p.st.history)
	if d := p.divergence(msgs); d < k {
		p.truncate(d)
		k = d
	}
	if p.st.valDirty {
		p.st.val = validator{}
		for i := range p.st.rendering {
			if err := p.st.val.add(i, &p.st.rendering[i].Message); err != nil {
				return 0, err
			}
		}
		p.st.valDirty = false
	}
	newUsers := 0
	start := len(p.st.rendering)
	for i := k; i < len(msgs); i++ {
		if err := p.st.val.add(start+(i-k), &msgs[i]); err != nil {
			// Leave the state as it was before this call.
			p.st.valDirty = true
			var ve *ValidationError
			if errors.As(err, &ve) {
				e := *ve
				e.Index = k + (ve.Index - start)
				if e.Index < 0 || e.Index >= len(msgs) {
					e.Index = i
				}
				return 0, &e
			}
			return 0, err
		}
		if msgs[i].Role == RoleUser {
			newUsers++
		}
	}
	p.appendHistory(msgs[k:])
	return newUsers, nil
}

func (p *Preflight) appendHistory(msgs []Message) {
	counts := countAll(p.counter, msgs)
	for i := range msgs {
		idx := len(p.st.history)
		m := msgs[i]
		fp := Fingerprint(&m)
		var prev uint64
		if idx > 0 {
			prev = p.st.chain[idx-1]
		}
		n := counts[i]
		p.st.history = append(p.st.history, m)
		p.st.fps = append(p.st.fps, fp)
		p.st.chain = append(p.st.chain, chain(prev, fp))
		p.st.counts = append(p.st.counts, n)
		p.st.rendering = append(p.st.rendering, Item{Index: idx, Message: m, tokens: n})
		p.st.out = append(p.st.out, m)
		p.st.total += n
	}
}

// parallelFrom is the number of messages from which countAll spreads the
// counting over the cores: below it, starting goroutines costs more than
// it saves.
const parallelFrom = 64

// countAll returns the count of each message (at least 1). Messages are
// independent, so a long history — a transcript read at once, a session
// reopened — is counted on every core (GOMAXPROCS).
func countAll(c Counter, msgs []Message) []int {
	counts := make([]int, len(msgs))
	workers := min(runtime.GOMAXPROCS(0), len(msgs)/parallelFrom*2)
	if workers <= 1 {
		for i := range msgs {
			counts[i] = max(1, c.CountMessage(&msgs[i]))
		}
		return counts
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 16
	for range workers {
		wg.Go(func() {
			for {
				from := int(next.Add(chunk)) - chunk
				if from >= len(msgs) {
					return
				}
				for i := from; i < min(from+chunk, len(msgs)); i++ {
					counts[i] = max(1, c.CountMessage(&msgs[i]))
				}
			}
		})
	}
	wg.Wait()
	return counts
}

// divergence returns the first index where msgs differs from the history
// seen, or len(history) when msgs extends it.
func (p *Preflight) divergence(msgs []Message) int {
	k := len(p.st.history)
	if k == 0 {
		return 0
	}
	if p.opts.VerifyPrefix {
		var h uint64
		for i := 0; i < min(k, len(msgs)); i++ {
			h = chain(h, Fingerprint(&msgs[i]))
			if h != p.st.chain[i] {
				return i
			}
		}
		return min(k, len(msgs))
	}
	same := func(i int) bool {
		a, b := &msgs[i], &p.st.history[i]
		if a.ID != "" && b.ID != "" {
			return a.ID == b.ID && a.Role == b.Role
		}
		return Fingerprint(a) == p.st.fps[i]
	}
	if len(msgs) >= k && same(0) && same(k-1) {
		return k
	}
	// Something changed: find where, comparing fingerprints.
	for i := 0; i < min(k, len(msgs)); i++ {
		if Fingerprint(&msgs[i]) != p.st.fps[i] {
			return i
		}
	}
	return min(k, len(msgs))
}

// truncate forgets the history from index d on. When d falls inside the
// compacted part the overlay is dropped too.
func (p *Preflight) truncate(d int) {
	p.log.Debug("condense: history changed; forgetting the tail", "from", d, "seen", len(p.st.history))
	p.st.memo.forgetFrom(d)
	hist := p.st.history[:d:d]
	if p.st.compacted && d < p.st.compactedUpTo {
		p.st.compacted = false
		p.st.compactedUpTo = 0
		p.st.history, p.st.fps, p.st.chain, p.st.counts = nil, nil, nil, nil
		p.st.rendering, p.st.out, p.st.total = nil, nil, 0
		p.st.valDirty = true
		p.appendHistory(hist)
		return
	}
	p.st.history = hist
	p.st.fps = p.st.fps[:d:d]
	p.st.chain = p.st.chain[:d:d]
	p.st.counts = p.st.counts[:d:d]
	keep := 0
	for keep < len(p.st.rendering) && p.st.rendering[keep].Index < d {
		keep++
	}
	p.setRendering(p.st.rendering[:keep:keep])
	p.st.valDirty = true
}

// errNoReduction: an automatic candidate that is not strictly smaller. Only
// a manual compaction may keep one.
var errNoReduction = errors.New("candidate does not reduce the request")

// warnUnknownModel warns once per preflight and model that a request is
// sent without a window guard.
func (p *Preflight) warnUnknownModel(model string) {
	if p.warned == nil {
		p.warned = map[string]bool{}
	}
	if p.warned[model] {
		return
	}
	p.warned[model] = true
	p.log.Warn("condense: unknown model and no window set: requests are sent without a window guard; set a Window", "model", model)
}
