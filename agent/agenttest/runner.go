package agenttest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/journal"
)

// ErrCrash is the injected crash: the run stops where it is, as if the
// process had died, and writes nothing more to its journal.
var ErrCrash = errors.New("agenttest: injected crash")

// Runner runs an agent under one run id with a journal, injects crashes
// and resumes. The zero value is not usable; call NewRunner.
type Runner struct {
	// Agent is the agent run; the runner uses a copy with its journal and
	// crash hook.
	Agent *agent.Agent
	// Store keeps the journal; NewRunner makes an in-memory one.
	Store journal.Store
	// RunID is the run's id; NewRunner sets "run-1".
	RunID string

	mu    sync.Mutex
	crash *crashPoint
}

type crashPoint struct {
	kind agent.CallKind
	nth  int
}

// NewRunner returns a runner of a with an in-memory journal.
func NewRunner(a *agent.Agent) *Runner {
	return &Runner{Agent: a, Store: journal.NewMemory(), RunID: "run-1"}
}

// CrashAt makes the next Run crash before its nth live call of kind
// (counted from 1 within the run). The crash fires once.
func (r *Runner) CrashAt(kind agent.CallKind, nth int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.crash = &crashPoint{kind: kind, nth: nth}
}

// Run runs (or resumes) the run on req. A crash returns ErrCrash.
func (r *Runner) Run(ctx context.Context, req condense.Request, opts ...agent.RunOption) (*agent.Result, error) {
	a := *r.Agent
	a.Journal = r.Store
	inner := a.Hooks.BeforeCall
	a.Hooks.BeforeCall = func(ctx context.Context, kind agent.CallKind, n int) error {
		r.mu.Lock()
		c := r.crash
		if c != nil && c.kind == kind && c.nth == n {
			r.crash = nil
			r.mu.Unlock()
			return fmt.Errorf("%w before %s call %d", ErrCrash, kind, n)
		}
		r.mu.Unlock()
		if inner != nil {
			return inner(ctx, kind, n)
		}
		return nil
	}
	return a.Run(ctx, req, append([]agent.RunOption{agent.WithRunID(r.RunID)}, opts...)...)
}

// Verify replays the run from its journal without calling the model or any
// tool: nil when the rerun matches, else the first divergence.
func (r *Runner) Verify(ctx context.Context, req condense.Request, opts ...agent.RunOption) (*agent.Result, error) {
	a := *r.Agent
	a.Journal = r.Store
	return a.Run(ctx, req, append([]agent.RunOption{agent.WithRunID(r.RunID), agent.Verify()}, opts...)...)
}

// Journal returns the run's events.
func (r *Runner) Journal(ctx context.Context) ([]journal.Event, error) {
	return r.Store.Load(ctx, r.RunID)
}
