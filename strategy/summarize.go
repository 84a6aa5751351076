package strategy

import (
	"context"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/summarize"
)

// Retention bounds of the summarize strategy (DESIGN B4): the recent turns
// kept verbatim hold 20% of the window, clamped to 256–20,000 tokens.
const (
	// MaxLedgerShare: an adaptive ledger takes at most 1/MaxLedgerShare of
	// the window.
	MaxLedgerShare = 5
	RetentionShare = 0.20
	MinRetention   = 256
	MaxRetention   = 20_000
)

// Summarize is the summarize strategy (DESIGN B4, B10, B17, B18). It keeps
// the newest turns that fit the recent-retention budget verbatim, and
// replaces everything older (since the last summary) with one user message:
//
//	<summary checkpoint="c3" covers="0-117">
//	## Summary … ## Decisions … ## Facts … ## Completed … ## Pending … ## Ledger …
//	</summary>
//
// Boundaries fall on user messages; at least two uncompressed user turns are
// needed, else ErrNothingToCompact. When the newest turn alone is over the
// budget, a split-turn summary cuts it at a step boundary instead. Each
// summary updates the previous one (incremental), and a quality gate adds to
// ## Ledger every ledger item of the summarized span the summary does not
// hold verbatim, so I8 holds whatever the summarizer wrote. The task, pinned
// messages and the newest user message and step stay verbatim (I3, I4).
//
// The rendering is: what came before the span, the kept verbatim messages
// of the span, the summary, then the history from the boundary on — so
// between compactions it only grows at its end.
type Summarize struct {
	// RecentTokens overrides the recent-retention budget.
	RecentTokens int
	// LedgerBudget bounds the ## Ledger section. 0 means 5% of the window,
	// raised to half the room the summary leaves below the threshold (at
	// most 1/MaxLedgerShare of the window), so specifics are kept while
	// there is space.
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
// summarized, except the kept units, which stay verbatim.
type plan struct {
	prev     int // position of the previous summary item, or -1
	start    int
	boundary int
	split    bool
}

// Plan reports whether the strategy would summarize anything in cc, without
// calling a summarizer (what a session's "compaction available" asks).
func (s Summarize) Plan(cc *condense.CompactionContext) bool {
	_, err := s.plan(cc)
	return err == nil
}

func (s Summarize) plan(cc *condense.CompactionContext) (plan, error) {
	cur := cc.Current
	p := plan{prev: -1}
	for i := range cur {
		if cur[i].Edit == condense.EditSummary {
			p.prev = i
		}
	}
	var turns []condense.Span
	for _, t := range cur.Turns() {
		if t.Start > p.prev {
			turns = append(turns, t)
		}
	}
	if len(turns) == 0 {
		// No user message after the last summary: a one-task run whose turn
		// was already split once. The steps after the summary are the rest
		// of that turn; split it again.
		if p.prev < 0 {
			return p, condense.ErrNothingToCompact
		}
		return s.splitAfter(cc, p)
	}
	p.start = turns[0].Start
	if p.prev >= 0 {
		p.start = p.prev
	}
	budget := s.RecentTokens
	if budget <= 0 {
		budget = Retention(cc.Budget.Window)
	}
	if cc.Emergency {
		budget = 0
	}
	// Keep the newest turn, and older turns while they fit, counting back.
	count := func(from, to int) int {
		n := 0
		for k := from; k < to; k++ {
			n += cc.CountItem(&cur[k])
		}
		return n
	}
	kept, first := 0, len(turns)-1
	for i := len(turns) - 1; i >= 0; i-- {
		n := count(turns[i].Start, turns[i].End)
		if i < len(turns)-1 && kept+n > budget {
			break
		}
		kept += n
		first = i
	}
	if first > 0 {
		p.boundary = turns[first].Start
		return p, nil
	}
	// Every uncompressed turn fits, or there is only one: a split-turn
	// summary when the newest turn alone is over budget (B4), cutting it at
	// a step boundary and keeping its newest step (I4).
	newest := turns[len(turns)-1]
	if count(newest.Start, newest.End) <= budget {
		return p, condense.ErrNothingToCompact
	}
	steps := cur[newest.Start:newest.End].Steps()
	if len(steps) < 2 {
		return p, condense.ErrNothingToCompact
	}
	last := len(steps) - 1
	cut, keptTokens := steps[last].Start, count(newest.Start+steps[last].Start, newest.Start+steps[last].End)
	for i := last - 1; i >= 1; i-- {
		n := count(newest.Start+steps[i].Start, newest.Start+steps[i].End)
		if keptTokens+n > budget {
			break
		}
		keptTokens += n
		cut = steps[i].Start
	}
	p.boundary = newest.Start + cut
	p.split = true
	return p, nil
}

// splitAfter plans a split-turn summary of the steps after the previous
// summary (at p.prev), keeping the newest step and the recent ones that fit.
func (s Summarize) splitAfter(cc *condense.CompactionContext, p plan) (plan, error) {
	cur := cc.Current
	budget := s.RecentTokens
	if budget <= 0 {
		budget = Retention(cc.Budget.Window)
	}
	if cc.Emergency {
		budget = 0
	}
	from := p.prev + 1
	steps := cur[from:].Steps()
	if len(steps) < 2 {
		return p, condense.ErrNothingToCompact
	}
	count := func(sp condense.Span) int {
		n := 0
		for k := from + sp.Start; k < from+sp.End; k++ {
			n += cc.CountItem(&cur[k])
		}
		return n
	}
	last := len(steps) - 1
	cut, kept := steps[last].Start, count(steps[last])
	for i := last - 1; i >= 1; i-- {
		n := count(steps[i])
		if kept+n > budget {
			break
		}
		kept += n
		cut = steps[i].Start
	}
	if cut <= steps[0].Start {
		return p, condense.ErrNothingToCompact
	}
	p.start, p.boundary, p.split = p.prev, from+cut, true
	return p, nil
}

// Compact summarizes the span before the retained tail.
func (s Summarize) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	p, err := s.plan(cc)
	if err != nil {
		return nil, err
	}
	cur := cc.Current
	// Units of the span that stay verbatim: protected ones (task, pinned,
	// the newest user message in a split turn).
	us := units(cur)
	var keptItems condense.Rendering
	var spanMsgs []condense.Message
	prevText := ""
	var prev *condense.Item
	covers := condense.Span{Start: -1}
	for _, u := range us {
		if u.start < p.start || u.start >= p.boundary {
			continue
		}
		if u.start == p.prev {
			prev = &cur[u.start]
			prevText = summaryBody(prev.Message.TextContent())
			covers = prev.Covers
			continue
		}
		if u.protected {
			keptItems = append(keptItems, cur[u.start:u.end]...)
			continue
		}
		for i := u.start; i < u.end; i++ {
			spanMsgs = append(spanMsgs, cur[i].Message)
			if ix := cur[i].Index; ix >= 0 {
				if covers.Start < 0 || ix < covers.Start {
					covers.Start = ix
				}
				covers.End = max(covers.End, ix+1)
			} else if cur[i].Covers.Len() > 0 {
				if covers.Start < 0 || cur[i].Covers.Start < covers.Start {
					covers.Start = cur[i].Covers.Start
				}
				covers.End = max(covers.End, cur[i].Covers.End)
			}
		}
	}
	if len(spanMsgs) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	sum := summarizerOf(cc)
	base := max(covers.Start, 0)
	out, err := sum.Summarize(ctx, condense.SummaryRequest{
		Messages:        spanMsgs,
		Base:            base,
		Previous:        prevText,
		Instructions:    cc.Instructions,
		MaxOutputTokens: s.MaxOutputTokens,
	})
	if err != nil {
		return nil, err
	}
	if out == nil || strings.TrimSpace(out.Text) == "" {
		return nil, &summarize.RejectedError{Reason: summarize.ErrEmpty}
	}
	keptIdx := map[int]bool{}
	for _, it := range keptItems {
		keptIdx[it.Index] = true
	}
	budget := s.LedgerBudget
	if budget <= 0 {
		// The default budget, raised to half the room the summary leaves
		// below the threshold: specifics are kept while there is space.
		rest := make(condense.Rendering, 0, p.start+len(keptItems)+len(cur)-p.boundary)
		rest = append(append(append(rest, cur[:p.start]...), keptItems...), cur[p.boundary:]...)
		rest = append(rest, condense.Item{Index: -1, Edit: condense.EditSummary, Message: summaryMessage(cc.Checkpoint, covers, out.Text)})
		room := cc.Budget.Threshold() - cc.Count(rest)
		budget = max(ledger.DefaultBudget(cc.Budget.Window), min(room/2, cc.Budget.Window/MaxLedgerShare))
	}
	text, gate, held := gateSummary(cc, out.Text, prev, covers, keptIdx, budget, nil)
	msg := summaryMessage(cc.Checkpoint, covers, text)
	r := make(condense.Rendering, 0, len(cur))
	r = append(r, cur[:p.start]...)
	r = append(r, keptItems...)
	r = append(r, condense.Item{Index: -1, Edit: condense.EditSummary, Covers: covers, Message: msg, Ledger: held})
	r = append(r, cur[p.boundary:]...)
	var usage []condense.Usage
	if out.Usage != (condense.Usage{}) {
		usage = append(usage, out.Usage)
	}
	steps := []string{"summarize"}
	if p.split {
		steps = []string{"summarize(split-turn)"}
	}
	return &condense.Candidate{Rendering: r, LedgerItems: len(held), Demoted: gate.Demoted, Gate: &gate,
		Summary: text, Usage: usage, Trim: out.Trim, Steps: steps}, nil
}

// summaryMessage is the rendered summary (DESIGN §7).
func summaryMessage(checkpoint string, covers condense.Span, text string) condense.Message {
	return condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text(
		fmt.Sprintf("<summary checkpoint=%q covers=\"%d-%d\">\n%s</summary>", checkpoint, covers.Start, covers.End-1, text))}}
}

// gateSummary checks a summary against the ledger of its span (B17) and
// returns the summary's sections with a ## Ledger section holding every item
// the summary lacks, bounded by the ledger budget, and the item lines the
// result holds (for Item.Ledger). Log indexes in exclude stay verbatim in the
// rendering and are not checked. keep, when set, selects the items the
// ledger must carry; the others are demoted.
//
// When prev, the summary this one replaces, knows its ledger, only the span
// after prev.Covers is extracted and prev's items are carried: each
// compaction costs the new span, not the whole history. Otherwise the whole
// span is extracted again and prev's ## Ledger lines are carried.
func gateSummary(cc *condense.CompactionContext, summary string, prev *condense.Item, covers condense.Span, exclude map[int]bool,
	ledgerBudget int, keep func(ledger.Item) bool) (string, condense.Gate, []string) {
	from := covers.Start
	var carried []string
	if prev != nil && prev.Ledger != nil && prev.Covers.End > covers.Start {
		from = prev.Covers.End
		carried = prev.Ledger
	} else if prev != nil {
		for _, line := range summarize.ParseSections(summaryBody(prev.Message.TextContent()))["Ledger"] {
			if !strings.HasPrefix(line, "(") {
				carried = append(carried, line)
			}
		}
	}
	// The span's items come from the original log, not from earlier
	// placeholders, so masking never hides a specific from the summary.
	var items []ledger.Item
	if from >= 0 && from < covers.End && covers.End <= len(cc.History) {
		span := make([]condense.Message, 0, covers.End-from)
		for i := from; i < covers.End; i++ {
			if exclude[i] {
				span = append(span, condense.Message{Role: cc.History[i].Role}) // keep indexes aligned
				continue
			}
			span = append(span, cc.History[i])
		}
		items = ledger.Extract(span, from)
	}
	body := strings.TrimRight(summary, "\n") + "\n"
	// Drop a ## Ledger the summarizer wrote itself: ours replaces it.
	if i := strings.Index(body, "\n## Ledger"); i >= 0 {
		body = body[:i+1]
	}
	inBody := func(it ledger.Item) bool {
		return strings.Contains(body, it.String()) || strings.Contains(body, it.Value) && len(it.Value) > 12
	}
	var missing []ledger.Item
	var held []string // item lines the result holds
	g := condense.Gate{}
	filtered := 0
	seen := map[string]bool{}
	for _, it := range items {
		if it.Kind == ledger.KindTask {
			continue // the task stays verbatim in the rendering (I3)
		}
		if keep != nil && !keep(it) && !strings.Contains(body, it.Value) {
			filtered++
			continue
		}
		seen[it.String()] = true
		if inBody(it) {
			g.KeptBySummary++
			held = append(held, it.String())
			continue
		}
		missing = append(missing, it)
	}
	// Carry the previous summary's items the new summary lacks: facts
	// accumulate.
	var carry []string
	for _, line := range carried {
		if seen[line] {
			continue
		}
		seen[line] = true
		if strings.Contains(body, line) {
			g.KeptBySummary++
			held = append(held, line)
			continue
		}
		carry = append(carry, line)
	}
	budget := ledgerBudget
	if budget <= 0 {
		budget = ledger.DefaultBudget(cc.Budget.Window)
	}
	keptItems, demoted := ledger.Bound(missing, budget, nil)
	used := 0
	for _, it := range keptItems {
		used += ledger.ApproxTokens(it.String()) + 1
	}
	var b strings.Builder
	b.WriteString(body)
	demotedCarried := 0
	if len(keptItems) > 0 || len(carry) > 0 || len(demoted) > 0 || filtered > 0 {
		b.WriteString("\n## Ledger\n")
		for _, line := range carry {
			if used+ledger.ApproxTokens(line)+1 > budget {
				demotedCarried++
				continue
			}
			used += ledger.ApproxTokens(line) + 1
			b.WriteString("- " + line + "\n")
			held = append(held, line)
		}
		for _, it := range keptItems {
			b.WriteString("- " + it.String() + "\n")
			held = append(held, it.String())
		}
		if n := len(demoted) + demotedCarried + filtered; n > 0 {
			fmt.Fprintf(&b, "- (%d more demoted to recall-only)\n", n)
		}
	}
	g.AddedBack = len(keptItems)
	g.Demoted = len(demoted) + demotedCarried + filtered
	if held == nil {
		held = []string{}
	}
	return b.String(), g, held
}

// summaryBody returns the sections of a rendered summary message, without
// its <summary …> wrapper.
func summaryBody(text string) string {
	if i := strings.Index(text, ">\n"); strings.HasPrefix(text, "<summary") && i >= 0 {
		text = text[i+2:]
	}
	return strings.TrimSuffix(strings.TrimRight(text, "\n"), "</summary>")
}

// summarizerOf returns the summarizer the preflight hands to strategies,
// or the extractive summarizer when none is configured.
func summarizerOf(cc *condense.CompactionContext) condense.Summarizer {
	if cc.Summarizer != nil {
		return cc.Summarizer
	}
	return summarize.Extractive{}
}
