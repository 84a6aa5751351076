package tokens

import (
	"sync"

	"github.com/condense-dev/condense"
)

// Memo returns c with a memory of the messages it has counted, keyed by
// their content (condense.Fingerprint): a message counted once is not
// tokenized again, whichever preflight or strategy asks. It is for programs
// that render one history several ways — condense inspect previews every
// strategy on the same transcript, condense eval replays five policies — where
// each preflight would otherwise count the same text again. Hashing a message
// costs a fraction of tokenizing it. The memory grows with the distinct
// messages counted; use one Memo per history, not one per process.
//
// The memo forwards Name, Exact and the correction of c (when c learns from
// usage); it is safe for concurrent use when c is.
func Memo(c condense.Counter) *MemoCounter { return &MemoCounter{base: c} }

// MemoCounter is a counter with a memory of message counts; see Memo.
type MemoCounter struct {
	base   condense.Counter
	counts sync.Map // uint64 fingerprint → int
}

var (
	_ condense.Counter   = (*MemoCounter)(nil)
	_ condense.Corrector = (*MemoCounter)(nil)
)

// Name returns the base counter's name.
func (c *MemoCounter) Name() string { return c.base.Name() }

// Exact reports whether the base counter is exact.
func (c *MemoCounter) Exact() bool { return c.base.Exact() }

// CountMessage returns the base counter's count of m, from memory when a
// message with the same content was counted before.
func (c *MemoCounter) CountMessage(m *condense.Message) int {
	fp := condense.Fingerprint(m)
	if n, ok := c.counts.Load(fp); ok {
		return n.(int)
	}
	n := c.base.CountMessage(m)
	c.counts.Store(fp, n)
	return n
}

// CountOverhead returns the base counter's count of the system text and
// tool definitions.
func (c *MemoCounter) CountOverhead(system string, tools []condense.Tool) int {
	return c.base.CountOverhead(system, tools)
}

// Correction returns the base counter's correction, or 1.
func (c *MemoCounter) Correction() float64 {
	if cr, ok := c.base.(condense.Corrector); ok {
		return cr.Correction()
	}
	return 1
}

// Unwrap returns the base counter.
func (c *MemoCounter) Unwrap() condense.Counter { return c.base }
