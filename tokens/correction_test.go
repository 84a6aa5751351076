package tokens

import (
	"math"
	"sync"
	"testing"

	"github.com/condense-dev/condense"
)

func TestCalibrationFactor(t *testing.T) {
	var c Calibration
	if f := c.Factor("m"); f != 1 {
		t.Errorf("factor before observations = %v, want 1", f)
	}
	c.Observe("m", 1000, 1200)
	if f := c.Factor("m"); math.Abs(f-1.2) > 1e-9 {
		t.Errorf("factor after one observation = %v, want 1.2", f)
	}
	c.Observe("m", 1000, 900) // over-counted: moves the average down
	want := 1.2 + DefaultAlpha*(0.9-1.2)
	if f := c.Factor("m"); math.Abs(f-want) > 1e-9 {
		t.Errorf("factor = %v, want %v", f, want)
	}
	for range 20 {
		c.Observe("m", 1000, 500)
	}
	if f := c.Factor("m"); f != 1 {
		t.Errorf("factor after over-counts = %v, want 1 (never below)", f)
	}
	if f := c.Factor("other"); f != 1 {
		t.Errorf("factor of another model = %v", f)
	}
	// Non-positive inputs are ignored.
	c.Observe("z", 0, 100)
	c.Observe("z", 100, 0)
	c.Observe("z", -5, 100)
	if f := c.Factor("z"); f != 1 {
		t.Errorf("factor after ignored observations = %v", f)
	}
	// Outliers are clamped.
	c.Observe("big", 10, 1_000_000)
	if f := c.Factor("big"); f != MaxFactor {
		t.Errorf("factor after an outlier = %v, want %v", f, MaxFactor)
	}
	c.Reset("big")
	if f := c.Factor("big"); f != 1 {
		t.Errorf("factor after Reset = %v", f)
	}
}

func TestCalibrationConverges(t *testing.T) {
	c := &Calibration{Alpha: 0.5}
	for range 30 {
		c.Observe("m", 1000, 1100)
	}
	if f := c.Factor("m"); math.Abs(f-1.1) > 1e-6 {
		t.Errorf("factor = %v, want 1.1", f)
	}
}

func TestCalibrationConcurrent(t *testing.T) {
	c := NewCalibration()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 200 {
				c.Observe("m", 1000, 1000+g+i%7)
				if f := c.Factor("m"); f < 1 || f > 1.1 {
					t.Errorf("factor %v out of range", f)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCorrectedCounter(t *testing.T) {
	cal := NewCalibration()
	base := Heuristic(FamilyAnthropic)
	c := Corrected(base, "claude-sonnet-4-5", cal)
	r := condense.Request{System: "be brief", Messages: []condense.Message{condense.UserText("hello there")}}
	raw := condense.CountRequest(base, &r)
	if got := condense.CountRequest(c, &r); got != raw {
		t.Errorf("uncalibrated corrected count %d, base %d", got, raw)
	}
	c.Observe(1000, 1250)
	if f := c.Correction(); f != 1.25 {
		t.Errorf("Correction() = %v, want 1.25", f)
	}
	if got, want := condense.CountRequest(c, &r), int(math.Ceil(float64(raw)*1.25)); got != want {
		t.Errorf("corrected count %d, want %d", got, want)
	}
	if cal.Factor("claude-sonnet-4-5") != 1.25 {
		t.Error("Observe did not reach the shared calibration")
	}
	// Another counter for the same model sharing cal sees the factor; a
	// re-wrapped counter does not stack corrections.
	c2 := Corrected(c, "claude-sonnet-4-5", cal)
	if c2.Unwrap() != condense.Counter(base) {
		t.Error("Corrected of a CorrectedCounter wraps it instead of its base")
	}
	if got := condense.CountRequest(c2, &r); got != int(math.Ceil(float64(raw)*1.25)) {
		t.Errorf("re-wrapped count %d", got)
	}
	if c.Name() != base.Name() || c.Exact() != base.Exact() || c.Model() != "claude-sonnet-4-5" || c.Calibration() != cal {
		t.Error("CorrectedCounter does not report its base and model")
	}
	if Corrected(base, "m", nil).Calibration() == nil {
		t.Error("nil calibration not replaced")
	}
}

func TestForModel(t *testing.T) {
	tests := []struct {
		model, name string
		exact       bool
	}{
		{"gpt-4o", O200kBase, true},
		{"gpt-4o-2024-08-06", O200kBase, true},
		{"gpt-5-mini", O200kBase, true},
		{"o3", O200kBase, true},
		{"gpt-4", Cl100kBase, true},
		{"gpt-3.5-turbo-0125", Cl100kBase, true},
		{"claude-sonnet-4-5-20250929", "anthropic-heuristic", false},
		{"gemini-2.5-flash", "gemini-heuristic", false},
		{"gpt-7-preview", "openai-heuristic", false},
		{"o4-ultra", "openai-heuristic", false},
		{"claude-ultra-9", "anthropic-heuristic", false},
		{"gemini-9", "gemini-heuristic", false},
		{"llama-3-70b", "llama~o200k_base×1.05", false},
		{"some-local-model", "unknown~o200k_base×1.20", false},
	}
	for _, tt := range tests {
		c := ForModel(tt.model, nil)
		if c.Name() != tt.name || c.Exact() != tt.exact {
			t.Errorf("ForModel(%q) = %s (exact %v), want %s (exact %v)", tt.model, c.Name(), c.Exact(), tt.name, tt.exact)
		}
		cc, ok := c.(*CorrectedCounter)
		if !ok {
			t.Errorf("ForModel(%q) is %T, want *CorrectedCounter", tt.model, c)
			continue
		}
		if _, ok := c.(condense.Corrector); !ok || cc.Correction() != 1 {
			t.Errorf("ForModel(%q) is not a fresh Corrector", tt.model)
		}
	}
	// A registry entry decides: a custom model with an encoding is exact,
	// one with a family gets that family's heuristic.
	reg := NewRegistry(
		condense.ModelInfo{Name: "my-gpt", Window: 8000, Family: FamilyOpenAI, Encoding: O200kBase},
		condense.ModelInfo{Name: "claude-on-prem", Window: 8000, Family: FamilyGemini},
		condense.ModelInfo{Name: "weird", Window: 8000, Family: FamilyOpenAI, Encoding: "p50k_base"},
	)
	for model, want := range map[string]string{"my-gpt": O200kBase, "claude-on-prem": "gemini-heuristic", "weird": "openai-heuristic", "gpt-4o": "openai-heuristic"} {
		if got := ForModel(model, reg).Name(); got != want {
			t.Errorf("ForModel(%q, reg) = %s, want %s", model, got, want)
		}
	}
}
