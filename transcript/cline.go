package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
)

// Cline and Roo Code task histories: the api_conversation_history.json file
// these VS Code extensions keep in each task folder, a JSON array of
// Anthropic messages {role, content} with members of their own.
//
// Each message is read like an Anthropic message, with these differences:
//
//   - Message members: "ts" (a timestamp), "id" (the provider's response
//     id), "metrics" (tokens and cost) and "reasoning_details" (an
//     OpenRouter reasoning array) are left out. Cline's "modelInfo" gives
//     the model: the modelId of the newest message that has one. Roo Code's
//     "reasoning_content" (DeepSeek's reasoning text) becomes a thinking
//     part leading the message.
//   - Block members Cline adds for its own bookkeeping ("call_id",
//     "reasoning_details", a thinking block's "summary", a "signature" on a
//     block other than thinking) are left out, so the blocks read as the
//     plain Anthropic blocks Cline sends. A thinking block without a
//     signature is a thinking part without one (Cline drops such blocks
//     before sending them to Anthropic; other providers take them).
//   - Roo Code "reasoning" blocks: one with text is a thinking part without
//     a signature; one with "encrypted_content" (OpenAI's encrypted
//     reasoning) is carried whole as an openai provider block; Roo Code's
//     "thoughtSignature" blocks (Gemini signatures) are left out. A message
//     of type "reasoning" without a role (an older Roo Code form) joins the
//     assistant message after it the same way, or stands as an assistant
//     message of its own when a user message comes first.
//   - Roo Code's non-destructive condensing: the newest message with
//     "isSummary" and a "condenseId" is the summary that replaced every
//     message before it; it becomes the Checkpoint (its text blocks joined
//     by blank lines) and is left out of the messages, which keep the
//     replaced ones. An older summary, and one without a condenseId (the
//     earlier, destructive condensing), is read as the message it is. The
//     sliding-window markers ("isTruncationMarker") and the messages they
//     hide are read as they stand: the whole log is kept.
//
// Tool use written as XML in assistant text (Cline before native tool
// calls, and Roo Code likewise) is recovered as tool calls where the next
// user message holds the result texts Cline writes for them, each starting
// with a header "[name …] Result:": for the k-th header, the first
// complete <name>…</name> block of the assistant text after the previous
// recovered one becomes a tool call named name whose input is an object of
// its <param>value</param> elements (values trimmed and a repeated
// parameter's last value kept, as Cline reads them),
// with the id "cline-xml-<message index>-<k>". The result holds what
// follows the header: the rest of its text block when the header has text
// after it, else the blocks after it up to the next header or a notice
// Cline adds itself (environment details, a skipped or refused tool, a task
// resumption). A result starting "The tool execution failed" or "The user
// denied this operation" is an error. The texts before, between and after
// the blocks stay text parts, and the other user blocks stay in a user
// message after the results. When any header of a user message has no
// matching complete block, or a block does not parse as parameters, the
// pair is read as plain text, unchanged.
//
// Newer Cline versions call tools natively (tool_use blocks) but may still
// answer them with the same result texts instead of tool_result blocks;
// then the k-th header of the user message answers the next tool_use of
// its name (or, when some header names no call, the headers answer the
// calls in order if there are as many of each), the results are read as
// above, and a call no header answers is
// left without a result (the builder's stand-in then says so). Result
// headers inside native tool_result blocks are kept as content.
//
// Cline's ui_messages.json (the chat as the extension shows it) is not a
// conversation history: reading it is an error pointing at
// api_conversation_history.json.

// clineMsg is one message of the file, before XML tool use is recovered.
type clineMsg struct {
	m   condense.Message
	loc loc
	// index is the message's index in the file.
	index int
}

func readCline(b *builder, data []byte) error {
	if kind(data) != '[' {
		return b.errAt(loc{}, "want a JSON array of messages (a task's api_conversation_history.json)")
	}
	var vs []rawView
	if err := decode(data, &vs); err != nil {
		return b.docErr(data, err)
	}
	// The messages are views of data, each released once read (see
	// docArena).
	raws := views(vs)
	if isClineUIMessages(raws) {
		return b.errAt(loc{}, "%s", uiMessagesProblem)
	}
	// The newest summary of a non-destructive condensing.
	summaryAt := -1
	for i, raw := range raws {
		var h struct {
			IsSummary  bool   `json:"isSummary"`
			CondenseID string `json:"condenseId"`
		}
		if json.Unmarshal(raw, &h) == nil && h.IsSummary && h.CondenseID != "" {
			summaryAt = i
		}
	}
	var msgs []clineMsg
	summary, summarySeen := "", false
	var pending []condense.Part // reasoning items waiting for their assistant message
	for i, raw := range raws {
		path := fmt.Sprintf("[%d]", i)
		l := loc{path: path}
		n := len(msgs)
		var head struct {
			Role             string  `json:"role"`
			Type             string  `json:"type"`
			Content          rawView `json:"content"`
			ReasoningContent string  `json:"reasoning_content"`
			EncryptedContent rawView `json:"encrypted_content"`
			Text             string  `json:"text"`
			ModelInfo        struct {
				ModelID string `json:"modelId"`
				ID      string `json:"id"`
			} `json:"modelInfo"`
		}
		if kind(raw) != '{' {
			if err := b.bad(l, "not a JSON object"); err != nil {
				return err
			}
			continue
		}
		if err := decode(raw, &head); err != nil {
			if err := b.bad(l, "%v", err); err != nil {
				return err
			}
			continue
		}
		if head.Role == "" && head.Type == "reasoning" {
			switch {
			case !isNull(json.RawMessage(head.EncryptedContent)):
				pending = append(pending, condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...)))
			case head.Text != "":
				pending = append(pending, condense.Thinking(head.Text, ""))
			}
			continue
		}
		var role condense.Role
		switch head.Role {
		case "user":
			role = condense.RoleUser
		case "assistant":
			role = condense.RoleAssistant
		case "":
			if err := b.bad(loc{path: path + ".role"}, "missing"); err != nil {
				return err
			}
			continue
		default:
			if err := b.bad(loc{path: path + ".role"}, "unknown role %q", head.Role); err != nil {
				return err
			}
			continue
		}
		if m := head.ModelInfo.ModelID; m != "" {
			b.req.Model = m
		} else if m := head.ModelInfo.ID; m != "" {
			b.req.Model = m
		}
		parts, rerr := clineContent(json.RawMessage(head.Content), path+".content", role)
		if rerr != nil {
			if err := b.bad(rerr.loc, "%s", rerr.msg); err != nil {
				return err
			}
			continue
		}
		if role == condense.RoleUser && len(pending) > 0 {
			msgs = append(msgs, clineMsg{m: condense.Message{Role: condense.RoleAssistant, Parts: pending}, loc: l, index: i - 1})
			pending = nil
		}
		if i == summaryAt {
			summarySeen = true
			var texts []string
			for _, p := range parts {
				if p.Type == condense.PartText && p.Text != "" {
					texts = append(texts, p.Text)
				}
			}
			summary = strings.Join(texts, "\n\n")
			continue
		}
		if role == condense.RoleAssistant {
			if head.ReasoningContent != "" {
				parts = append([]condense.Part{condense.Thinking(head.ReasoningContent, "")}, parts...)
			}
			if len(pending) > 0 {
				parts = append(pending, parts...)
				pending = nil
			}
			msgs = append(msgs, clineMsg{m: condense.Message{Role: role, Parts: parts}, loc: l, index: i})
			b.release(raw)
			keepCline(b, msgs[n:])
			continue
		}
		for _, m := range splitResults(parts) {
			msgs = append(msgs, clineMsg{m: m, loc: l, index: i})
		}
		b.release(raw)
		keepCline(b, msgs[n:])
	}
	if len(pending) > 0 {
		msgs = append(msgs, clineMsg{m: condense.Message{Role: condense.RoleAssistant, Parts: pending}, loc: loc{path: fmt.Sprintf("[%d]", len(raws)-1)}, index: len(raws) - 1})
	}
	if !summarySeen {
		summaryAt = -1 // the summary was malformed and skipped
	}
	cpDone := summaryAt < 0
	for i := 0; i < len(msgs); i++ {
		if !cpDone && msgs[i].index > summaryAt {
			b.checkpoint(summary, fmt.Sprintf("cline condense summary at [%d]", summaryAt))
			cpDone = true
		}
		acrossSummary := summaryAt >= 0 && i+1 < len(msgs) && msgs[i].index < summaryAt && msgs[i+1].index > summaryAt
		if i+1 < len(msgs) && !acrossSummary {
			if call, results, ok := recoverXMLTools(msgs[i], msgs[i+1]); ok {
				b.add(call, msgs[i].loc)
				for _, m := range results {
					b.add(m, msgs[i+1].loc)
				}
				i++
				continue
			}
		}
		b.add(msgs[i].m, msgs[i].loc)
	}
	if !cpDone {
		b.checkpoint(summary, fmt.Sprintf("cline condense summary at [%d]", summaryAt))
	}
	return nil
}

// keepCline keeps the messages of ms (see builder.keep).
func keepCline(b *builder, ms []clineMsg) {
	ptrs := make([]*condense.Message, len(ms))
	for i := range ms {
		ptrs[i] = &ms[i].m
	}
	b.keep(ptrs...)
}

// uiMessagesProblem is the error for a ui_messages.json file.
const uiMessagesProblem = "this is a Cline or Roo Code ui_messages.json (the chat as the extension shows it, " +
	"not what the model saw); read api_conversation_history.json from the same task folder instead"

// isClineUIMessages reports whether msgs look like the entries of a
// ui_messages.json file: objects with "ts" and a "type" of "say" or "ask"
// and no "role".
func isClineUIMessages(msgs []json.RawMessage) bool {
	if len(msgs) == 0 {
		return false
	}
	k := memberViews(msgs[0])
	if k == nil || k["role"] != nil || k["ts"] == nil {
		return false
	}
	t := jsonString(k["type"])
	return t == "say" || t == "ask"
}

// clineBlockFields are members Cline adds to content blocks for its own
// bookkeeping; they are left out before a block is decoded.
var clineBlockFields = []string{"call_id", "reasoning_details"}

// clineContent converts the content of a message of role: a string, or an
// array of blocks read as clineBlock says.
func clineContent(raw json.RawMessage, path string, role condense.Role) ([]condense.Part, *recErr) {
	if kind(raw) != '[' {
		if kind(raw) == 0 {
			return nil, nil
		}
		return anthBlocks(raw, path, role)
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, pathErr(path, "%v", cleanJSONErr(err))
	}
	var parts []condense.Part
	for j, bl := range blocks {
		bpath := fmt.Sprintf("%s[%d]", path, j)
		ps, rerr := clineBlock(bl, bpath, role)
		if rerr != nil {
			return nil, rerr
		}
		parts = append(parts, ps...)
	}
	return parts, nil
}

// clineBlock converts one content block.
func clineBlock(raw json.RawMessage, path string, role condense.Role) ([]condense.Part, *recErr) {
	keys := objectKeys(raw)
	if keys == nil {
		return nil, pathErr(path, "content block is not an object")
	}
	typ := jsonString(keys["type"])
	drop := clineBlockFields
	switch typ {
	case "reasoning":
		if role != condense.RoleAssistant {
			break
		}
		if !isNull(keys["encrypted_content"]) {
			return []condense.Part{condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...))}, nil
		}
		if t := jsonString(keys["text"]); t != "" {
			return []condense.Part{condense.Thinking(t, "")}, nil
		}
		return nil, nil
	case "thoughtSignature":
		return nil, nil
	case "thinking":
		if role == condense.RoleAssistant && jsonString(keys["signature"]) == "" {
			if t := jsonString(keys["thinking"]); t != "" {
				return []condense.Part{condense.Thinking(t, "")}, nil
			}
			return nil, nil
		}
		drop = append(drop, "summary")
	case "redacted_thinking":
	case "tool_result":
		drop = append(drop, "signature")
		if kind(keys["content"]) == '[' {
			raw = clineResultContent(raw, keys["content"])
		}
	default:
		drop = append(drop, "signature")
	}
	for _, name := range drop {
		if keys[name] != nil {
			raw = withoutMembers(raw, drop)
			break
		}
	}
	arr := make([]byte, 0, len(raw)+2)
	arr = append(append(append(arr, '['), raw...), ']')
	parts, err := anthropic.DecodeContent(arr, role)
	if err != nil {
		var de *anthropic.DecodeError
		if errors.As(err, &de) {
			return nil, pathErr(joinPath(path, strings.TrimPrefix(strings.TrimPrefix(de.Path, "[0]"), ".")), "%s", de.Problem)
		}
		return nil, pathErr(path, "%v", err)
	}
	return parts, nil
}

// clineResultContent returns the tool_result block raw with Cline's
// bookkeeping members left out of the blocks of its content array.
func clineResultContent(raw, content json.RawMessage) json.RawMessage {
	var blocks []json.RawMessage
	if json.Unmarshal(content, &blocks) != nil {
		return raw
	}
	changed := false
	for i, b := range blocks {
		k := objectKeys(b)
		for _, name := range append(clineBlockFields, "signature") {
			if k[name] != nil {
				blocks[i] = withoutMembers(b, append(clineBlockFields, "signature"))
				changed = true
				break
			}
		}
	}
	if !changed {
		return raw
	}
	m := objectKeys(raw)
	m["content"], _ = json.Marshal(blocks)
	out, err := json.Marshal(m)
	if err != nil {
		return raw
	}
	return out
}

// withoutMembers returns the JSON object raw without the named members,
// keeping the others in order, byte for byte. raw is returned unchanged
// when it cannot be taken apart.
func withoutMembers(raw json.RawMessage, names []string) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return raw
	}
	var out bytes.Buffer
	out.WriteByte('{')
	n := 0
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return raw
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return raw
		}
		skip := false
		for _, name := range names {
			if key == name {
				skip = true
			}
		}
		if skip {
			continue
		}
		if n > 0 {
			out.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
		n++
	}
	out.WriteByte('}')
	return out.Bytes()
}

// clineNotices start the texts Cline adds to a user message besides tool
// results; a result spread over several blocks ends before one of them.
var clineNotices = []string{"<environment_details>", "[TASK RESUMPTION]", "Skipping tool ", "Tool [", "[ERROR]"}

// clineErrorResults start the result texts that report a failure.
var clineErrorResults = []string{"The tool execution failed", "The user denied this operation"}

// resultHeader parses the header "[name] Result:" or "[name …] Result:"
// Cline starts a tool result text with, returning the tool name and the
// text after the header.
func resultHeader(s string) (name, rest string, ok bool) {
	if !strings.HasPrefix(s, "[") {
		return "", "", false
	}
	n := 1
	for n < len(s) && isToolNameByte(s[n]) {
		n++
	}
	if n == 1 || n == len(s) || (s[n] != ']' && s[n] != ' ') {
		return "", "", false
	}
	const marker = "] Result:"
	i := strings.Index(s, marker)
	if i < 0 || (s[n] == ']' && i != n) {
		return "", "", false
	}
	rest = strings.TrimPrefix(strings.TrimPrefix(s[i+len(marker):], " "), "\n")
	return s[1:n], rest, true
}

func isToolNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// xmlCall is a tool use block found in assistant text.
type xmlCall struct {
	part       int // index of the text part
	start, end int // byte range of the block in the part's text
	name       string
	input      json.RawMessage
}

// recoverXMLTools pairs the result texts of user message u with the tool
// calls of the assistant message a before it: native tool calls as they
// are, or XML tool use blocks of a's text made into tool calls, as the
// package documentation of this format says. ok is false when the pair
// does not qualify; a and u are then read unchanged.
func recoverXMLTools(a, u clineMsg) (call condense.Message, results []condense.Message, ok bool) {
	if a.m.Role != condense.RoleAssistant || u.m.Role != condense.RoleUser {
		return condense.Message{}, nil, false
	}
	native := false
	for _, p := range a.m.Parts {
		switch p.Type {
		case condense.PartText, condense.PartThinking:
		case condense.PartToolCall:
			native = true
		default:
			if _, fields := anthropic.PartFields(&p); !fields {
				return condense.Message{}, nil, false
			}
		}
	}
	var headers []resultAt
	for j, p := range u.m.Parts {
		if p.Type != condense.PartText {
			continue
		}
		if name, rest, ok := resultHeader(p.Text); ok {
			headers = append(headers, resultAt{j, name, rest})
		}
	}
	if len(headers) == 0 {
		return condense.Message{}, nil, false
	}
	var ids []string
	if native {
		// Native tool calls answered in text: the k-th header answers the
		// next call of its name.
		next := 0
		for _, h := range headers {
			found := false
			for ; next < len(a.m.Parts); next++ {
				if p := a.m.Parts[next]; p.Type == condense.PartToolCall && p.Name == h.name {
					ids = append(ids, p.ID)
					next++
					found = true
					break
				}
			}
			if !found {
				ids = nil
				break
			}
		}
		if ids == nil {
			// A header may describe its tool by another name ("[subagents]"
			// answering use_subagents): as many headers as calls pair up in
			// order.
			for _, p := range a.m.Parts {
				if p.Type == condense.PartToolCall {
					ids = append(ids, p.ID)
				}
			}
			if len(ids) != len(headers) {
				return condense.Message{}, nil, false
			}
		}
		return a.m, textResults(u.m, headers, ids), true
	}
	// Find the blocks, in order.
	budget := 256 // string searches, each at most the length of a text
	var calls []xmlCall
	pi, off := 0, 0
	for _, h := range headers {
		found := false
		for ; pi < len(a.m.Parts); pi, off = pi+1, 0 {
			p := a.m.Parts[pi]
			if p.Type != condense.PartText {
				continue
			}
			start, end, input, ok := findToolBlock(p.Text, off, h.name, &budget)
			if !ok {
				continue
			}
			calls = append(calls, xmlCall{part: pi, start: start, end: end, name: h.name, input: input})
			off = end
			found = true
			break
		}
		if !found {
			return condense.Message{}, nil, false
		}
	}
	// The assistant message: text around the blocks, the blocks as calls.
	call = a.m
	call.Parts = nil
	ci := 0
	for i, p := range a.m.Parts {
		if p.Type != condense.PartText || ci >= len(calls) || calls[ci].part != i {
			call.Parts = append(call.Parts, p)
			continue
		}
		at := 0
		for ci < len(calls) && calls[ci].part == i {
			c := calls[ci]
			if t := strings.TrimSpace(p.Text[at:c.start]); t != "" {
				call.Parts = append(call.Parts, condense.Text(t))
			}
			call.Parts = append(call.Parts, condense.ToolCall(fmt.Sprintf("cline-xml-%d-%d", a.index, ci), c.name, c.input))
			at = c.end
			ci++
		}
		if t := strings.TrimSpace(p.Text[at:]); t != "" {
			call.Parts = append(call.Parts, condense.Text(t))
		}
	}
	for k := range calls {
		ids = append(ids, fmt.Sprintf("cline-xml-%d-%d", a.index, k))
	}
	return call, textResults(u.m, headers, ids), true
}

// resultAt is a result header: the index of its text part in the user
// message, the tool it names and the text after it.
type resultAt struct {
	part int
	name string
	rest string
}

// textResults returns a tool message holding the results that start at
// headers, the k-th answering ids[k], followed by a user message with the
// parts of u no result holds, if any.
func textResults(u condense.Message, headers []resultAt, ids []string) []condense.Message {
	used := make([]bool, len(u.Parts))
	isHeader := make([]bool, len(u.Parts))
	for _, h := range headers {
		isHeader[h.part] = true
	}
	tool := condense.Message{Role: condense.RoleTool}
	for k, h := range headers {
		used[h.part] = true
		var content []condense.Part
		if strings.TrimSpace(h.rest) != "" {
			content = []condense.Part{condense.Text(h.rest)}
		} else {
			for j := h.part + 1; j < len(u.Parts) && !isHeader[j]; j++ {
				p := u.Parts[j]
				if p.Type == condense.PartText && hasAnyPrefix(p.Text, clineNotices) {
					break
				}
				if p.Type != condense.PartText && p.Type != condense.PartImage {
					break
				}
				used[j] = true
				content = append(content, p)
			}
		}
		isErr := len(content) > 0 && content[0].Type == condense.PartText && hasAnyPrefix(content[0].Text, clineErrorResults)
		tool.Parts = append(tool.Parts, condense.ToolResult(ids[k], isErr, content...))
	}
	results := []condense.Message{tool}
	rest := condense.Message{Role: condense.RoleUser}
	for j, p := range u.Parts {
		if !used[j] {
			rest.Parts = append(rest.Parts, p)
		}
	}
	if len(rest.Parts) > 0 {
		results = append(results, rest)
	}
	return results
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// findToolBlock finds the first <name> at or after from in s and the
// </name> that closes it such that the text between is a sequence of
// <param>value</param> elements and white space. It returns the block's
// byte range and its parameters as a JSON object of strings. budget bounds
// the parsing work; the search fails when it runs out.
func findToolBlock(s string, from int, name string, budget *int) (start, end int, input json.RawMessage, ok bool) {
	open, close := "<"+name+">", "</"+name+">"
	i := strings.Index(s[from:], open)
	if i < 0 {
		return 0, 0, nil, false
	}
	start = from + i
	body := start + len(open)
	search := body
	for tries := 0; tries < 8; tries++ {
		if *budget--; *budget < 0 {
			break
		}
		e := strings.Index(s[search:], close)
		if e < 0 {
			break
		}
		e += search
		if params, ok := parseParams(s[body:e], 0, nil, budget); ok {
			return start, e + len(close), marshalParams(params), true
		}
		search = e + len(close)
	}
	return 0, 0, nil, false
}

type param struct{ name, value string }

// parseParams parses body[pos:] as <param>value</param> elements separated
// by white space, trying later closing tags for a value that holds its own
// closing tag.
func parseParams(body string, pos int, acc []param, budget *int) ([]param, bool) {
	*budget--
	if *budget < 0 {
		return nil, false
	}
	for pos < len(body) && strings.IndexByte(" \t\r\n", body[pos]) >= 0 {
		pos++
	}
	if pos == len(body) {
		return acc, true
	}
	if body[pos] != '<' {
		return nil, false
	}
	gt := strings.IndexByte(body[pos:], '>')
	if gt < 2 {
		return nil, false
	}
	tag := body[pos+1 : pos+gt]
	for i := 0; i < len(tag); i++ {
		if !isToolNameByte(tag[i]) {
			return nil, false
		}
	}
	valStart := pos + gt + 1
	closeTag := "</" + tag + ">"
	search := valStart
	for tries := 0; tries < 8; tries++ {
		if *budget--; *budget < 0 {
			return nil, false
		}
		e := strings.Index(body[search:], closeTag)
		if e < 0 {
			break
		}
		e += search
		next := withParam(acc, param{tag, strings.TrimSpace(body[valStart:e])})
		if res, ok := parseParams(body, e+len(closeTag), next, budget); ok {
			return res, true
		}
		search = e + len(closeTag)
	}
	return nil, false
}

// withParam returns a copy of acc with p added, or replacing an earlier
// value of the same name (the last one wins, as in Cline).
func withParam(acc []param, p param) []param {
	out := append([]param(nil), acc...)
	for i := range out {
		if out[i].name == p.name {
			out[i] = p
			return out
		}
	}
	return append(out, p)
}

// marshalParams writes params as a JSON object of strings, in order.
func marshalParams(params []param) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	b.WriteByte('{')
	for i, p := range params {
		if i > 0 {
			b.WriteByte(',')
		}
		_ = enc.Encode(p.name)
		b.Truncate(b.Len() - 1) // the encoder's newline
		b.WriteByte(':')
		_ = enc.Encode(p.value)
		b.Truncate(b.Len() - 1)
	}
	b.WriteByte('}')
	return b.Bytes()
}
