package server

import (
	"context"
	"fmt"
	"reflect"

	"github.com/condense-dev/condense/internal/redact"
)

func errJournal(err error) error { return fmt.Errorf("event journal: %w", err) }

// openState opens where the backend keeps the server's state: the
// PostgreSQL database of a shared backend, else its state directory.
func (s *Server) openState(b *Backend) (serverState, error) {
	if b.Postgres != nil {
		return openPGState(context.Background(), b.Postgres.Pool(), &pgStateOptions{
			Schema: b.Postgres.Schema(), Keep: s.opts.EventsKept, Tokens: s.opts.Tokens, Now: s.opts.Now, Logger: s.log,
		})
	}
	return openDirState(b.StateDir, s.opts.EventsKept, s.opts.Tokens, s.opts.Now, s)
}

// newHosted returns the hosted session of a record.
func (s *Server) newHosted(rec *record) *hosted {
	return &hosted{s: s, id: rec.ID, owner: rec.Owner, rec: rec, runs: map[string]*RunInfo{}, deleted: make(chan struct{})}
}

// find returns the session id, asking the shared state for a session
// another replica created when this one does not know it.
func (s *Server) find(ctx context.Context, id string) (*hosted, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosing
	}
	h, ok := s.sessions[id]
	s.mu.Unlock()
	if ok || !s.state.shared() {
		return h, nil
	}
	rec, err := s.state.record(ctx, id)
	if err != nil || rec == nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosing
	}
	if h, ok := s.sessions[id]; ok {
		return h, nil
	}
	h = s.newHosted(rec)
	s.sessions[id] = h
	return h, nil
}

// recordChanged takes in a change another replica made to session id's
// record: new settings reopen the session on its next use, a removal
// stops serving it here too.
func (s *Server) recordChanged(id string) {
	s.mu.Lock()
	h, ok := s.sessions[id]
	s.mu.Unlock()
	if !ok {
		return
	}
	ctx := context.Background()
	rec, err := s.state.record(ctx, id)
	if err != nil {
		s.log.Warn("condense/server: reading a session record another replica changed", "session", id, "err", redact.Err(err))
		return
	}
	if rec == nil {
		s.mu.Lock()
		if s.sessions[id] == h {
			delete(s.sessions, id)
		}
		s.mu.Unlock()
		h.mu.Lock()
		if !h.gone {
			h.gone = true
			close(h.deleted)
		}
		h.mu.Unlock()
		if err := h.close(); err != nil {
			s.log.Warn("condense/server: closing a session another replica deleted", "session", id, "err", redact.Err(err))
		}
		return
	}
	h.openMu.Lock()
	h.mu.Lock()
	var old interface{ Close() error }
	if !reflect.DeepEqual(h.rec.Config, rec.Config) {
		h.rec.Config = rec.Config
		if h.sess != nil {
			old = h.sess
		}
		h.sess, h.avail = nil, nil
	}
	h.mu.Unlock()
	if old != nil {
		if err := old.Close(); err != nil {
			s.log.Warn("condense/server: closing a session to reopen it with new settings", "session", id, "err", redact.Err(err))
		}
	}
	h.openMu.Unlock()
}
