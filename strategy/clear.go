package strategy

import (
	"context"
	"encoding/json"
	"slices"

	"github.com/condense-dev/condense"
)

// DefaultKeepToolUses is how many recent tool uses ClearToolUses keeps.
const DefaultKeepToolUses = 3

// ClearToolUses is clear-tool-uses (after Anthropic's context editing): the
// results of all but the KeepToolUses most recent tool uses are replaced by
// placeholders (with their recall reference and ledger items), and
// optionally their inputs by {}. It acts only when it clears at least
// ClearAtLeast tokens; tools named in Exclude are never cleared. Its trigger
// is the budget's threshold, like every automatic strategy.
type ClearToolUses struct {
	// KeepToolUses is the number of recent tool uses kept; 0 means
	// DefaultKeepToolUses. An emergency pass keeps only the newest step.
	KeepToolUses int
	// ClearAtLeast is the fewest tokens worth clearing; below it the
	// strategy leaves the history as it is.
	ClearAtLeast int
	// Exclude names tools whose uses are never cleared.
	Exclude []string
	// ClearInputs also replaces the cleared calls' inputs by {}.
	ClearInputs bool
	// LedgerBudget bounds the ledger tokens one pass renders; 0 means 5%
	// of the window.
	LedgerBudget int
}

// Name returns "clear-tool-uses".
func (ClearToolUses) Name() string { return "clear-tool-uses" }

// Compact clears the older tool uses.
func (s ClearToolUses) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	keep := s.KeepToolUses
	if keep <= 0 {
		keep = DefaultKeepToolUses
	}
	if cc.Emergency {
		keep = 0
	}
	cur := cc.Current
	calls := callsByID(cur)
	// The call ids in order of use, newest last.
	var order []string
	for i := range cur {
		if cur[i].Message.Role != condense.RoleAssistant {
			continue
		}
		for _, p := range cur[i].Message.Parts {
			if p.Type == condense.PartToolCall {
				order = append(order, p.ID)
			}
		}
	}
	recent := map[string]bool{}
	for _, id := range order[max(0, len(order)-keep):] {
		recent[id] = true
	}
	filter := func(callID string) bool {
		if recent[callID] {
			return false
		}
		c := calls[callID]
		return c == nil || !slices.Contains(s.Exclude, c.Name)
	}
	prot := cur.Protected()
	var targets []target
	for i := range cur {
		if !prot[i] {
			targets = appendTargets(targets, cc, cur, i, filter)
		}
	}
	cand, err := replaceResults(cc, targets, s.LedgerBudget, "cleared", condense.EditCleared)
	if err != nil {
		return nil, err
	}
	if s.ClearInputs {
		cand.Rendering = clearInputs(cand.Rendering, prot)
	}
	if s.ClearAtLeast > 0 && cc.Tokens-cc.Count(cand.Rendering) < s.ClearAtLeast {
		return nil, condense.ErrNothingToCompact
	}
	return cand, nil
}

// clearInputs empties the input of every call whose result was cleared.
func clearInputs(r condense.Rendering, prot []bool) condense.Rendering {
	cleared := map[string]bool{}
	for i := range r {
		if r[i].Edit != condense.EditCleared {
			continue
		}
		for k := range r[i].Message.Parts {
			if p := &r[i].Message.Parts[k]; p.Type == condense.PartToolResult && isPlaceholder(p) {
				cleared[p.CallID] = true
			}
		}
	}
	empty := json.RawMessage("{}")
	for i := range r {
		it := &r[i]
		if prot[i] || it.Message.Role != condense.RoleAssistant {
			continue
		}
		var parts []condense.Part
		for k, p := range it.Message.Parts {
			if p.Type != condense.PartToolCall || !cleared[p.ID] || string(p.Input) == "{}" {
				continue
			}
			if parts == nil {
				parts = append([]condense.Part(nil), it.Message.Parts...)
			}
			parts[k].Input = empty
		}
		if parts != nil {
			it.Message.Parts = parts
			*it = condense.Item{Index: it.Index, Message: it.Message, Edit: condense.EditCleared, Covers: it.Covers}
		}
	}
	return r
}
