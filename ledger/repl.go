package ledger

import (
	"strings"
)

// This file reads what was typed into an interactive program whose
// session a tool printed: a database shell, a language's REPL, a
// debugger, redis-cli. Their prompts are too many to list ("mysql> ",
// "127.0.0.1:6379> ", "irb(main):004:0> ", "jshell> ", "(chat@node-2)1> ",
// "trino:analytics> ", "postgres=# "), but a prompt is told by what it
// does: it opens two lines or more of the output, the same but for its
// counters. What follows it on a line is a command the agent (or the
// person whose session was pasted) ran, kept as written.

// maxPromptHead caps a prompt's length, in bytes, sign included.
const maxPromptHead = 60

// promptHeadOf returns the prompt opening line t: the text up to a "> " or
// "# " sign, of one word or two ("PS C:\src> ", "(vectord) pkg> "), or
// Python's ">>> ", IPython's "In [4]: " and a debugger's "(gdb) ". ""
// when t opens with none.
func promptHeadOf(t string) string {
	if strings.HasPrefix(t, ">>> ") {
		return ">>> "
	}
	if strings.HasPrefix(t, "In [") {
		if k := strings.Index(t, "]: "); k > 4 && allDigits(t[4:k]) {
			return t[:k+3]
		}
	}
	if t != "" && t[0] == '(' {
		if k := strings.Index(t, ") "); k > 1 && k <= 8 && isLowerWord(strings.ToLower(t[1:k])) && !strings.HasPrefix(t[k+2:], "pkg>") {
			return t[:k+2] // "(gdb) ", "(lldb) ", "(Pdb) "
		}
	}
	k := -1
	for _, sign := range []string{"> ", "# "} {
		if i := strings.Index(t[:min(len(t), maxPromptHead)], sign); i >= 0 && (k < 0 || i < k) {
			k = i
		}
	}
	if k < 1 {
		return ""
	}
	head := t[:k+1]
	name := strings.TrimRight(head[:k], " ")
	switch {
	case strings.Trim(head, "+#>=- ") == "" || strings.Count(head, " ") > 1 || head[k-1] == ' ':
		return "" // a quote, a heading, a diff's side, a rule
	case strings.ContainsRune(head, '<'):
		return "" // a chat's "<nick>", markup, a type's parameters
	case head[k-1] == ':' || strings.IndexByte("-=", head[k-1]) >= 0 && (k < 2 || head[k-2] == ' '):
		return "" // a grep hit's "file:12:#", an arrow's " -> ", " => " (not psql's "orders=# ")
	case len(name) < 2 || logLevels[name]:
		return "" // "C# …", a log's "INFO> " (not Oracle's "SQL> ")
	}
	return t[:k+2]
}

// replPrompts returns the prompts of text: the heads (promptHeadOf) that
// open two lines or more, their counters masked. nil when there are none.
func replPrompts(text string) []string {
	if strings.Count(text, "\n") < 2 || !strings.Contains(text, "> ") && !strings.Contains(text, "# ") && !strings.Contains(text, "]: ") && !strings.Contains(text, ") ") {
		return nil
	}
	var heads []string
	var counts []int
	read := 0
	for start := 0; start < len(text) && read < 2000; read++ {
		end := lineEnd(text, start)
		t := strings.TrimSpace(text[start:end])
		start = end + 1
		h := promptHeadOf(t)
		if h == "" || strings.TrimSpace(t[len(h):]) == "" {
			continue
		}
		m := maskDigitRuns(h, false)
		found := false
		for i, x := range heads {
			if x == m {
				counts[i]++
				found = true
				break
			}
		}
		if !found && len(heads) < 8 {
			heads, counts = append(heads, m), append(counts, 1)
		}
	}
	var out []string
	for i, h := range heads {
		if counts[i] >= 2 {
			out = append(out, h)
		}
	}
	return out
}

// typedAtPrompt returns what was typed after one of the prompts at the
// start of t, when it reads as a command: two words or more, or one long
// word (a method chain), not a REPL's own exit or help.
func typedAtPrompt(t string, prompts []string) (string, bool) {
	h := promptHeadOf(t)
	if h == "" {
		return "", false
	}
	m := maskDigitRuns(h, false)
	for _, p := range prompts {
		if p != m {
			continue
		}
		c := strings.TrimSpace(t[len(h):])
		if len(strings.Fields(c)) < 2 && len(c) < 12 {
			return "", false
		}
		return c, true
	}
	return "", false
}

// logLevels are the levels a log may print before a '>' as if a prompt.
var logLevels = map[string]bool{"INFO": true, "WARN": true, "WARNING": true, "ERROR": true, "DEBUG": true,
	"TRACE": true, "FATAL": true, "NOTE": true, "info": true, "warn": true, "error": true, "debug": true}
