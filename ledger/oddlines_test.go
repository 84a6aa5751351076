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

// TestOddRowsOfShortListings: a row that stands out from a short listing
// is kept whole, as printed, whatever form its handle takes: the one row
// with a cell missing under a header, a row in a bad state among rows
// shaped like it (even when some of its cells were read), and a task
// running for hours among tasks of milliseconds. Two odd rows, rows
// without column gaps, and a file's lines are not.
func TestOddRowsOfShortListings(t *testing.T) {
	for _, tc := range []struct {
		name, out, want string
		odd             bool // the row is marked odd, not only kept
	}{
		{
			name: "a missing cell",
			out: "NAME          INSTANCE     ZONE        NODE                          READY   AGE\n" +
				"spot-b8kzq    m6a.large    us-east-2a  ip-10-4-1-17.ec2.internal     True    3d\n" +
				"spot-wqrtn    m6a.large    us-east-2b  ip-10-4-2-201.ec2.internal    True    6d\n" +
				"spot-4hx2m    c7i.xlarge   us-east-2c                                False   14m\n" +
				"spot-z9d7c    m6a.large    us-east-2a  ip-10-4-1-88.ec2.internal     True    2d\n",
			want: "spot-4hx2m    c7i.xlarge   us-east-2c                                False   14m",
			odd:  true,
		},
		{
			name: "a failed job among others",
			out: "ID                                        NAME               STATE     STARTED\n" +
				"5f0e2c1d-3b7a-4d6e-9f1a-0c2b4d6e8f00-a1   nightly-rollup-12  Running   2026-05-03 01:00\n" +
				"5f0e2c1d-3b7a-4d6e-9f1a-0c2b4d6e8f00-b7   nightly-rollup-11  Failed    2026-05-02 01:00\n" +
				"5f0e2c1d-3b7a-4d6e-9f1a-0c2b4d6e8f00-c3   nightly-rollup-10  Done      2026-05-01 01:00\n",
			want: "5f0e2c1d-3b7a-4d6e-9f1a-0c2b4d6e8f00-b7   nightly-rollup-11  Failed    2026-05-02 01:00",
			odd:  true,
		},
		{
			name: "a consumer down, tab separated",
			out: "queue\tconsumer_tag\tprefetch\tstatus\n" +
				"orders.created\tctag-Qm3xT8vW1pL6nR\t200\tup\n" +
				"orders.settled\tctag-Hd72KqZ0aYw5eB\t20\tdown\n" +
				"orders.refunds\tctag-Ue9sB4cN7tJ2xM\t200\tup\n",
			want: "orders.settled\tctag-Hd72KqZ0aYw5eB\t20\tdown",
			odd:  true,
		},
		{
			name: "hours among milliseconds",
			out: "action                     task_id                   running_time  node\n" +
				"indices:data/write/bulk    nD7qPz0aLx2Wm4Rt:118203   412.5ms       data-1\n" +
				"indices:data/write/reindex nD7qPz0aLx2Wm4Rt:993410   5.2h          data-1\n" +
				"indices:data/read/search   Kc1vBn8eYu3Ts6Hq:420577   98.0ms        data-2\n",
			want: "indices:data/write/reindex nD7qPz0aLx2Wm4Rt:993410   5.2h          data-1",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := outputItems(tc.out)
			i := slices.IndexFunc(items, func(it Item) bool { return it.Value == tc.want })
			if i < 0 {
				t.Fatalf("%q not kept whole: %q", tc.want, Strings(items))
			}
			if tc.odd && !items[i].Odd {
				t.Errorf("%s not marked odd", items[i])
			}
		})
	}

	// Two rows with a cell missing: nothing stands out.
	two := "NAME    ZONE   NODE     READY\nw-1   a   n-1   True\nw-2   b         False\nw-3   a   n-3   True\nw-4   c         False\nw-5   a   n-5   True\n"
	m := markLines(two, nil)
	markOddLines(two, m, true)
	for start, mark := range m {
		if mark&hotOdd != 0 {
			t.Errorf("line at %d of a listing with two odd rows marked odd", start)
		}
	}
	// The same listing with one odd row, as a file's content: no table.
	one := "NAME    ZONE   NODE     READY\nw-1   a   n-1   True\nw-2   b         False\nw-3   a   n-3   True\nw-4   c   n-4   True\n"
	m = markLines(one, m)
	markOddLines(one, m, false)
	for start, mark := range m {
		if mark&hotOdd != 0 {
			t.Errorf("line at %d of a file marked odd", start)
		}
	}
	// Repeated error lines are no table, however many: no row beside the
	// error.
	for _, it := range outputItems("Error: upstream reset\nError: upstream reset\nError: upstream reset\nError: upstream gave up\n") {
		if it.Kind != KindError {
			t.Errorf("%s kept beside the errors", it)
		}
	}
}

// TestOddRowsOfTablesAndRecords: a bar-drawn table's row whose state no
// other row has ("idle in transaction" among "active", words of another
// count), a column's outlier (24 retries among 0 to 3), and the record of
// a pretty-printed array whose member holds a value of its own are kept
// whole; tables and arrays where nothing stands out give nothing of the
// kind.
func TestOddRowsOfTablesAndRecords(t *testing.T) {
	psql := "  pid  |  usename   |        state        |   xact_age\n-------+------------+---------------------+--------------\n" +
		" 7301 | api        | active              | 00:00:01.2\n 7302 | api        | active              | 00:00:00.4\n" +
		" 7303 | billing    | idle in transaction | 00:38:12.9\n 7304 | api        | active              | 00:00:02.0\n" +
		" 7305 | reports    | active              | 00:00:00.7\n(5 rows)\n"
	retries := ""
	for i, r := range []string{"1", "0", "3", "2", "24", "1"} {
		retries += fmt.Sprintf("%024x\tSyncJob%d\t%s\tNet::ReadTimeout\t2026-05-11T10:%02d:07Z\n", 0xa1b2c3+i*7919, i, r, 10+i)
	}
	var recs strings.Builder
	for i, sev := range []string{"temporary", "temporary", "permanent", "temporary", "temporary"} {
		fmt.Fprintf(&recs, "{\n  \"event\": \"failed\",\n  \"severity\": %q,\n  \"message\": \"20260511.%04x@mg.example.dev\"\n}\n", sev, 0xbeef+i)
	}
	for _, tc := range []struct{ name, out, want string }{
		{"bar table", psql, "7303 | billing    | idle in transaction | 00:38:12.9"},
		{"outlier", retries, fmt.Sprintf("%024x\tSyncJob4\t24\tNet::ReadTimeout\t2026-05-11T10:14:07Z", 0xa1b2c3+4*7919)},
		{"records", recs.String(), `"severity": "permanent", "message": "20260511.bef1@mg.example.dev"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := outputItems(tc.out)
			if !slices.ContainsFunc(items, func(it Item) bool { return it.Value == tc.want }) {
				t.Errorf("%q not kept whole: %q", tc.want, Strings(items))
			}
		})
	}
	// nothing stands out: no row, no record kept whole
	even := strings.ReplaceAll(strings.ReplaceAll(psql, "idle in transaction", "active             "), "24", "2")
	evenRecs := strings.ReplaceAll(recs.String(), "permanent", "temporary")
	for _, out := range []string{even, evenRecs, strings.ReplaceAll(retries, "\t24\t", "\t4\t")} {
		for _, it := range outputItems(out) {
			if strings.Contains(it.Value, " | ") && !strings.HasPrefix(it.Value, "(") || strings.Contains(it.Value, `"severity"`) ||
				strings.Contains(it.Value, "\tSyncJob") && it.Kind != KindID {
				t.Errorf("%s kept from output where nothing stands out", it)
			}
		}
	}
}

// TestShortNoteWithCodeSpan: a short sentence of the assistant naming
// something in a code span is a note; a short one without is not.
func TestShortNoteWithCodeSpan(t *testing.T) {
	items := Extract([]condense.Message{condense.UserText("Fix checkout."),
		condense.AssistantText("The flag is `checkout_v2_split_tender`. Looks fine now.")}, 0)
	if !slices.ContainsFunc(items, func(it Item) bool {
		return it.Kind == KindNote && strings.Contains(it.Value, "checkout_v2_split_tender")
	}) {
		t.Errorf("short note with a code span missing: %q", Strings(items))
	}
	if slices.ContainsFunc(items, func(it Item) bool { return strings.Contains(it.Value, "Looks fine") }) {
		t.Errorf("a short remark kept: %q", Strings(items))
	}
}

// TestBadRowsOfAlignedTables: a row in a bad state stands out of a table
// aligned with gaps whose last column is free text of any length (its
// cells shape it, not its word count), and of a table of two columns, a
// resource and its state; the rows in a good state stay routine.
func TestBadRowsOfAlignedTables(t *testing.T) {
	cases := []struct{ text, want, not string }{
		{"database: shop_production\n\n Status   Migration ID    Migration Name\n--------------------------------------------------\n" +
			"   up     20240528141507  Add currency to line items\n   up     20240603082211  Create refund reasons\n" +
			"   up     20240607170934  Backfill refund reasons\n  down    20240611093012  Add index on orders placed at\n",
			"down    20240611093012  Add index on orders placed at", "Create refund reasons"},
		{"Id                                                              State\n----------------------------------------------------------------  ---------\n" +
			"/subscriptions/6b1e/resourceGroups/rg-prod/providers/Microsoft.Web/sites/api-prod       Succeeded\n" +
			"/subscriptions/6b1e/resourceGroups/rg-prod/providers/Microsoft.Sql/servers/sql-prod     Succeeded\n" +
			"/subscriptions/6b1e/resourceGroups/rg-prod/providers/Microsoft.Cache/Redis/redis-prod   Failed\n" +
			"/subscriptions/6b1e/resourceGroups/rg-prod/providers/Microsoft.KeyVault/vaults/kv-prod  Succeeded\n",
			"Microsoft.Cache/Redis/redis-prod   Failed", "Microsoft.Sql/servers/sql-prod     Succeeded"},
		{"ID              NAME                    STATE   REGION\n3d8d9e1c4b6e89  winter-sound-4821       started ams\n" +
			"148ed3e7c21589  polished-frost-1190     stopped ams\ne2865013b44986  misty-river-7352        started fra\n" +
			"a1c2e3f4a5b6c7  quiet-lake-2210         started fra\n",
			"148ed3e7c21589  polished-frost-1190     stopped ams", "misty-river-7352"},
	}
	for _, c := range cases {
		got := Strings(outputItems(c.text))
		if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, c.want) }) {
			t.Errorf("%q not kept: %q", c.want, got)
		}
		if slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, c.not) }) {
			t.Errorf("routine row %q kept: %q", c.not, got)
		}
	}
}
