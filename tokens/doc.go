// Package tokens counts the tokens of requests before they are sent, and
// knows the context windows of the models they are sent to.
//
// A condense.Counter says how many tokens a message, or a request's system
// text and tool definitions, will take, and whether that figure is exact.
// For OpenAI models the count is exact: BPE tokenizes with the model's own
// byte-pair encoding (o200k_base or cl100k_base), offline, and adds OpenAI's
// published chat framing. Anthropic and Google publish no tokenizer, so for
// Claude and Gemini models Heuristic estimates from character classes. The
// heuristics are calibrated to over-count, because an estimate that is too
// low is how an agent overflows its window in the middle of a compaction:
// the OpenAI one against o200k_base on a mixed corpus (code, JSON tool
// output, logs, prose, CJK, emoji), the Claude one against the input tokens
// Anthropic billed in real Claude Code sessions (about 3 characters per
// token for tool output, plus a per-message overhead). Images cost what each
// provider's published rule says (AnthropicImageTokens, OpenAIImageTokens,
// GeminiImageTokens).
//
// The model registry (Models, or a Registry of your own) maps a model name
// to its context window, its output limit, its provider family and its
// encoding. Dated and provider-prefixed names resolve to the model they
// name ("claude-sonnet-4-5-20250929", "anthropic/claude-sonnet-4.5",
// "gpt-4o-2024-08-06"). A model the registry does not know has no window, so
// requests to it are not guarded; Registry.WarnUnknown logs that once per
// model.
//
// ForModel picks the counter of a model. What it returns also learns from
// the provider: after each call, pass the uncorrected estimate and the
// input tokens the provider billed to Observe, and later estimates are
// multiplied by a per-model Calibration factor, an average of
// billed/estimated that is never below 1.0. condense.CountRequest applies
// the factor through the condense.Corrector interface.
//
// Every counter, built in or not, should pass the conformance suite in
// tokens/countertest.
package tokens
