package main

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// replayOptions are replay's flags.
type replayOptions struct {
	window, reserve sizeFlag
	fraction        float64
}

func newReplayCmd(e *env) *cobra.Command {
	o := &replayOptions{}
	cmd := &cobra.Command{
		Use:   "replay [flags] JOURNAL",
		Short: "verify a recorded agent run offline, reporting the first divergence",
		Long: `Verify a recorded agent run offline: rerun it from its journal (captured at level
full), serving every model and tool answer from the journal, and report the first
event that differs. --window, --reserve and --fraction replay it under another
budget. A progress bar shows on standard error when it is a terminal.`,
		Example: "  condense replay ~/.condense/journals/run-1.jsonl --window 150k",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runReplay(cmd, e, o, args)
		},
	}
	fs := cmd.Flags()
	fs.Var(&o.window, "window", "replay under this context window instead of the recorded one")
	fs.Var(&o.reserve, "reserve", "replay with this reserved output instead of the recorded one")
	fs.Float64Var(&o.fraction, "fraction", 0, "replay with this compaction fraction instead of the recorded one")
	return cmd
}

func runReplay(cmd *cobra.Command, e *env, o *replayOptions, args []string) error {
	ctx := cmd.Context()
	stdout, stderr := e.stdout, e.stderr
	window, reserve, fraction := o.window, o.reserve, &o.fraction
	if o.fraction != 0 && !(o.fraction > 0 && o.fraction <= 1) {
		return flagErrorf(cmd, "--fraction must be in (0, 1], got %v", o.fraction)
	}
	if window.set && window.n <= 0 {
		return flagErrorf(cmd, "--window must be positive")
	}
	if len(args) != 1 {
		return flagErrorf(cmd, "replay takes one journal file, got %d", len(args))
	}
	pos := args
	evs, err := journal.ReadFile(pos[0])
	if err != nil {
		return &usageError{err: err}
	}
	started := evs[0].Started
	if started == nil {
		return usagef("%s: the journal does not start with run:started", pos[0])
	}
	if started.Capture.Level() != journal.CaptureFull || started.Request == nil {
		return usagef("%s: captured at level %q: only a journal captured at full can be replayed", pos[0], started.Capture)
	}

	a := &agent.Agent{
		Name: started.Agent,
		Settings: condense.Settings{Window: started.Settings.Window, ReservedOutput: started.Settings.ReservedOutput, Safety: started.Settings.Safety, Fraction: started.Settings.Fraction,
			LowWater: started.Settings.LowWater},
		Limits: agent.Limits{MaxModelCalls: started.Limits.MaxModelCalls, MaxTotalTokens: started.Limits.MaxTotalTokens, MaxCostUSD: started.Limits.MaxCostUSD},
		Logger: logger(stderr),
	}
	if window.set {
		a.Settings.Window = window.n
	}
	if reserve.set {
		a.Settings.ReservedOutput = reserve.n
	}
	if *fraction != 0 {
		a.Settings.Fraction = *fraction
	}
	if started.Strategy == "none" {
		a.NoCompaction = true
	} else {
		s, err := replayStrategy(started.Strategy)
		if err != nil {
			return err
		}
		a.Strategy = s
	}
	run := evs[0].Run
	if run == "" || journal.ValidRun(run) != nil {
		run = "replay"
	}
	st := journal.NewMemory()
	for i := range evs {
		evs[i].Run = run
	}
	if err := st.Append(ctx, run, evs...); err != nil {
		return &usageError{err: fmt.Errorf("%s: %w", pos[0], err)}
	}
	a.Journal = st

	// The bar counts the agent's own model calls as their answers join the
	// history: each assistant message is counted once when it does.
	calls := 0
	for _, ev := range evs {
		if ev.Step != nil && ev.Step.StepKind == journal.StepLLM && ev.Step.CompactionFor == 0 {
			calls++
		}
	}
	bar := startProgress(stderr, "replay", "calls", int64(calls))
	if isTerminal(stderr) {
		a.NewCounter = func(model string) condense.Counter {
			return &progressCounter{Counter: tokens.ForModel(model, tokens.Models), bar: bar}
		}
	}
	res, err := a.Run(ctx, started.Request.Request(), agent.WithRunID(run), agent.Verify())
	bar.finish()
	last := evs[len(evs)-1]
	var de *journal.DivergenceError
	switch {
	case errors.As(err, &de) && de.Seq == 0 && last.Kind != journal.KindRunDone && !(last.Kind == journal.KindRunError && last.Error.Final()):
		fmt.Fprintf(stdout, "replay: %s: the %d recorded events match; the journal ends before the run did (crashed or stopped by a transient error: resumable)\n", pos[0], len(evs))
		return nil
	case errors.As(err, &de):
		fmt.Fprintf(stderr, "replay: %s: %v\n", pos[0], err)
		return &exitError{code: 1}
	case err != nil && last.Kind == journal.KindRunError && last.Error.Code == condense.ErrorCode(err):
		fmt.Fprintf(stdout, "replay: %s: the %d recorded events match; the run ends with its recorded error %s\n", pos[0], len(evs), last.Error.Code)
		return nil
	case err != nil:
		fmt.Fprintf(stderr, "replay: %s: %s\n", pos[0], ledger.Redact(err.Error()))
		return &exitError{code: 1}
	}
	fmt.Fprintf(stdout, "replay: %s: the %d recorded events match (%d model calls, %d tool calls, %d compactions)\n",
		pos[0], len(evs), res.ModelCalls, res.ToolCalls, len(res.Compactions))
	return nil
}

// progressCounter is the run's counter, counting for the progress bar the
// assistant messages it is asked to count. Observe and Correction reach
// the counter beneath, so the counts, and so the replay, do not change.
type progressCounter struct {
	condense.Counter
	bar   *progress
	mu    sync.Mutex
	calls int64
}

func (c *progressCounter) CountMessage(m *condense.Message) int {
	if m.Role == condense.RoleAssistant {
		c.mu.Lock()
		c.calls++
		c.bar.set(c.calls)
		c.mu.Unlock()
	}
	return c.Counter.CountMessage(m)
}

// Observe feeds billed usage to the counter beneath, when it learns.
func (c *progressCounter) Observe(estimated, billed int) {
	if o, ok := c.Counter.(interface{ Observe(estimated, billed int) }); ok {
		o.Observe(estimated, billed)
	}
}

// Correction is the correction of the counter beneath (1 when it has none).
func (c *progressCounter) Correction() float64 {
	if cr, ok := c.Counter.(condense.Corrector); ok {
		return cr.Correction()
	}
	return 1
}

// replayStrategy rebuilds a built-in strategy from its recorded name. Its
// summaries are served from the journal.
func replayStrategy(name string) (condense.Strategy, error) {
	stage := func(n string) (condense.Strategy, error) {
		if n == "" || n == "pipeline" {
			// A recorded name is a stage's or "pipeline(…)", never the
			// bare default.
			return nil, usagef("the journal's strategy %q is not built in: replay the run from Go (agent.Verify) with the strategy's code", n)
		}
		st, err := strategy.ByName(n)
		if err != nil {
			return nil, usagef("the journal's strategy %q is not built in: replay the run from Go (agent.Verify) with the strategy's code", n)
		}
		return st, nil
	}
	if inner, ok := strings.CutPrefix(name, "pipeline("); ok && strings.HasSuffix(inner, ")") {
		var stages []condense.Strategy
		for _, n := range strings.Split(strings.TrimSuffix(inner, ")"), ",") {
			s, err := stage(n)
			if err != nil {
				return nil, err
			}
			stages = append(stages, s)
		}
		return strategy.NewPipeline(stages...), nil
	}
	return stage(name)
}
