package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// OpenAI chat messages: a JSON array of messages, or an object with
// "messages" and optional "model", "tools" and "max_tokens" /
// "max_completion_tokens".

type oaiDoc struct {
	Model               string            `json:"model"`
	Messages            []json.RawMessage `json:"messages"`
	Tools               []json.RawMessage `json:"tools"`
	MaxTokens           int               `json:"max_tokens"`
	MaxCompletionTokens int               `json:"max_completion_tokens"`
}

type oaiMsg struct {
	Role         string            `json:"role"`
	Content      json.RawMessage   `json:"content"`
	ToolCalls    []json.RawMessage `json:"tool_calls"`
	ToolCallID   string            `json:"tool_call_id"`
	FunctionCall json.RawMessage   `json:"function_call"`
}

type oaiToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type oaiTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// oaiChatParts are the content part types of chat messages other than text
// and image_url; the reader carries them as openai provider blocks and the
// writer writes them back.
var oaiChatParts = map[string]bool{"input_audio": true, "file": true, "refusal": true}

func readOpenAI(b *builder, data []byte) error {
	var doc oaiDoc
	switch kind(data) {
	case '[':
		if err := decode(data, &doc.Messages); err != nil {
			return b.docErr(data, err)
		}
	case '{':
		if err := decode(data, &doc); err != nil {
			return b.docErr(data, err)
		}
		if doc.Messages == nil {
			return b.errAt(loc{path: "messages"}, "missing")
		}
	default:
		return b.errAt(loc{}, "want a JSON array of messages or an object with \"messages\"")
	}
	b.req.Model = doc.Model
	b.req.MaxOutputTokens = max(doc.MaxTokens, doc.MaxCompletionTokens, 0)
	for i, raw := range doc.Tools {
		l := loc{path: fmt.Sprintf("tools[%d]", i)}
		var t oaiTool
		if err := decode(raw, &t); err != nil {
			if err := b.bad(l, "%v", err); err != nil {
				return err
			}
			continue
		}
		if t.Function.Name == "" {
			if err := b.bad(loc{path: l.path + ".function.name"}, "missing"); err != nil {
				return err
			}
			continue
		}
		b.req.Tools = append(b.req.Tools, condense.Tool{Name: t.Function.Name,
			Description: t.Function.Description, InputSchema: t.Function.Parameters})
	}
	leading := true
	var system []string
	for i, raw := range doc.Messages {
		path := fmt.Sprintf("messages[%d]", i)
		m, err := oaiMessage(raw, path)
		if err != nil {
			if err := b.bad(err.loc, "%s", err.msg); err != nil {
				return err
			}
			continue
		}
		if m.Role == condense.RoleSystem && leading {
			system = append(system, m.TextContent())
			continue
		}
		leading = false
		b.add(m, loc{path: path})
	}
	b.req.System = strings.Join(system, "\n\n")
	return nil
}

// recErr is a problem with one record, before it becomes a *ReadError.
type recErr struct {
	loc loc
	msg string
}

func pathErr(path, format string, args ...any) *recErr {
	return &recErr{loc: loc{path: path}, msg: fmt.Sprintf(format, args...)}
}

// oaiMessage converts one chat message. It is shared with the SWE-agent
// reader, whose history entries are chat messages.
func oaiMessage(raw json.RawMessage, path string) (condense.Message, *recErr) {
	var om oaiMsg
	if err := decode(raw, &om); err != nil {
		return condense.Message{}, pathErr(path, "%v", err)
	}
	if om.Role == "function" || !isNull(om.FunctionCall) {
		return condense.Message{}, pathErr(path, "legacy function_call messages are not supported; use tool_calls and role \"tool\"")
	}
	var m condense.Message
	switch om.Role {
	case "system", "developer":
		m.Role = condense.RoleSystem
	case "user":
		m.Role = condense.RoleUser
	case "assistant":
		m.Role = condense.RoleAssistant
	case "tool":
		m.Role = condense.RoleTool
	case "":
		return m, pathErr(path+".role", "missing")
	default:
		return m, pathErr(path+".role", "unknown role %q", om.Role)
	}
	content, rerr := oaiContent(om.Content, path+".content")
	if rerr != nil {
		return m, rerr
	}
	if m.Role == condense.RoleTool {
		if om.ToolCallID == "" {
			return m, pathErr(path+".tool_call_id", "missing")
		}
		m.Parts = []condense.Part{condense.ToolResult(om.ToolCallID, false, content...)}
		return m, nil
	}
	m.Parts = content
	if len(om.ToolCalls) > 0 && m.Role != condense.RoleAssistant {
		return m, pathErr(path+".tool_calls", "tool calls in a %s message", om.Role)
	}
	for j, craw := range om.ToolCalls {
		cpath := fmt.Sprintf("%s.tool_calls[%d]", path, j)
		var tc oaiToolCall
		if err := decode(craw, &tc); err != nil {
			return m, pathErr(cpath, "%v", err)
		}
		if tc.Type != "" && tc.Type != "function" {
			return m, pathErr(cpath+".type", "unsupported tool call type %q", tc.Type)
		}
		if tc.ID == "" {
			return m, pathErr(cpath+".id", "missing")
		}
		if tc.Function.Name == "" {
			return m, pathErr(cpath+".function.name", "missing")
		}
		input, ok := validInput(tc.Function.Arguments)
		if !ok {
			return m, pathErr(cpath+".function.arguments", "not valid JSON")
		}
		m.Parts = append(m.Parts, condense.ToolCall(tc.ID, tc.Function.Name, input))
	}
	return m, nil
}

// oaiContent converts a chat message's content: a string, null, or an
// array of parts.
func oaiContent(raw json.RawMessage, path string) ([]condense.Part, *recErr) {
	switch kind(raw) {
	case 0, 'n':
		return nil, nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, pathErr(path, "%v", err)
		}
		if s == "" {
			return nil, nil
		}
		return []condense.Part{condense.Text(s)}, nil
	case '[':
	default:
		return nil, pathErr(path, "want a string, null or an array of parts")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, pathErr(path, "%v", cleanJSONErr(err))
	}
	var parts []condense.Part
	for k, item := range items {
		ipath := fmt.Sprintf("%s[%d]", path, k)
		var cp struct {
			Type     string          `json:"type"`
			Text     *string         `json:"text"`
			ImageURL json.RawMessage `json:"image_url"`
		}
		if err := json.Unmarshal(item, &cp); err != nil {
			return nil, pathErr(ipath, "%v", cleanJSONErr(err))
		}
		switch cp.Type {
		case "text", "input_text", "output_text":
			if cp.Text == nil {
				return nil, pathErr(ipath+".text", "missing")
			}
			parts = append(parts, condense.Text(*cp.Text))
		case "image_url":
			var url string
			if kind(cp.ImageURL) == '"' {
				_ = json.Unmarshal(cp.ImageURL, &url)
			} else {
				var iu struct {
					URL string `json:"url"`
				}
				_ = json.Unmarshal(cp.ImageURL, &iu)
				url = iu.URL
			}
			img, ok := imageFromURL(url)
			if !ok {
				return nil, pathErr(ipath+".image_url", "want an http(s) URL or a base64 data: URL")
			}
			parts = append(parts, img)
		case "":
			return nil, pathErr(ipath+".type", "missing")
		default:
			parts = append(parts, condense.ProviderBlock("openai", append(json.RawMessage(nil), item...)))
		}
	}
	return parts, nil
}

// writeOpenAI writes req as an OpenAI chat completions body
// {"model","messages","tools"}. The system text becomes a leading system
// message; each tool result becomes one "tool" message. Not representable,
// and left out: thinking (OpenAI chat has no place to send reasoning back),
// is_error on results, images inside tool results (replaced by the text
// "[image]"), anthropic provider blocks, and openai provider blocks that are
// not chat content parts (Responses API items such as reasoning).
func writeOpenAI(req condense.Request) ([]byte, error) {
	var msgs arr
	if req.System != "" {
		msgs = append(msgs, obj{{"role", "system"}, {"content", req.System}})
	}
	for i := range req.Messages {
		m := &req.Messages[i]
		if failedReply(m) {
			continue
		}
		switch m.Role {
		case condense.RoleSystem, condense.RoleUser:
			content := oaiWriteContent(m.Parts, false)
			if content == nil {
				continue
			}
			msgs = append(msgs, obj{{"role", string(m.Role)}, {"content", content}})
		case condense.RoleAssistant:
			content := oaiWriteContent(m.Parts, true)
			var calls arr
			for _, p := range m.Parts {
				if p.Type != condense.PartToolCall {
					continue
				}
				args := string(p.Input)
				if args == "" {
					args = "{}"
				}
				calls = append(calls, obj{{"id", p.ID}, {"type", "function"},
					{"function", obj{{"name", p.Name}, {"arguments", args}}}})
			}
			if content == nil && calls == nil {
				continue
			}
			o := obj{{"role", "assistant"}, {"content", content}}
			if calls != nil {
				o = append(o, kv{"tool_calls", calls})
			}
			msgs = append(msgs, o)
		case condense.RoleTool:
			for _, p := range m.Parts {
				if p.Type != condense.PartToolResult {
					continue
				}
				var texts []string
				for _, c := range p.Content {
					switch c.Type {
					case condense.PartText:
						texts = append(texts, c.Text)
					case condense.PartImage:
						texts = append(texts, "[image]")
					}
				}
				var content any = strings.Join(texts, "\n")
				if len(texts) > 1 {
					items := make(arr, len(texts))
					for k, t := range texts {
						items[k] = obj{{"type", "text"}, {"text", t}}
					}
					content = items
				}
				msgs = append(msgs, obj{{"role", "tool"}, {"tool_call_id", p.CallID}, {"content", content}})
			}
		default:
			return nil, fmt.Errorf("messages[%d]: unknown role %q", i, m.Role)
		}
	}
	if msgs == nil {
		msgs = arr{}
	}
	top := obj{{"model", req.Model}, {"messages", msgs}}
	if req.MaxOutputTokens > 0 {
		top = append(top, kv{"max_completion_tokens", req.MaxOutputTokens})
	}
	if len(req.Tools) > 0 {
		tools := make(arr, len(req.Tools))
		for i, t := range req.Tools {
			fn := obj{{"name", t.Name}}
			if t.Description != "" {
				fn = append(fn, kv{"description", t.Description})
			}
			params := t.InputSchema
			if len(params) == 0 {
				params = json.RawMessage(`{"type":"object","properties":{}}`)
			}
			fn = append(fn, kv{"parameters", params})
			tools[i] = obj{{"type", "function"}, {"function", fn}}
		}
		top = append(top, kv{"tools", tools})
	}
	var buf bytes.Buffer
	emit(&buf, top)
	return buf.Bytes(), nil
}

// oaiWriteContent returns a chat message's content: a string for one text
// part, an array of parts otherwise, nil when nothing is representable.
func oaiWriteContent(parts []condense.Part, assistant bool) any {
	var items arr
	texts := 0
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			items = append(items, obj{{"type", "text"}, {"text", p.Text}})
			texts++
		case condense.PartImage:
			if assistant {
				continue
			}
			items = append(items, obj{{"type", "image_url"}, {"image_url", obj{{"url", dataURL(p)}}}})
		case condense.PartProvider:
			if p.Provider != "openai" {
				continue
			}
			var head struct {
				Type string `json:"type"`
			}
			if json.Unmarshal(p.Raw, &head) == nil && oaiChatParts[head.Type] {
				items = append(items, p.Raw)
			}
		}
	}
	switch {
	case len(items) == 0:
		return nil
	case len(items) == 1 && texts == 1:
		for _, p := range parts {
			if p.Type == condense.PartText {
				return p.Text
			}
		}
	}
	return items
}
