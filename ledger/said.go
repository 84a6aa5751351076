package ledger

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/condense-dev/condense"
)

// Said returns the prose the agent wrote for people inside a tool call,
// redacted as items are, in the order it appears: a thought or a reason
// passed to a tool (a think tool's thought, a finish tool's message), a
// document in prose the call writes whole or patches (a note, a plan, a
// decision record: NOTES.md, docs/adr/0007-outbox.md), and what a shell
// command authors (a commit's message, a pull request's or an issue's
// body, a heredoc written into such a document). These are the agent's
// words as much as its reply is, and a summary may keep them as written
// when the ledger's extractors do not recognise what they say. Code, and
// what the call only runs or reads, are not prose and are left out.
func Said(p *condense.Part) []string {
	if p.Type != condense.PartToolCall {
		return nil
	}
	var in map[string]any
	if len(p.Input) == 0 || json.Unmarshal(p.Input, &in) != nil {
		var str string
		if json.Unmarshal(p.Input, &str) == nil && strings.Contains(strings.ToLower(p.Name), "patch") {
			return redactAll(patchedProse(str))
		}
		return nil
	}
	var out []string
	keys := slices.Sorted(maps.Keys(in)) // the same order from run to run
	for _, k := range keys {
		if v, ok := in[k].(string); ok && len(v) >= 20 && (reasonKeys[k] || reasonKeys[normKey(k)]) {
			out = append(out, v)
		}
	}
	if doc := writtenDoc(in); doc != "" {
		out = append(out, doc)
	}
	if defaultExtractor.isShell(p.Name) {
		for _, k := range commandKeys {
			if cmd := commandString(in[k]); cmd != "" {
				out = append(out, authoredText(cmd)...)
				break
			}
		}
	}
	name := strings.ToLower(p.Name)
	if strings.Contains(name, "patch") || strings.Contains(name, "diff") {
		for _, k := range keys {
			if str, ok := in[k].(string); ok {
				out = append(out, patchedProse(str)...)
			}
		}
	}
	return redactAll(out)
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

// patchedProse returns the lines a patch adds to documents in prose, one
// text per document.
func patchedProse(patch string) []string {
	var out []string
	patchSections(patch, func(path, added string) {
		if proseDoc(path) && strings.TrimSpace(added) != "" {
			out = append(out, added)
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
