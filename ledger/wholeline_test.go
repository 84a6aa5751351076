package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestWholeLineEdges: the cases where a figure's line is or is not kept
// whole, and the readers around it, found in review.
func TestWholeLineEdges(t *testing.T) {
	// a table's only row is kept as printed, as its rows are when there
	// are several
	itemsHeld(t, "| api | 481 ms |\n", []string{`measurement "| api | 481 ms |"`}, nil)
	// a JSON record in an array or behind a prefix keeps its figure with
	// its key
	itemsHeld(t, `  {"ts":"2026-12-01T10:00:00Z","latency":"703.1ms"},`, []string{"measurement `\"latency\":\"703.1ms\"`"}, nil)
	itemsHeld(t, `data: {"latency":"703.1ms","route":"/checkout"}`, []string{"measurement `\"latency\":\"703.1ms\"`"}, nil)
	// the rows past a profile's top ones are passed over until the table
	// ends, and a line after it is read again
	itemsHeld(t, "      flat  flat%   sum%        cum   cum%\n     1.20s 31.58% 31.58%      1.50s 39.47%  main.a\n"+
		"     0.80s 21.05% 52.63%      0.80s 21.05%  main.b\n     0.40s 10.53% 63.16%      0.40s 10.53%  main.c\n"+
		"     0.30s  7.89% 71.05%      0.30s  7.89%  main.d\n\n3 passed in 41.2s\n",
		[]string{`measurement "3 passed in 41.2s"`}, []string{`measurement "0.30s  7.89% 71.05%      0.30s  7.89%  main.d"`})
}

// TestTwoColumnsOfOneRow: a row kept whole for one column's figure counts
// for its other column too, so each column keeps its largest rows.
func TestTwoColumnsOfOneRow(t *testing.T) {
	var b strings.Builder
	b.WriteString("Endpoint   Mean(ms)   P99(ms)\n")
	for i := range 10 {
		fmt.Fprintf(&b, "/e%02d       %d.5       %d.5\n", i, 10+i, 90-i)
	}
	got := Strings(outputItems(b.String()))
	for _, w := range []string{"/e00", "/e09"} {
		if !slices.ContainsFunc(got, func(v string) bool { return strings.HasPrefix(v, `measurement "`+w) }) {
			t.Errorf("row %s (largest of a column) missing from %q", w, got)
		}
	}
}

// TestReviewedReaders: a Terraform diagnostic with the values of its
// expression, a benchmark's name with a number, a rule's forbidden
// commands, times read as line numbers, a library's advice and guesses
// with "must have".
func TestReviewedReaders(t *testing.T) {
	tf := "╷\n│ Error: Invalid count argument\n│\n│   with aws_instance.web,\n│   on main.tf line 12, in resource \"aws_instance\" \"web\":\n" +
		"│   12:   count = var.n\n│     ├────────────────\n│     │ var.n is \"abc\"\n│\n│ The given \"count\" argument value is unsuitable.\n╵\n"
	if got := Strings(outputItems(tf)); !slices.Contains(got, "error `The given \"count\" argument value is unsuitable.`") {
		t.Errorf("terraform detail missing from %q", got)
	}
	bench := "BenchmarkSplit-8   1000   120 ns/op   0 B/op\nBenchmarkJoin-8   1000   130 ns/op   0 B/op\n" +
		"BenchmarkTrim-8   1000   110 ns/op   0 B/op\nBenchmarkDecode8192-8   1000   150 ns/op   48 B/op\n"
	if got := values(result("go test -bench .", bench, false), KindID); slices.Contains(got, "BenchmarkDecode8192-8") {
		t.Errorf("a benchmark's name read as an id: %q", got)
	}
	call := condense.ToolCall("c1", "bash", []byte(`{"command":"cat CONTRIBUTING.md"}`))
	res := condense.ToolResult("c1", false, condense.Text("Never run `git push --force origin main`; run `make check` first.\n"))
	for _, it := range ExtractResult(&call, &res, 1) {
		if it.Kind == KindCommand && it.Value == "git push --force origin main" {
			t.Errorf("a forbidden command kept as one")
		}
	}
	for in, want := range map[string]string{
		"09:00 standup\n2024-05-02 release cut\n2024-06-01 freeze": "09:00 standup\n2024-05-02 release cut\n2024-06-01 freeze",
	} {
		if got := unnumbered(in); got != want {
			t.Errorf("unnumbered(%q) = %q", in, got)
		}
	}
	readme := "# fastq\n\nResults must be taken with a grain of salt.\nThe worker function must call the callback exactly once.\n"
	call = condense.ToolCall("c1", "bash", []byte(`{"command":"cat README.md"}`))
	res = condense.ToolResult("c1", false, condense.Text(readme))
	for _, it := range ExtractResult(&call, &res, 1) {
		if it.Kind == KindConstraint {
			t.Errorf("a library's advice read as a rule: %q", it.Value)
		}
	}
	for _, s := range []string{"The migration must have hit a lock timeout.", "someone must have set DEBUG=1 on staging",
		"it must have lost the connection"} {
		if got := proseKinds(condense.UserText(s)); len(got) != 0 {
			t.Errorf("%q: got %q, want nothing", s, got)
		}
	}
}

// TestErrorLineAsPrinted: an error a reader puts together from one line
// of output (a log record's message and its error field) is kept as the
// line was printed, so that a search for the line or any part of it finds
// it; the same error on a later line, its time apart, is that item again.
// A JSON record and a line past the value cap keep the reader's form.
func TestErrorLineAsPrinted(t *testing.T) {
	line := `ts=2026-05-02T08:14:09Z level=error msg="lease renewal failed" err="context deadline exceeded" holder=sched-1`
	items := Strings(outputItems(line + "\n" + strings.Replace(line, "08:14:09", "08:14:19", 1) + "\n"))
	held(t, line, items, []string{"error `" + line + "`"}, []string{`error "lease renewal failed: context deadline exceeded"`})
	if n := len(slices.DeleteFunc(items, func(v string) bool { return !strings.HasPrefix(v, "error ") })); n != 1 {
		t.Errorf("%d error items for one error printed twice: %q", n, items)
	}
	itemsHeld(t, `{"level":"error","msg":"lease renewal failed","err":"context deadline exceeded"}`,
		[]string{`error "lease renewal failed: context deadline exceeded"`}, nil)
	long := `ts=2026-05-02T08:14:09Z level=error msg="lease renewal failed" err="context deadline exceeded" holder=sched-1 ` + strings.Repeat("k=v ", 30)
	itemsHeld(t, long, []string{`error "lease renewal failed: context deadline exceeded"`}, nil)
}
