package server

import (
	"context"
	"errors"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
)

// Sessions on PostgreSQL (Backend.Postgres) are opened in the store's
// shared mode: no replica holds a session open exclusively. Each
// operation that changes a session (append, render, compact, undo, flush,
// a hosted run) takes the session's lease in the database for its
// duration (acquire), and the session this replica keeps in memory is
// made again from the store when the store's version under the lease is
// not the one it was built at: what another replica appended or
// checkpointed meanwhile is read before the operation starts.
//
// Whether an operation waits for the lease depends on what its holder
// does, which the holder marks on the lease (mark) for every replica to
// see: the rule is the same as on one replica. A hosted run (marked
// "prompt") and a manual compaction or undo (marked "compaction") make an
// append, render, undo or prompt anywhere answer 409 busy at once; an
// automatic compaction (marked when it starts) makes them wait, and a
// render that waited finds its checkpoint, so compacts no more. A manual
// compaction answers 409 busy during any compaction or run, and waits for
// the rest (an append, a render that does not compact). A mark goes with
// the lease: a replica that dies leaves the session busy only until its
// lease expires. Reads bring the session up to date without the lease.

// swapLog is the log a shared session's session.Session works on: the
// replica's shared log between operations, the leased log while an
// operation holds the lease (its appends need the lease, and a shared
// append would wait for it). Its appends write their appended event in
// their own transaction (appended).
type swapLog struct {
	mu  sync.Mutex
	cur store.Log
	// appended returns what writes the appended event of msgs in the
	// append's transaction and what shows it once committed; nil when the
	// session's events are closed.
	appended func(msgs []condense.Message) (postgres.WithFunc, func())
}

// appendWith is a log whose appends can write more in their transaction.
type appendWith interface {
	AppendWith(ctx context.Context, b store.Batch, with postgres.WithFunc) (int, error)
}

func (l *swapLog) get() store.Log {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cur
}

func (l *swapLog) set(to store.Log) {
	l.mu.Lock()
	l.cur = to
	l.mu.Unlock()
}

func (l *swapLog) Len() int                        { return l.get().Len() }
func (l *swapLog) Checkpoints() []store.Checkpoint { return l.get().Checkpoints() }
func (l *swapLog) Undos() []store.Undo             { return l.get().Undos() }
func (l *swapLog) Messages(ctx context.Context, from, to int) ([]condense.Message, error) {
	return l.get().Messages(ctx, from, to)
}
func (l *swapLog) Append(ctx context.Context, b store.Batch) (int, error) {
	cur := l.get()
	aw, ok := cur.(appendWith)
	if !ok || len(b.Messages) == 0 || l.appended == nil {
		return cur.Append(ctx, b)
	}
	with, shown := l.appended(b.Messages)
	if with == nil {
		return cur.Append(ctx, b)
	}
	first, err := aw.AppendWith(ctx, b, with)
	if err == nil {
		shown()
	}
	return first, err
}

// Close does nothing: the shared log is closed with the hosted session.
func (l *swapLog) Close() error { return nil }

// swapStore opens the one swapLog (session.Open takes a store).
type swapStore struct{ l *swapLog }

func (s swapStore) Open(context.Context, string) (store.Log, error) { return s.l, nil }
func (s swapStore) Close() error                                    { return nil }

type versioned interface{ Version() int64 }

// appendedWith returns what writes the appended event of msgs in the
// append's transaction, and what shows it once committed; nil when the
// session's events are closed.
func (h *hosted) appendedWith(msgs []condense.Message) (postgres.WithFunc, func()) {
	h.mu.Lock()
	ev, _ := h.events.(*pgEventStream)
	h.mu.Unlock()
	if ev == nil {
		return nil, nil
	}
	return ev.appendedWith(msgs)
}

// shared reports whether the session lives in a shared store.
func (h *hosted) shared() bool { return h.s.pg != nil }

// openShared opens the session's shared log on first use; h.openMu held.
func (h *hosted) openShared(ctx context.Context) (store.Store, error) {
	h.mu.Lock()
	sw := h.swap
	h.mu.Unlock()
	if sw == nil {
		sh, err := h.s.pg.OpenShared(ctx, h.id)
		if err != nil {
			return nil, err
		}
		sw = &swapLog{cur: sh, appended: h.appendedWith}
		h.mu.Lock()
		h.sh, h.swap = sh, sw
		h.mu.Unlock()
	}
	return swapStore{sw}, nil
}

// fresh brings a shared session up to date with the database, unless an
// operation of this replica holds it (it has the newest state then);
// other sessions are returned as they are.
func (h *hosted) fresh(ctx context.Context, sess *session.Session) (*session.Session, error) {
	if !h.shared() || !h.opMu.TryLock() {
		return sess, nil
	}
	defer h.opMu.Unlock()
	sh, _, err := h.sharedLog()
	if err != nil {
		return nil, err
	}
	if _, err := sh.Refresh(ctx); err != nil {
		return nil, err
	}
	return h.catchUp(ctx, sh.Version())
}

// sharedLog returns the session's shared log and the log its session
// works on; a session closed meanwhile (deleted, here or on another
// replica) is not found.
func (h *hosted) sharedLog() (*postgres.SharedLog, *swapLog, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sh == nil || h.gone {
		return nil, nil, notFound("session " + h.id)
	}
	return h.sh, h.swap, nil
}

// catchUp makes the session again from the store when the store's version
// v is not the one it was built at; h.opMu held.
func (h *hosted) catchUp(ctx context.Context, v int64) (*session.Session, error) {
	h.mu.Lock()
	sess, have, cfg := h.sess, h.version, h.rec.Config
	h.mu.Unlock()
	if sess != nil && have == v {
		return sess, nil
	}
	h.openMu.Lock()
	defer h.openMu.Unlock()
	if _, err := h.openShared(ctx); err != nil {
		return nil, err
	}
	next, err := h.openSession(ctx, cfg)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	old := h.sess
	h.sess, h.version, h.avail = next, v, nil
	h.mu.Unlock()
	h.s.reopens.Add(1)
	if old != nil {
		if err := old.Close(); err != nil {
			h.s.log.Warn("condense/server: closing a session made again from the store", "session", h.id, "err", err)
		}
	}
	return next, nil
}

// What an operation that changes a shared session does not wait for: the
// marks (activities) of a lease holder that make it answer 409 busy.
var (
	// Appends, renders, undos and prompts: a hosted run or a manual
	// compaction, as on one replica (idle, begin).
	busyForChange = []string{activityPrompt, activityCompaction}
	// A manual compaction: any compaction or run.
	busyForCompact = []string{activityPrompt, activityCompaction, activityAutoCompaction}
)

// acquire starts an operation that changes the session. In shared mode it
// takes the session's lease — waiting for its holder, unless the holder
// has marked one of the activities busyIf names (then it fails with busy)
// — and brings the session up to date under it. release ends the
// operation: the session is known to reflect the store's version then,
// and the lease is given back. Outside shared mode acquire is session and
// release does nothing.
func (h *hosted) acquire(ctx context.Context, busyIf []string) (*session.Session, func(), error) {
	sess, err := h.session(ctx)
	if err != nil || !h.shared() {
		return sess, func() {}, err
	}
	sh, sw, err := h.sharedLog()
	if err != nil {
		return nil, nil, err
	}
	// The lease first, then opMu: the store makes this replica's
	// operations wait for one another too, looking at their marks, and no
	// one waits for the lease holding opMu.
	lk, err := sh.LockUnless(ctx, busyIf...)
	if err != nil {
		var le *postgres.LeaseError
		if errors.As(err, &le) {
			return nil, nil, busy(apiActivity(le.Activity))
		}
		return nil, nil, err
	}
	h.opMu.Lock()
	sw.set(lk)
	sess, err = h.catchUp(ctx, lk.(versioned).Version())
	if err != nil {
		sw.set(sh)
		lk.Close()
		h.opMu.Unlock()
		return nil, nil, err
	}
	h.mu.Lock()
	h.lease, h.leaseMark = lk, ""
	h.mu.Unlock()
	var once sync.Once
	return sess, func() {
		once.Do(func() {
			h.mu.Lock()
			if h.sess == sess {
				h.version = lk.(versioned).Version()
			}
			h.lease, h.leaseMark = nil, ""
			h.mu.Unlock()
			sw.set(sh)
			if err := lk.Close(); err != nil {
				h.s.log.Warn("condense/server: releasing a session's lease", "session", h.id, "err", err)
			}
			h.opMu.Unlock()
		})
	}, nil
}

// marker is the log a lease returns, which can say what its holder does.
type marker interface {
	Mark(ctx context.Context, activity string) error
}

// mark tells every replica what the operation holding the session's
// lease does (an activity), so that theirs answer busy rather than wait
// for it (busyForChange, busyForCompact). An automatic compaction does not
// replace a mark already there (the run or manual compaction it is part
// of). It does nothing outside shared mode or without the lease; a mark
// that cannot be written only makes other replicas wait.
func (h *hosted) mark(ctx context.Context, activity string) {
	h.mu.Lock()
	lk := h.lease
	if lk == nil || activity == h.leaseMark || activity == activityAutoCompaction && h.leaseMark != "" {
		h.mu.Unlock()
		return
	}
	h.leaseMark = activity
	h.mu.Unlock()
	if err := lk.(marker).Mark(context.WithoutCancel(ctx), activity); err != nil {
		h.s.log.Warn("condense/server: marking a session's lease", "session", h.id, "activity", activity, "err", err)
	}
}

// apiActivity is the activity a busy error names for a lease's mark.
func apiActivity(mark string) string {
	if mark == activityAutoCompaction {
		return activityCompaction
	}
	return mark
}

// Reopens counts the shared sessions this server made again from the
// store because another replica had changed them.
func (s *Server) Reopens() int64 { return s.reopens.Load() }
