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

// MaskKeepSteps is the "mask" policy's M: the observation-masking baseline
// of OpenHands and of JetBrains' study of context management ("The
// Complexity Trap"), which replaces every tool output but the last ten with
// a placeholder. strategy.Mask counts steps, not outputs: a step is an
// assistant message with the tool results that answer it, so a step of
// parallel calls keeps all its outputs and a step of prose only counts
// without keeping any. For agents of one call per turn (SWE-agent,
// OpenHands, mini-swe-agent) steps and outputs are the same. Unlike the
// study's agent, which masks at every turn, the policy masks when a request
// passes the threshold, like every policy here; the masked history then
// grows again until the next pass.
const MaskKeepSteps = 10

// DefaultPolicies returns the policies the eval compares: no compaction,
// drop-oldest, masking with M=10, the Codex CLI's summarize-at-90%, and
// condense's default pipeline. Their summaries are written by
// Config.Summarizer.
func DefaultPolicies() []Policy {
	return []Policy{
		{Name: "none", Describe: "no compaction (overflows marked)"},
		{Name: "drop-oldest", Describe: "drop-oldest",
			New: func() condense.Strategy { return strategy.DropOldest{} }},
		{Name: "mask", Describe: "mask every tool output but those of the last M=10 steps (the OpenHands/JetBrains observation-masking baseline)",
			New: func() condense.Strategy { return strategy.Mask{KeepSteps: MaskKeepSteps} }},
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
