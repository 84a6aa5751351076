package ledger

import (
	"strconv"
	"strings"
)

// ParseItem reads a line written by Item.String back into an item: its
// kind, value, file access and command exit status. The source is unknown
// and left 0. ok is false when line is not an item line (an unknown kind is
// accepted, so kinds added later parse too).
//
// It lets a summary's ## Ledger, carried from one compaction to the next as
// text, be ranked again with the new items instead of kept ahead of them.
func ParseItem(line string) (it Item, ok bool) {
	it, n, ok := itemPrefix(line)
	if !ok || n != len(line) {
		return Item{}, false
	}
	return it, true
}

// markerPrefix opens every text condense puts in place of what it masked
// or dropped: "[condense: tool output masked (5,210 tokens) · recall … ·
// kept: command "go test ./..." (exit 1); error "--- FAIL: TestX"]".
const markerPrefix = "[condense:"

// KeptItems returns the items a condense placeholder or drop marker keeps
// (its "kept:" list), in order; nil when text is not one or keeps nothing.
// Items it cannot read are skipped. A compaction that takes in an earlier
// one's placeholders and markers reads their specifics back this way
// instead of losing them.
func KeptItems(text string) []Item {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, markerPrefix) || !strings.HasSuffix(text, "]") {
		return nil
	}
	i := strings.Index(text, " · kept: ")
	if i < 0 {
		return nil
	}
	rest := text[i+len(" · kept: ") : len(text)-1]
	var out []Item
	for rest != "" {
		it, n, ok := itemPrefix(rest)
		if !ok {
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

// IsMarker reports whether text is a condense placeholder or drop marker.
func IsMarker(text string) bool {
	text = strings.TrimSpace(text)
	return strings.HasPrefix(text, markerPrefix) && strings.HasSuffix(text, "]")
}

// itemPrefix reads one rendered item at the start of s, followed by the
// end of s or "; ", and returns it with the bytes it took.
func itemPrefix(s string) (Item, int, bool) {
	sp := strings.IndexByte(s, ' ')
	if sp <= 0 {
		return Item{}, 0, false
	}
	it := Item{Kind: Kind(s[:sp])}
	for i := 0; i < sp; i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c == '-' || c == '_') {
			return Item{}, 0, false
		}
	}
	n := sp + 1
	if n < len(s) && (s[n] == '"' || s[n] == '`') {
		q, err := strconv.QuotedPrefix(s[n:])
		if err != nil {
			return Item{}, 0, false
		}
		if it.Value, err = strconv.Unquote(q); err != nil {
			return Item{}, 0, false
		}
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
		return Item{}, 0, false
	}
	if suf, ok := strings.CutPrefix(s[n:], " ("); ok {
		if j := strings.IndexByte(suf, ')'); j >= 0 {
			tag, used := suf[:j], true
			switch {
			case it.Kind == KindFile && tag == "read":
				it.Access = Read
			case it.Kind == KindFile && tag == "written":
				it.Access = Written
			case it.Kind == KindCommand && tag == "failed":
				it.Failed = true
			case it.Kind == KindCommand && strings.HasPrefix(tag, "exit "):
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
		return Item{}, 0, false
	}
	return it, n, true
}
