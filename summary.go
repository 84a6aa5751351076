package condense

import "context"

// Summarizer writes the summary of a span of history. It is the one way a
// strategy reaches a model for a summary: the preflight hands the
// summarizer it was configured with (Options.Summarizer) to every strategy
// in CompactionContext.Summarizer, built in or custom.
//
// Implementations: the extractive summarizer (summarize.Extractive, no
// model, no network), the provider summarizers of provider/anthropic and
// provider/openai, and the agent package's journaled summarizer, which
// records each summary of a run so that replay and resume serve it again.
type Summarizer interface {
	Summarize(ctx context.Context, req SummaryRequest) (*Summary, error)
}

// SummaryRequest is what a summarizer is asked to summarize.
type SummaryRequest struct {
	// Messages is the span to summarize, in order.
	Messages []Message
	// Base is the log index of Messages[0], for ledger sources and ranges.
	Base int
	// Previous is the summary this one updates (incremental compaction),
	// or "".
	Previous string
	// Instructions are the user's, for a manual compaction, or "".
	Instructions string
	// MaxOutputTokens caps the summary; 0 means the summarizer's default.
	MaxOutputTokens int
}

// Summary is a summary and what it cost.
type Summary struct {
	// Text is the summary's Markdown sections; the strategy that asked for
	// it adds the ledger and the <summary> wrapper.
	Text string
	// Usage is what the model call cost, when a model wrote the summary.
	Usage Usage
	// Trim says what was cut from the summary request to fit its budget.
	Trim Trim
}
