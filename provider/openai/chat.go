package openai

import (
	"encoding/json"

	"github.com/condense-dev/condense"
)

// Fields are the members of a JSON object that a codec does not model, in
// their order, values byte for byte.
type Fields []Field

// Get returns the value of the member name.
func (f Fields) Get(name string) (json.RawMessage, bool) { return getField(f, name) }

// Set replaces the value of the member name, or appends the member.
func (f *Fields) Set(name string, value json.RawMessage) { *f = setField(*f, name, value) }

// ChatRequest is a Chat Completions request body (POST /chat/completions)
// as condense sees it.
//
// The request maps onto condense.Request: "model" is Model; the first
// message, when it is a plain "system" message of one text, is System;
// every other message is one message of Messages, in order ("developer"
// messages are system messages whose role a fields block keeps; a "tool"
// message is a tool message of one tool result); "tools" of type function
// are Tools; "max_completion_tokens" is MaxOutputTokens (or "max_tokens",
// see LegacyMaxTokens).
//
// Message content is a string or an array of parts. Text parts are text,
// image_url parts of user messages are images (a data URL is the image's
// bytes), other parts are kept as openai provider parts. A string and an
// array of one text part decode alike; encoding writes content as a string
// when it is one non-empty text part that carries nothing else, as an
// array otherwise, and as "" when there is none (an assistant message that
// only calls tools gets no content member, as the SDK writes it) — an
// empty, null or missing content decodes to no parts. An assistant
// message's tool calls are tool call parts after its
// content; their arguments map to a JSON input as RawArgumentsKey says. A
// custom tool call is a tool call part whose part fields block says so.
//
// Nothing else is lost: the package documentation says how members and
// parts condense has no field for are kept.
type ChatRequest struct {
	condense.Request
	// LegacyMaxTokens says the output cap travels as "max_tokens", the
	// old name that some compatible servers know alone (OpenAI's reasoning
	// models reject it). A body with both names models
	// "max_completion_tokens" and keeps "max_tokens" in Extra.
	LegacyMaxTokens bool
	// Extra holds the body's top-level members that the codec does not
	// model (temperature, tool_choice, response_format, stream,
	// stream_options, anything new), and modelled members whose value it
	// cannot model (a null "model"). They are written back after the
	// modelled members, in order, byte for byte. They must not repeat a
	// member the codec writes.
	Extra Fields
	// RawTools holds the "tools" entries as given when one of them is not
	// a plain function tool (a custom tool, "strict", another member);
	// nil otherwise. Encoding writes each entry as it is, the function
	// tools only while the matching tool of Tools (by name) is unchanged:
	// a changed tool is written from Tools, a removed one left out, and
	// tools of Tools that no entry names follow the entries.
	RawTools []json.RawMessage
}

// responsesItemTypes are the types of Responses API input items. Chat has
// no place for them: the chat encoder leaves such provider parts out, and
// the chat decoder rejects a content part that claims one.
var responsesItemTypes = map[string]bool{
	"message": true, "reasoning": true, "function_call": true, "function_call_output": true,
	"custom_tool_call": true, "custom_tool_call_output": true, "web_search_call": true,
	"file_search_call": true, "computer_call": true, "computer_call_output": true,
	"code_interpreter_call": true, "image_generation_call": true, "local_shell_call": true,
	"local_shell_call_output": true, "shell_call": true, "shell_call_output": true,
	"apply_patch_call": true, "apply_patch_call_output": true, "mcp_call": true,
	"mcp_list_tools": true, "mcp_approval_request": true, "mcp_approval_response": true,
	"item_reference": true, "compaction": true, "compaction_summary": true,
	"tool_search_call": true, "tool_search_output": true,
}

// DecodeChatRequest reads a Chat Completions request body. Errors are
// *DecodeError values naming the JSON path of the problem. The request
// shares body's memory: body must not change while it is in use.
func DecodeChatRequest(body []byte) (*ChatRequest, error) {
	doc, err := objectDoc(own(body))
	if err != nil {
		return nil, err
	}
	r := &ChatRequest{}
	o, _ := objectOf(doc)
	var seen struct{ model, messages, tools, mct, mt bool }
	mtAt, mtVal := -1, []byte(nil)
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
		case name == "messages" && !seen.messages:
			seen.messages = true
			msgs, sys, err := decodeChatMessages(val)
			if err != nil {
				return nil, under("messages", err)
			}
			r.Messages, r.System = msgs, sys
			continue
		case name == "tools" && !seen.tools && kindOf(val) == '[':
			seen.tools = true
			tools, raw, err := decodeTools(val, decodeChatTool)
			if err != nil {
				return nil, under("tools", err)
			}
			r.Tools, r.RawTools = tools, raw
			continue
		case name == "max_completion_tokens" && !seen.mct:
			if n, ok := intOf(val); ok && n > 0 {
				seen.mct = true
				r.MaxOutputTokens = n
				continue
			}
		case name == "max_tokens" && !seen.mt:
			if n, ok := intOf(val); ok && n > 0 {
				seen.mt = true
				mtAt, mtVal = len(r.Extra), val
				continue
			}
		}
		r.Extra = append(r.Extra, Field{name, val})
	}
	if !seen.messages {
		return nil, errAt("messages", "missing")
	}
	if seen.mt {
		if seen.mct {
			r.Extra = append(r.Extra[:mtAt], append(Fields{{"max_tokens", mtVal}}, r.Extra[mtAt:]...)...)
		} else {
			r.MaxOutputTokens, _ = intOf(mtVal)
			r.LegacyMaxTokens = true
		}
	}
	return r, nil
}

// decodeChatMessages reads the messages array; a leading plain system
// message becomes the system text.
func decodeChatMessages(v []byte) ([]condense.Message, string, error) {
	a, ok := arrayOf(v)
	if !ok {
		return nil, "", errAt("", "want an array of messages")
	}
	var msgs []condense.Message
	system := ""
	for i := 0; ; i++ {
		mv, ok := a.next()
		if !ok {
			break
		}
		m, err := decodeChatMessage(mv)
		if err != nil {
			return nil, "", under(idx("", i), err)
		}
		if i == 0 && m.Role == condense.RoleSystem && len(m.Parts) == 1 &&
			m.Parts[0].Type == condense.PartText && m.Parts[0].Text != "" {
			system = m.Parts[0].Text
			continue
		}
		msgs = append(msgs, m)
	}
	return msgs, system, nil
}

// DecodeChatMessage reads one chat message, as DecodeChatRequest reads
// each message of a body (a leading system message stays a message). A
// message of a role condense does not know (the legacy "function") is a
// user message holding the message as a provider part. Errors name paths
// inside the message; the message shares raw's memory.
func DecodeChatMessage(raw []byte) (condense.Message, error) {
	b := own(raw)
	i := ws(b, 0)
	end, err := scanValue(b, i, 0)
	if err != nil {
		return condense.Message{}, &DecodeError{Msg: err.Error()}
	}
	if ws(b, end) != len(b) {
		return condense.Message{}, &DecodeError{Msg: synErr(b, ws(b, end), "after top-level value").Error()}
	}
	return decodeChatMessage(b[i:end])
}

func decodeChatMessage(v []byte) (condense.Message, error) {
	o, ok := objectOf(v)
	if !ok {
		return condense.Message{}, errAt("", "want a message object")
	}
	var (
		role, callID         string
		roleRaw, callIDRaw   []byte
		content, calls       []byte
		hasRole, hasCallID   bool
		hasContent, hasCalls bool
		extras               []Field
	)
	var seen names
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		if seen.dup(name) {
			return condense.Message{}, errAt(name, "duplicate member")
		}
		switch {
		case name == "role" && !hasRole:
			var isStr bool
			if role, isStr = str(val); !isStr {
				return condense.Message{}, errAt("role", "want a string")
			}
			hasRole, roleRaw = true, val
		case name == "content" && !hasContent:
			hasContent, content = true, val
		case name == "tool_calls" && !hasCalls:
			hasCalls, calls = true, val
		case name == "tool_call_id" && !hasCallID && kindOf(val) == '"':
			hasCallID, callIDRaw = true, val
			callID, _ = str(val)
		default:
			extras = append(extras, Field{name, val})
		}
	}
	var m condense.Message
	switch role {
	case "system":
		m.Role = condense.RoleSystem
	case "developer":
		m.Role = condense.RoleSystem
		extras = append([]Field{{"role", roleRaw}}, extras...)
	case "user":
		m.Role = condense.RoleUser
	case "assistant":
		m.Role = condense.RoleAssistant
	case "tool":
		m.Role = condense.RoleTool
	case "":
		if !hasRole {
			return m, errAt("role", "missing")
		}
		fallthrough
	default:
		m.Role = condense.RoleUser
		m.Parts = []condense.Part{wrap(kindChatMessage, v)}
		return m, nil
	}
	// Members the role has no use for are kept as they are.
	if hasCalls && (m.Role != condense.RoleAssistant || kindOf(calls) != '[' || emptyArray(calls)) {
		extras = append(extras, Field{"tool_calls", calls})
		hasCalls = false
	}
	if hasCallID && m.Role != condense.RoleTool {
		extras = append(extras, Field{"tool_call_id", callIDRaw})
		hasCallID = false
	}
	parts, err := decodeChatContent(content, m.Role)
	if err != nil {
		return m, under("content", err)
	}
	if len(extras) > 0 {
		m.Parts = append(m.Parts, fieldsPart(kindChatMessageFields, extras))
	}
	if m.Role == condense.RoleTool {
		if !hasCallID {
			return m, errAt("tool_call_id", "missing")
		}
		m.Parts = append(m.Parts, condense.ToolResult(callID, false, parts...))
		return m, nil
	}
	m.Parts = append(m.Parts, parts...)
	if hasCalls {
		a, _ := arrayOf(calls)
		for j := 0; ; j++ {
			cv, ok := a.next()
			if !ok {
				break
			}
			ps, err := decodeChatToolCall(cv)
			if err != nil {
				return m, under(idx("tool_calls", j), err)
			}
			m.Parts = append(m.Parts, ps...)
		}
	}
	return m, nil
}

func emptyArray(v []byte) bool {
	a, _ := arrayOf(v)
	_, ok := a.next()
	return !ok
}

// objectBytes returns the JSON object of fs.
func objectBytes(fs []Field) []byte {
	e := enc{b: make([]byte, 0, 32)}
	e.byte('{')
	for i, f := range fs {
		e.key(i == 0, f.Name)
		e.raw(f.Value)
	}
	e.byte('}')
	return e.b
}

// decodeChatContent reads a message's content: a string, null, or an
// array of parts.
func decodeChatContent(v []byte, role condense.Role) ([]condense.Part, error) {
	switch kindOf(v) {
	case 0, 'n':
		return nil, nil
	case '"':
		s, _ := str(v)
		if s == "" {
			return nil, nil
		}
		return []condense.Part{condense.Text(s)}, nil
	case '[':
	default:
		return nil, errAt("", "want a string, null or an array of parts")
	}
	a, _ := arrayOf(v)
	var parts []condense.Part
	for k := 0; ; k++ {
		pv, ok := a.next()
		if !ok {
			break
		}
		ps, err := decodeChatPart(pv, role)
		if err != nil {
			return nil, under(idx("", k), err)
		}
		parts = append(parts, ps...)
	}
	return parts, nil
}

// decodeChatPart reads one content part: the part, and its part fields
// block when it has members condense has no field for.
func decodeChatPart(v []byte, role condense.Role) ([]condense.Part, error) {
	o, ok := objectOf(v)
	if !ok {
		return nil, errAt("", "want a content part object")
	}
	var typ string
	var text, image []byte
	hasType, hasText, hasImage := false, false, false
	var extras []Field
	var seen names
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		if seen.dup(name) {
			return nil, errAt(name, "duplicate member")
		}
		switch {
		case name == "type" && !hasType:
			var isStr bool
			if typ, isStr = str(val); !isStr {
				return nil, errAt("type", "want a string")
			}
			hasType = true
		case name == "text" && !hasText:
			hasText, text = true, val
		case name == "image_url" && !hasImage:
			hasImage, image = true, val
		default:
			extras = append(extras, Field{name, val})
		}
	}
	if typ == "" {
		return nil, errAt("type", "missing")
	}
	switch typ {
	case "text":
		if !hasText {
			return nil, errAt("text", "missing")
		}
		s, isStr := str(text)
		if !isStr {
			return nil, errAt("text", "want a string")
		}
		if hasImage {
			extras = append(extras, Field{"image_url", image})
		}
		return withFields([]condense.Part{condense.Text(s)}, kindChatPartFields, extras), nil
	case "image_url":
		if role != condense.RoleUser || !hasImage {
			break
		}
		io, ok := objectOf(image)
		if !ok {
			break
		}
		url, hasURL := "", false
		var nested []Field
		var seen names
		for {
			name, val, ok := io.next()
			if !ok {
				break
			}
			if seen.dup(name) {
				return nil, errAt("image_url."+name, "duplicate member")
			}
			if name == "url" && !hasURL {
				if url, hasURL = str(val); hasURL {
					continue
				}
			}
			nested = append(nested, Field{name, val})
		}
		if url == "" {
			break
		}
		if hasText {
			extras = append(extras, Field{"text", text})
		}
		if len(nested) > 0 {
			extras = append(extras, Field{"image_url", objectBytes(nested)})
		}
		return withFields([]condense.Part{imageFromURL(url)}, kindChatPartFields, extras), nil
	default:
		if responsesItemTypes[typ] {
			return nil, errAt("type", "%q is a Responses API item, not a chat content part", typ)
		}
	}
	return []condense.Part{condense.ProviderBlock(Provider, v)}, nil
}

// withFields appends a part fields block of kind after ps when there are
// extra members.
func withFields(ps []condense.Part, kind string, extras []Field) []condense.Part {
	if len(extras) > 0 {
		ps = append(ps, fieldsPart(kind, extras))
	}
	return ps
}

// decodeChatToolCall reads one entry of an assistant message's
// tool_calls.
func decodeChatToolCall(v []byte) ([]condense.Part, error) {
	o, ok := objectOf(v)
	if !ok {
		return nil, errAt("", "want a tool call object")
	}
	var typ, id string
	var fn, custom []byte
	hasType, hasID, hasFn, hasCustom := false, false, false, false
	var extras []Field
	var seen names
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		if seen.dup(name) {
			return nil, errAt(name, "duplicate member")
		}
		switch {
		case name == "type" && !hasType && kindOf(val) == '"':
			hasType = true
			typ, _ = str(val)
		case name == "id" && !hasID && kindOf(val) == '"':
			hasID = true
			id, _ = str(val)
		case name == "function" && !hasFn:
			hasFn, fn = true, val
		case name == "custom" && !hasCustom:
			hasCustom, custom = true, val
		default:
			extras = append(extras, Field{name, val})
		}
	}
	switch typ {
	case "", "function":
		// A call without a type is a function call, written with its
		// type.
		if hasCustom {
			extras = append(extras, Field{"custom", custom})
		}
	case "custom":
		if hasFn {
			extras = append(extras, Field{"function", fn})
		}
		extras = append([]Field{{"type", []byte(`"custom"`)}}, extras...)
		fn = custom
		hasFn = hasCustom
	default:
		return []condense.Part{wrap(kindChatToolCall, v)}, nil
	}
	if !hasID || id == "" {
		return nil, errAt("id", "missing")
	}
	member := "function"
	argName := "arguments"
	if typ == "custom" {
		member, argName = "custom", "input"
	}
	if !hasFn {
		return nil, errAt(member, "missing")
	}
	fo, ok := objectOf(fn)
	if !ok {
		return nil, errAt(member, "want an object")
	}
	name, hasName := "", false
	var args []byte
	hasArgs := false
	var nested []Field
	var fseen names
	for {
		n, val, ok := fo.next()
		if !ok {
			break
		}
		if fseen.dup(n) {
			return nil, errAt(member+"."+n, "duplicate member")
		}
		switch {
		case n == "name" && !hasName && kindOf(val) == '"':
			hasName = true
			name, _ = str(val)
		case n == argName && !hasArgs:
			hasArgs, args = true, val
		default:
			nested = append(nested, Field{n, val})
		}
	}
	if name == "" {
		return nil, errAt(member+".name", "missing")
	}
	var input json.RawMessage
	switch kindOf(args) {
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
		return nil, errAt(member+"."+argName, "want a string")
	}
	if len(nested) > 0 {
		extras = append(extras, Field{member, objectBytes(nested)})
	}
	return withFields([]condense.Part{condense.ToolCall(id, name, input)}, kindChatPartFields, extras), nil
}

// EncodeChatRequest writes r as a Chat Completions request body: "model",
// "messages", "tools" when there are tools, the output cap when it is set,
// then r.Extra. Thinking, images of assistant messages and tool results
// (written as the text "[image]"), is_error, and provider parts of other
// providers or of the Responses API have no place in Chat Completions and
// are left out.
func EncodeChatRequest(r *ChatRequest) ([]byte, error) {
	e := enc{b: make([]byte, 0, sizeHint(&r.Request, r.Extra, r.RawTools))}
	e.lit(`{"model":`)
	e.str(r.Model)
	e.lit(`,"messages":[`)
	n := 0
	if r.System != "" {
		e.lit(`{"role":"system","content":`)
		e.str(r.System)
		e.byte('}')
		n++
	}
	for i := range r.Messages {
		var err error
		if n, err = encodeChatMessage(&e, &r.Messages[i], n); err != nil {
			return nil, under(idx("messages", i), err)
		}
	}
	e.byte(']')
	if len(r.Tools) > 0 || len(r.RawTools) > 0 {
		e.lit(`,"tools":`)
		if err := writeTools(&e, r.RawTools, r.Tools, decodeChatTool, writeChatTool); err != nil {
			return nil, under("tools", err)
		}
	}
	if r.MaxOutputTokens > 0 {
		if r.LegacyMaxTokens {
			e.lit(`,"max_tokens":`)
		} else {
			e.lit(`,"max_completion_tokens":`)
		}
		e.int(r.MaxOutputTokens)
	}
	if err := writeExtra(&e, r.Extra); err != nil {
		return nil, err
	}
	e.byte('}')
	return e.b, nil
}

// writeExtra writes top-level members after the modelled ones.
func writeExtra(e *enc, extra Fields) error {
	for _, f := range extra {
		if !validJSON(f.Value) {
			return errAt(f.Name, "extra member is not valid JSON")
		}
		e.key(false, f.Name)
		e.raw(f.Value)
	}
	return nil
}

// chatMessageExtras gathers the members of the message fields blocks of
// m, in order, and the chat messages m carries whole.
func chatMessageExtras(m *condense.Message) (extras []Field, whole [][]byte) {
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Type != condense.PartProvider {
			continue
		}
		b, ok := blockOf(p)
		if !ok {
			continue
		}
		switch b.kind {
		case kindChatMessageFields:
			extras = append(extras, fieldsOf(b.value)...)
		case kindChatMessage:
			whole = append(whole, b.value)
		}
	}
	return extras, whole
}

// encodeChatMessage writes the chat messages of m after the n already
// written and returns the new count.
func encodeChatMessage(e *enc, m *condense.Message, n int) (int, error) {
	if err := checkRaw(m.Parts); err != nil {
		return n, err
	}
	extras, whole := chatMessageExtras(m)
	sep := func() {
		if n > 0 {
			e.byte(',')
		}
		n++
	}
	modelled := len(whole) == 0 || hasChatContent(m)
	switch m.Role {
	case condense.RoleSystem, condense.RoleUser:
		if modelled {
			sep()
			var o objw
			o.begin(e, extras)
			if _, w := o.member("role", false); w {
				e.str(string(m.Role))
			}
			if _, w := o.member("content", false); w {
				writeChatContent(e, m.Parts, m.Role)
			}
			o.end()
		}
	case condense.RoleAssistant:
		if modelled {
			sep()
			var o objw
			o.begin(e, extras)
			if _, w := o.member("role", false); w {
				e.lit(`"assistant"`)
			}
			// An assistant message that only calls tools has no
			// content member, as the SDK writes it.
			calls := m.HasToolCalls() || hasWrappedCall(m.Parts)
			if n, _ := chatContentCount(m.Parts, m.Role); n > 0 || !calls {
				if _, w := o.member("content", false); w {
					writeChatContent(e, m.Parts, m.Role)
				}
			}
			if calls {
				if _, w := o.member("tool_calls", false); w {
					writeChatToolCalls(e, m.Parts)
				}
			}
			o.end()
		}
	case condense.RoleTool:
		for i := range m.Parts {
			p := &m.Parts[i]
			if p.Type != condense.PartToolResult {
				continue
			}
			sep()
			var o objw
			o.begin(e, extras)
			if _, w := o.member("role", false); w {
				e.lit(`"tool"`)
			}
			if _, w := o.member("tool_call_id", false); w {
				e.str(p.CallID)
			}
			if _, w := o.member("content", false); w {
				writeToolContent(e, p.Content)
			}
			o.end()
		}
	default:
		return n, errAt("role", "unknown role %q", m.Role)
	}
	for _, w := range whole {
		sep()
		e.raw(w)
	}
	return n, nil
}

// checkRaw rejects provider parts and tool inputs that are not JSON, which
// would make the body invalid.
func checkRaw(parts []condense.Part) error {
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartProvider:
			if !validJSON(p.Raw) {
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

// hasChatContent reports whether m has anything a modelled chat message
// would carry beyond messages carried whole.
func hasChatContent(m *condense.Message) bool {
	for i := range m.Parts {
		p := &m.Parts[i]
		if p.Type != condense.PartProvider {
			return true
		}
		if b, ok := blockOf(p); ok && b.kind != kindChatMessage {
			return true
		}
	}
	return false
}

func hasWrappedCall(parts []condense.Part) bool {
	for i := range parts {
		if parts[i].Type == condense.PartProvider {
			if b, ok := blockOf(&parts[i]); ok && b.kind == kindChatToolCall {
				return true
			}
		}
	}
	return false
}

// chatContentBlock reports whether b is a bare provider part that goes
// into chat content.
func chatContentBlock(b block) bool {
	return b.kind == "" && b.typ != "" && !responsesItemTypes[b.typ]
}

// chatContentCount counts the content parts of a system, user or
// assistant message, a part with a part fields block counting twice, and
// returns the index of the last text part.
func chatContentCount(parts []condense.Part, role condense.Role) (count, single int) {
	single = -1
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			count++
			single = i
			if fieldsAfter(parts, i, kindChatPartFields) != nil {
				count++
			}
		case condense.PartImage:
			if role != condense.RoleAssistant {
				count += 2
			}
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && chatContentBlock(b) {
				count += 2
			}
		}
	}
	return count, single
}

// writeChatContent writes the content of a system, user or assistant
// message: "" for none, a string for one plain text part that is not
// empty (an empty string reads as no content), an array otherwise.
func writeChatContent(e *enc, parts []condense.Part, role condense.Role) bool {
	count, single := chatContentCount(parts, role)
	switch {
	case count == 0:
		e.lit(`""`)
		return false
	case count == 1 && parts[single].Text != "":
		e.str(parts[single].Text)
		return true
	}
	e.byte('[')
	k := 0
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			if k > 0 {
				e.byte(',')
			}
			k++
			var o objw
			o.begin(e, fieldsAfter(parts, i, kindChatPartFields))
			if _, w := o.member("type", false); w {
				e.lit(`"text"`)
			}
			if _, w := o.member("text", false); w {
				e.str(p.Text)
			}
			o.end()
		case condense.PartImage:
			if role == condense.RoleAssistant {
				continue
			}
			if k > 0 {
				e.byte(',')
			}
			k++
			writeChatImage(e, p, fieldsAfter(parts, i, kindChatPartFields))
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && chatContentBlock(b) {
				if k > 0 {
					e.byte(',')
				}
				k++
				e.raw(p.Raw)
			}
		}
	}
	e.byte(']')
	return true
}

func writeChatImage(e *enc, p *condense.Part, extras []Field) {
	var o objw
	o.begin(e, extras)
	if _, w := o.member("type", false); w {
		e.lit(`"image_url"`)
	}
	if nested, w := o.member("image_url", true); w {
		var io objw
		io.begin(e, nested)
		if _, w := io.member("url", false); w {
			e.imageURL(p)
		}
		io.end()
	}
	o.end()
}

// writeToolContent writes a tool message's content: its text (images as
// "[image]"), a string when there is one plain text.
func writeToolContent(e *enc, parts []condense.Part) {
	count := 0
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText, condense.PartImage:
			count++
			if fieldsAfter(parts, i, kindChatPartFields) != nil {
				count++
			}
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && chatContentBlock(b) {
				count += 2
			}
		}
	}
	s := ""
	for i := range parts {
		switch parts[i].Type {
		case condense.PartText:
			s = parts[i].Text
		case condense.PartImage:
			s = "[image]"
		}
	}
	if count == 0 || count == 1 && s != "" {
		e.str(s)
		return
	}
	e.byte('[')
	k := 0
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText, condense.PartImage:
			if k > 0 {
				e.byte(',')
			}
			k++
			text := p.Text
			if p.Type == condense.PartImage {
				text = "[image]"
			}
			var o objw
			o.begin(e, fieldsAfter(parts, i, kindChatPartFields))
			if _, w := o.member("type", false); w {
				e.lit(`"text"`)
			}
			if _, w := o.member("text", false); w {
				e.str(text)
			}
			o.end()
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && chatContentBlock(b) {
				if k > 0 {
					e.byte(',')
				}
				k++
				e.raw(p.Raw)
			}
		}
	}
	e.byte(']')
}

// writeChatToolCalls writes an assistant message's tool_calls.
func writeChatToolCalls(e *enc, parts []condense.Part) {
	e.byte('[')
	k := 0
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartToolCall:
			if k > 0 {
				e.byte(',')
			}
			k++
			writeChatToolCall(e, p, fieldsAfter(parts, i, kindChatPartFields))
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && b.kind == kindChatToolCall {
				if k > 0 {
					e.byte(',')
				}
				k++
				e.raw(b.value)
			}
		}
	}
	e.byte(']')
}

func writeChatToolCall(e *enc, p *condense.Part, extras []Field) {
	member, argName := "function", "arguments"
	if t, ok := getField(extras, "type"); ok && kindOf(t) == '"' {
		if s, _ := str(t); s == "custom" {
			member, argName = "custom", "input"
		}
	}
	var o objw
	o.begin(e, extras)
	if _, w := o.member("id", false); w {
		e.str(p.ID)
	}
	if _, w := o.member("type", false); w {
		e.str(member)
	}
	if nested, w := o.member(member, true); w {
		var fo objw
		fo.begin(e, nested)
		if _, w := fo.member("name", false); w {
			e.str(p.Name)
		}
		if _, w := fo.member(argName, false); w {
			e.str(InputArguments(p.Input))
		}
		fo.end()
	}
	o.end()
}

// decodeChatTool reads one entry of "tools": the tool, whether it is a
// function tool, and whether it is plain (written back the same from the
// condense.Tool alone).
func decodeChatTool(v []byte) (t condense.Tool, function, plain bool) {
	o, ok := objectOf(v)
	if !ok {
		return t, false, false
	}
	plain = true
	var fn []byte
	typ := ""
	n := 0
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		n++
		switch name {
		case "type":
			typ, _ = str(val)
		case "function":
			fn = val
		default:
			plain = false
		}
	}
	if typ != "function" || n != 2 {
		plain = false
	}
	if typ != "function" {
		return t, false, false
	}
	t, function, fplain := decodeFunctionDef(fn)
	return t, function, plain && fplain
}

// decodeFunctionDef reads {"name","description","parameters"}, the shape
// a chat function tool nests and a Responses function tool is.
func decodeFunctionDef(v []byte) (t condense.Tool, ok, plain bool) {
	o, isObj := objectOf(v)
	if !isObj {
		return t, false, false
	}
	plain = true
	hasName, hasParams := false, false
	for {
		name, val, more := o.next()
		if !more {
			break
		}
		switch {
		case name == "name" && !hasName && kindOf(val) == '"':
			hasName = true
			t.Name, _ = str(val)
		case name == "description" && t.Description == "" && kindOf(val) == '"':
			t.Description, _ = str(val)
			if t.Description == "" {
				plain = false
			}
		case name == "parameters" && !hasParams:
			hasParams = true
			t.InputSchema = json.RawMessage(val)
			if kindOf(val) != '{' {
				plain = false
			}
		default:
			plain = false
		}
	}
	if t.Name == "" {
		return condense.Tool{}, false, false
	}
	return t, true, plain && hasParams
}

// defaultSchema is the input schema of a tool that gives none.
const defaultSchema = `{"type":"object","properties":{}}`

func writeChatTool(e *enc, t *condense.Tool) {
	e.lit(`{"type":"function","function":{"name":`)
	e.str(t.Name)
	if t.Description != "" {
		e.lit(`,"description":`)
		e.str(t.Description)
	}
	e.lit(`,"parameters":`)
	writeSchema(e, t.InputSchema)
	e.lit("}}")
}

func writeSchema(e *enc, schema json.RawMessage) {
	if len(schema) == 0 || !validJSON(schema) {
		e.lit(defaultSchema)
		return
	}
	e.raw(schema)
}

// decodeTools reads a "tools" array with decode; raw is nil when every
// entry is plain.
func decodeTools(v []byte, decode func([]byte) (condense.Tool, bool, bool)) ([]condense.Tool, []json.RawMessage, error) {
	a, _ := arrayOf(v)
	var tools []condense.Tool
	var raw []json.RawMessage
	allPlain := true
	for k := 0; ; k++ {
		tv, ok := a.next()
		if !ok {
			break
		}
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

// writeTools writes a "tools" array from raw entries and tools (see
// ChatRequest.RawTools).
func writeTools(e *enc, raw []json.RawMessage, tools []condense.Tool,
	decode func([]byte) (condense.Tool, bool, bool), write func(*enc, *condense.Tool)) error {
	used := make([]bool, len(tools))
	e.byte('[')
	n := 0
	sep := func() {
		if n > 0 {
			e.byte(',')
		}
		n++
	}
	for k, rt := range raw {
		if !validJSON(rt) {
			return errAt(idx("", k), "raw tool is not valid JSON")
		}
		t, fn, _ := decode(rt)
		if !fn {
			sep()
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
		sep()
		if sameTool(&t, &tools[j]) {
			e.raw(rt)
		} else {
			write(e, &tools[j])
		}
	}
	for i := range tools {
		if !used[i] {
			sep()
			write(e, &tools[i])
		}
	}
	e.byte(']')
	return nil
}

func sameTool(a, b *condense.Tool) bool {
	return a.Name == b.Name && a.Description == b.Description && string(a.InputSchema) == string(b.InputSchema)
}

// ChatResponse is a Chat Completions answer (a chat.completion object) as
// condense sees it: the first choice's message as an assistant message.
type ChatResponse struct {
	ID string
	// Model is the model that answered, as the server names it.
	Model string
	// Message is the first choice's message: its text, its refusal (as
	// text, where the model said it) and its tool calls, whose arguments
	// map to inputs as RawArgumentsKey says. Members of the answer that do
	// not go back into a history (annotations, audio, logprobs) are left
	// out.
	Message condense.Message
	// FinishReason is the first choice's finish_reason: "stop", "length",
	// "tool_calls", "content_filter", "function_call", or what the server
	// says.
	FinishReason string
	// Refusal is the first choice's refusal, when the model refused.
	Refusal string
	// Choices is the number of choices in the answer.
	Choices int
	// Usage counts the tokens: InputTokens are the prompt tokens, cached
	// ones included, which CacheReadTokens counts again.
	Usage condense.Usage
}

// Text returns the answer's text parts, joined by newlines.
func (r *ChatResponse) Text() string { return r.Message.TextContent() }

// DecodeChatResponse reads a Chat Completions answer body. The response
// shares body's memory.
func DecodeChatResponse(body []byte) (*ChatResponse, error) {
	doc, err := objectDoc(own(body))
	if err != nil {
		return nil, err
	}
	r := &ChatResponse{Message: condense.Message{Role: condense.RoleAssistant}}
	o, _ := objectOf(doc)
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
		case "usage":
			r.Usage = chatUsage(val)
		case "choices":
			a, ok := arrayOf(val)
			if !ok {
				continue
			}
			for k := 0; ; k++ {
				cv, ok := a.next()
				if !ok {
					break
				}
				r.Choices++
				if k > 0 {
					continue
				}
				if err := decodeChatChoice(cv, r); err != nil {
					return nil, under(idx("choices", k), err)
				}
			}
		}
	}
	return r, nil
}

func decodeChatChoice(v []byte, r *ChatResponse) error {
	o, ok := objectOf(v)
	if !ok {
		return errAt("", "want a choice object")
	}
	for {
		name, val, ok := o.next()
		if !ok {
			return nil
		}
		switch name {
		case "finish_reason":
			r.FinishReason, _ = str(val)
		case "message":
			if err := decodeAnswerMessage(val, r); err != nil {
				return under("message", err)
			}
		}
	}
}

// decodeAnswerMessage reads the message of a choice.
func decodeAnswerMessage(v []byte, r *ChatResponse) error {
	o, ok := objectOf(v)
	if !ok {
		return nil
	}
	var calls []condense.Part
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		switch name {
		case "content":
			switch kindOf(val) {
			case '"':
				if s, _ := str(val); s != "" {
					r.Message.Parts = append(r.Message.Parts, condense.Text(s))
				}
			case '[':
				a, _ := arrayOf(val)
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
								r.Message.Parts = append(r.Message.Parts, condense.Text(s))
							}
						}
					}
				}
			}
		case "refusal":
			if s, _ := str(val); s != "" {
				r.Refusal = s
				r.Message.Parts = append(r.Message.Parts, condense.Text(s))
			}
		case "tool_calls":
			a, ok := arrayOf(val)
			if !ok {
				continue
			}
			for k := 0; ; k++ {
				cv, ok := a.next()
				if !ok {
					break
				}
				p, err := answerToolCall(cv)
				if err != nil {
					return under(idx("tool_calls", k), err)
				}
				if p != nil {
					calls = append(calls, *p)
				}
			}
		}
	}
	r.Message.Parts = append(r.Message.Parts, calls...)
	return nil
}

// answerToolCall reads a tool call of an answer; other kinds of calls are
// left out (nil).
func answerToolCall(v []byte) (*condense.Part, error) {
	ps, err := decodeChatToolCall(v)
	if err != nil {
		return nil, err
	}
	for i := range ps {
		if ps[i].Type == condense.PartToolCall {
			return &ps[i], nil
		}
	}
	return nil, nil
}

// chatUsage reads a Chat Completions usage object.
func chatUsage(v []byte) condense.Usage {
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
		case "prompt_tokens":
			u.InputTokens, _ = intOf(val)
		case "completion_tokens":
			u.OutputTokens, _ = intOf(val)
		case "prompt_tokens_details":
			d, ok := objectOf(val)
			if !ok {
				continue
			}
			for {
				n, dv, ok := d.next()
				if !ok {
					break
				}
				switch n {
				case "cached_tokens":
					u.CacheReadTokens, _ = intOf(dv)
				case "cache_write_tokens":
					u.CacheWriteTokens, _ = intOf(dv)
				}
			}
		}
	}
}

// names remembers the member names of one object, to find one given
// twice: encoding writes the members condense has no field for over the
// modelled ones, so a repeated name would change the body's meaning.
type names struct {
	list []string
	set  map[string]bool // from the 17th name on
}

func (s *names) dup(name string) bool {
	if s.set != nil {
		if s.set[name] {
			return true
		}
		s.set[name] = true
		return false
	}
	for _, n := range s.list {
		if n == name {
			return true
		}
	}
	s.list = append(s.list, name)
	if len(s.list) > 16 {
		s.set = make(map[string]bool, 2*len(s.list))
		for _, n := range s.list {
			s.set[n] = true
		}
	}
	return false
}
