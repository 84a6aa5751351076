package server

import (
	"context"
	"encoding/json"
	"errors"
	"iter"
	"net/http"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/summarize"
)

// Run states.
const (
	RunRunning = "running"
	RunDone    = "done"
	RunFailed  = "failed"
	RunAborted = "aborted"
)

// model returns the model client of a hosted run.
func (s *Server) model(provider, model string) (agent.Model, error) {
	if s.opts.NewModel != nil {
		return s.opts.NewModel(provider, model)
	}
	if provider == "fake" || provider == "" {
		return EchoModel{}, nil
	}
	return nil, invalid("provider", "provider %q is not configured on this server", provider)
}

// prompt starts a hosted run: the prompt is appended durably, then the
// agent loop runs on the session's history with the session's model,
// strategy and budget, journaled under the run id it answers with.
func (s *Server) prompt(w http.ResponseWriter, r *http.Request, h *hosted) {
	var req PromptRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	msg := req.Message
	if msg == nil {
		if strings.TrimSpace(req.Text) == "" {
			writeError(w, invalid("text", "a prompt needs text or a message"))
			return
		}
		m := condense.UserText(req.Text)
		msg = &m
	}
	if msg.Role != condense.RoleUser {
		writeError(w, invalid("message", "a prompt is a user message, not %q", msg.Role))
		return
	}
	// A hosted run holds the session (in shared mode, its lease, marked:
	// appends, renders, compactions and prompts on other replicas are 409
	// busy meanwhile, as here) until it ends.
	sess, release, err := h.acquire(r.Context(), busyForChange)
	if err != nil {
		writeError(w, err)
		return
	}
	h.mu.Lock()
	cfg := h.rec.Config
	h.mu.Unlock()
	model, err := s.model(cfg.Provider, cfg.Model)
	if err != nil {
		release()
		writeError(w, err)
		return
	}
	// The run outlives the request; abort or shutdown cancels it.
	ctx, idle, err := h.begin(context.WithoutCancel(r.Context()), activityPrompt)
	if err != nil {
		release()
		writeError(w, err)
		return
	}
	h.mark(ctx, activityPrompt)
	done := func() { idle(); release() }
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		done()
		writeError(w, ErrClosing)
		return
	}
	s.work.Add(1)
	s.mu.Unlock()
	from := sess.Len()
	if err := sess.Append(ctx, *msg); err != nil {
		s.work.Done()
		done()
		h.settled(ctx)
		writeError(w, err)
		return
	}
	h.changed()
	h.publishAppended(from, []condense.Message{*msg})
	id := h.id + "-" + newID("r")
	info := &RunInfo{ID: id, State: RunRunning}
	h.mu.Lock()
	h.runs[id] = info
	h.lastRun = id
	h.mu.Unlock()
	go func() {
		defer s.work.Done()
		h.run(ctx, done, info, model, cfg)
	}()
	writeJSON(w, http.StatusAccepted, PromptResponse{Run: id})
}

// run runs the agent loop and appends what it produced.
func (h *hosted) run(ctx context.Context, done func(), info *RunInfo, model agent.Model, cfg SessionConfig) {
	defer h.settled(ctx)
	defer done()
	res, err := h.runAgent(ctx, info.ID, model, cfg)
	h.mu.Lock()
	if err != nil {
		info.State = RunFailed
		if errors.Is(err, context.Canceled) {
			info.State = RunAborted
		}
		info.Error = apiError(err)
	} else {
		info.State = RunDone
		info.Text = res.Text()
		info.ModelCalls, info.ToolCalls, info.Usage = res.ModelCalls, res.ToolCalls, res.Usage
		info.Compactions = res.Compactions
	}
	e := info.Error
	h.mu.Unlock()
	if e != nil {
		h.publish(EventError, e)
	}
}

func (h *hosted) runAgent(ctx context.Context, id string, model agent.Model, cfg SessionConfig) (*agent.Result, error) {
	sess, err := h.session(ctx)
	if err != nil {
		return nil, err
	}
	hist, err := sess.History(ctx)
	if err != nil {
		return nil, err
	}
	st, err := strategyByName(cfg.Strategy)
	if err != nil {
		return nil, err
	}
	st = h.withPhases(st, id)
	a := &agent.Agent{
		Name: "condense-serve", Model: tracedModel{m: model, h: h}, ModelName: cfg.Model, Tools: h.s.opts.Tools,
		Strategy: st, Settings: cfg.settings(), Registry: h.s.registry(), Journal: h.s.journals, Logger: h.s.log,
		Hooks: agent.Hooks{BeforeCall: func(ctx context.Context, kind agent.CallKind, n int) error {
			if kind == agent.CallSummarize {
				h.publish(EventCompacting, map[string]any{"phase": "summary", "run": id})
			}
			return nil
		}},
	}
	if cfg.Summarizer != "model" {
		a.Summarizer = summarize.Extractive{}
	}
	req := cfg.template()
	req.Messages = hist
	ctx, end := h.s.tel.Start(ctx, "condense.run")
	// The run prepares through the session: its compactions are saved as
	// checkpoints, and each message is appended as it is made, so an
	// aborted run keeps what it did.
	res, err := a.Run(ctx, req, agent.WithRunID(id), agent.WithHistory(&runHistory{h: h, sess: sess, run: id}))
	end(err)
	h.mu.Lock()
	if info := h.runs[id]; info != nil {
		info.Appended = sess.Len() - len(hist)
	}
	h.mu.Unlock()
	return res, err
}

// runHistory is the session as a hosted run's history: what the run
// prepares and appends goes through the session and is published on the
// event stream like any other render or append.
type runHistory struct {
	h    *hosted
	sess *session.Session
	run  string
}

var _ agent.History = (*session.Session)(nil)

func (r *runHistory) Prepare(ctx context.Context, req condense.Request, opts ...condense.CallOption) (*condense.Result, error) {
	res, err := r.sess.Prepare(ctx, req, opts...)
	var we *condense.WindowError
	switch {
	case err == nil:
		r.compacted(ctx, res.Records)
	case errors.As(err, &we):
		r.compacted(ctx, we.Records)
	}
	return res, err
}

func (r *runHistory) Compact(ctx context.Context, opts ...condense.CallOption) (*condense.Result, error) {
	res, err := r.sess.Compact(ctx, opts...)
	if err == nil {
		r.compacted(ctx, res.Records)
	}
	return res, err
}

func (r *runHistory) Append(ctx context.Context, msgs ...condense.Message) error {
	from := r.sess.Len()
	if err := r.sess.Append(ctx, msgs...); err != nil {
		return err
	}
	r.h.changed()
	r.h.publishAppended(from, msgs)
	return nil
}

// compacted publishes a run's compactions, each with the checkpoint that
// saved it and the run's id.
func (r *runHistory) compacted(ctx context.Context, recs []condense.Record) {
	if len(recs) == 0 {
		return
	}
	r.h.changed()
	r.h.compactedIn(ctx, recs, false, r.sess, r.run)
}

// tracedModel wraps a model call in a span.
type tracedModel struct {
	m agent.Model
	h *hosted
}

func (t tracedModel) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	ctx, end := t.h.s.tel.Start(ctx, "condense.model_call")
	resp, err := t.m.Generate(ctx, req)
	end(err)
	return resp, err
}

func (t tracedModel) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	return t.m.Stream(ctx, req)
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request, h *hosted) {
	id := r.PathValue("run")
	h.mu.Lock()
	info, ok := h.runs[id]
	var cp RunInfo
	if ok {
		cp = *info
	}
	h.mu.Unlock()
	if ok {
		writeJSON(w, http.StatusOK, cp)
		return
	}
	// A run of an earlier server process: its state is in its journal.
	evs, err := h.journal(r.Context(), id)
	if err != nil {
		writeError(w, err)
		return
	}
	out := RunInfo{ID: id, State: RunFailed}
	switch last := evs[len(evs)-1]; last.Kind {
	case journal.KindRunDone:
		out.State = RunDone
	case journal.KindRunError:
		if last.Error != nil && last.Error.Code != "" {
			out.Error = &Error{Code: last.Error.Code, Message: last.Error.Message}
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// journal loads a run of this session.
func (h *hosted) journal(ctx context.Context, run string) ([]journal.Event, error) {
	if !strings.HasPrefix(run, h.id+"-") {
		return nil, notFound("run " + run)
	}
	evs, err := h.s.journals.Load(ctx, run)
	if errors.Is(err, journal.ErrNotFound) || (err == nil && len(evs) == 0) {
		return nil, notFound("run " + run)
	}
	return evs, err
}

// runJournal exports a run's journal as JSONL, the file condense replay
// verifies offline.
func (s *Server) runJournal(w http.ResponseWriter, r *http.Request, h *hosted) {
	evs, err := h.journal(r.Context(), r.PathValue("run"))
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.Header().Set("Content-Disposition", `attachment; filename="`+r.PathValue("run")+`.jsonl"`)
	for _, ev := range evs {
		line, err := json.Marshal(ev)
		if err != nil {
			return
		}
		w.Write(append(line, '\n'))
	}
}

// EchoModel is the "fake" provider of demos: it answers every request
// with the text of the last user message, echoed, and calls no tools.
type EchoModel struct{}

func (EchoModel) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := "(nothing to echo)"
	for i := len(req.Messages) - 1; i >= 0; i-- {
		if req.Messages[i].Role == condense.RoleUser {
			text = "echo: " + req.Messages[i].TextContent()
			break
		}
	}
	return &agent.Response{Message: condense.AssistantText(text), StopReason: agent.StopEndTurn, Model: req.Model}, nil
}

func (e EchoModel) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	resp, err := e.Generate(ctx, req)
	if err != nil {
		return func(yield func(agent.StreamEvent, error) bool) { yield(agent.StreamEvent{}, err) }
	}
	return agent.Events(resp)
}
