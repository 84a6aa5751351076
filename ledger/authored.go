package ledger

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// This file reads the prose an agent writes somewhere other than its reply:
// the comments of the code it writes, the instruction and changelog files
// it adds to, and the sentences it passes to commands (a note attached to a
// commit, a message posted to a chat webhook). A choice stated there
// ("// A timer wheel rather than a setTimeout per session: 100k timers
// stall the event loop") outlives the reply that made it, so it is as much
// a decision as one said in the reply. Only decisions are taken from these
// texts: a comment that describes the code, or a changelog line that lists
// a change, is not the agent's finding or plan.
//
// Decision records, notes and plans (see proseDoc) and commit messages and
// pull request bodies (see authoredText) are read in full, as the reply is.

// authoredDecisions adds the decisions of text the agent wrote for people
// other than the model it talks to.
func (s *scanner) authoredDecisions(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	s.courseBeforeSetAside(text)
	// a decision printed as a block of lines is kept as printed (see
	// blockRecords), once its sentences are read
	defer s.keepRecords(text, len(s.items))
	// what people write in a commit message, a review or a mail is
	// wrapped at a width; a chat message's line breaks are the writer's
	s.unwrap = true
	defer func() { s.unwrap = false }()
	s.prose(text, settledReader(func(low string, starts []int) (Kind, int) {
		if strings.HasSuffix(low, "?") || hedged(low) {
			return "", 0
		}
		if at, ok := decisionAt(low); ok {
			if slices.Contains(starts, at) {
				return KindDecision, at
			}
			return KindDecision, 0
		}
		if justifiedAlternative(low) || rejectsWithReason(low) || discussedOutcome(low) || breakingChange(low) ||
			insteadCourse(low) || courseAndNot(low) {
			return KindDecision, 0
		}
		if settledChoice(low) {
			// "Buckets are keyed by API key, not by client IP.", "No CPU
			// limit, only a request: CFS throttling added 40ms to p99."
			return KindDecision, 0
		}
		if !s.docRead && (isConstraint(low) || settledRule(low)) {
			// a rule adopted for the work ("Field 7 is retired for
			// good: the number stays reserved and must never be
			// reused.", "Only the latest major gets fixes.")
			return KindConstraint, 0
		}
		if p := speakerPrefix(low); p > 0 && p < len(low) {
			// "[2024-05-06] r.osei: Decided: Spot for …": the post is read
			// as its author wrote it, and kept with its prefix
			if r := low[p:]; !hedged(r) && !strings.HasSuffix(r, "?") {
				if _, ok := decisionAt(r); ok || justifiedAlternative(r) || rejectsWithReason(r) || courseNotCourse(r) {
					return KindDecision, 0
				}
			}
		}
		return "", 0
	}))
}

// settledRule reports whether a lower-case sentence states a rule the
// work keeps to from now on, without a modal: what is the only course
// ("that is the only configuration we support"), what is permanent or
// frozen, what is banned or off-limits, what gets no more of something
// ("the gem takes no new runtime dependencies"), what stays as it is.
func settledRule(low string) bool {
	for _, c := range settledCues {
		if strings.Contains(low, c) {
			return true
		}
	}
	return hasAnyLead(low, []string{"only ", "no new ", "nothing ", "never "})
}

// settledChoice reports whether a lower-case sentence someone wrote down
// (a comment, a note, a commit message) states how something is settled
// and why, without a decision's words: a course held against another or
// held alone ("…, not by client IP", "… only", "stays …", "fixed at …",
// "… throughout", "no X: …"), with its reason or its scope after a colon,
// a semicolon or a conjunction. A sentence that only describes what code
// does ("Returns only the active rows; …") is not one.
func settledChoice(low string) bool {
	f := strings.Fields(low)
	if len(f) < 4 || len(f) > 32 || len(low) > DefaultMaxValueLen || strings.HasSuffix(low, "?") || hedged(low) ||
		describesCode(f[0]) || docVerb(f[1]) {
		// the second word too: a doc comment names what it documents
		// first ("Parse reads the input and returns …")
		// over the value's cap it would be cut to some of its clauses,
		// on a reading too weak to choose them
		return false
	}
	held := strings.Contains(low, ", not ") || strings.Contains(low, " (not ") || strings.HasPrefix(low, "no ") && !noIdiom(f[1]) ||
		hasAnyWord(low, []string{"only", "always", "never", "stays", "stay", "throughout", "deliberately",
			"intentionally", "on purpose", "for now", "pinned", "held at", "fixed at", "limited to", "instead of",
			"rather than", "without"})
	if !held {
		return false
	}
	if strings.Contains(low, ", not ") || strings.Contains(low, " (not ") || strings.Contains(low, " rather than ") || strings.Contains(low, " instead of ") {
		return true // one course set against another says what was chosen
	}
	return strings.Contains(low, ": ") || strings.Contains(low, "; ") || strings.Contains(low, " — ") ||
		hasAnyWord(low, []string{"so", "because", "since", "until", "which", "as"}) || strings.Contains(low, ". ")
}

// noIdiom reports whether "no" before w opens an idiom or a finding ("no
// idea", "no errors"), not a course ruled out.
func noIdiom(w string) bool {
	switch strings.Trim(w, ".,:;!") {
	case "idea", "luck", "clue", "problem", "problems", "worries", "way", "change", "changes", "error", "errors",
		"issue", "issues", "rush", "need", "one", "doubt", "matter", "response", "output", "results", "data",
		"longer", "more", "difference", "sign", "trace", "match", "matches", "tests", "failures", "warnings":
		return true
	}
	return false
}

// docVerb reports whether w, a sentence's second word, says what the thing
// its first word names does, as a doc comment does ("Parse reads …",
// "Client wraps …"); "uses" and "is" state choices as often.
func docVerb(w string) bool {
	switch strings.Trim(w, ".,:;") {
	case "reads", "returns", "writes", "parses", "converts", "computes", "implements", "represents", "wraps",
		"sends", "fetches", "validates", "renders", "creates", "checks", "handles", "loads", "describes":
		return true
	}
	return false
}

// describesCode reports whether a sentence's first word says what code does
// ("returns", "called", "handles"), as a comment describing it opens.
func describesCode(w string) bool {
	switch strings.Trim(w, ".,:;()`'\"") {
	case "returns", "return", "called", "calls", "used", "uses", "creates", "gets", "sets", "checks", "handles",
		"loads", "reads", "writes", "runs", "builds", "parses", "converts", "computes", "helper", "wrapper",
		"todo", "fixme", "note", "see", "e.g.", "example", "implements", "represents", "describes", "wraps",
		"sends", "fetches", "stores", "validates", "renders", "starts", "stops", "opens", "closes", "adds", "removes":
		return true
	}
	return false
}

// settledCues are the phrases of a rule stated as how things now are.
var settledCues = []string{" is the only ", " are the only ", " is now the only ", " are now the only ", " only configuration", " is permanent", " are permanent",
	" is frozen", " are frozen", " is banned", " are banned", " off-limits", " off limits", " is retired", " are retired",
	" for good", " no longer ", " takes no new ", " gets no new ", " get no new ", " accepts no ", " is not renewed",
	" end-of-life", " end of life", " stays on ", " stay on ", " stays as ", " by design", " on purpose", " is not part of ",
	" are not part of ", " not going to ", " signed off", " lost out", " is out of scope", " are out of scope"}

// breakingChange reports whether a sentence of a changelog, a release's
// notes or a tag says what the project no longer does: "CommonJS
// `require()` is no longer supported."
func breakingChange(low string) bool {
	return strings.Contains(low, "no longer supported") || strings.Contains(low, "is no longer supported") ||
		strings.Contains(low, "support is dropped") || strings.Contains(low, "support was dropped")
}

// discussedOutcome reports whether a sentence of a thread gives the
// outcome of a discussion after naming it: "We discussed this in the
// maintainers meeting: XDG paths on Linux and macOS, …", "Discussed in the
// backend guild: codegen runs against Testcontainers …", "As discussed on
// Friday: no PLUS variants in 0.4."
func discussedOutcome(low string) bool {
	h := strings.TrimLeft(low, "> *_-")
	if !hasAnyLead(h, []string{"discussed", "we discussed", "as discussed", "after discussion", "after some discussion",
		"per discussion", "following the discussion", "talked it over", "we talked", "discussed this", "synced"}) {
		return false
	}
	k := strings.Index(h, ": ")
	return k > 0 && k <= 90 && len(strings.Fields(h[k+2:])) >= 4 && !strings.HasSuffix(h, "?")
}

// justifiedAlternative reports whether a sentence names an option set
// aside and then gives a reason: "one timer wheel rather than a setTimeout
// per session: 100k timers stall the event loop". Written into a comment or
// a changelog, that is the record of a choice, whoever the subject is.
func justifiedAlternative(low string) bool {
	at := -1
	for _, c := range alternatives {
		if k := wordIndex(low, c); k >= 0 && (at < 0 || k < at) {
			at = k
		}
	}
	for _, c := range []string{", not ", " over "} {
		if k := strings.Index(low, c); k > 0 && (at < 0 || k < at) {
			at = k
		}
	}
	if at <= 0 {
		return false
	}
	rest := low[at:]
	for _, r := range []string{": ", " — ", " - ", "; ", " because ", " since ", ", as ", " so that ", " which ", ", so "} {
		if k := strings.Index(rest, r); k > 0 && len(strings.Fields(rest[k:])) >= 3 {
			return true
		}
	}
	return false
}

// writtenProse returns what of the text written into the file at path is
// prose to read for decisions: the whole text of an instruction file or a
// changelog, the comments of a source file, or "".
func writtenProse(path, text string) string {
	switch {
	case path == "" || text == "":
		return ""
	case recordFile(path):
		return text
	case textDoc(path) && !fixtureDoc(path):
		// A guide or an upgrade note the agent writes states what was
		// chosen for its readers ("Recommendation: asyncpg with COPY.
		// Not recommended: executemany, since …"); what it tells the
		// reader to do ("Use Postgres rather than Redis for locks when
		// you deploy this.") is an instruction, not the work's choice.
		return chosenProse(text)
	}
	if c := commentSyntaxOf(path); c != nil {
		return commentProse(c, text)
	}
	return ""
}

// chosenProse returns the sentences of a guide that do not address its
// reader: none that says "you", tells someone what they should do or
// opens, at its start or after a leading clause, with a verb in the
// imperative ("For local development, use SQLite …"). Under a heading
// that says what follows was decided, only what speaks to the reader
// ("when you deploy this") is an instruction. A paragraph wrapped over
// lines is read as one.
func chosenProse(text string) string {
	var out []string
	decided := false
	for _, para := range wrappedParagraphs(text) {
		if h, ok := strings.CutPrefix(para, "#"); ok && (h == "" || h[0] == '#' || h[0] == ' ') {
			// under a "## Decisions" heading every sentence is one,
			// however it is worded ("Keep the advisory lock: …")
			low, _ := lower(strings.Trim(h, "# *:"))
			decided = slices.Contains(decisionHeadings, low)
			out = append(out, para)
			continue
		}
		var keep []string
		for _, sent := range sentences(para) {
			low, _ := lower(emphasis.Replace(sent))
			if instruction(low) && (!decided || addressed(low)) {
				continue
			}
			keep = append(keep, sent)
		}
		out = append(out, strings.Join(keep, " "))
	}
	return strings.Join(out, "\n")
}

// instruction reports whether a lower-case sentence of a guide tells its
// reader what to do.
func instruction(low string) bool {
	if hasAnyWord(low, []string{"you", "your", "you'll", "you're", "should", "must"}) && !hasAnyWord(low, []string{"we", "i"}) {
		return true
	}
	h := stripLabel(low)
	if hasAnyLead(h, imperatives) {
		return true
	}
	if k := strings.Index(h, ", "); k > 0 && len(strings.Fields(h[:k])) <= 5 {
		return hasAnyLead(h[k+2:], imperatives) // "For local development, use SQLite …"
	}
	return false
}

// wrappedParagraphs returns the paragraphs of a Markdown text with their
// wrapped lines joined; headings, list items, table rows and fences start
// lines of their own.
func wrappedParagraphs(text string) []string {
	var out []string
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
			out, cur = append(out, cur), ""
			continue
		case cur != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "- ") && !strings.HasPrefix(t, "* ") &&
			!strings.HasPrefix(t, "|") && !strings.HasPrefix(t, "```") && !isDigit(t[0]) && !strings.HasPrefix(cur, "#") &&
			speakerPrefix(t) == 0:
			cur += " " + t
			continue
		}
		if cur != "" {
			out = append(out, cur)
		}
		cur = t
	}
	return append(out, cur)
}

// courseNotCourse reports whether a post takes one course and names the
// one it does not: "rolling back auth-svc to v2.14.3, not hotfixing the
// secret mid-incident".
func courseNotCourse(low string) bool {
	a, b, ok := strings.Cut(low, ", not ")
	w, v := firstWord(a), firstWord(b)
	return ok && len(w) > 4 && strings.HasSuffix(w, "ing") && len(v) > 4 && strings.HasSuffix(v, "ing") &&
		len(strings.Fields(a)) >= 3
}

// speakerPrefix returns the length of the prefix a chat export, a
// ticket's comments or a document's fields put before a line's text:
// "dan: ", "[2024-05-06] r.osei: ", "<bjorn> ", "Status: "; or 0. Such a
// line is a post or a field of its own, not the next line of a wrapped
// paragraph.
func speakerPrefix(t string) int {
	i := 0
	if strings.HasPrefix(t, "[") {
		k := strings.IndexByte(t, ']')
		if k < 0 || k > 40 {
			return 0
		}
		i = k + 1
		for i < len(t) && t[i] == ' ' {
			i++
		}
	}
	if strings.HasPrefix(t[i:], "<") {
		if k := strings.IndexByte(t[i:], '>'); k > 1 && k <= 25 && !strings.ContainsRune(t[i:i+k], ' ') && strings.HasPrefix(t[i+k+1:], " ") {
			return i + k + 2
		}
		return 0
	}
	j := i
	for j < len(t) && j-i <= 24 && (isAlnum(t[j]) || strings.IndexByte("._-@", t[j]) >= 0) {
		j++
	}
	if j == i || !strings.HasPrefix(t[j:], ": ") {
		if i > 0 {
			return i // "[12:04] the deploy went out": the stamp alone
		}
		return 0
	}
	return j + 2
}

// fixtureDoc reports whether a text file is data rather than a guide: a
// test's golden file or fixture, a licence.
func fixtureDoc(p string) bool {
	low := strings.ToLower(p)
	return strings.Contains(low, "testdata/") || strings.Contains(low, "fixtures/") || strings.Contains(low, "golden") ||
		strings.Contains(low, "license") || strings.Contains(low, "licence") || strings.Contains(low, "copying")
}

// addressed reports whether a lower-case sentence speaks to its reader.
func addressed(low string) bool {
	return hasAnyWord(low, []string{"you", "your", "you're", "you'll"})
}

// imperatives open an instruction to a guide's reader.
var imperatives = []string{"use", "run", "set", "install", "add", "call", "pass", "avoid", "prefer", "configure",
	"enable", "disable", "make", "do not", "don't", "never", "always", "remember", "note", "see", "try", "keep", "choose", "pick"}

// oldKeys hold the text an edit tool replaces.
var oldKeys = []string{"old_string", "old_str", "old_text", "search", "find", "original"}

// newLines returns the lines of an edit's new text that its old text does
// not hold: a comment the edit only carries along as context was not
// written now.
func newLines(text string, in map[string]any) string {
	old := ""
	for _, k := range oldKeys {
		if v, ok := in[k].(string); ok && v != "" {
			old = v
			break
		}
	}
	if old == "" {
		return text
	}
	had := map[string]bool{}
	for _, l := range strings.Split(old, "\n") {
		had[strings.TrimSpace(l)] = true
	}
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if !had[strings.TrimSpace(l)] {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// recordFile reports whether a path names a file in prose that records how
// the work is done rather than documents the code for its users: the
// instructions agents read at the start of a session (AGENTS.md,
// CLAUDE.md, .cursorrules, copilot-instructions.md), a changelog or one of
// its fragments (CHANGELOG.md, changes/1234.fixed.md, .changeset/x.md),
// and the records proseDoc names. A README or a guide is not one: "use X
// rather than Y" there tells a reader how to use the code.
func recordFile(p string) bool {
	low := strings.ToLower(p)
	base := low[strings.LastIndexByte(low, '/')+1:]
	name := strings.TrimSuffix(base, extOf(base))
	switch name {
	case "agents", "agent", "claude", "gemini", "copilot-instructions", "conventions", ".cursorrules",
		".windsurfrules", ".clinerules", "changelog", "changes", "history", "news", "releasenotes", "release-notes":
		return true
	}
	if strings.Contains(low, ".changeset/") || strings.Contains(low, "changelog.d/") || strings.Contains(low, "/changes/") ||
		strings.Contains(low, "/newsfragments/") || strings.Contains(low, ".cursor/rules/") || strings.Contains(low, ".clinerules/") {
		return true
	}
	return proseDoc(p)
}

// extOf returns the extension of a file's base name with its dot, or "".
func extOf(base string) string {
	if k := strings.LastIndexByte(base, '.'); k > 0 {
		return base[k:]
	}
	return ""
}

// commentSyntax is how a language writes comments: the markers of a line
// comment and, when it has them, of a block comment.
type commentSyntax struct {
	line        []string
	open, close string
}

var (
	cComments    = &commentSyntax{line: []string{"//"}, open: "/*", close: "*/"}
	hashComments = &commentSyntax{line: []string{"#"}}
	dashComments = &commentSyntax{line: []string{"--"}, open: "/*", close: "*/"}
	semiComments = &commentSyntax{line: []string{";"}}
	markup       = &commentSyntax{open: "<!--", close: "-->"}
	// OCaml's (* … *); Erlang's and TeX's %
	mlComments      = &commentSyntax{open: "(*", close: "*)"}
	percentComments = &commentSyntax{line: []string{"%"}}
)

// commentExts maps a source file's extension to its comment syntax.
var commentExts = map[string]*commentSyntax{
	".go": cComments, ".js": cComments, ".mjs": cComments, ".cjs": cComments, ".ts": cComments,
	".tsx": cComments, ".jsx": cComments, ".java": cComments, ".kt": cComments, ".kts": cComments,
	".scala": cComments, ".swift": cComments, ".rs": cComments, ".c": cComments, ".h": cComments,
	".cc": cComments, ".cpp": cComments, ".hpp": cComments, ".cs": cComments, ".dart": cComments,
	".php": cComments, ".zig": cComments, ".proto": cComments, ".groovy": cComments, ".gradle": cComments,
	".css": cComments, ".scss": cComments, ".less": cComments, ".sol": cComments, ".fs": cComments,
	".py": hashComments, ".rb": hashComments, ".sh": hashComments, ".bash": hashComments, ".zsh": hashComments,
	".yml": hashComments, ".yaml": hashComments, ".toml": hashComments, ".tf": hashComments,
	".hcl": hashComments, ".r": hashComments, ".pl": hashComments, ".ex": hashComments,
	".exs": hashComments, ".nix": hashComments, ".cfg": hashComments, ".conf": hashComments,
	".ini": hashComments, ".ps1": hashComments, ".jl": hashComments, ".mk": hashComments,
	".cmake": hashComments, ".dockerfile": hashComments, ".env": hashComments,
	".sql": dashComments, ".lua": dashComments, ".hs": dashComments, ".elm": dashComments,
	".clj": semiComments, ".el": semiComments, ".lisp": semiComments,
	".html": markup, ".xml": markup, ".vue": markup, ".svelte": markup,
	".m": cComments, ".mm": cComments, ".prisma": cComments, ".bzl": hashComments, ".graphql": hashComments,
	".gql": hashComments, ".ml": mlComments, ".mli": mlComments, ".erl": percentComments, ".hrl": percentComments,
	".tex": percentComments,
}

// commentSyntaxOf returns the comment syntax of the source file at path, or
// nil when it is not a source file this package knows.
func commentSyntaxOf(path string) *commentSyntax {
	low := strings.ToLower(path)
	base := low[strings.LastIndexAny(low, `/\`)+1:]
	switch {
	case base == "makefile" || base == "gnumakefile" || strings.HasPrefix(base, "dockerfile") ||
		base == "gemfile" || base == "rakefile" || base == "procfile" || base == "justfile" || base == "cmakelists.txt" ||
		base == "brewfile" || base == "vagrantfile" || base == "podfile" || base == "tiltfile" || base == "build" || base == "workspace":
		return hashComments
	case base == "jenkinsfile" || strings.HasSuffix(base, ".jenkinsfile"):
		return cComments
	}
	return commentExts[extOf(base)]
}

// commentProse returns the comments of source text as prose: the lines of
// one comment block joined into a paragraph, one paragraph per line of the
// result, and a trailing comment after code as a paragraph of its own when
// it says something (four words or more). Tool directives (//go:build,
// # noqa, eslint-disable) are left out.
func commentProse(c *commentSyntax, text string) string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.Join(para, " "))
			para = para[:0]
		}
	}
	inBlock := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if inBlock {
			body, closed := strings.CutSuffix(t, c.close)
			if k := strings.Index(t, c.close); k >= 0 && !closed {
				body, closed = t[:k], true
			}
			body = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(body), "*"))
			if body == "" {
				flush()
			} else {
				para = append(para, body)
			}
			if closed {
				inBlock = false
				flush()
			}
			continue
		}
		if c.open != "" && strings.HasPrefix(t, c.open) {
			body := strings.TrimPrefix(t, c.open)
			body = strings.TrimLeft(body, "*!")
			if k := strings.Index(body, c.close); k >= 0 {
				para = append(para, strings.TrimSpace(body[:k]))
				flush()
				continue
			}
			flush()
			inBlock = true
			if body = strings.TrimSpace(body); body != "" {
				para = append(para, body)
			}
			continue
		}
		marker := ""
		for _, m := range c.line {
			if strings.HasPrefix(t, m) {
				marker = m
				break
			}
		}
		if marker != "" {
			body := strings.TrimLeft(t[len(marker):], marker[:1]+"!/ ")
			if body == "" || directive(body) || banner(body) {
				flush()
				continue
			}
			para = append(para, body)
			continue
		}
		flush()
		// a trailing comment: "retries := 3 // three, not five: the proxy times out at 10s"
		for _, m := range c.line {
			k := strings.Index(t, " "+m+" ")
			if k < 0 || strings.Count(t[:k], `"`)%2 == 1 || strings.Count(t[:k], "'")%2 == 1 {
				continue
			}
			if body := strings.TrimSpace(t[k+len(m)+2:]); len(strings.Fields(body)) >= 4 && !directive(body) {
				out = append(out, body)
			}
			break
		}
	}
	flush()
	return strings.Join(out, "\n")
}

// banner reports whether a comment's body is a section's banner rather
// than words: "---- runtime ----", "=== helpers ===", "#####".
func banner(body string) bool {
	b := strings.TrimSpace(body)
	if len(b) < 3 {
		return false
	}
	rule := func(c byte) bool {
		return c == '-' || c == '=' || c == '#' || c == '*' || c == '~' || c == '_' || c == '+'
	}
	return rule(b[0]) && rule(b[1]) && rule(b[len(b)-1]) && rule(b[len(b)-2])
}

// directive reports whether a comment's text steers a tool rather than
// speaks to a reader.
func directive(body string) bool {
	low := strings.ToLower(body)
	for _, d := range []string{"go:", "+build", "nolint", "eslint", "@ts-", "noqa", "type:", "pylint:", "prettier-ignore",
		"istanbul", "c8 ", "rubocop:", "fmt:", "isort:", "mypy:", "pyright:", "clippy::", "#[", "region", "endregion",
		"spdx-", "copyright", "-*-", "vim:", "shellcheck", "!/", "syntax=", "nosec", "lint:"} {
		if strings.HasPrefix(low, d) {
			return true
		}
	}
	return false
}

// patchProse reads the prose a patch adds: the added lines of a decision
// record or a note in full, the comments of added code and the added
// lines of an instruction file or a changelog for their decisions.
func (s *scanner) patchProse(patch string) {
	patchSections(patch, func(path, added string) {
		if proseDoc(path) {
			s.assistantProse(Redact(added))
			return
		}
		s.authoredDecisions(Redact(writtenProse(path, added)))
	})
}

// commandProse returns the prose a shell command carries that authoredText
// does not read: the comments or the text of a heredoc written into a
// source, instruction or changelog file ("cat >> AGENTS.md <<'EOF'"), a
// heredoc fed to a command that writes nowhere (a note, a payload), and
// quoted arguments that read as sentences ("git notes add -m '…'", "echo
// '…' >> CHANGELOG.md", a chat webhook's JSON "text").
func commandProse(cmd string) []string {
	if !strings.ContainsAny(cmd, `'"`) && !strings.Contains(cmd, "<<") {
		return nil // a sentence passed to a command is quoted
	}
	var out []string
	lines := strings.Split(cmd, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		rest, delim, _, ok := cutHeredoc(line)
		if ok {
			var text string
			text, i = heredocBody(lines, i, delim)
			switch target := redirectTarget(rest); {
			case target != "" && proseDoc(target):
				// read in full by authoredText
			case target != "":
				if p := writtenProse(target, text); p != "" {
					out = append(out, p)
				}
			case strings.Contains(text, "*** Begin Patch") || strings.Contains(text, "\n+++ "):
				patchSections(text, func(path, added string) {
					if proseDoc(path) {
						out = append(out, added) // read for decisions only here
					} else if p := writtenProse(path, added); p != "" {
						out = append(out, p)
					}
				})
			default:
				out = append(out, payloadProse(text)...)
			}
			line = rest
		}
		out = append(out, saidArgs(line)...)
	}
	return out
}

// heredocSteps returns the commands a heredoc writes into a file that runs
// them (cat > justfile <<'EOF', a CI pipeline's YAML, a script): what
// will run there, as when a file tool writes it (see stepsIn).
func heredocSteps(cmd string) []string {
	if !strings.Contains(cmd, "<<") {
		return nil
	}
	var out []string
	lines := strings.Split(cmd, "\n")
	for i := 0; i < len(lines); i++ {
		rest, delim, _, ok := cutHeredoc(lines[i])
		if !ok {
			continue
		}
		var body string
		body, i = heredocBody(lines, i, delim)
		if target := redirectTarget(rest); target != "" {
			out = append(out, stepsIn(target, body)...)
			out = append(out, looseSteps(target, body)...)
		}
	}
	return out
}

// heredocBody returns the body of the heredoc opened on lines[i] and
// closed by delim, and the index of its closing line (len(lines) when it is
// not closed).
func heredocBody(lines []string, i int, delim string) (string, int) {
	var body []string
	for i++; i < len(lines) && strings.TrimSpace(lines[i]) != delim; i++ {
		body = append(body, lines[i])
	}
	return strings.Join(body, "\n"), i
}

// saidArgs returns the prose of a command line's arguments that are said
// to someone: the value of a message flag (-m, --message, --body, --note,
// --data with a JSON payload's strings), and what echo or printf appends
// to an instruction file or a changelog. A search pattern, a title or code
// echoed into a source file is not said.
func saidArgs(line string) []string {
	toks := shellTokens(line)
	var out []string
	if len(toks) > 0 && (toks[0] == "echo" || toks[0] == "printf") {
		if t := redirectIn(toks); t != "" && recordFile(t) {
			var words []string
			for _, a := range toks[1:] {
				if a == ">" || a == ">>" || a == "|" {
					break
				}
				if !strings.HasPrefix(a, "-") || strings.Contains(a, " ") {
					words = append(words, a) // not echo's -n or -e
				}
			}
			out = append(out, payloadProse(strings.TrimLeft(strings.Join(words, " "), "-* "))...)
		}
		return out
	}
	for i, a := range toks {
		name, val, eq := strings.Cut(a, "=")
		if !strings.HasPrefix(name, "-") || !saidFlag(name) {
			continue
		}
		if !eq {
			if i+1 >= len(toks) {
				continue
			}
			val = toks[i+1]
		}
		out = append(out, payloadProse(val)...)
	}
	return out
}

// saidFlag reports whether a command-line flag takes words said to
// someone: -m, or a long flag named for a message, a body, a note, a
// comment, a description, a reason or a payload.
func saidFlag(f string) bool {
	if f == "-m" || f == "-d" {
		return true
	}
	if !strings.HasPrefix(f, "--") {
		return false
	}
	for _, w := range []string{"message", "body", "note", "comment", "description", "reason", "summary", "text", "data"} {
		if strings.Contains(f, w) {
			return true
		}
	}
	return false
}

// redirectTarget returns the file a command line writes to with >, >> or
// tee, or "".
func redirectTarget(line string) string { return redirectIn(shellTokens(line)) }

// redirectIn is redirectTarget on a command line already split into words.
func redirectIn(toks []string) string {
	for i, t := range toks {
		if (t == ">" || t == ">>") && i+1 < len(toks) {
			return toks[i+1]
		}
		if t == "tee" {
			for _, a := range toks[i+1:] {
				if !strings.HasPrefix(a, "-") {
					return a
				}
			}
		}
	}
	return ""
}

// payloadProse returns the sentences of a command's argument or input: the
// string values of a JSON document (a webhook's "text", an API's "body"),
// or the argument itself; each only when it reads as prose (see
// sentenceLike).
func payloadProse(v string) []string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "{") || strings.HasPrefix(v, "[") {
		var doc any
		if json.Unmarshal([]byte(v), &doc) == nil {
			var out []string
			walkStrings(doc, func(s string) {
				if sentenceLike(s) {
					out = append(out, s)
				}
			})
			return out
		}
	}
	if sentenceLike(v) {
		return []string{v}
	}
	if strings.Contains(v, "\n") {
		// A letter or an issue body fed to a command (sendmail -t <<EOF,
		// gh issue create --body-file - <<EOF): its lines of prose, each
		// read on its own, past the headers and code around them.
		var out []string
		for _, line := range strings.Split(v, "\n") {
			if t := strings.TrimSpace(line); sentenceLike(genericBrackets.Replace(t)) {
				out = append(out, t)
			}
		}
		for _, r := range blockRecords(v) {
			out = append(out, strings.Join(r, "\n")) // a decision as a block, as printed
		}
		return out
	}
	return nil
}

// genericBrackets hides the brackets of a type written in a sentence
// ("a Mutex<Journal> is declined") from sentenceLike, which takes a bare
// '<' for markup or a redirection.
var genericBrackets = strings.NewReplacer("<", "", ">", "")

// walkStrings calls f with every string in a decoded JSON value.
func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, e := range v {
			walkStrings(e, f)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			walkStrings(v[k], f)
		}
	}
}

// sentenceLike reports whether a string reads as words for people rather
// than code, a path or a pattern: six words or more, mostly letters, and
// none of the characters shell and code are made of.
func sentenceLike(s string) bool {
	if len(strings.Fields(s)) < 6 || strings.ContainsAny(s, "{}|$`<>\\") {
		return false
	}
	letters := 0
	for i := 0; i < len(s); i++ {
		if isAlpha(s[i]) || s[i] == ' ' {
			letters++
		}
	}
	return letters*10 >= len(s)*7
}

// fieldKeys are the JSON keys under which a tool's output carries what a
// person wrote: a review's or a comment's body, a ticket's description, a
// chat message's text.
var fieldKeys = []string{"body", "comment", "text", "description", "note", "notes", "summary", "review", "resolution", "raw", "content"}

// personKeys mark a JSON record as something a person wrote on a tracker
// or a review: who wrote it and in what state it is.
var personKeys = []string{`"state"`, `"author"`, `"user"`, `"login"`, `"assignee"`, `"reporter"`, `"status"`, `"submittedAt"`, `"submitted_at"`}

// personRecords reports whether a tool's output holds records a person
// wrote (a review with its "state", an issue with its "author"), so that
// their prose keys are read (see fieldProse); a package.json's
// "description" or a model's "text" block is not such a record.
func personRecords(text string) bool {
	if strings.IndexByte(text, '"') < 0 {
		return false
	}
	for _, k := range personKeys {
		if strings.Contains(text, k) {
			return true
		}
	}
	return false
}

// fieldProse returns the sentences held by the prose keys of a JSON line of
// tool output (gh's {"body":"…","state":"APPROVED"}, a ticket's
// "description": "…"): a reviewer's "Switching the worker to an advisory
// lock, because Redis locks expire mid-run." is a decision the work now
// follows, said where no reply of the agent repeats it.
func fieldProse(t string) []string {
	if strings.IndexByte(t, '"') < 0 {
		return nil
	}
	var out []string
	for _, k := range fieldKeys {
		for from := 0; ; {
			i := strings.Index(t[from:], `"`+k+`"`)
			if i < 0 {
				break
			}
			j := from + i + len(k) + 2
			from = j
			for j < len(t) && t[j] == ' ' {
				j++
			}
			if j >= len(t) || t[j] != ':' {
				continue
			}
			j++
			for j < len(t) && t[j] == ' ' {
				j++
			}
			if j >= len(t) || t[j] != '"' {
				continue
			}
			e := j + 1
			for e < len(t) && t[e] != '"' {
				if t[e] == '\\' {
					e++
				}
				e++
			}
			if e >= len(t) {
				break
			}
			var v string
			if k == "text" && strings.Contains(t, `"type"`) {
				from = e + 1
				continue // a model's content block, not a person's comment
			}
			if json.Unmarshal([]byte(t[j:e+1]), &v) == nil && len(strings.Fields(v)) >= 6 {
				out = append(out, v)
			}
			from = e + 1
		}
	}
	return out
}
