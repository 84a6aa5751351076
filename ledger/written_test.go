package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// calledItems returns the items of one call of tool with input in.
func calledItems(t *testing.T, tool string, in any) []Item {
	t.Helper()
	raw, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	c := condense.ToolCall("c1", tool, raw)
	return ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{c}}, 2)
}

// TestCommandsInWrittenFiles: what a written file will run, or tells its
// reader to run, is a command whatever the file's format and the tool's
// shape: a comment's command, a crontab's entry, a TOML alias, a RUN past
// its options, the lines of a text runbook, a multi-edit's or a sketch
// edit's or a SEARCH/REPLACE diff's new lines; a source file's code and
// prose lines are not.
func TestCommandsInWrittenFiles(t *testing.T) {
	for _, tc := range []struct {
		tool string
		in   any
		want string
	}{
		{"Write", map[string]string{"file_path": "/srv/app/.pre-commit-config.yaml", "content": "repos:\n  - repo: local\n    hooks:\n      - id: migra\n  # slow, so manual only; after touching db/ run:\n  #   pre-commit run migra-diff --all-files --hook-stage manual\n"},
			"pre-commit run migra-diff --all-files --hook-stage manual"},
		{"create_file", map[string]string{"path": "/etc/cron.d/reports", "text": "# nightly export\n15 3 * * 1-5 deploy cd /srv/reports && bundle exec rake exports:nightly >> /var/log/exports.log 2>&1\n"},
			"bundle exec rake exports:nightly"},
		{"Write", map[string]string{"file_path": "/work/ship/.cargo/config.toml", "content": "[alias]\nci-test = \"nextest run --workspace --profile ci\"\n\n[env]\nRUST_LOG = \"info\"\n# release builds for the gateway boxes:\n#   cargo zigbuild --release --target x86_64-unknown-linux-gnu.2.17 -p gatewayd\n"},
			"cargo zigbuild --release --target x86_64-unknown-linux-gnu.2.17 -p gatewayd"},
		{"Write", map[string]string{"file_path": "/app/Dockerfile", "content": "FROM python:3.12-slim\nCOPY uv.lock pyproject.toml ./\nRUN --mount=type=cache,target=/root/.cache/uv \\\n    uv sync --frozen --no-dev --no-install-project\n"},
			"uv sync --frozen --no-dev --no-install-project"},
		{"write_to_file", map[string]string{"path": "/ops/runbooks/queue.txt", "content": "QUEUE RUNBOOK\n\nWhen the dead-letter queue grows past 10k, drain it into S3 first:\n\naws sqs receive-message --queue-url https://sqs.eu-west-1.amazonaws.com/1234/orders-dlq --max-number-of-messages 10\n\nThen page the owning team.\n"},
			"aws sqs receive-message --queue-url https://sqs.eu-west-1.amazonaws.com/1234/orders-dlq --max-number-of-messages 10"},
		{"MultiEdit", map[string]any{"file_path": "/repo/.github/workflows/ci.yml", "edits": []map[string]string{
			{"old_string": "      - run: go test ./...", "new_string": "      - run: go test -race -count=1 -shuffle=on ./..."},
			{"old_string": "      - run: go vet ./...", "new_string": "      - run: staticcheck ./..."}}},
			"go test -race -count=1 -shuffle=on ./..."},
		{"edit_file", map[string]string{"target_file": "/repo/.gitlab-ci.yml", "instructions": "add a job", "code_edit": "# ... existing code ...\nlint:\n  script:\n    - golangci-lint run --timeout 5m ./...\n# ... existing code ..."},
			"golangci-lint run --timeout 5m ./..."},
		{"replace_in_file", map[string]string{"path": "/repo/Makefile", "diff": "<<<<<<< SEARCH\ntest:\n\tgo test ./...\n=======\ntest:\n\tgo test -tags integration -run TestOutbox ./internal/outbox/...\n>>>>>>> REPLACE"},
			"go test -tags integration -run TestOutbox ./internal/outbox/..."},
		{"replace_string_in_file", map[string]string{"filePath": "/repo/Makefile", "oldString": "lint:\n\truff check .", "newString": "lint:\n\truff check .\n\nfmt-check:\n\truff format --check --diff src tests"},
			"ruff format --check --diff src tests"},
	} {
		if got := values(calledItems(t, tc.tool, tc.in), KindCommand); !slices.ContainsFunc(got, func(c string) bool { return strings.Contains(c, tc.want) }) {
			t.Errorf("%s %v: no command holding %q in %q", tc.tool, tc.in, tc.want, got)
		}
	}
	// the same through a shell's heredoc
	heredoc := "cat > deploy/crontab <<'EOF'\n# nightly vacuum\n30 1 * * * psql -d shop -c 'VACUUM (ANALYZE) orders'\nEOF"
	if got := values(callItems(t, heredoc), KindCommand); !slices.Contains(got, "psql -d shop -c 'VACUUM (ANALYZE) orders'") {
		t.Errorf("heredoc: crontab entry missing from %q", got)
	}
	// code, and what a comment says in words, are not commands
	got := values(calledItems(t, "Write", map[string]string{"file_path": "/repo/app/jobs.py", "content": "import subprocess\n\n# Run the export nightly, see the runbook.\ndef run():\n    subprocess.run([\"make\", \"export\"], check=True)\n"}), KindCommand)
	if len(got) > 0 {
		t.Errorf("commands in a source file's code or prose: %q", got)
	}
}

// TestRulesInWrittenText: a rule the agent writes down as how things now
// are (in a comment, a note or a post), without a modal, is kept, and a
// comment's rule keeps its lines as printed; a post's text is read as the
// agent's prose whatever the tool.
func TestRulesInWrittenText(t *testing.T) {
	holds := func(items []Item, want string) bool {
		return slices.ContainsFunc(items, func(it Item) bool {
			return (it.Kind == KindDecision || it.Kind == KindConstraint) && strings.Contains(it.Value, want)
		})
	}
	for _, tc := range []struct {
		tool string
		in   map[string]string
		want string
	}{
		{"Edit", map[string]string{"file_path": "/repo/proto/user.proto", "old_string": "  string legacy_id = 7;", "new_string": "  // Tag 9 (nickname) is retired for good: the number stays reserved.\n  reserved 9;"},
			"// Tag 9 (nickname) is retired for good: the number stays reserved."},
		{"Write", map[string]string{"file_path": "/repo/build/toolchain.cmake", "content": "# Static CRT (/MT) is the only configuration we ship;\n# dynamic CRT builds are not tested.\nset(CMAKE_MSVC_RUNTIME_LIBRARY \"MultiThreaded$<$<CONFIG:Debug>:Debug>\")\n"},
			"# Static CRT (/MT) is the only configuration we ship;\n# dynamic CRT builds are not tested."},
	} {
		if items := calledItems(t, tc.tool, tc.in); !holds(items, tc.want) {
			t.Errorf("%s: no rule or decision holding %q in %q", tc.tool, tc.want, Strings(items))
		}
	}
	// a post's text and a memory file are the agent's prose, read as its
	// reply is
	for _, tc := range []struct {
		tool string
		in   map[string]string
		want string
	}{
		{"slack_post_message", map[string]string{"channel": "#data", "text": "Heads up from the pipeline work: dashboards read from the `marts` schema only; nothing points at `raw_*` again."},
			"dashboards read from the `marts` schema only"},
		{"memory", map[string]string{"command": "create", "path": "/memories/project.md", "file_text": "# Project notes\n\n- Staging deploys are frozen until the audit closes.\n- The API client lives in pkg/client.\n"},
			"Staging deploys are frozen until the audit closes."},
	} {
		if items := calledItems(t, tc.tool, tc.in); !slices.ContainsFunc(items, func(it Item) bool { return strings.Contains(it.Value, tc.want) }) {
			t.Errorf("%s: nothing holding %q in %q", tc.tool, tc.want, Strings(items))
		}
	}
	// a comment that describes the code is no rule
	items := calledItems(t, "Write", map[string]string{"file_path": "/repo/cache.go", "content": "// Get returns the cached value for key, or false.\nfunc Get(key string) (string, bool) { return \"\", false }\n"})
	if slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision || it.Kind == KindConstraint }) {
		t.Errorf("a describing comment kept as a rule: %q", Strings(items))
	}
}

// TestPastedFailures: what a person pastes into a message to show a
// failure is read as the failed command's output (its errors, a "Message:"
// label's message); prose around it, and a message with no failure, are
// not.
func TestPastedFailures(t *testing.T) {
	msg := "The nightly build broke after the JDK bump. This is what the job page shows:\n\n" +
		"Checkout code\nRestoring cache\n./gradlew build --no-daemon\nStarting a Gradle Daemon\n\n" +
		"Test run report\nMessage:\nThe connection pool was closed while a query was still running on it.\nDuration: 38 s\n\n" +
		"I only changed the base image, nothing else."
	got := values(Extract([]condense.Message{condense.UserText("Fix the build."), condense.UserText(msg)}, 0), KindError)
	if !slices.Contains(got, "The connection pool was closed while a query was still running on it.") {
		t.Errorf("the pasted failure's message missing from %q", got)
	}
	if slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, "only changed the base image") }) {
		t.Errorf("the person's own prose kept as an error: %q", got)
	}
	if out := pastedFailure("Here is the list you asked for:\n\nalpha 1\nbeta 2\ngamma 3\ndelta 4\nepsilon 5\n\nThat is all of them, in the order the tool printed them."); out != "" {
		t.Errorf("a paste with no failure read as one: %q", out)
	}
}

// TestFiguresOfReadData: a table of comma-separated figures is read as an
// aligned one (its weightiest row kept whole), also when a file viewer
// numbers its lines.
func TestFiguresOfReadData(t *testing.T) {
	rows := []string{"job,queue,runs,p50_s,p95_s,max_s",
		"thumbs,media,4120,0.8,1.9,3.2", "emails,mail,9912,0.2,0.6,1.1", "exports,reports,214,41.5,188.2,402.7",
		"webhooks,hooks,15230,0.3,0.9,2.4", "search,index,3301,1.1,2.8,5.0", "billing,ledger,880,0.9,2.2,4.1"}
	want := "exports,reports,214,41.5,188.2,402.7"
	var numbered []string
	for i, r := range rows {
		numbered = append(numbered, fmt.Sprintf("%6d\t%s", i+1, r))
	}
	in, _ := json.Marshal(map[string]string{"file_path": "/repo/perf/jobs.csv"})
	call := condense.ToolCall("c1", "Read", in)
	res := condense.ToolResult("c1", false, condense.Text(strings.Join(numbered, "\n")))
	for name, items := range map[string][]Item{
		"cat":  result("cat perf/jobs.csv", strings.Join(rows, "\n"), false),
		"Read": ExtractResult(&call, &res, 3),
	} {
		if got := values(items, KindMeasurement); !slices.Contains(got, want) {
			t.Errorf("%s: row %q missing from %q", name, want, got)
		}
	}
}

// TestLevelKeysOfJSONLogs: a JSON log record's level is read under the
// keys other loggers use (PostgreSQL's error_severity, OpenTelemetry's
// severity_text), so the record at error level is kept.
func TestLevelKeysOfJSONLogs(t *testing.T) {
	out := "[\n" +
		`  {"timestamp": "2026-03-02T10:00:01Z", "error_severity": "LOG", "event_message": "connection authorized: user=app"},` + "\n" +
		`  {"timestamp": "2026-03-02T10:00:02Z", "error_severity": "ERROR", "event_message": "must be owner of table invoices"},` + "\n" +
		`  {"timestamp": "2026-03-02T10:00:03Z", "severity_text": "ERROR", "body": "export to collector timed out after 30s"},` + "\n" +
		`  {"timestamp": "2026-03-02T10:00:04Z", "error_severity": "LOG", "event_message": "checkpoint complete"}` + "\n]"
	got := values(result("supabase logs --service postgres", out, false), KindError)
	for _, want := range []string{"must be owner of table invoices", "export to collector timed out after 30s"} {
		if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, want) }) {
			t.Errorf("error %q missing from %q", want, got)
		}
	}
	if slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, "checkpoint complete") }) {
		t.Errorf("a LOG record kept as an error: %q", got)
	}
}

// TestErrorsToldInProse: an error a person tells inside a sentence is the
// span a verb of reporting introduces ("keeps reporting TypeError: …",
// "the log says …"), an error code opens ("invalid_grant: …") or a quote
// bounds (single or curly quotes too, its final stop kept); an apostrophe
// is no quote.
func TestErrorsToldInProse(t *testing.T) {
	msg := "Sentry keeps reporting TypeError: Cannot read properties of undefined (reading 'sku') on the cart page.\n" +
		"The importer prints 'could not resolve host: files.internal' on every retry, it didn't before.\n" +
		"Ops says the dashboard shows “connection refused by upstream pool” since the failover.\n" +
		"The payments worker dies with `dial tcp 10.0.4.7:5432: connect: connection refused.` at startup.\n" +
		"The IdP log shows 400 invalid_grant: refresh token expired for the mobile client.\n" +
		"The plugin page printed Uncaught Error: Class \"Redis\" not found in /var/www/cache.php:12 after the upgrade.\n" +
		"The kiosk log says the certificate chain was rejected by the TLS handshake, then nothing."
	got := values(Extract([]condense.Message{condense.UserText("Fix the shop."), condense.UserText(msg)}, 0), KindError)
	for _, want := range []string{"TypeError: Cannot read properties of undefined (reading 'sku')",
		"could not resolve host: files.internal", "connection refused by upstream pool",
		"dial tcp 10.0.4.7:5432: connect: connection refused.", "invalid_grant: refresh token expired",
		"Error: Class \"Redis\" not found in /var/www/cache.php:12", "the certificate chain was rejected by the TLS handshake"} {
		if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, want) }) {
			t.Errorf("error %q missing from %q", want, got)
		}
	}
	if slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, "t before") }) {
		t.Errorf("an apostrophe read as a quote: %q", got)
	}
	// the agent explaining code is not a program's words
	reply := "Col is never set: the lexer reports the error before recording the token position."
	if got := values(Extract([]condense.Message{condense.UserText("Fix the lexer."), condense.AssistantText(reply)}, 0), KindError); len(got) > 0 {
		t.Errorf("the agent's explanation read as an error: %q", got)
	}
}

// TestSettledChoicesInComments: a comment or a note that states how
// something is settled and why, without a decision's words, is a
// decision; one that describes what the code does, or a finding, is not.
func TestSettledChoicesInComments(t *testing.T) {
	for _, c := range []string{
		"Sessions are keyed by account id, not by device: a phone swap must keep the cart.",
		"Float64 throughout the solver; float32 drifted past the tolerance on the long simulations.",
		"No connection pooling in the worker: each job opens one connection, so pgbouncer sees the real count.",
		"Deliberately synchronous; the caller already runs this on a background queue.",
	} {
		src := "package cart\n\n// " + c + "\nfunc Key(a Account) string { return a.ID }\n"
		items := calledItems(t, "Write", map[string]string{"file_path": "/repo/cart/key.go", "content": src})
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, c) }) {
			t.Errorf("%q: no decision in %q", c, Strings(items))
		}
	}
	for _, c := range []string{
		"Returns only the active rows; callers filter the deleted ones.",
		"No idea what broke: the logs are empty today.",
		"Should this stay synchronous? The caller might block.",
	} {
		src := "package cart\n\n// " + c + "\nfunc Rows() []Row { return nil }\n"
		for _, it := range calledItems(t, "Write", map[string]string{"file_path": "/repo/cart/rows.go", "content": src}) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", c, it.Value)
			}
		}
	}
}

// TestSettledChoicesOfUsers: a user who states how things are settled, in
// no decision's words, makes a decision; a step they took, a question or
// a finding do not.
func TestSettledChoicesOfUsers(t *testing.T) {
	for _, c := range []string{
		"Exports stay CSV (zipped), the parquet experiment is shelved until after the audit.",
		"Web only for the beta: the desktop app waits for the auth rewrite.",
	} {
		got := values(Extract([]condense.Message{condense.UserText("Fix the exporter."), condense.UserText("Thanks for the summary. " + c)}, 0), KindDecision)
		if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, c) }) {
			t.Errorf("%q: no decision in %q", c, got)
		}
	}
	for _, c := range []string{
		"I looked at the parquet writer instead of the CSV one because you asked.",
		"Does the export stay CSV only?",
		"No errors in the nightly run: the logs are clean.",
	} {
		if got := values(Extract([]condense.Message{condense.UserText("Fix the exporter."), condense.UserText(c)}, 0), KindDecision); len(got) > 0 {
			t.Errorf("%q: decisions %q", c, got)
		}
	}
}

// TestCommentsOfMoreFiles: the comments of more kinds of written files are
// read (a Dockerfile's under a section banner, CMakeLists.txt on a Windows
// path, OCaml's (* … *)), and a decision read from a short comment takes
// its whole paragraph, the reason in the next sentence with it.
func TestCommentsOfMoreFiles(t *testing.T) {
	for _, tc := range []struct{ path, content, want string }{
		{"/repo/Dockerfile", "FROM golang:1.23 AS build\n\n# ---- runtime ----\n# chainguard/static rather than debian-slim: the image scanner flags every shell.\nFROM cgr.dev/chainguard/static\n",
			"# chainguard/static rather than debian-slim: the image scanner flags every shell."},
		{`C:\src\synth\CMakeLists.txt`, "cmake_minimum_required(VERSION 3.25)\n# Static CRT (/MT), not the DLL runtime: hosts load us without the redistributable.\nset(CMAKE_MSVC_RUNTIME_LIBRARY \"MultiThreaded\")\n",
			"# Static CRT (/MT), not the DLL runtime: hosts load us without the redistributable."},
		{"/repo/lib/scan.ml", "(* Hand-rolled scanner instead of sedlex: the error columns must count UTF-8 code points. *)\nlet scan s = s\n",
			"Hand-rolled scanner instead of sedlex: the error columns must count UTF-8 code points."},
		{"/repo/db/0042_events.sql", "-- Partitions stay weekly, not daily. Daily ones made the planner walk 9k children.\nCREATE TABLE events (id bigint);\n",
			"-- Partitions stay weekly, not daily. Daily ones made the planner walk 9k children."},
	} {
		items := calledItems(t, "Write", map[string]string{"file_path": tc.path, "content": tc.content})
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, tc.want) }) {
			t.Errorf("%s: no decision holding %q in %q", tc.path, tc.want, Strings(items))
		}
	}
}

// TestFailuresInRecordMembers: a record among many that went right says
// what went wrong in a member ("reason", "note", "failure_reason"): the
// member is kept as an error when it reads as a failure, whatever the tool
// and even when the tool succeeded; a reason code and a note that is no
// failure are not.
func TestFailuresInRecordMembers(t *testing.T) {
	out := `[
  {"run": 41, "file": "leads.csv", "status": "done", "rejected": [], "note": "imported in 2 batches"},
  {"run": 42, "file": "orders.csv", "status": "done", "rejected": [{"row": 311, "reason": "constraint violated: currency must be ISO 4217, got \"EURO\""}]},
  {"run": 43, "file": "stock.csv", "status": "done", "rejected": [], "reason": "OOMKilled"}
]`
	in, _ := json.Marshal(map[string]any{"sql": "SELECT * FROM import_runs ORDER BY run LIMIT 3"})
	call := condense.ToolCall("c1", "mcp__postgres__query", in)
	res := condense.ToolResult("c1", false, condense.Text(out))
	got := values(ExtractResult(&call, &res, 3), KindError)
	want := `constraint violated: currency must be ISO 4217, got \"EURO\"`
	if !slices.Contains(got, want) {
		t.Errorf("error %q missing from %q", want, got)
	}
	for _, v := range got {
		if strings.Contains(v, "imported in") || v == "OOMKilled" {
			t.Errorf("%q read as an error", v)
		}
	}
}
