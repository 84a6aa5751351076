// Package summarize holds what every summary of history shares: the rules
// for what goes into a summary request and what comes back, and the
// embedded extractive summarizer that needs no model and no network. The
// Summarizer interface itself is condense.Summarizer; the provider
// summarizers live in provider/anthropic and provider/openai.
//
// A summary request (BuildPrompt) carries text, tool inputs and tool
// results; images and thinking are replaced by markers; failed and aborted
// replies are left out. Every quoted text — user and assistant text, tool
// inputs (<tool-call>), tool output (<tool-output>, labelled as data) and
// the previous summary — sits in its own tagged block, in a backtick fence
// longer than any run of backticks inside it, with the prompt's own tags
// inside the text defused ("&lt;/tool-output>"), so nothing quoted can
// close its block or pass for instructions; the system prompt says that
// only the <instructions> block is addressed to the model. A request over its own budget or the provider's
// payload limit (Limits) has its long tool results truncated with a
// marker, then its oldest messages dropped, and the Trim it returns says
// so; the compaction record carries that Trim.
//
// A response that is empty, failed, truncated at its output cap or calls a
// tool is rejected with a *RejectedError (Check): the strategy then leaves
// the session as it was before that pass, rather than replace history
// with a summary that lost part of it.
//
// A summary is Markdown under the headings of Sections, the state of the
// work first, so that a person or a model finds where things stand at a
// glance:
//
//	## Task           the task quoted ("> " lines, capped), then later requests
//	## Constraints    the user's rules
//	## Decisions      choices made (not plans)
//	## Done           files written, commands that pass now after failing,
//	                  passing tests, routine actions as counts
//	## Failed / open  actions whose latest run failed, with their error lines
//	## Next steps     what the agent said it will do next
//
// The summarize strategy appends ## Ledger with the specifics the summary
// does not hold verbatim, ranked as the ledger ranks them, then
// ## In the agent's words with what the agent wrote in the span, verbatim
// (its replies, the prose of its tool calls), and wraps the whole in a
// <summary> tag (docs/formats.md). Model summarizers are asked
// for exactly these sections (SystemPrompt). Extractive writes them from
// the span itself, deterministically, bounded together to about a page
// (Extractive.MaxTokens); each summary updates the previous one
// (condense.SummaryRequest.Previous: its task, constraints and decisions
// are carried, its open items stay open unless the span ran them again),
// and ParseSections reads a summary back into its sections. A previous
// summary in the older layout (## Summary, ## Facts, ## Completed,
// ## Pending) is read too.
package summarize
