package strategy

import (
	"context"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/dustin/go-humanize"
)

// DefaultKeepRecent is how many recent messages DropOldest keeps.
const DefaultKeepRecent = 6

// DropOldest is drop-oldest: it keeps the first message (the task) and the
// KeepRecent most recent ones, and drops about half of the messages in
// between per pass, iterating within one attempt until the request is under
// the threshold. It never separates a tool call from its
// result, never drops pinned messages, the newest user message or the
// newest step, and makes no model call.
//
// Where it drops, it leaves one synthesized marker holding the ledger items
// of what it dropped and the log span to recall:
//
//	[condense: 24 messages dropped (9,120 tokens) · recall covers 5-28 · kept: file cmd/x.go; …]
type DropOldest struct {
	// KeepRecent is the number of recent messages kept; 0 means
	// DefaultKeepRecent. An emergency pass keeps no recent message beyond
	// the protected ones (the newest user message and the newest step).
	KeepRecent int
	// LedgerBudget bounds the ledger tokens of one pass; 0 means 5% of the
	// window.
	LedgerBudget int
}

// Name returns "drop-oldest".
func (DropOldest) Name() string { return "drop-oldest" }

// Compact drops the oldest droppable messages until the request is under the
// threshold or nothing more may go.
func (s DropOldest) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	keep := s.KeepRecent
	if keep <= 0 {
		keep = DefaultKeepRecent
	}
	if cc.Emergency {
		keep = 0
	}
	cur := cc.Current
	us := units(cur)
	recentFrom := len(cur) - keep
	// Units go oldest first, but the user's own requests last: they are
	// short, said once, and hold the rules and specifics of the work, so
	// every step goes before any of them. An emergency (the provider
	// refused the request as too large) drops strictly oldest first, so
	// the dropped units form one run and one marker.
	var droppable, requests []int // unit numbers, oldest first
	relayed := renderedObservations(cur)
	for u, un := range us {
		if u == 0 || un.protected || un.end > recentFrom {
			continue
		}
		synthetic := false
		for i := un.start; i < un.end; i++ {
			if cur[i].Index < 0 {
				synthetic = true
			}
		}
		switch {
		case synthetic:
		case !cc.Emergency && isRequest(&cur[un.start], relayed[un.start]):
			requests = append(requests, u)
		default:
			droppable = append(droppable, u)
		}
	}
	droppable = append(droppable, requests...)
	if len(droppable) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	target := cc.Budget.Target()
	items := map[int][]ledger.Item{} // unit → its ledger items, extracted once
	var best *condense.Candidate
	dropped := 0
	for dropped < len(droppable) {
		rest := len(droppable) - dropped
		dropped += (rest + 1) / 2
		cand := s.render(cc, us, droppable[:dropped], items)
		best = cand
		if cc.Count(cand.Rendering) <= target {
			break
		}
	}
	return best, nil
}

// render builds the rendering with the given units dropped and one marker
// per run of dropped units.
func (s DropOldest) render(cc *condense.CompactionContext, us []unit, drop []int, cache map[int][]ledger.Item) *condense.Candidate {
	cur := cc.Current
	gone := make(map[int]bool, len(drop))
	for _, u := range drop {
		gone[u] = true
	}
	kp := newKeeper(cc, s.LedgerBudget)
	type run struct {
		at         int // position in out of the marker
		group      int
		first      int // log span covered
		last       int
		msgs, toks int
	}
	var runs []run
	var out condense.Rendering
	for u, un := range us {
		if !gone[u] {
			out = append(out, cur[un.start:un.end]...)
			continue
		}
		if _, ok := cache[u]; !ok {
			var its []ledger.Item
			for i := un.start; i < un.end; i++ {
				if ix := cur[i].Index; ix >= 0 && ix < len(cc.History) {
					its = append(its, messageItems(&cc.History[ix], ix)...)
				}
			}
			cache[u] = its
		}
		toks := 0
		for i := un.start; i < un.end; i++ {
			toks += cc.CountItem(&cur[i])
		}
		lo, hi := cur[un.start].Index, cur[un.end-1].Index
		if len(runs) > 0 && (u > 0 && gone[u-1]) {
			r := &runs[len(runs)-1]
			r.last, r.msgs, r.toks = hi, r.msgs+un.end-un.start, r.toks+toks
			kp.groups[r.group] = append(kp.groups[r.group], freshItems(kp, cache[u])...)
			continue
		}
		runs = append(runs, run{at: len(out), group: kp.add(cache[u]), first: lo, last: hi, msgs: un.end - un.start, toks: toks})
		out = append(out, condense.Item{Index: -1, Edit: condense.EditDropped})
	}
	kept, nKept, nDemoted := kp.resolve()
	for _, r := range runs {
		text := DropMarker(r.msgs, r.toks, condense.Span{Start: r.first, End: r.last + 1}, kept[r.group])
		out[r.at] = condense.Item{Index: -1, Edit: condense.EditDropped, Covers: condense.Span{Start: r.first, End: r.last + 1},
			Message: condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text(text)}}}
	}
	return &condense.Candidate{Rendering: out, LedgerItems: nKept, Demoted: nDemoted, LedgerBudget: kp.budget}
}

// freshItems returns the items of its that k has not seen, marking them seen.
func freshItems(k *keeper, its []ledger.Item) []ledger.Item {
	var out []ledger.Item
	for _, it := range its {
		if key := it.Key(); !k.seen[key] {
			k.seen[key] = true
			out = append(out, it)
		}
	}
	return out
}

// DropMarker is the text of the marker standing where messages were
// dropped.
func DropMarker(msgs, tokens int, covers condense.Span, kept []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[condense: %s messages dropped (%s tokens) · recall covers %d-%d",
		humanize.Comma(int64(msgs)), humanize.Comma(int64(tokens)), covers.Start, covers.End-1)
	if len(kept) > 0 {
		b.WriteString(" · kept: ")
		b.WriteString(strings.Join(kept, "; "))
	}
	b.WriteByte(']')
	return b.String()
}

// isRequest reports whether a rendering item is a request the user typed:
// a verbatim user message that is not tool output relayed as user text
// (relayed: ledger.Observations marked it so).
func isRequest(it *condense.Item, relayed bool) bool {
	return it.Message.Role == condense.RoleUser && it.Edit == condense.EditNone && !relayed &&
		!ledger.IsObservation(it.Message.TextContent())
}

// renderedObservations is ledger.Observations over the messages of a
// rendering, whose first item is the task.
func renderedObservations(r condense.Rendering) []bool {
	msgs := make([]condense.Message, len(r))
	for i := range r {
		msgs[i] = r[i].Message
	}
	return ledger.Observations(msgs, 0)
}
