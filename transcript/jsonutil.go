package transcript

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
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

// decode unmarshals one JSON value; it fails on trailing data.
func decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return cleanJSONErr(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// jsonProblem is an encoding/json error without the Go type names
// encoding/json puts in its messages; Offset is where in the input it is.
type jsonProblem struct {
	msg    string
	Offset int64
}

func (e *jsonProblem) Error() string { return e.msg }

// cleanJSONErr drops the Go type names encoding/json puts in its errors,
// keeping the offset.
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
		return &jsonProblem{se.Error(), se.Offset}
	}
	return err
}

// docErr reports a JSON document that does not decode, naming the line of
// the problem when encoding/json says where it is.
func (b *builder) docErr(data []byte, err error) error {
	var l loc
	var jp *jsonProblem
	if errors.As(err, &jp) && jp.Offset > 0 && jp.Offset <= int64(len(data)) {
		l.line = 1 + bytes.Count(data[:jp.Offset], []byte("\n"))
	}
	return b.errAt(l, "%v", err)
}

// objectKeys returns the keys of a JSON object, or nil when raw is not one.
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
