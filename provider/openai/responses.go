package openai

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
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
	return decodeDoc(body, decodeResponsesRequest)
}

func decodeResponsesRequest(doc []byte) (*ResponsesRequest, error) {
	r := &ResponsesRequest{}
	sawInstructions, sawInput := false, false
	err := decodeRequest(doc, &r.Request, &r.RawTools, &r.Extra, "max_output_tokens", decodeRespTool,
		func(name string, val []byte) (bool, error) {
			switch {
			case name == "instructions" && !sawInstructions && kindOf(val) == '"':
				sawInstructions = true
				r.System, _ = str(val)
				return r.System != "", nil
			case name == "input" && !sawInput:
				sawInput = true
				switch kindOf(val) {
				case '"':
					s, _ := str(val)
					r.Messages = []condense.Message{condense.UserText(s)}
				case '[':
					msgs, err := decodeItems(val)
					if err != nil {
						return false, under("input", err)
					}
					r.Messages = msgs
				default:
					return false, errAt("input", "want a string or an array of items")
				}
				return true, nil
			}
			return false, nil
		})
	if err != nil {
		return nil, err
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
	var d items
	for k, iv := range jsonx.Elements(v) {
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
	r := jsonx.Reader{Data: raw}
	v := r.Skip()
	if err := r.Err(); err != nil {
		return nil, &DecodeError{Msg: err.Error()}
	}
	if r.End(); r.Failed() || v[0] != '[' {
		return nil, &DecodeError{Msg: "want an array of items"}
	}
	return decodeItems(v)
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
	if kindOf(v) != '{' {
		return itemHead{}, false
	}
	h := itemHead{vals: make(map[string][]byte, len(want))}
	var seen names
	for name, val := range jsonx.Members(v) {
		if seen.dup(name) && h.dup == "" {
			h.dup = name
		}
		if name == "type" && !h.hasTyp && kindOf(val) == '"' {
			h.typ, _ = str(val)
			h.hasTyp = true
			continue
		}
		if _, dup := h.vals[name]; !dup && slices.Contains(want, name) {
			h.vals[name] = val
			continue
		}
		h.extras = append(h.extras, Field{name, val})
	}
	return h, true
}

// str returns the value of the member name when it is a string.
func (h *itemHead) str(name string) string {
	s, _ := str(h.vals[name])
	return s
}

func decodeItem(d *items, v []byte) error {
	if kindOf(v) != '{' {
		return errAt("", "want an item object")
	}
	typ, hasRole := "", false
	var seen names
	for name, val := range jsonx.Members(v) {
		if seen.dup(name) {
			return errAt(name, "duplicate member")
		}
		switch name {
		case "type":
			var isStr bool
			if typ, isStr = str(val); !isStr {
				return errAt("type", "want a string")
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
		return decodeCallItem(d, v, typ)
	case typ == "function_call_output" || typ == "custom_tool_call_output":
		return decodeOutputItem(d, v, typ)
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

// decodeCallItem reads a function_call or custom_tool_call item.
func decodeCallItem(d *items, v []byte, typ string) error {
	argName := "arguments"
	if typ == "custom_tool_call" {
		argName = "input"
	}
	h, _ := readItem(v, "call_id", "name", argName)
	id := h.str("call_id")
	if id == "" {
		return errAt("call_id", "missing")
	}
	name := h.str("name")
	if name == "" {
		return errAt("name", "missing")
	}
	input, ok := toolInput(h.vals[argName])
	if !ok {
		return errAt(argName, "want a string")
	}
	extras := h.extras
	if typ == "custom_tool_call" {
		extras = withType(typ, extras)
	}
	d.assistant(withFieldsBefore(kindItemFields, extras, condense.ToolCall(id, name, input))...)
	return nil
}

// decodeOutputItem reads a function_call_output or
// custom_tool_call_output item.
func decodeOutputItem(d *items, v []byte, typ string) error {
	h, _ := readItem(v, "call_id", "output")
	id := h.str("call_id")
	if id == "" {
		return errAt("call_id", "missing")
	}
	content, err := decodeContent(h.vals["output"], condense.RoleUser, false, "want a string or an array of parts", decodeRespPart)
	if err != nil {
		return under("output", err)
	}
	extras := h.extras
	if typ == "custom_tool_call_output" {
		extras = withType(typ, extras)
	}
	d.add(condense.Message{Role: condense.RoleTool,
		Parts: withFieldsBefore(kindItemFields, extras, condense.ToolResult(id, false, content...))})
	return nil
}

// reasoningPart returns the thinking part of a reasoning item.
func reasoningPart(v []byte) condense.Part {
	var texts []string
	for name, val := range jsonx.Members(v) {
		if name == "summary" || name == "content" {
			texts = slices.AppendSeq(texts, partTexts(val))
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
		if !jsonx.Valid(b) {
			continue
		}
		for name, val := range jsonx.Members(b) {
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
	r, extras, known := roleOf(role, h.vals["role"], h.extras)
	if !known || r == condense.RoleTool {
		return errAt("role", "unknown role %q", role)
	}
	parts, err := decodeContent(h.vals["content"], r, true, "want a string or an array of parts", decodeRespPart)
	if err != nil {
		return under("content", err)
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

// decodeRespPart appends to dst the parts of one content part of a
// message (or of a function call output, as a user message's).
func decodeRespPart(dst []condense.Part, v []byte, role condense.Role) ([]condense.Part, error) {
	h, isObj := readItem(v, "text", "image_url", "detail")
	if !isObj {
		return nil, errAt("", "want a content part object")
	}
	if h.dup != "" {
		return nil, errAt(h.dup, "duplicate member")
	}
	if !h.hasTyp {
		return nil, errAt("type", "missing")
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
			return nil, errAt("text", "missing")
		}
		s, isStr := str(t)
		if !isStr {
			return nil, errAt("text", "want a string")
		}
		if h.typ != textType(role) {
			extras = withType(h.typ, extras)
		}
		keep("image_url", "detail")
		return withFields(append(dst, condense.Text(s)), kindRespPartFields, extras), nil
	case h.typ == "input_image" && role != condense.RoleAssistant:
		url := h.str("image_url")
		if url == "" {
			return append(dst, condense.ProviderBlock(Provider, v)), nil
		}
		keep("text")
		// "auto" is the default, which encoding writes; an image
		// without a detail comes back with it.
		if d, ok := h.vals["detail"]; ok {
			if s, _ := str(d); s != "auto" {
				extras = append(extras, Field{"detail", d})
			}
		}
		return withFields(append(dst, imageFromURL(url)), kindRespPartFields, extras), nil
	case respContentTypes[h.typ]:
		return append(dst, condense.ProviderBlock(Provider, v)), nil
	}
	return append(dst, wrap(kindRespContent, v)), nil
}

// decodeRespTool reads one entry of "tools" (see toolDecoder).
func decodeRespTool(v []byte) (t condense.Tool, function, plain bool) {
	h, ok := readItem(v, "name", "description", "parameters", "strict")
	if !ok || h.typ != "function" {
		return t, false, false
	}
	t.Name = h.str("name")
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
		t.InputSchema = params
	}
	plain = plain && ok && kindOf(params) == '{'
	strict, ok := h.vals["strict"]
	plain = plain && ok && string(strict) == "false"
	return t, true, plain
}

// respToolWriter writes a function tool, with "strict": false unless
// noStrict.
func respToolWriter(noStrict bool) toolWriter {
	return func(e *enc, t *condense.Tool) {
		e.lit(`{"type":"function","name":`)
		e.functionDef(t)
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
	e := newRequestEnc(nil, &r.Request, r.Extra, r.RawTools)
	e.lit(`{"model":`)
	e.str(r.Model)
	if r.System != "" {
		e.lit(`,"instructions":`)
		e.str(r.System)
	}
	if len(r.Messages) > 0 {
		e.lit(`,"input":[`)
		if err := e.messages(r.Messages, 0, encodeItems); err != nil {
			return nil, err
		}
		e.byte(']')
	}
	return e.endRequest(&r.Request, r.RawTools, r.Extra, "max_output_tokens", decodeRespTool, respToolWriter(noStrict))
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
			e.sep(&n)
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
				e.sep(&n)
				e.raw(p.Raw)
				pending, hasPending, wrote = nil, false, true
			}
		case condense.PartThinking:
			if item, ok := reasoningItem(p); ok {
				e.sep(&n)
				e.raw(item)
				wrote = true
			}
			pending, hasPending = nil, false
		case condense.PartToolCall:
			e.sep(&n)
			writeFunctionCall(e, p, pending)
			pending, hasPending, wrote = nil, false, true
		case condense.PartToolResult:
			e.sep(&n)
			writeFunctionOutput(e, p, pending)
			pending, hasPending, wrote = nil, false, true
		}
		i++
	}
	if hasPending || !wrote && (m.Role == condense.RoleUser || m.Role == condense.RoleSystem) {
		e.sep(&n)
		writeMessageItem(e, role, nil, pending)
	}
	return n, nil
}

// writeMessageItem writes a message item of role holding the content
// parts run.
func writeMessageItem(e *enc, role string, run []condense.Part, fields []Field) {
	o := e.object(fields)
	o.lit("type", `"message"`)
	o.str("role", role)
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
	tt := textType(condense.Role(role))
	for i := range run {
		p := &run[i]
		switch p.Type {
		case condense.PartText:
			e.sep(&k)
			writeTextPart(e, tt, p.Text, fieldsAfter(run, i, kindRespPartFields))
		case condense.PartImage:
			if role == "assistant" {
				continue
			}
			e.sep(&k)
			o := e.object(fieldsAfter(run, i, kindRespPartFields))
			o.lit("type", `"input_image"`)
			if _, w := o.member("image_url", false); w {
				e.imageURL(p)
			}
			o.lit("detail", `"auto"`)
			o.end()
		case condense.PartProvider:
			b, ok := blockOf(p)
			switch {
			case !ok:
			case b.kind == kindRespContent:
				e.sep(&k)
				e.raw(b.value)
			case b.kind == "" && respContentTypes[b.typ]:
				e.sep(&k)
				e.raw(p.Raw)
			}
		}
	}
	e.byte(']')
}

func writeFunctionCall(e *enc, p *condense.Part, fields []Field) {
	argName := "arguments"
	if typeField(fields) == "custom_tool_call" {
		argName = "input"
	}
	o := e.object(fields)
	o.lit("type", `"function_call"`)
	o.str("call_id", p.ID)
	o.str("name", p.Name)
	o.str(argName, InputArguments(p.Input))
	o.end()
}

func writeFunctionOutput(e *enc, p *condense.Part, fields []Field) {
	o := e.object(fields)
	o.lit("type", `"function_call_output"`)
	o.str("call_id", p.CallID)
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
	return decodeDoc(body, decodeResponse)
}

func decodeResponse(doc []byte) (*ResponsesResponse, error) {
	if kindOf(doc) != '{' {
		return nil, errAt("", "want a response object")
	}
	r := &ResponsesResponse{Message: condense.Message{Role: condense.RoleAssistant}}
	calls := false
	for name, val := range jsonx.Members(doc) {
		switch name {
		case "id":
			r.ID, _ = str(val)
		case "model":
			r.Model, _ = str(val)
		case "status":
			r.Status, _ = str(val)
		case "incomplete_details":
			h, _ := readItem(val, "reason")
			r.IncompleteReason = h.str("reason")
		case "error":
			if kindOf(val) == '{' {
				r.Error = responseError(val)
			}
		case "usage":
			r.Usage = decodeUsage(val, "input_tokens", "output_tokens", "input_tokens_details")
		case "output":
			for _, iv := range jsonx.Elements(val) {
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
	return &ResponseError{Code: h.str("code"), Message: h.str("message")}
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
		for _, pv := range jsonx.Elements(h.vals["content"]) {
			ph, _ := readItem(pv, "text", "refusal")
			switch ph.typ {
			case "output_text", "text":
				parts = append(parts, condense.Text(ph.str("text")))
			case "refusal":
				s := ph.str("refusal")
				refusal += s
				parts = append(parts, condense.Text(s))
			}
		}
		return parts, refusal, false
	case "function_call", "custom_tool_call":
		arg := "arguments"
		if h.typ == "custom_tool_call" {
			arg = "input"
		}
		a := h.vals[arg]
		input, ok := toolInput(a)
		switch {
		case kindOf(a) == '{':
			input = a // unlike a request's, taken as it is
		case !ok:
			input = ArgumentsInput("")
		}
		var extras []Field
		if h.typ == "custom_tool_call" {
			extras = withType(h.typ, nil)
		}
		return withFieldsBefore(kindItemFields, extras, condense.ToolCall(h.str("call_id"), h.str("name"), input)), "", true
	case "reasoning":
		return []condense.Part{reasoningPart(v)}, "", false
	}
	return []condense.Part{condense.ProviderBlock(Provider, v)}, "", false
}

// OutputItemParts returns the parts an output item (of a response or of a
// stream's output_item events) adds to ResponsesResponse.Message. The
// parts may share item's memory.
func OutputItemParts(item []byte) []condense.Part {
	if !jsonx.Valid(item) {
		return nil
	}
	ps, _, _ := outputItem(item)
	return ps
}
