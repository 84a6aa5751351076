// Package journaltest is the conformance suite every journal.Store runs.
//
// A journal store keeps one append-only stream of events per run. Run
// checks the promises the agent's resume and replay rely on: appends are
// all or nothing and keep the events in order, with sequence numbers that
// continue the run's journal without a gap (else journal.ErrSequence and
// nothing is stored); a run that was never written is journal.ErrNotFound;
// run ids are checked (journal.ErrInvalidRun); runs are listed sorted;
// concurrent appends to different runs do not interfere; and, when the
// suite is given a way to reopen the store, what an append acknowledged is
// still there after reopening.
//
// Events makes a small, deterministic journal (a run:started, then
// alternating steps and compactions) for a store's own tests and
// benchmarks.
package journaltest
