package ledger

import (
	"maps"
	"slices"
	"strings"
)

// This file reads what a file tool writes whatever the tool's shape, and
// the command lines a written file holds outside the places its format
// runs (see stepsIn): a command a comment tells the reader to run, a
// crontab's entry, a TOML alias, a runbook's indented line.

// writtenInput returns a file tool's input with the text it writes under
// the keys the readers know (docKeys, oldKeys), whatever its shape: the
// edits of a multi-edit tool ({"edits": [{"old_string", "new_string"}]}),
// an editor's sketch of its change ({"code_edit": "// ... existing code
// ...\n…"}) or a diff of SEARCH/REPLACE blocks ({"diff": "<<<<<<< SEARCH
// …"}). An input of another shape is returned as is.
func writtenInput(in map[string]any) map[string]any {
	if in == nil || hasDocKey(in) {
		return in
	}
	var news, olds []string
	spelled := false
	for k := range in {
		if n := normKey(k); newKeys[n] || oldNormKeys[n] {
			spelled = true
			break
		}
	}
	var keys []string
	if spelled {
		keys = sortedKeys(in)
	}
	for _, k := range keys {
		// another harness's spelling of the keys: "newString",
		// "CodeContent", "oldString"
		v, ok := in[k].(string)
		switch n := normKey(k); {
		case !ok:
		case newKeys[n]:
			news = append(news, v)
		case slices.Contains(oldKeys, k) || oldNormKeys[n]:
			olds = append(olds, v)
		}
	}
	if edits, ok := in["edits"].([]any); ok {
		for _, e := range edits {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			for _, k := range docKeys {
				if v, ok := m[k].(string); ok {
					news = append(news, v)
					break
				}
			}
			for _, k := range oldKeys {
				if v, ok := m[k].(string); ok {
					olds = append(olds, v)
					break
				}
			}
		}
	}
	if v, ok := in["code_edit"].(string); ok {
		var keep []string
		for _, l := range strings.Split(v, "\n") {
			if !strings.Contains(l, "... existing code ...") {
				keep = append(keep, l)
			}
		}
		news = append(news, strings.Join(keep, "\n"))
	}
	if v, ok := in["diff"].(string); ok && strings.Contains(v, "REPLACE") {
		o, n := searchReplace(v)
		news, olds = append(news, n), append(olds, o)
	}
	if len(news) == 0 {
		return in
	}
	out := make(map[string]any, len(in)+2)
	for k, v := range in {
		out[k] = v
	}
	out["new_string"] = strings.Join(news, "\n")
	if len(olds) > 0 {
		out["old_string"] = strings.Join(olds, "\n")
	}
	return out
}

// newKeys are the normalized keys (see normKey) other file tools write
// their text under; oldNormKeys those they name the replaced text under.
var (
	newKeys     = map[string]bool{"newstring": true, "newstr": true, "newtext": true, "codecontent": true, "filetext": true, "filecontent": true, "filecontents": true}
	oldNormKeys = map[string]bool{"oldstring": true, "oldstr": true, "oldtext": true, "targetcontent": true}
)

// sortedKeys returns the keys of m in order, so that what is read from
// them does not vary from run to run.
func sortedKeys(m map[string]any) []string { return slices.Sorted(maps.Keys(m)) }

// hasDocKey reports whether in holds a text under one of docKeys.
func hasDocKey(in map[string]any) bool {
	for _, k := range docKeys {
		if _, ok := in[k].(string); ok {
			return true
		}
	}
	return false
}

// searchReplace returns the searched and the replacing lines of a diff of
// SEARCH/REPLACE blocks ("<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE").
func searchReplace(diff string) (old, new string) {
	var o, n []string
	part := 0 // 0 outside a block, 1 in its search, 2 in its replacement
	for _, l := range strings.Split(diff, "\n") {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "<<<<<<<"):
			part = 1
		case t == "=======" && part == 1:
			part = 2
		case strings.HasPrefix(t, ">>>>>>>"):
			part = 0
		case part == 1:
			o = append(o, l)
		case part == 2:
			n = append(n, l)
		}
	}
	return strings.Join(o, "\n"), strings.Join(n, "\n")
}

// codeExts are the extensions of a program's source, whose lines are
// code: only its comments are read for commands.
var codeExts = []string{".go", ".js", ".mjs", ".cjs", ".ts", ".tsx", ".jsx", ".java", ".kt", ".scala", ".swift",
	".rs", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".dart", ".php", ".zig", ".py", ".rb", ".ex", ".exs", ".lua",
	".hs", ".elm", ".clj", ".r", ".pl", ".jl", ".vue", ".svelte", ".html", ".css", ".scss", ".sql", ".proto"}

// looseSteps returns the command lines of a written file that stepsIn
// does not read: the commands its comments give ("# after touching
// models/ run:\n#   pre-commit run sqlfluff-fix --all-files"), a crontab's
// entries, a TOML or INI value, the indented lines of a text document. A
// line must read as a command on its own (commandLine's bare strength),
// past its comment mark, a prompt, a list mark, a cron schedule, a
// Dockerfile's RUN and its options, or a key.
func looseSteps(path, text string) []string {
	low := strings.ToLower(path)
	src := false
	for _, e := range codeExts {
		if strings.HasSuffix(low, e) {
			src = true
			break
		}
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if len(t) < 6 || strings.HasPrefix(t, "#!") {
			continue
		}
		c, comment := uncommented(t)
		if src && !comment {
			continue
		}
		c = looseCommand(c)
		if c == "" {
			continue
		}
		if commandLine(c, bare) {
			out = append(out, c)
		} else if f := strings.Fields(t); len(f) > 6 && cronEntry(f) {
			// a system crontab's entry names the user before the command
			if c = strings.TrimSpace(c[len(strings.Fields(c)[0]):]); commandLine(c, bare) {
				out = append(out, c)
			}
		}
	}
	return out
}

// uncommented returns line t without its comment mark, and whether it had
// one.
func uncommented(t string) (string, bool) {
	for _, m := range []string{"//", "#", "--", ";", "/*", "*", "REM ", "rem ", "::", "<!--"} {
		if r, ok := strings.CutPrefix(t, m); ok {
			r = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(r), "*/"), "-->")
			return strings.TrimSpace(r), true
		}
	}
	return t, false
}

// looseCommand returns the command a line of a written file would run,
// past its prompt, list mark, cron schedule, Dockerfile RUN and options,
// or key ("release_command = \"bin/rails db:migrate\""), or "".
func looseCommand(t string) string {
	for _, p := range []string{"$ ", "% ", "> ", "PS> ", "- ", "* ", "• "} {
		t = strings.TrimPrefix(t, p)
	}
	f := strings.Fields(t)
	if len(f) >= 6 && cronEntry(f) {
		// a crontab's entry: five fields of schedule, then the command
		return strings.TrimSpace(t[strings.Index(t, f[5]):])
	}
	if len(f) >= 2 && strings.HasPrefix(f[0], "@") && cronMacro(f[0]) {
		return strings.TrimSpace(t[len(f[0]):])
	}
	if r, ok := strings.CutPrefix(t, "RUN "); ok {
		// a Dockerfile's RUN, past its options (--mount=…, --network=…)
		r = strings.TrimSpace(r)
		for strings.HasPrefix(r, "--") {
			k := strings.IndexByte(r, ' ')
			if k < 0 {
				return ""
			}
			r = strings.TrimSpace(r[k:])
		}
		return strings.TrimSuffix(r, "\\")
	}
	if k := strings.Index(t, " = "); k > 0 && !strings.ContainsAny(t[:k], " \"'") {
		// a TOML or INI key and its quoted value
		v := strings.TrimSpace(t[k+3:])
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			return v[1 : len(v)-1]
		}
		return ""
	}
	return t
}

// cronEntry reports whether the fields of a line open with a crontab's
// five fields of schedule ("15 3 * * 1-5").
func cronEntry(f []string) bool {
	return len(f) >= 6 && every(strings.Join(f[:5], ""), func(c byte) bool { return isDigit(c) || strings.IndexByte("*/,-", c) >= 0 })
}

// cronMacro reports whether w is one of cron's schedule macros.
func cronMacro(w string) bool {
	switch w {
	case "@reboot", "@yearly", "@annually", "@monthly", "@weekly", "@daily", "@midnight", "@hourly":
		return true
	}
	return false
}

// printedComments gives the decisions and rules read from the comments of
// written code (the items from first on) their lines as printed, comment
// marks and line breaks kept: the comment's paragraph was read as one
// sentence, but a search for a line of it as the file shows it ("# One
// NAT gateway per AZ (~3x the cost); …") finds it only so.
func (s *scanner) printedComments(raw string, first int) {
	if !slices.ContainsFunc(s.items[first:], func(it Item) bool { return it.Kind == KindDecision || it.Kind == KindConstraint }) {
		return
	}
	lines := strings.Split(raw, "\n")
	for i := first; i < len(s.items); i++ {
		it := &s.items[i]
		if it.Kind != KindDecision && it.Kind != KindConstraint {
			continue
		}
		if v := printedLines(lines, it.Value, s.e.capOf(it.Kind)); v != "" && v != it.Value {
			s.setValue(i, v)
		}
	}
}

// printedLines returns the lines of a source file that print v, a
// sentence read from their comments with the marks taken out and the
// lines joined, as printed (the first without its indentation), or "" when
// they are not found or run over max bytes.
func printedLines(lines []string, v string, max int) string {
	const probe = 16
	head, tail := v, v
	if len(v) > probe {
		head, tail = v[:probe], v[len(v)-probe:]
	}
	for i, l := range lines {
		if !strings.Contains(l, head) {
			continue
		}
		n := 0
		for j := i; j < len(lines) && j < i+maxDecisionLines; j++ {
			n += len(lines[j]) + 1
			if strings.Contains(lines[j], tail) {
				out := make([]string, 0, j-i+1)
				out = append(out, strings.TrimSpace(lines[i]))
				for _, m := range lines[i+1 : j+1] {
					out = append(out, strings.TrimRight(m, " \t\r"))
				}
				if r := strings.Join(out, "\n"); len(r) <= max {
					return r
				}
				return ""
			}
		}
		return ""
	}
	return ""
}

// pastedFailure returns the output a person pasted into a message to show
// a failure: the lines between the prose that opens the message ("The
// rspec job fails before a single test runs. Copied from the job page:")
// and the prose that closes it, when there are four lines or more of them,
// most not prose, and the message speaks of a failure. Else "".
func pastedFailure(text string) string {
	if len(text) < 200 || !failureWords(text) {
		return ""
	}
	lines := strings.Split(text, "\n")
	i, j := 0, len(lines)
	for i < j && (strings.TrimSpace(lines[i]) == "" || proseLine(lines[i])) {
		i++
	}
	for j > i && (strings.TrimSpace(lines[j-1]) == "" || proseLine(lines[j-1])) {
		j--
	}
	n, prose := 0, 0
	for _, l := range lines[i:j] {
		if strings.TrimSpace(l) == "" {
			continue
		}
		n++
		if proseLine(l) {
			prose++
		}
	}
	if n < 4 || 2*prose > n {
		return ""
	}
	return strings.Join(lines[i:j], "\n")
}

// proseLine reports whether a line of a message is a sentence a person
// wrote, not a line of output: four words or more, mostly letters, opening
// with a letter and ending a sentence, no log stamp.
func proseLine(l string) bool {
	t := strings.TrimSpace(l)
	if len(strings.Fields(t)) < 4 || !isAlpha(t[0]) || strings.IndexByte(".!?:", t[len(t)-1]) < 0 || logStamped(t) {
		return false
	}
	letters := 0
	for i := 0; i < len(t); i++ {
		if isAlpha(t[i]) || t[i] == ' ' {
			letters++
		}
	}
	return letters*10 >= len(t)*8
}

// failureWords reports whether a message speaks of a failure.
func failureWords(text string) bool {
	low := strings.ToLower(text)
	for _, w := range []string{"error", "exception", "fail", "fatal", "panic", "traceback", "exit code", "denied",
		"refused", "not found", "cannot", "can't", "unable", "crash", "broke", "broken"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// messageLabel reports whether a line is only the label of a failure's
// message, which the next line gives: "Message:", "Error message:",
// "Cause:" (a bare "Error:" heads a block its own readers know).
func messageLabel(prev string) bool {
	l, ok := strings.CutSuffix(strings.TrimSpace(prev), ":")
	if !ok || len(l) > 24 {
		return false
	}
	low, _ := lower(strings.Trim(l, "*_ "))
	switch low {
	case "message", "error message", "exception message", "cause", "root cause", "error details":
		return true
	}
	return false
}

// maxParagraph is the longest paragraph of a written comment or note a
// decision read from it is widened to (see wholeParagraphs).
const maxParagraph = 300

// wholeParagraphs widens each decision read from prose (the items from
// first on), a written file's comments or notes with one paragraph a line,
// to its paragraph when that is short: a comment's choice and its reason
// are often two sentences ("Monthly partitions on created_at. Daily ones
// pushed pg_class past 30k rows."), and the first alone says less.
func (s *scanner) wholeParagraphs(prose string, first int) {
	if first >= len(s.items) {
		return
	}
	for line := range strings.SplitSeq(prose, "\n") {
		p := strings.TrimSpace(line)
		if len(p) > maxParagraph || len(sentences(p)) > 3 {
			continue
		}
		for i := first; i < len(s.items); i++ {
			it := &s.items[i]
			if it.Kind != KindDecision || it.Value == p || strings.IndexByte(it.Value, '\n') >= 0 || !strings.Contains(p, it.Value) {
				continue
			}
			if clean(p, len(p)+1) == p {
				s.setValue(i, p)
			}
			break
		}
	}
}
