// Package jsonx reads and writes JSON by hand for the provider codecs: one
// left-to-right pass over a body that validates as it goes, decodes the
// strings it is asked for and hands back the exact bytes of the values it
// is asked to skip, so that fields a codec does not model travel byte for
// byte. It is several times faster than encoding/json on request bodies
// made mostly of long strings, which is what agent histories are.
//
// A value once checked can be read again without checking it twice:
// KindOf, StringOf, Members and Elements walk a checked value, finding where
// its parts end with fast byte searches, for decoders that look at an
// object's members out of order.
//
// Strings decode as encoding/json decodes them: escapes resolved, and
// invalid UTF-8 and lone surrogates replaced by U+FFFD.
package jsonx

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// SyntaxError is malformed JSON: Offset is the byte where it was found.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg + " at offset " + strconv.Itoa(e.Offset) }

// Reader reads JSON values from Data, from Pos on. Errors are sticky: after
// the first one every method returns a zero value and More returns false;
// Err reports it.
type Reader struct {
	Data []byte
	Pos  int
	err  *SyntaxError
}

// NewReader returns a reader at the start of data.
func NewReader(data []byte) *Reader { return &Reader{Data: data} }

// Err returns the first error, or nil.
func (r *Reader) Err() error {
	if r.err == nil {
		return nil
	}
	return r.err
}

// Failed reports whether an error happened.
func (r *Reader) Failed() bool { return r.err != nil }

// Fail records an error at offset off (the first error wins).
func (r *Reader) Fail(off int, format string, args ...any) {
	if r.err == nil {
		r.err = &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
	}
	r.Pos = len(r.Data)
}

func (r *Reader) ws() {
	for r.Pos < len(r.Data) {
		switch r.Data[r.Pos] {
		case ' ', '\t', '\n', '\r':
			r.Pos++
		default:
			return
		}
	}
}

// Kind skips whitespace and returns the first byte of the next value:
// '{', '[', '"', 't', 'f', 'n', '-' or a digit; 0 at the end of the data or
// after an error.
func (r *Reader) Kind() byte {
	if r.err != nil {
		return 0
	}
	r.ws()
	if r.Pos >= len(r.Data) {
		return 0
	}
	return r.Data[r.Pos]
}

// KindName names a Kind for error messages.
func KindName(k byte) string {
	switch k {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	case 0:
		return "nothing"
	}
	return "a number"
}

// Open consumes the '{' or '[' that starts the next value; it fails when the
// value is something else.
func (r *Reader) Open(c byte) bool {
	if k := r.Kind(); k != c {
		if r.err == nil {
			r.Fail(r.Pos, "invalid character %s looking for %q", quoteByte(k, r.Pos >= len(r.Data)), c)
		}
		return false
	}
	r.Pos++
	r.ws()
	return true
}

// More reports whether the object or array opened before has another
// member, consuming the comma between members; at the closing c it consumes
// it and returns false. first must be true for the first call of a loop.
func (r *Reader) More(c byte, first bool) bool {
	if r.err != nil {
		return false
	}
	r.ws()
	if r.Pos >= len(r.Data) {
		r.Fail(r.Pos, "unexpected end of JSON input")
		return false
	}
	b := r.Data[r.Pos]
	if b == c {
		r.Pos++
		return false
	}
	if !first {
		if b != ',' {
			r.Fail(r.Pos, "invalid character %s after %s", quoteByte(b, false), member(c))
			return false
		}
		r.Pos++
		r.ws()
	}
	return true
}

func member(c byte) string {
	if c == '}' {
		return "object key:value pair"
	}
	return "array element"
}

// Key reads an object key and the colon after it. The bytes are a slice of
// Data unless the key holds escapes.
func (r *Reader) Key() []byte {
	if r.Kind() != '"' {
		if r.err == nil {
			r.Fail(r.Pos, "invalid character %s looking for beginning of object key string", quoteByte(r.Kind(), r.Pos >= len(r.Data)))
		}
		return nil
	}
	start := r.Pos + 1
	end, escaped := r.scanString()
	if r.err != nil {
		return nil
	}
	key := r.Data[start : end-1]
	if escaped || !utf8.Valid(key) {
		key = unquote(nil, key)
	}
	r.ws()
	if r.Pos >= len(r.Data) || r.Data[r.Pos] != ':' {
		r.Fail(r.Pos, "invalid character %s after object key", quoteByte(r.byteAt(r.Pos), r.Pos >= len(r.Data)))
		return nil
	}
	r.Pos++
	return key
}

func (r *Reader) byteAt(i int) byte {
	if i < len(r.Data) {
		return r.Data[i]
	}
	return 0
}

// String reads a string value.
func (r *Reader) String() string {
	if r.Kind() != '"' {
		if r.err == nil {
			r.Fail(r.Pos, "want a string")
		}
		return ""
	}
	// One pass: validate and decode together. Plain runs are copied whole;
	// without escapes or invalid UTF-8 the string is one copy of the input.
	d := r.Data
	start := r.Pos + 1
	i := start
	var dst []byte
	for {
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			if m := hasZero(x^quotes) | hasZero(x^backslashes) | hasLess(x) | (x & highs); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(d) {
			r.Fail(len(d), "unexpected end of JSON input")
			return ""
		}
		c := d[i]
		switch {
		case c == '"':
			r.Pos = i + 1
			if dst == nil {
				return string(d[start:i])
			}
			dst = append(dst, d[start:i]...)
			if len(dst) == 0 {
				return ""
			}
			return unsafe.String(&dst[0], len(dst))
		case c == '\\':
			if dst == nil {
				dst = make([]byte, 0, stringEnd(d, i)-start)
			}
			dst = append(dst, d[start:i]...)
			if i+1 >= len(d) {
				r.Fail(len(d), "unexpected end of JSON input")
				return ""
			}
			switch e := d[i+1]; e {
			case '"', '\\', '/':
				dst = append(dst, e)
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(d) {
						r.Fail(len(d), "unexpected end of JSON input")
						return ""
					}
					if unhex(d[i+k]) < 0 {
						r.Fail(i+k, "invalid character %s in \\u hexadecimal character escape", quoteByte(d[i+k], false))
						return ""
					}
				}
				r1 := hex4(d[i+2:])
				i += 6
				if utf16.IsSurrogate(r1) {
					if i+6 <= len(d) && d[i] == '\\' && d[i+1] == 'u' && unhex(d[i+2]) >= 0 && unhex(d[i+3]) >= 0 && unhex(d[i+4]) >= 0 && unhex(d[i+5]) >= 0 {
						if dec := utf16.DecodeRune(r1, hex4(d[i+2:])); dec != utf8.RuneError {
							i += 6
							dst = utf8.AppendRune(dst, dec)
							start = i
							continue
						}
					}
					r1 = utf8.RuneError
				}
				dst = utf8.AppendRune(dst, r1)
				start = i
				continue
			default:
				r.Fail(i+1, "invalid character %s in string escape code", quoteByte(e, false))
				return ""
			}
			i += 2
			start = i
		case c < 0x20:
			r.Fail(i, "invalid character %s in string literal", quoteByte(c, false))
			return ""
		case c < utf8.RuneSelf:
			i++
		default:
			rn, size := utf8.DecodeRune(d[i:])
			if rn == utf8.RuneError && size == 1 {
				if dst == nil {
					dst = make([]byte, 0, stringEnd(d, i)-start+8)
				}
				dst = append(dst, d[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
		}
	}
}

// stringEnd returns the offset of the quote that ends the string literal
// holding offset i (or len(d)), found with the fast byte search: the size
// of the string, for allocating its decoded bytes once.
func stringEnd(d []byte, i int) int {
	for {
		j := bytes.IndexByte(d[i:], '"')
		if j < 0 {
			return len(d)
		}
		i += j
		n := 0
		for k := i - 1; k >= 0 && d[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return i
		}
		i++
	}
}

// DecodeString decodes the contents of a JSON string literal (without its
// quotes) that a Reader has already validated.
func DecodeString(raw []byte) string { return decode(raw) }

// scanString consumes a string literal starting at r.Pos (a quote) and
// returns the offset just past its closing quote and whether it holds
// escapes.
func (r *Reader) scanString() (end int, escaped bool) {
	d := r.Data
	i := r.Pos + 1
	for {
		// Eight bytes at a time while none is a quote, a backslash or a
		// control character.
		for i+8 <= len(d) {
			x := binary.LittleEndian.Uint64(d[i:])
			if m := hasZero(x^quotes) | hasZero(x^backslashes) | hasLess(x); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(d) {
			r.Fail(len(d), "unexpected end of JSON input")
			return 0, false
		}
		c := d[i]
		switch {
		case c == '"':
			r.Pos = i + 1
			return i + 1, escaped
		case c == '\\':
			escaped = true
			if i+1 >= len(d) {
				r.Fail(len(d), "unexpected end of JSON input")
				return 0, false
			}
			switch d[i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i += 2
			case 'u':
				for k := 2; k < 6; k++ {
					if i+k >= len(d) {
						r.Fail(len(d), "unexpected end of JSON input")
						return 0, false
					}
					if unhex(d[i+k]) < 0 {
						r.Fail(i+k, "invalid character %s in \\u hexadecimal character escape", quoteByte(d[i+k], false))
						return 0, false
					}
				}
				i += 6
			default:
				r.Fail(i+1, "invalid character %s in string escape code", quoteByte(d[i+1], false))
				return 0, false
			}
		case c < 0x20:
			r.Fail(i, "invalid character %s in string literal", quoteByte(c, false))
			return 0, false
		default:
			i++
		}
	}
}

const (
	ones        = 0x0101010101010101
	highs       = 0x8080808080808080
	quotes      = ones * '"'
	backslashes = ones * '\\'
)

// hasZero is nonzero when a byte of x is zero.
func hasZero(x uint64) uint64 { return (x - ones) & ^x & highs }

// hasLess is nonzero when a byte of x is below 0x20.
func hasLess(x uint64) uint64 { return (x - ones*0x20) & ^x & highs }

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c - 'a' + 10)
	case 'A' <= c && c <= 'F':
		return int(c - 'A' + 10)
	}
	return -1
}

// unquote appends the decoded contents of a validated string literal to
// dst, as encoding/json decodes them: escapes resolved, invalid UTF-8 and
// lone surrogates replaced by U+FFFD. Runs of plain ASCII are skipped eight
// bytes at a time and copied whole.
func unquote(dst, s []byte) []byte {
	start, i := 0, 0
	for i < len(s) {
		for i+8 <= len(s) {
			x := binary.LittleEndian.Uint64(s[i:])
			if m := hasZero(x^backslashes) | (x & highs); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf && c != '\\' {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && size == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, "\uFFFD"...)
				i++
				start = i
				continue
			}
			i += size
			continue
		}
		dst = append(dst, s[start:i]...)
		switch s[i+1] {
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r1 := hex4(s[i+2:])
			i += 6
			if utf16.IsSurrogate(r1) {
				if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
					if dec := utf16.DecodeRune(r1, hex4(s[i+2:])); dec != utf8.RuneError {
						i += 6
						dst = utf8.AppendRune(dst, dec)
						start = i
						continue
					}
				}
				r1 = utf8.RuneError
			}
			dst = utf8.AppendRune(dst, r1)
			start = i
			continue
		default: // '"', '\\', '/'
			dst = append(dst, s[i+1])
		}
		i += 2
		start = i
	}
	return append(dst, s[start:]...)
}

// decode returns the decoded contents of a validated string literal as a
// string, copying it once.
func decode(raw []byte) string {
	if len(raw) == 0 {
		return ""
	}
	b := unquote(make([]byte, 0, len(raw)), raw)
	if len(b) == 0 {
		return ""
	}
	// b is new and never written again: the string may share it.
	return unsafe.String(&b[0], len(b))
}

func hex4(b []byte) rune {
	return rune(unhex(b[0])<<12 | unhex(b[1])<<8 | unhex(b[2])<<4 | unhex(b[3]))
}

// Skip consumes the next value, validating it, and returns its bytes (a
// slice of Data).
func (r *Reader) Skip() []byte {
	k := r.Kind()
	start := r.Pos
	r.skip(k, 0)
	if r.err != nil {
		return nil
	}
	return r.Data[start:r.Pos]
}

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

func (r *Reader) skip(k byte, depth int) {
	switch k {
	case '"':
		r.scanString()
	case '{', '[':
		if depth >= maxDepth {
			r.Fail(r.Pos, "exceeded max depth")
			return
		}
		c := byte('}')
		if k == '[' {
			c = ']'
		}
		r.Pos++
		for first := true; r.More(c, first); first = false {
			if k == '{' {
				if r.Kind() != '"' {
					r.Fail(r.Pos, "invalid character %s looking for beginning of object key string", quoteByte(r.byteAt(r.Pos), r.Pos >= len(r.Data)))
					return
				}
				r.scanString()
				r.ws()
				if r.Pos >= len(r.Data) || r.Data[r.Pos] != ':' {
					r.Fail(r.Pos, "invalid character %s after object key", quoteByte(r.byteAt(r.Pos), r.Pos >= len(r.Data)))
					return
				}
				r.Pos++
			}
			r.skip(r.Kind(), depth+1)
		}
	case 't':
		r.literal("true")
	case 'f':
		r.literal("false")
	case 'n':
		r.literal("null")
	case 0:
		if r.err == nil {
			r.Fail(r.Pos, "unexpected end of JSON input")
		}
	default:
		r.number()
	}
}

func (r *Reader) literal(lit string) {
	if len(r.Data)-r.Pos < len(lit) || string(r.Data[r.Pos:r.Pos+len(lit)]) != lit {
		for i := 0; i < len(lit); i++ {
			if r.Pos+i >= len(r.Data) {
				r.Fail(len(r.Data), "unexpected end of JSON input")
				return
			}
			if r.Data[r.Pos+i] != lit[i] {
				r.Fail(r.Pos+i, "invalid character %s in literal %s (expecting %q)", quoteByte(r.Data[r.Pos+i], false), lit, lit[i])
				return
			}
		}
	}
	r.Pos += len(lit)
}

// number consumes a number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func (r *Reader) number() {
	d := r.Data
	i := r.Pos
	if i < len(d) && d[i] == '-' {
		i++
	}
	digits := func(what string) bool {
		start := i
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
		if i == start {
			if i >= len(d) {
				r.Fail(i, "unexpected end of JSON input")
			} else {
				r.Fail(i, "invalid character %s %s", quoteByte(d[i], false), what)
			}
			return false
		}
		return true
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case !digits("looking for beginning of value"):
		return
	}
	if i < len(d) && d[i] == '.' {
		i++
		if !digits("after decimal point in numeric literal") {
			return
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if !digits("in exponent of numeric literal") {
			return
		}
	}
	r.Pos = i
}

// Int reads a number and returns it when it is an integer that fits an
// int; ok is false for any other number, and an error is recorded when the
// value is not a number at all.
func (r *Reader) Int() (n int, ok bool) {
	k := r.Kind()
	if k != '-' && (k < '0' || k > '9') {
		if r.err == nil {
			r.Fail(r.Pos, "want a number")
		}
		return 0, false
	}
	start := r.Pos
	r.number()
	if r.err != nil {
		return 0, false
	}
	return ParseInt(r.Data[start:r.Pos])
}

// ParseInt parses a validated JSON number that is a plain integer.
func ParseInt(b []byte) (int, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	if neg {
		n = -n
	}
	return n, true
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	switch r.Kind() {
	case 't':
		r.literal("true")
		return true
	case 'f':
		r.literal("false")
		return false
	}
	if r.err == nil {
		r.Fail(r.Pos, "want a boolean")
	}
	return false
}

// Null consumes null when it comes next and reports whether it did.
func (r *Reader) Null() bool {
	if r.Kind() != 'n' {
		return false
	}
	r.literal("null")
	return r.err == nil
}

// End checks that only whitespace follows.
func (r *Reader) End() {
	if r.err != nil {
		return
	}
	r.ws()
	if r.Pos < len(r.Data) {
		r.Fail(r.Pos, "invalid character %s after top-level value", quoteByte(r.Data[r.Pos], false))
	}
}

func quoteByte(c byte, eof bool) string {
	if eof {
		return "end of input"
	}
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// Valid reports whether data is one JSON value with only whitespace around.
func Valid(data []byte) bool {
	r := Reader{Data: data}
	r.Skip()
	r.End()
	return r.err == nil
}
