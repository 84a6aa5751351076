// Package store defines where sessions live: an append-only log of messages
// per session, the checkpoints (rendering overlays) made over it and the undo
// markers that retire them. Nothing is ever deleted: undoing a checkpoint
// appends a marker, and the checkpoint and the messages stay.
//
// Implementations live in subpackages — jsonl (the embedded default),
// sqlite, memstore (for tests) — and all run the conformance suite in
// storetest.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/condense-dev/condense"
)

// Errors callers branch on with errors.Is.
var (
	// ErrLocked: the session is open for writing elsewhere (another
	// process, or another Open in this one).
	ErrLocked = errors.New("store: session is locked by another writer")
	// ErrCorrupt: stored data cannot be read back.
	ErrCorrupt = errors.New("store: corrupt session data")
	// ErrClosed: the log or store was closed.
	ErrClosed = errors.New("store: closed")
	// ErrInvalidID: a session id that is empty, too long or holds
	// characters other than letters, digits, '.', '_' and '-'.
	ErrInvalidID = errors.New("store: invalid session id")
	// ErrOutOfRange: a read outside the stored messages.
	ErrOutOfRange = errors.New("store: message range out of bounds")
	// ErrInvalidBatch: a batch the log cannot take (a checkpoint referring
	// to messages the log does not hold).
	ErrInvalidBatch = errors.New("store: invalid batch")
)

// Store holds sessions.
type Store interface {
	// Open opens session id for writing, creating it when it does not
	// exist. A session open elsewhere gives ErrLocked.
	Open(ctx context.Context, id string) (Log, error)
	// Close releases the store. Open logs should be closed first.
	Close() error
}

// Log is one session open for writing. Its methods are safe for concurrent
// use; concurrent Appends are committed together (group commit), each
// batch's messages contiguous.
type Log interface {
	// Len returns the number of messages stored.
	Len() int
	// Messages returns the messages [from, to), decoded on demand.
	Messages(ctx context.Context, from, to int) ([]condense.Message, error)
	// Checkpoints returns every checkpoint saved, in the order saved,
	// undone ones included.
	Checkpoints() []Checkpoint
	// Undos returns every undo marker saved, in order.
	Undos() []Undo
	// Append saves b atomically and durably: when it returns nil, the
	// batch survives a crash; when it fails, none of it is stored. It
	// returns the log index of b's first message.
	Append(ctx context.Context, b Batch) (first int, err error)
	// Close releases the session's lock.
	Close() error
}

// Batch is what one Append saves, all or nothing: a crash at any point
// leaves either the log before the batch or the log with all of it, and a
// batch Append acknowledged is never lost.
type Batch struct {
	Messages []condense.Message
	// Checkpoint, when set, is saved with Messages; its HistoryCount may
	// count them.
	Checkpoint *Checkpoint
	// Undo, when set, retires checkpoints.
	Undo *Undo
}

// Empty reports whether b saves nothing.
func (b *Batch) Empty() bool { return len(b.Messages) == 0 && b.Checkpoint == nil && b.Undo == nil }

// Checkpoint is a persisted rendering overlay: how a compaction renders the
// first HistoryCount messages of the log, saved so a reopened session
// renders the same way.
type Checkpoint struct {
	// ID is the checkpoint's id, "c1", "c2", … per session.
	ID       string `json:"id"`
	Strategy string `json:"strategy"`
	// HistoryCount is the history length when the checkpoint was made.
	HistoryCount int `json:"history_count"`
	// FirstKept is the lowest log index rendered after the last summary or
	// drop marker (0 when there is none).
	FirstKept int       `json:"first_kept"`
	Summary   string    `json:"summary,omitempty"`
	Time      time.Time `json:"time"`
	Provider  string    `json:"provider,omitempty"`
	Model     string    `json:"model,omitempty"`
	// Usage of the model calls the compaction made.
	Usage []condense.Usage `json:"usage,omitempty"`
	// Records describe the passes of the compaction (usually one; two
	// when an emergency pass followed in the same preflight).
	Records []condense.Record `json:"records,omitempty"`
	// Rendering is the overlay: how the first HistoryCount messages render.
	Rendering Overlay `json:"rendering"`
}

// Undo is an undo marker: the checkpoints it retires.
type Undo struct {
	Checkpoints []string  `json:"checkpoints"`
	Time        time.Time `json:"time"`
}

// Validate checks what a store can check on its own: an id, and an
// overlay inside the first HistoryCount messages.
func (c *Checkpoint) Validate() error {
	if c.ID == "" {
		return fmt.Errorf("%w: checkpoint without an id", ErrInvalidBatch)
	}
	if c.HistoryCount < 0 {
		return fmt.Errorf("%w: checkpoint %s: negative history count", ErrInvalidBatch, c.ID)
	}
	if err := c.Rendering.Check(c.HistoryCount); err != nil {
		return fmt.Errorf("%w: checkpoint %s: %v", ErrInvalidBatch, c.ID, err)
	}
	return nil
}

// ValidID checks a session id: 1–128 letters, digits, '.', '_' or '-', not
// starting with '.'. Stores use valid ids in file names and keys.
func ValidID(id string) error {
	if id == "" || len(id) > 128 || id[0] == '.' {
		return fmt.Errorf("%w: %q", ErrInvalidID, id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("%w: %q", ErrInvalidID, id)
		}
	}
	return nil
}

// Encoded is a Batch as stores write it: each message's condense JSON, and
// the checkpoint and undo marker as JSON (nil when absent).
type Encoded struct {
	Messages   [][]byte
	Checkpoint []byte
	Undo       []byte
}

// Encode validates b's checkpoint and encodes the batch, so every store
// writes the same bytes for the same batch.
func Encode(b Batch) (Encoded, error) {
	var e Encoded
	for i := range b.Messages {
		raw, err := b.Messages[i].MarshalJSON()
		if err != nil {
			return Encoded{}, err
		}
		e.Messages = append(e.Messages, raw)
	}
	if b.Checkpoint != nil {
		if err := b.Checkpoint.Validate(); err != nil {
			return Encoded{}, err
		}
		raw, err := json.Marshal(b.Checkpoint)
		if err != nil {
			return Encoded{}, err
		}
		e.Checkpoint = raw
	}
	if b.Undo != nil {
		raw, err := json.Marshal(b.Undo)
		if err != nil {
			return Encoded{}, err
		}
		e.Undo = raw
	}
	return e, nil
}
