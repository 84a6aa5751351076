package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
	"go.uber.org/goleak"

	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/journal/journaltest"
	"github.com/condense-dev/condense/journal/postgres"
)

func newSchema(t *testing.T) (url, schema string) {
	url = os.Getenv("CONDENSE_TEST_POSTGRES")
	if url == "" {
		t.Skip("CONDENSE_TEST_POSTGRES is not set")
	}
	var b [6]byte
	rand.Read(b[:])
	schema = fmt.Sprintf("condense_jtest_%d_%s", os.Getpid(), hex.EncodeToString(b[:]))
	t.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `DROP SCHEMA IF EXISTS `+schema+` CASCADE`); err != nil {
			t.Errorf("drop schema %s: %v", schema, err)
		}
	})
	return url, schema
}

func TestJournalPostgresConformance(t *testing.T) {
	ctx := context.Background()
	where := map[journal.Store][2]string{}
	journaltest.Run(t, func(t *testing.T) journal.Store {
		url, schema := newSchema(t)
		s, err := postgres.Open(ctx, url, schema)
		if err != nil {
			t.Fatal(err)
		}
		where[s] = [2]string{url, schema}
		return s
	}, func(t *testing.T, s journal.Store) journal.Store {
		w := where[s]
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		s2, err := postgres.Open(ctx, w[0], w[1])
		if err != nil {
			t.Fatal(err)
		}
		return s2
	})
}

// Two writers appending the same sequence number to one run: one wins,
// the other gets ErrSequence, and the run holds each event once.
func TestJournalPostgresRace(t *testing.T) {
	ctx := context.Background()
	url, schema := newSchema(t)
	a, err := postgres.Open(ctx, url, schema)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(ctx, url, schema)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	evs := journaltest.Events("r", 1, 40)
	errs := make(chan error, 2)
	for _, s := range []journal.Store{a, b} {
		go func() {
			for _, e := range evs {
				err := s.Append(ctx, "r", e)
				if err != nil && !errors.Is(err, journal.ErrSequence) {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	got, err := a.Load(ctx, "r")
	if err != nil || len(got) != len(evs) {
		t.Fatalf("Load: %d events, %v; want %d", len(got), err, len(evs))
	}
	for i, e := range got {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
