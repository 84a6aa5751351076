// Package session keeps one conversation: its append-only log in a
// store.Store, the checkpoints compaction made over it, a lock, unsaved
// state, and the preflight that renders each request.
//
// Append adds messages durably. Prepare renders the next request with the
// session's strategy, compacting when the budget asks; every compaction is
// saved as a checkpoint — a rendering overlay, never an edit of the log —
// before the request is returned (DESIGN I5, I6). Compact compacts on
// demand, CompactionAvailable says whether that could do anything without
// calling a model, Checkpoints lists what was done, Undo takes a checkpoint
// back byte for byte, and Recall returns the originals behind any
// placeholder, drop marker or summary reference.
//
// One lock per session (DESIGN B20): appends share it, everything else holds
// it alone, so a compaction never overlaps a prompt, an append, another
// compaction or a configuration change. Cancelling a call stops generation;
// a save that has started completes and is not rolled back, and the lock is
// released only after it. The store's own lock keeps a second process from
// opening the session for writing (store.ErrLocked).
//
// When a save fails (DESIGN B21) the unsaved messages and checkpoint stay in
// memory, and every call that would add work returns a *SaveError
// (ErrUnsaved) until Flush writes them. Flush writes what was already made;
// it never asks for a summary again.
//
// Opening a session reads the latest checkpoint and decodes only the
// messages it renders (and those appended after it); messages hidden behind
// summaries and drop markers are decoded on demand. Token counts are made
// for the decoded messages only, so opening a long compacted session costs
// about what its next request holds.
package session
