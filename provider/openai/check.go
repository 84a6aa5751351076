package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/condense-dev/condense/provider/internal/reqcheck"
)

// Violation is one rule of the Chat Completions API that a request body
// breaks, so that the API would answer it with a 400
// invalid_request_error.
type Violation struct {
	// Rule is the rule's stable short name, such as "tool-call-answered";
	// CheckChatRequest lists them.
	Rule string `json:"rule"`
	// Path is the JSON path of the offending value
	// ("messages[3].tool_calls[0].id"), empty when the whole body is at
	// fault.
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

// functionNamePattern is what the API checks function names against
// ("Must be a-z, A-Z, 0-9, or contain underscores and dashes, with a
// maximum length of 64").
var functionNamePattern = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// MaxToolCallIDLen is the longest tool call id the API takes, in
// characters.
const MaxToolCallIDLen = 40

// ValidFunctionName reports whether name is a function name the API
// accepts: 1 to 64 ASCII letters, digits, underscores and hyphens.
func ValidFunctionName(name string) bool { return functionNamePattern.MatchString(name) }

// CheckChatRequest checks a Chat Completions request body against the rules
// the API enforces on what a request holds, and returns every rule broken,
// in body order (nil when there is none). It checks the shape of the
// conversation, not the model's name or the account's limits. The rules, by
// their names (see
// https://platform.openai.com/docs/api-reference/chat/create and
// https://platform.openai.com/docs/guides/function-calling):
//
//   - "json": the body is a JSON object.
//   - "messages-present": messages is a non-empty array.
//   - "role": every message is an object whose role is "system",
//     "developer", "user", "assistant" or "tool".
//   - "content": content has the shape the role allows. User: a string or a
//     non-empty array of text, image_url, input_audio and file parts.
//     System and developer: a string or an array of text parts. Assistant:
//     a string, an array of text and refusal parts, or null or absent when
//     the message has tool_calls (or a refusal). Tool: a string or an array
//     of text parts. A text part has a string text, an image_url part an
//     image_url object with a url.
//   - "tool-calls-role": only assistant messages have tool_calls, a
//     non-empty array.
//   - "tool-call-id": a tool call has a non-empty string id of at most
//     MaxToolCallIDLen characters ("string too long. Expected a string
//     with maximum length 40") and type "function" (or "custom").
//   - "tool-call-id-unique": no two tool calls share an id.
//   - "function-name": a function tool call's name matches
//     ^[a-zA-Z0-9_-]{1,64}$.
//   - "tool-call-arguments": a function tool call's arguments are a string.
//   - "tool-message-orphan": a tool message follows, with only tool
//     messages between, an assistant message with tool_calls, and its
//     tool_call_id names one of those calls not already answered ("messages
//     with role 'tool' must be a response to a preceding message with
//     'tool_calls'").
//   - "tool-call-answered": every tool call is answered by a tool message
//     in the run of tool messages right after its assistant message ("An
//     assistant message with 'tool_calls' must be followed by tool messages
//     responding to each 'tool_call_id'").
//   - "tools-defined": every function a tool call names is defined in
//     "tools".
//   - "tool-definition": every entry of "tools" is a function tool (or
//     another typed tool) whose name matches ^[a-zA-Z0-9_-]{1,64}$, no two
//     share one, and parameters, when given, is an object.
//   - "max-tokens": max_completion_tokens and max_tokens, when given, are
//     positive integers.
func CheckChatRequest(body []byte) []Violation {
	var c chatChecker
	c.run(body)
	return c.out
}

type chatChecker struct {
	out []Violation
}

func (c *chatChecker) add(rule, path, format string, args ...any) {
	c.out = append(c.out, Violation{Rule: rule, Path: path, Message: fmt.Sprintf(format, args...)})
}

// positive reports whether v is a positive integer.
func positive(v json.RawMessage) bool { _, ok := reqcheck.Positive(v); return ok }

// callUse is the first call of a function name.
type callUse struct{ name, path string }

func (c *chatChecker) run(body []byte) {
	top, ok := reqcheck.Object(body)
	if !ok {
		c.add("json", "", "the body is not a JSON object")
		return
	}
	for _, k := range []string{"max_completion_tokens", "max_tokens"} {
		if v, there := top[k]; there && reqcheck.Kind(v) != 'n' && !positive(v) {
			c.add("max-tokens", k, "not a positive integer")
		}
	}
	msgs, ok := reqcheck.Array(top["messages"])
	if !ok || len(msgs) == 0 {
		c.add("messages-present", "messages", "want a non-empty array of messages")
	}
	ids := map[string]bool{}
	var used []callUse
	usedName := map[string]bool{}
	// open holds the calls of the last assistant message with tool_calls
	// not yet answered, while only tool messages have followed it; inRun
	// says whether that is so.
	var open []string
	var openPaths []string
	inRun := false
	closeRun := func() {
		for k, id := range open {
			c.add("tool-call-answered", openPaths[k], "tool call %q has no tool message right after its assistant message", id)
		}
		open, openPaths, inRun = nil, nil, false
	}
	for i, raw := range msgs {
		path := fmt.Sprintf("messages[%d]", i)
		m, ok := reqcheck.Object(raw)
		if !ok {
			closeRun()
			c.add("role", path, "a message is not an object")
			continue
		}
		role, _ := reqcheck.String(m["role"])
		switch role {
		case "system", "developer", "user", "assistant", "tool":
		default:
			closeRun()
			c.add("role", path+".role", "want system, developer, user, assistant or tool, got %s", string(bytes.TrimSpace(m["role"])))
			continue
		}
		if role == "tool" {
			id, _ := reqcheck.String(m["tool_call_id"])
			k := -1
			for j, o := range open {
				if o == id {
					k = j
				}
			}
			if !inRun || k < 0 {
				c.add("tool-message-orphan", path+".tool_call_id", "%q answers no unanswered tool call of the assistant message before", id)
			} else {
				open = append(open[:k], open[k+1:]...)
				openPaths = append(openPaths[:k], openPaths[k+1:]...)
			}
			c.content(m, path, role, false)
			continue
		}
		closeRun()
		calls, hasCalls := m["tool_calls"]
		hasCalls = hasCalls && reqcheck.Kind(calls) != 'n'
		if hasCalls && role != "assistant" {
			c.add("tool-calls-role", path+".tool_calls", "tool calls in a %s message", role)
		}
		_, refusal := m["refusal"]
		c.content(m, path, role, hasCalls || refusal && reqcheck.Kind(m["refusal"]) == '"')
		if !hasCalls || role != "assistant" {
			continue
		}
		arr, ok := reqcheck.Array(calls)
		if !ok || len(arr) == 0 {
			c.add("tool-calls-role", path+".tool_calls", "want a non-empty array")
			continue
		}
		inRun = true
		for j, craw := range arr {
			cp := fmt.Sprintf("%s.tool_calls[%d]", path, j)
			tc, ok := reqcheck.Object(craw)
			if !ok {
				c.add("tool-call-id", cp, "a tool call is not an object")
				continue
			}
			id, _ := reqcheck.String(tc["id"])
			if id == "" {
				c.add("tool-call-id", cp+".id", "missing")
			} else {
				if n := utf8.RuneCountInString(id); n > MaxToolCallIDLen {
					c.add("tool-call-id", cp+".id", "%d characters, more than %d", n, MaxToolCallIDLen)
				}
				if ids[id] {
					c.add("tool-call-id-unique", cp+".id", "id %q is used by an earlier tool call", id)
				}
				ids[id] = true
				open = append(open, id)
				openPaths = append(openPaths, cp)
			}
			typ, _ := reqcheck.String(tc["type"])
			switch typ {
			case "function":
				fn, _ := reqcheck.Object(tc["function"])
				name, _ := reqcheck.String(fn["name"])
				if !ValidFunctionName(name) {
					c.add("function-name", cp+".function.name", "%q does not match ^[a-zA-Z0-9_-]{1,64}$", name)
				} else if !usedName[name] {
					usedName[name] = true
					used = append(used, callUse{name, cp + ".function.name"})
				}
				if _, ok := reqcheck.String(fn["arguments"]); !ok {
					c.add("tool-call-arguments", cp+".function.arguments", "want a string")
				}
			case "custom":
			default:
				c.add("tool-call-id", cp+".type", "want \"function\" or \"custom\"")
			}
		}
	}
	closeRun()
	c.tools(top["tools"], used)
}

// partTypes are the content part types each role takes in an array.
var partTypes = map[string]map[string]bool{
	"user":      {"text": true, "image_url": true, "input_audio": true, "file": true},
	"system":    {"text": true},
	"developer": {"text": true},
	"assistant": {"text": true, "refusal": true},
	"tool":      {"text": true},
}

// content checks m's content; optional says the assistant message may go
// without.
func (c *chatChecker) content(m map[string]json.RawMessage, path, role string, optional bool) {
	v, there := m["content"]
	path += ".content"
	switch reqcheck.Kind(v) {
	case '"':
		return
	case 'n', 0:
		if (!there || reqcheck.Kind(v) == 'n') && role == "assistant" && optional {
			return
		}
		c.add("content", path, "a %s message needs content", role)
		return
	case '[':
	default:
		c.add("content", path, "want a string or an array of parts")
		return
	}
	arr, ok := reqcheck.Array(v)
	if !ok {
		c.add("content", path, "want a string or an array of parts")
		return
	}
	if len(arr) == 0 && role == "user" {
		c.add("content", path, "an empty array")
	}
	for k, raw := range arr {
		pp := fmt.Sprintf("%s[%d]", path, k)
		p, ok := reqcheck.Object(raw)
		typ, _ := reqcheck.String(p["type"])
		if !ok || !partTypes[role][typ] {
			c.add("content", pp, "a %s message takes no %q part", role, typ)
			continue
		}
		switch typ {
		case "text":
			if _, ok := reqcheck.String(p["text"]); !ok {
				c.add("content", pp+".text", "want a string")
			}
		case "refusal":
			if _, ok := reqcheck.String(p["refusal"]); !ok {
				c.add("content", pp+".refusal", "want a string")
			}
		case "image_url":
			iu, _ := reqcheck.Object(p["image_url"])
			if u, _ := reqcheck.String(iu["url"]); u == "" {
				c.add("content", pp+".image_url.url", "missing")
			} else if !strings.HasPrefix(u, "https://") && !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "data:") {
				c.add("content", pp+".image_url.url", "not an http(s) or data: URL")
			}
		}
	}
}

// tools checks the tool definitions, and that every function used has one.
func (c *chatChecker) tools(v json.RawMessage, used []callUse) {
	defined := map[string]bool{}
	if v != nil && reqcheck.Kind(v) != 'n' {
		arr, ok := reqcheck.Array(v)
		if !ok {
			c.add("tool-definition", "tools", "want an array")
		}
		for i, raw := range arr {
			path := fmt.Sprintf("tools[%d]", i)
			t, ok := reqcheck.Object(raw)
			typ, _ := reqcheck.String(t["type"])
			if !ok || typ == "" {
				c.add("tool-definition", path, "a tool is not an object with a type")
				continue
			}
			var name string
			switch typ {
			case "function":
				fn, ok := reqcheck.Object(t["function"])
				if !ok {
					c.add("tool-definition", path+".function", "missing")
					continue
				}
				name, _ = reqcheck.String(fn["name"])
				path += ".function"
				if p, there := fn["parameters"]; there && reqcheck.Kind(p) != '{' {
					c.add("tool-definition", path+".parameters", "want a JSON schema object")
				}
			case "custom":
				ct, _ := reqcheck.Object(t["custom"])
				name, _ = reqcheck.String(ct["name"])
				path += ".custom"
			default:
				continue
			}
			if !ValidFunctionName(name) {
				c.add("tool-definition", path+".name", "%q does not match ^[a-zA-Z0-9_-]{1,64}$", name)
			}
			if defined[name] {
				c.add("tool-definition", path+".name", "a second tool named %q", name)
			}
			defined[name] = true
		}
	}
	for _, u := range used {
		if !defined[u.name] {
			c.add("tools-defined", u.path, "function %q is called but not defined in tools", u.name)
		}
	}
}
