// Package postgres is the PostgreSQL session store (pgx v5, pgxpool), for
// sessions that several processes — replicas of a service behind a load
// balancer — share through one database.
//
// API:
//
//	st, err := postgres.Open(ctx, "postgres://…", &postgres.Options{Schema: "condense", LeaseTTL: 30 * time.Second, Logger: l})
//	st.Open(ctx, id)        // store.Log held exclusively until Close (store.ErrLocked while another holder's lease is live)
//	st.OpenShared(ctx, id)  // *SharedLog: shared mode, held by no one
//	  sh.Append(ctx, b)     // commits while no one holds the lease (waits otherwise); group commit within the process
//	  sh.AppendWith(ctx, b, with) // Append, with(ctx, tx, first) writing more in the same transaction
//	  sh.Refresh(ctx)       // reads only what is newer than the cached version (sh.Version())
//	  sh.Lock(ctx)          // waits for the lease, refreshes under it; returns a store.Log whose Close unlocks
//	  sh.TryLock(ctx)       // the same, or a *LeaseError (store.ErrLocked) at once when someone holds it
//	  sh.LockUnless(ctx, a) // Lock, but a *LeaseError at once when the holder marked one of activities a
//	  l.(interface{ Mark(ctx, activity string) error }).Mark(ctx, "compaction")  // what the holder does
//	st.SharedMode()         // store.Store whose Open is OpenShared
//	st.Pool(), st.Schema()  // the pool (search_path = the schema), for the service's own tables
//
// Schema: migrations embedded in the binary (migrations/NNNN_*.sql),
// applied on Open under an advisory lock, so replicas starting together
// apply each once. Tables: sessions (one row per session: message,
// checkpoint and undo counts, a version bumped by every commit, and the
// lease: owner token, holder machine and pid, expiry on the database's
// clock, what the holder marked it is doing), messages (session, idx, condense JSON as bytea, byte for byte),
// checkpoints (session, seq, id unique per session, JSON), undos (session,
// seq, JSON).
//
// Appends: concurrent Appends to one log are committed in one transaction
// (group commit): the transaction locks the session row, checks the lease,
// reads what other writers saved since the cached version, and inserts the
// batches' messages contiguously from the log's end with their
// checkpoints and undo markers. A batch the log cannot take (a checkpoint
// counting more messages than the log would hold, or an id already saved)
// fails alone; the rest commit.
//
// Ownership is a lease row rather than an advisory lock: a session-level
// advisory lock lives on one connection, which a pool hands to other work
// and a pooler (pgbouncer) may swap, and it cannot say who holds it or
// until when. The lease is a row: its holder renews it every TTL/3, every
// commit checks in its transaction that the lease is still its own, and a
// holder that dies or hangs loses it when it expires (the database's clock
// decides). A holder that was a process of this machine (same host, boot
// and pid namespace) and is gone is taken over at once.
package postgres
