package anthropic

import (
	"encoding/base64"
	"encoding/json"
	"strings"

	"github.com/condense-dev/condense"
)

// content reads a message's content (or a tool result's, role ""): a
// string or an array of blocks. bare reports a string.
func (d *decoder) content(role condense.Role, out []condense.Part) (parts []condense.Part, bare bool) {
	switch d.r.Kind() {
	case '"':
		if s := d.r.String(); s != "" {
			out = append(out, condense.Text(s))
		}
		return out, true
	case '[':
		d.r.Open('[')
		for i, first := 0, true; d.r.More(']', first); i, first = i+1, false {
			n := d.pushIndex(i)
			out = d.block(role, out)
			if d.failed() {
				return nil, false
			}
			d.pop(n)
		}
		return out, false
	case 0, 'n':
		if !d.failed() {
			d.fail("", d.r.Pos, "missing")
		}
	default:
		d.fail("", d.r.Pos, "want a string or an array of blocks")
	}
	return nil, false
}

// Members each block type may hold and still be modeled; cache_control is
// allowed on text and image blocks too (it becomes a fields part).
var (
	textKeys     = []string{"type", "text"}
	imageKeys    = []string{"type", "source"}
	thinkingKeys = []string{"type", "thinking", "signature"}
	redactedKeys = []string{"type", "data"}
	base64Keys   = []string{"type", "media_type", "data"}
	urlKeys      = []string{"type", "url"}
	toolUseKeys  = []string{"type", "id", "name", "input"}
	resultKeys   = []string{"type", "tool_use_id", "content", "is_error"}
)

// only reports whether every member's key is one of keys, or cache_control
// when cc is set.
func only(ms []member, cc bool, keys []string) bool {
next:
	for i := range ms {
		k := ms[i].key
		if cc && string(k) == "cache_control" {
			continue
		}
		for _, want := range keys {
			if string(k) == want {
				continue next
			}
		}
		return false
	}
	return true
}

// others returns, as fields, the members whose key is not one of keys.
func others(ms []member, keys []string, skipNull bool) []Field {
	var fields []Field
next:
	for i := range ms {
		k := ms[i].key
		for _, want := range keys {
			if string(k) == want {
				continue next
			}
		}
		if skipNull && ms[i].kind() == 'n' {
			continue
		}
		fields = append(fields, Field{Name: string(k), Value: raw(ms[i].val)})
	}
	return fields
}

// block reads one content block and appends its parts to out. role is ""
// inside a tool result's content.
func (d *decoder) block(role condense.Role, out []condense.Part) []condense.Part {
	if d.r.Kind() != '{' {
		if !d.failed() {
			d.fail("", d.r.Pos, "want a content block object")
		}
		return out
	}
	start := d.r.Pos
	var scratch [6]member
	ms := d.members(scratch[:0])
	if d.failed() {
		return out
	}
	whole := d.r.Data[start:d.r.Pos]
	t := find(ms, "type")
	if t == nil {
		d.fail("type", start, "missing")
		return out
	}
	typ, ok := t.str()
	if !ok {
		d.fail("type", t.off, "want a string")
		return out
	}
	cc := find(ms, "cache_control")
	withCache := func(p condense.Part) []condense.Part {
		out = append(out, p)
		if cc != nil {
			out = append(out, FieldsPart(Field{Name: "cache_control", Value: raw(cc.val)}))
		}
		return out
	}
	switch typ {
	case "text":
		tx := find(ms, "text")
		if tx == nil {
			d.fail("text", start, "missing")
			return out
		}
		s, ok := tx.str()
		if !ok {
			d.fail("text", tx.off, "want a string")
			return out
		}
		if d.response {
			// An answer's text stays text; what else the block holds
			// (citations) follows it.
			out = append(out, condense.Text(s))
			if f := others(ms, textKeys, true); f != nil {
				out = append(out, FieldsPart(f...))
			}
			return out
		}
		if !only(ms, true, textKeys) {
			return append(out, opaque(whole))
		}
		return withCache(condense.Text(s))

	case "image":
		src := find(ms, "source")
		if src == nil {
			d.fail("source", start, "missing")
			return out
		}
		if !only(ms, true, imageKeys) || src.kind() != '{' {
			return append(out, opaque(whole))
		}
		p, ok := d.imageSource(src)
		if d.failed() {
			return out
		}
		if !ok {
			return append(out, opaque(whole))
		}
		return withCache(p)

	case "thinking", "redacted_thinking":
		if role != condense.RoleAssistant {
			d.fail("", start, "%s block outside an assistant message", typ)
			return out
		}
		if typ == "thinking" {
			th := find(ms, "thinking")
			if th == nil {
				d.fail("thinking", start, "missing")
				return out
			}
			text, ok1 := th.str()
			sig, ok2 := find(ms, "signature").str()
			if !ok1 || !ok2 || text == "" || sig == "" || !only(ms, false, thinkingKeys) {
				return append(out, opaque(whole))
			}
			return append(out, condense.Thinking(text, sig))
		}
		dm := find(ms, "data")
		data, ok := dm.str()
		if dm == nil || ok && data == "" {
			d.fail("data", start, "missing")
			return out
		}
		if !ok || !only(ms, false, redactedKeys) {
			return append(out, opaque(whole))
		}
		return append(out, condense.RedactedThinking(data))

	case "tool_use":
		if role != condense.RoleAssistant {
			d.fail("", start, "tool_use block outside an assistant message")
			return out
		}
		id, ok := find(ms, "id").str()
		if !ok || id == "" {
			d.fail("id", start, "missing")
			return out
		}
		name, ok := find(ms, "name").str()
		if !ok || name == "" {
			d.fail("name", start, "missing")
			return out
		}
		input := json.RawMessage("{}")
		if in := find(ms, "input"); !in.isNull() {
			input = raw(in.val)
		}
		out = append(out, condense.ToolCall(id, name, input))
		if f := others(ms, toolUseKeys, false); f != nil {
			out = append(out, FieldsPart(f...))
		}
		return out

	case "tool_result":
		if role != condense.RoleUser {
			d.fail("", start, "tool_result block outside a user message")
			return out
		}
		id, ok := find(ms, "tool_use_id").str()
		if !ok || id == "" {
			d.fail("tool_use_id", start, "missing")
			return out
		}
		p := condense.Part{Type: condense.PartToolResult, CallID: id}
		keys := resultKeys
		if e := find(ms, "is_error"); e != nil {
			switch e.kind() {
			case 't':
				p.IsError = true
			case 'f':
				if d.forms != nil {
					d.forms.add(&d.forms.notErrors, id)
				}
			default:
				keys = keys[:3] // carried as a field
			}
		}
		if c := find(ms, "content"); c.kind() == '"' {
			// A string, read ahead already: decoded without a second scan.
			if text, _ := c.str(); text != "" {
				p.Content = []condense.Part{condense.Text(text)}
			}
			if d.forms != nil {
				d.forms.add(&d.forms.results, id)
			}
		} else if !c.isNull() {
			s := d.sub(c)
			n := s.push("content")
			content, bare := s.content("", nil)
			s.pop(n)
			if d.adopt(s) {
				return out
			}
			p.Content = content
			if bare && d.forms != nil {
				d.forms.add(&d.forms.results, id)
			}
		}
		out = append(out, p)
		if f := others(ms, keys, false); f != nil {
			out = append(out, FieldsPart(f...))
		}
		return out
	}
	return append(out, opaque(whole))
}

// imageSource reads an image's source; ok is false for a source the codec
// does not model (a file id, extra members, data that is not canonical
// base64), which keeps the whole block opaque.
func (d *decoder) imageSource(src *member) (condense.Part, bool) {
	s := d.sub(src)
	ms := s.members(nil)
	if d.adopt(s) {
		return condense.Part{}, false
	}
	switch t, _ := find(ms, "type").str(); t {
	case "base64":
		mt, ok1 := find(ms, "media_type").str()
		data, ok2 := find(ms, "data").str()
		if !ok1 || !ok2 || !only(ms, false, base64Keys) {
			return condense.Part{}, false
		}
		b, ok := canonicalBase64(data)
		if !ok || len(b) == 0 {
			return condense.Part{}, false
		}
		return condense.ImageData(mt, b), true
	case "url":
		u, ok := find(ms, "url").str()
		if !ok || u == "" || !only(ms, false, urlKeys) {
			return condense.Part{}, false
		}
		return condense.ImageURL("", u), true
	}
	return condense.Part{}, false
}

// canonicalBase64 decodes s when encoding the bytes again gives s back.
func canonicalBase64(s string) ([]byte, bool) {
	if strings.ContainsAny(s, "\r\n") {
		return nil, false
	}
	b, err := base64.StdEncoding.Strict().DecodeString(s)
	return b, err == nil
}

// splitResults splits the parts of a user turn into a tool message holding
// the tool results (each followed by its fields part, if any) and a user
// message with the rest. Encoding writes the tool message's results first
// and lets the user message's leading parts join the wire message of the
// last results, so that message fields stay on the wire message that holds
// them:
//   - a message fields part goes with the tool message when the wire
//     message it stands for (up to the next one) holds a tool result, and
//     the other parts of that wire message lead the user message;
//   - otherwise it goes with the user message, after those leading parts,
//     followed by the parts of its wire message.
func splitResults(parts []condense.Part) []condense.Message {
	n := 0
	for i := range parts {
		if parts[i].Type == condense.PartToolResult {
			n++
		}
	}
	if n == 0 {
		return []condense.Message{{Role: condense.RoleUser, Parts: parts}}
	}
	var results, lead, fielded []condense.Part
	target := &lead           // where the other parts of this wire message go
	var last *[]condense.Part // where the part before went
	for i := range parts {
		p := &parts[i]
		switch {
		case isMessageFieldsPart(p):
			if holdsResult(parts[i+1:]) {
				results = append(results, *p)
				target = &lead
			} else {
				fielded = append(fielded, *p)
				target = &fielded
			}
			last = nil
			continue
		case last != nil && isFieldsPart(p):
			// A block's fields follow it.
		case p.Type == condense.PartToolResult:
			last = &results
		default:
			last = target
		}
		*last = append(*last, *p)
	}
	return []condense.Message{{Role: condense.RoleTool, Parts: results}, {Role: condense.RoleUser, Parts: append(lead, fielded...)}}
}

// holdsResult reports whether parts hold a tool result before their first
// message fields part.
func holdsResult(parts []condense.Part) bool {
	for i := range parts {
		switch {
		case parts[i].Type == condense.PartToolResult:
			return true
		case isMessageFieldsPart(&parts[i]):
			return false
		}
	}
	return false
}
