package journal

import (
	"context"
	"errors"
	"fmt"
)

// Errors of stores.
var (
	// ErrNotFound: no journal has that run id.
	ErrNotFound = errors.New("journal: run not found")
	// ErrSequence: an append whose first event does not follow the
	// journal's last one (another writer appended meanwhile).
	ErrSequence = errors.New("journal: events out of sequence")
	// ErrInvalidRun: a run id that is not 1–128 letters, digits, '.', '_'
	// or '-' (not starting with '.').
	ErrInvalidRun = errors.New("journal: invalid run id")
)

// Store holds journals: one append-only event stream per run. Stores are
// safe for concurrent use. The implementations are NewMemory, OpenDir
// (JSONL files) and journal/sqlite; journaltest has the conformance suite
// every Store runs.
type Store interface {
	// Append adds events to run's journal, creating it when new, durably
	// and all or nothing. events[0].Seq must be one more than the last
	// stored event's (1 for a new run), and the rest consecutive; else
	// ErrSequence and nothing is stored.
	Append(ctx context.Context, run string, events ...Event) error
	// Load returns run's events in order; ErrNotFound when there are none.
	Load(ctx context.Context, run string) ([]Event, error)
	// Runs lists the run ids, sorted.
	Runs(ctx context.Context) ([]string, error)
	Close() error
}

// ValidRun checks a run id: 1–128 letters, digits, '.', '_' or '-', not
// starting with '.'. Stores use run ids in file names.
func ValidRun(id string) error {
	if id == "" || len(id) > 128 || id[0] == '.' {
		return fmt.Errorf("%w: %q", ErrInvalidRun, id)
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-'
		if !ok {
			return fmt.Errorf("%w: %q", ErrInvalidRun, id)
		}
	}
	return nil
}

// checkSequence checks that events continue a journal of n events.
func checkSequence(run string, n int, events []Event) error {
	for i := range events {
		if want := int64(n + i + 1); events[i].Seq != want {
			return fmt.Errorf("%w: run %s: event seq %d, want %d", ErrSequence, run, events[i].Seq, want)
		}
		if events[i].Run != "" && events[i].Run != run {
			return fmt.Errorf("%w: run %s: event of run %q", ErrSequence, run, events[i].Run)
		}
	}
	return nil
}

// CheckSequence checks that events continue a journal holding n events:
// seqs n+1, n+2, … and no other run's event. Store implementations call it.
func CheckSequence(run string, n int, events []Event) error { return checkSequence(run, n, events) }
