package strategy

import (
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/tokens"
)

// TestPlaceLedgerSkipsUntilSettled: an item shared by several results goes
// to the first one masked; when that one's placeholder would not be smaller
// than its result, the result stays and the item moves on. That must go on
// until a placeholder holds it, however many results are skipped on the way:
// an item's value is not always a verbatim part of the result it came from,
// so one left with a result that stays could be lost without a count.
func TestPlaceLedgerSkipsUntilSettled(t *testing.T) {
	cc := &condense.CompactionContext{Counter: tokens.Heuristic("anthropic"), Budget: condense.Budget{Window: 64_000}}
	shared := ledger.Item{Kind: ledger.KindMeasurement, Value: "BenchmarkParse-8 1043 ns/op"}
	count := func(kept []string) int {
		ph := condense.ToolResult("", false, condense.Text(placeholder("masked", 100, "r1-abcd", kept)))
		return cc.CountMessage(&condense.Message{Role: condense.RoleTool, Parts: []condense.Part{ph}})
	}
	// Each of the first results is worth a placeholder without the item,
	// not with it: only the one that holds the item is skipped per round.
	bare, full := count(nil), count([]string{shared.String()})
	if full <= bare+1 {
		t.Fatalf("placeholder sizes %d and %d leave no room between", bare, full)
	}
	var work []pending
	for i := range 6 {
		n := bare + 1
		if i == 5 {
			n = 5_000
		}
		work = append(work, pending{target: target{item: i}, tokens: n, ref: "r1-abcd", items: []ledger.Item{shared}})
	}
	texts, kept, demoted := placeLedger(cc, work, 1_000, "masked")
	for i := range 5 {
		if !work[i].skip {
			t.Errorf("result %d was not skipped", i)
		}
	}
	if work[5].skip || !strings.Contains(texts[5], shared.String()) {
		t.Errorf("the last result's placeholder %q lacks %s", texts[5], shared.String())
	}
	if kept != 1 || demoted != 0 {
		t.Errorf("kept %d, demoted %d; want 1, 0", kept, demoted)
	}
}
