package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Keys in the shapes the redaction table knows, planted in transcripts:
// no output of the CLI derived from a transcript may carry them.
var plantedSecrets = []string{
	"sk-proj-" + "Qx7vT2mLp9Rk4Wz8Nc3Jd6Hs1Fb5Yg0Ue8Ai2Ko7",
	"ghp_" + "a8F3kL9mQ2xR7tV4wZ1pN6cJ0bH5dS3gY8uE",
}

// secretTranscript writes an OpenAI chat transcript whose tool outputs
// quote the planted keys in error lines, and whose last tool call, never
// answered, has a key in its id (reading repairs it with a note quoting
// the id).
func secretTranscript(t *testing.T, dir string) string {
	t.Helper()
	sk, gh := plantedSecrets[0], plantedSecrets[1]
	msgs := []map[string]any{
		{"role": "system", "content": "You are a careful engineer."},
		{"role": "user", "content": "Deploy the service and fix what fails."},
	}
	call := func(id, cmd string) map[string]any {
		return map[string]any{"role": "assistant", "content": "Running the deploy.", "tool_calls": []map[string]any{
			{"id": id, "type": "function", "function": map[string]any{"name": "run", "arguments": fmt.Sprintf(`{"cmd":%q}`, cmd)}}}}
	}
	for i := range 40 {
		id := fmt.Sprintf("call_%d", i)
		out := strings.Repeat(fmt.Sprintf("stage %d: deploy trace line\n", i), 30) +
			fmt.Sprintf("Error: authentication failed for key %s at /srv/app/config_%d.go:12\n", sk, i) +
			fmt.Sprintf("fatal: could not read from https://github.com/acme/app.git with token %s\n", gh)
		msgs = append(msgs, call(id, fmt.Sprintf("./deploy.sh --stage %d", i)),
			map[string]any{"role": "tool", "tool_call_id": id, "content": out})
	}
	msgs = append(msgs, call("call_"+sk, "./deploy.sh --stage 40"), map[string]any{"role": "user", "content": "go on"})
	b, err := json.Marshal(map[string]any{"model": "gpt-4o", "messages": msgs})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "secrets.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// badTranscript writes a transcript that cannot be read, whose error
// quotes a key (an unknown role).
func badTranscript(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "bad.json")
	body := fmt.Sprintf(`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":%q,"content":"x"}]}`, plantedSecrets[0])
	if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func assertNoSecret(t *testing.T, surface, text string) {
	t.Helper()
	for _, s := range plantedSecrets {
		if strings.Contains(text, s) {
			t.Errorf("%s carries a planted key:\n%s", surface, text)
			return
		}
	}
}

// compact's --stats, its notes on standard error and its error messages
// quote the transcript with the keys redacted.
func TestCompactRedactsSecrets(t *testing.T) {
	dir := t.TempDir()
	path := secretTranscript(t, dir)
	stdout, stderr, code := runCLI(t, "compact", "--window", "16k", "-o", filepath.Join(dir, "out.json"), "--stats", "-", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertNoSecret(t, "compact --stats", stdout)
	assertNoSecret(t, "compact's standard error", stderr)
	var st Stats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	// The surfaces do quote the transcript: the test fails for the right
	// reason when redaction is missing.
	if len(st.Notes) == 0 || !strings.Contains(st.Notes[0].Reason, "call_[REDACTED]") || !strings.Contains(stderr, "call_[REDACTED]") {
		t.Errorf("the repair note does not quote the call id redacted: %+v\n%s", st.Notes, stderr)
	}

	_, stderr, code = runCLI(t, "compact", "--window", "16k", badTranscript(t, dir))
	if code != exitUsage || !strings.Contains(stderr, `unknown role "[REDACTED]"`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
	assertNoSecret(t, "compact's error", stderr)
}

// eval's --json report (lost specifics, skipped files), its table and its
// chart carry no key.
func TestEvalRedactsSecrets(t *testing.T) {
	dir := t.TempDir()
	path := secretTranscript(t, dir)
	chart := filepath.Join(dir, "chart.svg")
	stdout, stderr, code := runCLI(t, "eval", "--window", "16k", "--json", "--chart", chart, path, badTranscript(t, dir))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertNoSecret(t, "eval --json", stdout)
	assertNoSecret(t, "eval's standard error", stderr)
	svg, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	assertNoSecret(t, "eval --chart", string(svg))
	if !strings.Contains(stdout, "Error: authentication failed for key [REDACTED]") ||
		!strings.Contains(stdout, `unknown role \"[REDACTED]\"`) {
		t.Errorf("the report lists no lost error line or skipped file, redacted:\n%s", stdout)
	}

	stdout, stderr, code = runCLI(t, "eval", "--window", "16k", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	assertNoSecret(t, "eval's table", stdout+stderr)
}

// The CLI's log lines redact their string and error values.
func TestLoggerRedactsSecrets(t *testing.T) {
	var buf bytes.Buffer
	log := logger(&buf)
	log.Warn("condense: compaction candidate refused", "err", errors.New("summary quotes key="+plantedSecrets[0]),
		"source", "token: "+plantedSecrets[1])
	if !strings.Contains(buf.String(), "compaction candidate refused") || !strings.Contains(buf.String(), "[REDACTED]") {
		t.Fatalf("log: %s", buf.String())
	}
	assertNoSecret(t, "the log", buf.String())
}
