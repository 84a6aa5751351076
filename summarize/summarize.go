package summarize

import (
	"errors"
	"fmt"
	"time"
)

// DefaultMaxOutput caps a summary's output tokens: the provider
// summarizers ask for min(4096, the model's maximum), so a summary never
// costs more than a bounded answer.
const DefaultMaxOutput = 4096

// DefaultMaxPayloadBytes bounds the bytes of a summary request when the
// provider's own limit is not known: 32 MB, the Anthropic Messages API's
// limit, the smaller of the major providers'.
const DefaultMaxPayloadBytes = 32_000_000

// DefaultTimeout bounds one summary request of the provider summarizers,
// so a stuck provider cannot hold a session's lock indefinitely.
const DefaultTimeout = 2 * time.Minute

// Rejections of a summary response. A summary that is empty, truncated,
// failed or calls a tool would lose history if it were used, so it is
// rejected, and the session stays as it was before that pass.
var (
	// ErrEmpty: the response held no text.
	ErrEmpty = errors.New("summary response is empty")
	// ErrTruncated: the response stopped at its output cap.
	ErrTruncated = errors.New("summary response was truncated at max tokens")
	// ErrToolCall: the response called a tool although none was offered.
	ErrToolCall = errors.New("summary response called a tool")
	// ErrFailed: the provider reported a failed or refused response.
	ErrFailed = errors.New("summary response failed")
	// ErrInputTooLarge: the span does not fit the summary request's own
	// budget even after truncation.
	ErrInputTooLarge = errors.New("summary input too large")
)

// RejectedError is a summary response that was refused.
type RejectedError struct {
	// Reason is one of ErrEmpty, ErrTruncated, ErrToolCall, ErrFailed.
	Reason error
	// StopReason is what the provider said, when it said.
	StopReason string
}

func (e *RejectedError) Error() string {
	if e.StopReason != "" {
		return fmt.Sprintf("summary rejected: %v (stop reason %q)", e.Reason, e.StopReason)
	}
	return "summary rejected: " + e.Reason.Error()
}

func (e *RejectedError) Unwrap() error { return e.Reason }

// Code returns "summary_rejected".
func (e *RejectedError) Code() string { return "summary_rejected" }

// Check applies the response rules (see the Err values above) to a
// provider's answer: text is the response's text, stopReason its stop reason
// as the provider names it, toolCalls whether it holds tool calls.
// truncatedReasons lists the stop reasons meaning "hit the output cap"
// ("max_tokens", "length").
func Check(text, stopReason string, toolCalls bool, truncatedReasons ...string) error {
	if toolCalls {
		return &RejectedError{Reason: ErrToolCall, StopReason: stopReason}
	}
	for _, r := range truncatedReasons {
		if stopReason == r {
			return &RejectedError{Reason: ErrTruncated, StopReason: stopReason}
		}
	}
	if len(trimSpace(text)) == 0 {
		return &RejectedError{Reason: ErrEmpty, StopReason: stopReason}
	}
	return nil
}

func trimSpace(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\n' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\n' || s[j-1] == '\t' || s[j-1] == '\r') {
		j--
	}
	return s[i:j]
}

// OutputCap returns min(DefaultMaxOutput, the requested cap, the model's
// maximum); zero arguments are ignored.
func OutputCap(requested, modelMax int) int {
	c := DefaultMaxOutput
	if requested > 0 && requested < c {
		c = requested
	}
	if modelMax > 0 && modelMax < c {
		c = modelMax
	}
	return c
}
