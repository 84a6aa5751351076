package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// Anthropic Messages: {model?, system?, messages, tools?, max_tokens?,
// thinking?}; a bare array of messages is read too.

type anthDoc struct {
	Model     string            `json:"model"`
	System    json.RawMessage   `json:"system"`
	Messages  []json.RawMessage `json:"messages"`
	Tools     []json.RawMessage `json:"tools"`
	MaxTokens int               `json:"max_tokens"`
	Thinking  *struct {
		BudgetTokens int `json:"budget_tokens"`
	} `json:"thinking"`
}

type anthMsg struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type anthBlockJSON struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text"`
	Thinking  *string         `json:"thinking"`
	Signature string          `json:"signature"`
	Data      string          `json:"data"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *struct {
		Type      string `json:"type"`
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
		URL       string `json:"url"`
	} `json:"source"`
	CacheControl json.RawMessage `json:"cache_control"`
}

// anthKnown lists, per block type the reader models, the keys it
// understands. A block of another type, a block with other keys (say
// "citations"), or any block with "encrypted_content" is carried byte for
// byte as an anthropic provider block.
var anthKnown = map[string][]string{
	"text":              {"type", "text", "cache_control"},
	"image":             {"type", "source", "cache_control"},
	"thinking":          {"type", "thinking", "signature"},
	"redacted_thinking": {"type", "data"},
	// tool_use and tool_result are always modeled: the pairing depends on
	// them. Keys other than these are not kept.
	"tool_use":    nil,
	"tool_result": nil,
}

// cacheMarker returns the provider part standing for a block's
// cache_control: {"cache_control":<the value, byte for byte>}. It follows
// the part of its block in the same message (or tool result content); the
// Anthropic writer puts it back on that block.
func cacheMarker(raw json.RawMessage) condense.Part {
	b := make([]byte, 0, len(raw)+18)
	b = append(b, `{"cache_control":`...)
	b = append(b, raw...)
	b = append(b, '}')
	return condense.ProviderBlock("anthropic", b)
}

// isCacheMarker reports whether p is a cache_control marker, and returns its
// value.
func isCacheMarker(p *condense.Part) (json.RawMessage, bool) {
	if p.Type != condense.PartProvider || p.Provider != "anthropic" {
		return nil, false
	}
	keys := objectKeys(p.Raw)
	if len(keys) != 1 || keys["cache_control"] == nil {
		return nil, false
	}
	return keys["cache_control"], true
}

func readAnthropic(b *builder, data []byte) error {
	var doc anthDoc
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
		return b.errAt(loc{}, "want an object with \"messages\"")
	}
	b.req.Model = doc.Model
	b.req.MaxOutputTokens = max(doc.MaxTokens, 0)
	if doc.Thinking != nil {
		b.req.ThinkingBudget = max(doc.Thinking.BudgetTokens, 0)
	}
	system, rerr := anthSystem(doc.System)
	if rerr != nil {
		return b.errAt(rerr.loc, "%s", rerr.msg)
	}
	b.req.System = system
	for i, raw := range doc.Tools {
		l := loc{path: fmt.Sprintf("tools[%d]", i)}
		var t struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if err := decode(raw, &t); err != nil {
			if err := b.bad(l, "%v", err); err != nil {
				return err
			}
			continue
		}
		if t.Name == "" {
			if err := b.bad(loc{path: l.path + ".name"}, "missing"); err != nil {
				return err
			}
			continue
		}
		b.req.Tools = append(b.req.Tools, condense.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	for i, raw := range doc.Messages {
		path := fmt.Sprintf("messages[%d]", i)
		msgs, rerr := anthMessage(raw, path)
		if rerr != nil {
			if err := b.bad(rerr.loc, "%s", rerr.msg); err != nil {
				return err
			}
			continue
		}
		for _, m := range msgs {
			b.add(m, loc{path: path})
		}
	}
	return nil
}

func anthSystem(raw json.RawMessage) (string, *recErr) {
	switch kind(raw) {
	case 0, 'n':
		return "", nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", pathErr("system", "%v", err)
		}
		return s, nil
	case '[':
		var blocks []anthBlockJSON
		if err := json.Unmarshal(raw, &blocks); err != nil {
			return "", pathErr("system", "%v", cleanJSONErr(err))
		}
		var texts []string
		for i, bl := range blocks {
			if bl.Type != "text" || bl.Text == nil {
				return "", pathErr(fmt.Sprintf("system[%d]", i), "want a text block")
			}
			texts = append(texts, *bl.Text)
		}
		return strings.Join(texts, "\n\n"), nil
	}
	return "", pathErr("system", "want a string or an array of text blocks")
}

// anthMessage converts one message. A user message holding tool_result
// blocks becomes a tool message with the results (and their cache markers)
// followed by a user message with the other blocks.
func anthMessage(raw json.RawMessage, path string) ([]condense.Message, *recErr) {
	var am anthMsg
	if err := decode(raw, &am); err != nil {
		return nil, pathErr(path, "%v", err)
	}
	var role condense.Role
	switch am.Role {
	case "user":
		role = condense.RoleUser
	case "assistant":
		role = condense.RoleAssistant
	case "":
		return nil, pathErr(path+".role", "missing")
	default:
		return nil, pathErr(path+".role", "unknown role %q (want user or assistant)", am.Role)
	}
	parts, rerr := anthBlocks(am.Content, path+".content", role)
	if rerr != nil {
		return nil, rerr
	}
	if role == condense.RoleAssistant {
		return []condense.Message{{Role: role, Parts: parts}}, nil
	}
	return splitResults(parts), nil
}

// splitResults splits the parts of a user turn into a tool message holding
// the tool results (each followed by its cache marker, if any) and a user
// message with the rest.
func splitResults(parts []condense.Part) []condense.Message {
	var results, rest []condense.Part
	lastWasResult := false
	for i := range parts {
		p := parts[i]
		if _, marker := isCacheMarker(&p); marker && lastWasResult {
			results = append(results, p)
			continue
		}
		lastWasResult = p.Type == condense.PartToolResult
		if lastWasResult {
			results = append(results, p)
		} else {
			rest = append(rest, p)
		}
	}
	var out []condense.Message
	if len(results) > 0 {
		out = append(out, condense.Message{Role: condense.RoleTool, Parts: results})
	}
	if len(rest) > 0 {
		out = append(out, condense.Message{Role: condense.RoleUser, Parts: rest})
	}
	return out
}

// anthBlocks converts message content: a string or an array of blocks.
func anthBlocks(raw json.RawMessage, path string, role condense.Role) ([]condense.Part, *recErr) {
	switch kind(raw) {
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
	case 0, 'n':
		return nil, pathErr(path, "missing")
	default:
		return nil, pathErr(path, "want a string or an array of blocks")
	}
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return nil, pathErr(path, "%v", cleanJSONErr(err))
	}
	var parts []condense.Part
	for k, item := range items {
		ps, rerr := anthBlock(item, fmt.Sprintf("%s[%d]", path, k), role)
		if rerr != nil {
			return nil, rerr
		}
		parts = append(parts, ps...)
	}
	return parts, nil
}

// anthBlock converts one content block into its part and, when the block
// has cache_control, the marker after it. role is "" inside tool_result
// content.
func anthBlock(item json.RawMessage, path string, role condense.Role) ([]condense.Part, *recErr) {
	keys := objectKeys(item)
	if keys == nil {
		return nil, pathErr(path, "want a content block object")
	}
	var bl anthBlockJSON
	if err := json.Unmarshal(item, &bl); err != nil {
		return nil, pathErr(path, "%v", cleanJSONErr(err))
	}
	raw := func() []condense.Part {
		return []condense.Part{condense.ProviderBlock("anthropic", append(json.RawMessage(nil), item...))}
	}
	if bl.Type == "" {
		return nil, pathErr(path+".type", "missing")
	}
	known, modeled := anthKnown[bl.Type]
	if !modeled || keys["encrypted_content"] != nil {
		return raw(), nil
	}
	if known != nil {
		for k := range keys {
			ok := false
			for _, kk := range known {
				ok = ok || k == kk
			}
			if !ok {
				return raw(), nil
			}
		}
	}
	var p condense.Part
	switch bl.Type {
	case "text":
		if bl.Text == nil {
			return nil, pathErr(path+".text", "missing")
		}
		p = condense.Text(*bl.Text)
	case "image":
		if bl.Source == nil {
			return nil, pathErr(path+".source", "missing")
		}
		switch bl.Source.Type {
		case "base64":
			data, err := base64.StdEncoding.DecodeString(bl.Source.Data)
			if err != nil {
				return nil, pathErr(path+".source.data", "not base64: %v", err)
			}
			p = condense.ImageData(bl.Source.MediaType, data)
		case "url":
			if bl.Source.URL == "" {
				return nil, pathErr(path+".source.url", "missing")
			}
			p = condense.ImageURL(bl.Source.MediaType, bl.Source.URL)
		default:
			return raw(), nil // file ids and the like
		}
	case "thinking", "redacted_thinking":
		if role != condense.RoleAssistant {
			return nil, pathErr(path, "%s block outside an assistant message", bl.Type)
		}
		if bl.Type == "thinking" {
			if bl.Thinking == nil {
				return nil, pathErr(path+".thinking", "missing")
			}
			if *bl.Thinking == "" {
				return raw(), nil // a thinking part must hold something
			}
			p = condense.Thinking(*bl.Thinking, bl.Signature)
		} else {
			if bl.Data == "" {
				return nil, pathErr(path+".data", "missing")
			}
			p = condense.RedactedThinking(bl.Data)
		}
	case "tool_use":
		if role != condense.RoleAssistant {
			return nil, pathErr(path, "tool_use block outside an assistant message")
		}
		if bl.ID == "" {
			return nil, pathErr(path+".id", "missing")
		}
		if bl.Name == "" {
			return nil, pathErr(path+".name", "missing")
		}
		input := bl.Input
		if isNull(input) {
			input = json.RawMessage("{}")
		}
		p = condense.ToolCall(bl.ID, bl.Name, append(json.RawMessage(nil), input...))
	case "tool_result":
		if role != condense.RoleUser {
			return nil, pathErr(path, "tool_result block outside a user message")
		}
		if bl.ToolUseID == "" {
			return nil, pathErr(path+".tool_use_id", "missing")
		}
		var content []condense.Part
		if !isNull(bl.Content) {
			var rerr *recErr
			if content, rerr = anthBlocks(bl.Content, path+".content", ""); rerr != nil {
				return nil, rerr
			}
			for _, c := range content {
				if c.Type != condense.PartText && c.Type != condense.PartImage && c.Type != condense.PartProvider {
					return nil, pathErr(path+".content", "%s cannot appear in a tool result", c.Type)
				}
			}
		}
		p = condense.ToolResult(bl.ToolUseID, bl.IsError, content...)
	}
	if isNull(bl.CacheControl) {
		return []condense.Part{p}, nil
	}
	return []condense.Part{p, cacheMarker(append(json.RawMessage(nil), bl.CacheControl...))}, nil
}

// writeAnthropic writes req as an Anthropic Messages body
// {"model","max_tokens","system","messages","tools"}, adding "thinking" when
// req.ThinkingBudget is set. max_tokens is req.MaxOutputTokens, or 4096 when
// unset (DESIGN B6). Tool messages become user messages of tool_result
// blocks; consecutive messages of one role are merged, tool results first,
// so roles alternate; system messages after the start go out as user text.
// Anthropic provider blocks are written back byte for byte and cache
// markers go back onto their block. Left out: thinking without a signature
// (another provider's reasoning, which the API would reject) and openai
// provider blocks.
func writeAnthropic(req condense.Request) ([]byte, error) {
	type entry struct {
		role   string
		tool   bool
		blocks arr
	}
	var entries []entry
	for i := range req.Messages {
		m := &req.Messages[i]
		if failedReply(m) {
			continue
		}
		e := entry{role: "user", tool: m.Role == condense.RoleTool}
		switch m.Role {
		case condense.RoleAssistant:
			e.role = "assistant"
		case condense.RoleUser, condense.RoleSystem, condense.RoleTool:
		default:
			return nil, fmt.Errorf("messages[%d]: unknown role %q", i, m.Role)
		}
		e.blocks = anthWriteParts(m.Parts)
		if len(e.blocks) > 0 {
			entries = append(entries, e)
		}
	}
	var msgs arr
	for i := 0; i < len(entries); {
		j := i + 1
		for j < len(entries) && entries[j].role == entries[i].role {
			j++
		}
		var blocks arr
		for pass := 0; pass < 2; pass++ { // user side: tool results first
			for k := i; k < j; k++ {
				if entries[i].role == "assistant" && pass == 0 || entries[i].role == "user" && entries[k].tool == (pass == 0) {
					blocks = append(blocks, entries[k].blocks...)
				}
			}
		}
		msgs = append(msgs, obj{{"role", entries[i].role}, {"content", blocks}})
		i = j
	}
	if msgs == nil {
		msgs = arr{}
	}
	maxTokens := req.MaxOutputTokens
	if maxTokens <= 0 {
		maxTokens = 4096
	}
	top := obj{{"model", req.Model}, {"max_tokens", maxTokens}}
	if req.System != "" {
		top = append(top, kv{"system", req.System})
	}
	if req.ThinkingBudget > 0 {
		top = append(top, kv{"thinking", obj{{"type", "enabled"}, {"budget_tokens", req.ThinkingBudget}}})
	}
	top = append(top, kv{"messages", msgs})
	if len(req.Tools) > 0 {
		tools := make(arr, len(req.Tools))
		for i, t := range req.Tools {
			o := obj{{"name", t.Name}}
			if t.Description != "" {
				o = append(o, kv{"description", t.Description})
			}
			schema := t.InputSchema
			if len(schema) == 0 {
				schema = json.RawMessage(`{"type":"object","properties":{}}`)
			}
			tools[i] = append(o, kv{"input_schema", schema})
		}
		top = append(top, kv{"tools", tools})
	}
	var buf bytes.Buffer
	emit(&buf, top)
	return buf.Bytes(), nil
}

// anthWriteParts returns the content blocks of parts.
func anthWriteParts(parts []condense.Part) arr {
	var blocks arr
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			blocks = append(blocks, obj{{"type", "text"}, {"text", p.Text}})
		case condense.PartImage:
			blocks = append(blocks, anthImage(p))
		case condense.PartThinking:
			switch {
			case p.Redacted != "":
				blocks = append(blocks, obj{{"type", "redacted_thinking"}, {"data", p.Redacted}})
			case p.Signature != "":
				blocks = append(blocks, obj{{"type", "thinking"}, {"thinking", p.Text}, {"signature", p.Signature}})
			}
		case condense.PartToolCall:
			input := p.Input
			if len(input) == 0 {
				input = json.RawMessage("{}")
			}
			blocks = append(blocks, obj{{"type", "tool_use"}, {"id", p.ID}, {"name", p.Name}, {"input", input}})
		case condense.PartToolResult:
			o := obj{{"type", "tool_result"}, {"tool_use_id", p.CallID}}
			if len(p.Content) == 1 && p.Content[0].Type == condense.PartText {
				o = append(o, kv{"content", p.Content[0].Text})
			} else if content := anthWriteParts(p.Content); len(content) > 0 {
				o = append(o, kv{"content", content})
			}
			if p.IsError {
				o = append(o, kv{"is_error", true})
			}
			blocks = append(blocks, o)
		case condense.PartProvider:
			if p.Provider != "anthropic" {
				continue
			}
			if cc, ok := isCacheMarker(p); ok {
				if n := len(blocks); n > 0 {
					if prev, ok := blocks[n-1].(obj); ok {
						blocks[n-1] = append(prev, kv{"cache_control", cc})
					}
				}
				continue
			}
			blocks = append(blocks, p.Raw)
		}
	}
	return blocks
}

func anthImage(p *condense.Part) obj {
	if p.URL != "" {
		return obj{{"type", "image"}, {"source", obj{{"type", "url"}, {"url", p.URL}}}}
	}
	return obj{{"type", "image"}, {"source", obj{{"type", "base64"}, {"media_type", p.MediaType},
		{"data", base64.StdEncoding.EncodeToString(p.Data)}}}}
}
