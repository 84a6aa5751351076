package ledger

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// DefaultMaxValueLen is the default cap, in bytes, of an item's value.
const DefaultMaxValueLen = 200

const ellipsis = "…"

// clean makes s a valid item value: valid UTF-8, one line, no control
// characters, trimmed, and at most max bytes (cut on a rune boundary and
// ended with "…" when longer). White space is collapsed to one space,
// except a gap of two plain spaces, kept as printed: tables and benchmark
// reports put two between columns ("258.520 ± 16.569  us/op"), and a value
// is worth most when a search for the printed text finds it.
func clean(s string, max int) string {
	if max < len(ellipsis)+1 {
		max = len(ellipsis) + 1
	}
	if isClean(s) && len(s) <= max {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), max+8))
	space, spaces := false, 0
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r == utf8.RuneError && n == 1 {
			r = unicode.ReplacementChar
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029' || !unicode.IsPrint(r) && r != unicode.ReplacementChar {
			space = b.Len() > 0
			if r == ' ' && spaces >= 0 {
				spaces++
			} else {
				spaces = -1 // other white space: one space
			}
			continue
		}
		if space {
			b.WriteByte(' ')
			if spaces == 2 {
				b.WriteByte(' ')
			}
			space = false
		}
		spaces = 0
		b.WriteRune(r)
		if b.Len() > max+4 {
			break
		}
	}
	out := b.String()
	if len(out) <= max {
		return out
	}
	cut := max - len(ellipsis)
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return strings.TrimRight(out[:cut], " ") + ellipsis
}

// isClean reports whether s is already a clean value (apart from its length):
// printable ASCII with inner gaps of one or two spaces and none at the ends.
func isClean(s string) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' {
		return false
	}
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x20 || c >= 0x7f {
			return false
		}
		if c != ' ' {
			run = 0
			continue
		}
		if run++; run > 2 {
			return false
		}
	}
	return true
}

// headAndTail shortens an error line too long for an item to its head and
// its tail, cut at spaces: the tail of a long error holds its innermost
// cause ("… (Caused by SSLError(… [SSL: CERTIFICATE_VERIFY_FAILED]
// certificate verify failed …)))"), which keeping the head alone loses.
func headAndTail(s string, max int) string {
	if len(s) <= max || max < 40 {
		return s
	}
	const gap = " … "
	// The tail, three fifths of the room, from the start of a word.
	t := len(s) - (max-len(gap))*3/5
	if k := strings.LastIndexByte(s[:t], ' '); k >= 0 && t-k < max/8 {
		t = k + 1
	}
	for t < len(s) && !utf8.RuneStart(s[t]) {
		t++
	}
	// The head, what room is left, up to the end of a word.
	head := max - len(gap) - (len(s) - t)
	h := head
	if k := strings.LastIndexByte(s[:head], ' '); k >= head/2 {
		h = k
	}
	for h > 0 && !utf8.RuneStart(s[h]) {
		h--
	}
	return strings.TrimRight(s[:h], " ") + gap + s[t:]
}
