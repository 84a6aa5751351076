package tokens

import "github.com/condense-dev/condense"

// Models is the built-in registry of current Claude, GPT, Gemini and
// open-weight (DeepSeek, Qwen, Llama, Mistral, gpt-oss) models.
// Callers may Set entries to override or add models; the change is seen by
// everyone using Models, so tests and libraries that need their own figures
// should build a registry with NewRegistry(BuiltinModels()...).
//
// Figures are the providers' published context windows and output limits
// (Anthropic "Models overview", OpenAI model pages, Google "Gemini models"),
// as of late 2025. Windows that a provider offers only behind a beta flag
// (Claude Sonnet 4 / 4.5 with 1M tokens) are not assumed; Set them when you
// enable the beta.
var Models = NewRegistry(BuiltinModels()...)

// BuiltinModels returns the built-in model table, a new slice on each call.
func BuiltinModels() []condense.ModelInfo {
	const (
		a  = FamilyAnthropic
		o  = FamilyOpenAI
		g  = FamilyGemini
		ds = FamilyDeepSeek
		qw = FamilyQwen
		ll = FamilyLlama
		mi = FamilyMistral
	)
	m := func(name string, window, maxOut int, family, enc string) condense.ModelInfo {
		return condense.ModelInfo{Name: name, Window: window, MaxOutput: maxOut, Family: family, Encoding: enc}
	}
	return []condense.ModelInfo{
		// Anthropic. Claude's tokenizer is not published: no encoding.
		m("claude-opus-4-5", 200_000, 64_000, a, ""),
		m("claude-opus-4-1", 200_000, 32_000, a, ""),
		m("claude-opus-4", 200_000, 32_000, a, ""),
		m("claude-sonnet-4-5", 200_000, 64_000, a, ""),
		m("claude-sonnet-4", 200_000, 64_000, a, ""),
		m("claude-haiku-4-5", 200_000, 64_000, a, ""),
		m("claude-3-7-sonnet", 200_000, 64_000, a, ""),
		m("claude-3-5-sonnet", 200_000, 8_192, a, ""),
		m("claude-3-5-haiku", 200_000, 8_192, a, ""),
		m("claude-3-opus", 200_000, 4_096, a, ""),
		m("claude-3-haiku", 200_000, 4_096, a, ""),

		// OpenAI, o200k_base.
		m("gpt-5.1", 400_000, 128_000, o, O200kBase),
		m("gpt-5.1-chat-latest", 128_000, 16_384, o, O200kBase),
		m("gpt-5", 400_000, 128_000, o, O200kBase),
		m("gpt-5-mini", 400_000, 128_000, o, O200kBase),
		m("gpt-5-nano", 400_000, 128_000, o, O200kBase),
		m("gpt-5-chat-latest", 128_000, 16_384, o, O200kBase),
		m("gpt-4.1", 1_047_576, 32_768, o, O200kBase),
		m("gpt-4.1-mini", 1_047_576, 32_768, o, O200kBase),
		m("gpt-4.1-nano", 1_047_576, 32_768, o, O200kBase),
		m("gpt-4o", 128_000, 16_384, o, O200kBase),
		m("gpt-4o-mini", 128_000, 16_384, o, O200kBase),
		m("chatgpt-4o-latest", 128_000, 16_384, o, O200kBase),
		m("o4-mini", 200_000, 100_000, o, O200kBase),
		m("o3", 200_000, 100_000, o, O200kBase),
		m("o3-mini", 200_000, 100_000, o, O200kBase),
		m("o3-pro", 200_000, 100_000, o, O200kBase),
		m("o1", 200_000, 100_000, o, O200kBase),
		m("o1-mini", 128_000, 65_536, o, O200kBase),
		m("o1-preview", 128_000, 32_768, o, O200kBase),
		// gpt-oss uses o200k_harmony: o200k_base plus special tokens.
		m("gpt-oss", 131_072, 131_072, o, O200kBase),
		m("gpt-oss-120b", 131_072, 131_072, o, O200kBase),
		m("gpt-oss-20b", 131_072, 131_072, o, O200kBase),

		// OpenAI, cl100k_base.
		m("gpt-4-turbo", 128_000, 4_096, o, Cl100kBase),
		m("gpt-4-32k", 32_768, 32_768, o, Cl100kBase),
		m("gpt-4", 8_192, 8_192, o, Cl100kBase),
		m("gpt-3.5-turbo", 16_385, 4_096, o, Cl100kBase),

		// Open-weight families, as their makers publish them (model cards
		// and API docs, late 2025). Servers often run them with a smaller
		// window than the model supports (Ollama's default context is a
		// few thousand tokens): pass the served window with --window or
		// Settings.Window. No encoding: they are estimated with
		// o200k_base times a measured margin (Open).
		// DeepSeek API: deepseek-chat 128K context, 8K output;
		// deepseek-reasoner 128K, 64K output. V3/R1 open weights: 128K.
		m("deepseek-chat", 128_000, 8_000, ds, ""),
		m("deepseek-reasoner", 128_000, 64_000, ds, ""),
		m("deepseek-v3", 128_000, 8_000, ds, ""),
		m("deepseek-v3.1", 128_000, 8_000, ds, ""),
		m("deepseek-v3.2", 128_000, 8_000, ds, ""),
		m("deepseek-r1", 128_000, 64_000, ds, ""),
		m("deepseek-coder-v2", 128_000, 8_000, ds, ""),
		// Qwen model cards: Qwen3 (2507) and Qwen3-Coder 262,144 native;
		// the first Qwen3 release 32,768 native (131,072 with YaRN);
		// Qwen2.5 and its coder 32,768 native (131,072 with YaRN).
		m("qwen3-coder", 262_144, 65_536, qw, ""),
		m("qwen3-235b-a22b-instruct-2507", 262_144, 32_768, qw, ""),
		m("qwen3-30b-a3b-instruct-2507", 262_144, 32_768, qw, ""),
		m("qwen3", 32_768, 32_768, qw, ""),
		m("qwen2.5-coder", 32_768, 8_192, qw, ""),
		m("qwen2.5", 32_768, 8_192, qw, ""),
		m("qwq", 131_072, 32_768, qw, ""),
		// Meta model cards: Llama 3.1, 3.2 and 3.3 have 128K (131,072);
		// Llama 4 Maverick 1M, Scout 10M.
		m("llama-3.1", 131_072, 8_192, ll, ""),
		m("llama-3.2", 131_072, 8_192, ll, ""),
		m("llama-3.3", 131_072, 8_192, ll, ""),
		m("llama3.1", 131_072, 8_192, ll, ""),
		m("llama3.2", 131_072, 8_192, ll, ""),
		m("llama3.3", 131_072, 8_192, ll, ""),
		m("llama-4-maverick", 1_048_576, 8_192, ll, ""),
		m("llama-4-scout", 10_485_760, 8_192, ll, ""),
		// Mistral AI docs: Large, Medium, Small, Devstral and Magistral
		// 128K (131,072); Codestral 256K; Mistral NeMo 128K.
		m("mistral-large", 131_072, 8_192, mi, ""),
		m("mistral-medium", 131_072, 8_192, mi, ""),
		m("mistral-small", 131_072, 8_192, mi, ""),
		m("mistral-nemo", 131_072, 8_192, mi, ""),
		m("devstral", 131_072, 8_192, mi, ""),
		m("devstral-small", 131_072, 8_192, mi, ""),
		m("magistral-medium", 131_072, 40_000, mi, ""),
		m("magistral-small", 131_072, 40_000, mi, ""),
		m("codestral", 262_144, 8_192, mi, ""),

		// Google. Gemini's tokenizer is not available offline: no encoding.
		m("gemini-3-pro-preview", 1_048_576, 65_536, g, ""),
		m("gemini-2.5-pro", 1_048_576, 65_536, g, ""),
		m("gemini-2.5-flash", 1_048_576, 65_536, g, ""),
		m("gemini-2.5-flash-lite", 1_048_576, 65_536, g, ""),
		m("gemini-2.0-flash", 1_048_576, 8_192, g, ""),
		m("gemini-2.0-flash-lite", 1_048_576, 8_192, g, ""),
		m("gemini-1.5-pro", 2_097_152, 8_192, g, ""),
		m("gemini-1.5-flash", 1_048_576, 8_192, g, ""),
	}
}
