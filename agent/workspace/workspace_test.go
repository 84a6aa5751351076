package workspace_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/workspace"
)

// tree builds a workspace and, beside it, a directory outside it with a
// secret the tools must never show.
func tree(t *testing.T) (root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside")
	files := map[string]string{
		"ws/README.md":               "# demo\nthe queue lives in internal/queue\n",
		"ws/internal/queue/lease.go": "package queue\n\n// Renew renews the lease every 5s.\nfunc Renew() {}\n",
		"ws/internal/queue/retry.go": "package queue\n\nfunc Backoff() {} // exponential\n",
		"ws/.git/HEAD":               "ref: refs/heads/main\n",
		"outside/secret.txt":         "TOP SECRET\n",
	}
	for name, body := range files {
		p := filepath.Join(base, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "logo.png"), []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, outside
}

func open(t *testing.T, root string, opts *workspace.Options) map[string]agent.Tool {
	t.Helper()
	ws, err := workspace.Open(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	out := map[string]agent.Tool{}
	for _, tl := range ws.Tools() {
		out[tl.Name] = tl
	}
	return out
}

func call(t *testing.T, tools map[string]agent.Tool, name string, in any) (string, error) {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	tl, ok := tools[name]
	if !ok {
		t.Fatalf("no tool %s", name)
	}
	return tl.Func(context.Background(), raw)
}

func TestReadListSearch(t *testing.T) {
	root, _ := tree(t)
	tools := open(t, root, nil)

	out, err := call(t, tools, "read_file", map[string]any{"path": "internal/queue/lease.go"})
	if err != nil || !strings.Contains(out, "     3\t// Renew renews the lease every 5s.") {
		t.Fatalf("read_file = %q, %v", out, err)
	}
	out, err = call(t, tools, "read_file", map[string]any{"path": "internal/queue/lease.go", "start_line": 3, "max_lines": 1})
	if err != nil || !strings.HasPrefix(out, "     3\t// Renew") || strings.Contains(out, "func Renew") || !strings.Contains(out, "start_line 4") {
		t.Fatalf("read_file range = %q, %v", out, err)
	}
	// An absolute path inside the workspace is its relative path.
	if out, err = call(t, tools, "read_file", map[string]any{"path": filepath.Join(root, "README.md")}); err != nil || !strings.Contains(out, "# demo") {
		t.Fatalf("read_file absolute inside = %q, %v", out, err)
	}

	out, err = call(t, tools, "list_files", map[string]any{})
	if err != nil || out != "README.md\ninternal/\nlogo.png\n" && !strings.Contains(out, "internal/") {
		t.Fatalf("list_files = %q, %v", out, err)
	}
	out, err = call(t, tools, "list_files", map[string]any{"recursive": true})
	if err != nil || !strings.Contains(out, "internal/queue/retry.go\n") || strings.Contains(out, ".git/") || strings.Contains(out, "HEAD") {
		t.Fatalf("list_files recursive = %q, %v", out, err)
	}

	out, err = call(t, tools, "search", map[string]any{"pattern": `func \w+\(`, "glob": "*.go"})
	if err != nil || !strings.Contains(out, "internal/queue/lease.go:4: func Renew() {}") || !strings.Contains(out, "internal/queue/retry.go:3: func Backoff()") {
		t.Fatalf("search = %q, %v", out, err)
	}
	out, err = call(t, tools, "search", map[string]any{"pattern": "queue", "path": "README.md"})
	if err != nil || out != "README.md:2: the queue lives in internal/queue\n" {
		t.Fatalf("search one file = %q, %v", out, err)
	}
}

// Every way out of the workspace is refused with ErrOutside, and nothing
// of the file outside is shown.
func TestEscapesRefused(t *testing.T) {
	root, outside := tree(t)
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "link.txt")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "linkdir")); err != nil {
		t.Fatal(err)
	}
	// A link that stays inside is followed.
	if err := os.Symlink("README.md", filepath.Join(root, "readme-link")); err != nil {
		t.Fatal(err)
	}
	tools := open(t, root, nil)
	cases := []struct {
		tool string
		in   map[string]any
	}{
		{"read_file", map[string]any{"path": "../outside/secret.txt"}},
		{"read_file", map[string]any{"path": "internal/../../outside/secret.txt"}},
		{"read_file", map[string]any{"path": filepath.Join(outside, "secret.txt")}},
		{"read_file", map[string]any{"path": "/etc/passwd"}},
		{"read_file", map[string]any{"path": "link.txt"}},
		{"read_file", map[string]any{"path": "linkdir/secret.txt"}},
		{"list_files", map[string]any{"path": ".."}},
		{"list_files", map[string]any{"path": "linkdir"}},
		{"search", map[string]any{"pattern": "SECRET", "path": "../outside"}},
		{"search", map[string]any{"pattern": "SECRET", "path": "linkdir"}},
		{"search", map[string]any{"pattern": "SECRET", "path": "link.txt"}},
	}
	for _, c := range cases {
		out, err := call(t, tools, c.tool, c.in)
		if !errors.Is(err, workspace.ErrOutside) {
			t.Errorf("%s %v = %q, %v; want ErrOutside", c.tool, c.in, out, err)
		}
		if p, _ := c.in["path"].(string); err != nil && !strings.HasPrefix(p, "/") && strings.Contains(err.Error(), filepath.Dir(root)) {
			t.Errorf("%s %v: the error shows the host path: %v", c.tool, c.in, err)
		}
	}
	// A search of the whole workspace does not follow the links out.
	out, err := call(t, tools, "search", map[string]any{"pattern": "SECRET"})
	if err != nil || strings.Contains(out, "SECRET") {
		t.Fatalf("search over links = %q, %v", out, err)
	}
	if out, err := call(t, tools, "read_file", map[string]any{"path": "readme-link"}); err != nil || !strings.Contains(out, "# demo") {
		t.Fatalf("a link inside = %q, %v", out, err)
	}
}

func TestToolErrors(t *testing.T) {
	root, _ := tree(t)
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte(strings.Repeat("x", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := open(t, root, &workspace.Options{MaxFileBytes: 1000})
	for _, c := range []struct {
		tool string
		in   map[string]any
		want error
	}{
		{"read_file", map[string]any{"path": "nope.go"}, workspace.ErrNotFound},
		{"read_file", map[string]any{"path": "logo.png"}, workspace.ErrBinary},
		{"read_file", map[string]any{"path": "big.txt"}, workspace.ErrTooLarge},
		{"read_file", map[string]any{"path": "internal"}, workspace.ErrIsDir},
		{"list_files", map[string]any{"path": "README.md"}, workspace.ErrNotDir},
		{"list_files", map[string]any{"path": "gone"}, workspace.ErrNotFound},
	} {
		out, err := call(t, tools, c.tool, c.in)
		if !errors.Is(err, c.want) {
			t.Errorf("%s %v = %q, %v; want %v", c.tool, c.in, out, err, c.want)
		}
	}
	// Malformed input is an error the model sees, not a panic.
	if _, err := tools["search"].Func(context.Background(), json.RawMessage(`{"pattern": "(", "path": ""}`)); err == nil || !strings.Contains(err.Error(), "pattern") {
		t.Fatalf("bad pattern: %v", err)
	}
	if _, err := tools["read_file"].Func(context.Background(), json.RawMessage(`{"path": 3}`)); err == nil {
		t.Fatal("a number as path was taken")
	}
	if _, err := tools["read_file"].Func(context.Background(), json.RawMessage(`{"file": "README.md"}`)); err == nil {
		t.Fatal("an unknown field was taken")
	}
	// A search skips the binary and too-large files and says so.
	out, err := call(t, tools, "search", map[string]any{"pattern": "x"})
	if err != nil || !strings.Contains(out, "2 binary or too-large files skipped") {
		t.Fatalf("search = %q, %v", out, err)
	}
}

func TestOutputsCapped(t *testing.T) {
	root, _ := tree(t)
	var long strings.Builder
	for i := 0; i < 5000; i++ {
		long.WriteString("a line that says match and goes on for a while\n")
	}
	if err := os.WriteFile(filepath.Join(root, "long.txt"), []byte(long.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if err := os.WriteFile(filepath.Join(root, "internal", "f"+strings.Repeat("x", i%7)+string(rune('a'+i%26))+string(rune('a'+i/26))+".txt"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	const limit = 4096
	tools := open(t, root, &workspace.Options{MaxOutputBytes: limit, MaxEntries: 20, MaxMatches: 30})

	out, err := call(t, tools, "read_file", map[string]any{"path": "long.txt"})
	if err != nil || len(out) > limit || !strings.Contains(out, "read on with start_line") {
		t.Fatalf("read_file: %d bytes, %v; tail %q", len(out), err, out[max(0, len(out)-120):])
	}
	out, err = call(t, tools, "search", map[string]any{"pattern": "match"})
	if err != nil || len(out) > limit || strings.Count(out, "long.txt:") != 30 || !strings.Contains(out, "cut at 30 matches") {
		t.Fatalf("search: %d bytes, %d matches, %v", len(out), strings.Count(out, "long.txt:"), err)
	}
	out, err = call(t, tools, "list_files", map[string]any{"recursive": true})
	if err != nil || len(out) > limit || strings.Count(out, "\n") != 21 || !strings.Contains(out, "cut at 20 entries") {
		t.Fatalf("list_files: %q, %v", out, err)
	}
}
