package eval

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/condense-dev/condense"
)

func TestExtractText(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []Specific // must all be found
		not  []Specific // must not be found
	}{
		{"go test failure", "--- FAIL: TestParseUnary (0.00s)\n    parse_test.go:58: want 3\nFAIL\texample.com/calc/parser\t0.003s",
			[]Specific{{CatError, "--- FAIL: TestParseUnary (0.00s)"}, {CatIdentifier, "TestParseUnary"}, {CatPath, "parse_test.go"},
				{CatPath, "example.com/calc/parser"}, {CatMeasurement, "0.003s"}, {CatError, "FAIL\texample.com/calc/parser\t0.003s"}}, nil},
		{"absolute and relative paths", "edited /home/dev/calc/parser/errors.go and internal/x.go, see ./cmd/main.go.",
			[]Specific{{CatPath, "/home/dev/calc/parser/errors.go"}, {CatPath, "internal/x.go"}, {CatPath, "./cmd/main.go"}}, nil},
		{"markup is not a path", "<cwd>/home/dev</cwd> and 3/4 of it",
			[]Specific{{CatPath, "/home/dev"}}, []Specific{{CatPath, "/cwd"}, {CatPath, "3/4"}}},
		{"urls are not paths", "see https://example.com/docs/page for more",
			nil, []Specific{{CatPath, "https://example.com/docs/page"}}},
		{"panic", "panic: runtime error: index out of range [3] with length 3",
			[]Specific{{CatError, "panic: runtime error: index out of range [3] with length 3"}}, nil},
		{"python traceback", "Traceback (most recent call last):\nValueError: bad input",
			[]Specific{{CatError, "Traceback (most recent call last):"}, {CatError, "ValueError: bad input"}}, nil},
		{"code mentioning error is not an error line", "func parse() (Node, error) {\n\treturn &SyntaxError{Msg: msg}",
			nil, []Specific{{CatError, "func parse() (Node, error) {"}, {CatError, "return &SyntaxError{Msg: msg}"}}},
		{"benchmark measurements", "BenchmarkPrepare-8   1000   1234 ns/op   512 B/op   3 allocs/op\np99 latency: 703.1ms, 12 MB",
			[]Specific{{CatIdentifier, "BenchmarkPrepare"}, {CatMeasurement, "1234 ns/op"}, {CatMeasurement, "512 B/op"},
				{CatMeasurement, "3 allocs/op"}, {CatMeasurement, "703.1ms"}, {CatMeasurement, "12 MB"}}, nil},
		{"identifiers", "call money.HalfEven from parse_unary_expr, commit 3f9e2c1a, id 0199c2a4-6d1e-7f30-9b2e-5a8c1d3e7f90",
			[]Specific{{CatIdentifier, "money.HalfEven"}, {CatIdentifier, "parse_unary_expr"}, {CatIdentifier, "3f9e2c1a"},
				{CatIdentifier, "0199c2a4-6d1e-7f30-9b2e-5a8c1d3e7f90"}},
			[]Specific{{CatIdentifier, "commit"}}},
		{"plain words are not identifiers or hex", "the facade accepted deadbeef 1234567",
			nil, []Specific{{CatIdentifier, "deadbeef"}, {CatIdentifier, "1234567"}, {CatIdentifier, "accepted"}}},
		{"shell prompt", "run it:\n$ go test -run TestRound ./money/\nok",
			[]Specific{{CatCommand, "go test -run TestRound ./money/"}}, nil},
		{"exit status", "exit status 2", []Specific{{CatError, "exit status 2"}}, nil},
		{"JSON tool output is decoded", `{"output": "--- FAIL: TestPostSplit (0.00s)\n\tpost_test.go:40: balance = 1001\nFAIL", "metadata": {"exit_code": 1}}`,
			[]Specific{{CatError, "--- FAIL: TestPostSplit (0.00s)"}, {CatPath, "post_test.go"}},
			[]Specific{{CatPath, "tpost_test.go"}}},
		{"go subtests are not paths", "=== RUN   TestCommitStaleRun/last_ledger\n--- PASS: BenchmarkCount/o200k/1MB (0.01s)\n--- FAIL: Test_parse/a.b (0.00s)",
			[]Specific{{CatIdentifier, "TestCommitStaleRun"}, {CatIdentifier, "last_ledger"}},
			[]Specific{{CatPath, "TestCommitStaleRun/last_ledger"}, {CatPath, "BenchmarkCount/o200k/1MB"}, {CatPath, "Test_parse/a.b"}}},
		{"paths that start like test names are paths", "wrote TestResults/run1/coverage.xml, Testdata/golden and pkg/TestFoo/case",
			[]Specific{{CatPath, "TestResults/run1/coverage.xml"}, {CatPath, "Testdata/golden"}, {CatPath, "pkg/TestFoo/case"}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ExtractText(tt.text)
			for _, w := range tt.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %+v in %+v", w, got)
				}
			}
			for _, n := range tt.not {
				if slices.Contains(got, n) {
					t.Errorf("unexpected %+v in %+v", n, got)
				}
			}
		})
	}
}

func TestExtractMessages(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("Fix TestRoundKeepsCents in money/round_test.go"),
		{Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.Thinking("maybe internal/secret_thought.go", "sig"),
			condense.ToolCall("c1", "Bash", json.RawMessage(`{"command":"go test ./money/\necho done","description":"run tests"}`)),
			condense.ToolCall("c2", "shell", json.RawMessage(`{"command":["bash","-lc","rg -n Round --type go"]}`)),
			condense.ToolCall("c3", "shell", json.RawMessage(`{"command":["git","status"]}`)),
		}},
		{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("c1", true, condense.Text("money/round_test.go:3:31: undefined: testing")),
			condense.ToolResult("c2", false, condense.Text("money/money.go:25: func Round")),
			condense.ToolResult("c3", false, condense.Text("clean")),
		}},
	}
	got := Extract(msgs)
	for _, w := range []Specific{
		{CatCommand, "go test ./money/"}, {CatCommand, "rg -n Round --type go"}, {CatCommand, "git status"},
		{CatPath, "money/round_test.go"}, {CatPath, "money/money.go"}, {CatIdentifier, "TestRoundKeepsCents"},
		{CatError, "money/round_test.go:3:31: undefined: testing"},
	} {
		if !slices.Contains(got, w) {
			t.Errorf("missing %+v in %+v", w, got)
		}
	}
	for _, s := range got {
		if s.Text == "maybe internal/secret_thought.go" || s.Text == "internal/secret_thought.go" {
			t.Errorf("thinking was extracted: %+v", s)
		}
	}
	// Distinct, in order of first appearance.
	seen := map[Specific]bool{}
	for _, s := range got {
		if seen[s] {
			t.Errorf("duplicate %+v", s)
		}
		seen[s] = true
	}
	// Every specific of a history is found in its own flattened text.
	idx := NewIndex(Flatten(msgs))
	for _, s := range got {
		if !idx.Contains(s.Text) {
			t.Errorf("%+v not in the flattened original", s)
		}
	}
}

func TestMeasure(t *testing.T) {
	sp := []Specific{{CatPath, "a/b.go"}, {CatPath, "c/d.go"}, {CatCommand, "go test ./..."}, {CatError, "panic: boom"}}
	r := Measure(sp, NewIndex("kept a/b.go and ran go test ./... here"))
	if r.Total.Found != 4 || r.Total.Retained != 2 {
		t.Fatalf("total %+v", r.Total)
	}
	if p := r.ByCategory["path"]; p.Found != 2 || p.Retained != 1 || !slices.Equal(p.Lost, []string{"c/d.go"}) {
		t.Fatalf("path %+v", p)
	}
	if m := r.ByCategory["measurement"]; m.Found != 0 || m.Rate() != 1 {
		t.Fatalf("measurement %+v", m)
	}
	if e := r.ByCategory["error"]; e.Rate() != 0 {
		t.Fatalf("error %+v", e)
	}
}
