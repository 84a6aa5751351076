package strategy

import (
	"github.com/condense-dev/condense"
)

// retentionBudget returns the recent-retention budget of a pass: override
// when it is set, else Retention of the window, at most a quarter of the
// budget's target (at least MinRetention); an emergency pass keeps
// nothing recent beyond what the protection rules require, so its budget is
// zero.
func retentionBudget(override int, cc *condense.CompactionContext) int {
	if cc.Emergency {
		return 0
	}
	if override > 0 {
		return override
	}
	// At most a quarter of the target, so the summary and its ledger (what
	// keeps the specifics of everything older) have the rest and the
	// compaction lands under the target.
	if t := cc.Budget.Target(); t > 0 {
		return min(Retention(cc.Budget.Window), max(MinRetention, t/4))
	}
	return Retention(cc.Budget.Window)
}

// retainNewest decides which of n consecutive pieces (turns, steps or
// segments, oldest first) stay verbatim: the newest always, and the ones
// before it, counting back, while their tokens (size) fit in budget. It
// never keeps a piece before floor. It returns the index of the oldest
// piece kept, or 0 when n is 0.
func retainNewest(n, floor, budget int, size func(i int) int) int {
	if n == 0 {
		return 0
	}
	first, kept := n-1, size(n-1)
	for i := n - 2; i >= floor; i-- {
		s := size(i)
		if kept+s > budget {
			break
		}
		kept += s
		first = i
	}
	return first
}

// countItems returns the tokens of the items [from, to) of the current
// rendering.
func countItems(cc *condense.CompactionContext, from, to int) int {
	n := 0
	for k := from; k < to; k++ {
		n += cc.CountItem(&cc.Current[k])
	}
	return n
}

// stepCut returns where a split-turn summary of the items [from, to) of the
// current rendering ends: the newest step of the range stays verbatim, and
// the steps before it while they fit in budget, counting back; the first
// step is always summarized. ok is false when the range holds fewer than
// two steps.
func stepCut(cc *condense.CompactionContext, from, to, budget int) (cut int, ok bool) {
	steps := cc.Current[from:to].Steps()
	if len(steps) < 2 {
		return 0, false
	}
	first := retainNewest(len(steps), 1, budget, func(i int) int {
		return countItems(cc, from+steps[i].Start, from+steps[i].End)
	})
	return from + steps[first].Start, true
}
