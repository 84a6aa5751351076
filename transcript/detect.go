package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// Detect names the format of a transcript from its first JSON value. The
// rules are checked in this order and the first that matches decides:
//
//  1. codex: the first value is an object with "type" and "payload" (a
//     rollout line), or one with "id", "timestamp" and "instructions" or
//     "git" but no "type" (the first line of a legacy rollout).
//  2. claude-code: an object with a string "type" and one of "uuid",
//     "parentUuid", "sessionId" or "leafUuid", or whose type is "summary"
//     or "file-history-snapshot" (a session line).
//  3. gemini-cli: an object with "sessionId" and "projectHash" (a Gemini CLI
//     session record, or the first line of a session log); one with
//     "history", "clientHistory" or "contents" holding Content objects
//     ({role, parts}: a saved chat, a Gemini API request); an array of
//     Content objects; or a stream-json event
//     (an "init" event with a "session_id", or a "message", "tool_use" or
//     "tool_result" event with a "timestamp" and a "role" or "tool_id").
//  4. openhands: an OpenHands event (an object with "source" and a string
//     "kind", "action" or "observation"), or an array, or an object whose
//     "history" or "events" array, starts with one (or with an object with
//     a string "action" or "observation" and neither "role" nor "type").
//  5. langchain: an object whose "messages" (or "values".messages, or
//     "channel_values".messages: a LangGraph thread state or checkpoint)
//     is a LangChain message list as rule 10 says.
//  6. mini-swe-agent: an object whose "trajectory_format" starts with
//     "mini-swe-agent", or one with "messages" and "info", or an array of
//     messages one of which has role "exit" or an "extra" object (a
//     trajectory's bare message list).
//  7. swe-agent: an object with "trajectory", with "history" and "info",
//     or with a "history" whose first entry has "message_type" or "agent"
//     (a demonstration holding only its history).
//  8. condense: an object with "version" and "messages".
//  9. cline: an array of messages one of which has a member only Cline or
//     Roo Code writes ("ts", "modelInfo", "isSummary", "condenseId",
//     "condenseParent", "truncationParent", "isTruncationMarker"), or whose
//     user text starts with "<environment_details>" or, in the first
//     message, "<task>". An array of Cline's ui_messages.json entries
//     (objects with "ts" and a "type" of "say" or "ask", no "role") is an
//     error saying to read api_conversation_history.json instead.
//  10. langchain: an array of messages none of which has a "role" and one
//     of which is a LangChain message: a serialized constructor
//     {"lc": 1, "type": "constructor", "id": [..., "HumanMessage"]}, a
//     messages_to_dict entry {"type": "human", "data": {...}}, or a plain
//     message dict with a "type" such as human, ai, tool or system and a
//     "content".
//  11. openai or anthropic: an object with "messages", or an array of
//     messages. Provider markers decide: openai has system, developer and
//     tool roles, tool_calls, tool_call_id, image_url parts and
//     {"type":"function"} tools; anthropic has a top-level "system",
//     tool_use, tool_result, thinking, redacted_thinking, image and
//     document blocks and tools with "input_schema". Markers of both is an
//     error; none (plain user and assistant text, which both readers read
//     the same) reads as openai.
//
// Input that starts like JSON (with '{' or '[') but whose first value is not
// valid JSON (cut short, nested deeper than MaxDepth) is a *ReadError
// naming the line and column of the problem, wrapping condense.ErrMalformed:
// no format reads it, so naming one would not help. Anything else is an
// error wrapping ErrUnknownFormat and condense.ErrMalformed that lists the
// formats.
func Detect(data []byte) (Format, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return "", undetected("the input is empty")
	}
	first, err := firstValue(data)
	if err != nil {
		return "", err
	}
	switch kind(first) {
	case '[':
		items, err := arrayItems(first)
		if err != nil {
			return "", undetected("the top-level array is not a list of messages")
		}
		switch {
		case geminiContents(items):
			return FormatGeminiCLI, nil
		case len(items) > 0 && ohEventObject(items[0]):
			return FormatOpenHands, nil
		case isClineUIMessages(items):
			return "", &detectError{uiMessagesProblem}
		case isCline(items):
			return FormatCline, nil
		case miniMessages(items):
			return FormatMiniSWEAgent, nil
		case isLangChainList(items):
			return FormatLangChain, nil
		}
		return chatFlavor(nil, items, nil)
	case '{':
	default:
		return "", undetected("the first JSON value is not an object or an array")
	}
	keys := memberViews(first)
	has := func(k string) bool { _, ok := keys[k]; return ok }
	typ := jsonString(keys["type"])
	switch {
	case has("type") && has("payload"),
		!has("type") && has("id") && has("timestamp") && (has("instructions") || has("git")):
		return FormatCodex, nil
	case typ != "" && (has("uuid") || has("parentUuid") || has("sessionId") || has("leafUuid")),
		typ == "summary", typ == "file-history-snapshot":
		return FormatClaudeCode, nil
	case has("sessionId") && has("projectHash"),
		geminiContentList(keys["history"]), geminiContentList(keys["clientHistory"]),
		geminiContentList(keys["contents"]),
		typ == "init" && has("session_id"),
		(typ == "message" || typ == "tool_use" || typ == "tool_result") && has("timestamp") &&
			(has("role") || has("tool_id")) && !has("message") && !has("payload"):
		return FormatGeminiCLI, nil
	case ohEventKeys(keys), ohFirstEvent(keys["history"]), ohFirstEvent(keys["events"]):
		return FormatOpenHands, nil
	case isLangChainState(keys):
		return FormatLangChain, nil
	case strings.HasPrefix(jsonString(keys["trajectory_format"]), "mini-swe-agent"),
		has("messages") && has("info"):
		return FormatMiniSWEAgent, nil
	case has("trajectory"), has("history") && (has("info") || sweHistory(keys["history"])):
		return FormatSWEAgent, nil
	case has("version") && has("messages"):
		return FormatCondense, nil
	case has("messages"):
		items, err := arrayItems(keys["messages"])
		if err != nil {
			return "", undetected("\"messages\" is not an array")
		}
		tools, _ := arrayItems(keys["tools"])
		return chatFlavor(keys, items, tools)
	}
	return "", undetected("no known keys in the first JSON value")
}

// firstValue returns the first JSON value of data without copying it: the
// whole of data when it is one value (a JSON document), else the value the
// decoder finds first (the first line of JSONL).
func firstValue(data []byte) (json.RawMessage, error) {
	if json.Valid(data) {
		return data, nil
	}
	var first json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&first); err != nil {
		t := bytes.TrimLeft(data, " \t\r\n")
		if len(t) == 0 || t[0] != '{' && t[0] != '[' {
			return nil, undetected("the input is neither JSON nor JSONL (%v)", err)
		}
		// The first value is malformed JSON. The unmarshaller's scan stops
		// at the same byte and says where it is, truncated input included.
		perr := decode(data, new(struct{}))
		var jp *jsonProblem
		if !errors.As(perr, &jp) {
			return nil, undetected("the input is neither JSON nor JSONL (%v)", err)
		}
		line, col := position(data, jp.Offset)
		return nil, &ReadError{Line: line, Column: col,
			Err: fmt.Errorf("%w: the input is not valid JSON or JSONL: %s", condense.ErrMalformed, jp.msg)}
	}
	return first, nil
}

// geminiContentList reports whether raw is a non-empty array of Gemini
// Content objects.
func geminiContentList(raw json.RawMessage) bool {
	if kind(raw) != '[' {
		return false
	}
	items, err := arrayItems(raw)
	return err == nil && geminiContents(items)
}

// geminiContents reports whether items start with a Gemini Content object:
// a role of user or model and a "parts" array.
func geminiContents(items []json.RawMessage) bool {
	if len(items) == 0 {
		return false
	}
	k := memberViews(items[0])
	r := jsonString(k["role"])
	return (r == "user" || r == "model") && kind(k["parts"]) == '['
}

// ohEventKeys reports whether keys are an OpenHands event's: "source" and
// a string "kind" (a software-agent-sdk event), "action" or "observation"
// (an older event).
func ohEventKeys(keys map[string]json.RawMessage) bool {
	if keys["source"] == nil {
		return false
	}
	for _, k := range []string{"kind", "action", "observation"} {
		if jsonString(keys[k]) != "" {
			return true
		}
	}
	return false
}

// ohEventObject reports whether raw, the first entry of an array, is an
// OpenHands event: one with "source", or, as the oldest saved histories
// write them, a string "action" or "observation" and neither "role" nor
// "type".
func ohEventObject(raw json.RawMessage) bool {
	k := memberViews(raw)
	if ohEventKeys(k) {
		return true
	}
	return k["role"] == nil && k["type"] == nil &&
		(jsonString(k["action"]) != "" || jsonString(k["observation"]) != "")
}

// ohFirstEvent reports whether raw is an array whose first entry is an
// OpenHands event.
func ohFirstEvent(raw json.RawMessage) bool {
	if kind(raw) != '[' {
		return false
	}
	items, err := arrayItems(raw)
	return err == nil && len(items) > 0 && ohEventObject(items[0])
}

// miniMessages reports whether one of items is an object with role "exit"
// or an "extra" object, which mini-swe-agent adds to its messages.
func miniMessages(items []json.RawMessage) bool {
	for _, it := range items {
		k := memberViews(it)
		if jsonString(k["role"]) == "exit" || kind(k["extra"]) == '{' {
			return true
		}
	}
	return false
}

// sweHistory reports whether raw is an array whose first entry is an object
// with SWE-agent's "message_type" or "agent" member.
func sweHistory(raw json.RawMessage) bool {
	if kind(raw) != '[' {
		return false
	}
	items, err := arrayItems(raw)
	if err != nil || len(items) == 0 {
		return false
	}
	k := memberViews(items[0])
	return k["message_type"] != nil || k["agent"] != nil
}

func undetected(format string, args ...any) error {
	return &detectError{fmt.Sprintf("cannot detect the transcript format: %s; pass the format explicitly (one of %s)",
		fmt.Sprintf(format, args...), formatList(Formats))}
}

// detectError wraps both ErrUnknownFormat and condense.ErrMalformed.
type detectError struct{ msg string }

func (e *detectError) Error() string   { return e.msg }
func (e *detectError) Unwrap() []error { return []error{ErrUnknownFormat, condense.ErrMalformed} }

func jsonString(raw json.RawMessage) string {
	var s string
	if kind(raw) != '"' || json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// chatFlavor tells OpenAI chat messages from Anthropic messages.
func chatFlavor(top map[string]json.RawMessage, msgs, tools []json.RawMessage) (Format, error) {
	var oai, anth []string
	if _, ok := top["system"]; ok {
		anth = append(anth, `top-level "system"`)
	}
	for _, t := range tools {
		k := memberViews(t)
		switch {
		case k["function"] != nil || jsonString(k["type"]) == "function":
			oai = append(oai, "function tools")
		case k["input_schema"] != nil:
			anth = append(anth, "tools with input_schema")
		}
	}
	for _, raw := range msgs {
		k := memberViews(raw)
		if k == nil {
			return "", undetected("a message is not an object")
		}
		switch r := jsonString(k["role"]); r {
		case "system", "developer", "tool", "function":
			oai = append(oai, "role "+r)
		}
		for _, key := range []string{"tool_calls", "tool_call_id", "function_call"} {
			if k[key] != nil {
				oai = append(oai, key)
			}
		}
		if kind(k["content"]) != '[' {
			continue
		}
		blocks, _ := arrayItems(k["content"])
		for _, bl := range blocks {
			switch t := jsonString(memberViews(bl)["type"]); t {
			case "image_url", "input_audio", "refusal":
				oai = append(oai, t+" parts")
			case "tool_use", "tool_result", "thinking", "redacted_thinking", "image", "document":
				anth = append(anth, t+" blocks")
			}
		}
	}
	switch {
	case len(oai) > 0 && len(anth) > 0:
		return "", undetected("the messages mix OpenAI markers (%s) and Anthropic markers (%s)", oai[0], anth[0])
	case len(anth) > 0:
		return FormatAnthropic, nil
	}
	return FormatOpenAI, nil
}

// clineMessageKeys are message members only Cline and Roo Code write.
var clineMessageKeys = []string{"ts", "modelInfo", "isSummary", "condenseId", "condenseParent", "truncationParent", "isTruncationMarker"}

// isCline reports whether msgs is a Cline or Roo Code task history (see
// Detect).
func isCline(msgs []json.RawMessage) bool {
	for i, raw := range msgs {
		k := memberViews(raw)
		if k == nil || k["role"] == nil {
			continue
		}
		for _, key := range clineMessageKeys {
			if k[key] != nil {
				return true
			}
		}
		if jsonString(k["role"]) != "user" {
			continue
		}
		for j, t := range contentTexts(k["content"]) {
			if strings.HasPrefix(t, "<environment_details>") || i == 0 && j == 0 && strings.HasPrefix(t, "<task>") {
				return true
			}
		}
	}
	return false
}

// contentTexts returns the text of a message content: the string, or the
// text of each text block.
func contentTexts(raw json.RawMessage) []string {
	switch kind(raw) {
	case '"':
		return []string{jsonString(raw)}
	case '[':
		blocks, _ := arrayItems(raw)
		var out []string
		for _, b := range blocks {
			k := memberViews(b)
			if jsonString(k["type"]) == "text" {
				out = append(out, jsonString(k["text"]))
			}
		}
		return out
	}
	return nil
}
