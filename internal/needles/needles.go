// Package needles finds many short substrings in a text in one pass, line
// by line. The ledger's line marker and the secret redactor both use it to
// skip the lines none of their slower checks could match.
package needles

import (
	"math/bits"
	"strings"
)

// Set finds many short needles in a text in one pass: a byte-trigram
// filter (one bit per needle in each of three tables) rules out almost
// every position with three table loads, and the rare candidates are
// checked with HasPrefix. Needles must be at least three bytes long; a set
// holds at most 64.
type Set struct {
	needles []string
	tab     [3][256]uint64
	fold    bool // ASCII letters match in either case (NewFold)
}

// New returns the Set of needles, matched exactly.
func New(needles ...string) *Set {
	if len(needles) > 64 {
		panic("needles: more than 64 needles")
	}
	n := &Set{needles: needles}
	for k, s := range needles {
		if len(s) < 3 {
			panic("needles: needle shorter than 3 bytes: " + s)
		}
		for j := 0; j < 3; j++ {
			n.tab[j][s[j]] |= 1 << k
		}
	}
	return n
}

// Lines calls f with the start of each line of text holding a needle and
// the set of needles (bit k for needles[k]) found in that line, in order.
func (n *Set) Lines(text string, f func(start int, found uint64)) {
	start, found := 0, uint64(0)
	for i := 0; i+2 < len(text); i++ {
		c := text[i]
		if c == '\n' {
			if found != 0 {
				f(start, found)
				found = 0
			}
			start = i + 1
			continue
		}
		b := n.tab[0][c] & n.tab[1][text[i+1]] & n.tab[2][text[i+2]]
		for b != 0 {
			k := bits.TrailingZeros64(b)
			b &= b - 1
			if n.fold && HasPrefixFold(text[i:], n.needles[k]) || !n.fold && strings.HasPrefix(text[i:], n.needles[k]) {
				found |= 1 << k
			}
		}
	}
	if found != 0 {
		f(start, found)
	}
}

// NewFold is New matching ASCII letters in either case:
// a needle "api" is found in "API", "Api" and "aPi". The needles are given
// in lower case.
func NewFold(needles ...string) *Set {
	n := New(needles...)
	n.fold = true
	for k, s := range needles {
		if s != strings.ToLower(s) {
			panic("needles: fold needle not in lower case: " + s)
		}
		for j := 0; j < 3; j++ {
			n.tab[j][upperASCII(s[j])] |= 1 << k
		}
	}
	return n
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - 'a' + 'A'
	}
	return c
}

// HasPrefixFold reports whether s begins with the lower-case prefix,
// ignoring the case of ASCII letters in s.
func HasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}

// IndexFold is strings.Index ignoring the case of ASCII letters in s; the
// needle is lower case.
func IndexFold(s, needle string) int {
	for i := 0; i+len(needle) <= len(s); i++ {
		if HasPrefixFold(s[i:], needle) {
			return i
		}
	}
	return -1
}
