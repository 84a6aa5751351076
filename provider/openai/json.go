package openai

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// The codecs read bodies with the small scanner of this file instead of
// encoding/json: one pass over the body checks its syntax and finds the
// members the codecs model; every other value is kept as the bytes it was
// given. Decoding first copies the body once; strings without escapes and
// kept values share that private copy, so a decoded request costs little
// more than the copy and the strings that needed unescaping.

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

// syntaxError is a JSON syntax error at a byte offset of the value scanned.
type syntaxError struct {
	msg string
	off int
}

func (e *syntaxError) Error() string { return fmt.Sprintf("%s at offset %d", e.msg, e.off) }

func synErr(b []byte, i int, what string) error {
	if i >= len(b) {
		return &syntaxError{"unexpected end of JSON input", i}
	}
	return &syntaxError{fmt.Sprintf("invalid character %s %s", quoteChar(b[i]), what), i}
}

func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

// strSafe marks the bytes a JSON string holds as they are: not a quote, a
// backslash or a control character.
var strSafe = func() (t [256]bool) {
	for c := 0x20; c < 256; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func ws(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// SWAR constants: a byte is special in a JSON string when it is a quote,
// a backslash or a control character.
const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// special reports whether one of the 8 bytes of x is a quote, a backslash
// or below 0x20 (it may also flag a byte after such a byte, never miss
// one).
func special(x uint64) bool {
	lt := (x - lsb*0x20) & ^x
	q := x ^ (lsb * '"')
	bs := x ^ (lsb * '\\')
	return (lt|(q-lsb)&^q|(bs-lsb)&^bs)&msb != 0
}

// scanString scans the string starting at b[i] (a quote) and returns the
// offset after its closing quote and whether it holds escapes.
func scanString(b []byte, i int) (int, bool, error) {
	i++
	esc := false
	for {
		for i+8 <= len(b) && !special(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
		}
		for i < len(b) && strSafe[b[i]] {
			i++
		}
		if i >= len(b) {
			return i, esc, synErr(b, i, "")
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, esc, nil
		case c == '\\':
			esc = true
			i++
			if i >= len(b) {
				return i, esc, synErr(b, i, "")
			}
			switch b[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(b) || !isHex(b[i+k]) {
						return i, esc, synErr(b, i+k, "in \\u hexadecimal character escape")
					}
				}
				i += 5
			default:
				return i, esc, synErr(b, i, "in string escape code")
			}
		default:
			return i, esc, synErr(b, i, "in string literal")
		}
	}
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// scanValue scans the value starting at b[i] (white space already
// skipped) and returns the offset after it.
func scanValue(b []byte, i, depth int) (int, error) {
	if i >= len(b) {
		return i, synErr(b, i, "")
	}
	switch c := b[i]; c {
	case '"':
		end, _, err := scanString(b, i)
		return end, err
	case '{':
		if depth >= maxDepth {
			return i, &syntaxError{"exceeded max depth", i}
		}
		i = ws(b, i+1)
		if i < len(b) && b[i] == '}' {
			return i + 1, nil
		}
		for {
			if i >= len(b) || b[i] != '"' {
				return i, synErr(b, i, "looking for beginning of object key string")
			}
			end, _, err := scanString(b, i)
			if err != nil {
				return end, err
			}
			i = ws(b, end)
			if i >= len(b) || b[i] != ':' {
				return i, synErr(b, i, "after object key")
			}
			i = ws(b, i+1)
			if i, err = scanValue(b, i, depth+1); err != nil {
				return i, err
			}
			i = ws(b, i)
			if i >= len(b) {
				return i, synErr(b, i, "")
			}
			if b[i] == '}' {
				return i + 1, nil
			}
			if b[i] != ',' {
				return i, synErr(b, i, "after object key:value pair")
			}
			i = ws(b, i+1)
		}
	case '[':
		if depth >= maxDepth {
			return i, &syntaxError{"exceeded max depth", i}
		}
		i = ws(b, i+1)
		if i < len(b) && b[i] == ']' {
			return i + 1, nil
		}
		for {
			var err error
			if i, err = scanValue(b, i, depth+1); err != nil {
				return i, err
			}
			i = ws(b, i)
			if i >= len(b) {
				return i, synErr(b, i, "")
			}
			if b[i] == ']' {
				return i + 1, nil
			}
			if b[i] != ',' {
				return i, synErr(b, i, "after array element")
			}
			i = ws(b, i+1)
		}
	case 't':
		return literal(b, i, "true")
	case 'f':
		return literal(b, i, "false")
	case 'n':
		return literal(b, i, "null")
	default:
		if c == '-' || '0' <= c && c <= '9' {
			return scanNumber(b, i)
		}
		return i, synErr(b, i, "looking for beginning of value")
	}
}

func literal(b []byte, i int, lit string) (int, error) {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(b) || b[i+k] != lit[k] {
			return i + k, synErr(b, i+k, "in literal "+lit)
		}
	}
	return i + len(lit), nil
}

func scanNumber(b []byte, i int) (int, error) {
	if b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	default:
		return i, synErr(b, i, "in numeric literal")
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, synErr(b, i, "after decimal point in numeric literal")
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return i, synErr(b, i, "in exponent of numeric literal")
		}
		for i < len(b) && '0' <= b[i] && b[i] <= '9' {
			i++
		}
	}
	return i, nil
}

// stringEnd returns the offset after the closing quote of the string
// starting at b[i], in a value already scanned.
func stringEnd(b []byte, i int) int {
	i++
	for {
		j := bytes.IndexByte(b[i:], '"')
		if j < 0 {
			return len(b)
		}
		i += j
		k := i - 1
		for b[k] == '\\' {
			k--
		}
		i++
		if (i-2-k)%2 == 0 {
			return i
		}
	}
}

// skip returns the offset after the value starting at b[i] (white space
// skipped), in a value already scanned: it finds ends without checking
// the syntax again.
func skip(b []byte, i int) int {
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = stringEnd(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// validJSON reports whether b is one JSON value, white space around it
// allowed.
func validJSON(b []byte) bool {
	i, err := scanValue(b, ws(b, 0), 0)
	return err == nil && ws(b, i) == len(b)
}

// kindOf returns the first byte of a value: '{', '[', '"', 'n', 't', 'f',
// or a digit or '-'; 0 when v is empty.
func kindOf(v []byte) byte {
	i := ws(v, 0)
	if i >= len(v) {
		return 0
	}
	return v[i]
}

// object iterates the members of one JSON object value. The value must
// have been scanned already (its syntax is known to be right).
type object struct {
	b []byte
	i int
}

// objectOf returns an iterator over v, or false when v is not an object.
// v must be a syntactically valid value.
func objectOf(v []byte) (object, bool) {
	i := ws(v, 0)
	if i >= len(v) || v[i] != '{' {
		return object{}, false
	}
	return object{b: v, i: i + 1}, true
}

// next returns the next member: its name, unescaped, and its value,
// trimmed. ok is false at the end.
func (o *object) next() (name string, val []byte, ok bool) {
	b := o.b
	i := ws(b, o.i)
	if i < len(b) && b[i] == ',' {
		i = ws(b, i+1)
	}
	if i >= len(b) || b[i] != '"' {
		o.i = len(b)
		return "", nil, false
	}
	end := stringEnd(b, i)
	name = unquote(b[i:end], bytes.IndexByte(b[i:end], '\\') >= 0)
	i = ws(b, end) + 1 // the colon
	i = ws(b, i)
	vend := skip(b, i)
	o.i = vend
	return name, b[i:vend], true
}

// array iterates the elements of one JSON array value, already scanned.
type array struct {
	b []byte
	i int
}

func arrayOf(v []byte) (array, bool) {
	i := ws(v, 0)
	if i >= len(v) || v[i] != '[' {
		return array{}, false
	}
	return array{b: v, i: i + 1}, true
}

func (a *array) next() ([]byte, bool) {
	b := a.b
	i := ws(b, a.i)
	if i < len(b) && b[i] == ',' {
		i = ws(b, i+1)
	}
	if i >= len(b) || b[i] == ']' {
		a.i = len(b)
		return nil, false
	}
	end := skip(b, i)
	a.i = end
	return b[i:end], true
}

// str returns the value of a JSON string v (already scanned); ok is false
// when v is not a string.
func str(v []byte) (string, bool) {
	i := ws(v, 0)
	if i >= len(v) || v[i] != '"' {
		return "", false
	}
	end := stringEnd(v, i)
	return unquote(v[i:end], bytes.IndexByte(v[i:end], '\\') >= 0), true
}

// intOf returns the value of a JSON integer v; ok is false for anything
// else (fractions, exponents, overflow).
func intOf(v []byte) (int, bool) {
	v = bytes.TrimSpace(v)
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, false
	}
	n, err := strconv.Atoi(unsafe.String(unsafe.SliceData(v), len(v)))
	return n, err == nil
}

// view returns b as a string without copying it; b must never change.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// unquote returns the value of the quoted string q. Without escapes the
// result shares q's memory (q is part of the decoder's private copy);
// invalid UTF-8 becomes U+FFFD, as encoding/json makes it.
func unquote(q []byte, esc bool) string {
	in := q[1 : len(q)-1]
	if !esc {
		if utf8.Valid(in) {
			return view(in)
		}
		return string(bytes.ToValidUTF8(in, []byte("\uFFFD")))
	}
	out := make([]byte, 0, len(in))
	for i := 0; i < len(in); {
		c := in[i]
		if c != '\\' {
			j := bytes.IndexByte(in[i:], '\\')
			if j < 0 {
				j = len(in) - i
			}
			out = append(out, in[i:i+j]...)
			i += j
			continue
		}
		i++
		switch in[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := hex4(in[i+1:])
			i += 4
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if i+2 < len(in) && in[i+1] == '\\' && in[i+2] == 'u' {
					r2 = hex4(in[i+3:])
				}
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					r = d
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default: // '"', '\\', '/'
			out = append(out, in[i])
		}
		i++
	}
	if !utf8.Valid(out) {
		out = bytes.ToValidUTF8(out, []byte("\uFFFD"))
	}
	return view(out)
}

func hex4(b []byte) rune {
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}

// enc builds a JSON document.
type enc struct{ b []byte }

const hexDigits = "0123456789abcdef"

// str writes s as a JSON string. HTML characters are left as they are;
// invalid UTF-8 becomes U+FFFD.
func (e *enc) str(s string) {
	e.b = append(e.b, '"')
	e.b = appendEscaped(e.b, s)
	e.b = append(e.b, '"')
}

// appendEscaped appends s escaped for the inside of a JSON string.
func appendEscaped(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); {
		// Eight plain ASCII bytes at a time.
		for i+8 <= len(s) {
			x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if x&msb != 0 || special(x) {
				break
			}
			i += 8
		}
		if i >= len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if strSafe[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		i += size
	}
	return append(b, s[start:]...)
}

func (e *enc) raw(v []byte) { e.b = append(e.b, v...) }
func (e *enc) lit(s string) { e.b = append(e.b, s...) }
func (e *enc) byte(c byte)  { e.b = append(e.b, c) }
func (e *enc) int(n int)    { e.b = strconv.AppendInt(e.b, int64(n), 10) }
func (e *enc) key(first bool, k string) {
	if !first {
		e.b = append(e.b, ',')
	}
	e.str(k)
	e.b = append(e.b, ':')
}

// Field is one member of a JSON object that the codec does not model,
// kept as it was given: Value holds its bytes.
type Field struct {
	Name  string
	Value json.RawMessage
}

// fieldsOf returns the members of a JSON object v, in order.
func fieldsOf(v []byte) []Field {
	o, ok := objectOf(v)
	if !ok {
		return nil
	}
	var fs []Field
	for {
		name, val, ok := o.next()
		if !ok {
			return fs
		}
		fs = append(fs, Field{name, val})
	}
}

// objw writes one JSON object whose modelled members the caller writes,
// merging extra members into it. An extra member with the name of a
// modelled one replaces its value, or, when both are objects, is merged
// into it member by member; the other extra members follow the modelled
// ones, in their order.
type objw struct {
	e      *enc
	extras []Field
	used   []bool
	n      int
}

func (o *objw) begin(e *enc, extras []Field) {
	o.e, o.extras, o.n = e, extras, 0
	o.used = nil
	if len(extras) > 0 {
		o.used = make([]bool, len(extras))
	}
	e.byte('{')
}

// member writes the key of a modelled member. When an extra member
// replaces it, member writes that value and returns false: the caller
// writes nothing. Otherwise the caller writes the value; nested holds the
// members to merge into it when it is an object (object says it is).
func (o *objw) member(name string, object bool) (nested []Field, write bool) {
	o.e.key(o.n == 0, name)
	o.n++
	for k := range o.extras {
		if o.used[k] || o.extras[k].Name != name {
			continue
		}
		o.used[k] = true
		v := o.extras[k].Value
		if object && kindOf(v) == '{' {
			return fieldsOf(v), true
		}
		o.e.raw(v)
		return nil, false
	}
	return nil, true
}

// end writes the unused extra members and closes the object.
func (o *objw) end() {
	for k, f := range o.extras {
		if o.used[k] {
			continue
		}
		o.e.key(o.n == 0, f.Name)
		o.n++
		o.e.raw(f.Value)
	}
	o.e.byte('}')
}

// nestedObj writes an object value that has no modelled members of its
// own beyond those written by fn, merging nested extras.
func (e *enc) obj(extras []Field, fn func(o *objw)) {
	var o objw
	o.begin(e, extras)
	fn(&o)
	o.end()
}
