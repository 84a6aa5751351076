package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCompactWithOpenAISummarizer runs compact with --summarizer openai
// against a recorded Chat Completions answer served locally: the live path
// with another base URL.
func TestCompactWithOpenAISummarizer(t *testing.T) {
	body, err := os.ReadFile("../../provider/openai/testdata/chat_success.json")
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	var sawTools atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		raw, _ := io.ReadAll(r.Body)
		var req map[string]any
		json.Unmarshal(raw, &req)
		if _, ok := req["tools"]; ok {
			sawTools.Store(true)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write(body)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "test-key")
	out := filepath.Join(t.TempDir(), "out.json")
	stdout, stderr, code := runCLI(t, "compact", "--strategy", "summarize", "--summarizer", "openai", "--summarizer-model", "gpt-4o-mini",
		"--window", "128k", "-o", out, "--stats", "-", testdata+"claude-code-large.jsonl")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if calls.Load() != 1 || sawTools.Load() {
		t.Fatalf("%d summary calls (want 1), tools sent: %v", calls.Load(), sawTools.Load())
	}
	var st Stats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Compactions) != 1 || len(st.Compactions[0].Usage) != 1 || st.Compactions[0].Usage[0].Provider != "openai" || st.Compactions[0].Usage[0].InputTokens != 1500 {
		t.Fatalf("usage not recorded: %+v", st.Compactions)
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), "The agent fixed the failing test in internal/x.go.") || !strings.Contains(string(data), "## Ledger") {
		t.Fatalf("summary or ledger missing from the output")
	}
}

func TestCompactSummarizerWithoutKey(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	t.Setenv("ANTHROPIC_BASE_URL", "")
	_, stderr, code := runCLI(t, "compact", "--summarizer", "anthropic", "--window", "128k", testdata+"claude-code.jsonl")
	if code != 2 || !strings.Contains(stderr, "ANTHROPIC_API_KEY") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
}
