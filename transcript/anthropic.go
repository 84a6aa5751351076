package transcript

import (
	"encoding/json"
	"errors"
	"fmt"

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
// top-level members.

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
		if err := decode(data, &msgs); err != nil {
			return b.docErr(data, err)
		}
	case '{':
		head, raws, err := anthropic.DecodeHead(data)
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

// anthErr reports a *anthropic.DecodeError of the whole document: at its
// JSON path, or at its line when it has no path (a syntax error).
func (b *builder) anthErr(data []byte, err error) error {
	var de *anthropic.DecodeError
	if !errors.As(err, &de) {
		return err
	}
	l := loc{path: de.Path}
	if l.path == "" && de.Offset > 0 && de.Offset <= len(data) {
		l.line = 1 + countLines(data[:de.Offset])
	}
	return b.errAt(l, "%s", de.Problem)
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
// their block and writes Anthropic provider blocks byte for byte; see Write
// for what it leaves out. On top of the codec: max_tokens is always
// written, 4096 when req sets none, and a tool without a schema gets the
// empty object schema.
func writeAnthropic(req condense.Request) ([]byte, error) {
	r := anthropic.Request{Request: req}
	if r.MaxOutputTokens <= 0 {
		r.MaxOutputTokens = condense.DefaultReservedOutput
	}
	for i, t := range req.Tools {
		if len(t.InputSchema) == 0 {
			if &r.Tools[0] == &req.Tools[0] {
				r.Tools = append([]condense.Tool(nil), req.Tools...)
			}
			r.Tools[i].InputSchema = json.RawMessage(`{"type":"object","properties":{}}`)
		}
	}
	return anthropic.EncodeRequest(&r)
}
