package tokens

import (
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestPricesLookup(t *testing.T) {
	p := DefaultPrices()
	for model, want := range map[string]float64{
		"claude-opus-4-5-20251101":     5,
		"claude-sonnet-4.5":            3,
		"anthropic/claude-haiku-4-5":   1,
		"claude-3-5-haiku-latest":      0.80,
		"gpt-4o-2024-08-06":            2.5,
		"gpt-4o-mini-2024-07-18":       0.15, // not gpt-4o's price
		"gpt-5-codex":                  1.25,
		"openai/gpt-5-mini":            0.25,
		"us.anthropic.claude-opus-4-1": 15,
	} {
		pr, ok := p.Lookup(model)
		if !ok || pr.Input != want {
			t.Errorf("%s: %+v %v, want input %v", model, pr, ok, want)
		}
	}
	for _, model := range []string{"llama-3-70b", "llama3.1:8b", "claude-unknown-9", "gpt-4ox"} {
		if _, ok := p.Lookup(model); ok {
			t.Errorf("%s: an unknown model has a price", model)
		}
	}
}

func TestPricesCost(t *testing.T) {
	p := DefaultPrices()
	plain := condense.Usage{InputTokens: 1_000_000, OutputTokens: 1_000_000}
	for _, tt := range []struct {
		model string
		u     condense.Usage
		want  float64
	}{
		{"claude-sonnet-4-5-20250929", plain, 18},
		{"gpt-4o-2024-08-06", plain, 12.5},
		{"gpt-4o-mini-2024-07-18", plain, 0.75},
		{"unknown", plain, 0},
		// Cache reads at 0.1×, writes at 1.25× the input price.
		{"claude-sonnet-4-5", condense.Usage{InputTokens: 1_000_000, CacheReadTokens: 1_000_000}, 0.3},
		{"claude-sonnet-4-5", condense.Usage{InputTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 3.75},
		{"claude-sonnet-4-5", condense.Usage{InputTokens: 3_000_000, CacheReadTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 3 + 0.3 + 3.75},
		// OpenAI's cache writes cost the input price.
		{"gpt-4o", condense.Usage{InputTokens: 1_000_000, CacheWriteTokens: 1_000_000}, 2.5},
		// Cache counts larger than the input are clamped, never negative.
		{"gpt-4o", condense.Usage{InputTokens: 1_000, CacheReadTokens: 5_000, CacheWriteTokens: 5_000}, 1_000 * 1.25 / 1e6},
	} {
		if got := p.Cost(tt.model, tt.u); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("%s %+v: $%v, want $%v", tt.model, tt.u, got, tt.want)
		}
	}
	p["gpt-4o-mini"] = Price{Input: 1, Output: 1}
	if got := p.Cost("gpt-4o-mini", plain); got != 2 {
		t.Errorf("overridden: $%v", got)
	}
	if got := DefaultPrices().Cost("gpt-4o-mini", plain); got != 0.75 {
		t.Errorf("DefaultPrices shares its map: $%v", got)
	}
}

func TestParsePrices(t *testing.T) {
	ps, err := ParsePrices("prices.json", []byte(`{"llama-3-70b": {"input": 0.5, "cached_input": 0.5, "output": 1},
		"gpt-4o": {"input": 1, "cache_read": 0.1, "output": 2}, "claude-x": {"input": 2, "output": 4, "cache_write": 2.5}}`))
	if err != nil {
		t.Fatal(err)
	}
	if pr, _ := ps.Lookup("llama-3-70b"); pr.Output != 1 || pr.CacheRead != 0.5 {
		t.Errorf("added price, cached_input as cache_read: %+v", pr)
	}
	if pr, _ := ps.Lookup("gpt-4o-2024-08-06"); pr.Input != 1 || pr.CacheRead != 0.1 {
		t.Errorf("overridden price: %+v", pr)
	}
	if pr, _ := ps.Lookup("claude-x"); pr.CacheWrite != 2.5 {
		t.Errorf("cache_write: %+v", pr)
	}
	if pr, _ := ps.Lookup("claude-opus-4-5"); pr.Input != 5 {
		t.Errorf("defaults kept: %+v", pr)
	}
	for _, bad := range []string{`[]`, `{"m": {"input": "x"}}`, `{"m": {"inptu": 1}}`, `{"m": {"input": -1}}`, `{"m": {"cache_write": -1}}`} {
		if _, err := ParsePrices("prices.json", []byte(bad)); err == nil || !strings.Contains(err.Error(), "prices.json") {
			t.Errorf("%s: %v", bad, err)
		}
	}
}

func FuzzParsePrices(f *testing.F) {
	for _, s := range []string{`{}`, `{"m":{"input":1,"cached_input":0.1,"output":2}}`, `{"m":{"input":-1}}`, `[]`, `{"m":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ParsePrices("p.json", data)
		if err != nil {
			return
		}
		for m, p := range ps {
			if p.Input < 0 || p.CacheRead < 0 || p.CacheWrite < 0 || p.Output < 0 {
				t.Fatalf("accepted a negative price for %q: %+v", m, p)
			}
		}
	})
}
