package session

import (
	"context"
	"sync"
)

// rwlock is the session lock: appends share it, everything that renders,
// compacts, undoes or reconfigures holds it alone. Waiting
// honours the context. Writers waiting block new readers, so a compaction
// is not starved by a stream of appends.
type rwlock struct {
	mu      sync.Mutex
	readers int
	writer  bool
	waiting int // writers waiting
	wake    chan struct{}
}

func (l *rwlock) lock(ctx context.Context, exclusive bool) error {
	l.mu.Lock()
	if l.wake == nil {
		l.wake = make(chan struct{})
	}
	counted := false
	for {
		if exclusive && !l.writer && l.readers == 0 {
			l.writer = true
			if counted {
				l.waiting--
			}
			l.mu.Unlock()
			return nil
		}
		if !exclusive && !l.writer && l.waiting == 0 {
			l.readers++
			l.mu.Unlock()
			return nil
		}
		if exclusive && !counted {
			l.waiting++
			counted = true
		}
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-wake:
			l.mu.Lock()
		case <-ctx.Done():
			l.mu.Lock()
			if counted {
				l.waiting--
				l.broadcast()
			}
			l.mu.Unlock()
			return ctx.Err()
		}
	}
}

func (l *rwlock) unlock(exclusive bool) {
	l.mu.Lock()
	if exclusive {
		l.writer = false
	} else {
		l.readers--
	}
	l.broadcast()
	l.mu.Unlock()
}

// broadcast wakes every waiter; l.mu held.
func (l *rwlock) broadcast() {
	if l.wake != nil {
		close(l.wake)
	}
	l.wake = make(chan struct{})
}
