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
	sp := strings.IndexByte(line, ' ')
	if sp <= 0 {
		return Item{}, false
	}
	it.Kind = Kind(line[:sp])
	for i := 0; i < sp; i++ {
		if c := line[i]; !(c >= 'a' && c <= 'z' || c == '-' || c == '_') {
			return Item{}, false
		}
	}
	rest := line[sp+1:]
	if strings.HasPrefix(rest, `"`) || strings.HasPrefix(rest, "`") {
		q, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return Item{}, false
		}
		if it.Value, err = strconv.Unquote(q); err != nil {
			return Item{}, false
		}
		rest = rest[len(q):]
	} else {
		end := strings.IndexByte(rest, ' ')
		if end < 0 {
			end = len(rest)
		}
		it.Value, rest = rest[:end], rest[end:]
	}
	switch rest {
	case "":
	case " (read)":
		it.Access = Read
	case " (written)":
		it.Access = Written
	case " (failed)":
		it.Failed = true
	default:
		n, found := strings.CutPrefix(rest, " (exit ")
		n, closed := strings.CutSuffix(n, ")")
		code, err := strconv.Atoi(n)
		if !found || !closed || err != nil {
			return Item{}, false
		}
		it.Exit = &code
	}
	if it.Value == "" {
		return Item{}, false
	}
	return it, true
}
