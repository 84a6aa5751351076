package strategy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// Importance of a segment: how much of it Segments keeps.
type Importance int

// Importances, lowest first.
const (
	Low Importance = iota
	Medium
	High
	Critical
)

func (i Importance) String() string {
	return [...]string{"low", "medium", "high", "critical"}[i]
}

// SegmentMode says how much of the old segments Segments keeps.
type SegmentMode string

// The modes of Segments.
const (
	// Lossless keeps every fact: high segments stay (their tool output
	// masked, with its ledger), the rest are summarized with a full ledger.
	Lossless SegmentMode = "lossless"
	// Lossy keeps decisions and final states: everything but critical
	// segments is summarized, and the ledger carries only decisions,
	// constraints, errors and written files (the rest is demoted,
	// recall-only).
	Lossy SegmentMode = "lossy"
	// Adaptive measures information density per segment (ledger items per
	// 100 tokens): dense segments stay (masked), sparse ones are
	// summarized.
	Adaptive SegmentMode = "adaptive"
)

// Segments is the importance-model strategy. The history before the recent
// tail is cut into segments (a step with its results, or a lone message);
// each gets an importance — pinned and protected messages are critical, a
// segment with errors high, one with long results medium, the rest low, and
// a dead end (a failed step the agent later retried) low.
// Critical segments stay verbatim; the others are kept (masked) or
// summarized according to Mode, into one summary message in the format of
// the summarize strategy, with the ledger quality gate.
type Segments struct {
	// Mode defaults to Lossless.
	Mode SegmentMode
	// RecentTokens is the recent tail kept verbatim; 0 means Retention of
	// the window. An emergency pass keeps no recent segment beyond the
	// protected ones (the newest user message and the newest step).
	RecentTokens int
	// LongResult is the tool-output size (tokens) that makes a segment
	// medium; 0 means 1,250 (about 5,000 characters).
	LongResult int
	// Density is the adaptive threshold in ledger items per 100 tokens; 0
	// means 1.0.
	Density float64
	// LedgerBudget bounds the ledger; 0 means 5% of the window.
	LedgerBudget int
}

// Name returns "segments".
func (s Segments) Name() string { return "segments" }

// Segment is one segment and its importance, as Classify sees it.
type Segment struct {
	// Start and End are rendering positions [Start, End).
	Start, End int
	Importance Importance
	// DeadEnd marks a failed step retried later.
	DeadEnd bool
	Tokens  int
	// Density is ledger items per 100 tokens.
	Density float64
}

// Classify cuts cc.Current into segments and rates each.
func (s Segments) Classify(cc *condense.CompactionContext) []Segment {
	long := s.LongResult
	if long <= 0 {
		long = 1250
	}
	us := units(cc.Current)
	segs := make([]Segment, len(us))
	lastFail := map[callKey]int{} // call → segment of its latest failure
	for n, u := range us {
		sg, m := measureSegment(cc, u, long)
		switch {
		case u.protected:
			sg.Importance = Critical
		case m.errs:
			sg.Importance = High
		case m.longOut:
			sg.Importance = Medium
		}
		markDeadEnds(segs, lastFail, m, n)
		segs[n] = sg
	}
	return segs
}

// callKey identifies a tool call by its tool and input, so a retry of a
// call is recognised.
type callKey struct{ name, input string }

// segmentSigns are what a segment's messages say about its importance.
type segmentSigns struct {
	calls   []callKey
	errs    bool // a tool result failed or reports an error
	longOut bool // a tool result is over the long-result size
}

// measureSegment returns the segment of unit u with its tokens and ledger
// density, and the signs of its importance.
func measureSegment(cc *condense.CompactionContext, u unit, long int) (Segment, segmentSigns) {
	sg := Segment{Start: u.start, End: u.end}
	var m segmentSigns
	items := 0
	for i := u.start; i < u.end; i++ {
		it := &cc.Current[i]
		sg.Tokens += cc.CountItem(it)
		if it.Index >= 0 && it.Index < len(cc.History) {
			items += len(ledger.ExtractMessage(&cc.History[it.Index], it.Index))
		}
		for k := range it.Message.Parts {
			p := &it.Message.Parts[k]
			switch p.Type {
			case condense.PartToolCall:
				m.calls = append(m.calls, callKey{p.Name, string(compactInput(p.Input))})
			case condense.PartToolResult:
				if p.IsError || resultHasError(p) {
					m.errs = true
				}
				if cc.CountMessage(&condense.Message{Role: condense.RoleTool, Parts: []condense.Part{*p}}) > long {
					m.longOut = true
				}
			}
		}
	}
	if sg.Tokens > 0 {
		sg.Density = float64(items) * 100 / float64(sg.Tokens)
	}
	return sg, m
}

// markDeadEnds makes an earlier segment whose call failed, and that segment
// n retries, a dead end of low importance; it remembers n's calls when they
// failed.
func markDeadEnds(segs []Segment, lastFail map[callKey]int, m segmentSigns, n int) {
	for _, k := range m.calls {
		if prev, ok := lastFail[k]; ok && segs[prev].Importance != Critical {
			segs[prev].DeadEnd = true
			segs[prev].Importance = Low
		}
		if m.errs {
			lastFail[k] = n
		}
	}
}

func compactInput(raw json.RawMessage) []byte {
	if c, ok := compactJSON(raw); ok {
		return c
	}
	return raw
}

func resultHasError(p *condense.Part) bool {
	for _, c := range p.Content {
		if c.Type == condense.PartText && (strings.Contains(c.Text, "Error") || strings.Contains(c.Text, "FAIL") ||
			strings.Contains(c.Text, "panic:") || strings.Contains(c.Text, "Traceback")) {
			return true
		}
	}
	return false
}

// Compact keeps, masks or summarizes each old segment by its importance.
func (s Segments) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	mode, err := s.mode()
	if err != nil {
		return nil, err
	}
	segs := s.Classify(cc)
	tail := retainNewest(len(segs), 0, retentionBudget(s.RecentTokens, cc), func(i int) int { return segs[i].Tokens })
	fates, prev := s.fates(cc.Current, segs[:tail], mode)
	pl := collectSegments(cc, segs[:tail], fates, prev)
	if len(pl.span.msgs) == 0 && len(pl.targets) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	cand := &condense.Candidate{}
	work := s.maskKept(cc, pl.targets, cand)
	cand.Steps = []string{"segments(" + string(mode) + ")"}
	if len(pl.span.msgs) == 0 {
		cand.Rendering = append(make(condense.Rendering, 0, len(work)), work...)
		return cand, nil
	}
	out, err := pl.span.summarize(ctx, cc, 0)
	if err != nil {
		return nil, err
	}
	rules := ledgerRules{exclude: pl.exclude, budget: s.LedgerBudget, keep: lossyKeeps(mode)}
	text, gate, held := gateSummary(cc, &pl.span, out.Text, rules)
	cand.Rendering = placeSummary(work, segs, fates, pl.first, summaryItem(cc.Checkpoint, pl.span.covers, text, held))
	recordSummary(cand, out, text, gate, held)
	return cand, nil
}

// mode returns the mode, Lossless by default.
func (s Segments) mode() (SegmentMode, error) {
	mode := s.Mode
	if mode == "" {
		mode = Lossless
	}
	switch mode {
	case Lossless, Lossy, Adaptive:
		return mode, nil
	}
	return "", fmt.Errorf("segments: unknown mode %q", mode)
}

// fate is what Compact does with a segment before the recent tail.
type fate int

const (
	fateKeep fate = iota
	fateMask
	fateSummarize
)

// fates decides the fate of each old segment: an earlier summary is
// summarized again (prev is the newest one's segment, or -1); critical
// segments stay; high segments (lossless) and dense ones (adaptive) stay
// with their tool output masked; the rest are summarized, except
// synthesized items other than drop markers, which stay.
func (s Segments) fates(cur condense.Rendering, old []Segment, mode SegmentMode) (fates []fate, prev int) {
	density := s.Density
	if density <= 0 {
		density = 1.0
	}
	fates = make([]fate, len(old))
	prev = -1
	for n, sg := range old {
		first := &cur[sg.Start]
		if first.Edit == condense.EditSummary {
			prev = n
			fates[n] = fateSummarize
			continue
		}
		switch {
		case sg.Importance == Critical:
			fates[n] = fateKeep
		case mode == Lossless && sg.Importance == High:
			fates[n] = fateMask
		case mode == Adaptive && sg.Density >= density:
			fates[n] = fateMask
		default:
			fates[n] = fateSummarize
		}
		if first.Index < 0 && fates[n] == fateSummarize && first.Edit != condense.EditDropped {
			fates[n] = fateKeep
		}
	}
	return fates, prev
}

// segmentPlan is what Compact does with the segments before the recent
// tail.
type segmentPlan struct {
	span summarySpan
	// exclude holds the log indexes of the kept and masked segments: they
	// stay in the rendering, so the summary's ledger leaves them out.
	exclude map[int]bool
	// targets are the tool results to mask.
	targets []target
	// first is the first summarized segment, where the summary goes, or -1.
	first int
}

// collectSegments gathers the old segments by their fates: the masked
// ones' tool results become targets, the summarized ones go into the span
// (the newest earlier summary, at prev, is the one the new summary
// updates).
func collectSegments(cc *condense.CompactionContext, old []Segment, fates []fate, prev int) segmentPlan {
	cur := cc.Current
	pl := segmentPlan{span: newSummarySpan(), exclude: map[int]bool{}, first: -1}
	for n, sg := range old {
		switch fates[n] {
		case fateKeep, fateMask:
			for i := sg.Start; i < sg.End; i++ {
				if ix := cur[i].Index; ix >= 0 {
					pl.exclude[ix] = true
				}
				if fates[n] == fateMask {
					pl.targets = appendTargets(pl.targets, cc, cur, i, nil)
				}
			}
		case fateSummarize:
			if pl.first < 0 {
				pl.first = n
			}
			if n == prev {
				pl.span.update(&cur[sg.Start])
				continue
			}
			for i := sg.Start; i < sg.End; i++ {
				pl.span.add(&cur[i])
			}
		}
	}
	return pl
}

// maskKept masks the tool output of the kept high and dense segments on the
// current rendering, adding the placeholders' ledger counts to cand. It
// returns the rendering the summary is placed in: the current one when
// nothing was masked.
func (s Segments) maskKept(cc *condense.CompactionContext, targets []target, cand *condense.Candidate) condense.Rendering {
	if len(targets) == 0 {
		return cc.Current
	}
	sub := *cc
	mc, err := replaceResults(&sub, targets, s.LedgerBudget, "masked", condense.EditMasked)
	if err != nil {
		return cc.Current
	}
	cand.LedgerItems += mc.LedgerItems
	cand.Demoted += mc.Demoted
	return mc.Rendering
}

// lossyKeeps returns, in Lossy mode, the ledger items the summary's ledger
// must carry: decisions, constraints, errors, pinned facts and written
// files. Other modes carry every item (nil).
func lossyKeeps(mode SegmentMode) func(ledger.Item) bool {
	if mode != Lossy {
		return nil
	}
	return func(it ledger.Item) bool {
		switch it.Kind {
		case ledger.KindDecision, ledger.KindConstraint, ledger.KindError, ledger.KindPinned:
			return true
		case ledger.KindFile:
			return it.Access == ledger.Written
		}
		return false
	}
}

// placeSummary renders the segments from work in order, the summarized old
// ones (those with a fate) replaced by the summary, placed where the first
// of them was.
func placeSummary(work condense.Rendering, segs []Segment, fates []fate, first int, summary condense.Item) condense.Rendering {
	out := make(condense.Rendering, 0, len(work))
	for n, sg := range segs {
		if n < len(fates) && fates[n] == fateSummarize {
			if n == first {
				out = append(out, summary)
			}
			continue
		}
		out = append(out, work[sg.Start:sg.End]...)
	}
	return out
}
