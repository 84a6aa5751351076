// Package session keeps one conversation: its append-only log in a
// store.Store, the checkpoints compaction made over it, a lock, unsaved
// state, and the preflight that renders each request.
//
// Append adds messages durably. Prepare renders the next request with the
// session's strategy, compacting when the budget asks; every compaction is
// saved as a checkpoint before the request is returned. A checkpoint is a
// rendering overlay — which log messages are sent verbatim, which are
// masked, summarized or dropped — never an edit of the log, so compaction
// changes only what is rendered. Every save is one all-or-nothing store
// batch, and a checkpoint is saved only over messages already durable: a
// crash leaves the old state or the new one, never a checkpoint that refers
// to messages that are not there, and no acknowledged message is lost. Compact compacts on demand (with
// condense.WithInstructions for the summarizer), CompactionAvailable says
// whether that could do anything without calling a model, Checkpoints
// lists what was done, Undo takes a checkpoint back byte for byte, and
// Recall returns the originals behind any placeholder, drop marker or
// summary reference (docs/formats.md lists the reference formats).
// Checkpoint ids are sequential per session ("c1", "c2", …) and never
// reused, undone ones included.
//
// One lock per session: appends share it, everything else holds it alone,
// so a compaction never overlaps a prompt, an append, another compaction
// or a configuration change. Cancelling a call stops generation; a save
// that has started completes and is not rolled back, and the lock is
// released only after it. The store's own lock keeps a second process from
// opening the session for writing (store.ErrLocked).
//
// When a save fails the unsaved messages and checkpoint stay in memory, and
// every call that would add work returns a *SaveError (ErrUnsaved) until
// Flush writes them, so nothing is built on state that is not durable.
// Flush writes what was already made; it never asks for a summary again.
//
// Opening a session validates its checkpoints (ranges inside the history,
// ids that count up, no checkpoint starting before an earlier one's first
// kept message, summary boundaries at user messages or, for a split-turn
// summary, at a step) and refuses to open over one that fails
// (*CheckpointError). It reads the latest checkpoint
// and decodes only the messages it renders (and those appended after it);
// messages hidden behind summaries and drop markers are decoded on demand.
// Token counts are made for the decoded messages only, so opening a long
// compacted session costs about what its next request holds.
package session
