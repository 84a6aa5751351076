package transcript

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// LangChain and LangGraph message lists: the "messages" of a serialized
// graph state. The list is the whole document (a JSON array), or the
// "messages" of an object, of its "values" (a LangGraph thread state or
// API values payload) or of its "channel_values" (a LangGraph checkpoint).
//
// A message is in any of the three shapes LangChain writes:
//
//   - dumpd/dumps: {"lc": 1, "type": "constructor", "id": [..., "AIMessage"],
//     "kwargs": {...}}, the class name giving the type (LangGraph's "lc": 2
//     form too, whose content may come positionally as the first of
//     "args");
//   - messages_to_dict: {"type": "ai", "data": {...}};
//   - a plain message dict (model_dump, the LangGraph API): {"type": "ai",
//     "content": ..., ...}.
//
// Types: human is a user message, ai an assistant message, tool a tool
// result answering "tool_call_id" ("status": "error" marks an error),
// system a system message (the leading ones are the system text), chat a
// message of its "role" (user, assistant or system). The chunk classes
// (AIMessageChunk, …) read as their message types. Legacy function
// messages and RemoveMessage markers are malformed.
//
// Content is a string or a list of strings and blocks: text; image_url
// (OpenAI); image with "url", "base64" or "data" and "mime_type" (the
// standard blocks); Anthropic blocks (tool_use, tool_result, thinking,
// redacted_thinking, image with a "source", document) read as the Anthropic
// reader reads them; tool_call blocks (the standard ones, with "args");
// reasoning blocks, whose "reasoning" text or summary texts become a
// thinking part. Blocks of other types are carried whole as "langchain"
// provider blocks, which only the condense form writes back.
//
// An AI message's calls are its "tool_calls" ({name, args, id}); when it
// has none, the OpenAI-shaped "additional_kwargs.tool_calls". A tool_use or
// tool_call block of the content whose id is among them is the same call
// and is not read twice. "additional_kwargs.reasoning_content" (DeepSeek's
// reasoning) and the summary texts of "additional_kwargs.reasoning" (an
// OpenAI reasoning item) become thinking parts; the model is the "model_name" (or "model") of the newest
// AI message's "response_metadata". A message's "id" is kept as its ID.
// Left out: "name", "example", "usage_metadata", the rest of
// "response_metadata" and "additional_kwargs", "invalid_tool_calls" (calls
// the model wrote badly and the graph never ran) and a tool message's
// "artifact".

// lcTypes maps the LangChain message types and class names to the type
// names of messages_to_dict.
var lcTypes = map[string]string{
	"human": "human", "ai": "ai", "system": "system", "tool": "tool", "chat": "chat",
	"function": "function", "remove": "remove", "developer": "system",
	"HumanMessage": "human", "AIMessage": "ai", "SystemMessage": "system", "ToolMessage": "tool",
	"ChatMessage": "chat", "FunctionMessage": "function", "RemoveMessage": "remove",
	"HumanMessageChunk": "human", "AIMessageChunk": "ai", "SystemMessageChunk": "system",
	"ToolMessageChunk": "tool", "ChatMessageChunk": "chat", "FunctionMessageChunk": "function",
}

// lcMessage normalizes one message of any of the three shapes to its type
// and fields (the kwargs, the data, or the dict itself, as a JSON object)
// and the path of the fields under the message. ok is false when raw is
// none of them.
func lcMessage(raw json.RawMessage) (typ string, fields json.RawMessage, sub string, ok bool) {
	k := memberViews(raw)
	if k == nil || k["role"] != nil {
		return "", nil, "", false
	}
	t := jsonString(k["type"])
	if k["lc"] != nil && t == "constructor" {
		var id []string
		if json.Unmarshal(k["id"], &id) != nil || len(id) == 0 {
			return "", nil, "", false
		}
		typ, ok = lcTypes[id[len(id)-1]]
		kw := k["kwargs"]
		if kind(kw) != '{' {
			kw = json.RawMessage("{}")
		}
		// LangGraph's serializer may pass the content positionally.
		var args []json.RawMessage
		if objectKeys(kw)["content"] == nil && json.Unmarshal(k["args"], &args) == nil && len(args) > 0 {
			m := objectKeys(kw)
			m["content"] = args[0]
			kw, _ = json.Marshal(m)
		}
		return typ, kw, ".kwargs", ok
	}
	typ, ok = lcTypes[t]
	if !ok {
		return "", nil, "", false
	}
	if kind(k["data"]) == '{' && k["content"] == nil {
		return typ, k["data"], ".data", true
	}
	if k["content"] == nil {
		return "", nil, "", false
	}
	return typ, raw, "", true
}

// isLangChainList reports whether msgs is a LangChain message list (see
// Detect).
func isLangChainList(msgs []json.RawMessage) bool {
	found := false
	for _, raw := range msgs {
		k := memberViews(raw)
		if k == nil || k["role"] != nil {
			return false
		}
		if _, _, _, ok := lcMessage(raw); ok {
			found = true
		}
	}
	return found
}

// lcList returns the message list of a top-level object: its "messages",
// or those of its "values" or "channel_values", and the list's path.
func lcList(keys map[string]json.RawMessage) (json.RawMessage, string) {
	if m, ok := keys["messages"]; ok {
		return m, "messages"
	}
	for _, outer := range []string{"values", "channel_values"} {
		if m, ok := memberViews(keys[outer])["messages"]; ok {
			return m, outer + ".messages"
		}
	}
	return nil, ""
}

// isLangChainState reports whether a top-level object holds a LangChain
// message list (see Detect).
func isLangChainState(keys map[string]json.RawMessage) bool {
	list, _ := lcList(keys)
	if kind(list) != '[' {
		return false
	}
	msgs, err := arrayItems(list)
	return err == nil && isLangChainList(msgs)
}

// readLangChain reads the messages as views of data, each released once
// read (see docArena).
func readLangChain(b *builder, data []byte) error {
	var msgs []json.RawMessage
	base := ""
	switch kind(data) {
	case '[':
		var vs []rawView
		if err := decode(data, &vs); err != nil {
			return b.docErr(data, err)
		}
		msgs = views(vs)
	case '{':
		var vs map[string]rawView
		if err := decode(data, &vs); err != nil {
			return b.docErr(data, err)
		}
		top := make(map[string]json.RawMessage, len(vs))
		for k, v := range vs {
			top[k] = json.RawMessage(v)
		}
		list, path := lcList(top)
		if list == nil {
			return b.errAt(loc{path: "messages"}, "missing (want \"messages\", \"values\".messages or \"channel_values\".messages)")
		}
		var err error
		if msgs, err = arrayItems(list); err != nil || kind(list) != '[' {
			return b.errAt(loc{path: path}, "not an array of messages")
		}
		base = path
	default:
		return b.errAt(loc{}, "want a JSON array of messages or an object with \"messages\"")
	}
	leading := true
	var system []string
	for i, raw := range msgs {
		path := fmt.Sprintf("%s[%d]", base, i)
		ms, model, rerr := lcConvert(raw, path)
		if rerr != nil {
			if err := b.bad(rerr.loc, "%s", rerr.msg); err != nil {
				return err
			}
			continue
		}
		if model != "" {
			b.req.Model = model
		}
		b.release(raw)
		b.keepAll(ms)
		for _, m := range ms {
			if m.Role == condense.RoleSystem && leading {
				system = append(system, m.TextContent())
				continue
			}
			leading = false
			b.add(m, loc{path: path})
		}
	}
	b.req.System = strings.Join(system, "\n\n")
	return nil
}

// lcFields are the members of a message the reader looks at.
type lcFields struct {
	Content          json.RawMessage   `json:"content"`
	ID               *string           `json:"id"`
	Role             string            `json:"role"`
	ToolCalls        []json.RawMessage `json:"tool_calls"`
	ToolCallID       *string           `json:"tool_call_id"`
	Status           string            `json:"status"`
	AdditionalKwargs json.RawMessage   `json:"additional_kwargs"`
	ResponseMetadata json.RawMessage   `json:"response_metadata"`
}

// lcConvert converts one message; model is the model its response
// metadata names.
func lcConvert(raw json.RawMessage, path string) (msgs []condense.Message, model string, _ *recErr) {
	typ, fields, sub, ok := lcMessage(raw)
	if !ok {
		return nil, "", pathErr(path, "not a LangChain message (want {\"lc\": 1, \"type\": \"constructor\", …}, {\"type\": …, \"data\": …} or a message dict with \"type\" and \"content\")")
	}
	fpath := path + sub
	var f lcFields
	if err := json.Unmarshal(fields, &f); err != nil {
		return nil, "", pathErr(fpath, "%v", cleanJSONErr(err))
	}
	id := ""
	if f.ID != nil {
		id = *f.ID
	}
	if typ == "chat" {
		switch f.Role {
		case "user", "human":
			typ = "human"
		case "assistant", "ai":
			typ = "ai"
		case "system", "developer":
			typ = "system"
		default:
			return nil, "", pathErr(fpath+".role", "unsupported chat message role %q", f.Role)
		}
	}
	cpath := fpath + ".content"
	switch typ {
	case "function":
		return nil, "", pathErr(path, "legacy function messages are not supported (they name no tool call id)")
	case "remove":
		return nil, "", pathErr(path, "a RemoveMessage is a state update, not a message")
	case "system":
		parts, rerr := lcContent(f.Content, cpath, condense.RoleUser, nil)
		if rerr != nil {
			return nil, "", rerr
		}
		return []condense.Message{{ID: id, Role: condense.RoleSystem, Parts: parts}}, "", nil
	case "tool":
		if f.ToolCallID == nil || *f.ToolCallID == "" {
			return nil, "", pathErr(fpath+".tool_call_id", "missing")
		}
		parts, rerr := lcContent(f.Content, cpath, condense.RoleUser, nil)
		if rerr != nil {
			return nil, "", rerr
		}
		for _, p := range parts {
			if p.Type != condense.PartText && p.Type != condense.PartImage {
				return nil, "", pathErr(cpath, "a tool message holds only text and images, not %s", p.Type)
			}
		}
		return []condense.Message{{ID: id, Role: condense.RoleTool,
			Parts: []condense.Part{condense.ToolResult(*f.ToolCallID, f.Status == "error", parts...)}}}, "", nil
	case "human":
		parts, rerr := lcContent(f.Content, cpath, condense.RoleUser, nil)
		if rerr != nil {
			return nil, "", rerr
		}
		ms := splitResults(parts)
		if len(ms) > 0 {
			ms[len(ms)-1].ID = id
		}
		return ms, "", nil
	}
	// ai
	var calls []condense.Part
	callIDs := map[string]bool{}
	for j, c := range f.ToolCalls {
		cp := fmt.Sprintf("%s.tool_calls[%d]", fpath, j)
		var tc struct {
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
			ID   *string         `json:"id"`
		}
		if err := decode(c, &tc); err != nil {
			return nil, "", pathErr(cp, "%v", err)
		}
		if tc.ID == nil || *tc.ID == "" {
			return nil, "", pathErr(cp+".id", "missing")
		}
		if tc.Name == "" {
			return nil, "", pathErr(cp+".name", "missing")
		}
		args := tc.Args
		if isNull(args) {
			args = json.RawMessage("{}")
		}
		calls = append(calls, condense.ToolCall(*tc.ID, tc.Name, append(json.RawMessage(nil), args...)))
		callIDs[*tc.ID] = true
	}
	var extra struct {
		ToolCalls        []json.RawMessage `json:"tool_calls"`
		ReasoningContent string            `json:"reasoning_content"`
		Reasoning        struct {
			Summary []struct {
				Text string `json:"text"`
			} `json:"summary"`
		} `json:"reasoning"`
	}
	if kind(f.AdditionalKwargs) == '{' {
		_ = json.Unmarshal(f.AdditionalKwargs, &extra)
	}
	if len(calls) == 0 {
		for j, c := range extra.ToolCalls {
			cp := fmt.Sprintf("%s.additional_kwargs.tool_calls[%d]", fpath, j)
			var tc oaiToolCall
			if err := decode(c, &tc); err != nil {
				return nil, "", pathErr(cp, "%v", err)
			}
			if tc.ID == "" {
				return nil, "", pathErr(cp+".id", "missing")
			}
			if tc.Function.Name == "" {
				return nil, "", pathErr(cp+".function.name", "missing")
			}
			input, ok := validInput(tc.Function.Arguments)
			if !ok {
				return nil, "", pathErr(cp+".function.arguments", "not valid JSON")
			}
			calls = append(calls, condense.ToolCall(tc.ID, tc.Function.Name, input))
			callIDs[tc.ID] = true
		}
	}
	parts, rerr := lcContent(f.Content, cpath, condense.RoleAssistant, callIDs)
	if rerr != nil {
		return nil, "", rerr
	}
	var summary []string
	for _, t := range extra.Reasoning.Summary {
		if t.Text != "" {
			summary = append(summary, t.Text)
		}
	}
	if len(summary) > 0 {
		parts = append([]condense.Part{condense.Thinking(strings.Join(summary, "\n\n"), "")}, parts...)
	}
	if extra.ReasoningContent != "" {
		parts = append([]condense.Part{condense.Thinking(extra.ReasoningContent, "")}, parts...)
	}
	parts = append(parts, calls...)
	var meta struct {
		ModelName string `json:"model_name"`
		Model     string `json:"model"`
	}
	if kind(f.ResponseMetadata) == '{' {
		_ = json.Unmarshal(f.ResponseMetadata, &meta)
	}
	model = meta.ModelName
	if model == "" {
		model = meta.Model
	}
	return []condense.Message{{ID: id, Role: condense.RoleAssistant, Parts: parts}}, model, nil
}

// lcContent converts message content: a string, or a list of strings and
// blocks. A tool_use or tool_call block whose id is in skip is left out
// (the message's tool_calls hold it).
func lcContent(raw json.RawMessage, path string, role condense.Role, skip map[string]bool) ([]condense.Part, *recErr) {
	switch kind(raw) {
	case 0, 'n':
		return nil, nil
	case '"':
		if s := jsonString(raw); s != "" {
			return []condense.Part{condense.Text(s)}, nil
		}
		return nil, nil
	case '[':
	default:
		return nil, pathErr(path, "want a string or a list of content blocks")
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return nil, pathErr(path, "%v", cleanJSONErr(err))
	}
	var parts []condense.Part
	for j, bl := range blocks {
		bpath := fmt.Sprintf("%s[%d]", path, j)
		if kind(bl) == '"' {
			if s := jsonString(bl); s != "" {
				parts = append(parts, condense.Text(s))
			}
			continue
		}
		k := objectKeys(bl)
		if k == nil {
			return nil, pathErr(bpath, "want a string or a content block object")
		}
		ps, rerr := lcBlock(bl, k, bpath, role, skip)
		if rerr != nil {
			return nil, rerr
		}
		parts = append(parts, ps...)
	}
	return parts, nil
}

// lcBlock converts one content block.
func lcBlock(raw json.RawMessage, k map[string]json.RawMessage, path string, role condense.Role, skip map[string]bool) ([]condense.Part, *recErr) {
	switch typ := jsonString(k["type"]); typ {
	case "text":
		if kind(k["text"]) != '"' {
			return nil, pathErr(path+".text", "want a string")
		}
		return []condense.Part{condense.Text(jsonString(k["text"]))}, nil
	case "image_url":
		url := jsonString(k["image_url"])
		if url == "" {
			url = jsonString(objectKeys(k["image_url"])["url"])
		}
		p, ok := lcImage(url)
		if !ok {
			return nil, pathErr(path+".image_url", "want an http(s) or base64 data URL")
		}
		return []condense.Part{p}, nil
	case "image":
		if k["source"] != nil {
			break // an Anthropic image block
		}
		mime := jsonString(k["mime_type"])
		data := jsonString(k["base64"])
		if data == "" && jsonString(k["source_type"]) == "base64" {
			data = jsonString(k["data"])
		}
		url := jsonString(k["url"])
		if data != "" {
			url = "data:" + mime + ";base64," + data
		}
		p, ok := lcImage(url)
		if !ok {
			return nil, pathErr(path, "want an image with an http(s) url or base64 data and a mime_type")
		}
		if p.MediaType == "" {
			p.MediaType = mime
		}
		return []condense.Part{p}, nil
	case "tool_call":
		if role != condense.RoleAssistant {
			return nil, pathErr(path, "tool_call block in a %s message", role)
		}
		id, name := jsonString(k["id"]), jsonString(k["name"])
		if skip[id] {
			return nil, nil
		}
		if id == "" {
			return nil, pathErr(path+".id", "missing")
		}
		if name == "" {
			return nil, pathErr(path+".name", "missing")
		}
		args := k["args"]
		if isNull(args) {
			args = json.RawMessage("{}")
		}
		return []condense.Part{condense.ToolCall(id, name, append(json.RawMessage(nil), args...))}, nil
	case "tool_use":
		if skip[jsonString(k["id"])] {
			return nil, nil
		}
	case "thinking":
		if role == condense.RoleAssistant && jsonString(k["signature"]) == "" {
			if t := jsonString(k["thinking"]); t != "" {
				return []condense.Part{condense.Thinking(t, "")}, nil
			}
			return nil, nil
		}
	case "reasoning":
		if role != condense.RoleAssistant {
			break
		}
		text := jsonString(k["reasoning"])
		if text == "" {
			var r struct {
				Summary []struct {
					Text string `json:"text"`
				} `json:"summary"`
			}
			_ = json.Unmarshal(raw, &r)
			var ts []string
			for _, s := range r.Summary {
				if s.Text != "" {
					ts = append(ts, s.Text)
				}
			}
			text = strings.Join(ts, "\n\n")
		}
		if text == "" {
			return []condense.Part{condense.ProviderBlock("langchain", append(json.RawMessage(nil), raw...))}, nil
		}
		return []condense.Part{condense.Thinking(text, "")}, nil
	}
	switch jsonString(k["type"]) {
	case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document":
		arr := make([]byte, 0, len(raw)+2)
		arr = append(append(append(arr, '['), raw...), ']')
		parts, rerr := anthBlocks(arr, path, role)
		if rerr != nil {
			rerr.loc.path = strings.Replace(rerr.loc.path, path+"[0]", path, 1)
			return nil, rerr
		}
		return parts, nil
	}
	return []condense.Part{condense.ProviderBlock("langchain", append(json.RawMessage(nil), raw...))}, nil
}

// lcImage returns the image part of an http(s) or base64 data URL.
func lcImage(url string) (condense.Part, bool) {
	if !strings.HasPrefix(url, "data:") && !strings.HasPrefix(url, "http://") && !strings.HasPrefix(url, "https://") {
		return condense.Part{}, false
	}
	return imageFromURL(url)
}
