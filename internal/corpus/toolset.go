package corpus

import (
	"fmt"
	"strings"
)

// act is one tool action, before a tool set gives it a tool name, an input
// and the tool's way of showing the result.
type act struct {
	kind    actKind
	path    string // read, edit, write: relative to the project root
	content string // read: the whole file; write: the new file
	from    int    // read: first line shown (1-based), 0 for the whole file
	to      int
	pattern string // search
	dir     string // search, list
	hits    []hit
	paths   []string // list
	cmd     string   // run
	out     string   // run: the command's output
	exit    int
	old     string // edit
	new     string
	line    int // edit: the first line replaced
	// all: a search result must show every hit's path.
	all bool
	// tool, input: an actTool's tool name and input.
	tool  string
	input obj
}

type actKind int

const (
	actRead actKind = iota
	actSearch
	actList
	actRun
	actEdit
	actWrite
	actSubmit
	// actTool is a call of a tool the tool set has besides reading,
	// searching, editing and running (a to-do list, a plan, a thought):
	// tool and input as the agent sends them, out as it answers. Only tool
	// sets that have such a tool get one (see toolCall).
	actTool
)

type hit struct {
	path string
	line int
	text string
}

// call is a tool call as a transcript records it.
type call struct {
	id    string
	name  string
	input obj
	out   string
	isErr bool
	// action is the command text of text-action tool sets (mini-swe-agent,
	// SWE-agent): what the assistant's reply holds in a code fence.
	action string
	// patch marks an apply_patch call whose input is the patch text
	// (input "patch"), which Codex writers place by their variant.
	patch bool
	exit  int
}

// toolset turns acts into calls.
type toolset struct {
	name string
	// text: actions are fenced in the assistant's text and results come
	// back as user messages.
	text bool
	// tools are the definitions a request carries: name, description and
	// the properties of the input (all strings unless noted).
	tools  []toolDef
	render func(g *gen, a *act) call
}

type toolDef struct {
	name, desc string
	props      []string
	required   []string
}

func (g *gen) abs(path string) string { return joinPath(g.root, path) }

// grepLines formats hits the way grep -rn and ripgrep print them.
func grepLines(hits []hit, prefix string) string {
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "%s:%d:%s\n", joinPath(prefix, h.path), h.line, h.text)
	}
	return b.String()
}

func listLines(paths []string, prefix string) string {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(joinPath(prefix, p))
		b.WriteByte('\n')
	}
	return b.String()
}

// readText returns the lines of a read act, and the total line count.
func (a *act) readText() (string, int) {
	if a.from == 0 {
		return a.content, lineCount(a.content)
	}
	return window(a.content, a.from, a.to)
}

func first(a *act) int { return max(a.from, 1) }

// snippet shows the lines around an edit the way editors report it.
func editSnippet(a *act, sep string, width int) string {
	s, _ := window(a.content, a.line-4, a.line+len(strings.Split(a.new, "\n"))+3)
	return numberLinesW(s, max(a.line-4, 1), sep, width)
}

func numberLinesW(src string, first int, sep string, width int) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		fmt.Fprintf(&b, "%*d%s%s\n", width, first+i, sep, l)
	}
	return b.String()
}

var toolsets = map[string]*toolset{}

func addToolset(t *toolset) *toolset { toolsets[t.name] = t; return t }

var _ = addToolset(&toolset{
	name: "claude-code",
	tools: []toolDef{
		{"Read", "Reads a file from the local filesystem.", []string{"file_path", "offset:number", "limit:number"}, []string{"file_path"}},
		{"Edit", "Performs exact string replacements in files.", []string{"file_path", "old_string", "new_string"}, []string{"file_path", "old_string", "new_string"}},
		{"Write", "Writes a file to the local filesystem.", []string{"file_path", "content"}, []string{"file_path", "content"}},
		{"Bash", "Executes a given bash command.", []string{"command", "description"}, []string{"command"}},
		{"Grep", "A powerful search tool built on ripgrep.", []string{"pattern", "path", "output_mode"}, []string{"pattern"}},
		{"Glob", "Fast file pattern matching tool.", []string{"pattern", "path"}, []string{"pattern"}},
	},
	render: func(g *gen, a *act) call {
		sep := g.h.readSep
		switch a.kind {
		case actRead:
			in := obj{{"file_path", g.abs(a.path)}}
			if a.from > 0 {
				in = append(in, kv{"offset", a.from}, kv{"limit", a.to - a.from + 1})
			}
			text, _ := a.readText()
			out := numberLinesW(text, first(a), sep, 6)
			if g.h.reminder {
				out += "\n<system-reminder>\nWhenever you read a file, you should consider whether it looks malicious. If it does, you MUST refuse to improve or augment the code. You can still analyze existing code, write reports, or answer high-level questions about the code behavior.\n</system-reminder>\n"
			}
			return call{name: "Read", input: in, out: out}
		case actSearch:
			dir := g.abs(a.dir)
			if len(a.hits) > 30 && g.r.chance(0.4) {
				seen := map[string]bool{}
				var files []string
				for _, h := range a.hits {
					if !seen[h.path] {
						seen[h.path] = true
						files = append(files, h.path)
					}
				}
				return call{name: "Grep", input: obj{{"pattern", a.pattern}, {"path", dir}, {"output_mode", "files_with_matches"}},
					out: fmt.Sprintf("Found %d files\n%s", len(files), listLines(files, g.root))}
			}
			return call{name: "Grep", input: obj{{"pattern", a.pattern}, {"path", dir}, {"output_mode", "content"}, {"-n", true}}, out: grepLines(a.hits, g.root)}
		case actList:
			return call{name: "Glob", input: obj{{"pattern", a.pattern}, {"path", g.abs(a.dir)}}, out: listLines(a.paths, g.root)}
		case actRun:
			return call{name: "Bash", input: obj{{"command", a.cmd}, {"description", describe(a.cmd)}}, out: a.out, isErr: a.exit != 0, exit: a.exit}
		case actEdit:
			return call{name: "Edit", input: obj{{"file_path", g.abs(a.path)}, {"old_string", a.old}, {"new_string", a.new}},
				out: fmt.Sprintf("The file %s has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n%s", g.abs(a.path), editSnippet(a, sep, 6))}
		case actWrite:
			return call{name: "Write", input: obj{{"file_path", g.abs(a.path)}, {"content", a.content}}, out: "File created successfully at: " + g.abs(a.path)}
		}
		return call{name: "Bash", input: obj{{"command", "git status --short"}}, out: ""}
	},
})

// describe is Claude Code's short description of a command.
func describe(cmd string) string {
	f := strings.Fields(cmd)
	if len(f) == 0 {
		return "Run command"
	}
	switch f[0] {
	case "git":
		return "Show git " + strings.Join(f[1:min(2, len(f))], " ")
	case "grep", "rg":
		return "Search the code"
	case "cat", "sed", "head", "tail", "nl":
		return "Show file contents"
	}
	return "Run " + f[0]
}

// shellRead, shellSearch, shellList are how shell-only agents read files,
// search and list directories.
func (g *gen) shellRead(a *act) (cmd, out string) {
	text, total := a.readText()
	switch g.r.intn(3) {
	case 0:
		if a.from == 0 {
			return "cat -n " + a.path, numberLinesW(text, 1, "\t", 6)
		}
		return fmt.Sprintf("sed -n '%d,%dp' %s", a.from, a.to, a.path), text
	case 1:
		from, to := first(a), max(a.to, total)
		if a.from == 0 {
			to = total
		}
		return fmt.Sprintf("nl -ba %s | sed -n '%d,%dp'", a.path, from, to), numberLinesW(text, from, "\t", 6)
	}
	if a.from == 0 {
		return "cat " + a.path, text
	}
	return fmt.Sprintf("sed -n '%d,%dp' %s", a.from, a.to, a.path), text
}

func (g *gen) shellSearch(a *act, rg bool) (cmd, out string) {
	dir := a.dir
	if dir == "" {
		dir = "."
	}
	if rg {
		return fmt.Sprintf("rg -n %s %s", shq(a.pattern), dir), grepLines(a.hits, "")
	}
	return fmt.Sprintf("grep -rn %s %s", shq(a.pattern), dir), grepLines(a.hits, "")
}

func (g *gen) shellList(a *act) (cmd, out string) {
	dir := a.dir
	if dir == "" {
		dir = "."
	}
	if g.r.chance(0.5) {
		return fmt.Sprintf("find %s -name %s | head -%d", dir, shq(strings.TrimPrefix(a.pattern, "**/")), len(a.paths)+10), listLines(a.paths, "")
	}
	return fmt.Sprintf("rg --files %s | head -n %d", dir, len(a.paths)+20), listLines(a.paths, "")
}

// shq quotes s for a shell command line.
func shq(s string) string {
	if strings.ContainsAny(s, " \t'\"\\$*?()[]|&;<>") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

// unifiedPatch is the apply_patch text of an edit or a new file.
func unifiedPatch(a *act) string {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	if a.kind == actWrite {
		fmt.Fprintf(&b, "*** Add File: %s\n", a.path)
		for _, l := range strings.Split(strings.TrimRight(a.content, "\n"), "\n") {
			b.WriteString("+" + l + "\n")
		}
	} else {
		fmt.Fprintf(&b, "*** Update File: %s\n@@\n", a.path)
		for _, l := range strings.Split(strings.TrimRight(a.old, "\n"), "\n") {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range strings.Split(strings.TrimRight(a.new, "\n"), "\n") {
			b.WriteString("+" + l + "\n")
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String()
}

var _ = addToolset(&toolset{
	name: "codex",
	render: func(g *gen, a *act) call {
		sh := func(cmd, out string, exit int) call {
			return call{name: "shell", input: obj{{"command", []string{"bash", "-lc", cmd}}, {"workdir", g.root}, {"timeout_ms", 120000}}, out: out, isErr: exit != 0, exit: exit}
		}
		switch a.kind {
		case actRead:
			cmd, out := g.shellRead(a)
			return sh(cmd, out, 0)
		case actSearch:
			cmd, out := g.shellSearch(a, true)
			return sh(cmd, out, 0)
		case actList:
			cmd, out := g.shellList(a)
			return sh(cmd, out, 0)
		case actRun:
			return sh(a.cmd, a.out, a.exit)
		case actEdit, actWrite:
			verb := "M"
			if a.kind == actWrite {
				verb = "A"
			}
			return call{name: "apply_patch", input: obj{{"patch", unifiedPatch(a)}}, patch: true,
				out: fmt.Sprintf("Success. Updated the following files:\n%s %s\n", verb, a.path)}
		}
		return sh("git status --short", "", 0)
	},
})

// sweFooter ends every SWE-agent observation.
func (g *gen) sweFooter() string {
	open := "n/a"
	if g.openFile != "" {
		open = g.abs(g.openFile)
	}
	return fmt.Sprintf("(Open file: %s)\n(Current directory: %s)\nbash-$", open, g.root)
}

// sweWindow shows 100 lines of a file around line, SWE-agent style.
func (g *gen) sweWindow(path, content string, line int) string {
	total := lineCount(content)
	from := max(1, line-50)
	to := min(total, from+99)
	text, _ := window(content, from, to)
	var b strings.Builder
	fmt.Fprintf(&b, "[File: %s (%d lines total)]\n", g.abs(path), total)
	if from > 1 {
		fmt.Fprintf(&b, "(%d more lines above)\n", from-1)
	}
	for i, l := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		fmt.Fprintf(&b, "%d:%s\n", from+i, l)
	}
	if to < total {
		fmt.Fprintf(&b, "(%d more lines below)\n", total-to)
	}
	return b.String()
}

func sweRender(g *gen, a *act) call {
	mk := func(name string, in obj, action, out string) call {
		return call{name: name, input: in, action: action, out: out + g.sweFooter()}
	}
	switch a.kind {
	case actRead:
		g.openFile = a.path
		line := first(a)
		if line > 1 {
			line += 50
		}
		return mk("open", obj{{"path", a.path}, {"line_number", line}}, fmt.Sprintf("open %s %d", a.path, line), g.sweWindow(a.path, a.content, line)+"\n")
	case actSearch:
		if len(a.hits) > 0 && !a.all && g.r.chance(0.3) {
			f := a.hits[0].path
			var b strings.Builder
			n := 0
			for _, h := range a.hits {
				if h.path == f {
					fmt.Fprintf(&b, "Line %d:%s\n", h.line, h.text)
					n++
				}
			}
			out := fmt.Sprintf("Found %d matches for %q in %s:\n%sEnd of matches for %q in %s\n", n, a.pattern, g.abs(f), b.String(), a.pattern, g.abs(f))
			return mk("search_file", obj{{"search_term", a.pattern}, {"file", f}}, fmt.Sprintf("search_file %s %s", shq(a.pattern), f), out)
		}
		counts := map[string]int{}
		var files []string
		for _, h := range a.hits {
			if counts[h.path] == 0 {
				files = append(files, h.path)
			}
			counts[h.path]++
		}
		var b strings.Builder
		for _, f := range files {
			fmt.Fprintf(&b, "%s (%d matches)\n", g.abs(f), counts[f])
		}
		dir := g.abs(a.dir)
		out := fmt.Sprintf("Found %d matches for %q in %s:\n%sEnd of matches for %q in %s\n", len(a.hits), a.pattern, dir, b.String(), a.pattern, dir)
		return mk("search_dir", obj{{"search_term", a.pattern}, {"dir", a.dir}}, strings.TrimSpace(fmt.Sprintf("search_dir %s %s", shq(a.pattern), a.dir)), out)
	case actList:
		name := strings.TrimPrefix(a.pattern, "**/")
		out := fmt.Sprintf("Found %d matches for %q in %s:\n%s", len(a.paths), name, g.abs(a.dir), listLines(a.paths, g.root))
		return mk("find_file", obj{{"file_name", name}, {"dir", a.dir}}, strings.TrimSpace(fmt.Sprintf("find_file %s %s", shq(name), a.dir)), out)
	case actRun:
		c := mk("bash", obj{{"command", a.cmd}}, a.cmd, a.out)
		c.exit = a.exit
		return c
	case actEdit:
		g.openFile = a.path
		end := a.line + len(strings.Split(a.old, "\n")) - 1
		out := g.sweWindow(a.path, a.content, a.line) + "File updated. Please review the changes and make sure they are correct (correct indentation, no duplicate lines, etc). Edit the file again if necessary.\n"
		return mk("edit", obj{{"replacement_text", a.new}, {"start_line", a.line}, {"end_line", end}}, fmt.Sprintf("edit %d:%d\n%s\nend_of_edit", a.line, end, strings.TrimRight(a.new, "\n")), out)
	case actWrite:
		g.openFile = a.path
		return mk("create", obj{{"filename", a.path}}, "create "+a.path, fmt.Sprintf("[File: %s (1 lines total)]\n1:\n", g.abs(a.path)))
	case actSubmit:
		return mk("submit", obj{}, "submit", "")
	}
	return mk("bash", obj{{"command", "ls"}}, "ls", "")
}

var _ = addToolset(&toolset{name: "swe-agent", text: true, render: sweRender})

var _ = addToolset(&toolset{name: "swe-agent-fc", render: sweRender, tools: []toolDef{
	{"open", "opens the file at the given path in the editor", []string{"path", "line_number:integer"}, []string{"path"}},
	{"search_dir", "searches for search_term in all files in dir", []string{"search_term", "dir"}, []string{"search_term"}},
	{"search_file", "searches for search_term in file", []string{"search_term", "file"}, []string{"search_term"}},
	{"find_file", "finds all files with the given name in dir", []string{"file_name", "dir"}, []string{"file_name"}},
	{"edit", "replaces lines start_line through end_line of the open file", []string{"replacement_text", "start_line:integer", "end_line:integer"}, []string{"replacement_text", "start_line", "end_line"}},
	{"create", "creates and opens a new file", []string{"filename"}, []string{"filename"}},
	{"bash", "runs a bash command", []string{"command"}, []string{"command"}},
	{"submit", "submits the current changes", nil, nil},
}})

var _ = addToolset(&toolset{
	name: "openhands",
	tools: []toolDef{
		{"execute_bash", "Execute a bash command in the terminal.", []string{"command", "is_input"}, []string{"command"}},
		{"str_replace_editor", "Custom editing tool for viewing, creating and editing files.", []string{"command", "path", "file_text", "old_str", "new_str", "view_range:array"}, []string{"command", "path"}},
		{"think", "Log a thought.", []string{"thought"}, []string{"thought"}},
		{"finish", "Finish the interaction.", []string{"message"}, []string{"message"}},
	},
	render: func(g *gen, a *act) call {
		bash := func(cmd, out string, exit int) call {
			return call{name: "execute_bash", input: obj{{"command", cmd}, {"is_input", "false"}},
				out: fmt.Sprintf("%s\n[The command completed with exit code %d.]", strings.TrimRight(out, "\n"), exit), isErr: exit != 0, exit: exit}
		}
		switch a.kind {
		case actRead:
			in := obj{{"command", "view"}, {"path", g.abs(a.path)}}
			if a.from > 0 {
				in = append(in, kv{"view_range", []int{a.from, a.to}})
			}
			text, _ := a.readText()
			return call{name: "str_replace_editor", input: in, out: fmt.Sprintf("Here's the result of running `cat -n` on %s:\n%s", g.abs(a.path), numberLinesW(text, first(a), "\t", 6))}
		case actSearch:
			cmd, out := g.shellSearch(a, false)
			return bash(cmd, out, 0)
		case actList:
			return call{name: "str_replace_editor", input: obj{{"command", "view"}, {"path", g.abs(a.dir)}},
				out: fmt.Sprintf("Here's the files and directories up to 2 levels deep in %s, excluding hidden items:\n%s", g.abs(a.dir), listLines(a.paths, g.root))}
		case actRun:
			return bash(a.cmd, a.out, a.exit)
		case actEdit:
			return call{name: "str_replace_editor", input: obj{{"command", "str_replace"}, {"path", g.abs(a.path)}, {"old_str", a.old}, {"new_str", a.new}},
				out: fmt.Sprintf("The file %s has been edited. Here's the result of running `cat -n` on a snippet of %s:\n%sReview the changes and make sure they are as expected. Edit the file again if necessary.", g.abs(a.path), g.abs(a.path), editSnippet(a, "\t", 6))}
		case actWrite:
			return call{name: "str_replace_editor", input: obj{{"command", "create"}, {"path", g.abs(a.path)}, {"file_text", a.content}}, out: "File created successfully at: " + g.abs(a.path)}
		}
		return bash("git status", "", 0)
	},
})

var _ = addToolset(&toolset{
	name: "text-editor",
	tools: []toolDef{
		{"bash", "Run commands in a bash shell.", []string{"command", "restart:boolean"}, nil},
		{"str_replace_based_edit_tool", "Custom editing tool for viewing, creating and editing files.", []string{"command", "path", "file_text", "old_str", "new_str", "view_range:array"}, []string{"command", "path"}},
	},
	render: func(g *gen, a *act) call {
		bash := func(cmd, out string, exit int) call {
			return call{name: "bash", input: obj{{"command", cmd}}, out: out, isErr: exit != 0, exit: exit}
		}
		switch a.kind {
		case actRead:
			in := obj{{"command", "view"}, {"path", g.abs(a.path)}}
			if a.from > 0 {
				in = append(in, kv{"view_range", []int{a.from, a.to}})
			}
			text, _ := a.readText()
			return call{name: "str_replace_based_edit_tool", input: in, out: numberLinesW(text, first(a), ": ", 1)}
		case actSearch:
			cmd, out := g.shellSearch(a, g.r.chance(0.5))
			return bash(cmd, out, 0)
		case actList:
			cmd, out := g.shellList(a)
			return bash(cmd, out, 0)
		case actRun:
			return bash(a.cmd, a.out, a.exit)
		case actEdit:
			return call{name: "str_replace_based_edit_tool", input: obj{{"command", "str_replace"}, {"path", g.abs(a.path)}, {"old_str", a.old}, {"new_str", a.new}},
				out: "Successfully replaced text at exactly one location."}
		case actWrite:
			return call{name: "str_replace_based_edit_tool", input: obj{{"command", "create"}, {"path", g.abs(a.path)}, {"file_text", a.content}}, out: "File created successfully at: " + g.abs(a.path)}
		}
		return bash("git status", "", 0)
	},
})

var _ = addToolset(&toolset{
	name: "generic-a",
	tools: []toolDef{
		{"read_file", "Read a file of the repository.", []string{"path"}, []string{"path"}},
		{"run_command", "Run a shell command in the repository root.", []string{"command", "timeout:integer"}, []string{"command"}},
		{"edit_file", "Replace one occurrence of old with new in a file.", []string{"path", "old", "new"}, []string{"path", "old", "new"}},
		{"search_code", "Search the code for a regular expression.", []string{"query", "path"}, []string{"query"}},
		{"list_files", "List the files under a directory.", []string{"dir", "recursive:boolean"}, []string{"dir"}},
		{"write_file", "Create or overwrite a file.", []string{"path", "content"}, []string{"path", "content"}},
	},
	render: func(g *gen, a *act) call {
		switch a.kind {
		case actRead:
			text, _ := a.readText()
			return call{name: "read_file", input: obj{{"path", a.path}}, out: numberLinesW(text, first(a), " | ", 4)}
		case actSearch:
			return call{name: "search_code", input: obj{{"query", a.pattern}, {"path", a.dir}}, out: grepLines(a.hits, "")}
		case actList:
			return call{name: "list_files", input: obj{{"dir", a.dir}, {"recursive", true}}, out: listLines(a.paths, "")}
		case actRun:
			return call{name: "run_command", input: obj{{"command", a.cmd}, {"timeout", 300}},
				out: fmt.Sprintf("exit_code: %d\n--- output ---\n%s", a.exit, a.out), isErr: a.exit != 0, exit: a.exit}
		case actEdit:
			return call{name: "edit_file", input: obj{{"path", a.path}, {"old", a.old}, {"new", a.new}}, out: fmt.Sprintf("Edited %s: replaced 1 occurrence.", a.path)}
		case actWrite:
			return call{name: "write_file", input: obj{{"path", a.path}, {"content", a.content}}, out: fmt.Sprintf("Wrote %d bytes to %s.", len(a.content), a.path)}
		}
		return call{name: "run_command", input: obj{{"command", "git status"}}, out: "exit_code: 0\n--- output ---\n"}
	},
})

var _ = addToolset(&toolset{
	name: "generic-b",
	tools: []toolDef{
		{"view_file", "Show lines of a file.", []string{"filename", "start_line:integer", "end_line:integer"}, []string{"filename"}},
		{"exec", "Execute a command and return its combined output.", []string{"cmd", "cwd"}, []string{"cmd"}},
		{"replace_in_file", "Replace text in a file.", []string{"filename", "find", "replace"}, []string{"filename", "find", "replace"}},
		{"grep", "Search files for a pattern.", []string{"pattern", "include"}, []string{"pattern"}},
		{"find_files", "Find files matching a glob.", []string{"glob"}, []string{"glob"}},
		{"create_file", "Create a new file.", []string{"filename", "text"}, []string{"filename", "text"}},
	},
	render: func(g *gen, a *act) call {
		switch a.kind {
		case actRead:
			in := obj{{"filename", a.path}}
			if a.from > 0 {
				in = append(in, kv{"start_line", a.from}, kv{"end_line", a.to})
			}
			text, _ := a.readText()
			return call{name: "view_file", input: in, out: text}
		case actSearch:
			return call{name: "grep", input: obj{{"pattern", a.pattern}, {"include", joinPath(a.dir, "**")}}, out: grepLines(a.hits, "")}
		case actList:
			return call{name: "find_files", input: obj{{"glob", joinPath(a.dir, a.pattern)}}, out: listLines(a.paths, "")}
		case actRun:
			return call{name: "exec", input: obj{{"cmd", a.cmd}, {"cwd", g.root}},
				out: fmt.Sprintf("$ %s\n%s[exit status: %d]", a.cmd, a.out, a.exit), isErr: a.exit != 0, exit: a.exit}
		case actEdit:
			return call{name: "replace_in_file", input: obj{{"filename", a.path}, {"find", a.old}, {"replace", a.new}}, out: "ok: 1 replacement in " + a.path}
		case actWrite:
			return call{name: "create_file", input: obj{{"filename", a.path}, {"text", a.content}}, out: "created " + a.path}
		}
		return call{name: "exec", input: obj{{"cmd", "git status"}}, out: "$ git status\n[exit status: 0]"}
	},
})

var _ = addToolset(&toolset{
	name: "mini-swe-agent", text: true,
	render: func(g *gen, a *act) call {
		obs := func(cmd, out string, exit int) call {
			return call{name: "bash", input: obj{{"command", cmd}}, action: cmd, exit: exit,
				out: fmt.Sprintf("<returncode>%d</returncode>\n<output>\n%s</output>", exit, out)}
		}
		switch a.kind {
		case actRead:
			cmd, out := g.shellRead(a)
			return obs(cmd, out, 0)
		case actSearch:
			cmd, out := g.shellSearch(a, false)
			return obs(cmd, out, 0)
		case actList:
			cmd, out := g.shellList(a)
			return obs(cmd, out, 0)
		case actRun:
			return obs(a.cmd, a.out, a.exit)
		case actEdit:
			if !strings.Contains(a.old, "\n") && !strings.ContainsAny(a.old+a.new, "/'&\\") {
				return obs(fmt.Sprintf("sed -i 's/%s/%s/' %s", a.old, a.new, a.path), "", 0)
			}
			return obs(fmt.Sprintf("python3 - <<'EOF'\nimport pathlib\np = pathlib.Path(%q)\ns = p.read_text()\ns = s.replace(%q, %q, 1)\np.write_text(s)\nEOF", a.path, a.old, a.new), "", 0)
		case actWrite:
			return obs(fmt.Sprintf("cat <<'EOF' > %s\n%sEOF", a.path, a.content), "", 0)
		case actSubmit:
			return obs("echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT && git add -A && git diff --cached", "", 0)
		}
		return obs("git status", "", 0)
	},
})
