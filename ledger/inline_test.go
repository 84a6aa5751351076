package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestInlineCommands(t *testing.T) {
	cases := []struct {
		role condense.Role
		text string
		want []string
	}{
		{condense.RoleUser, "The webhook drops requests. Run `python -m invoicely.void_ledger --dry-run --limit 60228` when you think it's fixed.",
			[]string{"python -m invoicely.void_ledger --dry-run --limit 60228"}},
		{condense.RoleAssistant, "I reproduced it with `python manage.py void_taxrate --tenant 4801 --since 2026-03-6`.",
			[]string{"python manage.py void_taxrate --tenant 4801 --since 2026-03-6"}},
		{condense.RoleUser, "Please check with `CI=1 npm run test -- --watch=false` and `./scripts/smoke.sh staging` before merging.",
			[]string{"CI=1 npm run test -- --watch=false", "./scripts/smoke.sh staging"}},
		// Names, values and single words in backticks are not commands.
		{condense.RoleAssistant, "The `Invoice` model's `total` field uses `Decimal`; see `pytest`.", nil},
		{condense.RoleUser, "Set `timeout = 30` in `config.toml`.", nil},
	}
	for _, tc := range cases {
		m := condense.Message{Role: tc.role, Status: condense.StatusComplete, Parts: []condense.Part{condense.Text(tc.text)}}
		var got []string
		for _, it := range ExtractMessage(&m, 3) {
			if it.Kind == KindCommand {
				got = append(got, it.Value)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q:\n got  %q\n want %q", tc.text, got, tc.want)
		}
	}
}

func result(cmd, out string, failed bool) []Item {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	call := condense.ToolCall("c1", "bash", in)
	res := condense.ToolResult("c1", failed, condense.Text(out))
	return ExtractResult(&call, &res, 7)
}

func values(items []Item, k Kind) []string {
	var out []string
	for _, it := range items {
		if it.Kind == k {
			out = append(out, it.Value)
		}
	}
	return out
}

func TestTracedCommands(t *testing.T) {
	out := strings.Join([]string{
		"+ cd /workspace/app",
		"+ export CI=1",
		"[2026-04-25 10:15:01,620] INFO app: lease renewed",
		"+ pytest tests/api/test_reconcile_ledger.py::test_allocate -x -vv -k ledger98170",
		"++ git rev-parse HEAD",
		"+ echo done",
		"1 + 2 = 3",
	}, "\n")
	got := values(result("bash -x ./scripts/ci.sh", out, false), KindCommand)
	want := []string{"bash -x ./scripts/ci.sh", "pytest tests/api/test_reconcile_ledger.py::test_allocate -x -vv -k ledger98170", "git rev-parse HEAD"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestGitLogShortHashes(t *testing.T) {
	out := "a7fd7d3 Revert payment in api\n0b92945 Reconcile the payment webhook (#483)\nfeedbee not a hash: no digit\n1234567 all digits\n"
	got := values(result("git log --oneline -20", out, false), KindID)
	for _, w := range []string{"a7fd7d3", "0b92945"} {
		if !slices.Contains(got, w) {
			t.Errorf("%s missing from %q", w, got)
		}
	}
	for _, w := range []string{"feedbee", "1234567"} {
		if slices.Contains(got, w) {
			t.Errorf("%s taken as a hash: %q", w, got)
		}
	}
}

func TestMeasurementsBareAndOutliers(t *testing.T) {
	got := values(result("python -m cProfile -s cumulative app.py", "         3238146 function calls (2387822 primitive calls) in 17.688 seconds\n\n   Ordered by: cumulative time\n", false), KindMeasurement)
	if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, "17.688 seconds") }) {
		t.Errorf("profile total missing: %q", got)
	}
	got = values(result(`psql -c "SELECT * FROM invoices"`, " 71573 |  27 | open\n(9997 rows)\n", false), KindMeasurement)
	if !slices.Contains(got, "(9997 rows)") {
		t.Errorf("row count missing: %q", got)
	}
	// A bare unit of time stands for itself ("(63.23 sec)" after a query);
	// a bare factor or percentage does not.
	if got := values(result("cat x", "values: [1, 2]\n(3ms)\n", false), KindMeasurement); !slices.Contains(got, "(3ms)") {
		t.Errorf("bare 3ms missing: %q", got)
	}
	if got := values(result("cat x", "values: [1, 2]\n(3x)\n(12%)\n", false), KindMeasurement); len(got) != 0 {
		t.Errorf("bare factor or percentage taken: %q", got)
	}
	// Past the cap, the slow request replaces a fast one.
	var lines []string
	for i := range 60 {
		ms := fmt.Sprintf("%dms", 10+i%30)
		if i == 45 {
			ms = "3472.1ms"
		}
		lines = append(lines, fmt.Sprintf("[2026-04-25 11:%02d:12,305] WARN app.billing: request served tenant=%d took=%s", i, i, ms))
	}
	got = values(result("kubectl logs deploy/app --tail=400", strings.Join(lines, "\n"), false), KindMeasurement)
	if !slices.ContainsFunc(got, func(v string) bool { return strings.HasSuffix(v, "tenant=45 took=3472.1ms") }) {
		t.Errorf("outlier missing: %q", got)
	}
	if len(got) > DefaultMaxPerKind {
		t.Errorf("%d measurements, over the cap of %d", len(got), DefaultMaxPerKind)
	}
}

// TestTextActionAgents: an agent that acts in text (mini-swe-agent, SWE-agent
// without function calling) runs the command of its reply's last shell
// block, and the output comes back as a user message. The command is an
// item, and the output is read as output: its errors are taken, and its
// words are not the user's rules.
func TestTextActionAgents(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("Fix the duplicate invoices. Never touch the migrations."),
		{Role: condense.RoleAssistant, Status: condense.StatusComplete, Parts: []condense.Part{condense.Text(
			"THOUGHT: run the failing test first.\n\n```bash\npytest -x tests/billing/test_settle.py -k dunning55653\n```")}},
		condense.UserText("<returncode>1</returncode>\n<output>\ntests/billing/test_settle.py F\n" +
			"E   psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint \"invoice_pkey\"\n" +
			"You must always check the exit code.\n1 failed in 0.42s\n</output>"),
	}
	items := Extract(msgs, 0)
	var cmds, errs, rules []string
	for _, it := range items {
		switch it.Kind {
		case KindCommand:
			cmds = append(cmds, it.Value)
		case KindError:
			errs = append(errs, it.Value)
		case KindConstraint:
			rules = append(rules, it.Value)
		}
	}
	if !slices.Contains(cmds, "pytest -x tests/billing/test_settle.py -k dunning55653") {
		t.Errorf("commands %q lack the text action's", cmds)
	}
	if !slices.ContainsFunc(errs, func(v string) bool { return strings.Contains(v, "duplicate key value violates unique constraint") }) {
		t.Errorf("errors %q lack the relayed output's", errs)
	}
	if !slices.Equal(rules, []string{"Never touch the migrations."}) {
		t.Errorf("constraints %q: want only the task's rule, none from the relayed output", rules)
	}
}

// TestCommandsOfAnyTool: a tool that is not a known shell still ran a
// command when one of its inputs reads as a command line, whatever the key.
func TestCommandsOfAnyTool(t *testing.T) {
	cases := []struct {
		name, input string
		want        []string
	}{
		{"run_tests", `{"cmd_line":"pytest -x tests/api -k refund","timeout":60}`, []string{"pytest -x tests/api -k refund"}},
		{"exec_in_sandbox", `{"argv":["bash","-lc","make test"]}`, []string{"make test"}},
		{"container_exec", `{"program":"./scripts/smoke.sh staging"}`, []string{"./scripts/smoke.sh staging"}},
		{"web_search", `{"query":"go test flaky timeout"}`, nil},
		{"ask_user", `{"question":"Should I run npm install?"}`, nil},
		{"read_file", `{"path":"Makefile"}`, nil},
	}
	for _, tc := range cases {
		call := condense.ToolCall("c1", tc.name, json.RawMessage(tc.input))
		m := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{call}}
		got := values(ExtractMessage(&m, 2), KindCommand)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: commands %q, want %q", tc.name, tc.input, got, tc.want)
		}
	}
}

// TestWrittenCommands: commands written out without backticks, after a
// colon that introduces one or after a verb such as run or with, in prose
// and in a tool's hints; English that starts with a runner's name is not
// a command.
func TestWrittenCommands(t *testing.T) {
	for _, tc := range []struct{ site, text, want string }{
		{"asst", "The schema change goes out with make migrate-up ENV=staging once CI is green.", "make migrate-up ENV=staging"},
		{"user", "Reproduce with: pnpm --filter web test -- --run", "pnpm --filter web test -- --run"},
		{"user", "I run it like this: RUST_LOG=debug cargo run --bin tern -- check ./examples", "RUST_LOG=debug cargo run --bin tern -- check ./examples"},
		{"asst", "I'll squash the fixups with git rebase -i HEAD~3 before pushing.", "git rebase -i HEAD~3"},
		{"user", "Only ever run terraform plan -target=module.vpc, nothing broader.", "terraform plan -target=module.vpc"},
		{"out", "✖ 3 problems (3 errors, 0 warnings)\nTo fix: npm run lint -- --fix", "npm run lint -- --fix"},
		{"out", "--- FAIL: TestReap (0.01s)\nFAIL\nTo rerun: go test ./internal/ledger -run TestReap -count=1", "go test ./internal/ledger -run TestReap -count=1"},
		{"user", "Just push with git push --no-verify -u origin fix/coupon-expiry for now, CI will run everything anyway.", "git push --no-verify -u origin fix/coupon-expiry"},
		{"out", ": 1729002301:0;terraform -chdir=envs/prod import module.cdn.aws_cloudfront_distribution.assets E2QWRUHAPOMQZL", "terraform -chdir=envs/prod import module.cdn.aws_cloudfront_distribution.assets E2QWRUHAPOMQZL"},
		{"out", `    {"conclusion":"failure","name":"Run cargo test --workspace --all-features --locked","number":6},`, "cargo test --workspace --all-features --locked"},
		{"out", "Lint found errors in the project; aborting build.\nTo create a baseline, run `gradlew updateLintBaseline` and then rerun your Gradle task.",
			"To create a baseline, run `gradlew updateLintBaseline` and then rerun your Gradle task."}, // with its hint
		{"asst", "The trick was to pass `--no-verify-jwt` when deploying that one function:\n\n```\nsupabase functions deploy stripe-webhook --no-verify-jwt\n```\n", "supabase functions deploy stripe-webhook --no-verify-jwt"},
	} {
		var items []Item
		switch tc.site {
		case "out":
			items = outputItems(tc.text)
		case "user":
			m := condense.UserText(tc.text)
			items = ExtractMessage(&m, 2)
		default:
			m := condense.AssistantText(tc.text)
			items = ExtractMessage(&m, 1)
		}
		if !slices.Contains(Strings(items), "command "+quoteValue(tc.want)) {
			t.Errorf("%q: no command %q in %q", tc.text, tc.want, Strings(items))
		}
	}
	for _, text := range []string{
		"I went with go modules instead of vendoring.",
		"Fix: make the parser lenient about trailing commas.",
		"We're using python 3.12 features here, so 3.11 is out.",
		"Error: go test failed with 3 failures",
	} {
		m := condense.AssistantText(text)
		for _, it := range ExtractMessage(&m, 1) {
			if it.Kind == KindCommand {
				t.Errorf("%q: %s is no command", text, it)
			}
		}
	}
	for _, it := range outputItems("Error: go test failed with 3 failures\nTo fix: see the log") {
		if it.Kind == KindCommand && strings.HasPrefix(it.Value, "go ") {
			t.Errorf("%s is no command", it)
		}
	}
}

// TestHintedCommands: a command a tool's output suggests is kept with the
// sentence that says what it is for, as printed; a command on a line that
// only names it stays bare.
func TestHintedCommands(t *testing.T) {
	for _, tc := range []struct{ line, c, want string }{
		{"      Run `flutter doctor --android-licenses` to accept the SDK licenses.", "flutter doctor --android-licenses",
			"Run `flutter doctor --android-licenses` to accept the SDK licenses."},
		{"src/App.csproj(12,5): error NETSDK1147: To install these workloads, run the following command: dotnet workload restore [/src/App.csproj]",
			"dotnet workload restore", "To install these workloads, run the following command: dotnet workload restore"},
		{"│ If you see this in CI, reproduce locally with: `tox -e lint`. Then commit the fixes.", "tox -e lint",
			"If you see this in CI, reproduce locally with: `tox -e lint`."},
		{"Executing `make build`", "make build", "make build"},
		{"`make build`", "make build", "make build"},
	} {
		if got := hinted(tc.line, tc.c); got != tc.want {
			t.Errorf("hinted(%q, %q) = %q, want %q", tc.line, tc.c, got, tc.want)
		}
	}
}

// TestIntroducedCommands: a line that says the next one is a command to
// run makes it read as one where a command is expected, behind a tool's
// prefix the two lines share too; a line of prose after it stays prose.
func TestIntroducedCommands(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"If the error persists, try repairing the history table:\nacme-cli history repair --status reverted 20240115\n", "acme-cli history repair --status reverted 20240115"},
		{"Then refresh the local copy with the following command:\nacme-cli db pull\n", "acme-cli db pull"},
		{"  To add another node to this cluster, run\n    raylet join --address='10.0.1.23:6379'\n", "raylet join --address='10.0.1.23:6379'"},
		{"tracker: You can upload this run later by running:\ntracker: tracker sync ./runs/offline-20240514\n", "tracker sync ./runs/offline-20240514"},
	} {
		if got := Strings(outputItems(tc.text)); !slices.Contains(got, "command "+quoteValue(tc.want)) {
			t.Errorf("%q: no command %q in %q", tc.text, tc.want, got)
		}
	}
	for _, text := range []string{
		"Please install them with the following command:\nthe installer is missing\n",
		"To connect to this cluster:\nimport ray\n",
	} {
		for _, g := range Strings(outputItems(text)) {
			if strings.HasPrefix(g, "command ") {
				t.Errorf("%q: got %s", text, g)
			}
		}
	}
}

// TestLongCommandLines: a process listing's command of a process started
// days ago ("May13") is read, and a command line over the cap keeps its
// program and its last arguments.
func TestLongCommandLines(t *testing.T) {
	args := strings.Repeat("-Dacme.tuning.flag=on ", 24)
	out := "USER         PID %CPU %MEM    VSZ   RSS TTY      STAT START   TIME COMMAND\n" +
		"quote     212233 38.4 31.2 9843112 5118420 ?    Ssl  May13 1412:07 /usr/lib/jvm/java-21/bin/java -Xmx4g " + args +
		"-jar /opt/quote/quote-engine.jar --server.port=8080 --quote.cache.mode=write-behind\n" +
		"root       20730  0.4  1.5  807481 173034 ?        Ssl   09:12 64:27 /usr/sbin/sshd -D\n"
	got := Strings(outputItems(out))
	if !slices.ContainsFunc(got, func(g string) bool {
		return strings.HasPrefix(g, `command "/usr/lib/jvm/java-21/bin/java -Xmx4g`) && strings.HasSuffix(g, `--server.port=8080 --quote.cache.mode=write-behind"`) && strings.Contains(g, " … ")
	}) {
		t.Errorf("the long command line is not kept with its head and its tail: %q", got)
	}
}
