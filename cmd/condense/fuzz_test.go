package main

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
)

// FuzzCLI runs the command line end to end on fuzzed input read from
// standard input, with a few flag sets: it never panics, and it exits 0, 1
// (cannot fit) or 2 (bad input), nothing else.
func FuzzCLI(f *testing.F) {
	for _, name := range []string{"openai-chat.json", "claude-code.jsonl", "codex-rollout.jsonl", "anthropic-messages.json", "swe-agent-text.traj"} {
		b, err := os.ReadFile(testdata + name)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) > 4096 {
			b = b[:4096] // small seeds, or the fuzzer spends its time minimizing
		}
		f.Add(b, uint8(0))
	}
	f.Add([]byte(`{"messages":[{"role":"user","content":"hi"}]}`), uint8(1))
	f.Add([]byte("$ make\nerror\n"), uint8(2))
	argSets := [][]string{
		{"compact", "--window", "2k", "--reserve", "200", "--stats", "-", "-o", "-", "-"},
		{"compact", "--window", "1500", "--reserve", "100", "--lenient", "--to", "anthropic", "-o", "-", "-"},
		{"count", "--window", "8k", "-"},
		{"inspect", "--window", "4k", "--json", "-"},
		{"compact", "--window", "3k", "--reserve", "100", "--strategy", "mask", "--to", "condense", "-o", "-", "-"},
	}
	f.Fuzz(func(t *testing.T, input []byte, which uint8) {
		args := argSets[int(which)%len(argSets)]
		var out, errb bytes.Buffer
		err := runEnv(context.Background(), args, &env{stdin: bytes.NewReader(input), stdout: &out, stderr: &errb})
		switch code := ExitCode(err); code {
		case 0, 1, 2:
		default:
			t.Fatalf("exit %d (%v) on %s: %s", code, err, strings.Join(args, " "), errb.String())
		}
	})
}
