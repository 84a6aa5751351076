package session_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/sqlite"
)

const (
	longMessages    = 100_000
	longCheckpoints = 50
)

func longOptions() *session.Options {
	return &session.Options{Request: condense.Request{Model: "claude-sonnet-4-5", System: "You are a coding agent."}}
}

// longChunk returns a user prompt and tool steps, n messages in all, of
// about 500 bytes each.
func longChunk(k, n int) []condense.Message {
	out := []condense.Message{{ID: fmt.Sprintf("k%d-u", k), Role: condense.RoleUser, Parts: []condense.Part{condense.Text(fmt.Sprintf("task %d: run the tests and fix what fails", k))}}}
	for i := 0; len(out) < n-1; i++ {
		call := fmt.Sprintf("k%d-c%d", k, i)
		out = append(out,
			condense.Message{ID: call + "-a", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("checking " + call),
				condense.ToolCall(call, "bash", json.RawMessage(`{"cmd":"go test ./internal/`+call+`/..."}`))}},
			condense.Message{ID: call + "-t", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(call, i%7 == 0,
				condense.Text(strings.Repeat("ok  \tgithub.com/x/y/"+call+"\t0.12s\n", 16)))}})
	}
	return append(out, condense.Message{ID: fmt.Sprintf("k%d-done", k), Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("fixed")}})
}

// buildLong writes a session of longMessages messages with longCheckpoints
// checkpoints into st.
func buildLong(b *testing.B, st store.Store) {
	s, err := session.Open(bg, st, "long", longOptions())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	per := longMessages / longCheckpoints
	for k := 0; k < longCheckpoints; k++ {
		if err := s.Append(bg, longChunk(k, per)...); err != nil {
			b.Fatal(err)
		}
		res, err := s.Prepare(bg, longOptions().Request)
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Records) == 0 {
			if _, err := s.Compact(bg); err != nil {
				b.Fatal(err)
			}
		}
	}
	if n, c := s.Len(), len(s.Checkpoints()); n != longMessages || c != longCheckpoints {
		b.Fatalf("built %d messages, %d checkpoints", n, c)
	}
}

// copyLog copies session "long" from one store to another, batch by
// checkpoint, without compacting again.
func copyLog(b *testing.B, from, to store.Store) {
	src, err := from.Open(bg, "long")
	if err != nil {
		b.Fatal(err)
	}
	defer src.Close()
	dst, err := to.Open(bg, "long")
	if err != nil {
		b.Fatal(err)
	}
	defer dst.Close()
	at := 0
	move := func(n int, cp *store.Checkpoint) {
		msgs, err := src.Messages(bg, at, n)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := dst.Append(bg, store.Batch{Messages: msgs, Checkpoint: cp}); err != nil {
			b.Fatal(err)
		}
		at = n
	}
	for _, cp := range src.Checkpoints() {
		move(cp.HistoryCount, &cp)
	}
	move(src.Len(), nil)
}

// BenchmarkOpenLong opens a 100,000-message session (about 50 MB) with 50
// checkpoints and renders its next request.
//
//	go test ./session -run XXX -bench OpenLong -benchmem
func BenchmarkOpenLong(b *testing.B) {
	dir := b.TempDir()
	stores := []struct {
		name string
		open func() (store.Store, error)
	}{
		{"jsonl", func() (store.Store, error) { return jsonl.Open(filepath.Join(dir, "jsonl"), nil) }},
		{"sqlite", func() (store.Store, error) { return sqlite.Open(filepath.Join(dir, "db"), nil) }},
	}
	start := time.Now()
	var first store.Store
	for i, sc := range stores {
		st, err := sc.open()
		if err != nil {
			b.Fatal(err)
		}
		if i == 0 {
			buildLong(b, st)
			first = st
			fi, _ := os.Stat(filepath.Join(dir, "jsonl", "long.jsonl"))
			b.Logf("built the session in %v: %.1f MB of JSONL", time.Since(start).Round(time.Millisecond), float64(fi.Size())/1e6)
			continue
		}
		copyLog(b, first, st)
		st.Close()
	}
	first.Close()
	for _, sc := range stores {
		b.Run(sc.name, func(b *testing.B) {
			for b.Loop() {
				st, err := sc.open()
				if err != nil {
					b.Fatal(err)
				}
				s, err := session.Open(bg, st, "long", longOptions())
				if err != nil {
					b.Fatal(err)
				}
				res, err := s.Prepare(bg, longOptions().Request)
				if err != nil {
					b.Fatal(err)
				}
				if len(res.Records) != 0 || len(res.Request.Messages) == 0 {
					b.Fatalf("reopened session compacted again or rendered nothing: %d records", len(res.Records))
				}
				s.Close()
				st.Close()
			}
		})
	}
}
