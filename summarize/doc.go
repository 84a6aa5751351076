// Package summarize holds what every summary of history shares: the rules
// for what goes into a summary request and what comes back, and the
// embedded extractive summarizer that needs no model and no network. The
// Summarizer interface itself is condense.Summarizer; the provider
// summarizers live in provider/anthropic and provider/openai.
//
// A summary request (BuildPrompt) carries text, tool inputs and tool
// results; images and thinking are replaced by markers; failed and aborted
// replies are left out; tool output is fenced in <tool-output> tags, in a
// backtick fence longer than any run of backticks inside it, and labelled
// as data the model must not obey, so text quoted from a tool cannot pass
// for instructions. A request over its own budget or the provider's
// payload limit (Limits) has its long tool results truncated with a
// marker, then its oldest messages dropped, and the Trim it returns says
// so; the compaction record carries that Trim.
//
// A response that is empty, failed, truncated at its output cap or calls a
// tool is rejected with a *RejectedError (Check): the strategy then leaves
// the session as it was before that pass, rather than replace history
// with a summary that lost part of it.
//
// A summary is Markdown under the headings of Sections — ## Summary,
// ## Decisions, ## Facts, ## Completed, ## Pending — and the summarize
// strategy appends ## Ledger with the specifics the summary lacks and
// wraps the whole in a <summary> tag (docs/formats.md). Extractive writes
// those sections from the span itself, deterministically; each summary
// updates the previous one (condense.SummaryRequest.Previous), and
// ParseSections reads a summary back into its sections.
package summarize
