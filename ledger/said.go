package ledger

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/condense-dev/condense"
)

// Said returns what the agent wrote inside a tool call, as it wrote it and
// redacted as items are, its input's keys taken in sorted order: the words of
// the call that its extractors may not read.
//
//   - every string value of three words or more (a thought, a reason, a
//     message to post, a query, an argument no key table names) and every
//     list of three strings or more, joined by spaces (an argv);
//   - the text a file tool writes into a document in prose (Markdown, plain
//     text, a decision record), whole, and the comments of the code it
//     writes; not the code, nor the text an edit replaces, nor fixtures,
//     licences and data in plain text (requirements, logs);
//   - never what a key names as code, a query or a pattern (codeKeys);
//   - for a shell tool, what it authors for people (a commit's message, a
//     pull request's body, a heredoc written into a document, a sentence
//     passed to a command, the comments it writes into code), and the
//     command itself only when the ledger cannot keep it as written (over
//     its value cap, or laid out over several lines);
//   - the lines a patch adds to documents in prose, and the comments it
//     adds to code.
//
// An agent says why it chose what it chose in its notes, commit messages
// and tool arguments as much as in its replies, worded in ways no
// extractor was written for; a summary keeps these words verbatim while
// its budget allows.
func Said(p *condense.Part) []string {
	if p.Type != condense.PartToolCall {
		return nil
	}
	var in map[string]any
	if len(p.Input) == 0 || json.Unmarshal(p.Input, &in) != nil {
		var str string
		if json.Unmarshal(p.Input, &str) == nil {
			return redactAll(patchedProse(str))
		}
		return nil
	}
	var out []string
	shell := defaultExtractor.isShell(p.Name)
	path := writtenPath(in)
	for _, k := range slices.Sorted(maps.Keys(in)) {
		v := in[k]
		switch {
		case slices.Contains(oldKeys, k) || replacedKeys[normKey(k)] || pathKeys[normKey(k)]:
			// the text an edit replaces is not written now; paths are
			// the ledger's
		case reasonKeys[k] || reasonKeys[normKey(k)]:
			if text, ok := v.(string); ok {
				out = append(out, text)
			} else {
				out = appendSaidValue(out, k, v)
			}
		case shell && slices.Contains(commandKeys, k):
			if cmd := commandString(v); cmd != "" {
				msgs := authoredText(cmd)
				if len(msgs) == 0 {
					msgs = commandProse(cmd)
				}
				out = append(out, msgs...)
				if altered(cmd) {
					out = append(out, cmd)
				}
			}
		case codeKeys[normKey(k)]:
			// code, a query, a pattern: not prose, whatever its length
		case path != "" && (slices.Contains(docKeys, k) || !textDoc(path)):
			// What a file tool writes: a document in prose whole, the
			// comments of code (any text of a call on a code file is
			// taken for code, whatever its key).
			text, _ := v.(string)
			switch {
			case text == "" || fixtureDoc(path) || dataDoc(path):
			case textDoc(path):
				out = append(out, newLines(text, in))
			default:
				if prose := writtenProse(path, newLines(text, in)); prose != "" {
					out = append(out, prose)
				}
			}
		default:
			out = appendSaidValue(out, k, v)
		}
	}
	return redactAll(out)
}

// codeKeys name, folded by normKey, the keys of a call's input that hold
// code, a query or a pattern rather than prose.
var codeKeys = map[string]bool{"code": true, "query": true, "sql": true, "pattern": true, "regex": true,
	"regexp": true, "glob": true, "script": true, "snippet": true, "sourcecode": true, "program": true,
	"expression": true, "expr": true, "selector": true, "jq": true, "filter": true, "xpath": true}

// secretKey reports whether a key of a call's input names a secret
// (password, DB_PASSWORD, api_key, clientSecret, authToken, credentials):
// its value is left out whole, since a passphrase of plain words has no
// shape the redaction could tell from prose.
func secretKey(k string) bool {
	n := normKey(k)
	for _, w := range []string{"password", "passwd", "passphrase", "secret", "token", "apikey", "accesskey",
		"privatekey", "credential", "pwd", "auth"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return n == "pass" || strings.HasSuffix(n, "pass")
}

// dataDoc reports whether a plain-text path names data rather than
// prose: pip's requirements or constraints lists.
func dataDoc(p string) bool {
	low := strings.ToLower(p)
	base := low[strings.LastIndexByte(low, '/')+1:]
	return strings.HasSuffix(base, ".txt") && (strings.Contains(base, "requirements") || strings.Contains(base, "constraints"))
}

// replacedKeys name, folded by normKey, more keys of the text an edit
// replaces than oldKeys.
var replacedKeys = map[string]bool{"old": true, "before": true, "oldcontent": true, "oldstr": true,
	"oldstring": true, "oldtext": true, "search": true, "find": true, "original": true, "from": true}

// maxSaidCommand is the longest command Said keeps as written.
const maxSaidCommand = 1000

// altered reports whether the ledger's item of a shell command does not
// hold it as written, and Said should: a command over the value cap, or
// laid out over lines or with runs of spaces, up to maxSaidCommand bytes,
// except a heredoc (its body is a file's content, read for its prose).
func altered(cmd string) bool {
	if len(cmd) > maxSaidCommand || strings.Contains(cmd, "<<") {
		return false
	}
	return clean(cmd, defaultExtractor.capOf(KindCommand)) != cmd
}

// minSaidWords is the fewest words a string of a call's input needs to be
// kept by Said: shorter ones are names, paths, flags and numbers, which
// the ledger reads.
const minSaidWords = 3

// appendSaidValue adds the strings of one value of a call's input: a
// string of minSaidWords words or more, a list of as many strings joined
// by spaces, and those of nested objects and lists. A patch is read for
// its prose.
func appendSaidValue(out []string, key string, v any) []string {
	if codeKeys[normKey(key)] || secretKey(key) {
		return out
	}
	switch v := v.(type) {
	case string:
		if strings.Contains(v, "*** Begin Patch") || strings.Contains(v, "\n+++ ") {
			return append(out, patchedProse(v)...)
		}
		if len(strings.Fields(v)) >= minSaidWords && !secretKey(key) {
			return append(out, v)
		}
	case []any:
		words := make([]string, 0, len(v))
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				words = nil
				break
			}
			words = append(words, s)
		}
		if len(words) >= minSaidWords {
			return append(out, strings.Join(words, " "))
		}
		for _, e := range v {
			out = appendSaidValue(out, key, e)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			out = appendSaidValue(out, k, v[k])
		}
	}
	return out
}

// SaidIn is Said for a shell command the agent ran as text (a fenced
// action of a text-protocol agent): what it authors for people.
func SaidIn(cmd string) []string {
	_, body, ok := strings.Cut(cmd, "\n") // the fence's label line
	if !ok {
		return nil
	}
	return redactAll(authoredText(body))
}

// patchedProse returns what a patch adds that is prose: the added lines of
// a document in prose, the comments added to code.
func patchedProse(patch string) []string {
	var out []string
	patchSections(patch, func(path, added string) {
		if strings.TrimSpace(added) == "" || fixtureDoc(path) || dataDoc(path) {
			return
		}
		if textDoc(path) {
			out = append(out, added)
		} else if prose := writtenProse(path, added); prose != "" {
			out = append(out, prose)
		}
	})
	return out
}

func redactAll(texts []string) []string {
	for i, t := range texts {
		texts[i] = Redact(t)
	}
	return texts
}
