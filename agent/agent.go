package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// Agent runs a tool loop: model → tools → model until the model stops,
// with the preflight before every model call of the loop (so no call is
// sent over the window), a journal of every step, and limits. The zero value needs a Model; every
// other field has a safe default. An Agent is safe for concurrent runs
// as long as its fields are not changed meanwhile.
type Agent struct {
	// Name identifies the agent in journals.
	Name  string
	Model Model
	// ModelName is the model requests name when the request names none.
	ModelName string
	Tools     []Tool

	// Strategy compacts the loop's history; nil means strategy.Default().
	Strategy condense.Strategy
	// NoCompaction switches compaction off but keeps the window guard: a
	// request that does not fit is still refused before it is sent.
	NoCompaction bool
	// Settings are the agent-level budget settings: a run's WithSettings
	// overrides them, they override the model's (ClientSettings), which
	// override the defaults, field by field.
	Settings condense.Settings
	// Registry supplies model windows; nil means tokens.Models.
	Registry condense.Registry
	// NewCounter returns the counter of one run; nil means
	// tokens.ForModel, a counter that learns from billed usage. Each
	// run gets its own, so that a resumed run estimates as the crashed one
	// did.
	NewCounter func(model string) condense.Counter
	// Summarizer writes every summary a strategy asks for, built in or
	// custom (condense.CompactionContext.Summarizer). Each summary of a run
	// is journaled, counted toward the limits and served again on resume
	// and replay. nil means the agent's own Model, asked with the summary
	// prompt of the summarize package; summarize.Extractive{} writes
	// summaries without a model.
	Summarizer condense.Summarizer
	// SummaryTimeout bounds one summary the agent's own Model writes; 0
	// means summarize.DefaultTimeout (two minutes). A Summarizer bounds its
	// own calls.
	SummaryTimeout time.Duration
	// SummaryInstructions are passed to summaries a strategy asks for
	// without instructions; "" leaves the summary prompt as it is.
	SummaryInstructions string

	Limits Limits
	// Prices prices usage for Limits.MaxCostUSD and the journal; nil means
	// tokens.DefaultPrices().
	Prices tokens.Prices

	// Journal keeps the runs' journals; nil means each run is journaled in
	// memory and forgotten.
	Journal journal.Store
	// Capture is the journal's capture level; the zero value is full,
	// which replay and resume need.
	Capture journal.Capture

	Hooks  Hooks
	Logger *slog.Logger
}

// CallKind names the kinds of calls a run makes.
type CallKind string

// Call kinds.
const (
	CallModel     CallKind = "model"
	CallTool      CallKind = "tool"
	CallSummarize CallKind = "summarize"
)

// Hooks observe a run.
type Hooks struct {
	// BeforeCall runs before every live call (not before calls a journal
	// serves); n numbers the run's calls of that kind from 1. An error ends
	// the run at once and writes nothing more to the journal, as if the
	// process had died there: the testing kit injects crashes with it.
	BeforeCall func(ctx context.Context, kind CallKind, n int) error
}

// RunOption adjusts one run.
type RunOption func(*runConfig)

type runConfig struct {
	id       string
	settings condense.Settings
	stream   func(StreamEvent)
	verify   bool
	history  History
}

// History keeps a run's conversation outside the run: a durable session
// (*session.Session satisfies it). A run given one with WithHistory prepares
// every request through it — its preflight compacts, and saves each
// compaction as a checkpoint — and appends each answer and tool result to
// it as the run makes them, so a run that is aborted or crashes keeps what
// it did.
type History interface {
	// Prepare renders the next request over the history with req's
	// model, system, tools and output settings (req has no messages),
	// compacting when the budget asks.
	Prepare(ctx context.Context, req condense.Request, opts ...condense.CallOption) (*condense.Result, error)
	// Compact compacts now with the template of the last Prepare; the run
	// asks for it with condense.WithEmergency after a provider refused a
	// request as too large.
	Compact(ctx context.Context, opts ...condense.CallOption) (*condense.Result, error)
	// Append adds messages durably.
	Append(ctx context.Context, msgs ...condense.Message) error
}

// WithHistory runs on h: the request's messages must be h's history as it
// is now; the run's preflight is h's (its strategy, counter and budget
// settings, with the run's WithSettings on top), and each summary its
// compactions ask for is still written by the run (the agent's Summarizer
// or Model), journaled and counted toward the limits. Replaying such a run
// offline starts from the whole history, not from h's checkpoints, so a
// history that was compacted before the run may replay differently. A run
// resumed from its journal must not be given the History it ran on: what
// the journal serves would be appended a second time.
func WithHistory(h History) RunOption { return func(c *runConfig) { c.history = h } }

// WithRunID names the run: a run whose journal already holds events
// resumes: what the journal holds is served, not asked for again. Without
// it a new id is made.
func WithRunID(id string) RunOption { return func(c *runConfig) { c.id = id } }

// WithSettings sets the run's budget settings, the most specific level:
// they override the agent's, the model's and the defaults, field by field.
func WithSettings(s condense.Settings) RunOption { return func(c *runConfig) { c.settings = s } }

// WithStream streams every model answer of the run to f, event by event
// (answers the journal serves included); the loop then calls Model.Stream.
func WithStream(f func(StreamEvent)) RunOption { return func(c *runConfig) { c.stream = f } }

// Verify replays the run from its journal without calling the model or
// any tool and without writing: the first difference is a
// *journal.DivergenceError.
func Verify() RunOption { return func(c *runConfig) { c.verify = true } }

// Result is what a run produced.
type Result struct {
	RunID string
	// Messages is the history: the request's messages, every answer and
	// every tool result, never compacted.
	Messages []condense.Message
	// Response is the final answer.
	Response *Response
	// Request is the last request sent, after compaction.
	Request condense.Request
	// ModelCalls counts the model calls, summaries included; ToolCalls the
	// tool calls.
	ModelCalls int
	ToolCalls  int
	Usage      condense.Usage
	// Compactions are the compactions the run made, in order.
	Compactions []condense.Record
}

// Text returns the final answer's text.
func (r *Result) Text() string {
	if r == nil || r.Response == nil {
		return ""
	}
	return r.Response.Text()
}

// Run runs the tool loop on req until the model stops calling tools. The
// request's messages are the conversation so far; they are never modified.
// Before every model call the history is prepared (compacted when over the
// threshold, refused with a *condense.WindowError when it cannot fit). A
// run that reaches a limit ends with a *LimitError; one the provider still
// refuses after an emergency compaction with an *OverflowError. Every
// error is journaled as run:error, except those of Hooks.BeforeCall.
func (a *Agent) Run(ctx context.Context, req condense.Request, opts ...RunOption) (*Result, error) {
	var cfg runConfig
	for _, o := range opts {
		o(&cfg)
	}
	if req.Model == "" {
		req.Model = a.ModelName
	}
	r, err := a.newRun(ctx, req, cfg)
	if err != nil {
		return nil, err
	}
	return r.loop(ctx)
}

func (a *Agent) prices() tokens.Prices {
	if a.Prices != nil {
		return a.Prices
	}
	return defaultPrices
}

var defaultPrices = tokens.DefaultPrices()

func (a *Agent) registry() condense.Registry {
	if a.Registry != nil {
		return a.Registry
	}
	return tokens.Models
}

func (a *Agent) strategy() condense.Strategy {
	if a.NoCompaction {
		return nil
	}
	if a.Strategy != nil {
		return a.Strategy
	}
	return strategy.Default()
}

func (a *Agent) clientSettings() condense.Settings {
	if cs, ok := a.Model.(ClientSettings); ok {
		return cs.Settings()
	}
	return condense.Settings{}
}

func newRunID() string {
	var b [6]byte
	rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

func (a *Agent) tool(name string) *Tool {
	for i := range a.Tools {
		if a.Tools[i].Name == name {
			return &a.Tools[i]
		}
	}
	return nil
}

func (a *Agent) toolDefs() []condense.Tool {
	if len(a.Tools) == 0 {
		return nil
	}
	defs := make([]condense.Tool, len(a.Tools))
	for i := range a.Tools {
		defs[i] = a.Tools[i].Definition()
	}
	return defs
}

// errNoModel is returned when a live call is needed and the agent has no
// model.
var errNoModel = fmt.Errorf("agent: no Model")
