package eval

import (
	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy"
)

// Policy is one way of keeping an agent inside its window, compared by the
// replay: a strategy and the fraction of the input limit it starts at.
type Policy struct {
	Name string
	// Describe says what the policy is, for reports.
	Describe string
	// New returns a fresh strategy for one transcript; nil (or a New that
	// returns nil) means no compaction, only the window guard.
	New func() condense.Strategy
	// Fraction overrides the transcript budget's fraction when positive.
	Fraction float64
}

// CodexFraction and CodexRecentTokens are the Codex CLI's policy: summarize
// at 90% of the input limit, keeping 20,000 tokens of recent user messages.
const (
	CodexFraction     = condense.LateFraction
	CodexRecentTokens = 20_000
)

// DefaultPolicies returns the policies the eval compares: no compaction,
// drop-oldest, masking with M=10, the Codex CLI's summarize-at-90%, and
// condense's default pipeline. Their summaries are written by
// Config.Summarizer.
func DefaultPolicies() []Policy {
	return []Policy{
		{Name: "none", Describe: "no compaction (overflows marked)"},
		{Name: "drop-oldest", Describe: "drop-oldest",
			New: func() condense.Strategy { return strategy.DropOldest{} }},
		{Name: "mask", Describe: "mask observations older than M=10 steps",
			New: func() condense.Strategy { return strategy.Mask{KeepSteps: 10} }},
		{Name: "codex", Describe: "summarize at 90%, keeping 20k tokens of recent turns (Codex CLI)", Fraction: CodexFraction,
			New: func() condense.Strategy {
				return strategy.Summarize{RecentTokens: CodexRecentTokens}
			}},
		{Name: "default", Describe: "condense's default pipeline (minify, mask, summarize, drop-oldest)",
			New: func() condense.Strategy { return strategy.Default() }},
	}
}

func (p *Policy) strategy() condense.Strategy {
	if p.New == nil {
		return nil
	}
	return p.New()
}
