package strategy

import (
	"context"
	"strings"

	"github.com/condense-dev/condense"
)

// DefaultKeepSteps is how many recent steps Mask leaves untouched (DESIGN
// B8; JetBrains' "Complexity Trap" found M=10 matched model summaries at half
// the cost).
const DefaultKeepSteps = 10

// minMaskTokens: results smaller than this are not worth a placeholder.
const minMaskTokens = 24

// Mask is mask-observations (DESIGN B8): tool results older than the last
// KeepSteps steps become one-line placeholders carrying a recall reference
// and the result's ledger items:
//
//	[condense: tool output masked (5,210 tokens) · recall r42-3fa9c2d1 · kept: error "panic: …"; file internal/x.go]
//
// In an emergency pass no step is kept but the newest (I4).
type Mask struct {
	// KeepSteps is the number of recent steps left as they are; 0 means
	// DefaultKeepSteps.
	KeepSteps int
	// LedgerBudget bounds the tokens of ledger items one pass renders; 0
	// means 5% of the window.
	LedgerBudget int
}

// Name returns "mask".
func (Mask) Name() string { return "mask" }

// Compact masks the tool results outside the recent steps.
func (s Mask) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	keep := s.KeepSteps
	if keep <= 0 {
		keep = DefaultKeepSteps
	}
	if cc.Emergency {
		keep = 0
	}
	cur := cc.Current
	steps := cur.Steps()
	recentFrom := len(cur)
	if keep > 0 {
		if len(steps) <= keep {
			return nil, condense.ErrNothingToCompact
		}
		recentFrom = steps[len(steps)-keep].Start
	}
	var targets []target
	prot := cur.Protected()
	for i := 0; i < recentFrom; i++ {
		if prot[i] {
			continue
		}
		targets = appendTargets(targets, cc, cur, i, nil)
	}
	return replaceResults(cc, targets, s.LedgerBudget, "masked", condense.EditMasked)
}

// target is one tool result part to replace: item i, part k.
type target struct {
	item, part int
}

// appendTargets adds the tool results of item i worth replacing; when
// filter is set, only results whose call it accepts.
func appendTargets(ts []target, cc *condense.CompactionContext, cur condense.Rendering, i int, filter func(callID string) bool) []target {
	it := &cur[i]
	if it.Message.Role != condense.RoleTool || it.Index < 0 {
		return ts
	}
	for k := range it.Message.Parts {
		p := &it.Message.Parts[k]
		if p.Type != condense.PartToolResult || isPlaceholder(p) {
			continue
		}
		if filter != nil && !filter(p.CallID) {
			continue
		}
		ts = append(ts, target{item: i, part: k})
	}
	return ts
}

// isPlaceholder reports whether a result already is a condense placeholder.
func isPlaceholder(p *condense.Part) bool {
	return len(p.Content) == 1 && p.Content[0].Type == condense.PartText &&
		strings.HasPrefix(p.Content[0].Text, "[condense: tool output ")
}

// replaceResults turns each target into a placeholder ("masked" or
// "cleared") holding its ledger items, keeping only those that shrink.
func replaceResults(cc *condense.CompactionContext, targets []target, budget int, verb string, edit condense.Edit) (*condense.Candidate, error) {
	if len(targets) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	cur := cc.Current
	calls := callsByID(cur)
	hist := cc.History
	kp := newKeeper(cc, budget)
	type pending struct {
		target
		tokens int
		ref    string
		group  int
	}
	var work []pending
	for _, t := range targets {
		it := &cur[t.item]
		// Recall references and ledger items come from the original log
		// message, so they do not depend on earlier edits.
		orig := &it.Message.Parts[t.part]
		if it.Index < len(hist) && t.part < len(hist[it.Index].Parts) {
			if hp := &hist[it.Index].Parts[t.part]; hp.Type == condense.PartToolResult && hp.CallID == orig.CallID {
				orig = hp
			}
		}
		n := cc.CountMessage(&condense.Message{Role: condense.RoleTool, Parts: []condense.Part{*orig}})
		if n < minMaskTokens {
			continue
		}
		g := kp.add(resultItems(calls[orig.CallID], orig, it.Index))
		work = append(work, pending{target: t, tokens: n, ref: condense.RecallRef(it.Index, orig), group: g})
	}
	if len(work) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	kept, nKept, nDemoted := kp.resolve()
	out := cur.Clone()
	touched := map[int]bool{}
	for _, w := range work {
		it := &out[w.item]
		if !touched[w.item] {
			it.Message.Parts = append([]condense.Part(nil), it.Message.Parts...)
			touched[w.item] = true
		}
		text := placeholder(verb, w.tokens, w.ref, kept[w.group])
		p := &it.Message.Parts[w.part]
		p.Content = []condense.Part{condense.Text(text)}
	}
	for i := range touched {
		old := out[i]
		out[i] = condense.Item{Index: old.Index, Message: old.Message, Edit: edit, Covers: old.Covers}
	}
	return &condense.Candidate{Rendering: out, LedgerItems: nKept, Demoted: nDemoted}, nil
}

func placeholder(verb string, tokens int, ref string, kept []string) string {
	if verb == "masked" {
		return condense.MaskPlaceholder(tokens, ref, kept)
	}
	s := condense.MaskPlaceholder(tokens, ref, kept)
	return strings.Replace(s, "tool output masked", "tool output "+verb, 1)
}
