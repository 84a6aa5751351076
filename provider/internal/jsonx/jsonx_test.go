package jsonx

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

var samples = []string{
	`{}`, `[]`, `""`, `"a"`, `0`, `-0`, `1.5e+3`, `true`, `false`, `null`,
	`{"a":[1,2,{"b":null}],"c":"\u00e9\ud83d\ude00\n"}`,
	` { "a" : "b" } `, `"\ud800"`, `"\ud800\u0041"`, "\"\xff\xfe ok\"", `"\/\b\f\r\t\\\""`,
	`{"a":1,}`, `[1,]`, `01`, `1.`, `-`, `"abc`, `{"a"}`, `{"a":}`, `[1 2]`, `tru`, `nul`, "\"\x01\"",
	`"\x"`, `"\u12G4"`, `{1:2}`, `[`, `{`, `1 2`, `"` + strings.Repeat("long text with \"quotes\" and \\ escapes\n", 50) + `"`,
}

func TestValidMatchesEncodingJSON(t *testing.T) {
	for _, s := range samples {
		if got, want := Valid([]byte(s)), json.Valid([]byte(s)); got != want {
			t.Errorf("Valid(%q) = %v, encoding/json says %v", s, got, want)
		}
	}
}

func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range samples {
		var want string
		if json.Unmarshal([]byte(s), &want) != nil || strings.TrimSpace(s)[0] != '"' {
			continue
		}
		r := NewReader([]byte(s))
		got := r.String()
		r.End()
		if r.Err() != nil || got != want {
			t.Errorf("String(%q) = %q, %v; want %q", s, got, r.Err(), want)
		}
	}
}

func TestAppendStringRoundTrip(t *testing.T) {
	for _, s := range []string{"", "plain", "tab\there \"q\" \\ \x00\x1f é 😀", "\xff bad \xc3", strings.Repeat("abcdefgh", 20) + "\n"} {
		out := AppendString(nil, s)
		var back string
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		want := strings.ToValidUTF8(s, "\ufffd")
		if back != want {
			t.Errorf("AppendString(%q) = %s, reads back %q", s, out, back)
		}
	}
}

func FuzzReader(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Valid(data), json.Valid(data); got != want {
			t.Fatalf("Valid(%q) = %v, encoding/json says %v", data, got, want)
		}
		var want string
		if json.Unmarshal(data, &want) == nil && strings.TrimLeft(string(data), " \t\r\n")[0] == '"' {
			r := NewReader(data)
			if got := r.String(); got != want || r.Err() != nil {
				t.Fatalf("String(%q) = %q, want %q", data, got, want)
			}
			var back string
			if err := json.Unmarshal(AppendString(nil, want), &back); err != nil || back != want {
				t.Fatalf("AppendString(%q) reads back %q, %v", want, back, err)
			}
		}
	})
}

// walk rebuilds a checked value with KindOf, Members, Elements and
// StringOf, as encoding/json would decode it into an any.
func walk(t *testing.T, v []byte) any {
	switch KindOf(v) {
	case '{':
		m := map[string]any{}
		for name, val := range Members(v) {
			m[name] = walk(t, val)
		}
		return m
	case '[':
		a := []any{}
		for i, val := range Elements(v) {
			if i != len(a) {
				t.Fatalf("element %d of %s has index %d", len(a), v, i)
			}
			a = append(a, walk(t, val))
		}
		return a
	case '"':
		s, ok := StringOf(v)
		if !ok {
			t.Fatalf("StringOf(%s) is not a string", v)
		}
		return s
	}
	x, err := decodeAny(v)
	if err != nil {
		t.Fatalf("value %q: %v", v, err)
	}
	return x
}

// decodeAny decodes data as encoding/json does into an any, but keeping
// numbers as json.Number: a valid number too large for a float64 ("5" times
// 300) is still JSON.
func decodeAny(data []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var x any
	err := d.Decode(&x)
	return x, err
}

func checkWalk(t *testing.T, data []byte) {
	if !Valid(data) {
		return
	}
	want, err := decodeAny(data)
	if err != nil {
		t.Fatalf("%q: %v", data, err)
	}
	if got := walk(t, data); !reflect.DeepEqual(got, want) {
		t.Fatalf("walking %q gives %#v, encoding/json %#v", data, got, want)
	}
}

func TestCheckedValuesMatchEncodingJSON(t *testing.T) {
	for _, s := range append(samples, ` {"a" : [ 1 , "x\"]" , {"}":"{"} , [] , {} ] , "b":null , "a":true } `,
		`[[],[[]],{"k\u00e9":"\\\\"}, -1.5e3 ,false]`, "\"\xff\xfe plain\"") {
		checkWalk(t, []byte(s))
	}
	if k := KindOf([]byte(" \n")); k != 0 {
		t.Errorf("KindOf(white space) = %q", k)
	}
	if _, ok := StringOf([]byte("1")); ok {
		t.Error("StringOf(1) says it is a string")
	}
}

func FuzzCheckedValues(f *testing.F) {
	for _, s := range samples {
		f.Add([]byte(s))
	}
	f.Fuzz(checkWalk)
}

// Syntax errors are worded as encoding/json words them, but for input that
// ends inside a number or a literal, which encoding/json reports as a
// space ("invalid character ' ' in literal true") and jsonx as the end of
// the input.
func TestSyntaxErrorsMatchEncodingJSON(t *testing.T) {
	for _, s := range append(samples, "\x96", "[1,\xff]", "{\"a\"\xc3:1}", "\x01", "{\"a\":1 \x7f}") {
		var v any
		want := json.Unmarshal([]byte(s), &v)
		r := NewReader([]byte(s))
		r.Skip()
		r.End()
		got := r.Err()
		if (got == nil) != (want == nil) {
			t.Errorf("%q: got %v, encoding/json %v", s, got, want)
			continue
		}
		if got == nil || got.(*SyntaxError).Msg == "unexpected end of JSON input" && strings.HasPrefix(want.Error(), "invalid character ' '") {
			continue
		}
		if strings.TrimSuffix(got.Error(), " at offset "+strconv.Itoa(got.(*SyntaxError).Offset)) != want.Error() {
			t.Errorf("%q: got %v, encoding/json %v", s, got, want)
		}
	}
}
