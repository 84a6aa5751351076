package anthropic

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strconv"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// EncodeRequest writes r as a Messages API request body:
//
//	{"model","max_tokens","system","thinking","messages","tools", …Extra}
//
// model is left out when empty, max_tokens when 0 (count_tokens takes
// none), system when empty; thinking is written as Request.Extra says. Tool
// definitions are written as given (an empty input_schema is left out, the
// caller chooses a default).
//
// Messages: tool, system and user messages go out as user turns and
// assistant messages as assistant turns; consecutive turns of one role
// merge into one; in a user turn the tool_result blocks (with their fields)
// come first. Parts become blocks as DecodeContent reads them back: a
// fields part adds its members to the block just before it (an opaque
// block included); a message fields part starts a wire message of its own,
// which it adds its members to; an anthropic provider part goes out byte
// for byte. Left
// out: a failed assistant reply without tool calls (an error the client
// recorded, not the model's words), thinking without a signature (not
// Anthropic's, which the API rejects), other providers' blocks, images
// with neither data nor address, fields parts that follow nothing, and
// messages left without a block. A tool input, schema or provider block
// that is not valid JSON is an error: the body is always valid JSON.
func EncodeRequest(r *Request) ([]byte, error) {
	return AppendRequest(nil, r)
}

// AppendRequest appends the body EncodeRequest writes to dst and returns
// the extended slice, so that a caller encoding many requests can reuse
// one buffer.
func AppendRequest(dst []byte, r *Request) ([]byte, error) {
	e := encoder{forms: r.forms}
	e.buf = slices.Grow(dst, estimate(r))
	if err := e.request(r); err != nil {
		return nil, err
	}
	return e.buf, nil
}

// estimate guesses the encoded size of r, so that the body is allocated
// once.
func estimate(r *Request) int {
	n := 256 + len(r.System)
	for i := range r.Tools {
		n += len(r.Tools[i].Description) + len(r.Tools[i].InputSchema) + 64
	}
	for _, f := range r.Extra {
		n += len(f.Name) + len(f.Value) + 4
	}
	for i := range r.Messages {
		n += 32 + partsSize(r.Messages[i].Parts)
	}
	return n + n/16
}

func partsSize(parts []condense.Part) int {
	n := 0
	for i := range parts {
		p := &parts[i]
		n += 48 + len(p.Text) + len(p.Input) + len(p.Raw) + len(p.Signature) + len(p.Redacted) + len(p.URL) + len(p.Data)*4/3
		if len(p.Content) > 0 {
			n += partsSize(p.Content)
		}
	}
	return n
}

type encoder struct {
	buf   []byte
	forms *forms
	// res holds the tool results of a user turn that came after its other
	// blocks, until the turn ends.
	res []byte
}

func (e *encoder) str(s string) { e.buf = jsonx.AppendString(e.buf, s) }

func (e *encoder) key(k string) {
	e.buf = append(e.buf, ',')
	e.buf = jsonx.AppendString(e.buf, k)
	e.buf = append(e.buf, ':')
}

func (e *encoder) request(r *Request) error {
	e.buf = append(e.buf, '{')
	written := map[string]bool{}
	first := true
	member := func(k string) {
		if first {
			e.buf = jsonx.AppendString(e.buf, k)
			e.buf = append(e.buf, ':')
			first = false
		} else {
			e.key(k)
		}
	}
	key := func(k string) {
		member(k)
		written[k] = true
	}
	if r.Model != "" {
		key("model")
		e.str(r.Model)
	}
	if r.MaxOutputTokens > 0 {
		key("max_tokens")
		e.buf = strconv.AppendInt(e.buf, int64(r.MaxOutputTokens), 10)
	}
	switch {
	case r.SystemBlocks != nil && joinSystem(r.SystemBlocks) == r.System:
		key("system")
		e.buf = append(e.buf, '[')
		for i, b := range r.SystemBlocks {
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = append(e.buf, `{"type":"text","text":`...)
			e.str(b.Text)
			e.fields(b.Fields, "type", "text")
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	case r.System != "":
		key("system")
		e.str(r.System)
	}
	// thinking: as Extra holds it while ThinkingBudget agrees, else made.
	keepThinking := false
	if v := r.Field("thinking"); v != nil {
		keepThinking = thinkingBudget(v) == r.ThinkingBudget
	}
	if !keepThinking && r.ThinkingBudget > 0 {
		key("thinking")
		e.buf = append(e.buf, `{"type":"enabled","budget_tokens":`...)
		e.buf = strconv.AppendInt(e.buf, int64(r.ThinkingBudget), 10)
		e.buf = append(e.buf, '}')
	}
	if !keepThinking {
		written["thinking"] = true
	}
	key("messages")
	if err := e.messages(r.Messages); err != nil {
		return err
	}
	if len(r.Tools) > 0 {
		key("tools")
		e.buf = append(e.buf, '[')
		for i := range r.Tools {
			t := &r.Tools[i]
			if i > 0 {
				e.buf = append(e.buf, ',')
			}
			e.buf = append(e.buf, `{"name":`...)
			e.str(t.Name)
			if t.Description != "" {
				e.key("description")
				e.str(t.Description)
			}
			if len(t.InputSchema) > 0 {
				if !jsonx.Valid(t.InputSchema) {
					return fmt.Errorf("anthropic: tools[%d] (%s): input_schema is not valid JSON", i, t.Name)
				}
				e.key("input_schema")
				e.buf = append(e.buf, jsonx.TrimSpace(t.InputSchema)...)
			}
			e.fields(r.ToolFields[t.Name], "name", "description", "input_schema")
			e.buf = append(e.buf, '}')
		}
		e.buf = append(e.buf, ']')
	}
	for _, f := range r.Extra {
		if written[f.Name] {
			continue
		}
		if !jsonx.Valid(f.Value) {
			return fmt.Errorf("anthropic: %s: value is not valid JSON", f.Name)
		}
		member(f.Name)
		e.buf = append(e.buf, jsonx.TrimSpace(f.Value)...)
	}
	e.buf = append(e.buf, '}')
	return nil
}

// fields appends members, leaving out those named like the members the
// encoder wrote itself.
func (e *encoder) fields(fields []Field, skip ...string) {
next:
	for _, f := range fields {
		for _, s := range skip {
			if f.Name == s {
				continue next
			}
		}
		e.key(f.Name)
		e.buf = append(e.buf, jsonx.TrimSpace(f.Value)...)
	}
}

// turn is a wire message being built. Its blocks are written straight
// into the body; a tool result that comes after other blocks of a user turn
// is written aside (late) and moved in front of them when the turn ends.
type turn struct {
	role string
	// start is where the turn's message begins in the body, content where
	// its first block goes.
	start, content int
	// n counts the blocks written into the body, nlate those written aside.
	n, nlate int
	// rest is where the first block that is not a tool result begins, -1
	// while there is none.
	rest int
	// plain is the text of the turn's only block while that block is a
	// plain text block; plainOK says whether there is one.
	plain   string
	plainOK bool
	// fields are the message's members other than role and content, from
	// the message fields part that started it.
	fields []Field
}

func (e *encoder) messages(msgs []condense.Message) error {
	e.buf = append(e.buf, '[')
	var t turn
	n := 0
	flush := func() {
		if t.role == "" {
			return
		}
		if t.n+t.nlate == 0 {
			e.buf = e.buf[:t.start]
			return
		}
		n++
		if t.nlate > 0 {
			// Late tool results go before the first other block.
			late := len(e.res) + 1
			e.buf = append(e.buf, make([]byte, late)...)
			copy(e.buf[t.rest+late:], e.buf[t.rest:len(e.buf)-late])
			copy(e.buf[t.rest:], e.res)
			e.buf[t.rest+late-1] = ','
		}
		if t.plainOK && t.n+t.nlate == 1 && e.forms.text(t.plain) {
			e.buf = e.buf[:t.content-1]
			e.str(t.plain)
		} else {
			e.buf = append(e.buf, ']')
		}
		e.fields(t.fields, "role", "content")
		e.buf = append(e.buf, '}')
	}
	open := func(role string, fields []Field) {
		flush()
		t = turn{role: role, start: len(e.buf), rest: -1, fields: fields}
		if n > 0 {
			e.buf = append(e.buf, ',')
		}
		e.buf = append(e.buf, `{"role":"`...)
		e.buf = append(e.buf, role...)
		e.buf = append(e.buf, `","content":[`...)
		t.content = len(e.buf)
		e.res = e.res[:0]
	}
	for i := range msgs {
		m := &msgs[i]
		if m.Role == condense.RoleAssistant && m.Status == condense.StatusFailed && !m.HasToolCalls() {
			continue
		}
		role := "user"
		switch m.Role {
		case condense.RoleAssistant:
			role = "assistant"
		case condense.RoleUser, condense.RoleTool, condense.RoleSystem:
		default:
			return fmt.Errorf("anthropic: messages[%d]: unknown role %q", i, m.Role)
		}
		// A message fields part starts a wire message of its own; the
		// parts between two of them go into one.
		parts := m.Parts
		for len(parts) > 0 {
			var fields []Field
			start := false
			if f, ok := MessageFields(&parts[0]); ok {
				fields, start = f, true
				parts = parts[1:]
			}
			end := len(parts)
			for j := range parts {
				if isMessageFieldsPart(&parts[j]) {
					end = j
					break
				}
			}
			if start || role != t.role {
				open(role, fields)
			}
			if err := e.parts(&t, parts[:end], len(m.Parts)-len(parts), role == "user"); err != nil {
				return fmt.Errorf("anthropic: messages[%d]%w", i, err)
			}
			parts = parts[end:]
		}
		if len(m.Parts) == 0 && role != t.role {
			open(role, nil)
		}
	}
	flush()
	e.buf = append(e.buf, ']')
	return nil
}

// blockList writes blocks into a buffer, keeping the last block open (its
// closing brace unwritten) so that a fields part after it can add members.
type blockList struct {
	buf  *[]byte
	n    *int
	open bool
}

func (l *blockList) start() {
	l.close()
	if *l.n > 0 {
		*l.buf = append(*l.buf, ',')
	}
	*l.n++
	l.open = true
}

func (l *blockList) close() {
	if l.open {
		*l.buf = append(*l.buf, '}')
		l.open = false
	}
}

// parts writes the blocks of parts into the turn t. With split (a user
// turn), a tool result written after other blocks goes aside to e.res. base
// is the index of parts[0] in its message, for errors.
func (e *encoder) parts(t *turn, parts []condense.Part, base int, split bool) error {
	main := blockList{buf: &e.buf, n: &t.n}
	late := blockList{buf: &e.res, n: &t.nlate}
	var last *blockList // the list holding the open block, if any
	for i := range parts {
		p := &parts[i]
		if isMessageFieldsPart(p) {
			// messages starts a wire message at one; inside a tool
			// result's content it has no place.
			continue
		}
		if p.Type == condense.PartProvider && p.Provider == Provider && isFieldsPart(p) {
			if last == nil || !last.open {
				continue // follows nothing
			}
			if err := e.addFields(last, p.Raw); err != nil {
				return fmt.Errorf(".parts[%d]: %w", base+i, err)
			}
			t.plainOK = false
			continue
		}
		l := &main
		result := p.Type == condense.PartToolResult
		if split && result && t.rest >= 0 {
			l = &late
		}
		if last != nil && last != l {
			last.close()
		}
		before := *l.n
		at := len(*l.buf)
		var err error
		*l.buf, err = e.block(l, p)
		if err != nil {
			return fmt.Errorf(".parts[%d]: %w", base+i, err)
		}
		if *l.n == before {
			last = nil // left out: a fields part after it follows nothing
			continue
		}
		last = l
		if l == &main && !result && t.rest < 0 {
			t.rest = at
			if before > 0 {
				t.rest++ // after the comma
			}
		}
		if t.n+t.nlate == 1 && p.Type == condense.PartText {
			t.plain, t.plainOK = p.Text, true
		} else {
			t.plainOK = false
		}
	}
	main.close()
	late.close()
	return nil
}

// addFields splices the members of a fields part into the open block of l.
func (e *encoder) addFields(l *blockList, rawFields []byte) error {
	r := jsonx.Reader{Data: rawFields}
	r.Open('{')
	for first := true; r.More('}', first); first = false {
		k := r.Key()
		v := r.Skip()
		*l.buf = append(*l.buf, ',')
		*l.buf = jsonx.AppendString(*l.buf, string(k))
		*l.buf = append(*l.buf, ':')
		*l.buf = append(*l.buf, v...)
	}
	return r.Err()
}

// block writes one part as a block into l (unless it is left out) and
// returns l's buffer.
func (e *encoder) block(l *blockList, p *condense.Part) ([]byte, error) {
	switch p.Type {
	case condense.PartText:
		l.start()
		b := append(*l.buf, `{"type":"text","text":`...)
		return jsonx.AppendString(b, p.Text), nil
	case condense.PartImage:
		switch {
		case len(p.Data) > 0:
			l.start()
			b := append(*l.buf, `{"type":"image","source":{"type":"base64","media_type":`...)
			b = jsonx.AppendString(b, p.MediaType)
			b = append(b, `,"data":"`...)
			b = base64.StdEncoding.AppendEncode(b, p.Data)
			return append(b, `"}`...), nil
		case p.URL != "":
			l.start()
			b := append(*l.buf, `{"type":"image","source":{"type":"url","url":`...)
			b = jsonx.AppendString(b, p.URL)
			return append(b, '}'), nil
		}
		l.close()
		return *l.buf, nil
	case condense.PartThinking:
		switch {
		case p.Redacted != "":
			l.start()
			b := append(*l.buf, `{"type":"redacted_thinking","data":`...)
			return jsonx.AppendString(b, p.Redacted), nil
		case p.Signature != "":
			l.start()
			b := append(*l.buf, `{"type":"thinking","thinking":`...)
			b = jsonx.AppendString(b, p.Text)
			b = append(b, `,"signature":`...)
			return jsonx.AppendString(b, p.Signature), nil
		}
		l.close()
		return *l.buf, nil
	case condense.PartToolCall:
		input := jsonx.TrimSpace(p.Input)
		if len(input) == 0 {
			input = []byte("{}")
		} else if !jsonx.Valid(input) {
			return nil, fmt.Errorf("tool call %q: input is not valid JSON", p.ID)
		}
		l.start()
		b := append(*l.buf, `{"type":"tool_use","id":`...)
		b = jsonx.AppendString(b, p.ID)
		b = append(b, `,"name":`...)
		b = jsonx.AppendString(b, p.Name)
		b = append(b, `,"input":`...)
		return append(b, input...), nil
	case condense.PartToolResult:
		l.start()
		b := append(*l.buf, `{"type":"tool_result","tool_use_id":`...)
		b = jsonx.AppendString(b, p.CallID)
		switch {
		case e.forms.result(p.CallID) && len(p.Content) == 0:
			b = append(b, `,"content":""`...)
		case e.forms.result(p.CallID) && len(p.Content) == 1 && p.Content[0].Type == condense.PartText:
			b = append(b, `,"content":`...)
			b = jsonx.AppendString(b, p.Content[0].Text)
		case len(p.Content) > 0:
			b = append(b, `,"content":[`...)
			t := turn{rest: -1}
			sub := encoder{forms: e.forms, buf: b}
			if err := sub.parts(&t, p.Content, 0, false); err != nil {
				return nil, fmt.Errorf("tool result %q: content%w", p.CallID, err)
			}
			b = append(sub.buf, ']')
		}
		if p.IsError {
			b = append(b, `,"is_error":true`...)
		} else if e.forms.notError(p.CallID) {
			b = append(b, `,"is_error":false`...)
		}
		return b, nil
	case condense.PartProvider:
		if p.Provider != Provider {
			l.close()
			return *l.buf, nil
		}
		v := jsonx.TrimSpace(p.Raw)
		if !jsonx.Valid(v) {
			return nil, fmt.Errorf("anthropic block is not valid JSON")
		}
		l.start()
		if v[0] != '{' {
			b := append(*l.buf, v...)
			l.open = false
			return b, nil
		}
		// Left open, so that a fields part after it can add members; an
		// anthropic part whose object has no type is a fields part, so
		// this object has a member already.
		b := append(*l.buf, v[:len(v)-1]...)
		return b, nil
	}
	return nil, fmt.Errorf("unknown part type %q", p.Type)
}
