package transcript

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/gen"
)

var update = flag.Bool("update", false, "rewrite testdata/claude-code-large.jsonl")

const largeSample = "claude-code-large.jsonl"

// TestLargeSample checks that the committed large sample is what the
// generator writes (run with -update to rewrite it) and that it reads as a
// long, valid session over a 128k-token window.
func TestLargeSample(t *testing.T) {
	var buf bytes.Buffer
	if err := gen.ClaudeCode(&buf); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", largeSample)
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(data, buf.Bytes()) {
		t.Fatalf("%s is stale: run go generate ./transcript", path)
	}
	if len(data) < 600_000 || len(data) > 3_000_000 {
		t.Errorf("size %d, want 600 KB to 3 MB", len(data))
	}
	tr, err := ReadBytes(data, Options{Name: path})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeCode || tr.Repaired != 0 || tr.Checkpoint != nil {
		t.Errorf("format %s, repaired %d, checkpoint %v", tr.Format, tr.Repaired, tr.Checkpoint)
	}
	if err := condense.Validate(tr.Request.Messages); err != nil {
		t.Fatal(err)
	}
	chars := 0
	for _, m := range tr.Request.Messages {
		for _, p := range m.Parts {
			chars += len(p.Text) + len(p.Input)
			for _, c := range p.Content {
				chars += len(c.Text)
			}
		}
	}
	// At 4 characters per token (an under-estimate for Claude) this is
	// still well over 128k tokens.
	if chars < 4*128_000 {
		t.Errorf("only %d characters of content", chars)
	}
	t.Logf("%d bytes, %d messages, %d characters of content", len(data), len(tr.Request.Messages), chars)
}
