package ledger

import (
	"slices"
	"testing"

	"github.com/condense-dev/condense"
)

// TestTracebackKeepsProjectFrame: when a Python traceback ends in the
// standard library or an installed package, the project's own deepest
// frame is kept besides the deepest one: that is where its code went wrong.
func TestTracebackKeepsProjectFrame(t *testing.T) {
	out := `Traceback (most recent call last):
  File "/srv/app/invoicely/tasks/export.py", line 88, in settle_pending_rows
    total = compute(rows)
  File "/srv/app/.venv/lib/python3.12/site-packages/money/core.py", line 10, in compute
    raise KeyError(key)
KeyError: 'payment_number_80438'`
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(out)}}
	got := Strings(ExtractResult(nil, &res, 3))
	for _, want := range []string{
		`error "KeyError: 'payment_number_80438'"`,
		"error `File \"/srv/app/.venv/lib/python3.12/site-packages/money/core.py\", line 10, in compute`",
		"error `File \"/srv/app/invoicely/tasks/export.py\", line 88, in settle_pending_rows`",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("%s missing from %q", want, got)
		}
	}
	// A traceback that ends in the project's code keeps that frame once.
	own := "Traceback (most recent call last):\n  File \"app/main.py\", line 3, in <module>\n    run()\nValueError: bad"
	res.Content = []condense.Part{condense.Text(own)}
	n := 0
	for _, s := range Strings(ExtractResult(nil, &res, 3)) {
		if s == "error `File \"app/main.py\", line 3, in <module>`" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the project's frame is listed %d times, want 1", n)
	}
}
