package strategy

import (
	"context"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// Retention bounds of the summarize strategy: the recent turns kept verbatim
// hold 20% of the window, clamped to 256–20,000 tokens.
const (
	// MaxLedgerShare: an adaptive ledger takes at most 1/MaxLedgerShare of
	// the window.
	MaxLedgerShare = 5
	RetentionShare = 0.20
	MinRetention   = 256
	MaxRetention   = 20_000
)

// Summarize is the summarize strategy. It keeps the newest turns that fit
// the recent-retention budget verbatim, and replaces everything older
// (since the last summary) with one user message:
//
//	<summary checkpoint="c3" covers="0-117">
//	## Task … ## Constraints … ## Decisions … ## Done … ## Failed / open … ## Next steps … ## Ledger …
//	</summary>
//
// Boundaries fall on user messages; at least two uncompressed user turns are
// needed, else ErrNothingToCompact. When the newest turn alone is over the
// budget, a split-turn summary cuts it at a step boundary instead. Each
// summary updates the previous one (incremental), and a quality gate adds to
// ## Ledger every ledger item of the summarized span the summary does not
// hold verbatim, so no specific of the span is lost whatever the summarizer
// wrote: it is in the summary, in its ledger, or counted as demoted to
// recall-only. The task, pinned messages and the newest user message and
// step stay verbatim.
//
// The rendering is: what came before the span, the kept verbatim messages
// of the span, the summary, then the history from the boundary on — so
// between compactions it only grows at its end.
type Summarize struct {
	// RecentTokens overrides the recent-retention budget.
	RecentTokens int
	// LedgerBudget bounds the ## Ledger section. 0 means the room the
	// summary leaves below the budget's target (the low-water mark), at
	// least 5% and at most 1/MaxLedgerShare of the window, so specifics are
	// kept while there is space.
	LedgerBudget int
	// MaxOutputTokens caps the summary; 0 means summarize.DefaultMaxOutput.
	MaxOutputTokens int
}

// Name returns "summarize".
func (Summarize) Name() string { return "summarize" }

// Retention returns the recent-retention budget for a window.
func Retention(window int) int {
	return min(MaxRetention, max(MinRetention, int(float64(window)*RetentionShare)))
}

// plan is where a summary goes: items [start, boundary) of the rendering are
// summarized, except the protected units, which stay verbatim.
type plan struct {
	prev     int // position of the previous summary item, or -1
	start    int
	boundary int
	split    bool // the boundary cuts a turn at a step boundary
}

// Plan reports whether the strategy would summarize anything in cc, without
// calling a summarizer (what a session's "compaction available" asks).
func (s Summarize) Plan(cc *condense.CompactionContext) bool {
	_, err := s.plan(cc)
	return err == nil
}

// plan finds the span to summarize: from the previous summary (or the first
// turn) up to the oldest turn that stays verbatim. When the newest turn
// alone is over the recent-retention budget, when every turn after the
// previous summary fits it, or when there is only one, it plans a
// split-turn summary instead: the span runs into the newest turn, up to its
// recent steps.
func (s Summarize) plan(cc *condense.CompactionContext) (plan, error) {
	cur := cc.Current
	p := plan{prev: lastSummary(cur)}
	budget := retentionBudget(s.RecentTokens, cc)
	if s.RecentTokens <= 0 && !cc.Emergency {
		budget = max(budget, roomForRecent(cc))
	}
	turns := turnsAfter(cur, p.prev)
	if len(turns) == 0 {
		// No user message after the last summary: a one-task run whose turn
		// was already split once. The steps after the summary are the rest
		// of that turn; split it again.
		if p.prev < 0 {
			return p, condense.ErrNothingToCompact
		}
		return splitAfterSummary(cc, p, budget)
	}
	p.start = turns[0].Start
	if p.prev >= 0 {
		p.start = absorbBefore(cur, p.prev)
	}
	newest := turns[len(turns)-1]
	if len(turns) > 1 && countItems(cc, newest.Start, newest.End) > budget {
		// The newest turn alone is over the budget: summarize everything
		// before its recent steps, the older turns included, instead of
		// keeping the whole turn verbatim.
		if sp, err := splitNewestTurn(cc, p, newest, budget); err == nil {
			return sp, nil
		}
	}
	first := retainNewest(len(turns), 0, budget, func(i int) int {
		return countItems(cc, turns[i].Start, turns[i].End)
	})
	if first > 0 {
		p.boundary = turns[first].Start
		return p, nil
	}
	return splitNewestTurn(cc, p, turns[len(turns)-1], budget)
}

// summaryBodyTokens is about what a summary's sections besides its ledger
// take.
const summaryBodyTokens = 800

// roomForRecent is the recent budget the target leaves once the summary and
// the ledger of the whole history (an upper bound of what the summary will
// need) are counted, at most the window's Retention: a short history is not
// summarized down to a few hundred tokens when the target has room for more
// of it verbatim. A long one gets nothing from it, and its extraction stops
// as soon as its items alone fill the target, so a long history costs no
// more than a short one here.
func roomForRecent(cc *condense.CompactionContext) int {
	need := summaryBodyTokens
	seen := map[string]bool{}
	for i := range cc.History {
		for _, it := range ledger.ExtractMessage(&cc.History[i], i) {
			if k := it.Key(); !seen[k] {
				seen[k] = true
				need += ledger.ApproxTokens(it.String()) + 1
			}
		}
		if need >= cc.Budget.Target() {
			return 0
		}
	}
	return min(Retention(cc.Budget.Window), roomBelowTarget(cc, need))
}

// absorbBefore returns where a summary that updates the one at prev
// starts: at prev, or earlier when what stands right before it is what
// earlier compactions left there — the user message a split-turn summary
// kept verbatim when it was the newest (no longer protected now) and drop
// markers. They go into the new span: the request is listed whole in
// ## Task and a marker's kept items are read back, instead of piling up
// before the summary until the oldest are dropped with nothing kept but a
// marker.
func absorbBefore(cur condense.Rendering, prev int) int {
	prot := cur.Protected()
	start := prev
	for start > 0 {
		it := &cur[start-1]
		if prot[start-1] || !(it.Edit == condense.EditDropped || it.Message.Role == condense.RoleUser && it.Edit == condense.EditNone) {
			break
		}
		start--
	}
	return start
}

// lastSummary returns the position of the newest summary item of cur, or
// -1.
func lastSummary(cur condense.Rendering) int {
	prev := -1
	for i := range cur {
		if cur[i].Edit == condense.EditSummary {
			prev = i
		}
	}
	return prev
}

// turnsAfter returns the turns of cur that start after position prev.
func turnsAfter(cur condense.Rendering, prev int) []condense.Span {
	var turns []condense.Span
	for _, t := range cur.Turns() {
		if t.Start > prev {
			turns = append(turns, t)
		}
	}
	return turns
}

// splitNewestTurn plans a split-turn summary when the newest turn alone is
// over the recent-retention budget: the turn is cut at a step boundary,
// keeping its newest step verbatim.
func splitNewestTurn(cc *condense.CompactionContext, p plan, newest condense.Span, budget int) (plan, error) {
	if countItems(cc, newest.Start, newest.End) <= budget {
		return p, condense.ErrNothingToCompact
	}
	cut, ok := stepCut(cc, newest.Start, newest.End, budget)
	if !ok {
		return p, condense.ErrNothingToCompact
	}
	p.boundary, p.split = cut, true
	return p, nil
}

// splitAfterSummary plans a split-turn summary of the steps after the
// previous summary (at p.prev), keeping the newest step and the recent ones
// that fit.
func splitAfterSummary(cc *condense.CompactionContext, p plan, budget int) (plan, error) {
	cut, ok := stepCut(cc, p.prev+1, len(cc.Current), budget)
	if !ok {
		return p, condense.ErrNothingToCompact
	}
	p.start, p.boundary, p.split = p.prev, cut, true
	return p, nil
}

// Compact summarizes the span before the retained tail.
func (s Summarize) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	p, err := s.plan(cc)
	if err != nil {
		return nil, err
	}
	kept, span := collectSpan(cc.Current, p, cc.History)
	if len(span.msgs) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	out, err := span.summarize(ctx, cc, s.MaxOutputTokens)
	if err != nil {
		return nil, err
	}
	after := tokensWithout(cc, p, kept, &span, out.Text)
	rules := ledgerRules{exclude: logIndexes(kept), budget: s.ledgerBudget(cc, after, &span), notes: true}
	text, gate, held := gateSummary(cc, &span, out.Text, rules)
	cand := &condense.Candidate{
		Rendering:    renderSummarized(cc.Current, p, kept, summaryItem(cc.Checkpoint, span.covers, text, held)),
		Steps:        []string{"summarize"},
		LedgerBudget: rules.budget,
	}
	if p.split {
		cand.Steps = []string{"summarize(split-turn)"}
	}
	recordSummary(cand, out, text, gate, held)
	return cand, nil
}

// collectSpan sorts the units of the planned span: the protected ones (the
// task, pinned messages, the newest user message in a split turn) stay
// verbatim and are returned as kept; the previous summary and the rest go
// into the span. A drop marker brings the user's requests it dropped back
// from the log, before it: a marker keeps specifics, not the user's words,
// and the summary lists every request whole.
func collectSpan(cur condense.Rendering, p plan, history []condense.Message) (kept condense.Rendering, span summarySpan) {
	span = newSummarySpan()
	for _, u := range units(cur) {
		if u.start < p.start || u.start >= p.boundary {
			continue
		}
		if u.start == p.prev {
			span.update(&cur[u.start])
			continue
		}
		if u.protected {
			kept = append(kept, cur[u.start:u.end]...)
			continue
		}
		for i := u.start; i < u.end; i++ {
			if cur[i].Edit == condense.EditDropped {
				span.msgs = append(span.msgs, droppedRequests(history, cur[i].Covers)...)
			}
			span.add(&cur[i])
		}
	}
	return kept, span
}

// droppedRequests returns the user's requests among the log messages a drop
// marker covers.
func droppedRequests(history []condense.Message, covers condense.Span) []condense.Message {
	var reqs []condense.Message
	from, to := max(covers.Start, 0), min(covers.End, len(history))
	if from >= to {
		return nil
	}
	// From the message before the span, so that its first message is read
	// after the action it may answer.
	start := max(from-1, 0)
	relayed := ledger.Observations(history[start:to], start)
	for i := from; i < to; i++ {
		it := condense.Item{Index: i, Message: history[i]}
		if isRequest(&it, relayed[i-start]) && i > 0 {
			reqs = append(reqs, history[i])
		}
	}
	return reqs
}

// logIndexes returns the log indexes of the items of r.
func logIndexes(r condense.Rendering) map[int]bool {
	idx := map[int]bool{}
	for _, it := range r {
		idx[it.Index] = true
	}
	return idx
}

// tokensWithout counts the rendering the plan makes with summary as the
// summary's text, before the gate adds its ## Ledger and ## Notes.
func tokensWithout(cc *condense.CompactionContext, p plan, kept condense.Rendering, span *summarySpan, summary string) int {
	cur := cc.Current
	rest := make(condense.Rendering, 0, p.start+len(kept)+len(cur)-p.boundary+1)
	rest = append(append(append(rest, cur[:p.start]...), kept...), cur[p.boundary:]...)
	rest = append(rest, condense.Item{Index: -1, Edit: condense.EditSummary, Message: summaryMessage(cc.Checkpoint, span.covers, summary)})
	return cc.Count(rest)
}

// ledgerBudget returns the budget of the summary's ## Ledger: LedgerBudget
// when set, else ledgerRoom of the after tokens the rendering holds without
// it.
func (s Summarize) ledgerBudget(cc *condense.CompactionContext, after int, span *summarySpan) int {
	if s.LedgerBudget > 0 {
		return s.LedgerBudget
	}
	return max(ledgerRoom(cc, after), grownLedger(cc, span, after))
}

// grownLedger lets a summary's ledger grow from one compaction to the next,
// as the markers of dropped turns pile up: the previous summary's ledger
// plus twice the default share of the window for the new span, while that
// stays under three quarters of the room the rendering leaves below the
// threshold (half of it over a wide threshold, see wideThreshold). Without
// it every summary's ledger is cut back to the room below the target, and a
// long session keeps only what its last few spans found. The price is that
// the ledger eats into the room between target and threshold, so later
// compactions come sooner, and each rewrites the rendering after the task,
// which a provider's prompt cache cannot serve.
func grownLedger(cc *condense.CompactionContext, span *summarySpan, after int) int {
	_, carried := span.carriedLedger()
	if len(carried) == 0 {
		return 0
	}
	prev := 0
	for _, line := range carried {
		prev += ledger.ApproxTokens(line) + 1
	}
	grown := prev + 2*ledger.DefaultBudget(cc.Budget.Window)
	room := cc.Budget.Threshold() - after
	if cc.Budget.Threshold() >= wideThreshold {
		return min(grown, room/2)
	}
	return min(grown, room*3/4)
}

// wideThreshold is the threshold from which a grown ledger takes half the
// room below it rather than three quarters. Under it one step's output is a
// large part of the room, so compactions come every step or two whatever
// the ledger takes, and the ledger is what keeps the specifics: at 32k,
// replayed turn by turn, half the room kept 2-6 points fewer of them for
// 3-7% less cost. Over it the ledger's share sets how soon the next
// compaction comes: at 64k on 250-step sessions three quarters left the
// request at 85% of the threshold, compacting again within a few steps,
// and half cost 6-8% less for at most 2 points fewer specifics.
const wideThreshold = 32_000

// ledgerRoom is a default ledger budget for a rendering of after tokens
// without its ledger: the room it leaves below the budget's target (the
// low-water mark), so that specifics fill the space a compaction makes
// before any is demoted. A rendering over the target still gets half the
// room it leaves below the threshold; either way at least the default share
// of the window and at most 1/MaxLedgerShare of it.
func ledgerRoom(cc *condense.CompactionContext, after int) int {
	room := roomBelowTarget(cc, after)
	if room <= 0 {
		room = (cc.Budget.Threshold() - after) / 2
	}
	return max(ledger.DefaultBudget(cc.Budget.Window), min(room, cc.Budget.Window/MaxLedgerShare))
}

// renderSummarized returns the rendering with the planned span summarized:
// what came before the span, the kept verbatim items of the span, the
// summary, then the rendering from the boundary on.
func renderSummarized(cur condense.Rendering, p plan, kept condense.Rendering, summary condense.Item) condense.Rendering {
	r := make(condense.Rendering, 0, len(cur))
	r = append(r, cur[:p.start]...)
	r = append(r, kept...)
	r = append(r, summary)
	return append(r, cur[p.boundary:]...)
}
