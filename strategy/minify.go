package strategy

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/condense-dev/condense"
)

// Minify is the lossless strategy: JSON in tool inputs and in tool results
// is re-encoded without insignificant whitespace. Keys, their order, values
// and escapes are kept as they were, so no information is lost. Protected
// items (the task, pinned messages, the newest user message and step) are
// left byte for byte.
//
// Identical tool definitions repeated in a request are sent once by the
// preflight itself, whatever the strategy (tool definitions are not part of
// the rendering).
type Minify struct{}

// Name returns "minify".
func (Minify) Name() string { return "minify" }

// Compact minifies every unprotected item holding indented JSON.
func (Minify) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	cur := cc.Current
	prot := cur.Protected()
	var out condense.Rendering
	for i := range cur {
		it := cur[i]
		if prot[i] || it.Edit != condense.EditNone {
			continue
		}
		parts, changed := minifyParts(it.Message.Parts, false)
		if !changed {
			continue
		}
		if out == nil {
			out = cur.Clone()
		}
		it.Message.Parts = parts
		it.Edit = condense.EditMinified
		out[i] = condense.Item{Index: it.Index, Message: it.Message, Edit: it.Edit, Covers: it.Covers}
	}
	if out == nil {
		return nil, condense.ErrNothingToCompact
	}
	return &condense.Candidate{Rendering: out}, nil
}

// minifyParts returns parts with their JSON compacted, in a new slice when
// anything changed. Text parts are touched only inside tool results: prose
// the user or the model wrote stays as written.
func minifyParts(parts []condense.Part, inResult bool) ([]condense.Part, bool) {
	var out []condense.Part
	for k := range parts {
		p := parts[k]
		changed := false
		switch p.Type {
		case condense.PartToolCall:
			if c, ok := compactJSON(p.Input); ok {
				p.Input, changed = c, true
			}
		case condense.PartToolResult:
			if content, ok := minifyParts(p.Content, true); ok {
				p.Content, changed = content, true
			}
		case condense.PartText:
			if !inResult {
				break
			}
			if c, ok := compactJSON([]byte(p.Text)); ok {
				p.Text, changed = string(c), true
			}
		}
		if changed {
			if out == nil {
				out = append([]condense.Part(nil), parts...)
			}
			out[k] = p
		}
	}
	if out == nil {
		return parts, false
	}
	return out, true
}

// compactJSON returns raw without insignificant whitespace when raw is a
// JSON object or array and that makes it shorter.
func compactJSON(raw []byte) ([]byte, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) < 2 || (t[0] != '{' && t[0] != '[') {
		return nil, false
	}
	if !bytes.ContainsAny(raw, " \n\t\r") {
		return nil, false
	}
	var b bytes.Buffer
	b.Grow(len(t))
	if err := json.Compact(&b, t); err != nil {
		return nil, false
	}
	if b.Len() >= len(raw) {
		return nil, false
	}
	return b.Bytes(), true
}
