package ledger

import (
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/condense-dev/condense"
)

// This file reads tool calls: commands, exit statuses, file accesses.

var shellNames = map[string]bool{"bash": true, "shell": true, "sh": true, "zsh": true, "exec": true,
	"run": true, "terminal": true, "run_command": true, "execute_bash": true, "execute_command": true,
	"run_shell_command": true, "run_terminal_cmd": true, "shell_command": true, "local_shell": true,
	"cmd": true, "powershell": true, "command": true, "execute": true, "run_in_terminal": true,
	"container.exec": true, "bash_tool": true, "terminal_command": true}

func (e *Extractor) isShell(name string) bool {
	n := strings.ToLower(name)
	if shellNames[n] {
		return true
	}
	for _, s := range e.ShellTools {
		if strings.EqualFold(s, name) {
			return true
		}
	}
	return strings.Contains(n, "bash") || strings.Contains(n, "shell") || strings.Contains(n, "terminal")
}

// pathKeys are the input keys that hold a file path or a list of them, by
// their normalized spelling (normKey): file_path, filePath and FilePath are
// one key.
var pathKeys = map[string]bool{"path": true, "filepath": true, "filename": true, "file": true,
	"target": true, "targetfile": true, "targetpath": true, "dest": true, "destination": true,
	"destpath": true, "notebookpath": true, "relativeworkspacepath": true, "absolutepath": true,
	"source": true, "sourcepath": true, "oldpath": true, "newpath": true, "outputpath": true,
	"outputfile": true, "paths": true, "files": true, "filepaths": true, "filenames": true}

// normKey folds an input key to lower case without '_' and '-'.
func normKey(k string) string {
	if !strings.ContainsAny(k, "_-ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		return k // already in its normal form: no copy
	}
	var b strings.Builder
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' || c == '-':
		case 'A' <= c && c <= 'Z':
			b.WriteByte(c + 'a' - 'A')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

var urlKeys = []string{"url", "uri", "href", "endpoint"}

var commandKeys = []string{"command", "cmd", "script", "commands"}

// call returns the items of a tool call: the command of a shell tool, the
// files a file tool reads or writes, the files of a patch, and addresses.
// open is the file an editor has open, written by an edit command that names
// no file (SWE-agent's edit and insert), or "".
func (e *Extractor) call(p *condense.Part, index int, open string) []Item {
	var in map[string]any
	if len(p.Input) == 0 || json.Unmarshal(p.Input, &in) != nil {
		in = nil
	}
	in = writtenInput(in)
	s := newScanner(e, index, false)
	name := strings.ToLower(p.Name)
	if e.isShell(p.Name) {
		e.shellCommand(s, in)
	} else {
		e.runnerCommands(s, in)
	}
	inputFiles(s, in, e.toolAccess(name, in))
	if strings.Contains(name, "patch") || strings.Contains(name, "diff") {
		patchInputFiles(s, p.Input, in)
	}
	if open != "" && openEditors[name] && !hasFile(s.items) {
		writtenFiles(s, []string{open})
	}
	for _, k := range urlKeys {
		for _, v := range stringsOf(in[k]) {
			v = Redact(strings.TrimSpace(v))
			if strings.Contains(v, "://") {
				s.add(KindURL, v)
			}
		}
	}
	// The assistant's own words inside a call: a think tool's thought, a
	// finish tool's message, a reason given with an action. A decision
	// said there is as binding as one said in the reply's text.
	var said []string
	for k, v := range in {
		if v, ok := v.(string); ok && len(v) >= 20 && (reasonKeys[k] || strings.ContainsAny(k, "_-ABCDEFGHIJKLMNOPQRSTUVWXYZ") && reasonKeys[normKey(k)]) {
			said = append(said, k)
		}
	}
	slices.Sort(said) // the items do not vary from run to run
	for _, k := range said {
		s.assistantProse(Redact(in[k].(string)))
	}
	if len(said) == 0 && len(in) > 0 && writtenPath(in) == "" && !e.isShell(p.Name) {
		// A message the agent posts (a chat post, an issue, a
		// comment): its text is its prose, wherever the tool puts it.
		for _, k := range sortedKeys(in) {
			if v, ok := in[k].(string); ok && postKeys[normKey(k)] && len(strings.Fields(v)) >= 6 {
				s.assistantProse(Redact(v))
				s.keepRecords(Redact(v), 0)
			}
		}
	}
	// A document the agent writes (a design note, a decision record, a
	// plan in Markdown) is its prose, as much as its reply.
	if doc := writtenDoc(in); doc != "" {
		s.assistantProse(Redact(doc))
		s.text(Redact(doc))
	} else if path := writtenPath(in); path != "" {
		// The comments of code it writes, the instructions and changelog
		// entries it adds: their decisions (authored.go).
		for _, k := range docKeys {
			if text, ok := in[k].(string); ok {
				n := len(s.items)
				raw := Redact(newLines(text, in))
				prose := writtenProse(path, raw)
				s.authoredDecisions(prose)
				s.wholeParagraphs(prose, n)
				if commentSyntaxOf(path) != nil && !textDoc(path) {
					s.printedComments(raw, n)
				}
				// a decision written as a block of lines, as printed
				s.keepRecords(raw, n)
			}
		}
	}
	for _, c := range writtenSteps(in) {
		s.add(KindCommand, Redact(c))
	}
	return s.items
}

// writtenSteps returns the commands a file tool writes into a CI workflow,
// a Dockerfile, a Makefile or a shell script: what will run there ("run:
// go test ./...", the lines of a "run: |" block, "script:" items, RUN
// lines, recipe lines, a repro script's commands).
func writtenSteps(in map[string]any) []string {
	path := writtenPath(in)
	var out []string
	if path == "" {
		return nil
	}
	for _, k := range docKeys {
		if text, ok := in[k].(string); ok {
			out = append(out, stepsIn(path, text)...)
			out = append(out, looseSteps(path, newLines(text, in))...)
		}
	}
	return out
}

// writtenPath returns the path a file tool's input names (the first path
// key in sorted order, so the items do not vary from run to run), or "".
func writtenPath(in map[string]any) string {
	key, path := "", ""
	for k, v := range in {
		if p, ok := v.(string); ok && (path == "" || k < key) && pathKeys[normKey(k)] {
			key, path = k, p
		}
	}
	return path
}

// scriptPlumbing reports whether a script's line only sets the script up
// or steers it (set -euo pipefail, cd, export, a loop's keywords) rather
// than runs something.
func scriptPlumbing(line string) bool {
	w, _, _ := strings.Cut(line, " ")
	switch w {
	case "set", "cd", "export", "source", ".", "echo", "printf", "exit", "shift", "trap", "local", "readonly",
		"if", "then", "else", "elif", "fi", "for", "while", "until", "do", "done", "case", "esac", "function", "return", "}", "{":
		return true
	}
	return strings.HasSuffix(w, "()")
}

// patchSteps returns the commands the added lines of a patch write into CI
// workflows, Dockerfiles, Makefiles and scripts (see writtenSteps): Codex's
// "*** Update File: x" sections and unified diffs' "+++ b/x" ones.
func patchSteps(patch string) []string {
	var out []string
	patchSections(patch, func(path, added string) {
		out = append(out, stepsIn(path, added)...)
	})
	return out
}

// patchSections calls f with the path and the added lines of each file a
// patch changes: Codex's "*** Update File: x" sections and unified diffs'
// "+++ b/x" ones.
func patchSections(patch string, f func(path, added string)) {
	path, added := "", []string{}
	flush := func() {
		if path != "" && len(added) > 0 {
			f(path, strings.Join(added, "\n"))
		}
		added = added[:0]
	}
	for _, line := range strings.Split(patch, "\n") {
		for _, lead := range []string{"*** Update File: ", "*** Add File: ", "+++ b/", "+++ "} {
			if p, ok := strings.CutPrefix(line, lead); ok {
				flush()
				path = strings.TrimSpace(p)
				line = ""
				break
			}
		}
		if a, ok := strings.CutPrefix(line, "+"); ok {
			added = append(added, a)
		}
	}
	flush()
}

// stepsFile reports whether stepsIn reads the file at path for steps by
// its name alone (a script is also known by its first line).
func stepsFile(path string) bool {
	path = strings.ToLower(path)
	base := path[strings.LastIndexByte(path, '/')+1:]
	return strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml") || strings.HasPrefix(base, "dockerfile") ||
		strings.HasSuffix(base, ".dockerfile") || base == "makefile" || base == "gnumakefile" || strings.HasSuffix(base, ".mk") ||
		strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".bash") || strings.HasSuffix(base, ".md") || configKind(base)
}

// stepsIn returns the commands text writes into the file at path, when it
// is a CI workflow, a Dockerfile, a Makefile or a shell script (see
// writtenSteps).
func stepsIn(path, text string) []string {
	path = strings.ToLower(path)
	base := path[strings.LastIndexByte(path, '/')+1:]
	yaml := strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")
	docker := strings.HasPrefix(base, "dockerfile") || strings.HasSuffix(base, ".dockerfile")
	makefile := base == "makefile" || base == "gnumakefile" || strings.HasSuffix(base, ".mk")
	script := strings.HasSuffix(base, ".sh") || strings.HasSuffix(base, ".bash") || strings.HasPrefix(text, "#!/")
	if strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".markdown") || strings.HasSuffix(base, ".mdx") {
		return markdownSteps(text)
	}
	if out, ok := configSteps(base, text); ok {
		return out
	}
	if !yaml && !docker && !makefile && !script {
		return nil
	}
	var out []string
	cont := ""  // a Makefile's recipe line so far, continued after " \\"
	block := -1 // the indentation of a "run: |" or "script:" key whose lines follow
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " \t"))
		if t == "" || t[0] == '#' {
			continue
		}
		switch {
		case script:
			if !scriptPlumbing(t) && commandLine(t, cued) {
				out = append(out, t)
			}
			continue
		case makefile:
			if line[0] != '\t' {
				cont = ""
				continue
			}
			c := t
			if cont != "" {
				c = cont + " " + c // a recipe line continued after " \\", its flags as written
			} else {
				c = strings.TrimLeft(t, "@-+")
			}
			if r, ok := strings.CutSuffix(c, "\\"); ok {
				cont = strings.TrimSpace(r)
				continue
			}
			cont = ""
			if commandLine(c, cued) || commandLine(makeProgram(c), cued) {
				out = append(out, c)
			}
			continue
		case docker:
			if c, ok := strings.CutPrefix(t, "RUN "); ok && commandLine(strings.TrimSpace(c), inContext) {
				out = append(out, strings.TrimSpace(c))
			}
			continue
		}
		key, v, keyed := strings.Cut(strings.TrimPrefix(t, "- "), ":")
		keyed = keyed && yamlKey(key) && (v == "" || v[0] == ' ')
		if block >= 0 && indent > block && !keyed {
			// a "run: |" block is a script: each of its lines runs
			if c := strings.TrimPrefix(t, "- "); commandLine(c, inContext) {
				out = append(out, c)
			}
			continue
		}
		if block < 0 || indent <= block {
			block = -1
		}
		if !keyed {
			continue
		}
		// the keys of a step under "- run:" (CircleCI's "name:",
		// "command:") are read as the step's own
		switch v = strings.TrimSpace(v); {
		case !stepKeys[key]:
		case v == "" || v == "|" || v == ">" || v == "|-" || v == ">-":
			block = indent
		case commandLine(unquoted(v), inContext):
			out = append(out, unquoted(v))
		}
	}
	return out
}

// unquoted returns v without the quotes around it, if it is quoted whole.
func unquoted(v string) string {
	if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
		return v[1 : len(v)-1]
	}
	return v
}

// makeProgram returns a recipe line whose program is a make variable
// ("$(GO) test -tags=integration ./...", "${PYTHON} -m pytest") with the
// variable's name in lower case in its place, as commandLine knows the
// program; else c.
func makeProgram(c string) string {
	f := strings.Fields(c)
	for i, w := range f {
		if assignment(w) {
			continue
		}
		if len(w) > 3 && (strings.HasPrefix(w, "$(") && strings.HasSuffix(w, ")") || strings.HasPrefix(w, "${") && strings.HasSuffix(w, "}")) {
			f[i] = strings.ToLower(w[2 : len(w)-1])
			return strings.Join(f, " ")
		}
		break
	}
	return c
}

// stepKeys are the keys of a CI file whose value, or the block or list
// under it, runs: GitHub's and CircleCI's "run", CircleCI's "command",
// GitLab's "script", Drone's and Woodpecker's "commands", Taskfile's
// "cmds".
var stepKeys = map[string]bool{"run": true, "script": true, "before_script": true, "after_script": true,
	"command": true, "commands": true, "cmds": true, "cmd": true, "entrypoint": true, "entry": true, "postCreateCommand": true,
	"postStartCommand": true}

// yamlKey reports whether k is a plain YAML key: a word of letters,
// digits, '_' and '-'.
func yamlKey(k string) bool {
	return k != "" && every(k, func(c byte) bool { return isAlnum(c) || c == '_' || c == '-' })
}

// configKind reports whether configSteps reads a file of base name base.
func configKind(base string) bool {
	return base == "package.json" || base == "composer.json" || base == "procfile" || strings.HasPrefix(base, "procfile.") || base == "justfile" ||
		base == ".justfile" || base == "jenkinsfile" || strings.HasSuffix(base, ".jenkinsfile") ||
		strings.HasSuffix(base, ".service") || strings.HasSuffix(base, ".timer") || base == "crontab" ||
		strings.HasSuffix(base, ".cron") || base == "tox.ini" || strings.HasSuffix(base, ".toml")
}

// manifestKeys reports whether a JSON object is a whole manifest (it has
// a name, a version, dependencies …) rather than its scripts alone.
func manifestKeys(text string) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(text), &m) != nil {
		return true
	}
	for _, k := range []string{"name", "version", "description", "dependencies", "devDependencies", "require", "require-dev",
		"autoload", "type", "license", "private", "main", "workspaces"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// tomlRunKeys are the keys of a TOML file whose string value runs.
var tomlRunKeys = map[string]bool{"command": true, "run": true, "cmd": true, "script": true, "exec": true, "shell": true}

// configSteps returns the commands a file of another kind writes to run:
// package.json's scripts, a Procfile's processes, a justfile's recipes, a
// Jenkinsfile's sh steps, a systemd unit's Exec lines, a crontab's jobs and
// tox's commands. ok is false for a file of none of these kinds.
func configSteps(base, text string) (out []string, ok bool) {
	add := func(c string) {
		if c = strings.TrimSpace(c); !scriptPlumbing(c) && commandLine(c, cued) {
			out = append(out, c)
		}
	}
	if !configKind(base) {
		return nil, false
	}
	lines := strings.Split(text, "\n")
	switch {
	case base == "package.json" || base == "composer.json":
		// the scripts of the manifest, or the scripts object alone as
		// "jq .scripts" prints it; composer's entries may be lists and
		// run PHP through "@php"
		var pkg struct {
			Scripts map[string]any `json:"scripts"`
		}
		if json.Unmarshal([]byte(text), &pkg) != nil {
			break
		}
		if pkg.Scripts == nil && !manifestKeys(text) {
			json.Unmarshal([]byte(text), &pkg.Scripts)
		}
		for _, k := range slices.Sorted(maps.Keys(pkg.Scripts)) {
			switch v := pkg.Scripts[k].(type) {
			case string:
				add(strings.TrimPrefix(v, "@"))
			case []any:
				for _, e := range v {
					if c, ok := e.(string); ok {
						add(strings.TrimPrefix(c, "@"))
					}
				}
			}
		}
	case base == "procfile" || strings.HasPrefix(base, "procfile."):
		// each entry names a process and the command that runs it
		for _, l := range lines {
			if _, c, found := strings.Cut(l, ": "); found && !strings.HasPrefix(strings.TrimSpace(l), "#") {
				if c = strings.TrimSpace(c); !scriptPlumbing(c) && commandLine(c, inContext) {
					out = append(out, c)
				}
			}
		}
	case base == "justfile" || base == ".justfile":
		for _, l := range lines {
			if len(l) > 0 && (l[0] == ' ' || l[0] == '\t') {
				add(strings.TrimLeft(strings.TrimSpace(l), "@-"))
			}
		}
	case base == "jenkinsfile" || strings.HasSuffix(base, ".jenkinsfile"):
		for _, l := range lines {
			t := strings.TrimSpace(l)
			for _, lead := range []string{"sh '", `sh "`, "bat '", `bat "`} {
				if c, found := strings.CutPrefix(t, lead); found {
					add(strings.TrimRight(c, `'"`))
				}
			}
		}
	case strings.HasSuffix(base, ".service") || strings.HasSuffix(base, ".timer"):
		for _, l := range lines {
			k, c, found := strings.Cut(strings.TrimSpace(l), "=")
			if found && strings.HasPrefix(k, "Exec") {
				add(strings.TrimLeft(c, "-@+!:"))
			}
		}
	case base == "crontab" || strings.HasSuffix(base, ".cron"):
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 5 && !strings.HasPrefix(f[0], "#") && !strings.Contains(f[0], "=") {
				add(strings.Join(f[5:], " "))
			}
		}
	case base == "tox.ini":
		in := false
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if k, v, found := strings.Cut(t, "="); found && !strings.HasPrefix(l, " ") {
				if in = strings.TrimSpace(k) == "commands"; in {
					add(v)
				}
				continue
			}
			if in && t != "" && (l[0] == ' ' || l[0] == '\t') {
				add(t)
			} else {
				in = false
			}
		}
	case strings.HasSuffix(base, ".toml"):
		// netlify.toml's and a mise task's command = "…" or run = "…",
		// and the entries of a scripts or tasks table (pdm's, poe's)
		section := ""
		for _, l := range lines {
			t := strings.TrimSpace(l)
			if strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") {
				section = strings.ToLower(strings.Trim(t, "[] "))
				continue
			}
			k, v, found := strings.Cut(t, "=")
			k, v = strings.Trim(strings.TrimSpace(k), `"'`), strings.TrimSpace(v)
			if !found || len(v) < 2 || v[0] != '"' && v[0] != '\'' || v[len(v)-1] != v[0] {
				continue
			}
			table := strings.HasSuffix(section, "scripts") || strings.HasSuffix(section, "tasks")
			if lk := strings.ToLower(k); tomlRunKeys[lk] || table || strings.HasSuffix(lk, "_command") || strings.HasSuffix(lk, "_cmd") {
				// fly.toml's release_command, a build_command
				add(v[1 : len(v)-1])
			}
		}
	default:
		return nil, false
	}
	return out, true
}

// markdownSteps returns the commands a Markdown document shows to run:
// the lines of its shell blocks (fenced as bash, sh, shell, console, zsh,
// or unlabelled), without a "$ " prompt, and the "$ " lines of any block.
// A README's "```bash\nmake migrate-up\n```" is a step someone will run.
func markdownSteps(text string) []string {
	var out []string
	inFence, shell := false, false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if label, ok := strings.CutPrefix(t, "```"); ok {
			if inFence {
				inFence = false
				continue
			}
			inFence = true
			switch strings.ToLower(strings.TrimSpace(label)) {
			case "", "bash", "sh", "shell", "console", "zsh", "shell-session", "terminal":
				shell = true
			default:
				shell = false
			}
			continue
		}
		if !inFence && t != "" {
			// an indented code block ("        pnpm lint && pnpm test"),
			// a command in a code span ("3. Restore: `pg_restore …`")
			if indent := len(line) - len(strings.TrimLeft(line, " \t")); (indent >= 4 && !listItem(t) || line[0] == '\t') && !scriptPlumbing(t) && commandLine(strings.TrimPrefix(t, "$ "), cued) {
				out = append(out, strings.TrimPrefix(t, "$ "))
				continue
			}
			if strings.IndexByte(t, '`') < 0 {
				continue // no code span
			}
			if low, _ := lower(t); !forbids(low) {
				for _, c := range codeSpans(t) {
					if len(strings.Fields(c)) >= 2 && !scriptPlumbing(c) && commandLine(c, cued) {
						out = append(out, c)
					}
				}
			}
			continue
		}
		if t == "" || t[0] == '#' {
			continue
		}
		c, prompt := strings.CutPrefix(t, "$ ")
		if !prompt && !shell {
			continue
		}
		if c = strings.TrimSpace(c); !scriptPlumbing(c) && commandLine(c, cued) {
			out = append(out, c)
		}
	}
	return out
}

// forbids reports whether a lower-case line of a document forbids what its
// code spans name: "Never run `git push --force origin main`."
func forbids(low string) bool {
	return hasAnyWord(low, []string{"never", "don't", "avoid", "instead of", "not"})
}

// codeSpans returns the code spans of a line of Markdown: "`a b`".
func codeSpans(t string) []string {
	var out []string
	for {
		i := strings.IndexByte(t, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(t[i+1:], '`')
		if j < 0 {
			return out
		}
		if c := strings.TrimSpace(t[i+1 : i+1+j]); c != "" {
			out = append(out, c)
		}
		t = t[i+j+2:]
	}
}

// docKeys hold the text a file tool writes.
var docKeys = []string{"content", "file_text", "new_string", "new_str", "contents", "text", "replace", "replacement", "new_text"}

// writtenDoc returns the text a file tool writes into a prose document
// (Markdown, reStructuredText, AsciiDoc, plain text), or "".
func writtenDoc(in map[string]any) string {
	doc := false
	for k, v := range in {
		if pathKeys[normKey(k)] {
			if p, ok := v.(string); ok && proseDoc(p) {
				doc = true
			}
		}
	}
	if !doc {
		return ""
	}
	for _, k := range docKeys {
		if v, ok := in[k].(string); ok && v != "" {
			return v
		}
	}
	return ""
}

// proseDoc reports whether a path names a document in prose that records
// the work rather than documents the code for its users: a decision record,
// a design note or proposal, a plan, notes, a progress log or an agent's
// memory file (docs/adr/0007-outbox.md, NOTES.md, memory-bank/decisionLog.md),
// not a README or a changelog.
func proseDoc(p string) bool {
	if !textDoc(p) {
		return false
	}
	low := strings.ToLower(p)
	for _, w := range []string{"adr", "decision", "design", "notes", "plan", "rfc", "proposal", "todo",
		"progress", "memory", "memories", "context", "journal", "scratch"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// textDoc reports whether a path names a document in prose: Markdown,
// reStructuredText, AsciiDoc or plain text.
func textDoc(p string) bool {
	low := strings.ToLower(p)
	if strings.HasSuffix(low, "cmakelists.txt") {
		return false // CMake's build script
	}
	for _, e := range []string{".md", ".markdown", ".rst", ".adoc", ".txt"} {
		if strings.HasSuffix(low, e) {
			return true
		}
	}
	return false
}

// postKeys are the keys of the text a tool posts that names no file: a
// chat message, an issue's or a comment's body.
var postKeys = map[string]bool{"text": true, "body": true, "content": true, "message": true, "comment": true,
	"description": true, "markdown": true, "post": true, "messagetext": true}

// reasonKeys are the keys of a tool call's input that hold the assistant's
// own prose (not a file's body or a search query).
var reasonKeys = map[string]bool{"thought": true, "thoughts": true, "thinking": true, "reasoning": true,
	"rationale": true, "reason": true, "explanation": true, "summary": true, "plan": true, "decision": true,
	"note": true, "notes": true, "message": true, "finalanswer": true, "answer": true}

// openEditors are the tools and text commands that edit the file open in
// the editor without naming it (SWE-agent's windowed editor).
var openEditors = map[string]bool{"edit": true, "insert": true}

// openers are the tools and text commands that open a file in the editor.
var openers = map[string]Access{"open": Read, "create": Written}

func hasFile(items []Item) bool {
	for _, it := range items {
		if it.Kind == KindFile {
			return true
		}
	}
	return false
}

// noteCall records the file an open or create call opened.
func (sp *span) noteCall(p *condense.Part, items []Item) {
	if _, ok := openers[strings.ToLower(p.Name)]; !ok {
		return
	}
	for _, it := range items {
		if it.Kind == KindFile {
			sp.open = it.Value
			return
		}
	}
}

// noteOpen records the file an observation says is open.
func (sp *span) noteOpen(text string) {
	if f := openFile(text); f != "" {
		sp.open = f
	}
}

// openFile returns the file an editor's observation shows as open: the
// last "(Open file: x)" footer or "[File: x (N lines total)]" header of
// SWE-agent, or "".
func openFile(text string) string {
	best, at := "", -1
	for _, m := range []struct{ open, close string }{{"(Open file: ", ")"}, {"[File: ", " ("}} {
		k := strings.LastIndex(text, m.open)
		if k < 0 || k < at {
			continue
		}
		rest := text[k+len(m.open):]
		e := strings.Index(rest, m.close)
		if e < 0 {
			continue
		}
		f := strings.TrimSpace(rest[:e])
		if p, ok := cleanPath(f, false); ok || hasExt(f[strings.LastIndexByte(f, '/')+1:]) && !strings.ContainsAny(f, " <>{}") {
			if !ok {
				p, ok = cleanPath(f, true)
			}
			if ok {
				best, at = p, k
			}
		}
	}
	return best
}

func hasToolCalls(m *condense.Message) bool {
	for i := range m.Parts {
		if m.Parts[i].Type == condense.PartToolCall {
			return true
		}
	}
	return false
}

// textAction reads the action of an agent that acts in text (mini-swe-agent,
// SWE-agent without function calling): the last fenced block of a reply
// with no tool calls, when it ends the reply and is a shell block or an
// unlabelled one. Its
// files are added with their access: SWE-agent's "open x" reads x,
// "create x" writes it, "edit 4:4" and "insert 9" write the open file, and
// any other block is read as a shell script.
func (e *Extractor) textAction(s *scanner, text string, sp *span) {
	block, ok := lastFence(text)
	if !ok {
		return
	}
	n0 := len(s.items)
	defer func() { sp.action = slices.Clone(s.items[n0:]) }()
	first, _, _ := strings.Cut(strings.TrimSpace(block), "\n")
	f := strings.Fields(first)
	if len(f) > 0 {
		if acc, ok := openers[f[0]]; ok && len(f) >= 2 {
			if p, ok := cleanPath(strings.Trim(f[1], `"'`), true); ok {
				if it := s.add(KindFile, p); it != nil {
					it.Access = max(it.Access, acc)
				}
				sp.open = p
			}
			return
		}
		if openEditors[f[0]] {
			if sp.open != "" {
				writtenFiles(s, []string{sp.open})
			}
			return
		}
	}
	if cmd := strings.TrimSpace(first); cmd != "" {
		s.add(KindCommand, cmd) // the action an agent acting in text ran
	}
	e.commandFiles(s, block)
	// What the action writes for people (a commit message, an issue's
	// body, a guide fed through a heredoc) is read as it is from a shell
	// tool's input; the reply's own text reads the rest.
	msgs := authoredText(Redact(block))
	for _, msg := range msgs {
		s.assistantProse(msg)
	}
	if len(msgs) == 0 {
		n := len(s.items)
		for _, p := range commandProse(Redact(block)) {
			s.authoredDecisions(p)
		}
		s.printedComments(Redact(block), n)
	}
	// what a heredoc writes into a file that runs it (a Procfile, a
	// workflow, a script), as from a shell tool's input
	for _, c := range heredocSteps(Redact(block)) {
		s.add(KindCommand, c)
	}
}

// lastFence returns the body of the last fenced block of text when its
// label is empty or names a shell (bash, sh, console, mswea_bash_command).
func lastFence(text string) (string, bool) {
	end := strings.LastIndex(text, "```")
	if end < 0 {
		return "", false
	}
	start := strings.LastIndex(text[:end], "```")
	if start < 0 {
		return "", false
	}
	if strings.TrimSpace(text[end+3:]) != "" {
		return "", false // an action ends the reply
	}
	body := text[start+3 : end]
	label, body, ok := strings.Cut(body, "\n")
	if !ok {
		return "", false
	}
	switch label = strings.ToLower(strings.TrimSpace(label)); {
	case label == "", label == "sh", label == "shell", label == "console", label == "zsh",
		strings.Contains(label, "bash"):
		return body, true
	}
	return "", false
}

// shellCommand adds the command of a shell tool's input (the first command
// key set) and the files it reads, writes (redirections, sed -i, tee, patches
// fed to apply_patch or git apply) and names.
func (e *Extractor) shellCommand(s *scanner, in map[string]any) {
	for _, k := range commandKeys {
		cmd := commandString(in[k])
		if cmd == "" {
			continue
		}
		cmd = Redact(cmd)
		s.add(KindCommand, cmd)
		e.commandFiles(s, cmd)
		msgs := authoredText(cmd)
		for _, msg := range msgs {
			// A commit message or a pull request's body: its choices,
			// and the files, commands and references it names.
			s.assistantProse(msg)
			s.text(msg)
		}
		if len(msgs) == 0 {
			n := len(s.items)
			for _, p := range commandProse(cmd) {
				s.authoredDecisions(p)
			}
			s.printedComments(cmd, n)
		}
		for _, c := range heredocSteps(cmd) {
			s.add(KindCommand, c)
		}
		return
	}
}

// authorCommands write what the agent authored into history: a commit's
// message, a pull request's or a review's body, an annotated tag's note.
var authorCommands = []string{"git commit", "git tag", "gh pr create", "gh pr comment", "gh pr review",
	"gh pr edit", "gh issue comment", "gh issue create", "gh api", "glab mr create", "glab mr note"}

// messageFlags take the text of an authorCommand; fieldFlags take a
// name=value field of an API call (gh api -f body='…').
var (
	messageFlags = []string{"-m", "-am", "--message", "--body", "-b", "-f", "-F", "--field", "--raw-field"}
	fieldFlags   = []string{"-f", "-F", "--field", "--raw-field"}
)

// writesDoc reports whether a command line (its heredoc cut out) writes a
// prose document: "cat > docs/adr/0007-x.md", "tee NOTES.md".
func writesDoc(line string) bool {
	toks := shellTokens(line)
	for i, t := range toks {
		if (t == ">" || t == ">>" || i > 0 && toks[i-1] == "tee") && i+1 < len(toks) && proseDoc(toks[i+1]) {
			return true
		}
		if i > 0 && toks[i-1] == "tee" && proseDoc(t) {
			return true
		}
	}
	return false
}

// authoredText returns the texts an author command carries: the bodies of
// its heredocs ("git commit -F - <<'EOF' …", "-m \"$(cat <<'EOF' … EOF)\"")
// and the quoted values of its message flags, each of which may run over
// several lines; and, for any command, the body of a heredoc written into
// a prose document ("cat > docs/adr/0007-outbox.md <<'EOF'"). What an agent writes there ("Switch the importer to COPY:
// executemany is 30x slower") is said as much as in its reply.
func authoredText(cmd string) []string {
	author := slices.ContainsFunc(authorCommands, func(c string) bool { return strings.Contains(cmd, c) })
	if !author && !strings.Contains(cmd, "<<") {
		return nil
	}
	var out []string
	lines := strings.Split(cmd, "\n")
	for i := 0; i < len(lines); i++ {
		rest, delim, _, ok := cutHeredoc(lines[i])
		if !ok || !author && !writesDoc(rest) {
			continue
		}
		var body string
		body, i = heredocBody(lines, i, delim)
		out = append(out, body)
	}
	if len(out) > 0 || !author {
		return out
	}
	for i := 0; i < len(cmd); i++ {
		if cmd[i] != '-' || i > 0 && cmd[i-1] != ' ' {
			continue
		}
		j := i
		for j < len(cmd) && cmd[j] != ' ' && cmd[j] != '=' {
			j++
		}
		if !slices.Contains(messageFlags, cmd[i:j]) || j+1 >= len(cmd) {
			continue
		}
		if slices.Contains(fieldFlags, cmd[i:j]) {
			// gh api's -f body='…': only a field that holds prose
			f, _, ok := strings.Cut(cmd[j+1:], "=")
			if !ok || !slices.Contains([]string{"body", "message", "comment", "description"}, f) {
				continue
			}
			j += len(f) + 1
		}
		q := cmd[j+1]
		if q != '"' && q != '\'' {
			continue
		}
		end := j + 2
		for end < len(cmd) && (cmd[end] != q || q == '"' && cmd[end-1] == '\\') {
			end++
		}
		if end >= len(cmd) {
			break
		}
		out = append(out, strings.ReplaceAll(cmd[j+2:end], `\"`, `"`))
		i = end
	}
	return out
}

// proseKeys hold words for people or search engines, not commands, whatever
// they look like ("go test flaky timeout" as a search query).
var proseKeys = map[string]bool{"query": true, "q": true, "question": true, "prompt": true, "text": true,
	"message": true, "description": true, "content": true, "title": true, "body": true, "reason": true,
	"thought": true, "summary": true, "explanation": true, "comment": true}

// runnerCommands adds the commands a tool that is not a known shell was
// given anyway: any input value, under any key, that reads as a command line
// (a known runner or a script path, then arguments: "pytest -x tests/api",
// ["bash", "-lc", "make test"]), so a harness's own tool names
// (run_tests, exec_in_sandbox, …) do not hide what ran. Keys are read in
// sorted order so the items do not vary from run to run.
func (e *Extractor) runnerCommands(s *scanner, in map[string]any) {
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if proseKeys[normKey(k)] {
			continue
		}
		cmd := commandString(in[k])
		if cmd == "" || !runnerCommand(cmd) {
			continue
		}
		cmd = Redact(cmd)
		s.add(KindCommand, cmd)
		e.commandFiles(s, cmd)
	}
}

// inputFiles adds the paths of a tool input's path keys, with the access
// the tool has: the values of those keys (a string or a list of strings),
// and those of the objects one level down (a list of edits or of files,
// each with its own path). Keys are read in sorted order so the items do
// not vary from run to run.
func inputFiles(s *scanner, in map[string]any, acc Access) {
	for _, k := range slices.Sorted(maps.Keys(in)) {
		v := in[k]
		if pathKeys[normKey(k)] {
			for _, str := range stringsOf(v) {
				inputFile(s, str, acc)
			}
		}
		var objs []map[string]any
		switch x := v.(type) {
		case map[string]any:
			objs = append(objs, x)
		case []any:
			for _, e := range x {
				if o, ok := e.(map[string]any); ok {
					objs = append(objs, o)
				}
			}
		}
		for _, o := range objs {
			for _, k2 := range slices.Sorted(maps.Keys(o)) {
				if pathKeys[normKey(k2)] {
					for _, str := range stringsOf(o[k2]) {
						inputFile(s, str, acc)
					}
				}
			}
		}
	}
}

// inputFile adds one path value. A tool that reads or writes files takes
// any plausible path; one that only names them (a search's directory) needs
// a separator or an extension, so a make target or a word is not a file.
// Globs are patterns, not files.
func inputFile(s *scanner, v string, acc Access) {
	v = strings.TrimSpace(Redact(v))
	if strings.ContainsAny(v, "*?\n") {
		return
	}
	pth, ok := cleanPath(v, true)
	if !ok || acc == Mentioned && !strings.Contains(pth, "/") && !hasExt(pth) {
		return
	}
	if it := s.add(KindFile, pth); it != nil {
		it.Access = max(it.Access, acc)
	}
}

// patchInputFiles adds the files a patch or diff tool writes: those of the
// patches in its input's string values, or in its input when that is one
// JSON string.
func patchInputFiles(s *scanner, raw json.RawMessage, in map[string]any) {
	// In key order: map order would make the items vary run to run.
	for _, k := range slices.Sorted(maps.Keys(in)) {
		if str, ok := in[k].(string); ok {
			writtenFiles(s, patchFiles(Redact(str)))
			for _, c := range patchSteps(str) {
				s.add(KindCommand, Redact(c))
			}
			s.patchProse(str)
		}
	}
	if in == nil {
		var str string
		if json.Unmarshal(raw, &str) == nil {
			writtenFiles(s, patchFiles(Redact(str)))
			for _, c := range patchSteps(str) {
				s.add(KindCommand, Redact(c))
			}
			s.patchProse(str)
		}
	}
}

// writtenFiles adds files as written.
func writtenFiles(s *scanner, files []string) {
	for _, f := range files {
		if it := s.add(KindFile, f); it != nil {
			it.Access = Written
		}
	}
}

// commandFiles adds the files a shell command or script touches (see
// scriptFiles): read for what it prints, written for what it writes, and
// mentioned for the paths it only names.
func (e *Extractor) commandFiles(s *scanner, cmd string) {
	for _, u := range scriptFiles(cmd) {
		if it := s.add(KindFile, u.path); it != nil {
			it.Access = max(it.Access, u.acc)
		}
	}
}

// sourceExts are extensions of source and documentation files: the output
// of reading one is code, whose string literals are not errors nor
// measurements.
var sourceExts = map[string]bool{"go": true, "py": true, "js": true, "mjs": true, "ts": true,
	"tsx": true, "jsx": true, "rs": true, "java": true, "kt": true, "c": true, "h": true, "cc": true,
	"cpp": true, "hpp": true, "rb": true, "php": true, "cs": true, "swift": true, "scala": true,
	"sh": true, "md": true, "rst": true, "toml": true, "yaml": true, "yml": true, "html": true,
	"css": true, "sql": true, "proto": true, "lua": true, "ex": true, "exs": true, "zig": true}

// readsSource reports whether the items of a call say it read exactly one
// file, a source file.
func readsSource(items []Item) bool {
	n := 0
	src := false
	for _, it := range items {
		if it.Kind == KindCommand && !routineCommand(it.Value) {
			// A command that runs something (mysql < q.sql, python
			// x.py) prints what it does, not the file it read.
			return false
		}
		if it.Kind != KindFile {
			continue
		}
		n++
		if it.Access == Read {
			name := it.Value[strings.LastIndexByte(it.Value, '/')+1:]
			if dot := strings.LastIndexByte(name, '.'); dot >= 0 {
				src = sourceExts[strings.ToLower(name[dot+1:])]
			}
		}
	}
	return n == 1 && src
}

// readsFile reports whether a call only reads files: it names a file it
// reads and runs nothing but reading commands (cat, head, less), or it is a
// file tool's view. What comes back is a file's text, not what a program
// or a person said.
func readsFile(items []Item) bool {
	read := false
	for _, it := range items {
		switch {
		case it.Kind == KindCommand && !routineCommand(it.Value):
			return false
		case it.Kind == KindFile && it.Access == Read:
			read = true
		}
	}
	return read
}

// commandString returns the command of a shell call's input value: a string,
// or an argv array (["bash", "-lc", "go test ./..."] → "go test ./...").
func commandString(v any) string {
	switch c := v.(type) {
	case string:
		return strings.TrimSpace(c)
	case []any:
		var argv []string
		for _, a := range c {
			if s, ok := a.(string); ok {
				argv = append(argv, s)
			}
		}
		if len(argv) == 3 && (argv[1] == "-c" || argv[1] == "-lc" || argv[1] == "-ic") {
			return strings.TrimSpace(argv[2])
		}
		return strings.Join(argv, " ")
	}
	return ""
}

func stringsOf(v any) []string {
	switch x := v.(type) {
	case string:
		if x != "" {
			return []string{x}
		}
	case []any:
		var out []string
		for _, a := range x {
			if s, ok := a.(string); ok && s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

var writeWords = []string{"write", "edit", "create", "patch", "replace", "insert", "append", "delete",
	"remove", "move", "rename", "save", "mkdir", "touch", "apply", "update", "modify"}
var readWords = []string{"read", "view", "cat", "open", "show", "get_file", "head", "tail", "load", "fetch_file"}

// subCommandKeys are the input keys an editor tool that does several things
// takes its sub-command in ("command": "create").
var subCommandKeys = []string{"command", "action", "operation", "op", "subcommand"}

// subCommandAccess classifies an editor tool's sub-command; ok is false for
// a value that is not one.
func subCommandAccess(sub string) (acc Access, ok bool) {
	switch strings.ToLower(sub) {
	case "view", "read", "cat", "open", "show":
		return Read, true
	case "create", "str_replace", "insert", "undo_edit", "write", "append", "edit", "replace",
		"overwrite", "patch", "delete", "rename", "move", "apply_patch", "update":
		return Written, true
	}
	return Mentioned, false
}

// toolAccess classifies a file tool by its name, or for an editor tool that
// takes a sub-command (str_replace_based_edit_tool, str_replace_editor,
// OpenHands' file editor) by that command. A shell tool's "command" is a
// command line, never a sub-command.
func (e *Extractor) toolAccess(name string, in map[string]any) Access {
	if !e.isShell(name) {
		for _, k := range subCommandKeys {
			if sub, ok := in[k].(string); ok && !strings.ContainsAny(sub, " \n") {
				if acc, ok := subCommandAccess(sub); ok {
					return acc
				}
				if strings.Contains(name, "edit") || strings.Contains(name, "str_replace") {
					// An editor's other sub-commands (a search, a
					// listing) do not touch the file.
					return Mentioned
				}
			}
		}
	}
	for _, w := range writeWords {
		if strings.Contains(name, w) {
			return Written
		}
	}
	for _, w := range readWords {
		if strings.Contains(name, w) {
			return Read
		}
	}
	return Mentioned
}

// patchFiles returns the files a patch touches: apply_patch's "*** Update
// File: x", "*** Add File: x", "*** Delete File: x" and "*** Move to: x"
// headers, and unified diffs' "--- a/x" and "+++ b/x" (a file deleted by
// a diff has only the first).
func patchFiles(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		var f string
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: ", "+++ b/", "--- a/", "+++ "} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				f = strings.TrimSpace(rest)
				break
			}
		}
		if f == "" || f == "/dev/null" {
			continue
		}
		if p, ok := cleanPath(f, true); ok {
			out = append(out, p)
		}
	}
	return out
}

// exitStatus finds an exit status in a result's first or last 400 bytes:
// "exit code 1", "Exit code: 1", "exited with 2", "exit status 1",
// "exit_code=1", "returncode=1", "Process exited with code 1". When the
// result is longer than 800 bytes the tail is searched first, since a status
// at the end is the final one; within a piece the last status wins.
func exitStatus(text string) *int {
	const edge = 400
	cand := []string{text}
	if len(text) > 2*edge {
		cand = []string{text[len(text)-edge:], text[:edge]}
	}
	for _, c := range cand {
		if n, ok := lastExit(strings.ToLower(c)); ok {
			return &n
		}
	}
	return nil
}

func lastExit(low string) (int, bool) {
	found, val := false, 0
	for _, kw := range []string{"exit", "returncode", "return code"} {
		for off := 0; ; {
			k := strings.Index(low[off:], kw)
			if k < 0 {
				break
			}
			k += off
			off = k + len(kw)
			if k > 0 && isAlpha(low[k-1]) {
				continue
			}
			rest := low[off:]
			if kw == "exit" {
				var ok bool
				if rest, ok = exitPhrase(rest); !ok {
					continue
				}
			}
			if n, ok := leadingStatus(rest); ok {
				found, val = true, n
			}
		}
	}
	return val, found
}

// exitPhrase consumes what follows "exit" in "exit code", "exit status",
// "exit_code", "exited with", "exited with code"; ok is false for a bare
// "exit" (the shell builtin in a script).
func exitPhrase(r string) (string, bool) {
	ed := false
	if rest, ok := strings.CutPrefix(r, "ed"); ok {
		r, ed = rest, true
		r = strings.TrimLeft(r, " _")
		if rest, ok := strings.CutPrefix(r, "with"); ok {
			r = strings.TrimLeft(rest, " _")
		} else {
			return r, false
		}
	} else {
		r = strings.TrimLeft(r, " _")
	}
	for _, w := range []string{"code", "status"} {
		if rest, ok := strings.CutPrefix(r, w); ok {
			return rest, true
		}
	}
	return r, ed
}

// leadingStatus parses `["']?\s*[:=]?\s*-?\d{1,3}` followed by a non-digit.
func leadingStatus(r string) (int, bool) {
	r = strings.TrimLeft(r, `"' `)
	if r != "" && (r[0] == ':' || r[0] == '=') {
		r = strings.TrimLeft(r[1:], " ")
	}
	neg := strings.HasPrefix(r, "-")
	if neg {
		r = r[1:]
	}
	j := 0
	for j < len(r) && isDigit(r[j]) {
		j++
	}
	if j == 0 || j > 3 || j < len(r) && isAlnum(r[j]) {
		return 0, false
	}
	n, _ := strconv.Atoi(r[:j])
	if neg {
		n = -n
	}
	return n, true
}
