package session

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// Options configure a Session. The zero value is ready to use.
type Options struct {
	// Request is the request template — model, system, tools, output cap —
	// that Compact and CompactionAvailable use until a Prepare gives a
	// newer one.
	Request condense.Request
	// Counter counts tokens; nil means tokens.ForModel(Request.Model).
	Counter condense.Counter
	// Strategy compacts; nil means strategy.Default().
	Strategy condense.Strategy
	// Preflight configures the preflight (budget settings, registry,
	// summarize helper…). Its Logger defaults to Logger, its Registry to
	// tokens.Models.
	Preflight condense.Options
	// LoadAll decodes every message on open. Without it, log messages the
	// latest checkpoint hides (covered by summaries and drop markers) are
	// left undecoded until something asks for them (Recall, History, an
	// undo that shows them again): strategies see them in History as
	// empty stand-ins. Set it for custom strategies that read History
	// beyond the rendering.
	LoadAll bool
	// Logger receives warnings, their error values with secrets redacted
	// (ledger.Redact). nil means slog.Default().
	Logger *slog.Logger
	// Now is the clock of checkpoint times; nil means time.Now.
	Now func() time.Time
}

// Session is one conversation: the append-only log in a store, its
// checkpoints, a lock, unsaved state, and the preflight that renders its
// requests. All methods are safe for concurrent use. Appends share the
// session lock; Prepare, Compact, Undo, Flush and SetStrategy hold it alone,
// so a compaction never overlaps a prompt, another compaction, an append or
// a configuration change.
type Session struct {
	id      string
	log     store.Log
	opts    Options
	counter condense.Counter
	logger  *slog.Logger
	lk      rwlock

	mu       sync.Mutex
	strat    condense.Strategy
	pf       *condense.Preflight
	hist     []condense.Message // what the preflight sees; stand-ins where not loaded
	loaded   []bool
	durable  int // messages in the store
	pending  []store.Batch
	saveErr  error
	cps      []store.Checkpoint // live checkpoints, in order (unsaved ones included)
	all      []store.Checkpoint // every checkpoint saved or made, undone ones included
	maxCP    int                // highest checkpoint number ever used
	template condense.Request
	// rendering is the preflight's rendering as of the last call (read
	// without waiting for a compaction in progress).
	rendering condense.Rendering
	closed    bool
}

// Open opens session id in st for writing (creating it when new), checks
// its checkpoints and restores the latest rendering. A checkpoint that
// fails validation is a *CheckpointError naming it; the session never opens
// half-valid. Another writer holding the session gives
// store.ErrLocked.
func Open(ctx context.Context, st store.Store, id string, opts *Options) (*Session, error) {
	s := &Session{id: id}
	if opts != nil {
		s.opts = *opts
	}
	s.logger = s.opts.Logger
	if s.logger == nil {
		s.logger = slog.Default()
	}
	if s.opts.Preflight.Registry == nil {
		s.opts.Preflight.Registry = tokens.Models
	}
	s.counter = s.opts.Counter
	if s.counter == nil {
		s.counter = tokens.ForModel(s.opts.Request.Model, s.opts.Preflight.Registry)
	}
	s.strat = s.opts.Strategy
	if s.strat == nil {
		s.strat = strategy.Default()
	}
	s.template = s.opts.Request
	s.template.Messages = nil
	l, err := st.Open(ctx, id)
	if err != nil {
		return nil, err
	}
	s.log = l
	if err := s.restore(ctx); err != nil {
		l.Close()
		return nil, err
	}
	return s, nil
}

func (s *Session) newPreflight() *condense.Preflight {
	po := s.opts.Preflight
	if po.Logger == nil {
		po.Logger = s.logger
	}
	return condense.NewPreflight(s.counter, s.strat, &po)
}

// stub stands for a log message that is not decoded.
var stub = condense.Message{Role: condense.RoleUser}

func (s *Session) now() time.Time {
	if s.opts.Now != nil {
		return s.opts.Now()
	}
	return time.Now()
}

// restore reads the log's state and rebuilds the preflight.
func (s *Session) restore(ctx context.Context) error {
	n := s.log.Len()
	s.durable = n
	s.hist = make([]condense.Message, n)
	s.loaded = make([]bool, n)
	for i := range s.hist {
		s.hist[i] = stub
	}
	s.all = s.log.Checkpoints()
	retired := map[string]bool{}
	for _, u := range s.log.Undos() {
		for _, id := range u.Checkpoints {
			retired[id] = true
		}
	}
	s.cps = nil
	for _, cp := range s.all {
		for _, id := range checkpointIDs(&cp) {
			if k, ok := cpNumber(id); ok {
				s.maxCP = max(s.maxCP, k)
			}
		}
		if !retired[cp.ID] {
			s.cps = append(s.cps, cp)
		}
	}
	if err := validateCheckpoints(s.cps, n); err != nil {
		return err
	}
	if len(s.cps) == 0 || s.opts.LoadAll {
		if err := s.load(ctx, 0, n); err != nil {
			return err
		}
	}
	s.pf = s.newPreflight()
	if len(s.cps) == 0 {
		return s.pf.Restore(nil, nil, s.maxCP)
	}
	if err := s.checkBoundaries(ctx, s.cps); err != nil {
		return err
	}
	return s.restoreOverlay(ctx, len(s.cps))
}

// checkBoundaries checks that summary boundaries are user messages; a
// split-turn summary, which cuts a turn too large to keep whole, may end
// at a step, before an assistant message.
func (s *Session) checkBoundaries(ctx context.Context, cps []store.Checkpoint) error {
	split := false
	for k := range cps {
		cp := &cps[k]
		for _, r := range cp.Records {
			for _, st := range r.Steps {
				split = split || strings.Contains(st, "split-turn")
			}
		}
		for _, e := range cp.Rendering {
			if e.Edit == condense.EditSummary && e.Covers != nil && e.Covers[1] < cp.HistoryCount {
				b := e.Covers[1]
				if err := s.load(ctx, b, b+1); err != nil {
					return err
				}
				role := s.hist[b].Role
				if role != condense.RoleUser && !(split && role == condense.RoleAssistant) {
					return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("summary boundary %d is a %s message, not a user message", b, role)}
				}
			}
		}
	}
	return nil
}

// restoreOverlay renders the log through the first k live checkpoints
// (the latest of them, plus what came after verbatim) and restores the
// preflight to it. Called with s.mu held or before the session is shared.
func (s *Session) restoreOverlay(ctx context.Context, k int) error {
	n := len(s.hist)
	var r condense.Rendering
	from := 0
	var cp *store.Checkpoint
	if k > 0 {
		cp = &s.cps[k-1]
		if err := s.loadIndexes(ctx, cp.Rendering.Indexes()); err != nil {
			return err
		}
		var err error
		r, err = cp.Rendering.Rendering(s.hist[:cp.HistoryCount])
		if err != nil {
			return &CheckpointError{ID: cp.ID, Reason: "rendering", Err: err}
		}
		from = cp.HistoryCount
	}
	if err := s.load(ctx, from, n); err != nil {
		return err
	}
	for i := from; i < n; i++ {
		r = append(r, condense.Item{Index: i, Message: s.hist[i]})
	}
	pf := s.newPreflight()
	if k > 0 || n > 0 {
		if err := pf.Restore(s.hist[:n:n], r, s.maxCP); err != nil {
			if cp != nil {
				return &CheckpointError{ID: cp.ID, Reason: "rendering does not validate", Err: err}
			}
			return err
		}
	}
	s.pf = pf
	s.rendering = pf.Rendering()
	return nil
}

// load decodes log messages [from, to) into hist where not yet loaded.
func (s *Session) load(ctx context.Context, from, to int) error {
	to = min(to, s.durable)
	for from < to && s.loaded[from] {
		from++
	}
	for to > from && s.loaded[to-1] {
		to--
	}
	if from >= to {
		return nil
	}
	msgs, err := s.log.Messages(ctx, from, to)
	if err != nil {
		return err
	}
	for i := range msgs {
		if !s.loaded[from+i] {
			s.hist[from+i] = msgs[i]
			s.loaded[from+i] = true
		}
	}
	return nil
}

func (s *Session) loadIndexes(ctx context.Context, ix []int) error {
	for i := 0; i < len(ix); {
		j := i + 1
		for j < len(ix) && ix[j] == ix[j-1]+1 {
			j++
		}
		if err := s.load(ctx, ix[i], ix[j-1]+1); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// validateCheckpoints checks the live checkpoints against a log of n
// messages: ranges inside the history, a possible order, ids that count
// up. A session never opens over a checkpoint it cannot render.
func validateCheckpoints(cps []store.Checkpoint, n int) error {
	prevCount, prevKept, prevNum := 0, 0, 0
	for k := range cps {
		cp := &cps[k]
		num, ok := cpNumber(cp.ID)
		switch {
		case !ok:
			return &CheckpointError{ID: cp.ID, Reason: "id is not c<number>"}
		case num <= prevNum:
			return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("comes after c%d", prevNum)}
		case cp.HistoryCount > n:
			return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("counts %d messages, the log holds %d", cp.HistoryCount, n)}
		case cp.HistoryCount < prevCount:
			return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("counts %d messages, fewer than the checkpoint before it (%d)", cp.HistoryCount, prevCount)}
		case cp.FirstKept < prevKept:
			return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("first kept index %d is before the previous checkpoint's (%d)", cp.FirstKept, prevKept)}
		case cp.FirstKept > cp.HistoryCount:
			return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("first kept index %d is beyond its history (%d)", cp.FirstKept, cp.HistoryCount)}
		}
		if err := cp.Rendering.Check(cp.HistoryCount); err != nil {
			return &CheckpointError{ID: cp.ID, Reason: "rendering", Err: err}
		}
		if fk := firstKept(cp.Rendering); fk != cp.FirstKept {
			return &CheckpointError{ID: cp.ID, Reason: fmt.Sprintf("first kept index %d does not match its rendering (%d)", cp.FirstKept, fk)}
		}
		prevCount, prevKept, prevNum = cp.HistoryCount, cp.FirstKept, num
	}
	return nil
}

// cpNumber parses "c12".
func cpNumber(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "c")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0 && strconv.Itoa(n) == rest
}

// checkpointIDs returns the id of cp and those of the passes merged in it.
func checkpointIDs(cp *store.Checkpoint) []string {
	ids := []string{cp.ID}
	for _, r := range cp.Records {
		if r.Checkpoint != "" && r.Checkpoint != cp.ID {
			ids = append(ids, r.Checkpoint)
		}
	}
	return ids
}

// firstKept returns the lowest log index rendered after the last summary
// or drop marker, 0 when there is none.
func firstKept(o store.Overlay) int {
	last := -1
	for k, e := range o {
		if e.Run == nil && e.Index < 0 && (e.Edit == condense.EditSummary || e.Edit == condense.EditDropped) {
			last = k
		}
	}
	if last < 0 {
		return 0
	}
	for _, e := range o[last+1:] {
		if e.Run != nil {
			return e.Run[0]
		}
		if e.Index >= 0 {
			return e.Index
		}
	}
	if c := o[last].Covers; c != nil {
		return c[1]
	}
	return 0
}

// ID returns the session id.
func (s *Session) ID() string { return s.id }

// Len returns the number of messages in the session, unsaved ones included.
func (s *Session) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.hist)
	for _, b := range s.pending {
		n += len(b.Messages)
	}
	return n
}

// usable reports why the session cannot take new work; s.mu held.
func (s *Session) usable() error {
	if s.closed {
		return ErrClosed
	}
	if s.saveErr != nil {
		return &SaveError{Pending: len(s.pending), Err: s.saveErr}
	}
	return nil
}

// Append adds messages to the log and returns once they are durable. A
// failed save keeps them in memory and blocks new work until Flush.
// Concurrent appends to one session are committed together; each call's
// messages stay contiguous.
func (s *Session) Append(ctx context.Context, msgs ...condense.Message) error {
	if err := s.lk.lock(ctx, false); err != nil {
		return err
	}
	defer s.lk.unlock(false)
	return s.appendLocked(ctx, msgs)
}

func (s *Session) appendLocked(ctx context.Context, msgs []condense.Message) error {
	s.mu.Lock()
	err := s.usable()
	s.mu.Unlock()
	if err != nil {
		return err
	}
	if len(msgs) == 0 {
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	msgs = append([]condense.Message(nil), msgs...)
	// Once the write starts it completes: cancellation does not roll back
	// a save.
	first, err := s.log.Append(context.WithoutCancel(ctx), store.Batch{Messages: msgs})
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		return s.failed(store.Batch{Messages: msgs}, err)
	}
	s.place(first, msgs)
	return nil
}

// failed records a failed save; s.mu held.
func (s *Session) failed(b store.Batch, err error) error {
	s.pending = append(s.pending, b)
	if s.saveErr == nil {
		s.saveErr = err
	}
	s.logger.Warn("condense/session: save failed; holding unsaved state until Flush", "session", s.id, "err", redact.Err(err))
	return &SaveError{Pending: len(s.pending), Err: err}
}

// place puts durable messages at their log indexes; s.mu held.
func (s *Session) place(first int, msgs []condense.Message) {
	end := first + len(msgs)
	for len(s.hist) < end {
		s.hist = append(s.hist, stub)
		s.loaded = append(s.loaded, false)
	}
	for i := range msgs {
		s.hist[first+i] = msgs[i]
		s.loaded[first+i] = true
	}
	s.durable = max(s.durable, end)
}

// Flush saves what a failed save left in memory, in order, and lets the
// session take new work again. It never re-generates a summary or repeats
// anything: it writes what was already made.
func (s *Session) Flush(ctx context.Context) error {
	if err := s.lk.lock(ctx, true); err != nil {
		return err
	}
	defer s.lk.unlock(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	for len(s.pending) > 0 {
		b := s.pending[0]
		first, err := s.log.Append(context.WithoutCancel(ctx), b)
		if err != nil {
			s.saveErr = err
			return &SaveError{Pending: len(s.pending), Err: err}
		}
		s.place(first, b.Messages)
		s.pending = s.pending[1:]
	}
	s.pending = nil
	s.saveErr = nil
	return nil
}

// Unsaved reports whether a failed save left state that Flush must write.
func (s *Session) Unsaved() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.saveErr != nil
}

// Prepare renders the next request: req's model, system, tools and output
// settings over the session's history, compacting with the session's
// strategy when the budget asks for it. Messages in req, when there are
// any, are appended to the session first. A compaction is saved
// as a checkpoint before Prepare returns; when that save fails the result is
// withheld, the checkpoint is held in memory and the error is a *SaveError.
func (s *Session) Prepare(ctx context.Context, req condense.Request, opts ...condense.CallOption) (*condense.Result, error) {
	if err := s.lk.lock(ctx, true); err != nil {
		return nil, err
	}
	defer s.lk.unlock(true)
	if len(req.Messages) > 0 {
		if err := s.appendLocked(ctx, req.Messages); err != nil {
			return nil, err
		}
	}
	// The exclusive lock keeps every other writer out; s.mu is held only
	// to change fields, so readers (Len, Checkpoints, Rendering, Recall)
	// are not blocked by a long compaction.
	s.mu.Lock()
	if err := s.usable(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	req.Messages = s.hist[:len(s.hist):len(s.hist)]
	s.template = req
	s.template.Messages = nil
	s.mu.Unlock()
	res, err := s.pf.Prepare(ctx, req, opts...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rendering = s.pf.Rendering()
	if err != nil {
		// A request that cannot fit may still have been compacted: the
		// rendering keeps those compactions, so they are saved too.
		var we *condense.WindowError
		if errors.As(err, &we) && len(we.Records) > 0 {
			if cerr := s.checkpoint(ctx, we.Records); cerr != nil {
				return nil, cerr
			}
		}
		return nil, err
	}
	if len(res.Records) > 0 {
		if err := s.checkpoint(ctx, res.Records); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// Compact compacts now, whatever the pressure, with the request template
// of the last Prepare (or Options.Request): a manual compaction, which may
// keep a candidate that does not reduce the count. The options are the
// preflight's (condense.WithInstructions, condense.WithEmergency,
// condense.WithSettings). When the strategy finds nothing to do it returns
// condense.ErrNothingToCompact and the history and checkpoints stay as
// they were.
func (s *Session) Compact(ctx context.Context, opts ...condense.CallOption) (*condense.Result, error) {
	if err := s.lk.lock(ctx, true); err != nil {
		return nil, err
	}
	defer s.lk.unlock(true)
	s.mu.Lock()
	if err := s.usable(); err != nil {
		s.mu.Unlock()
		return nil, err
	}
	req := s.template
	req.Messages = s.hist[:len(s.hist):len(s.hist)]
	s.mu.Unlock()
	res, err := s.pf.Compact(ctx, req, opts...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rendering = s.pf.Rendering()
	if err != nil {
		return nil, err
	}
	if err := s.checkpoint(ctx, res.Records); err != nil {
		return nil, err
	}
	return res, nil
}

// checkpoint saves the preflight's new overlay as one checkpoint; s.mu
// held. The passes of one preflight share one checkpoint, named after the
// last.
func (s *Session) checkpoint(ctx context.Context, recs []condense.Record) error {
	last := recs[len(recs)-1]
	cp := store.Checkpoint{
		ID:           last.Checkpoint,
		Strategy:     last.Strategy,
		HistoryCount: len(s.hist),
		Time:         s.now().UTC(),
		Records:      append([]condense.Record(nil), recs...),
		Rendering:    store.EncodeOverlay(s.pf.Rendering()),
	}
	if cp.ID == "" {
		cp.ID = "c" + strconv.Itoa(s.maxCP+1)
	}
	for _, r := range recs {
		if r.Summary != "" {
			cp.Summary = r.Summary
		}
		cp.Usage = append(cp.Usage, r.Usage...)
		if k, ok := cpNumber(r.Checkpoint); ok {
			s.maxCP = max(s.maxCP, k)
		}
	}
	if k, ok := cpNumber(cp.ID); ok {
		s.maxCP = max(s.maxCP, k)
	}
	for _, u := range cp.Usage {
		if u.Provider != "" || u.Model != "" {
			cp.Provider, cp.Model = u.Provider, u.Model
			break
		}
	}
	cp.FirstKept = firstKept(cp.Rendering)
	// Never save what could not be restored: a checkpoint that fails the
	// checks of Open is refused, and the rendering goes back to the last
	// checkpoint's.
	next := append(s.cps[:len(s.cps):len(s.cps)], cp)
	if err := validateCheckpoints(next, len(s.hist)); err != nil {
		return s.refuse(ctx, err)
	}
	if err := s.checkBoundaries(ctx, next); err != nil {
		return s.refuse(ctx, err)
	}
	s.cps = append(s.cps, cp)
	s.all = append(s.all, cp)
	b := store.Batch{Checkpoint: &cp}
	if _, err := s.log.Append(context.WithoutCancel(ctx), b); err != nil {
		return s.failed(b, err)
	}
	return nil
}

// refuse puts the preflight back to the last saved overlay after a
// compaction whose checkpoint could not be restored; s.mu held.
func (s *Session) refuse(ctx context.Context, err error) error {
	s.logger.Warn("condense/session: compaction refused: its checkpoint would not restore", "session", s.id, "err", redact.Err(err))
	if rerr := s.restoreOverlay(ctx, len(s.cps)); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

// Rendering returns the current rendering (read-only): the latest
// checkpoint's overlay and the messages appended since, verbatim.
func (s *Session) Rendering() condense.Rendering {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rendering
}

// History returns the whole log, decoding what was left undecoded, with
// unsaved messages at the end.
func (s *Session) History(ctx context.Context) ([]condense.Message, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	out := make([]condense.Message, 0, len(s.hist))
	for i := 0; i < len(s.hist); {
		if s.loaded[i] {
			out = append(out, s.hist[i])
			i++
			continue
		}
		j := i
		for j < len(s.hist) && !s.loaded[j] {
			j++
		}
		msgs, err := s.log.Messages(ctx, i, j)
		if err != nil {
			return nil, err
		}
		out = append(out, msgs...)
		i = j
	}
	for _, b := range s.pending {
		out = append(out, b.Messages...)
	}
	return out, nil
}

// SetStrategy replaces the session's strategy (a configuration change: it
// waits for the session lock). The rendering stays as it is.
func (s *Session) SetStrategy(ctx context.Context, st condense.Strategy) error {
	if err := s.lk.lock(ctx, true); err != nil {
		return err
	}
	defer s.lk.unlock(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.usable(); err != nil {
		return err
	}
	if st == nil {
		st = strategy.Default()
	}
	old := s.strat
	s.strat = st
	pf := s.newPreflight()
	if err := restoreSeen(pf, s.hist[:len(s.hist):len(s.hist)], s.pf.Rendering(), s.maxCP); err != nil {
		s.strat = old
		return err
	}
	s.pf = pf
	return nil
}

// restoreSeen restores pf to rendering r over the part of hist r has seen:
// r renders the messages up to its highest log index (the newest message
// is always rendered); later messages are left for the next call to add
// verbatim.
func restoreSeen(pf *condense.Preflight, hist []condense.Message, r condense.Rendering, lastCheckpoint int) error {
	seen := 0
	for i := range r {
		seen = max(seen, r[i].Index+1, r[i].Covers.End)
	}
	if seen == 0 {
		return pf.Restore(nil, nil, lastCheckpoint)
	}
	return pf.Restore(hist[:seen:seen], r.Clone(), lastCheckpoint)
}

// CompactionAvailable reports whether a manual compaction could do
// anything now, without calling a model: it runs the strategy on a copy of
// the session's state, with a summarizer that answers every summary request
// locally, and throws the result away. Nothing is saved. (A custom strategy
// that calls a model of its own, rather than CompactionContext.Summarizer,
// is not shielded.)
func (s *Session) CompactionAvailable(ctx context.Context) (bool, error) {
	if err := s.lk.lock(ctx, true); err != nil {
		return false, err
	}
	defer s.lk.unlock(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, ErrClosed
	}
	po := s.opts.Preflight
	po.Logger = slog.New(slog.DiscardHandler)
	po.Summarizer = drySummarizer{}
	dry := condense.NewPreflight(s.counter, s.strat, &po)
	hist := s.hist[:len(s.hist):len(s.hist)]
	if err := restoreSeen(dry, hist, s.pf.Rendering(), s.maxCP); err != nil {
		return false, err
	}
	req := s.template
	req.Messages = hist
	_, err := dry.Compact(ctx, req)
	if cerr := ctx.Err(); cerr != nil {
		return false, cerr
	}
	return err == nil, nil
}

// drySummarizer answers every summary request of a dry run at once,
// without a model.
type drySummarizer struct{}

func (drySummarizer) Summarize(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
	return &condense.Summary{Text: "(dry run: no summary is made)"}, nil
}

// Close waits for work in flight, then releases the session. Unsaved state
// is lost; Close reports it with a *SaveError.
func (s *Session) Close() error {
	s.lk.lock(context.Background(), true)
	defer s.lk.unlock(true)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	err := s.log.Close()
	if s.saveErr != nil {
		return errors.Join(&SaveError{Pending: len(s.pending), Err: s.saveErr}, err)
	}
	return err
}
