package main

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense/transcript"
)

// TestPublicTranscripts compacts every transcript under the directory
// CONDENSE_PUBLIC_TRANSCRIPTS names (a collection of real transcripts from
// other people's agents; transcript/testdata/README.md lists ours) with the
// defaults and --window 32k, and checks that each exits 0 with output the
// provider accepts as it is, then reads back. Exit 1 is accepted only when
// the newest turn alone cannot fit. Files named *.md, dot files and files a
// line of the directory's EXPECTED file names ("name: reason") are skipped.
// Without the variable the test is skipped.
func TestPublicTranscripts(t *testing.T) {
	dir := os.Getenv("CONDENSE_PUBLIC_TRANSCRIPTS")
	if dir == "" {
		t.Skip("CONDENSE_PUBLIC_TRANSCRIPTS is not set")
	}
	expected := map[string]string{}
	if b, err := os.ReadFile(filepath.Join(dir, "EXPECTED")); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if name, why, ok := strings.Cut(line, ": "); ok {
				expected[strings.TrimSpace(name)] = why
			}
		}
	}
	n := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasPrefix(d.Name(), ".") || strings.HasSuffix(d.Name(), ".md") || d.Name() == "EXPECTED" {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if why, ok := expected[rel]; ok {
			t.Logf("skipped %s: %s", rel, why)
			return nil
		}
		n++
		t.Run(rel, func(t *testing.T) {
			for _, to := range []string{"", "condense"} {
				out := filepath.Join(t.TempDir(), "out.json")
				args := []string{"compact", "--window", "32k", "-o", out, "--stats", "-", path}
				if to != "" {
					args = append(args, "--to", to)
				}
				stdout, stderr, code := runCLI(t, args...)
				if code == exitCannotFit && strings.Contains(stderr, "newest") {
					t.Skipf("the newest turn alone cannot fit: %s", firstLine(stderr))
				}
				if code != 0 {
					t.Fatalf("exit %d: %s", code, firstLine(stderr))
				}
				var st Stats
				if err := json.Unmarshal([]byte(stdout), &st); err != nil {
					t.Fatal(err)
				}
				if !st.Valid {
					t.Errorf("--to %s: not valid: %v", st.Output.Format, st.Violations)
				}
				if _, err := transcript.ReadFile(out, transcript.Options{}); err != nil {
					t.Errorf("--to %s: the output does not read back: %v", st.Output.Format, err)
				}
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d transcripts", n)
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
