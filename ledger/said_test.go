package ledger

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/condense-dev/condense"
)

func TestSaid(t *testing.T) {
	call := func(name string, in any) *condense.Part {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		p := condense.ToolCall("c1", name, b)
		return &p
	}
	for _, c := range []struct {
		name string
		p    *condense.Part
		want []string
	}{
		{"think tool", call("think", map[string]any{"thought": "The lock is held across the write; moving the write out is the smallest fix."}),
			[]string{"The lock is held across the write; moving the write out is the smallest fix."}},
		{"note written whole", call("create_file", map[string]any{"path": "NOTES.md", "content": "Going with the ring buffer."}),
			[]string{"Going with the ring buffer."}},
		{"code written: its comments only", call("create_file", map[string]any{"path": "src/ring.go", "content": "package ring\n\n// The ring stays small on purpose: it must fit in L2.\nconst size = 512\n"}),
			[]string{"The ring stays small on purpose: it must fit in L2."}},
		{"an edit: not the text it replaces", call("str_replace_editor", map[string]any{"command": "str_replace", "path": "NOTES.md",
			"old_str": "Maybe the array is fine.", "new_str": "Maybe the array is fine.\nNo: one slow reader grows it forever."}),
			[]string{"No: one slow reader grows it forever."}},
		{"an edit of code under keys of its own", call("edit_file", map[string]any{"path": "store.go",
			"old": "if !ok || e.expires.Before(s.now()) {", "new": "// equal times count as expired\nif !ok || !s.now().Before(e.expires) {",
			"reason": "Before is false for equal times, so the entry lived one tick too long."}),
			[]string{"equal times count as expired", "Before is false for equal times, so the entry lived one tick too long."}},
		{"a message to post", call("jira_add_comment", map[string]any{"issue": "PAY-1", "comment": "Moving the export to keyset pages; OFFSET rescans the table."}),
			[]string{"Moving the export to keyset pages; OFFSET rescans the table."}},
		{"an argv", call("exec", map[string]any{"argv": []any{"kubectl", "rollout", "status", "deploy/api"}, "timeout": 30}),
			[]string{"kubectl rollout status deploy/api"}},
		{"nested", call("slack_post", map[string]any{"message": map[string]any{"channel": "ops", "text": "Rolling back 2.14: p99 doubled."}}),
			[]string{"Rolling back 2.14: p99 doubled."}},
		{"short values only", call("read_file", map[string]any{"path": "src/ring.go", "offset": 10, "mode": "text only"}), nil},
		{"commit message", call("bash", map[string]any{"command": "git commit -m 'Bound the backlog: one slow reader exhausted memory'"}),
			[]string{"Bound the backlog: one slow reader exhausted memory"}},
		{"heredoc into a decision record", call("bash", map[string]any{"command": "cat > docs/adr/0007-ring.md <<'EOF'\nChosen: the ring.\nEOF"}),
			[]string{"Chosen: the ring."}},
		{"a command that only runs", call("bash", map[string]any{"command": "go test ./... -run TestRing"}), nil},
		{"a command laid out over lines", call("bash", map[string]any{"command": "docker run --rm \\\n  -e MODE=replay \\\n  ghcr.io/acme/replayer:2.3"}),
			[]string{"docker run --rm \\\n  -e MODE=replay \\\n  ghcr.io/acme/replayer:2.3"}},
		{"a heredoc script", call("bash", map[string]any{"command": "cat > run.sh <<'EOF'\nset -e\ngo test ./...\nEOF"}), nil},
		{"a sentence passed to a command", call("bash", map[string]any{"command": "echo '- Bounded the backlog to 512 frames: the array grew forever.' >> CHANGELOG.md"}),
			[]string{"Bounded the backlog to 512 frames: the array grew forever."}},
		{"patch to a note", call("apply_patch", map[string]any{"input": "*** Begin Patch\n*** Update File: NOTES.md\n@@\n+Dropped the array: it grows forever.\n*** End Patch"}),
			[]string{"Dropped the array: it grows forever."}},
		{"secret redacted", call("think", map[string]any{"thought": "The DSN postgres://app:s3cretpass@db/orders works from the pod."}),
			[]string{"The DSN postgres://app:[REDACTED]@db/orders works from the pod."}},
		{"a secret under its key", call("login", map[string]any{"user": "ops", "password": "correct horse battery staple"}), nil},
		{"a secret in a nested env", call("run_job", map[string]any{"env": map[string]any{"DB_PASSWORD": "tall purple monkey dishwasher"}}), nil},
		{"code, a query, a pattern", call("python", map[string]any{"code": "import os\nprint(os.getcwd())", "query": "SELECT id FROM orders WHERE total > 10", "pattern": "func .* Handle"}), nil},
		{"a requirements list", call("create_file", map[string]any{"path": "requirements.txt", "content": "fastapi==0.115.0\nuvicorn[standard] >= 0.30"}), nil},
		{"a licence", call("create_file", map[string]any{"path": "LICENSE.txt", "content": "Permission is hereby granted, free of charge"}), nil},
		{"not a call", &condense.Part{Type: condense.PartText, Text: "Going with the ring."}, nil},
	} {
		if got := Said(c.p); !slices.Equal(got, c.want) {
			t.Errorf("%s: Said = %q, want %q", c.name, got, c.want)
		}
	}
	if got := SaidIn("bash\ngit commit -m 'Count dropped frames for the alert'\n"); !slices.Equal(got, []string{"Count dropped frames for the alert"}) {
		t.Errorf("SaidIn = %q", got)
	}
	if got := SaidIn("python\nprint('hello there, world')\n"); got != nil {
		t.Errorf("SaidIn of code = %q", got)
	}
}
