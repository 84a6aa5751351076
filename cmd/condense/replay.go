package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/strategy"
)

func init() {
	register(command{
		name:    "replay",
		summary: "verify a recorded agent run offline, reporting the first divergence",
		run:     runReplay,
	})
}

func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "replay [flags] JOURNAL.jsonl",
		"condense replay ~/.condense/journals/run-1.jsonl --window 150k", stderr)
	var window, reserve sizeFlag
	fs.Var(&window, "window", "replay under this context window instead of the recorded one")
	fs.Var(&reserve, "reserve", "replay with this reserved output instead of the recorded one")
	fraction := fs.Float64("fraction", 0, "replay with this compaction fraction instead of the recorded one")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("replay takes one journal file")
	}
	evs, err := journal.ReadFile(pos[0])
	if err != nil {
		return &usageError{err}
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
		return &usageError{fmt.Errorf("%s: %w", pos[0], err)}
	}
	a.Journal = st

	res, err := a.Run(ctx, started.Request.Request(), agent.WithRunID(run), agent.Verify())
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
		fmt.Fprintf(stderr, "replay: %s: %v\n", pos[0], err)
		return &exitError{code: 1}
	}
	fmt.Fprintf(stdout, "replay: %s: the %d recorded events match (%d model calls, %d tool calls, %d compactions)\n",
		pos[0], len(evs), res.ModelCalls, res.ToolCalls, len(res.Compactions))
	return nil
}

// replayStrategy rebuilds a built-in strategy from its recorded name. Its
// summaries are served from the journal.
func replayStrategy(name string) (condense.Strategy, error) {
	stage := func(n string) (condense.Strategy, error) {
		switch n {
		case "minify":
			return strategy.Minify{}, nil
		case "mask":
			return strategy.Mask{}, nil
		case "drop-oldest":
			return strategy.DropOldest{}, nil
		case "clear-tool-uses":
			return strategy.ClearToolUses{}, nil
		case "summarize":
			return strategy.Summarize{}, nil
		case "segments":
			return strategy.Segments{}, nil
		}
		return nil, usagef("the journal's strategy %q is not built in: replay the run from Go (agent.Verify) with the strategy's code", n)
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
