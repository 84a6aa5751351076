package ledger

import (
	"sort"
	"strconv"
	"strings"
)

// DefaultBudget returns the default ledger budget for a context window:
// 5% of it, in tokens. A window of zero or less gets no budget.
func DefaultBudget(window int) int {
	if window <= 0 {
		return 0
	}
	return window / 20
}

// ApproxTokens is the cost Bound charges for an item's text when no counter
// is given: one token per 2.5 bytes, rounded up, a ratio meant to
// over-count code and tool output rather than under-count it.
func ApproxTokens(s string) int { return (2*len(s) + 4) / 5 }

// costWeight is the salience an item loses per token of its rendering.
const costWeight = 3

// Bound splits items into those that fit a budget of maxTokens and those
// demoted to recall-only, ranking them by salience with a Tally of the items
// themselves (an item given several times counts as seen several times).
// See BoundBy.
func Bound(items []Item, maxTokens int, count func(string) int) (kept, demoted []Item) {
	var t Tally
	for i := range items {
		t.Add(items[i : i+1])
	}
	return BoundBy(items, maxTokens, count, &t)
}

// BoundBy splits items into those that fit a budget of maxTokens and those
// demoted to recall-only. Duplicates are merged first (as a Set merges
// them), so len(kept)+len(demoted) is the number of distinct keys.
//
// Items are considered by salience, highest first: t.Salience plus up to 100
// for recency (the item's Source against the latest Source among items),
// less costWeight per token the item costs, so that a budget holds many
// short specifics before one long line of about the same worth; equal
// scores keep input order. Each costs count(it.String()) plus one
// token for its separator; count nil means ApproxTokens. An item that does
// not fit is demoted and smaller ones after it may still fit. Both results
// are returned in input order, so kept items render in the order they were
// found. The result depends only on the arguments.
func BoundBy(items []Item, maxTokens int, count func(string) int, t *Tally) (kept, demoted []Item) {
	if count == nil {
		count = ApproxTokens
	}
	all := Dedup(items)
	latest := 0
	for i := range all {
		latest = max(latest, all[i].Source)
	}
	score := make([]int, len(all))
	cost := make([]int, len(all))
	order := make([]int, len(all))
	for i := range all {
		order[i] = i
		cost[i] = count(all[i].String()) + 1
		score[i] = t.Salience(all[i]) - costWeight*cost[i]
		if latest > 0 {
			score[i] += 100 * max(0, all[i].Source) / latest
		}
	}
	sort.SliceStable(order, func(a, b int) bool { return score[order[a]] > score[order[b]] })
	keep := make([]bool, len(all))
	left := maxTokens
	for _, i := range order {
		if left <= 0 {
			break
		}
		c := cost[i]
		if c <= left {
			keep[i] = true
			left -= c
		}
	}
	for i := range all {
		if keep[i] {
			kept = append(kept, all[i])
		} else {
			demoted = append(demoted, all[i])
		}
	}
	return kept, demoted
}

// Strings formats items with Item.String, ready for
// condense.MaskPlaceholder's kept argument.
func Strings(items []Item) []string {
	out := make([]string, len(items))
	for i := range items {
		out[i] = items[i].String()
	}
	return out
}

// Section renders the "## Ledger" section of a summary: one "- <item>"
// line per kept item, and, when demoted > 0, a closing line saying how many
// items were demoted to recall-only. With no items and nothing demoted it
// returns "".
func Section(kept []Item, demoted int) string {
	if len(kept) == 0 && demoted <= 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("## Ledger\n")
	for i := range kept {
		b.WriteString("- ")
		b.WriteString(kept[i].String())
		b.WriteByte('\n')
	}
	if demoted > 0 {
		b.WriteString("- (")
		b.WriteString(strconv.Itoa(demoted))
		b.WriteString(" more demoted to recall-only)\n")
	}
	return b.String()
}

// Missing returns the items whose String does not appear verbatim in text:
// the check that no specific of compacted content was lost from a rendered
// request or summary.
func Missing(text string, items []Item) []Item {
	var out []Item
	for _, it := range items {
		if !strings.Contains(text, it.String()) {
			out = append(out, it)
		}
	}
	return out
}
