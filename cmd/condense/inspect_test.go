package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense/internal/testmode"
)

const samples = "../../transcript/testdata/"

// cliRun runs the CLI and returns its output and exit code.
func cliRun(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	return runCLI(t, args...)
}

func TestInspectSections(t *testing.T) {
	for _, file := range []string{"claude-code.jsonl", "codex-rollout.jsonl", "openai-chat.json"} {
		t.Run(file, func(t *testing.T) {
			out, errOut, code := cliRun(t, "inspect", samples+file)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, want := range []string{"\nTurns ", "\nLargest messages\n", "\nOverflow\n", "never overflows", "\nStrategies ", "pipeline", "drop-oldest", "mask"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

func TestInspectLargeOverflows(t *testing.T) {
	path, window, tokens := largeRun(t)
	out, errOut, code := cliRun(t, "inspect", path, "--window", window, "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var rep InspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("json: %v\n%s", err, out)
	}
	if rep.Window != tokens || rep.InputLimit != tokens-4096 || rep.Messages == 0 {
		t.Fatalf("header: %+v", rep)
	}
	if rep.Overflow == nil || rep.Overflow.Tokens <= rep.InputLimit || rep.Overflow.Index <= 0 {
		t.Fatalf("first overflow: %+v", rep.Overflow)
	}
	if rep.FirstOverThreshold == nil || rep.FirstOverThreshold.Index > rep.Overflow.Index {
		t.Fatalf("threshold crossing %+v should come no later than the overflow %+v", rep.FirstOverThreshold, rep.Overflow)
	}
	// The turn table adds up to the whole request.
	if len(rep.Turns) == 0 || rep.Turns[len(rep.Turns)-1].Cumulative != rep.Tokens {
		t.Fatalf("turns end at %+v, request is %d", rep.Turns[len(rep.Turns)-1], rep.Tokens)
	}
	if len(rep.Largest) != 10 {
		t.Fatalf("largest: %d entries", len(rep.Largest))
	}
	for i := 1; i < len(rep.Largest); i++ {
		if rep.Largest[i].Tokens > rep.Largest[i-1].Tokens {
			t.Fatalf("largest not sorted: %+v", rep.Largest)
		}
	}
	byName := map[string]InspectStrategy{}
	for _, s := range rep.Strategies {
		byName[s.Name] = s
	}
	if s := byName["minify"]; s.Outcome != "cannot fit" {
		t.Errorf("minify on a 3x overflow: %+v", s)
	}
	if s := byName["pipeline"]; s.Outcome != "compacted" || s.TokensAfter > rep.InputLimit || s.TokensAfter >= s.TokensBefore {
		t.Errorf("pipeline: %+v", s)
	}
	if len(byName) != len(inspectStrategies) {
		t.Errorf("strategies: %+v", rep.Strategies)
	}

	// The text form of the same report (computing it again is slow under -race).
	var text bytes.Buffer
	if err := printInspect(&text, &rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "first overflows the window at message") || !strings.Contains(text.String(), "cannot fit") {
		t.Fatalf("text output:\n%s", text.String())
	}
}

func TestInspectUsage(t *testing.T) {
	for _, args := range [][]string{
		{"inspect"},
		{"inspect", "--bogus", samples + "claude-code.jsonl"},
		{"inspect", samples + "openai-array.json"}, // no model, no --window
		{"inspect", "--model", "no-such-model-7", samples + "claude-code.jsonl"},
		{"inspect", samples + "claude-code.jsonl", samples + "codex-rollout.jsonl"},
		{"inspect", "--top", "-1", samples + "claude-code.jsonl"},
	} {
		_, errOut, code := cliRun(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d, want 2 (%s)", args, code, errOut)
		}
	}
	_, errOut, _ := cliRun(t, "inspect", "--model", "no-such-model-7", samples+"claude-code.jsonl")
	if !strings.Contains(errOut, "--window") {
		t.Errorf("unknown model error should say to pass --window: %s", errOut)
	}
	if _, _, code := cliRun(t, "inspect", "--help"); code != 0 {
		t.Fatalf("help exit %d", code)
	}
	var help bytes.Buffer
	Run(context.Background(), []string{"inspect", "--help"}, &help, &help)
	if !strings.Contains(help.String(), "Examples:") || !strings.Contains(help.String(), "condense inspect") {
		t.Errorf("help lacks an example:\n%s", help.String())
	}
}

// Previews never show a secret.
func TestInspectPreviewRedacts(t *testing.T) {
	f := filepath.Join(t.TempDir(), "chat.json")
	key := "sk-proj-4fT9xQ2mZ8vL1nB7cK3pR6wY0aE5hJ"
	os.WriteFile(f, []byte(`{"messages":[{"role":"user","content":"use `+key+` please"},{"role":"assistant","content":"ok"}]}`), 0o644)
	stdout, stderr, code := runCLI(t, "inspect", "--json", "--window", "8k", f)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if strings.Contains(stdout, key[:12]) || !strings.Contains(stdout, "[REDACTED]") {
		t.Errorf("preview:\n%s", stdout)
	}
}

// largeRun returns the large sample and the window (as a flag and in
// tokens) the whole-file tests run it at: the 1.9 MB Claude Code session
// at 128k, or, under the race detector outside CONDENSE_TEST_LONG=1
// (which slows a whole-file eval or inspect some eightfold), its first
// third of lines at 32k, as far over its window.
func largeRun(t *testing.T) (path, window string, tokens int) {
	t.Helper()
	path = samples + "claude-code-large.jsonl"
	if !testmode.Light() {
		return path, "128k", 128_000
	}
	return testmode.Part(t, path, 3), "32k", 32_000
}
