package strategy

import (
	"context"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// DefaultKeepSteps is how many recent steps Mask leaves untouched
// (JetBrains' "Complexity Trap" study found that masking all but the last 10
// observations matched model summaries at half the cost).
const DefaultKeepSteps = 10

// minMaskTokens: results smaller than this are not worth a placeholder.
const minMaskTokens = 24

// Mask is mask-observations: tool results older than the last KeepSteps
// steps become one-line placeholders carrying a recall reference and the
// result's ledger items:
//
//	[condense: tool output masked (5,210 tokens) · recall r42-3fa9c2d1 · kept: error "panic: …"; file internal/x.go]
//
// In an emergency pass no step is kept but the newest, which is always
// kept verbatim with the task, pinned messages and the newest user message.
type Mask struct {
	// KeepSteps is the number of recent steps left as they are; 0 means
	// DefaultKeepSteps.
	KeepSteps int
	// LedgerBudget bounds the tokens of ledger items one pass renders; 0
	// means the room left below the budget's target (the low-water mark),
	// at least 5% of the window.
	LedgerBudget int
	// Fill masks only as much as an automatic compaction needs: results
	// older than the recent steps are masked oldest first, and the newest
	// of them stay verbatim as long as the request, with the ledger of what
	// was masked, stays under the budget's target. Without Fill every
	// result older than the recent steps is masked. Manual and emergency
	// passes mask them all either way.
	Fill bool
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
	if s.Fill && !cc.Manual && !cc.Emergency {
		return fillResults(cc, targets, s.LedgerBudget)
	}
	return replaceResults(cc, targets, s.LedgerBudget, "masked", condense.EditMasked)
}

// fillResults masks the oldest of targets (which are in rendering order)
// and leaves the newest verbatim while the request stays under the target:
// the room below the target goes first to the ledger of what is masked (up
// to half of it), then to recent results kept whole, then back to the
// ledger.
func fillResults(cc *condense.CompactionContext, targets []target, budget int) (*condense.Candidate, error) {
	if len(targets) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	work := pendingReplacements(cc, targets)
	after := cc.Tokens
	for _, w := range work {
		after -= w.tokens - placeholderTokens
	}
	spare := roomBelowTarget(cc, after)
	if spare > 0 {
		need := 0
		seen := map[string]bool{}
		var distinct []ledger.Item
		for _, w := range work {
			for _, it := range w.items {
				if k := it.Key(); !seen[k] {
					seen[k] = true
					need += ledger.ApproxTokens(it.String()) + 1
					distinct = append(distinct, it)
				}
			}
		}
		// need is in ledger.ApproxTokens; the reserve in the counter's.
		reserve := min(int(float64(need)/approxRatio(cc, distinct, nil)), spare/2)
		// Keep results verbatim, newest first, while they fit in what the
		// ledger reserve leaves.
		n := len(work)
		for n > 0 {
			cost := work[n-1].tokens - placeholderTokens
			if cost > spare-reserve {
				break
			}
			spare -= cost
			n--
		}
		work = work[:n]
	}
	if len(work) == 0 {
		return nil, condense.ErrNothingToCompact
	}
	if budget <= 0 {
		budget = max(ledger.DefaultBudget(cc.Budget.Window), min(spare, cc.Budget.Window/MaxLedgerShare))
	}
	return placeResults(cc, work, budget, "masked", condense.EditMasked)
}

// roomBelowTarget is the room a rendering of after tokens leaves below the
// budget's target, less a tenth for the error of estimating ledger items.
func roomBelowTarget(cc *condense.CompactionContext, after int) int {
	return (cc.Budget.Target() - after) * 9 / 10
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
	work := pendingReplacements(cc, targets)
	if budget <= 0 {
		budget = roomBudget(cc, work)
	}
	return placeResults(cc, work, budget, verb, edit)
}

// placeResults renders the placeholders of work with its ledger items
// within budget.
func placeResults(cc *condense.CompactionContext, work []pending, budget int, verb string, edit condense.Edit) (*condense.Candidate, error) {
	texts, nKept, nDemoted := placeLedger(cc, work, budget, verb)
	out, ok := applyPlaceholders(cc.Current, work, texts, edit)
	if !ok {
		return nil, condense.ErrNothingToCompact
	}
	return &condense.Candidate{Rendering: out, LedgerItems: nKept, Demoted: nDemoted, LedgerBudget: budget}, nil
}

// pending is one tool result to replace, with what its placeholder says.
type pending struct {
	target
	tokens int
	ref    string
	items  []ledger.Item
	skip   bool // the placeholder would not be smaller than the result
}

// pendingReplacements returns the targets worth a placeholder, with their
// size, recall reference and ledger items. Those come from the original log
// message, so they do not depend on earlier edits.
func pendingReplacements(cc *condense.CompactionContext, targets []target) []pending {
	cur := cc.Current
	calls := callsByID(cur)
	hist := cc.History
	var work []pending
	for _, t := range targets {
		it := &cur[t.item]
		orig := &it.Message.Parts[t.part]
		fromLog := false
		if it.Index < len(hist) && t.part < len(hist[it.Index].Parts) {
			if hp := &hist[it.Index].Parts[t.part]; hp.Type == condense.PartToolResult && hp.CallID == orig.CallID {
				orig, fromLog = hp, true
			}
		}
		n := resultTokens(cc, it, t.part, orig)
		if n < minMaskTokens {
			continue
		}
		call := calls[orig.CallID]
		var items []ledger.Item
		if fromLog {
			// The log's result reads the same at every compaction: a
			// replacement refused at one call and tried again at the
			// next does not read it again.
			// It is read with its call as the log holds it, which an
			// earlier compaction may have rewritten in the rendering.
			items = cc.Remember("result-items", it.Index, t.part, func() any {
				if c := logCall(hist[:it.Index], orig.CallID); c != nil {
					call = c
				}
				return resultItems(call, orig, it.Index)
			}).([]ledger.Item)
		} else {
			items = resultItems(call, orig, it.Index)
		}
		work = append(work, pending{target: t, tokens: n, ref: condense.RecallRef(it.Index, orig), items: items})
	}
	return work
}

// logCall returns the latest tool call of hist with the given id, or nil.
func logCall(hist []condense.Message, id string) *condense.Part {
	for i := len(hist) - 1; i >= 0; i-- {
		if hist[i].Role != condense.RoleAssistant {
			continue
		}
		for k := range hist[i].Parts {
			if p := &hist[i].Parts[k]; p.Type == condense.PartToolCall && p.ID == id {
				return p
			}
		}
	}
	return nil
}

// resultTokens returns the tokens of tool result part (of item it, at
// index part; orig is the log's version of it). A message holding only that
// result is counted already — by the preflight for a log message — so its
// cached count is used instead of tokenizing the output again.
func resultTokens(cc *condense.CompactionContext, it *condense.Item, part int, orig *condense.Part) int {
	if len(it.Message.Parts) == 1 && part == 0 && it.Edit == condense.EditNone && it.Index >= 0 {
		return cc.CountItem(it)
	}
	return cc.CountMessage(&condense.Message{Role: condense.RoleTool, Parts: []condense.Part{*orig}})
}

// roomBudget is the default ledger budget of a pass that replaces work
// (ledgerRoom of the room it leaves below the target).
func roomBudget(cc *condense.CompactionContext, work []pending) int {
	after := cc.Tokens
	for _, w := range work {
		after -= w.tokens - placeholderTokens
	}
	return ledgerRoom(cc, after)
}

// placeholderTokens is about what a placeholder without ledger items costs.
const placeholderTokens = 30

// placeLedger places the items of the pending results (deduplicated, within
// the budget) in their placeholders and returns the placeholders' texts and
// how many items were kept and demoted. A placeholder that would not be
// smaller than its result is skipped and the items placed again without
// it, so no item is left only in a result that stays.
func placeLedger(cc *condense.CompactionContext, work []pending, budget int, verb string) (texts []string, nKept, nDemoted int) {
	ratio := 0.0 // the same items each round, less the skipped: sampled once
	for round := 0; ; round++ {
		kp := newKeeper(cc, budget)
		kp.ratio = ratio
		groups := make([]int, len(work))
		for i := range work {
			groups[i] = -1
			if !work[i].skip {
				groups[i] = kp.add(work[i].items)
			}
		}
		var kept [][]string
		kept, nKept, nDemoted = kp.resolve()
		ratio = kp.ratio
		texts = make([]string, len(work))
		changed := false
		for i := range work {
			if work[i].skip {
				continue
			}
			texts[i] = placeholder(verb, work[i].tokens, work[i].ref, kept[groups[i]])
			ph := condense.ToolResult("", false, condense.Text(texts[i]))
			if cc.CountMessage(&condense.Message{Role: condense.RoleTool, Parts: []condense.Part{ph}}) >= work[i].tokens {
				work[i].skip, changed = true, true
			}
		}
		// Every round skips one more result at least, so this ends; it
		// must not stop while a result it just skipped still holds items
		// no other placeholder repeats (its text stays, but an item's
		// value is not always a verbatim substring of it).
		if !changed || round > len(work) {
			return texts, nKept, nDemoted
		}
	}
}

// applyPlaceholders returns a copy of cur with the placeholders in place of
// their results, the items touched marked with edit. ok is false when no
// result was replaced.
func applyPlaceholders(cur condense.Rendering, work []pending, texts []string, edit condense.Edit) (condense.Rendering, bool) {
	out := cur.Clone()
	touched := map[int]bool{}
	for i, w := range work {
		if w.skip || texts[i] == "" {
			continue
		}
		it := &out[w.item]
		if !touched[w.item] {
			it.Message.Parts = append([]condense.Part(nil), it.Message.Parts...)
			touched[w.item] = true
		}
		p := &it.Message.Parts[w.part]
		p.Content = []condense.Part{condense.Text(texts[i])}
	}
	if len(touched) == 0 {
		return nil, false
	}
	for i := range touched {
		old := out[i]
		out[i] = condense.Item{Index: old.Index, Message: old.Message, Edit: edit, Covers: old.Covers}
	}
	return out, true
}

func placeholder(verb string, tokens int, ref string, kept []string) string {
	if verb == "masked" {
		return condense.MaskPlaceholder(tokens, ref, kept)
	}
	s := condense.MaskPlaceholder(tokens, ref, kept)
	return strings.Replace(s, "tool output masked", "tool output "+verb, 1)
}
