package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func call(name, input string) condense.Part {
	return condense.ToolCall("call_1", name, json.RawMessage(input))
}

func TestExtractResultWithCall(t *testing.T) {
	cases := []struct {
		name    string
		call    condense.Part
		output  string
		isError bool
		want    []string
	}{
		{"bash exit code in output", call("Bash", `{"command":"go test ./...","description":"run tests"}`),
			"--- FAIL: TestX (0.00s)\nFAIL\tgithub.com/acme/x\t0.01s\nFAIL\nExit code 1", true,
			[]string{`command "go test ./..." (exit 1)`, `error "--- FAIL: TestX (0.00s)"`, "error `FAIL\tgithub.com/acme/x\t0.01s`"}},
		{"codex argv and Exit code header", call("shell", `{"command":["bash","-lc","cargo build --release"],"workdir":"/repo"}`),
			"Exit code: 101\nWall time: 3.2 seconds\nOutput:\nerror: could not compile `x` (bin) due to 2 previous errors", false,
			[]string{`command "cargo build --release" (exit 101)`, `measurement "Wall time: 3.2 seconds"`, "error \"error: could not compile `x` (bin) due to 2 previous errors\""}},
		{"error without status", call("execute_bash", `{"command":"make lint"}`), "make: *** [lint] Error 2", true,
			[]string{`command "make lint" (failed)`, `error "make: *** [lint] Error 2"`}},
		{"success without status", call("run_command", `{"cmd":"ls docs"}`), "README.md\nguide.md", false,
			[]string{`command "ls docs"`}},
		{"exited with", call("terminal", `{"command":"python3 etl/run.py"}`), "starting\nprocess exited with code 2", false,
			[]string{`command "python3 etl/run.py" (exit 2)`, "file etl/run.py"}},
		{"cat of a source file", call("bash", `{"command":"cat internal/x/errors.go"}`),
			"package x\n\n// ErrClosed is returned as \"Error: closed\" by Close after 3.2s.\nvar ErrClosed = errors.New(\"Error: closed\")\n// see ENG-4821", false,
			[]string{`command "cat internal/x/errors.go"`, "file internal/x/errors.go (read)", "id ENG-4821"}},
		{"cat of a log keeps errors", call("bash", `{"command":"tail -n 2 /var/log/app.log"}`),
			"ERROR: disk full on /dev/sda1\nretry took 3.2s", false,
			[]string{`command "tail -n 2 /var/log/app.log"`, "file /var/log/app.log (read)", `error "ERROR: disk full on /dev/sda1"`, `measurement "retry took 3.2s"`}},
		{"read tool on source", call("Read", `{"file_path":"/repo/scan.go"}`),
			"panic: not an error here\nvar x = \"took 3.2s\"", false,
			[]string{"file /repo/scan.go (read)"}},
		{"multi-line script collapses", call("bash", `{"command":"cd /repo &&\n  go vet ./..."}`), "", false,
			[]string{`command "cd /repo && go vet ./..."`}},
		{"read tool", call("Read", `{"file_path":"/repo/internal/x/index.go"}`), "1\tpackage x\n", false,
			[]string{"file /repo/internal/x/index.go (read)"}},
		{"write tool", call("Write", `{"file_path":"internal/x/index.go","content":"package x\n"}`), "File written", false,
			[]string{"file internal/x/index.go (written)"}},
		{"edit tool", call("Edit", `{"file_path":"cmd/wire/main.go","old_string":"a","new_string":"b"}`), "ok", false,
			[]string{"file cmd/wire/main.go (written)"}},
		{"editor view", call("str_replace_based_edit_tool", `{"command":"view","path":"/repo/go.mod"}`), "module x", false,
			[]string{"file /repo/go.mod (read)"}},
		{"editor str_replace", call("str_replace_based_edit_tool", `{"command":"str_replace","path":"/repo/main.go","old_str":"a","new_str":"b"}`), "edited", false,
			[]string{"file /repo/main.go (written)"}},
		{"search tool paths mention", call("grep", `{"pattern":"TODO","path":"internal/"}`), "", false,
			[]string{"file internal/"}},
		{"apply_patch", call("apply_patch", `{"input":"*** Begin Patch\n*** Update File: internal/x/index.go\n@@\n-a\n+b\n*** Add File: internal/x/new.go\n+package x\n*** End Patch"}`), "Done!", false,
			[]string{"file internal/x/index.go (written)", "file internal/x/new.go (written)"}},
		{"fetch url", call("web_fetch", `{"url":"https://pkg.go.dev/net/http"}`), "", false,
			[]string{"url https://pkg.go.dev/net/http"}},
		{"bad input json", call("bash", `{not json`), "Exit code 0", false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := resultOf(tc.output, tc.isError)
			got := Strings(ExtractResult(&tc.call, &res, 3))
			if !slices.Equal(got, tc.want) {
				t.Errorf("items:\n got  %q\n want %q", got, tc.want)
			}
		})
	}
}

func TestExitStatus(t *testing.T) {
	cases := []struct {
		text string
		want int // -1: none
	}{
		{"exit code 1", 1},
		{"Exit code: 2", 2},
		{"Process exited with code 137", 137},
		{"exited with 3", 3},
		{"exit status 1\nFAIL\tx\t0.1s", 1},
		{`{"exit_code": 4}`, 4},
		{"returncode=5", 5},
		{"all good", -1},
		{"exit code 1\n" + strings.Repeat("line\n", 200) + "exit code 0", 0},
	}
	for _, tc := range cases {
		got := exitStatus(tc.text)
		if tc.want < 0 {
			if got != nil {
				t.Errorf("%q: exit %d, want none", tc.text, *got)
			}
			continue
		}
		if got == nil || *got != tc.want {
			t.Errorf("%q: exit %v, want %d", tc.text, got, tc.want)
		}
	}
}

func TestProse(t *testing.T) {
	user := condense.UserText("Fix the refund bug in orders/refunds.py. Don't change the public API. " +
		"The fix must keep Python 3.9 support! Tests are in tests/.\n```\nnever parsed in a fence\n```")
	asst := condense.AssistantText("I looked at the code. I'll use a dataclass instead of the dict. " +
		"Let's go with a 30-day window constant.")
	gotUser := Strings(ExtractMessage(&user, 0))
	wantUser := []string{
		`constraint "Don't change the public API."`,
		`constraint "The fix must keep Python 3.9 support!"`,
		"file orders/refunds.py",
	}
	if !slices.Equal(gotUser, wantUser) {
		t.Errorf("user items:\n got  %q\n want %q", gotUser, wantUser)
	}
	gotAsst := Strings(ExtractMessage(&asst, 1))
	wantAsst := []string{
		`decision "I'll use a dataclass instead of the dict."`,
		`decision "Let's go with a 30-day window constant."`,
	}
	if !slices.Equal(gotAsst, wantAsst) {
		t.Errorf("assistant items:\n got  %q\n want %q", gotAsst, wantAsst)
	}
	failed := asst
	failed.Status = condense.StatusFailed
	if got := ExtractMessage(&failed, 1); len(got) != 0 {
		t.Errorf("failed reply gave decisions: %v", got)
	}
}

func TestExtractSpan(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("  Make   `go test ./...` pass;\nthe CI is red.  "),
		{Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.Text("Running the tests."),
			condense.ToolCall("c1", "bash", json.RawMessage(`{"command":"go test ./..."}`)),
		}},
		{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("c1", true, condense.Text("panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/repo/main.go:9 +0x18\nexit status 2")),
		}},
		{Role: condense.RoleUser, Pinned: true, Parts: []condense.Part{condense.Text("Deploy target is eu-west-1; never touch prod.")}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.ToolCall("c2", "bash", json.RawMessage(`{"command":"go test ./..."}`)),
		}},
		{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("c2", false, condense.Text("ok  \texample.com/app\t0.210s\nexit code 0")),
		}},
	}
	got := Extract(msgs, 0)
	want := []string{
		"task \"Make   `go test ./...` pass; the CI is red.\"",
		`command "go test ./..." (exit 0)`,
		`error "panic: boom"`,
		"file /repo/main.go",
		"error \"main.main() at /repo/main.go:9\"",
		`pinned "Deploy target is eu-west-1; never touch prod."`,
		`constraint "Deploy target is eu-west-1; never touch prod."`,
		"measurement `ok  \texample.com/app\t0.210s`",
	}
	if s := Strings(got); !slices.Equal(s, want) {
		t.Fatalf("items:\n got  %q\n want %q", s, want)
	}
	// The command was last seen in the result at index 5.
	if got[1].Source != 5 {
		t.Errorf("command source %d, want 5", got[1].Source)
	}
	if got[2].Source != 2 {
		t.Errorf("panic source %d, want 2", got[2].Source)
	}

	// A later span has no task; the results' calls are outside it.
	later := Strings(Extract(msgs[2:], 2))
	if slices.ContainsFunc(later, func(s string) bool { return strings.HasPrefix(s, "task ") }) {
		t.Errorf("span from 2 has a task: %q", later)
	}
	if !slices.Contains(later, `command "go test ./..." (exit 0)`) {
		t.Errorf("span from 2 lacks the command with its status: %q", later)
	}
}

func TestItemString(t *testing.T) {
	one := 1
	cases := []struct {
		it   Item
		want string
	}{
		{Item{Kind: KindFile, Value: "internal/x.go"}, "file internal/x.go"},
		{Item{Kind: KindFile, Value: "internal/x.go", Access: Written}, "file internal/x.go (written)"},
		{Item{Kind: KindFile, Value: "a b.go", Access: Read}, `file "a b.go" (read)`},
		{Item{Kind: KindCommand, Value: "make", Exit: &one}, "command make (exit 1)"},
		{Item{Kind: KindCommand, Value: "make", Failed: true}, "command make (failed)"},
		{Item{Kind: KindError, Value: "panic: x [3]"}, `error "panic: x [3]"`},
		{Item{Kind: KindID, Value: "a]b"}, `id "a]b"`},
		{Item{Kind: KindID, Value: "a;b"}, `id "a;b"`},
		{Item{Kind: KindID, Value: `a"b`}, "id `a\"b`"},
		{Item{Kind: KindID, Value: "a\"b`c"}, `id "a\"b` + "`" + `c"`},
		{Item{Kind: KindID, Value: ""}, `id ""`},
		{Item{Kind: KindMeasurement, Value: "größe:1µs"}, "measurement größe:1µs"},
		{Item{Kind: KindError, Value: "tab\there"}, "error `tab\there`"},
		{Item{Kind: KindError, Value: "tab\there`"}, `error "tab\there` + "`" + `"`},
	}
	for _, tc := range cases {
		if got := tc.it.String(); got != tc.want {
			t.Errorf("%#v: got %s, want %s", tc.it, got, tc.want)
		}
	}
}

func TestClean(t *testing.T) {
	cases := []struct {
		in   string
		max  int
		want string
	}{
		{"  a \n\t b  ", 200, "a b"},
		{"plain", 200, "plain"},
		{"abcdefghij", 8, "abcde…"},
		{"ab€€€€", 9, "ab€…"},
		{"bad\xffbyte", 200, "bad\uFFFDbyte"},
		{"zero\u200bwidth", 200, "zero width"},
		{"\x00\x01", 200, ""},
		// A gap of spaces and tabs is kept as printed, up to maxGap
		// bytes; a wider gap and any other white space become one space.
		{"258.520 ± 16.569  us/op", 200, "258.520 ± 16.569  us/op"},
		{"FATAL:  password", 200, "FATAL:  password"},
		{"a   b", 200, "a   b"},
		{"a \tb", 200, "a \tb"},
		{"! [rejected]        main -> main", 200, "! [rejected]        main -> main"},
		{"a" + strings.Repeat(" ", maxGap+1) + "b", 200, "a b"},
		{"a \r\nb", 200, "a b"},
		{"ab\tcd\t", 200, "ab\tcd"},
		{"abcdefg\t\tij", 9, "abcdef…"},
		{"a\n\nb", 200, "a b"},
		{"a  b  ", 200, "a  b"},
	}
	for _, tc := range cases {
		got := clean(tc.in, tc.max)
		if isClean(tc.in, maxGap) && len(tc.in) <= tc.max && got != tc.in {
			t.Errorf("isClean(%q) but clean changes it", tc.in)
		}
		if got != tc.want {
			t.Errorf("clean(%q, %d) = %q, want %q", tc.in, tc.max, got, tc.want)
		}
		if len(got) > tc.max {
			t.Errorf("clean(%q, %d) is %d bytes", tc.in, tc.max, len(got))
		}
	}
}

func TestKeyAndSet(t *testing.T) {
	zero, one := 0, 1
	var s Set
	s.Add(Item{Kind: KindFile, Value: "./internal/x.go", Source: 1},
		Item{Kind: KindCommand, Value: "make", Source: 2, Exit: &one},
		Item{Kind: KindFile, Value: "internal/x.go", Source: 4, Access: Written},
		Item{Kind: KindFile, Value: "internal/x.go", Source: 3, Access: Read},
		Item{Kind: KindCommand, Value: "make", Source: 5, Exit: &zero},
		Item{Kind: KindCommand, Value: "make", Source: 4, Failed: true},
		Item{Kind: KindID, Value: "internal/x.go", Source: 6},
	)
	got := Strings(s.Items())
	want := []string{"file ./internal/x.go (written)", "command make (exit 0)", "id internal/x.go"}
	if !slices.Equal(got, want) {
		t.Fatalf("set: got %q, want %q", got, want)
	}
	if s.Items()[0].Source != 4 || s.Items()[1].Source != 5 {
		t.Errorf("sources %d, %d; want 4, 5", s.Items()[0].Source, s.Items()[1].Source)
	}
	if !s.Contains(Item{Kind: KindFile, Value: "internal/x.go"}.Key()) || s.Contains(Item{Kind: KindURL, Value: "internal/x.go"}.Key()) {
		t.Error("Contains is wrong")
	}
	if s.Len() != 3 {
		t.Errorf("len %d", s.Len())
	}
}

func TestCustomPatternsAndOptions(t *testing.T) {
	e := Extractor{
		MaxValueLen: 40,
		MaxPerKind:  2,
		ShellTools:  []string{"Sandbox"},
		Patterns:    []Pattern{{Kind: KindID, Regexp: regexpMust(`\bINC(\d{6})\b`)}},
	}
	c := call("sandbox", `{"command":"kubectl rollout restart deploy/api"}`)
	res := resultOf("Error: a\nError: b\nError: c\nsee INC004211 and "+strings.Repeat("x", 80), false)
	got := Strings(e.ExtractResult(&c, &res, 1))
	// INC004211 is also an id by its shape (letters glued to a number).
	want := []string{`command "kubectl rollout restart deploy/api"`, `error "Error: a"`, "id INC004211", `error "Error: c"`, "id 004211"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	long := resultOf("Error: "+strings.Repeat("y", 200), false)
	for _, it := range e.ExtractResult(nil, &long, 1) {
		// an error may hold four times the cap
		if len(it.Value) > 160 || it.Kind == KindError && !strings.Contains(it.Value, "…") {
			t.Errorf("value %d bytes over cap 160 of an error of cap 40: %s", len(it.Value), it)
		}
	}
}

func TestKubectlStatuses(t *testing.T) {
	out := "NAME READY STATUS RESTARTS AGE\n" +
		"a-1 0/1 InvalidImageName 0 1m\n" +
		"b-2 0/1 OOMKilled 3 5m\n" +
		"c-3 1/1 Running 0 5m\n"
	res := resultOf(out, false)
	got := Strings(ExtractResult(nil, &res, 0))
	want := []string{`error "a-1 0/1 InvalidImageName 0 1m"`, `error "b-2 0/1 OOMKilled 3 5m"`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRepeatsDoNotFillTheCap: a line repeated many times counts once
// against the per-kind cap, so the errors after it are still found.
func TestRepeatsDoNotFillTheCap(t *testing.T) {
	var out strings.Builder
	for i := 0; i < 50; i++ {
		out.WriteString("Error: connection reset\n")
	}
	out.WriteString("Error: giving up after 5 retries\n")
	res := resultOf(out.String(), true)
	got := Strings(ExtractResult(nil, &res, 0))
	want := []string{`error "Error: connection reset"`, `error "Error: giving up after 5 retries"`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestErrorCapKeepsFirstAndLast: past the cap, the first half of the error
// lines and the latest ones are kept.
func TestErrorCapKeepsFirstAndLast(t *testing.T) {
	e := Extractor{MaxPerKind: 4}
	var out strings.Builder
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&out, "--- FAIL: Test%d (0.00s)\n", i)
	}
	out.WriteString("FAIL\texample.com/x\t0.1s\n")
	res := resultOf(out.String(), true)
	got := Strings(e.ExtractResult(nil, &res, 0))
	want := []string{`error "--- FAIL: Test1 (0.00s)"`, `error "--- FAIL: Test2 (0.00s)"`, `error "--- FAIL: Test9 (0.00s)"`, "error `FAIL\texample.com/x\t0.1s`"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestPatchFilesOrder: a patch tool whose input has several patch texts
// gives its files in the same order every time.
func TestPatchFilesOrder(t *testing.T) {
	c := call("apply_patch", `{"b":"*** Update File: b.go","a":"*** Update File: a.go","c":"+++ b/c.go","d":"*** Add File: d/e.go"}`)
	res := resultOf("", false)
	want := []string{"file a.go (written)", "file b.go (written)", "file c.go (written)", "file d/e.go (written)"}
	for i := 0; i < 20; i++ {
		if got := Strings(ExtractResult(&c, &res, 0)); !slices.Equal(got, want) {
			t.Fatalf("run %d: got %q, want %q", i, got, want)
		}
	}
}
