package openai

import (
	"encoding/json"
	"strconv"
	"unsafe"

	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// The decoders read a body in two steps: jsonx checks its syntax in one
// pass, then they walk the checked value with jsonx.Members and
// jsonx.Elements, which find where values end without checking them again.
// Strings without escapes and kept values share the body's memory, so a
// decoded request costs little more than that pass and the strings that
// needed unescaping. The encoders write a body in one buffer, members in
// the order the API documents them.

// Field is one member of a JSON object that the codec does not model,
// kept as it was given: Value holds its bytes.
type Field struct {
	Name  string
	Value json.RawMessage
}

// Fields are the members of a JSON object that a codec does not model, in
// their order, values byte for byte.
type Fields []Field

// Get returns the value of the member name.
func (f Fields) Get(name string) (json.RawMessage, bool) {
	for _, m := range f {
		if m.Name == name {
			return m.Value, true
		}
	}
	return nil, false
}

// Set replaces the value of the member name, or appends the member.
func (f *Fields) Set(name string, value json.RawMessage) {
	for i := range *f {
		if (*f)[i].Name == name {
			(*f)[i].Value = value
			return
		}
	}
	*f = append(*f, Field{name, value})
}

// checked checks that body is one JSON value, white space around it
// allowed, and returns the value.
func checked(body []byte) ([]byte, error) {
	r := jsonx.Reader{Data: body}
	v := r.Skip()
	r.End()
	if err := r.Err(); err != nil {
		return nil, &DecodeError{Msg: err.Error()}
	}
	return v, nil
}

// objectDoc checks that body is one JSON object, white space around it
// allowed, and returns it.
func objectDoc(body []byte) ([]byte, error) {
	v, err := checked(body)
	if err == nil && v[0] != '{' {
		return nil, &DecodeError{Msg: "want a JSON object"}
	}
	return v, err
}

// decodeDoc reads body, one JSON object, with decode.
func decodeDoc[T any](body []byte, decode func([]byte) (*T, error)) (*T, error) {
	doc, err := objectDoc(body)
	if err != nil {
		return nil, err
	}
	return decode(doc)
}

// kindOf returns the first byte of a value: '{', '[', '"', 'n', 't', 'f',
// or a digit or '-'; 0 when v is empty.
func kindOf(v []byte) byte { return jsonx.KindOf(v) }

// str returns the value of a checked JSON string v, sharing v's memory
// when it has no escapes; ok is false when v is not a string.
func str(v []byte) (string, bool) { return jsonx.StringOf(v) }

// intOf returns the value of a JSON integer v; ok is false for anything
// else (fractions, exponents, overflow).
func intOf(v []byte) (int, bool) {
	v = jsonx.TrimSpace(v)
	if len(v) == 0 || v[0] != '-' && (v[0] < '0' || v[0] > '9') {
		return 0, false
	}
	n, err := strconv.Atoi(view(v))
	return n, err == nil
}

// view returns b as a string without copying it; b must never change.
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// fieldsOf returns the members of a checked JSON object v, in order.
func fieldsOf(v []byte) []Field {
	var fs []Field
	for name, val := range jsonx.Members(v) {
		fs = append(fs, Field{name, val})
	}
	return fs
}

// names remembers the member names of one object, to find one given
// twice. The request decoders reject such an object: encoding writes the
// members condense has no field for over the modelled ones, so a repeated
// name would change the body's meaning.
type names struct {
	list []string
	set  map[string]bool // from the 17th name on
}

func (s *names) dup(name string) bool {
	if s.set != nil {
		if s.set[name] {
			return true
		}
		s.set[name] = true
		return false
	}
	for _, n := range s.list {
		if n == name {
			return true
		}
	}
	s.list = append(s.list, name)
	if len(s.list) > 16 {
		s.set = make(map[string]bool, 2*len(s.list))
		for _, n := range s.list {
			s.set[n] = true
		}
	}
	return false
}

// enc builds a JSON document.
type enc struct{ b []byte }

// str writes s as a JSON string. HTML characters are left as they are;
// invalid UTF-8 becomes U+FFFD.
func (e *enc) str(s string) { e.b = jsonx.AppendString(e.b, s) }
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

// sep writes the comma before an element of an array of which *n are
// written, and counts the element.
func (e *enc) sep(n *int) {
	if *n > 0 {
		e.byte(',')
	}
	*n++
}

// fields writes fs as a JSON object.
func (e *enc) fields(fs []Field) {
	e.byte('{')
	for i, f := range fs {
		e.key(i == 0, f.Name)
		e.raw(f.Value)
	}
	e.byte('}')
}

// objectBytes returns the JSON object of fs.
func objectBytes(fs []Field) []byte {
	e := enc{b: make([]byte, 0, 32)}
	e.fields(fs)
	return e.b
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

// object starts an object with extras merged into it; its end method
// closes it.
func (e *enc) object(extras []Field) objw {
	o := objw{e: e, extras: extras}
	if len(extras) > 0 {
		o.used = make([]bool, len(extras))
	}
	e.byte('{')
	return o
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

// str writes the modelled member name with the string value s.
func (o *objw) str(name, s string) {
	if _, w := o.member(name, false); w {
		o.e.str(s)
	}
}

// lit writes the modelled member name with the JSON value v.
func (o *objw) lit(name, v string) {
	if _, w := o.member(name, false); w {
		o.e.lit(v)
	}
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
