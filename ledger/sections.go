package ledger

import (
	"slices"
	"strings"
)

// A design document, a pull request's description, a ticket or a commit's
// body often states its decision without a decision's words: it lists the
// options it weighed ("## Alternatives", "We looked at three layouts:",
// "Considered:") and then says how things will be ("Partitioning is monthly
// by range on created_at; …", "This MR: state lives in one S3 bucket per
// account …"), or it puts the course under a heading that says what it is
// ("## Decision", "## Resolution"). sectionDecisions reads that layout: the
// first sentence of the paragraph that follows the options, or that opens
// a decision's section, is the decision, whatever its words.

// strongHeadings name a section that holds a decision in any document.
var strongHeadings = []string{"decision", "decisions", "decision outcome", "decision record", "outcome", "resolution",
	"resolved", "conclusion", "conclusions", "verdict", "agreed", "agreement", "what we decided", "we decided",
	"chosen option", "chosen approach", "selected option", "selected approach", "final decision"}

// weakHeadings name a section that holds the course taken only after the
// options were weighed: a README's "## Design" describes, an RFC's
// "## Design" after its "## Alternatives" chooses.
var weakHeadings = []string{"design", "approach", "proposal", "proposed design", "proposed solution", "proposed approach",
	"solution", "the fix", "fix", "plan of record", "what this changes", "what this pr does", "what this mr does",
	"changes", "implementation", "detailed design", "what changed", "what changes", "this pr", "this mr", "this change",
	"in this pr", "in this mr", "the change", "change", "new behaviour", "new behavior"}

// optionWords mark a heading or a lead line that opens the options weighed.
var optionWords = []string{"considered", "alternative", "options", "looked at", "evaluated", "we compared", "candidates",
	"approaches", "choices", "rejected", "ruled out", "discarded", "not chosen", "why not"}

// asideHeadings name sections that follow the options without choosing
// among them.
var asideHeadings = []string{"test", "testing", "test plan", "migration", "rollout", "follow-up", "follow-ups", "followups",
	"open questions", "unresolved", "risks", "not in scope", "out of scope", "non-goals", "context", "background",
	"motivation", "benchmark", "benchmarks", "results", "notes", "references", "links", "checklist", "screenshots",
	"problem", "summary", "consequences", "drawbacks", "how to test", "verification", "timeline"}

// decisionLabels open a one-line statement of the course: "This MR: …".
var decisionLabels = []string{"this mr", "this pr", "this change", "this patch", "this commit", "decision", "decided",
	"resolution", "outcome", "verdict", "proposal", "approach", "conclusion", "chosen", "going with", "plan of record"}

// sectionDecisions adds the decisions the layout of text states (see
// above).
func (s *scanner) sectionDecisions(text string) {
	for _, d := range sectionChoices(text) {
		if low, _ := lower(d); len(strings.Fields(d)) >= 4 && !strings.HasSuffix(low, "?") && !hedged(low) {
			s.add(KindDecision, d)
		}
	}
}

// sectionChoices returns the decisions the layout of text states: a
// sentence each, its lines joined.
func sectionChoices(text string) []string {
	if !strings.Contains(text, "\n") {
		return nil
	}
	var out []string
	paras := paragraphs(text)
	// options weighed anywhere make a section that says what the change
	// is the course taken, before or after them
	weighed := false
	for _, para := range paras {
		if t, ok := headingTitle(strings.TrimSpace(para[0])); ok && len(para) == 1 && hasAny(t, optionWords...) {
			weighed = true
		}
	}
	heading := ""        // the lower-case title of the current section
	optionsAt := ""      // the heading under which the options were opened ("" for a lead line)
	optionsOpen := false // an option marker was seen, its list not yet
	listed := false      // the options were listed: the next prose may pick
	strong := false      // the section is a decision's
	for _, para := range paras {
		first := strings.TrimSpace(para[0])
		if t, ok := headingTitle(first); ok && len(para) == 1 {
			heading = t
			strong = slices.Contains(strongHeadings, t) || (weighed || listed || optionsOpen) && slices.Contains(weakHeadings, t)
			if hasAny(t, optionWords...) {
				optionsAt, optionsOpen, listed = t, true, false
			}
			continue
		}
		// A lead line ending in a colon opens what follows it.
		body := para
		if lead := strings.ToLower(strings.TrimSuffix(first, ":")); strings.HasSuffix(first, ":") && len(strings.Fields(first)) <= 8 {
			if hasAny(lead, optionWords...) {
				optionsAt, optionsOpen, listed = heading, true, false
			}
			body = para[1:]
			if len(body) == 0 {
				continue
			}
		}
		if optionLines(body) {
			if strong {
				// a decision's section that lists: its first item
				out = append(out, firstSentence(joinLines(firstItem(body))))
				strong, listed, optionsOpen = false, false, false
				continue
			}
			if optionsOpen || listed {
				listed = true
				optionsOpen = false
			}
			continue
		}
		prose := joinLines(body)
		if label, rest, ok := strings.Cut(prose, ": "); ok && len(strings.Fields(label)) <= 3 && slices.Contains(decisionLabels, strings.ToLower(label)) {
			out = append(out, firstSentence(rest))
			listed, optionsOpen, strong = false, false, false
			continue
		}
		if last := strings.TrimSpace(body[len(body)-1]); strings.HasSuffix(last, ":") && !strong && !listed {
			// "… We looked at three layouts:" closing a paragraph
			if ss := sentences(prose); hasAny(strings.ToLower(ss[len(ss)-1]), optionWords...) {
				optionsAt, optionsOpen = heading, true
				continue
			}
		}
		// the course taken: a decision's section, or the paragraph after
		// the options, out of their own section (or, opened by a lead
		// line in no section, right after them) and out of one that
		// follows them without choosing
		if strong || listed && (heading != optionsAt && !hasAnyLead(heading, asideHeadings) || heading == "" && optionsAt == "") {
			out = append(out, firstSentence(prose))
			strong, listed, optionsOpen = false, false, false
		}
	}
	return out
}

// paragraphs splits text into runs of non-blank lines, each line without
// its trailing spaces.
func paragraphs(text string) [][]string {
	var out [][]string
	var cur []string
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		if strings.TrimSpace(line) == "" {
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
			continue
		}
		// a heading is a paragraph of its own even without a blank line
		if _, ok := headingTitle(strings.TrimSpace(line)); ok && strings.HasPrefix(strings.TrimSpace(line), "#") {
			if len(cur) > 0 {
				out = append(out, cur)
			}
			out = append(out, []string{line})
			cur = nil
			continue
		}
		cur = append(cur, line)
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// headingTitle returns the lower-case title of a Markdown heading ("##
// Decision"), or of a line that is only bold text ("**Decision**").
func headingTitle(line string) (string, bool) {
	t := ""
	switch {
	case strings.HasPrefix(line, "#"):
		t = strings.TrimLeft(line, "#")
		if t == line[1:] && !strings.HasPrefix(t, " ") {
			return "", false // "#482", a tag
		}
	case strings.HasPrefix(line, "**") && strings.HasSuffix(strings.TrimSuffix(line, ":"), "**") && len(line) > 4:
		t = strings.Trim(strings.TrimSuffix(line, ":"), "*")
	default:
		return "", false
	}
	t = strings.ToLower(strings.Trim(strings.TrimSpace(t), ":*"))
	// "## 3. Decision", "## Decision (2024-05-02)"
	t = strings.TrimLeft(t, "0123456789. ")
	if k := strings.IndexAny(t, "(["); k > 0 {
		t = strings.TrimSpace(t[:k])
	}
	if t == "" || len(strings.Fields(t)) > 6 {
		return "", false
	}
	return t, true
}

// optionLines reports whether a paragraph lists options: list items, table
// rows, or lines that open with a bold option's name.
func optionLines(lines []string) bool {
	items := 0
	for _, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case listItem(t) || strings.HasPrefix(t, "• ") || strings.HasPrefix(t, "|") || strings.HasPrefix(t, "**"):
			items++
		case indentOf(l) > indentOf(lines[0]) || items > 0:
			// an item's wrapped continuation
		default:
			return false
		}
	}
	return items > 0
}

// joinLines joins a paragraph's wrapped lines with spaces.
func joinLines(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimSpace(l))
	}
	return b.String()
}

// firstSentence returns the first sentence of a paragraph.
func firstSentence(p string) string {
	if s := sentences(p); len(s) > 0 {
		return s[0]
	}
	return p
}

// firstItem returns the lines of a list's first item, its marker taken off.
func firstItem(lines []string) []string {
	end := 1
	for end < len(lines) && !listItem(strings.TrimSpace(lines[end])) && indentOf(lines[end]) > indentOf(lines[0]) {
		end++
	}
	item := append([]string{}, lines[:end]...)
	t := strings.TrimSpace(item[0])
	if k := strings.IndexByte(t, ' '); k > 0 && (listItem(t) || strings.HasPrefix(t, "• ")) {
		t = t[k+1:]
	}
	item[0] = t
	return item
}

// setAsideAfter are the words of a sentence that sets aside an option the
// course stated before it was weighed against: "A separate archive table
// was considered but every FK would need a twin.", "We tried
// go-retryablehttp but it retries POST by default."
var setAsideAfter = []string{" was considered but", " were considered but", " was considered, but", " were considered, but",
	" considered and rejected", " was rejected ", " were rejected ", " was ruled out", " were ruled out"}

// setAsideLater reports whether a lower-case sentence sets an option aside
// after the course was stated (see setAsideAfter).
func setAsideLater(low string) bool {
	if hasAny(low, setAsideAfter...) {
		return true
	}
	for _, lead := range []string{"we tried ", "i tried ", "we looked at ", "we also looked at ", "we evaluated "} {
		if strings.HasPrefix(low, lead) && strings.Contains(low, " but ") {
			return true
		}
	}
	return false
}

// courseBeforeSetAside adds the first sentence of a short paragraph whose
// later sentence sets an option aside: the paragraph states its course
// first, then what it was weighed against ("Deleted users are soft-deleted
// via deleted_at …. A separate users_archive table was considered but …").
func (s *scanner) courseBeforeSetAside(text string) {
	if !hasAny(text, " but", " rejected", " ruled out") {
		return
	}
	for _, para := range paragraphs(text) {
		if len(para) > 1 && titleLine(para[0]) {
			para = para[1:] // "Description" over the text it labels
		}
		ss := sentences(joinLines(para))
		if len(ss) < 2 || len(ss) > 5 {
			continue
		}
		first := ss[0]
		low, _ := lower(first)
		if len(strings.Fields(first)) < 4 || strings.HasSuffix(low, "?") || strings.HasSuffix(low, ":") || hedged(low) || setAsideLater(low) {
			continue
		}
		for _, sent := range ss[1:] {
			if l, _ := lower(sent); setAsideLater(l) {
				s.add(KindDecision, first)
				break
			}
		}
	}
}

// titleLine reports whether a line only titles the text under it: a word
// or three, capitalized, with no sentence's punctuation ("Description",
// "Acceptance criteria").
func titleLine(line string) bool {
	t := strings.TrimSpace(line)
	n := len(strings.Fields(t))
	return n >= 1 && n <= 3 && t[0] >= 'A' && t[0] <= 'Z' && !strings.ContainsAny(t, ".,;:!?()")
}
