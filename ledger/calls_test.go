package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// fileItems returns the rendered file items of items.
func fileItems(items []Item) []string {
	var out []string
	for _, it := range items {
		if it.Kind == KindFile {
			out = append(out, it.String())
		}
	}
	return out
}

// TestToolInputPaths: a file tool's path is kept under any common argument
// name, with the access the tool has.
func TestToolInputPaths(t *testing.T) {
	cases := []struct {
		name, tool, input string
		want              []string
	}{
		{"path", "write_file", `{"path":"src/app.ts","content":"x"}`, []string{"file src/app.ts (written)"}},
		{"file_path", "Edit", `{"file_path":"/repo/a.go","old_string":"a","new_string":"b"}`, []string{"file /repo/a.go (written)"}},
		{"filePath camel case", "edit", `{"filePath":"lib/x.rb","oldString":"a","newString":"b"}`, []string{"file lib/x.rb (written)"}},
		{"filepath", "create_file", `{"filepath":"cmd/main.go","contents":"package main"}`, []string{"file cmd/main.go (written)"}},
		{"filename", "create", `{"filename":"reproduce.py"}`, []string{"file reproduce.py (written)"}},
		{"file", "save", `{"file":"notes/todo.md","text":"x"}`, []string{"file notes/todo.md (written)"}},
		{"target_file", "edit_file", `{"target_file":"src/lib/cart.ts","instructions":"fix","code_edit":"x"}`, []string{"file src/lib/cart.ts (written)"}},
		{"target", "write", `{"target":"config/app.yaml","content":"a: 1"}`, []string{"file config/app.yaml (written)"}},
		{"dest", "write_to_file", `{"dest":"docs/guide.md","content":"x"}`, []string{"file docs/guide.md (written)"}},
		{"notebook_path", "NotebookEdit", `{"notebook_path":"/work/analysis.ipynb","new_source":"x"}`, []string{"file /work/analysis.ipynb (written)"}},
		{"paths list", "delete_files", `{"paths":["build/a.o","build/b.o"]}`, []string{"file build/a.o (written)", "file build/b.o (written)"}},
		{"files list", "write_files", `{"files":["a/x.py","a/y.py"]}`, []string{"file a/x.py (written)", "file a/y.py (written)"}},
		{"files of objects", "write_files", `{"files":[{"path":"pkg/a.go","content":"x"},{"file_path":"pkg/b.go","content":"y"}]}`, []string{"file pkg/a.go (written)", "file pkg/b.go (written)"}},
		{"edits of objects", "MultiEdit", `{"edits":[{"file_path":"pkg/c.go","old_string":"a","new_string":"b"}]}`, []string{"file pkg/c.go (written)"}},
		{"apply_diff", "apply_diff", `{"path":"src/x.py","diff":"<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE"}`, []string{"file src/x.py (written)"}},
		{"replace_in_file", "replace_in_file", `{"path":"src/y.py","diff":"x"}`, []string{"file src/y.py (written)"}},
		{"update_file", "update_file", `{"file_path":"web/index.html","content":"x"}`, []string{"file web/index.html (written)"}},
		{"read_file", "read_file", `{"path":"store.go"}`, []string{"file store.go (read)"}},
		{"Read", "Read", `{"file_path":"/home/dev/x/y.tf","offset":10,"limit":40}`, []string{"file /home/dev/x/y.tf (read)"}},
		{"open", "open", `{"path":"src/main/java/A.java","line_number":40}`, []string{"file src/main/java/A.java (read)"}},
		{"search names a directory", "Grep", `{"pattern":"TODO","path":"internal/"}`, []string{"file internal/"}},
		{"glob is a pattern", "find_file", `{"file_name":"*.java","dir":""}`, nil},
		{"glob under a dir", "Glob", `{"pattern":"**/*.sh","path":"/home/dev/infra"}`, []string{"file /home/dev/infra"}},
		{"a make target is no file", "make", `{"target":"test"}`, nil},
		{"todo list has no path", "TodoWrite", `{"todos":[{"content":"fix it","status":"pending"}]}`, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := call(tc.tool, tc.input)
			res := resultOf("ok", false)
			if got := fileItems(ExtractResult(&c, &res, 0)); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestEditorSubCommands: an editor tool that does several things is read
// by its sub-command.
func TestEditorSubCommands(t *testing.T) {
	cases := []struct {
		tool, input string
		want        []string
	}{
		{"str_replace_editor", `{"command":"create","path":"/testbed/repro.py","file_text":"print(1)"}`, []string{"file /testbed/repro.py (written)"}},
		{"str_replace_editor", `{"command":"str_replace","path":"/testbed/a.py","old_str":"a","new_str":"b"}`, []string{"file /testbed/a.py (written)"}},
		{"str_replace_editor", `{"command":"insert","path":"/testbed/a.py","insert_line":3,"new_str":"b"}`, []string{"file /testbed/a.py (written)"}},
		{"str_replace_editor", `{"command":"undo_edit","path":"/testbed/a.py"}`, []string{"file /testbed/a.py (written)"}},
		{"str_replace_editor", `{"command":"view","path":"/testbed/a.py","view_range":[1,40]}`, []string{"file /testbed/a.py (read)"}},
		{"str_replace_based_edit_tool", `{"command":"create","path":"/repo/new.go","file_text":"package x"}`, []string{"file /repo/new.go (written)"}},
		{"str_replace_based_edit_tool", `{"command":"view","path":"/repo/go.mod"}`, []string{"file /repo/go.mod (read)"}},
		{"file_editor", `{"action":"write","path":"src/a.rs","content":"x"}`, []string{"file src/a.rs (written)"}},
		{"file_tool", `{"operation":"read","path":"src/a.rs"}`, []string{"file src/a.rs (read)"}},
		// A listing through an editor touches nothing.
		{"str_replace_editor", `{"command":"list","path":"/testbed/src"}`, []string{"file /testbed/src"}},
	}
	for _, tc := range cases {
		c := call(tc.tool, tc.input)
		res := resultOf("ok", false)
		if got := fileItems(ExtractResult(&c, &res, 0)); !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: got %q, want %q", tc.tool, tc.input, got, tc.want)
		}
	}
}

// TestPatchPaths: the files of a patch are written, whatever carries it.
func TestPatchPaths(t *testing.T) {
	patch := "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+export {}\n*** Delete File: src/old.ts\n*** End Patch"
	diff := "diff --git a/pkg/x.go b/pkg/x.go\n--- a/pkg/x.go\n+++ b/pkg/x.go\n@@ -1 +1 @@\n-a\n+b\n--- a/pkg/gone.go\n+++ /dev/null\n@@ -1 +0,0 @@\n-a"
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	cases := []struct {
		name, tool, input string
		want              []string
	}{
		{"apply_patch input", "apply_patch", `{"input":` + quoted(patch) + `}`,
			[]string{"file src/a.ts (written)", "file src/b.ts (written)", "file src/old.ts (written)"}},
		{"apply_patch raw string", "apply_patch", quoted(patch),
			[]string{"file src/a.ts (written)", "file src/b.ts (written)", "file src/old.ts (written)"}},
		{"unified diff with a deletion", "patch", `{"patch":` + quoted(diff) + `}`,
			[]string{"file pkg/x.go (written)", "file pkg/gone.go (written)"}},
		{"codex argv", "shell", `{"command":["apply_patch",` + quoted(patch) + `]}`,
			[]string{"file src/a.ts (written)", "file src/b.ts (written)", "file src/old.ts (written)"}},
		{"codex heredoc", "shell", `{"command":["bash","-lc",` + quoted("apply_patch <<'EOF'\n"+patch+"\nEOF") + `],"workdir":"/repo"}`,
			[]string{"file src/a.ts (written)", "file src/b.ts (written)", "file src/old.ts (written)"}},
		{"codex heredoc after cd", "shell", `{"command":["bash","-lc",` + quoted("cd /repo && apply_patch <<'PATCH'\n"+patch+"\nPATCH") + `]}`,
			[]string{"file src/a.ts (written)", "file src/b.ts (written)", "file src/old.ts (written)"}},
		{"git apply heredoc", "bash", `{"command":` + quoted("git apply <<'EOF'\n"+diff+"\nEOF") + `}`,
			[]string{"file pkg/x.go (written)", "file pkg/gone.go (written)"}},
		{"patch -p1 heredoc", "bash", `{"command":` + quoted("patch -p1 <<EOF\n"+diff+"\nEOF") + `}`,
			[]string{"file pkg/x.go (written)", "file pkg/gone.go (written)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := call(tc.tool, tc.input)
			res := resultOf("Done!", false)
			if got := fileItems(ExtractResult(&c, &res, 0)); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestShellFiles: what a shell command reads, writes and names.
func TestShellFiles(t *testing.T) {
	cases := []struct {
		cmd  string
		want []fileUse
	}{
		{"cat internal/x.go", []fileUse{{"internal/x.go", Read}}},
		{"nl -ba crates/core/src/fold.rs | sed -n '1,233p'", []fileUse{{"crates/core/src/fold.rs", Read}}},
		{"sed -n '25,50p' money/money.go", []fileUse{{"money/money.go", Read}}},
		{"sed -i 's/%d/%s/' parser/parse.go && go vet ./parser/...", []fileUse{{"parser/parse.go", Written}}},
		{"sed -i.bak -e 's/a/b/' conf/app.ini", []fileUse{{"conf/app.ini", Written}}},
		{"perl -pi -e 's/a/b/' lib/A.pm", []fileUse{{"lib/A.pm", Written}}},
		{"echo 'x = 1' > settings.py", []fileUse{{"settings.py", Written}}},
		{"printf '%s\\n' a >> logs/run.log", []fileUse{{"logs/run.log", Written}}},
		{"go test ./... 2>&1 | tee out/test.log", []fileUse{{"out/test.log", Written}}},
		{"go build ./... > /dev/null 2>&1", nil},
		{"make 2> build/err.txt", []fileUse{{"build/err.txt", Written}}},
		{"cp config/app.example.yaml config/app.yaml", []fileUse{{"config/app.example.yaml", Mentioned}, {"config/app.yaml", Written}}},
		{"mv -f tmp/out.json data/out.json", []fileUse{{"tmp/out.json", Mentioned}, {"data/out.json", Written}}},
		{"touch pkg/doc.go", []fileUse{{"pkg/doc.go", Written}}},
		{"grep -n 'func Set' store/store.go", []fileUse{{"store/store.go", Mentioned}}},
		{"python3 etl/run.py --input data/in.csv", []fileUse{{"etl/run.py", Mentioned}, {"data/in.csv", Mentioned}}},
		{"cat <<'EOF' > crates/core/tests/fold.rs\nuse crate::x;\nfn main() { let a = \"b/c.rs\"; }\nEOF", []fileUse{{"crates/core/tests/fold.rs", Written}}},
		{"cat > src/a.ts << EOF\nexport const a = 1 // see lib/b.ts\nEOF\nnpx tsc", []fileUse{{"src/a.ts", Written}}},
		{"python3 - <<'EOF'\nimport pathlib\np = pathlib.Path(\"crates/core/src/scope.rs\")\ns = p.read_text()\np.write_text(s.replace('a', 'b'))\nEOF", []fileUse{{"crates/core/src/scope.rs", Written}}},
		{"python - <<EOF\nwith open('app/models.py') as f:\n    src = f.read()\nwith open('app/models.py', 'w') as f:\n    f.write(src)\nEOF", []fileUse{{"app/models.py", Written}}},
		{"python3 - <<'EOF'\nprint(open('data/rows.csv').read()[:200])\nEOF", []fileUse{{"data/rows.csv", Read}}},
		{"bash <<'EOF'\nsed -i 's/a/b/' lib/x.sh\nEOF", []fileUse{{"lib/x.sh", Written}}},
		{"cd /repo && \\\n  sed -i 's/a/b/' web/app.js", []fileUse{{"web/app.js", Written}}},
		{"cat x.txt <<< 'here string' # comment > not/a/file.txt", []fileUse{{"x.txt", Read}}},
	}
	for _, tc := range cases {
		if got := scriptFiles(tc.cmd); !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got  %v\n want %v", tc.cmd, got, tc.want)
		}
	}
}

// TestOpenFileEdits: SWE-agent's edit and insert commands change the open
// file without naming it; the file is taken from the open command before,
// the observation's footer, or the edit's own output.
func TestOpenFileEdits(t *testing.T) {
	text := func(role condense.Role, s string) condense.Message {
		return condense.Message{Role: role, Parts: []condense.Part{condense.Text(s)}}
	}
	// SWE-agent acting in text.
	msgs := []condense.Message{
		text(condense.RoleUser, "Fix the missing colon."),
		text(condense.RoleAssistant, "The file is in tests. Let's open it.\n\n```\nopen tests/missing_colon.py\n```"),
		text(condense.RoleUser, "[File: /repo/tests/missing_colon.py (10 lines total)]\n1:def division(a, b)\n(Open file: /repo/tests/missing_colon.py)\n(Current directory: /repo)\nbash-$"),
		text(condense.RoleAssistant, "Let's add the missing colon.\n\n```\nedit 4:4\ndef division(a: float, b: float) -> float:\nend_of_edit\n```"),
		text(condense.RoleUser, "File updated.\n(Open file: /repo/tests/missing_colon.py)\nbash-$"),
		text(condense.RoleAssistant, "Now a reproduction script.\n\n```\ncreate reproduce.py\n```"),
		text(condense.RoleAssistant, "```\ninsert 1\nprint(1)\nend_of_insert\n```"),
	}
	got := fileItems(Extract(msgs, 0))
	want := []string{"file tests/missing_colon.py (read)", "file /repo/tests/missing_colon.py (written)", "file reproduce.py (written)"}
	if !slices.Equal(got, want) {
		t.Errorf("text actions:\n got  %q\n want %q", got, want)
	}

	// SWE-agent with function calls: edit names no file.
	fc := []condense.Message{
		text(condense.RoleUser, "Fix TimeDelta rounding."),
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c1", "open", json.RawMessage(`{"path":"src/marshmallow/fields.py","line_number":1474}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", false, condense.Text("[File: /testbed/src/marshmallow/fields.py (1997 lines total)]\n1474: return int(x)"))}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c2", "edit", json.RawMessage(`{"replacement_text":"return int(round(x))","start_line":1475,"end_line":1475}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c2", false, condense.Text("1475: return int(round(x))"))}},
	}
	got = fileItems(Extract(fc, 0))
	want = []string{"file src/marshmallow/fields.py (read)", "file /testbed/src/marshmallow/fields.py (written)"}
	if !slices.Equal(got, want) {
		t.Errorf("function calls:\n got  %q\n want %q", got, want)
	}

	// One result alone: the edit's output shows the file.
	c := call("edit", `{"replacement_text":"x","start_line":3,"end_line":3}`)
	res := resultOf("[File: /testbed/reproduce.py (9 lines total)]\n3: x\nFile updated.", false)
	if got := fileItems(ExtractResult(&c, &res, 0)); !slices.Equal(got, []string{"file /testbed/reproduce.py (written)"}) {
		t.Errorf("edit result: got %q", got)
	}
	// Without an open file an edit writes nothing it can name.
	res = resultOf("File updated.", false)
	if got := fileItems(ExtractResult(&c, &res, 0)); got != nil {
		t.Errorf("edit without a file: got %q", got)
	}
}

// TestTextActions: agents that act in text (mini-swe-agent) have their
// shell block read for files; prose code blocks and replies with tool
// calls are not actions.
func TestTextActions(t *testing.T) {
	cases := []struct {
		name, text string
		calls      bool
		want       []string
	}{
		{"heredoc write", "THOUGHT: add a test.\n\n```bash\ncat <<'EOF' > crates/core/tests/check.rs\nfn t() {}\nEOF\n```", false,
			[]string{"file crates/core/tests/check.rs (written)"}},
		{"mini-swe-agent label", "THOUGHT: fix it.\n\n```mswea_bash_command\nsed -i 's/a/b/' src/lib.rs\n```", false,
			[]string{"file src/lib.rs (written)"}},
		{"read", "THOUGHT: look.\n\n```bash\nnl -ba src/parser.rs | sed -n '1,80p'\n```", false,
			[]string{"file src/parser.rs (read)"}},
		{"a python example is not an action", "Use this:\n\n```python\nopen('out/x.txt', 'w').write('a')\n```", false,
			[]string{"file out/x.txt"}},
		{"a block before more prose is not an action", "Run:\n\n```bash\necho a > out/y.txt\n```\nthen tell me.", false,
			[]string{"file out/y.txt"}},
		{"a reply with tool calls", "```bash\necho a > out/z.txt\n```", true,
			[]string{"file out/z.txt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := condense.AssistantText(tc.text)
			if tc.calls {
				m.Parts = append(m.Parts, condense.ToolCall("c1", "bash", json.RawMessage(`{"command":"ls"}`)))
			}
			if got := fileItems(ExtractMessage(&m, 1)); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// what an action's heredoc writes into a file that runs it
	m := condense.AssistantText("We add a repro entry.\n\n```\ncat > Procfile.repro <<'EOF'\nweb: make run\nrepro: cargo bloat --release -p core --crates -n 40\nEOF\n```")
	if got := Strings(ExtractMessage(&m, 1)); !slices.Contains(got, `command "cargo bloat --release -p core --crates -n 40"`) {
		t.Errorf("the Procfile's entry is not a command in %q", got)
	}
}

// TestDecisionInCallInput: a decision the assistant wrote into a tool
// call (a think tool's thought, a finish tool's message, notes or a
// decision record it writes) is read as its prose; a source file's body, a
// README and a search query are not.
func TestDecisionInCallInput(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		want        bool
	}{
		{"think", `{"thought":"We'll use optimistic locking instead of SELECT FOR UPDATE; the row locks deadlock under load."}`, true},
		{"finish", `{"message":"Done. I went with a partial unique index rather than validation in the serializer."}`, true},
		// notes and decision records the agent writes record the work,
		// and so does a comment it writes stating a choice; a README
		// documents the code for its users, and a comment an edit only
		// carries along was written before
		{"str_replace_based_edit_tool", `{"command":"create","path":"/src/notes.md","file_text":"We'll use optimistic locking instead of SELECT FOR UPDATE."}`, true},
		{"Write", `{"file_path":"/src/docs/adr/0004-locking.md","content":"# 4. Locking\n\n## Decision\n\nOptimistic locking with a version column on orders.\n"}`, true},
		{"str_replace_based_edit_tool", `{"command":"create","path":"/src/README.md","file_text":"Use optimistic locking instead of SELECT FOR UPDATE when you extend the orders API."}`, false},
		{"Write", `{"file_path":"/src/orders/lock.go","content":"// We use optimistic locking instead of SELECT FOR UPDATE.\npackage orders\n"}`, true},
		{"Edit", `{"file_path":"/src/orders/lock.go","old_string":"// We use optimistic locking instead of SELECT FOR UPDATE.\nfunc lock() {}","new_string":"// We use optimistic locking instead of SELECT FOR UPDATE.\nfunc lock() error { return nil }"}`, false},
		{"Write", `{"file_path":"/src/orders/lock.go","content":"// Lock takes the order's row lock and returns the version it read.\npackage orders\n"}`, false},
		{"web_search", `{"query":"should we use optimistic locking instead of select for update"}`, false},
	} {
		c := condense.ToolCall("c1", tc.name, []byte(tc.input))
		items := ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{c}}, 1)
		got := slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision })
		if got != tc.want {
			t.Errorf("%s %s: decision = %v, want %v (%q)", tc.name, tc.input, got, tc.want, Strings(items))
		}
	}
}

// TestStepsWrittenIntoFiles: the commands an agent writes into a CI
// workflow, a Dockerfile or a Makefile are commands; the other keys and
// lines of those files are not.
func TestStepsWrittenIntoFiles(t *testing.T) {
	for _, tc := range []struct {
		name, input string
		want, not   []string
	}{
		{"replace_in_file", `{"filename":".github/workflows/ci.yml","find":"      - run: npm test","replace":"      - run: npm test\n      - name: Reproduce the fan-out\n        run: |\n          node --cpu-prof --cpu-prof-dir=/tmp/prof-1 dist/session.js\n          npx tsc --noEmit"}`,
			[]string{"node --cpu-prof --cpu-prof-dir=/tmp/prof-1 dist/session.js", "npx tsc --noEmit"}, []string{"Reproduce the fan-out"}},
		{"Write", `{"file_path":"/w/.gitlab-ci.yml","content":"test:\n  image: golang:1.26\n  script:\n    - go vet ./...\n    - go test -race -count=1 ./internal/ledger/...\n"}`,
			[]string{"go test -race -count=1 ./internal/ledger/...", "go vet ./..."}, []string{"golang:1.26"}},
		{"apply_patch", `{"input":"*** Begin Patch\n*** Update File: .github/workflows/ci.yml\n@@\n-      - run: mvn -q test\n+      - run: mvn -q test\n+      - name: Reproduce\n+        run: |\n+          ./gradlew test --tests 'com.acme.ExportWriter' -Dspring.profiles.active=it-4 --info\n*** End Patch\n"}`,
			[]string{"./gradlew test --tests 'com.acme.ExportWriter' -Dspring.profiles.active=it-4 --info"}, []string{"Reproduce"}},
		{"create_file", `{"filename":"scripts/repro.sh","text":"#!/usr/bin/env bash\n# Reproduces the leak.\nset -euo pipefail\ncd \"$(git rev-parse --show-toplevel)\"\n\nvalgrind --tool=massif --massif-out-file=/tmp/massif.1 target/release/app --limit 8000\n"}`,
			[]string{"valgrind --tool=massif --massif-out-file=/tmp/massif.1 target/release/app --limit 8000"}, []string{"set -euo pipefail", "Reproduces"}},
		{"Write", `{"file_path":"/w/Dockerfile","content":"FROM python:3.12-slim\nRUN pip install --no-cache-dir -r requirements.txt\nCOPY . /app\n"}`,
			[]string{"pip install --no-cache-dir -r requirements.txt"}, []string{"COPY . /app"}},
		{"Edit", `{"file_path":"/w/Makefile","old_string":"x","new_string":"bench:\n\tgo test -run '^$$' -bench BenchmarkExtract -benchmem ./ledger\n"}`,
			[]string{"go test -run '^$$' -bench BenchmarkExtract -benchmem ./ledger"}, nil},
		// a document's shell blocks and prompts, not its other code
		{"Write", `{"file_path":"/w/README.md","content":"# Setup\n\n` + "```bash" + `\n# create the schema\nmake migrate-up DB=ledger_test\n` + "```" + `\n\nThen:\n\n` + "```" + `\n$ ./bin/ledgerd --config dev.toml\n` + "```" + `\n\n` + "```go" + `\nfmt.Println(1)\n` + "```" + `\n"}`,
			[]string{"make migrate-up DB=ledger_test", "./bin/ledgerd --config dev.toml"}, []string{"create the schema", "Println"}},
		// the scripts and jobs of other files that say what runs
		{"Write", `{"file_path":"/w/package.json","content":"{\"name\":\"api\",\"scripts\":{\"test\":\"jest --runInBand --detectOpenHandles\",\"build\":\"tsc -p tsconfig.build.json\"}}"}`,
			[]string{"jest --runInBand --detectOpenHandles", "tsc -p tsconfig.build.json"}, []string{"api"}},
		{"Write", `{"file_path":"/w/Procfile","content":"web: gunicorn app.wsgi --workers 4\nworker: celery -A app worker -l info\n"}`,
			[]string{"gunicorn app.wsgi --workers 4", "celery -A app worker -l info"}, []string{"web:"}},
		{"Write", `{"file_path":"/w/Procfile.dev","content":"web: make run\nrepro: sudo tc -s qdisc show dev eth1\n"}`,
			[]string{"sudo tc -s qdisc show dev eth1", "make run"}, nil},
		{"Write", `{"file_path":"/w/lefthook.yml","content":"pre-push:\n  commands:\n    repro:\n      run: |\n        spotbugs -textui -effort:max build/classes | grep OrderMapper\n"}`,
			[]string{"spotbugs -textui -effort:max build/classes | grep OrderMapper"}, nil},
		{"Write", `{"file_path":"/w/deploy/ledger.service","content":"[Service]\nExecStartPre=/usr/bin/ledgerd migrate --up\nExecStart=/usr/bin/ledgerd serve --port 8080\nRestart=always\n"}`,
			[]string{"/usr/bin/ledgerd migrate --up", "/usr/bin/ledgerd serve --port 8080"}, []string{"always"}},
		{"Write", `{"file_path":"/w/ops/backup.cron","content":"# nightly\n15 2 * * * /usr/local/bin/pg_dump_all.sh --gzip\n"}`,
			[]string{"/usr/local/bin/pg_dump_all.sh --gzip"}, []string{"nightly"}},
		{"Write", `{"file_path":"/w/tox.ini","content":"[testenv]\nenvlist = py311\ncommands =\n    pytest -x tests/unit\n    mypy src\n"}`,
			[]string{"pytest -x tests/unit", "mypy src"}, []string{"py311"}},
		{"Write", `{"file_path":"/w/composer.json","content":"{\"scripts\":{\"demo-reset\":[\"@php artisan migrate:fresh --seed --force\"],\"lint\":\"phpstan analyse --memory-limit=1G\"}}"}`,
			[]string{"php artisan migrate:fresh --seed --force", "phpstan analyse --memory-limit=1G"}, []string{"demo-reset"}},
		{"Write", `{"file_path":"/w/fly.toml","content":"app = \"shop\"\n[deploy]\n  release_command = \"npx drizzle-kit migrate\"\n"}`,
			[]string{"npx drizzle-kit migrate"}, []string{"shop"}},
		{"Write", `{"file_path":"/w/.pre-commit-config.yaml","content":"repos:\n  - repo: local\n    hooks:\n      - id: migrations\n        name: no missing migrations\n        entry: python manage.py makemigrations --check --dry-run\n        language: system\n"}`,
			[]string{"python manage.py makemigrations --check --dry-run"}, []string{"no missing migrations"}},
		{"Write", `{"file_path":"/w/Makefile","content":"build:\n\t$(GO) build \\\n\t  -o bin/app ./cmd/app\n"}`,
			[]string{"$(GO) build -o bin/app ./cmd/app"}, nil},
		{"Write", `{"file_path":"/w/composer.json","content":"{\"name\":\"acme/app\",\"description\":\"php artisan app\"}"}`,
			nil, []string{"php artisan app"}},
		{"Write", `{"file_path":"/w/netlify.toml","content":"[build]\n  publish = \"public\"\n  command = \"hugo --gc --minify -b $URL\"\n[build.environment]\n  HUGO_VERSION = \"0.125.7\"\n"}`,
			[]string{"hugo --gc --minify -b $URL"}, []string{"public", "0.125.7"}},
		{"Write", `{"file_path":"/w/pyproject.toml","content":"[project]\nname = \"kiln\"\n[tool.pdm.scripts]\nstart = \"flask --app kiln run -p 54321\"\n"}`,
			[]string{"flask --app kiln run -p 54321"}, []string{"kiln\""}},
		{"Write", `{"file_path":"/w/Makefile","content":"GO ?= go\ntest-integration:\n\tLEDGER_DB_URL=postgres://localhost/t \\\n\t\t$(GO) test -tags=integration -p 1 ./internal/store/...\n"}`,
			[]string{"LEDGER_DB_URL=postgres://localhost/t $(GO) test -tags=integration -p 1 ./internal/store/..."}, nil},
	} {
		c := condense.ToolCall("c1", tc.name, []byte(tc.input))
		items := ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{c}}, 1)
		for _, w := range tc.want {
			if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindCommand && it.Value == w }) {
				t.Errorf("%s: no command %q in %q", tc.input, w, Strings(items))
			}
		}
		for _, w := range tc.not {
			if slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindCommand && strings.Contains(it.Value, w) }) {
				t.Errorf("%s: command holding %q in %q", tc.input, w, Strings(items))
			}
		}
	}
}

// TestStepsOfFilesRead: the commands of a file the agent reads — a CI
// workflow's steps, a README's indented block and code spans, a Taskfile's
// cmds — are kept, up to maxReadSteps per file; a source file's lines are
// not commands.
func TestStepsOfFilesRead(t *testing.T) {
	cmds := func(input, out string) []string { return kindOf(KindCommand, "bash", input, out) }
	cases := []struct {
		input, out string
		want       []string
	}{
		{`{"command":"cat .github/workflows/ci.yml"}`,
			"jobs:\n  test:\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm ci\n      - run: npx vitest run --reporter=junit --outputFile=reports/junit.xml\n",
			[]string{"npx vitest run --reporter=junit --outputFile=reports/junit.xml"}},
		{`{"command":"cat CONTRIBUTING.md"}`,
			"3. Make sure this passes:\n\n       pnpm lint && pnpm typecheck && pnpm test -- --run\n\n4. Restore: `pg_restore -d orders_restore --clean /tmp/orders.dump`\n",
			[]string{"pnpm lint && pnpm typecheck && pnpm test -- --run", "pg_restore -d orders_restore --clean /tmp/orders.dump"}},
		{`{"command":"cat Taskfile.yml"}`,
			"tasks:\n  e2e:\n    cmds:\n      - go test -tags e2e -v ./e2e/... -args -gateway-url=http://localhost:8088\n",
			[]string{"go test -tags e2e -v ./e2e/... -args -gateway-url=http://localhost:8088"}},
		// CircleCI's run step with its keys, Drone's commands list
		{`{"command":"cat .circleci/config.yml"}`,
			"jobs:\n  test:\n    steps:\n      - checkout\n      - run:\n          name: Unit tests (api)\n          command: yarn jest --ci --shard=$((CIRCLE_NODE_INDEX+1))/$CIRCLE_NODE_TOTAL\n      - store_test_results:\n          path: reports/junit\n",
			[]string{"yarn jest --ci --shard=$((CIRCLE_NODE_INDEX+1))/$CIRCLE_NODE_TOTAL"}},
		{`{"command":"cat .drone.yml"}`,
			"steps:\n  - name: test\n    image: mcr.microsoft.com/dotnet/sdk:8.0\n    commands:\n      - dotnet test Shop.sln --no-restore --logger trx\n  - name: publish\n    settings:\n      repo: registry.acme.io/shop-api\n",
			[]string{"dotnet test Shop.sln --no-restore --logger trx"}},
	}
	for _, c := range cases {
		got := cmds(c.input, c.out)
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: %q missing from %q", c.input, w, got)
			}
		}
	}
	if got := cmds(`{"command":"cat cmd/main.go"}`, "package main\n\nfunc main() {\n\t// run: go test ./...\n}\n"); len(got) != 1 {
		t.Errorf("a source file's lines read as commands: %q", got)
	}
	var script strings.Builder
	script.WriteString("#!/bin/sh\n")
	for i := range 20 {
		fmt.Fprintf(&script, "psql -d app -c 'VACUUM t%d'\n", i)
	}
	if got := cmds(`{"command":"cat scripts/vacuum.sh"}`, script.String()); len(got) != 1+maxReadSteps {
		t.Errorf("a long script gave %d commands, want the call's and %d", len(got), maxReadSteps)
	}
}
