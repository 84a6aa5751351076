package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
)

// Anthropic Messages bodies are read and written by the codec of package
// provider/anthropic: reading one is decoding a request body, message by
// message so that a malformed message can be skipped and every message
// keeps the path it came from; writing one is encoding a request. The
// reader also takes a bare array of messages.
//
// A transcript is a saved conversation, not a request to send again, so the
// reader keeps what a request needs and leaves out the rest, which
// anthropic.DecodeRequest would keep: members of a message besides role and
// content (the "id", "timestamp", "model", "stop_reason" and "usage" that
// saved API answers carry) are read and left out, and so are the members of
// system blocks and tool definitions besides their text, name, description
// and schema (cache_control on them, a server tool's type) and unknown
// top-level members. Under Options.Lenient a malformed tool definition is
// skipped like a malformed message.

// anthBlockJSON is the part of a content block the Claude Code reader looks
// at to pair calls and results without decoding the blocks.
type anthBlockJSON struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	ToolUseID string `json:"tool_use_id"`
}

func readAnthropic(b *builder, data []byte) error {
	var msgs []json.RawMessage
	switch kind(data) {
	case '[':
		var vs []rawView
		if err := decode(data, &vs); err != nil {
			return b.docErr(data, err)
		}
		msgs = views(vs)
	case '{':
		head, raws, err := anthropic.DecodeHead(data)
		if err != nil && b.opts.Lenient && inTools(err) {
			head, raws, err = b.anthHeadSkippingTools(data, err)
		}
		if err != nil {
			return b.anthErr(data, err)
		}
		b.req.Model = head.Model
		b.req.MaxOutputTokens = head.MaxOutputTokens
		b.req.ThinkingBudget = head.ThinkingBudget
		b.req.System = head.System
		b.req.Tools = head.Tools
		msgs = raws
	default:
		return b.errAt(loc{}, "want an object with \"messages\"")
	}
	for i, raw := range msgs {
		path := fmt.Sprintf("messages[%d]", i)
		ms, err := anthropic.DecodeMessage(raw)
		if err != nil {
			var de *anthropic.DecodeError
			if !errors.As(err, &de) {
				return err
			}
			if err := b.bad(loc{path: joinPath(path, de.Path)}, "%s", de.Problem); err != nil {
				return err
			}
			continue
		}
		b.release(raw)
		for _, m := range ms {
			m.Parts = withoutMessageFields(m.Parts)
			b.add(m, loc{path: path})
		}
	}
	return nil
}

// withoutMessageFields returns parts without the codec's message fields
// part, which holds a message's members besides role and content.
func withoutMessageFields(parts []condense.Part) []condense.Part {
	for i := range parts {
		if _, ok := anthropic.MessageFields(&parts[i]); ok {
			return append(parts[:i:i], withoutMessageFields(parts[i+1:])...)
		}
	}
	return parts
}

// inTools reports whether err is a codec error about one tool definition.
func inTools(err error) bool {
	var de *anthropic.DecodeError
	return errors.As(err, &de) && strings.HasPrefix(de.Path, "tools[")
}

// anthHeadSkippingTools decodes the head of a body whose tool definitions
// the codec rejected (headErr): each definition is decoded alone, a
// malformed one or one repeating an earlier name is skipped as a malformed
// record, and the head is decoded again with the others. headErr is
// returned when the body cannot be taken apart so (it is not valid JSON).
func (b *builder) anthHeadSkippingTools(data []byte, headErr error) (*anthropic.Request, []json.RawMessage, error) {
	type member struct {
		name  string
		value json.RawMessage
	}
	var members []member
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, headErr
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, headErr
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, headErr
		}
		members = append(members, member{t.(string), v})
	}
	var body bytes.Buffer
	body.WriteByte('{')
	names := map[string]bool{}
	for i, m := range members {
		if i > 0 {
			body.WriteByte(',')
		}
		name, _ := json.Marshal(m.name)
		body.Write(name)
		body.WriteByte(':')
		if m.name != "tools" {
			body.Write(m.value)
			continue
		}
		var tools []json.RawMessage
		if err := json.Unmarshal(m.value, &tools); err != nil {
			return nil, nil, headErr
		}
		kept := 0
		body.WriteByte('[')
		for k, tool := range tools {
			path := fmt.Sprintf("tools[%d]", k)
			one, _, err := anthropic.DecodeHead([]byte(`{"messages":[],"tools":[` + string(tool) + `]}`))
			var problem string
			if err != nil {
				var de *anthropic.DecodeError
				if !errors.As(err, &de) {
					return nil, nil, err
				}
				rel := strings.TrimPrefix(strings.TrimPrefix(de.Path, "tools[0]"), ".")
				path, problem = joinPath(path, rel), de.Problem
			} else if name := one.Tools[0].Name; names[name] {
				path, problem = path+".name", fmt.Sprintf("duplicate tool name %q", name)
			}
			if problem != "" {
				if err := b.bad(loc{path: path}, "%s", problem); err != nil {
					return nil, nil, err
				}
				continue
			}
			names[one.Tools[0].Name] = true
			if kept > 0 {
				body.WriteByte(',')
			}
			body.Write(tool)
			kept++
		}
		body.WriteByte(']')
	}
	body.WriteByte('}')
	return anthropic.DecodeHead(body.Bytes())
}

// anthErr reports a *anthropic.DecodeError of the whole document: at its
// JSON path, and at its line and column when it is a JSON syntax error (or
// has no path).
func (b *builder) anthErr(data []byte, err error) error {
	var de *anthropic.DecodeError
	if !errors.As(err, &de) {
		return err
	}
	l := loc{path: de.Path}
	problem, syntax := plainSyntax(de.Problem)
	if (syntax || l.path == "") && de.Offset >= 0 && de.Offset <= len(data) {
		l.line, l.col = position(data, int64(de.Offset)+1)
	}
	return b.errAt(l, "%s", problem)
}

// plainSyntax reports whether problem, from a JSON scanner, is a syntax
// error, and says it in the words cleanJSONErr uses.
func plainSyntax(problem string) (string, bool) {
	switch {
	case strings.HasPrefix(problem, "unexpected end of JSON input"):
		return truncatedJSON, true
	case strings.Contains(problem, "exceeded max depth"):
		return fmt.Sprintf("JSON nested deeper than %d levels", MaxDepth), true
	case strings.HasPrefix(problem, "invalid character"):
		return problem, true
	}
	return problem, false
}

func countLines(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '\n' {
			n++
		}
	}
	return n
}

// joinPath appends a relative JSON path ("content[0].id", "[2]") to path.
func joinPath(path, rel string) string {
	switch {
	case rel == "":
		return path
	case path == "" || rel[0] == '[':
		return path + rel
	}
	return path + "." + rel
}

// anthBlocks converts the content of a message of role (a string or an
// array of blocks) with the codec's rules (anthropic.DecodeContent).
func anthBlocks(raw json.RawMessage, path string, role condense.Role) ([]condense.Part, *recErr) {
	parts, err := anthropic.DecodeContent(raw, role)
	if err != nil {
		var de *anthropic.DecodeError
		if errors.As(err, &de) {
			return nil, pathErr(joinPath(path, de.Path), "%s", de.Problem)
		}
		return nil, pathErr(path, "%v", err)
	}
	return parts, nil
}

// splitResults splits the parts of a user turn into a tool message holding
// the tool results (each followed by its fields part, such as a cache
// marker, if any) and a user message with the rest, as the codec does.
func splitResults(parts []condense.Part) []condense.Message {
	var results, rest []condense.Part
	lastWasResult := false
	for i := range parts {
		p := parts[i]
		if _, fields := anthropic.PartFields(&p); fields && lastWasResult {
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

// writeAnthropic writes req as an Anthropic Messages body with the codec
// (anthropic.EncodeRequest), which merges consecutive turns of one role
// (tool results first), puts fields parts such as cache markers back on
// their block and writes Anthropic provider blocks byte for byte, after
// forProvider made req acceptable to the API: max_tokens always set (4096
// when req sets none), a user message first, tool calls answered, ids that
// match the API's pattern, every called tool defined with an object
// schema; see Write for what it leaves out.
func writeAnthropic(dst []byte, req condense.Request) ([]byte, error) {
	r := anthropic.Request{Request: forProvider(req, FormatAnthropic)}
	return anthropic.AppendRequest(dst, &r)
}
