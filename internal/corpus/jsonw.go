package corpus

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf8"
)

// kv is one member of an ordered JSON object.
type kv struct {
	k string
	v any
}

// obj is a JSON object whose members keep their order when written, as the
// tools that write these files keep it.
type obj []kv

func (o obj) MarshalJSON() ([]byte, error) { return marshal(o) }

// get returns the value of key k, or nil.
func (o obj) get(k string) any {
	for _, m := range o {
		if m.k == k {
			return m.v
		}
	}
	return nil
}

// marshal writes v as compact JSON without HTML escaping (none of these
// tools escape <, > and &). It knows the types the writers use and hands
// anything else to encoding/json.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeJSON(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case string:
		writeString(b, x)
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'f', -1, 64))
	case obj:
		b.WriteByte('{')
		for i, m := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.k)
			b.WriteByte(':')
			if err := writeJSON(b, m.v); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []obj:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case []string:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, e)
		}
		b.WriteByte(']')
	case []Plant, []Probe, []int:
		enc := json.NewEncoder(b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(x); err != nil {
			return err
		}
		b.Truncate(b.Len() - 1) // the encoder's newline
	default:
		return fmt.Errorf("corpus: cannot write %T as JSON", v)
	}
	return nil
}

const hexDigits = "0123456789abcdef"

// writeString writes s as a JSON string the way encoding/json does, less
// its HTML escaping.
func writeString(b *bytes.Buffer, s string) {
	b.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				b.WriteByte('\\')
				b.WriteByte(c)
			case '\n':
				b.WriteString(`\n`)
			case '\r':
				b.WriteString(`\r`)
			case '\t':
				b.WriteString(`\t`)
			default:
				b.WriteString(`\u00`)
				b.WriteByte(hexDigits[c>>4])
				b.WriteByte(hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteString(s[start:i])
			b.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b.WriteString(s[start:i])
			b.WriteString(`\u202`)
			b.WriteByte(hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b.WriteString(s[start:])
	b.WriteByte('"')
}

// jstr returns s as a JSON string.
func jstr(s string) string {
	var b bytes.Buffer
	writeString(&b, s)
	return b.String()
}

// indent writes v as JSON indented with ind, the way Python's
// json.dump(indent=…) and JSON.stringify(…, null, 2) write files.
func indent(v any, ind string) ([]byte, error) {
	raw, err := marshal(v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Grow(len(raw) + len(raw)/8)
	if err := json.Indent(&b, raw, "", ind); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
