package transcript

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// Codex CLI rollout JSONL: lines {timestamp, type, payload}.
//
// The reader takes the instructions of session_meta as the system text and
// the model of the last turn_context; event_msg and other turn_context data
// are skipped. response_item payloads become messages:
//   - message: user, assistant, or developer/system (the system text while
//     no user or assistant message came yet, a system message after);
//     input_text/output_text become text, input_image an image;
//   - reasoning: each summary (and content) text becomes a thinking part;
//     an item with encrypted_content is also carried whole, byte for byte,
//     as an openai provider block;
//   - function_call, custom_tool_call and local_shell_call become tool calls
//     (a custom call's free-form input is wrapped as {"input": "…"}, a
//     local shell call's input is its action, under the name "local_shell");
//     their outputs become tool results (an object output with
//     "success": false is an error);
//   - web_search_call and compaction items are carried as openai provider
//     blocks; other item types are skipped.
//
// Legacy rollouts (before session_meta lines) are read too: a first line
// {id, timestamp, instructions}, then one bare response item per line, and
// {"record_type": …} state lines, which are skipped.
//
// Consecutive assistant-side items (reasoning, assistant messages, calls)
// form one assistant message. A compacted line is imported as the
// Checkpoint: its message is the summary, and the items after it are kept.

type cxLine struct {
	Type    string          `json:"type"`
	Payload json.RawMessage `json:"payload"`
}

type cxItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
	CallID    string          `json:"call_id"`
	Output    json.RawMessage `json:"output"`
	Summary   []struct {
		Text string `json:"text"`
	} `json:"summary"`
	EncryptedContent json.RawMessage `json:"encrypted_content"`
	Action           json.RawMessage `json:"action"`
}

func readCodex(b *builder, data []byte) error {
	leading := true
	var system []string
	err := eachLine(data, func(n int, raw []byte) error {
		l := loc{line: n}
		var cl cxLine
		if kind(raw) != '{' {
			return b.bad(l, "not a JSON object")
		}
		if err := decode(raw, &cl); err != nil {
			return b.bad(l, "%v", err)
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
			var c struct {
				Message *string `json:"message"`
			}
			if err := decode(cl.Payload, &c); err != nil || c.Message == nil {
				return b.bad(l, "compacted: want a payload with a message")
			}
			b.checkpoint(*c.Message, fmt.Sprintf("codex compacted at line %d", n))
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
					return b.bad(l, "%v", err)
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

func cxItemMessage(b *builder, it *cxItem, raw json.RawMessage, l loc, leading *bool, system *[]string) error {
	var assistant []condense.Part
	switch it.Type {
	case "message":
		parts, rerr := cxContent(it.Content)
		if rerr != nil {
			return b.bad(l, "payload.content: %s", rerr.msg)
		}
		switch it.Role {
		case "user":
			*leading = false
			b.add(condense.Message{ID: it.ID, Role: condense.RoleUser, Parts: parts}, l)
		case "assistant":
			*leading = false
			assistant = parts
		case "developer", "system":
			if *leading {
				*system = append(*system, (&condense.Message{Parts: parts}).TextContent())
				return nil
			}
			b.add(condense.Message{ID: it.ID, Role: condense.RoleSystem, Parts: parts}, l)
		default:
			return b.bad(l, "payload.role: unknown role %q", it.Role)
		}
	case "reasoning":
		for _, s := range it.Summary {
			if s.Text != "" {
				assistant = append(assistant, condense.Thinking(s.Text, ""))
			}
		}
		var content []struct {
			Text string `json:"text"`
		}
		if kind(it.Content) == '[' && json.Unmarshal(it.Content, &content) == nil {
			for _, c := range content {
				if c.Text != "" {
					assistant = append(assistant, condense.Thinking(c.Text, ""))
				}
			}
		}
		if !isNull(it.EncryptedContent) {
			assistant = append(assistant, condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...)))
		}
	case "function_call", "custom_tool_call", "local_shell_call":
		id := it.CallID
		if id == "" && it.Type == "local_shell_call" {
			id = it.ID
		}
		if id == "" {
			return b.bad(l, "payload.call_id: missing")
		}
		var input json.RawMessage
		name := it.Name
		switch it.Type {
		case "function_call":
			var args string
			if kind(it.Arguments) != '"' || json.Unmarshal(it.Arguments, &args) != nil {
				return b.bad(l, "payload.arguments: want a string of JSON")
			}
			var ok bool
			if input, ok = validInput(args); !ok {
				return b.bad(l, "payload.arguments: not valid JSON")
			}
		case "custom_tool_call":
			var s string
			if kind(it.Input) != '"' || json.Unmarshal(it.Input, &s) != nil {
				return b.bad(l, "payload.input: want a string")
			}
			input, _ = json.Marshal(map[string]string{"input": s})
		case "local_shell_call":
			name = "local_shell"
			if kind(it.Action) != '{' {
				return b.bad(l, "payload.action: want an object")
			}
			input = append(json.RawMessage(nil), it.Action...)
		}
		if name == "" {
			return b.bad(l, "payload.name: missing")
		}
		assistant = []condense.Part{condense.ToolCall(id, name, input)}
	case "function_call_output", "custom_tool_call_output":
		if it.CallID == "" {
			return b.bad(l, "payload.call_id: missing")
		}
		content, isErr, rerr := cxOutput(it.Output)
		if rerr != nil {
			return b.bad(l, "payload.output: %s", rerr.msg)
		}
		b.add(condense.Message{ID: it.ID, Role: condense.RoleTool,
			Parts: []condense.Part{condense.ToolResult(it.CallID, isErr, content...)}}, l)
		return nil
	case "web_search_call", "compaction", "compaction_summary":
		assistant = []condense.Part{condense.ProviderBlock("openai", append(json.RawMessage(nil), raw...))}
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

// cxContent converts a message's content items.
func cxContent(raw json.RawMessage) ([]condense.Part, *recErr) {
	if kind(raw) == '"' {
		var s string
		_ = json.Unmarshal(raw, &s)
		return []condense.Part{condense.Text(s)}, nil
	}
	if isNull(raw) {
		return nil, nil
	}
	var items []json.RawMessage
	if kind(raw) != '[' || json.Unmarshal(raw, &items) != nil {
		return nil, &recErr{msg: "want an array of content items"}
	}
	var parts []condense.Part
	for k, item := range items {
		var c struct {
			Type     string          `json:"type"`
			Text     *string         `json:"text"`
			ImageURL json.RawMessage `json:"image_url"`
		}
		if json.Unmarshal(item, &c) != nil {
			return nil, &recErr{msg: fmt.Sprintf("[%d]: want a content item object", k)}
		}
		switch c.Type {
		case "input_text", "output_text", "text":
			if c.Text == nil {
				return nil, &recErr{msg: fmt.Sprintf("[%d].text: missing", k)}
			}
			parts = append(parts, condense.Text(*c.Text))
		case "input_image":
			var url string
			_ = json.Unmarshal(c.ImageURL, &url)
			img, ok := imageFromURL(url)
			if !ok {
				return nil, &recErr{msg: fmt.Sprintf("[%d].image_url: want an http(s) or base64 data: URL", k)}
			}
			parts = append(parts, img)
		default:
			parts = append(parts, condense.ProviderBlock("openai", append(json.RawMessage(nil), item...)))
		}
	}
	return parts, nil
}

// cxOutput converts a call output: a string, an array of content items, or
// an object {content or content_items, success}.
func cxOutput(raw json.RawMessage) ([]condense.Part, bool, *recErr) {
	switch kind(raw) {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s)
		return []condense.Part{condense.Text(s)}, false, nil
	case '[':
		parts, rerr := cxContent(raw)
		return parts, false, rerr
	case '{':
		var o struct {
			Content      json.RawMessage `json:"content"`
			ContentItems json.RawMessage `json:"content_items"`
			Success      *bool           `json:"success"`
		}
		if json.Unmarshal(raw, &o) != nil {
			return nil, false, &recErr{msg: "want a string, an array or an object"}
		}
		isErr := o.Success != nil && !*o.Success
		src := o.Content
		if isNull(src) {
			src = o.ContentItems
		}
		parts, rerr := cxContent(src)
		return parts, isErr, rerr
	}
	return nil, false, &recErr{msg: "want a string, an array or an object"}
}
