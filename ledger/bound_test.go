package ledger

import (
	"slices"
	"strings"
	"testing"
)

func TestDefaultBudget(t *testing.T) {
	for _, tc := range []struct{ window, want int }{{200000, 10000}, {64000, 3200}, {0, 0}, {-5, 0}, {19, 0}} {
		if got := DefaultBudget(tc.window); got != tc.want {
			t.Errorf("DefaultBudget(%d) = %d, want %d", tc.window, got, tc.want)
		}
	}
}

func TestPriorityOrder(t *testing.T) {
	for i := 1; i < len(Kinds); i++ {
		if Priority(Kinds[i-1]) < Priority(Kinds[i]) {
			t.Errorf("%s below %s", Kinds[i-1], Kinds[i])
		}
	}
	if Priority(KindError) <= Priority(KindCommand) || Priority(KindCommand) <= Priority(KindFile) || Priority(KindFile) <= Priority(KindMeasurement) {
		t.Error("error > command > file > measurement does not hold")
	}
	if Priority("nonsense") != 0 {
		t.Error("unknown kind has a priority")
	}
}

// words counts one token per space-separated word: easy to reason about.
func words(s string) int { return len(strings.Fields(s)) }

func TestBound(t *testing.T) {
	items := []Item{
		{Kind: KindMeasurement, Value: "p99: 3ms", Source: 9},  // 3 words + 1
		{Kind: KindFile, Value: "a.go", Source: 1},             // 2 + 1
		{Kind: KindError, Value: "panic: boom", Source: 2},     // 3 + 1
		{Kind: KindFile, Value: "b.go", Source: 5},             // 2 + 1
		{Kind: KindPinned, Value: "keep this", Source: 0},      // 3 + 1
		{Kind: KindFile, Value: "./b.go", Source: 7},           // duplicate of b.go
		{Kind: KindCommand, Value: "go test ./...", Source: 3}, // 4 + 1
		{Kind: KindID, Value: "ENG-1", Source: 8},              // 2 + 1
	}
	cases := []struct {
		budget  int
		kept    []string
		demoted []string
	}{
		{0, nil, []string{"measurement \"p99: 3ms\"", "file a.go", "error \"panic: boom\"", "file b.go", "pinned \"keep this\"", "command \"go test ./...\"", "id ENG-1"}},
		// pinned (4) then error (4): 8.
		{8, []string{"error \"panic: boom\"", "pinned \"keep this\""}, []string{"measurement \"p99: 3ms\"", "file a.go", "file b.go", "command \"go test ./...\"", "id ENG-1"}},
		// Then the rare, recent id (3) and measurement (4): 15. The command
		// (5) no longer fits; b.go, seen twice and only mentioned, ranks
		// last.
		{16, []string{"measurement \"p99: 3ms\"", "error \"panic: boom\"", "pinned \"keep this\"", "id ENG-1"}, []string{"file a.go", "file b.go", "command \"go test ./...\""}},
		// +command (5) = 20; neither file fits in the 2 left.
		{22, []string{"measurement \"p99: 3ms\"", "error \"panic: boom\"", "pinned \"keep this\"", "command \"go test ./...\"", "id ENG-1"}, []string{"file a.go", "file b.go"}},
		{100, []string{"measurement \"p99: 3ms\"", "file a.go", "error \"panic: boom\"", "file b.go", "pinned \"keep this\"", "command \"go test ./...\"", "id ENG-1"}, nil},
	}
	for _, tc := range cases {
		kept, demoted := Bound(items, tc.budget, words)
		if got := Strings(kept); !slices.Equal(got, tc.kept) {
			t.Errorf("budget %d kept:\n got  %q\n want %q", tc.budget, got, tc.kept)
		}
		if got := Strings(demoted); !slices.Equal(got, tc.demoted) {
			t.Errorf("budget %d demoted:\n got  %q\n want %q", tc.budget, got, tc.demoted)
		}
		if len(kept)+len(demoted) != len(Dedup(items)) {
			t.Errorf("budget %d: %d kept + %d demoted != %d distinct", tc.budget, len(kept), len(demoted), len(Dedup(items)))
		}
		cost := 0
		for _, it := range kept {
			cost += words(it.String()) + 1
		}
		if cost > tc.budget {
			t.Errorf("budget %d: kept cost %d", tc.budget, cost)
		}
	}
}

// TestBoundSkips checks that an item too big for what is left is demoted
// while a smaller, lower-priority one after it is kept.
func TestBoundSkips(t *testing.T) {
	items := []Item{
		{Kind: KindError, Value: strings.Repeat("word ", 10)},
		{Kind: KindMeasurement, Value: "1ms"},
	}
	kept, demoted := Bound(items, 5, words)
	if len(kept) != 1 || kept[0].Kind != KindMeasurement || len(demoted) != 1 || demoted[0].Kind != KindError {
		t.Errorf("kept %v, demoted %v", kept, demoted)
	}
}

func TestBoundDefaultCounter(t *testing.T) {
	items := []Item{{Kind: KindFile, Value: strings.Repeat("a", 20) + ".go"}} // "file " + 23 = 28 bytes → 12 tokens + 1
	if kept, _ := Bound(items, 13, nil); len(kept) != 1 {
		t.Errorf("13 tokens should hold the item")
	}
	if kept, demoted := Bound(items, 12, nil); len(kept) != 0 || len(demoted) != 1 {
		t.Errorf("12 tokens should not hold the item")
	}
}

func TestSectionAndMissing(t *testing.T) {
	kept := []Item{{Kind: KindFile, Value: "a.go", Access: Written}, {Kind: KindError, Value: "panic: x [1]"}}
	want := "## Ledger\n- file a.go (written)\n- error \"panic: x [1]\"\n- (3 more demoted to recall-only)\n"
	if got := Section(kept, 3); got != want {
		t.Errorf("Section:\n%s\nwant\n%s", got, want)
	}
	if Section(nil, 0) != "" {
		t.Error("empty section is not empty")
	}
	text := "[condense: tool output masked (10 tokens) · recall r1-00000000 · kept: " + strings.Join(Strings(kept[:1]), "; ") + "]"
	if m := Missing(text, kept); len(m) != 1 || m[0].Kind != KindError {
		t.Errorf("Missing = %v", m)
	}
}
