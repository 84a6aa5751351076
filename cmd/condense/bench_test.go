package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense/internal/gen"
	"github.com/condense-dev/condense/internal/memtest"
	"github.com/condense-dev/condense/internal/testmode"
)

// writeClaudeCode writes a Claude Code session JSONL of about size bytes: a
// coding session of tool steps (reads, test runs, edits) under a handful of
// user prompts, each line linked to the previous by parentUuid.
func writeClaudeCode(tb testing.TB, path string, size int) {
	tb.Helper()
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	written, n := 0, 0
	parent := ""
	line := func(typ string, message any) {
		n++
		id := fmt.Sprintf("00000000-0000-4000-8000-%012d", n)
		rec := map[string]any{"type": typ, "uuid": id, "parentUuid": nil, "sessionId": "bench", "isSidechain": false,
			"timestamp": "2026-11-30T12:00:00Z", "message": message}
		if parent != "" {
			rec["parentUuid"] = parent
		}
		parent = id
		raw, _ := json.Marshal(rec)
		raw = append(raw, '\n')
		if _, err := f.Write(raw); err != nil {
			tb.Fatal(err)
		}
		written += len(raw)
	}
	line("user", map[string]any{"role": "user", "content": "The scheduler loses jobs under load. Find the cause and fix it; keep the queue API."})
	for step := 0; written < size; step++ {
		if step%40 == 39 {
			line("user", map[string]any{"role": "user", "content": fmt.Sprintf("Round %d: now check package p%d as well.", step/40, step/40)})
		}
		id := fmt.Sprintf("toolu_%08d", step)
		cmd := fmt.Sprintf("go test -v -count=1 ./pkg%d/", step%17)
		line("assistant", map[string]any{"id": fmt.Sprintf("msg_%d", step), "role": "assistant", "model": "claude-sonnet-4-5-20250929",
			"content": []any{map[string]any{"type": "text", "text": "Running the package tests."},
				map[string]any{"type": "tool_use", "id": id, "name": "Bash", "input": map[string]any{"command": cmd}}}})
		var out strings.Builder
		for k := 0; k < 60; k++ {
			fmt.Fprintf(&out, "=== RUN   TestDrain/case_%d_%d\n--- PASS: TestDrain/case_%d_%d (0.00s)\n", step, k, step, k)
		}
		if step%5 == 0 {
			fmt.Fprintf(&out, "--- FAIL: TestDrainUnderLoad (0.%02ds)\n    queue_test.go:%d: lost %d jobs\nFAIL\tgithub.com/acme/orbit/pkg%d\t1.2%02ds\n", step%100, 40+step%50, step%7+1, step%17, step%100)
		}
		line("user", map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": id,
			"content": out.String(), "is_error": step%5 == 0}}})
	}
	line("assistant", map[string]any{"id": "msg_final", "role": "assistant", "model": "claude-sonnet-4-5-20250929",
		"content": []any{map[string]any{"type": "text", "text": "All fixed; the suite passes."}}})
}

// BenchmarkCompactClaudeCode2500KB runs "condense compact" with the
// defaults on a 2.5 MB Claude Code session (target: under 2 s wall and
// 300 MB RSS for the binary; see the README of the closing note for the
// /usr/bin/time figures).
func BenchmarkCompactClaudeCode2500KB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "session.jsonl")
	writeClaudeCode(b, path, 2_500_000)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(context.Background(), []string{"compact", path}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// TestCompactClaudeCode2500KB checks the benchmark's input is what it
// claims: a valid session that overflows the model's window and compacts
// (under the race detector, outside CONDENSE_TEST_LONG=1, its first third
// is compacted, which overflows the window too).
func TestCompactClaudeCode2500KB(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 2.5 MB")
	}
	path := filepath.Join(t.TempDir(), "session.jsonl")
	writeClaudeCode(t, path, 2_500_000)
	stdout, stderr, code := runCLI(t, "compact", "-o", filepath.Join(t.TempDir(), "out.json"), "--stats", "-", testmode.Part(t, path, 3))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st Stats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	if st.Input.Tokens <= st.InputLimit || len(st.Compactions) == 0 || !st.Valid {
		t.Fatalf("%+v", st)
	}
}

// openAI12MB writes (once per machine, under the temporary directory) a
// 12 MB OpenAI chat transcript: the generator's coding session, 46 rounds
// long, written --to openai. The old and new binaries can be timed on the
// same file: `condense count --model gpt-4o $TMPDIR/condense-bench-openai-12mb.json`.
func openAI12MB(tb testing.TB) string {
	tb.Helper()
	path := filepath.Join(os.TempDir(), "condense-bench-openai-12mb.json")
	if _, err := os.Stat(path); err == nil {
		return path
	}
	src := filepath.Join(tb.TempDir(), "session.jsonl")
	f, err := os.Create(src)
	if err != nil {
		tb.Fatal(err)
	}
	if err := gen.Session(f, 12, 46); err != nil {
		tb.Fatal(err)
	}
	f.Close()
	tmp := path + ".tmp"
	if err := Run(context.Background(), []string{"compact", "--to", "openai", "--model", "gpt-4o", "--window", "100m", "-o", tmp, src}, io.Discard, io.Discard); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		tb.Fatal(err)
	}
	return path
}

// BenchmarkCountGPT4o12MB runs "condense count --model gpt-4o" on a 12 MB
// OpenAI chat transcript: reading it and counting every message exactly
// with o200k_base.
func BenchmarkCountGPT4o12MB(b *testing.B) {
	path := openAI12MB(b)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	for b.Loop() {
		if err := Run(context.Background(), []string{"count", "--model", "gpt-4o", path}, io.Discard, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// largeRounds is the number of rounds of the generated session
// BenchmarkCompactLarge compacts: 64 (about 20 MB) by default, 625 (about
// 200 MB) under CONDENSE_TEST_LONG=1.
func largeRounds() int {
	if testmode.Long() {
		return 625
	}
	return 64
}

// BenchmarkCompactLarge runs "condense compact" with the defaults on the
// generator's Claude Code session of about 20 MB (200 MB under
// CONDENSE_TEST_LONG=1) and reports the peak heap of the whole command as
// a multiple of the input's size (x-input-peak). The resident size of the
// binary follows the peak heap; /usr/bin/time -v gives it on the same file.
func BenchmarkCompactLarge(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(dir, "session.jsonl")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	if err := gen.Session(w, 7, largeRounds()); err != nil {
		b.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	out := filepath.Join(dir, "out.json")
	var peak uint64
	for b.Loop() {
		peak = max(peak, memtest.Peak(func() {
			if err := Run(context.Background(), []string{"compact", "-o", out, path}, io.Discard, io.Discard); err != nil {
				b.Fatal(err)
			}
		}))
	}
	b.ReportMetric(float64(peak)/float64(st.Size()), "x-input-peak")
}
