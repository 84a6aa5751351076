package strategy

import (
	"strconv"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// This file writes a summary's ## In the agent's words: the agent's own words from the
// summarized span, kept verbatim while the room below the target allows.
//
// The ledger keeps what its extractors recognise. An agent says why it chose
// what it chose in its own way, and a phrasing no extractor was written for
// is otherwise lost with the span. The agent's text is small beside the tool
// output around it (a few thousand tokens over hundreds of steps), so the
// section takes up to a share of the ledger's budget (notesShare) before
// the ledger's items fill the rest: newest first when they do not all fit,
// shown in the order they were written, each under the log index it comes
// from ("[117] …"), so that a reader can recall the message around it.
// What the agent only asks itself ("Anything odd in the logs?") and the
// code and commands of fenced blocks are left out.

// notesHeading opens the section.
const notesHeading = "## In the agent's words"

// maxNoteBytes is the longest text part kept as one note; a longer one is
// kept paragraph by paragraph, so that a long report does not take the room
// of many short notes, nor lose all of itself when it does not fit whole.
const maxNoteBytes = 1500

// note is one passage of the agent's text and the log index of its message.
type note struct {
	index int
	text  string
}

// spanNotes returns the text the agent wrote in the log messages
// [from, to), except those in exclude (they stay verbatim in the
// rendering), in log order: its replies, and the prose it wrote for people
// in its tool calls (ledger.Said: a note or a decision record it writes,
// a commit message). Thinking is left out: it is the model's scratchpad,
// not what it told anyone. Secrets are redacted as in the ledger.
func spanNotes(history []condense.Message, from, to int, exclude map[int]bool) []note {
	var notes []note
	for i := max(from, 0); i < min(to, len(history)); i++ {
		m := &history[i]
		if m.Role != condense.RoleAssistant || exclude[i] {
			continue
		}
		for k := range m.Parts {
			p := &m.Parts[k]
			switch p.Type {
			case condense.PartText:
				notes = appendPassage(notes, i, ledger.Redact(p.Text))
			case condense.PartToolCall:
				for _, text := range ledger.Said(p) {
					notes = appendPassage(notes, i, text)
				}
			}
		}
	}
	return notes
}

// appendPassage adds a passage of log message i to notes: whole up to
// maxNoteBytes, else paragraph by paragraph.
func appendPassage(notes []note, i int, text string) []note {
	text, blocks := withoutFences(text)
	// What an action in a fenced block authors (a commit's message, a note
	// written through a heredoc) is the agent's words again.
	for _, b := range blocks {
		for _, said := range ledger.SaidIn(b) {
			notes = appendPassage(notes, i, said)
		}
	}
	text = strings.TrimSpace(text)
	if len(text) <= maxNoteBytes {
		return appendNote(notes, i, text)
	}
	for para := range strings.SplitSeq(text, "\n\n") {
		if len(para) <= maxNoteBytes {
			notes = appendNote(notes, i, para)
			continue
		}
		// A paragraph too long for one note goes line by line; a line
		// longer still is not a passage of prose anyone reads whole.
		for line := range strings.SplitSeq(para, "\n") {
			if len(line) <= maxNoteBytes {
				notes = appendNote(notes, i, line)
			}
		}
	}
	return notes
}

// withoutFences returns text without its fenced blocks (a line opening
// with three backticks or more up to a line opening with as many), and the
// blocks of shell actions (unlabelled, or labelled bash, sh, shell,
// console, zsh): code and the commands of an action are not the agent's
// words, and the ledger keeps what they run and write. Each block leaves a
// line "…" in its place; an unclosed fence runs to the end.
func withoutFences(text string) (string, []string) {
	if !strings.Contains(text, "```") {
		return text, nil
	}
	var kept []string
	var blocks []string
	fence := 0     // backticks of the open fence, 0 outside one
	shell := false // the open block is a shell action
	var body []string
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimLeft(line, " \t")
		n := len(t) - len(strings.TrimLeft(t, "`"))
		switch {
		case fence == 0 && n >= 3:
			fence, body = n, body[:0]
			label := strings.ToLower(strings.TrimSpace(t[n:]))
			shell = label == "" || label == "sh" || label == "shell" || label == "console" || label == "zsh" || strings.Contains(label, "bash")
			kept = append(kept, "…")
		case fence > 0 && n >= fence && strings.TrimSpace(t[n:]) == "":
			if shell {
				blocks = append(blocks, "\n"+strings.Join(body, "\n"))
			}
			fence = 0
		case fence > 0:
			body = append(body, line)
		default:
			kept = append(kept, line)
		}
	}
	if fence > 0 && shell {
		blocks = append(blocks, "\n"+strings.Join(body, "\n"))
	}
	out := strings.TrimSpace(strings.Join(kept, "\n"))
	return strings.TrimSpace(strings.TrimSuffix(out, "…")), blocks
}

// minNoteWords is the fewest words a note keeps once its asides are left
// out: "Reading it." or "Trying." says nothing the ledger's record of the
// step does not.
const minNoteWords = 4

// appendNote adds the passage text of log message i to notes, without its
// asides (see withoutAsides), unless what is left is shorter than
// minNoteWords.
func appendNote(notes []note, i int, text string) []note {
	text = strings.TrimSpace(withoutAsides(text))
	if len(strings.Fields(text)) < minNoteWords {
		return notes
	}
	return append(notes, note{index: i, text: text})
}

// withoutAsides returns text without the sentences that are worth little
// once the step they belong to ran: the questions an agent asks itself
// before it looks ("Anything odd in the logs?"), but not one it sets out
// to answer ("Q: …?" then "A: …"), and what it says it will do next ("Let
// me read the worker package.", as the ledger reads plans).
// The runs of sentences left keep their own spacing and are joined by
// " … ". A sentence ends at ".", "!" or "?" before a space or a line
// break, and at a line break; "?page=2" ends nothing.
func withoutAsides(text string) string {
	var b strings.Builder
	start := 0 // start of the current sentence
	sep := ""  // what stood between the last kept sentence and the next
	dropped := false
	emit := func(end, next int) {
		sentence := text[start:end]
		t := strings.TrimSpace(sentence)
		switch {
		case t == "":
		case strings.HasSuffix(t, "?") && !posed(t) || ledger.IsPlan(t):
			dropped = true
		default:
			switch {
			case b.Len() == 0:
			case dropped:
				b.WriteString(" … ")
			default:
				b.WriteString(sep)
			}
			b.WriteString(t)
			dropped = false
		}
		if b.Len() > 0 && !dropped {
			sep = text[end:next]
		}
		start = next
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '\n':
			next := i
			for next < len(text) && (text[next] == '\n' || text[next] == ' ' && next > i) {
				next++
			}
			emit(i, next)
			i = next - 1
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'):
			next := i + 1
			for next < len(text) && text[next] == ' ' {
				next++
			}
			if next < len(text) && text[next] == '\n' {
				continue // the line break ends it, with its own spacing
			}
			emit(i+1, next)
			i = next - 1
		}
	}
	if start < len(text) {
		emit(len(text), len(text))
	}
	return b.String()
}

// posed reports whether a question is set out to be answered after it
// ("Q: Flyway or ddl-auto for the migrations?", "Question: …"): the answer
// that follows picks one of the options it names, so it stays with it.
func posed(t string) bool {
	for _, p := range []string{"Q:", "Q.", "Question:", "**Q:**", "**Q**:", "**Question:**"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// noteLine renders a note: its log index, then its text with any line that
// would read as a heading of the summary or as the start of another note
// indented by one space.
func noteLine(n note) string {
	text := n.text
	if strings.Contains(text, "\n") {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "</summary") || isNoteStart(l) {
				lines[i] = " " + l
			}
		}
		text = strings.Join(lines, "\n")
	}
	return "[" + strconv.Itoa(n.index) + "] " + text
}

// isNoteStart reports whether a line opens a note: "[117] ".
func isNoteStart(l string) bool {
	if !strings.HasPrefix(l, "[") {
		return false
	}
	end := strings.Index(l, "] ")
	if end < 2 {
		return false
	}
	_, err := strconv.Atoi(l[1:end])
	return err == nil
}

// minNoteCost is about the least a note costs ("[7] " and four short
// words): below it no note fits, and picking stops.
const minNoteCost = 10

// notePicker picks the notes a summary keeps: newest first, each that fits
// the budget it is given, leaving out those the summary already holds
// verbatim.
type notePicker struct {
	notes []note
	keep  []bool
	// pickedText holds the texts of the picked notes.
	pickedText strings.Builder
	used       int // ledger.ApproxTokens of the picked notes, heading included
	n          int
	ratio      float64 // ledger.ApproxTokens per counter token on the notes
}

func newNotePicker(cc *condense.CompactionContext, notes []note) *notePicker {
	return &notePicker{notes: notes, keep: make([]bool, len(notes)), ratio: notesRatio(cc, notes)}
}

// pick adds the notes that fit while the picked ones stay within budget
// counter tokens, and returns the counter tokens they take in all.
func (np *notePicker) pick(held string, budget int) int {
	limit := int(float64(budget) * np.ratio)
	if np.used == 0 {
		np.used = ledger.ApproxTokens(notesHeading) + 1
	}
	for i := len(np.notes) - 1; i >= 0 && limit-np.used >= minNoteCost; i-- {
		if np.keep[i] {
			continue
		}
		// The cost first: the searches below read the whole summary.
		cost := ledger.ApproxTokens(noteLine(np.notes[i])) + 1
		if np.used+cost > limit {
			continue
		}
		// A note file written again and again is kept as last written:
		// what a newer note already holds is not kept again.
		if strings.Contains(np.pickedText.String(), np.notes[i].text) || strings.Contains(held, np.notes[i].text) {
			continue
		}
		np.used += cost
		np.keep[i] = true
		np.pickedText.WriteString(np.notes[i].text + "\n")
		np.n++
	}
	return np.tokens()
}

// tokens is what the picked notes take, in counter tokens.
func (np *notePicker) tokens() int {
	if np.n == 0 {
		return 0
	}
	return int(float64(np.used)/np.ratio) + 1
}

// write appends the section with the picked notes, in log order, to b,
// and returns how many it wrote. Notes the text already holds (a decision
// the ledger quoted whole) are left out.
func (np *notePicker) write(b *strings.Builder, held string) int {
	n := 0
	for i, nt := range np.notes {
		if !np.keep[i] || strings.Contains(held, nt.text) {
			continue
		}
		if n == 0 {
			b.WriteString("\n" + notesHeading + "\n")
		}
		b.WriteString(noteLine(nt) + "\n")
		n++
	}
	return n
}

// notesRatio is how many ledger.ApproxTokens one token of the counter is
// worth on the notes (see approxRatio), within [1/2, 5/2].
func notesRatio(cc *condense.CompactionContext, notes []note) float64 {
	const sampleBytes, minSample = 32 << 10, 2 << 10
	var b strings.Builder
	for i := len(notes) - 1; i >= 0; i-- {
		line := noteLine(notes[i])
		if b.Len()+len(line) >= sampleBytes {
			break
		}
		b.WriteString(line + "\n")
	}
	return sampleRatio(cc, b.String(), minSample)
}
