package ledger

import (
	"slices"
	"testing"
)

// TestTableFigures: a table row with a figure is kept as printed,
// whatever draws the table (box characters, Markdown, psql), and its
// header and rules are not; a table whose first row no rule follows has no
// header, and its first row is read as figures like any line.
func TestTableFigures(t *testing.T) {
	for _, tc := range []struct {
		name string
		text string
		want []string
		not  []string
	}{
		{"box", "Running 30s test @ http://localhost:3012/cart\n" +
			"┌─────────┬──────┬──────────┬──────────┐\n" +
			"│ Stat    │ 50%  │ Avg      │ Stdev    │\n" +
			"├─────────┼──────┼──────────┼──────────┤\n" +
			"│ Latency │ 8 ms │ 189.73 ms │ 21.90 ms │\n" +
			"└─────────┴──────┴──────────┴──────────┘\n",
			[]string{`measurement "│ Latency │ 8 ms │ 189.73 ms │ 21.90 ms │"`},
			[]string{`measurement "│ Stat    │ 50%  │ Avg      │ Stdev    │"`, `measurement "189.73 ms"`}},
		{"markdown", "| Benchmark | Before | After |\n|---|---:|---:|\n| parse 1k | 142.6 µs | 98.2 µs |\n| encode | 1.2 ms | -0.4 ms |\n",
			[]string{`measurement "| parse 1k | 142.6 µs | 98.2 µs |"`, `measurement "| encode | 1.2 ms | -0.4 ms |"`},
			[]string{`measurement "|---|---:|---:|"`}},
		{"psql", " query      | mean_time\n------------+-----------\n select ... | 4771.4ms\n(1 row)\n",
			[]string{`measurement "select ... | 4771.4ms"`}, nil},
		{"no header", "| warm | 12.5 ms |\n| cold | 340 ms |\n",
			[]string{`measurement "| warm | 12.5 ms |"`, `measurement "| cold | 340 ms |"`}, nil},
		{"header ends with the table", "| stage | time |\n|---|---|\n| build | 3.2s |\n\nfetch took 812ms\n",
			[]string{`measurement "| build | 3.2s |"`, `measurement "fetch took 812ms"`}, nil},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
}

// TestTableIDs: the id columns of a short query result are ids, under
// their column's name; a long result's rows (by count or by psql's
// footer), small numbers and a log's routine tenant numbers are not.
func TestTableIDs(t *testing.T) {
	for _, tc := range []struct {
		text      string
		want, not []string
	}{
		{" id    | email\n-------+------\n 48213 | a@x\n(1 row)", []string{"id id=48213"}, nil},
		{"+-------+-------+\n| id    | email |\n+-------+-------+\n| 48213 | a@x   |\n+-------+-------+\n1 row in set (0.00 sec)", []string{"id id=48213"}, nil},
		{" user_id | uuid                                 | n\n---------+--------------------------------------+---\n   48213 | 9f3c2e1a-55b0-4c2e-8d1f-0a9b8c7d6e5f | 1", []string{"id user_id=48213", "id uuid=9f3c2e1a-55b0-4c2e-8d1f-0a9b8c7d6e5f"}, nil},
		{" id    | email\n-------+------\n 48213 | a@x\n 48214 | b@x\n 48215 | c@x\n 48216 | d@x\n(4 rows)", nil, []string{"id id=48213", "id id=48216"}},
		{" id    | email\n-------+------\n 48213 | a@x\n 48214 | b@x\n(219 rows)", nil, []string{"id id=48213"}},
		{" id | tenant_id | name\n----+-----------+-----\n 12 |       105 | acme\n(1 row)", nil, []string{"id id=12", "id tenant_id=105"}},
	} {
		holds(t, tc.text, Strings(outputItems(tc.text)), tc.want, tc.not)
	}
}

// holds reports, for the items got from text, each of want that is
// missing and each of not that is there.
func holds(t *testing.T, text string, got, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%q: %s missing from %q", text, w, got)
		}
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("%q: %s should not be an item (%q)", text, n, got)
		}
	}
}
