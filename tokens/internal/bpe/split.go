package bpe

import (
	"strings"
	"unicode/utf8"
)

// The split patterns of the encodings, as tiktoken (openai/tiktoken,
// tiktoken_ext/openai_public.py) and its official WASM port give them. The
// scanners below implement them by hand, with the meaning a backtracking
// regex engine gives them: alternatives are tried in order, quantifiers
// are greedy and give back one character at a time, and the next match
// starts where the previous one ended.
const (
	O200kPattern = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?` +
		`|\p{N}{1,3}` +
		`| ?[^\s\p{L}\p{N}]+[\r\n/]*` +
		`|\s*[\r\n]+` +
		`|\s+(?!\S)` +
		`|\s+`
	Cl100kPattern = `(?i:'s|'t|'re|'ve|'m|'ll|'d)` +
		`|[^\r\n\p{L}\p{N}]?\p{L}+` +
		`|\p{N}{1,3}` +
		`| ?[^\s\p{L}\p{N}]+[\r\n]*` +
		`|\s*[\r\n]+` +
		`|\s+(?!\S)` +
		`|\s+`
)

// at returns the class and the width of the character at s[i]. A byte that
// does not start valid UTF-8 is one character of class clsOther, as U+FFFD
// would be. It is small enough to be inlined: ASCII costs a table lookup.
func at(s string, i int) (c uint8, w int) {
	c = byteClass[s[i]]
	if c == numClasses {
		c, w = atRune(s, i)
		return
	}
	return c, 1
}

// atRune is at for a character that is not ASCII.
func atRune(s string, i int) (uint8, int) {
	r, w := utf8.DecodeRuneInString(s[i:])
	return classes.class(r), w
}

// run returns the end of the run of characters of set that starts at s[i].
func run(s string, i int, set uint8) int {
	for i < len(s) {
		f := byteSets[s[i]]
		if f&set != 0 {
			i++
			continue
		}
		if f != notASCII {
			break
		}
		c, w := atRune(s, i)
		if !in(set, c) {
			break
		}
		i += w
	}
	return i
}

// contraction returns the end of (?i:'s|'t|'re|'ve|'m|'ll|'d) at s[i], or i
// when there is none there. The case of ASCII letters is ignored, and
// U+017F (ſ, long s) stands for an s: simple case folding maps it to s, and
// the reference tokenizer folds it so.
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	if strings.HasPrefix(s[i+1:], "ſ") {
		return i + 1 + len("ſ")
	}
	switch s[i+1] | 0x20 { // ASCII lower case
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && s[i+2]|0x20 == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && s[i+2]|0x20 == 'l' {
			return i + 3
		}
	}
	return i
}

// o200kLetters matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+
// at s[j] and returns its end, or -1. The two classes overlap (Lm, Lo and
// marks are in both), so when the first run is not followed by a lower-case
// character the engine gives characters back until the run ends with one of
// the shared characters, which then serves as the second part.
func o200kLetters(s string, j int) int {
	p, lastLower := j, -1
	for p < len(s) {
		c, w := at(s, p)
		if !in(setUpper, c) {
			if in(setLower, c) {
				return run(s, p+w, setLower)
			}
			break
		}
		p += w
		if in(setLower, c) {
			lastLower = p
		}
	}
	return lastLower
}

// o200kUpper matches [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*
// at s[j] and returns its end, or -1.
func o200kUpper(s string, j int) int {
	p := run(s, j, setUpper)
	if p == j {
		return -1
	}
	return run(s, p, setLower)
}

// The scanners find the pieces of a text. Every character of the text lands
// in exactly one piece: each character matches some alternative of either
// pattern (a letter the word alternatives, a digit \p{N}, white space \s+,
// anything else [^\s\p{L}\p{N}]+), so the pieces tile the text.

// nextO200k returns the end of the o200k_base piece that starts at s[i].
func nextO200k(s string, i int) int {
	if e := asciiWordO200k(s, i); e > 0 {
		return e
	}
	c, w := at(s, i)
	switch c {
	case clsUpper, clsLower, clsOtherLetter:
		// The first alternative fails only on an upper-case run with no
		// lower-case letter after it; the second takes that.
		e := o200kLetters(s, i)
		if e < 0 {
			e = o200kUpper(s, i)
		}
		return contraction(s, e)
	case clsNumber:
		return digits(s, i+w)
	case clsNewline:
		return spaces(s, i)
	}
	// c can prefix a word: [^\r\n\p{L}\p{N}]. The word alternatives are
	// tried with the prefix first, then without it, which matters for a
	// mark: marks are in both letter classes.
	c1, w1 := uint8(clsNewline), 0
	if i+w < len(s) {
		c1, w1 = at(s, i+w)
	}
	if in(setUpper|setLower, c1) {
		if e := o200kLetters(s, i+w); e >= 0 {
			return contraction(s, e)
		}
		if c == clsMark {
			return contraction(s, o200kLetters(s, i))
		}
		// c1 is upper case: the first alternative would have taken
		// anything else.
		return contraction(s, o200kUpper(s, i+w))
	}
	switch {
	case c == clsMark:
		return contraction(s, o200kLetters(s, i))
	case c == clsOther:
		return punct(s, i+w, true)
	case s[i] == ' ' && in(setPunct, c1):
		return punct(s, i+w+w1, true)
	}
	return spaces(s, i)
}

// nextCl100k returns the end of the cl100k_base piece that starts at s[i].
func nextCl100k(s string, i int) int {
	if e := asciiWordCl100k(s, i); e > 0 {
		return e
	}
	if s[i] == '\'' {
		if e := contraction(s, i); e > i {
			return e
		}
	}
	c, w := at(s, i)
	switch c {
	case clsUpper, clsLower, clsOtherLetter:
		return run(s, i+w, setLetter)
	case clsNumber:
		return digits(s, i+w)
	case clsNewline:
		return spaces(s, i)
	}
	// c can prefix a word: [^\r\n\p{L}\p{N}].
	c1, w1 := uint8(clsNewline), 0
	if i+w < len(s) {
		c1, w1 = at(s, i+w)
	}
	switch {
	case in(setLetter, c1):
		return run(s, i+w+w1, setLetter)
	case in(setPunct, c):
		return punct(s, i+w, false)
	case s[i] == ' ' && in(setPunct, c1):
		return punct(s, i+w+w1, false)
	}
	return spaces(s, i)
}

// asciiWordO200k returns the end of the commonest o200k_base piece, an
// English word: an optional ASCII prefix, ASCII upper-case letters, ASCII
// lower-case letters, then an ASCII byte that is no lower-case letter and
// no apostrophe (which could start a contraction). For anything else it
// returns 0, and the general scanner decides.
func asciiWordO200k(s string, i int) int {
	j := i
	if byteSets[s[i]]&setPrefix != 0 {
		j++
	}
	for j < len(s) && 'A' <= s[j] && s[j] <= 'Z' {
		j++
	}
	k := j
	for k < len(s) && 'a' <= s[k] && s[k] <= 'z' {
		k++
	}
	if k == j || k < len(s) && (s[k] >= utf8.RuneSelf || s[k] == '\'') {
		return 0
	}
	return k
}

// asciiWordCl100k is asciiWordO200k for cl100k_base, where a word is an
// optional ASCII prefix (not an apostrophe, which may start a contraction)
// and ASCII letters followed by an ASCII byte that is not a letter.
func asciiWordCl100k(s string, i int) int {
	j := i
	if byteSets[s[i]]&setPrefix != 0 && s[i] != '\'' {
		j++
	}
	k := j
	for k < len(s) && byteSets[s[k]]&setLetter != 0 {
		k++
	}
	if k == j || k < len(s) && s[k] >= utf8.RuneSelf {
		return 0
	}
	return k
}

// digits returns the end of \p{N}{1,3} whose first digit ends at s[i].
func digits(s string, i int) int {
	for range 2 {
		if i >= len(s) {
			break
		}
		c, w := at(s, i)
		if c != clsNumber {
			break
		}
		i += w
	}
	return i
}

// punct returns the end of [^\s\p{L}\p{N}]+[\r\n]* (with slash: [\r\n/]*)
// whose first character ends at s[i]. A slash is itself in the first class,
// so the first run has taken every slash there is before the line breaks.
func punct(s string, i int, slash bool) int {
	i = run(s, i, setPunct)
	for i < len(s) && (s[i] == '\n' || s[i] == '\r' || slash && s[i] == '/') {
		i++
	}
	return i
}

// spaces returns the end of the white-space piece at s[i]:
//
//	\s*[\r\n]+   up to the last line break of the run, if it has one;
//	\s+(?!\S)    the whole run at the end of the text, else all of it but
//	             its last character, which then starts the next piece;
//	\s+          a single space before a non-space.
//
// A character that is not white space (it cannot happen: every other
// character starts a piece of another alternative) is a piece of its own.
func spaces(s string, i int) int {
	p, last, lastBreak := i, i, -1
	for p < len(s) {
		c, w := at(s, p)
		if !in(setSpace, c) {
			break
		}
		last = p
		p += w
		if c == clsNewline {
			lastBreak = p
		}
	}
	switch {
	case lastBreak >= 0:
		return lastBreak
	case p == i:
		_, w := at(s, i)
		return i + w
	case p == len(s) || last == i:
		return p
	default:
		return last
	}
}
