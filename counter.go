package condense

import "math"

// Counter estimates the tokens of a request, piece by piece, so that the
// preflight can cache the count of every message it has seen. The count of a
// request is CountOverhead(system, tools) plus the sum of CountMessage over
// its messages, times the correction of a Corrector.
//
// A Counter must be safe for concurrent use: the preflight counts the
// messages of a long history on every core. The tokens package has the
// built-in counters (all safe for concurrent use) and a conformance suite
// (tokens/countertest) every Counter should pass.
type Counter interface {
	// Name identifies the counter in records and stats ("o200k_base",
	// "claude-heuristic").
	Name() string
	// Exact reports whether counts are exact (a real tokenizer) rather than
	// a calibrated estimate.
	Exact() bool
	// CountMessage returns the tokens of one message, its framing included.
	CountMessage(m *Message) int
	// CountOverhead returns the tokens of the system text, the tool
	// definitions and the request's own framing.
	CountOverhead(system string, tools []Tool) int
}

// Corrector is implemented by counters that learn from billed usage: after
// each call the provider's reported input is compared with the estimate, and
// the preflight multiplies its sums by Correction(). A correction below 1.0
// is ignored, so learning only ever tightens an estimate.
type Corrector interface {
	Correction() float64
}

// CountRequest returns c's estimate of the whole request r.
func CountRequest(c Counter, r *Request) int {
	n := c.CountOverhead(r.System, r.Tools)
	for i := range r.Messages {
		n += c.CountMessage(&r.Messages[i])
	}
	return corrected(c, n)
}

func corrected(c Counter, n int) int {
	cr, ok := c.(Corrector)
	if !ok {
		return n
	}
	f := cr.Correction()
	if f <= 1 || math.IsNaN(f) || math.IsInf(f, 0) {
		return n
	}
	return int(math.Ceil(float64(n) * f))
}
