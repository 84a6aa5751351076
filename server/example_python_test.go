package server_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The Python example drives an agent loop through a real server and sees
// compaction happen; it runs when python3 is installed.
func TestPythonExample(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not installed")
	}
	if testing.Short() {
		t.Skip("starts a server process")
	}
	srv := startChild(t, "jsonl:"+filepath.Join(t.TempDir(), "store"), "")
	out, err := exec.Command(py, filepath.Join("..", "examples", "python", "agent_loop.py"), "--url", srv.base).CombinedOutput()
	if err != nil {
		t.Fatalf("agent_loop.py: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "compacted with") {
		t.Fatalf("the example saw no compaction:\n%s", out)
	}
	t.Logf("%s", out)
}
