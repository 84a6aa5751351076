package sqlite

import (
	"context"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// records keeps every log record a store writes.
type records struct {
	mu   sync.Mutex
	msgs []string
}

func (r *records) Enabled(context.Context, slog.Level) bool { return true }

func (r *records) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	b.WriteString(rec.Level.String() + " " + rec.Message)
	rec.Attrs(func(a slog.Attr) bool {
		b.WriteString(" " + a.String())
		return true
	})
	r.mu.Lock()
	r.msgs = append(r.msgs, b.String())
	r.mu.Unlock()
	return nil
}

func (r *records) WithAttrs([]slog.Attr) slog.Handler { return r }
func (r *records) WithGroup(string) slog.Handler      { return r }

func (r *records) all() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.msgs...)
}

// The store renews the leases of all its open sessions at once. Closing
// the store with a session still open releases that session's lease, then
// stops the renewal and waits for it before the database closes: no
// renewal runs against a closed database. Renewals run on ticks the test
// sends, so nothing here depends on timing.
func TestCloseStopsLeaseRenewal(t *testing.T) {
	ctx := context.Background()
	rec := &records{}
	path := filepath.Join(t.TempDir(), "db")
	s, err := Open(path, &Options{Logger: slog.New(rec)})
	if err != nil {
		t.Fatal(err)
	}
	ticks := make(chan time.Time)
	type renewal struct {
		ids []string
		err error
	}
	renewed := make(chan renewal)
	s.hooks.renewTick = ticks
	s.hooks.renewed = func(ids []string, err error) { renewed <- renewal{ids, err} }
	a, err := s.Open(ctx, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Open(ctx, "b")
	if err != nil {
		t.Fatal(err)
	}
	// Renewal works while the sessions are open, for all of them at once.
	if _, err := s.db.Exec(`UPDATE leases SET expires = 1`); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		ticks <- time.Now()
		r := <-renewed
		slices.Sort(r.ids)
		if r.err != nil || !slices.Equal(r.ids, []string{"a", "b"}) {
			t.Fatalf("renewal of the open sessions: %v renewed, %v", r.ids, r.err)
		}
	}
	var stale int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM leases WHERE expires = 1`).Scan(&stale); err != nil || stale != 0 {
		t.Fatalf("%d leases not renewed (%v)", stale, err)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	ticks <- time.Now()
	if r := <-renewed; r.err != nil || !slices.Equal(r.ids, []string{"b"}) {
		t.Fatalf("renewal after a closed: %v renewed, %v", r.ids, r.err)
	}
	if err := s.Close(); err != nil { // b still open
		t.Fatal(err)
	}
	select {
	case <-s.stopped:
	default:
		t.Fatal("lease renewal still running after the store closed")
	}
	select {
	case ticks <- time.Now(): // only a renewal goroutine left running takes it
		r := <-renewed
		t.Fatalf("a lease renewal ran after Close: %v, %v", r.ids, r.err)
	default:
	}
	for _, m := range rec.all() {
		if strings.Contains(m, "lease renewal failed") {
			t.Fatalf("logged on a clean close: %s", m)
		}
	}
	if _, err := b.Append(ctx, store.Batch{Messages: []condense.Message{condense.UserText("late")}}); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Append after the store closed: %v, want ErrClosed", err)
	}
	if _, err := s.Open(ctx, "c"); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("Open after the store closed: %v, want ErrClosed", err)
	}
	if err := b.Close(); err != nil {
		t.Fatal(err)
	}
	// The leases were released: this process (alive, same host) opens both
	// sessions again at once.
	s, err = Open(path, &Options{Logger: slog.New(rec)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"a", "b"} {
		l, err := s.Open(ctx, id)
		if err != nil {
			t.Fatalf("reopen %s: %v", id, err)
		}
		l.Close()
	}
}
