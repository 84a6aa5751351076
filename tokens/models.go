package tokens

import "github.com/condense-dev/condense"

// Models is the built-in registry of current Claude, GPT and Gemini models.
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
		a = FamilyAnthropic
		o = FamilyOpenAI
		g = FamilyGemini
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
		m("gpt-oss-120b", 131_072, 131_072, o, O200kBase),
		m("gpt-oss-20b", 131_072, 131_072, o, O200kBase),

		// OpenAI, cl100k_base.
		m("gpt-4-turbo", 128_000, 4_096, o, Cl100kBase),
		m("gpt-4-32k", 32_768, 32_768, o, Cl100kBase),
		m("gpt-4", 8_192, 8_192, o, Cl100kBase),
		m("gpt-3.5-turbo", 16_385, 4_096, o, Cl100kBase),

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
