package ledger

import (
	"slices"
	"strings"

	"github.com/condense-dev/condense/internal/needles"
)

// This file keeps the decision records a text shows as they were printed:
// a decision log's entry is a few lines that go together, and a search for
// any of them, or for the entry, finds it only when its lines are kept
// with their quote marks and their indentation.
//
//	> **Decided:** golang.org/x/time/rate for the quota cache
//	> **Not:** our own limiter, because ours has no burst handling
//
//	Decision (the quota cache)
//	  chosen:   golang.org/x/time/rate
//	  rejected: our own limiter
//	  why:      ours has no burst handling
//
//	Q: jose or jsonwebtoken for the session store?
//	A: jose, because jsonwebtoken has no EdDSA support.

// maxDecisionLines is the most lines a decision record is kept with.
const maxDecisionLines = 5

// recordLabels open a decision record's first line, before a colon.
var recordLabels = []string{"decided", "decision", "chosen", "choice", "resolution", "outcome", "verdict"}

// decisionRecords returns the decision records of text, each as its lines
// as printed: the first trimmed, the others with their indentation.
func decisionRecords(text string) [][]string {
	out := labelRecords(text)
	for _, b := range blockRecords(text) {
		if !slices.ContainsFunc(out, func(r []string) bool { return overlaps(r, b) }) {
			out = append(out, b)
		}
	}
	return out
}

// overlaps reports whether records a and b share a line of words (not
// a blank line or a closing tag).
func overlaps(a, b []string) bool {
	for _, l := range a {
		if l = strings.TrimSpace(l); blockLineText(l) != "" && slices.ContainsFunc(b, func(m string) bool { return strings.TrimSpace(m) == l }) {
			return true
		}
	}
	return false
}

// labelRecords returns the decision records of text printed with their
// labels: a quote of "Decided:"/"Not:" lines, a "Decision (topic)"
// heading over its label lines, a question between options and its answer.
func labelRecords(text string) [][]string {
	if !strings.Contains(text, "ecid") && !strings.Contains(text, "ECID") && !strings.Contains(text, "hosen") &&
		!strings.Contains(text, "hoice") && !strings.Contains(text, "esolution") && !strings.Contains(text, "utcome") &&
		!strings.Contains(text, "Q: ") {
		return nil
	}
	lines := strings.Split(text, "\n")
	var out [][]string
	for i := 0; i < len(lines); i++ {
		t := recordStart(strings.TrimSpace(lines[i]))
		var rec []string
		switch {
		case strings.HasPrefix(t, "> ") && recordLabelled(strings.TrimPrefix(t, "> ")):
			// a quoted record: the lines of its quote
			rec = []string{t}
			for j := i + 1; j < len(lines) && len(rec) < maxDecisionLines; j++ {
				q := strings.TrimRight(lines[j], " \t\r")
				if !strings.HasPrefix(strings.TrimSpace(q), "> ") {
					break
				}
				rec = append(rec, strings.TrimSpace(q))
			}
		case recordHeading(t):
			// a heading, then its lines of labels, indented deeper
			indent := len(lines[i]) - len(strings.TrimLeft(lines[i], " \t"))
			rec = []string{t}
			for j := i + 1; j < len(lines) && len(rec) < maxDecisionLines; j++ {
				q := strings.TrimRight(lines[j], " \t\r")
				in := len(q) - len(strings.TrimLeft(q, " \t"))
				if in <= indent || !labelLine(strings.TrimSpace(q)) {
					break
				}
				rec = append(rec, q)
			}
		}
		if rec == nil && i+1 < len(lines) && choiceQuestion(t) {
			// a question between options and its answer: "Q: jose or
			// jsonwebtoken for the session store?" / "A: jose, because …"
			if a := strings.TrimSpace(lines[i+1]); strings.HasPrefix(a, "A: ") && len(strings.Fields(a)) >= 3 {
				rec = []string{t, a}
			}
		}
		if len(rec) >= 2 {
			out = append(out, rec)
			i += len(rec) - 1
		}
	}
	return out
}

// choiceQuestion reports whether t asks which of two options to take, as
// an FAQ or a decision log puts it: "Q: X or Y for Z?".
func choiceQuestion(t string) bool {
	q, ok := strings.CutPrefix(t, "Q: ")
	return ok && strings.HasSuffix(q, "?") && strings.Contains(q, " or ")
}

// recordStart returns where a decision record starts on line t: at its
// start, or after the prefix a thread prints before a post ("aokafor
// [APPROVED]: Decision (the reports role)").
func recordStart(t string) string {
	if !strings.Contains(t, "ecision") && !strings.Contains(t, "ECISION") && !strings.Contains(t, "> ") {
		return t
	}
	for k, n := 0, 0; n < 2; n++ {
		r := t[k:]
		if strings.HasPrefix(r, "> ") && recordLabelled(r[2:]) || recordHeading(r) {
			return r
		}
		c := strings.Index(r, ": ")
		if c < 0 {
			break
		}
		k += c + 2
	}
	return t
}

// recordLabelled reports whether t opens with a record's label and a colon,
// with or without emphasis: "**Decided:** …", "Decision: …".
func recordLabelled(t string) bool {
	low, _ := lower(emphasis.Replace(t))
	for _, l := range recordLabels {
		if r, ok := strings.CutPrefix(low, l); ok && strings.HasPrefix(r, ":") {
			return true
		}
	}
	return false
}

// recordHeading reports whether t is a decision record's heading on a line
// of its own: "Decision (the quota cache)", "Decision:", "DECISION — cache".
func recordHeading(t string) bool {
	if len(t) > 80 || !strings.Contains(t, "ecision") && !strings.Contains(t, "ECISION") {
		return false
	}
	low, _ := lower(emphasis.Replace(strings.TrimLeft(t, "#* ")))
	rest, ok := strings.CutPrefix(low, "decision")
	if !ok {
		return false
	}
	rest = strings.TrimSpace(rest)
	return rest == "" || rest == ":" || strings.HasPrefix(rest, "(") && strings.HasSuffix(rest, ")") ||
		strings.HasPrefix(rest, "—") || strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, ":") && len(strings.Fields(rest)) <= 6
}

// labelLine reports whether t is a "label: value" line of a record: a
// label of one to three words, a colon, then a value.
func labelLine(t string) bool {
	k := strings.IndexByte(t, ':')
	if k <= 0 || k+1 >= len(t) || strings.TrimSpace(t[k+1:]) == "" {
		return false
	}
	label := strings.Trim(t[:k], "*_- ")
	return label != "" && len(strings.Fields(label)) <= 3 && isAlpha(label[0])
}

// keepRecords adds the decision records of text (see decisionRecords), as
// printed. A decision read from a record's first line (the items from
// first on) is that record's: it takes the record's lines instead of
// being kept apart.
func (s *scanner) keepRecords(text string, first int) {
	c := s.e.capOf(KindDecision)
	var kept []int // the items that took a record
	for _, rec := range decisionRecords(text) {
		v := strings.Join(rec, "\n")
		if len(v) > c || strings.ContainsAny(v, "\x00\r") || !validRecord(rec) {
			continue
		}
		k := -1
		for i := first; i < len(s.items); i++ {
			if head := strings.SplitN(s.items[i].Value, "\n", 2)[0]; s.items[i].Kind == KindDecision && !slices.Contains(kept, i) &&
				blockLineText(head) != "" && strings.Contains(v, head) {
				k = i
				break
			}
		}
		if k < 0 {
			// the record's first line, or the item read from it before
			// this text's items (a message's prose is read first)
			p := s.add(KindDecision, rec[0])
			if p == nil {
				continue
			}
			k = -1
			for i := range s.items {
				if &s.items[i] == p {
					k = i
				}
			}
			if k < 0 {
				continue
			}
		}
		if slices.Contains(kept, k) {
			continue
		}
		kept = append(kept, k)
		s.setValue(k, v)
	}
}

// validRecord reports whether every line of a record is printable text.
func validRecord(rec []string) bool {
	for _, l := range rec {
		if strings.TrimSpace(l) == "" {
			continue // a blank line inside a <details> element
		}
		if clean(l, len(l)+len(ellipsis)) == "" {
			return false
		}
		for _, r := range l {
			if r < 0x20 && r != '\t' || r == 0x7f {
				return false
			}
		}
	}
	return true
}

// A decision is often printed as a short block rather than a sentence: a
// topic and the option kept and the one dropped on lines of their own, a
// list of options and the pick, a collapsed <details> element whose
// summary names the choice and whose body what was ruled out.
//
//	Serialization
//	+ msgpack for the wire format: adopted
//	- protobuf: skipped, the schema churns weekly
//
//	Options for the cache layer
//	  a) Caffeine in-process
//	  b) Redis cluster
//	Picked (b); (a) fails because each pod would hold its own copy.
//
// Such a block is read by its shape, whatever its labels: a paragraph (or
// a <details> element) of two to five lines, one of which keeps a course
// and another of which sets one aside, or lists the options the course
// was picked from. It is kept whole, as printed: a search for the block,
// or for any line of it, finds it.

// blockCues are the substrings a text with a decision block holds at
// least one of; a text with none is not split into lines.
var blockCues = []string{"hose", "ick", "dopt", "elect", "ccept", "pprove", " with", "eject", "ropp", "kipp",
	"eto", "uled out", "iscard", "ecision", "ecided", "❌", "✗", "✅", "instead", "rather than", "<details"}

// chosenMarks are words that keep a course on a line of a block.
var chosenMarks = []string{"chosen", "chose", "picked", "pick", "adopted", "adopt", "selected", "accepted", "approved",
	"went with", "going with", "go with", "winner", "settled on", "opted", "preferred", "keep", "kept", "stays", "✅"}

// rejectedMarks are words that set a course aside on a line of a block.
var rejectedMarks = []string{"rejected", "reject", "dropped", "drop", "skipped", "skip", "vetoed", "veto", "discarded",
	"declined", "abandoned", "fails", "not chosen", "not picked", "no-go", "passed on", "instead of", "rather than",
	"goes", "considered", "❌", "✗"}

// setAsideCues are the pieces of the words setsAside and rejectedMarks
// look for, in either case: a line with none of them sets nothing aside.
var setAsideCues = needles.NewFold("not", "no ", "no-g", "reject", "drop", "skip", "veto", "discard", "declin", "abandon",
	"fail", "instead", "rather", "goes", "consider", "ruled", "ruling", "rules out", "turned down", "alternative",
	"off the table", "short", "tempting", "appealing", "option", "candidate", "lost out", "loses out", "fit here",
	"work too", "also work", "passed on", "reason the", "why", "\xe2\x9d\x8c", "\xe2\x9c\x97")

// blockRecords returns the decision blocks of text (see above), each as
// its lines: the first trimmed, the others with their indentation.
func blockRecords(text string) [][]string {
	if !slices.ContainsFunc(blockCues, func(c string) bool { return strings.Contains(text, c) }) {
		return nil
	}
	var out [][]string
	var buf [maxDecisionLines]string // the lines of a short block
	inFence := false
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		t := strings.TrimSpace(text[start:end])
		next := end + 1
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inFence = !inFence
			start = next
			continue
		}
		if t == "" || inFence {
			start = next
			continue
		}
		n, after := 0, -1
		if at := strings.Index(t, "<details"); at >= 0 {
			// the element to its closing tag, blank lines and all, from
			// where it opens (a sentence may come before it on its line)
			buf[0], n = t[at:], 1
			closed := strings.Contains(t, "</details>")
			for p := next; !closed && p < len(text) && n < len(buf); n++ {
				e := lineEnd(text, p)
				buf[n] = text[p:e]
				closed = strings.Contains(buf[n], "</details>")
				p = e + 1
				if closed {
					after = p
				}
			}
			if !closed || after < 0 {
				n, after = 0, -1
			}
		}
		if after < 0 {
			// the paragraph: its lines up to a blank line or a fence
			n = 0
			p := start
			for p < len(text) {
				e := lineEnd(text, p)
				l := text[p:e]
				if lt := strings.TrimSpace(l); lt == "" || p > start && strings.HasPrefix(lt, "```") {
					break
				}
				if n < len(buf) {
					buf[n] = l
				}
				n++
				p = e + 1
			}
			after = p
		}
		if n >= 2 && n <= len(buf) {
			if rec := decisionBlock(buf[:n]); rec != nil {
				out = append(out, rec)
			}
		}
		start = max(after, next)
	}
	return out
}

// decisionBlock returns block as a decision record, its lines as printed
// but for the first's indentation and every line's trailing blanks, when
// it is one (see above), or nil.
func decisionBlock(block []string) []string {
	if len(block) < 2 || len(block) > maxDecisionLines {
		return nil
	}
	// a cheap look first: a block with no word that could set a course
	// aside and no list of options is not read further
	opts, cue := 0, false
	for i, l := range block {
		if len(l) > 2*DefaultMaxValueLen {
			return nil
		}
		if i > 0 && wrappedOn(block[i-1], l) {
			return nil // a paragraph of prose wrapped at a width
		}
		if optionMark(strings.TrimSpace(l)) {
			opts++
		}
		if !cue {
			setAsideCues.Lines(l, func(int, uint64) { cue = true })
		}
	}
	if !cue && opts < 2 {
		return nil
	}
	var kept, set, options []int
	for i, l := range block {
		low, _ := lower(blockLineText(l))
		if low == "" || strings.HasSuffix(low, "?") || hedged(low) {
			continue
		}
		if optionMark(strings.TrimSpace(l)) {
			options = append(options, i)
		}
		if setsAside(low) || hasAnyWord(low, rejectedMarks) {
			set = append(set, i)
		}
		if _, dec := decisionAt(low); dec || hasAnyWord(low, chosenMarks) || strings.IndexByte(l, ':') >= 0 && recordLabelled(blockLineText(l)) {
			kept = append(kept, i)
		}
	}
	// a line that keeps a course, and another that sets one aside, or a
	// list of the options it picks from
	if !slices.ContainsFunc(kept, func(k int) bool {
		return len(options) >= 2 && !slices.Contains(options, k) || slices.ContainsFunc(set, func(s int) bool { return s != k })
	}) {
		return nil
	}
	rec := make([]string, len(block))
	for i, l := range block {
		rec[i] = strings.TrimRight(l, " \t\r")
	}
	rec[0] = strings.TrimSpace(rec[0])
	return rec
}

// blockLineText returns a block's line without its list mark, its markup
// tags and its emphasis: "- **RocksDB**: chosen" reads "RocksDB: chosen".
func blockLineText(l string) string {
	t := strings.TrimSpace(l)
	if c, ok := uncommented(t); ok && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "*") && !strings.HasPrefix(t, "--") {
		t = c // a comment's line in code: "// Rejected: …"
	}
	for strings.HasPrefix(t, "<") {
		k := strings.IndexByte(t, '>')
		if k < 0 {
			break
		}
		t = strings.TrimSpace(t[k+1:])
	}
	if k := strings.Index(t, "</"); k > 0 {
		t = t[:k]
	}
	if f := strings.Fields(t); len(f) > 1 && (listMarker(f[0]) || f[0] == "+" || optionMark(t)) {
		t = strings.TrimSpace(t[len(f[0]):])
	}
	if strings.ContainsAny(t, "*_") {
		return emphasis.Replace(t)
	}
	return t
}

// optionMark reports whether a trimmed line opens with an option's
// letter or number: "a) …", "(b) …", "2) …", "B. …".
func optionMark(t string) bool {
	t = strings.TrimPrefix(t, "(")
	k := 0
	for k < len(t) && k < 2 && (isDigit(t[k]) || k == 0 && isAlpha(t[k])) {
		k++
	}
	if k == 0 || k >= len(t)-1 || t[k] != ')' && t[k] != '.' || t[k+1] != ' ' {
		return false
	}
	return k == 1 || isDigit(t[0])
}

// wrappedOn reports whether line goes on with the sentence prev left
// open: prev ends without a stop and line opens in lower case.
func wrappedOn(prev, line string) bool {
	p, t := strings.TrimSpace(prev), strings.TrimSpace(line)
	if p == "" || t == "" || strings.IndexByte(".:;!?)>", p[len(p)-1]) >= 0 {
		return false
	}
	return t[0] >= 'a' && t[0] <= 'z' && !optionMark(t) && !labelLine(t)
}
