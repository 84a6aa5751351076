// Package ledger extracts, deterministically and without a model, the
// specifics of a conversation that model summaries drop: the task
// statement, files read and written, commands with their exit status, error
// lines, identifiers, addresses, measurements, decisions, constraints and
// pinned facts.
// Plans (what the assistant said it would do next) are kept apart from
// decisions, last. Every other sentence of the assistant's prose is a note:
// the decision and plan readers know some phrasings, notes keep what the
// assistant concluded in any other words, ranked like every item. The
// kept list of a placeholder or drop marker reads back as items
// (KeptItems), so a later compaction keeps what an earlier one kept.
//
// Measured on real compactions, model summaries keep about 10% of file
// paths, almost no commands and about 2% of numbers. The ledger is how
// condense keeps them: when a strategy masks a tool result or summarizes a
// span, it extracts that content's items and renders them where the content
// was, inside the mask placeholder
//
//	[condense: tool output masked (5,210 tokens) · recall r42-3fa9c2d1 · kept: error "panic: runtime error: index out of range [3] with length 3"; file internal/x.go; measurement "p99 latency: 703.1ms"]
//
// or in the "## Ledger" section of the summary (Section).
//
// # Items
//
// An Item is a Kind and a short, single-line Value, with the log index it
// came from. Item.String renders it as "<kind> <value>", the value a Go
// string literal when it holds a space, ';', '"' or a bracket (backquoted
// when it holds a double quote and no backquote, else double-quoted), so a rendered item never
// breaks the bracketed, ';'-separated placeholder it sits in. A file also
// says whether it was read or written, a command its exit status:
//
//	file internal/x.go (written)
//	command "go test ./..." (exit 1)
//
// Item.Key is the deduplication key; a Set keeps items in order of first
// appearance and merges repeats.
//
// # Extraction
//
// Extract reads a span of the log, ExtractMessage one message and
// ExtractResult one tool result with the call it answers (which gives the
// command and its exit status, or the file read). Extraction scans text
// line by line with hand-written recognisers for the output of go test,
// pytest, cargo, npm, compilers, Python, Go, Rust, Node and Java stack
// traces, kubectl and structured logs, so it runs at tens of megabytes a
// second and gives the same items for the same input every time. An
// Extractor carries options: value cap, items per kind, extra shell tool
// names and custom patterns.
//
// Secrets never enter the ledger: every text is passed through Redact
// (API keys, bearer tokens, password= and token= values, passwords in URLs,
// PEM private keys) before anything is extracted from it.
//
// # Budget
//
// The ledger of a compaction is bounded by a token budget, by default 5% of
// the context window (DefaultBudget). Bound keeps items by Priority and
// recency; the rest are demoted to recall-only: they stay in the log, are
// reachable through the recall reference of the placeholder or summary, and
// are counted in the compaction record, never silently dropped.
package ledger
