package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
)

// DecodeError is a body the codecs cannot read. Path names the member at
// fault ("messages[3].tool_calls[0].function.arguments"), empty for the
// body as a whole; the error wraps condense.ErrMalformed.
type DecodeError struct {
	Path string
	Msg  string
}

// Error returns "openai: <path>: <what is wrong>".
func (e *DecodeError) Error() string {
	if e.Path == "" {
		return "openai: " + e.Msg
	}
	return "openai: " + e.Path + ": " + e.Msg
}

// Unwrap returns condense.ErrMalformed.
func (e *DecodeError) Unwrap() error { return condense.ErrMalformed }

func errAt(path, format string, args ...any) error {
	return &DecodeError{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// under puts err below the member path p: "messages[3]" + "content" gives
// "messages[3].content", "messages" + "[3]" gives "messages[3]".
func under(p string, err error) error {
	var de *DecodeError
	if !errors.As(err, &de) {
		return err
	}
	switch {
	case de.Path == "":
		return &DecodeError{Path: p, Msg: de.Msg}
	case strings.HasPrefix(de.Path, "["):
		return &DecodeError{Path: p + de.Path, Msg: de.Msg}
	}
	return &DecodeError{Path: p + "." + de.Path, Msg: de.Msg}
}

func idx(name string, i int) string { return fmt.Sprintf("%s[%d]", name, i) }

// The codecs carry what condense has no field for in openai provider
// parts (condense.ProviderBlock("openai", raw)):
//
//   - An item, message part or tool call of a type the codec does not model
//     is the part's Raw as given, byte for byte: a Responses input item
//     ("web_search_call", "compaction", …) or a content part ("input_audio",
//     "file", "refusal", …). Such a block always has a "type" member.
//   - Members of a modelled object that condense has no field for (a chat
//     message's "name", an output text's "annotations", a tool call's
//     "index", an image's "detail" other than "auto", the "developer" role
//     of a system message) travel in a fields block
//     {"condense":"<kind>","value":{<the members, in order, values byte for
//     byte>}}, which has no "type". A message or item fields block comes
//     before the parts of its message or item; a part fields block right
//     after its part. On encoding, a member of a fields block replaces the
//     modelled member of the same name, or is merged into it when both are
//     objects (the "function" of a tool call, the "image_url" of an image),
//     and the others follow the modelled members.
//   - The few things that would be ambiguous bare are wrapped the same way:
//     a chat message of an unknown role ("chat.message"), a chat tool call
//     that is not a function call ("chat.tool_call"), a Responses content
//     part of an unknown type ("responses.content").
//
// Each API's encoder writes its own blocks and leaves the other API's out,
// and every block of another provider.
const (
	kindChatMessageFields = "chat.message_fields"
	kindChatPartFields    = "chat.part_fields"
	kindChatMessage       = "chat.message"
	kindChatToolCall      = "chat.tool_call"
	kindItemFields        = "responses.item_fields"
	kindRespPartFields    = "responses.part_fields"
	kindRespContent       = "responses.content"
)

// wrap returns a condense-made block {"condense":kind,"value":value}.
func wrap(kind string, value []byte) condense.Part {
	e := enc{b: make([]byte, 0, len(value)+len(kind)+24)}
	e.lit(`{"condense":`)
	e.str(kind)
	e.lit(`,"value":`)
	e.raw(value)
	e.byte('}')
	return condense.ProviderBlock(Provider, e.b)
}

// fieldsPart returns the fields block of kind holding fs.
func fieldsPart(kind string, fs []Field) condense.Part {
	e := enc{b: make([]byte, 0, 64)}
	e.lit(`{"condense":`)
	e.str(kind)
	e.lit(`,"value":{`)
	for i, f := range fs {
		e.key(i == 0, f.Name)
		e.raw(f.Value)
	}
	e.lit("}}")
	return condense.ProviderBlock(Provider, e.b)
}

// block is what an openai provider part holds.
type block struct {
	kind  string // a condense-made block's kind, "" for a bare one
	typ   string // a bare block's "type"
	value []byte // a condense-made block's value; a bare block's bytes
}

// blockOf reads an openai provider part; ok is false for other providers'
// parts and for openai parts that are not a JSON object.
func blockOf(p *condense.Part) (block, bool) {
	if p.Type != condense.PartProvider || p.Provider != Provider || !validJSON(p.Raw) {
		return block{}, false
	}
	o, ok := objectOf(p.Raw)
	if !ok {
		return block{}, false
	}
	var b block
	n := 0
	for {
		name, val, ok := o.next()
		if !ok {
			break
		}
		n++
		switch name {
		case "condense":
			b.kind, _ = str(val)
		case "value":
			b.value = val
		case "type":
			b.typ, _ = str(val)
		}
	}
	if b.kind != "" && b.value != nil && n == 2 {
		return block{kind: b.kind, value: b.value}, true
	}
	return block{typ: b.typ, value: p.Raw}, true
}

// IsFieldsPart reports whether p is a part the codecs made to carry the
// members of a message, item or part that condense has no field for (see
// the package documentation). Readers that want only the content leave
// such parts out.
func IsFieldsPart(p *condense.Part) bool {
	b, ok := blockOf(p)
	return ok && strings.HasSuffix(b.kind, "_fields")
}

// fieldsAfter returns the members of the part fields block of kind that
// follows parts[i], if there is one.
func fieldsAfter(parts []condense.Part, i int, kind string) []Field {
	if i+1 >= len(parts) || parts[i+1].Type != condense.PartProvider {
		return nil
	}
	if b, ok := blockOf(&parts[i+1]); ok && b.kind == kind {
		return fieldsOf(b.value)
	}
	return nil
}

// RawArgumentsKey names the one member of the object that stands for tool
// call arguments that are not a JSON object. A tool call's arguments (and
// a custom tool call's input) travel on the wire as a string; condense
// holds a tool call's input as a JSON object. The string becomes the
// input as it is when it is a JSON object; any other string — empty, a
// JSON array or number, JSON cut short by the output cap — becomes
// {"_raw_arguments": "<the string>"}, and so does an object that has that
// shape itself, so that the mapping has an exact inverse: encoding writes
// the string back as it was. See ArgumentsInput and InputArguments.
const RawArgumentsKey = "_raw_arguments"

// ArgumentsInput returns the tool call input that stands for the wire
// arguments s (see RawArgumentsKey).
func ArgumentsInput(s string) json.RawMessage {
	b := []byte(s)
	if kindOf(b) == '{' && validJSON(b) {
		if _, wrapped := rawArguments(b); !wrapped {
			return b
		}
	}
	e := enc{b: make([]byte, 0, len(s)+24)}
	e.lit(`{"` + RawArgumentsKey + `":`)
	e.str(s)
	e.byte('}')
	return e.b
}

// InputArguments returns the wire arguments of a tool call input: the
// string an input made by ArgumentsInput came from; "{}" for an empty
// input; the input's text otherwise.
func InputArguments(in json.RawMessage) string {
	if s, ok := rawArguments(in); ok {
		return s
	}
	if len(bytes.TrimSpace(in)) == 0 {
		return "{}"
	}
	return string(in)
}

// rawArguments returns s when in is {"_raw_arguments": s} and nothing
// else.
func rawArguments(in []byte) (string, bool) {
	if kindOf(in) != '{' || !bytes.Contains(in, []byte(RawArgumentsKey)) || !validJSON(in) {
		return "", false
	}
	o, _ := objectOf(in)
	name, val, ok := o.next()
	if !ok || name != RawArgumentsKey {
		return "", false
	}
	if _, _, more := o.next(); more {
		return "", false
	}
	return str(val)
}

// imageFromURL returns the image part for an image address: a base64 data
// URL whose bytes re-encode to the same text becomes the image's bytes,
// any other address is kept as it is.
func imageFromURL(url string) condense.Part {
	if rest, ok := strings.CutPrefix(url, "data:"); ok {
		if meta, payload, ok := strings.Cut(rest, ","); ok {
			if mt, ok := strings.CutSuffix(meta, ";base64"); ok && mt != "" {
				if data, err := base64.StdEncoding.DecodeString(payload); err == nil &&
					base64.StdEncoding.EncodedLen(len(data)) == len(payload) &&
					base64.StdEncoding.EncodeToString(data) == payload {
					return condense.ImageData(mt, data)
				}
			}
		}
	}
	return condense.ImageURL("", url)
}

// imageURL returns the address of an image part: its URL, or its bytes as
// a data URL.
func imageURL(p *condense.Part) string {
	if p.URL != "" {
		return p.URL
	}
	mt := p.MediaType
	if mt == "" {
		mt = "application/octet-stream"
	}
	return "data:" + mt + ";base64," + base64.StdEncoding.EncodeToString(p.Data)
}

// imageURL writes an image's address as a JSON string: its URL, or its
// bytes as a data URL, encoded straight into the body.
func (e *enc) imageURL(p *condense.Part) {
	if p.URL != "" {
		e.str(p.URL)
		return
	}
	mt := p.MediaType
	if mt == "" {
		mt = "application/octet-stream"
	}
	e.b = append(e.b, `"data:`...)
	e.b = appendEscaped(e.b, mt)
	e.b = append(e.b, ";base64,"...)
	e.b = base64.StdEncoding.AppendEncode(e.b, p.Data)
	e.byte('"')
}

// own returns the bytes a decoder reads. Decoded values share their
// memory: strings without escapes and kept raw values point into them, so
// that decoding a large body costs little more than one pass over it.
func own(body []byte) []byte { return body }

// sizeHint estimates the size of r's body, so that an encoder allocates
// once.
func sizeHint(r *condense.Request, extra Fields, raw []json.RawMessage) int {
	n := 256 + len(r.Model) + len(r.System)
	for i := range r.Messages {
		n += 48 + partsSize(r.Messages[i].Parts)
	}
	for i := range r.Tools {
		t := &r.Tools[i]
		n += 96 + len(t.Name) + len(t.Description) + len(t.InputSchema)
	}
	for _, t := range raw {
		n += len(t)
	}
	for _, f := range extra {
		n += 4 + len(f.Name) + len(f.Value)
	}
	return n + n/8 // escapes
}

func partsSize(parts []condense.Part) int {
	n := 0
	for i := range parts {
		p := &parts[i]
		n += 64 + len(p.Text) + len(p.ID) + len(p.CallID) + len(p.Name) + len(p.Input)*9/8 +
			len(p.Signature) + len(p.Redacted) + len(p.URL) + len(p.Data)*4/3 + len(p.Raw) + partsSize(p.Content)
	}
	return n
}

// skipDoc checks that body is one JSON object, white space around it
// allowed, and returns it trimmed.
func objectDoc(body []byte) ([]byte, error) {
	i := ws(body, 0)
	end, err := scanValue(body, i, 0)
	if err != nil {
		return nil, &DecodeError{Msg: err.Error()}
	}
	if j := ws(body, end); j != len(body) {
		return nil, &DecodeError{Msg: synErr(body, j, "after top-level value").Error()}
	}
	if body[i] != '{' {
		return nil, &DecodeError{Msg: "want a JSON object"}
	}
	return body[i:end], nil
}

// fieldSet is a list of fields with a lookup.
func getField(fs []Field, name string) (json.RawMessage, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f.Value, true
		}
	}
	return nil, false
}

// setField replaces the value of the field name in fs, or appends one.
func setField(fs []Field, name string, v json.RawMessage) []Field {
	for i := range fs {
		if fs[i].Name == name {
			fs[i].Value = v
			return fs
		}
	}
	return append(fs, Field{name, v})
}
