package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
)

// LeadingUserText is the text of the user message the Anthropic writer puts
// first when the conversation would otherwise start with an assistant
// message (a sub-agent's transcript, or one compacted from the middle), which
// the Messages API refuses.
const LeadingUserText = "[condense: the conversation continues]"

// AnyObjectSchema is the input schema given to a tool the request calls but
// does not define: any JSON object. Both APIs want a definition for every
// tool a request's history calls.
const AnyObjectSchema = `{"type":"object"}`

// forProvider returns req made acceptable as it is to the API of format f
// (FormatOpenAI or FormatAnthropic), ready for that format's codec:
//
//   - failed assistant replies without tool calls are left out, and so are
//     the parts the format has no place for (see Write), then the messages
//     left with nothing;
//   - a tool call without a result (the newest step's, still running when
//     the transcript was saved) gets StandInResult, marked as an error, in a
//     tool message after its step's other results, and a result answering
//     no call of its step is left out;
//   - tool call ids are made unique and, for Anthropic, made to match
//     ^[a-zA-Z0-9_-]+$, for OpenAI at most openai.MaxToolCallIDLen long:
//     an id that breaks a rule becomes what sanitizeID makes of it, with
//     "_2", "_3", … added until it is unused; its results follow it;
//   - tool names that break ^[a-zA-Z0-9_-]{1,64}$ are rewritten the same
//     way (cut to 64 characters), in definitions and calls alike; a second
//     definition of one name is left out, and a tool called but not defined
//     gets AnyObjectSchema; a schema that is not a JSON object of type
//     "object" becomes one (an object without a type gets
//     "type":"object", anything else AnyObjectSchema).
//
// For Anthropic also: empty and whitespace-only text parts are left out;
// when the first message would be an assistant message, a user message
// holding LeadingUserText goes first; a final assistant message loses its
// trailing whitespace; and with thinking enabled the budget is at least
// anthropic.MinThinkingBudget and the output cap above it, unless the
// request ends with tool results for an assistant turn that does not start
// with thinking (its thinking was another provider's, or compacted away),
// which the API refuses with thinking enabled: then thinking is not
// enabled.
func forProvider(req condense.Request, f Format) condense.Request {
	msgs := make([]condense.Message, 0, len(req.Messages)+2)
	for i := range req.Messages {
		m := req.Messages[i]
		if failedReply(&m) {
			continue
		}
		if f == FormatAnthropic {
			m.Parts = anthWritable(m.Parts, m.Role)
		} else {
			m.Parts = oaiWritable(m.Parts, m.Role)
		}
		if len(m.Parts) > 0 {
			msgs = append(msgs, m)
		}
	}
	msgs = answerCalls(msgs)
	msgs = rekeyCalls(msgs, f == FormatAnthropic)
	req.Tools, msgs = provideTools(req.Tools, msgs)
	if f == FormatAnthropic {
		msgs = trimPrefill(msgs)
		if len(msgs) == 0 || msgs[0].Role == condense.RoleAssistant {
			msgs = append([]condense.Message{condense.UserText(LeadingUserText)}, msgs...)
		}
		if req.MaxOutputTokens <= 0 {
			req.MaxOutputTokens = condense.DefaultReservedOutput
		}
		if req.ThinkingBudget > 0 && !loopThinks(msgs) {
			req.ThinkingBudget = 0
		}
		if req.ThinkingBudget > 0 {
			req.ThinkingBudget = max(req.ThinkingBudget, anthropic.MinThinkingBudget)
			if req.MaxOutputTokens <= req.ThinkingBudget {
				req.MaxOutputTokens += req.ThinkingBudget
			}
		}
	}
	req.Messages = msgs
	return req
}

// anthWritable returns the parts of a message of role that the Anthropic
// codec writes as blocks the API takes: without thinking that has no
// signature (another provider's reasoning) or is not in an assistant
// message, other providers' blocks, message fields parts (which would start
// wire messages of their own), images with neither bytes nor address or in
// an assistant message, and empty or whitespace-only text, in tool results
// too (role "" stands for a tool result's content), and opaque blocks the
// API would refuse (anthOpaqueOK); the fields parts of a part left out go
// with it. An image of a type the API does not take (anthImageTypes)
// becomes the text "[image]", and so does one whose address is not http(s).
func anthWritable(parts []condense.Part, role condense.Role) []condense.Part {
	wire := "user"
	if role == condense.RoleAssistant {
		wire = "assistant"
	}
	out := make([]condense.Part, 0, len(parts))
	dropped := true // whether the last block was left out (none is there yet)
	for _, p := range parts {
		if p.Type == condense.PartProvider && p.Provider == anthropic.Provider {
			if _, fields := anthropic.PartFields(&p); fields {
				// Members of the block before: left out with it.
				if !dropped {
					out = append(out, p)
				}
				continue
			}
		}
		dropped = true
		switch p.Type {
		case condense.PartThinking:
			if p.Signature == "" && p.Redacted == "" || role != condense.RoleAssistant {
				continue
			}
		case condense.PartText:
			if blank(p.Text) {
				continue
			}
		case condense.PartImage:
			if len(p.Data) == 0 && p.URL == "" || role == condense.RoleAssistant {
				continue
			}
			if p.URL == "" && !anthImageTypes[p.MediaType] || len(p.Data) == 0 && !usableImageURL(p.URL, false) {
				p = condense.Text("[image]")
			}
		case condense.PartProvider:
			if p.Provider != anthropic.Provider {
				continue
			}
			if _, ok := anthropic.MessageFields(&p); ok {
				continue
			}
			if !anthOpaqueOK(p.Raw, wire) {
				continue
			}
		case condense.PartToolResult:
			p.Content = anthWritable(p.Content, "")
		}
		dropped = false
		out = append(out, p)
	}
	return out
}

// anthOpaqueOK reports whether an opaque Anthropic block may go into a
// message of the wire role as it is: it passes anthropic.CheckBlock, and is
// not a tool_use or tool_result, whose pairing the writer could not keep.
func anthOpaqueOK(raw json.RawMessage, role string) bool {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(raw, &head) != nil || head.Type == "tool_use" || head.Type == "tool_result" {
		return false
	}
	return len(anthropic.CheckBlock(raw, role)) == 0
}

// anthImageTypes are the media types of the images the API takes as
// base64 data; an image of another type is written as the text "[image]".
var anthImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// usableImageURL reports whether an image address is one the provider
// fetches: http(s), or with data a data: URL (OpenAI only).
func usableImageURL(u string, data bool) bool {
	return strings.HasPrefix(u, "https://") || strings.HasPrefix(u, "http://") || data && strings.HasPrefix(u, "data:")
}

func blank(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }

// answerCalls gives every tool call of an assistant message without a
// result in the tool messages right after it the result StandInResult (an
// error), in a tool message after them, and leaves out results answering
// no call of their step (and tool messages left empty).
func answerCalls(msgs []condense.Message) []condense.Message {
	out := make([]condense.Message, 0, len(msgs)+1)
	for i := 0; i < len(msgs); {
		m := msgs[i]
		i++
		if m.Role != condense.RoleAssistant || !m.HasToolCalls() {
			if m.Role == condense.RoleTool {
				m.Parts = withoutResults(m.Parts)
				if len(m.Parts) == 0 {
					continue
				}
			}
			out = append(out, m)
			continue
		}
		out = append(out, m)
		open := map[string]bool{}
		var order []string
		for _, p := range m.Parts {
			if p.Type == condense.PartToolCall && !open[p.ID] {
				open[p.ID] = true
				order = append(order, p.ID)
			}
		}
		for ; i < len(msgs) && msgs[i].Role == condense.RoleTool; i++ {
			t := msgs[i]
			parts := make([]condense.Part, 0, len(t.Parts))
			for _, p := range t.Parts {
				if p.Type == condense.PartToolResult {
					if !open[p.CallID] {
						continue
					}
					delete(open, p.CallID)
				}
				parts = append(parts, p)
			}
			if len(parts) > 0 {
				t.Parts = parts
				out = append(out, t)
			}
		}
		var stand []condense.Part
		for _, id := range order {
			if open[id] {
				stand = append(stand, condense.ToolResult(id, true, condense.Text(StandInResult)))
			}
		}
		if len(stand) > 0 {
			out = append(out, condense.Message{Role: condense.RoleTool, Parts: stand})
		}
	}
	return out
}

// withoutResults returns parts without tool results: in a tool message
// that follows no calls, they answer nothing.
func withoutResults(parts []condense.Part) []condense.Part {
	out := parts[:0:0]
	for _, p := range parts {
		if p.Type != condense.PartToolResult {
			out = append(out, p)
		}
	}
	return out
}

// idChar reports whether c may appear in an Anthropic tool_use id or a
// tool name.
func idChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// sanitize returns s with every byte idChar refuses replaced by "_" (one
// per character), cut to limit bytes when limit > 0; "x" for "".
func sanitize(s string, limit int) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && idChar(byte(r)) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	out := b.String()
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	if out == "" {
		out = "x"
	}
	return out
}

// unused returns base, or base with "_2", "_3", … added (cut so that the
// whole stays within limit bytes when limit > 0), whichever is first not
// taken.
func unused(base string, limit int, taken func(string) bool) string {
	if !taken(base) {
		return base
	}
	for n := 2; ; n++ {
		suffix := "_" + strconv.Itoa(n)
		b := base
		if limit > 0 && len(b)+len(suffix) > limit {
			b = b[:limit-len(suffix)]
		}
		if c := b + suffix; !taken(c) {
			return c
		}
	}
}

// rekeyCalls makes tool call ids unique (and, with strict, Anthropic ids)
// as forProvider says; each step's results follow their call.
func rekeyCalls(msgs []condense.Message, strict bool) []condense.Message {
	ok := func(id string) bool {
		if strict {
			return anthropic.ValidToolUseID(id)
		}
		return id != "" && len(id) <= openai.MaxToolCallIDLen
	}
	limit := 0
	if !strict {
		limit = openai.MaxToolCallIDLen
	}
	// The ids kept as they are: allowed ones, at their first call.
	kept := map[string]bool{}
	first := map[string]bool{}
	for i := range msgs {
		for _, p := range msgs[i].Parts {
			if p.Type == condense.PartToolCall && !first[p.ID] {
				first[p.ID] = true
				kept[p.ID] = ok(p.ID)
			}
		}
	}
	used := map[string]bool{}
	taken := func(id string) bool { return used[id] || kept[id] }
	seen := map[string]bool{}
	var step map[string]string // the current step's renamed calls
	for i := range msgs {
		m := &msgs[i]
		switch m.Role {
		case condense.RoleAssistant:
			step = nil
			for j, p := range m.Parts {
				if p.Type != condense.PartToolCall {
					continue
				}
				id := p.ID
				if !seen[id] && kept[id] {
					seen[id] = true
					used[id] = true
					continue
				}
				seen[id] = true
				nid := unused(sanitizeID(id, strict), limit, taken)
				used[nid] = true
				if step == nil {
					step = map[string]string{}
					m.Parts = append([]condense.Part(nil), m.Parts...)
				}
				step[id] = nid
				m.Parts[j].ID = nid
			}
		case condense.RoleTool:
			if step == nil {
				continue
			}
			parts := append([]condense.Part(nil), m.Parts...)
			for j, p := range parts {
				if p.Type == condense.PartToolResult {
					if nid, ok := step[p.CallID]; ok {
						parts[j].CallID = nid
					}
				}
			}
			m.Parts = parts
		default:
			step = nil
		}
	}
	return msgs
}

// sanitizeID returns id made acceptable: for Anthropic (strict), its
// characters outside [a-zA-Z0-9_-] become "_"; for OpenAI, "" becomes
// "call" and an id over openai.MaxToolCallIDLen bytes becomes its first
// characters (as sanitize makes them) and "_" and 8 hex digits of its
// FNV-1a hash, 40 in all.
func sanitizeID(id string, strict bool) string {
	switch {
	case strict:
		return sanitize(id, 0)
	case id == "":
		return "call"
	case len(id) > openai.MaxToolCallIDLen:
		h := fnv.New32a()
		h.Write([]byte(id))
		return fmt.Sprintf("%s_%08x", sanitize(id, openai.MaxToolCallIDLen-9), h.Sum32())
	}
	return id
}

// provideTools returns tools with a definition for every tool msgs call,
// names the APIs accept (calls renamed with them) and object schemas, as
// forProvider says.
func provideTools(tools []condense.Tool, msgs []condense.Message) ([]condense.Tool, []condense.Message) {
	names := map[string]string{} // name -> name written
	taken := map[string]bool{}
	rename := func(name string) string {
		if n, ok := names[name]; ok {
			return n
		}
		n := name
		if !anthropic.ValidToolName(n) || taken[n] {
			n = unused(sanitize(name, 64), 64, func(s string) bool {
				_, orig := names[s]
				return taken[s] || orig && s != name
			})
		}
		names[name] = n
		taken[n] = true
		return n
	}
	// Valid names keep themselves; take them first so that a rewritten
	// name never lands on one.
	for _, t := range tools {
		if anthropic.ValidToolName(t.Name) {
			rename(t.Name)
		}
	}
	for i := range msgs {
		for _, p := range msgs[i].Parts {
			if p.Type == condense.PartToolCall && anthropic.ValidToolName(p.Name) {
				rename(p.Name)
			}
		}
	}
	out := make([]condense.Tool, 0, len(tools))
	defined := map[string]bool{}
	for _, t := range tools {
		t.Name = rename(t.Name)
		if defined[t.Name] {
			continue
		}
		defined[t.Name] = true
		t.InputSchema = objectSchema(t.InputSchema)
		out = append(out, t)
	}
	for i := range msgs {
		m := &msgs[i]
		copied := false
		for j, p := range m.Parts {
			if p.Type != condense.PartToolCall {
				continue
			}
			n := rename(p.Name)
			if n != p.Name {
				if !copied {
					m.Parts = append([]condense.Part(nil), m.Parts...)
					copied = true
				}
				m.Parts[j].Name = n
			}
			if !defined[n] {
				defined[n] = true
				out = append(out, condense.Tool{Name: n, InputSchema: json.RawMessage(AnyObjectSchema)})
			}
		}
	}
	return out, msgs
}

// objectSchema returns s as a JSON schema object of type "object".
func objectSchema(s json.RawMessage) json.RawMessage {
	t := bytes.TrimSpace(s)
	var m map[string]json.RawMessage
	if len(t) == 0 || t[0] != '{' || json.Unmarshal(t, &m) != nil {
		return json.RawMessage(AnyObjectSchema)
	}
	typ, there := m["type"]
	if !there {
		if len(m) == 0 {
			return json.RawMessage(AnyObjectSchema)
		}
		return append(json.RawMessage(`{"type":"object",`), t[1:]...)
	}
	var ts string
	if json.Unmarshal(typ, &ts) != nil || ts != "object" {
		return json.RawMessage(AnyObjectSchema)
	}
	return s
}

// loopThinks reports whether msgs, as the Anthropic writer sends them, may
// go with thinking enabled: unless the last user turn holds tool results,
// yes; else only when the assistant turn before it starts with thinking.
func loopThinks(msgs []condense.Message) bool {
	i := len(msgs)
	results := false
	for i > 0 && msgs[i-1].Role != condense.RoleAssistant {
		i--
		for _, p := range msgs[i].Parts {
			results = results || p.Type == condense.PartToolResult
		}
	}
	if !results {
		return true
	}
	j := i
	for j > 0 && msgs[j-1].Role == condense.RoleAssistant {
		j--
	}
	if j == i || len(msgs[j].Parts) == 0 {
		return false
	}
	return msgs[j].Parts[0].Type == condense.PartThinking
}

// trimPrefill takes the trailing whitespace off the content of a final
// assistant message, which the API refuses in a prefill, leaving out text
// and messages that end up empty.
func trimPrefill(msgs []condense.Message) []condense.Message {
	for len(msgs) > 0 {
		m := &msgs[len(msgs)-1]
		if m.Role != condense.RoleAssistant {
			return msgs
		}
		k := len(m.Parts) - 1
		for k >= 0 {
			if _, fields := anthropic.PartFields(&m.Parts[k]); !fields {
				break
			}
			k--
		}
		if k < 0 || m.Parts[k].Type != condense.PartText {
			return msgs
		}
		text := strings.TrimRightFunc(m.Parts[k].Text, unicode.IsSpace)
		if text == m.Parts[k].Text {
			return msgs
		}
		parts := append([]condense.Part(nil), m.Parts...)
		if text != "" {
			parts[k].Text = text
			m.Parts = parts
			return msgs
		}
		m.Parts = append(parts[:k], parts[k+1:]...)
		if len(m.Parts) > 0 {
			continue
		}
		msgs = msgs[:len(msgs)-1]
	}
	return msgs
}
