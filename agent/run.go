package agent

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/summarize"
)

// run is one execution of the loop.
type run struct {
	a        *Agent
	cfg      runConfig
	req      condense.Request // the template: model, system, tools, caps
	history  []condense.Message
	rec      *journal.Recorder
	pf       *condense.Preflight
	counter  condense.Counter
	strategy string

	calls   int // model call indexes handed out (summaries included)
	made    int // model calls made or served
	tools   int
	kinds   map[CallKind]int
	usage   condense.Usage
	records []condense.Record
	// current is the call index the preflight in progress prepares.
	current int
	// fatal is set by the summarize helper when the run must end (a
	// crash, a divergence, a limit): the preflight only sees a refused
	// candidate.
	fatal   error
	crashed bool
}

func (a *Agent) newRun(ctx context.Context, req condense.Request, cfg runConfig) (*run, error) {
	if cfg.id == "" {
		if cfg.verify {
			return nil, errors.New("agent: Verify needs WithRunID")
		}
		cfg.id = newRunID()
	}
	st := a.Journal
	if st == nil {
		st = journal.NewMemory()
	}
	mode := journal.ModeRecord
	if cfg.verify {
		mode = journal.ModeVerify
	}
	rec, err := journal.NewRecorder(ctx, st, cfg.id, &journal.RecorderOptions{Capture: a.Capture, Mode: mode})
	if err != nil {
		return nil, err
	}
	req = req.Clone()
	for _, t := range a.toolDefs() {
		if !hasTool(req.Tools, t.Name) {
			req.Tools = append(req.Tools, t)
		}
	}
	r := &run{a: a, cfg: cfg, req: req, rec: rec, kinds: map[CallKind]int{}}
	r.history = append([]condense.Message(nil), req.Messages...)
	r.req.Messages = nil
	if a.NewCounter != nil {
		r.counter = a.NewCounter(req.Model)
	} else {
		r.counter = defaultCounter(req.Model, a.registry())
	}
	strat := a.strategy()
	r.strategy = "none"
	if strat != nil {
		r.strategy = strat.Name()
	}
	r.pf = condense.NewPreflight(r.counter, strat, &condense.Options{
		Settings:   a.Settings,
		Client:     a.clientSettings(),
		Registry:   a.registry(),
		Summarizer: runSummarizer{r},
		Logger:     a.Logger,
	})
	return r, nil
}

func hasTool(ts []condense.Tool, name string) bool {
	for _, t := range ts {
		if t.Name == name {
			return true
		}
	}
	return false
}

func (r *run) request(msgs []condense.Message) condense.Request {
	q := r.req
	q.Messages = msgs
	return q
}

// loop is the tool loop.
func (r *run) loop(ctx context.Context) (*Result, error) {
	started := journal.RunStarted{
		Agent:       r.a.Name,
		Model:       r.req.Model,
		Capture:     r.a.Capture.Level(),
		Strategy:    r.strategy,
		Settings:    journalSettings(r.a.Settings),
		Limits:      journal.Limits{MaxModelCalls: r.a.Limits.MaxModelCalls, MaxTotalTokens: r.a.Limits.MaxTotalTokens, MaxCostUSD: r.a.Limits.MaxCostUSD},
		Messages:    len(r.history),
		Fingerprint: Fingerprint(r.request(r.history)),
	}
	doc := condense.DocumentOf(r.request(r.history))
	started.Request = &doc
	if err := r.rec.Started(ctx, started); err != nil {
		return nil, err
	}
	for {
		resp, sent, err := r.modelCall(ctx)
		if err != nil {
			return nil, r.fail(ctx, err)
		}
		if err := r.add(ctx, resp.Message); err != nil {
			return nil, r.fail(ctx, err)
		}
		calls := resp.Message.ToolCalls()
		if len(calls) == 0 {
			return r.finish(ctx, resp, sent)
		}
		for _, c := range calls {
			msg, err := r.toolCall(ctx, c)
			if err != nil {
				return nil, r.fail(ctx, err)
			}
			if err := r.add(ctx, msg); err != nil {
				return nil, r.fail(ctx, err)
			}
		}
	}
}

// add appends a message the run made to its history, and to the History
// it runs on. A message that was made is kept even when the run is being
// cancelled now.
func (r *run) add(ctx context.Context, m condense.Message) error {
	r.history = append(r.history, m)
	if r.cfg.history == nil {
		return nil
	}
	return r.cfg.history.Append(context.WithoutCancel(ctx), m)
}

// prepare renders the next request: through the History the run is on, or
// the run's own preflight.
func (r *run) prepare(ctx context.Context, opts ...condense.CallOption) (*condense.Result, error) {
	opts = append(opts, condense.WithSettings(r.cfg.settings))
	if h := r.cfg.history; h != nil {
		return h.Prepare(ctx, r.request(nil), append(opts, condense.WithSummarizer(runSummarizer{r}))...)
	}
	return r.pf.Prepare(ctx, r.request(r.history), opts...)
}

// emergency compacts now with the emergency pass.
func (r *run) emergency(ctx context.Context) (*condense.Result, error) {
	opts := []condense.CallOption{condense.WithEmergency(), condense.WithSettings(r.cfg.settings)}
	if h := r.cfg.history; h != nil {
		return h.Compact(ctx, append(opts, condense.WithSummarizer(runSummarizer{r}))...)
	}
	return r.pf.Compact(ctx, r.request(r.history), opts...)
}

func journalSettings(s condense.Settings) journal.Settings {
	return journal.Settings{Window: s.Window, ReservedOutput: s.ReservedOutput, Safety: s.Safety, Fraction: s.Fraction, LowWater: s.LowWater}
}

func (r *run) result(resp *Response, sent condense.Request) *Result {
	return &Result{
		RunID:       r.rec.Run(),
		Messages:    r.history,
		Response:    resp,
		Request:     sent,
		ModelCalls:  r.made,
		ToolCalls:   r.tools,
		Usage:       r.usage,
		Compactions: r.records,
	}
}

func (r *run) finish(ctx context.Context, resp *Response, sent condense.Request) (*Result, error) {
	done := &journal.RunDone{ModelCalls: r.made, ToolCalls: r.tools, Usage: r.usage, StopReason: string(resp.StopReason)}
	text := resp.Text()
	done.Result = &text
	if err := r.rec.Finish(ctx, journal.Event{Kind: journal.KindRunDone, Done: done}); err != nil {
		return nil, err
	}
	return r.result(resp, sent), nil
}

// fail journals err as run:error and returns it. Crashes (hook errors),
// cancellations and divergences are returned as they are, with nothing
// written. A run:error whose code is not final (journal.FinalCodes) does
// not end the journal: resuming goes on live past it.
func (r *run) fail(ctx context.Context, err error) error {
	var de *journal.DivergenceError
	if r.crashed || errors.As(err, &de) || errors.Is(err, context.Canceled) {
		return err
	}
	re := &journal.RunError{Code: condense.ErrorCode(err), Message: err.Error(), CallIndex: r.current}
	var we *condense.WindowError
	var le *LimitError
	var oe *OverflowError
	switch {
	case errors.As(err, &we):
		re.Tokens, re.Window = we.Tokens, we.Window
	case errors.As(err, &le):
		re.Limit, re.CallIndex = le.Limit, le.CallIndex
	case errors.As(err, &oe):
		re.Tokens, re.Window = oe.Tokens, oe.Window
	}
	if jerr := r.rec.Finish(ctx, journal.Event{Kind: journal.KindRunError, Error: re}); jerr != nil {
		return errors.Join(err, jerr)
	}
	return err
}

// before runs the BeforeCall hook before a live call of kind; an error
// from it is a crash: nothing more is journaled.
func (r *run) before(ctx context.Context, kind CallKind, n int) error {
	if h := r.a.Hooks.BeforeCall; h != nil {
		if err := h(ctx, kind, n); err != nil {
			r.crashed = true
			return err
		}
	}
	return nil
}

// modelCall prepares the history and makes (or is served) one model call,
// recovering once from "context too large": the provider counted more than
// we did, so the loop compacts with the emergency pass and retries once.
func (r *run) modelCall(ctx context.Context) (*Response, condense.Request, error) {
	fp := Fingerprint(r.request(r.history))
	index := r.reserve()
	res, err := r.prepare(ctx)
	if r.fatal != nil {
		return nil, condense.Request{}, r.fatal
	}
	if err != nil {
		return nil, condense.Request{}, err
	}
	if err := r.compacted(ctx, index, res.Records); err != nil {
		return nil, condense.Request{}, err
	}
	resp, err := r.send(ctx, index, fp, res)
	if err == nil || !errors.Is(err, condense.ErrContextTooLarge) {
		return resp, res.Request, err
	}
	// The provider counts more than we did: compact with the emergency pass
	// and retry once.
	first := err
	r.observeOverflow(res, err)
	index = r.reserve()
	res2, cerr := r.emergency(ctx)
	if r.fatal != nil {
		return nil, condense.Request{}, r.fatal
	}
	if cerr != nil {
		if errors.Is(cerr, context.Canceled) {
			return nil, condense.Request{}, cerr
		}
		return nil, condense.Request{}, &OverflowError{CallIndex: index, Tokens: res.Tokens, Window: res.Budget.Window, Err: first, Compaction: cerr}
	}
	if err := r.compacted(ctx, index, res2.Records); err != nil {
		return nil, condense.Request{}, err
	}
	if b := res2.Budget; b.Known() && res2.Tokens > b.InputLimit() {
		// Still over by our own count: not sent.
		return nil, condense.Request{}, &condense.WindowError{Model: res2.Request.Model, Tokens: res2.Tokens, InputLimit: b.InputLimit(), Window: b.Window}
	}
	resp, err = r.send(ctx, index, fp, res2)
	if err != nil && errors.Is(err, condense.ErrContextTooLarge) {
		return nil, condense.Request{}, &OverflowError{CallIndex: index, Tokens: res2.Tokens, Window: res2.Budget.Window, Err: err}
	}
	return resp, res2.Request, err
}

// reserve gives the next model call its index before its preflight; the
// summaries the preflight asks for take the indexes after it.
func (r *run) reserve() int {
	r.calls++
	r.current = r.calls
	return r.current
}

func (r *run) compacted(ctx context.Context, index int, recs []condense.Record) error {
	for _, rec := range recs {
		r.records = append(r.records, rec)
		if err := r.rec.Compacted(ctx, journal.Compacted{
			CallIndex:      index,
			TokensBefore:   rec.TokensBefore,
			TokensAfter:    rec.TokensAfter,
			Window:         rec.Window,
			MessagesBefore: rec.MessagesBefore,
			MessagesAfter:  rec.MessagesAfter,
			Strategy:       rec.Strategy,
			Emergency:      rec.Emergency,
		}); err != nil {
			return err
		}
	}
	return nil
}

// send makes model call index with the prepared request, or serves it
// from the journal.
func (r *run) send(ctx context.Context, index int, fp string, res *condense.Result) (*Response, error) {
	step := journal.Step{StepKind: journal.StepLLM, CallIndex: index, Model: res.Request.Model, Fingerprint: fp,
		Messages: len(res.Request.Messages), Tokens: res.Tokens}
	served, err := r.rec.Serve(step)
	if err != nil {
		return nil, err
	}
	var resp *Response
	if served != nil {
		resp, err = servedResponse(served)
		if resp != nil && r.cfg.stream != nil {
			for ev := range Events(resp) {
				r.cfg.stream(ev)
			}
		}
	} else {
		if err := r.a.Limits.check(r.made, r.usage, index); err != nil {
			return nil, err
		}
		r.kinds[CallModel]++
		if err := r.before(ctx, CallModel, r.kinds[CallModel]); err != nil {
			return nil, err
		}
		start := time.Now()
		resp, err = r.generate(ctx, &res.Request)
		if resp != nil {
			// The history holds the answer as the journal will serve it, so
			// that a resumed run's fingerprints match (JSON inputs are
			// re-encoded, for one).
			if resp.Message, err = journalForm(resp.Message); err != nil {
				resp = nil
			}
		}
		if resp != nil {
			resp.Usage.CostUSD = r.cost(resp)
			step.Usage = &resp.Usage
			step.StopReason = string(resp.StopReason)
			m := resp.Message
			step.Response = &m
		}
		step.Error = journal.ErrorOf(err)
		// A failed call is journaled only when the failure is the answer
		// the loop acts on ("context too large"); any other failure ends
		// the run with a transient run:error, and resuming calls again.
		if err == nil || (errors.Is(err, condense.ErrContextTooLarge) && ctx.Err() == nil) {
			// An answer that came back is journaled even when the run is
			// being cancelled: a resumed run is served it, not billed again.
			if jerr := r.rec.Step(context.WithoutCancel(ctx), step, time.Since(start)); jerr != nil {
				return nil, errors.Join(err, jerr)
			}
		}
	}
	r.made++
	if resp != nil {
		r.usage = r.usage.Add(resp.Usage)
		r.observe(res, resp)
	}
	return resp, err
}

func (r *run) generate(ctx context.Context, req *condense.Request) (*Response, error) {
	if r.a.Model == nil {
		return nil, errNoModel
	}
	if r.cfg.stream == nil {
		return r.a.Model.Generate(ctx, req)
	}
	var acc Accumulator
	for ev, err := range r.a.Model.Stream(ctx, req) {
		if err != nil {
			return nil, err
		}
		if err := acc.Add(ev); err != nil {
			return nil, err
		}
		r.cfg.stream(ev)
	}
	return acc.Response()
}

func (r *run) cost(resp *Response) float64 {
	if resp.Usage.CostUSD > 0 {
		return resp.Usage.CostUSD
	}
	model := resp.Model
	if model == "" {
		model = r.req.Model
	}
	return r.a.prices().Cost(model, resp.Usage)
}

// observe feeds billed usage into the counter's correction, so later
// estimates are never below what the provider counted.
func (r *run) observe(res *condense.Result, resp *Response) {
	r.observeTokens(res, resp.Usage.InputTokens)
}

func (r *run) observeTokens(res *condense.Result, billed int) {
	o, ok := r.counter.(interface{ Observe(estimated, billed int) })
	if !ok || billed <= 0 {
		return
	}
	est := r.counter.CountOverhead(res.Request.System, res.Request.Tools)
	for i := range res.Request.Messages {
		est += r.counter.CountMessage(&res.Request.Messages[i])
	}
	o.Observe(est, billed)
}

// tokensRe finds "<n> tokens" in a provider's error message: Anthropic
// "prompt is too long: 215339 tokens > 200000 maximum", OpenAI "maximum
// context length is 128000 tokens. However, your messages resulted in
// 131072 tokens".
var tokensRe = regexp.MustCompile(`(\d[\d,]*) tokens`)

// observeOverflow feeds the size a "context too large" answer reports (the
// largest "<n> tokens" of its message) into the counter's correction, so
// that the emergency compaction counts as the provider does.
func (r *run) observeOverflow(res *condense.Result, err error) {
	n := 0
	for _, m := range tokensRe.FindAllStringSubmatch(err.Error(), -1) {
		if v, perr := strconv.Atoi(strings.ReplaceAll(m[1], ",", "")); perr == nil && v > n {
			n = v
		}
	}
	r.observeTokens(res, n)
}

// journalForm returns m as it reads back from a journal.
func journalForm(m condense.Message) (condense.Message, error) {
	b, err := json.Marshal(m)
	if err != nil {
		return condense.Message{}, fmt.Errorf("agent: the model's answer cannot be journaled: %w", err)
	}
	var out condense.Message
	if err := json.Unmarshal(b, &out); err != nil {
		return condense.Message{}, fmt.Errorf("agent: the model's answer cannot be journaled: %w", err)
	}
	return out, nil
}

// servedResponse rebuilds a recorded answer (or error).
func servedResponse(s *journal.Step) (*Response, error) {
	if s.Error != nil {
		return nil, recordedError(s.Error)
	}
	if s.Response == nil {
		return nil, fmt.Errorf("%w: step %d has no recorded answer", journal.ErrNotReplayable, s.CallIndex)
	}
	resp := &Response{Message: *s.Response, StopReason: StopReason(s.StopReason), Model: s.Model}
	if s.Usage != nil {
		resp.Usage = *s.Usage
	}
	return resp, nil
}

// RecordedError is an error served from a journal: its code and message.
// Provider errors of kind context_too_large unwrap to
// condense.ErrContextTooLarge.
type RecordedError struct {
	journal.ErrorInfo
}

func (e *RecordedError) Error() string { return e.Message }

// Code returns the recorded code.
func (e *RecordedError) Code() string { return e.ErrorInfo.Code }

// Unwrap maps the codes callers branch on back to their sentinels.
func (e *RecordedError) Unwrap() error {
	switch e.ErrorInfo.Code {
	case "context_too_large":
		return condense.ErrContextTooLarge
	case "rate_limited":
		return condense.ErrRateLimited
	case "overloaded":
		return condense.ErrOverloaded
	case "server":
		return condense.ErrServer
	case "auth":
		return condense.ErrAuth
	case "summary_rejected":
		return summarize.ErrFailed
	}
	return nil
}

func recordedError(info *journal.ErrorInfo) error { return &RecordedError{ErrorInfo: *info} }

// OverflowError ends a run whose provider still answered "context too
// large" after an emergency compaction, or when no emergency compaction
// was possible. It unwraps to the provider's error
// (condense.ErrContextTooLarge).
type OverflowError struct {
	CallIndex int
	// Tokens is the estimate of the refused request; Window the window.
	Tokens, Window int
	// Err is the provider's answer; Compaction why no emergency
	// compaction could be made, when none could.
	Err        error
	Compaction error
}

func (e *OverflowError) Error() string {
	if e.Compaction != nil {
		return fmt.Sprintf("provider reports context too large at call %d (estimated %d tokens, window %d) and the emergency compaction failed: %v: %v",
			e.CallIndex, e.Tokens, e.Window, e.Compaction, e.Err)
	}
	return fmt.Sprintf("provider still reports context too large after an emergency compaction, call %d (estimated %d tokens, window %d): %v",
		e.CallIndex, e.Tokens, e.Window, e.Err)
}

func (e *OverflowError) Unwrap() error { return e.Err }

// Code returns "context_too_large".
func (e *OverflowError) Code() string { return "context_too_large" }

// toolCall runs (or is served) one tool call and returns its result
// message.
func (r *run) toolCall(ctx context.Context, call condense.Part) (condense.Message, error) {
	r.tools++
	step := journal.Step{StepKind: journal.StepTool, ToolIndex: r.tools, Tool: call.Name, CallID: call.ID,
		Fingerprint: toolFingerprint(call.Name, call.Input)}
	served, err := r.rec.Serve(step)
	if err != nil {
		return condense.Message{}, err
	}
	var out string
	var isErr bool
	if served != nil {
		if served.Output == nil {
			return condense.Message{}, fmt.Errorf("%w: tool step %d has no recorded output", journal.ErrNotReplayable, r.tools)
		}
		out, isErr = *served.Output, served.IsError
	} else {
		r.kinds[CallTool]++
		if err := r.before(ctx, CallTool, r.kinds[CallTool]); err != nil {
			return condense.Message{}, err
		}
		start := time.Now()
		out, isErr = r.execute(ctx, call)
		if err := ctx.Err(); err != nil {
			return condense.Message{}, err
		}
		step.Input = call.Input
		step.Output = &out
		step.IsError = isErr
		if err := r.rec.Step(ctx, step, time.Since(start)); err != nil {
			return condense.Message{}, err
		}
	}
	return condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(call.ID, isErr, condense.Text(out))}}, nil
}

func (r *run) execute(ctx context.Context, call condense.Part) (string, bool) {
	t := r.a.tool(call.Name)
	if t == nil || t.Func == nil {
		return fmt.Sprintf("unknown tool %q", call.Name), true
	}
	out, err := t.Func(ctx, call.Input)
	if err != nil {
		return err.Error(), true
	}
	return out, false
}

// Fingerprint identifies a request's system text, tools and messages as a
// 16-digit hex string (condense.Request.Fingerprint). The model name and
// budget are left out.
func Fingerprint(req condense.Request) string { return hexOf(req.Fingerprint()) }

func toolFingerprint(name string, input []byte) string {
	m := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("", name, input)}}
	return hexOf(condense.Fingerprint(&m))
}

func messagesFingerprint(msgs []condense.Message, instructions string) string {
	return Fingerprint(condense.Request{System: instructions, Messages: msgs})
}

func hexOf(v uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], v)
	return hex.EncodeToString(b[:])
}
