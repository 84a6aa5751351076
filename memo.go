package condense

import "sync"

// memo keeps what strategies computed from log messages across the
// compactions of one preflight (CompactionContext.Remember). A value is
// keyed by the rolling hash of the log up to its message, so a log that
// changed below it never hands back a stale value; truncate forgets the
// values past the cut as well, to bound memory.
type memo struct {
	mu     sync.Mutex
	values map[memoKey]any
}

type memoKey struct {
	name        string
	index, part int
	chain       uint64
}

// forgetFrom drops the values of log messages at index d and later.
func (m *memo) forgetFrom(d int) {
	if m == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for k := range m.values {
		if k.index >= d {
			delete(m.values, k)
		}
	}
}

// Remember returns what compute returns for the log message at index (and
// its part, or -1 for the whole message), under name, computing it once per
// conversation: the preflight keeps the value across compactions for as
// long as the log up to that message stays the same. A strategy that reads
// the same log messages at every compaction (the ledger items of the tool
// results it replaces, say) reads each once instead of at every attempt,
// so a compaction refused and tried again at the next call costs no second
// reading. compute must depend only on the log up to the message and on
// name, never on the window or the current rendering. Outside a preflight
// (a context built by hand) and for an index outside the log, compute runs
// every time.
func (cc *CompactionContext) Remember(name string, index, part int, compute func() any) any {
	if cc.memo == nil || index < 0 || index >= len(cc.History) || index >= len(cc.chain) {
		return compute()
	}
	key := memoKey{name: name, index: index, part: part, chain: cc.chain[index]}
	cc.memo.mu.Lock()
	v, ok := cc.memo.values[key]
	cc.memo.mu.Unlock()
	if ok {
		return v
	}
	v = compute()
	cc.memo.mu.Lock()
	if cc.memo.values == nil {
		cc.memo.values = map[memoKey]any{}
	}
	cc.memo.values[key] = v
	cc.memo.mu.Unlock()
	return v
}
