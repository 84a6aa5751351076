package ledger

import (
	"fmt"
	"slices"
	"testing"

	"github.com/condense-dev/condense"
)

func exit(n int) *int { return &n }

// TestSalienceSignals checks each signal on its own: the first item of each
// pair must rank above the second.
func TestSalienceSignals(t *testing.T) {
	var listing []Item
	for i := range 40 {
		listing = append(listing, Item{Kind: KindFile, Value: fmt.Sprintf("internal/pkg%d/file.go", i)})
	}
	var tl Tally
	tl.Add(listing)
	for range 12 {
		tl.Add([]Item{{Kind: KindError, Value: "warning: deprecated flag"}})
	}
	tl.Add([]Item{{Kind: KindError, Value: `pq: duplicate key value violates unique constraint "orders_pkey"`}})
	for i := range 20 {
		tl.Add([]Item{{Kind: KindError, Value: fmt.Sprintf("[2026-04-25 12:%02d:31,511] ERROR app.tasks: apply payment: timeout after 5s tenant=%d", i, 100+i)}})
	}
	tl.Add([]Item{{Kind: KindID, Value: "OPS-4417"}, {Kind: KindFile, Value: "cmd/api/main.go"}})
	for range 30 {
		tl.Add([]Item{{Kind: KindCommand, Value: "cat go.mod", Exit: exit(0)}})
	}
	tl.Add([]Item{{Kind: KindCommand, Value: "go test ./store/...", Exit: exit(1)}})
	tl.Add([]Item{{Kind: KindFile, Value: "store/orders.go", Access: Written}})
	tl.Add([]Item{{Kind: KindFile, Value: "store/orders_test.go", Access: Read}})

	pairs := []struct {
		why         string
		high, lower Item
	}{
		{"a rare identifier beats a path from a crowded listing", Item{Kind: KindID, Value: "OPS-4417"}, listing[7]},
		{"the only path of its piece beats one of a listing", Item{Kind: KindFile, Value: "cmd/api/main.go"}, listing[3]},
		{"an error seen once beats one seen in twelve pieces", Item{Kind: KindError, Value: `pq: duplicate key value violates unique constraint "orders_pkey"`}, Item{Kind: KindError, Value: "warning: deprecated flag"}},
		{"a one-off error beats a log line whose shape repeats with other numbers", Item{Kind: KindError, Value: `pq: duplicate key value violates unique constraint "orders_pkey"`},
			Item{Kind: KindError, Value: "[2026-04-25 12:07:31,511] ERROR app.tasks: apply payment: timeout after 5s tenant=107"}},
		{"a failed command beats a routine look", Item{Kind: KindCommand, Value: "go test ./store/...", Exit: exit(1)}, Item{Kind: KindCommand, Value: "cat go.mod", Exit: exit(0)}},
		{"a written file beats a read one", Item{Kind: KindFile, Value: "store/orders.go", Access: Written}, Item{Kind: KindFile, Value: "store/orders_test.go", Access: Read}},
		{"a constraint beats a rare identifier", Item{Kind: KindConstraint, Value: "never touch the migrations"}, Item{Kind: KindID, Value: "OPS-4417"}},
		{"the task beats everything but pinned facts", Item{Kind: KindTask, Value: "fix the bug"}, Item{Kind: KindConstraint, Value: "never touch the migrations"}},
	}
	for _, p := range pairs {
		if h, l := tl.Salience(p.high), tl.Salience(p.lower); h <= l {
			t.Errorf("%s: %d <= %d", p.why, h, l)
		}
	}
}

// TestBoundBySalience bounds a realistic mix: a tight budget keeps the rare
// specifics and drops the crowd, whatever the order items came in.
func TestBoundBySalience(t *testing.T) {
	var tl Tally
	var all []Item
	var listing []Item
	for i := range 60 {
		listing = append(listing, Item{Kind: KindFile, Value: fmt.Sprintf("src/module%d/handler.py", i), Source: 10})
	}
	tl.Add(listing)
	all = append(all, listing...)
	rare := []Item{
		{Kind: KindID, Value: "a3f9c2e", Source: 20},
		{Kind: KindMeasurement, Value: "p95 latency 812ms", Source: 30},
		{Kind: KindError, Value: "context deadline exceeded while waiting for lease", Source: 40},
	}
	for _, it := range rare {
		tl.Add([]Item{it})
	}
	all = append(rare, all...) // rare first in input: order must not matter
	budget := 0
	for _, it := range rare {
		budget += ApproxTokens(it.String()) + 1
	}
	kept, demoted := BoundBy(all, budget+5, nil, &tl)
	if !slices.EqualFunc(kept, rare, func(a, b Item) bool { return a.Key() == b.Key() }) {
		t.Errorf("kept %v, want the rare items", Strings(kept))
	}
	if len(demoted) != 60 {
		t.Errorf("demoted %d, want the 60 listed paths", len(demoted))
	}
	slices.Reverse(all)
	kept2, _ := BoundBy(all, budget+5, nil, &tl)
	if len(kept2) != len(kept) {
		t.Errorf("input order changed what was kept: %v vs %v", Strings(kept2), Strings(kept))
	}
}

func TestRoutineCommand(t *testing.T) {
	for cmd, want := range map[string]bool{
		"cat go.mod": true, "ls -la": true, "grep -rn foo .": true, "/usr/bin/head -5 x": true,
		"git status": true, "git diff HEAD~1": true, "LC_ALL=C sort x": false, "sudo cat /etc/hosts": true,
		"go test ./...": false, "git commit -m x": false, "npm run build": false, "": false,
		"pytest -x tests/": false, "FOO=1 grep x y": true,
	} {
		if got := routineCommand(cmd); got != want {
			t.Errorf("routineCommand(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// BenchmarkExtractAndRank is the ledger's part of a compaction of a 3 MB
// session: extract each tool result with its call, tally it, and bound all
// items by salience to a 5% ledger of a 200k window. Run with -benchmem.
func BenchmarkExtractAndRank(b *testing.B) {
	msgs, n := benchHistory(b, 3_000_000)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		tl, all := tallyResults(msgs)
		BoundBy(all, DefaultBudget(200_000), nil, tl)
	}
}

// tallyResults extracts each tool result of a benchHistory with its call
// and tallies it as one piece, as masking does.
func tallyResults(msgs []condense.Message) (*Tally, []Item) {
	var tl Tally
	var all []Item
	for i := 2; i < len(msgs); i += 2 {
		items := ExtractResult(&msgs[i-1].Parts[1], &msgs[i].Parts[0], i)
		tl.Add(items)
		all = append(all, items...)
	}
	return &tl, all
}

// BenchmarkBound ranks the items of a 3 MB session alone.
func BenchmarkBound(b *testing.B) {
	msgs, _ := benchHistory(b, 3_000_000)
	tl, all := tallyResults(msgs)
	b.ReportMetric(float64(len(all)), "items")
	b.ReportAllocs()
	for b.Loop() {
		BoundBy(all, DefaultBudget(200_000), nil, tl)
	}
}

// TestExtractTally: a span extracted with its tally ranks a path listed in
// every message below one named once, although both come back once.
func TestExtractTally(t *testing.T) {
	msgs := []condense.Message{condense.UserText("Fix the importer.")}
	for i := range 6 {
		id := fmt.Sprintf("c%d", i)
		in := []byte(`{"command":"grep -rn Import ."}`)
		out := "internal/importer/csv.go:12: func Import\ninternal/importer/json.go:40: func Import\n"
		if i == 3 {
			out += "cmd/tool/legacy_import.go:7: // Import is deprecated\n"
		}
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", in)}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(out))}})
	}
	var tl Tally
	items := ExtractTally(msgs, 0, &tl)
	if got, want := len(items), len(Extract(msgs, 0)); got != want {
		t.Fatalf("ExtractTally gave %d items, Extract %d", got, want)
	}
	once := Item{Kind: KindFile, Value: "cmd/tool/legacy_import.go"}
	often := Item{Kind: KindFile, Value: "internal/importer/csv.go"}
	if tl.Seen(often.Key()) != 6 || tl.Seen(once.Key()) != 1 {
		t.Fatalf("seen: %d and %d, want 6 and 1", tl.Seen(often.Key()), tl.Seen(once.Key()))
	}
	if tl.Salience(once) <= tl.Salience(often) {
		t.Errorf("the path seen once ranks %d, not above the one seen six times (%d)", tl.Salience(once), tl.Salience(often))
	}
}
