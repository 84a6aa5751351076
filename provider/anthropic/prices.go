package anthropic

import (
	"strings"

	"github.com/condense-dev/condense/tokens"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input  float64
	Output float64
	// CacheWrite and CacheRead price prompt-cache writes (5-minute cache)
	// and reads.
	CacheWrite float64
	CacheRead  float64
}

// prices are Anthropic's list prices, from the "Pricing" page of the
// Claude documentation (docs.claude.com/en/docs/about-claude/pricing) as of
// November 2025. Cache writes (5-minute TTL) cost 1.25× the input price,
// cache reads 0.1×. Long-context (over 200k tokens) and batch prices are not
// modelled: a summary request is neither. Names are matched by longest
// prefix, so dated snapshots ("claude-haiku-4-5-20251001") find their model.
var prices = map[string]Price{
	"claude-opus-4-5":   {Input: 5, Output: 25, CacheWrite: 6.25, CacheRead: 0.50},
	"claude-opus-4-1":   {Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.50},
	"claude-opus-4":     {Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.50},
	"claude-sonnet-4-5": {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
	"claude-sonnet-4":   {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
	"claude-3-7-sonnet": {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
	"claude-haiku-4-5":  {Input: 1, Output: 5, CacheWrite: 1.25, CacheRead: 0.10},
	"claude-3-5-haiku":  {Input: 0.80, Output: 4, CacheWrite: 1, CacheRead: 0.08},
	"claude-3-haiku":    {Input: 0.25, Output: 1.25, CacheWrite: 0.30, CacheRead: 0.03},
}

// PriceOf returns the list price of model, and false for a model not in
// the built-in table.
func PriceOf(model string) (Price, bool) {
	name := tokens.Normalize(model)
	best := ""
	for k := range prices {
		if strings.HasPrefix(name, k) && len(k) > len(best) {
			best = k
		}
	}
	if best == "" {
		return Price{}, false
	}
	return prices[best], true
}

// Cost returns the list price in US dollars of a call: input tokens not
// cached, cache writes, cache reads and output tokens. 0 for a model not in
// the built-in table.
func Cost(model string, input, cacheWrite, cacheRead, output int) float64 {
	p, ok := PriceOf(model)
	if !ok {
		return 0
	}
	return (float64(input)*p.Input + float64(cacheWrite)*p.CacheWrite +
		float64(cacheRead)*p.CacheRead + float64(output)*p.Output) / 1e6
}
