package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestOddLineOutranksItsListing: in a listing of commits that all look
// alike, the ids on the one line shaped unlike the others rank above the
// routine ones; in output of many shapes nothing is marked.
func TestOddLineOutranksItsListing(t *testing.T) {
	words := []string{"Fix", "Bump", "Refactor", "Remove", "Add"}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "%07x %s payment in billing\n", 0x1a2b3c4+i*7919, words[i%len(words)])
		if i == 17 {
			b.WriteString("0b92945 Reconcile the payment webhook (#483)\n")
		}
	}
	items := outputItems(b.String())
	var tally Tally
	tally.Add(items)
	odd, routine := -1, -1
	for _, it := range items {
		if it.Kind != KindID {
			continue
		}
		switch s := tally.Salience(it); {
		case it.Value == "0b92945" || it.Value == "#483":
			odd = s
			if !it.Odd {
				t.Errorf("%s not marked odd", it)
			}
		case it.Odd:
			t.Errorf("%s marked odd: its line is routine", it)
		default:
			routine = max(routine, s)
		}
	}
	if odd < 0 || routine < 0 {
		t.Fatalf("ids missing: %q", Strings(items))
	}
	if odd <= routine {
		t.Errorf("odd line's id ranks %d, not above the routine ids' %d", odd, routine)
	}

	// Many shapes: nothing stands out.
	b.Reset()
	for i := range 30 {
		fmt.Fprintf(&b, "%07x %s\n", 0x1a2b3c4+i*7919, strings.Repeat("word ", i%7))
	}
	for _, it := range outputItems(b.String()) {
		if it.Odd {
			t.Errorf("%s marked odd in output of many shapes", it)
		}
	}
}

// TestOddCellMarksItsRow: in a table whose column holds one value in most
// rows, the row holding a value of its own is odd, and its key is an id;
// a column whose values all differ, or that splits evenly, marks nothing.
func TestOddCellMarksItsRow(t *testing.T) {
	for _, tc := range []struct {
		name, out string
		odd       []string // the lines marked odd
		id        string   // an id the output must yield, if any
	}{
		{
			name: "psql rows, one stuck",
			out: "  id   | status  | updated_at\n-------+---------+---------------------\n" +
				" 48211 | done    | 2026-11-30 10:00:01\n 48212 | done    | 2026-11-30 10:00:02\n" +
				" 48213 | stuck   | 2026-11-30 09:14:55\n 48214 | done    | 2026-11-30 10:00:04\n(4 rows)",
			odd: []string{" 48213 | stuck   | 2026-11-30 09:14:55"},
			id:  "48213",
		},
		{
			name: "kubectl jobs, one incomplete",
			out: "NAME                        COMPLETIONS   DURATION   AGE\n" +
				"nightly-billing-28301770    1/1           41s        4h\nnightly-billing-28301771    1/1           39s        3h\n" +
				"nightly-billing-28301772    1/1           44s        2h\nnightly-billing-28301773    1/1           40s        1h\n" +
				"nightly-billing-28301774    0/1           12m        12m",
			odd: []string{"nightly-billing-28301774    0/1           12m        12m"},
			id:  "nightly-billing-28301774",
		},
		{
			name: "all values differ",
			out:  "a1 10 x\nb2 20 y\nc3 30 z\nd4 40 w\ne5 50 v",
		},
		{
			name: "an even split",
			out:  "job-101 ok\njob-102 failed\njob-103 ok\njob-104 failed\njob-105 ok\njob-106 failed",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := markLines(tc.out, nil)
			markOddLines(tc.out, m, true)
			var odd []string
			for start := 0; start < len(tc.out); {
				end := lineEnd(tc.out, start)
				if m[start]&hotCell != 0 {
					odd = append(odd, tc.out[start:end])
				}
				start = end + 1
			}
			if !slices.Equal(odd, tc.odd) {
				t.Errorf("odd lines %q, want %q", odd, tc.odd)
			}
			m = markLines(tc.out, m)
			markOddLines(tc.out, m, false)
			for start, mark := range m {
				if mark&(hotOdd|hotCell) != 0 {
					t.Errorf("source content: line at %d marked odd", start)
				}
			}
			if tc.id == "" {
				return
			}
			for _, it := range outputItems(tc.out) {
				if it.Kind == KindID && it.Value == tc.id {
					if !it.Odd {
						t.Errorf("%s not marked odd", it)
					}
					return
				}
			}
			t.Errorf("no id %s in %q", tc.id, Strings(outputItems(tc.out)))
		})
	}
}

// TestOddRowOfCSV: in a CSV export, the row whose status no other row has
// is odd and its key is kept, whether the other rows share one status or
// a few; the routine rows' keys are not.
func TestOddRowOfCSV(t *testing.T) {
	statuses := []string{"paid", "pending", "refunded"}
	var b strings.Builder
	b.WriteString("invoice,status,amount,currency,created_at\n")
	for i := range 14 {
		fmt.Fprintf(&b, "INV-2026-%06d,%s,%d,EUR,2026-04-11 1%d:40:05+00\n", 381033+i*7919, statuses[i%3], 1000+i*37, i%10)
		if i == 9 {
			b.WriteString("INV-2026-468873,stuck_pending,54910,EUR,2026-04-11 19:12:36+00\n")
		}
	}
	c := condense.ToolCall("c1", "bash", []byte(`{"command":"psql -c \"\\copy (select * from invoices) to stdout csv header\""}`))
	r := condense.ToolResult("c1", false, condense.Text(b.String()))
	items := ExtractResult(&c, &r, 1)
	ids := 0
	for _, it := range items {
		if it.Kind == KindID {
			ids++
		}
	}
	if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindID && it.Value == "INV-2026-468873" }) || ids > 2 {
		t.Errorf("want the odd row's key and few others, got %q", Strings(items))
	}
}
