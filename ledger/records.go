package ledger

import "strings"

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
	for _, rec := range decisionRecords(text) {
		v := strings.Join(rec, "\n")
		if len(v) > c || strings.ContainsAny(v, "\x00\r") || !validRecord(rec) {
			continue
		}
		k := -1
		for i := first; i < len(s.items); i++ {
			if s.items[i].Kind == KindDecision && strings.Contains(v, strings.SplitN(s.items[i].Value, "\n", 2)[0]) {
				k = i
				break
			}
		}
		if k < 0 {
			n := len(s.items)
			if s.add(KindDecision, rec[0]) == nil || len(s.items) == n {
				continue
			}
			k = n
		}
		it := &s.items[k]
		old := it.Key()
		it.Value = v
		if s.seen != nil {
			delete(s.seen, old)
			s.seen[it.Key()] = k
		}
	}
}

// validRecord reports whether every line of a record is printable text.
func validRecord(rec []string) bool {
	for _, l := range rec {
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
