package summarize

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// This file reads what the agent did in a span, step by step: every tool
// call with its result becomes a run (the command it ran and its exit
// status, or the tool and the file it touched, and whether it failed), and
// the user's and the assistant's texts become requests and intentions.
// Agents that speak a text protocol instead of tool calls (a fenced shell
// block in the assistant's text, the output in the next user message, as
// mini-swe-agent does) are read the same way.

// run is one tool step: a call and its result.
type run struct {
	// key identifies repeats of the same action: the command line, or the
	// tool name and the file it touched.
	key string
	// cmd is the command the run executed, with the exit status read from
	// its result, when the tool was a shell; nil otherwise.
	cmd *ledger.Item
	// desc renders a run that is not a command: "tool path".
	desc string
	// tool is the tool's name.
	tool   string
	failed bool
	// known says the outcome is known: an exit status, an error flag or
	// the output itself was seen. A masked result whose placeholder kept
	// no status is neither a success nor a failure.
	known bool
	// errs are the error lines of a failed run's output.
	errs []ledger.Item
	// reads and writes are the files the run read and wrote.
	reads, writes []string
	index         int
}

// activity is what a span holds, read message by message.
type activity struct {
	messages, users int
	// requests are the user's texts, oldest first, with the log index of
	// each; observations of text-protocol agents and tag-only boilerplate
	// are left out.
	requests []request
	runs     []run
	// lastTextIndex is the log index of the newest assistant text.
	lastTextIndex int
	// reports are the first lines of the assistant's answers (texts with
	// no tool call) that are not only intentions, oldest first.
	reports []string
	// intents are intention sentences of the newest assistant texts that
	// state any, newest message last.
	intents []string
	// observations are the log indexes of user messages that hold the
	// output of a text-protocol step, not the user's words.
	observations map[int]bool
}

type request struct {
	text  string
	index int
}

// readActivity reads msgs, a span whose first message has log index base.
// Failed and aborted assistant replies are left out.
func readActivity(msgs []condense.Message, base int) activity {
	a := activity{messages: len(msgs), lastTextIndex: -1, observations: map[int]bool{}}
	calls := map[string]*condense.Part{}
	pending := "" // the command of a text-protocol step awaiting its output
	relayed := ledger.Observations(msgs, base)
	for i := range msgs {
		m := &msgs[i]
		idx := base + i
		if m.Role == condense.RoleAssistant && m.Status != condense.StatusComplete {
			continue
		}
		switch m.Role {
		case condense.RoleUser:
			text := strings.TrimSpace(m.TextContent())
			if relayed[i] || isObservation(text) {
				a.observations[idx] = true
				if pending != "" {
					a.runs = append(a.runs, textRun(pending, text, idx))
				}
				pending = ""
				continue
			}
			pending = ""
			if text == "" || tagOnly(text) || marker(text) {
				continue
			}
			a.users++
			a.requests = append(a.requests, request{text: text, index: idx})
		case condense.RoleAssistant:
			pending = ""
			for k := range m.Parts {
				if m.Parts[k].Type == condense.PartToolCall {
					calls[m.Parts[k].ID] = &m.Parts[k]
				}
			}
			text := strings.TrimSpace(m.TextContent())
			if text == "" {
				continue
			}
			a.lastTextIndex = idx
			if in := intentions(text); len(in) > 0 {
				a.intents = in
			}
			if !m.HasToolCalls() {
				pending = fencedCommand(text)
				if pending == "" && i+1 < len(msgs) && relayed[i+1] {
					// A text-protocol action in a bare fence (SWE-agent's
					// "```\nfind_file x.py\n```"): its output follows.
					pending = fencedBlock(text)
				}
				if pending == "" && len(intentions(text)) == 0 {
					a.reports = append(a.reports, firstLine(text, 160))
				}
			}
		case condense.RoleTool:
			pending = ""
			for k := range m.Parts {
				if p := &m.Parts[k]; p.Type == condense.PartToolResult {
					a.runs = append(a.runs, toolRun(calls[p.CallID], p, idx))
				}
			}
		}
	}
	return a
}

// toolRun reads one tool result with the call it answers (nil when the call
// is not in the span).
func toolRun(call, result *condense.Part, idx int) run {
	items := ledger.ExtractResult(call, result, idx)
	if kept := placeholderItems(resultText(result)); len(kept) > 0 {
		items = fromPlaceholder(items, kept)
	}
	r := run{index: idx}
	if call != nil {
		r.tool = call.Name
	}
	for i := range items {
		it := &items[i]
		if it.Kind == ledger.KindCommand && r.cmd == nil {
			c := *it
			r.cmd = &c
		}
	}
	fileRuns(&r, items)
	masked := strings.HasPrefix(strings.TrimSpace(resultText(result)), placeholderPrefix)
	if r.cmd != nil {
		r.key = "command\x00" + r.cmd.Value
		r.failed = (r.cmd.Exit != nil && *r.cmd.Exit != 0) || r.cmd.Failed ||
			(r.cmd.Exit == nil && !masked && looksFailed(result))
		r.known = r.failed || r.cmd.Exit != nil || !masked
	} else {
		r.desc = describeTool(call, r.reads, r.writes)
		r.key = "tool\x00" + r.desc
		r.failed = result.IsError
		r.known = true
	}
	if r.failed {
		r.errs = errorItems(items)
	}
	return r
}

// fromPlaceholder merges what a masked result's placeholder kept into the
// items of its call: the command takes the exit status the placeholder
// recorded, and the kept errors and files join.
func fromPlaceholder(items, kept []ledger.Item) []ledger.Item {
	var out []ledger.Item
	for _, it := range items {
		if it.Kind != ledger.KindCommand {
			out = append(out, it)
			continue
		}
		for _, k := range kept {
			if k.Kind == ledger.KindCommand && k.Value == it.Value {
				it.Exit, it.Failed = k.Exit, k.Failed
			}
		}
		out = append(out, it)
	}
	for _, k := range kept {
		if k.Kind == ledger.KindError || k.Kind == ledger.KindFile {
			out = append(out, k)
		}
	}
	return ledger.Dedup(out)
}

// textRun reads one step of a text-protocol agent: the command of the
// assistant's fenced block and the output the next user message holds.
func textRun(cmd, output string, idx int) run {
	in, _ := json.Marshal(map[string]string{"command": cmd})
	call := condense.ToolCall("text-step", "bash", in)
	result := condense.ToolResult("text-step", false, condense.Text(output))
	r := toolRun(&call, &result, idx)
	r.tool = ""
	if code, ok := returnCode(output); ok && r.cmd != nil && r.cmd.Exit == nil {
		r.cmd.Exit = &code
		r.failed, r.known = code != 0, true
		if r.failed && len(r.errs) == 0 {
			r.errs = errorItems(ledger.ExtractResult(&call, &result, idx))
		}
	}
	return r
}

// returnCode reads the status a text-protocol observation starts with:
// <returncode>1</returncode>, <exit_code>1</exit_code>.
func returnCode(output string) (int, bool) {
	for _, tag := range []string{"returncode", "exit_code", "exitcode", "exit"} {
		rest, ok := strings.CutPrefix(output, "<"+tag+">")
		if !ok {
			continue
		}
		num, _, ok := strings.Cut(rest, "</"+tag+">")
		if !ok {
			return 0, false
		}
		code, err := strconv.Atoi(strings.TrimSpace(num))
		return code, err == nil
	}
	return 0, false
}

func fileRuns(r *run, items []ledger.Item) {
	for _, it := range items {
		if it.Kind != ledger.KindFile {
			continue
		}
		switch it.Access {
		case ledger.Written:
			r.writes = append(r.writes, it.Value)
		case ledger.Read:
			r.reads = append(r.reads, it.Value)
		}
	}
}

func errorItems(items []ledger.Item) []ledger.Item {
	var out []ledger.Item
	for _, it := range items {
		if it.Kind == ledger.KindError {
			out = append(out, it)
		}
	}
	return out
}

// describeTool names a step that ran no command: the tool and the file it
// wrote or read, else the first path-like or query-like input it was given.
func describeTool(call *condense.Part, reads, writes []string) string {
	if call == nil {
		return "a tool call"
	}
	name := call.Name
	var in map[string]any
	_ = json.Unmarshal(call.Input, &in)
	if sub, ok := in["command"].(string); ok && sub != "" && !strings.ContainsAny(sub, " \n") {
		name += " " + sub // an editor tool's sub-command: str_replace, view, …
	}
	switch {
	case len(writes) > 0:
		return name + " " + writes[0]
	case len(reads) > 0:
		return name + " " + reads[0]
	}
	for _, k := range []string{"path", "file_path", "filename", "file", "target", "query", "pattern", "search_term", "url"} {
		if s, ok := in[k].(string); ok && strings.TrimSpace(s) != "" {
			return name + " " + firstLine(s, 120)
		}
	}
	return name
}

// looksFailed spots failures a tool reported in its text but neither in its
// flag nor in an exit status.
func looksFailed(p *condense.Part) bool {
	for _, c := range p.Content {
		if c.Type != condense.PartText {
			continue
		}
		t := c.Text
		if strings.Contains(t, "--- FAIL") || strings.Contains(t, "\nFAIL") || strings.HasPrefix(t, "FAIL") ||
			strings.Contains(t, "panic: ") || strings.Contains(t, "Traceback (most recent call last)") ||
			strings.Contains(t, "exit status 1") || strings.Contains(t, "npm ERR!") || strings.Contains(t, "error[E") {
			return true
		}
	}
	return false
}

// isObservation reports whether a user message is the output of the
// previous text-protocol step rather than something the user wrote: it
// starts with a status or output tag or an observation label.
func isObservation(text string) bool {
	low := strings.ToLower(text)
	for _, p := range []string{"<returncode", "<output", "<exit", "<observation", "observation:", "output:", "exit code", "exit status"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// tagOnly reports whether a user text is one tagged block of context a
// harness injects and nothing else (<environment_context>…
// </environment_context>, <system-reminder>…): not a request. A tagged
// task (<pr_description>, <issue>) is one.
func tagOnly(text string) bool {
	if !strings.HasPrefix(text, "<") {
		return false
	}
	end := strings.IndexAny(text, "> \n")
	if end <= 1 {
		return false
	}
	tag := text[1:end]
	if !strings.HasSuffix(text, "</"+tag+">") || strings.Count(text, "<"+tag) != 1 {
		return false
	}
	low := strings.ToLower(tag)
	for _, w := range []string{"context", "environment", "reminder", "system", "caveat", "command-", "local-command"} {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// marker reports whether a user text is a harness's one-line bracketed
// note ("[Request interrupted by user]"), not a request.
func marker(text string) bool {
	return strings.HasPrefix(text, "[") && strings.HasSuffix(text, "]") && !strings.Contains(text, "\n")
}

// fencedCommand returns the command of the last fenced shell block of an
// assistant text (```bash, ```sh, ```console, ```mswea_bash_command …), or
// "" when there is none.
func fencedCommand(text string) string {
	cmd := ""
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		info, ok := strings.CutPrefix(strings.TrimSpace(lines[i]), "```")
		if !ok || !shellFence(strings.ToLower(strings.TrimSpace(info))) {
			continue
		}
		var body []string
		j := i + 1
		for ; j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```"); j++ {
			body = append(body, lines[j])
		}
		if c := strings.TrimSpace(strings.Join(body, "\n")); c != "" {
			cmd = c
		}
		i = j
	}
	return cmd
}

// fencedBlock returns the body of the last fenced block of text, whatever
// its info string, or "".
func fencedBlock(text string) string {
	body := ""
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(strings.TrimSpace(lines[i]), "```") {
			continue
		}
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
			j++
		}
		if b := strings.TrimSpace(strings.Join(lines[i+1:j], "\n")); b != "" {
			body = b
		}
		i = j
	}
	return body
}

func shellFence(info string) bool {
	switch info {
	case "bash", "sh", "shell", "zsh", "console", "terminal":
		return true
	}
	return strings.Contains(info, "bash") || strings.HasSuffix(info, "_command") || strings.HasSuffix(info, "-command")
}

// intentions returns the sentences of an assistant text that say what it
// will do next ("I'll run the tests", "Next, fix the parser", "Let me check
// …", "Step 3: …"), at most three, in order.
func intentions(text string) []string {
	var out []string
	for _, s := range sentences(text) {
		if isIntention(s) {
			out = append(out, s)
		}
	}
	if len(out) > 3 {
		out = out[len(out)-3:]
	}
	return out
}

var intentionStarts = []string{"i will ", "i'll ", "i am going to ", "i'm going to ", "i need to ", "i should ",
	"we will ", "we'll ", "we need to ", "we should ", "let me ", "let's ", "lemme ", "next", "then ",
	"now i", "now let", "now we", "after that", "todo", "plan:", "step ", "going to ", "gonna "}

// isIntention reports whether a sentence says what comes next, and is not
// a choice between courses (isChoice): those are decisions.
func isIntention(s string) bool {
	low := strings.ToLower(s)
	for _, p := range intentionStarts {
		if strings.HasPrefix(low, p) {
			return !isChoice(low)
		}
	}
	return false
}

var choiceMarks = []string{" instead of ", " rather than ", " over ", "go with ", "going with ", "decided", "decision",
	"settled on", "settle on", "drop the idea", "chose ", "choose ", "opt for", "opted", "stick with", "switch to",
	" use ", " using ", "prefer", " not going to ", " won't "}

// isChoice reports whether a lower-case sentence settles on a course: it
// names an alternative, a tool or approach to use, or says it decided.
func isChoice(low string) bool {
	for _, m := range choiceMarks {
		if strings.Contains(low, m) {
			return true
		}
	}
	return false
}

// sentences splits a text into trimmed one-line sentences, leaving out code
// fences and their bodies and a leading label ("THOUGHT:", "DISCUSSION").
func sentences(text string) []string {
	var out []string
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" {
			continue
		}
		t = strings.TrimLeft(t, "-*•> ")
		if label, rest, ok := strings.Cut(t, ":"); ok && label != "" && label == strings.ToUpper(label) && !strings.ContainsAny(label, " /.") {
			t = strings.TrimSpace(rest) // THOUGHT: …
		}
		if t == strings.ToUpper(t) && !strings.ContainsAny(t, ".!?") {
			continue // a label alone: DISCUSSION
		}
		for t != "" {
			cut := sentenceEnd(t)
			if s := strings.TrimSpace(t[:cut]); s != "" {
				out = append(out, s)
			}
			t = strings.TrimSpace(t[cut:])
		}
	}
	return out
}

// sentenceEnd returns the end of t's first sentence: after a '.', '!' or
// '?' followed by a space and an upper-case letter, or the whole of t.
func sentenceEnd(t string) int {
	for i := 0; i+2 < len(t); i++ {
		if (t[i] == '.' || t[i] == '!' || t[i] == '?') && t[i+1] == ' ' && t[i+2] >= 'A' && t[i+2] <= 'Z' {
			return i + 1
		}
	}
	return len(t)
}
