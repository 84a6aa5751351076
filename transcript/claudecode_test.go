package transcript

import (
	"strings"
	"testing"
)

// ccTestLine builds a Claude Code session line of type typ (user or
// assistant) with the given uuid, parent ("" for none) and message content.
func ccTestLine(typ, uuid, parent, content string) string {
	p := "null"
	if parent != "" {
		p = `"` + parent + `"`
	}
	msgID := ""
	if typ == "assistant" {
		msgID = `"id":"m-` + uuid + `",`
	}
	return `{"type":"` + typ + `","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"s","message":{` + msgID + `"role":"` + typ + `","content":` + content + `}}`
}

// TestClaudeCodeOutOfOrder: lines written before their parent are read in
// the order the parentUuid chain gives, each with a reordered note, and
// nothing is skipped or dropped.
func TestClaudeCodeOutOfOrder(t *testing.T) {
	call := `[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls"}}]`
	result := `[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.go"}]`
	text := func(s string) string { return `[{"type":"text","text":"` + s + `"}]` }
	cases := []struct {
		name  string
		lines []string
		roles string
		texts []string // TextContent of each message, "" to skip
		moved []int    // lines with a reordered note
	}{{
		name: "in order",
		lines: []string{ccTestLine("user", "u0", "", `"list"`), ccTestLine("assistant", "a1", "u0", call),
			ccTestLine("user", "r1", "a1", result), ccTestLine("assistant", "a2", "r1", text("done"))},
		roles: "uata",
	}, {
		name: "result before its call",
		lines: []string{ccTestLine("user", "u0", "", `"list"`), ccTestLine("user", "r1", "a1", result),
			ccTestLine("assistant", "a1", "u0", call), ccTestLine("assistant", "a2", "r1", text("done"))},
		roles: "uata",
		moved: []int{2},
	}, {
		// The last line is not the leaf: the leaf was written earlier.
		name: "leaf before its parents",
		lines: []string{ccTestLine("user", "u0", "", `"one"`), ccTestLine("assistant", "a2", "u1", text("second")),
			ccTestLine("user", "u1", "a1", `"two"`), ccTestLine("assistant", "a1", "u0", text("first"))},
		roles: "uaua",
		texts: []string{"one", "first", "two", "second"},
		moved: []int{3, 2},
	}, {
		// A loop in the links is broken at its first line in the file.
		name:  "loop",
		lines: []string{ccTestLine("user", "u0", "a1", `"one"`), ccTestLine("assistant", "a1", "u0", text("first"))},
		roles: "ua",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, lenient := range []bool{false, true} {
				tr, err := ReadBytes([]byte(strings.Join(c.lines, "\n")), Options{Lenient: lenient})
				if c.name == "loop" && !lenient {
					if err == nil || !strings.Contains(err.Error(), "loops back") {
						t.Errorf("err = %v", err)
					}
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				msgs := tr.Request.Messages
				if got := roles(msgs); got != c.roles {
					t.Errorf("roles = %s, want %s", got, c.roles)
				}
				for i, w := range c.texts {
					if w != "" && msgs[i].TextContent() != w {
						t.Errorf("message %d = %q, want %q", i, msgs[i].TextContent(), w)
					}
				}
				if tr.Repaired+tr.Dropped != 0 || (tr.Skipped != 0) != (c.name == "loop") {
					t.Errorf("repaired, dropped, skipped = %d, %d, %d", tr.Repaired, tr.Dropped, tr.Skipped)
				}
				var moved []int
				for _, n := range tr.Notes {
					if n.Action == NoteReordered {
						moved = append(moved, n.Line)
					}
				}
				if len(moved) != len(c.moved) || len(moved) > 0 && moved[0] != c.moved[0] {
					t.Errorf("reordered notes at lines %v, want %v (%v)", moved, c.moved, tr.Notes)
				}
			}
		})
	}
}

// TestClaudeCodeLinks: a file whose lines name no parent reads in file
// order, and a compact boundary whose logical parent is not in the file
// follows the line before it, so the history it replaced is kept.
func TestClaudeCodeLinks(t *testing.T) {
	noLinks := `{"type":"user","uuid":"u1","message":{"role":"user","content":"one"}}
{"type":"assistant","uuid":"a1","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"first"}]}}
{"type":"user","uuid":"u2","message":{"role":"user","content":"two"}}`
	tr, err := ReadBytes([]byte(noLinks), Options{})
	if err != nil || roles(tr.Request.Messages) != "uau" || len(tr.Notes) != 0 {
		t.Fatalf("no links: %v %+v", err, tr)
	}

	boundary := strings.Join([]string{
		ccTestLine("user", "u0", "", `"before"`),
		ccTestLine("assistant", "a0", "u0", `[{"type":"text","text":"ok"}]`),
		`{"type":"system","subtype":"compact_boundary","uuid":"cb","parentUuid":null,"logicalParentUuid":"gone","sessionId":"s","content":"Conversation compacted"}`,
		`{"type":"user","uuid":"cs","parentUuid":"cb","isCompactSummary":true,"sessionId":"s","message":{"role":"user","content":"Summary: said before"}}`,
		ccTestLine("user", "u1", "cs", `"after"`),
	}, "\n")
	tr, err = ReadBytes([]byte(boundary), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := roles(tr.Request.Messages); got != "uau" || tr.Checkpoint == nil || tr.Checkpoint.FirstKept != 2 {
		t.Fatalf("roles %s, checkpoint %+v", got, tr.Checkpoint)
	}
	if len(tr.Notes) != 1 || tr.Notes[0].Action != NoteReordered || tr.Notes[0].Line != 3 {
		t.Errorf("notes = %v", tr.Notes)
	}
}

// TestClaudeCodeRealFiles reads the real Claude Code files of
// testdata/real: a main session (progress, file-history-snapshot and
// local_command system lines around an interrupted parallel batch) and a
// sub-agent's own file (every line a sidechain line, starting with the
// sub-agent's prompt).
func TestClaudeCodeRealFiles(t *testing.T) {
	for _, c := range []struct {
		file, roles, first string
	}{
		{"real/claude-code-spotter-short.jsonl", "uattu", "mix phx.server doesnt seem to start"},
		{"real/claude-code-spotter-subagent.jsonl", "uattttttatttttta", "Search hex.pm for the latest versions"},
	} {
		t.Run(c.file, func(t *testing.T) {
			tr := readSample(t, c.file, Options{})
			msgs := tr.Request.Messages
			if tr.Format != FormatClaudeCode || roles(msgs) != c.roles {
				t.Fatalf("format %s, roles %s, want %s", tr.Format, roles(msgs), c.roles)
			}
			if !strings.HasPrefix(msgs[0].TextContent(), c.first) {
				t.Errorf("first message %.80q", msgs[0].TextContent())
			}
			if tr.Skipped+tr.Dropped+tr.Repaired != 0 || len(tr.Notes) != 0 {
				t.Errorf("notes %v", tr.Notes)
			}
		})
	}
}

// TestClaudeCodeBranchesAndBookkeeping: of two branches the one whose leaf
// is written last is read; progress, queue-operation, attachment and
// system lines carry no message, whether or not they are links of the
// chain.
func TestClaudeCodeBranchesAndBookkeeping(t *testing.T) {
	lines := []string{
		`{"type":"summary","summary":"Lexer","leafUuid":"u2"}`,
		`{"type":"queue-operation","operation":"enqueue","timestamp":"t","sessionId":"s","content":"typed mid-turn"}`,
		ccTestLine("user", "u0", "", `"first"`),
		ccTestLine("assistant", "a1", "u0", `[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{}}]`),
		`{"type":"progress","uuid":"p1","parentUuid":"a1","sessionId":"s","data":{"type":"hook_progress"}}`,
		ccTestLine("user", "r1", "a1", `[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]`),
		ccTestLine("user", "u2", "r1", `"the old question"`),
		ccTestLine("assistant", "a2", "u2", `[{"type":"text","text":"old answer"}]`),
		// The user went back and asked again from r1: a second branch.
		ccTestLine("user", "u3", "r1", `"the new question"`),
		`{"type":"attachment","uuid":"at","parentUuid":"u3","sessionId":"s","attachment":{"type":"hook_success"}}`,
		ccTestLine("assistant", "a3", "at", `[{"type":"text","text":"new answer"}]`),
		`{"type":"system","subtype":"turn_duration","uuid":"sy","parentUuid":"a3","sessionId":"s","durationMs":5}`,
	}
	tr, err := ReadBytes([]byte(strings.Join(lines, "\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Request.Messages
	if got := roles(msgs); got != "uatua" {
		t.Fatalf("roles = %s", got)
	}
	if msgs[3].TextContent() != "the new question" || msgs[4].TextContent() != "new answer" || len(tr.Notes) != 0 {
		t.Errorf("read %q, %q; notes %v", msgs[3].TextContent(), msgs[4].TextContent(), tr.Notes)
	}
}
