package ledger

import (
	"strings"
	"unicode"
)

// This file finds commands written inline: in backticks in what the user
// or the assistant wrote ("Run `pytest -x tests/api` when it's fixed",
// "I reproduced it with `python manage.py void --tenant 4801`"), and the
// lines a shell traced with set -x ("+ go test ./store/...").

// runners are the first words of a command worth recording when it is
// quoted in prose. A backticked span starting with anything else is a
// name, a value or code, not a command.
var runners = map[string]bool{
	"python": true, "python3": true, "pytest": true, "pip": true, "uv": true, "poetry": true, "tox": true,
	"go": true, "gofmt": true, "golangci-lint": true, "npm": true, "npx": true, "yarn": true, "pnpm": true,
	"node": true, "deno": true, "bun": true, "tsc": true, "jest": true, "vitest": true, "eslint": true,
	"cargo": true, "rustc": true, "make": true, "cmake": true, "mvn": true, "gradle": true, "./gradlew": true, "gradlew": true, "./mvnw": true, "mvnw": true,
	"java": true, "dotnet": true, "bash": true, "sh": true, "zsh": true, "kubectl": true, "helm": true,
	"docker": true, "podman": true, "terraform": true, "psql": true, "mysql": true, "sqlite3": true,
	"redis-cli": true, "git": true, "gh": true, "curl": true, "wget": true, "ruff": true, "mypy": true,
	"black": true, "rake": true, "bundle": true, "rails": true, "php": true, "composer": true,
	"swift": true, "xcodebuild": true, "mix": true, "elixir": true, "ruby": true, "perl": true,
	"systemctl": true, "journalctl": true, "ssh": true, "scp": true, "rsync": true, "aws": true, "gcloud": true,
}

// inlineCommand reports whether span, in a place where a command may
// stand (backticks, a set -x trace, after "Run"), reads as a command line
// (see commandLine).
func inlineCommand(span string) bool { return commandLine(span, inContext) }

// runnerCommand reports whether a tool input's value reads as a command
// line by its first word alone: a known runner or a path to a script,
// and at least one argument. A value of any key is tried, so this is
// stricter than inlineCommand: a list of files or a patch is no command.
func runnerCommand(v string) bool {
	f := strings.Fields(v)
	if len(f) < 2 {
		return false
	}
	w := f[0]
	for len(f) > 1 && strings.Contains(w, "=") && !strings.HasPrefix(w, "-") {
		f = f[1:] // FOO=1 go test
		w = f[0]
	}
	if w == "sudo" && len(f) > 1 {
		w = f[1]
	}
	return commandStart(w)
}

// commandStart reports whether a command line's first word (past its
// assignments and sudo) is one worth recording: a known runner or a path
// to a script.
func commandStart(w string) bool {
	return runners[w] || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "bin/") || strings.HasSuffix(w, ".sh")
}

// inlineCommands adds the commands quoted in backticks in a line of prose.
func (s *scanner) inlineCommands(t string) {
	for {
		a := strings.IndexByte(t, '`')
		if a < 0 {
			return
		}
		if strings.HasPrefix(t[a:], "```") {
			return // a fence; its body is code
		}
		b := strings.IndexByte(t[a+1:], '`')
		if b < 0 {
			return
		}
		span := strings.TrimSpace(t[a+1 : a+1+b])
		if len(span) > 1 && span[0] == '!' && isLower(span[1]) {
			span = span[1:] // a notebook's shell escape: `!pip install …`
		}
		if inlineCommand(span) {
			s.add(KindCommand, span)
		} else if c, ok := columnCommand(span); ok && inlineCommand(c) {
			s.add(KindCommand, c) // a crontab line: `0 3 * * * cd /srv/etl && …`
		}
		t = t[a+b+2:]
	}
}

// commandLeads end the words that introduce a command written out after
// a colon: "Reproduce with: pnpm --filter web test", "To rerun: go test
// ./store -run TestReap", "I run it like this: RUST_LOG=debug cargo run".
var commandLeads = []string{"run", "rerun", "re-run", "reproduce", "repro", "with", "like this", "command",
	"try", "fix", "use", "execute", "invoke", "via", "using", "this"}

// commandVerbs introduce a command written out in a sentence: "Only ever
// run terraform plan -target=module.vpc, nothing broader", "I'll squash
// them with git rebase -i HEAD~3 before pushing".
var commandVerbs = []string{"run ", "ran ", "running ", "rerun ", "with ", "via ", "using ", "execute ", "try "}

// commandEnds end a command written out in a sentence.
var commandEnds = []string{", ", "; ", " and ", " before ", " after ", " to ", " then ", " so ", " once ", " when ", " until ", " — ", " - ",
	" for now", " for this ", " for the ", " instead", " if ", " because ", " since ", " while ", " unless "}

// outputLeads introduce a command after a colon in a tool's output: "To
// rerun: go test ./store -run TestReap", "To fix: npm run lint -- --fix".
var outputLeads = []string{"run", "rerun", "re-run", "reproduce", "fix", "try", "command", "command failed",
	"update", "install", "upgrade", "resolve", "with", "use", "using"}

// writtenCommands adds the commands written out in a line of prose without
// backticks: after a colon that a lead word introduces, the rest of the
// line; after a verb such as run or with, the words from a known runner to
// the end of the clause. Either must read as a command (inlineCommand).
func (s *scanner) writtenCommands(t string) {
	if c, ok := colonCommand(t, commandLeads); ok {
		s.add(KindCommand, c)
		return
	}
	if c, ok := colonCommand(t, nil); ok {
		s.add(KindCommand, c)
		return
	}
	low := strings.ToLower(t)
	for _, v := range commandVerbs {
		for off := 0; ; {
			k := strings.Index(low[off:], v)
			if k < 0 {
				break
			}
			k += off
			off = k + len(v)
			if k > 0 && isAlpha(low[k-1]) {
				continue
			}
			rest := t[k+len(v):]
			end := len(rest)
			for _, e := range commandEnds {
				if i := strings.Index(rest, e); i >= 0 && i < end {
					end = i
				}
			}
			c := strings.TrimRight(strings.TrimSpace(rest[:end]), ".!?)")
			if f := strings.Fields(c); len(f) >= 2 && inlineCommand(c) && (proseArgument(c) || cmdPrefixes[f[0]]) {
				s.add(KindCommand, c)
				return
			}
		}
	}
}

// proseArgument reports whether a command written out in prose has an
// argument only a command line has: a flag, a path or an assignment. "go
// test ./..." and "make migrate-up ENV=staging" do; "make the parser
// lenient", "go modules instead" and "python 3.12 features" are English.
func proseArgument(c string) bool {
	for _, w := range strings.Fields(c)[1:] {
		if strings.HasPrefix(w, "-") || strings.ContainsAny(w, "/=~") {
			return true
		}
	}
	return false
}

// colonCommand returns the rest of line t after a colon that one of leads
// introduces ("Reproduce with: …"), when it reads as a command. With no
// leads, any words may introduce it, and it must read as a command line
// with flags on a line of its own.
func colonCommand(t string, leads []string) (string, bool) {
	for off := 0; off < len(t); {
		k := strings.Index(t[off:], ": ")
		if k < 0 {
			break
		}
		k += off
		off = k + 2
		rest := t[k+2:]
		if len(rest) > maxInlineCommand {
			rest = rest[:maxInlineCommand] // a long line of "key: value" pairs is no command
		}
		rest = strings.TrimRight(strings.TrimSpace(nextSentence(rest)), ".")
		if !inlineCommand(rest) || !proseArgument(rest) {
			// the command may end its clause: "to reproduce: go test
			// -run X ./pkg — it fails 1 in 10"
			end := len(rest)
			for _, e := range commandEnds {
				if i := strings.Index(rest, e); i >= 0 && i < end {
					end = i
				}
			}
			rest = strings.TrimRight(rest[:end], ".")
			if rest == "" || !inlineCommand(rest) || !proseArgument(rest) {
				continue
			}
		}
		lead := strings.TrimRight(t[:k], " ")
		if leads == nil && commandLine(rest, bare) && flagsOf(cmdTokens(rest)) > 0 {
			return rest, true // any lead, but a command line with flags: "Downloading it: wget -q -O …"
		}
		for _, l := range leads {
			if n := len(lead) - len(l); n >= 0 && strings.EqualFold(lead[n:], l) && (n == 0 || !isAlpha(lead[n-1])) {
				return rest, true
			}
		}
	}
	return "", false
}

// maxInlineCommand is the longest span after a colon read as a command.
const maxInlineCommand = 512

// nextSentence returns t up to where a sentence typed after a command
// with no full stop starts: a capitalised word followed by another word
// ("… --count=1 Hold on, before you go further.", "… @10.0.142.2
// Reference e608… when you write"). A command's own arguments are rarely
// a bare capitalised word; a quoted one is skipped.
func nextSentence(t string) string {
	quote := byte(0)
	for i := 0; i+3 < len(t); i++ {
		c := t[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
			continue
		case c == '\'' || c == '"':
			quote = c
			continue
		}
		if i == 0 || t[i-1] != ' ' || !isUpper(c) || !isLower(t[i+1]) {
			continue
		}
		j := i + 1
		for j < len(t) && isLower(t[j]) {
			j++
		}
		if j < len(t) && t[j] == ',' {
			j++
		}
		if j+1 < len(t) && t[j] == ' ' && isAlpha(t[j+1]) && !proseArgument("x "+t[i:]) {
			// what follows has no flag, path or assignment: words, not
			// arguments ("rg -n Deprecated src/" keeps its pattern)
			return strings.TrimRight(t[:i], " ")
		}
	}
	return t
}

// tracedCommand adds the command of a line traced by set -x ("+ cmd", or
// "++ cmd" in a subshell) when it is a command worth recording, not an
// assignment or a test.
func (s *scanner) tracedCommand(t string) {
	c := strings.TrimLeft(t, "+")
	if len(c) == len(t) || len(c) < 2 || c[0] != ' ' {
		return
	}
	c = strings.TrimSpace(c)
	if inlineCommand(c) || ranLine(c) {
		s.add(KindCommand, c)
	}
}

// ranLine reports whether c, a line a shell says it ran (traced by set -x,
// or the line under a step's "#!/bin/bash" in a CI log), is a command
// worth recording whatever its program: a program's name and an argument
// or more, not a builtin that only sets or prints.
func ranLine(c string) bool {
	f := strings.Fields(c)
	if len(f) < 2 || f[1] == "=" || strings.HasSuffix(c, "{") || strings.HasSuffix(c, "[") || strings.HasSuffix(c, "(") {
		return false // a plan's or a diff's "+ bucket = …", "+ resource … {"
	}
	w := f[0]
	switch w {
	case "echo", "printf", "set", "export", "local", "declare", "test", "[", "[[", "true", "false", "cd", "shift",
		"return", "exit", "source", ".", "eval", "read", "unset", "trap", "wait", "sleep", "mkdir", "rm", "cp", "mv",
		"cat", "ls", "chmod", "chown", "touch", "for", "while", "if", "case", "do", "done", "then", "fi", "else":
		return false
	}
	if strings.Contains(w, "=") || !isLower(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isLower(w[i]) && !isDigit(w[i]) && !strings.ContainsRune("-_./", rune(w[i])) {
			return false
		}
	}
	return true
}

// ciCommand returns the command a CI or build log line says it runs, each
// after an optional timestamp:
//
//   - GitHub Actions' "##[group]Run go test ./..." and "[command]/usr/bin/git
//     fetch …", Azure Pipelines' "##[command]…", act's "⭐ Run Main …";
//   - tox's "py312: commands[0]> pytest -x" (tox 3: "commands[0] | …"), nox's
//     "nox > pytest -x", Task's "task: [test] go test ./...";
//   - npm, yarn and pnpm scripts' "> jest --ci" under "> pkg@1.0.0 test";
//   - a Dockerfile step: "Step 5/9 : RUN go build ./...", BuildKit's
//     "#8 [build 4/6] RUN go mod download";
//   - "Run …", "Running: …" or "Executing: …" before a command line.
//
// Where the form alone does not say the rest is a command, it must read as
// one (a known runner, a script or a ./ path).
func ciCommand(t string) (string, bool) {
	if i := strings.LastIndexByte(t, '\t'); i >= 0 && strings.Count(t[:i], "\t") <= 2 {
		// gh run view --log: "JOB\tSTEP\t2026-04-19T13:27:31.4260000Z ##[group]Run …";
		// other tools put a job or step name before a tab too.
		if c, ok := ciCommand(strings.TrimSpace(t[i+1:])); ok {
			return c, true
		}
	}
	if sp := strings.IndexByte(t, ' '); sp > 0 && isDigit(t[0]) && strings.HasSuffix(t[:sp], "Z") && strings.Contains(t[:sp], "T") {
		t = strings.TrimSpace(t[sp+1:]) // "2026-04-19T13:27:31.4260000Z ##[group]Run …"
	}
	if c, ok := strings.CutPrefix(t, "##[group]Run "); ok {
		c = strings.TrimSpace(c)
		return c, c != ""
	}
	if i := strings.Index(t, "⭐ Run Main "); i >= 0 && (i == 0 || t[0] == '[') {
		c := strings.TrimSpace(t[i+len("⭐ Run Main "):]) // act: "[CI/test]   ⭐ Run Main make lint"
		return c, c != ""
	}
	for _, lead := range []string{"[command]", "##[command]"} {
		if c, ok := strings.CutPrefix(t, lead); ok {
			c = strings.TrimSpace(c)
			return c, strings.HasPrefix(c, "/") && strings.Contains(c, " ") || inlineCommand(c)
		}
	}
	if i := strings.Index(t, "commands["); i >= 0 {
		for _, sep := range []string{"]> ", "] | "} {
			if j := strings.Index(t[i:], sep); j > 0 {
				c := strings.TrimSpace(t[i+j+len(sep):])
				return c, c != ""
			}
		}
	}
	if c, ok := strings.CutPrefix(t, "task: ["); ok {
		if j := strings.Index(c, "] "); j > 0 {
			c = strings.TrimSpace(c[j+2:])
			return c, inlineCommand(c)
		}
	}
	if i := strings.Index(t, " RUN "); i > 0 && dockerStep(t[:i]) {
		c := strings.TrimSpace(t[i+5:])
		return c, inlineCommand(c)
	}
	if c, ok := zshHistory(t); ok {
		return c, inlineCommand(c) // zsh's extended history: ": 1729002466:0;terraform import …"
	}
	if k := strings.Index(t, `"name":`); k >= 0 {
		// a workflow step's name as GitHub's API gives it, "Run " and
		// its command: {"conclusion":"failure","name":"Run cargo test --workspace",…}
		v := strings.TrimLeft(t[k+len(`"name":`):], " ")
		if c, ok := strings.CutPrefix(v, `"Run `); ok {
			if e := strings.IndexByte(c, '"'); e > 0 && inlineCommand(c[:e]) {
				return c[:e], true
			}
		}
	}
	for _, lead := range []string{"Run ", "Running: ", "Running command: ", "Executing: ", "Executing command: ", "nox > ", "> "} {
		if c, ok := strings.CutPrefix(t, lead); ok {
			c = strings.TrimSpace(c)
			return c, inlineCommand(c)
		}
	}
	return echoedCommand(t)
}

// zshHistory returns the command of a line of zsh's extended history,
// ": <start>:<elapsed>;<command>".
func zshHistory(t string) (string, bool) {
	r, ok := strings.CutPrefix(t, ": ")
	if !ok {
		return "", false
	}
	k := strings.IndexByte(r, ';')
	if k < 3 || strings.Trim(r[:k], "0123456789:") != "" || strings.Count(r[:k], ":") != 1 {
		return "", false
	}
	c := strings.TrimSpace(r[k+1:])
	return c, c != ""
}

// echoedCommand returns the command of a log line that echoes one after
// decorations only: timestamps, markers and labels such as "[12:01:07]",
// "==>", "▶", "[ci]", "build:", "step|" — up to six of them, at least one —
// then a known runner with an argument that looks like one (a flag, a path,
// a dotted name): "[12:01:07] ==> pytest -x tests/api". A line whose first
// words are prose ("INFO go test passed") is not one.
func echoedCommand(t string) (string, bool) {
	decorations := 0
	for i := 0; i < len(t) && decorations <= 6; {
		var j int
		i, j = nextField(t, i)
		if i == j {
			break
		}
		w := t[i:j]
		if decoration(w) || len(w) <= 24 && symbolNext(t[j:]) {
			// A decoration, or a label before a separator ("build | …").
			decorations++
			i = j
			continue
		}
		c := t[i:]
		if decorations == 0 || !commandLine(c, bare) || !hasArgument(c) || strings.HasSuffix(c, "then") || strings.HasSuffix(c, "do") {
			return "", false // none, or a script's "if ! cmd; then"
		}
		return c, true
	}
	return "", false
}

// decoration reports whether a word of a log line only decorates it: it
// holds no letter ("12:01:07", "==>", "▶", "#12"), is bracketed ("[ci]",
// "(venv)"), or is a short label ending in ':', '>', ']' or '|'.
func decoration(w string) bool {
	letters := false
	for k := 0; k < len(w); k++ {
		if isAlpha(w[k]) {
			letters = true
			break
		}
	}
	switch {
	case !letters:
		return true
	case w[0] == '[' && w[len(w)-1] == ']', w[0] == '(' && w[len(w)-1] == ')':
		return true
	}
	last := w[len(w)-1]
	return len(w) <= 24 && len(w) > 1 && (last == ':' || last == '>' || last == ']' || last == '|')
}

// symbolNext reports whether the next word of rest is only symbols ("|",
// "=>", "▶"): a separator after a label.
func symbolNext(rest string) bool {
	w := strings.TrimLeft(rest, " \t")
	if e := strings.IndexAny(w, " \t"); e >= 0 {
		w = w[:e]
	}
	if w == "" {
		return false
	}
	for _, r := range w {
		if r < 0x80 && (isAlnum(byte(r)) || r == '_') || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// hasArgument reports whether a command line has an argument that reads as
// one: a flag, a path or a dotted or colon-joined name.
func hasArgument(c string) bool {
	f := strings.Fields(c)
	for _, a := range f[1:] {
		if strings.HasPrefix(a, "-") || strings.ContainsAny(a, "/.:=") {
			return true
		}
	}
	return false
}

// dockerStep reports whether p starts a Dockerfile step line before its
// instruction: "Step 5/9 :" (the classic builder) or "#8 [build 4/6]"
// (BuildKit).
func dockerStep(p string) bool {
	if rest, ok := strings.CutPrefix(p, "Step "); ok {
		return strings.HasSuffix(rest, " :") && strings.IndexByte(rest, '/') > 0
	}
	if rest, ok := strings.CutPrefix(p, "#"); ok && rest != "" && isDigit(rest[0]) {
		return strings.HasSuffix(rest, "]") && strings.IndexByte(rest, '[') > 0
	}
	return false
}
