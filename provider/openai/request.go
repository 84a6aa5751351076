package openai

import (
	"encoding/json"
	"slices"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// What the Chat Completions and Responses API request codecs share: the
// members both bodies have, tools, roles, content and text parts.

// A toolDecoder reads one entry of "tools": the tool, whether it is a
// function tool, and whether it is plain (written back the same from the
// condense.Tool alone).
type toolDecoder func(v []byte) (t condense.Tool, function, plain bool)

// A toolWriter writes a function tool.
type toolWriter func(e *enc, t *condense.Tool)

// decodeRequest reads the members of a request body doc. The members both
// APIs have go into r and raw: "model", "tools" (each entry read with
// decodeTool) and the output cap, named max. member reads the members of
// the API's own and reports whether it took one. Each member is taken the
// first time it comes with a value the codec models; every other member
// goes to extra, in order.
func decodeRequest(doc []byte, r *condense.Request, raw *[]json.RawMessage, extra *Fields, max string,
	decodeTool toolDecoder, member func(name string, val []byte) (bool, error)) error {
	var err error
	var seen struct{ model, tools, max bool }
	for name, val := range jsonx.Members(doc) {
		took := false
		switch {
		case name == "model" && !seen.model && kindOf(val) == '"':
			seen.model, took = true, true
			r.Model, _ = str(val)
		case name == "tools" && !seen.tools && kindOf(val) == '[':
			seen.tools, took = true, true
			if r.Tools, *raw, err = decodeTools(val, decodeTool); err != nil {
				return under("tools", err)
			}
		case name == max && !seen.max:
			if n, ok := intOf(val); ok && n > 0 {
				seen.max, took = true, true
				r.MaxOutputTokens = n
			}
		default:
			if took, err = member(name, val); err != nil {
				return err
			}
		}
		if !took {
			*extra = append(*extra, Field{name, val})
		}
	}
	return nil
}

// newRequestEnc returns an encoder that appends the body of r to dst,
// with room for it.
func newRequestEnc(dst []byte, r *condense.Request, extra Fields, raw []json.RawMessage) enc {
	n := 256 + len(r.Model) + len(r.System)
	for i := range r.Messages {
		n += 48 + partsSize(r.Messages[i].Parts)
	}
	for i := range r.Tools {
		t := &r.Tools[i]
		n += 96 + len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	for _, t := range raw {
		n += len(t)
	}
	for _, f := range extra {
		n += 4 + len(f.Name) + len(f.Value)
	}
	return enc{b: slices.Grow(dst, n+n/8)} // an eighth more for escapes
}

func partsSize(parts []condense.Part) int {
	n := 0
	for i := range parts {
		p := &parts[i]
		n += 64 + len(p.Text) + len(p.ID) + len(p.CallID) + len(p.Name) + len(p.Input)*9/8 +
			len(p.Signature) + len(p.Redacted) + len(p.URL) + len(p.Data)*4/3 + len(p.Raw) + partsSize(p.Content)
	}
	return n
}

// endRequest writes what ends both request bodies — "tools" when there
// are tools (see ChatRequest.RawTools), the output cap under the name max
// when it is set, then the extra members — closes the body and returns
// it.
func (e *enc) endRequest(r *condense.Request, raw []json.RawMessage, extra Fields, max string,
	decodeTool toolDecoder, writeTool toolWriter) ([]byte, error) {
	if len(r.Tools) > 0 || len(raw) > 0 {
		e.lit(`,"tools":`)
		if err := e.tools(raw, r.Tools, decodeTool, writeTool); err != nil {
			return nil, under("tools", err)
		}
	}
	if r.MaxOutputTokens > 0 {
		e.key(false, max)
		e.int(r.MaxOutputTokens)
	}
	for _, f := range extra {
		if !jsonx.Valid(f.Value) {
			return nil, errAt(f.Name, "extra member is not valid JSON")
		}
		e.key(false, f.Name)
		e.raw(f.Value)
	}
	e.byte('}')
	return e.b, nil
}

// decodeTools reads a "tools" array with decode; raw is nil when every
// entry is plain.
func decodeTools(v []byte, decode toolDecoder) ([]condense.Tool, []json.RawMessage, error) {
	var tools []condense.Tool
	var raw []json.RawMessage
	allPlain := true
	for k, tv := range jsonx.Elements(v) {
		if kindOf(tv) != '{' {
			return nil, nil, errAt(idx("", k), "want a tool object")
		}
		raw = append(raw, tv)
		t, fn, plain := decode(tv)
		if fn {
			tools = append(tools, t)
		}
		allPlain = allPlain && plain
	}
	if allPlain {
		raw = nil
	}
	return tools, raw, nil
}

// tools writes a "tools" array from raw entries and tools (see
// ChatRequest.RawTools).
func (e *enc) tools(raw []json.RawMessage, tools []condense.Tool, decode toolDecoder, write toolWriter) error {
	used := make([]bool, len(tools))
	e.byte('[')
	n := 0
	for k, rt := range raw {
		if !jsonx.Valid(rt) {
			return errAt(idx("", k), "raw tool is not valid JSON")
		}
		t, fn, _ := decode(rt)
		if !fn {
			e.sep(&n)
			e.raw(rt)
			continue
		}
		j := -1
		for i := range tools {
			if !used[i] && tools[i].Name == t.Name {
				j = i
				break
			}
		}
		if j < 0 {
			continue
		}
		used[j] = true
		e.sep(&n)
		if sameTool(&t, &tools[j]) {
			e.raw(rt)
		} else {
			write(e, &tools[j])
		}
	}
	for i := range tools {
		if !used[i] {
			e.sep(&n)
			write(e, &tools[i])
		}
	}
	e.byte(']')
	return nil
}

func sameTool(a, b *condense.Tool) bool {
	return a.Name == b.Name && a.Description == b.Description && string(a.InputSchema) == string(b.InputSchema)
}

// defaultSchema is the input schema of a tool that gives none.
const defaultSchema = `{"type":"object","properties":{}}`

// functionDef writes the members of a function tool both APIs have:
// "name", "description" when there is one, and "parameters".
func (e *enc) functionDef(t *condense.Tool) {
	e.str(t.Name)
	if t.Description != "" {
		e.lit(`,"description":`)
		e.str(t.Description)
	}
	e.lit(`,"parameters":`)
	if len(t.InputSchema) == 0 || !jsonx.Valid(t.InputSchema) {
		e.lit(defaultSchema)
	} else {
		e.raw(t.InputSchema)
	}
}

// checkRaw rejects provider parts and tool inputs that are not JSON, which
// would make the body invalid.
func checkRaw(parts []condense.Part) error {
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartProvider:
			if !jsonx.Valid(p.Raw) {
				return errAt(idx("parts", i), "provider part is not valid JSON")
			}
		case condense.PartToolResult:
			if err := checkRaw(p.Content); err != nil {
				return under(idx("parts", i)+".content", err)
			}
		}
	}
	return nil
}

// roleOf returns the condense role of a message's wire role, and extras
// with the role member first when it is "developer": a system message
// whose role a fields block keeps. ok is false for a role condense does
// not know.
func roleOf(role string, raw []byte, extras []Field) (r condense.Role, _ []Field, ok bool) {
	switch role {
	case "system":
		r = condense.RoleSystem
	case "developer":
		return condense.RoleSystem, append([]Field{{"role", raw}}, extras...), true
	case "user":
		r = condense.RoleUser
	case "assistant":
		r = condense.RoleAssistant
	case "tool":
		r = condense.RoleTool
	default:
		return "", extras, false
	}
	return r, extras, true
}

// A partDecoder appends to dst the parts that one content part of a
// message of role stands for.
type partDecoder func(dst []condense.Part, v []byte, role condense.Role) ([]condense.Part, error)

// decodeContent reads the content of a message of role: a string is one
// text part (none when empty), an array holds content parts that
// decodePart reads, and a missing content (or null, when nullable) has
// none. Another value is an error saying want.
func decodeContent(v []byte, role condense.Role, nullable bool, want string, decodePart partDecoder) ([]condense.Part, error) {
	switch kindOf(v) {
	case 0:
		return nil, nil
	case 'n':
		if nullable {
			return nil, nil
		}
	case '"':
		if s, _ := str(v); s != "" {
			return []condense.Part{condense.Text(s)}, nil
		}
		return nil, nil
	case '[':
		var parts []condense.Part
		for k, pv := range jsonx.Elements(v) {
			var err error
			if parts, err = decodePart(parts, pv, role); err != nil {
				return nil, under(idx("", k), err)
			}
		}
		return parts, nil
	}
	return nil, errAt("", "%s", want)
}

// withType returns extras with a "type" member of typ first: how a fields
// block keeps the type of a custom tool call, which condense holds as a
// plain tool call, or of a text part the codec writes with another type.
func withType(typ string, extras []Field) []Field {
	return append([]Field{{"type", jsonx.AppendString(nil, typ)}}, extras...)
}

// typeField returns the "type" member of fields when it is a string.
func typeField(fields []Field) string {
	t, _ := Fields(fields).Get("type")
	s, _ := str(t)
	return s
}

// messages writes the array elements that stand for msgs with write,
// which is given the number of elements written before and returns the
// new number.
func (e *enc) messages(msgs []condense.Message, n int, write func(*enc, *condense.Message, int) (int, error)) error {
	for i := range msgs {
		var err error
		if n, err = write(e, &msgs[i], n); err != nil {
			return under(idx("messages", i), err)
		}
	}
	return nil
}

// writeTextPart writes the text part {"type": typ, "text": text} with
// the members of its part fields block.
func writeTextPart(e *enc, typ, text string, extras []Field) {
	o := e.object(extras)
	o.str("type", typ)
	o.str("text", text)
	o.end()
}
