package postgres

import (
	"context"
	"sync/atomic"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// SharedLog is a session in shared mode: open in any number of processes
// (replicas) at once, none holding it. Its state — length, checkpoints,
// undo markers — is cached and brought up to date by Refresh, Lock and
// every Append, each reading only what is newer than the cached version.
//
// Append commits without taking the lease, but only while the lease is
// free: while a Lock holder anywhere has the session, it waits. Concurrent
// Appends of this process are committed together (group commit); each
// batch's messages are contiguous, placed after whatever any replica
// appended before.
//
// Lock takes the session's lease for an operation that must see the
// latest state and keep it still while it works (a compaction, an undo):
// the log it returns is the session with the state refreshed under the
// lease; its Appends require the lease; Close releases it. The lease is
// renewed while held and ends by itself LeaseTTL after its holder stops
// renewing (a replica that died, or hung), or at once when its holder was
// a process of this machine that is gone.
type SharedLog struct {
	c      *core
	closed atomic.Bool
}

var _ store.Log = (*SharedLog)(nil)

// OpenShared opens session id in shared mode, creating it.
func (s *Store) OpenShared(ctx context.Context, id string) (*SharedLog, error) {
	if err := store.ValidID(id); err != nil {
		return nil, err
	}
	if err := s.ensure(ctx, id); err != nil {
		return nil, err
	}
	h := &SharedLog{c: newCore(s, id)}
	if _, err := h.c.refresh(ctx); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, store.ErrClosed
	}
	s.shared[h] = struct{}{}
	return h, nil
}

// ID returns the session id.
func (h *SharedLog) ID() string { return h.c.id }

// Len returns the number of messages as of the last refresh.
func (h *SharedLog) Len() int { return h.c.Len() }

// Checkpoints returns the checkpoints as of the last refresh.
func (h *SharedLog) Checkpoints() []store.Checkpoint { return h.c.Checkpoints() }

// Undos returns the undo markers as of the last refresh.
func (h *SharedLog) Undos() []store.Undo { return h.c.Undos() }

// Version returns the session's version as of the last refresh: it grows
// with every commit to the session, from any replica.
func (h *SharedLog) Version() int64 { return h.c.Version() }

// Messages returns the messages [from, to) of the log as of the last
// refresh.
func (h *SharedLog) Messages(ctx context.Context, from, to int) ([]condense.Message, error) {
	return h.c.messages(ctx, from, to, h.closed.Load())
}

// Refresh brings the cached state up to the database's, reading only
// what is newer than the cached version; it reports whether anything
// changed.
func (h *SharedLog) Refresh(ctx context.Context) (bool, error) {
	if h.closed.Load() {
		return false, store.ErrClosed
	}
	return h.c.refresh(ctx)
}

// Append saves b at the end of the log, waiting while another holder has
// the session's lease; it returns the index of b's first message.
func (h *SharedLog) Append(ctx context.Context, b store.Batch) (int, error) {
	return h.c.append(ctx, b, "", nil, h.closed.Load)
}

// AppendWith is Append, with what with writes committed in the same
// transaction: both are stored, or neither. The log Lock returns has an
// AppendWith too.
func (h *SharedLog) AppendWith(ctx context.Context, b store.Batch, with WithFunc) (int, error) {
	return h.c.append(ctx, b, "", with, h.closed.Load)
}

// Lock waits for the session's lease and takes it; the log returned has
// the latest state and holds the lease until its Close. Logs of this
// store wait in this process; other processes wait by polling the lease.
func (h *SharedLog) Lock(ctx context.Context) (store.Log, error) {
	if h.closed.Load() {
		return nil, store.ErrClosed
	}
	return asLog(h.c.lock(ctx, waitFor{wait: true}))
}

// LockUnless is Lock, except for a holder that has marked the lease with
// one of activities (the Mark of the log Lock returns): then, or as soon
// as the holder it waits for marks one, it returns that holder's
// *LeaseError (store.ErrLocked), whose Activity names what it does. A
// caller waits for short operations and refuses to wait for long ones.
func (h *SharedLog) LockUnless(ctx context.Context, activities ...string) (store.Log, error) {
	if h.closed.Load() {
		return nil, store.ErrClosed
	}
	return asLog(h.c.lock(ctx, waitFor{wait: true, unless: activities}))
}

// TryLock takes the session's lease when it is free, else returns a
// *LeaseError (store.ErrLocked) at once.
func (h *SharedLog) TryLock(ctx context.Context) (store.Log, error) {
	if h.closed.Load() {
		return nil, store.ErrClosed
	}
	return asLog(h.c.lock(ctx, waitFor{}))
}

// Close closes the shared log. Logs Lock returned stay valid until their
// own Close.
func (h *SharedLog) Close() error {
	c := h.c
	h.closed.Store(true)
	c.mu.Lock()
	for c.writing || c.hasQueued("") {
		c.cond.Wait()
	}
	c.mu.Unlock()
	c.s.mu.Lock()
	delete(c.s.shared, h)
	c.s.mu.Unlock()
	return nil
}

// asLog returns a lock's log as a store.Log: nil, not a nil *lockedLog,
// when the lock failed.
func asLog(l *lockedLog, err error) (store.Log, error) {
	if err != nil {
		return nil, err
	}
	return l, nil
}

// SharedMode returns s as a store.Store whose Open opens sessions in
// shared mode (a *SharedLog), for code written against store.Store that
// runs on many replicas. Its Close closes s.
func (s *Store) SharedMode() store.Store { return sharedMode{s} }

type sharedMode struct{ s *Store }

func (m sharedMode) Open(ctx context.Context, id string) (store.Log, error) {
	return m.s.OpenShared(ctx, id)
}

func (m sharedMode) Close() error { return m.s.Close() }
