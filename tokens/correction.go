package tokens

import (
	"math"
	"sync"

	"github.com/condense-dev/condense"
)

// Calibration learns from billed usage: per model, it keeps an exponential
// moving average of billed/estimated tokens, and its Factor, never below
// 1.0, is what later estimates are multiplied by. It is safe for concurrent
// use; the zero value is ready to use.
type Calibration struct {
	// Alpha is the weight of a new observation in the moving average, in
	// (0, 1]. 0 means DefaultAlpha.
	Alpha float64

	mu     sync.Mutex
	ratios map[string]float64
}

// Defaults of Calibration.
const (
	// DefaultAlpha weighs a new observation by a third: a counter that
	// under-counts by 10% is corrected to within 1% in six calls.
	DefaultAlpha = 1.0 / 3
	// MaxFactor bounds the correction; a single observation's ratio is
	// clamped to [1/MaxFactor, MaxFactor] so that one odd response (a
	// retried request billed twice, a cached system prompt the counter never
	// saw) cannot make every later estimate useless.
	MaxFactor = 4.0
)

// NewCalibration returns an empty calibration with the default alpha.
func NewCalibration() *Calibration { return &Calibration{} }

// Observe records that a request the counter estimated at estimated tokens
// (the uncorrected estimate: CountOverhead plus the CountMessage sums, before
// the factor is applied) was billed billed input tokens. Non-positive
// inputs are ignored. The first observation of a model sets its ratio; later
// ones move it by Alpha.
func (c *Calibration) Observe(model string, estimated, billed int) {
	if estimated <= 0 || billed <= 0 {
		return
	}
	r := float64(billed) / float64(estimated)
	r = min(max(r, 1/MaxFactor), MaxFactor)
	a := c.Alpha
	if a <= 0 || a > 1 || math.IsNaN(a) {
		a = DefaultAlpha
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ratios == nil {
		c.ratios = make(map[string]float64)
	}
	old, ok := c.ratios[model]
	if !ok {
		c.ratios[model] = r
		return
	}
	c.ratios[model] = old + a*(r-old)
}

// Factor returns the correction of model: the moving average of its
// billed/estimated ratios, never below 1.0, 1.0 before any observation.
func (c *Calibration) Factor(model string) float64 {
	c.mu.Lock()
	r, ok := c.ratios[model]
	c.mu.Unlock()
	if !ok || r < 1 {
		return 1
	}
	return r
}

// Reset forgets what was learned about model.
func (c *Calibration) Reset(model string) {
	c.mu.Lock()
	delete(c.ratios, model)
	c.mu.Unlock()
}

// CorrectedCounter is a counter that learns from billed usage: it counts
// with its base counter, reports Calibration.Factor as its Correction
// (condense.Corrector) and feeds Observe into the calibration under its
// model's name. Several counters may share one Calibration.
type CorrectedCounter struct {
	base  condense.Counter
	model string
	cal   *Calibration
}

// Observer is implemented by counters that learn from billed usage, such
// as the counters ForModel returns: after a call, pass the uncorrected
// estimate of the request and the input tokens the provider billed for it.
type Observer interface {
	Observe(estimated, billed int)
}

var (
	_ condense.Counter   = (*CorrectedCounter)(nil)
	_ condense.Corrector = (*CorrectedCounter)(nil)
	_ Observer           = (*CorrectedCounter)(nil)
)

// Corrected returns base corrected by cal's factor for model. A nil cal gets
// a new Calibration of its own. When base is itself a *CorrectedCounter, its
// base is wrapped instead, so corrections never stack.
func Corrected(base condense.Counter, model string, cal *Calibration) *CorrectedCounter {
	if cc, ok := base.(*CorrectedCounter); ok {
		base = cc.base
	}
	if cal == nil {
		cal = NewCalibration()
	}
	return &CorrectedCounter{base: base, model: model, cal: cal}
}

// Name returns the base counter's name.
func (c *CorrectedCounter) Name() string { return c.base.Name() }

// Exact returns the base counter's exactness. The correction does not make
// an exact counter inexact: it covers what the counter cannot see (provider
// framing), which usage reveals.
func (c *CorrectedCounter) Exact() bool { return c.base.Exact() }

// CountMessage returns the base counter's count of m, uncorrected.
func (c *CorrectedCounter) CountMessage(m *condense.Message) int { return c.base.CountMessage(m) }

// CountOverhead returns the base counter's overhead, uncorrected.
func (c *CorrectedCounter) CountOverhead(system string, tools []condense.Tool) int {
	return c.base.CountOverhead(system, tools)
}

// Correction returns the current factor of the counter's model, at least 1.
func (c *CorrectedCounter) Correction() float64 { return c.cal.Factor(c.model) }

// Observe records a billed usage against the uncorrected estimate of the
// same request (see Calibration.Observe).
func (c *CorrectedCounter) Observe(estimated, billed int) { c.cal.Observe(c.model, estimated, billed) }

// Model returns the model whose factor the counter uses.
func (c *CorrectedCounter) Model() string { return c.model }

// Calibration returns the calibration the counter learns into.
func (c *CorrectedCounter) Calibration() *Calibration { return c.cal }

// Unwrap returns the base counter.
func (c *CorrectedCounter) Unwrap() condense.Counter { return c.base }

// ForModel returns the counter for model: the exact BPE counter when the
// registry gives the model an encoding, else the estimate of its family —
// the calibrated heuristics for Claude and Gemini, o200k_base times a
// measured margin for the open-weight families (Open). A model the
// registry does not know gets the family its name suggests ("claude…",
// "gpt…", "gemini…", "deepseek…", "qwen…", "llama…", "mistral…"), and
// o200k_base with the largest margin when the name suggests none; it is
// never counted as Claude by default. A nil reg means Models.
//
// The counter is a *CorrectedCounter with a Calibration of its own: feed it
// billed usage with Observe. To share learning between counters, wrap the
// result with Corrected and a shared Calibration.
func ForModel(model string, reg condense.Registry) condense.Counter {
	return Corrected(baseForModel(model, reg), model, nil)
}

func baseForModel(model string, reg condense.Registry) condense.Counter {
	if reg == nil {
		reg = Models
	}
	family := familyOf(model)
	if info, ok := reg.Lookup(model); ok {
		if info.Encoding != "" {
			if c, err := BPE(info.Encoding); err == nil {
				return c
			}
		}
		if info.Family != "" {
			family = info.Family
		}
	}
	return familyCounter(family)
}

// familyCounter is the estimate of a family whose model has no encoding.
func familyCounter(family string) condense.Counter {
	switch family {
	case FamilyAnthropic, FamilyOpenAI, FamilyGemini:
		return Heuristic(family)
	}
	return Open(family)
}
