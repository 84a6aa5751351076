// Package agent is a minimal tool loop that uses the rest of condense: a
// Model (a request in, an assistant message out, or a stream of events
// that accumulates to the same message), tools as Go functions with
// JSON-schema'd inputs, and Run, which loops model → tools → model until
// the model stops calling tools.
//
// Before every model call of the loop, streamed or not, the history is
// prepared by a condense.Preflight: compacted by the agent's strategy when
// it is over the threshold, refused with a *condense.WindowError, before
// any provider call, when it cannot fit. One-shot calls (Complete,
// Structured) are sent as given: only the loop's growing history compacts.
// Budget settings resolve per run (WithSettings) → agent (Agent.Settings)
// → client (a Model implementing ClientSettings) → the defaults, field by
// field.
//
// Billed usage feeds the counter's correction after every call, so later
// estimates are never below what the provider counted; a provider that
// still answers "context too large" gets one emergency compaction and one
// retry (an *OverflowError when that fails too). Limits bound the model
// calls, tokens and cost of a run, summaries made for compaction included.
//
// Every run is journaled (package journal): its request, each model call,
// each summary a strategy asks for (through CompactionContext.Summarizer,
// which a run sets to Agent.Summarizer, or the agent's model), each tool
// call, each compaction (counts and the strategy's name only) and how it
// ended. Running again under the same run id (WithRunID) resumes: what the
// journal holds is served, not asked for again, and the run goes on live
// from where it stopped. Verify replays a run without calling anything and
// reports the first divergence (a *journal.DivergenceError). A model
// call's fingerprint is taken from the history before compaction, so a
// rerun under another strategy, window or fraction still matches, unless
// its strategy no longer makes the summarize calls the journal recorded:
// "recorded context compaction was not consumed".
//
// Strategies must be deterministic apart from the summarize helper: replay
// runs them again. Each run gets its own counter (Agent.NewCounter), so a
// resumed run estimates as the crashed one did. RecallTool gives the model
// a "recall" tool over a session's Recall, so what compaction hid can be
// asked for again.
//
// agenttest has a fake model and a runner that injects crashes; the
// anthropicmodel and openaimodel packages adapt the providers' SDKs.
package agent
