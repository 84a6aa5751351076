package summarize

import (
	"strconv"
	"strings"

	"github.com/condense-dev/condense/ledger"
)

// A tool result an earlier pass masked reaches the summarizer as a
// placeholder, "[condense: tool output masked (5,210 tokens) · recall … ·
// kept: command "go test ./..." (exit 1); error "--- FAIL: TestX"]", not as
// its output: the exit status and error lines of the run are in its kept
// list, as ledger items. This file reads them back.

const placeholderPrefix = "[condense:"

// placeholderItems returns the ledger items a placeholder's kept list
// holds, in order; nil when text is not a placeholder or keeps nothing.
// Items it cannot read are skipped.
func placeholderItems(text string) []ledger.Item {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, placeholderPrefix) || !strings.HasSuffix(text, "]") {
		return nil
	}
	i := strings.Index(text, " · kept: ")
	if i < 0 {
		return nil
	}
	rest := text[i+len(" · kept: ") : len(text)-1]
	var out []ledger.Item
	for rest != "" {
		it, n, ok := readItem(rest)
		if !ok {
			// Skip to the next separator.
			j := strings.Index(rest, "; ")
			if j < 0 {
				break
			}
			rest = rest[j+2:]
			continue
		}
		out = append(out, it)
		rest = strings.TrimPrefix(rest[n:], "; ")
	}
	return out
}

// readItem reads one rendered item ("file x.go (written)", `command "go
// test" (exit 1)`) at the start of s and returns it with the bytes it took.
func readItem(s string) (ledger.Item, int, bool) {
	sp := strings.IndexByte(s, ' ')
	if sp <= 0 {
		return ledger.Item{}, 0, false
	}
	it := ledger.Item{Kind: ledger.Kind(s[:sp])}
	n := sp + 1
	if n < len(s) && (s[n] == '"' || s[n] == '`') {
		q, err := strconv.QuotedPrefix(s[n:])
		if err != nil {
			return ledger.Item{}, 0, false
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return ledger.Item{}, 0, false
		}
		it.Value = v
		n += len(q)
	} else {
		end := strings.IndexAny(s[n:], " ;")
		if end < 0 {
			end = len(s) - n
		}
		it.Value = s[n : n+end]
		n += end
	}
	if it.Value == "" {
		return ledger.Item{}, 0, false
	}
	// An access or exit status suffix.
	if suf, ok := strings.CutPrefix(s[n:], " ("); ok {
		if j := strings.IndexByte(suf, ')'); j >= 0 {
			tag := suf[:j]
			used := true
			switch {
			case it.Kind == ledger.KindFile && tag == "read":
				it.Access = ledger.Read
			case it.Kind == ledger.KindFile && tag == "written":
				it.Access = ledger.Written
			case it.Kind == ledger.KindCommand && tag == "failed":
				it.Failed = true
			case it.Kind == ledger.KindCommand && strings.HasPrefix(tag, "exit "):
				code, err := strconv.Atoi(strings.TrimPrefix(tag, "exit "))
				if err != nil {
					used = false
					break
				}
				it.Exit = &code
			default:
				used = false
			}
			if used {
				n += 2 + j + 1
			}
		}
	}
	if n < len(s) && !strings.HasPrefix(s[n:], "; ") {
		return ledger.Item{}, 0, false
	}
	return it, n, true
}
