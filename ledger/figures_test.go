package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestFigureReport(t *testing.T) {
	yes := []string{
		"STAT evictions 3890435",
		"avg_wait_time     | 421482",
		"p99: ...................................................................... 864.9",
		"vusers.completed: .......................................................... 4757",
		"queue_depth = 1832",
		"heap_inuse: 512.5MiB",
		"Totals       25094.29     12319.28     10494.82         4.01400         3.61200",
		"08:42:37     1000     35467     239.25      23.61    0.00    0.00     262.78     3  node",
		"   60.0s        3         698820          11647.0      3.5      2.7      8.6",
		"TCP:   8211 (estab 902, closed 7290, orphaned 12, timewait 7281)",
		"load average: 7.92, 6.10, 5.33",
	}
	no := []string{
		"replicas: 3",            // one digit: a setting, not a report
		"version: 1.2.3",         // a version
		"Exit code: 101",         // a header
		"left: 42",               // an assertion's operand
		"c-3 1/1 Running 0 5m",   // a status row
		"listening on port 80",   // a sentence
		"the build took forever", // no figure
		"a b c d e f 12 13",      // too few figures in the row, and no gaps
		"git log -n 20",
		"index ad388c7..20da768 100644", // a diff's header
		"Found 3 issues in 2 files and 1 directory: see the 12 notes below for 45 details",
		"job-48210  nightly-export    Running   10:02", // a time of day, not a label's figure
	}
	for _, s := range yes {
		if !figureReport(s) {
			t.Errorf("%q: not read as a report's line", s)
		}
	}
	for _, s := range no {
		if figureReport(s) {
			t.Errorf("%q: read as a report's line", s)
		}
	}
}

// The report's lines of a tool's output are kept whole, as printed; the
// same lines read from a source file are not.
func TestFigureReportLinesKeptWhole(t *testing.T) {
	out := "STAT curr_items 9044703\nSTAT evictions 3890435\n" +
		"-[ RECORD 1 ]-----+-----------\ndatabase          | app\ntotal_xact_count  | 4706514\navg_wait_time     | 421482\n"
	call := condense.ToolCall("c1", "bash", []byte(`{"command":"./report.sh"}`))
	res := condense.ToolResult("c1", false, condense.Text(out))
	got := Strings(ExtractResult(&call, &res, 1))
	for _, want := range []string{`measurement "STAT evictions 3890435"`, `measurement "avg_wait_time     | 421482"`} {
		if !slices.Contains(got, want) {
			t.Errorf("%s not in %q", want, got)
		}
	}
	read := condense.ToolCall("c2", "bash", []byte(`{"command":"cat internal/stats.go"}`))
	res = condense.ToolResult("c2", false, condense.Text("package stats\n\n// STAT evictions 3890435\nconst limit = 1073741824\n"))
	for _, it := range ExtractResult(&read, &res, 2) {
		if it.Kind == KindMeasurement {
			t.Errorf("a source file's line read as a report: %s", it)
		}
	}
}

// The row of a uniform listing that stands out (a value in a column no
// other row has, or a shape of its own) is kept whole when it holds
// figures; a numbered line of code is no such row.
func TestOddRowKeptWhole(t *testing.T) {
	out := "action                     task_id          running_time node\n" +
		"indices:data/write/bulk    kQ3x:2997229     446.8ms      es-data-3\n" +
		"indices:data/write/bulk    kQ3x:5752824     546.6ms      es-data-3\n" +
		"indices:data/write/bulk    kQ3x:6673804     613.1ms      es-data-2\n" +
		"indices:data/write/bulk    kQ3x:4804342     802.7ms      es-data-1\n" +
		"indices:data/write/bulk    kQ3x:1627716     258.0ms      es-data-3\n" +
		"indices:data/write/bulk    kQ3x:7712093     341.9ms      es-data-2\n" +
		"indices:data/write/reindex kQ3x:8928735     6.8h         es-data-3\n"
	call := condense.ToolCall("c1", "bash", []byte(`{"command":"curl -s 'localhost:9200/_cat/tasks?v'"}`))
	res := condense.ToolResult("c1", false, condense.Text(out))
	got := Strings(ExtractResult(&call, &res, 1))
	if !slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "kQ3x:8928735     6.8h") }) {
		t.Errorf("the odd row is not kept whole in %q", got)
	}
	if slices.ContainsFunc(got, func(s string) bool { return strings.Contains(s, "kQ3x:2997229") }) {
		t.Errorf("a routine row is kept in %q", got)
	}
}
