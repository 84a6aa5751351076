package openai

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/condense-dev/condense"
)

// ResponsesRequest is a Responses API request body (POST /responses) as
// condense sees it.
//
// The request maps onto condense.Request: "model" is Model,
// "instructions" System, "tools" of type function Tools,
// "max_output_tokens" MaxOutputTokens, and "input" (a string is one user
// message) the messages:
//
//   - a "message" item of role user, system or developer is one message
//     (developer is a system message whose role a fields block keeps); its
//     input_text parts are text, its input_image parts with an address
//     images;
//   - the items the model writes — assistant messages (output_text parts
//     are text), "reasoning", "function_call", "custom_tool_call" and items
//     of other types — gather into one assistant message until a user,
//     system or output item comes;
//   - a "function_call_output" (or "custom_tool_call_output") is a tool
//     message of one tool result, and so is an item of another type whose
//     name ends in "_output".
//
// A reasoning item is a thinking part whose text is the item's summary
// (and reasoning text) and whose Signature is the whole item, byte for
// byte, encrypted content included; an item with no text puts itself in
// Redacted instead. Encoding writes the item back from there; thinking
// that holds no reasoning item (another provider's) has no place in the
// Responses API and is left out.
//
// Items of other types are openai provider parts, byte for byte, and
// members condense has no field for are kept as the package documentation
// says, so that encoding gives the same request. Encoding writes a user or
// system message's content as input parts, an assistant message's as a
// string when it is one text that carries nothing else, and a function
// tool with "strict": false, as Chat Completions treats a tool that says
// nothing (the Responses API makes an unmarked tool strict).
type ResponsesRequest struct {
	condense.Request
	// Extra holds the body's top-level members that the codec does not
	// model — previous_response_id, store, include, reasoning, text,
	// tool_choice, temperature, stream, anything new — and modelled
	// members whose value it cannot model. They are written back after the
	// modelled members, in order, byte for byte, and must not repeat a
	// member the codec writes.
	Extra Fields
	// RawTools holds the "tools" entries as given when one of them is not
	// a plain function tool (a built-in tool, "strict" other than false,
	// another member); nil otherwise. See ChatRequest.RawTools.
	RawTools []json.RawMessage
}

// respContentTypes are the content part types of Responses messages and
// outputs; chatContentTypes are chat content types the Responses API does
// not know.
var (
	respContentTypes = map[string]bool{"input_text": true, "output_text": true, "input_image": true,
		"input_file": true, "input_audio": true, "refusal": true}
	chatContentTypes = map[string]bool{"text": true, "image_url": true, "file": true}
)

// DecodeResponsesRequest reads a Responses API request body. Errors are
// *DecodeError values naming the JSON path of the problem. The request
// shares body's memory: body must not change while it is in use.
func DecodeResponsesRequest(body []byte) (*ResponsesRequest, error) {
	doc, err := objectDoc(own(body))
	if err != nil {
		return nil, err
	}
	r := &ResponsesRequest{}
	o, _ := objectOf(doc)
	var seen struct{ model, instructions, input, tools, max bool }
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		switch {
		case name == "model" && !seen.model && kindOf(val) == '"':
			seen.model = true
			r.Model, _ = str(val)
			continue
		case name == "instructions" && !seen.instructions && kindOf(val) == '"':
			seen.instructions = true
			r.System, _ = str(val)
			if r.System != "" {
				continue
			}
		case name == "input" && !seen.input:
			seen.input = true
			switch kindOf(val) {
			case '"':
				s, _ := str(val)
				r.Messages = []condense.Message{condense.UserText(s)}
			case '[':
				msgs, err := decodeItems(val)
				if err != nil {
					return nil, under("input", err)
				}
				r.Messages = msgs
			default:
				return nil, errAt("input", "want a string or an array of items")
			}
			continue
		case name == "tools" && !seen.tools && kindOf(val) == '[':
			seen.tools = true
			tools, raw, err := decodeTools(val, decodeRespTool)
			if err != nil {
				return nil, under("tools", err)
			}
			r.Tools, r.RawTools = tools, raw
			continue
		case name == "max_output_tokens" && !seen.max:
			if n, ok := intOf(val); ok && n > 0 {
				seen.max = true
				r.MaxOutputTokens = n
				continue
			}
		}
		r.Extra = append(r.Extra, Field{name, val})
	}
	return r, nil
}

// items gathers decoded items into messages.
type items struct {
	msgs []condense.Message
	open bool // the last message is an assistant message still gathering
}

func (d *items) assistant(ps ...condense.Part) {
	if !d.open {
		d.msgs = append(d.msgs, condense.Message{Role: condense.RoleAssistant})
		d.open = true
	}
	m := &d.msgs[len(d.msgs)-1]
	m.Parts = append(m.Parts, ps...)
}

func (d *items) add(m condense.Message) {
	d.msgs = append(d.msgs, m)
	d.open = false
}

// decodeItems reads an input array.
func decodeItems(v []byte) ([]condense.Message, error) {
	a, _ := arrayOf(v)
	var d items
	for k := 0; ; k++ {
		iv, ok := a.next()
		if !ok {
			break
		}
		if err := decodeItem(&d, iv); err != nil {
			return nil, under(idx("", k), err)
		}
	}
	return d.msgs, nil
}

// DecodeResponsesItems reads Responses API items (an input array, or the
// output array of a response) into messages, as DecodeResponsesRequest
// reads "input". The messages share raw's memory.
func DecodeResponsesItems(raw []byte) ([]condense.Message, error) {
	b := own(raw)
	i := ws(b, 0)
	end, err := scanValue(b, i, 0)
	if err != nil {
		return nil, &DecodeError{Msg: err.Error()}
	}
	if ws(b, end) != len(b) || b[i] != '[' {
		return nil, &DecodeError{Msg: "want an array of items"}
	}
	return decodeItems(b[i:end])
}

// itemHead reads the members of an item the codec models. Members not
// named in want are extras.
type itemHead struct {
	typ    string
	hasTyp bool
	vals   map[string][]byte
	extras []Field
	// dup is a member name given twice, which a request decoder rejects.
	dup string
}

func readItem(v []byte, want ...string) (itemHead, bool) {
	o, ok := objectOf(v)
	if !ok {
		return itemHead{}, false
	}
	h := itemHead{vals: make(map[string][]byte, len(want))}
	var seen names
	for {
		name, val, ok := o.next()
		if !ok {
			return h, true
		}
		if seen.dup(name) && h.dup == "" {
			h.dup = name
		}
		if name == "type" && !h.hasTyp && kindOf(val) == '"' {
			h.typ, _ = str(val)
			h.hasTyp = true
			continue
		}
		if _, dup := h.vals[name]; !dup && wanted(want, name) {
			h.vals[name] = val
			continue
		}
		h.extras = append(h.extras, Field{name, val})
	}
}

func wanted(want []string, name string) bool {
	for _, w := range want {
		if w == name {
			return true
		}
	}
	return false
}

func decodeItem(d *items, v []byte) error {
	o, ok := objectOf(v)
	if !ok {
		return errAt("", "want an item object")
	}
	typ, hasTyp, hasRole := "", false, false
	var seen names
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		if seen.dup(name) {
			return errAt(name, "duplicate member")
		}
		switch name {
		case "type":
			if !hasTyp {
				var isStr bool
				if typ, isStr = str(val); !isStr {
					return errAt("type", "want a string")
				}
				hasTyp = true
			}
		case "role":
			hasRole = true
		}
	}
	if typ == "" {
		if !hasRole {
			return errAt("type", "missing")
		}
		typ = "message"
	}
	switch {
	case typ == "message":
		return decodeMessageItem(d, v)
	case typ == "function_call" || typ == "custom_tool_call":
		argName := "arguments"
		if typ == "custom_tool_call" {
			argName = "input"
		}
		h, _ := readItem(v, "call_id", "name", argName)
		id, _ := str(h.vals["call_id"])
		if id == "" {
			return errAt("call_id", "missing")
		}
		name, _ := str(h.vals["name"])
		if name == "" {
			return errAt("name", "missing")
		}
		var input json.RawMessage
		switch args := h.vals[argName]; kindOf(args) {
		case 0:
			input = ArgumentsInput("")
		case '"':
			s, _ := str(args)
			input = ArgumentsInput(s)
		case '{':
			input = args
			if _, wrapped := rawArguments(args); wrapped {
				input = ArgumentsInput(string(args))
			}
		default:
			return errAt(argName, "want a string")
		}
		extras := h.extras
		if typ == "custom_tool_call" {
			extras = append([]Field{{"type", []byte(`"custom_tool_call"`)}}, extras...)
		}
		ps := withFieldsBefore(kindItemFields, extras, condense.ToolCall(id, name, input))
		d.assistant(ps...)
		return nil
	case typ == "function_call_output" || typ == "custom_tool_call_output":
		h, _ := readItem(v, "call_id", "output")
		id, _ := str(h.vals["call_id"])
		if id == "" {
			return errAt("call_id", "missing")
		}
		var content []condense.Part
		switch out := h.vals["output"]; kindOf(out) {
		case 0:
		case '"':
			if s, _ := str(out); s != "" {
				content = []condense.Part{condense.Text(s)}
			}
		case '[':
			var err error
			if content, err = decodeRespContent(out, condense.RoleUser); err != nil {
				return under("output", err)
			}
		default:
			return errAt("output", "want a string or an array of parts")
		}
		extras := h.extras
		if typ == "custom_tool_call_output" {
			extras = append([]Field{{"type", []byte(`"custom_tool_call_output"`)}}, extras...)
		}
		d.add(condense.Message{Role: condense.RoleTool,
			Parts: withFieldsBefore(kindItemFields, extras, condense.ToolResult(id, false, content...))})
		return nil
	case typ == "reasoning":
		d.assistant(reasoningPart(v))
		return nil
	case respContentTypes[typ] || chatContentTypes[typ]:
		return errAt("type", "%q is a content part, not an item", typ)
	case strings.HasSuffix(typ, "_output") || typ == "mcp_approval_response":
		d.add(condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ProviderBlock(Provider, v)}})
		return nil
	}
	d.assistant(condense.ProviderBlock(Provider, v))
	return nil
}

// withFieldsBefore returns the item fields block of extras, when there
// are any, then p.
func withFieldsBefore(kind string, extras []Field, p condense.Part) []condense.Part {
	if len(extras) == 0 {
		return []condense.Part{p}
	}
	return []condense.Part{fieldsPart(kind, extras), p}
}

// reasoningPart returns the thinking part of a reasoning item.
func reasoningPart(v []byte) condense.Part {
	var texts []string
	o, _ := objectOf(v)
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		if name != "summary" && name != "content" {
			continue
		}
		a, ok := arrayOf(val)
		if !ok {
			continue
		}
		for {
			pv, ok := a.next()
			if !ok {
				break
			}
			po, _ := objectOf(pv)
			for {
				n, tv, ok := po.next()
				if !ok {
					break
				}
				if n == "text" {
					if s, _ := str(tv); s != "" {
						texts = append(texts, s)
					}
				}
			}
		}
	}
	if len(texts) == 0 {
		return condense.Part{Type: condense.PartThinking, Redacted: view(v)}
	}
	return condense.Part{Type: condense.PartThinking, Text: strings.Join(texts, "\n\n"), Signature: view(v)}
}

// reasoningItem returns the reasoning item a thinking part carries.
func reasoningItem(p *condense.Part) ([]byte, bool) {
	for _, s := range []string{p.Signature, p.Redacted} {
		if len(s) < 2 || s[0] != '{' {
			continue
		}
		b := []byte(s)
		if !validJSON(b) {
			continue
		}
		o, _ := objectOf(b)
		for {
			name, val, ok := o.next()
			if !ok {
				break
			}
			if name == "type" {
				if t, _ := str(val); t == "reasoning" {
					return b, true
				}
				break
			}
		}
	}
	return nil, false
}

func decodeMessageItem(d *items, v []byte) error {
	h, _ := readItem(v, "role", "content")
	role, isStr := str(h.vals["role"])
	if !isStr {
		return errAt("role", "missing")
	}
	extras := h.extras
	var r condense.Role
	switch role {
	case "user":
		r = condense.RoleUser
	case "assistant":
		r = condense.RoleAssistant
	case "system":
		r = condense.RoleSystem
	case "developer":
		r = condense.RoleSystem
		extras = append([]Field{{"role", h.vals["role"]}}, extras...)
	default:
		return errAt("role", "unknown role %q", role)
	}
	var parts []condense.Part
	switch c := h.vals["content"]; kindOf(c) {
	case 0, 'n':
	case '"':
		if s, _ := str(c); s != "" {
			parts = []condense.Part{condense.Text(s)}
		}
	case '[':
		var err error
		if parts, err = decodeRespContent(c, r); err != nil {
			return under("content", err)
		}
	default:
		return errAt("content", "want a string or an array of parts")
	}
	if len(extras) > 0 {
		parts = append([]condense.Part{fieldsPart(kindItemFields, extras)}, parts...)
	}
	if r != condense.RoleAssistant {
		d.add(condense.Message{Role: r, Parts: parts})
		return nil
	}
	if len(parts) == 0 || len(extras) > 0 && len(parts) == 1 {
		// An assistant message with nothing in it still makes an item.
		parts = append(parts, condense.Text(""))
	}
	d.assistant(parts...)
	return nil
}

// textType is the type of the text parts of a role's messages.
func textType(role condense.Role) string {
	if role == condense.RoleAssistant {
		return "output_text"
	}
	return "input_text"
}

// decodeRespContent reads a message's content parts (or a function call
// output's parts, as a user message's).
func decodeRespContent(v []byte, role condense.Role) ([]condense.Part, error) {
	a, _ := arrayOf(v)
	var parts []condense.Part
	for k := 0; ; k++ {
		pv, ok := a.next()
		if !ok {
			break
		}
		h, isObj := readItem(pv, "text", "image_url", "detail")
		if !isObj {
			return nil, errAt(idx("", k), "want a content part object")
		}
		if h.dup != "" {
			return nil, errAt(idx("", k)+"."+h.dup, "duplicate member")
		}
		if !h.hasTyp {
			return nil, errAt(idx("", k)+".type", "missing")
		}
		extras := h.extras
		keep := func(names ...string) {
			for _, n := range names {
				if v, ok := h.vals[n]; ok {
					extras = append(extras, Field{n, v})
				}
			}
		}
		switch {
		case h.typ == "input_text" || h.typ == "output_text":
			t, ok := h.vals["text"]
			if !ok {
				return nil, errAt(idx("", k)+".text", "missing")
			}
			s, isStr := str(t)
			if !isStr {
				return nil, errAt(idx("", k)+".text", "want a string")
			}
			if h.typ != textType(role) {
				extras = append([]Field{{"type", []byte(`"` + h.typ + `"`)}}, extras...)
			}
			keep("image_url", "detail")
			parts = append(parts, condense.Text(s))
			parts = withFields(parts, kindRespPartFields, extras)
		case h.typ == "input_image" && role != condense.RoleAssistant:
			url, _ := str(h.vals["image_url"])
			if url == "" {
				parts = append(parts, condense.ProviderBlock(Provider, pv))
				continue
			}
			keep("text")
			// "auto" is the default, which encoding writes; an image
			// without a detail comes back with it.
			if d, ok := h.vals["detail"]; ok {
				if s, _ := str(d); s != "auto" {
					extras = append(extras, Field{"detail", d})
				}
			}
			parts = append(parts, imageFromURL(url))
			parts = withFields(parts, kindRespPartFields, extras)
		case respContentTypes[h.typ]:
			parts = append(parts, condense.ProviderBlock(Provider, pv))
		default:
			parts = append(parts, wrap(kindRespContent, pv))
		}
	}
	return parts, nil
}

// decodeRespTool reads one entry of "tools": the tool, whether it is a
// function tool, and whether it is plain (written back the same from the
// condense.Tool alone).
func decodeRespTool(v []byte) (t condense.Tool, function, plain bool) {
	h, ok := readItem(v, "name", "description", "parameters", "strict")
	if !ok || h.typ != "function" {
		return t, false, false
	}
	t.Name, _ = str(h.vals["name"])
	if t.Name == "" {
		return condense.Tool{}, false, false
	}
	plain = len(h.extras) == 0
	if d, ok := h.vals["description"]; ok {
		var isStr bool
		t.Description, isStr = str(d)
		plain = plain && isStr && t.Description != ""
	}
	params, ok := h.vals["parameters"]
	if ok {
		t.InputSchema = json.RawMessage(params)
	}
	plain = plain && ok && kindOf(params) == '{'
	strict, ok := h.vals["strict"]
	plain = plain && ok && string(strict) == "false"
	return t, true, plain
}

// respToolWriter writes a function tool, with "strict": false unless
// noStrict.
func respToolWriter(noStrict bool) func(*enc, *condense.Tool) {
	return func(e *enc, t *condense.Tool) {
		e.lit(`{"type":"function","name":`)
		e.str(t.Name)
		if t.Description != "" {
			e.lit(`,"description":`)
			e.str(t.Description)
		}
		e.lit(`,"parameters":`)
		writeSchema(e, t.InputSchema)
		if !noStrict {
			e.lit(`,"strict":false`)
		}
		e.byte('}')
	}
}

// EncodeResponsesRequest writes r as a Responses API request body:
// "model", "instructions" when there is a system text, "input" when there
// are messages, "tools" when there are tools, "max_output_tokens" when the
// cap is set, then r.Extra. Thinking without a reasoning item, images of
// assistant messages, is_error, and provider parts of other providers or
// of Chat Completions have no place in the Responses API and are left out.
func EncodeResponsesRequest(r *ResponsesRequest) ([]byte, error) {
	return encodeResponses(r, false)
}

func encodeResponses(r *ResponsesRequest, noStrict bool) ([]byte, error) {
	e := enc{b: make([]byte, 0, sizeHint(&r.Request, r.Extra, r.RawTools))}
	e.lit(`{"model":`)
	e.str(r.Model)
	if r.System != "" {
		e.lit(`,"instructions":`)
		e.str(r.System)
	}
	if len(r.Messages) > 0 {
		e.lit(`,"input":[`)
		n := 0
		for i := range r.Messages {
			var err error
			if n, err = encodeItems(&e, &r.Messages[i], n); err != nil {
				return nil, under(idx("messages", i), err)
			}
		}
		e.byte(']')
	}
	if len(r.Tools) > 0 || len(r.RawTools) > 0 {
		e.lit(`,"tools":`)
		if err := writeTools(&e, r.RawTools, r.Tools, decodeRespTool, respToolWriter(noStrict)); err != nil {
			return nil, under("tools", err)
		}
	}
	if r.MaxOutputTokens > 0 {
		e.lit(`,"max_output_tokens":`)
		e.int(r.MaxOutputTokens)
	}
	if err := writeExtra(&e, r.Extra); err != nil {
		return nil, err
	}
	e.byte('}')
	return e.b, nil
}

// itemRole is the role of the message items of a condense role.
func itemRole(r condense.Role) string {
	switch r {
	case condense.RoleSystem, condense.RoleAssistant:
		return string(r)
	}
	return "user"
}

// isRespContent reports whether p belongs in a message item's content.
func isRespContent(p *condense.Part) bool {
	switch p.Type {
	case condense.PartText, condense.PartImage:
		return true
	case condense.PartProvider:
		b, ok := blockOf(p)
		if !ok {
			return false
		}
		switch b.kind {
		case kindRespPartFields, kindRespContent:
			return true
		case "":
			return respContentTypes[b.typ] || chatContentTypes[b.typ]
		}
	}
	return false
}

// encodeItems writes the items of m after the n already written and
// returns the new count.
func encodeItems(e *enc, m *condense.Message, n int) (int, error) {
	if err := checkRaw(m.Parts); err != nil {
		return n, err
	}
	switch m.Role {
	case condense.RoleSystem, condense.RoleUser, condense.RoleAssistant, condense.RoleTool:
	default:
		return n, errAt("role", "unknown role %q", m.Role)
	}
	role := itemRole(m.Role)
	sep := func() {
		if n > 0 {
			e.byte(',')
		}
		n++
	}
	var pending []Field
	hasPending, wrote := false, false
	parts := m.Parts
	for i := 0; i < len(parts); {
		p := &parts[i]
		if isRespContent(p) {
			j := i + 1
			for j < len(parts) && isRespContent(&parts[j]) {
				j++
			}
			sep()
			writeMessageItem(e, role, parts[i:j], pending)
			pending, hasPending, wrote = nil, false, true
			i = j
			continue
		}
		switch p.Type {
		case condense.PartProvider:
			b, ok := blockOf(p)
			switch {
			case !ok:
			case b.kind == kindItemFields:
				pending, hasPending = fieldsOf(b.value), true
			case b.kind == "" && b.typ != "":
				sep()
				e.raw(p.Raw)
				pending, hasPending, wrote = nil, false, true
			}
		case condense.PartThinking:
			if item, ok := reasoningItem(p); ok {
				sep()
				e.raw(item)
				wrote = true
			}
			pending, hasPending = nil, false
		case condense.PartToolCall:
			sep()
			writeFunctionCall(e, p, pending)
			pending, hasPending, wrote = nil, false, true
		case condense.PartToolResult:
			sep()
			writeFunctionOutput(e, p, pending)
			pending, hasPending, wrote = nil, false, true
		}
		i++
	}
	if hasPending || !wrote && (m.Role == condense.RoleUser || m.Role == condense.RoleSystem) {
		sep()
		writeMessageItem(e, role, nil, pending)
	}
	return n, nil
}

// writeMessageItem writes a message item of role holding the content
// parts run.
func writeMessageItem(e *enc, role string, run []condense.Part, fields []Field) {
	var o objw
	o.begin(e, fields)
	if _, w := o.member("type", false); w {
		e.lit(`"message"`)
	}
	if _, w := o.member("role", false); w {
		e.str(role)
	}
	if _, w := o.member("content", false); w {
		if role == "assistant" && len(fields) == 0 && len(run) == 1 && run[0].Type == condense.PartText {
			e.str(run[0].Text)
		} else {
			writeRespContent(e, run, role)
		}
	}
	o.end()
}

// writeRespContent writes content parts as an array.
func writeRespContent(e *enc, run []condense.Part, role string) {
	e.byte('[')
	k := 0
	sep := func() {
		if k > 0 {
			e.byte(',')
		}
		k++
	}
	tt := "input_text"
	if role == "assistant" {
		tt = "output_text"
	}
	for i := range run {
		p := &run[i]
		switch p.Type {
		case condense.PartText:
			sep()
			var o objw
			o.begin(e, fieldsAfter(run, i, kindRespPartFields))
			if _, w := o.member("type", false); w {
				e.str(tt)
			}
			if _, w := o.member("text", false); w {
				e.str(p.Text)
			}
			o.end()
		case condense.PartImage:
			if role == "assistant" {
				continue
			}
			sep()
			var o objw
			o.begin(e, fieldsAfter(run, i, kindRespPartFields))
			if _, w := o.member("type", false); w {
				e.lit(`"input_image"`)
			}
			if _, w := o.member("image_url", false); w {
				e.imageURL(p)
			}
			if _, w := o.member("detail", false); w {
				e.lit(`"auto"`)
			}
			o.end()
		case condense.PartProvider:
			b, ok := blockOf(p)
			switch {
			case !ok:
			case b.kind == kindRespContent:
				sep()
				e.raw(b.value)
			case b.kind == "" && respContentTypes[b.typ]:
				sep()
				e.raw(p.Raw)
			}
		}
	}
	e.byte(']')
}

func writeFunctionCall(e *enc, p *condense.Part, fields []Field) {
	argName := "arguments"
	if t, ok := getField(fields, "type"); ok {
		if s, _ := str(t); s == "custom_tool_call" {
			argName = "input"
		}
	}
	var o objw
	o.begin(e, fields)
	if _, w := o.member("type", false); w {
		e.lit(`"function_call"`)
	}
	if _, w := o.member("call_id", false); w {
		e.str(p.ID)
	}
	if _, w := o.member("name", false); w {
		e.str(p.Name)
	}
	if _, w := o.member(argName, false); w {
		e.str(InputArguments(p.Input))
	}
	o.end()
}

func writeFunctionOutput(e *enc, p *condense.Part, fields []Field) {
	var o objw
	o.begin(e, fields)
	if _, w := o.member("type", false); w {
		e.lit(`"function_call_output"`)
	}
	if _, w := o.member("call_id", false); w {
		e.str(p.CallID)
	}
	if _, w := o.member("output", false); w {
		c := p.Content
		switch {
		case len(c) == 0:
			e.lit(`""`)
		case len(c) == 1 && c[0].Type == condense.PartText && c[0].Text != "":
			e.str(c[0].Text)
		default:
			writeRespContent(e, c, "user")
		}
	}
	o.end()
}

// ResponsesResponse is a Responses API answer (a response object) as
// condense sees it: its output as one assistant message.
type ResponsesResponse struct {
	ID string
	// Model is the model that answered, as the server names it.
	Model string
	// Status is "completed", "incomplete", "failed", "in_progress", ….
	Status string
	// IncompleteReason says why an incomplete response stopped:
	// "max_output_tokens" or "content_filter".
	IncompleteReason string
	// Message holds the output items as the parts of an assistant message:
	// output text and refusals as text, reasoning as thinking (see
	// ResponsesRequest), function calls as tool calls, other items as
	// openai provider parts. Item ids and statuses, annotations and
	// logprobs do not go back into a history and are left out; a reasoning
	// item is kept whole.
	Message condense.Message
	// FinishReason says why the output ended, in the words of Chat
	// Completions: "tool_calls" when the output calls a function, "length"
	// when it was cut at the output cap, "content_filter", "stop"
	// otherwise; "" for a response that failed or has not ended.
	FinishReason string
	// Refusal is the output's refusal text, when the model refused.
	Refusal string
	// Error is the error of a failed response.
	Error *ResponseError
	// Usage counts the tokens: InputTokens are the input tokens, cached
	// ones included, which CacheReadTokens counts again.
	Usage condense.Usage
}

// ResponseError is the error object of a failed response or of an error
// event of a stream.
type ResponseError struct {
	Code    string
	Message string
}

// Text returns the answer's text parts, joined by newlines.
func (r *ResponsesResponse) Text() string { return r.Message.TextContent() }

// DecodeResponsesResponse reads a Responses API answer body (a response
// object). The response shares body's memory.
func DecodeResponsesResponse(body []byte) (*ResponsesResponse, error) {
	doc, err := objectDoc(own(body))
	if err != nil {
		return nil, err
	}
	return decodeResponse(doc)
}

func decodeResponse(doc []byte) (*ResponsesResponse, error) {
	r := &ResponsesResponse{Message: condense.Message{Role: condense.RoleAssistant}}
	o, ok := objectOf(doc)
	if !ok {
		return nil, errAt("", "want a response object")
	}
	calls := false
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		switch name {
		case "id":
			r.ID, _ = str(val)
		case "model":
			r.Model, _ = str(val)
		case "status":
			r.Status, _ = str(val)
		case "incomplete_details":
			h, _ := readItem(val, "reason")
			r.IncompleteReason, _ = str(h.vals["reason"])
		case "error":
			if kindOf(val) == '{' {
				r.Error = responseError(val)
			}
		case "usage":
			r.Usage = responsesUsage(val)
		case "output":
			a, ok := arrayOf(val)
			if !ok {
				continue
			}
			for k := 0; ; k++ {
				iv, ok := a.next()
				if !ok {
					break
				}
				ps, refusal, call := outputItem(iv)
				r.Message.Parts = append(r.Message.Parts, ps...)
				r.Refusal += refusal
				calls = calls || call
			}
		}
	}
	switch r.Status {
	case "completed":
		r.FinishReason = "stop"
		if calls {
			r.FinishReason = "tool_calls"
		}
	case "incomplete":
		switch r.IncompleteReason {
		case "max_output_tokens":
			r.FinishReason = "length"
		case "":
			r.FinishReason = "stop"
		default:
			r.FinishReason = r.IncompleteReason
		}
	}
	return r, nil
}

func responseError(v []byte) *ResponseError {
	h, _ := readItem(v, "code", "message")
	e := &ResponseError{}
	e.Code, _ = str(h.vals["code"])
	e.Message, _ = str(h.vals["message"])
	return e
}

// outputItem returns the parts of one output item, its refusal text and
// whether it calls a tool. Items kept whole are compacted: a server
// indents a JSON answer but not the same item in a stream, and the two
// should give the same history.
func outputItem(v []byte) (parts []condense.Part, refusal string, call bool) {
	var buf bytes.Buffer
	if json.Compact(&buf, v) == nil {
		v = buf.Bytes()
	}
	h, ok := readItem(v, "role", "content", "call_id", "name", "arguments", "input")
	if !ok {
		return nil, "", false
	}
	switch h.typ {
	case "message":
		a, _ := arrayOf(h.vals["content"])
		for {
			pv, ok := a.next()
			if !ok {
				break
			}
			ph, _ := readItem(pv, "text", "refusal")
			switch ph.typ {
			case "output_text", "text":
				s, _ := str(ph.vals["text"])
				parts = append(parts, condense.Text(s))
			case "refusal":
				s, _ := str(ph.vals["refusal"])
				refusal += s
				parts = append(parts, condense.Text(s))
			}
		}
		return parts, refusal, false
	case "function_call", "custom_tool_call":
		id, _ := str(h.vals["call_id"])
		name, _ := str(h.vals["name"])
		arg := "arguments"
		if h.typ == "custom_tool_call" {
			arg = "input"
		}
		var input json.RawMessage
		switch a := h.vals[arg]; kindOf(a) {
		case '"':
			s, _ := str(a)
			input = ArgumentsInput(s)
		case '{':
			input = a
		default:
			input = ArgumentsInput("")
		}
		p := condense.ToolCall(id, name, input)
		if h.typ == "custom_tool_call" {
			return []condense.Part{fieldsPart(kindItemFields, []Field{{"type", []byte(`"custom_tool_call"`)}}), p}, "", true
		}
		return []condense.Part{p}, "", true
	case "reasoning":
		return []condense.Part{reasoningPart(v)}, "", false
	}
	return []condense.Part{condense.ProviderBlock(Provider, v)}, "", false
}

// OutputItemParts returns the parts an output item (of a response or of a
// stream's output_item events) adds to ResponsesResponse.Message. The
// parts may share item's memory.
func OutputItemParts(item []byte) []condense.Part {
	b := own(item)
	if !validJSON(b) {
		return nil
	}
	ps, _, _ := outputItem(b)
	return ps
}

// responsesUsage reads a Responses usage object.
func responsesUsage(v []byte) condense.Usage {
	var u condense.Usage
	o, ok := objectOf(v)
	if !ok {
		return u
	}
	for {
		name, val, ok := o.next()
		if !ok {
			return u
		}
		switch name {
		case "input_tokens":
			u.InputTokens, _ = intOf(val)
		case "output_tokens":
			u.OutputTokens, _ = intOf(val)
		case "input_tokens_details":
			d, _ := readItem(val, "cached_tokens", "cache_write_tokens")
			u.CacheReadTokens, _ = intOf(d.vals["cached_tokens"])
			u.CacheWriteTokens, _ = intOf(d.vals["cache_write_tokens"])
		}
	}
}
