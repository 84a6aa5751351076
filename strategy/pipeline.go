package strategy

import (
	"context"
	"errors"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
)

// Pipeline chains strategies, cheapest first, and stops once the request is
// under the budget's target, the low-water mark (a manual compaction runs
// every stage). A stage that
// finds nothing to do, fails, breaks turn safety or does not shrink the
// request is skipped and the next one runs.
type Pipeline struct {
	Stages []condense.Strategy
}

// NewPipeline returns a pipeline of the given stages.
func NewPipeline(stages ...condense.Strategy) *Pipeline { return &Pipeline{Stages: stages} }

// Default returns the default pipeline: minify → mask (filling the room
// below the target with recent results) → summarize → drop-oldest,
// cheapest first. The summaries are written by the
// preflight's summarizer (condense.Options.Summarizer), the embedded
// extractive one when none is configured.
func Default() *Pipeline {
	return NewPipeline(Minify{}, Mask{Fill: true}, Summarize{}, DropOldest{})
}

// Name returns "pipeline(stage,stage,…)".
func (p *Pipeline) Name() string {
	names := make([]string, len(p.Stages))
	for i, s := range p.Stages {
		names[i] = s.Name()
	}
	return "pipeline(" + strings.Join(names, ",") + ")"
}

// Compact runs the stages in order on each other's output.
func (p *Pipeline) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	target := cc.Budget.Target()
	cur, tokens := cc.Current, cc.Tokens
	var out condense.Candidate
	var errs []error
	for _, stage := range p.Stages {
		if tokens <= target && len(out.Steps) > 0 && !cc.Manual {
			break
		}
		sub := *cc
		sub.Current, sub.Tokens = cur, tokens
		cand, err := stage.Compact(ctx, &sub)
		if cerr := ctx.Err(); cerr != nil {
			return nil, cerr
		}
		if errors.Is(err, condense.ErrNothingToCompact) || (err == nil && (cand == nil || cand.Rendering.Equal(cur))) {
			continue
		}
		if err != nil {
			errs = append(errs, &condense.StrategyError{Strategy: stage.Name(), Err: err})
			if cc.Logger != nil {
				cc.Logger.Warn("condense: pipeline stage failed; trying the next", "stage", stage.Name(), "err", redact.Err(err))
			}
			continue
		}
		if err := condense.Validate(cand.Rendering.Messages()); err != nil {
			errs = append(errs, &condense.StrategyError{Strategy: stage.Name(), Err: err})
			continue
		}
		after := cc.Count(cand.Rendering)
		if after >= tokens {
			continue
		}
		cur, tokens = cand.Rendering, after
		out.Rendering = cur
		out.LedgerItems += cand.LedgerItems
		out.Demoted += cand.Demoted
		out.LedgerBudget += cand.LedgerBudget
		if cand.Gate != nil {
			g := *cand.Gate
			out.Gate = &g
		}
		if cand.Summary != "" {
			out.Summary = cand.Summary
			out.Trim = cand.Trim
		}
		out.Usage = append(out.Usage, cand.Usage...)
		if len(cand.Steps) > 0 {
			out.Steps = append(out.Steps, cand.Steps...)
		} else {
			out.Steps = append(out.Steps, stage.Name())
		}
	}
	if len(out.Steps) == 0 {
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
		return nil, condense.ErrNothingToCompact
	}
	return &out, nil
}
