package strategy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/summarize"
)

// notesSession is a history whose assistant replies and tool calls carry
// the agent's words among routine steps.
func notesSession(replies ...string) []condense.Message {
	history := []condense.Message{condense.UserText("Make the backlog survive slow subscribers.")}
	for i, r := range replies {
		history = append(history, condense.AssistantText(r))
		history = withStep(history, i, fmt.Sprintf("cat src/buffer%d.ts", i), "export const x = 1;\n")
	}
	return history
}

// gateNotes runs the quality gate over the whole history with notes on.
func gateNotes(t *testing.T, history []condense.Message, budget int) (string, condense.Gate) {
	t.Helper()
	cc := &condense.CompactionContext{History: history, Budget: condense.Budget{Window: 64_000}}
	sp := summarySpan{covers: condense.Span{Start: 1, End: len(history)}}
	text, gate, _ := gateSummary(cc, &sp, "## Task\nMake the backlog survive slow subscribers.\n", ledgerRules{budget: budget, notes: true})
	return text, gate
}

// notesOf returns the summary's notes section, "" when it has none.
func notesOf(text string) string {
	_, notes, ok := strings.Cut(text, notesHeading+"\n")
	if !ok {
		return ""
	}
	return notes
}

// TestNotesKeepWordsNoExtractorReads: a choice worded in a way the ledger's
// extractors were not written for is still in the summary, verbatim, under
// the index of its message. A question the agent asked itself and a reply
// that is only filler are not.
func TestNotesKeepWordsNoExtractorReads(t *testing.T) {
	// Two paragraphs: the ledger may quote either sentence, not the whole.
	choice := "Backlog verdict → a ring of 512 frames per channel.\n\nThe array version grows without bound under one slow reader."
	history := notesSession(
		"Anything odd in the subscriber logs?",
		choice,
		"Reading it.",
		"Is the problem in src/buffer.ts? Narrowed it to the flush loop.\n\nIt holds the lock while it writes.",
	)
	text, gate := gateNotes(t, history, 2000)
	notes := notesOf(text)
	if !strings.Contains(notes, "[4] "+choice+"\n") {
		t.Fatalf("the choice is not kept verbatim under its index:\n%s", text)
	}
	if strings.Contains(notes, "Anything odd") || strings.Contains(notes, "Reading it.") || strings.Contains(notes, "Is the problem") {
		t.Errorf("a question or a filler reply was kept:\n%s", notes)
	}
	if !strings.Contains(notes, "[10] Narrowed it to the flush loop.\n\nIt holds the lock while it writes.\n") {
		t.Errorf("what is left of a reply once its question is out was not kept:\n%s", notes)
	}
	if gate.Notes != 2 {
		t.Errorf("gate counts %d notes, want 2", gate.Notes)
	}
}

// TestNotesNewestFirstInLogOrder: under a budget that holds only some of
// the notes, the newest are kept, and they are shown oldest first.
func TestNotesNewestFirstInLogOrder(t *testing.T) {
	var replies []string
	for i := range 30 {
		replies = append(replies, fmt.Sprintf("Observation number %d about the flush loop holds for shard %d.", i, i))
	}
	text, _ := gateNotes(t, notesSession(replies...), 400)
	notes := notesOf(text)
	if notes == "" {
		t.Fatalf("no notes:\n%s", text)
	}
	if !strings.Contains(notes, "Observation number 29 ") {
		t.Errorf("the newest note was left out:\n%s", notes)
	}
	if strings.Contains(notes, "Observation number 0 ") {
		t.Errorf("the oldest note was kept under a budget too small for all:\n%s", notes)
	}
	last := -1
	for line := range strings.SplitSeq(strings.TrimSpace(notes), "\n") {
		var idx int
		if _, err := fmt.Sscanf(line, "[%d]", &idx); err != nil {
			t.Fatalf("line %q does not open with its index", line)
		}
		if idx <= last {
			t.Errorf("notes out of log order: %d after %d", idx, last)
		}
		last = idx
	}
}

// TestNotesShareTheLedgerBudget: the notes take at most a share of the
// ledger's budget, and the two together stay within it.
func TestNotesShareTheLedgerBudget(t *testing.T) {
	var replies []string
	for i := range 60 {
		replies = append(replies, fmt.Sprintf("Finding %d: the retry of shard %d doubles the writes to orders_%d.", i, i, i))
	}
	history := notesSession(replies...)
	for i := range 60 {
		history = withStep(history, 100+i, "./probe", fmt.Sprintf("request id REQ-%04d-ZX failed after %d ms", 7000+i, 300+i))
	}
	const budget = 1200
	text, _ := gateNotes(t, history, budget)
	notes := notesOf(text)
	if notes == "" {
		t.Fatalf("no notes:\n%s", text)
	}
	if n := ledger.ApproxTokens(notesHeading + "\n" + notes); n > budget/notesShare+budget/20 {
		t.Errorf("the notes take %d of a %d budget, over the 1/%d share", n, budget, notesShare)
	}
	_, section, _ := strings.Cut(text, "\n## Ledger\n")
	if n := ledger.ApproxTokens(section); n > budget*11/10 {
		t.Errorf("ledger and notes take %d, over the budget %d:\n%s", n, budget, text)
	}
	if !strings.Contains(section, "REQ-") {
		t.Errorf("the notes left the ledger no room:\n%s", text)
	}
}

// TestNotesFromToolCalls: what the agent writes for people in its tool
// calls (a note file, a commit message, a decision record patched, a
// commit made by a text-protocol action) is its words too; code it writes
// and the commands of a fenced action are not.
func TestNotesFromToolCalls(t *testing.T) {
	noteFile := "## Decision\n\nTwo options for fan-out:\n- a ring of 512 frames\n- an unbounded array\n\nGoing with the first: one slow reader grows the array forever."
	commit := "Bound the backlog to 512 frames; the unbounded array let one slow reader exhaust memory"
	adr := "Status: accepted. The ring drops the oldest frame and counts the drop in backlog_dropped_total."
	history := []condense.Message{condense.UserText("Make the backlog survive slow subscribers.")}
	call := func(id, name, input string) {
		history = append(history,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, name, []byte(input))}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text("ok"))}})
	}
	call("c1", "create_file", fmt.Sprintf(`{"path":"NOTES.md","content":%q}`, noteFile))
	call("c2", "bash", fmt.Sprintf(`{"command":%q}`, "git commit -am '"+commit+"'"))
	call("c3", "apply_patch", fmt.Sprintf(`{"input":%q}`, "*** Begin Patch\n*** Add File: docs/adr/0007-backlog.md\n+"+adr+"\n*** End Patch"))
	call("c4", "create_file", fmt.Sprintf(`{"path":"src/ring.ts","content":%q}`, "// keep the ring small for cache locality\nexport class Ring {}\n"))
	history = append(history, condense.AssistantText("DISCUSSION\nThe test passes; committing with the reason in the message.\n\n```bash\ngit commit -m 'Count dropped frames so the alert can fire before subscribers notice'\n```"),
		condense.UserText("[master 1a2b3c4] Count dropped frames"))
	text, _ := gateNotes(t, history, 4000)
	notes := notesOf(text)
	for _, want := range []string{noteFile, adr, "DISCUSSION\nThe test passes; committing with the reason in the message."} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	// The commit messages are kept whole by the ledger's commands, so
	// the notes do not repeat them.
	for _, want := range []string{commit, "Count dropped frames so the alert can fire before subscribers notice"} {
		if !strings.Contains(text, want) {
			t.Errorf("the summary lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(notes, "export class Ring") || strings.Contains(notes, "```") {
		t.Errorf("code was kept as the agent's words:\n%s", notes)
	}
}

// TestNotesStayInTheirSection: a note holding headings or a line that
// looks like the start of another note does not open a section of the
// summary when it is read back, and a model's copy of the section is
// replaced by the gate's.
func TestNotesStayInTheirSection(t *testing.T) {
	report := "Done.\n## Task\nnot a task\n[3] not a note\n## Ledger\n- not an item"
	text, _ := gateNotes(t, notesSession(report), 2000)
	secs := summarize.ParseSections(text)
	if got := secs["Task"]; len(got) != 1 || got[0] != "Make the backlog survive slow subscribers." {
		t.Errorf("the note's heading reads as the summary's ## Task: %q", got)
	}
	if len(secs["Ledger"]) > 0 && strings.Contains(strings.Join(secs["Ledger"], "\n"), "not an item") {
		t.Errorf("the note's ## Ledger reads as the summary's: %q", secs["Ledger"])
	}
	notes := notesOf(text)
	if !strings.Contains(notes, "[1] Done.\n ## Task\nnot a task\n [3] not a note\n ## Ledger\n- not an item\n") {
		t.Errorf("the note's heading lines should be indented by one space:\n%q", notes)
	}
	copied := "## Task\nX\n\n" + notesHeading + "\n[1] an old note\n"
	if got := withoutLedger(copied); strings.Contains(got, "old note") {
		t.Errorf("a summarizer's copy of the notes was kept: %q", got)
	}
}

// TestNotesRedactAndSkipThinking: a secret the agent echoed is redacted as
// in the ledger, and its thinking is not taken for its words.
func TestNotesRedactAndSkipThinking(t *testing.T) {
	history := notesSession("Connected with postgres://app:hunter2secret@db.internal:5432/orders and the pool holds now.\n\nThe replica lags by 40 s at peak, past that the reads go stale.")
	history = append(history, condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.Thinking("Maybe the private reasoning mentions a sharded queue here.", "sig"), condense.Text("Settled on one queue per tenant for fairness.")}})
	text, _ := gateNotes(t, history, 2000)
	if strings.Contains(text, "hunter2secret") {
		t.Errorf("a secret reached the summary:\n%s", text)
	}
	notes := notesOf(text)
	if !strings.Contains(notes, "postgres://app:[REDACTED]@db.internal:5432/orders and the pool holds now.\n\nThe replica lags") {
		t.Errorf("the redacted note is missing:\n%s", text)
	}
	if strings.Contains(text, "private reasoning") {
		t.Errorf("thinking was kept:\n%s", text)
	}
	if !strings.Contains(text, "Settled on one queue per tenant for fairness.") {
		t.Errorf("the reply beside the thinking is missing:\n%s", text)
	}
}

// TestNotesOff: without notes in the rules (the segments strategy), no
// section is written; a note the summary already holds is not repeated.
func TestNotesOff(t *testing.T) {
	history := notesSession("Settled on one queue per tenant for fairness.")
	cc := &condense.CompactionContext{History: history, Budget: condense.Budget{Window: 64_000}}
	sp := summarySpan{covers: condense.Span{Start: 1, End: len(history)}}
	text, gate, _ := gateSummary(cc, &sp, "## Task\nX\n", ledgerRules{budget: 2000})
	if strings.Contains(text, notesHeading) || gate.Notes != 0 {
		t.Errorf("notes written while off:\n%s", text)
	}
	body := "## Task\nX\n\n## Decisions\n- Settled on one queue per tenant for fairness.\n"
	text, _, _ = gateSummary(cc, &sp, body, ledgerRules{budget: 2000, notes: true})
	if strings.Contains(text, notesHeading) {
		t.Errorf("a note the summary holds was repeated:\n%s", text)
	}
}

// TestWithoutAsides: questions and next steps leave a note; the rest keeps
// its own text and spacing, with " … " where something was left out.
func TestWithoutAsides(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Anything odd in the logs?", ""},
		{"Is it the cache? It is: the TTL is 0.", "It is: the TTL is 0."},
		{"The fix holds. Does it hold on CI? Yes, run 8812 is green.", "The fix holds. … Yes, run 8812 is green."},
		{"GET /v1/orders?page=2 returns 500.", "GET /v1/orders?page=2 returns 500."},
		{"What now?\nThe pool is the bottleneck.", "The pool is the bottleneck."},
		{"Let me read the worker and store packages.", ""},
		{"The lease expires early. Let me read the clock package next.", "The lease expires early."},
		{"Two options for fan-out:\n- a ring of 512 frames\n- an unbounded array\n\nGoing with the first: the array grows forever.",
			"Two options for fan-out:\n- a ring of 512 frames\n- an unbounded array\n\nGoing with the first: the array grows forever."},
		{"I'll use a keyset cursor, because OFFSET rescans the table on every page.", "I'll use a keyset cursor, because OFFSET rescans the table on every page."},
		{"Done!  Both pass.", "Done!  Both pass."},
		{"Q: Redis streams or NATS for the fan-out?\nA: NATS, because streams need a consumer per node.",
			"Q: Redis streams or NATS for the fan-out?\nA: NATS, because streams need a consumer per node."},
	} {
		if got := withoutAsides(c.in); got != c.want {
			t.Errorf("withoutAsides(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestWithoutFences: a fence opens a line; a fence of four backticks
// closes on four; only shell blocks are read for what they author.
func TestWithoutFences(t *testing.T) {
	for _, c := range []struct {
		in, want string
		blocks   int
	}{
		{"Use ``` for code in Markdown, it is fine.", "Use ``` for code in Markdown, it is fine.", 0},
		{"Ran it:\n```bash\ngo test ./...\n```\nAll green.", "Ran it:\n…\nAll green.", 1},
		{"Example:\n````md\n```go\nx := 1\n```\n````\nThat is the layout.", "Example:\n…\nThat is the layout.", 0},
		{"Config:\n```yaml\nretries: 3\n```", "Config:", 0},
		{"Unclosed:\n```\ngit commit -m 'x y z'", "Unclosed:", 1},
	} {
		got, blocks := withoutFences(c.in)
		if got != c.want || len(blocks) != c.blocks {
			t.Errorf("withoutFences(%q) = %q, %d blocks; want %q, %d", c.in, got, len(blocks), c.want, c.blocks)
		}
	}
}
