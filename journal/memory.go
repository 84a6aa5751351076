package journal

import (
	"context"
	"slices"
	"sync"
)

// Memory is an in-memory Store for tests. The zero value is not usable;
// call NewMemory.
type Memory struct {
	mu   sync.Mutex
	runs map[string][]Event
}

var _ Store = (*Memory)(nil)

// NewMemory returns an empty in-memory store.
func NewMemory() *Memory { return &Memory{runs: map[string][]Event{}} }

// Append implements Store.
func (m *Memory) Append(ctx context.Context, run string, events ...Event) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := ValidRun(run); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if err := checkSequence(run, len(m.runs[run]), events); err != nil {
		return err
	}
	for _, e := range events {
		e.Run = run
		m.runs[run] = append(m.runs[run], clone(e))
	}
	return nil
}

// Load implements Store.
func (m *Memory) Load(ctx context.Context, run string) ([]Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	evs, ok := m.runs[run]
	if !ok || len(evs) == 0 {
		return nil, ErrNotFound
	}
	out := make([]Event, len(evs))
	for i := range evs {
		out[i] = clone(evs[i])
	}
	return out, nil
}

// Runs implements Store.
func (m *Memory) Runs(ctx context.Context) ([]string, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.runs))
	for id := range m.runs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	return ids, nil
}

// Close implements Store.
func (m *Memory) Close() error { return nil }

// Truncate keeps the first n events of run, as if the process had died
// before writing the rest. Tests use it to simulate crashes.
func (m *Memory) Truncate(run string, n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if evs := m.runs[run]; n < len(evs) {
		m.runs[run] = evs[:n:n]
	}
}

// clone deep-copies e through its JSON form, so stored events never share
// memory with the caller's.
func clone(e Event) Event {
	b, err := e.MarshalJSON()
	if err != nil {
		return e
	}
	var out Event
	if err := out.UnmarshalJSON(b); err != nil {
		return e
	}
	return out
}
