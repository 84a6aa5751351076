package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/testmode"
	"github.com/condense-dev/condense/transcript"
)

const testdata = "../../transcript/testdata/"

// runCLI runs the CLI with an empty standard input that is not a
// terminal, and returns its output and exit code.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	err := runEnv(context.Background(), args, &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb})
	return out.String(), errb.String(), ExitCode(err)
}

func TestCompactLargeTranscript(t *testing.T) {
	dir := t.TempDir()
	outPath := filepath.Join(dir, "out.json")
	stdout, stderr, code := runCLI(t, "compact", "-o", outPath, "--stats", "-", "--window", "64k", testmode.Part(t, testdata+"claude-code-large.jsonl", 3))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st Stats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatalf("stats: %v\n%s", err, stdout)
	}
	if st.Version != 1 || st.Input.Format != "claude-code" || st.Output.Format != "anthropic" || st.Window != 64_000 ||
		st.InputLimit != 64_000-4096 || st.Threshold != int(float64(64_000-4096)*0.75) {
		t.Fatalf("stats header: %+v", st)
	}
	if st.NothingToCompact || len(st.Compactions) == 0 || !st.Valid {
		t.Fatalf("expected a valid compaction: %+v", st)
	}
	if st.Output.Tokens > st.InputLimit || st.Output.Tokens >= st.Input.Tokens {
		t.Fatalf("output %d tokens, input %d, limit %d", st.Output.Tokens, st.Input.Tokens, st.InputLimit)
	}
	// The keys of the stats contract (docs/formats.md) are all there.
	var raw map[string]any
	_ = json.Unmarshal([]byte(stdout), &raw)
	for _, k := range []string{"version", "input", "output", "model", "window", "input_limit", "threshold", "counter", "strategy", "compactions", "repaired", "nothing_to_compact", "valid"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("stats lack %q", k)
		}
	}
	c := raw["compactions"].([]any)[0].(map[string]any)
	for _, k := range []string{"strategy", "tokens_before", "tokens_after", "messages_before", "messages_after", "ledger_items", "demoted", "gate"} {
		if _, ok := c[k]; !ok {
			t.Errorf("compaction lacks %q", k)
		}
	}
	// The output is an Anthropic request with max_tokens, readable back.
	data, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		t.Fatal(err)
	}
	if body["max_tokens"] != float64(4096) || body["model"] == "" {
		t.Fatalf("anthropic body: max_tokens %v model %v", body["max_tokens"], body["model"])
	}
	tr, err := transcript.ReadBytes(data, transcript.Options{Format: transcript.FormatAnthropic})
	if err != nil {
		t.Fatalf("output does not read back: %v", err)
	}
	if err := condense.Validate(tr.Request.Messages); err != nil {
		t.Fatalf("output invalid: %v", err)
	}
	if !strings.Contains(string(data), "<summary checkpoint=") {
		t.Errorf("no summary in the output")
	}
}

func TestCompactNothingToCompact(t *testing.T) {
	dir := t.TempDir()
	statsPath := filepath.Join(dir, "stats.json")
	stdout, stderr, code := runCLI(t, "compact", "--to", "condense", "--stats", statsPath, testdata+"openai-chat.json", "--window", "1m")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var st Stats
	raw, _ := os.ReadFile(statsPath)
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	if !st.NothingToCompact || len(st.Compactions) != 0 || st.Output.Messages != st.Input.Messages {
		t.Fatalf("%+v", st)
	}
	doc, err := condense.ParseDocument([]byte(stdout))
	if err != nil {
		t.Fatalf("--to condense output: %v", err)
	}
	tr, _ := transcript.ReadFile(testdata+"openai-chat.json", transcript.Options{})
	if len(doc.Messages) != len(tr.Request.Messages) {
		t.Fatalf("unchanged rendering has %d messages, want %d", len(doc.Messages), len(tr.Request.Messages))
	}
}

func TestCompactCannotFit(t *testing.T) {
	_, stderr, code := runCLI(t, "compact", "--window", "2k", "--reserve", "1k", testdata+"claude-code-large.jsonl")
	if code != 1 {
		t.Fatalf("exit %d, want 1: %s", code, stderr)
	}
	if !strings.Contains(stderr, "context_window_exceeded") || !strings.Contains(stderr, "window 2,000") {
		t.Fatalf("stderr: %s", stderr)
	}
}

func TestCompactUsageErrors(t *testing.T) {
	dir := t.TempDir()
	noModel := filepath.Join(dir, "nomodel.json")
	os.WriteFile(noModel, []byte(`[{"role":"user","content":"hi"}]`), 0o644)
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte("{\"type\":\"user\",\"uuid\":\"a\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{not json\n{\"type\":\"assistant\"}\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"no file", []string{"compact"}, "one FILE"},
		{"unknown model", []string{"compact", "--model", "mystery-1", testdata + "openai-chat.json"}, "--window"},
		{"no model", []string{"compact", noModel}, "--model or --window"},
		{"bad size", []string{"compact", "--window", "12q", testdata + "openai-chat.json"}, "invalid size"},
		{"bad strategy", []string{"compact", "--strategy", "magic", "--window", "10k", testdata + "openai-chat.json"}, "unknown --strategy"},
		{"bad to", []string{"compact", "--to", "codex", "--window", "10k", testdata + "openai-chat.json"}, "output formats"},
		{"bad fraction", []string{"compact", "--fraction", "1.5", "--window", "10k", testdata + "openai-chat.json"}, "--fraction"},
		{"missing file", []string{"compact", "--window", "10k", filepath.Join(dir, "nope.json")}, "nope.json"},
		{"malformed line", []string{"compact", "--window", "10k", "--format", "claude-code", bad}, "bad.jsonl:2:"},
		{"unknown command", []string{"squash"}, "unknown command"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, stderr, code := runCLI(t, tt.args...)
			if code != 2 {
				t.Fatalf("exit %d, want 2: %s", code, stderr)
			}
			if !strings.Contains(stderr, tt.want) {
				t.Fatalf("stderr lacks %q:\n%s", tt.want, stderr)
			}
		})
	}
}

func TestCompactEveryStrategyAndFormat(t *testing.T) {
	compacted := 0
	for _, s := range strategyNames {
		for _, to := range []string{"openai", "anthropic", "condense"} {
			stdout, stderr, code := runCLI(t, "compact", "--strategy", s, "--to", to, "--window", "3k", "--reserve", "500", testdata+"claude-code.jsonl")
			if code != 0 && code != 1 || s == "pipeline" && code != 0 {
				t.Fatalf("%s → %s: exit %d: %s", s, to, code, stderr)
			}
			if code == 0 {
				f, _ := transcript.ParseFormat(to)
				tr, err := transcript.ReadBytes([]byte(stdout), transcript.Options{Format: f})
				if err != nil {
					t.Fatalf("%s → %s: output does not read back: %v", s, to, err)
				}
				if err := condense.Validate(tr.Request.Messages); err != nil {
					t.Fatalf("%s → %s: %v", s, to, err)
				}
				compacted++
			}
		}
	}
	// The default pipeline (and so at least its three runs) must fit.
	if compacted < 3 {
		t.Fatalf("only %d of %d runs fit", compacted, 3*len(strategyNames))
	}
}

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int{"32k": 32_000, "1m": 1_000_000, "1M": 1_000_000, "128000": 128_000, "1.5k": 1_500, "200_000": 200_000} {
		got, err := parseSize(in)
		if err != nil || got != want {
			t.Errorf("parseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"", "k", "-1", "12q", "1.5"} {
		if _, err := parseSize(in); err == nil {
			t.Errorf("parseSize(%q) accepted", in)
		}
	}
}

func TestCount(t *testing.T) {
	stdout, stderr, code := runCLI(t, "count", "--json", testdata+"codex-rollout.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep CountReport
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	sumRoles := rep.Overhead
	for _, n := range rep.ByRole {
		sumRoles += n
	}
	if rep.Total == 0 || sumRoles != rep.Total || rep.ByKind["tool_output"] == 0 || rep.ByKind["tool_input"] == 0 || rep.Counter.Name == "" {
		t.Fatalf("%+v (roles+overhead %d)", rep, sumRoles)
	}
	text, _, code := runCLI(t, "count", testdata+"claude-code.jsonl")
	if code != 0 || !strings.Contains(text, "by kind") || !strings.Contains(text, "tool_output") {
		t.Fatalf("text output:\n%s", text)
	}
}

func TestHelp(t *testing.T) {
	// Help asked for goes to standard output, as GNU tools do.
	for _, c := range []string{"compact", "count"} {
		stdout, stderr, code := runCLI(t, c, "--help")
		if code != 0 || !strings.Contains(stdout, "Examples:") || stderr != "" {
			t.Errorf("%s --help: exit %d\n%s%s", c, code, stdout, stderr)
		}
	}
	out, _, code := runCLI(t, "help")
	if code != 0 || !strings.Contains(out, "compact") {
		t.Errorf("help: %s", out)
	}
}

func TestCompactExitCodesAndOutputCap(t *testing.T) {
	dir := t.TempDir()
	// An output that cannot be written is bad usage, not "cannot fit".
	if _, stderr, code := runCLI(t, "compact", "-o", filepath.Join(dir, "no", "such", "dir", "x.json"), testdata+"openai-chat.json"); code != 2 {
		t.Fatalf("unwritable output: exit %d: %s", code, stderr)
	}
	if _, stderr, code := runCLI(t, "compact", "-o", filepath.Join(dir, "x.json"), "--stats", filepath.Join(dir, "x.json"), testdata+"openai-chat.json"); code != 2 || !strings.Contains(stderr, "same file") {
		t.Fatalf("same file for both: exit %d: %s", code, stderr)
	}
	for _, bad := range []string{"nank", "infk", "1e30k", "0.0001k"} {
		if _, _, code := runCLI(t, "compact", "--reserve", bad, testdata+"openai-chat.json"); code != 2 {
			t.Errorf("--reserve %s: exit %d", bad, code)
		}
	}
	if _, _, code := runCLI(t, "compact", "--fraction", "NaN", testdata+"openai-chat.json"); code != 2 {
		t.Errorf("--fraction NaN: exit %d", code)
	}
	// Compacting the output again writes the same max_tokens: the thinking
	// budget is reserved on top of it, not added to it.
	first := filepath.Join(dir, "a.json")
	second := filepath.Join(dir, "b.json")
	for _, step := range [][2]string{{testdata + "anthropic-messages.json", first}, {first, second}} {
		if _, stderr, code := runCLI(t, "compact", "-o", step[1], step[0]); code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
	}
	var a, b map[string]any
	ra, _ := os.ReadFile(first)
	rb, _ := os.ReadFile(second)
	json.Unmarshal(ra, &a)
	json.Unmarshal(rb, &b)
	if a["max_tokens"] != float64(8192) || b["max_tokens"] != float64(8192) {
		t.Fatalf("max_tokens %v then %v, want 8192 both times", a["max_tokens"], b["max_tokens"])
	}
	// The OpenAI writer carries the output cap.
	out, _, code := runCLI(t, "compact", "--reserve", "1000", testdata+"openai-chat.json")
	var o map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &o) != nil || o["max_completion_tokens"] != float64(1000) {
		t.Fatalf("openai output cap: exit %d, %v", code, o["max_completion_tokens"])
	}
}
