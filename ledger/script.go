package ledger

import (
	"strings"
)

// This file reads the files a shell command or script touches: what it
// prints (cat, head, sed -n), what it writes (redirections, tee, sed -i,
// heredocs into a file, patches fed to apply_patch or git apply, Python
// heredocs that write a file) and what it only names.

// fileUse is a file a command touches and how.
type fileUse struct {
	path string
	acc  Access
}

// viewers are commands whose output is the content of the files they name.
var viewers = map[string]bool{"cat": true, "head": true, "tail": true, "nl": true, "less": true,
	"more": true, "bat": true, "view": true, "tac": true}

// interpreters run a heredoc body as a program.
var pythons = map[string]bool{"python": true, "python3": true, "python2": true, "py": true}

// scriptFiles returns the files a shell command or script touches, in order
// of appearance, each with the heaviest access seen for it. Heredoc bodies
// are not read as commands: a patch fed to apply_patch, patch or git apply
// gives the files it writes, a Python program the files it opens, a shell
// body is read as a script, and any other body (cat <<EOF > file) is data.
func scriptFiles(script string) []fileUse {
	var out []fileUse
	seen := make(map[string]int)
	use := func(p string, acc Access) {
		if i, ok := seen[p]; ok {
			out[i].acc = max(out[i].acc, acc)
			return
		}
		seen[p] = len(out)
		out = append(out, fileUse{p, acc})
	}
	if strings.Contains(script, "*** Begin Patch") {
		for _, f := range patchFiles(script) {
			use(f, Written)
		}
	}
	lines := strings.Split(script, "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		// A backslash at the end of a line continues the command.
		for strings.HasSuffix(line, "\\") && i+1 < len(lines) {
			i++
			line = line[:len(line)-1] + " " + lines[i]
		}
		if strings.Contains(line, "*** Begin Patch") {
			// An inline apply_patch argument: its lines were read above.
			for i+1 < len(lines) && !strings.Contains(lines[i], "*** End Patch") {
				i++
			}
			continue
		}
		cmdLine, delim, strip, hasDoc := cutHeredoc(line)
		var body []string
		if hasDoc {
			j := i + 1
			for j < len(lines) {
				t := lines[j]
				if strip {
					t = strings.TrimLeft(t, "\t")
				}
				if strings.TrimRight(t, " \r") == delim {
					break
				}
				j++
			}
			body = lines[i+1 : min(j, len(lines))]
			i = j
		}
		feeder := lineFiles(cmdLine, use)
		if !hasDoc {
			continue
		}
		text := strings.Join(body, "\n")
		switch {
		case feeder == "apply_patch" || feeder == "patch" || feeder == "git apply":
			for _, f := range patchFiles(text) {
				use(f, Written)
			}
		case pythons[feeder] || strings.HasPrefix(feeder, "python3."):
			for _, u := range pythonFiles(text) {
				use(u.path, u.acc)
			}
		case feeder == "bash" || feeder == "sh" || feeder == "zsh":
			for _, u := range scriptFiles(text) {
				use(u.path, u.acc)
			}
		}
	}
	return out
}

// cutHeredoc finds a heredoc operator (<<EOF, << 'EOF', <<-"END") in a
// command line and returns the line without it, the delimiter, and whether
// leading tabs are stripped from the body (<<-). A here-string (<<<) is not
// a heredoc.
func cutHeredoc(line string) (rest, delim string, strip, ok bool) {
	for off := 0; ; {
		k := strings.Index(line[off:], "<<")
		if k < 0 {
			return line, "", false, false
		}
		k += off
		off = k + 2
		if strings.HasPrefix(line[k:], "<<<") {
			off = k + 3
			continue
		}
		j := k + 2
		if j < len(line) && line[j] == '-' {
			strip = true
			j++
		}
		for j < len(line) && line[j] == ' ' {
			j++
		}
		q := byte(0)
		if j < len(line) && (line[j] == '\'' || line[j] == '"') {
			q = line[j]
			j++
		}
		e := j
		for e < len(line) && (isAlnum(line[e]) || line[e] == '_') {
			e++
		}
		if e == j {
			strip = false
			continue
		}
		delim = line[j:e]
		if q != 0 {
			if e >= len(line) || line[e] != q {
				strip = false
				continue
			}
			e++
		}
		return line[:k] + " " + line[e:], delim, strip, true
	}
}

// lineFiles reads one command line (pipelines and lists joined by |, &&,
// || and ;) and passes the files it touches to use. It returns the command
// that reads the line's heredoc, if any: the command of the first segment
// that takes no other input, "git apply" for git apply, "" when unknown.
func lineFiles(line string, use func(string, Access)) (feeder string) {
	toks := shellTokens(line)
	start := 0
	for k := 0; k <= len(toks); k++ {
		if k < len(toks) && !isListOp(toks[k]) {
			continue
		}
		name := segmentFiles(toks[start:k], use)
		if feeder == "" && name != "" {
			feeder = name
		}
		start = k + 1
	}
	return feeder
}

func isListOp(t string) bool {
	return t == "&&" || t == "||" || t == ";" || t == "|" || t == "&"
}

func isRedirect(t string) bool {
	switch t {
	case ">", ">>", "&>", "&>>", "1>", "1>>", "2>", "2>>", ">|":
		return true
	}
	return false
}

// segmentFiles reads one simple command and returns its name ("git apply"
// for that subcommand).
func segmentFiles(toks []string, use func(string, Access)) string {
	var words []string
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		switch {
		case isRedirect(t):
			if k+1 < len(toks) {
				k++
				if p, ok := argPath(toks[k]); ok {
					use(p, Written)
				}
			}
		case t == "<":
			if k+1 < len(toks) {
				k++
				if p, ok := argPath(toks[k]); ok {
					use(p, Read)
				}
			}
		default:
			words = append(words, t)
		}
	}
	// Skip environment assignments and wrappers: FOO=1 sudo -E cmd.
	for len(words) > 0 {
		w := words[0]
		if eq := strings.IndexByte(w, '='); eq > 0 && !strings.ContainsAny(w[:eq], "/.-") {
			words = words[1:]
			continue
		}
		if w == "sudo" || w == "env" || w == "time" || w == "command" || w == "nohup" || w == "exec" {
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:]
			}
			continue
		}
		break
	}
	if len(words) == 0 {
		return ""
	}
	name := words[0][strings.LastIndexByte(words[0], '/')+1:]
	args := words[1:]
	acc := Mentioned
	inPlace := false
	for _, a := range args {
		if a == "-i" || strings.HasPrefix(a, "-i.") || a == "--in-place" || strings.HasPrefix(a, "--in-place=") ||
			name == "perl" && strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "i") {
			inPlace = true
		}
	}
	switch {
	case viewers[name]:
		acc = Read
	case name == "sed" || name == "perl" || name == "awk":
		if inPlace {
			acc = Written
		} else if name == "sed" {
			acc = Read
		}
	case name == "tee" || name == "touch":
		acc = Written
	case name == "cp" || name == "mv" || name == "install":
		// The last argument is written; the others are read (or moved).
		var paths []string
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				paths = append(paths, a)
			}
		}
		for n, a := range paths {
			if p, ok := argPath(a); ok {
				if n == len(paths)-1 && len(paths) > 1 {
					use(p, Written)
				} else {
					use(p, Mentioned)
				}
			}
		}
		return name
	case name == "git" && len(args) > 0 && args[0] == "apply":
		name = "git apply"
	}
	for _, a := range args {
		if strings.HasPrefix(a, "-") || strings.Contains(a, "://") {
			continue
		}
		if p, ok := argPath(a); ok {
			use(p, acc)
		}
	}
	return name
}

// argPath says whether a command argument is a path: one with a separator
// and an extension or a known root, or a bare file name with an extension.
func argPath(tok string) (string, bool) {
	if tok == "/dev/null" || strings.HasPrefix(tok, "&") || strings.HasPrefix(tok, "/dev/") {
		return "", false
	}
	p, ok := cleanPath(tok, false)
	if !ok && hasExt(tok[strings.LastIndexByte(tok, '/')+1:]) {
		p, ok = cleanPath(tok, true)
	}
	return p, ok
}

// shellOps are the operators shellTokens knows, longest first.
var shellOps = []string{"&>>", "&&", "||", "&>", ">>", ">|", ">&", "|", "&", ";", "<", ">"}

// shellTokens splits a command line into words and operators (|, ||, &&,
// ;, &, <, > and the redirections 2>, >>, &>), removing quotes. A word
// that is a whole quoted string keeps its inner text; an unterminated quote
// runs to the end of the line.
func shellTokens(line string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			out = append(out, cur.String())
			cur.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == '\'' || c == '"':
			inWord = true
			j := strings.IndexByte(line[i+1:], c)
			if j < 0 {
				cur.WriteString(line[i+1:])
				i = len(line)
				break
			}
			cur.WriteString(line[i+1 : i+1+j])
			i += j + 1
		case c == '\\' && i+1 < len(line):
			inWord = true
			cur.WriteByte(line[i+1])
			i++
		case c == ' ' || c == '\t' || c == '\r':
			flush()
		case c == '#' && !inWord:
			// A comment runs to the end of the line.
			i = len(line)
		case strings.IndexByte("|&;<>", c) >= 0:
			// A file descriptor number right before a redirection
			// belongs to it: 2> and 1>>.
			fd := ""
			if c == '>' && inWord && (cur.String() == "1" || cur.String() == "2") {
				fd = cur.String()
				cur.Reset()
				inWord = false
			}
			flush()
			op := string(c)
			for _, o := range shellOps {
				if strings.HasPrefix(line[i:], o) {
					op = o
					break
				}
			}
			i += len(op) - 1
			// 2>&1 and >&2 duplicate a descriptor: not a file.
			if strings.HasSuffix(op, ">&") {
				for i+1 < len(line) && isDigit(line[i+1]) {
					i++
				}
				continue
			}
			out = append(out, fd+op)
		default:
			inWord = true
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// pythonFiles returns the files a Python program opens: the literal of
// open("x", "w") is written and of open("x") read; the literal of
// Path("x") is written when the program calls write_text, write_bytes or
// opens a path for writing, and read otherwise.
func pythonFiles(prog string) []fileUse {
	var out []fileUse
	writes := strings.Contains(prog, ".write_text(") || strings.Contains(prog, ".write_bytes(")
	for _, fn := range []string{"Path(", "open("} {
		for off := 0; ; {
			k := strings.Index(prog[off:], fn)
			if k < 0 {
				break
			}
			k += off
			off = k + len(fn)
			if fn == "open(" && k > 0 && (isAlnum(prog[k-1]) || prog[k-1] == '_') {
				continue // os.fdopen(, reopen(
			}
			lit, rest, ok := pyString(prog[off:])
			if !ok {
				continue
			}
			p, ok := cleanPath(lit, true)
			if !ok || !strings.Contains(p, "/") && !hasExt(p) {
				continue
			}
			acc := Read
			if fn == "Path(" && writes {
				acc = Written
			}
			if fn == "open(" {
				if mode, _, ok := pyString(strings.TrimLeft(strings.TrimPrefix(strings.TrimSpace(rest), ","), " ")); ok && strings.ContainsAny(mode, "wax+") {
					acc = Written
				}
			}
			out = append(out, fileUse{p, acc})
		}
	}
	return out
}

// pyString reads a Python string literal at the start of s (after spaces,
// with an r/b/f prefix) and returns its text and what follows.
func pyString(s string) (lit, rest string, ok bool) {
	s = strings.TrimLeft(s, " ")
	s = strings.TrimLeft(s, "rbfRBF")
	if s == "" || s[0] != '"' && s[0] != '\'' {
		return "", s, false
	}
	q := s[0]
	j := strings.IndexByte(s[1:], q)
	if j < 0 {
		return "", s, false
	}
	return s[1 : 1+j], s[2+j:], true
}
