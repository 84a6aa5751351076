package ledger

import (
	"slices"
	"strings"
)

// This file reads the decisions of records the agent reads rather than
// writes: a decision record, design note or meeting notes it opens (their
// "## Decisions" section, a sentence that settles a course), and the
// messages of the history it lists (git log, git stash list). A choice the
// team made there binds the work as much as one the agent made: "stash@{0}:
// On fix/lease: Keep the advisory lock, not Redis: Redis locks expire
// mid-run." is found nowhere else in the session.
//
// The same test as for what the agent writes applies (authoredDecisions):
// only sentences shaped as decisions, or under a heading that says they
// are, are taken. A guide's instructions to its reader are left out
// (writtenProse), and code comments of a source file read are not read: a
// codebase says why it is as it is in too many places to keep.

// readDecisions adds the decisions of a read prose document or of listed
// history in a tool's output (redacted), given the items of the call that
// printed it (its command, the files it names).
func (s *scanner) readDecisions(text string, call []Item) {
	// What the call was says which reading applies, if any, before the
	// output is looked at (or unwrapped a second time: see unwrapOutput).
	doc := ""
	if !historyCall(call) && !readsSource(call) && conversationShape(text) {
		// A chat export, a mail thread, a ticket's comments, whatever
		// printed them (a script, a mail client, a search through a
		// saved thread): what people wrote there.
		text, _ = unwrapOutput(text)
		s.authoredDecisions(text)
		s.reviewDirectives(text)
		return
	}
	if readsFile(call) {
		if doc = readDoc(call); doc == "" {
			return
		}
	} else if doc = searchedDoc(call); doc == "" {
		doc = shownRules(call)
	}
	if doc == "" && searchCall(call) {
		s.markedDecisions(text)
		return
	}
	fetched := doc == "" && fetchCall(call)
	tracker := doc == "" && trackerView(call)
	history := doc == "" && historyCall(call)
	if doc == "" && !fetched && !tracker && !history && !historyShape(text) {
		return
	}
	text, _ = unwrapOutput(text)
	s.sectionDecisions(text)
	switch {
	case doc != "":
		plain := unnumbered(text)
		s.docRead = true // its rules are read by docRules
		s.authoredDecisions(writtenProse(doc, plain))
		s.docRead = false
		s.docRules(doc, plain)
		return
	case fetched && !jsonText(text):
		// a forge's reviews or comments, or a wiki's page, fetched
		// over HTTP and printed as text (JSON records are read by
		// their keys: see personRecords)
		s.authoredDecisions(wikiHeadings(text))
		return
	case tracker:
		// an issue, a pull request, a review thread or a ticket shown
		// as text: what people wrote there
		s.authoredDecisions(text)
		s.reviewDirectives(text)
		return
	case !history && !historyShape(text):
		return
	}
	diff := false
	// run holds the lines of a message's paragraph as printed, indented
	// by git (4) or not (0): its wrapped sentences are read whole.
	var run []string
	indent := 0
	flush := func() {
		for _, m := range unwrapped(run, indent) {
			if strings.IndexByte(m, '\n') < 0 {
				s.historyDecision(strings.TrimSpace(m))
			} else {
				s.historyParagraph(strings.TrimLeft(m, " \t"))
			}
		}
		run = run[:0]
	}
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case strings.HasPrefix(line, "commit "):
			diff = false
		case strings.HasPrefix(line, "diff --git "):
			diff = true // git show's patch: its context lines are code
		}
		body := -1 // the indentation of a message's line, or -1
		switch {
		case diff:
		case strings.HasPrefix(line, "    ") && strings.TrimSpace(line) != "":
			body = 4
		case history && historyMessage(line) == "" && bodyLine(line):
			// a message body printed unindented by a custom format
			// (git log --format='%h %s%n%n%b')
			body = 0
		}
		if body != indent && len(run) > 0 || body < 0 {
			flush()
		}
		if body >= 0 {
			run, indent = append(run, line), body
			continue
		}
		if m := historyMessage(line); m != "" && !diff {
			s.historyDecision(m)
		}
	}
	flush()
}

// searchCall reports whether a call searches files for lines (grep, rg,
// ag, ack, git grep).
func searchCall(call []Item) bool {
	for _, it := range call {
		if it.Kind != KindCommand {
			continue
		}
		f := strings.Fields(it.Value)
		return len(f) >= 2 && (searchers[f[0]] || f[0] == "git" && f[1] == "grep")
	}
	return false
}

// markedDecisions adds the decisions a search found marked as such in
// comments or notes: "billing/proration.py:12:# DECISION (2024-03, with
// finance): prorate by calendar day, not by 30-day month".
func (s *scanner) markedDecisions(text string) {
	for line := range strings.SplitSeq(text, "\n") {
		t := line
		// the file and line number a search prints before the match
		for n := 0; n < 2; n++ {
			k := strings.IndexByte(t, ':')
			if k <= 0 || k > 200 || strings.ContainsAny(t[:k], " \t") {
				break
			}
			t = t[k+1:]
		}
		printed := strings.TrimSpace(t) // kept with its comment mark, as printed
		t = strings.TrimLeft(printed, "#/*-;!% ")
		low, _ := lower(t)
		if u := undated(low); strings.HasPrefix(u, "decision:") || strings.HasPrefix(u, "decided:") || strings.HasPrefix(u, "adr:") {
			if len(strings.Fields(t)) >= 5 {
				s.add(KindDecision, printed)
			}
		}
	}
}

// readDoc returns the one prose document (textDoc, or a project's rules
// file with no extension such as .cursorrules) a reading call reads, or "".
func readDoc(call []Item) string {
	doc := ""
	for _, it := range call {
		if it.Kind != KindFile || it.Access != Read {
			continue
		}
		if doc != "" || !textDoc(it.Value) && !rulesFile(it.Value) || fixtureDoc(it.Value) {
			return ""
		}
		doc = it.Value
	}
	return doc
}

// searchers print the lines of a file that match, with their context.
var searchers = map[string]bool{"grep": true, "egrep": true, "rg": true, "ag": true, "ack": true}

// searchedDoc returns the one prose document a search reads in part
// ("grep -n -A6 '## Compatibility' README.md"), or "".
func searchedDoc(call []Item) string {
	doc, search := "", false
	for _, it := range call {
		switch it.Kind {
		case KindCommand:
			f := strings.Fields(it.Value)
			if len(f) < 3 || !searchers[f[0]] || strings.Contains(it.Value, "|") || search {
				return ""
			}
			search = true
		case KindFile:
			if doc != "" || !textDoc(it.Value) && !rulesFile(it.Value) || fixtureDoc(it.Value) {
				return ""
			}
			doc = it.Value
		}
	}
	if !search {
		return ""
	}
	return doc
}

// shownRules returns the rules file a call prints whole when the path
// reader did not take its name for a file's (".cursorrules", "AGENTS"):
// "cat .cursorrules".
func shownRules(call []Item) string {
	for _, it := range call {
		if it.Kind != KindCommand {
			continue
		}
		f := strings.Fields(it.Value)
		if len(f) == 2 && (f[0] == "cat" || f[0] == "bat" || f[0] == "head" || f[0] == "less") && rulesFile(f[1]) {
			return f[1]
		}
	}
	return ""
}

// maxDocRules is the most rules kept from one reading of a document: a
// long style guide read whole does not crowd out the rest of the ledger.
const maxDocRules = 16

// docRules adds, as constraints, the rules a read document sets for the
// work: "SQL keywords must be uppercase and every migration must be
// reversible.", "Always use pathlib.Path, never os.path.", "The wire
// format is frozen: …". A project's rules for its contributors and agents
// (AGENTS.md, CLAUDE.md, CONTRIBUTING.md, a style guide, .cursorrules)
// bind an agent that read them as much as the user's own; it forgets them
// first once they are compacted away. In any other document only a rule
// that does not speak to its reader counts: a README's "you must install
// Node 18 first" is a setup step, not a rule of the work.
//
// The rule is kept with its list item or paragraph whole when that fits
// (a rule's reason or scope is often the sentence beside it: "Rust MSRV is
// 1.70. Do not use features stabilized after 1.70."), else as its own
// sentences.
func (s *scanner) docRules(doc, text string) {
	if depDoc(strings.ToLower(doc)) {
		return // a dependency's guide binds its own contributors
	}
	rules := rulesFile(doc)
	n := 0
	inFence := false
	for _, para := range wrappedParagraphs(text) {
		if strings.HasPrefix(para, "```") || strings.HasPrefix(para, "~~~") {
			inFence = !inFence
		}
		if inFence || strings.HasPrefix(para, "#") || strings.HasPrefix(para, "|") {
			continue
		}
		body := unlisted(para)
		var kept []string
		for _, sent := range sentences(body) {
			low, _ := lower(emphasis.Replace(sent))
			if docRule(low, rules) {
				kept = append(kept, sent)
			}
		}
		if len(kept) == 0 {
			continue
		}
		if len(body) <= s.e.capOf(KindConstraint) {
			kept = []string{body}
		}
		for _, k := range kept {
			if n >= maxDocRules {
				return
			}
			if s.add(KindConstraint, k) != nil {
				n++
			}
		}
	}
}

// docRule reports whether a lower-case sentence of a read document sets a
// rule: in a rules file, any rule or an imperative that excludes
// something ("Raise AcmeError subclasses, not bare Exception."); in other
// documents, a rule that does not address its reader.
func docRule(low string, rules bool) bool {
	if strings.HasSuffix(low, "?") || len(strings.Fields(low)) < 3 {
		return false
	}
	if !rules {
		// a README's or a design note's rule for the work, not a
		// library's advice to its users ("Results must be taken with
		// a grain of salt.")
		return (hasAnyWord(low, strongRules) || settledRule(low)) && !addressed(low) && !hasAnyWord(low, []string{"i", "we"})
	}
	if isConstraint(low) || settledRule(low) || hasAnyWord(low, []string{"require", "requires", "required", "mandatory"}) {
		return true
	}
	h := stripLabel(low)
	if strings.Contains(h, ", not ") || strings.Contains(h, "; no ") || strings.Contains(h, ", never ") {
		return true // "Raise AcmeError subclasses, not bare Exception."
	}
	return hasAnyLead(h, imperatives) && (hasAnyWord(h, []string{"not", "never", "only"}) ||
		strings.Contains(h, "instead of") || strings.Contains(h, "rather than"))
}

// strongRules are the words with which a document that is not a rules
// file states a rule binding the work.
var strongRules = []string{"must not", "mustn't", "must never", "never", "is frozen", "are frozen", "not allowed",
	"forbidden", "prohibited", "do not", "don't", "must remain", "must stay", "backwards compatible",
	"backward compatible", "must be readable", "must keep"}

// unlisted returns a paragraph without the marker of the list item it is
// ("- ", "* ", "1. ", "2) ", a task box).
func unlisted(p string) string {
	t := strings.TrimSpace(p)
	if !listItem(t) && !strings.HasPrefix(t, "• ") {
		return t
	}
	_, t, _ = strings.Cut(t, " ")
	t = strings.TrimSpace(t)
	for _, box := range []string{"[ ] ", "[x] ", "[X] "} {
		t = strings.TrimPrefix(t, box)
	}
	return t
}

// depDoc reports whether a lower-case path is a dependency's file, not the
// project's: installed (depPath) or vendored.
func depDoc(low string) bool {
	return depPath(low) || strings.Contains(low, "vendor/") || strings.Contains(low, "third_party/")
}

// rulesFile reports whether a file holds a project's rules for those who
// work on it: an agent's instructions (AGENTS.md, CLAUDE.md, GEMINI.md,
// .cursorrules, copilot-instructions.md), contribution and style guides.
func rulesFile(p string) bool {
	low := strings.ToLower(p)
	if depDoc(low) {
		return false
	}
	base := low[strings.LastIndexByte(low, '/')+1:]
	name := strings.TrimSuffix(base, extOf(base))
	switch name {
	case "agents", "agent", "claude", "gemini", "copilot-instructions", "conventions", ".cursorrules",
		".windsurfrules", ".clinerules", "contributing", "style", "styleguide", "style-guide", "style_guide",
		"coding-standards", "coding_standards", "guidelines", "rules", "hacking", "development":
		return true
	}
	return strings.Contains(low, ".cursor/rules/") || strings.Contains(low, ".clinerules/") ||
		strings.Contains(name, "guideline") || strings.Contains(name, "convention") || strings.Contains(name, "instructions")
}

// unnumbered returns a file's text without the line numbers a reading
// tool put before each line ("     7→text", "  7\ttext", cat -n's, "7:text",
// grep -n's context lines "8-text" beside its matches "7:text") and without
// the few lines of its own around them, when every other non-blank line
// has one; else text itself.
func unnumbered(text string) string {
	if !numberedStart(text) {
		return text
	}
	lines := strings.Split(text, "\n")
	// grep's "-" marks a context line only beside a match's ":"; alone it
	// is too common an opening ("2024-05-02 — …") to be a number's mark
	dash := grepNumbered(lines)
	n, other := 0, 0
	keep := lines[:0]
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || l == "--" && dash {
			keep = append(keep, "")
			continue
		}
		rest, ok := cutLineNumber(l, dash)
		if !ok {
			// a viewer's own lines around the file's: SWE-agent's
			// "[File: x.md (40 lines total)]", "(12 more lines below)"
			if other++; other > 3 {
				return text
			}
			continue
		}
		keep = append(keep, rest)
		n++
	}
	if n <= other {
		return text
	}
	return strings.Join(keep, "\n")
}

// numberedStart reports whether one of the first few non-blank lines of
// text opens with a line number: a cheap test before unnumbered splits it.
func numberedStart(text string) bool {
	for n := 0; n < 5 && text != ""; {
		l, rest, _ := strings.Cut(text, "\n")
		text = rest
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		if t := strings.TrimLeft(l, " "); t != "" && isDigit(t[0]) {
			return true
		}
	}
	return false
}

// grepNumbered reports whether lines are grep -n's with context: each
// opens with its line number, in increasing order, then ':' (a match, not
// followed by a digit as a time of day is) or '-' (a context line), and
// at least one is a match. Blank lines and grep's "--" between groups
// pass.
func grepNumbered(lines []string) bool {
	last, match := -1, false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" || l == "--" {
			continue
		}
		ok, d := digitsAt(l, 0)
		if !ok || d >= len(l) || d > 9 {
			return false
		}
		n := 0
		for _, c := range l[:d] {
			n = n*10 + int(c-'0')
		}
		switch {
		case n <= last:
			return false
		case l[d] == ':' && !(d+1 < len(l) && isDigit(l[d+1])):
			match = true
		case l[d] != '-':
			return false
		}
		last = n
	}
	return match
}

// cutLineNumber cuts a reading tool's line number from a line: spaces,
// digits, then an arrow, a tab, a colon, a bar or, when dash is set, a
// dash.
func cutLineNumber(l string, dash bool) (string, bool) {
	t := strings.TrimLeft(l, " ")
	ok, d := digitsAt(t, 0)
	if !ok {
		return "", false
	}
	rest := t[d:]
	for _, sep := range []string{"→", "\t", ":", "|", "-"} {
		if sep == "-" && !dash {
			break
		}
		if r, ok := strings.CutPrefix(rest, sep); ok {
			return r, true
		}
	}
	return "", false
}

// reviewDirectives adds what a reviewer or a maintainer tells the author
// to do in a thread, as the user's choices are read ("+1 to Alex. Let's
// move the retry into ApiClient.request().", "Please output a single JSON
// array.", "Go with the partial index, not the trigger."): on a pull
// request or an issue, such a sentence settles how the work is done. A
// sentence the decision readers took already is not added twice, nor is
// a question, a hedge or a "let's see".
func (s *scanner) reviewDirectives(text string) {
	s.unwrap = true
	defer func() { s.unwrap = false }()
	s.prose(text, func(low string, starts []int) (Kind, int) {
		if strings.HasSuffix(low, "?") || hedged(low) || len(strings.Fields(low)) < 4 {
			return "", 0
		}
		h := low
		for _, a := range []string{"+1 to ", "+1, ", "+1. ", "agreed with ", "agree with "} {
			if r, ok := strings.CutPrefix(h, a); ok {
				if k := strings.IndexAny(r, ".,—"); k >= 0 {
					h = strings.TrimLeft(r[k+1:], " —-")
				}
			}
		}
		if r, ok := strings.CutPrefix(h, "let's "); ok {
			w := firstWord(r)
			if w != "" && !slices.Contains(letsLook, w) {
				return KindDecision, 0
			}
		}
		if r, ok := strings.CutPrefix(h, "please "); ok {
			if w := firstWord(r); len(w) >= 3 && !slices.Contains([]string{"note", "see", "let", "ignore", "advise", "review", "confirm"}, w) {
				return KindDecision, 0
			}
		}
		if userChoice(h) {
			return KindDecision, 0
		}
		return "", 0
	})
}

// letsLook follow "let's" in a thread without settling anything: "let's
// see", "let's discuss it on Monday".
var letsLook = []string{"see", "check", "look", "discuss", "talk", "chat", "wait", "sync", "revisit", "try", "figure",
	"think", "hope", "keep", "not"}

// historyCall reports whether a call lists a repository's history with its
// messages: git log, show, reflog or stash list.
func historyCall(call []Item) bool {
	for _, it := range call {
		if it.Kind != KindCommand {
			continue
		}
		for _, c := range []string{"git log", "git show", "git reflog", "git stash list", "git stash show"} {
			if strings.Contains(it.Value, c) {
				return true
			}
		}
	}
	return false
}

// historyShape reports whether an output opens as listed history does,
// with a stash entry or a "commit <sha>" header, whatever printed it.
func historyShape(text string) bool {
	t := strings.TrimLeft(text, " \n")
	return strings.HasPrefix(t, "stash@{") || strings.HasPrefix(t, "commit ") && hexRun(t[len("commit "):]) >= 40
}

// historyMessage returns the message a line of listed history holds: a
// stash entry's ("stash@{0}: On main: msg", "stash@{1}: WIP on main:
// 3eb0076 msg"), a one-line log's ("3eb0076 (HEAD -> main) msg") or a full
// log's indented message line; "" for any other line.
func historyMessage(line string) string {
	if rest, ok := strings.CutPrefix(line, "stash@{"); ok {
		k := strings.Index(rest, "}: ")
		if k < 0 {
			return ""
		}
		rest = rest[k+3:]
		// "On branch: " or "WIP on branch: sha "
		if c := strings.Index(rest, ": "); c >= 0 && strings.Count(rest[:c], " ") <= 2 {
			rest = rest[c+2:]
		}
		if h := hexRun(rest); h >= 7 && h < len(rest) && rest[h] == ' ' {
			rest = rest[h+1:]
		}
		return strings.TrimSpace(rest)
	}
	if m, ok := strings.CutPrefix(line, "    "); ok {
		return strings.TrimSpace(m)
	}
	// "* 3eb0076 msg" of --graph, then the one-line form
	t := strings.TrimLeft(line, "*|/\\ ")
	h := hexRun(t)
	if h < 7 || h > 40 || h >= len(t) || t[h] != ' ' {
		return ""
	}
	t = t[h+1:]
	if strings.HasPrefix(t, "(") {
		if k := strings.Index(t, ") "); k >= 0 {
			t = t[k+2:]
		}
	}
	return strings.TrimSpace(t)
}

// bodyLine reports whether a line of listed history is a message's line
// printed with no indent: prose, not a header ("Author: …"), a file's stat
// line or a patch.
func bodyLine(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" || t != line || !isAlpha(t[0]) || len(strings.Fields(t)) < 4 || strings.Contains(t, " | ") {
		return false
	}
	for _, h := range []string{"commit ", "Author:", "Date:", "Merge:", "AuthorDate:", "Commit:", "CommitDate:", "diff ", "index "} {
		if strings.HasPrefix(t, h) {
			return false
		}
	}
	return true
}

// hexRun returns the length of the run of lower-case hex digits s opens
// with.
func hexRun(s string) int {
	n := 0
	for n < len(s) && (isDigit(s[n]) || s[n] >= 'a' && s[n] <= 'f') {
		n++
	}
	return n
}

// historyDecision adds a message of listed history when it states a
// choice by a firm cue or by its shape, or sets an option aside with a
// reason. The two-signal score authoredDecisions also accepts is not
// enough here: a commit's subject opens with a verb in the imperative
// ("Settle the payout job"), which the score reads as the speaker's own
// commitment.
func (s *scanner) historyDecision(m string) {
	if low, _ := lower(m); historyChoice(low) {
		s.add(KindDecision, m)
	}
}

// historyChoice reports whether a lower-case message of listed history
// states a choice (see historyDecision).
func historyChoice(low string) bool {
	if strings.HasSuffix(low, "?") || hedged(low) {
		return false
	}
	return decisionStrict(low) || justifiedAlternative(low) || rejectsWithReason(low) || fromTo(low) || breakingChange(low) ||
		settledRule(low) || settledChoice(low) || nowState(low)
}

// nowState reports whether a lower-case sentence of a commit's or a
// change's message says how things are from this change on: "all
// dependency versions now live in gradle/libs.versions.toml", "the
// firmware now runs on embassy-executor". A report that something now
// works ("the test now passes") is not one.
func nowState(low string) bool {
	k := strings.Index(low, " now ")
	if k <= 0 || len(strings.Fields(low)) < 5 || strings.HasSuffix(low, "?") {
		return false
	}
	subject := strings.Fields(low[:k])
	verb := strings.Trim(firstWord(low[k+len(" now "):]), ".,;:")
	if len(subject) == 0 || len(verb) < 3 || hasAnyLead(subject[0], []string{"it", "this", "that", "which", "everything", "we", "i"}) {
		return false
	}
	switch verb {
	case "passes", "pass", "works", "work", "fails", "fail", "succeeds", "compiles", "returns", "shows", "show", "prints",
		"reports", "crashes", "breaks", "takes", "take", "needs", "need", "has", "have", "is", "are", "gets", "get", "looks":
		return false
	}
	return strings.HasSuffix(verb, "s") || verb == "live" || verb == "run" || verb == "build" || verb == "use" || verb == "go"
}

// historyParagraph adds the decisions of a paragraph of a message body
// whose sentences are wrapped over lines: the paragraph whole, as
// printed, when it states a choice and fits the cap, else each of its
// sentences that does.
func (s *scanner) historyParagraph(p string) {
	// cleanWrapped keeps the line breaks only when the whole fits the cap
	if low, _ := lower(p); historyChoice(low) && strings.IndexByte(cleanWrapped(p, s.e.capOf(KindDecision)), '\n') >= 0 {
		s.add(KindDecision, p)
		return
	}
	for _, sent := range sentences(p) {
		s.historyDecision(sent)
	}
}

// fromTo reports whether a commit's subject moves the work from one option
// to another: "switch image uploads from local disk to Cloudflare R2",
// "migrate sessions from Redis to Postgres". An imperative subject that
// names no option left ("move tests to a package") is a change, not a
// choice.
func fromTo(low string) bool {
	low = conventionalType(low)
	if !hasAnyLead(low, []string{"switch", "migrate", "move", "port", "change"}) {
		return false
	}
	k := strings.Index(low, " from ")
	return k > 0 && strings.Contains(low[k:], " to ") && len(strings.Fields(low)) >= 5
}

// conventionalType takes off a conventional commit's type and scope:
// "fix(api): handle …" → "handle …".
func conventionalType(low string) string {
	k := strings.Index(low, ": ")
	if k <= 0 || k > 24 || strings.ContainsAny(low[:k], " ") {
		return low
	}
	return low[k+2:]
}

// trackerCLIs show what people wrote on a forge or a tracker: issues,
// pull or merge requests, their reviews and comments, tickets.
var trackerCLIs = map[string]bool{"gh": true, "glab": true, "hub": true, "tea": true, "jira": true,
	"linear": true, "acli": true, "bb": true, "az": true, "lab": true}

// trackerViews are the subcommands that show such records.
var trackerViews = map[string]bool{"view": true, "show": true, "comments": true, "list": true, "status": true}

// trackerView reports whether a call's command shows a forge's or a
// tracker's records as text: "gh pr view 12 --comments", "glab mr view",
// "jira issue view PAY-812". Its --json output is read as people's records
// already (personRecords); a diff it shows is not prose, nor is what a
// comment quotes in a fenced block (prose skips those).
func trackerView(call []Item) bool {
	for _, it := range call {
		if it.Kind != KindCommand {
			continue
		}
		f := strings.Fields(it.Value)
		if len(f) < 3 || !trackerCLIs[f[0][strings.LastIndexByte(f[0], '/')+1:]] {
			continue
		}
		for _, w := range f[1:min(len(f), 5)] {
			if w == "diff" || w == "|" {
				return false
			}
			if trackerViews[w] {
				return true
			}
		}
		if f[1] == "api" && f[2] == "graphql" && strings.Contains(it.Value, "--jq") {
			// a discussion's or a pull request's comments asked for by
			// a GraphQL query, their bodies printed as text
			for _, seg := range []string{"comments", "reviews", "discussion"} {
				if strings.Contains(it.Value, seg) {
					return true
				}
			}
		}
		if f[1] == "api" && strings.Contains(it.Value, "--jq") {
			// "gh api repos/o/r/pulls/455/comments --jq '.[].body'": the
			// bodies people wrote, printed as text
			for _, seg := range []string{"/comments", "/reviews", "/issues/", "/pulls/", "/discussions/"} {
				if strings.Contains(f[2], seg) {
					return true
				}
			}
		}
	}
	return false
}

// fetchers fetch a page or an API's answer over HTTP.
var fetchers = map[string]bool{"curl": true, "wget": true, "http": true, "https": true, "xh": true, "httpie": true}

// recordPaths are the segments of a forge's, a tracker's, a forum's or a
// wiki's URL whose answer is what people wrote.
var recordPaths = []string{"/reviews", "/comments", "/issues/", "/pulls/", "/merge_requests/", "/notes", "/discussions",
	"/posts", "/t/", "/topics/", "/wiki/", "action=raw", "/pages/", "/content/"}

// fetchCall reports whether a call fetched what people wrote (a pull
// request's reviews, an issue's comments, a forum topic, a wiki page).
func fetchCall(call []Item) bool {
	for _, it := range call {
		if it.Kind != KindCommand {
			continue
		}
		f := strings.Fields(it.Value)
		if len(f) < 2 || !fetchers[f[0]] {
			continue
		}
		for _, p := range recordPaths {
			if strings.Contains(it.Value, p) {
				return true
			}
		}
	}
	return false
}

// jsonText reports whether an output is JSON rather than text.
func jsonText(text string) bool {
	t := strings.TrimSpace(text)
	return t != "" && (t[0] == '{' || t[0] == '[')
}

// wikiHeadings rewrites MediaWiki's "== Heading ==" lines as Markdown's
// "## Heading", so that a section's heading says what it holds.
func wikiHeadings(text string) string {
	if !strings.Contains(text, "==") {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		t := strings.TrimSpace(l)
		n := 0
		for n < len(t) && t[n] == '=' {
			n++
		}
		if n >= 1 && n <= 6 && len(t) > 2*n && strings.HasSuffix(t, strings.Repeat("=", n)) {
			lines[i] = strings.Repeat("#", n) + " " + strings.TrimSpace(t[n:len(t)-n])
		}
	}
	return strings.Join(lines, "\n")
}

// conversationShape reports whether an output is what people wrote to each
// other, whatever printed it: a chat export, a mail thread, the comments
// of a ticket or a forum topic. Two lines at least head a post (a mail's
// "From:" or "On … wrote:", a "name commented" line, a line that opens
// with a time or a date and is no log record), and three lines at least
// are prose that speaks in the first or second person ("we", "I'll",
// "you"), which a program's log does not.
func conversationShape(text string) bool {
	if t := strings.TrimLeft(text, " \t\r\n"); strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") && !postHead(strings.TrimSpace(strings.SplitN(t, "\n", 2)[0])) {
		return false // JSON: its records are read by their keys (see personRecords)
	}
	heads, said, lines := 0, 0, 0
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if len(t) < 8 {
			continue
		}
		if lines++; heads == 0 && lines > 60 {
			return false // no post in sight: a log, a listing, a file
		}
		body := t
		if postHead(t) {
			heads++
			if k := strings.Index(t, ": "); k > 0 && k < 48 {
				body = t[k+2:] // what a chat's "[09:23] rui.m: …" says
			}
		}
		if heads > 0 && len(body) >= 20 && len(t) >= 30 && personal(body) {
			said++
		}
		if heads >= 2 && said >= 3 {
			return true
		}
	}
	return false
}

// postHead reports whether a trimmed line heads a post of a thread.
func postHead(t string) bool {
	switch {
	case strings.HasPrefix(t, "From: ") || strings.HasPrefix(t, "Date: "):
		return true
	case strings.HasPrefix(t, "On ") && strings.HasSuffix(t, " wrote:"):
		return true
	case strings.Contains(t, " commented") && len(strings.Fields(t)) <= 8:
		return true
	}
	head := t[:min(len(t), 28)]
	if recordLevel(t) || strings.ContainsAny(head, "{=") {
		return false
	}
	// a time ("[09:51] Kai:", "09:55  Hye-jin", "[2024-03-21 16:45] Oren
	// Katz (EM):") or a date ("Marta Kowalczyk · 2024-05-16") near its
	// start, with a name's words after it rather than a record's fields
	for i := 0; i+4 < len(head); i++ {
		if isDigit(head[i]) && isDigit(head[i+1]) && (head[i+2] == ':' && isDigit(head[i+3]) && isDigit(head[i+4]) ||
			head[i+2] == '-' && i+4 < len(head) && i >= 2 && isDigit(head[i-1]) && isDigit(head[i-2])) {
			return true
		}
	}
	return false
}

// recordLevel reports whether a line carries a log record's level.
func recordLevel(t string) bool {
	return hasAny(t, "INFO", "DEBUG", "WARN", "ERROR", "TRACE", "FATAL", "level=", "NOTICE", "CRIT")
}

// personal reports whether a line of prose speaks in the first or second
// person: one of its words is "I", "we", "you" or a contraction of them.
func personal(t string) bool {
	letters := 0
	for i := 0; i < len(t); i++ {
		if isAlpha(t[i]) || t[i] == ' ' {
			letters++
		}
	}
	if letters*10 < len(t)*7 {
		return false // code, paths, figures: not prose
	}
	for w := range strings.FieldsSeq(t) {
		w = strings.Trim(w, ".,;:!?()\"'")
		if len(w) > 6 {
			continue
		}
		for _, p := range firstPersons {
			if strings.EqualFold(w, p) {
				return true
			}
		}
	}
	return false
}

// firstPersons are the words with which a writer speaks of themselves or
// to the reader.
var firstPersons = []string{"i", "we", "you", "i'll", "we'll", "i'm", "we're", "let's", "i'd", "we'd", "you're",
	"i've", "we've", "our", "us", "my", "me", "your"}
