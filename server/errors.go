package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
)

// Error codes of the JSON error bodies, a contract clients branch on
// (docs/server.md). Codes of the core (condense.ErrorCode) pass through.
const (
	CodeNothingToCompact = "nothing_to_compact"
	CodeBusy             = "busy"
	CodeWindowExceeded   = "context_window_exceeded"
	CodeNotFound         = "not_found"
	CodeInvalidRequest   = "invalid_request"
	CodeUnsaved          = "unsaved"
	CodeUnauthorized     = "unauthorized"
	CodeTooLarge         = "request_too_large"
	CodeHistoryMismatch  = "history_mismatch"
	CodeCancelled        = "cancelled"
	CodeUnavailable      = "unavailable"
	CodeInternal         = "internal"
)

// Sentinel errors of the server, for callers of the Go API (Client
// branches on the codes instead).
var (
	ErrBusy     = errors.New("server: session is busy")
	ErrNotFound = errors.New("server: not found")
	// ErrClosing: the server is shutting down and takes no new work.
	ErrClosing = errors.New("server: shutting down")
)

// Error is the body of every error answer: {"error":{"code","message",…}}.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Field names the request field at fault (invalid_request).
	Field string `json:"field,omitempty"`
	// Tokens, InputLimit and Window are the numbers of
	// context_window_exceeded.
	Tokens     int `json:"tokens,omitempty"`
	InputLimit int `json:"input_limit,omitempty"`
	Window     int `json:"window,omitempty"`
	// Activity is what keeps a busy session busy ("prompt", "compaction").
	Activity string `json:"activity,omitempty"`

	status int
}

func (e *Error) Error() string { return e.Code + ": " + e.Message }

// errorBody is the JSON envelope.
type errorBody struct {
	Error *Error `json:"error"`
}

// invalid is an invalid_request naming field.
func invalid(field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalidRequest, Field: field, Message: fmt.Sprintf(format, args...), status: http.StatusBadRequest}
}

func notFound(what string) *Error {
	return &Error{Code: CodeNotFound, Message: what + " not found", status: http.StatusNotFound}
}

func busy(activity string) *Error {
	return &Error{Code: CodeBusy, Activity: activity, Message: "the session is busy with a " + activity + "; retry when it settles, or abort it", status: http.StatusConflict}
}

// apiError maps an error of the core to its JSON error and status.
func apiError(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		if e.status == 0 {
			e.status = http.StatusBadRequest
		}
		return e
	}
	var we *condense.WindowError
	var se *session.SaveError
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &we):
		return &Error{Code: CodeWindowExceeded, Message: we.Error(), Tokens: we.Tokens, InputLimit: we.InputLimit, Window: we.Window, status: http.StatusUnprocessableEntity}
	case errors.Is(err, condense.ErrNothingToCompact):
		return &Error{Code: CodeNothingToCompact, Message: "nothing older than the retained turns to compact; history and checkpoints are unchanged", status: http.StatusBadRequest}
	case errors.As(err, &se):
		return &Error{Code: CodeUnsaved, Message: fmt.Sprintf("a save failed (%d batch(es) held in memory): POST …/flush before new work: %v", se.Pending, se.Err), status: http.StatusServiceUnavailable}
	case errors.Is(err, ErrBusy):
		return busy("prompt")
	case errors.Is(err, ErrNotFound), errors.Is(err, session.ErrUnknownCheckpoint):
		return &Error{Code: CodeNotFound, Message: err.Error(), status: http.StatusNotFound}
	case errors.Is(err, session.ErrBadReference):
		return &Error{Code: CodeInvalidRequest, Field: "ref", Message: err.Error(), status: http.StatusBadRequest}
	case errors.As(err, &mbe):
		return &Error{Code: CodeTooLarge, Message: fmt.Sprintf("request body over %d bytes", mbe.Limit), status: http.StatusRequestEntityTooLarge}
	case errors.Is(err, condense.ErrInvalidHistory), errors.Is(err, condense.ErrMalformed):
		return &Error{Code: condense.ErrorCode(err), Message: err.Error(), status: http.StatusBadRequest}
	case errors.Is(err, context.Canceled):
		return &Error{Code: CodeCancelled, Message: "aborted", status: http.StatusConflict}
	case errors.Is(err, ErrClosing), errors.Is(err, store.ErrLocked), errors.Is(err, session.ErrClosed):
		return &Error{Code: CodeUnavailable, Message: err.Error(), status: http.StatusServiceUnavailable}
	}
	code := condense.ErrorCode(err)
	if code == "" || code == "internal" {
		return &Error{Code: CodeInternal, Message: err.Error(), status: http.StatusInternalServerError}
	}
	return &Error{Code: code, Message: err.Error(), status: http.StatusBadGateway}
}

// writeError writes err as a JSON error answer.
func writeError(w http.ResponseWriter, err error) {
	e := apiError(err)
	writeJSON(w, e.status, errorBody{Error: e})
}

// writeJSON writes v as the JSON answer with status.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}
