package eval

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"github.com/condense-dev/condense/tokens"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	Input float64 `json:"input"`
	// CachedInput is the price of input read from the provider's prompt
	// cache (Anthropic's cache read, OpenAI's cached input).
	CachedInput float64 `json:"cached_input"`
	Output      float64 `json:"output"`
}

// Prices maps model names to prices. A name matches itself, its normalized
// form and any longer name it is a prefix of at a "-" ("gpt-4o" prices
// "gpt-4o-2024-08-06"; the longest match wins, so "gpt-4o-mini" keeps its
// own price).
type Prices map[string]Price

// PricesSource documents DefaultPrices.
const PricesSource = "list prices of anthropic.com/pricing and openai.com/api/pricing, as published in November 2025; " +
	"cached_input is the cache-read price (Anthropic's 1.25x cache-write surcharge is not modelled)"

// DefaultPrices is the built-in price table (see PricesSource). Override or
// extend it with LoadPrices.
var DefaultPrices = Prices{
	"claude-opus-4-5":   {Input: 5, CachedInput: 0.5, Output: 25},
	"claude-opus-4-1":   {Input: 15, CachedInput: 1.5, Output: 75},
	"claude-opus-4":     {Input: 15, CachedInput: 1.5, Output: 75},
	"claude-sonnet-4-5": {Input: 3, CachedInput: 0.3, Output: 15},
	"claude-sonnet-4":   {Input: 3, CachedInput: 0.3, Output: 15},
	"claude-3-7-sonnet": {Input: 3, CachedInput: 0.3, Output: 15},
	"claude-haiku-4-5":  {Input: 1, CachedInput: 0.1, Output: 5},
	"claude-3-5-haiku":  {Input: 0.8, CachedInput: 0.08, Output: 4},
	"gpt-5":             {Input: 1.25, CachedInput: 0.125, Output: 10},
	"gpt-5-codex":       {Input: 1.25, CachedInput: 0.125, Output: 10},
	"gpt-5-mini":        {Input: 0.25, CachedInput: 0.025, Output: 2},
	"gpt-5-nano":        {Input: 0.05, CachedInput: 0.005, Output: 0.4},
	"gpt-4.1":           {Input: 2, CachedInput: 0.5, Output: 8},
	"gpt-4.1-mini":      {Input: 0.4, CachedInput: 0.1, Output: 1.6},
	"gpt-4.1-nano":      {Input: 0.1, CachedInput: 0.025, Output: 0.4},
	"gpt-4o":            {Input: 2.5, CachedInput: 1.25, Output: 10},
	"gpt-4o-mini":       {Input: 0.15, CachedInput: 0.075, Output: 0.6},
	"o3":                {Input: 2, CachedInput: 0.5, Output: 8},
	"o4-mini":           {Input: 1.1, CachedInput: 0.275, Output: 4.4},
}

// Lookup returns the price of model.
func (p Prices) Lookup(model string) (Price, bool) {
	if pr, ok := p[model]; ok {
		return pr, true
	}
	norm := tokens.Normalize(model)
	if pr, ok := p[norm]; ok {
		return pr, true
	}
	best, bestLen := Price{}, -1
	for name, pr := range p {
		n := tokens.Normalize(name)
		if strings.HasPrefix(norm, n) && len(norm) > len(n) && norm[len(n)] == '-' && len(n) > bestLen {
			best, bestLen = pr, len(n)
		}
	}
	return best, bestLen >= 0
}

// Cost returns the dollars of input tokens (cached of them from the cache)
// and output tokens.
func (pr Price) Cost(input, cached, output int64) float64 {
	return (float64(input-cached)*pr.Input + float64(cached)*pr.CachedInput + float64(output)*pr.Output) / 1e6
}

// LoadPrices reads a JSON object of model → {"input", "cached_input",
// "output"} (USD per million tokens) and returns DefaultPrices with its
// entries added or replaced.
func LoadPrices(path string) (Prices, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePrices(path, data)
}

// ParsePrices is LoadPrices on data read from name.
func ParsePrices(name string, data []byte) (Prices, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object of model → price: %w", name, err)
	}
	out := make(Prices, len(DefaultPrices)+len(raw))
	for k, v := range DefaultPrices {
		out[k] = v
	}
	names := make([]string, 0, len(raw))
	for k := range raw {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, model := range names {
		dec := json.NewDecoder(strings.NewReader(string(raw[model])))
		dec.DisallowUnknownFields()
		var pr Price
		if err := dec.Decode(&pr); err != nil {
			return nil, fmt.Errorf("%s: model %q: %w", name, model, err)
		}
		if pr.Input < 0 || pr.CachedInput < 0 || pr.Output < 0 {
			return nil, fmt.Errorf("%s: model %q: negative price", name, model)
		}
		out[model] = pr
	}
	return out, nil
}
