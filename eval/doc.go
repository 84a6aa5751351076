// Package eval measures compaction on real transcripts: what it keeps, how
// much it saves, whether it stays turn-safe and what it costs. Claims about
// compaction are measured here, not asserted.
//
// Evaluate replays each transcript turn by turn under a set of policies
// (DefaultPolicies: no compaction, drop-oldest, masking every tool output
// but those of the last M=10 steps, the Codex CLI's summarize-at-90%
// keeping 20k tokens of recent turns, and condense's default pipeline). At
// every assistant step the request that produced it is rendered from the
// history so far by one stateful condense.Preflight per policy, fed the
// growing history the way an agent feeds it, so a replay costs O(steps)
// preflights. For each policy it reports:
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
//     peak tokens, compactions, requests that did not fit, whether the
//     session was completed, and the cost under a price table
//     (tokens.DefaultPrices, overridable with tokens.LoadPrices).
//
// # What the figures mean
//
// Retention is scored on what the model would see. A final rendering that
// does not fit the window cannot be sent, so it retains nothing: every
// specific and probe counts as lost (0%), Final.Fits is false and
// Retention.Unsent is 1. The "none" policy on a transcript larger than the
// window therefore scores 0, not 100%.
//
// The overall retention (Retention.Overall) is the mean of the categories'
// rates, each category that had something to look for weighing the same: a
// "go test -v" listing's five thousand test names cannot drown two hundred
// error lines. The rate over all items is kept as ItemWeighted. Probes are
// scored the same way, per category with the mean over categories as
// Overall; a probe repeating another's category and text counts once.
// Aggregate pools each category's items over the transcripts (an unsent
// rendering adds its items as lost) before taking the mean.
//
// A replay step whose request does not fit the input limit is an overflow.
// A provider refuses such a request (context_length_exceeded) and does not
// bill it, but the agent cannot go on from it: a policy with an overflow
// did not complete the session (Replay.Complete is false, CompletedSteps
// counts the steps before the first overflow). Its cost is that of the
// requests sent, which is not the cost of the session and compares with no
// complete policy's; the CLI marks it and ranks only complete policies by
// cost. Cached tokens are an upper bound of what a provider's cache
// serves: providers cache prefixes at block granularity, and Anthropic's
// cache writes cost extra, which the table does not model.
//
// The "mask" policy is the observation-masking baseline of OpenHands and
// of JetBrains' study of agent context management: strategy.Mask with
// KeepSteps 10. A step is an assistant message with the tool results
// answering it, so parallel calls keep all their outputs and a reply in
// prose counts as a step; it masks when a request passes the threshold,
// like every policy here, not at every turn (MaskKeepSteps).
//
// # Scoring a corpus
//
// The synthetic corpus writes each session with its planted probes beside
// it; --probes auto reads each transcript's own NAME.probes.json:
//
//	go run ./internal/corpus/cmd/gencorpus -half tune -n 4 -out DIR
//	condense eval --window 64k --probes auto $(ls DIR/tune-s* | grep -Ev '\.(probes|plants|distractors)\.json$')
//
// The text output ends with the totals over all sessions; --json adds each
// policy's probe retention per category (probes.by_category) and both
// overall figures.
//
// WriteChart draws the tokens of every request per policy as a hand-written
// SVG, with the input limit as a dashed line. A Judge asks a model each
// probe as a question against the full history and against the compacted
// rendering and compares the answers, which checks that what the rendering
// keeps still answers the question; AnthropicJudge and OpenAIJudge call the
// providers' HTTP APIs directly.
package eval
