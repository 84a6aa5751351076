package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/openai"
)

// Codex CLI rollout JSONL: lines {timestamp, type, payload}.
//
// The reader takes the instructions of session_meta as the system text and
// the model of the last turn_context; event_msg and other turn_context data
// are skipped. response_item payloads are Responses API items, read by the
// codec of provider/openai (openai.DecodeResponsesItems), and become
// messages:
//   - message: user, assistant, or developer/system (the system text while
//     no user or assistant message came yet, a system message after);
//     input_text/output_text become text, input_image an image;
//   - reasoning: one thinking part holding its summary and reasoning text
//     (without a signature: it is not Anthropic's); an item with
//     encrypted_content is also carried whole, byte for byte, as an openai
//     provider block;
//   - function_call, custom_tool_call and local_shell_call become tool calls
//     (a custom call's free-form input is wrapped as {"input": "…"}, a
//     local shell call's input is its action, under the name "local_shell");
//     their outputs become tool results (an object output with
//     "success": false is an error);
//   - web_search_call, tool_search_call, tool_search_output,
//     image_generation_call and compaction items (which run or are kept on
//     OpenAI's side) are carried as openai provider blocks; other item
//     types (ghost_snapshot, the harness's git snapshot, and the harness's
//     own bookkeeping items of newer versions) carry nothing the model was
//     sent and are skipped, unless they hold encrypted_content, which
//     carries them as provider blocks too.
//
// What the codec keeps for a lossless round trip and a transcript does not
// need (an item's "id" and "status", a part's annotations) is left out; see
// cxDecodeItem for where the reader is stricter than the codec.
//
// Legacy rollouts (before session_meta lines) are read too: a first line
// {id, timestamp, instructions}, then one bare response item per line, and
// {"record_type": …} state lines, which are skipped.
//
// Lines of other types (event_msg, which repeats what response items hold
// for the UI, and the newer versions' agent coordination lines) are
// skipped.
//
// Consecutive assistant-side items (reasoning, assistant messages, calls)
// form one assistant message. A compacted line is imported as the
// Checkpoint: its message is the summary, and the items after it are kept.
// Newer versions compact on OpenAI's side: their compacted line has an
// empty (or no) message and a replacement_history, the items Codex went on
// from (the user's recent messages, the encrypted compaction item); the
// summary is then the text of that history's messages.

type cxLine struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

type cxItem struct {
	Type             string          `json:"type"`
	ID               string          `json:"id"`
	Content          json.RawMessage `json:"content"`
	Arguments        json.RawMessage `json:"arguments"`
	Input            json.RawMessage `json:"input"`
	CallID           string          `json:"call_id"`
	Output           json.RawMessage `json:"output"`
	EncryptedContent json.RawMessage `json:"encrypted_content"`
	Action           json.RawMessage `json:"action"`
}

func readCodex(b *builder) error {
	leading := true
	var system []string
	err := b.eachLine(func(n int, raw []byte) error {
		l := loc{line: n}
		var cl cxLine
		if kind(raw) != '{' {
			return b.bad(l, "not a JSON object")
		}
		if err := decode(raw, &cl); err != nil {
			return b.bad(l.at(raw, err), "%v", err)
		}
		switch cl.Type {
		case "session_meta":
			var meta struct {
				Instructions     *string `json:"instructions"`
				BaseInstructions *struct {
					Text string `json:"text"`
				} `json:"base_instructions"`
			}
			if err := decode(cl.Payload, &meta); err != nil {
				return b.bad(l, "session_meta: %v", err)
			}
			if meta.BaseInstructions != nil && meta.BaseInstructions.Text != "" {
				system = append(system, meta.BaseInstructions.Text)
			}
			if meta.Instructions != nil && *meta.Instructions != "" {
				system = append(system, *meta.Instructions)
			}
		case "turn_context":
			var tc struct {
				Model string `json:"model"`
			}
			if json.Unmarshal(cl.Payload, &tc) == nil && tc.Model != "" {
				b.req.Model = tc.Model
			}
		case "compacted":
			summary, ok := cxCompacted(cl.Payload)
			if !ok {
				return b.bad(l, "compacted: want a payload with a message or a replacement_history")
			}
			b.checkpoint(summary, fmt.Sprintf("codex compacted at line %d", n))
		case "response_item":
			var it cxItem
			if kind(cl.Payload) != '{' {
				return b.bad(l, "response_item without an object payload")
			}
			if err := decode(cl.Payload, &it); err != nil {
				return b.bad(l, "payload: %v", err)
			}
			return cxItemMessage(b, &it, cl.Payload, l, &leading, &system)
		case "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
			"custom_tool_call_output", "local_shell_call", "web_search_call":
			// Legacy rollouts: a bare response item per line.
			if isNull(cl.Payload) {
				var it cxItem
				if err := decode(raw, &it); err != nil {
					return b.bad(l.at(raw, err), "%v", err)
				}
				return cxItemMessage(b, &it, raw, l, &leading, &system)
			}
		case "":
			keys := objectKeys(raw)
			switch {
			case keys["record_type"] != nil:
				// Legacy state lines.
			case keys["id"] != nil && keys["timestamp"] != nil:
				// The legacy first line: session meta without a type.
				var meta struct {
					Instructions *string `json:"instructions"`
				}
				if json.Unmarshal(raw, &meta) == nil && meta.Instructions != nil && *meta.Instructions != "" {
					system = append(system, *meta.Instructions)
				}
			default:
				return b.bad(l, "no type")
			}
		}
		return nil
	})
	b.req.System = strings.Join(system, "\n\n")
	return err
}

// cxItemMessage adds the messages of one response item. The item is read
// by the Responses API codec of provider/openai (openai.DecodeResponsesItems);
// on top of it the reader keeps what a transcript carries and follows the
// rollout's conventions (see the comment at the top of the file).
func cxItemMessage(b *builder, it *cxItem, raw json.RawMessage, l loc, leading *bool, system *[]string) error {
	var assistant []condense.Part
	switch it.Type {
	case "message", "reasoning", "function_call", "custom_tool_call",
		"function_call_output", "custom_tool_call_output",
		"web_search_call", "compaction", "compaction_summary":
		m, err := cxDecodeItem(b, it, raw, l)
		if m == nil {
			return err
		}
		switch m.Role {
		case condense.RoleUser:
			*leading = false
			b.add(condense.Message{ID: it.ID, Role: condense.RoleUser, Parts: m.Parts}, l)
			return nil
		case condense.RoleSystem:
			if *leading {
				*system = append(*system, m.TextContent())
				return nil
			}
			b.add(condense.Message{ID: it.ID, Role: condense.RoleSystem, Parts: m.Parts}, l)
			return nil
		case condense.RoleTool:
			b.add(condense.Message{ID: it.ID, Role: condense.RoleTool, Parts: m.Parts}, l)
			return nil
		}
		assistant = m.Parts
	case "tool_search_call", "tool_search_output", "image_generation_call":
		// Tool search and image generation run on OpenAI's side: carried
		// whole, byte for byte, as openai provider blocks.
		assistant = []condense.Part{condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...))}
	case "local_shell_call":
		// The codec keeps it as an opaque item; a transcript reads it as
		// the tool call it is.
		id := it.CallID
		if id == "" {
			id = it.ID
		}
		if id == "" {
			return b.bad(l, "payload.call_id: missing")
		}
		if kind(it.Action) != '{' {
			return b.bad(l, "payload.action: want an object")
		}
		assistant = []condense.Part{condense.ToolCall(id, "local_shell", append(json.RawMessage(nil), it.Action...))}
	default:
		if !isNull(it.EncryptedContent) {
			assistant = []condense.Part{condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...))}
		}
	}
	if len(assistant) == 0 {
		return nil
	}
	*leading = false
	last := b.last()
	atCheckpoint := b.cp != nil && b.cp.at == len(b.msgs)
	if last != nil && last.m.Role == condense.RoleAssistant && !atCheckpoint {
		last.m.Parts = append(last.m.Parts, assistant...)
		if last.m.ID == "" {
			last.m.ID = it.ID
		}
		return nil
	}
	b.add(condense.Message{ID: it.ID, Role: condense.RoleAssistant, Parts: assistant}, l)
	return nil
}

// cxDecodeItem decodes one response item with the codec and applies the
// reader's rules to the message it gives. A nil message with a nil error
// means a malformed item skipped under Options.Lenient.
//
// The reader is stricter than the codec in places: function call arguments
// must be a string of JSON ("" and "null" are {}), a custom tool call's
// input a string (its input is {"input": "…"}), a call output a string, an
// array of content items or the rollout's object {"content" or
// "content_items", "success"} ("success": false makes the result an
// error), and an image a base64 data: URL if a data: URL at all. It keeps
// less: the codec's fields blocks (an item's "id" and "status", a part's
// annotations) are left out, and a reasoning item is a thinking part
// without a signature (its summary and reasoning text), followed by the
// whole item as an openai provider block when it holds encrypted content.
func cxDecodeItem(b *builder, it *cxItem, raw json.RawMessage, l loc) (*condense.Message, error) {
	var input json.RawMessage // a call's input, as the reader reads it
	var isErr bool
	switch it.Type {
	case "function_call":
		var args string
		if kind(it.Arguments) != '"' || json.Unmarshal(it.Arguments, &args) != nil {
			return nil, b.bad(l, "payload.arguments: want a string of JSON")
		}
		var ok bool
		if input, ok = validInput(args); !ok {
			// The model wrote arguments that do not parse (or the file's
			// author redacted them into text): Codex records them as they
			// are, and so does the reader, as a string.
			input, _ = json.Marshal(map[string]string{"arguments": args})
			b.note(NoteConverted, l, "payload.arguments is not valid JSON: kept as the string {\"arguments\": …}")
		}
	case "custom_tool_call":
		var s string
		if kind(it.Input) != '"' || json.Unmarshal(it.Input, &s) != nil {
			return nil, b.bad(l, "payload.input: want a string")
		}
		input, _ = json.Marshal(map[string]string{"input": s})
	case "function_call_output", "custom_tool_call_output":
		switch kind(it.Output) {
		case '"', '[':
		case '{':
			var o struct {
				Content      json.RawMessage `json:"content"`
				ContentItems json.RawMessage `json:"content_items"`
				Success      *bool           `json:"success"`
			}
			if json.Unmarshal(it.Output, &o) != nil {
				return nil, b.bad(l, "payload.output: want a string, an array or an object")
			}
			isErr = o.Success != nil && !*o.Success
			src := o.Content
			if isNull(src) {
				src = o.ContentItems
			}
			// The codec reads the item with the output's content as its
			// output.
			item := map[string]json.RawMessage{"type": json.RawMessage(`"function_call_output"`)}
			item["call_id"], _ = json.Marshal(it.CallID)
			switch kind(src) {
			case '"', '[':
				item["output"] = src
			case 0, 'n':
			default:
				return nil, b.bad(l, "payload.output.content: want a string or an array of content items")
			}
			raw, _ = json.Marshal(item)
		default:
			return nil, b.bad(l, "payload.output: want a string, an array or an object")
		}
	}
	// The codec's messages share the memory they are read from: a buffer
	// of their own, as the caller's data is not retained.
	buf := make([]byte, 0, len(raw)+2)
	buf = append(append(append(buf, '['), raw...), ']')
	msgs, err := openai.DecodeResponsesItems(buf)
	if err != nil {
		var de *openai.DecodeError
		if !errors.As(err, &de) {
			return nil, b.bad(l, "payload: %v", err)
		}
		// Paths are under the item, "[0]" in the array.
		return nil, b.bad(l, "payload%s: %s", strings.TrimPrefix(de.Path, "[0]"), de.Msg)
	}
	if len(msgs) != 1 {
		return nil, b.bad(l, "payload: want one item")
	}
	m := &msgs[0]
	var parts []condense.Part
	k := 0 // content part index, for errors
	for i := range m.Parts {
		p := m.Parts[i]
		if openai.IsFieldsPart(&p) {
			continue
		}
		switch p.Type {
		case condense.PartThinking:
			if p.Text != "" {
				parts = append(parts, condense.Thinking(p.Text, ""))
			}
			if !isNull(it.EncryptedContent) {
				parts = append(parts, condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...)))
			}
			continue
		case condense.PartToolCall:
			p.Input = input
		case condense.PartToolResult:
			content, rerr := cxParts(p.Content, "payload.output")
			if rerr != nil {
				return nil, b.bad(l, "%s", rerr.msg)
			}
			p.Content, p.IsError = content, isErr
		default:
			ps, rerr := cxParts([]condense.Part{p}, fmt.Sprintf("payload.content[%d]", k))
			if rerr != nil {
				return nil, b.bad(l, "%s", rerr.msg)
			}
			p = ps[0]
			k++
		}
		parts = append(parts, p)
	}
	if it.Type == "message" && m.Role == condense.RoleAssistant && cxEmpty(it.Content) {
		parts = nil // the codec's stand-in for an item without content
	}
	m.Parts = parts
	return m, nil
}

// cxParts applies the reader's rules to content parts the codec read: its
// fields blocks are left out, and an image given as a data: URL the codec
// did not decode must be a base64 data: URL. path names the first part, or
// the content array when it ends in "output".
func cxParts(parts []condense.Part, path string) ([]condense.Part, *recErr) {
	var out []condense.Part
	k := 0
	for _, p := range parts {
		if openai.IsFieldsPart(&p) {
			continue
		}
		ppath := path
		if strings.HasSuffix(path, "output") {
			ppath = fmt.Sprintf("%s[%d]", path, k)
		}
		k++
		if p.Type == condense.PartImage && strings.HasPrefix(p.URL, "data:") {
			img, ok := imageFromURL(p.URL)
			if !ok {
				return nil, &recErr{msg: ppath + ".image_url: want an http(s) or base64 data: URL"}
			}
			p = img
		}
		out = append(out, p)
	}
	return out, nil
}

// cxEmpty reports whether a message item's content holds nothing: it is
// missing, null or an empty array.
func cxEmpty(raw json.RawMessage) bool {
	if isNull(raw) {
		return true
	}
	var items []json.RawMessage
	return kind(raw) == '[' && json.Unmarshal(raw, &items) == nil && len(items) == 0
}

// cxCompacted returns the summary of a compacted line's payload: its
// "message", or, when that is empty (newer versions compact on OpenAI's side
// and keep the summary encrypted in a compaction item), the text of the
// messages of its "replacement_history", the items Codex continued from. ok
// is false when the payload holds neither.
func cxCompacted(payload json.RawMessage) (summary string, ok bool) {
	var c struct {
		Message            *string           `json:"message"`
		ReplacementHistory []json.RawMessage `json:"replacement_history"`
	}
	if decode(payload, &c) != nil || c.Message == nil && c.ReplacementHistory == nil {
		return "", false
	}
	if c.Message != nil && *c.Message != "" {
		return *c.Message, true
	}
	var texts []string
	for _, raw := range c.ReplacementHistory {
		var it struct {
			Type    string          `json:"type"`
			Content json.RawMessage `json:"content"`
		}
		if json.Unmarshal(raw, &it) != nil || it.Type != "message" && it.Type != "" {
			continue
		}
		if s := jsonString(it.Content); s != "" {
			texts = append(texts, s)
			continue
		}
		var parts []struct {
			Text string `json:"text"`
		}
		_ = json.Unmarshal(it.Content, &parts)
		for _, p := range parts {
			if p.Text != "" {
				texts = append(texts, p.Text)
			}
		}
	}
	return strings.Join(texts, "\n\n"), true
}
