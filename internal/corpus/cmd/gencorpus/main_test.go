package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtracted: the probes a session's ledger holds are counted per
// category, never more than there are, and never printed.
func TestExtracted(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := generate([]string{"-half", "tune", "-n", "1", "-steps", "12", "-seed", "3", "-out", dir}, &out); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	if err := extracted(&got, []string{dir}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(got.String()), "\n")
	last := strings.Fields(lines[len(lines)-1])
	if len(last) != 4 || last[0] != "all" || last[2] == "0" {
		t.Fatalf("no total line in %q", got.String())
	}
	if last[1] > last[2] && len(last[1]) >= len(last[2]) {
		t.Errorf("more probes in items than probes: %q", lines[len(lines)-1])
	}
	probes, _ := filepath.Glob(filepath.Join(dir, "*.probes.json"))
	raw, _ := os.ReadFile(probes[0])
	if strings.Contains(got.String(), `"text"`) || len(raw) == 0 {
		t.Errorf("the output shows probes: %q", got.String())
	}
	if err := extracted(&got, []string{t.TempDir()}); err == nil {
		t.Error("an empty directory gave no error")
	}
}
