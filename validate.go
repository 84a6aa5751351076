package condense

import (
	"fmt"
)

// Violation names the turn-safety rule a history breaks.
type Violation string

// The turn-safety rules Validate checks.
const (
	// A tool result whose call does not appear earlier.
	ViolationOrphanResult Violation = "result_without_call"
	// A tool call left without a result outside the newest step.
	ViolationMissingResult Violation = "call_without_result"
	// Results of one assistant message's calls interrupted by another
	// message, or arriving after the next assistant or user message.
	ViolationSplitBatch Violation = "parallel_batch_split"
	// A thinking block separated from the tool calls of its loop.
	ViolationThinkingSeparated Violation = "thinking_separated"
	// Two tool calls sharing one id, or two results for one call.
	ViolationDuplicateCallID Violation = "duplicate_call_id"
	// A tool result outside a tool message, or a tool call outside an
	// assistant message.
	ViolationMisplacedPart Violation = "misplaced_part"
)

// ValidationError says which message breaks which rule. It unwraps to
// ErrInvalidHistory.
type ValidationError struct {
	// Index is the offending message's position in the validated slice.
	Index     int
	Violation Violation
	// CallID is the tool call involved, when there is one.
	CallID string
	Detail string
}

func (e *ValidationError) Error() string {
	s := fmt.Sprintf("invalid history: message %d: %s", e.Index, e.Violation)
	if e.CallID != "" {
		s += fmt.Sprintf(" (call %q)", e.CallID)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *ValidationError) Unwrap() error { return ErrInvalidHistory }

// Validate checks msgs for turn safety and returns a *ValidationError
// naming the first offending message, or nil. A request that breaks these
// rules is refused by providers or, worse, misread by the model, so the
// preflight never sends one.
//
// The rules: every tool result follows its call, in the tool messages right
// after the calling assistant message; no call lacks its result unless it
// belongs to the newest step (a call still running); call ids are unique;
// thinking comes before the tool calls of its message and is never left on
// its own in front of another assistant message's calls.
func Validate(msgs []Message) error {
	var v validator
	for i := range msgs {
		if err := v.add(i, &msgs[i]); err != nil {
			return err
		}
	}
	// Calls still open at the end belong to the newest step: allowed.
	return nil
}

// validator checks messages one at a time, so the preflight can validate only
// what is new since the last request. Its zero value is ready to use.
type validator struct {
	calls   map[string]struct{} // every call id seen
	results map[string]struct{} // every answered call id
	// open holds the calls of the current step still waiting for results;
	// openAt is the index of the assistant message that made them.
	open   []string
	openAt int
	// inStep is true while the messages after an assistant message are its
	// tool results.
	inStep bool
	// thinkingOnly is the index of an assistant message holding only
	// thinking, or -1.
	thinkingOnly int
	// answered counts the results the current step has received.
	answered int
	n        int
}

func (v *validator) add(i int, m *Message) error {
	if v.calls == nil {
		v.calls = map[string]struct{}{}
		v.results = map[string]struct{}{}
		v.thinkingOnly = -1
	}
	v.n = i + 1
	switch m.Role {
	case RoleTool:
		if !v.inStep {
			// A tool message with no assistant message before it in this
			// step: every result in it is an orphan or arrives late.
			for _, p := range m.Parts {
				if p.Type == PartToolResult {
					return v.resultErr(i, p.CallID)
				}
			}
		}
		for _, p := range m.Parts {
			switch p.Type {
			case PartToolResult:
				if err := v.answer(i, p.CallID); err != nil {
					return err
				}
			case PartToolCall:
				return &ValidationError{Index: i, Violation: ViolationMisplacedPart, CallID: p.ID, Detail: "tool call in a tool message"}
			}
		}
		return nil
	case RoleAssistant:
		if err := v.closeStep(i); err != nil {
			return err
		}
		sawCall, sawThinking, sawOther := false, false, false
		for _, p := range m.Parts {
			switch p.Type {
			case PartToolResult:
				return &ValidationError{Index: i, Violation: ViolationMisplacedPart, CallID: p.CallID, Detail: "tool result in an assistant message"}
			case PartToolCall:
				if _, dup := v.calls[p.ID]; dup {
					return &ValidationError{Index: i, Violation: ViolationDuplicateCallID, CallID: p.ID}
				}
				v.calls[p.ID] = struct{}{}
				v.open = append(v.open, p.ID)
				sawCall = true
			case PartThinking:
				if sawCall {
					return &ValidationError{Index: i, Violation: ViolationThinkingSeparated, Detail: "thinking after a tool call of the same message"}
				}
				sawThinking = true
			default:
				sawOther = true
			}
		}
		if sawCall && v.thinkingOnly >= 0 && v.thinkingOnly == i-1 {
			return &ValidationError{Index: v.thinkingOnly, Violation: ViolationThinkingSeparated, Detail: "thinking in a message of its own before the tool calls it leads to"}
		}
		v.thinkingOnly = -1
		if sawThinking && !sawCall && !sawOther {
			v.thinkingOnly = i
		}
		v.openAt = i
		v.inStep = true
		return nil
	default: // user and system messages
		for _, p := range m.Parts {
			switch p.Type {
			case PartToolResult:
				return &ValidationError{Index: i, Violation: ViolationMisplacedPart, CallID: p.CallID, Detail: fmt.Sprintf("tool result in a %s message (tool results belong in tool messages)", m.Role)}
			case PartToolCall:
				return &ValidationError{Index: i, Violation: ViolationMisplacedPart, CallID: p.ID, Detail: fmt.Sprintf("tool call in a %s message", m.Role)}
			}
		}
		if err := v.closeStep(i); err != nil {
			return err
		}
		v.thinkingOnly = -1
		v.inStep = false
		return nil
	}
}

func (v *validator) resultErr(i int, callID string) error {
	if _, ok := v.calls[callID]; !ok {
		return &ValidationError{Index: i, Violation: ViolationOrphanResult, CallID: callID}
	}
	if _, ok := v.results[callID]; ok {
		return &ValidationError{Index: i, Violation: ViolationDuplicateCallID, CallID: callID, Detail: "second result for one call"}
	}
	return &ValidationError{Index: i, Violation: ViolationSplitBatch, CallID: callID, Detail: "result separated from its call by another message"}
}

func (v *validator) answer(i int, callID string) error {
	for k, id := range v.open {
		if id == callID {
			v.open = append(v.open[:k], v.open[k+1:]...)
			v.results[callID] = struct{}{}
			v.answered++
			return nil
		}
	}
	return v.resultErr(i, callID)
}

// closeStep ends the current step at message i: its calls must all have
// results by now.
func (v *validator) closeStep(i int) error {
	if len(v.open) > 0 {
		id := v.open[0]
		if v.answered > 0 {
			return &ValidationError{Index: i, Violation: ViolationSplitBatch, CallID: id,
				Detail: fmt.Sprintf("message %d's parallel calls are answered only in part before this message", v.openAt)}
		}
		return &ValidationError{Index: v.openAt, Violation: ViolationMissingResult, CallID: id}
	}
	v.open = v.open[:0]
	v.answered = 0
	return nil
}
