package anthropic

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// Field is one member of a JSON object that the codec does not model: its
// name and its value, byte for byte.
type Field struct {
	Name  string
	Value json.RawMessage
}

// SystemBlock is one text block of a system prompt sent as an array of
// blocks.
type SystemBlock struct {
	Text string
	// Fields are the block's members other than "type" and "text"
	// (cache_control, citations, …), in order, values byte for byte.
	Fields []Field
}

// Request is a Messages API request body: the provider-neutral request and
// what the body holds besides it, so that decoding a body and encoding it
// again loses nothing.
//
// Decoding normalizes what the API itself treats as the same: consecutive
// messages of one role become one turn, and a user turn holding tool_result
// blocks becomes a tool message (the results, each with its fields part)
// followed by a user message (the other blocks), because condense keeps tool
// results in tool messages. Encoding undoes that: tool, system and user
// messages travel as user turns, consecutive turns of one role merge, and
// within a user turn the tool results come first, as the API requires.
//
// A message object's members other than role and content travel in a
// message fields part (see MessageFieldsPart) at the front of its parts.
// Encoding writes each such message as a wire message of its own again,
// with its members, so consecutive messages of one role that decoding
// merged come apart as they came; a message whose content held tool results
// keeps its members on the wire message of its results, which comes first
// in its turn.
//
// Decoding also remembers which message contents and tool result contents
// were bare strings rather than arrays of blocks (by text, and by call id),
// and which tool results said "is_error": false; encoding writes them the
// same way again while they still say the same. Apart from that the codec
// writes what it models in a fixed order without insignificant whitespace,
// and everything else byte for byte: decoding a body and encoding it gives
// the same JSON value, but for what means nothing to the API: messages
// without content, tool result content that is [] or null, an empty or null
// model, system prompt, tool list or tool description, and max_tokens 0
// are left out; a null tool input is {}; string escapes are written the
// codec's way.
//
// A zero Request with a condense.Request in it is ready to encode; it sends
// contents as arrays of blocks and the system prompt as a string.
type Request struct {
	condense.Request

	// SystemBlocks is the system prompt as the body sent it when it was an
	// array of text blocks; Request.System is then their texts joined by
	// blank lines. Encoding writes these blocks, fields included, while
	// their joined texts still equal Request.System, and Request.System as
	// a plain string otherwise. Set it to send a system prompt as blocks
	// (with a cache_control, say).
	SystemBlocks []SystemBlock

	// ToolFields holds, by tool name, the members of a tool definition other
	// than name, description and input_schema: cache_control, the type and
	// settings of a server tool ({"type":"web_search_20250305","max_uses":5}),
	// anything new. Encoding adds them to the tool of that name.
	ToolFields map[string][]Field

	// Extra holds the top-level members the codec does not model
	// (temperature, metadata, tool_choice, stop_sequences, stream, anything
	// new), in their order, values byte for byte; encoding writes them after
	// the members it models. "thinking" is kept here too, as given:
	// Request.ThinkingBudget is read from it, and encoding writes it back
	// while ThinkingBudget still says the same ({"type":"enabled",
	// "budget_tokens":N} for N, anything else for 0), and
	// {"type":"enabled","budget_tokens":ThinkingBudget} otherwise.
	Extra []Field

	forms *forms
}

// forms remembers the contents a decoded body sent as bare strings.
type forms struct {
	// texts: message contents that were a bare string, by text.
	texts map[string]struct{}
	// results: tool results whose content was a bare string, by call id.
	results map[string]struct{}
	// notErrors: tool results that said "is_error": false, by call id.
	notErrors map[string]struct{}
}

func (f *forms) text(s string) bool {
	if f == nil {
		return false
	}
	_, ok := f.texts[s]
	return ok
}

func (f *forms) result(id string) bool {
	if f == nil {
		return false
	}
	_, ok := f.results[id]
	return ok
}

func (f *forms) notError(id string) bool {
	if f == nil {
		return false
	}
	_, ok := f.notErrors[id]
	return ok
}

func (f *forms) add(m *map[string]struct{}, key string) {
	if *m == nil {
		*m = map[string]struct{}{}
	}
	(*m)[key] = struct{}{}
}

// Field returns the value of the top-level member name of Extra, or nil.
func (r *Request) Field(name string) json.RawMessage {
	for i := len(r.Extra) - 1; i >= 0; i-- {
		if r.Extra[i].Name == name {
			return r.Extra[i].Value
		}
	}
	return nil
}

// SetField sets the top-level member name of Extra to value, replacing an
// existing one in place or appending it. The slice is copied, so a request
// sharing Extra with r is not changed.
func (r *Request) SetField(name string, value json.RawMessage) {
	extra := make([]Field, 0, len(r.Extra)+1)
	done := false
	for _, f := range r.Extra {
		if f.Name == name {
			if done {
				continue
			}
			f.Value, done = value, true
		}
		extra = append(extra, f)
	}
	if !done {
		extra = append(extra, Field{Name: name, Value: value})
	}
	r.Extra = extra
}

// FieldsPart returns the part that carries fields for the block before it
// in the same message (or tool result content): an anthropic provider part
// whose raw value is an object of the fields, with no "type" member, such
// as {"cache_control":{"type":"ephemeral"}}. Decoding puts one after a text
// or image block holding cache_control, and after a tool_use or tool_result
// block holding members the codec does not model; encoding adds its fields
// to the block written just before it. Append one to mark a cache
// breakpoint:
//
//	m.Parts = append(m.Parts, anthropic.FieldsPart(anthropic.Field{
//		Name: "cache_control", Value: json.RawMessage(`{"type":"ephemeral"}`)}))
func FieldsPart(fields ...Field) condense.Part {
	n := 2
	for _, f := range fields {
		n += len(f.Name) + len(f.Value) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, '{')
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, f.Name)
		b = append(b, ':')
		b = append(b, f.Value...)
	}
	b = append(b, '}')
	return condense.ProviderBlock(Provider, b)
}

// PartFields returns the fields p carries, in order, when p is a fields part
// (see FieldsPart): an anthropic provider part whose raw value is a JSON
// object without a "type" member, other than a message fields part (see
// MessageFieldsPart).
func PartFields(p *condense.Part) ([]Field, bool) {
	if !isFieldsPart(p) {
		return nil, false
	}
	r := jsonx.Reader{Data: p.Raw}
	r.Open('{')
	var fields []Field
	for first := true; r.More('}', first); first = false {
		k := r.Key()
		fields = append(fields, Field{Name: string(k), Value: r.Skip()})
	}
	return fields, true
}

// isFieldsPart is PartFields without the allocation.
func isFieldsPart(p *condense.Part) bool {
	fields, message := partObject(p)
	return fields && !message
}

// messageFieldsKind is the "condense" member of a message fields part.
const messageFieldsKind = "message_fields"

// MessageFieldsPart returns the part that carries the members of a message
// object other than role and content (an "id", say, or members the API adds
// later), so that a request body's messages go back as they came: an
// anthropic provider part {"condense":"message_fields","value":{<the
// fields>}}. Decoding puts one before the parts of a message holding such
// members; when the message is a user message split into a tool message and
// a user message, it goes with the tool message if the message held tool
// results. Encoding starts a new wire message at it (one that merges with
// no message before it) and writes its fields into that message after
// "content"; inside a tool result's content it is left out.
//
// Readers that want only the content leave such parts out (see
// MessageFields).
func MessageFieldsPart(fields ...Field) condense.Part {
	n := 40
	for _, f := range fields {
		n += len(f.Name) + len(f.Value) + 4
	}
	b := make([]byte, 0, n)
	b = append(b, `{"condense":"`+messageFieldsKind+`","value":{`...)
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonx.AppendString(b, f.Name)
		b = append(b, ':')
		b = append(b, f.Value...)
	}
	b = append(b, "}}"...)
	return condense.ProviderBlock(Provider, b)
}

// MessageFields returns the fields p carries, in order, when p is a
// message fields part (see MessageFieldsPart).
func MessageFields(p *condense.Part) ([]Field, bool) {
	if _, message := partObject(p); !message {
		return nil, false
	}
	r := jsonx.Reader{Data: p.Raw}
	r.Open('{')
	var value []byte
	for first := true; r.More('}', first); first = false {
		if k := r.Key(); string(k) == "value" {
			value = r.Skip()
		} else {
			r.Skip()
		}
	}
	r = jsonx.Reader{Data: value}
	r.Open('{')
	var fields []Field
	for first := true; r.More('}', first); first = false {
		k := r.Key()
		fields = append(fields, Field{Name: string(k), Value: r.Skip()})
	}
	return fields, true
}

// isMessageFieldsPart is MessageFields without the allocation.
func isMessageFieldsPart(p *condense.Part) bool {
	_, message := partObject(p)
	return message
}

// partObject reports whether p is an anthropic provider part holding a
// valid JSON object without a "type" member, and whether that object is a
// message fields part: exactly the members "condense", which is
// "message_fields", and "value", an object.
func partObject(p *condense.Part) (typeless, message bool) {
	if p.Type != condense.PartProvider || p.Provider != Provider {
		return false, false
	}
	r := jsonx.Reader{Data: p.Raw}
	if !r.Open('{') {
		return false, false
	}
	n, kind, valueObject := 0, false, false
	for first := true; r.More('}', first); first = false {
		n++
		switch k := r.Key(); string(k) {
		case "type":
			return false, false
		case "condense":
			kind = r.Kind() == '"' && string(r.Skip()) == `"`+messageFieldsKind+`"`
			continue
		case "value":
			valueObject = r.Kind() == '{'
		}
		r.Skip()
	}
	r.End()
	if r.Failed() {
		return false, false
	}
	return true, n == 2 && kind && valueObject
}

// DecodeError is a malformed body. It unwraps to condense.ErrMalformed.
type DecodeError struct {
	// Path is the JSON path of the problem ("messages[3].content[1].id"),
	// "" when the whole body is at fault.
	Path string
	// Offset is the byte offset in the input where the problem was found.
	Offset int
	// Problem says what is wrong ("missing", "want a string").
	Problem string
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return "anthropic: malformed input: " + e.Problem
	}
	return "anthropic: " + e.Path + ": malformed input: " + e.Problem
}

// Unwrap returns condense.ErrMalformed.
func (e *DecodeError) Unwrap() error { return condense.ErrMalformed }

// decoder walks one body. Its path is the JSON path of what it is reading,
// kept as bytes so that building it costs nothing until an error needs it.
type decoder struct {
	r    jsonx.Reader
	path []byte
	err  *DecodeError
	// forms, when set, records contents that were bare strings.
	forms *forms
	// response is set while decoding an answer: a text block keeps its text
	// even when it has members the codec does not model.
	response bool
}

func newDecoder(data []byte) *decoder { return &decoder{r: jsonx.Reader{Data: data}} }

// fail records the first problem, at the current path plus suffix.
func (d *decoder) fail(suffix string, off int, problem string, args ...any) {
	if d.err != nil {
		return
	}
	if len(args) > 0 {
		problem = fmt.Sprintf(problem, args...)
	}
	p := string(d.path)
	if suffix != "" {
		if p != "" && suffix[0] != '[' {
			p += "."
		}
		p += suffix
	}
	d.err = &DecodeError{Path: p, Offset: off, Problem: problem}
	d.r.Fail(off, "%s", problem)
}

// failed turns a syntax error of the reader into a DecodeError at the
// current path and reports whether anything failed.
func (d *decoder) failed() bool {
	if d.err != nil {
		return true
	}
	if err := d.r.Err(); err != nil {
		se := err.(*jsonx.SyntaxError)
		d.err = &DecodeError{Path: string(d.path), Offset: se.Offset, Problem: se.Msg}
		return true
	}
	return false
}

func (d *decoder) push(key string) int {
	n := len(d.path)
	if n > 0 {
		d.path = append(d.path, '.')
	}
	d.path = append(d.path, key...)
	return n
}

func (d *decoder) pushIndex(i int) int {
	n := len(d.path)
	d.path = append(d.path, '[')
	d.path = strconv.AppendInt(d.path, int64(i), 10)
	d.path = append(d.path, ']')
	return n
}

// pop returns to the path before a push; a syntax error found meanwhile is
// reported at the deeper path first.
func (d *decoder) pop(n int) {
	d.failed()
	d.path = d.path[:n]
}

// member is one member of an object read ahead: its key and the exact
// bytes of its value, and for the long strings of content blocks the
// decoded string too.
type member struct {
	key     []byte
	val     []byte
	off     int
	s       string
	decoded bool
}

// members reads an object into ms (reused). The string values of text,
// content, thinking and data, which hold nearly all of a body's bytes, are
// decoded as they are read, in the same pass that validates them.
func (d *decoder) members(ms []member) []member {
	ms = ms[:0]
	if !d.r.Open('{') {
		return ms
	}
	for first := true; d.r.More('}', first); first = false {
		k := d.r.Key()
		if d.r.Kind() == '"' {
			switch string(k) {
			case "text", "content", "thinking", "data":
				off := d.r.Pos
				s := d.r.String()
				ms = append(ms, member{key: k, val: d.r.Data[off:d.r.Pos], off: off, s: s, decoded: true})
				continue
			}
		}
		off := d.r.Pos
		v := d.r.Skip()
		for off < len(d.r.Data) && isSpace(d.r.Data[off]) {
			off++
		}
		ms = append(ms, member{key: k, val: v, off: off})
	}
	return ms
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func find(ms []member, key string) *member {
	var found *member
	for i := range ms {
		if string(ms[i].key) == key {
			found = &ms[i] // the last one wins, as in encoding/json
		}
	}
	return found
}

// kind is the first byte of a value read ahead.
func (m *member) kind() byte {
	if m == nil || len(m.val) == 0 {
		return 0
	}
	return m.val[0]
}

// str decodes a string value read ahead; ok is false when it is not one.
func (m *member) str() (string, bool) {
	if m.kind() != '"' {
		return "", false
	}
	if m.decoded {
		return m.s, true
	}
	return jsonx.DecodeString(m.val[1 : len(m.val)-1]), true
}

// isNull reports whether a value read ahead is absent or null.
func (m *member) isNull() bool { return m == nil || m.kind() == 'n' }

// sub returns a decoder over a value read ahead, at the same path, whose
// offsets are those of the whole input.
func (d *decoder) sub(m *member) *decoder {
	s := &decoder{r: jsonx.Reader{Data: d.r.Data[:m.off+len(m.val)], Pos: m.off}, path: d.path, forms: d.forms, response: d.response}
	return s
}

// adopt takes the error of a sub-decoder.
func (d *decoder) adopt(s *decoder) bool {
	if s.failed() {
		if d.err == nil {
			d.err = s.err
			d.r.Fail(s.err.Offset, "%s", s.err.Problem)
		}
		return true
	}
	return false
}

func raw(b []byte) json.RawMessage { return append(json.RawMessage(nil), b...) }

func opaque(b []byte) condense.Part { return condense.ProviderBlock(Provider, raw(b)) }
