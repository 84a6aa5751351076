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
	// (see Validate). The error value is a *ValidationError.
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

// codes is the one table of stable error codes, for journals, stats and
// HTTP bodies. Errors of other packages that carry a code of their own
// implement Code() string.
var codes = []struct {
	err  error
	code string
}{
	{ErrContextWindowExceeded, "context_window_exceeded"},
	{ErrNothingToCompact, "nothing_to_compact"},
	{ErrInvalidHistory, "invalid_history"},
	{ErrMalformed, "malformed_input"},
	{ErrLostProtected, "lost_protected"},
	{ErrAuth, "auth"},
	{ErrRateLimited, "rate_limited"},
	{ErrContextTooLarge, "context_too_large"},
	{ErrOverloaded, "overloaded"},
	{ErrServer, "server"},
}

// kindCode returns the code of a sentinel error, or "".
func kindCode(kind error) string {
	for _, c := range codes {
		if kind == c.err {
			return c.code
		}
	}
	return ""
}

// ErrorCode returns the stable code of err for journals and HTTP bodies:
// "context_window_exceeded", "nothing_to_compact", "invalid_history",
// "malformed_input", a provider error's kind ("auth", "rate_limited",
// "context_too_large", "overloaded", "server"), else the code of the first
// error in err's chain with a Code() string method ("api" for a provider
// error of no known kind), or "internal" for anything else.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	var coded interface{ Code() string }
	if errors.As(err, &coded) {
		return coded.Code()
	}
	return "internal"
}
