package proxy

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
)

// wireAPI is one request format the proxy compacts: how to find its message
// array, read the rest of the body, read one element of the array and write
// messages back as elements. Every reading and writing goes through the
// provider's codec; the proxy itself only finds byte ranges.
type wireAPI struct {
	name     string // "chat", "responses", "messages": a label of logs and metrics
	provider string // "openai" or "anthropic": the error shape and the upstream
	// array is the top-level member holding the history.
	array string
	// merge: consecutive assistant messages of separate elements are one
	// message, as the codec reads a whole body (Responses API items, and
	// Anthropic turns).
	merge bool
	// head reads the body with its array replaced by the given elements
	// (none, or a leading system message for Chat Completions). sys is true
	// when the codec took the elements as the system prompt.
	head func(body []byte) (req condense.Request, sys bool, err error)
	// element reads one element of the array.
	element func(raw []byte) ([]condense.Message, error)
	// encode writes msgs as the elements of an array (without brackets).
	encode func(model string, msgs []condense.Message) ([]byte, error)
}

var (
	chatAPI = &wireAPI{
		name: "chat", provider: openai.Provider, array: "messages",
		head: func(body []byte) (condense.Request, bool, error) {
			r, err := openai.DecodeChatRequest(body)
			if err != nil {
				return condense.Request{}, false, err
			}
			return r.Request, r.System != "" && len(r.Messages) == 0, nil
		},
		element: func(raw []byte) ([]condense.Message, error) {
			m, err := openai.DecodeChatMessage(raw)
			if err != nil {
				return nil, err
			}
			return []condense.Message{m}, nil
		},
		encode: func(model string, msgs []condense.Message) ([]byte, error) {
			b, err := openai.EncodeChatRequest(&openai.ChatRequest{Request: condense.Request{Model: model, Messages: msgs}})
			if err != nil {
				return nil, err
			}
			return arrayContent(b, "messages")
		},
	}
	responsesAPI = &wireAPI{
		name: "responses", provider: openai.Provider, array: "input", merge: true,
		head: func(body []byte) (condense.Request, bool, error) {
			r, err := openai.DecodeResponsesRequest(body)
			if err != nil {
				return condense.Request{}, false, err
			}
			return r.Request, false, nil
		},
		element: func(raw []byte) ([]condense.Message, error) {
			b := make([]byte, 0, len(raw)+2)
			b = append(append(append(b, '['), raw...), ']')
			return openai.DecodeResponsesItems(b)
		},
		encode: func(model string, msgs []condense.Message) ([]byte, error) {
			b, err := openai.EncodeResponsesRequest(&openai.ResponsesRequest{Request: condense.Request{Model: model, Messages: msgs}})
			if err != nil {
				return nil, err
			}
			return arrayContent(b, "input")
		},
	}
	messagesAPI = &wireAPI{
		name: "messages", provider: anthropic.Provider, array: "messages", merge: true,
		head: func(body []byte) (condense.Request, bool, error) {
			r, err := anthropic.DecodeRequest(body)
			if err != nil {
				return condense.Request{}, false, err
			}
			return r.Request, false, nil
		},
		element: anthropic.DecodeMessage,
		encode: func(model string, msgs []condense.Message) ([]byte, error) {
			b, err := anthropic.EncodeRequest(&anthropic.Request{Request: condense.Request{Model: model, Messages: msgs}})
			if err != nil {
				return nil, err
			}
			return arrayContent(b, "messages")
		},
	}
)

// arrayContent returns what is between the brackets of the array member
// name of the JSON object body.
func arrayContent(body []byte, name string) ([]byte, error) {
	v := gjson.GetBytes(body, name)
	if !v.IsArray() {
		return nil, fmt.Errorf("proxy: the codec wrote no %q array", name)
	}
	raw := bytes.TrimSpace([]byte(v.Raw))
	return raw[1 : len(raw)-1], nil
}

// parsedBody is a request body cut into the parts the proxy works on: the
// byte range of the history array and the byte range of each element.
type parsedBody struct {
	body []byte
	// start and end delimit the array value, brackets included; both are 0
	// when the body has no such array.
	start, end int
	elems      [][]byte // slices of body
}

// errNoArray: the body has no history array the proxy can compact (a
// Responses API input given as a string, say).
var errNoArray = errors.New("proxy: no message array")

// splitBody finds the history array of body and its elements. It reads
// only the structure, without checking it: the codec reads the rest of the
// body and every element the proxy has not seen before, and a body that
// is not JSON either fails there or reaches the upstream as it came, to be
// refused by it. It is one pass over the body, most of it spent in
// bytes.IndexByte looking for the ends of strings.
func splitBody(body []byte, api *wireAPI) (parsedBody, error) {
	pb := parsedBody{body: body}
	i := skipSpace(body, 0)
	if i >= len(body) || body[i] != '{' {
		return pb, errNotObject
	}
	i = skipSpace(body, i+1)
	for i < len(body) && body[i] != '}' {
		if body[i] != '"' {
			return pb, errNotObject
		}
		kend := skipString(body, i)
		if kend < 0 {
			return pb, errNotObject
		}
		key := body[i+1 : kend-1]
		i = skipSpace(body, kend)
		if i >= len(body) || body[i] != ':' {
			return pb, errNotObject
		}
		i = skipSpace(body, i+1)
		if string(key) == api.array && i < len(body) && body[i] == '[' {
			return pb, pb.elements(i)
		}
		if i = skipValue(body, i); i < 0 {
			return pb, errNotObject
		}
		if i = skipSpace(body, i); i < len(body) && body[i] == ',' {
			i = skipSpace(body, i+1)
		}
	}
	return pb, errNoArray
}

// errNotObject: the body is not a JSON object the proxy can find its way in.
var errNotObject = errors.New("proxy: the request body is not a JSON object")

// elements records the elements of the array at body[start].
func (pb *parsedBody) elements(start int) error {
	b := pb.body
	i := skipSpace(b, start+1)
	for i < len(b) && b[i] != ']' {
		end := skipValue(b, i)
		if end < 0 {
			return errNotObject
		}
		pb.elems = append(pb.elems, b[i:end])
		if i = skipSpace(b, end); i < len(b) && b[i] == ',' {
			i = skipSpace(b, i+1)
		} else if i >= len(b) || b[i] != ']' {
			return errNotObject
		}
	}
	if i >= len(b) {
		return errNotObject
	}
	pb.start, pb.end = start, i+1
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] (a
// quote), or -1.
func skipString(b []byte, i int) int {
	for from := i + 1; ; {
		k := bytes.IndexByte(b[from:], '"')
		if k < 0 {
			return -1
		}
		j := from + k
		n := 0 // backslashes right before the quote: an odd number escapes it
		for p := j - 1; p >= from && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return j + 1
		}
		from = j + 1
	}
}

// skipValue returns the index after the JSON value starting at b[i], or
// -1. Scalars end at the next delimiter; nothing is checked beyond what
// finding the end needs.
func skipValue(b []byte, i int) int {
	depth := 0
	for i < len(b) {
		switch b[i] {
		case '"':
			if i = skipString(b, i); i < 0 || depth == 0 {
				return i
			}
			continue
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			} else if depth < 0 {
				return -1
			}
		default:
			if depth == 0 {
				j := i
				for j < len(b) && !bytes.ContainsRune([]byte(",}] \t\r\n"), rune(b[j])) {
					j++
				}
				return j
			}
		}
		i++
	}
	return -1
}

// withArray returns the body with the content of its array replaced by
// content (the bytes between the brackets).
func (pb *parsedBody) withArray(content ...[]byte) []byte {
	n := len(pb.body) - (pb.end - pb.start) + 2 + len(content)
	for _, c := range content {
		n += len(c)
	}
	out := make([]byte, 0, n)
	out = append(out, pb.body[:pb.start]...)
	out = append(out, '[')
	first := true
	for _, c := range content {
		if len(c) == 0 {
			continue
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = append(out, c...)
	}
	out = append(out, ']')
	return append(out, pb.body[pb.end:]...)
}
