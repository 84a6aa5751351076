package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/condense-dev/condense"
)

// kind returns the first significant byte of a JSON value: '{', '[', '"',
// 'n' (null), 't'/'f', a digit or '-', or 0 when raw is empty.
func kind(raw json.RawMessage) byte {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

func isNull(raw json.RawMessage) bool { k := kind(raw); return k == 0 || k == 'n' }

// decode unmarshals one JSON value; it fails on trailing data. A syntax
// error (the input ends early, a value nested deeper than MaxDepth) is a
// *jsonProblem giving its offset in data.
func decode(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return &jsonProblem{truncatedJSON, int64(len(data)) + 1}
		}
		return cleanJSONErr(err)
	}
	return nil
}

// MaxDepth is how deeply JSON values may nest: arrays and objects inside
// one another more than MaxDepth levels deep are malformed input. It is the
// limit of Go's encoding/json, which every reader relies on; no transcript
// comes near it, and a deeper value is an attack on the reader's stack.
const MaxDepth = 10000

// jsonProblem is an encoding/json error without the Go type names
// encoding/json puts in its messages; Offset is where in the input it is:
// the 1-based position of the byte at fault (encoding/json's offset of a
// syntax error), one past the last byte when the input ends early.
type jsonProblem struct {
	msg    string
	Offset int64
}

func (e *jsonProblem) Error() string { return e.msg }

// cleanJSONErr drops the Go type names encoding/json puts in its errors,
// keeping the offset, and says in plain words what its terse syntax errors
// mean for a truncated input, trailing data and too deep a nesting.
func cleanJSONErr(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return &jsonProblem{"unexpected JSON " + te.Value, te.Offset}
		}
		return &jsonProblem{te.Field + ": unexpected JSON " + te.Value, te.Offset}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		msg := se.Error()
		switch {
		case msg == "unexpected end of JSON input":
			return &jsonProblem{truncatedJSON, se.Offset + 1}
		case strings.HasSuffix(msg, "after top-level value"):
			msg = "trailing data after the JSON value"
		case strings.HasSuffix(msg, "exceeded max depth"):
			msg = fmt.Sprintf("JSON nested deeper than %d levels", MaxDepth)
		}
		return &jsonProblem{msg, se.Offset}
	}
	return err
}

// truncatedJSON is the problem of a JSON value cut short.
const truncatedJSON = "the JSON ends early (a truncated file or line?)"

// position returns the 1-based line and column (in bytes) of the byte at
// the 1-based offset in data (a jsonProblem's Offset), or of the end of
// data when offset is past it.
func position(data []byte, offset int64) (line, col int) {
	i := int(min(max(offset-1, 0), int64(len(data))))
	before := data[:i]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = i - bytes.LastIndexByte(before, '\n')
	return line, col
}

// at returns l with the column of a JSON problem in the record at l (a
// JSONL line decoded whole), when err is one and gives its offset.
func (l loc) at(line []byte, err error) loc {
	var jp *jsonProblem
	if errors.As(err, &jp) && l.path == "" && jp.Offset > 0 {
		_, l.col = position(line, jp.Offset)
	}
	return l
}

// docErr reports a JSON document that does not decode, naming the line and
// column of the problem when encoding/json says where it is.
func (b *builder) docErr(data []byte, err error) error {
	var l loc
	var jp *jsonProblem
	if errors.As(err, &jp) && jp.Offset > 0 && jp.Offset <= int64(len(data))+1 {
		l.line, l.col = position(data, jp.Offset)
	}
	return b.errAt(l, "%v", err)
}

// rawView is a JSON value decoded as the slice of the input it was read
// from, where json.RawMessage would be a copy: decoding a document into
// views costs slice headers, not a second copy of its members. A view is
// only valid while the input is, and keeps all of it alive: what a
// transcript keeps must not be a view (see builder.keep).
type rawView []byte

// UnmarshalJSON keeps data itself. encoding/json hands Unmarshal's input
// (a subslice of it), which the readers never change.
func (v *rawView) UnmarshalJSON(data []byte) error {
	*v = data
	return nil
}

// views returns vs as json.RawMessage values (the same bytes).
func views(vs []rawView) []json.RawMessage {
	if vs == nil {
		return nil
	}
	out := make([]json.RawMessage, len(vs))
	for i, v := range vs {
		out[i] = json.RawMessage(v)
	}
	return out
}

// arrayItems returns the items of a JSON array as views of raw, or an
// error when raw is not one (as unmarshalling into a []json.RawMessage).
func arrayItems(raw json.RawMessage) ([]json.RawMessage, error) {
	var vs []rawView
	if err := json.Unmarshal(raw, &vs); err != nil {
		return nil, err
	}
	return views(vs), nil
}

// objectKeys returns the keys of a JSON object, or nil when raw is not one.
// The values are copies: a reader may keep them.
func objectKeys(raw json.RawMessage) map[string]json.RawMessage {
	if kind(raw) != '{' {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	return m
}

// memberViews is objectKeys with the values as views of raw, not copies:
// for looking at a document (Detect), never for keeping.
func memberViews(raw json.RawMessage) map[string]json.RawMessage {
	if kind(raw) != '{' {
		return nil
	}
	var vs map[string]rawView
	if json.Unmarshal(raw, &vs) != nil {
		return nil
	}
	m := make(map[string]json.RawMessage, len(vs))
	for k, v := range vs {
		m[k] = json.RawMessage(v)
	}
	return m
}

// imageFromURL returns an image part for an image address; data: URLs
// become the image's bytes.
func imageFromURL(url string) (condense.Part, bool) {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		meta, payload, ok := strings.Cut(rest, ",")
		if !ok {
			return condense.Part{}, false
		}
		mt, isB64 := strings.CutSuffix(meta, ";base64")
		if !isB64 {
			return condense.Part{}, false
		}
		data, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return condense.Part{}, false
		}
		return condense.ImageData(mt, data), true
	}
	if url == "" {
		return condense.Part{}, false
	}
	return condense.ImageURL("", url), true
}

// validInput returns s as a tool input when it is a JSON value, "{}" when s
// is empty or null, and false otherwise.
func validInput(s string) (json.RawMessage, bool) {
	if t := strings.TrimSpace(s); t == "" || t == "null" {
		return json.RawMessage("{}"), true
	}
	if !json.Valid([]byte(s)) {
		return nil, false
	}
	return json.RawMessage(s), true
}
