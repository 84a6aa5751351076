package transcript

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/openai"
)

// OpenAI chat messages: a JSON array of messages, or an object with
// "messages" and optional "model", "tools" and "max_tokens" /
// "max_completion_tokens".

// oaiDoc is an OpenAI chat document. Its messages and tools are views of
// the input, not copies: each is decoded in turn, and what is kept is
// kept apart from the input or in its released bytes (see docArena).
type oaiDoc struct {
	Model               string    `json:"model"`
	Messages            []rawView `json:"messages"`
	Tools               []rawView `json:"tools"`
	MaxTokens           int       `json:"max_tokens"`
	MaxCompletionTokens int       `json:"max_completion_tokens"`
}

// oaiMsg is what oaiMessage checks of a message before the codec reads
// it; its values are views of the message, not copies.
type oaiMsg struct {
	Role         string    `json:"role"`
	Content      rawView   `json:"content"`
	ToolCalls    []rawView `json:"tool_calls"`
	ToolCallID   string    `json:"tool_call_id"`
	FunctionCall rawView   `json:"function_call"`
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
		if err := decode(raw, &t); err != nil { // t's members are copies
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
		m, err := oaiMessage(json.RawMessage(raw), path)
		if err != nil {
			if err := b.bad(err.loc, "%s", err.msg); err != nil {
				return err
			}
			continue
		}
		b.release(raw)
		b.keep(&m)
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
// reader, whose history entries are chat messages. The conversion is the
// codec's (openai.DecodeChatMessage); the reader is stricter and keeps
// less: legacy function calls, unknown roles, tool calls of other types
// than function and tool call arguments that are not JSON are errors,
// images must be http(s) or base64 data URLs, empty arguments are {},
// input_text and output_text parts read as text, and members condense has
// no field for (a message's name, an image's detail) are left out.
func oaiMessage(raw json.RawMessage, path string) (condense.Message, *recErr) {
	var om oaiMsg
	if err := decode(raw, &om); err != nil {
		return condense.Message{}, pathErr(path, "%v", err)
	}
	if om.Role == "function" || !isNull(json.RawMessage(om.FunctionCall)) {
		return condense.Message{}, pathErr(path, "legacy function_call messages are not supported; use tool_calls and role \"tool\"")
	}
	switch om.Role {
	case "system", "developer", "user", "assistant", "tool":
	case "":
		return condense.Message{}, pathErr(path+".role", "missing")
	default:
		return condense.Message{}, pathErr(path+".role", "unknown role %q", om.Role)
	}
	if len(om.ToolCalls) > 0 && om.Role != "assistant" && om.Role != "tool" {
		return condense.Message{}, pathErr(path+".tool_calls", "tool calls in a %s message", om.Role)
	}
	var inputs []json.RawMessage
	if om.Role == "assistant" {
		for j, craw := range om.ToolCalls {
			cpath := fmt.Sprintf("%s.tool_calls[%d]", path, j)
			var tc oaiToolCall
			if err := decode(craw, &tc); err != nil {
				return condense.Message{}, pathErr(cpath, "%v", err)
			}
			if tc.Type != "" && tc.Type != "function" {
				return condense.Message{}, pathErr(cpath+".type", "unsupported tool call type %q", tc.Type)
			}
			if tc.ID == "" {
				return condense.Message{}, pathErr(cpath+".id", "missing")
			}
			if tc.Function.Name == "" {
				return condense.Message{}, pathErr(cpath+".function.name", "missing")
			}
			input, ok := validInput(tc.Function.Arguments)
			if !ok {
				return condense.Message{}, pathErr(cpath+".function.arguments", "not valid JSON")
			}
			inputs = append(inputs, input)
		}
	}
	m, err := openai.DecodeChatMessage(raw)
	if err != nil {
		return condense.Message{}, codecErr(path, err)
	}
	var parts []condense.Part
	k := 0 // content part index
	for i := range m.Parts {
		p := m.Parts[i]
		switch {
		case openai.IsFieldsPart(&p):
			continue
		case p.Type == condense.PartToolCall:
			p.Input = inputs[0]
			inputs = inputs[1:]
		case p.Type == condense.PartToolResult:
			content, rerr := oaiParts(p.Content, path+".content")
			if rerr != nil {
				return m, rerr
			}
			p.Content = content
		default:
			ps, rerr := oaiParts([]condense.Part{p}, fmt.Sprintf("%s.content[%d]", path, k))
			if rerr != nil {
				return m, rerr
			}
			p = ps[0]
			k++
		}
		parts = append(parts, p)
	}
	m.Parts = parts
	return m, nil
}

// codecErr is a codec error under the message at path.
func codecErr(path string, err error) *recErr {
	var de *openai.DecodeError
	if !errors.As(err, &de) {
		return pathErr(path, "%v", err)
	}
	if de.Path == "" {
		return pathErr(path, "%s", de.Msg)
	}
	return pathErr(path+"."+de.Path, "%s", de.Msg)
}

// oaiParts applies the reader's rules to content parts the codec read:
// input_text and output_text parts are text; image_url parts the codec
// kept whole (of a message other than the user's, or with an image_url
// that is a plain string) and data URLs are images, which must be http(s)
// or base64 data URLs. path names the first part's content, or the
// content array when the parts are a tool result's.
func oaiParts(parts []condense.Part, path string) ([]condense.Part, *recErr) {
	var out []condense.Part
	k := 0
	for _, p := range parts {
		if openai.IsFieldsPart(&p) {
			continue
		}
		ppath := path
		if strings.HasSuffix(path, ".content") {
			ppath = fmt.Sprintf("%s[%d]", path, k)
		}
		k++
		switch p.Type {
		case condense.PartImage:
			if p.URL == "" {
				break
			}
			img, ok := imageFromURL(p.URL)
			if !ok || !strings.HasPrefix(p.URL, "data:") && !strings.HasPrefix(p.URL, "http://") && !strings.HasPrefix(p.URL, "https://") {
				return nil, pathErr(ppath+".image_url", "want an http(s) URL or a base64 data: URL")
			}
			p = img
		case condense.PartProvider:
			var cp struct {
				Type     string          `json:"type"`
				Text     *string         `json:"text"`
				ImageURL json.RawMessage `json:"image_url"`
			}
			if json.Unmarshal(p.Raw, &cp) != nil {
				break
			}
			switch cp.Type {
			case "input_text", "output_text":
				if cp.Text == nil {
					return nil, pathErr(ppath+".text", "missing")
				}
				p = condense.Text(*cp.Text)
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
					return nil, pathErr(ppath+".image_url", "want an http(s) URL or a base64 data: URL")
				}
				p = img
			}
		}
		out = append(out, p)
	}
	return out, nil
}

// oaiContent converts a chat message's content: a string, null, or an
// array of parts, as oaiMessage reads a user message's.
func oaiContent(raw json.RawMessage, path string) ([]condense.Part, *recErr) {
	if len(raw) == 0 {
		raw = json.RawMessage("null")
	}
	msg := append(append([]byte(`{"role":"user","content":`), raw...), '}')
	m, err := openai.DecodeChatMessage(msg)
	if err != nil {
		var de *openai.DecodeError
		if errors.As(err, &de) {
			if rest, ok := strings.CutPrefix(de.Path, "content"); ok {
				return nil, pathErr(path+rest, "%s", de.Msg)
			}
		}
		return nil, pathErr(path, "%v", err)
	}
	return oaiParts(m.Parts, path)
}

// oaiChatParts are the content part types other than text and image_url
// that the writer writes back from openai provider blocks, by the role of
// the message that holds them: the only ones the API takes there.
var oaiChatParts = map[condense.Role]map[string]bool{
	condense.RoleUser:      {"input_audio": true, "file": true},
	condense.RoleAssistant: {"refusal": true},
}

// writeOpenAI writes req as an OpenAI chat completions body
// {"model","messages","tools"} with the codec (openai.EncodeChatRequest),
// after forProvider made it acceptable to the API (tool calls answered,
// ids unique, every called tool defined) and left out what a transcript
// does not carry to another tool: failed replies, thinking (OpenAI chat
// has no place to send reasoning back), anthropic provider blocks, openai
// provider blocks that are not chat content parts of their message's role
// (Responses API items such as reasoning, and the codec's blocks of
// members condense has no field for), images in assistant and system
// messages, and the messages left with nothing to say. The codec drops
// is_error, writes images inside tool results as the text "[image]", the
// system text as a leading system message and each tool result as one
// "tool" message. An empty request gets one user message, LeadingUserText.
func writeOpenAI(dst []byte, req condense.Request) ([]byte, error) {
	r := forProvider(req, FormatOpenAI)
	if len(r.Messages) == 0 && r.System == "" {
		r.Messages = []condense.Message{condense.UserText(LeadingUserText)}
	}
	return openai.AppendChatRequest(dst, &openai.ChatRequest{Request: r})
}

// oaiWritable returns the parts of a message of role that the chat API
// takes: without thinking, without images in assistant and system
// messages (an image with neither bytes nor an http(s) or data: address,
// such as one a file's author redacted, becomes the text "[image]"), and without provider blocks that are not chat content parts
// of role (in a tool result's content, none). parts itself is returned
// when all of them are written as they are (most messages): callers copy
// before they change a part.
func oaiWritable(parts []condense.Part, role condense.Role) []condense.Part {
	var out []condense.Part // nil while every part so far is kept as it is
	for i := range parts {
		keep, repl := oaiWritablePart(&parts[i], role)
		if out == nil && keep && repl == nil {
			continue
		}
		if out == nil {
			out = make([]condense.Part, i, len(parts))
			copy(out, parts[:i])
		}
		switch {
		case repl != nil:
			out = append(out, *repl)
		case keep:
			out = append(out, parts[i])
		}
	}
	if out == nil {
		return parts
	}
	return out
}

// oaiWritablePart returns whether oaiWritable writes *p and, when it
// writes another part in its place, that part.
func oaiWritablePart(p *condense.Part, role condense.Role) (keep bool, repl *condense.Part) {
	switch p.Type {
	case condense.PartThinking:
		return false, nil
	case condense.PartImage:
		if role == condense.RoleAssistant || role == condense.RoleSystem {
			return false, nil
		}
		if len(p.Data) == 0 && !usableImageURL(p.URL, true) {
			text := condense.Text("[image]")
			return true, &text
		}
	case condense.PartProvider:
		if p.Provider != "openai" {
			return false, nil
		}
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(p.Raw, &head) != nil || !oaiChatParts[role][head.Type] {
			return false, nil
		}
	case condense.PartToolResult:
		if content := oaiWritable(p.Content, ""); !sameParts(content, p.Content) {
			q := *p
			q.Content = content
			return true, &q
		}
	}
	return true, nil
}

// sameParts reports whether a and b are the same slice (oaiWritable gave
// its input back).
func sameParts(a, b []condense.Part) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}
