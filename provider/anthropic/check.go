package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/condense-dev/condense/provider/internal/reqcheck"
)

// Violation is one rule of the Messages API that a request body breaks, so
// that the API would answer it with a 400 invalid_request_error.
type Violation struct {
	// Rule is the rule's stable short name, such as "first-message-user";
	// CheckRequest lists them.
	Rule string `json:"rule"`
	// Path is the JSON path of the offending value
	// ("messages[3].content[0].id"), empty when the whole body is at fault.
	Path string `json:"path,omitempty"`
	// Message says what is wrong, for people.
	Message string `json:"message"`
}

func (v Violation) String() string {
	if v.Path == "" {
		return v.Rule + ": " + v.Message
	}
	return v.Path + ": " + v.Rule + ": " + v.Message
}

// The patterns the API checks ids and names against (its 400 answers quote
// them: "tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'").
var (
	toolUseIDPattern = regexp.MustCompile(`^[a-zA-Z0-9_-]+$`)
	toolNamePattern  = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
)

// ValidToolUseID reports whether id is a tool_use id the API accepts: one
// or more ASCII letters, digits, underscores and hyphens.
func ValidToolUseID(id string) bool { return toolUseIDPattern.MatchString(id) }

// ValidToolName reports whether name is a tool name the API accepts: 1 to
// 64 ASCII letters, digits, underscores and hyphens.
func ValidToolName(name string) bool { return toolNamePattern.MatchString(name) }

// MinThinkingBudget is the smallest extended-thinking budget the API takes.
const MinThinkingBudget = 1024

// CheckRequest checks a Messages API request body against the rules the API
// enforces on what a request holds, and returns every rule broken, in body
// order (nil when there is none). It checks the shape of the conversation,
// not the model's name or the account's limits. The rules, by their names:
//
//   - "json": the body is a JSON object.
//   - "max-tokens": max_tokens is there and a positive integer.
//   - "messages-present": messages is a non-empty array.
//   - "role": every message's role is "user" or "assistant" (the system
//     prompt travels in "system").
//   - "first-message-user": the first message is a user message. The
//     reference no longer spells this out, but the API has answered "first
//     message must use the user role" to bodies that break it; a leading
//     user message is always accepted, so it is kept as a rule.
//   - "content-empty": every message has content (a non-empty string or
//     array), except that the last message may be an assistant message
//     with none.
//   - "text-empty": no text block, and no string content, is empty or only
//     whitespace ("text content blocks must contain non-whitespace text").
//   - "block-role": tool_use, thinking and redacted_thinking blocks appear
//     only in assistant messages; tool_result, image and document blocks
//     only in user messages; every block is an object with a string type.
//   - "tool-use-id": a tool_use id, and a tool_result's tool_use_id,
//     matches ^[a-zA-Z0-9_-]+$.
//   - "tool-use-id-unique": no two tool_use blocks share an id.
//   - "tool-use-block": a tool_use has a non-empty name and an object input.
//   - "tool-use-answered": every tool_use is answered by a tool_result in
//     the user turn right after its assistant turn.
//   - "tool-result-orphan": every tool_result answers a tool_use of the
//     assistant turn right before its user turn, and only once.
//   - "tool-result-first": in a user turn, tool_result blocks come before
//     every other block.
//   - "tools-defined": when tool_use blocks are present, "tools" defines
//     every tool name they use.
//   - "tool-definition": every entry of "tools" has a name matching
//     ^[a-zA-Z0-9_-]{1,64}$, no two share one, and a custom tool (one
//     without a type, or of type "custom") has an input_schema object whose
//     type is "object".
//   - "thinking-block": a thinking block has its thinking text and a
//     non-empty signature (thinking from elsewhere, unsigned, is refused);
//     a redacted_thinking block has its data.
//   - "thinking-budget": with thinking enabled, budget_tokens is at least
//     MinThinkingBudget and less than max_tokens.
//   - "thinking-loop": with thinking enabled, when the last user turn holds
//     tool results, the assistant turn before it starts with a thinking or
//     redacted_thinking block (the tool use loop's thinking must be sent
//     back, https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking).
//   - "image-source": an image block's source is base64 data of type
//     image/jpeg, image/png, image/gif or image/webp, a url, or a file.
//   - "prefill-whitespace": when the last message is an assistant message
//     (a prefill), its content does not end with whitespace.
//   - "system": system is a string or an array of text blocks.
//
// Consecutive messages of one role are legal: the API combines them into
// one turn ("Consecutive user or assistant turns in your request will be
// combined into a single turn", https://docs.anthropic.com/en/api/messages),
// so the turn rules above apply to such runs as a whole. The placement of
// tool results follows
// https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use:
// results immediately follow their tool_use, and come first in the user
// message that carries them.
func CheckRequest(body []byte) []Violation {
	var c checker
	c.run(body)
	return c.out
}

type checker struct {
	out []Violation
}

func (c *checker) add(rule, path, format string, args ...any) {
	c.out = append(c.out, Violation{Rule: rule, Path: path, Message: fmt.Sprintf(format, args...)})
}

func checkBlank(s string) bool { return strings.TrimFunc(s, unicode.IsSpace) == "" }

// block is one content block of a message, as the checker sees it.
type checkBlock struct {
	path string
	typ  string
	m    map[string]json.RawMessage
}

// turn is a run of consecutive messages of one role.
type checkTurn struct {
	role   string
	blocks []checkBlock
}

func (c *checker) run(body []byte) {
	top, ok := reqcheck.Object(body)
	if !ok {
		c.add("json", "", "the body is not a JSON object")
		return
	}
	maxTokens, okMax := reqcheck.Positive(top["max_tokens"])
	if !okMax {
		if _, there := top["max_tokens"]; there {
			c.add("max-tokens", "max_tokens", "not a positive integer")
		} else {
			c.add("max-tokens", "max_tokens", "missing")
		}
	}
	if v, there := top["system"]; there && reqcheck.Kind(v) != 'n' {
		c.system(v)
	}
	thinking := false
	if v, there := top["thinking"]; there {
		if th, ok := reqcheck.Object(v); ok {
			if t, _ := reqcheck.String(th["type"]); t == "enabled" {
				thinking = true
				b, ok := reqcheck.Positive(th["budget_tokens"])
				switch {
				case !ok || b < MinThinkingBudget:
					c.add("thinking-budget", "thinking.budget_tokens", "want an integer of at least %d", MinThinkingBudget)
				case okMax && b >= maxTokens:
					c.add("thinking-budget", "thinking.budget_tokens", "%d is not less than max_tokens %d", b, maxTokens)
				}
			}
		}
	}
	msgs, ok := reqcheck.Array(top["messages"])
	if !ok || len(msgs) == 0 {
		c.add("messages-present", "messages", "want a non-empty array of messages")
		c.tools(top["tools"], nil)
		return
	}
	var turns []checkTurn
	var used []toolUse // each tool name's first use, in order
	seenName := map[string]bool{}
	for i, raw := range msgs {
		path := fmt.Sprintf("messages[%d]", i)
		m, ok := reqcheck.Object(raw)
		if !ok {
			c.add("role", path, "a message is not an object")
			continue
		}
		role, _ := reqcheck.String(m["role"])
		if role != "user" && role != "assistant" {
			c.add("role", path+".role", "want \"user\" or \"assistant\", got %s", string(bytes.TrimSpace(m["role"])))
			continue
		}
		if i == 0 && role != "user" {
			c.add("first-message-user", path+".role", "the first message is an %s message", role)
		}
		last := i == len(msgs)-1
		blocks := c.content(m["content"], path+".content", role, last)
		if len(turns) == 0 || turns[len(turns)-1].role != role {
			turns = append(turns, checkTurn{role: role})
		}
		t := &turns[len(turns)-1]
		t.blocks = append(t.blocks, blocks...)
		if last && role == "assistant" {
			c.prefill(m["content"], path+".content")
		}
	}
	ids := map[string]bool{}
	for k := range turns {
		t := &turns[k]
		if t.role == "assistant" {
			var calls []checkBlock
			for _, b := range t.blocks {
				if b.typ != "tool_use" {
					continue
				}
				id, _ := reqcheck.String(b.m["id"])
				if ids[id] {
					c.add("tool-use-id-unique", b.path+".id", "id %q is used by an earlier tool_use", id)
				}
				ids[id] = true
				if name, _ := reqcheck.String(b.m["name"]); name != "" && !seenName[name] {
					seenName[name] = true
					used = append(used, toolUse{name, b.path + ".name"})
				}
				calls = append(calls, b)
			}
			var next *checkTurn
			if k+1 < len(turns) {
				next = &turns[k+1]
			}
			c.answers(calls, next)
			continue
		}
		// A user turn: results first, each answering the turn before.
		var open map[string]bool
		if k > 0 {
			open = map[string]bool{}
			for _, b := range turns[k-1].blocks {
				if b.typ == "tool_use" {
					id, _ := reqcheck.String(b.m["id"])
					open[id] = true
				}
			}
		}
		other := false
		for _, b := range t.blocks {
			if b.typ != "tool_result" {
				other = true
				continue
			}
			if other {
				c.add("tool-result-first", b.path, "a tool_result after other blocks of its user turn")
			}
			id, _ := reqcheck.String(b.m["tool_use_id"])
			if !open[id] {
				c.add("tool-result-orphan", b.path+".tool_use_id", "%q answers no tool_use of the assistant turn right before (or answers it twice)", id)
			}
			delete(open, id)
		}
	}
	if n := len(turns); thinking && n >= 2 && turns[n-1].role == "user" {
		loop := false
		for _, b := range turns[n-1].blocks {
			loop = loop || b.typ == "tool_result"
		}
		a := turns[n-2].blocks
		if loop && (len(a) == 0 || a[0].typ != "thinking" && a[0].typ != "redacted_thinking") {
			path := ""
			if len(a) > 0 {
				path = a[0].path
			}
			c.add("thinking-loop", path, "with thinking enabled, the assistant turn whose tool results end the request must start with a thinking block")
		}
	}
	c.tools(top["tools"], used)
}

// answers checks that every call is answered in the user turn next.
func (c *checker) answers(calls []checkBlock, next *checkTurn) {
	answered := map[string]bool{}
	if next != nil {
		for _, b := range next.blocks {
			if b.typ == "tool_result" {
				id, _ := reqcheck.String(b.m["tool_use_id"])
				answered[id] = true
			}
		}
	}
	for _, b := range calls {
		id, _ := reqcheck.String(b.m["id"])
		if !answered[id] {
			c.add("tool-use-answered", b.path, "tool_use %q has no tool_result in the next user turn", id)
		}
	}
}

// content checks a message's content and returns its blocks.
func (c *checker) content(v json.RawMessage, path, role string, last bool) []checkBlock {
	switch reqcheck.Kind(v) {
	case '"':
		s, _ := reqcheck.String(v)
		switch {
		case s == "" && !(last && role == "assistant"):
			c.add("content-empty", path, "empty content")
		case s != "" && checkBlank(s):
			c.add("text-empty", path, "content is only whitespace")
		}
		return []checkBlock{{path: path, typ: "text", m: map[string]json.RawMessage{"text": v}}}
	case '[':
	default:
		c.add("content-empty", path, "want a string or an array of blocks")
		return nil
	}
	arr, ok := reqcheck.Array(v)
	if !ok {
		c.add("content-empty", path, "want a string or an array of blocks")
		return nil
	}
	if len(arr) == 0 && !(last && role == "assistant") {
		c.add("content-empty", path, "empty content")
	}
	var out []checkBlock
	for j, raw := range arr {
		bp := fmt.Sprintf("%s[%d]", path, j)
		m, ok := reqcheck.Object(raw)
		typ, _ := reqcheck.String(m["type"])
		if !ok || typ == "" {
			c.add("block-role", bp, "a block is not an object with a type")
			continue
		}
		out = append(out, checkBlock{path: bp, typ: typ, m: m})
		switch typ {
		case "tool_use", "thinking", "redacted_thinking":
			if role != "assistant" {
				c.add("block-role", bp+".type", "a %s block in a %s message", typ, role)
			}
		case "tool_result", "image", "document":
			if role != "user" {
				c.add("block-role", bp+".type", "a %s block in a %s message", typ, role)
			}
		}
		c.block(bp, typ, m)
	}
	return out
}

// block checks one block's own members.
func (c *checker) block(path, typ string, m map[string]json.RawMessage) {
	switch typ {
	case "text":
		s, ok := reqcheck.String(m["text"])
		if !ok || checkBlank(s) {
			c.add("text-empty", path+".text", "a text block without non-whitespace text")
		}
	case "tool_use":
		id, _ := reqcheck.String(m["id"])
		if !ValidToolUseID(id) {
			c.add("tool-use-id", path+".id", "%q does not match ^[a-zA-Z0-9_-]+$", id)
		}
		if name, _ := reqcheck.String(m["name"]); name == "" {
			c.add("tool-use-block", path+".name", "missing")
		}
		if reqcheck.Kind(m["input"]) != '{' {
			c.add("tool-use-block", path+".input", "want an object")
		}
	case "tool_result":
		id, _ := reqcheck.String(m["tool_use_id"])
		if !ValidToolUseID(id) {
			c.add("tool-use-id", path+".tool_use_id", "%q does not match ^[a-zA-Z0-9_-]+$", id)
		}
		if v, ok := m["content"]; ok && reqcheck.Kind(v) == '[' {
			arr, _ := reqcheck.Array(v)
			for k, raw := range arr {
				bp := fmt.Sprintf("%s.content[%d]", path, k)
				bm, ok := reqcheck.Object(raw)
				t, _ := reqcheck.String(bm["type"])
				if !ok || t == "" {
					c.add("block-role", bp, "a block is not an object with a type")
					continue
				}
				c.block(bp, t, bm)
			}
		}
	case "thinking":
		if _, ok := reqcheck.String(m["thinking"]); !ok {
			c.add("thinking-block", path+".thinking", "missing")
		}
		if s, _ := reqcheck.String(m["signature"]); s == "" {
			c.add("thinking-block", path+".signature", "a thinking block without a signature")
		}
	case "redacted_thinking":
		if s, _ := reqcheck.String(m["data"]); s == "" {
			c.add("thinking-block", path+".data", "a redacted_thinking block without data")
		}
	case "image":
		src, ok := reqcheck.Object(m["source"])
		st, _ := reqcheck.String(src["type"])
		switch {
		case !ok:
			c.add("image-source", path+".source", "missing")
		case st == "base64":
			mt, _ := reqcheck.String(src["media_type"])
			if mt != "image/jpeg" && mt != "image/png" && mt != "image/gif" && mt != "image/webp" {
				c.add("image-source", path+".source.media_type", "%q is not image/jpeg, image/png, image/gif or image/webp", mt)
			}
			if d, _ := reqcheck.String(src["data"]); d == "" {
				c.add("image-source", path+".source.data", "missing")
			}
		case st == "url":
			if u, _ := reqcheck.String(src["url"]); u == "" {
				c.add("image-source", path+".source.url", "missing")
			} else if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") {
				c.add("image-source", path+".source.url", "not an http(s) URL")
			}
		case st == "file":
			if f, _ := reqcheck.String(src["file_id"]); f == "" {
				c.add("image-source", path+".source.file_id", "missing")
			}
		default:
			c.add("image-source", path+".source.type", "want base64, url or file")
		}
	}
}

// prefill checks that the content of a final assistant message does not
// end with whitespace.
func (c *checker) prefill(v json.RawMessage, path string) {
	var text string
	switch reqcheck.Kind(v) {
	case '"':
		text, _ = reqcheck.String(v)
	case '[':
		arr, _ := reqcheck.Array(v)
		if len(arr) == 0 {
			return
		}
		m, _ := reqcheck.Object(arr[len(arr)-1])
		if t, _ := reqcheck.String(m["type"]); t != "text" {
			return
		}
		text, _ = reqcheck.String(m["text"])
		path = fmt.Sprintf("%s[%d].text", path, len(arr)-1)
	}
	if text != "" && strings.TrimRightFunc(text, unicode.IsSpace) != text {
		c.add("prefill-whitespace", path, "the final assistant content ends with whitespace")
	}
}

func (c *checker) system(v json.RawMessage) {
	switch reqcheck.Kind(v) {
	case '"':
		return
	case '[':
		arr, _ := reqcheck.Array(v)
		for i, raw := range arr {
			m, _ := reqcheck.Object(raw)
			t, _ := reqcheck.String(m["type"])
			s, ok := reqcheck.String(m["text"])
			if t != "text" || !ok {
				c.add("system", fmt.Sprintf("system[%d]", i), "want a text block")
			} else if checkBlank(s) {
				c.add("text-empty", fmt.Sprintf("system[%d].text", i), "a text block without non-whitespace text")
			}
		}
	default:
		c.add("system", "system", "want a string or an array of text blocks")
	}
}

// toolUse is the first use of a tool name.
type toolUse struct{ name, path string }

// tools checks the tool definitions, and that every tool used has one.
func (c *checker) tools(v json.RawMessage, used []toolUse) {
	defined := map[string]bool{}
	if v != nil && reqcheck.Kind(v) != 'n' {
		arr, ok := reqcheck.Array(v)
		if !ok {
			c.add("tool-definition", "tools", "want an array")
		}
		for i, raw := range arr {
			path := fmt.Sprintf("tools[%d]", i)
			m, ok := reqcheck.Object(raw)
			if !ok {
				c.add("tool-definition", path, "a tool is not an object")
				continue
			}
			name, _ := reqcheck.String(m["name"])
			if !ValidToolName(name) {
				c.add("tool-definition", path+".name", "%q does not match ^[a-zA-Z0-9_-]{1,64}$", name)
			}
			if defined[name] {
				c.add("tool-definition", path+".name", "a second tool named %q", name)
			}
			defined[name] = true
			typ, hasType := reqcheck.String(m["type"])
			if _, there := m["type"]; !there || hasType && typ == "custom" {
				schema, ok := reqcheck.Object(m["input_schema"])
				if st, _ := reqcheck.String(schema["type"]); !ok || st != "object" {
					c.add("tool-definition", path+".input_schema", "want a JSON schema object of type \"object\"")
				}
			}
		}
	}
	for _, u := range used {
		if !defined[u.name] {
			c.add("tools-defined", u.path, "tool %q is used but not defined in tools", u.name)
		}
	}
}

// CheckBlock checks one content block of a message of role ("user" or
// "assistant") with the rules CheckRequest applies to a block on its own:
// "block-role" and the rules on the block's members ("text-empty",
// "tool-use-id", "tool-use-block", "thinking-block", "image-source"). Paths
// are relative to the block ("" for the block, ".text" for its text). A
// writer uses it to leave out opaque blocks the API would refuse.
func CheckBlock(raw []byte, role string) []Violation {
	var c checker
	c.content(json.RawMessage(append(append([]byte{'['}, raw...), ']')), "", role, true)
	for i := range c.out {
		c.out[i].Path = strings.TrimPrefix(c.out[i].Path, "[0]")
	}
	return c.out
}
