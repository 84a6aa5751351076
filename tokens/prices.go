package tokens

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/condense-dev/condense"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	// Input is the price of input tokens that are neither read from nor
	// written to a prompt cache.
	Input float64 `json:"input"`
	// Output is the price of output tokens.
	Output float64 `json:"output"`
	// CacheRead is the price of input read from the provider's prompt
	// cache (Anthropic's cache read, OpenAI's cached input).
	CacheRead float64 `json:"cache_read"`
	// CacheWrite is the price of input written to the prompt cache.
	// Anthropic charges 1.25× the input price for its 5-minute cache;
	// OpenAI caches for free, which the table says with CacheWrite equal
	// to Input. Zero means "priced as Input".
	CacheWrite float64 `json:"cache_write,omitempty"`
}

// Prices maps model names to prices. A name prices itself, its normalized
// form (Normalize) and every longer name it is a prefix of at a "-": the
// longest match wins, so "gpt-4o" prices "gpt-4o-2024-08-06" while
// "gpt-4o-mini" keeps its own price.
type Prices map[string]Price

// PricesSource says where DefaultPrices come from.
const PricesSource = "list prices of anthropic.com/pricing and openai.com/api/pricing (Standard tier), as published in November 2025; " +
	"Anthropic cache writes (5-minute cache) cost 1.25x the input price, cache reads 0.1x; OpenAI cache writes are free"

var defaultPrices = Prices{
	"claude-opus-4-5":   {Input: 5, Output: 25, CacheWrite: 6.25, CacheRead: 0.50},
	"claude-opus-4-1":   {Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.50},
	"claude-opus-4":     {Input: 15, Output: 75, CacheWrite: 18.75, CacheRead: 1.50},
	"claude-sonnet-4-5": {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
	"claude-sonnet-4":   {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
	"claude-3-7-sonnet": {Input: 3, Output: 15, CacheWrite: 3.75, CacheRead: 0.30},
	"claude-haiku-4-5":  {Input: 1, Output: 5, CacheWrite: 1.25, CacheRead: 0.10},
	"claude-3-5-haiku":  {Input: 0.80, Output: 4, CacheWrite: 1, CacheRead: 0.08},
	"claude-3-haiku":    {Input: 0.25, Output: 1.25, CacheWrite: 0.30, CacheRead: 0.03},
	"gpt-5":             {Input: 1.25, Output: 10, CacheRead: 0.125},
	"gpt-5-codex":       {Input: 1.25, Output: 10, CacheRead: 0.125},
	"gpt-5-mini":        {Input: 0.25, Output: 2, CacheRead: 0.025},
	"gpt-5-nano":        {Input: 0.05, Output: 0.40, CacheRead: 0.005},
	"gpt-5-pro":         {Input: 15, Output: 120, CacheRead: 15},
	"gpt-4.1":           {Input: 2, Output: 8, CacheRead: 0.50},
	"gpt-4.1-mini":      {Input: 0.40, Output: 1.60, CacheRead: 0.10},
	"gpt-4.1-nano":      {Input: 0.10, Output: 0.40, CacheRead: 0.025},
	"gpt-4o":            {Input: 2.50, Output: 10, CacheRead: 1.25},
	"gpt-4o-mini":       {Input: 0.15, Output: 0.60, CacheRead: 0.075},
	"o3":                {Input: 2, Output: 8, CacheRead: 0.50},
	"o3-mini":           {Input: 1.10, Output: 4.40, CacheRead: 0.55},
	"o3-pro":            {Input: 20, Output: 80, CacheRead: 20},
	"o4-mini":           {Input: 1.10, Output: 4.40, CacheRead: 0.275},
}

// DefaultPrices returns a copy of the built-in price table (see
// PricesSource). Models served by other OpenAI-compatible servers are not
// in it: their cost is 0 unless a table of your own prices them.
func DefaultPrices() Prices { return maps.Clone(defaultPrices) }

// Lookup returns the price of model, and false when the table has none.
func (p Prices) Lookup(model string) (Price, bool) {
	if pr, ok := p[model]; ok {
		return pr, true
	}
	norm := Normalize(model)
	if pr, ok := p[norm]; ok {
		return pr, true
	}
	best, bestLen := Price{}, -1
	for name, pr := range p {
		n := Normalize(name)
		if strings.HasPrefix(norm, n) && len(norm) > len(n) && norm[len(n)] == '-' && len(n) > bestLen {
			best, bestLen = pr, len(n)
		}
	}
	return best, bestLen >= 0
}

// Cost returns the price in US dollars of u on model: plain input, cache
// reads, cache writes and output. It is 0 for a model the table does not
// price.
func (p Prices) Cost(model string, u condense.Usage) float64 {
	pr, ok := p.Lookup(model)
	if !ok {
		return 0
	}
	return pr.Cost(u)
}

// Cost returns the price in US dollars of u. u.InputTokens includes the
// cache reads and writes; the rest of the input is priced as Input.
func (pr Price) Cost(u condense.Usage) float64 {
	read := min(max(u.CacheReadTokens, 0), max(u.InputTokens, 0))
	write := min(max(u.CacheWriteTokens, 0), max(u.InputTokens-read, 0))
	plain := max(u.InputTokens-read-write, 0)
	return (float64(plain)*pr.Input + float64(read)*pr.CacheRead +
		float64(write)*pr.CacheWriteOrInput() + float64(u.OutputTokens)*pr.Output) / 1e6
}

// CacheWriteOrInput returns the price of a cache write: CacheWrite, or
// Input when the table gives none.
func (pr Price) CacheWriteOrInput() float64 {
	if pr.CacheWrite == 0 {
		return pr.Input
	}
	return pr.CacheWrite
}

// LoadPrices reads a JSON object of model → price and returns
// DefaultPrices with its entries added or replaced. A price is
// {"input", "output", "cache_read", "cache_write"} in US dollars per
// million tokens; "cached_input" is accepted as another name for
// "cache_read".
func LoadPrices(path string) (Prices, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParsePrices(path, data)
}

// ParsePrices is LoadPrices on data read from name (named in errors).
func ParsePrices(name string, data []byte) (Prices, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("%s: not a JSON object of model → price: %w", name, err)
	}
	out := DefaultPrices()
	for _, model := range slices.Sorted(maps.Keys(raw)) {
		pr, err := parsePrice(raw[model])
		if err != nil {
			return nil, fmt.Errorf("%s: model %q: %w", name, model, err)
		}
		out[model] = pr
	}
	return out, nil
}

func parsePrice(data json.RawMessage) (Price, error) {
	var in struct {
		Price
		CachedInput *float64 `json:"cached_input"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return Price{}, err
	}
	pr := in.Price
	if in.CachedInput != nil {
		pr.CacheRead = *in.CachedInput
	}
	if pr.Input < 0 || pr.Output < 0 || pr.CacheRead < 0 || pr.CacheWrite < 0 {
		return Price{}, fmt.Errorf("negative price")
	}
	return pr, nil
}
