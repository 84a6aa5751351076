package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/condense-dev/condense"
)

// Claude Code session JSONL: one record per line. user and assistant lines
// carry an API message; system lines (compact boundaries among them) and
// other lines are part of the parentUuid chain but carry no message;
// summary and file-history-snapshot lines are outside the chain.
//
// The reader:
//   - follows parentUuid from the last line back to the root (the active
//     branch); a compact_boundary line, whose parentUuid is null, is
//     followed through its logicalParentUuid, so the messages the
//     compaction replaced stay in the log;
//   - leaves sidechain lines (isSidechain) out, unless every line is one (a
//     sub-agent's own file);
//   - also takes the off-branch lines of a parallel tool batch: assistant
//     lines sharing a message.id with a branch line, and tool result lines
//     answering branch calls, when their parent was taken;
//   - merges assistant lines sharing message.id (Claude Code writes one
//     line per content block) into one message whose id is the first line's
//     uuid;
//   - turns the tool_result blocks of a user line into a tool message (id:
//     the line's uuid) and its other blocks into a user message after it
//     (id: uuid + "/text");
//   - never reads toolUseResult (Claude Code's own copy of a result);
//   - imports the last compact boundary (with the isCompactSummary user
//     message after it, whose text is the summary and which is not itself
//     a message) as the Checkpoint; an isCompactSummary message without a
//     boundary line is imported the same way. Lines of type "summary" are
//     not compactions: they are short titles Claude Code writes for the
//     session picker, often naming leaves of other sessions, and are
//     ignored;
//   - marks assistant lines with isApiErrorMessage as StatusFailed;
//   - under Lenient, bridges a parentUuid that names a skipped line to the
//     line before, so one bad line does not cut the branch.

type ccLine struct {
	Type              string          `json:"type"`
	Subtype           string          `json:"subtype"`
	UUID              string          `json:"uuid"`
	ParentUUID        *string         `json:"parentUuid"`
	LogicalParentUUID *string         `json:"logicalParentUuid"`
	IsSidechain       bool            `json:"isSidechain"`
	IsCompactSummary  bool            `json:"isCompactSummary"`
	IsAPIErrorMessage bool            `json:"isApiErrorMessage"`
	Message           json.RawMessage `json:"message"`
	Content           json.RawMessage `json:"content"`
	Summary           string          `json:"summary"`
	LeafUUID          string          `json:"leafUuid"`

	line int
	idx  int // index in the lines read
	msg  *ccMessage
}

type ccMessage struct {
	ID      string          `json:"id"`
	Role    string          `json:"role"`
	Model   string          `json:"model"`
	Content json.RawMessage `json:"content"`
}

func (l *ccLine) parent() string {
	if l.ParentUUID != nil && *l.ParentUUID != "" {
		return *l.ParentUUID
	}
	if l.Type == "system" && l.Subtype == "compact_boundary" && l.LogicalParentUUID != nil {
		return *l.LogicalParentUUID
	}
	return ""
}

// eachLine calls fn with every non-blank line and its 1-based number.
func eachLine(data []byte, fn func(n int, line []byte) error) error {
	n := 0
	for len(data) > 0 {
		n++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return nil
}

func readClaudeCode(b *builder, data []byte) error {
	var lines []*ccLine
	err := eachLine(data, func(n int, raw []byte) error {
		l := loc{line: n}
		if kind(raw) != '{' {
			return b.bad(l, "not a JSON object")
		}
		cl := &ccLine{line: n, idx: len(lines)}
		if err := decode(raw, cl); err != nil {
			return b.bad(l, "%v", err)
		}
		switch cl.Type {
		case "user", "assistant":
			if cl.UUID == "" {
				return b.bad(l, "%s line has no uuid", cl.Type)
			}
			// A line whose message is bad stays in the parentUuid chain
			// (under Lenient) so the lines before it are still found.
			var m ccMessage
			if isNull(cl.Message) {
				if err := b.bad(l, "%s line has no message", cl.Type); err != nil {
					return err
				}
				cl.Type = "skipped"
			} else if err := decode(cl.Message, &m); err != nil {
				if err := b.bad(l, "message: %v", err); err != nil {
					return err
				}
				cl.Type = "skipped"
			} else {
				cl.msg = &m
			}
		case "":
			return b.bad(l, "no type")
		}
		lines = append(lines, cl)
		return nil
	})
	if err != nil {
		return err
	}

	byUUID := map[string]*ccLine{}
	allSidechain := true
	for _, cl := range lines {
		if cl.UUID != "" {
			byUUID[cl.UUID] = cl
			if !cl.IsSidechain {
				allSidechain = false
			}
		}
	}
	excluded := func(cl *ccLine) bool { return cl.IsSidechain && !allSidechain }

	// The active branch, from the last line back.
	taken := map[string]bool{}
	for i := len(lines) - 1; i >= 0; i-- {
		cl := lines[i]
		if cl.UUID == "" || excluded(cl) {
			continue
		}
		for cur := cl; cur != nil; {
			if taken[cur.UUID] {
				if err := b.bad(loc{line: cur.line}, "parentUuid chain loops back to line %d", cur.line); err != nil {
					return err
				}
				break
			}
			taken[cur.UUID] = true
			p := cur.parent()
			next := byUUID[p]
			if next == nil && p != "" && b.skipped > 0 {
				// The parent may be a line Lenient skipped: bridge to the
				// line before this one.
				for k := cur.idx - 1; k >= 0; k-- {
					if lines[k].UUID != "" && !excluded(lines[k]) && !taken[lines[k].UUID] {
						next = lines[k]
						break
					}
				}
			}
			cur = next
		}
		break
	}
	// Off-branch siblings of a parallel tool batch.
	msgIDs := map[string]bool{}
	calls := map[string]bool{}
	answered := map[string]bool{}
	for _, cl := range lines {
		if taken[cl.UUID] && cl.msg != nil {
			ccNoteCalls(cl, msgIDs, calls, answered)
		}
	}
	for _, cl := range lines {
		if cl.UUID == "" || taken[cl.UUID] || excluded(cl) || cl.msg == nil || !taken[cl.parent()] {
			continue
		}
		switch {
		case cl.Type == "assistant" && cl.msg.ID != "" && msgIDs[cl.msg.ID]:
		case cl.Type == "user" && ccAnswersOnly(cl, calls, answered):
		default:
			continue
		}
		taken[cl.UUID] = true
		ccNoteCalls(cl, msgIDs, calls, answered)
	}

	boundary := false
	lastMsgID := "" // message.id of the last assistant message added
	emitted := map[string]bool{}
	for _, cl := range lines {
		if !taken[cl.UUID] || emitted[cl.UUID] {
			continue // off the branch, or a repeated line
		}
		emitted[cl.UUID] = true
		l := loc{line: cl.line}
		switch cl.Type {
		case "system":
			if cl.Subtype == "compact_boundary" {
				var s string
				_ = json.Unmarshal(cl.Content, &s)
				b.checkpoint(s, fmt.Sprintf("claude-code compact_boundary at line %d", cl.line))
				boundary = true
			}
			continue
		case "user":
			if cl.IsCompactSummary {
				parts, rerr := ccContent(cl.msg.Content, condense.RoleUser)
				if rerr != nil {
					if err := b.bad(l, "%s", rerr.msg); err != nil {
						return err
					}
					continue
				}
				m := condense.Message{Parts: parts}
				if !boundary || b.cp == nil {
					b.checkpoint("", fmt.Sprintf("claude-code compact summary at line %d", cl.line))
				}
				b.cp.summary = m.TextContent()
				b.cp.at = len(b.msgs)
				boundary = false
				continue
			}
			boundary = false
			parts, rerr := ccContent(cl.msg.Content, condense.RoleUser)
			if rerr != nil {
				if err := b.bad(l, "%s", rerr.msg); err != nil {
					return err
				}
				continue
			}
			ms := splitResults(parts)
			for k, m := range ms {
				m.ID = cl.UUID
				if k > 0 {
					m.ID += "/text"
				}
				b.add(m, l)
				if m.Role == condense.RoleUser {
					lastMsgID = "" // a user turn ends the API message
				}
			}
		case "assistant":
			boundary = false
			parts, rerr := ccContent(cl.msg.Content, condense.RoleAssistant)
			if rerr != nil {
				if err := b.bad(l, "%s", rerr.msg); err != nil {
					return err
				}
				continue
			}
			if cl.msg.Model != "" && cl.msg.Model != "<synthetic>" {
				b.req.Model = cl.msg.Model
			}
			// Merge into the earlier line of the same API message when
			// only its tool results came in between.
			if cl.msg.ID != "" && cl.msg.ID == lastMsgID {
				if i := ccLastAssistant(b.msgs); i >= 0 {
					b.msgs[i].m.Parts = append(b.msgs[i].m.Parts, parts...)
					continue
				}
			}
			m := condense.Message{ID: cl.UUID, Role: condense.RoleAssistant, Parts: parts}
			if cl.IsAPIErrorMessage {
				m.Status = condense.StatusFailed
			}
			if len(parts) == 0 {
				continue
			}
			b.add(m, l)
			lastMsgID = cl.msg.ID
		}
	}
	return nil
}

// ccLastAssistant returns the index of the last message when it is an
// assistant message followed only by tool messages, or -1.
func ccLastAssistant(msgs []rawMsg) int {
	for i := len(msgs) - 1; i >= 0; i-- {
		switch msgs[i].m.Role {
		case condense.RoleTool:
			continue
		case condense.RoleAssistant:
			return i
		}
		return -1
	}
	return -1
}

// ccBlocks decodes a message's content blocks (a string is one text block).
func ccBlocks(content json.RawMessage) []anthBlockJSON {
	var blocks []anthBlockJSON
	if kind(content) == '[' {
		_ = json.Unmarshal(content, &blocks)
	}
	return blocks
}

func ccNoteCalls(cl *ccLine, msgIDs, calls, answered map[string]bool) {
	if cl.Type == "assistant" && cl.msg.ID != "" {
		msgIDs[cl.msg.ID] = true
	}
	for _, bl := range ccBlocks(cl.msg.Content) {
		switch bl.Type {
		case "tool_use":
			calls[bl.ID] = true
		case "tool_result":
			answered[bl.ToolUseID] = true
		}
	}
}

// ccAnswersOnly reports whether a user line holds only tool results, each
// answering a known call not answered yet.
func ccAnswersOnly(cl *ccLine, calls, answered map[string]bool) bool {
	blocks := ccBlocks(cl.msg.Content)
	for _, bl := range blocks {
		if bl.Type != "tool_result" || !calls[bl.ToolUseID] || answered[bl.ToolUseID] {
			return false
		}
	}
	return len(blocks) > 0
}

// ccContent converts a Claude Code message's content: the Anthropic blocks
// of the API message it recorded.
func ccContent(content json.RawMessage, role condense.Role) ([]condense.Part, *recErr) {
	if isNull(content) {
		return nil, nil
	}
	parts, rerr := anthBlocks(content, "message.content", role)
	if rerr != nil {
		rerr.msg = rerr.loc.path + ": " + rerr.msg
	}
	return parts, rerr
}
