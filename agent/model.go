package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"

	"github.com/condense-dev/condense"
)

// Model is an LLM client: a request in, an assistant message out. Generate
// answers at once; Stream answers as an iterator of events whose
// accumulated result (Accumulate) is the same Response. The agent's loop
// uses Stream when the run asks for events (WithStream), else Generate.
//
// Errors should be *condense.APIError where the provider answered with
// one: the loop recovers from condense.ErrContextTooLarge with one
// emergency compaction and one retry.
type Model interface {
	Generate(ctx context.Context, req *condense.Request) (*Response, error)
	Stream(ctx context.Context, req *condense.Request) iter.Seq2[StreamEvent, error]
}

// ClientSettings is implemented by models that carry client-level budget
// settings: the third level of resolution (per call → agent → client →
// default).
type ClientSettings interface {
	Settings() condense.Settings
}

// StopReason says why the model stopped, in provider-neutral terms.
type StopReason string

// Stop reasons. Providers' own names map onto these; anything else is
// carried as given.
const (
	StopEndTurn   StopReason = "end_turn"
	StopToolUse   StopReason = "tool_use"
	StopMaxTokens StopReason = "max_tokens"
	StopRefusal   StopReason = "refusal"
)

// Response is a model's answer.
type Response struct {
	// Message is the assistant message: text, thinking and tool call parts.
	Message    condense.Message
	StopReason StopReason
	Usage      condense.Usage
	// Model is the model that answered, as the provider names it.
	Model string
}

// Text returns the answer's text parts, joined by newlines.
func (r *Response) Text() string { return r.Message.TextContent() }

// EventType names a StreamEvent.
type EventType string

// Stream event types.
const (
	// EventText adds Text to the text part at Index.
	EventText EventType = "text"
	// EventThinking adds Text (and Signature, when set) to the thinking
	// part at Index.
	EventThinking EventType = "thinking"
	// EventToolCall starts the tool call part at Index: ID and Name.
	EventToolCall EventType = "tool_call"
	// EventToolInput adds Text, a piece of the JSON input, to the tool
	// call at Index.
	EventToolInput EventType = "tool_input"
	// EventUsage reports usage so far: later events replace earlier ones
	// field by field where they are not zero.
	EventUsage EventType = "usage"
	// EventStop ends the answer with StopReason (and Model).
	EventStop EventType = "stop"
)

// StreamEvent is one piece of a streamed answer.
type StreamEvent struct {
	Type      EventType
	Index     int
	Text      string
	ID        string
	Name      string
	Signature string
	Usage     condense.Usage
	Stop      StopReason
	Model     string
}

// Accumulator builds a Response from stream events. The zero value is
// ready to use.
type Accumulator struct {
	parts  []condense.Part
	index  map[int]int // event index → part position
	inputs map[int][]byte
	resp   Response
}

// Add folds one event into the response. An event for a part of another
// kind than the one started at its index is an error.
func (a *Accumulator) Add(ev StreamEvent) error {
	if a.index == nil {
		a.index, a.inputs = map[int]int{}, map[int][]byte{}
	}
	part := func(t condense.PartType) (*condense.Part, error) {
		pos, ok := a.index[ev.Index]
		if !ok {
			pos = len(a.parts)
			a.index[ev.Index] = pos
			a.parts = append(a.parts, condense.Part{Type: t})
		}
		p := &a.parts[pos]
		if p.Type != t {
			return nil, fmt.Errorf("agent: stream event %s at index %d, which holds a %s part", ev.Type, ev.Index, p.Type)
		}
		return p, nil
	}
	switch ev.Type {
	case EventText:
		p, err := part(condense.PartText)
		if err != nil {
			return err
		}
		p.Text += ev.Text
	case EventThinking:
		p, err := part(condense.PartThinking)
		if err != nil {
			return err
		}
		p.Text += ev.Text
		if ev.Signature != "" {
			p.Signature = ev.Signature
		}
	case EventToolCall:
		p, err := part(condense.PartToolCall)
		if err != nil {
			return err
		}
		p.ID, p.Name = ev.ID, ev.Name
	case EventToolInput:
		if _, err := part(condense.PartToolCall); err != nil {
			return err
		}
		a.inputs[ev.Index] = append(a.inputs[ev.Index], ev.Text...)
	case EventUsage:
		u := &a.resp.Usage
		if ev.Usage.InputTokens != 0 {
			u.InputTokens = ev.Usage.InputTokens
		}
		if ev.Usage.OutputTokens != 0 {
			u.OutputTokens = ev.Usage.OutputTokens
		}
		if ev.Usage.CacheReadTokens != 0 {
			u.CacheReadTokens = ev.Usage.CacheReadTokens
		}
		if ev.Usage.CacheWriteTokens != 0 {
			u.CacheWriteTokens = ev.Usage.CacheWriteTokens
		}
		if ev.Usage.CostUSD != 0 {
			u.CostUSD = ev.Usage.CostUSD
		}
	case EventStop:
		a.resp.StopReason = ev.Stop
		if ev.Model != "" {
			a.resp.Model = ev.Model
		}
	default:
		return fmt.Errorf("agent: unknown stream event type %q", ev.Type)
	}
	return nil
}

// Response returns the accumulated response. Tool inputs that were never
// given are "{}"; an input that is not JSON is an error.
func (a *Accumulator) Response() (*Response, error) {
	r := a.resp
	r.Message = condense.Message{Role: condense.RoleAssistant, Parts: make([]condense.Part, len(a.parts))}
	copy(r.Message.Parts, a.parts)
	for idx, pos := range a.index {
		p := &r.Message.Parts[pos]
		if p.Type != condense.PartToolCall {
			continue
		}
		in := a.inputs[idx]
		if len(in) == 0 {
			in = []byte("{}")
		}
		if !json.Valid(in) {
			return nil, fmt.Errorf("agent: tool call %s (%s): streamed input is not JSON: %.200q", p.ID, p.Name, in)
		}
		p.Input = json.RawMessage(in)
	}
	return &r, nil
}

// Accumulate drains a stream into its Response. The first error ends it.
func Accumulate(seq iter.Seq2[StreamEvent, error]) (*Response, error) {
	var a Accumulator
	for ev, err := range seq {
		if err != nil {
			return nil, err
		}
		if err := a.Add(ev); err != nil {
			return nil, err
		}
	}
	return a.Response()
}

// Events returns the stream events of r, in part order, whose accumulated
// Response equals r: models that cannot stream, fakes and replays use it.
func Events(r *Response) iter.Seq2[StreamEvent, error] {
	return func(yield func(StreamEvent, error) bool) {
		for i, p := range r.Message.Parts {
			var evs []StreamEvent
			switch p.Type {
			case condense.PartText:
				evs = []StreamEvent{{Type: EventText, Index: i, Text: p.Text}}
			case condense.PartThinking:
				evs = []StreamEvent{{Type: EventThinking, Index: i, Text: p.Text, Signature: p.Signature}}
			case condense.PartToolCall:
				evs = []StreamEvent{{Type: EventToolCall, Index: i, ID: p.ID, Name: p.Name}, {Type: EventToolInput, Index: i, Text: string(p.Input)}}
			}
			for _, ev := range evs {
				if !yield(ev, nil) {
					return
				}
			}
		}
		if !yield(StreamEvent{Type: EventUsage, Usage: r.Usage}, nil) {
			return
		}
		yield(StreamEvent{Type: EventStop, Stop: r.StopReason, Model: r.Model}, nil)
	}
}
