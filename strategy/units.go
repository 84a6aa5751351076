package strategy

import (
	"github.com/condense-dev/condense"
)

// unit is a run of rendering items that must be kept or dropped together: an
// assistant item with the tool items answering it, or a single other item.
type unit struct {
	start, end int // items [start, end)
	protected  bool
}

// units groups r into units; a unit is protected when any of its items is
// (the task, pinned messages, the newest user message and the newest step).
func units(r condense.Rendering) []unit {
	prot := r.Protected()
	var us []unit
	for i := 0; i < len(r); {
		j := i + 1
		if r[i].Message.Role == condense.RoleAssistant {
			for j < len(r) && r[j].Message.Role == condense.RoleTool {
				j++
			}
		}
		u := unit{start: i, end: j}
		for k := i; k < j; k++ {
			if prot[k] {
				u.protected = true
			}
		}
		us = append(us, u)
		i = j
	}
	return us
}

// callsByID indexes the tool calls of r by id, so a result can find the
// call it answers.
func callsByID(r condense.Rendering) map[string]*condense.Part {
	calls := map[string]*condense.Part{}
	for i := range r {
		if r[i].Message.Role != condense.RoleAssistant {
			continue
		}
		parts := r[i].Message.Parts
		for k := range parts {
			if parts[k].Type == condense.PartToolCall {
				calls[parts[k].ID] = &parts[k]
			}
		}
	}
	return calls
}
