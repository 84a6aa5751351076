package journal

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/condense-dev/condense/ledger"
)

// Replay errors.
var (
	// ErrDiverged: a rerun made a different event than the journal holds
	// at that point. The error value is a *DivergenceError.
	ErrDiverged = errors.New("replay diverged from the journal")
	// ErrCompactionNotConsumed: the strategy no longer makes the summarize
	// calls the journal recorded for a model call, so replay cannot serve
	// them.
	ErrCompactionNotConsumed = errors.New("recorded context compaction was not consumed")
	// ErrNotReplayable: the journal was captured below CaptureFull, so it
	// holds no answers to serve.
	ErrNotReplayable = errors.New("journal: captured below full: it cannot be replayed or resumed")
)

// DivergenceError is the first point where a rerun left its journal. It
// unwraps to ErrDiverged or ErrCompactionNotConsumed.
type DivergenceError struct {
	// Seq is the recorded event's position (0 past the journal's end).
	Seq int64
	// Want is the recorded event, Got the rerun's (nil when there is none).
	Want, Got *Event
	Reason    string
	Err       error
}

func (e *DivergenceError) Error() string {
	if e.Err == ErrCompactionNotConsumed {
		return ErrCompactionNotConsumed.Error()
	}
	s := "replay diverged"
	if e.Seq > 0 {
		s += fmt.Sprintf(" at event %d", e.Seq)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	// The recorded event holds content at CaptureFull: the message, which
	// goes to logs and terminals, has its secrets redacted.
	if e.Want != nil {
		s += "\n  recorded: " + ledger.Redact(Comparable(*e.Want))
	}
	if e.Got != nil {
		s += "\n  rerun:    " + ledger.Redact(Comparable(*e.Got))
	}
	return s
}

func (e *DivergenceError) Unwrap() error {
	if e.Err == nil {
		return ErrDiverged
	}
	return e.Err
}

// Mode says what a Recorder does once the journal's recorded events are
// used up.
type Mode int

const (
	// ModeRecord replays what the journal holds (resume), then appends
	// live events.
	ModeRecord Mode = iota
	// ModeVerify only replays: an event past the journal's end is a
	// divergence, and nothing is written.
	ModeVerify
)

// RecorderOptions configure a Recorder. The zero value records at
// CaptureFull.
type RecorderOptions struct {
	Capture Capture
	Mode    Mode
	// Now is the clock of event times; nil means time.Now.
	Now func() time.Time
}

// Recorder is one run's journal as the run sees it: a cursor over the
// events already recorded (served on resume and replay) followed by live
// appends. Its operations, in the order a run makes them, are Started,
// then for each call Serve (and, when it served nothing, Step) and
// Compacted, and last Finish. It is safe for concurrent use.
type Recorder struct {
	store Store
	run   string
	opts  RecorderOptions

	mu       sync.Mutex
	recorded []Event
	pos      int
	seq      int64
}

// NewRecorder opens run's journal in store. Recorded events, if any, are
// replayed before anything is appended. A journal captured below
// CaptureFull cannot be resumed: ErrNotReplayable.
func NewRecorder(ctx context.Context, store Store, run string, opts *RecorderOptions) (*Recorder, error) {
	if err := ValidRun(run); err != nil {
		return nil, err
	}
	r := &Recorder{store: store, run: run}
	if opts != nil {
		r.opts = *opts
	}
	r.opts.Capture = r.opts.Capture.Level()
	if r.opts.Now == nil {
		r.opts.Now = time.Now
	}
	evs, err := store.Load(ctx, run)
	switch {
	case errors.Is(err, ErrNotFound):
	case err != nil:
		return nil, err
	default:
		if len(evs) > 0 && (evs[0].Started == nil || evs[0].Started.Capture.Level() != CaptureFull) {
			return nil, fmt.Errorf("%w (run %s)", ErrNotReplayable, run)
		}
		r.recorded = evs
		r.seq = int64(len(evs))
		// A resumed run goes on at the level it was recorded at.
		r.opts.Capture = CaptureFull
	}
	if r.opts.Mode == ModeVerify && len(r.recorded) == 0 {
		return nil, fmt.Errorf("%w: run %s", ErrNotFound, run)
	}
	return r, nil
}

// Run returns the run id.
func (r *Recorder) Run() string { return r.run }

// Capture returns the capture level.
func (r *Recorder) Capture() Capture { return r.opts.Capture }

// Mode returns the recorder's mode.
func (r *Recorder) Mode() Mode { return r.opts.Mode }

// Replaying reports whether recorded events remain to be replayed.
func (r *Recorder) Replaying() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.pos < len(r.recorded)
}

// Recorded returns every event the journal held when the recorder opened.
func (r *Recorder) Recorded() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.recorded[:len(r.recorded):len(r.recorded)]
}

// Next returns the next recorded event that is not a context:compacted
// event or a transient run:error, skipping (consuming) those: compaction
// events are rewritten by the rerun, never served. ok is false past the
// recorded events.
func (r *Recorder) Next() (ev Event, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipCompacted()
	if r.pos >= len(r.recorded) {
		return Event{}, false
	}
	return r.recorded[r.pos], true
}

// Peek returns the next recorded event, compaction events included.
func (r *Recorder) Peek() (ev Event, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pos >= len(r.recorded) {
		return Event{}, false
	}
	return r.recorded[r.pos], true
}

// skipCompacted skips the recorded events a rerun does not reproduce one
// for one: compaction events, and run:error events that did not end the
// run for good (a resumed run went on after them).
func (r *Recorder) skipCompacted() {
	for r.pos < len(r.recorded) {
		e := r.recorded[r.pos]
		if e.Kind != KindCompacted && (e.Kind != KindRunError || e.Error.Final()) {
			return
		}
		r.pos++
	}
}

// Started records the run:started event. While replaying, the recorded
// one must start the same run: same agent and request fingerprint (its
// settings may differ: replaying under another window or fraction is
// allowed).
func (r *Recorder) Started(ctx context.Context, s RunStarted) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	got := Event{Run: r.run, Kind: KindRunStarted, Started: &s}
	if r.pos < len(r.recorded) {
		want := r.recorded[r.pos]
		if want.Kind != KindRunStarted || want.Started.Fingerprint != s.Fingerprint || want.Started.Agent != s.Agent {
			got = got.Redact(CaptureCounts)
			return &DivergenceError{Seq: want.Seq, Want: &want, Got: &got, Reason: "the run starts from a different request"}
		}
		r.pos++
		return nil
	}
	return r.live(ctx, got)
}

// Serve returns the recorded answer of the step identified by want (its
// kind, call index, compaction_for, tool index, tool, call id and, except
// for summarize calls, fingerprint), consuming it; the caller uses the
// answer instead of calling the model or the tool. Past the recorded events
// it returns nil (the step is live: call it, then Step), or in ModeVerify a
// divergence. A recorded summarize call where want is the agent's own call
// is ErrCompactionNotConsumed.
func (r *Recorder) Serve(want Step) (*Step, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipCompacted()
	got := Event{Run: r.run, Kind: KindStepDone, Step: &want}
	if r.pos >= len(r.recorded) {
		if r.opts.Mode == ModeVerify {
			return nil, &DivergenceError{Got: &got, Reason: "the rerun goes on past the end of the journal"}
		}
		return nil, nil
	}
	rec := r.recorded[r.pos]
	got.Seq = rec.Seq
	if rec.Kind == KindStepDone && rec.Step.Summarize() && !want.Summarize() {
		return nil, &DivergenceError{Seq: rec.Seq, Want: &rec, Got: &got, Err: ErrCompactionNotConsumed}
	}
	if rec.Kind != KindStepDone || !sameStep(rec.Step, &want) {
		reason := "the rerun made a different step"
		if want.Summarize() {
			reason = "the strategy made a summarize call the journal does not hold"
		}
		return nil, &DivergenceError{Seq: rec.Seq, Want: &rec, Got: &got, Reason: reason}
	}
	r.pos++
	s := *rec.Step
	return &s, nil
}

func sameStep(a, b *Step) bool {
	if a.StepKind != b.StepKind || a.CallIndex != b.CallIndex || a.CompactionFor != b.CompactionFor ||
		a.ToolIndex != b.ToolIndex || a.Tool != b.Tool || a.CallID != b.CallID {
		return false
	}
	return a.Summarize() || a.Fingerprint == b.Fingerprint
}

// Step appends a live step (one Serve did not answer).
func (r *Recorder) Step(ctx context.Context, s Step, d time.Duration) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.live(ctx, Event{Run: r.run, Kind: KindStepDone, Step: &s, Duration: d})
}

// Finish records the run's last event, run:done or run:error. While
// replaying, the recorded one must be of the same kind (and code); then
// no recorded event may remain.
func (r *Recorder) Finish(ctx context.Context, ev Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	ev.Run = r.run
	r.skipCompacted()
	if r.pos < len(r.recorded) {
		want := r.recorded[r.pos]
		if want.Kind != ev.Kind || (ev.Error != nil && want.Error.Code != ev.Error.Code) {
			ev = ev.Redact(CaptureCounts)
			return &DivergenceError{Seq: want.Seq, Want: &want, Got: &ev, Reason: "the run ends differently"}
		}
		r.pos++
		r.skipCompacted()
		if r.pos < len(r.recorded) {
			next := r.recorded[r.pos]
			return &DivergenceError{Seq: next.Seq, Want: &next, Reason: "the rerun ended before the journal"}
		}
		return nil
	}
	return r.live(ctx, ev)
}

// live appends ev past the recorded events; in ModeVerify there is no
// "past": it is a divergence.
func (r *Recorder) live(ctx context.Context, ev Event) error {
	if r.opts.Mode == ModeVerify {
		ev = ev.Redact(CaptureCounts)
		return &DivergenceError{Got: &ev, Reason: "the rerun goes on past the end of the journal"}
	}
	return r.append(ctx, ev.Redact(r.opts.Capture))
}

// Consume marks the next recorded event (after Next's skipping) as served
// without comparing it; the caller has checked it.
func (r *Recorder) Consume() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.skipCompacted()
	if r.pos < len(r.recorded) {
		r.pos++
	}
}

// Remaining returns the recorded events not yet replayed.
func (r *Recorder) Remaining() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.recorded[r.pos:]...)
}

func (r *Recorder) append(ctx context.Context, ev Event) error {
	ev.Seq = r.seq + 1
	if ev.Time.IsZero() {
		ev.Time = r.opts.Now()
	}
	if err := r.store.Append(ctx, r.run, ev); err != nil {
		return err
	}
	r.seq++
	return nil
}

// Compacted records a context:compacted event. Compaction events are
// matched by call index only, whatever their numbers (a rerun with another
// window or strategy compacts differently without changing the calls): a
// recorded event for the same call is consumed and not written again, so
// a run resumed after a crash records each compaction once; while
// replaying a journal that has none, nothing is written, since an
// append-only journal cannot take an event in its middle.
func (r *Recorder) Compacted(ctx context.Context, c Compacted) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.pos < len(r.recorded) {
		if e := r.recorded[r.pos]; e.Kind == KindCompacted && e.Compacted != nil && e.Compacted.CallIndex == c.CallIndex {
			r.pos++
		}
		return nil
	}
	if r.opts.Mode == ModeVerify {
		return nil
	}
	return r.append(ctx, Event{Run: r.run, Kind: KindCompacted, Compacted: &c})
}
