package apicount

import "testing"

func TestLRU(t *testing.T) {
	l := newLRU(2)
	l.put(1, 10)
	l.put(2, 20)
	if n, ok := l.get(1); !ok || n != 10 {
		t.Fatalf("get 1 = %d, %v", n, ok)
	}
	l.put(3, 30) // evicts 2, the least recently used
	if _, ok := l.get(2); ok {
		t.Error("2 was not evicted")
	}
	if n, ok := l.get(1); !ok || n != 10 {
		t.Error("1 was evicted though used")
	}
	l.put(3, 31)
	if n, _ := l.get(3); n != 31 || l.len() != 2 {
		t.Errorf("update: %d, len %d", n, l.len())
	}
}
