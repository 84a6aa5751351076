package anthropic

import (
	"encoding/json"

	"github.com/condense-dev/condense"
)

// StreamEvent is one server-sent event of a streamed answer, decoded.
type StreamEvent struct {
	// Type is the event's type: "message_start", "content_block_start",
	// "content_block_delta", "content_block_stop", "message_delta",
	// "message_stop", or one this package does not know (Data holds it).
	// Pings are not reported; an "error" event ends the stream with a
	// *condense.APIError instead.
	Type string
	// Index is the content block a block event is about.
	Index int
	// Part is the block a content_block_start opens: a text or thinking
	// part holding what the block starts with (often nothing yet), a tool
	// call part without input (its input comes in deltas), a thinking part
	// holding redacted data, or an opaque anthropic part for any other
	// block.
	Part condense.Part
	// DeltaType and Delta are a content_block_delta's type ("text_delta",
	// "thinking_delta", "signature_delta", "input_json_delta", …) and its
	// text: a piece of the text or of the thinking, the signature, or a
	// piece of the tool input's JSON. Delta is empty for other deltas
	// ("citations_delta"; Data holds them).
	DeltaType string
	Delta     string
	// ID and Model are the message's, from its message_start on.
	ID, Model string
	// Usage is the usage so far, from message_start on: input tokens
	// (including cache reads and writes) as message_start reports them,
	// output tokens as the latest message_delta counts them. A
	// message_delta that reports input tokens replaces them all.
	Usage condense.Usage
	// StopReason and StopSequence are a message_delta's.
	StopReason, StopSequence string
	// Data is the event's JSON, byte for byte.
	Data json.RawMessage
}

// streamState decodes the events of one stream, carrying what later events
// repeat (id, model, usage).
type streamState struct {
	id, model string
	usage     condense.Usage
}

// decode decodes one event's data. skip is set for pings and empty events.
func (s *streamState) decode(data []byte) (ev StreamEvent, skip bool, err error) {
	d := newDecoder(data)
	d.response = true
	if d.r.Kind() == 0 {
		return ev, true, nil
	}
	ev.Data = raw(data)
	var errType, errMsg string
	if !d.open('{', "want an event object") {
		return ev, false, d.failedErr()
	}
	for first := true; d.r.More('}', first); first = false {
		k := d.r.Key()
		switch string(k) {
		case "type":
			ev.Type = d.optString("type")
		case "index":
			at := d.r.Pos
			n, ok := d.r.Int()
			if !d.r.Failed() && (!ok || n < 0) {
				d.fail("index", at, "want a non-negative integer")
			}
			ev.Index = n
		case "message":
			n := d.push("message")
			m := d.response1()
			d.pop(n)
			s.id, s.model, s.usage = m.ID, m.Model, m.Usage
		case "content_block":
			n := d.push("content_block")
			ev.Part = d.startBlock()
			d.pop(n)
		case "delta":
			n := d.push("delta")
			d.delta(&ev)
			d.pop(n)
		case "usage":
			n := d.push("usage")
			u := d.usage()
			d.pop(n)
			if u.InputTokens > 0 {
				s.usage = u
			} else {
				s.usage.OutputTokens = u.OutputTokens
			}
		case "error":
			n := d.push("error")
			ms := d.members(nil)
			if !d.failed() {
				errType, _ = find(ms, "type").str()
				errMsg, _ = find(ms, "message").str()
			}
			d.pop(n)
		default:
			d.r.Skip()
		}
		if d.failed() {
			return ev, false, d.err
		}
	}
	d.r.End()
	if d.failed() {
		return ev, false, d.err
	}
	switch ev.Type {
	case "ping", "":
		return ev, true, nil
	case "error":
		return ev, false, &streamError{typ: errType, msg: errMsg, raw: string(data)}
	}
	s.usage.Provider, s.usage.Model = Provider, s.model
	ev.ID, ev.Model, ev.Usage = s.id, s.model, s.usage
	return ev, false, nil
}

func (d *decoder) failedErr() error {
	if d.failed() {
		return d.err
	}
	return nil
}

// streamError is an error event, classified by the client.
type streamError struct{ typ, msg, raw string }

func (e *streamError) Error() string { return "anthropic: stream error " + e.typ + ": " + e.msg }

// startBlock reads the block of a content_block_start, which starts empty.
func (d *decoder) startBlock() condense.Part {
	start := d.r.Pos
	ms := d.members(nil)
	if d.failed() {
		return condense.Part{}
	}
	whole := d.r.Data[start:d.r.Pos]
	switch t, _ := find(ms, "type").str(); t {
	case "text":
		s, _ := find(ms, "text").str()
		return condense.Text(s)
	case "thinking":
		th, _ := find(ms, "thinking").str()
		sig, _ := find(ms, "signature").str()
		return condense.Thinking(th, sig)
	case "redacted_thinking":
		data, _ := find(ms, "data").str()
		return condense.RedactedThinking(data)
	case "tool_use":
		id, _ := find(ms, "id").str()
		name, _ := find(ms, "name").str()
		return condense.Part{Type: condense.PartToolCall, ID: id, Name: name}
	}
	return opaque(whole)
}

// delta reads a content_block_delta's delta.
func (d *decoder) delta(ev *StreamEvent) {
	ms := d.members(nil)
	if d.failed() {
		return
	}
	ev.DeltaType, _ = find(ms, "type").str()
	var key string
	switch ev.DeltaType {
	case "text_delta":
		key = "text"
	case "thinking_delta":
		key = "thinking"
	case "signature_delta":
		key = "signature"
	case "input_json_delta":
		key = "partial_json"
	default:
		// message_delta's delta: the stop reason.
		ev.StopReason, _ = find(ms, "stop_reason").str()
		ev.StopSequence, _ = find(ms, "stop_sequence").str()
		return
	}
	ev.Delta, _ = find(ms, key).str()
}
