// Package strategy holds the built-in compaction strategies: the ways a
// condense.Preflight makes a request that is over its threshold smaller.
//
//   - Minify re-encodes the JSON of tool inputs and results without
//     whitespace; nothing is lost.
//   - Mask replaces old tool results by one-line placeholders holding a
//     recall reference and the result's specifics; ClearToolUses does the
//     same for all but the most recent tool uses, after Anthropic's context
//     editing.
//   - Summarize replaces the older turns by one summary message; Segments
//     rates each old step by importance and keeps, masks or summarizes it.
//   - DropOldest drops old messages, leaving a marker with their specifics.
//   - Pipeline chains strategies; Default is minify → mask → summarize →
//     drop-oldest.
//
// # Cheapest first
//
// A pipeline runs its stages in order, each on the previous one's result,
// and stops as soon as the request is under the threshold (a manual
// compaction runs every stage). The order is the order of cost: minifying
// loses nothing and calls no model, masking loses only bulk that can be
// recalled, summarizing may call a model and loses wording, dropping loses
// the most. A stage that finds nothing to do, fails or does not shrink the
// request is skipped.
//
// # Renderings are overlays
//
// The history is an append-only log that no strategy changes. A strategy
// returns a condense.Rendering: the messages of the next request, each an
// Item that names the log message it renders (Index) and how it differs
// from it (Edit: minified, masked, cleared), or a synthesized message
// (Index -1: a summary or a drop marker) with the log span it stands for
// (Covers). So the rendering is also the source map from the request back
// to the log, and whatever was compacted can be recalled from the log:
// placeholders carry a recall reference, summaries and markers their span.
// Between compactions the preflight only appends the new log messages to
// the rendering, so the request grows at its end.
//
// # Turn safety and protected messages
//
// Providers reject a request in which a tool result does not follow its
// call, so strategies keep and drop an assistant message together with the
// tool messages answering it (a unit), and never leave a call without its
// result except in the newest step, whose calls may still be running. The
// preflight validates every candidate and refuses one that breaks these
// rules. The built-in strategies also keep verbatim the first user message
// (the task), pinned messages, the newest user message and the newest step
// (the last assistant message and its results): condense.Rendering.Protected
// marks them. An emergency pass (the preflight's second attempt) keeps no
// other recent messages.
//
// # The ledger
//
// Model summaries drop the specifics an agent needs to go on: file paths,
// commands and their exit status, error lines, identifiers, measurements,
// decisions. Whatever a strategy compacts, it first extracts these with the
// ledger package and renders them where the content was: in the mask
// placeholder ("kept: error …; file internal/x.go"), in the drop marker, or
// in the summary's ## Ledger section, which a quality gate fills with every
// item of the summarized span the summary text does not hold. The ledger of
// one pass is bounded by a token budget (5% of the window by default);
// items over it are demoted: counted in the candidate, left out of the
// text, and still recallable from the log. So no specific is lost without
// being counted.
//
// # Summaries
//
// Summarize and Segments ask the preflight's summarizer for the text of a
// summary (condense.CompactionContext.Summarizer, set from
// condense.Options.Summarizer): a model-backed one from the provider
// packages, or, when none is configured, the extractive summarizer of the
// summarize package, which needs no model and gives the same text for the
// same input. Each summary updates the previous one instead of summarizing
// the whole history again, and a summary the summarizer fails to write, or
// writes empty, leaves the rendering as it was.
//
// # Writing a strategy
//
// A strategy implements condense.Strategy: Compact gets the log and its
// current rendering in a condense.CompactionContext and returns a
// condense.Candidate with a new rendering, or condense.ErrNothingToCompact.
// It must not modify the context's History or Current; it builds a new
// rendering (Rendering.Clone gives a copy to edit). condense.Func adapts a
// function that returns plain messages. The strategytest package checks a
// strategy against every rule above on random histories:
//
//	func TestMyStrategy(t *testing.T) {
//		strategytest.Run(t, func() condense.Strategy { return MyStrategy{} })
//	}
package strategy
