package openai

import (
	"encoding/json"
	"slices"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

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
func DecodeChatRequest(body []byte) (*ChatRequest, error) { return decodeDoc(body, decodeChatRequest) }

func decodeChatRequest(doc []byte) (*ChatRequest, error) {
	r := &ChatRequest{}
	sawMessages, sawMaxTokens := false, false
	mtAt, mtVal := -1, []byte(nil)
	err := decodeRequest(doc, &r.Request, &r.RawTools, &r.Extra, "max_completion_tokens", decodeChatTool,
		func(name string, val []byte) (bool, error) {
			switch {
			case name == "messages" && !sawMessages:
				sawMessages = true
				msgs, sys, err := decodeChatMessages(val)
				if err != nil {
					return false, under("messages", err)
				}
				r.Messages, r.System = msgs, sys
				return true, nil
			case name == "max_tokens" && !sawMaxTokens:
				if n, ok := intOf(val); ok && n > 0 {
					sawMaxTokens = true
					mtAt, mtVal = len(r.Extra), val
					return true, nil
				}
			}
			return false, nil
		})
	if err != nil {
		return nil, err
	}
	if !sawMessages {
		return nil, errAt("messages", "missing")
	}
	if sawMaxTokens {
		if r.MaxOutputTokens > 0 {
			// max_completion_tokens is the cap; max_tokens stays in its place.
			r.Extra = slices.Insert(r.Extra, mtAt, Field{"max_tokens", mtVal})
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
	if kindOf(v) != '[' {
		return nil, "", errAt("", "want an array of messages")
	}
	var msgs []condense.Message
	system := ""
	for i, mv := range jsonx.Elements(v) {
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
	v, err := checked(raw)
	if err != nil {
		return condense.Message{}, err
	}
	return decodeChatMessage(v)
}

func decodeChatMessage(v []byte) (condense.Message, error) {
	if kindOf(v) != '{' {
		return condense.Message{}, errAt("", "want a message object")
	}
	var (
		role, callID       string
		roleRaw, callIDRaw []byte
		content, calls     []byte
		hasRole, hasCallID bool
		extras             []Field
		seen               names
	)
	for name, val := range jsonx.Members(v) {
		switch {
		case seen.dup(name):
			return condense.Message{}, errAt(name, "duplicate member")
		case name == "role":
			var isStr bool
			if role, isStr = str(val); !isStr {
				return condense.Message{}, errAt("role", "want a string")
			}
			hasRole, roleRaw = true, val
		case name == "content":
			content = val
		case name == "tool_calls":
			calls = val
		case name == "tool_call_id" && kindOf(val) == '"':
			hasCallID, callIDRaw = true, val
			callID, _ = str(val)
		default:
			extras = append(extras, Field{name, val})
		}
	}
	var m condense.Message
	var known bool
	if m.Role, extras, known = roleOf(role, roleRaw, extras); !known {
		if !hasRole {
			return condense.Message{}, errAt("role", "missing")
		}
		return condense.Message{Role: condense.RoleUser, Parts: []condense.Part{wrap(kindChatMessage, v)}}, nil
	}
	// Members the role has no use for are kept as they are.
	if calls != nil && (m.Role != condense.RoleAssistant || kindOf(calls) != '[' || emptyArray(calls)) {
		extras = append(extras, Field{"tool_calls", calls})
		calls = nil
	}
	if hasCallID && m.Role != condense.RoleTool {
		extras = append(extras, Field{"tool_call_id", callIDRaw})
		hasCallID = false
	}
	parts, err := decodeContent(content, m.Role, true, "want a string, null or an array of parts", decodeChatPart)
	if err != nil {
		return m, under("content", err)
	}
	m.Parts = withFields(m.Parts, kindChatMessageFields, extras)
	if m.Role == condense.RoleTool {
		if !hasCallID {
			return m, errAt("tool_call_id", "missing")
		}
		m.Parts = append(m.Parts, condense.ToolResult(callID, false, parts...))
		return m, nil
	}
	m.Parts = append(m.Parts, parts...)
	for j, cv := range jsonx.Elements(calls) {
		if m.Parts, err = decodeChatToolCall(m.Parts, cv); err != nil {
			return m, under(idx("tool_calls", j), err)
		}
	}
	return m, nil
}

func emptyArray(v []byte) bool {
	for range jsonx.Elements(v) {
		return false
	}
	return true
}

// decodeChatPart appends to dst the parts of one content part: the part,
// and its part fields block when it has members condense has no field
// for.
func decodeChatPart(dst []condense.Part, v []byte, role condense.Role) ([]condense.Part, error) {
	if kindOf(v) != '{' {
		return nil, errAt("", "want a content part object")
	}
	var (
		typ         string
		text, image []byte
		extras      []Field
		seen        names
	)
	for name, val := range jsonx.Members(v) {
		if seen.dup(name) {
			return nil, errAt(name, "duplicate member")
		}
		switch name {
		case "type":
			var isStr bool
			if typ, isStr = str(val); !isStr {
				return nil, errAt("type", "want a string")
			}
		case "text":
			text = val
		case "image_url":
			image = val
		default:
			extras = append(extras, Field{name, val})
		}
	}
	switch typ {
	case "":
		return nil, errAt("type", "missing")
	case "text":
		if text == nil {
			return nil, errAt("text", "missing")
		}
		s, isStr := str(text)
		if !isStr {
			return nil, errAt("text", "want a string")
		}
		if image != nil {
			extras = append(extras, Field{"image_url", image})
		}
		return withFields(append(dst, condense.Text(s)), kindChatPartFields, extras), nil
	case "image_url":
		if role != condense.RoleUser || kindOf(image) != '{' {
			break
		}
		url := ""
		var nested []Field
		var seen names
		for name, val := range jsonx.Members(image) {
			if seen.dup(name) {
				return nil, errAt("image_url."+name, "duplicate member")
			}
			if name == "url" {
				if s, isStr := str(val); isStr {
					url = s
					continue
				}
			}
			nested = append(nested, Field{name, val})
		}
		if url == "" {
			break
		}
		if text != nil {
			extras = append(extras, Field{"text", text})
		}
		if len(nested) > 0 {
			extras = append(extras, Field{"image_url", objectBytes(nested)})
		}
		return withFields(append(dst, imageFromURL(url)), kindChatPartFields, extras), nil
	default:
		if responsesItemTypes[typ] {
			return nil, errAt("type", "%q is a Responses API item, not a chat content part", typ)
		}
	}
	return append(dst, condense.ProviderBlock(Provider, v)), nil
}

// decodeChatToolCall appends to dst the parts of one entry of an
// assistant message's tool_calls.
func decodeChatToolCall(dst []condense.Part, v []byte) ([]condense.Part, error) {
	if kindOf(v) != '{' {
		return nil, errAt("", "want a tool call object")
	}
	var (
		typ, id    string
		fn, custom []byte
		extras     []Field
		seen       names
	)
	for name, val := range jsonx.Members(v) {
		switch {
		case seen.dup(name):
			return nil, errAt(name, "duplicate member")
		case name == "type" && kindOf(val) == '"':
			typ, _ = str(val)
		case name == "id" && kindOf(val) == '"':
			id, _ = str(val)
		case name == "function":
			fn = val
		case name == "custom":
			custom = val
		default:
			extras = append(extras, Field{name, val})
		}
	}
	member, argName := "function", "arguments"
	switch typ {
	case "", "function":
		// A call without a type is a function call, written with its
		// type.
		if custom != nil {
			extras = append(extras, Field{"custom", custom})
		}
	case "custom":
		if fn != nil {
			extras = append(extras, Field{"function", fn})
		}
		extras = withType("custom", extras)
		fn = custom
		member, argName = "custom", "input"
	default:
		return append(dst, wrap(kindChatToolCall, v)), nil
	}
	if id == "" {
		return nil, errAt("id", "missing")
	}
	if fn == nil {
		return nil, errAt(member, "missing")
	}
	if kindOf(fn) != '{' {
		return nil, errAt(member, "want an object")
	}
	name := ""
	var args []byte
	var nested []Field
	var fseen names
	for n, val := range jsonx.Members(fn) {
		switch {
		case fseen.dup(n):
			return nil, errAt(member+"."+n, "duplicate member")
		case n == "name" && kindOf(val) == '"':
			name, _ = str(val)
		case n == argName:
			args = val
		default:
			nested = append(nested, Field{n, val})
		}
	}
	if name == "" {
		return nil, errAt(member+".name", "missing")
	}
	input, ok := toolInput(args)
	if !ok {
		return nil, errAt(member+"."+argName, "want a string")
	}
	if len(nested) > 0 {
		extras = append(extras, Field{member, objectBytes(nested)})
	}
	return withFields(append(dst, condense.ToolCall(id, name, input)), kindChatPartFields, extras), nil
}

// EncodeChatRequest writes r as a Chat Completions request body: "model",
// "messages", "tools" when there are tools, the output cap when it is set,
// then r.Extra. Thinking, images of assistant messages and tool results
// (written as the text "[image]"), is_error, and provider parts of other
// providers or of the Responses API have no place in Chat Completions and
// are left out.
func EncodeChatRequest(r *ChatRequest) ([]byte, error) {
	return AppendChatRequest(nil, r)
}

// AppendChatRequest appends the body EncodeChatRequest writes to dst and
// returns the extended slice, so that a caller encoding many requests can
// reuse one buffer.
func AppendChatRequest(dst []byte, r *ChatRequest) ([]byte, error) {
	e := newRequestEnc(dst, &r.Request, r.Extra, r.RawTools)
	e.lit(`{"model":`)
	e.str(r.Model)
	e.lit(`,"messages":[`)
	n := 0
	if r.System != "" {
		e.sep(&n)
		e.lit(`{"role":"system","content":`)
		e.str(r.System)
		e.byte('}')
	}
	if err := e.messages(r.Messages, n, encodeChatMessage); err != nil {
		return nil, err
	}
	e.byte(']')
	max := "max_completion_tokens"
	if r.LegacyMaxTokens {
		max = "max_tokens"
	}
	return e.endRequest(&r.Request, r.RawTools, r.Extra, max, decodeChatTool, writeChatTool)
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
	switch m.Role {
	case condense.RoleSystem, condense.RoleUser, condense.RoleAssistant:
		if len(whole) > 0 && !hasChatContent(m) {
			break
		}
		e.sep(&n)
		o := e.object(extras)
		o.str("role", string(m.Role))
		// An assistant message that only calls tools has no content
		// member, as the SDK writes it.
		calls := m.Role == condense.RoleAssistant && (m.HasToolCalls() || hasWrappedCall(m.Parts))
		if count, _ := chatContentCount(m.Parts, m.Role); count > 0 || !calls {
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
	case condense.RoleTool:
		for i := range m.Parts {
			p := &m.Parts[i]
			if p.Type != condense.PartToolResult {
				continue
			}
			e.sep(&n)
			o := e.object(extras)
			o.lit("role", `"tool"`)
			o.str("tool_call_id", p.CallID)
			if _, w := o.member("content", false); w {
				writeChatContent(e, p.Content, condense.RoleTool)
			}
			o.end()
		}
	default:
		return n, errAt("role", "unknown role %q", m.Role)
	}
	for _, w := range whole {
		e.sep(&n)
		e.raw(w)
	}
	return n, nil
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

// chatText returns the text that a content part of a message of role is
// written as when it is written as a text part: a text part's text, and in
// a tool result's content (role RoleTool) an image's "[image]".
func chatText(p *condense.Part, role condense.Role) (string, bool) {
	switch {
	case p.Type == condense.PartText:
		return p.Text, true
	case p.Type == condense.PartImage && role == condense.RoleTool:
		return "[image]", true
	}
	return "", false
}

// chatContentCount counts the content parts of a message of role, a part
// with a part fields block counting twice, and returns the index of the
// last part written as a text part.
func chatContentCount(parts []condense.Part, role condense.Role) (count, single int) {
	single = -1
	for i := range parts {
		p := &parts[i]
		if _, ok := chatText(p, role); ok {
			count++
			single = i
			if fieldsAfter(parts, i, kindChatPartFields) != nil {
				count++
			}
			continue
		}
		switch p.Type {
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

// writeChatContent writes the content of a message of role (RoleTool for
// a tool result's content): "" for none, a string for one plain text part
// that is not empty (an empty string reads as no content), an array
// otherwise.
func writeChatContent(e *enc, parts []condense.Part, role condense.Role) {
	count, single := chatContentCount(parts, role)
	if count == 0 {
		e.lit(`""`)
		return
	}
	if count == 1 {
		if s, _ := chatText(&parts[single], role); s != "" {
			e.str(s)
			return
		}
	}
	e.byte('[')
	k := 0
	for i := range parts {
		p := &parts[i]
		if s, ok := chatText(p, role); ok {
			e.sep(&k)
			writeTextPart(e, "text", s, fieldsAfter(parts, i, kindChatPartFields))
			continue
		}
		switch p.Type {
		case condense.PartImage:
			if role != condense.RoleAssistant {
				e.sep(&k)
				writeChatImage(e, p, fieldsAfter(parts, i, kindChatPartFields))
			}
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && chatContentBlock(b) {
				e.sep(&k)
				e.raw(p.Raw)
			}
		}
	}
	e.byte(']')
}

func writeChatImage(e *enc, p *condense.Part, extras []Field) {
	o := e.object(extras)
	o.lit("type", `"image_url"`)
	if nested, w := o.member("image_url", true); w {
		io := e.object(nested)
		if _, w := io.member("url", false); w {
			e.imageURL(p)
		}
		io.end()
	}
	o.end()
}

// writeChatToolCalls writes an assistant message's tool_calls.
func writeChatToolCalls(e *enc, parts []condense.Part) {
	e.byte('[')
	k := 0
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartToolCall:
			e.sep(&k)
			writeChatToolCall(e, p, fieldsAfter(parts, i, kindChatPartFields))
		case condense.PartProvider:
			if b, ok := blockOf(p); ok && b.kind == kindChatToolCall {
				e.sep(&k)
				e.raw(b.value)
			}
		}
	}
	e.byte(']')
}

func writeChatToolCall(e *enc, p *condense.Part, extras []Field) {
	member, argName := "function", "arguments"
	if typeField(extras) == "custom" {
		member, argName = "custom", "input"
	}
	o := e.object(extras)
	o.str("id", p.ID)
	o.str("type", member)
	if nested, w := o.member(member, true); w {
		fo := e.object(nested)
		fo.str("name", p.Name)
		fo.str(argName, InputArguments(p.Input))
		fo.end()
	}
	o.end()
}

// decodeChatTool reads one entry of "tools" (see toolDecoder).
func decodeChatTool(v []byte) (t condense.Tool, function, plain bool) {
	var fn []byte
	typ, n := "", 0
	for name, val := range jsonx.Members(v) {
		n++
		switch name {
		case "type":
			typ, _ = str(val)
		case "function":
			fn = val
		}
	}
	if typ != "function" {
		return t, false, false
	}
	t, function, plain = decodeFunctionDef(fn)
	return t, function, plain && n == 2
}

// decodeFunctionDef reads {"name","description","parameters"}, the
// function a chat function tool nests.
func decodeFunctionDef(v []byte) (t condense.Tool, ok, plain bool) {
	if kindOf(v) != '{' {
		return t, false, false
	}
	plain = true
	hasName, hasParams := false, false
	for name, val := range jsonx.Members(v) {
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
			t.InputSchema = val
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

func writeChatTool(e *enc, t *condense.Tool) {
	e.lit(`{"type":"function","function":{"name":`)
	e.functionDef(t)
	e.lit("}}")
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
	return decodeDoc(body, decodeChatResponse)
}

func decodeChatResponse(doc []byte) (*ChatResponse, error) {
	r := &ChatResponse{Message: condense.Message{Role: condense.RoleAssistant}}
	for name, val := range jsonx.Members(doc) {
		switch name {
		case "id":
			r.ID, _ = str(val)
		case "model":
			r.Model, _ = str(val)
		case "usage":
			r.Usage = chatUsage(val)
		case "choices":
			for k, cv := range jsonx.Elements(val) {
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
	if kindOf(v) != '{' {
		return errAt("", "want a choice object")
	}
	for name, val := range jsonx.Members(v) {
		switch name {
		case "finish_reason":
			r.FinishReason, _ = str(val)
		case "message":
			if err := decodeAnswerMessage(val, r); err != nil {
				return under("message", err)
			}
		}
	}
	return nil
}

// decodeAnswerMessage reads the message of a choice.
func decodeAnswerMessage(v []byte, r *ChatResponse) error {
	var calls []condense.Part
	for name, val := range jsonx.Members(v) {
		switch name {
		case "content":
			if s, _ := str(val); s != "" {
				r.Message.Parts = append(r.Message.Parts, condense.Text(s))
			}
			for s := range partTexts(val) {
				r.Message.Parts = append(r.Message.Parts, condense.Text(s))
			}
		case "refusal":
			if s, _ := str(val); s != "" {
				r.Refusal = s
				r.Message.Parts = append(r.Message.Parts, condense.Text(s))
			}
		case "tool_calls":
			for k, cv := range jsonx.Elements(val) {
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
	ps, err := decodeChatToolCall(nil, v)
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
	return decodeUsage(v, "prompt_tokens", "completion_tokens", "prompt_tokens_details")
}
