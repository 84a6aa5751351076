package anthropic

import (
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/internal/jsonx"
)

// Response is a decoded Messages API answer.
type Response struct {
	// ID is the message's id ("msg_…").
	ID string
	// Model is the model that answered, as the API names it.
	Model string
	// Message is the assistant message: its content blocks as parts, by the
	// rules of DecodeContent, except that a text block always stays a text
	// part, followed by a fields part when it holds more (citations); null
	// members are left out.
	Message condense.Message
	// StopReason is the API's stop reason ("end_turn", "tool_use",
	// "max_tokens", "refusal", …), "" when it sent none.
	StopReason string
	// StopSequence is the stop sequence that ended the answer, if one did.
	StopSequence string
	// Usage is what the answer cost: InputTokens includes the prompt-cache
	// reads and writes, which are also given apart; Provider is "anthropic"
	// and Model the answering model. Client.Send prices it (CostUSD).
	Usage condense.Usage
}

// Text returns the text parts of the answer, joined by newlines.
func (r *Response) Text() string { return r.Message.TextContent() }

// ToolUse reports whether the answer holds a tool use, of a client, server
// or MCP tool.
func (r *Response) ToolUse() bool {
	for i := range r.Message.Parts {
		p := &r.Message.Parts[i]
		switch {
		case p.Type == condense.PartToolCall:
			return true
		case p.Type == condense.PartProvider && p.Provider == Provider:
			r := jsonx.Reader{Data: p.Raw}
			if !r.Open('{') {
				continue
			}
			for first := true; r.More('}', first); first = false {
				if string(r.Key()) != "type" {
					r.Skip()
					continue
				}
				if t := r.String(); strings.HasSuffix(t, "tool_use") {
					return true
				}
				break
			}
		}
	}
	return false
}

// DecodeResponse decodes a Messages API answer (the body of a successful
// POST /v1/messages). A malformed body is a *DecodeError.
func DecodeResponse(body []byte) (*Response, error) {
	d := newDecoder(body)
	d.response = true
	resp := d.response1()
	d.r.End()
	if d.failed() {
		return nil, d.err
	}
	return resp, nil
}

// response1 reads a message object: the answer, or the message of a
// stream's message_start.
func (d *decoder) response1() *Response {
	resp := &Response{Message: condense.Message{Role: condense.RoleAssistant}}
	if !d.open('{', "want a message object") {
		return resp
	}
	for first := true; d.r.More('}', first); first = false {
		k := d.r.Key()
		switch string(k) {
		case "id":
			resp.ID = d.optString("id")
		case "model":
			resp.Model = d.optString("model")
		case "stop_reason":
			resp.StopReason = d.optString("stop_reason")
		case "stop_sequence":
			resp.StopSequence = d.optString("stop_sequence")
		case "content":
			n := d.push("content")
			if !d.r.Null() {
				resp.Message.Parts, _ = d.content(condense.RoleAssistant, nil)
			}
			d.pop(n)
		case "usage":
			n := d.push("usage")
			resp.Usage = d.usage()
			d.pop(n)
		default:
			d.r.Skip()
		}
		if d.failed() {
			return resp
		}
	}
	resp.Usage.Provider, resp.Usage.Model = Provider, resp.Model
	return resp
}

// optString reads a string or null.
func (d *decoder) optString(key string) string {
	switch d.r.Kind() {
	case 'n':
		d.r.Null()
		return ""
	case '"':
		return d.r.String()
	}
	if !d.failed() {
		d.fail(key, d.r.Pos, "want a string")
	}
	return ""
}

// usage reads a usage object. InputTokens is the sum of the input,
// cache-write and cache-read tokens, all of which are billed input.
func (d *decoder) usage() condense.Usage {
	var u condense.Usage
	if d.r.Null() {
		return u
	}
	if !d.open('{', "want an object") {
		return u
	}
	in := 0
	for first := true; d.r.More('}', first); first = false {
		k := d.r.Key()
		var dst *int
		switch string(k) {
		case "input_tokens":
			dst = &in
		case "output_tokens":
			dst = &u.OutputTokens
		case "cache_creation_input_tokens":
			dst = &u.CacheWriteTokens
		case "cache_read_input_tokens":
			dst = &u.CacheReadTokens
		default:
			d.r.Skip()
			continue
		}
		if d.r.Null() {
			continue
		}
		at := d.r.Pos
		n, ok := d.r.Int()
		if !d.r.Failed() && (!ok || n < 0) {
			d.fail(string(k), at, "want a non-negative integer")
		}
		*dst = n
	}
	u.InputTokens = in + u.CacheReadTokens + u.CacheWriteTokens
	return u
}
