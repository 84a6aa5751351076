package journal

import (
	"bytes"
	"encoding/json"
	"fmt"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// Kind names an event.
type Kind string

// The event kinds of a run.
const (
	// KindRunStarted opens a run: what it was asked, under which settings.
	KindRunStarted Kind = "run:started"
	// KindStepDone records one model call (the agent's or a summarize call
	// made for compaction) or one tool call, with its answer.
	KindStepDone Kind = "step:done"
	// KindCompacted records one compaction that changed the request.
	KindCompacted Kind = "context:compacted"
	// KindRunError ends a run that failed.
	KindRunError Kind = "run:error"
	// KindRunDone ends a run that finished.
	KindRunDone Kind = "run:done"
)

// StepKind says what a step:done event records.
type StepKind string

// Step kinds: a model call (summaries made for compaction included) or a
// tool call.
const (
	StepLLM  StepKind = "llm"
	StepTool StepKind = "tool"
)

// Event is one entry of a run's journal. Exactly one payload field is set,
// the one of its Kind. Time and Duration are informational: comparisons
// (Same) ignore them, so a rerun of the same run compares equal.
type Event struct {
	// Seq numbers the run's events from 1, in order.
	Seq  int64
	Run  string
	Kind Kind
	Time time.Time
	// Duration is how long the step took, when it is a step.
	Duration time.Duration

	Started   *RunStarted
	Step      *Step
	Compacted *Compacted
	Error     *RunError
	Done      *RunDone
}

// RunStarted is the payload of run:started.
type RunStarted struct {
	Agent string `json:"agent,omitempty"`
	Model string `json:"model"`
	// Capture is the level the run was journaled at.
	Capture Capture `json:"capture"`
	// Strategy is the name of the agent's strategy ("none" when compaction
	// is off).
	Strategy string `json:"strategy"`
	// Settings are the agent-level budget settings.
	Settings Settings `json:"settings"`
	Limits   Limits   `json:"limits"`
	// Messages counts the request's messages; Fingerprint identifies its
	// system text, tools and messages.
	Messages    int    `json:"messages"`
	Fingerprint string `json:"fingerprint"`
	// Request is the request itself, at CaptureFull only.
	Request *condense.Document `json:"request,omitempty"`
}

// Settings are budget settings as journaled (condense.Settings).
type Settings struct {
	Window         int     `json:"window,omitempty"`
	ReservedOutput int     `json:"reserved_output,omitempty"`
	Safety         int     `json:"safety,omitempty"`
	Fraction       float64 `json:"fraction,omitempty"`
	LowWater       float64 `json:"low_water,omitempty"`
}

// Limits are a run's limits as journaled; zero means none.
type Limits struct {
	MaxModelCalls  int     `json:"max_model_calls,omitempty"`
	MaxTotalTokens int     `json:"max_total_tokens,omitempty"`
	MaxCostUSD     float64 `json:"max_cost_usd,omitempty"`
}

// Step is the payload of step:done.
type Step struct {
	StepKind StepKind `json:"step_kind"`
	// CallIndex numbers the run's model calls from 1, summarize calls made
	// for compaction included (llm steps).
	CallIndex int `json:"call_index,omitempty"`
	// CompactionFor is the call index a summarize call compacted for; 0
	// for the agent's own calls.
	CompactionFor int `json:"compaction_for,omitempty"`
	// ToolIndex numbers the run's tool calls from 1 (tool steps).
	ToolIndex int    `json:"tool_index,omitempty"`
	Model     string `json:"model,omitempty"`
	// Fingerprint identifies the step's input: for an agent model call the
	// history before compaction (so a changed strategy, window or fraction
	// does not make the call look changed), for a tool call its name and
	// input, for a summarize call the summarized messages.
	Fingerprint string `json:"fingerprint"`
	// Messages and Tokens count the request actually sent (llm steps).
	Messages   int             `json:"messages,omitempty"`
	Tokens     int             `json:"tokens,omitempty"`
	Usage      *condense.Usage `json:"usage,omitempty"`
	StopReason string          `json:"stop_reason,omitempty"`
	// Error is the step's failure (a provider error, a failed tool).
	Error *ErrorInfo `json:"error,omitempty"`

	// Tool and CallID name a tool step's tool and the call it answers.
	Tool   string `json:"tool,omitempty"`
	CallID string `json:"call_id,omitempty"`

	// Content, at CaptureFull only: the model's answer, a summary's text,
	// a tool's input and output.
	Response *condense.Message `json:"response,omitempty"`
	Summary  string            `json:"summary,omitempty"`
	Input    json.RawMessage   `json:"input,omitempty"`
	Output   *string           `json:"output,omitempty"`
	IsError  bool              `json:"is_error,omitempty"`
}

// Summarize reports whether s is a summarize call made for compaction.
func (s *Step) Summarize() bool { return s.StepKind == StepLLM && s.CompactionFor > 0 }

// Compacted is the payload of context:compacted: counts and the strategy's
// name, never content, at every capture level.
type Compacted struct {
	// CallIndex is the model call the compaction ran before.
	CallIndex      int    `json:"call_index"`
	TokensBefore   int    `json:"tokens_before"`
	TokensAfter    int    `json:"tokens_after"`
	Window         int    `json:"window"`
	MessagesBefore int    `json:"messages_before"`
	MessagesAfter  int    `json:"messages_after"`
	Strategy       string `json:"strategy"`
	// Emergency marks the pass made after a provider answered "context
	// too large", which is compacted with recent retention zero and
	// retried once.
	Emergency bool `json:"emergency,omitempty"`
}

// ErrorInfo is an error as journals store it: a stable code and a message,
// never a Go error value.
type ErrorInfo struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// ErrorOf returns err as an ErrorInfo (condense.ErrorCode gives the code),
// or nil for a nil err.
func ErrorOf(err error) *ErrorInfo {
	if err == nil {
		return nil
	}
	return &ErrorInfo{Code: condense.ErrorCode(err), Message: err.Error()}
}

// RunError is the payload of run:error. Tokens and Window are set for
// context_window_exceeded (no provider call was made); Limit names the
// limit of limit_exceeded.
type RunError struct {
	Code      string `json:"code"`
	Message   string `json:"message"`
	CallIndex int    `json:"call_index,omitempty"`
	Tokens    int    `json:"tokens,omitempty"`
	Window    int    `json:"window,omitempty"`
	Limit     string `json:"limit,omitempty"`
}

// FinalCodes are the run:error codes that end a run for good: a rerun
// meets them again at the same point. Any other code (a rate limit, a
// network failure, a cancelled context) is transient: resuming the run
// goes on live past it.
var FinalCodes = map[string]bool{
	"context_window_exceeded": true,
	"limit_exceeded":          true,
	"context_too_large":       true,
	"invalid_history":         true,
}

// Final reports whether the error ended its run for good (FinalCodes).
func (e *RunError) Final() bool { return e != nil && FinalCodes[e.Code] }

// RunDone is the payload of run:done.
type RunDone struct {
	ModelCalls int            `json:"model_calls"`
	ToolCalls  int            `json:"tool_calls"`
	Usage      condense.Usage `json:"usage"`
	StopReason string         `json:"stop_reason,omitempty"`
	// Result is the final answer's text, at CaptureFull only.
	Result *string `json:"result,omitempty"`
}

type eventJSON struct {
	Seq        int64     `json:"seq"`
	Run        string    `json:"run"`
	Kind       Kind      `json:"kind"`
	Time       time.Time `json:"time,omitzero"`
	DurationNS int64     `json:"duration_ns,omitempty"`
	// BatchEnd, in a JSONL journal, marks each event of an append of
	// several: the seq of the append's last event. A reader keeps such an
	// append only when all of its events are there.
	BatchEnd int64           `json:"batch_end,omitempty"`
	Payload  json.RawMessage `json:"payload"`
}

// Payload returns the event's payload.
func (e *Event) Payload() any {
	switch e.Kind {
	case KindRunStarted:
		return e.Started
	case KindStepDone:
		return e.Step
	case KindCompacted:
		return e.Compacted
	case KindRunError:
		return e.Error
	case KindRunDone:
		return e.Done
	}
	return nil
}

// MarshalJSON writes {"seq","run","kind","time","duration_ns","payload"}.
func (e Event) MarshalJSON() ([]byte, error) { return e.encode(0) }

// encode is MarshalJSON with the batch_end mark of an append of several
// events (0: none).
func (e Event) encode(batchEnd int64) ([]byte, error) {
	p := e.Payload()
	if p == nil || isNilPtr(p) {
		return nil, fmt.Errorf("journal: event %d (%s) has no payload", e.Seq, e.Kind)
	}
	raw, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	return json.Marshal(eventJSON{Seq: e.Seq, Run: e.Run, Kind: e.Kind, Time: e.Time.UTC(), DurationNS: int64(e.Duration), BatchEnd: batchEnd, Payload: raw})
}

func isNilPtr(p any) bool {
	switch v := p.(type) {
	case *RunStarted:
		return v == nil
	case *Step:
		return v == nil
	case *Compacted:
		return v == nil
	case *RunError:
		return v == nil
	case *RunDone:
		return v == nil
	}
	return false
}

// UnmarshalJSON reads what MarshalJSON writes. Unknown kinds are an error.
func (e *Event) UnmarshalJSON(data []byte) error {
	_, err := e.decode(data)
	return err
}

// decode is UnmarshalJSON that also returns the batch_end mark (0: none).
func (e *Event) decode(data []byte) (batchEnd int64, err error) {
	var j eventJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return 0, err
	}
	*e = Event{Seq: j.Seq, Run: j.Run, Kind: j.Kind, Time: j.Time, Duration: time.Duration(j.DurationNS)}
	var dst any
	switch j.Kind {
	case KindRunStarted:
		e.Started = &RunStarted{}
		dst = e.Started
	case KindStepDone:
		e.Step = &Step{}
		dst = e.Step
	case KindCompacted:
		e.Compacted = &Compacted{}
		dst = e.Compacted
	case KindRunError:
		e.Error = &RunError{}
		dst = e.Error
	case KindRunDone:
		e.Done = &RunDone{}
		dst = e.Done
	default:
		return 0, fmt.Errorf("journal: event %d: unknown kind %q", j.Seq, j.Kind)
	}
	if len(j.Payload) == 0 || bytes.Equal(j.Payload, []byte("null")) {
		return 0, fmt.Errorf("journal: event %d (%s) has no payload", j.Seq, j.Kind)
	}
	return j.BatchEnd, json.Unmarshal(j.Payload, dst)
}

// Same reports whether a and b are the same event, ignoring their times
// and durations: they differ between runs that did the same thing.
func Same(a, b Event) bool {
	return bytes.Equal(comparable(a), comparable(b))
}

func comparable(e Event) []byte {
	e.Time, e.Duration = time.Time{}, 0
	b, err := json.Marshal(e)
	if err != nil {
		return []byte(err.Error())
	}
	return b
}

// Comparable returns the event's JSON without its time and duration, the
// form Same compares.
func Comparable(e Event) string { return string(comparable(e)) }

// Redact returns e as captured at level c: below CaptureFull content
// (requests, answers, summaries, tool inputs and outputs, the result) is
// left out; at CaptureNone counts and usage are left out too, except in
// context:compacted, which is the same at every level. Below CaptureFull
// the text that stays (names, ids, stop reasons, the message of an error
// that ends a run for good) passes through ledger.Redact: a journal kept
// for audits holds no secret a run's history carried.
func (e Event) Redact(c Capture) Event {
	c = c.Level()
	if c == CaptureFull {
		return e
	}
	switch {
	case e.Started != nil:
		s := *e.Started
		s.Request = nil
		if c == CaptureNone {
			s.Messages = 0
		}
		s.Agent, s.Model, s.Strategy = ledger.Redact(s.Agent), ledger.Redact(s.Model), ledger.Redact(s.Strategy)
		e.Started = &s
	case e.Step != nil:
		s := *e.Step
		s.Response, s.Summary, s.Input, s.Output = nil, "", nil, nil
		if s.Error != nil {
			// A tool's or provider's error text may echo content: below
			// full only its code is kept.
			s.Error = &ErrorInfo{Code: s.Error.Code}
		}
		if c == CaptureNone {
			s.Messages, s.Tokens, s.Usage = 0, 0, nil
		}
		s.Model, s.StopReason = ledger.Redact(s.Model), ledger.Redact(s.StopReason)
		s.Tool, s.CallID = ledger.Redact(s.Tool), ledger.Redact(s.CallID)
		e.Step = &s
	case e.Error != nil:
		r := *e.Error
		if FinalCodes[r.Code] {
			// Final codes carry numbers, but the message of one (an
			// invalid history) may quote the history.
			r.Message = ledger.Redact(r.Message)
		} else {
			// Other run errors (a provider's answer, a tool failure) may
			// echo content.
			r.Message = ""
		}
		r.Limit = ledger.Redact(r.Limit)
		e.Error = &r
	case e.Done != nil:
		d := *e.Done
		d.Result = nil
		if c == CaptureNone {
			d.Usage = condense.Usage{}
		}
		d.StopReason = ledger.Redact(d.StopReason)
		e.Done = &d
	}
	return e
}
