package jsonl

// SetSyncDir replaces the directory sync of s (fault injection: a
// simulated disk records which names it made durable).
func SetSyncDir(s *Store, f func(dir string) error) { s.syncDir = f }
