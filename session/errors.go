package session

import (
	"errors"
	"fmt"
)

// Errors callers branch on with errors.Is.
var (
	// ErrUnsaved: a save failed; the session keeps the unsaved history and
	// checkpoint in memory and refuses new work until Flush succeeds, so
	// nothing is built on state that is not durable. The error value is a
	// *SaveError.
	ErrUnsaved = errors.New("session: unsaved state; call Flush")
	// ErrClosed: the session was closed.
	ErrClosed = errors.New("session: closed")
	// ErrUnknownCheckpoint: no live checkpoint has that id.
	ErrUnknownCheckpoint = errors.New("session: unknown checkpoint")
	// ErrInvalidCheckpoint: a stored checkpoint cannot be restored. The
	// error value is a *CheckpointError naming it.
	ErrInvalidCheckpoint = errors.New("session: invalid checkpoint")
	// ErrBadReference: a recall reference that names nothing in the log,
	// or whose digest does not match the message it names.
	ErrBadReference = errors.New("session: bad recall reference")
)

// SaveError reports a failed save. It unwraps to ErrUnsaved and to the
// store's error.
type SaveError struct {
	// Pending counts the unsaved batches held in memory.
	Pending int
	Err     error
}

func (e *SaveError) Error() string {
	return fmt.Sprintf("session: save failed (%d unsaved batches held; call Flush): %v", e.Pending, e.Err)
}

func (e *SaveError) Unwrap() []error { return []error{ErrUnsaved, e.Err} }

// Code returns "unsaved".
func (e *SaveError) Code() string { return "unsaved" }

// CheckpointError names a stored checkpoint that failed validation on
// restore. It unwraps to ErrInvalidCheckpoint.
type CheckpointError struct {
	ID     string
	Reason string
	Err    error
}

func (e *CheckpointError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("session: checkpoint %s: %s: %v", e.ID, e.Reason, e.Err)
	}
	return fmt.Sprintf("session: checkpoint %s: %s", e.ID, e.Reason)
}

func (e *CheckpointError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrInvalidCheckpoint, e.Err}
	}
	return []error{ErrInvalidCheckpoint}
}
