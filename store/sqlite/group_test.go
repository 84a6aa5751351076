package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// One session whose lease was taken over fails alone: the other sessions
// appending in the same group commit still commit.
func TestGroupCommitLostLeaseFailsAlone(t *testing.T) {
	ctx := context.Background()
	release, blocked, first := make(chan struct{}), make(chan struct{}, 1), true
	s, err := Open(filepath.Join(t.TempDir(), "db"), &Options{BeforeCommit: func() error {
		if first {
			first = false
			blocked <- struct{}{}
			<-release
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	queued := make(chan int, 8)
	s.hooks.queued = func(n int) { queued <- n }
	a, _ := s.Open(ctx, "a")
	b, _ := s.Open(ctx, "b")
	c, _ := s.Open(ctx, "c")
	if _, err := s.DB().Exec(`UPDATE leases SET owner = 'thief' WHERE session = 'a'`); err != nil {
		t.Fatal(err)
	}
	m := func(id string) store.Batch {
		return store.Batch{Messages: []condense.Message{{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text(id)}}}}
	}
	done, errA, errB := make(chan error, 1), make(chan error, 1), make(chan error, 1)
	go func() { _, err := c.Append(ctx, m("c0")); done <- err }()
	<-blocked
	go func() { _, err := a.Append(ctx, m("a0")); errA <- err }()
	go func() { _, err := b.Append(ctx, m("b0")); errB <- err }()
	for n := 0; n < 2; n = <-queued { // a's and b's appends wait behind c's commit
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-errA; !errors.Is(err, store.ErrLocked) {
		t.Fatalf("a: %v, want ErrLocked", err)
	}
	if err := <-errB; err != nil {
		t.Fatalf("b failed because of a: %v", err)
	}
	if b.Len() != 1 {
		t.Fatalf("b holds %d messages", b.Len())
	}
}
