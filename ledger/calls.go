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

var pathKeys = []string{"path", "file_path", "filePath", "filepath", "filename", "file", "target",
	"target_file", "notebook_path", "relative_workspace_path", "absolute_path", "source", "destination",
	"old_path", "new_path", "paths", "files", "file_paths"}

var urlKeys = []string{"url", "uri", "href", "endpoint"}

var commandKeys = []string{"command", "cmd", "script", "commands"}

// call returns the items of a tool call: the command of a shell tool, the
// files a file tool reads or writes, the files of a patch, and addresses.
func (e *Extractor) call(p *condense.Part, index int) []Item {
	var in map[string]any
	if len(p.Input) == 0 || json.Unmarshal(p.Input, &in) != nil {
		in = nil
	}
	s := newScanner(e, index, false)
	name := strings.ToLower(p.Name)
	if e.isShell(p.Name) {
		e.shellCommand(s, in)
	}
	inputFiles(s, in, toolAccess(name, in))
	if strings.Contains(name, "patch") || strings.Contains(name, "diff") {
		patchInputFiles(s, p.Input, in)
	}
	for _, k := range urlKeys {
		for _, v := range stringsOf(in[k]) {
			v = Redact(strings.TrimSpace(v))
			if strings.Contains(v, "://") {
				s.add(KindURL, v)
			}
		}
	}
	return s.items
}

// shellCommand adds the command of a shell tool's input (the first command
// key set), the files it names, and the files an apply_patch command
// writes.
func (e *Extractor) shellCommand(s *scanner, in map[string]any) {
	for _, k := range commandKeys {
		cmd := commandString(in[k])
		if cmd == "" {
			continue
		}
		cmd = Redact(cmd)
		s.add(KindCommand, cmd)
		e.commandFiles(s, cmd)
		if strings.HasPrefix(cmd, "apply_patch") {
			writtenFiles(s, patchFiles(cmd))
		}
		return
	}
}

// inputFiles adds the paths of a tool input's path keys, with the access
// the tool has.
func inputFiles(s *scanner, in map[string]any, acc Access) {
	for _, k := range pathKeys {
		for _, v := range stringsOf(in[k]) {
			if pth, ok := cleanPath(strings.TrimSpace(Redact(v)), true); ok {
				if it := s.add(KindFile, pth); it != nil {
					it.Access = max(it.Access, acc)
				}
			}
		}
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
		}
	}
	if in == nil {
		var str string
		if json.Unmarshal(raw, &str) == nil {
			writtenFiles(s, patchFiles(Redact(str)))
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

// viewers are commands whose output is the content of the files they name.
var viewers = map[string]bool{"cat": true, "head": true, "tail": true, "nl": true, "less": true,
	"more": true, "bat": true, "view": true}

// commandFiles adds the paths a shell command names, as read when the
// command is a viewer (cat internal/x.go) and as mentioned otherwise.
func (e *Extractor) commandFiles(s *scanner, cmd string) {
	if strings.HasPrefix(cmd, "apply_patch") || strings.Contains(cmd, "\n") {
		return // a script: its paths are found in the output if anywhere
	}
	f := strings.Fields(cmd)
	if len(f) < 2 {
		return
	}
	acc := Mentioned
	if viewers[f[0]] && !strings.ContainsAny(cmd, ">|") {
		acc = Read
	}
	for _, tok := range f[1:] {
		tok = strings.Trim(tok, `"'`)
		if strings.HasPrefix(tok, "-") || strings.Contains(tok, "://") {
			continue
		}
		p, ok := cleanPath(tok, false)
		if !ok && hasExt(tok[strings.LastIndexByte(tok, '/')+1:]) {
			p, ok = cleanPath(tok, true)
		}
		if ok {
			if it := s.add(KindFile, p); it != nil {
				it.Access = max(it.Access, acc)
			}
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
	"remove", "move", "rename", "save", "mkdir", "touch"}
var readWords = []string{"read", "view", "cat", "open", "show", "get_file", "head", "tail", "load", "fetch_file"}

// toolAccess classifies a file tool by its name, or for an editor tool that
// takes a sub-command (str_replace_based_edit_tool) by that command.
func toolAccess(name string, in map[string]any) Access {
	if sub, ok := in["command"].(string); ok && (strings.Contains(name, "edit") || strings.Contains(name, "str_replace")) {
		switch sub {
		case "view":
			return Read
		case "create", "str_replace", "insert", "undo_edit", "write", "append":
			return Written
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
// File: x" headers and unified diffs' "+++ b/x".
func patchFiles(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		var f string
		for _, p := range []string{"*** Update File: ", "*** Add File: ", "*** Delete File: ", "*** Move to: ", "+++ b/", "+++ "} {
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
