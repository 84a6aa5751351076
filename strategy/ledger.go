package strategy

import (
	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// keeper collects the ledger items of what one pass compacts, deduplicates
// them, and bounds them by the ledger budget, most salient first: items over
// the budget are demoted to recall-only and counted, so no specific is lost
// without being counted. Each piece added (a tool result, a message) is
// tallied whole, so an item repeated piece after piece ranks as routine.
type keeper struct {
	cc     *condense.CompactionContext
	budget int // in the counter's tokens
	// ratio converts budget into ledger.ApproxTokens (see approxRatio);
	// 0 until resolve works it out. A caller that bounds the same items
	// again may pass it on instead of counting the sample again.
	ratio  float64
	seen   map[string]bool
	groups [][]ledger.Item
	tally  ledger.Tally
}

func newKeeper(cc *condense.CompactionContext, budget int) *keeper {
	if budget <= 0 {
		budget = ledger.DefaultBudget(cc.Budget.Window)
	}
	return &keeper{cc: cc, budget: budget, seen: map[string]bool{}}
}

// add registers the items of one compacted piece and returns its group
// number, to be rendered by strings(group) once every piece is in.
func (k *keeper) add(items []ledger.Item) int {
	k.tally.Add(items)
	var fresh []ledger.Item
	for _, it := range items {
		key := it.Key()
		if k.seen[key] {
			continue
		}
		k.seen[key] = true
		fresh = append(fresh, it)
	}
	k.groups = append(k.groups, fresh)
	return len(k.groups) - 1
}

// resolve bounds everything added; it returns the kept items by group and
// how many were kept and demoted.
func (k *keeper) resolve() (byGroup [][]string, kept, demoted int) {
	var all []ledger.Item
	owner := map[string]int{}
	for g, items := range k.groups {
		for _, it := range items {
			owner[it.Key()] = g
			all = append(all, it)
		}
	}
	// The budget is room in the counter's tokens; the items are bounded in
	// ledger.ApproxTokens, which over-counts most text: converted, the
	// ledger fills the room it was given instead of about two thirds.
	if k.ratio == 0 {
		k.ratio = approxRatio(k.cc, all, nil)
	}
	keptItems, demotedItems := ledger.BoundBy(all, int(float64(k.budget)*k.ratio), nil, &k.tally)
	keptSet := map[string]bool{}
	for _, it := range keptItems {
		keptSet[it.Key()] = true
	}
	byGroup = make([][]string, len(k.groups))
	for g, items := range k.groups {
		for _, it := range items {
			if keptSet[it.Key()] {
				byGroup[g] = append(byGroup[g], it.String())
			}
		}
	}
	return byGroup, len(keptItems), len(demotedItems)
}

func resultItems(call, result *condense.Part, index int) []ledger.Item {
	return ledger.ExtractResult(call, result, index)
}

func messageItems(m *condense.Message, index int) []ledger.Item {
	return ledger.ExtractMessage(m, index)
}
