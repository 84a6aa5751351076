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
// ended with "…" when longer). A gap between words of plain spaces or tabs
// is kept as printed when it is at most maxGap bytes: columns are aligned
// with runs of spaces ("! [rejected]        main -> main", "ERROR:  column"),
// Go's test summary separates its fields with tabs, and a value is worth
// most when a search for the printed text finds it. Any other white space
// (a line break, a form feed, a longer gap) becomes one space.
func clean(s string, max int) string { return cleanGaps(s, max, maxGap) }

// cleanWrapped is clean for a sentence wrapped over lines (see
// unwrapped): each line is cleaned, and the line breaks and the
// indentation of the lines after the first are kept as printed, so that a
// search for any part of the sentence as printed finds it. Over max bytes
// the sentence is cleaned onto one line.
func cleanWrapped(s string, max int) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
			b.WriteString(line[:len(line)-len(strings.TrimLeft(line, " \t"))])
		}
		b.WriteString(clean(line, len(line)+len(ellipsis)))
	}
	if v := b.String(); len(v) <= max && strings.TrimSpace(v) != "" {
		return v
	}
	return clean(s, max)
}

// cleanGaps is clean keeping gaps of up to gapMax bytes as printed: a row
// of a table kept whole keeps its columns (see pickedRow).
func cleanGaps(s string, max, gapMax int) string {
	if max < len(ellipsis)+1 {
		max = len(ellipsis) + 1
	}
	if isClean(s, gapMax) && len(s) <= max {
		return s
	}
	var b strings.Builder
	b.Grow(min(len(s), max+8))
	gap, plain := 0, true // the pending gap: its length, and whether it is spaces and tabs only
	gapAt := 0            // where the pending gap starts in s
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		at := i
		i += n
		if r == utf8.RuneError && n == 1 {
			r = unicode.ReplacementChar
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029' || !unicode.IsPrint(r) && r != unicode.ReplacementChar {
			if gap == 0 {
				gapAt, plain = at, true
			}
			gap += n
			plain = plain && (r == ' ' || r == '\t')
			continue
		}
		if gap > 0 && b.Len() > 0 {
			if plain && gap <= gapMax {
				b.WriteString(s[gapAt : gapAt+gap])
			} else {
				b.WriteByte(' ')
			}
		}
		gap = 0
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
	return strings.TrimRight(out[:cut], " \t") + ellipsis
}

// maxGap is the longest gap of spaces and tabs inside a value that clean
// keeps as printed.
const maxGap = 64

// isClean reports whether s is already a clean value (apart from its length):
// printable ASCII, tabs and inner gaps of at most maxGap spaces and tabs, and
// no white space at the ends.
func isClean(s string, gapMax int) bool {
	if s == "" || s[0] == ' ' || s[len(s)-1] == ' ' || s[0] == '\t' || s[len(s)-1] == '\t' {
		return false
	}
	run := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\t') || c >= 0x7f {
			return false
		}
		if c != ' ' && c != '\t' {
			run = 0
			continue
		}
		if run++; run > gapMax {
			return false
		}
	}
	return true
}

// shortenError shortens an error line too long for an item. A location
// before the message ("/work/Rides.xcodeproj: error: …") goes first: the
// file is an item of its own. Then, when the message is sentences, the
// last ones, which give advice ("To enable automatic signing, pass …",
// "For supported combinations …, see the documentation."), go; a long
// message of one sentence keeps its head and its tail (headAndTail).
func shortenError(s string, max int) string {
	if len(s) <= max || max < 40 {
		return s
	}
	if k := locatedMessage(s); k > 0 {
		s = s[k:]
		if len(s) <= max {
			return s
		}
	}
	const more = " …"
	for end := max - len(more); end >= max/2; end-- {
		// the last sentence's end that fits: ". " before a capital
		if s[end] == ' ' && s[end-1] == '.' && end+1 < len(s) && isUpper(s[end+1]) && !isDigit(s[end-2]) {
			return s[:end] + more
		}
	}
	return headAndTail(s, max)
}

// locatedMessage returns where the message of "LOCATION: error: message"
// starts, the location one word with a '/' or a '.' (a file, a project),
// or 0.
func locatedMessage(s string) int {
	sp := strings.IndexByte(s, ' ')
	if sp < 3 || sp > 160 || s[sp-1] != ':' || !strings.ContainsAny(s[:sp], "/.") {
		return 0
	}
	rest := s[sp+1:]
	for _, w := range []string{"error", "Error", "ERROR", "fatal", "Fatal", "FATAL"} {
		if strings.HasPrefix(rest, w) {
			return sp + 1
		}
	}
	return 0
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
