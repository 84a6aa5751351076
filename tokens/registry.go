package tokens

import (
	"log/slog"
	"sort"
	"strings"
	"sync"

	"github.com/condense-dev/condense"
)

// Provider families of ModelInfo.Family and of Heuristic.
const (
	FamilyAnthropic = "anthropic"
	FamilyOpenAI    = "openai"
	FamilyGemini    = "gemini"
)

// Encodings BPE knows.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
)

// Registry is a model registry: context window, max output, family and
// tokenizer of known models. It implements condense.Registry and is safe for
// concurrent use. The zero value is an empty registry.
//
// Lookup tries the name as given, then a normalized form (lower case, without
// a provider prefix such as "anthropic/" or "us.anthropic.", without a
// "@date" or ":version" suffix, with dots between Claude version digits
// turned into hyphens), then the longest registered name the normalized name
// starts with, followed by "-" (so "claude-sonnet-4-5-20250929" finds
// "claude-sonnet-4-5" and "gpt-4o-2024-08-06" finds "gpt-4o").
type Registry struct {
	mu     sync.RWMutex
	models map[string]condense.ModelInfo
	names  []string // registered names, longest first, for prefix lookup
	warned map[string]bool
}

var _ condense.Registry = (*Registry)(nil)

// NewRegistry returns a registry holding infos. Later infos with the same
// name replace earlier ones.
func NewRegistry(infos ...condense.ModelInfo) *Registry {
	r := &Registry{}
	for _, info := range infos {
		r.Set(info)
	}
	return r
}

// Set adds info to the registry, or replaces the model of the same name. The
// name is matched case-insensitively.
func (r *Registry) Set(info condense.ModelInfo) {
	name := strings.ToLower(strings.TrimSpace(info.Name))
	if name == "" {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.models == nil {
		r.models = make(map[string]condense.ModelInfo)
	}
	if _, ok := r.models[name]; !ok {
		r.names = append(r.names, name)
		sort.SliceStable(r.names, func(i, j int) bool { return len(r.names[i]) > len(r.names[j]) })
	}
	r.models[name] = info
}

// Lookup returns what the registry knows of model. The returned info keeps
// the registered Name, so a dated name reports the model it matched. A nil
// registry knows no model.
func (r *Registry) Lookup(model string) (condense.ModelInfo, bool) {
	if r == nil {
		return condense.ModelInfo{}, false
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if len(r.models) == 0 {
		return condense.ModelInfo{}, false
	}
	if info, ok := r.models[strings.ToLower(model)]; ok {
		return info, true
	}
	name := Normalize(model)
	if info, ok := r.models[name]; ok {
		return info, true
	}
	for _, n := range r.names {
		if len(name) > len(n) && strings.HasPrefix(name, n) && name[len(n)] == '-' {
			return r.models[n], true
		}
	}
	return condense.ModelInfo{}, false
}

// Models returns the infos the registry holds, sorted by name.
func (r *Registry) Models() []condense.ModelInfo {
	if r == nil {
		return nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]condense.ModelInfo, 0, len(r.models))
	for _, info := range r.models {
		out = append(out, info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// WarnUnknown logs one warning through logger when model has no known
// window: the model runs without a window guard. Each model is
// warned about at most once per registry, whatever the logger. It reports
// whether the model has a window. A nil logger logs nothing and does not use
// up the warning; a nil registry knows no model and logs nothing.
func (r *Registry) WarnUnknown(logger *slog.Logger, model string) bool {
	if info, ok := r.Lookup(model); ok && info.Window > 0 {
		return true
	}
	if logger == nil || r == nil {
		return false
	}
	key := strings.ToLower(model)
	r.mu.Lock()
	if r.warned == nil {
		r.warned = make(map[string]bool)
	}
	first := !r.warned[key]
	r.warned[key] = true
	r.mu.Unlock()
	if first {
		logger.Warn("condense: unknown model has no context window; requests are not guarded",
			slog.String("model", model))
	}
	return false
}

// Normalize returns the canonical form of a model name that Lookup uses:
// lower case, without provider prefixes ("anthropic/", "openai/",
// "models/", a Hugging Face organisation such as "deepseek-ai/", Bedrock's
// "us.anthropic." and "-v1:0"), without a Vertex "@20250929" suffix or an
// Ollama ":8b" tag, and with Claude's dotted versions ("claude-sonnet-4.5")
// spelled with hyphens as the Anthropic API does ("claude-sonnet-4-5").
func Normalize(model string) string {
	s := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(s, '/'); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.Index(s, "claude-"); i > 0 {
		s = s[i:] // Bedrock: "us.anthropic.claude-…", "anthropic.claude-…"
	}
	if i := strings.IndexByte(s, '@'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, ':'); i > 0 && !strings.HasPrefix(s, "claude-") {
		s = s[:i] // Ollama: "qwen3:8b", "llama3.1:70b-instruct-q4_K_M"
	}
	if strings.HasPrefix(s, "claude-") {
		if i := strings.LastIndex(s, "-v"); i > 0 && strings.Contains(s[i:], ":") {
			s = s[:i] // Bedrock: "…-20250929-v1:0"
		}
		b := []byte(s)
		for i := 1; i+1 < len(b); i++ {
			if b[i] == '.' && isDigit(b[i-1]) && isDigit(b[i+1]) {
				b[i] = '-'
			}
		}
		s = string(b)
	}
	return s
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// familyOf guesses the family of a model name the registry does not know,
// from its name: Claude, GPT and the o-series, Gemini, and the open-weight
// families (DeepSeek, Qwen, Llama, Mistral's models). Any other name is
// FamilyUnknown.
func familyOf(model string) string {
	s := Normalize(model)
	has := func(prefixes ...string) bool {
		for _, p := range prefixes {
			if strings.HasPrefix(s, p) {
				return true
			}
		}
		return false
	}
	switch {
	case has("claude"):
		return FamilyAnthropic
	case has("gemini", "gemma"):
		return FamilyGemini
	case has("gpt", "chatgpt", "o1", "o3", "o4"):
		return FamilyOpenAI
	case has("deepseek"):
		return FamilyDeepSeek
	case has("qwen", "qwq"):
		return FamilyQwen
	case has("llama", "meta-llama", "codellama"):
		return FamilyLlama
	case has("mistral", "mixtral", "codestral", "devstral", "magistral", "ministral", "pixtral"):
		return FamilyMistral
	}
	return FamilyUnknown
}
