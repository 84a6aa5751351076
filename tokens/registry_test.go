package tokens

import (
	"bytes"
	"log/slog"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/condense-dev/condense"
)

func TestModelsLookup(t *testing.T) {
	tests := []struct {
		model, name, family, encoding string
		window, maxOut                int
	}{
		{"claude-sonnet-4-5", "claude-sonnet-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-sonnet-4.5", "claude-sonnet-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"anthropic/claude-sonnet-4.5", "claude-sonnet-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-sonnet-4-5@20250929", "claude-sonnet-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-sonnet-4-20250514", "claude-sonnet-4", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-opus-4-1-20250805", "claude-opus-4-1", FamilyAnthropic, "", 200_000, 32_000},
		{"claude-opus-4-5-20251101", "claude-opus-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-opus-4-20250514", "claude-opus-4", FamilyAnthropic, "", 200_000, 32_000},
		{"claude-haiku-4-5", "claude-haiku-4-5", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-3-7-sonnet-latest", "claude-3-7-sonnet", FamilyAnthropic, "", 200_000, 64_000},
		{"claude-3-5-haiku-20241022", "claude-3-5-haiku", FamilyAnthropic, "", 200_000, 8_192},
		{"CLAUDE-3-5-HAIKU", "claude-3-5-haiku", FamilyAnthropic, "", 200_000, 8_192},
		{"gpt-4o", "gpt-4o", FamilyOpenAI, O200kBase, 128_000, 16_384},
		{"gpt-4o-2024-08-06", "gpt-4o", FamilyOpenAI, O200kBase, 128_000, 16_384},
		{"gpt-4o-mini-2024-07-18", "gpt-4o-mini", FamilyOpenAI, O200kBase, 128_000, 16_384},
		{"openai/gpt-4.1-nano", "gpt-4.1-nano", FamilyOpenAI, O200kBase, 1_047_576, 32_768},
		{"gpt-4.1-2025-04-14", "gpt-4.1", FamilyOpenAI, O200kBase, 1_047_576, 32_768},
		{"gpt-5", "gpt-5", FamilyOpenAI, O200kBase, 400_000, 128_000},
		{"gpt-5-mini-2025-08-07", "gpt-5-mini", FamilyOpenAI, O200kBase, 400_000, 128_000},
		{"gpt-5-codex", "gpt-5", FamilyOpenAI, O200kBase, 400_000, 128_000},
		{"o3-2025-04-16", "o3", FamilyOpenAI, O200kBase, 200_000, 100_000},
		{"o4-mini", "o4-mini", FamilyOpenAI, O200kBase, 200_000, 100_000},
		{"gpt-4-0613", "gpt-4", FamilyOpenAI, Cl100kBase, 8_192, 8_192},
		{"gpt-4-turbo-2024-04-09", "gpt-4-turbo", FamilyOpenAI, Cl100kBase, 128_000, 4_096},
		{"gpt-3.5-turbo-0125", "gpt-3.5-turbo", FamilyOpenAI, Cl100kBase, 16_385, 4_096},
		{"gemini-2.5-pro", "gemini-2.5-pro", FamilyGemini, "", 1_048_576, 65_536},
		{"models/gemini-2.5-flash", "gemini-2.5-flash", FamilyGemini, "", 1_048_576, 65_536},
		{"gemini-2.5-flash-lite-preview-06-17", "gemini-2.5-flash-lite", FamilyGemini, "", 1_048_576, 65_536},
	}
	for _, tt := range tests {
		info, ok := Models.Lookup(tt.model)
		if !ok {
			t.Errorf("Lookup(%q) found nothing", tt.model)
			continue
		}
		if info.Name != tt.name || info.Family != tt.family || info.Encoding != tt.encoding ||
			info.Window != tt.window || info.MaxOutput != tt.maxOut {
			t.Errorf("Lookup(%q) = %+v, want %s %s %q window %d max %d", tt.model, info, tt.name, tt.family, tt.encoding, tt.window, tt.maxOut)
		}
	}
	for _, model := range []string{"", "llama-3-70b", "gpt", "claude", "gpt-4ox", "claude-sonnet-45", "gpt-5.2"} {
		if info, ok := Models.Lookup(model); ok {
			t.Errorf("Lookup(%q) = %+v, want not found", model, info)
		}
	}
}

func TestBuiltinModelsAreComplete(t *testing.T) {
	for _, info := range BuiltinModels() {
		if info.Window <= 0 || info.MaxOutput <= 0 || info.MaxOutput > info.Window {
			t.Errorf("%s: window %d, max output %d", info.Name, info.Window, info.MaxOutput)
		}
		switch info.Family {
		case FamilyOpenAI:
			if info.Encoding != O200kBase && info.Encoding != Cl100kBase {
				t.Errorf("%s: OpenAI model with encoding %q", info.Name, info.Encoding)
			}
		case FamilyAnthropic, FamilyGemini, FamilyDeepSeek, FamilyQwen, FamilyLlama, FamilyMistral:
			if info.Encoding != "" {
				t.Errorf("%s: %s model with encoding %q", info.Name, info.Family, info.Encoding)
			}
		default:
			t.Errorf("%s: family %q", info.Name, info.Family)
		}
		if got, ok := Models.Lookup(info.Name); !ok || got != info {
			t.Errorf("Lookup(%q) = %+v, %v", info.Name, got, ok)
		}
	}
}

func TestRegistrySet(t *testing.T) {
	r := NewRegistry(BuiltinModels()...)
	r.Set(condense.ModelInfo{Name: "claude-sonnet-4-5", Window: 1_000_000, MaxOutput: 64_000, Family: FamilyAnthropic})
	if info, _ := r.Lookup("claude-sonnet-4-5-20250929"); info.Window != 1_000_000 {
		t.Errorf("override not seen through a dated name: %+v", info)
	}
	if info, _ := Models.Lookup("claude-sonnet-4-5"); info.Window != 200_000 {
		t.Errorf("override of a copy changed Models: %+v", info)
	}
	r.Set(condense.ModelInfo{Name: "My-Local-Model", Window: 32_768, Family: FamilyOpenAI})
	if info, ok := r.Lookup("my-local-model-q4"); !ok || info.Window != 32_768 {
		t.Errorf("added model not found by prefix: %+v %v", info, ok)
	}
	r.Set(condense.ModelInfo{Name: "  "})
	var empty Registry
	if _, ok := empty.Lookup("gpt-4o"); ok {
		t.Error("empty registry found gpt-4o")
	}
	empty.Set(condense.ModelInfo{Name: "x", Window: 10})
	if _, ok := empty.Lookup("x"); !ok {
		t.Error("zero Registry is not usable")
	}
	if n := len(NewRegistry(condense.ModelInfo{Name: "a"}, condense.ModelInfo{Name: "A", Window: 5}).Models()); n != 1 {
		t.Errorf("same name twice gives %d models", n)
	}
}

func TestRegistryLongestPrefix(t *testing.T) {
	r := NewRegistry(
		condense.ModelInfo{Name: "m", Window: 1},
		condense.ModelInfo{Name: "m-large", Window: 2},
		condense.ModelInfo{Name: "m-large-v2", Window: 3},
	)
	for model, want := range map[string]int{"m-x": 1, "m-large-2025": 2, "m-large-v2-0101": 3, "m-large-v3": 2} {
		if info, _ := r.Lookup(model); info.Window != want {
			t.Errorf("Lookup(%q) window %d, want %d", model, info.Window, want)
		}
	}
}

func TestWarnUnknownOncePerModel(t *testing.T) {
	var buf bytes.Buffer
	logger := slog.New(slog.NewTextHandler(&buf, nil))
	r := NewRegistry(BuiltinModels()...)
	r.Set(condense.ModelInfo{Name: "windowless", Family: FamilyOpenAI})
	if !r.WarnUnknown(logger, "gpt-4o-2024-08-06") {
		t.Error("known model reported unknown")
	}
	var wg sync.WaitGroup
	for range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, m := range []string{"llama-3-70b", "mystery", "windowless", "llama-3-70b"} {
				if r.WarnUnknown(logger, m) {
					t.Errorf("%s reported known", m)
				}
			}
		}()
	}
	wg.Wait()
	out := buf.String()
	for _, m := range []string{"llama-3-70b", "mystery", "windowless"} {
		if n := strings.Count(out, "model="+m); n != 1 {
			t.Errorf("%s warned %d times, want once:\n%s", m, n, out)
		}
	}
	if strings.Contains(out, "gpt-4o") {
		t.Errorf("warned about a known model:\n%s", out)
	}
	// Another registry warns again: once per model per registry.
	buf.Reset()
	NewRegistry().WarnUnknown(logger, "mystery")
	if !strings.Contains(buf.String(), "model=mystery") {
		t.Error("a second registry did not warn")
	}
	// A nil logger logs nothing and does not use up the warning.
	r2 := NewRegistry()
	r2.WarnUnknown(nil, "later")
	buf.Reset()
	r2.WarnUnknown(logger, "later")
	if !strings.Contains(buf.String(), "model=later") {
		t.Error("a nil logger used up the warning")
	}
}

func TestNilRegistry(t *testing.T) {
	var r *Registry
	if _, ok := r.Lookup("gpt-4o"); ok {
		t.Error("nil registry found a model")
	}
	if r.Models() != nil || r.WarnUnknown(slog.Default(), "x") {
		t.Error("nil registry is not empty")
	}
	// A typed nil in the interface must not panic in ForModel.
	var reg condense.Registry = r
	if got := ForModel("gpt-4o", reg).Name(); got != "openai-heuristic" {
		t.Errorf("ForModel with a nil *Registry = %s", got)
	}
}

func TestFamilyOf(t *testing.T) {
	for model, want := range map[string]string{
		"claude-next": FamilyAnthropic, "gpt-6": FamilyOpenAI, "o1-pro": FamilyOpenAI, "o3-deep": FamilyOpenAI,
		"o4-max": FamilyOpenAI, "gemini-4-ultra": FamilyGemini, "llama-3": FamilyLlama, "": FamilyUnknown,
		"openrouter/anthropic/claude-x": FamilyAnthropic, "deepseek-ai/DeepSeek-V3.2-Exp": FamilyDeepSeek,
		"Qwen/Qwen3-Coder-480B-A35B-Instruct": FamilyQwen, "qwq-32b": FamilyQwen, "meta-llama/Llama-4-Scout-17B-16E": FamilyLlama,
		"codellama:13b": FamilyLlama, "mistralai/Devstral-Small-2505": FamilyMistral, "mixtral-8x22b": FamilyMistral,
		"phi-4": FamilyUnknown, "my-finetune-v2": FamilyUnknown,
	} {
		if got := familyOf(model); got != want {
			t.Errorf("familyOf(%q) = %q, want %q", model, got, want)
		}
	}
}

// Open-weight models, registered or not, are counted with o200k_base times
// their family's margin, never with the Claude estimate.
func TestForModelOpenFamilies(t *testing.T) {
	for model, want := range map[string]string{
		"deepseek-chat":                       "deepseek~o200k_base×1.10",
		"deepseek-ai/DeepSeek-R1-0528":        "deepseek~o200k_base×1.10",
		"qwen3:8b":                            "qwen~o200k_base×1.10",
		"Qwen/Qwen3-Coder-480B-A35B-Instruct": "qwen~o200k_base×1.10",
		"llama3.1:70b-instruct-q4_K_M":        "llama~o200k_base×1.05",
		"meta-llama/Llama-3.3-70B-Instruct":   "llama~o200k_base×1.05",
		"mistralai/Devstral-Small-2505":       "mistral~o200k_base×1.20",
		"my-local-finetune":                   "unknown~o200k_base×1.20",
		"gpt-oss:20b":                         O200kBase,
	} {
		c := ForModel(model, nil)
		if got := c.Name(); got != want {
			t.Errorf("ForModel(%q) = %s, want %s", model, got, want)
		}
	}
	for model, window := range map[string]int{"qwen3:8b": 32_768, "llama3.1:8b": 131_072, "deepseek-ai/DeepSeek-V3": 128_000,
		"codestral-2508": 262_144, "qwen3-coder:30b": 262_144} {
		if info, ok := Models.Lookup(model); !ok || info.Window != window {
			t.Errorf("Lookup(%q) = %+v, %v; want window %d", model, info, ok, window)
		}
	}
}

// A scaled count is the base count times the factor, rounded up, and never
// exact.
func TestScaledCounter(t *testing.T) {
	base, _ := BPE(O200kBase)
	c := Scaled(base, 1.10, "x")
	m := condense.UserText(strings.Repeat("count these words please ", 40))
	if got, want := c.CountMessage(&m), int(math.Ceil(float64(base.CountMessage(&m))*1.10)); got != want || c.Exact() {
		t.Errorf("CountMessage = %d (exact %v), want %d", got, c.Exact(), want)
	}
	if Scaled(base, 0.5, "y").Factor() != 1 || Scaled(base, math.NaN(), "z").Factor() != 1 {
		t.Error("a factor below 1 or NaN is not raised to 1")
	}
}
