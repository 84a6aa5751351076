package condense

import "math"

// Defaults of the budget.
const (
	// DefaultReservedOutput is reserved for the answer when neither the
	// settings nor the request say how much.
	DefaultReservedOutput = 4096
	// DefaultFraction is the share of the input limit a request may use
	// before automatic compaction runs.
	DefaultFraction = 0.75
	// LateFraction is the preset of agents that compact late, at 90% of the
	// input limit (Codex CLI, pi).
	LateFraction = 0.9
	// DefaultLowWater is the share of the threshold an automatic compaction
	// brings the request down to. The lower it is, the rarer compactions are
	// and the fewer tokens each request between them sends (a compaction
	// rewrites the cached prefix once; the steps after it read it): replayed
	// turn by turn on the bundled Claude Code session and on generated
	// sessions at 32k–128k windows, 0.4 kept as much as 0.5 for 0.5–5% less
	// cost, and 0.6 cost up to 20% more.
	DefaultLowWater = 0.4
)

// Budget says how many tokens a request may use.
//
//	inputLimit = max(0, Window - ReservedOutput - Safety)
//	threshold  = inputLimit * Fraction
//	target     = threshold * LowWater
//
// A request above the threshold is compacted down to the target, the low-water
// mark, and no further: the room between the two is what the next turns
// grow into before the next compaction, so compactions are rare and the
// prefix a provider caches stays put between them. Below the target, the
// room is filled with what a compaction would otherwise give up: recent
// steps verbatim, then the ledger of what was masked or summarized.
type Budget struct {
	// Window is the model's context window in tokens. 0 means unknown: no
	// guard and no automatic compaction.
	Window int
	// ReservedOutput is kept free for the model's answer (and thinking).
	ReservedOutput int
	// Safety is an extra margin kept free; 0 by default.
	Safety int
	// Fraction of the input limit at which automatic compaction starts, in
	// (0, 1]. 0 means DefaultFraction.
	Fraction float64
	// LowWater is the share of the threshold an automatic compaction
	// brings the request down to, in (0, 1]. 0 means DefaultLowWater; 1
	// compacts only to just under the threshold.
	LowWater float64
}

// InputLimit returns the most tokens a request may hold.
func (b Budget) InputLimit() int {
	return max(0, b.Window-b.ReservedOutput-b.Safety)
}

// Threshold returns the estimate above which automatic compaction runs.
func (b Budget) Threshold() int {
	f := b.Fraction
	if f <= 0 || f > 1 || math.IsNaN(f) {
		f = DefaultFraction
	}
	return int(float64(b.InputLimit()) * f)
}

// Target returns the low-water mark: the estimate an automatic compaction
// brings the request down to, LowWater of the threshold.
func (b Budget) Target() int {
	lw := b.LowWater
	if lw <= 0 || lw > 1 || math.IsNaN(lw) {
		lw = DefaultLowWater
	}
	return int(float64(b.Threshold()) * lw)
}

// Known reports whether the budget has a window, and so a guard.
func (b Budget) Known() bool { return b.Window > 0 }

// Settings are the budget knobs a caller may set at each level: per call,
// agent or session, client. Zero fields are unset and fall through to the
// next, less specific level, then to the built-in defaults.
type Settings struct {
	Window         int
	ReservedOutput int
	Safety         int
	Fraction       float64
	LowWater       float64
}

// ResolveBudget builds the budget of req from settings levels, most specific
// first (per-call option, agent/session setting, client setting); the first
// level that sets a field wins, then the built-in defaults. The window falls
// back to info.Window. Reserved output is the explicit setting, else the
// request's max output tokens, else DefaultReservedOutput, plus the thinking
// budget the request enables.
func ResolveBudget(req *Request, info ModelInfo, levels ...Settings) Budget {
	var b Budget
	for _, l := range levels {
		if b.Window == 0 {
			b.Window = l.Window
		}
		if b.ReservedOutput == 0 {
			b.ReservedOutput = l.ReservedOutput
		}
		if b.Safety == 0 {
			b.Safety = l.Safety
		}
		if b.Fraction == 0 {
			b.Fraction = l.Fraction
		}
		if b.LowWater == 0 {
			b.LowWater = l.LowWater
		}
	}
	if b.Window == 0 {
		b.Window = info.Window
	}
	if b.ReservedOutput == 0 {
		b.ReservedOutput = req.MaxOutputTokens
	}
	if b.ReservedOutput == 0 {
		b.ReservedOutput = DefaultReservedOutput
	}
	b.ReservedOutput += max(0, req.ThinkingBudget)
	if b.Fraction == 0 {
		b.Fraction = DefaultFraction
	}
	if b.LowWater == 0 {
		b.LowWater = DefaultLowWater
	}
	return b
}

// Settings returns the settings that resolve back to b for req: handing a
// resolved budget to a Preflight as its settings must not reserve req's
// thinking budget twice (ResolveBudget adds it to the reserved output, so it
// is taken off here). A reserve that was the thinking budget alone becomes 1,
// the least a setting can say.
func (b Budget) Settings(req *Request) Settings {
	reserve := b.ReservedOutput
	if req != nil {
		reserve -= max(0, req.ThinkingBudget)
	}
	return Settings{Window: b.Window, ReservedOutput: max(1, reserve), Safety: b.Safety,
		Fraction: b.Fraction, LowWater: b.LowWater}
}

// ModelInfo is what the model registry knows of a model.
type ModelInfo struct {
	Name string
	// Window is the context window in tokens; 0 when unknown.
	Window int
	// MaxOutput is the most output tokens the model produces.
	MaxOutput int
	// Family is the provider family: "anthropic", "openai", "gemini".
	Family string
	// Encoding is the tokenizer used to count the model's tokens
	// ("o200k_base", "cl100k_base"), or "" when no exact tokenizer is
	// available offline.
	Encoding string
}

// Registry looks up models. tokens.Models is the built-in one.
type Registry interface {
	Lookup(model string) (ModelInfo, bool)
}
