// Package condense keeps long-running LLM agents inside their context window
// without losing what matters.
//
// The history of a conversation is an append-only log of provider-neutral
// Messages. Before every model call of a tool loop, a Preflight estimates the
// whole Request with a Counter, and when it is over the Budget's threshold it
// asks a Strategy for a smaller Rendering: the same log, with old tool output
// masked, old spans summarized or dropped. Every rendering is validated for
// turn safety (Validate: no tool call is separated from its result) and
// re-counted; a request that still does not fit its input limit is never
// sent and yields a *WindowError.
//
// A Budget is a window, a reserve for the answer and a safety margin:
//
//	inputLimit = max(0, Window - ReservedOutput - Safety)
//	threshold  = inputLimit * Fraction
//	target     = threshold * LowWater
//
// Automatic compaction runs above the threshold and brings the request down
// to the target (the low-water mark, half the threshold by default), so the
// next turns have room to grow before the next compaction; above the input
// limit a request cannot be sent. Settings resolve field by field per call →
// agent or session → client → built-in defaults (ResolveBudget).
//
// Nothing is deleted: a Rendering is a list of Items, each a reference to a
// log message (possibly edited) or a synthesized message, so it doubles as
// the source map from the request back to the history. Masked results carry
// a recall reference (RecallRef) and the specifics the ledger package found
// in them. Compaction changes only the rendering; the built-in strategies
// always keep the task, pinned messages and the newest user message and
// step verbatim, and the caller's request and messages are never modified.
//
// The root package holds the types, the preflight and validation and imports
// no provider SDK or database driver. Counters live in tokens, the built-in
// strategies in strategy, the ledger of specifics in ledger, durable
// conversations in session. docs/design.md in the repository explains the
// concepts and the rules condense keeps; docs/formats.md lists the exact
// formats of placeholders, summaries, recall references and the condense
// JSON document.
package condense
