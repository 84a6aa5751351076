package agent

import (
	"errors"
	"fmt"

	"github.com/condense-dev/condense"
)

// Limits bound one run. Summarize calls made for compaction count toward
// every limit: compaction costs model calls too, and a run must not exceed
// its limits by compacting. Zero fields mean no limit.
type Limits struct {
	// MaxModelCalls bounds the model calls, summaries included.
	MaxModelCalls int
	// MaxTotalTokens bounds billed input plus output tokens.
	MaxTotalTokens int
	// MaxCostUSD bounds the cost, priced by the agent's price table.
	MaxCostUSD float64
}

// The limits a LimitError names.
const (
	LimitModelCalls  = "max_model_calls"
	LimitTotalTokens = "max_total_tokens"
	LimitCostUSD     = "max_cost_usd"
)

// ErrLimitExceeded: a run reached one of its limits. The error value is a
// *LimitError.
var ErrLimitExceeded = errors.New("run limit exceeded")

// LimitError ends a run that reached a limit before a model call.
type LimitError struct {
	// Limit is LimitModelCalls, LimitTotalTokens or LimitCostUSD.
	Limit string
	// Used and Max are the figures, in calls, tokens or US dollars.
	Used, Max float64
	// CallIndex is the call that was not made.
	CallIndex int
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("run limit exceeded: %s: %s used of %s, before call %d", e.Limit, fmtNum(e.Used), fmtNum(e.Max), e.CallIndex)
}

func fmtNum(f float64) string {
	if f == float64(int64(f)) {
		return fmt.Sprintf("%d", int64(f))
	}
	return fmt.Sprintf("%.4f", f)
}

// Unwrap returns ErrLimitExceeded.
func (e *LimitError) Unwrap() error { return ErrLimitExceeded }

// Code returns "limit_exceeded".
func (e *LimitError) Code() string { return "limit_exceeded" }

// check returns the first limit that calls model calls so far and u use up.
func (l Limits) check(calls int, u condense.Usage, next int) error {
	switch {
	case l.MaxModelCalls > 0 && calls >= l.MaxModelCalls:
		return &LimitError{Limit: LimitModelCalls, Used: float64(calls), Max: float64(l.MaxModelCalls), CallIndex: next}
	case l.MaxTotalTokens > 0 && u.Total() >= l.MaxTotalTokens:
		return &LimitError{Limit: LimitTotalTokens, Used: float64(u.Total()), Max: float64(l.MaxTotalTokens), CallIndex: next}
	case l.MaxCostUSD > 0 && u.CostUSD >= l.MaxCostUSD:
		return &LimitError{Limit: LimitCostUSD, Used: u.CostUSD, Max: l.MaxCostUSD, CallIndex: next}
	}
	return nil
}
