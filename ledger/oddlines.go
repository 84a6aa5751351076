package ledger

import "strings"

// This file finds the odd lines of uniform output: in a listing of forty
// commits, pods or files that all look alike, the one line shaped unlike the
// others ("0b92945 Reconcile the payment webhook (#483)" among
// "c8d0ff7 Remove payment in payments") is the one someone put there for a
// reason, and what it holds outranks what the routine lines hold.
//
// A line's shape is the sequence of its whitespace-separated tokens'
// classes: a token holding a digit, a token holding a bracket, quote or
// other marker, or a plain word. An output is uniform when it has at least
// minUniformLines lines and one shape covers at least half of them; its odd
// lines are those whose shape no other line has, and they are marked only
// when they are few (at most one line in ten, and at least one): in output
// of many shapes nothing stands out.

const (
	// minUniformLines is the fewest lines an output needs for its odd
	// lines to be marked.
	minUniformLines = 10
	// maxShapeTokens caps the tokens a shape spells out; longer lines are
	// told apart by their token count beyond it.
	maxShapeTokens = 24
)

// lineShape returns a hash of the shape of line t.
func lineShape(t string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	n := 0
	for _, f := range strings.Fields(t) {
		n++
		if n > maxShapeTokens {
			continue
		}
		c := byte('w')
		switch {
		case strings.ContainsAny(f, "0123456789"):
			c = 'n'
		case strings.ContainsAny(f, "()[]{}<>\"'`#=:|@"):
			c = 'p'
		}
		h = (h ^ uint64(c)) * prime
	}
	return (h ^ uint64(n)) * prime
}

// markOddLines adds hotOdd to the marks of the odd lines of text (m holds
// the marks by line start, as markLines left them).
func markOddLines(text string, m map[int]uint8) {
	type line struct {
		start int
		shape uint64
	}
	var lines []line
	count := map[uint64]int{}
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if t := strings.TrimSpace(text[start:end]); t != "" {
			sh := lineShape(t)
			lines = append(lines, line{start, sh})
			count[sh]++
		}
		start = end + 1
	}
	if len(lines) < minUniformLines {
		return
	}
	top, odd := 0, 0
	for _, n := range count {
		top = max(top, n)
		if n == 1 {
			odd++
		}
	}
	if top*2 < len(lines) || odd == 0 || odd*10 > len(lines) {
		return
	}
	for _, l := range lines {
		if count[l.shape] == 1 {
			m[l.start] |= hotOdd
		}
	}
}
