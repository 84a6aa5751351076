package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestJSONLogOutlierPastTheCap: in a JSON log with more timings than the
// per-kind cap, the one slow request replaces a fast one, as it does in a
// plain log ("took=3472.1ms").
func TestJSONLogOutlierPastTheCap(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `{"level":"info","msg":"hydrate ok","took":"%dms"}`+"\n", 50+i)
	}
	b.WriteString(`{"level":"warn","msg":"slow hydrate","took":"4182.3ms"}` + "\n")
	for i := range 10 {
		fmt.Fprintf(&b, `{"level":"debug","msg":"retry","took":"%dms"}`+"\n", 20+i)
	}
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	got := Strings(ExtractResult(nil, &res, 3))
	if !slices.Contains(got, "measurement `\"took\":\"4182.3ms\"`") {
		t.Errorf("the slow request is lost: %q", got)
	}
}

// TestLoudLines: items on a log line at warning level or above are marked
// loud, in every common log shape, and outrank the same kind on routine
// lines; a word like "warning" in prose or a path does not make a line
// loud.
func TestLoudLines(t *testing.T) {
	for _, l := range []string{
		`{"level":"warn","msg":"slow hydrate","took":"4182.3ms"}`,
		`time=2026-04-19T08:23:50Z level=error msg="payment failed" order=ORD-7731`,
		`[2026-04-25 08:12:24,841] WARNING invoicely.api: retry budget low`,
		`2026-04-25T08:12:24Z WARN  cache: eviction storm`,
		`severity: ERROR message: disk full`,
	} {
		if !loudLine(l) {
			t.Errorf("not loud: %s", l)
		}
	}
	for _, l := range []string{
		`INFO request served took=12ms`,
		`see docs/warnings.md for the list of ERRORS_OK flags`,
		`{"level":"info","msg":"ok"}`,
	} {
		if loudLine(l) {
			t.Errorf("loud: %s", l)
		}
	}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "level=info msg=\"served\" took=%dms\n", 10+i)
	}
	b.WriteString("level=warn msg=\"slow request\" took=612ms\n")
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	var tl Tally
	items := ExtractResult(nil, &res, 3)
	tl.Add(items)
	var loud, quiet *Item
	for i := range items {
		switch {
		case strings.Contains(items[i].Value, "took=612ms"):
			loud = &items[i]
		case quiet == nil && items[i].Kind == KindMeasurement:
			quiet = &items[i]
		}
	}
	if loud == nil || quiet == nil {
		t.Fatalf("items %q", Strings(items))
	}
	if !loud.Loud || quiet.Loud {
		t.Errorf("loud marks: warn line %v, info line %v", loud.Loud, quiet.Loud)
	}
	if tl.Salience(*loud) <= tl.Salience(*quiet) {
		t.Errorf("the warning's measurement does not outrank a routine one: %d <= %d", tl.Salience(*loud), tl.Salience(*quiet))
	}
}

// TestRoutineFiguresCollapse: figures that repeat under one label in a
// piece of the log keep only the largest few, whatever the per-kind cap:
// eight "took=8xms" lines and one slow one leave the slow one and two
// others, and figures under other labels are not touched.
func TestRoutineFiguresCollapse(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, "level=info msg=\"hydrate ok\" took=%dms\n", 80+i)
	}
	b.WriteString("level=warn msg=\"slow hydrate\" took=3472.1ms\nqueue depth: 41.2ms lag\np99 latency: 812ms\n")
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	var took []string
	got := Strings(ExtractResult(nil, &res, 3))
	for _, v := range got {
		if strings.HasPrefix(v, "measurement ") && strings.Contains(v, "took=") {
			took = append(took, v)
		}
	}
	if len(took) != sameLabelCap || !slices.ContainsFunc(took, func(v string) bool { return strings.Contains(v, "took=3472.1ms") }) {
		t.Errorf("took figures = %q, want the %d largest, the slow one among them", took, sameLabelCap)
	}
	if !slices.Contains(got, `measurement "p99 latency: 812ms"`) {
		t.Errorf("another label's figure is lost: %q", got)
	}
}
