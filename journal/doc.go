// Package journal records what an agent run did, so that it can be replayed
// offline and resumed after a crash. Compaction is deterministic apart from
// the summaries a model writes; the journal records those, so a rerun over
// it makes the same calls and is served the same answers.
//
// A journal is one append-only stream of events per run, kept in a Store:
// NewMemory for tests, OpenDir for JSONL files under the data directory,
// and journal/sqlite. The events are
//
//	run:started        the request (at CaptureFull), settings, limits, strategy name
//	step:done          one model call (step_kind "llm"), a summarize call made
//	                   for compaction (step_kind "llm" with compaction_for), or a
//	                   tool call (step_kind "tool"), with its answer
//	context:compacted  call_index, tokens_before/after, window,
//	                   messages_before/after, strategy: counts and a name, never
//	                   content, at every capture level
//	run:error          {code, message}, with tokens and window for
//	                   context_window_exceeded
//	run:done           totals and, at CaptureFull, the result
//
// A Recorder is a run's view of its journal: the recorded events first,
// which a rerun must reproduce (Record compares, ignoring times and
// durations) and whose answers it serves, then live appends. Resuming a
// crashed run is rerunning it over its journal in ModeRecord; verifying a
// recorded run is rerunning it in ModeVerify, which writes nothing and
// stops at the first divergence. A rerun whose strategy no longer makes
// the summarize calls the journal recorded for a model call stops with
// ErrCompactionNotConsumed. The agent package drives recorders.
//
// Capture says how much content events keep: CaptureFull keeps what replay
// and resume need (requests, answers, summaries, tool inputs and outputs),
// CaptureCounts counts, usage, fingerprints and error codes, CaptureNone
// the structure only. context:compacted events carry counts and the
// strategy's name at every level, never content. Only a CaptureFull
// journal can be replayed or resumed. Times and durations are
// informational: comparisons (Same) ignore them.
package journal
