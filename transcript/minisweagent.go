package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/openai"
)

// mini-swe-agent trajectories: {"info", "messages", "trajectory_format"}
// ("mini-swe-agent-1" before version 2, "mini-swe-agent-1.1" since), or a
// bare array of the messages. Version 2 saves each message the way its model
// class produced it, with mini-swe-agent's own data under "extra" (left
// out), so several message shapes occur, all read here:
//
//   - chat messages (the litellm, openrouter, portkey and requesty
//     models): system, user, assistant and tool messages. Text-based
//     models put the bash action in a fenced block of the assistant's text
//     and the observation in the next user message; these are read as the
//     plain text the model saw (pairing them as tool calls would invent
//     call ids the model never produced). Tool-calling models (the default
//     since version 2) send tool_calls and tool messages with tool_call_id,
//     read as tool calls and results. An assistant message's thinking_blocks
//     (Anthropic thinking, with signatures) or else its reasoning_content
//     become thinking parts.
//   - Responses API messages (the *_response models): the model's whole
//     response object ({"object": "response", "output": [...]}) is one
//     assistant message made of its output items (output_text as text,
//     reasoning as thinking without a signature, kept whole as an openai
//     provider block when it holds encrypted content, function_call as a
//     tool call); observations are function_call_output items, and the
//     prompts and format errors {"type": "message"} items.
//   - the exit message {"role": "exit", "content", "extra": {"exit_status",
//     "submission"}} that ends every version 2 run. No provider has that
//     role, so it is read as text beginning "[mini-swe-agent exit: STATUS]"
//     followed by its content (the submission, for a submitted run) and
//     noted (NoteConverted). When the exit came while the tool calls of the
//     assistant message before it ran (a run is submitted by a command
//     whose output is the submission), the text is the result of each of
//     those calls; otherwise it is a user message.
//
// Leading system messages become the system text; the model is
// info.config.model.model_name.
func readMiniSWEAgent(b *builder, data []byte) error {
	var doc struct {
		Info struct {
			Config struct {
				Model struct {
					ModelName string `json:"model_name"`
				} `json:"model"`
			} `json:"config"`
		} `json:"info"`
		Messages []rawView `json:"messages"` // views of data, not copies
	}
	if kind(data) == '[' {
		if err := decode(data, &doc.Messages); err != nil {
			return b.docErr(data, err)
		}
		return readMiniMessages(b, views(doc.Messages), "")
	}
	if err := decode(data, &doc); err != nil {
		return b.docErr(data, err)
	}
	if doc.Messages == nil {
		return b.errAt(loc{path: "messages"}, "missing")
	}
	b.req.Model = doc.Info.Config.Model.ModelName
	return readMiniMessages(b, views(doc.Messages), "messages")
}

// miniHead is what tells mini-swe-agent's message shapes apart; its values
// are views of the message.
type miniHead struct {
	Role    string  `json:"role"`
	Type    string  `json:"type"`
	Object  string  `json:"object"`
	Content rawView `json:"content"`
	Output  rawView `json:"output"`
	Extra   rawView `json:"extra"`
}

// readMiniMessages reads the messages of a trajectory; path is the JSON
// path of the array ("" for a bare array). msgs are views of the
// document, each released once read (see docArena).
func readMiniMessages(b *builder, msgs []json.RawMessage, path string) error {
	leading := true
	var system []string
	for i, raw := range msgs {
		p := fmt.Sprintf("%s[%d]", path, i)
		l := loc{path: p}
		start := len(b.msgs)
		var h miniHead
		if err := decode(raw, &h); err != nil {
			if err := b.bad(l, "%v", err); err != nil {
				return err
			}
			continue
		}
		switch {
		case h.Role == "exit":
			leading = false
			if err := readMiniExit(b, &h, l); err != nil {
				return err
			}
			b.release(raw)
			b.keepFrom(start)
			continue
		case h.Object == "response":
			leading = false
			if err := readMiniResponse(b, &h, l); err != nil {
				return err
			}
			b.release(raw)
			b.keepFrom(start)
			continue
		case h.Type != "":
			// A Responses API input item: a prompt, a format error, an
			// observation.
			m, err := miniItem(b, raw, l, p)
			if m == nil {
				if err != nil {
					return err
				}
				continue
			}
			b.release(raw)
			b.keep(m)
			if m.Role == condense.RoleSystem && leading {
				system = append(system, m.TextContent())
				continue
			}
			leading = false
			b.add(*m, l)
			continue
		}
		m, rerr := oaiMessage(raw, p)
		if rerr != nil {
			if err := b.bad(rerr.loc, "%s", rerr.msg); err != nil {
				return err
			}
			continue
		}
		if m.Role == condense.RoleAssistant {
			m.Parts = append(litellmThinking(raw), m.Parts...)
		}
		b.release(raw)
		b.keep(&m)
		if m.Role == condense.RoleSystem && leading {
			system = append(system, m.TextContent())
			continue
		}
		leading = false
		b.add(m, l)
	}
	b.req.System = strings.Join(system, "\n\n")
	return nil
}

// readMiniExit reads the exit message that ends a run (see readMiniSWEAgent).
func readMiniExit(b *builder, h *miniHead, l loc) error {
	content := ""
	switch kind(json.RawMessage(h.Content)) {
	case '"':
		_ = json.Unmarshal(h.Content, &content)
	case '[':
		parts, rerr := oaiContent(json.RawMessage(h.Content), l.path+".content")
		if rerr != nil {
			return b.bad(rerr.loc, "%s", rerr.msg)
		}
		em := condense.Message{Parts: parts}
		content = em.TextContent()
	case 0, 'n':
	default:
		return b.bad(loc{path: l.path + ".content"}, "want a string, null or an array of parts")
	}
	var extra struct {
		ExitStatus string `json:"exit_status"`
		Submission string `json:"submission"`
	}
	_ = json.Unmarshal(h.Extra, &extra) // a member of another type reads as absent
	status := extra.ExitStatus
	if status == "" {
		status = "exit"
	}
	if strings.TrimSpace(content) == "" || content == status {
		content = extra.Submission
	}
	text := "[mini-swe-agent exit: " + status + "]"
	if strings.TrimSpace(content) != "" && content != status {
		text += "\n\n" + content
	}
	if last := b.last(); last != nil && last.m.Role == condense.RoleAssistant {
		var res []condense.Part
		var ids []string
		for _, p := range last.m.Parts {
			if p.Type == condense.PartToolCall {
				res = append(res, condense.ToolResult(p.ID, false, condense.Text(text)))
				ids = append(ids, fmt.Sprintf("%q", p.ID))
			}
		}
		if len(res) > 0 {
			b.note(NoteConverted, l, "exit message (exit status %q) read as the result of tool call %s", status, strings.Join(ids, ", "))
			b.add(condense.Message{Role: condense.RoleTool, Parts: res}, l)
			return nil
		}
	}
	b.note(NoteConverted, l, "exit message (exit status %q) read as a user message", status)
	b.add(condense.UserText(text), l)
	return nil
}

// readMiniResponse reads a Responses API response object as one assistant
// message made of its output items.
func readMiniResponse(b *builder, h *miniHead, l loc) error {
	var items []json.RawMessage
	if kind(json.RawMessage(h.Output)) != '[' || json.Unmarshal(h.Output, &items) != nil {
		return b.bad(loc{path: l.path + ".output"}, "want an array of output items")
	}
	var parts []condense.Part
	for j, raw := range items {
		p := fmt.Sprintf("%s.output[%d]", l.path, j)
		m, err := miniItem(b, raw, loc{path: p}, p)
		if m == nil {
			if err != nil {
				return err
			}
			continue
		}
		if m.Role != condense.RoleAssistant {
			if err := b.bad(loc{path: p}, "a %s item in a response's output", m.Role); err != nil {
				return err
			}
			continue
		}
		parts = append(parts, m.Parts...)
	}
	b.add(condense.Message{Role: condense.RoleAssistant, Parts: parts}, l)
	return nil
}

// miniItem reads one Responses API item with the codec of provider/openai
// (openai.DecodeResponsesItems), keeping what a transcript carries: text,
// images, tool calls (whose arguments must be a string of JSON), tool
// results, and reasoning as a thinking part without a signature followed,
// when the item holds encrypted content, by the whole item as an openai
// provider block. Item types the codec does not read become openai
// provider blocks of an assistant message. A nil message with a nil error
// means a malformed item skipped under Options.Lenient.
func miniItem(b *builder, raw json.RawMessage, l loc, path string) (*condense.Message, error) {
	var it struct {
		Type             string          `json:"type"`
		Arguments        json.RawMessage `json:"arguments"`
		EncryptedContent json.RawMessage `json:"encrypted_content"`
	}
	if err := decode(raw, &it); err != nil {
		return nil, b.bad(l, "%v", err)
	}
	var input json.RawMessage
	if it.Type == "function_call" {
		var args string
		if kind(it.Arguments) != '"' || json.Unmarshal(it.Arguments, &args) != nil {
			return nil, b.bad(loc{path: path + ".arguments"}, "want a string of JSON")
		}
		var ok bool
		if input, ok = validInput(args); !ok {
			return nil, b.bad(loc{path: path + ".arguments"}, "not valid JSON")
		}
	}
	buf := make([]byte, 0, len(raw)+2)
	buf = append(append(append(buf, '['), raw...), ']')
	msgs, err := openai.DecodeResponsesItems(buf)
	if err != nil {
		var de *openai.DecodeError
		if !errors.As(err, &de) {
			return nil, b.bad(l, "%v", err)
		}
		// Paths are under the item, "[0]" in the array.
		return nil, b.bad(loc{path: path + strings.TrimPrefix(de.Path, "[0]")}, "%s", de.Msg)
	}
	if len(msgs) != 1 {
		return nil, b.bad(l, "want one item")
	}
	m := &msgs[0]
	var parts []condense.Part
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
			content, rerr := itemParts(p.Content, path+".output")
			if rerr != nil {
				return nil, b.bad(rerr.loc, "%s", rerr.msg)
			}
			p.Content = content
		case condense.PartProvider:
			p.Raw = append(json.RawMessage(nil), p.Raw...)
		default:
			ps, rerr := itemParts([]condense.Part{p}, path+".content")
			if rerr != nil {
				return nil, b.bad(rerr.loc, "%s", rerr.msg)
			}
			if len(ps) == 0 {
				continue
			}
			p = ps[0]
		}
		parts = append(parts, p)
	}
	if it.Type == "message" && m.Role == condense.RoleAssistant && len(parts) == 0 {
		return nil, nil
	}
	m.Parts = parts
	return m, nil
}

// itemParts applies the reader's rules to content parts the Responses
// codec read: its fields blocks are left out, and an image given as a data:
// URL must be a base64 data: URL.
func itemParts(parts []condense.Part, path string) ([]condense.Part, *recErr) {
	var out []condense.Part
	for _, p := range parts {
		if openai.IsFieldsPart(&p) {
			continue
		}
		if p.Type == condense.PartImage && strings.HasPrefix(p.URL, "data:") {
			img, ok := imageFromURL(p.URL)
			if !ok {
				return nil, pathErr(path, "want an http(s) or base64 data: URL")
			}
			p = img
		}
		if p.Type == condense.PartProvider {
			p.Raw = append(json.RawMessage(nil), p.Raw...)
		}
		out = append(out, p)
	}
	return out, nil
}

// litellmThinking returns the thinking parts of an assistant chat message
// as litellm saves it: its thinking_blocks (Anthropic thinking with its
// signature, or redacted thinking), or else its reasoning_content as
// thinking without a signature.
func litellmThinking(raw json.RawMessage) []condense.Part {
	var m struct {
		ThinkingBlocks   []json.RawMessage `json:"thinking_blocks"`
		ReasoningContent json.RawMessage   `json:"reasoning_content"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	var parts []condense.Part
	for _, tb := range m.ThinkingBlocks {
		var t struct {
			Type      string `json:"type"`
			Thinking  string `json:"thinking"`
			Signature string `json:"signature"`
			Data      string `json:"data"`
		}
		if json.Unmarshal(tb, &t) != nil {
			continue
		}
		switch {
		case t.Type == "redacted_thinking" && t.Data != "":
			parts = append(parts, condense.RedactedThinking(t.Data))
		case t.Type == "thinking" && t.Thinking != "":
			parts = append(parts, condense.Thinking(t.Thinking, t.Signature))
		}
	}
	if len(parts) > 0 {
		return parts
	}
	var rc string
	if kind(m.ReasoningContent) == '"' && json.Unmarshal(m.ReasoningContent, &rc) == nil && strings.TrimSpace(rc) != "" {
		parts = append(parts, condense.Thinking(rc, ""))
	}
	return parts
}
