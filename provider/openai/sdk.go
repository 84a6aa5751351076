package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// ChatRequestFromParams converts the official SDK's Chat Completions
// parameters to a ChatRequest: the body the SDK would send for p,
// decoded. What p holds as raw JSON (param.Override, SetExtraFields) is
// kept byte for byte like any other unknown part of a body.
func ChatRequestFromParams(p openai.ChatCompletionNewParams) (*ChatRequest, error) {
	return fromParams(p, "chat", DecodeChatRequest)
}

// Params converts r to the official SDK's Chat Completions parameters,
// which marshal to the body EncodeChatRequest writes for r. The body is
// read into the SDK's types; a message, tool or member those types cannot
// hold as written (an opaque part, a member they do not know, encrypted
// reasoning) is set as raw JSON with param.Override or SetExtraFields, so
// nothing is lost.
func (r *ChatRequest) Params() (openai.ChatCompletionNewParams, error) {
	body, err := EncodeChatRequest(r)
	return toParams(body, err, "chat", func(p *openai.ChatCompletionNewParams, name string, elems [][]byte) bool {
		switch name {
		case "messages":
			return overrideElems(p.Messages, elems)
		case "tools":
			return overrideElems(p.Tools, elems)
		}
		return false
	})
}

// ResponsesRequestFromParams converts the official SDK's Responses API
// parameters to a ResponsesRequest, as ChatRequestFromParams does.
func ResponsesRequestFromParams(p responses.ResponseNewParams) (*ResponsesRequest, error) {
	return fromParams(p, "responses", DecodeResponsesRequest)
}

// Params converts r to the official SDK's Responses API parameters, which
// marshal to the body EncodeResponsesRequest writes for r, as
// ChatRequest.Params does: reasoning items, items of other types and
// members the SDK's types do not know are kept as raw JSON.
func (r *ResponsesRequest) Params() (responses.ResponseNewParams, error) {
	body, err := EncodeResponsesRequest(r)
	return toParams(body, err, "responses", func(p *responses.ResponseNewParams, name string, elems [][]byte) bool {
		switch name {
		case "input":
			return overrideElems(p.Input.OfInputItemList, elems)
		case "tools":
			return overrideElems(p.Tools, elems)
		}
		return false
	})
}

// fromParams decodes the body that the SDK parameters p marshal to.
func fromParams[P, R any](p P, api string, decode func([]byte) (*R, error)) (*R, error) {
	body, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("openai: marshal %s params: %w", api, err)
	}
	return decode(body)
}

// toParams reads body, written with the error err, into SDK parameters
// that marshal to it (see fixParams).
func toParams[P any, PP interface {
	*P
	json.Marshaler
	SetExtraFields(map[string]any)
}](body []byte, err error, api string, fixList func(p *P, name string, elems [][]byte) bool) (P, error) {
	var p P
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return p, fmt.Errorf("openai: %s params: %w", api, err)
	}
	err = fixParams(body, PP(&p), func(name string, elems [][]byte) bool { return fixList(&p, name, elems) }, PP(&p).SetExtraFields)
	return p, err
}

// overrideElems sets each element of list whose JSON differs from elems
// as raw JSON; false when the lengths differ.
func overrideElems[T param.ParamStruct, PT param.InferPtr[T]](list []T, elems [][]byte) bool {
	if len(list) != len(elems) {
		return false
	}
	for i := range list {
		got, err := json.Marshal(list[i])
		if err == nil && sameJSON(got, elems[i]) {
			continue
		}
		list[i] = param.Override[T, PT](json.RawMessage(elems[i]))
	}
	return true
}

// fixParams makes p marshal to body: each top-level member whose JSON
// differs is fixed element by element (fixList), or else set whole as an
// extra field, which takes the place of the SDK's.
func fixParams(body []byte, p json.Marshaler, fixList func(string, [][]byte) bool, setExtra func(map[string]any)) error {
	got, err := p.MarshalJSON()
	if err != nil {
		return err
	}
	have := map[string][]byte{}
	for _, f := range fieldsOf(got) {
		have[f.Name] = f.Value
	}
	extra := map[string]any{}
	for _, f := range fieldsOf(body) {
		if g, ok := have[f.Name]; ok && sameJSON(g, f.Value) {
			continue
		}
		if kindOf(f.Value) == '[' {
			var elems [][]byte
			for _, v := range jsonx.Elements(f.Value) {
				elems = append(elems, v)
			}
			if fixList(f.Name, elems) {
				continue
			}
		}
		extra[f.Name] = json.RawMessage(bytes.Clone(f.Value))
	}
	if len(extra) > 0 {
		setExtra(extra)
	}
	if got, err = p.MarshalJSON(); err != nil {
		return err
	}
	if !sameJSON(got, body) {
		return fmt.Errorf("openai: the SDK's parameters do not hold the request as written")
	}
	return nil
}

// sameJSON reports whether a and b are the same JSON value, whatever the
// order of members and the spacing.
func sameJSON(a, b []byte) bool {
	va, ea := decodeAny(a)
	vb, eb := decodeAny(b)
	return ea == nil && eb == nil && reflect.DeepEqual(va, vb)
}

func decodeAny(b []byte) (any, error) {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	var v any
	err := d.Decode(&v)
	return v, err
}
