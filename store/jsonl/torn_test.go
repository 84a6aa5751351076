package jsonl_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/storetest"
)

func user(id string) condense.Message {
	return condense.Message{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text("text of " + id)}}
}

func batch(prefix string, n int) []condense.Message {
	out := make([]condense.Message, n)
	for i := range out {
		out[i] = user(fmt.Sprintf("%s%d", prefix, i))
	}
	return out
}

// fill writes three batches (2, 3 and 2 messages) and returns the file.
func fill(t *testing.T, dir string) string {
	t.Helper()
	s, err := jsonl.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Open(context.Background(), "s")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]condense.Message{batch("a", 2), batch("b", 3), batch("c", 2)} {
		if _, err := l.Append(context.Background(), store.Batch{Messages: b}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	return s.Path("s")
}

type logBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *logBuf) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *logBuf) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

func reopen(t *testing.T, dir string) (store.Log, string, error) {
	t.Helper()
	var buf logBuf
	s, err := jsonl.Open(dir, &jsonl.Options{Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Open(context.Background(), "s")
	return l, buf.String(), err
}

func TestTornTail(t *testing.T) {
	lines := func(data []byte) [][]byte { return bytes.SplitAfter(data, []byte("\n")) }
	cases := []struct {
		name string
		cut  func(data []byte) []byte
		want int
	}{
		{"half a line", func(d []byte) []byte { ls := lines(d); last := ls[len(ls)-2]; return d[:len(d)-len(last)/2] }, 5},
		{"last line without newline", func(d []byte) []byte { return d[:len(d)-1] }, 5},
		{"batch without its end line", func(d []byte) []byte {
			ls := lines(d) // header, a0 a1, b0 b1 b2, c0 c1, ""
			return bytes.Join(ls[:5], nil)
		}, 2},
		{"garbage after the last batch", func(d []byte) []byte { return append(d, "{\"k\":\"m\",\"i\":7,\"m\":{\"role\":\"us"...) }, 7},
		{"zeros after a torn line", func(d []byte) []byte { return append(d[:len(d)-9], make([]byte, 100)...) }, 5},
		{"checksum mismatch on the last line", func(d []byte) []byte {
			d = bytes.Clone(d)
			d[len(d)-30] ^= 1
			return d
		}, 5},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := fill(t, dir)
			data, _ := os.ReadFile(path)
			if err := os.WriteFile(path, tc.cut(data), 0o644); err != nil {
				t.Fatal(err)
			}
			l, logged, err := reopen(t, dir)
			if err != nil {
				t.Fatalf("open: %v", err)
			}
			defer l.Close()
			if l.Len() != tc.want {
				t.Fatalf("Len = %d, want %d", l.Len(), tc.want)
			}
			if !strings.Contains(logged, "torn tail") {
				t.Fatalf("no log line about the torn tail: %q", logged)
			}
			if _, err := l.Messages(context.Background(), 0, l.Len()); err != nil {
				t.Fatal(err)
			}
			// The log goes on cleanly after the dropped tail.
			if _, err := l.Append(context.Background(), store.Batch{Messages: batch("d", 2)}); err != nil {
				t.Fatal(err)
			}
			l.Close()
			l, logged, err = reopen(t, dir)
			if err != nil || l.Len() != tc.want+2 || logged != "" {
				t.Fatalf("after append and reopen: len %d, err %v, log %q", l.Len(), err, logged)
			}
			l.Close()
		})
	}
}

func TestPreallocatedZeros(t *testing.T) {
	dir := t.TempDir()
	path := fill(t, dir)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, append(data, make([]byte, 4096)...), 0o644)
	l, logged, err := reopen(t, dir)
	if err != nil || l.Len() != 7 || logged != "" {
		t.Fatalf("len %d, err %v, log %q", l.Len(), err, logged)
	}
	if _, err := l.Append(context.Background(), store.Batch{Messages: batch("d", 1)}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l, _, err = reopen(t, dir)
	if err != nil || l.Len() != 8 {
		t.Fatalf("after append: len %d, err %v", l.Len(), err)
	}
	l.Close()
	if data, _ := os.ReadFile(path); data[len(data)-1] != '\n' {
		t.Fatal("Close left the preallocation")
	}
}

func TestCorruptEarlierLine(t *testing.T) {
	dir := t.TempDir()
	path := fill(t, dir)
	data, _ := os.ReadFile(path)
	ls := bytes.SplitAfter(data, []byte("\n"))
	ls[3] = bytes.Replace(ls[3], []byte("text of"), []byte("text on"), 1) // line 4: b0
	os.WriteFile(path, bytes.Join(ls, nil), 0o644)
	_, _, err := reopen(t, dir)
	if !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "line 4") {
		t.Fatalf("open error = %v, want ErrCorrupt naming line 4", err)
	}
}

func TestTornHeader(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/s.jsonl", []byte(`{"condense":"sess`), 0o644)
	l, _, err := reopen(t, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(context.Background(), store.Batch{Messages: batch("a", 1)}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	l, _, err = reopen(t, dir)
	if err != nil || l.Len() != 1 {
		t.Fatalf("len %v err %v", l, err)
	}
	l.Close()
}

func TestWrongVersion(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/s.jsonl", []byte(`{"condense":"session","version":99,"id":"s"}`+"\n"), 0o644)
	if _, _, err := reopen(t, dir); !errors.Is(err, store.ErrCorrupt) || !strings.Contains(err.Error(), "version 99") {
		t.Fatalf("err = %v", err)
	}
}

// FuzzOpen is end to end: a file of arbitrary bytes is opened, read and
// appended to. Each run touches the disk (and syncs), so fuzzing it is
// slow, minimization especially; FuzzScan fuzzes the reader itself fast.
func FuzzOpen(f *testing.F) {
	dir := f.TempDir()
	path := fill(&testing.T{}, dir)
	good, _ := os.ReadFile(path)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte(`{"condense":"session","version":1,"id":"s"}` + "\n" + `{"k":"m","i":0,"e":1,"m":{},"crc":"00000000"}` + "\n"))
	f.Add([]byte{})
	f.Add([]byte("\n\n\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(dir+"/s.jsonl", data, 0o644); err != nil {
			t.Fatal(err)
		}
		s, _ := jsonl.Open(dir, &jsonl.Options{Logger: slog.New(slog.DiscardHandler)})
		l, err := s.Open(context.Background(), "s")
		if err != nil {
			if !errors.Is(err, store.ErrCorrupt) {
				t.Fatalf("open error %v is not ErrCorrupt", err)
			}
			return
		}
		defer l.Close()
		if _, err := l.Messages(context.Background(), 0, l.Len()); err != nil && !errors.Is(err, store.ErrCorrupt) {
			t.Fatalf("Messages: %v", err)
		}
		for _, cp := range l.Checkpoints() {
			if err := cp.Validate(); err != nil {
				t.Fatalf("checkpoint passed open but not Validate: %v", err)
			}
		}
		if _, err := l.Append(context.Background(), store.Batch{Messages: batch("z", 1)}); err != nil {
			t.Fatalf("append after a clean open: %v", err)
		}
	})
}

// faultyFile fails writes or syncs while its fault is set.
type faultyFile struct {
	jsonl.File
	mu    sync.Mutex
	fault string // "", "enospc", "eacces", "short", "eio-sync"
}

func (f *faultyFile) set(fault string) {
	f.mu.Lock()
	f.fault = fault
	f.mu.Unlock()
}

func (f *faultyFile) get() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.fault
}

func (f *faultyFile) WriteAt(p []byte, off int64) (int, error) {
	switch f.get() {
	case "enospc":
		n, _ := f.File.WriteAt(p[:len(p)/3], off) // some bytes reach the disk
		return n, syscall.ENOSPC
	case "eacces":
		return 0, syscall.EACCES
	case "short":
		return f.File.WriteAt(p[:len(p)-7], off)
	}
	return f.File.WriteAt(p, off)
}

func (f *faultyFile) Sync() error {
	if f.get() == "eio-sync" {
		return syscall.EIO
	}
	return f.File.Sync()
}

func TestFaults(t *testing.T) {
	for _, fault := range []string{"enospc", "eacces", "short", "eio-sync"} {
		t.Run(fault, func(t *testing.T) {
			dir := t.TempDir()
			var ff *faultyFile
			s, _ := jsonl.Open(dir, &jsonl.Options{WrapFile: func(_ string, f jsonl.File) jsonl.File {
				ff = &faultyFile{File: f}
				return ff
			}})
			l, err := s.Open(context.Background(), "s")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Append(context.Background(), store.Batch{Messages: batch("a", 3)}); err != nil {
				t.Fatal(err)
			}
			ff.set(fault)
			cp := storetest.SampleCheckpoint("c1", 6)
			if _, err := l.Append(context.Background(), store.Batch{Messages: batch("b", 3), Checkpoint: &cp}); err == nil {
				t.Fatal("append under fault succeeded")
			}
			if l.Len() != 3 || len(l.Checkpoints()) != 0 {
				t.Fatalf("failed append left len %d, %d checkpoints", l.Len(), len(l.Checkpoints()))
			}
			ff.set("")
			if first, err := l.Append(context.Background(), store.Batch{Messages: batch("b", 3), Checkpoint: &cp}); err != nil || first != 3 {
				t.Fatalf("append after the fault cleared: first %d, %v", first, err)
			}
			l.Close()
			l, logged, err := reopen(t, dir)
			if err != nil || l.Len() != 6 || len(l.Checkpoints()) != 1 || logged != "" {
				t.Fatalf("reopen: err %v len %d log %q", err, l.Len(), logged)
			}
			got, _ := l.Messages(context.Background(), 0, 6)
			if storetest.JSON(t, got) != storetest.JSON(t, append(batch("a", 3), batch("b", 3)...)) {
				t.Fatal("messages differ after recovery")
			}
			l.Close()
		})
	}
}

// Raw JSON is carried byte for byte, and may hold line breaks between its
// tokens (an indented tool input, a provider block): the record must stay
// one line, and reopening must give the same bytes back.
func TestRawJSONWithLineBreaks(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s, err := jsonl.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := s.Open(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	call := condense.Message{ID: "a1", Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.ToolCall("c1", "run", json.RawMessage("{\n  \"cmd\": \"ls\"\r\n}")),
		condense.ProviderBlock("anthropic", json.RawMessage("{\"type\":\"compaction\",\n\"encrypted_content\":\"  x==\"}"))}}
	cp := store.Checkpoint{ID: "c1", Strategy: "test", HistoryCount: 2, Rendering: store.EncodeOverlay(condense.Rendering{
		{Index: 0, Message: user("u0")}, {Index: 1, Message: call, Edit: condense.EditMasked}})}
	if _, err := l.Append(ctx, store.Batch{Messages: []condense.Message{user("u0"), call}}); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Append(ctx, store.Batch{Checkpoint: &cp}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	s.Close()
	s2, _ := jsonl.Open(dir, nil)
	defer s2.Close()
	l2, err := s2.Open(ctx, "s")
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer l2.Close()
	if l2.Len() != 2 || len(l2.Checkpoints()) != 1 {
		t.Fatalf("Len %d, checkpoints %d", l2.Len(), len(l2.Checkpoints()))
	}
	got, err := l2.Messages(ctx, 0, 2)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(call)
	have, _ := json.Marshal(got[1])
	if string(want) != string(have) {
		t.Fatalf("message changed:\n%s\n%s", want, have)
	}
	r, err := l2.Checkpoints()[0].Rendering.Rendering(got)
	if err != nil || string(r[1].Message.Parts[0].Input) != "{\n  \"cmd\": \"ls\"\r\n}" {
		t.Fatalf("checkpoint rendering: %v %q", err, r[1].Message.Parts[0].Input)
	}
}
