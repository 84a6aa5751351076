package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense/tokens"
)

// Limits bound one run (DESIGN B26). Summarize calls made for compaction
// count toward every limit. Zero fields mean no limit.
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
func (l Limits) check(calls int, u Usage, next int) error {
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

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input      float64
	Output     float64
	CacheRead  float64
	CacheWrite float64
}

// Prices is a price table: model name prefixes to prices. The longest
// prefix of a (normalized) model name wins, so dated snapshots find their
// model and "gpt-4o-mini" is not priced as "gpt-4o".
type Prices map[string]Price

// DefaultPrices returns a copy of the built-in table: Anthropic's and
// OpenAI's list prices (as of November 2025). Override entries, or give
// the agent a table of your own.
func DefaultPrices() Prices {
	p := Prices{
		"claude-opus-4-5":   {Input: 5, Output: 25, CacheWrite: 6.25, CacheRead: 0.50},
		"claude-opus-4-1":   {Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.50},
		"claude-opus-4":     {Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.50},
		"claude-sonnet-4-5": {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
		"claude-sonnet-4":   {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
		"claude-haiku-4-5":  {Input: 1, Output: 5, CacheWrite: 1.25, CacheRead: 0.10},
		"claude-3-5-haiku":  {Input: 0.80, Output: 4, CacheWrite: 1, CacheRead: 0.08},
		"gpt-5":             {Input: 1.25, CacheRead: 0.125, Output: 10},
		"gpt-5-mini":        {Input: 0.25, CacheRead: 0.025, Output: 2},
		"gpt-5-nano":        {Input: 0.05, CacheRead: 0.005, Output: 0.40},
		"gpt-4.1":           {Input: 2, CacheRead: 0.50, Output: 8},
		"gpt-4.1-mini":      {Input: 0.40, CacheRead: 0.10, Output: 1.60},
		"gpt-4.1-nano":      {Input: 0.10, CacheRead: 0.025, Output: 0.40},
		"gpt-4o":            {Input: 2.50, CacheRead: 1.25, Output: 10},
		"gpt-4o-mini":       {Input: 0.15, CacheRead: 0.075, Output: 0.60},
		"o3":                {Input: 2, CacheRead: 0.50, Output: 8},
		"o4-mini":           {Input: 1.10, CacheRead: 0.275, Output: 4.40},
	}
	return p
}

// Lookup returns the price of model, and false when no prefix matches.
func (p Prices) Lookup(model string) (Price, bool) {
	name := tokens.Normalize(model)
	best := ""
	for k := range p {
		if strings.HasPrefix(name, k) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return Price{}, false
	}
	return p[best], true
}

// Cost returns the price in US dollars of u on model: uncached input,
// cache reads and writes, output. 0 for a model the table does not price.
func (p Prices) Cost(model string, u Usage) float64 {
	pr, ok := p.Lookup(model)
	if !ok {
		return 0
	}
	plain := max(0, u.InputTokens-u.CacheReadTokens-u.CacheWriteTokens)
	return (float64(plain)*pr.Input + float64(u.CacheReadTokens)*pr.CacheRead +
		float64(u.CacheWriteTokens)*pr.CacheWrite + float64(u.OutputTokens)*pr.Output) / 1e6
}
