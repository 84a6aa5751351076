// Package summarize holds what every summary of history shares: the
// Summarizer interface, the rules for what goes into a summary request and
// what comes back (DESIGN B14–B16), and the embedded extractive summarizer
// that needs no model and no network (B19).
//
// A summary request carries text, tool inputs and tool results; images and
// thinking are replaced by markers; failed and aborted replies are left out;
// tool output is fenced in <tool-output> tags and labelled as data the model
// must not obey. A request over its own budget or the provider's payload
// limit has its long tool results truncated with a marker, then its oldest
// messages dropped, and the Trim it returns says so.
//
// A response that is empty, failed, truncated at its output cap or calls a
// tool is rejected with a *RejectedError: the strategy then leaves the
// session as it was before that pass.
package summarize
