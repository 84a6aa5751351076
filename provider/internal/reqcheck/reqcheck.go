// Package reqcheck holds the JSON accessors the request checkers of
// provider/anthropic and provider/openai share: each takes a raw value and
// says whether it has the wanted shape, never failing.
package reqcheck

import (
	"bytes"
	"encoding/json"
)

// Kind returns the first byte of a JSON value: '{', '[', '"', 'n', 't',
// 'f', a digit or '-'; 0 for none.
func Kind(v json.RawMessage) byte {
	v = bytes.TrimLeft(v, " \t\r\n")
	if len(v) == 0 {
		return 0
	}
	return v[0]
}

// Object returns v's members when v is a JSON object.
func Object(v json.RawMessage) (map[string]json.RawMessage, bool) {
	if Kind(v) != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(v, &m) != nil {
		return nil, false
	}
	return m, true
}

// Array returns v's elements when v is a JSON array.
func Array(v json.RawMessage) ([]json.RawMessage, bool) {
	if Kind(v) != '[' {
		return nil, false
	}
	var a []json.RawMessage
	if json.Unmarshal(v, &a) != nil {
		return nil, false
	}
	return a, true
}

// String returns v when v is a JSON string.
func String(v json.RawMessage) (string, bool) {
	if Kind(v) != '"' {
		return "", false
	}
	var s string
	if json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// Positive returns v when v is a positive integer.
func Positive(v json.RawMessage) (int64, bool) {
	var n json.Number
	d := json.NewDecoder(bytes.NewReader(v))
	d.UseNumber()
	if d.Decode(&n) != nil {
		return 0, false
	}
	i, err := n.Int64()
	return i, err == nil && i > 0
}
