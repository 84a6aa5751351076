package strategy

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/summarize"
)

// Importance of a segment (DESIGN B11, seed 002).
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

// The modes of seed 002.
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

// Segments is the importance-model strategy (DESIGN B11). The history
// before the recent tail is cut into segments (a step with its results, or a
// lone message); each gets an importance — pinned and protected messages
// are critical, a segment with errors high, one with long results medium,
// the rest low, and a dead end (a failed step the agent later retried) low.
// Critical segments stay verbatim; the others are kept (masked) or
// summarized according to Mode, into one summary message in the format of
// the summarize strategy, with the ledger quality gate.
type Segments struct {
	// Mode defaults to Lossless.
	Mode SegmentMode
	// RecentTokens is the recent tail kept verbatim; 0 means Retention of
	// the window. An emergency pass keeps only what I4 requires.
	RecentTokens int
	// LongResult is the tool-output size (tokens) that makes a segment
	// medium; 0 means 1,250 (about 5,000 characters, seed 002).
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

// Classify cuts cc.Current into segments and rates each (B11).
func (s Segments) Classify(cc *condense.CompactionContext) []Segment {
	cur := cc.Current
	long := s.LongResult
	if long <= 0 {
		long = 1250
	}
	us := units(cur)
	segs := make([]Segment, len(us))
	type callKey struct{ name, input string }
	lastFail := map[callKey]int{} // call → segment of its latest failure
	for n, u := range us {
		sg := Segment{Start: u.start, End: u.end}
		items := 0
		errs, longOut := false, false
		var keys []callKey
		for i := u.start; i < u.end; i++ {
			it := &cur[i]
			sg.Tokens += cc.CountItem(it)
			if it.Index >= 0 && it.Index < len(cc.History) {
				items += len(ledger.ExtractMessage(&cc.History[it.Index], it.Index))
			}
			for k := range it.Message.Parts {
				p := &it.Message.Parts[k]
				switch p.Type {
				case condense.PartToolCall:
					keys = append(keys, callKey{p.Name, string(compactInput(p.Input))})
				case condense.PartToolResult:
					if p.IsError || resultHasError(p) {
						errs = true
					}
					if cc.CountMessage(&condense.Message{Role: condense.RoleTool, Parts: []condense.Part{*p}}) > long {
						longOut = true
					}
				}
			}
		}
		if sg.Tokens > 0 {
			sg.Density = float64(items) * 100 / float64(sg.Tokens)
		}
		switch {
		case u.protected:
			sg.Importance = Critical
		case errs:
			sg.Importance = High
		case longOut:
			sg.Importance = Medium
		}
		// A retry of a call that failed earlier makes that earlier
		// segment a dead end.
		for _, k := range keys {
			if prev, ok := lastFail[k]; ok && segs[prev].Importance != Critical {
				segs[prev].DeadEnd = true
				segs[prev].Importance = Low
			}
			if errs {
				lastFail[k] = n
			}
		}
		segs[n] = sg
	}
	return segs
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
	mode := s.Mode
	if mode == "" {
		mode = Lossless
	}
	switch mode {
	case Lossless, Lossy, Adaptive:
	default:
		return nil, fmt.Errorf("segments: unknown mode %q", mode)
	}
	density := s.Density
	if density <= 0 {
		density = 1.0
	}
	cur := cc.Current
	segs := s.Classify(cc)
	budget := s.RecentTokens
	if budget <= 0 {
		budget = Retention(cc.Budget.Window)
	}
	if cc.Emergency {
		budget = 0
	}
	// The recent tail: segments from the end while they fit.
	tail, kept := len(segs), 0
	for i := len(segs) - 1; i >= 0; i-- {
		if kept+segs[i].Tokens > budget && i < len(segs)-1 {
			break
		}
		kept += segs[i].Tokens
		tail = i
	}
	type fate int
	const (
		keep fate = iota
		mask
		summ
	)
	fates := make([]fate, len(segs))
	prev := -1
	for n := 0; n < tail; n++ {
		sg := segs[n]
		if cur[sg.Start].Edit == condense.EditSummary {
			prev = n
			fates[n] = summ
			continue
		}
		switch {
		case sg.Importance == Critical:
			fates[n] = keep
		case mode == Lossless && sg.Importance == High:
			fates[n] = mask
		case mode == Adaptive && sg.Density >= density:
			fates[n] = mask
		default:
			fates[n] = summ
		}
		if cur[sg.Start].Index < 0 && fates[n] == summ && cur[sg.Start].Edit != condense.EditDropped {
			fates[n] = keep // other synthesized items stay
		}
	}
	var spanMsgs []condense.Message
	exclude := map[int]bool{}
	covers := condense.Span{Start: -1}
	prevText := ""
	var prevItem *condense.Item
	var targets []target
	first := -1
	for n := 0; n < tail; n++ {
		sg := segs[n]
		switch fates[n] {
		case keep, mask:
			for i := sg.Start; i < sg.End; i++ {
				if ix := cur[i].Index; ix >= 0 {
					exclude[ix] = true
				}
				if fates[n] == mask {
					targets = appendTargets(targets, cc, cur, i, nil)
				}
			}
		case summ:
			if first < 0 {
				first = n
			}
			if n == prev {
				prevItem = &cur[sg.Start]
				prevText = summaryBody(prevItem.Message.TextContent())
				covers = prevItem.Covers
				continue
			}
			for i := sg.Start; i < sg.End; i++ {
				spanMsgs = append(spanMsgs, cur[i].Message)
				lo, hi := cur[i].Index, cur[i].Index+1
				if lo < 0 {
					lo, hi = cur[i].Covers.Start, cur[i].Covers.End
				}
				if hi > lo {
					if covers.Start < 0 || lo < covers.Start {
						covers.Start = lo
					}
					covers.End = max(covers.End, hi)
				}
			}
		}
	}
	if len(spanMsgs) == 0 && len(targets) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	// Mask the kept high/dense segments first, on the current rendering.
	work := cur
	cand := &condense.Candidate{}
	if len(targets) > 0 {
		sub := *cc
		mc, err := replaceResults(&sub, targets, s.LedgerBudget, "masked", condense.EditMasked)
		if err == nil {
			work = mc.Rendering
			cand.LedgerItems += mc.LedgerItems
			cand.Demoted += mc.Demoted
		}
	}
	out := make(condense.Rendering, 0, len(work))
	if len(spanMsgs) == 0 {
		out = append(out, work...)
		cand.Rendering = out
		cand.Steps = []string{"segments(" + string(mode) + ")"}
		return cand, nil
	}
	sum := summarizerOf(cc)
	so, err := sum.Summarize(ctx, condense.SummaryRequest{Messages: spanMsgs, Base: max(0, covers.Start), Previous: prevText, Instructions: cc.Instructions})
	if err != nil {
		return nil, err
	}
	if so == nil || strings.TrimSpace(so.Text) == "" {
		return nil, &summarize.RejectedError{Reason: summarize.ErrEmpty}
	}
	var filter func(ledger.Item) bool
	if mode == Lossy {
		filter = func(it ledger.Item) bool {
			switch it.Kind {
			case ledger.KindDecision, ledger.KindConstraint, ledger.KindError, ledger.KindPinned:
				return true
			case ledger.KindFile:
				return it.Access == ledger.Written
			}
			return false
		}
	}
	text, gate, held := gateSummary(cc, so.Text, prevItem, covers, exclude, s.LedgerBudget, filter)
	placed := false
	for n := 0; n < len(segs); n++ {
		sg := segs[n]
		if n < tail && fates[n] == summ {
			if !placed && n == first {
				out = append(out, condense.Item{Index: -1, Edit: condense.EditSummary, Covers: covers, Message: summaryMessage(cc.Checkpoint, covers, text), Ledger: held})
				placed = true
			}
			continue
		}
		out = append(out, work[sg.Start:sg.End]...)
	}
	cand.Rendering = out
	cand.LedgerItems += len(held)
	cand.Demoted += gate.Demoted
	cand.Gate = &gate
	cand.Summary = text
	cand.Trim = so.Trim
	if so.Usage != (condense.Usage{}) {
		cand.Usage = []condense.Usage{so.Usage}
	}
	cand.Steps = []string{"segments(" + string(mode) + ")"}
	return cand, nil
}
