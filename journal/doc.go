// Package journal records what an agent run did, so that it can be replayed
// offline and resumed after a crash (DESIGN B25–B30, I7).
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
// stops at the first divergence. The agent package drives recorders.
package journal
