package ledger

import (
	"slices"
	"strings"
	"sync"
)

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
	for i := 0; i < len(t); {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		if i == len(t) {
			break
		}
		c := byte('w')
		for ; i < len(t) && t[i] != ' ' && t[i] != '\t'; i++ {
			switch b := t[i]; {
			case isDigit(b):
				c = 'n'
			case c == 'w' && strings.IndexByte("()[]{}<>\"'`#=:|@", b) >= 0:
				c = 'p'
			}
		}
		n++
		if n <= maxShapeTokens {
			h = (h ^ uint64(c)) * prime
		}
	}
	return (h ^ uint64(n)) * prime
}

// lineEnd returns the end of the line of text that starts at start, before
// its newline.
func lineEnd(text string, start int) int {
	if e := strings.IndexByte(text[start:], '\n'); e >= 0 {
		return start + e
	}
	return len(text)
}

// oddBuf holds markOddLines' buffers, reused from text to text.
type oddBuf struct {
	starts []int
	shapes []uint64
	sorted []uint64
}

var oddBufs = sync.Pool{New: func() any { return new(oddBuf) }}

// markOddLines adds hotOdd to the marks of the odd lines of text (m holds
// the marks by line start, as markLines left them).
func markOddLines(text string, m map[int]uint8) {
	if strings.Count(text, "\n") < minUniformLines-1 {
		return
	}
	b := oddBufs.Get().(*oddBuf)
	defer oddBufs.Put(b)
	b.mark(text, m)
}

func (b *oddBuf) mark(text string, m map[int]uint8) {
	b.starts, b.shapes = b.starts[:0], b.shapes[:0]
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		if t := strings.TrimSpace(text[start:end]); t != "" {
			b.starts = append(b.starts, start)
			b.shapes = append(b.shapes, lineShape(t))
		}
		start = end + 1
	}
	n := len(b.shapes)
	if n < minUniformLines {
		return
	}
	b.sorted = append(b.sorted[:0], b.shapes...)
	slices.Sort(b.sorted)
	top, odd := 0, 0
	for i := 0; i < n; {
		j := i + 1
		for j < n && b.sorted[j] == b.sorted[i] {
			j++
		}
		top = max(top, j-i)
		if j-i == 1 {
			odd++
		}
		i = j
	}
	if top*2 < n || odd == 0 || odd*10 > n {
		return
	}
	for k, sh := range b.shapes {
		if _, found := slices.BinarySearch(b.sorted, sh); found && once(b.sorted, sh) {
			m[b.starts[k]] |= hotOdd
		}
	}
}

// once reports whether v occurs exactly once in the sorted slice s.
func once(s []uint64, v uint64) bool {
	i, _ := slices.BinarySearch(s, v)
	return i+1 >= len(s) || s[i+1] != v
}
