package condense

import (
	"errors"
	"fmt"
)

// Sentinel errors callers branch on with errors.Is.
var (
	// ErrContextWindowExceeded: the request does not fit the model's input
	// limit even after compaction, and was not sent. The error value is a
	// *WindowError carrying the numbers.
	ErrContextWindowExceeded = errors.New("context window exceeded")
	// ErrNothingToCompact: a strategy found nothing it could compact.
	ErrNothingToCompact = errors.New("nothing to compact")
	// ErrInvalidHistory: a history or rendering breaks a turn-safety rule
	// (DESIGN I1). The error value is a *ValidationError.
	ErrInvalidHistory = errors.New("invalid history")
)

// WindowError reports a request that cannot fit. It unwraps to
// ErrContextWindowExceeded.
type WindowError struct {
	Model string
	// Tokens is the estimate of the smallest rendering condense reached.
	Tokens int
	// InputLimit is the most the request may hold: window - reserved - safety.
	InputLimit int
	// Window is the model's context window.
	Window int
	// Records are the compactions the failed call made and kept: the
	// preflight's rendering includes them, so a session saves them as it
	// would for a request that fit.
	Records []Record
}

func (e *WindowError) Error() string {
	return fmt.Sprintf("context window exceeded: request needs %d tokens, input limit is %d (window %d)",
		e.Tokens, e.InputLimit, e.Window)
}

func (e *WindowError) Unwrap() error { return ErrContextWindowExceeded }

// Code returns the stable error code used in journals and HTTP bodies.
func (e *WindowError) Code() string { return "context_window_exceeded" }

// ErrorCode returns the stable code of err for journals and HTTP bodies
// ("context_window_exceeded", "nothing_to_compact", "invalid_history",
// "malformed_input"), or "internal" for anything else.
func ErrorCode(err error) string {
	switch {
	case err == nil:
		return ""
	case errors.Is(err, ErrContextWindowExceeded):
		return "context_window_exceeded"
	case errors.Is(err, ErrNothingToCompact):
		return "nothing_to_compact"
	case errors.Is(err, ErrInvalidHistory):
		return "invalid_history"
	case errors.Is(err, ErrMalformed):
		return "malformed_input"
	}
	var coded interface{ Code() string }
	if errors.As(err, &coded) {
		return coded.Code()
	}
	return "internal"
}
