package proxy

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// memShared is a SharedStore in memory, for the tests of shared
// conversations without a database: the same claims, versions and lease
// as the PostgreSQL store, checkpoints kept as their JSON.
type memShared struct {
	mu       sync.Mutex
	links    map[Link]memClaim
	taken    map[memClaim]bool
	sessions map[string]*memSession
}

type memClaim struct {
	conversation string
	n            int
}

var _ SharedStore = (*memShared)(nil)

func newMemShared() *memShared {
	return &memShared{links: map[Link]memClaim{}, taken: map[memClaim]bool{}, sessions: map[string]*memSession{}}
}

func (m *memShared) Find(_ context.Context, links []Link) (Found, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for j := len(links) - 1; j >= 0; j-- {
		if c, ok := m.links[links[j]]; ok {
			f := Found{Conversation: c.conversation, N: c.n, Length: c.n, Start: c.n}
			for m.taken[memClaim{c.conversation, f.Length + 1}] {
				f.Length++
			}
			for m.taken[memClaim{c.conversation, f.Start - 1}] {
				f.Start--
			}
			return f, nil
		}
	}
	return Found{}, nil
}

func (m *memShared) Claim(_ context.Context, conversation string, from int, links []Link) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for j := from; j < len(links); j++ {
		if _, ok := m.links[links[j]]; ok || m.taken[memClaim{conversation, j + 1}] {
			return fmt.Errorf("%w: conversation %s position %d", ErrClaimed, conversation, j+1)
		}
	}
	for j := from; j < len(links); j++ {
		m.links[links[j]] = memClaim{conversation, j + 1}
		m.taken[memClaim{conversation, j + 1}] = true
	}
	return nil
}

func (m *memShared) Open(_ context.Context, conversation string) (SharedLog, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.sessions[conversation]
	if s == nil {
		s = &memSession{lease: make(chan struct{}, 1)}
		m.sessions[conversation] = s
	}
	v := &memView{s: s}
	v.Refresh(context.Background())
	return v, nil
}

// memSession is one conversation's session: a count of stub messages,
// the checkpoints' JSON, a version and a lease.
type memSession struct {
	lease   chan struct{} // holds a token while leased
	mu      sync.Mutex
	version int64
	msgs    int
	cps     [][]byte
}

func (s *memSession) state() (int64, int, []store.Checkpoint) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cps := make([]store.Checkpoint, len(s.cps))
	for k, raw := range s.cps {
		if err := json.Unmarshal(raw, &cps[k]); err != nil {
			panic(err)
		}
	}
	return s.version, s.msgs, cps
}

// memView is a SharedLog: the session as of its last refresh.
type memView struct {
	s       *memSession
	version int64
	cps     []store.Checkpoint
}

func (v *memView) Refresh(context.Context) (bool, error) {
	old := v.version
	v.version, _, v.cps = v.s.state()
	return v.version != old, nil
}

func (v *memView) Version() int64                  { return v.version }
func (v *memView) Checkpoints() []store.Checkpoint { return v.cps }
func (v *memView) Close() error                    { return nil }

func (v *memView) Lock(ctx context.Context) (store.Log, error) {
	select {
	case v.s.lease <- struct{}{}:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return &memLeased{s: v.s}, nil
}

// memLeased is the session while its lease is held.
type memLeased struct {
	s    *memSession
	once sync.Once
}

func (l *memLeased) Version() int64 { v, _, _ := l.s.state(); return v }
func (l *memLeased) Len() int       { _, n, _ := l.s.state(); return n }
func (l *memLeased) Checkpoints() []store.Checkpoint {
	_, _, cps := l.s.state()
	return cps
}
func (l *memLeased) Undos() []store.Undo { return nil }
func (l *memLeased) Messages(context.Context, int, int) ([]condense.Message, error) {
	return nil, store.ErrOutOfRange
}

func (l *memLeased) Append(_ context.Context, b store.Batch) (int, error) {
	e, err := store.Encode(b)
	if err != nil {
		return 0, err
	}
	s := l.s
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.msgs
	if b.Checkpoint != nil {
		if b.Checkpoint.HistoryCount > s.msgs+len(b.Messages) {
			return 0, fmt.Errorf("%w: checkpoint %s counts %d messages, the log holds %d", store.ErrInvalidBatch,
				b.Checkpoint.ID, b.Checkpoint.HistoryCount, s.msgs+len(b.Messages))
		}
		for _, raw := range s.cps {
			var cp store.Checkpoint
			json.Unmarshal(raw, &cp)
			if cp.ID == b.Checkpoint.ID {
				return 0, fmt.Errorf("%w: checkpoint %s already saved", store.ErrInvalidBatch, cp.ID)
			}
		}
		s.cps = append(s.cps, e.Checkpoint)
	}
	s.msgs += len(b.Messages)
	s.version++
	return first, nil
}

func (l *memLeased) Close() error {
	l.once.Do(func() { <-l.s.lease })
	return nil
}
