package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// DecodeRequest decodes a Messages API request body (a POST /v1/messages or
// /v1/messages/count_tokens body) into a Request. See Request for what is
// normalized and what is kept; content blocks become parts as DecodeContent
// says. A malformed body is a *DecodeError naming the JSON path of the
// problem; it unwraps to condense.ErrMalformed. body is not retained.
func DecodeRequest(body []byte) (*Request, error) {
	d := newDecoder(body)
	req := &Request{forms: &forms{}}
	d.forms = req.forms
	var turns []wireTurn
	d.request(req, func(i int) {
		role, parts, bare, fields := d.message()
		if len(parts) == 0 {
			return // an empty message is no turn
		}
		n := len(turns)
		switch {
		case n == 0 || turns[n-1].role != role:
			if n > 0 {
				turns[n-1].endSegment()
			}
			turns = append(turns, wireTurn{role: role})
			n++
			turns[n-1].startSegment(bare, parts[0].Text, fields == nil)
		case fields != nil:
			turns[n-1].endSegment()
			turns[n-1].startSegment(bare, parts[0].Text, false)
		default:
			turns[n-1].segBare = false // two wire messages in one segment
		}
		t := &turns[n-1]
		if fields != nil {
			t.parts = append(t.parts, MessageFieldsPart(fields...))
		}
		t.parts = append(t.parts, parts...)
	})
	if d.failed() {
		return nil, d.err
	}
	if n := len(turns); n > 0 {
		turns[n-1].endSegment()
	}
	req.Messages = make([]condense.Message, 0, len(turns)+len(turns)/2)
	for i := range turns {
		t := &turns[i]
		results := false
		if t.role == condense.RoleAssistant {
			req.Messages = append(req.Messages, condense.Message{Role: t.role, Parts: t.parts})
		} else {
			for _, m := range splitResults(t.parts) {
				if len(m.Parts) > 0 {
					req.Messages = append(req.Messages, m)
					results = results || m.Role == condense.RoleTool
				}
			}
		}
		for k, text := range t.bare {
			// A leading segment without message fields goes out in the
			// wire message of the turn's last tool results, if it has any.
			if k == 0 && t.lead && results {
				continue
			}
			req.forms.add(&req.forms.texts, text)
		}
	}
	return req, nil
}

// wireTurn gathers the wire messages of one role in a row while a body is
// decoded. Its segments are what encoding writes as one wire message: a
// message with message fields starts one, and a message without joins the
// one before it (the turn's first message starts one either way).
type wireTurn struct {
	role  condense.Role
	parts []condense.Part
	// bare holds the texts of the segments that are one message whose
	// content was a bare string, which encoding writes the same way
	// again; lead says the first of them is the turn's first segment and
	// has no message fields.
	bare []string
	lead bool
	// The open segment: whether it is so far one message whose content
	// was a bare string, its text, and whether it leads the turn without
	// message fields.
	segBare bool
	segText string
	segLead bool
}

func (t *wireTurn) startSegment(bare bool, text string, lead bool) {
	t.segBare, t.segText, t.segLead = bare, text, lead
}

func (t *wireTurn) endSegment() {
	if t.segBare {
		t.lead = t.lead || t.segLead && len(t.bare) == 0
		t.bare = append(t.bare, t.segText)
	}
	t.segBare = false
}

// DecodeHead decodes everything in body but the messages, which it returns
// undecoded, in order (slices of body), for readers that decode them one at
// a time with DecodeMessage, say to skip a malformed one or to tell where a
// message came from. The Request's Messages are nil.
func DecodeHead(body []byte) (*Request, []json.RawMessage, error) {
	d := newDecoder(body)
	req := &Request{}
	var msgs []json.RawMessage
	d.request(req, func(int) { msgs = append(msgs, d.r.Skip()) })
	if d.failed() {
		return nil, nil, d.err
	}
	return req, msgs, nil
}

// DecodeMessage decodes one message object of a request body,
// {"role":…,"content":…}, into condense messages: an assistant message, or
// for a user message holding tool_result blocks a tool message with the
// results followed by a user message with the rest (either left out when
// empty). Content blocks become parts as DecodeContent says. The object's
// other members (an "id", say) lead the parts of the first message as a
// message fields part (see MessageFieldsPart). Paths in a *DecodeError are
// relative to the message ("content[2].id").
func DecodeMessage(msg []byte) ([]condense.Message, error) {
	d := newDecoder(msg)
	role, parts, _, fields := d.message()
	d.r.End()
	if d.failed() {
		return nil, d.err
	}
	if len(parts) == 0 {
		return nil, nil
	}
	if fields != nil {
		parts = append([]condense.Part{MessageFieldsPart(fields...)}, parts...)
	}
	if role == condense.RoleAssistant {
		return []condense.Message{{Role: role, Parts: parts}}, nil
	}
	msgs := splitResults(parts)
	out := msgs[:0]
	for _, m := range msgs {
		if len(m.Parts) > 0 {
			out = append(out, m)
		}
	}
	return out, nil
}

// DecodeContent decodes the content of one message of role (RoleUser or
// RoleAssistant): a string, which is one text part ("" is none), or an array
// of content blocks, each of which becomes parts:
//
//   - text: a text part; image: an image part (base64 data, decoded, or a
//     url); thinking: a thinking part with its signature; redacted_thinking:
//     a thinking part holding the redacted data; tool_use: a tool call (input
//     carried as given, null as {}); tool_result: a tool result whose content
//     (a string, or blocks decoded by these rules) and is_error are kept.
//   - a block's cache_control, and any member of a tool_use or tool_result
//     block the codec does not model (a "caller", say), follow its part as
//     a fields part (see FieldsPart), values byte for byte.
//   - every other block is an opaque anthropic provider part carried byte
//     for byte: blocks of other types (documents, search results, server
//     tool uses and their results, compaction blocks, anything new), and
//     text, image, thinking and redacted_thinking blocks that hold a member
//     the codec does not model (citations on a text, a file source on an
//     image), so that such a member is never separated from what it
//     describes. A thinking block without a signature or without text is
//     opaque too: condense keeps only signed thinking as thinking.
//
// Thinking and tool_use blocks outside an assistant message, tool_result
// blocks outside a user message (or inside another tool result) and blocks
// missing a member the API requires are errors. Paths in a *DecodeError are
// relative to the content ("[2].id").
func DecodeContent(content []byte, role condense.Role) ([]condense.Part, error) {
	if role != condense.RoleUser && role != condense.RoleAssistant {
		return nil, fmt.Errorf("anthropic: DecodeContent of a %s message", role)
	}
	d := newDecoder(content)
	parts, _ := d.content(role, nil)
	d.r.End()
	if d.failed() {
		return nil, d.err
	}
	return parts, nil
}

// request reads the top-level object, handing each message to message with
// the reader at its value.
func (d *decoder) request(req *Request, message func(i int)) {
	if k := d.r.Kind(); k != '{' {
		if !d.failed() {
			d.fail("", d.r.Pos, "want an object with \"messages\", not %s", kindName(k))
		}
		return
	}
	start := d.r.Pos
	d.r.Open('{')
	sawMessages := false
	for first := true; d.r.More('}', first); first = false {
		k := d.r.Key()
		switch string(k) {
		case "model":
			n := d.push("model")
			switch d.r.Kind() {
			case '"':
				req.Model = d.r.String()
			case 'n':
				d.r.Null()
				req.Model = ""
			default:
				d.fail("", d.r.Pos, "want a string")
			}
			d.pop(n)
		case "max_tokens":
			n := d.push("max_tokens")
			at := d.r.Pos
			v, ok := d.r.Int()
			if !d.r.Failed() && (!ok || v < 0) {
				d.fail("", at, "want a non-negative integer")
			}
			req.MaxOutputTokens = v
			d.pop(n)
		case "system":
			d.system(req)
		case "tools":
			d.tools(req)
		case "messages":
			sawMessages = true
			n := d.push("messages")
			if !d.open('[', "want an array of messages") {
				d.pop(n)
				break
			}
			for i, first := 0, true; d.r.More(']', first); i, first = i+1, false {
				m := d.pushIndex(i)
				message(i)
				if d.failed() {
					return
				}
				d.pop(m)
			}
			d.pop(n)
		default:
			name := string(k)
			v := d.r.Skip()
			req.Extra = append(req.Extra, Field{Name: name, Value: raw(v)})
			if name == "thinking" {
				req.ThinkingBudget = thinkingBudget(v)
			}
		}
		if d.failed() {
			return
		}
	}
	d.r.End()
	if !d.failed() && !sawMessages {
		d.fail("messages", start, "missing")
	}
}

// open consumes the '[' or '{' of the next value, failing with problem when
// the value is something else.
func (d *decoder) open(c byte, problem string) bool {
	if d.r.Kind() != c {
		if !d.failed() {
			d.fail("", d.r.Pos, "%s", problem)
		}
		return false
	}
	return d.r.Open(c)
}

func kindName(k byte) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "nothing"
	}
	return "a number"
}

// thinkingBudget returns the budget a thinking member enables: budget_tokens
// of {"type":"enabled"}, 0 for anything else.
func thinkingBudget(v []byte) int {
	d := newDecoder(v)
	ms := d.members(nil)
	if d.failed() {
		return 0
	}
	if t, _ := find(ms, "type").str(); t != "enabled" {
		return 0
	}
	b := find(ms, "budget_tokens")
	if k := b.kind(); k != '-' && (k < '0' || k > '9') {
		return 0
	}
	n, ok := jsonx.ParseInt(b.val)
	if !ok || n < 0 {
		return 0
	}
	return n
}

// system reads a system prompt: a string, or an array of text blocks whose
// texts join with blank lines.
func (d *decoder) system(req *Request) {
	n := d.push("system")
	defer d.pop(n)
	switch d.r.Kind() {
	case 'n':
		d.r.Null()
		req.System, req.SystemBlocks = "", nil
	case '"':
		req.System, req.SystemBlocks = d.r.String(), nil
	case '[':
		d.r.Open('[')
		req.SystemBlocks = []SystemBlock{}
		for i, first := 0, true; d.r.More(']', first); i, first = i+1, false {
			m := d.pushIndex(i)
			at := d.r.Pos
			if d.r.Kind() != '{' {
				d.fail("", d.r.Pos, "want a text block")
				return
			}
			ms := d.members(nil)
			if d.failed() {
				return
			}
			typ, _ := find(ms, "type").str()
			text, ok := find(ms, "text").str()
			if typ != "text" || !ok {
				d.fail("", at, "want a text block")
				return
			}
			sb := SystemBlock{Text: text}
			for _, mb := range ms {
				if k := string(mb.key); k != "type" && k != "text" {
					sb.Fields = append(sb.Fields, Field{Name: k, Value: raw(mb.val)})
				}
			}
			req.SystemBlocks = append(req.SystemBlocks, sb)
			d.pop(m)
		}
		req.System = joinSystem(req.SystemBlocks)
	default:
		d.fail("", d.r.Pos, "want a string or an array of text blocks")
	}
}

// joinSystem joins the texts of system blocks with blank lines.
func joinSystem(blocks []SystemBlock) string {
	switch len(blocks) {
	case 0:
		return ""
	case 1:
		return blocks[0].Text
	}
	n := 2 * (len(blocks) - 1)
	for _, b := range blocks {
		n += len(b.Text)
	}
	buf := make([]byte, 0, n)
	for i, b := range blocks {
		if i > 0 {
			buf = append(buf, "\n\n"...)
		}
		buf = append(buf, b.Text...)
	}
	return string(buf)
}

// tools reads tool definitions: name, description and input_schema are
// modeled, other members go to ToolFields.
func (d *decoder) tools(req *Request) {
	n := d.push("tools")
	defer d.pop(n)
	if d.r.Null() {
		return
	}
	if !d.open('[', "want an array of tools") {
		return
	}
	for i, first := 0, true; d.r.More(']', first); i, first = i+1, false {
		m := d.pushIndex(i)
		at := d.r.Pos
		if d.r.Kind() != '{' {
			d.fail("", d.r.Pos, "want a tool object")
			return
		}
		ms := d.members(nil)
		if d.failed() {
			return
		}
		nm := find(ms, "name")
		name, ok := nm.str()
		if !ok || name == "" {
			off := at
			if nm != nil {
				off = nm.off
			}
			d.fail("name", off, "missing")
			return
		}
		for _, t := range req.Tools {
			if t.Name == name {
				d.fail("name", nm.off, "duplicate tool name %q", name)
				return
			}
		}
		t := condense.Tool{Name: name}
		var fields []Field
		for i := range ms {
			mb := &ms[i]
			switch string(mb.key) {
			case "name":
				continue
			case "description":
				if s, ok := mb.str(); ok && mb == find(ms, "description") {
					t.Description = s
					continue
				}
			case "input_schema":
				if mb == find(ms, "input_schema") {
					t.InputSchema = raw(mb.val)
					continue
				}
			}
			fields = append(fields, Field{Name: string(mb.key), Value: raw(mb.val)})
		}
		if fields != nil {
			if req.ToolFields == nil {
				req.ToolFields = map[string][]Field{}
			}
			req.ToolFields[name] = fields
		}
		req.Tools = append(req.Tools, t)
		d.pop(m)
	}
}

// message reads one message object: its role, its content, whether the
// content was a bare string, and its other members (an "id", say), in
// order, values byte for byte.
func (d *decoder) message() (role condense.Role, parts []condense.Part, bare bool, fields []Field) {
	at := d.r.Pos
	if d.r.Kind() != '{' {
		if !d.failed() {
			d.fail("", d.r.Pos, "want a message object")
		}
		return "", nil, false, nil
	}
	d.r.Open('{')
	var content []byte // read ahead when it comes before the role
	contentAt := -1
	sawContent := false
	for first := true; d.r.More('}', first); first = false {
		k := d.r.Key()
		switch string(k) {
		case "role":
			n := d.push("role")
			if d.r.Kind() != '"' {
				d.fail("", d.r.Pos, "want a string")
				return "", nil, false, nil
			}
			off := d.r.Pos
			switch s := d.r.String(); s {
			case "user":
				role = condense.RoleUser
			case "assistant":
				role = condense.RoleAssistant
			case "":
				d.fail("", off, "missing")
			default:
				d.fail("", off, "unknown role %q (want user or assistant)", s)
			}
			d.pop(n)
		case "content":
			sawContent = true
			if role == "" {
				for d.r.Pos < len(d.r.Data) && isSpace(d.r.Data[d.r.Pos]) {
					d.r.Pos++
				}
				contentAt = d.r.Pos
				content = d.r.Skip()
				continue
			}
			n := d.push("content")
			parts, bare = d.content(role, parts)
			d.pop(n)
		default:
			name := string(k)
			fields = append(fields, Field{Name: name, Value: raw(d.r.Skip())})
		}
		if d.failed() {
			return "", nil, false, nil
		}
	}
	if d.failed() {
		return "", nil, false, nil
	}
	if role == "" {
		d.fail("role", at, "missing")
		return "", nil, false, nil
	}
	if !sawContent {
		d.fail("content", at, "missing")
		return "", nil, false, nil
	}
	if content != nil {
		s := &decoder{r: d.r, path: d.path, forms: d.forms, response: d.response}
		s.r.Data, s.r.Pos = d.r.Data[:contentAt+len(content)], contentAt
		n := s.push("content")
		parts, bare = s.content(role, nil)
		s.pop(n)
		if d.adopt(s) {
			return "", nil, false, nil
		}
	}
	return role, parts, bare, fields
}
