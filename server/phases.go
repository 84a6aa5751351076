package server

import (
	"context"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy"
)

// withPhases wraps the stages of a pipeline so that each publishes a
// compacting event with phase "stage" and its name as it starts (mask,
// summarize, drop-oldest, …); other strategies are returned as they are.
// run names the hosted run whose strategy it is ("" for the session's
// own, which also runs in the dry runs that find compaction_available:
// those publish nothing).
func (h *hosted) withPhases(st condense.Strategy, run string) condense.Strategy {
	p, ok := st.(*strategy.Pipeline)
	if !ok {
		return st
	}
	stages := make([]condense.Strategy, len(p.Stages))
	for i, s := range p.Stages {
		stages[i] = phaseStage{Strategy: s, h: h, run: run, index: i + 1, of: len(p.Stages)}
	}
	return strategy.NewPipeline(stages...)
}

// marking wraps a session's strategy so that a compaction, as it starts,
// marks the lease of a shared session (mark): a manual compaction on
// another replica then answers busy rather than waiting for it. Dry runs
// (compaction_available) mark nothing.
func (h *hosted) marking(st condense.Strategy) condense.Strategy {
	if !h.shared() {
		return st
	}
	return markingStrategy{Strategy: st, h: h}
}

type markingStrategy struct {
	condense.Strategy
	h *hosted
}

func (m markingStrategy) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	if _, real := cc.Summarizer.(*eventSummarizer); real && !cc.Manual {
		m.h.mark(ctx, activityAutoCompaction)
	}
	return m.Strategy.Compact(ctx, cc)
}

type phaseStage struct {
	condense.Strategy
	h         *hosted
	run       string
	index, of int
}

func (p phaseStage) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	_, real := cc.Summarizer.(*eventSummarizer)
	if p.run != "" || real {
		data := map[string]any{"phase": "stage", "stage": p.Name(), "index": p.index, "of": p.of}
		if cc.Manual {
			data["manual"] = true
		}
		if p.run != "" {
			data["run"] = p.run
		}
		p.h.publish(EventCompacting, data)
	}
	return p.Strategy.Compact(ctx, cc)
}
