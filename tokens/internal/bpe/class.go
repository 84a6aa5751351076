package bpe

import (
	"sync"
	"unicode"
	"unicode/utf8"
)

// Character classes of the split patterns. Every rune has exactly one; the
// sets the patterns are written in are unions of classes:
//
//	\p{L}                              clsUpper, clsLower, clsOtherLetter
//	[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]    clsUpper, clsOtherLetter, clsMark
//	[\p{Ll}\p{Lm}\p{Lo}\p{M}]          clsLower, clsOtherLetter, clsMark
//	\p{N}                              clsNumber
//	\s                                 clsNewline, clsSpace
//	[^\r\n\p{L}\p{N}]                  clsOther, clsMark, clsSpace
//	[^\s\p{L}\p{N}]                    clsOther, clsMark
//
// Marks are not letters (\p{L} does not hold them) but the o200k letter
// classes do, and both negated classes do too.
const (
	clsOther       = iota // punctuation, symbols, controls, unassigned
	clsUpper              // Lu, Lt
	clsLower              // Ll
	clsOtherLetter        // Lm, Lo
	clsMark               // Mn, Mc, Me
	clsNumber             // Nd, Nl, No
	clsNewline            // \r, \n
	clsSpace              // every other White_Space character
	numClasses
)

// The sets the patterns are written in, as bit flags.
const (
	setLetter = 1 << iota // \p{L}
	setUpper              // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	setLower              // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	setNumber             // \p{N}
	setSpace              // \s
	setPrefix             // [^\r\n\p{L}\p{N}]
	setPunct              // [^\s\p{L}\p{N}]
	notASCII              // in byteSets only: a byte that is not ASCII
)

// classSets holds the sets each class is in.
var classSets = [numClasses]uint8{
	clsOther:       setPrefix | setPunct,
	clsUpper:       setLetter | setUpper,
	clsLower:       setLetter | setLower,
	clsOtherLetter: setLetter | setUpper | setLower,
	clsMark:        setUpper | setLower | setPrefix | setPunct,
	clsNumber:      setNumber,
	clsNewline:     setSpace,
	clsSpace:       setSpace | setPrefix,
}

// in reports whether class c is in one of the sets of set.
func in(set uint8, c uint8) bool { return classSets[c]&set != 0 }

// byteClass holds the class of every ASCII byte, and numClasses for the
// bytes that are not ASCII; byteSets holds the sets of every ASCII byte,
// and notASCII for the others.
var byteClass, byteSets = func() (c, f [256]uint8) {
	for b := range c {
		c[b], f[b] = numClasses, notASCII
		if b < utf8.RuneSelf {
			c[b] = classify(rune(b))
			f[b] = classSets[c[b]]
		}
	}
	return c, f
}()

// classify returns the class of r from the unicode package's tables. \s is
// Unicode's White_Space property, as in the regex engines tiktoken uses.
func classify(r rune) uint8 {
	switch {
	case r == '\r' || r == '\n':
		return clsNewline
	case unicode.Is(unicode.White_Space, r):
		return clsSpace
	case unicode.Is(unicode.Lu, r) || unicode.Is(unicode.Lt, r):
		return clsUpper
	case unicode.Is(unicode.Ll, r):
		return clsLower
	case unicode.Is(unicode.Lm, r) || unicode.Is(unicode.Lo, r):
		return clsOtherLetter
	case unicode.Is(unicode.M, r):
		return clsMark
	case unicode.Is(unicode.N, r):
		return clsNumber
	default:
		return clsOther
	}
}

// The class of a non-ASCII rune is looked up in a two-stage table: blocks
// of 256 runes, identical blocks stored once. It is built from the unicode
// package's range tables, in a few milliseconds, by loadClasses, which Get
// calls before it returns an encoding: the scanners read classes without
// synchronization.
var (
	classes     *classTable
	loadClasses = sync.OnceFunc(func() { classes = buildRuneClasses() })
)

type classTable struct {
	index  [(unicode.MaxRune + 1) >> 8]uint16 // rune>>8 → block
	blocks []uint8                            // block<<8 | rune&0xff → class
}

func buildRuneClasses() *classTable {
	flat := make([]uint8, unicode.MaxRune+1) // clsOther is 0
	set := func(c uint8, tables ...*unicode.RangeTable) {
		for _, t := range tables {
			for _, r := range t.R16 {
				for x := rune(r.Lo); x <= rune(r.Hi); x += rune(r.Stride) {
					flat[x] = c
				}
			}
			for _, r := range t.R32 {
				for x := rune(r.Lo); x <= rune(r.Hi); x += rune(r.Stride) {
					flat[x] = c
				}
			}
		}
	}
	// The general categories are disjoint, and White_Space holds only
	// separators and controls, so the order of these calls does not matter.
	set(clsSpace, unicode.White_Space)
	set(clsUpper, unicode.Lu, unicode.Lt)
	set(clsLower, unicode.Ll)
	set(clsOtherLetter, unicode.Lm, unicode.Lo)
	set(clsMark, unicode.M)
	set(clsNumber, unicode.N)
	flat['\r'], flat['\n'] = clsNewline, clsNewline

	t := &classTable{}
	seen := map[[256]uint8]uint16{}
	for hi := range t.index {
		var block [256]uint8
		copy(block[:], flat[hi<<8:])
		id, ok := seen[block]
		if !ok {
			id = uint16(len(seen))
			seen[block] = id
			t.blocks = append(t.blocks, block[:]...)
		}
		t.index[hi] = id
	}
	return t
}

// class returns the class of r, which is not ASCII.
func (t *classTable) class(r rune) uint8 {
	if uint32(r) > unicode.MaxRune {
		return clsOther
	}
	return t.blocks[int(t.index[r>>8])<<8|int(r&0xff)]
}
