package transcript

import (
	"fmt"
	"slices"

	"github.com/condense-dev/condense"
)

// loc is where a record came from: a JSONL line or a JSON path.
type loc struct {
	line int
	// col is the 1-based column (in bytes) in line of a problem in the
	// text itself (a JSON syntax error), 0 when the whole record is meant.
	col  int
	path string
}

// rawMsg is a message as a reader produced it, before the pairing repairs.
type rawMsg struct {
	m   condense.Message
	loc loc
	// origin is the index of the reader message this one comes from; the
	// repairs give synthesized and moved messages the origin of the
	// assistant message they answer, so origins never decrease.
	origin int
}

type rawCheckpoint struct {
	summary string
	// at is the number of reader messages before the checkpoint's first
	// kept message.
	at     int
	source string
}

// builder collects what a reader finds and turns it into a Transcript.
type builder struct {
	opts    Options
	format  Format
	src     *source
	req     condense.Request
	msgs    []rawMsg
	cp      *rawCheckpoint
	skipped int
	dropped int
	repair  int
	notes   []Note
	// rekey gives a reused tool call id a new unique one instead of
	// rejecting it: set by readers of formats that reuse ids by design
	// (replayed SWE-agent demonstrations).
	rekey    bool
	original map[string]string
	// arena is the document being read, which texts may be kept in (nil
	// for the JSONL formats read line by line).
	arena *docArena
}

// note records what the reader did to a record that was not read as is.
func (b *builder) note(action NoteAction, l loc, format string, args ...any) {
	b.notes = append(b.notes, Note{Action: action, Line: l.line, Column: l.col, Path: l.path, Reason: fmt.Sprintf(format, args...)})
}

// errAt returns the *ReadError for a problem at l.
func (b *builder) errAt(l loc, format string, args ...any) error {
	return &ReadError{File: b.opts.Name, Line: l.line, Column: l.col, Path: l.path,
		Err: fmt.Errorf("%s: %w: "+format, append([]any{b.format, condense.ErrMalformed}, args...)...)}
}

// bad reports a malformed record at l: under Options.Lenient it is counted
// as skipped and bad returns nil, so the reader skips the record; otherwise
// it returns the error.
func (b *builder) bad(l loc, format string, args ...any) error {
	if b.opts.Lenient {
		b.skipped++
		b.note(NoteSkipped, l, format, args...)
		return nil
	}
	return b.errAt(l, format, args...)
}

// add appends a message, keeping its texts (see keep). Messages without
// parts are left out.
func (b *builder) add(m condense.Message, l loc) {
	if len(m.Parts) == 0 {
		return
	}
	b.keep(&m)
	b.msgs = append(b.msgs, rawMsg{m: m, loc: l, origin: len(b.msgs)})
}

// last returns the last message added, or nil.
func (b *builder) last() *rawMsg {
	if len(b.msgs) == 0 {
		return nil
	}
	return &b.msgs[len(b.msgs)-1]
}

// checkpoint records an imported compaction whose first kept message is the
// next message added.
func (b *builder) checkpoint(summary, source string) {
	b.cp = &rawCheckpoint{summary: summary, at: len(b.msgs), source: source}
}

// finish repairs the pairing of calls and results, validates, and returns
// the transcript.
func (b *builder) finish() (*Transcript, error) {
	msgs, err := b.repairPairs()
	if err != nil {
		return nil, err
	}
	out := make([]condense.Message, len(msgs))
	for i := range msgs {
		out[i] = msgs[i].m
	}
	if err := condense.Validate(out); err != nil {
		// The repairs should make this impossible; report it as malformed
		// input rather than hand back an invalid history.
		var l loc
		if ve, ok := err.(*condense.ValidationError); ok && ve.Index < len(msgs) {
			l = msgs[ve.Index].loc
		}
		return nil, &ReadError{File: b.opts.Name, Line: l.line, Path: l.path,
			Err: fmt.Errorf("%s: %w: %w", b.format, condense.ErrMalformed, err)}
	}
	req := b.req
	req.Messages = out
	t := &Transcript{Format: b.format, Request: req, Skipped: b.skipped, Repaired: b.repair, Dropped: b.dropped, Notes: b.notes, OriginalIDs: b.original}
	if b.cp != nil {
		first := len(msgs)
		for i := range msgs {
			if msgs[i].origin >= b.cp.at {
				first = i
				break
			}
		}
		// A boundary inside a step (between a call and its results) moves
		// back to the step's assistant message, so Rendered stays valid.
		for first < len(msgs) && first > 0 && msgs[first].m.Role == condense.RoleTool {
			first--
		}
		t.Checkpoint = &Checkpoint{Summary: b.cp.summary, FirstKept: first, Source: b.cp.source}
	}
	return t, nil
}

// block is a non-tool message and the tool messages that follow it.
type block struct {
	msg   rawMsg
	tools []rawMsg
}

// repairPairs makes the reader's messages turn safe, so that they pass
// condense.Validate:
//   - a duplicate or empty tool call id, a tool call outside an assistant
//     message and a tool result outside a tool message are malformed
//     (Lenient: the part is left out, counted in skipped);
//   - thinking parts of an assistant message move before its first tool
//     call, and an assistant message holding only thinking merges into the
//     assistant message right after it;
//   - a result whose call is nowhere, comes later, or was already answered
//     is malformed (Lenient: dropped, counted in dropped);
//   - a result separated from its call moves back into that call's step;
//   - calls left without a result before the newest step get StandInResult.
func (b *builder) repairPairs() ([]rawMsg, error) {
	if b.rekey {
		b.rekeyReused()
	}
	// Calls: ids must be present and unique.
	allCalls := map[string]bool{}
	for i := range b.msgs {
		rm := &b.msgs[i]
		var keep []condense.Part
		changed := false
		for _, p := range rm.m.Parts {
			misplaced := p.Type == condense.PartToolCall && rm.m.Role != condense.RoleAssistant ||
				p.Type == condense.PartToolResult && rm.m.Role != condense.RoleTool
			if misplaced {
				if err := b.bad(rm.loc, "%s part in a %s message", p.Type, rm.m.Role); err != nil {
					return nil, err
				}
				changed = true
				continue
			}
			if p.Type == condense.PartToolCall {
				switch {
				case p.ID == "":
					if err := b.bad(rm.loc, "tool call %q has no id", p.Name); err != nil {
						return nil, err
					}
					changed = true
					continue
				case allCalls[p.ID]:
					if err := b.bad(rm.loc, "duplicate tool call id %q", p.ID); err != nil {
						return nil, err
					}
					changed = true
					continue
				}
				allCalls[p.ID] = true
			}
			keep = append(keep, p)
		}
		if changed {
			rm.m.Parts = keep
		}
		if rm.m.Role == condense.RoleAssistant {
			rm.m.Parts = thinkingFirst(rm.m.Parts)
		}
	}

	msgs := mergeThinking(b.msgs)

	var blocks []block
	callBlock := map[string]int{}
	answered := map[string]bool{}
	for _, rm := range msgs {
		if rm.m.Role != condense.RoleTool {
			blocks = append(blocks, block{msg: rm})
			if rm.m.Role == condense.RoleAssistant {
				for _, p := range rm.m.Parts {
					if p.Type == condense.PartToolCall {
						callBlock[p.ID] = len(blocks) - 1
					}
				}
			}
			continue
		}
		var keep []condense.Part
		kept := 0
		for _, p := range rm.m.Parts {
			if p.Type != condense.PartToolResult {
				keep = append(keep, p)
				continue
			}
			bi, ok := callBlock[p.CallID]
			var problem string
			switch {
			case !ok && allCalls[p.CallID]:
				problem = fmt.Sprintf("tool result for call %q comes before its call", p.CallID)
			case !ok:
				problem = fmt.Sprintf("tool result for call %q has no matching tool call", p.CallID)
			case answered[p.CallID]:
				problem = fmt.Sprintf("second tool result for call %q", p.CallID)
			}
			if problem != "" {
				if !b.opts.Lenient {
					return nil, b.errAt(rm.loc, "%s", problem)
				}
				b.dropped++
				b.note(NoteDropped, rm.loc, "%s", problem)
				continue
			}
			answered[p.CallID] = true
			if bi == len(blocks)-1 {
				keep = append(keep, p)
				kept++
				continue
			}
			// A late result: move it back into its call's step.
			owner := &blocks[bi]
			moved := rm
			moved.m.Parts = []condense.Part{p}
			moved.m.ID = ""
			moved.origin = owner.msg.origin
			owner.tools = append(owner.tools, moved)
		}
		if kept == 0 || len(blocks) == 0 {
			continue
		}
		rm.m.Parts = keep
		last := &blocks[len(blocks)-1]
		last.tools = append(last.tools, rm)
	}

	out := make([]rawMsg, 0, len(msgs)+4)
	for bi := range blocks {
		bl := &blocks[bi]
		out = append(out, bl.msg)
		out = append(out, bl.tools...)
		if bl.msg.m.Role != condense.RoleAssistant || bi == len(blocks)-1 {
			continue // the newest step's calls may still be running
		}
		var stand []condense.Part
		for _, p := range bl.msg.m.Parts {
			if p.Type == condense.PartToolCall && !answered[p.ID] {
				stand = append(stand, condense.ToolResult(p.ID, true, condense.Text(StandInResult)))
				answered[p.ID] = true
			}
		}
		if len(stand) == 0 {
			continue
		}
		b.repair += len(stand)
		for _, p := range stand {
			b.note(NoteRepaired, bl.msg.loc, "tool call %q has no recorded result: given %q", p.CallID, StandInResult)
		}
		id := ""
		if bl.msg.m.ID != "" {
			id = bl.msg.m.ID + "/no-result"
		}
		out = append(out, rawMsg{m: condense.Message{ID: id, Role: condense.RoleTool, Parts: stand},
			loc: bl.msg.loc, origin: bl.msg.origin})
	}
	// Moving results may have made a thinking-only message adjacent to the
	// next assistant message.
	return mergeThinking(out), nil
}

// rekeyReused gives every tool call whose id an earlier call already used
// the id "<id>~<n>" (n counting from 2, skipping ids the file uses), and
// points the results that follow it, up to the next call reusing the id, at
// the new id. The file's ids are kept in b.original.
func (b *builder) rekeyReused() {
	used := map[string]bool{}
	for i := range b.msgs {
		for _, p := range b.msgs[i].m.Parts {
			if p.Type == condense.PartToolCall && p.ID != "" {
				used[p.ID] = true
			}
		}
	}
	seen := map[string]bool{}
	current := map[string]string{} // the file's id -> the id results now answer
	for i := range b.msgs {
		rm := &b.msgs[i]
		for j := range rm.m.Parts {
			p := &rm.m.Parts[j]
			switch {
			case p.Type == condense.PartToolCall && p.ID != "":
				if !seen[p.ID] {
					seen[p.ID] = true
					current[p.ID] = p.ID
					continue
				}
				orig := p.ID
				n := 2
				for used[fmt.Sprintf("%s~%d", orig, n)] {
					n++
				}
				id := fmt.Sprintf("%s~%d", orig, n)
				used[id] = true
				if b.original == nil {
					b.original = map[string]string{}
				}
				b.original[id] = orig
				current[orig] = id
				p.ID = id
				b.note(NoteRekeyed, rm.loc, "tool call id %q is used again: this call is %q", orig, id)
			case p.Type == condense.PartToolResult:
				if id, ok := current[p.CallID]; ok {
					p.CallID = id
				}
			}
		}
	}
}

// mergeThinking drops messages without parts and merges an assistant
// message holding only thinking into the assistant message right after it:
// thinking belongs to the tool loop it leads to.
func mergeThinking(in []rawMsg) []rawMsg {
	msgs := make([]rawMsg, 0, len(in))
	for i := 0; i < len(in); i++ {
		rm := in[i]
		if len(rm.m.Parts) == 0 {
			continue
		}
		if rm.m.Role == condense.RoleAssistant && onlyThinking(rm.m.Parts) {
			j := i + 1
			for j < len(in) && len(in[j].m.Parts) == 0 {
				j++
			}
			if j < len(in) && in[j].m.Role == condense.RoleAssistant {
				next := &in[j]
				next.m.Parts = thinkingFirst(append(slices.Clone(rm.m.Parts), next.m.Parts...))
				if next.m.ID == "" {
					next.m.ID = rm.m.ID
				}
				next.origin = rm.origin
				next.loc = rm.loc
				continue
			}
		}
		msgs = append(msgs, rm)
	}
	return msgs
}

func onlyThinking(parts []condense.Part) bool {
	for _, p := range parts {
		if p.Type != condense.PartThinking {
			return false
		}
	}
	return len(parts) > 0
}

// thinkingFirst moves thinking parts that follow a tool call before the
// first tool call, keeping the order of everything else.
func thinkingFirst(parts []condense.Part) []condense.Part {
	firstCall := -1
	late := false
	for i, p := range parts {
		if p.Type == condense.PartToolCall && firstCall < 0 {
			firstCall = i
		}
		if p.Type == condense.PartThinking && firstCall >= 0 {
			late = true
		}
	}
	if !late {
		return parts
	}
	out := make([]condense.Part, 0, len(parts))
	out = append(out, parts[:firstCall]...)
	for _, p := range parts[firstCall:] {
		if p.Type == condense.PartThinking {
			out = append(out, p)
		}
	}
	for _, p := range parts[firstCall:] {
		if p.Type != condense.PartThinking {
			out = append(out, p)
		}
	}
	return out
}
