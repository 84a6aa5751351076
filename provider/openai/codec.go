package openai

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
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
func wrap(kind string, value []byte) condense.Part { return condenseBlock(kind, value, nil) }

// fieldsPart returns the fields block of kind holding fs.
func fieldsPart(kind string, fs []Field) condense.Part { return condenseBlock(kind, nil, fs) }

// condenseBlock returns {"condense":kind,"value":v}, where v is value, or
// else the object of fs.
func condenseBlock(kind string, value []byte, fs []Field) condense.Part {
	n := len(value) + len(kind) + 24
	for _, f := range fs {
		n += len(f.Name) + len(f.Value) + 4
	}
	e := enc{b: make([]byte, 0, n)}
	e.lit(`{"condense":`)
	e.str(kind)
	e.lit(`,"value":`)
	if value != nil {
		e.raw(value)
	} else {
		e.fields(fs)
	}
	e.byte('}')
	return condense.ProviderBlock(Provider, e.b)
}

// withFields appends a part fields block of kind after ps when there are
// extra members.
func withFields(ps []condense.Part, kind string, extras []Field) []condense.Part {
	if len(extras) > 0 {
		ps = append(ps, fieldsPart(kind, extras))
	}
	return ps
}

// withFieldsBefore returns the fields block of kind holding extras, when
// there are any, then p.
func withFieldsBefore(kind string, extras []Field, p condense.Part) []condense.Part {
	if len(extras) == 0 {
		return []condense.Part{p}
	}
	return []condense.Part{fieldsPart(kind, extras), p}
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
	if p.Type != condense.PartProvider || p.Provider != Provider || kindOf(p.Raw) != '{' || !jsonx.Valid(p.Raw) {
		return block{}, false
	}
	var b block
	n := 0
	for name, val := range jsonx.Members(p.Raw) {
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
	if kindOf(b) == '{' && jsonx.Valid(b) {
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
func rawArguments(in []byte) (s string, ok bool) {
	if kindOf(in) != '{' || !bytes.Contains(in, []byte(RawArgumentsKey)) || !jsonx.Valid(in) {
		return "", false
	}
	n := 0
	for name, val := range jsonx.Members(in) {
		if n++; n > 1 || name != RawArgumentsKey {
			return "", false
		}
		s, ok = str(val)
	}
	return s, ok
}

// toolInput returns the input of a tool call whose wire arguments (or
// custom input) are v: a string maps as ArgumentsInput says, and so does
// a missing value (as ""); an object, which some servers send, is the
// input as it is, unless it has the shape of a wrapped string itself.
// ok is false for a value of another kind.
func toolInput(v []byte) (json.RawMessage, bool) {
	switch kindOf(v) {
	case 0:
		return ArgumentsInput(""), true
	case '"':
		s, _ := str(v)
		return ArgumentsInput(s), true
	case '{':
		if _, wrapped := rawArguments(v); wrapped {
			return ArgumentsInput(string(v)), true
		}
		return v, true
	}
	return nil, false
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
	e.str("data:" + mt + ";base64,")
	e.b = base64.StdEncoding.AppendEncode(e.b[:len(e.b)-1], p.Data) // inside the quotes
	e.byte('"')
}

// decodeUsage reads a usage object whose input and output token counts
// are named in and out, and the cache counts are in the object named
// details.
func decodeUsage(v []byte, in, out, details string) condense.Usage {
	var u condense.Usage
	for name, val := range jsonx.Members(v) {
		switch name {
		case in:
			u.InputTokens, _ = intOf(val)
		case out:
			u.OutputTokens, _ = intOf(val)
		case details:
			for name, val := range jsonx.Members(val) {
				switch name {
				case "cached_tokens":
					u.CacheReadTokens, _ = intOf(val)
				case "cache_write_tokens":
					u.CacheWriteTokens, _ = intOf(val)
				}
			}
		}
	}
	return u
}

// partTexts yields the non-empty "text" members of the objects of the
// array v: the texts of an answer's content parts, or of a reasoning
// item's summary.
func partTexts(v []byte) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, pv := range jsonx.Elements(v) {
			for name, tv := range jsonx.Members(pv) {
				if name != "text" {
					continue
				}
				if s, _ := str(tv); s != "" && !yield(s) {
					return
				}
			}
		}
	}
}
