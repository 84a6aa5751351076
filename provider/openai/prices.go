package openai

import (
	"strings"

	"github.com/condense-dev/condense/tokens"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input       float64
	CachedInput float64
	Output      float64
}

// prices are OpenAI's list prices for the Standard tier, from
// openai.com/api/pricing as of November 2025. Names are matched by longest
// prefix, so dated snapshots ("gpt-4o-mini-2024-07-18") find their model
// and "gpt-4o-mini" is not priced as "gpt-4o". Models served by other
// OpenAI-compatible servers are not in the table: their cost is 0.
var prices = map[string]Price{
	"gpt-5":        {Input: 1.25, CachedInput: 0.125, Output: 10},
	"gpt-5-mini":   {Input: 0.25, CachedInput: 0.025, Output: 2},
	"gpt-5-nano":   {Input: 0.05, CachedInput: 0.005, Output: 0.40},
	"gpt-5-pro":    {Input: 15, CachedInput: 15, Output: 120},
	"gpt-4.1":      {Input: 2, CachedInput: 0.50, Output: 8},
	"gpt-4.1-mini": {Input: 0.40, CachedInput: 0.10, Output: 1.60},
	"gpt-4.1-nano": {Input: 0.10, CachedInput: 0.025, Output: 0.40},
	"gpt-4o":       {Input: 2.50, CachedInput: 1.25, Output: 10},
	"gpt-4o-mini":  {Input: 0.15, CachedInput: 0.075, Output: 0.60},
	"o4-mini":      {Input: 1.10, CachedInput: 0.275, Output: 4.40},
	"o3":           {Input: 2, CachedInput: 0.50, Output: 8},
	"o3-mini":      {Input: 1.10, CachedInput: 0.55, Output: 4.40},
	"o3-pro":       {Input: 20, CachedInput: 20, Output: 80},
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

// Cost returns the list price in US dollars of a call: prompt tokens (of
// which cached were served from the prompt cache) and completion tokens. 0
// for a model not in the built-in table.
func Cost(model string, prompt, cached, completion int) float64 {
	p, ok := PriceOf(model)
	if !ok {
		return 0
	}
	cached = min(max(cached, 0), prompt)
	return (float64(prompt-cached)*p.Input + float64(cached)*p.CachedInput +
		float64(completion)*p.Output) / 1e6
}
