// Package memstore is an in-memory store.Store for tests. Messages are kept
// in their condense JSON form, so what is read back went through the same
// encoding as in the durable stores.
package memstore

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// Store keeps sessions in memory. The zero value is not ready: use New.
type Store struct {
	// Fail, when set, is called before each Append is applied; an error it
	// returns fails the Append with nothing stored (fault injection).
	Fail func(b *store.Batch) error

	mu       sync.Mutex
	sessions map[string]*session
}

type session struct {
	msgs   [][]byte
	cps    []store.Checkpoint
	undos  []store.Undo
	locked bool
}

var _ store.Store = (*Store)(nil)

// New returns an empty in-memory store.
func New() *Store { return &Store{sessions: map[string]*session{}} }

// Open opens (creating) session id; a session already open gives
// store.ErrLocked.
func (s *Store) Open(_ context.Context, id string) (store.Log, error) {
	if err := store.ValidID(id); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ss := s.sessions[id]
	if ss == nil {
		ss = &session{}
		s.sessions[id] = ss
	}
	if ss.locked {
		return nil, fmt.Errorf("%w: session %q", store.ErrLocked, id)
	}
	ss.locked = true
	return &log{st: s, s: ss}, nil
}

// Close does nothing: the sessions stay, so a test can open them again
// ("reopen" after a close).
func (s *Store) Close() error { return nil }

var _ store.Log = (*log)(nil)

type log struct {
	st     *Store
	s      *session
	closed bool
}

func (l *log) Len() int {
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	return len(l.s.msgs)
}

func (l *log) Messages(_ context.Context, from, to int) ([]condense.Message, error) {
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	if l.closed {
		return nil, store.ErrClosed
	}
	if from < 0 || to > len(l.s.msgs) || from > to {
		return nil, fmt.Errorf("%w: [%d, %d) of %d", store.ErrOutOfRange, from, to, len(l.s.msgs))
	}
	out := make([]condense.Message, to-from)
	for i := from; i < to; i++ {
		if err := out[i-from].UnmarshalJSON(l.s.msgs[i]); err != nil {
			return nil, fmt.Errorf("%w: message %d: %v", store.ErrCorrupt, i, err)
		}
	}
	return out, nil
}

func (l *log) Checkpoints() []store.Checkpoint {
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	return append([]store.Checkpoint(nil), l.s.cps...)
}

func (l *log) Undos() []store.Undo {
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	return append([]store.Undo(nil), l.s.undos...)
}

func (l *log) Append(ctx context.Context, b store.Batch) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	e, err := store.Encode(b)
	if err != nil {
		return 0, err
	}
	enc := e.Messages
	var cp *store.Checkpoint
	if e.Checkpoint != nil {
		// Decoded from its JSON, the stored copy shares nothing.
		cp = new(store.Checkpoint)
		if err := json.Unmarshal(e.Checkpoint, cp); err != nil {
			return 0, err
		}
	}
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	if l.closed {
		return 0, store.ErrClosed
	}
	first := len(l.s.msgs)
	if cp != nil {
		if err := cp.Validate(); err != nil {
			return 0, err
		}
		if cp.HistoryCount > first+len(enc) {
			return 0, fmt.Errorf("%w: checkpoint %s counts %d messages, the log holds %d", store.ErrInvalidBatch, cp.ID, cp.HistoryCount, first+len(enc))
		}
	}
	if l.st.Fail != nil {
		if err := l.st.Fail(&b); err != nil {
			return 0, err
		}
	}
	l.s.msgs = append(l.s.msgs, enc...)
	if cp != nil {
		l.s.cps = append(l.s.cps, *cp)
	}
	if b.Undo != nil {
		u := *b.Undo
		u.Checkpoints = append([]string(nil), u.Checkpoints...)
		l.s.undos = append(l.s.undos, u)
	}
	return first, nil
}

func (l *log) Close() error {
	l.st.mu.Lock()
	defer l.st.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	l.s.locked = false
	return nil
}
