// Package storetest is the conformance suite every store.Store runs, the
// way testing/slogtest checks a slog handler:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) func() store.Store {
//			dir := t.TempDir()
//			return func() store.Store { s, _ := jsonl.Open(dir, nil); return s }
//		})
//	}
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// Factory prepares one backing location (a directory, a database) and
// returns a function opening a store over it. Each call of the returned
// function opens the same data afresh, as a restarted process would.
type Factory func(t *testing.T) func() store.Store

// Run runs the conformance suite.
func Run(t *testing.T, f Factory) {
	tests := []struct {
		name string
		fn   func(*testing.T, func() store.Store)
	}{
		{"AppendAndRead", testAppendAndRead},
		{"MessageKinds", testMessageKinds},
		{"Checkpoint", testCheckpoint},
		{"InvalidCheckpoint", testInvalidCheckpoint},
		{"Undo", testUndo},
		{"Reopen", testReopen},
		{"Lock", testLock},
		{"InvalidID", testInvalidID},
		{"Closed", testClosed},
		{"ConcurrentOneSession", testConcurrentOne},
		{"ConcurrentSessions", testConcurrentSessions},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			open := f(t)
			tc.fn(t, open)
		})
	}
}

func msg(id string, text string) condense.Message {
	return condense.Message{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text(text)}}
}

func msgs(prefix string, n int) []condense.Message {
	out := make([]condense.Message, n)
	for i := range out {
		out[i] = msg(fmt.Sprintf("%s-%d", prefix, i), fmt.Sprintf("message %s %d", prefix, i))
	}
	return out
}

// JSON returns the condense JSON of msgs, for comparisons.
func JSON(t testing.TB, v any) string {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func openLog(t *testing.T, s store.Store, id string) store.Log {
	t.Helper()
	l, err := s.Open(context.Background(), id)
	if err != nil {
		t.Fatalf("Open(%q): %v", id, err)
	}
	return l
}

func mustAppend(t *testing.T, l store.Log, b store.Batch) int {
	t.Helper()
	first, err := l.Append(context.Background(), b)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	return first
}

func read(t *testing.T, l store.Log, from, to int) []condense.Message {
	t.Helper()
	m, err := l.Messages(context.Background(), from, to)
	if err != nil {
		t.Fatalf("Messages(%d, %d): %v", from, to, err)
	}
	return m
}

func testAppendAndRead(t *testing.T, open func() store.Store) {
	s := open()
	defer s.Close()
	l := openLog(t, s, "s1")
	defer l.Close()
	if n := l.Len(); n != 0 {
		t.Fatalf("new log Len = %d", n)
	}
	all := msgs("a", 8)
	for _, b := range [][2]int{{0, 1}, {1, 6}, {6, 8}} {
		first := mustAppend(t, l, store.Batch{Messages: all[b[0]:b[1]]})
		if first != b[0] {
			t.Fatalf("Append returned first %d, want %d", first, b[0])
		}
	}
	if first := mustAppend(t, l, store.Batch{}); first != 8 {
		t.Fatalf("empty Append returned %d, want 8", first)
	}
	if n := l.Len(); n != 8 {
		t.Fatalf("Len = %d, want 8", n)
	}
	if got, want := JSON(t, read(t, l, 0, 8)), JSON(t, all); got != want {
		t.Fatalf("read back\n%s\nwant\n%s", got, want)
	}
	if got, want := JSON(t, read(t, l, 2, 5)), JSON(t, all[2:5]); got != want {
		t.Fatalf("range 2-5\n%s\nwant\n%s", got, want)
	}
	if got := read(t, l, 3, 3); len(got) != 0 {
		t.Fatalf("empty range gave %d messages", len(got))
	}
	for _, r := range [][2]int{{5, 9}, {-1, 2}, {4, 3}} {
		if _, err := l.Messages(context.Background(), r[0], r[1]); !errors.Is(err, store.ErrOutOfRange) {
			t.Fatalf("Messages(%d, %d) error = %v, want ErrOutOfRange", r[0], r[1], err)
		}
	}
}

// Kinds returns messages using every part type and flag.
func Kinds() []condense.Message {
	return []condense.Message{
		{ID: "u1", Role: condense.RoleUser, Pinned: true, Parts: []condense.Part{condense.Text("fix the bug in internal/x.go"), condense.ImageData("image/png", []byte{0x89, 'P', 'N', 'G', 0, 1, 2})}},
		{ID: "a1", Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.Thinking("let me look", "sig=="), condense.RedactedThinking("opaque"),
			condense.Text("Reading."), condense.ToolCall("call_1", "read", json.RawMessage(`{"path": "internal/x.go"}`)),
			condense.ToolCall("call_2", "run", json.RawMessage(`{"cmd":"go test ./..."}`)),
		}},
		{ID: "t1", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("call_1", false, condense.Text("package x\n\nfunc F() {}\n"))}},
		{ID: "t2", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("call_2", true, condense.Text("--- FAIL: TestF (0.00s)\n"), condense.ImageURL("image/jpeg", "https://example.com/x.jpg"))}},
		{ID: "a2", Role: condense.RoleAssistant, Status: condense.StatusAborted, Parts: []condense.Part{condense.Text("unicode ✓ \u2028 \"quoted\"\n"), condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"compaction","data":"xyz"}`))}},
	}
}

func testMessageKinds(t *testing.T, open func() store.Store) {
	s := open()
	l := openLog(t, s, "kinds")
	all := Kinds()
	mustAppend(t, l, store.Batch{Messages: all})
	if got, want := JSON(t, read(t, l, 0, len(all))), JSON(t, all); got != want {
		t.Fatalf("read back\n%s\nwant\n%s", got, want)
	}
	l.Close()
	s.Close()
	s = open()
	defer s.Close()
	l = openLog(t, s, "kinds")
	defer l.Close()
	if got, want := JSON(t, read(t, l, 0, len(all))), JSON(t, all); got != want {
		t.Fatalf("after reopen\n%s\nwant\n%s", got, want)
	}
}

// SampleCheckpoint returns a checkpoint over n ≥ 6 messages: the first two
// verbatim, a drop marker for 2..3, a masked item at 4 and the rest verbatim.
func SampleCheckpoint(id string, n int) store.Checkpoint {
	marker := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("[condense: 2 messages dropped (40 tokens) · recall covers 2-3]")}}
	masked := condense.Message{ID: "m4", Role: condense.RoleUser, Parts: []condense.Part{condense.Text("[condense: masked]")}}
	r := condense.Rendering{
		{Index: 0, Message: msg("x", "0")}, {Index: 1, Message: msg("x", "1")},
		{Index: -1, Edit: condense.EditDropped, Covers: condense.Span{Start: 2, End: 4}, Message: marker},
		{Index: 4, Edit: condense.EditMasked, Message: masked},
	}
	for i := 5; i < n; i++ {
		r = append(r, condense.Item{Index: i, Message: msg("x", "v")})
	}
	return store.Checkpoint{
		ID: id, Strategy: "drop-oldest", HistoryCount: n, FirstKept: 4, Summary: "a summary",
		Time: time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC), Provider: "anthropic", Model: "claude-haiku-4-5",
		Usage:     []condense.Usage{{Provider: "anthropic", Model: "claude-haiku-4-5", InputTokens: 1200, OutputTokens: 300}},
		Records:   []condense.Record{{Checkpoint: id, Strategy: "drop-oldest", TokensBefore: 900, TokensAfter: 300, MessagesBefore: n, MessagesAfter: n - 1, Window: 1000}},
		Rendering: store.EncodeOverlay(r),
	}
}

func testCheckpoint(t *testing.T, open func() store.Store) {
	s := open()
	l := openLog(t, s, "cp")
	mustAppend(t, l, store.Batch{Messages: msgs("a", 4)})
	cp := SampleCheckpoint("c1", 7)
	first := mustAppend(t, l, store.Batch{Messages: msgs("b", 3), Checkpoint: &cp})
	if first != 4 || l.Len() != 7 {
		t.Fatalf("first %d len %d, want 4 and 7", first, l.Len())
	}
	cps := l.Checkpoints()
	if len(cps) != 1 || JSON(t, cps[0]) != JSON(t, cp) {
		t.Fatalf("Checkpoints() = %s\nwant [%s]", JSON(t, cps), JSON(t, cp))
	}
	cp2 := SampleCheckpoint("c2", 7)
	mustAppend(t, l, store.Batch{Checkpoint: &cp2})
	l.Close()
	s.Close()
	s = open()
	defer s.Close()
	l = openLog(t, s, "cp")
	defer l.Close()
	cps = l.Checkpoints()
	if len(cps) != 2 || JSON(t, cps[0]) != JSON(t, cp) || JSON(t, cps[1]) != JSON(t, cp2) {
		t.Fatalf("after reopen Checkpoints() = %s", JSON(t, cps))
	}
	r, err := cps[0].Rendering.Rendering(read(t, l, 0, 7))
	if err != nil || len(r) != 6 || r[2].Covers != (condense.Span{Start: 2, End: 4}) || r[3].Edit != condense.EditMasked {
		t.Fatalf("overlay expands to %+v, %v", r, err)
	}
}

func testInvalidCheckpoint(t *testing.T, open func() store.Store) {
	s := open()
	defer s.Close()
	l := openLog(t, s, "bad")
	defer l.Close()
	mustAppend(t, l, store.Batch{Messages: msgs("a", 3)})
	cp := SampleCheckpoint("c1", 8) // counts 8 messages; the log will hold 5
	if _, err := l.Append(context.Background(), store.Batch{Messages: msgs("b", 2), Checkpoint: &cp}); !errors.Is(err, store.ErrInvalidBatch) {
		t.Fatalf("Append of a checkpoint beyond the log: %v, want ErrInvalidBatch", err)
	}
	if l.Len() != 3 || len(l.Checkpoints()) != 0 {
		t.Fatalf("a refused batch left %d messages and %d checkpoints", l.Len(), len(l.Checkpoints()))
	}
}

func testUndo(t *testing.T, open func() store.Store) {
	s := open()
	l := openLog(t, s, "undo")
	mustAppend(t, l, store.Batch{Messages: msgs("a", 7)})
	cp := SampleCheckpoint("c1", 7)
	mustAppend(t, l, store.Batch{Checkpoint: &cp})
	u := store.Undo{Checkpoints: []string{"c1"}, Time: time.Date(2026, 11, 30, 13, 0, 0, 0, time.UTC)}
	mustAppend(t, l, store.Batch{Undo: &u})
	l.Close()
	s.Close()
	s = open()
	defer s.Close()
	l = openLog(t, s, "undo")
	defer l.Close()
	if got := l.Undos(); len(got) != 1 || JSON(t, got[0]) != JSON(t, u) {
		t.Fatalf("Undos() = %s", JSON(t, got))
	}
	if len(l.Checkpoints()) != 1 || l.Len() != 7 {
		t.Fatal("undo deleted something")
	}
}

func testReopen(t *testing.T, open func() store.Store) {
	s := open()
	l := openLog(t, s, "re")
	all := msgs("a", 20)
	mustAppend(t, l, store.Batch{Messages: all[:10]})
	l.Close()
	l = openLog(t, s, "re")
	if l.Len() != 10 {
		t.Fatalf("reopened log Len = %d", l.Len())
	}
	if first := mustAppend(t, l, store.Batch{Messages: all[10:]}); first != 10 {
		t.Fatalf("first after reopen = %d", first)
	}
	l.Close()
	s.Close()
	s = open()
	defer s.Close()
	l = openLog(t, s, "re")
	defer l.Close()
	if got, want := JSON(t, read(t, l, 0, 20)), JSON(t, all); got != want {
		t.Fatalf("after reopen\n%s\nwant\n%s", got, want)
	}
}

func testLock(t *testing.T, open func() store.Store) {
	s := open()
	defer s.Close()
	l := openLog(t, s, "locked")
	if _, err := s.Open(context.Background(), "locked"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second Open: %v, want ErrLocked", err)
	}
	other := openLog(t, s, "other")
	other.Close()
	l.Close()
	l = openLog(t, s, "locked")
	l.Close()
}

func testInvalidID(t *testing.T, open func() store.Store) {
	s := open()
	defer s.Close()
	for _, id := range []string{"", "../etc/passwd", "a/b", ".hidden", "x\x00y", "über", string(bytes.Repeat([]byte("a"), 129))} {
		if l, err := s.Open(context.Background(), id); !errors.Is(err, store.ErrInvalidID) {
			if l != nil {
				l.Close()
			}
			t.Errorf("Open(%q): %v, want ErrInvalidID", id, err)
		}
	}
}

func testClosed(t *testing.T, open func() store.Store) {
	s := open()
	defer s.Close()
	l := openLog(t, s, "closed")
	l.Close()
	if _, err := l.Append(context.Background(), store.Batch{Messages: msgs("a", 1)}); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Append after Close: %v, want ErrClosed", err)
	}
}

func testConcurrentOne(t *testing.T, open func() store.Store) {
	s := open()
	l := openLog(t, s, "conc")
	const workers, per = 16, 20
	type batch struct {
		first int
		msgs  []condense.Message
	}
	var mu sync.Mutex
	var done []batch
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < per; j++ {
				b := msgs(fmt.Sprintf("w%d-%d", w, j), 1+(w+j)%3)
				first, err := l.Append(context.Background(), store.Batch{Messages: b})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				done = append(done, batch{first, b})
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, b := range done {
		total += len(b.msgs)
	}
	check := func(l store.Log) {
		if l.Len() != total {
			t.Fatalf("Len = %d, want %d", l.Len(), total)
		}
		for _, b := range done {
			if got, want := JSON(t, read(t, l, b.first, b.first+len(b.msgs))), JSON(t, b.msgs); got != want {
				t.Fatalf("batch at %d:\n%s\nwant\n%s", b.first, got, want)
			}
		}
	}
	check(l)
	l.Close()
	s.Close()
	s = open()
	defer s.Close()
	l = openLog(t, s, "conc")
	defer l.Close()
	check(l)
}

func testConcurrentSessions(t *testing.T, open func() store.Store) {
	s := open()
	defer s.Close()
	const sessions, per = 8, 25
	var wg sync.WaitGroup
	for k := 0; k < sessions; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprintf("sess-%d", k)
			l, err := s.Open(context.Background(), id)
			if err != nil {
				t.Error(err)
				return
			}
			defer l.Close()
			all := msgs(id, per)
			for i := range all {
				if _, err := l.Append(context.Background(), store.Batch{Messages: all[i : i+1]}); err != nil {
					t.Error(err)
					return
				}
			}
			got, err := l.Messages(context.Background(), 0, per)
			if err != nil || JSON(t, got) != JSON(t, all) {
				t.Errorf("session %s read back wrong: %v", id, err)
			}
		}()
	}
	wg.Wait()
}
