package jsonx

import (
	"bytes"
	"iter"
	"unicode/utf8"
	"unsafe"
)

// The functions of this file read a value whose syntax is already known to
// be right (Valid said so, or a Reader skipped it without error) without
// checking it a second time: they only find where strings, members and
// elements end, with fast byte searches, and decode the strings asked for.
// A decoder can so look at an object's members in any order, or more than
// once, for the price of one checking pass. Given bytes that are not valid
// JSON they do not panic, but what they return is unspecified.

// KindOf returns the first byte of the value v, as Reader.Kind does: '{',
// '[', '"', 't', 'f', 'n', '-' or a digit; 0 when v is only white space.
func KindOf(v []byte) byte {
	i := skipSpace(v, 0)
	if i >= len(v) {
		return 0
	}
	return v[i]
}

// StringOf returns the value of the string v and true, or "" and false
// when v is not a string. White space around v is allowed. A string
// without escapes and of valid UTF-8 is not copied: the result shares v's
// memory, so v must not change while the result is in use.
func StringOf(v []byte) (string, bool) {
	i := skipSpace(v, 0)
	if i >= len(v) || v[i] != '"' {
		return "", false
	}
	return view(v[i+1 : stringEnd(v, i+1)]), true
}

// Members returns the members of the object v, in order: each member's
// name, decoded as StringOf decodes it, and its value's bytes, a slice of v
// without the white space around it. It yields nothing when v is not an
// object.
func Members(v []byte) iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		i := skipSpace(v, 0)
		if i >= len(v) || v[i] != '{' {
			return
		}
		for i = nextItem(v, i+1); i < len(v) && v[i] == '"'; i = nextItem(v, i) {
			end := stringEnd(v, i+1)
			if end >= len(v) {
				return
			}
			name := view(v[i+1 : end])
			i = skipSpace(v, end+1)
			if i < len(v) && v[i] == ':' {
				i = skipSpace(v, i+1)
			}
			val := v[i:valueEnd(v, i)]
			if len(val) == 0 || !yield(name, val) {
				return
			}
			i += len(val)
		}
	}
}

// Elements returns the elements of the array v, in order, with their
// indexes: each a slice of v without the white space around it. It yields
// nothing when v is not an array.
func Elements(v []byte) iter.Seq2[int, []byte] {
	return func(yield func(int, []byte) bool) {
		i := skipSpace(v, 0)
		if i >= len(v) || v[i] != '[' {
			return
		}
		k := 0
		for i = nextItem(v, i+1); i < len(v) && v[i] != ']'; i = nextItem(v, i) {
			val := v[i:valueEnd(v, i)]
			if len(val) == 0 || !yield(k, val) {
				return
			}
			i += len(val)
			k++
		}
	}
}

// nextItem skips white space and the comma between two members or
// elements and returns the offset of what follows.
func nextItem(v []byte, i int) int {
	i = skipSpace(v, i)
	if i < len(v) && v[i] == ',' {
		i = skipSpace(v, i+1)
	}
	return i
}

func skipSpace(v []byte, i int) int {
	for i < len(v) && isSpace(v[i]) {
		i++
	}
	return i
}

// valueEnd returns the offset just past the checked value that starts at
// v[i].
func valueEnd(v []byte, i int) int {
	if i >= len(v) {
		return len(v)
	}
	switch v[i] {
	case '"':
		return min(stringEnd(v, i+1)+1, len(v))
	case '{', '[':
		depth := 0
		for i < len(v) {
			switch v[i] {
			case '"':
				i = stringEnd(v, i+1)
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(v)
	}
	for i < len(v) {
		switch v[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// view returns the decoded contents of a checked string literal (without
// its quotes): raw itself, shared, when it needs no decoding, or else a
// decoded copy.
func view(raw []byte) string {
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		return unsafe.String(unsafe.SliceData(raw), len(raw))
	}
	return decode(raw)
}
