// Package eval measures compaction on real transcripts: what it keeps, how
// much it saves, whether it stays turn-safe and what it costs. Claims about
// compaction are measured here, not asserted.
//
// Evaluate replays each transcript turn by turn under a set of policies
// (DefaultPolicies: no compaction, drop-oldest, masking with M=10, the Codex
// CLI's summarize-at-90% keeping 20k tokens of recent turns, and condense's
// default pipeline). At every assistant step the request that produced it
// is rendered from the history so far by one stateful condense.Preflight
// per policy, fed the growing history the way an agent feeds it, so a
// replay costs O(steps) preflights. For each policy it reports:
//
//   - retention of specifics: paths, commands, error lines, identifiers and
//     measurements found in the original by this package's own extractor
//     (Extract), deliberately independent of the ledger package, and of
//     the user's probes (ParseProbes), per category, in the rendering after
//     the whole transcript;
//   - compression: that rendering's tokens against the original's;
//   - validity: every rendering of the replay checked with condense.Validate
//     (no tool call separated from its result);
//   - the replay: input tokens, the prefix each request shares with the
//     previous one (what a prompt cache can serve, compared message by
//     message with condense.Fingerprint), output tokens, summarizer calls,
//     peak tokens, compactions, requests that did not fit, and the cost
//     under a price table (tokens.DefaultPrices, overridable with tokens.LoadPrices).
//
// Costs count the requests that could be sent: a request over the input
// limit is not sent (context_window_exceeded), so it is marked, not billed.
// Cached tokens are an upper bound of what a provider's cache serves:
// providers cache prefixes at block granularity, and Anthropic's cache
// writes cost extra, which the table does not model.
//
// WriteChart draws the tokens of every request per policy as a hand-written
// SVG, with the input limit as a dashed line. A Judge asks a model each
// probe as a question against the full history and against the compacted
// rendering and compares the answers, which checks that what the rendering
// keeps still answers the question; AnthropicJudge and OpenAIJudge call the
// providers' HTTP APIs directly.
package eval
