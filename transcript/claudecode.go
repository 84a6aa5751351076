package transcript

import (
	"encoding/json"
	"fmt"

	"github.com/condense-dev/condense"
)

// Claude Code session JSONL: one record per line. user and assistant lines
// carry an API message; system lines (compact boundaries among them) and
// other lines are part of the parentUuid chain but carry no message;
// summary and file-history-snapshot lines are outside the chain.
//
// Besides user, assistant and system lines, Claude Code writes progress
// lines (hook and tool progress, chained like messages), attachment,
// queue-operation, file-history-snapshot, summary and other bookkeeping
// lines; none carries a message, and each is read only as a link of the
// chain (or not at all, when it has no uuid).
//
// The reader:
//   - follows parentUuid from the leaf back to the root (the active
//     branch). The leaf is the last line no other line names as its
//     parent, so an older branch (a message the user edited and sent
//     again) is left out, and a line written before its parent does not
//     cut the branch; a compact_boundary line, whose parentUuid is null, is
//     followed through its logicalParentUuid, so the messages the
//     compaction replaced stay in the log, and when that uuid names no line
//     of the file (Claude Code writes such dangling links) the boundary
//     follows the line before it (NoteReordered);
//   - reads a file whose lines name no parent at all in file order;
//   - emits the branch in chain order: every line after its parent, lines
//     otherwise in file order. Claude Code sometimes writes a line before
//     its parent (a tool result line before the line of its call); such a
//     line is read after its parent, with a NoteReordered;
//   - leaves sidechain lines (isSidechain) out, unless every line is one (a
//     sub-agent's own file, subagents/agent-*.jsonl, which starts with the
//     prompt the sub-agent was given);
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

	// The content is converted when the line is read and not kept: parts
	// (or the problem rerr, reported if the line is emitted) and the ids
	// of its tool_use and tool_result blocks, which pairing looks at.
	parts  []condense.Part
	rerr   *recErr
	blocks []anthBlockJSON
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

func readClaudeCode(b *builder) error {
	lines, err := ccReadLines(b)
	if err != nil {
		return err
	}
	lg := newCCLog(lines)
	taken, err := lg.activeBranch(b)
	if err != nil {
		return err
	}
	lg.takeBatchSiblings(taken)
	e := ccEmitter{b: b}
	for _, cl := range lg.chainOrder(b, taken) {
		if err := e.emit(cl); err != nil {
			return err
		}
	}
	return nil
}

// chainOrder returns the taken lines (the first of lines repeating a uuid)
// in the order the parentUuid links give: every line after its parent, and
// lines otherwise in file order. A file Claude Code wrote in order comes
// back unchanged; a line written before its parent (a tool result line
// before the line of its call) moves after it, with a NoteReordered.
func (lg *ccLog) chainOrder(b *builder, taken map[string]bool) []*ccLine {
	var nodes []*ccLine
	first := map[string]*ccLine{}
	for _, cl := range lg.lines {
		if taken[cl.UUID] && first[cl.UUID] == nil {
			first[cl.UUID] = cl
			nodes = append(nodes, cl)
		}
	}
	children := map[string][]*ccLine{}
	var ready ccHeap
	for _, cl := range nodes {
		if p := cl.parent(); p != "" && p != cl.UUID && first[p] != nil {
			children[p] = append(children[p], cl)
			continue
		}
		ready.push(cl)
	}
	out := make([]*ccLine, 0, len(nodes))
	done := map[string]bool{}
	maxIdx := -1
	next := 0 // the first node, in file order, that may not be out yet
	for len(out) < len(nodes) {
		if len(ready) == 0 {
			// The links loop: release the first line not out yet.
			for done[nodes[next].UUID] {
				next++
			}
			ready.push(nodes[next])
		}
		cl := ready.pop()
		if done[cl.UUID] {
			continue
		}
		done[cl.UUID] = true
		out = append(out, cl)
		if cl.idx < maxIdx {
			reason := "read after the lines it follows in the parentUuid chain"
			if p := first[cl.parent()]; p != nil {
				reason = fmt.Sprintf("comes before its parent (line %d) in the file: read after it", p.line)
			}
			b.note(NoteReordered, loc{line: cl.line}, "%s line %s", cl.Type, reason)
		}
		maxIdx = max(maxIdx, cl.idx)
		for _, c := range children[cl.UUID] {
			ready.push(c)
		}
	}
	return out
}

// ccHeap is a min-heap of lines by file position.
type ccHeap []*ccLine

func (h *ccHeap) push(cl *ccLine) {
	*h = append(*h, cl)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].idx <= s[i].idx {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *ccHeap) pop() *ccLine {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s = s[:n]
	for i := 0; ; {
		m, l, r := i, 2*i+1, 2*i+2
		if l < n && s[l].idx < s[m].idx {
			m = l
		}
		if r < n && s[r].idx < s[m].idx {
			m = r
		}
		if m == i {
			break
		}
		s[m], s[i] = s[i], s[m]
		i = m
	}
	*h = s
	return top
}

// ccReadLines decodes every line. A user or assistant line whose message
// is missing or bad is reported and, under Lenient, kept as a "skipped"
// line: it stays in the parentUuid chain, so the lines before it are still
// found.
func ccReadLines(b *builder) ([]*ccLine, error) {
	var lines []*ccLine
	err := b.eachLine(func(n int, raw []byte) error {
		l := loc{line: n}
		if kind(raw) != '{' {
			return b.bad(l, "not a JSON object")
		}
		cl := &ccLine{line: n, idx: len(lines)}
		if err := decode(raw, cl); err != nil {
			return b.bad(l.at(raw, err), "%v", err)
		}
		switch cl.Type {
		case "user", "assistant":
			if cl.UUID == "" {
				return b.bad(l, "%s line has no uuid", cl.Type)
			}
			if err := ccDecodeMessage(b, cl, l); err != nil {
				return err
			}
		case "":
			return b.bad(l, "no type")
		}
		lines = append(lines, cl)
		return nil
	})
	return lines, err
}

// ccDecodeMessage decodes the API message of a user or assistant line into
// cl.msg, or reports it and marks the line skipped.
func ccDecodeMessage(b *builder, cl *ccLine, l loc) error {
	var m ccMessage
	if isNull(cl.Message) {
		if err := b.bad(l, "%s line has no message", cl.Type); err != nil {
			return err
		}
		cl.Type = "skipped"
		return nil
	}
	if err := decode(cl.Message, &m); err != nil {
		if err := b.bad(l, "message: %v", err); err != nil {
			return err
		}
		cl.Type = "skipped"
		return nil
	}
	// Keep one copy of each text: the converted parts, not the JSON.
	role := condense.RoleUser
	if cl.Type == "assistant" {
		role = condense.RoleAssistant
	}
	m.blocks = ccBlocks(m.Content)
	m.parts, m.rerr = ccContent(m.Content, role)
	m.Content, cl.Message = nil, nil
	cl.msg = &m
	return nil
}

// ccLog is a session file's lines, indexed by uuid.
type ccLog struct {
	lines  []*ccLine
	byUUID map[string]*ccLine
	// allSidechain is set when every line with a uuid is a sidechain line
	// (a sub-agent's own file): then sidechain lines are read.
	allSidechain bool
}

func newCCLog(lines []*ccLine) *ccLog {
	lg := &ccLog{lines: lines, byUUID: map[string]*ccLine{}, allSidechain: true}
	for _, cl := range lines {
		if cl.UUID != "" {
			lg.byUUID[cl.UUID] = cl
			if !cl.IsSidechain {
				lg.allSidechain = false
			}
		}
	}
	return lg
}

// excluded reports whether cl is a sidechain line left out.
func (lg *ccLog) excluded(cl *ccLine) bool { return cl.IsSidechain && !lg.allSidechain }

// activeBranch returns the uuids of the active branch: the chain of
// parents from the leaf back to the root. The leaf is the last line in the
// file that no other line names as its parent (the last line with a uuid
// when every line is someone's parent): in a file written in order that is
// the last line of the newest branch, and a line written before its parent
// does not hide the lines after it.
func (lg *ccLog) activeBranch(b *builder) (map[string]bool, error) {
	taken := map[string]bool{}
	parents := map[string]bool{}
	for _, cl := range lg.lines {
		if p := cl.parent(); cl.UUID != "" && !lg.excluded(cl) && p != "" && p != cl.UUID {
			parents[p] = true
		}
	}
	if len(parents) == 0 {
		// No line names a parent: a file without links, read in file order.
		for _, cl := range lg.lines {
			if cl.UUID != "" && !lg.excluded(cl) {
				taken[cl.UUID] = true
			}
		}
		return taken, nil
	}
	leaf := -1
	for i := len(lg.lines) - 1; i >= 0; i-- {
		cl := lg.lines[i]
		if cl.UUID == "" || lg.excluded(cl) {
			continue
		}
		if leaf < 0 {
			leaf = i
		}
		if !parents[cl.UUID] {
			leaf = i
			break
		}
	}
	if leaf >= 0 {
		cl := lg.lines[leaf]
		for cur := cl; cur != nil; {
			if taken[cur.UUID] {
				if err := b.bad(loc{line: cur.line}, "parentUuid chain loops back to line %d", cur.line); err != nil {
					return nil, err
				}
				break
			}
			taken[cur.UUID] = true
			cur = lg.parentOf(b, cur, taken)
		}
	}
	return taken, nil
}

// parentOf returns the parent line of cur, or nil at the root. When the
// parent is missing, the chain is bridged to the nearest line before cur
// not taken yet in two cases: lines were skipped (the parent may be one of
// them), and cur is a compact boundary whose logicalParentUuid names no
// line of the file (Claude Code sometimes records a parent it never
// wrote), so the history the compaction replaced is still read.
func (lg *ccLog) parentOf(b *builder, cur *ccLine, taken map[string]bool) *ccLine {
	p := cur.parent()
	next := lg.byUUID[p]
	if next != nil || p == "" {
		return next
	}
	boundary := cur.Type == "system" && cur.Subtype == "compact_boundary"
	if b.skipped == 0 && !boundary {
		return nil
	}
	for k := cur.idx - 1; k >= 0; k-- {
		if l := lg.lines[k]; l.UUID != "" && !lg.excluded(l) && !taken[l.UUID] {
			if boundary {
				b.note(NoteReordered, loc{line: cur.line},
					"compact boundary's logicalParentUuid %q names no line of the file: it follows line %d, the line before it", p, l.line)
			}
			return l
		}
	}
	return nil
}

// takeBatchSiblings adds to taken the off-branch lines of a parallel tool
// batch whose parent was taken: assistant lines sharing a message.id with
// a taken line, and user lines holding only results of taken calls not
// answered yet.
func (lg *ccLog) takeBatchSiblings(taken map[string]bool) {
	msgIDs := map[string]bool{}
	calls := map[string]bool{}
	answered := map[string]bool{}
	for _, cl := range lg.lines {
		if taken[cl.UUID] && cl.msg != nil {
			ccNoteCalls(cl, msgIDs, calls, answered)
		}
	}
	for _, cl := range lg.lines {
		if cl.UUID == "" || taken[cl.UUID] || lg.excluded(cl) || cl.msg == nil || !taken[cl.parent()] {
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
}

// ccEmitter turns the taken lines, in chain order, into messages and the
// checkpoint.
type ccEmitter struct {
	b *builder
	// boundary is set after a compact_boundary line, until the next
	// message line.
	boundary bool
	// lastMsgID is the message.id of the last assistant message added.
	lastMsgID string
}

// emit adds what one line carries.
func (e *ccEmitter) emit(cl *ccLine) error {
	switch cl.Type {
	case "system":
		if cl.Subtype == "compact_boundary" {
			var s string
			_ = json.Unmarshal(cl.Content, &s)
			e.b.checkpoint(s, fmt.Sprintf("claude-code compact_boundary at line %d", cl.line))
			e.boundary = true
		}
	case "user":
		if cl.IsCompactSummary {
			return e.compactSummary(cl)
		}
		e.boundary = false
		return e.user(cl)
	case "assistant":
		e.boundary = false
		return e.assistant(cl)
	}
	return nil
}

// content returns a line's message content, converted when the line was
// read, reporting a bad one; ok is false when the line is to be left out.
func (e *ccEmitter) content(cl *ccLine) (parts []condense.Part, ok bool, err error) {
	parts, rerr := cl.msg.parts, cl.msg.rerr
	if rerr != nil {
		return nil, false, e.b.bad(loc{line: cl.line}, "%s", rerr.msg)
	}
	return parts, true, nil
}

// compactSummary imports an isCompactSummary user message as the summary
// of the checkpoint its boundary line started, or of a new one when there
// was no boundary line. The message itself is not a message of the log.
func (e *ccEmitter) compactSummary(cl *ccLine) error {
	parts, ok, err := e.content(cl)
	if !ok {
		return err
	}
	m := condense.Message{Parts: parts}
	b := e.b
	if !e.boundary || b.cp == nil {
		b.checkpoint("", fmt.Sprintf("claude-code compact summary at line %d", cl.line))
	}
	b.cp.summary = m.TextContent()
	b.cp.at = len(b.msgs)
	e.boundary = false
	return nil
}

// user adds a user line: its tool results as a tool message (id: the
// line's uuid), its other blocks as a user message after it (id: uuid +
// "/text").
func (e *ccEmitter) user(cl *ccLine) error {
	parts, ok, err := e.content(cl)
	if !ok {
		return err
	}
	for k, m := range splitResults(parts) {
		m.ID = cl.UUID
		if k > 0 {
			m.ID += "/text"
		}
		e.b.add(m, loc{line: cl.line})
		if m.Role == condense.RoleUser {
			e.lastMsgID = "" // a user turn ends the API message
		}
	}
	return nil
}

// assistant adds an assistant line, merged into the earlier line of the
// same API message when only its tool results came in between; an API
// error line is marked failed.
func (e *ccEmitter) assistant(cl *ccLine) error {
	parts, ok, err := e.content(cl)
	if !ok {
		return err
	}
	b := e.b
	if cl.msg.Model != "" && cl.msg.Model != "<synthetic>" {
		b.req.Model = cl.msg.Model
	}
	if cl.msg.ID != "" && cl.msg.ID == e.lastMsgID {
		if i := ccLastAssistant(b.msgs); i >= 0 {
			b.msgs[i].m.Parts = append(b.msgs[i].m.Parts, parts...)
			return nil
		}
	}
	if len(parts) == 0 {
		return nil
	}
	m := condense.Message{ID: cl.UUID, Role: condense.RoleAssistant, Parts: parts}
	if cl.IsAPIErrorMessage {
		m.Status = condense.StatusFailed
	}
	b.add(m, loc{line: cl.line})
	e.lastMsgID = cl.msg.ID
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
	for _, bl := range cl.msg.blocks {
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
	blocks := cl.msg.blocks
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
