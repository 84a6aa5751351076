package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/condense-dev/condense"
)

// Gemini CLI writes three kinds of files, all read as FormatGeminiCLI:
//
//   - stream-json logs (gemini --output-format stream-json): one event a
//     line, {"type", "timestamp", …}. init names the model; message events
//     carry user or assistant text, assistant text arriving in pieces
//     marked "delta" that are joined; tool_use {tool_id, tool_name,
//     parameters} is a tool call of the assistant message; tool_result
//     {tool_id, status, output, error} is its result (status "error" makes
//     it an error, whose text is the error's message); error events
//     (warnings and errors of the CLI) and the closing result event carry
//     no message and are passed over.
//   - session files (~/.gemini/tmp/<project>/chats/session-*.json, or
//     .jsonl in newer versions): a record {sessionId, projectHash,
//     messages, …}, or a JSONL log of records: the metadata line, message
//     records (a later record with the id of an earlier one replaces it in
//     place), {"$set": {…}} metadata updates (one holding "messages"
//     replaces the whole list) and {"$rewindTo": id} records, which drop
//     that message and every one after it. Messages are read as Gemini CLI
//     itself rebuilds the history it sends: info, error and warning
//     messages are not sent and are left out, and so are user messages that
//     are slash commands ("/…", "?…") or context blocks
//     ("<session_context>…", "<hook_context>…"); a gemini message holds
//     text, thoughts and functionCall parts in its content, or (older
//     files) text in its content with its thoughts ({subject,
//     description}, read as thinking "**subject** description") and its
//     toolCalls beside it. Each tool call's recorded result (a string, a
//     Part, or a list of functionResponse parts) becomes a tool message
//     right after it; a call without a recorded result gets none.
//   - saved chats (/chat save, checkpoint-<tag>.json): {"history":
//     [Content]} or, in older versions, the bare [Content] array, which is
//     also what /chat share writes to a .json file; /restore checkpoints
//     hold the same list as "clientHistory", and the API request /chat
//     debug saves holds it as "contents", with its systemInstruction (the
//     system text) and tools (their functionDeclarations). A Content is
//     {role: "user" | "model", parts}.
//
// Parts: text becomes text (a part with "thought": true becomes thinking,
// without a signature: a Gemini thought signature is not Anthropic's);
// functionCall {id, name, args} a tool call; functionResponse {id, name,
// response} a tool result in a tool message (its text is the response's
// "output", or its "error", which makes the result an error, or else the
// response's JSON); inlineData holding an image an image. Other parts
// (fileData, executableCode, codeExecutionResult, other inline data) are
// carried whole as "gemini" provider blocks, which the writers leave out.
// A call without an id is given "<message id>#<n>" (or "gemini-call-<n>"),
// and a response without an id answers the oldest open call of its name.

// gmPart is a Gemini API Part.
type gmPart struct {
	Text         *string `json:"text"`
	Thought      bool    `json:"thought"`
	FunctionCall *struct {
		ID   string          `json:"id"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args"`
	} `json:"functionCall"`
	FunctionResponse *struct {
		ID       string          `json:"id"`
		Name     string          `json:"name"`
		Response json.RawMessage `json:"response"`
	} `json:"functionResponse"`
	InlineData *struct {
		MimeType string `json:"mimeType"`
		Data     string `json:"data"`
	} `json:"inlineData"`
}

// gmReader holds what the Gemini readers share: the pairing of calls and
// responses that lack ids.
type gmReader struct {
	b *builder
	// open lists, by tool name, the ids of calls not answered yet.
	open  map[string][]string
	calls int
}

func newGMReader(b *builder) *gmReader { return &gmReader{b: b, open: map[string][]string{}} }

// callID returns the id of a call: its own, or a new one.
func (g *gmReader) callID(id, name, msgID string) string {
	g.calls++
	if id == "" {
		if msgID != "" {
			id = fmt.Sprintf("%s#%d", msgID, g.calls)
		} else {
			id = fmt.Sprintf("gemini-call-%d", g.calls)
		}
	}
	g.open[name] = append(g.open[name], id)
	return id
}

// answer returns the call id a response answers: its own, or the oldest
// open call of its name.
func (g *gmReader) answer(id, name string) string {
	open := g.open[name]
	if id != "" {
		for i, o := range open {
			if o == id {
				g.open[name] = append(open[:i:i], open[i+1:]...)
				break
			}
		}
		return id
	}
	if len(open) == 0 {
		return "gemini-orphan-" + name
	}
	g.open[name] = open[1:]
	return open[0]
}

// parts converts a PartListUnion: a string, one Part, or a list of them
// (whose items may be strings too). path names raw in errors.
func (g *gmReader) parts(raw json.RawMessage, path, msgID string) ([]condense.Part, *recErr) {
	switch kind(raw) {
	case 0, 'n':
		return nil, nil
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		if s == "" {
			return nil, nil
		}
		return []condense.Part{condense.Text(s)}, nil
	case '{':
		return g.part(raw, path, msgID)
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, pathErr(path, "%v", cleanJSONErr(err))
		}
		var out []condense.Part
		for i, it := range items {
			ps, rerr := g.parts(it, fmt.Sprintf("%s[%d]", path, i), msgID)
			if rerr != nil {
				return nil, rerr
			}
			out = append(out, ps...)
		}
		return out, nil
	}
	return nil, pathErr(path, "want a string, a part or a list of parts")
}

// part converts one Part object.
func (g *gmReader) part(raw json.RawMessage, path, msgID string) ([]condense.Part, *recErr) {
	var p gmPart
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, pathErr(path, "%v", cleanJSONErr(err))
	}
	switch {
	case p.FunctionCall != nil:
		fc := p.FunctionCall
		if fc.Name == "" {
			return nil, pathErr(path+".functionCall.name", "missing")
		}
		args := json.RawMessage("{}")
		switch kind(fc.Args) {
		case 0, 'n':
		case '{':
			args = append(json.RawMessage(nil), fc.Args...)
		default:
			return nil, pathErr(path+".functionCall.args", "want an object")
		}
		return []condense.Part{condense.ToolCall(g.callID(fc.ID, fc.Name, msgID), fc.Name, args)}, nil
	case p.FunctionResponse != nil:
		fr := p.FunctionResponse
		if fr.Name == "" && fr.ID == "" {
			return nil, pathErr(path+".functionResponse", "has neither id nor name")
		}
		text, isErr := gmResponseText(fr.Response)
		return []condense.Part{condense.ToolResult(g.answer(fr.ID, fr.Name), isErr, condense.Text(text))}, nil
	case p.Text != nil:
		if *p.Text == "" {
			return nil, nil
		}
		if p.Thought {
			return []condense.Part{condense.Thinking(*p.Text, "")}, nil
		}
		return []condense.Part{condense.Text(*p.Text)}, nil
	case p.InlineData != nil && strings.HasPrefix(p.InlineData.MimeType, "image/"):
		data, err := base64.StdEncoding.DecodeString(p.InlineData.Data)
		if err != nil {
			return nil, pathErr(path+".inlineData.data", "not base64")
		}
		return []condense.Part{condense.ImageData(p.InlineData.MimeType, data)}, nil
	}
	if len(objectKeys(raw)) == 0 {
		return nil, nil // {} or a part holding only members the reader has no use for
	}
	return []condense.Part{condense.ProviderBlock("gemini", append(json.RawMessage(nil), raw...))}, nil
}

// gmResponseText returns the text of a function response: its "output",
// its "error" (an error), or its JSON.
func gmResponseText(resp json.RawMessage) (string, bool) {
	k := objectKeys(resp)
	if e, ok := k["error"]; ok && !isNull(e) {
		if kind(e) == '"' {
			return jsonString(e), true
		}
		return string(e), true
	}
	if out, ok := k["output"]; ok && kind(out) == '"' {
		return jsonString(out), false
	}
	if isNull(resp) {
		return "", false
	}
	var buf bytes.Buffer
	if json.Compact(&buf, resp) != nil {
		return string(resp), false
	}
	return buf.String(), false
}

// addContent adds the messages of one Content (or message record) with the
// given role: an assistant message for the model, and for the user a tool
// message holding function responses and a user message with the rest.
func (g *gmReader) addContent(role condense.Role, id string, parts []condense.Part, l loc) {
	if role == condense.RoleAssistant {
		g.b.add(condense.Message{ID: id, Role: role, Parts: parts}, l)
		return
	}
	for k, m := range splitResults(parts) {
		m.ID = id
		if k > 0 && id != "" {
			m.ID += "/text"
		}
		g.b.add(m, l)
	}
}

func readGeminiCLI(b *builder, data []byte) error {
	first, _ := json.NewDecoder(bytes.NewReader(data)).Token()
	if d, ok := first.(json.Delim); ok && d == '[' {
		return readGeminiContents(b, data)
	}
	head, _ := firstValue(data) // data itself when it is one value
	keys := memberViews(head)
	switch {
	case keys["history"] != nil || keys["clientHistory"] != nil || keys["contents"] != nil:
		return readGeminiContents(b, data)
	case keys["sessionId"] != nil || keys["$set"] != nil || keys["$rewindTo"] != nil,
		kind(keys["id"]) == '"' && keys["session_id"] == nil:
		return readGeminiSession(b, data)
	}
	return readGeminiStream(b, data)
}

// readGeminiContents reads a saved chat: [Content], {"history": [Content]}
// or {"clientHistory": [Content]}, or the API request /chat debug saves
// ({"contents": [Content], "systemInstruction", "tools", …}).
func readGeminiContents(b *builder, data []byte) error {
	var list json.RawMessage = data
	base := ""
	if kind(data) == '{' {
		var vs map[string]rawView
		if err := decode(data, &vs); err != nil {
			return b.docErr(data, err)
		}
		doc := make(map[string]json.RawMessage, len(vs))
		for k, v := range vs {
			doc[k] = json.RawMessage(v)
		}
		list, base = doc["clientHistory"], "clientHistory"
		if list == nil {
			list, base = doc["history"], "history"
		}
		if list == nil {
			list, base = doc["contents"], "contents"
			if err := gmRequestHead(b, doc); err != nil {
				return err
			}
		}
	}
	// The items are views of data, each released once read (see
	// docArena).
	var items []json.RawMessage
	var err error
	if kind(list) == '[' {
		items, err = arrayItems(list)
	}
	if kind(list) != '[' || err != nil {
		if base == "" {
			return b.docErr(data, decode(data, new([]json.RawMessage)))
		}
		return b.errAt(loc{path: base}, "want an array of Content objects")
	}
	g := newGMReader(b)
	for i, raw := range items {
		l := loc{path: fmt.Sprintf("%s[%d]", base, i)}
		var c struct {
			Role  string  `json:"role"`
			Parts rawView `json:"parts"`
		}
		if kind(raw) != '{' || json.Unmarshal(raw, &c) != nil {
			if err := b.bad(l, "want a Content object {role, parts}"); err != nil {
				return err
			}
			continue
		}
		var role condense.Role
		switch c.Role {
		case "user":
			role = condense.RoleUser
		case "model":
			role = condense.RoleAssistant
		default:
			if err := b.bad(l, "role %q: want user or model", c.Role); err != nil {
				return err
			}
			continue
		}
		parts, rerr := g.parts(json.RawMessage(c.Parts), "parts", "")
		if rerr != nil {
			if err := b.bad(l, "%s: %s", rerr.loc.path, rerr.msg); err != nil {
				return err
			}
			continue
		}
		start := len(b.msgs)
		g.addContent(role, "", parts, l)
		b.release(raw)
		b.keepFrom(start)
	}
	return nil
}

// gmRequestHead reads the system instruction and the function declarations
// of a Gemini API request.
func gmRequestHead(b *builder, doc map[string]json.RawMessage) error {
	if si := doc["systemInstruction"]; !isNull(si) {
		var c struct {
			Parts []struct {
				Text string `json:"text"`
			} `json:"parts"`
		}
		if kind(si) == '"' {
			b.req.System = jsonString(si)
		} else if json.Unmarshal(si, &c) != nil {
			if err := b.bad(loc{path: "systemInstruction"}, "want a Content object or a string"); err != nil {
				return err
			}
		} else {
			var texts []string
			for _, p := range c.Parts {
				texts = append(texts, p.Text)
			}
			b.req.System = strings.Join(texts, "\n")
		}
	}
	var tools []struct {
		FunctionDeclarations []struct {
			Name                 string          `json:"name"`
			Description          string          `json:"description"`
			Parameters           json.RawMessage `json:"parameters"`
			ParametersJSONSchema json.RawMessage `json:"parametersJsonSchema"`
		} `json:"functionDeclarations"`
	}
	if t := doc["tools"]; !isNull(t) && json.Unmarshal(t, &tools) != nil {
		return b.bad(loc{path: "tools"}, "want an array of tools")
	}
	for i, t := range tools {
		for j, fd := range t.FunctionDeclarations {
			if fd.Name == "" {
				if err := b.bad(loc{path: fmt.Sprintf("tools[%d].functionDeclarations[%d].name", i, j)}, "missing"); err != nil {
					return err
				}
				continue
			}
			schema := fd.ParametersJSONSchema
			if isNull(schema) {
				schema = fd.Parameters
			}
			if kind(schema) != '{' {
				schema = nil
			}
			b.req.Tools = append(b.req.Tools, condense.Tool{Name: fd.Name, Description: fd.Description,
				InputSchema: append(json.RawMessage(nil), schema...)})
		}
	}
	return nil
}

// gmRecord is a message record of a session file; its values are views
// of the record.
type gmRecord struct {
	ID        string  `json:"id"`
	Type      string  `json:"type"`
	Content   rawView `json:"content"`
	Model     string  `json:"model"`
	ToolCalls []struct {
		ID     string  `json:"id"`
		Name   string  `json:"name"`
		Args   rawView `json:"args"`
		Result rawView `json:"result"`
	} `json:"toolCalls"`
	Thoughts []struct {
		Subject     string `json:"subject"`
		Description string `json:"description"`
	} `json:"thoughts"`

	loc loc
	raw json.RawMessage
}

// readGeminiSession reads a session record or a session JSONL log.
func readGeminiSession(b *builder, data []byte) error {
	var msgs []*gmRecord // in order; a replaced record keeps its place
	byID := map[string]int{}
	set := func(r *gmRecord) {
		if i, ok := byID[r.ID]; ok {
			msgs[i] = r
			return
		}
		byID[r.ID] = len(msgs)
		msgs = append(msgs, r)
	}
	reset := func() { msgs, byID = nil, map[string]int{} }
	addList := func(raw json.RawMessage, path string, line int) error {
		var items []json.RawMessage
		var err error
		if kind(raw) == '[' {
			items, err = arrayItems(raw)
		}
		if kind(raw) != '[' || err != nil {
			return b.bad(loc{line: line, path: path}, "want an array of messages")
		}
		for i, it := range items {
			l := loc{line: line, path: fmt.Sprintf("%s[%d]", path, i)}
			r, err := gmDecodeRecord(b, it, l)
			if err != nil {
				return err
			}
			if r != nil {
				set(r)
			}
		}
		return nil
	}

	handle := func(raw json.RawMessage, line int) error {
		keys := memberViews(raw)
		l := loc{line: line}
		switch {
		case keys == nil:
			return b.bad(l, "not a JSON object")
		case kind(keys["$rewindTo"]) == '"':
			id := jsonString(keys["$rewindTo"])
			if i, ok := byID[id]; ok {
				for _, r := range msgs[i:] {
					delete(byID, r.ID)
				}
				msgs = msgs[:i]
			} else {
				reset()
			}
		case kind(keys["id"]) == '"':
			r, err := gmDecodeRecord(b, raw, l)
			if r != nil {
				set(r)
			}
			return err
		case kind(keys["$set"]) == '{':
			if m, ok := memberViews(keys["$set"])["messages"]; ok {
				reset()
				return addList(m, "$set.messages", line)
			}
		case kind(keys["sessionId"]) == '"':
			if m, ok := keys["messages"]; ok {
				return addList(m, "messages", line)
			}
		default:
			return b.bad(l, "neither a message, a metadata record, $set nor $rewindTo")
		}
		return nil
	}
	var err error
	if gmOneValue(data) {
		// One document (the record of older versions, often pretty
		// printed): problems are named by JSON path.
		err = handle(data, 0)
	} else {
		err = eachLineIn(data, func(n int, raw []byte) error {
			if kind(raw) != '{' || !json.Valid(raw) {
				return b.bad(loc{line: n}, "not a JSON object")
			}
			return handle(raw, n)
		})
	}
	if err != nil {
		return err
	}

	// The records are views of data (a replaced record keeps its place
	// with the bytes of the record that replaced it, further on): once a
	// record is read, what comes before the next of the records still to
	// read is released (see docArena).
	rest := make([]int, len(msgs)+1) // where the records from the i-th on start
	rest[len(msgs)] = len(data)
	for i := len(msgs) - 1; i >= 0; i-- {
		rest[i] = min(rest[i+1], b.offsetOf(msgs[i].raw))
	}
	g := newGMReader(b)
	for i, r := range msgs {
		start := len(b.msgs)
		if err := g.record(r); err != nil {
			return err
		}
		b.releaseUpTo(rest[i+1])
		b.keepFrom(start)
	}
	return nil
}

// gmOneValue reports whether data holds exactly one JSON value.
func gmOneValue(data []byte) bool {
	if json.Valid(data) {
		return true // without a decoder's copy of a whole document
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var v json.RawMessage
	if dec.Decode(&v) != nil {
		return false
	}
	_, err := dec.Token()
	return errors.Is(err, io.EOF)
}

// gmDecodeRecord decodes a message record; nil, nil is a bad record skipped
// under Lenient.
func gmDecodeRecord(b *builder, raw json.RawMessage, l loc) (*gmRecord, error) {
	r := &gmRecord{loc: l, raw: raw}
	if kind(raw) != '{' {
		return nil, b.bad(l, "message: want an object")
	}
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, b.bad(l, "message: %v", cleanJSONErr(err))
	}
	if r.ID == "" {
		return nil, b.bad(l, "message has no id")
	}
	return r, nil
}

// gmIgnoredUser reports whether a user message is one Gemini CLI does not
// send to the model: a slash command, a help query or a context block.
func gmIgnoredUser(text string) bool {
	t := strings.TrimSpace(text)
	return strings.HasPrefix(t, "/") || strings.HasPrefix(t, "?") ||
		strings.HasPrefix(t, "<session_context>") || strings.HasPrefix(t, "<hook_context>")
}

// record adds the messages of one session message record.
func (g *gmReader) record(r *gmRecord) error {
	b, l := g.b, r.loc
	bad := func(path string, rerr *recErr) error {
		return b.bad(l, "%s: %s", joinPath(path, rerr.loc.path), rerr.msg)
	}
	switch r.Type {
	case "info", "error", "warning":
		return nil // shown to the user, never sent
	case "user":
		parts, rerr := g.parts(json.RawMessage(r.Content), "", r.ID)
		if rerr != nil {
			return bad("content", rerr)
		}
		var text strings.Builder
		for _, p := range parts {
			if p.Type == condense.PartText {
				text.WriteString(p.Text)
			}
		}
		if gmIgnoredUser(text.String()) {
			return nil
		}
		g.addContent(condense.RoleUser, r.ID, parts, l)
		return nil
	case "gemini":
	default:
		return b.bad(l, "message type %q: want user, gemini, info, error or warning", r.Type)
	}
	if r.Model != "" {
		b.req.Model = r.Model
	}
	content, rerr := g.parts(json.RawMessage(r.Content), "", r.ID)
	if rerr != nil {
		return bad("content", rerr)
	}
	modern := false
	for _, p := range content {
		if p.Type == condense.PartToolCall || p.Type == condense.PartThinking {
			modern = true
		}
	}
	var parts []condense.Part
	callIDs := make([]string, len(r.ToolCalls))
	if modern {
		parts = content
		// The content's calls are the record's tool calls: their results
		// answer them by id, or by name in order.
		for i, tc := range r.ToolCalls {
			callIDs[i] = tc.ID
		}
	} else {
		for _, th := range r.Thoughts {
			t := th.Description
			if th.Subject != "" {
				t = "**" + th.Subject + "** " + th.Description
			}
			if t != "" {
				parts = append(parts, condense.Thinking(t, ""))
			}
		}
		parts = append(parts, content...)
		for i, tc := range r.ToolCalls {
			path := fmt.Sprintf("toolCalls[%d]", i)
			if tc.Name == "" {
				if err := b.bad(l, "%s.name: missing", path); err != nil {
					return err
				}
				callIDs[i] = "\x00" // no call: its result is left out too
				continue
			}
			args := json.RawMessage("{}")
			switch kind(json.RawMessage(tc.Args)) {
			case 0, 'n':
			case '{':
				args = append(json.RawMessage(nil), tc.Args...)
			default:
				if err := b.bad(l, "%s.args: want an object", path); err != nil {
					return err
				}
				callIDs[i] = "\x00"
				continue
			}
			callIDs[i] = g.callID(tc.ID, tc.Name, r.ID)
			parts = append(parts, condense.ToolCall(callIDs[i], tc.Name, args))
		}
	}
	if len(parts) == 0 {
		return nil
	}
	b.add(condense.Message{ID: r.ID, Role: condense.RoleAssistant, Parts: parts}, l)

	var results []condense.Part
	for i, tc := range r.ToolCalls {
		if isNull(json.RawMessage(tc.Result)) || callIDs[i] == "\x00" {
			continue
		}
		path := fmt.Sprintf("toolCalls[%d].result", i)
		switch kind(json.RawMessage(tc.Result)) {
		case '"':
			id := g.answer(callIDs[i], tc.Name)
			results = append(results, condense.ToolResult(id, false, condense.Text(jsonString(json.RawMessage(tc.Result)))))
		case '[', '{':
			ps, rerr := g.parts(json.RawMessage(tc.Result), "", r.ID)
			if rerr != nil {
				if err := bad(path, rerr); err != nil {
					return err
				}
				continue
			}
			for _, p := range ps {
				if p.Type == condense.PartToolResult {
					results = append(results, p)
				}
			}
		default:
			if err := b.bad(l, "%s: want a string, a part or a list of parts", path); err != nil {
				return err
			}
		}
	}
	if len(results) > 0 {
		b.add(condense.Message{ID: r.ID + "_response", Role: condense.RoleTool, Parts: results}, l)
	}
	return nil
}

// gmEvent is one stream-json event.
type gmEvent struct {
	Type       string          `json:"type"`
	Model      string          `json:"model"`
	Role       string          `json:"role"`
	Content    *string         `json:"content"`
	Delta      bool            `json:"delta"`
	ToolName   string          `json:"tool_name"`
	ToolID     string          `json:"tool_id"`
	Parameters json.RawMessage `json:"parameters"`
	Status     string          `json:"status"`
	Output     *string         `json:"output"`
	Error      *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// readGeminiStream reads a stream-json log.
func readGeminiStream(b *builder, data []byte) error {
	g := newGMReader(b)
	// delta is set while the last message is assistant text that later
	// delta events continue.
	delta := false
	return eachLineIn(data, func(n int, raw []byte) error {
		l := loc{line: n}
		if kind(raw) != '{' {
			return b.bad(l, "not a JSON object")
		}
		var ev gmEvent
		if err := decode(raw, &ev); err != nil {
			return b.bad(l.at(raw, err), "%v", err)
		}
		last := b.last()
		switch ev.Type {
		case "init":
			if ev.Model != "" {
				b.req.Model = ev.Model
			}
		case "message":
			if ev.Content == nil {
				return b.bad(l, "message event without content")
			}
			switch ev.Role {
			case "user":
				delta = false
				if *ev.Content != "" {
					b.add(condense.UserText(*ev.Content), l)
				}
			case "assistant":
				if *ev.Content == "" {
					return nil
				}
				switch {
				case ev.Delta && delta && last != nil:
					p := &last.m.Parts[len(last.m.Parts)-1]
					p.Text += *ev.Content
				case last != nil && last.m.Role == condense.RoleAssistant:
					last.m.Parts = append(last.m.Parts, condense.Text(*ev.Content))
				default:
					b.add(condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(*ev.Content)}}, l)
				}
				delta = ev.Delta
			default:
				return b.bad(l, "message role %q: want user or assistant", ev.Role)
			}
		case "tool_use":
			delta = false
			if ev.ToolName == "" {
				return b.bad(l, "tool_use without tool_name")
			}
			args := json.RawMessage("{}")
			switch kind(ev.Parameters) {
			case 0, 'n':
			case '{':
				args = append(json.RawMessage(nil), ev.Parameters...)
			default:
				return b.bad(l, "parameters: want an object")
			}
			call := condense.ToolCall(g.callID(ev.ToolID, ev.ToolName, ""), ev.ToolName, args)
			if last != nil && last.m.Role == condense.RoleAssistant {
				last.m.Parts = append(last.m.Parts, call)
				return nil
			}
			b.add(condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{call}}, l)
		case "tool_result":
			delta = false
			if ev.ToolID == "" {
				return b.bad(l, "tool_result without tool_id")
			}
			text, isErr := "", ev.Status == "error"
			if ev.Output != nil {
				text = *ev.Output
			}
			if ev.Error != nil && ev.Error.Message != "" {
				if text != "" {
					text += "\n"
				}
				text += ev.Error.Message
				isErr = true
			}
			res := condense.ToolResult(ev.ToolID, isErr, condense.Text(text))
			if last != nil && last.m.Role == condense.RoleTool {
				last.m.Parts = append(last.m.Parts, res)
				return nil
			}
			b.add(condense.Message{Role: condense.RoleTool, Parts: []condense.Part{res}}, l)
		case "error", "result":
			// Warnings, errors and the closing stats: no message.
		case "":
			return b.bad(l, "no type")
		default:
			return b.bad(l, "unknown event type %q", ev.Type)
		}
		return nil
	})
}
