package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"log/slog"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// pgTestPool connects to CONDENSE_TEST_POSTGRES (the test skips without
// it) and returns a pool and a schema of the test's own, dropped at the
// end.
func pgTestPool(t testing.TB) (*pgxpool.Pool, string) {
	t.Helper()
	url := os.Getenv("CONDENSE_TEST_POSTGRES")
	if url == "" {
		t.Skip("CONDENSE_TEST_POSTGRES is not set")
	}
	pool, err := pgxpool.New(context.Background(), url)
	if err != nil {
		t.Fatal(err)
	}
	var b [6]byte
	rand.Read(b[:])
	schema := "condense_test_" + hex.EncodeToString(b[:])
	t.Cleanup(func() {
		if _, err := pool.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+pgx.Identifier{schema}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop schema: %v", err)
		}
		pool.Close()
	})
	return pool, schema
}

func openTestPGState(t *testing.T, pool *pgxpool.Pool, schema string, tokens map[string]string) *pgState {
	t.Helper()
	p, err := openPGState(context.Background(), pool, &pgStateOptions{Schema: schema, Keep: 50, Tokens: tokens, Now: time.Now, Logger: slog.Default()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.close() })
	return p
}

// Replicas that start together apply the migrations once.
func TestPGStateMigrationsConcurrent(t *testing.T) {
	pool, schema := pgTestPool(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := openPGState(context.Background(), pool, &pgStateOptions{Schema: schema, Keep: 10, Now: time.Now, Logger: slog.Default()})
			if err == nil {
				p.close()
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := pool.QueryRow(context.Background(), "SELECT count(*) FROM "+pgx.Identifier{schema, "condense_server_migrations"}.Sanitize()).Scan(&n); err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(pgMigrations, "pgmigrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	if n != len(files) {
		t.Fatalf("%d migrations recorded, want %d (each applied once)", n, len(files))
	}
}

func TestPGStateRecordsUsageLogins(t *testing.T) {
	pool, schema := pgTestPool(t)
	tokens := map[string]string{"tok-aaaaaaaaaaaaaaaa": "alice"}
	a := openTestPGState(t, pool, schema, tokens)
	ctx := context.Background()
	rec := &record{ID: "s-1", Owner: "alice", Created: time.Now().UTC().Truncate(time.Microsecond), Config: SessionConfig{Model: "m", Window: 1000}}
	if err := a.put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	changed := make(chan string, 4)
	b := openTestPGState(t, pool, schema, tokens)
	b.watch(func(id string) { changed <- id })
	got, err := b.record(ctx, "s-1")
	if err != nil || got == nil || got.Owner != "alice" || got.Config.Window != 1000 || !got.Created.Equal(rec.Created) {
		t.Fatalf("record read on another replica: %+v, %v", got, err)
	}
	for i := range 3 {
		pt := UsagePoint{Messages: i, Tokens: 10 * i}
		rec.Series = append(rec.Series, pt)
		if err := a.addUsage(ctx, rec, pt); err != nil {
			t.Fatal(err)
		}
	}
	ser, ok, err := b.series(ctx, "s-1")
	if err != nil || !ok || len(ser) != 3 || ser[2].Tokens != 20 {
		t.Fatalf("series on another replica: %+v %v %v", ser, ok, err)
	}
	rec.Config.Window = 2000
	if err := a.put(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if id := <-changed; id != "s-1" {
		t.Fatalf("change of %q heard, want s-1", id)
	}
	cookie, _, err := a.logins().add("alice", "tok-aaaaaaaaaaaaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := b.logins().owner(cookie); !ok || o != "alice" {
		t.Fatalf("login unknown on another replica: %q %v", o, ok)
	}
	if err := b.logins().remove(cookie); err != nil {
		t.Fatal(err)
	}
	if _, ok := a.logins().owner(cookie); ok {
		t.Fatal("a logout on one replica did not hold on another")
	}
	// A login whose token left the token file is dropped at start.
	cookie, _, _ = a.logins().add("alice", "tok-aaaaaaaaaaaaaaaa")
	c := openTestPGState(t, pool, schema, map[string]string{"tok-bbbbbbbbbbbbbbbb": "alice"})
	if _, ok := c.logins().owner(cookie); ok {
		t.Fatal("a login of a revoked token survived a start")
	}
	if err := a.remove(ctx, "s-1"); err != nil {
		t.Fatal(err)
	}
	for id := range changed {
		if id != "s-1" {
			t.Fatalf("change of %q heard", id)
		}
		if r, err := b.record(ctx, "s-1"); err != nil || r == nil {
			break
		}
	}
	recs, err := b.records(ctx)
	if err != nil || len(recs) != 0 {
		t.Fatalf("records after remove: %v %v", recs, err)
	}
}

// Events published on two replicas interleave in one id order, each
// replica's stream sees all of them, and a stream opened later resumes
// after any id.
func TestPGStateEventsAcrossReplicas(t *testing.T) {
	pool, schema := pgTestPool(t)
	a := openTestPGState(t, pool, schema, nil)
	b := openTestPGState(t, pool, schema, nil)
	ea, err := a.openEvents("s-1")
	if err != nil {
		t.Fatal(err)
	}
	eb, err := b.openEvents("s-1")
	if err != nil {
		t.Fatal(err)
	}
	const per = 20 // 40 events, fewer than the 50 kept
	var wg sync.WaitGroup
	for i, st := range []eventStream{ea, eb} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range per {
				st.publish(EventBusy, map[string]int{"replica": i, "n": j}, true)
			}
		}()
	}
	wg.Wait()
	for name, st := range map[string]eventStream{"a": ea, "b": eb} {
		var got []Event
		var last int64
		for len(got) < 2*per {
			evs, gap, changed := st.after(last)
			if gap {
				t.Fatalf("%s: gap", name)
			}
			got = append(got, evs...)
			if len(evs) > 0 {
				last = evs[len(evs)-1].ID
				continue
			}
			select {
			case <-changed:
			case <-time.After(3 * time.Second):
				t.Fatalf("%s: stuck at %d events, last %d", name, len(got), last)
			}
		}
		seen := map[[2]int]bool{}
		for i, ev := range got {
			if ev.ID != int64(i+1) {
				t.Fatalf("%s: event %d has id %d", name, i, ev.ID)
			}
			var d struct{ Replica, N int }
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			seen[[2]int{d.Replica, d.N}] = true
		}
		if len(seen) != 2*per {
			t.Fatalf("%s: %d distinct events, want %d", name, len(seen), 2*per)
		}
	}
	// A stream opened after them (a replica that restarts) has the last
	// kept and resumes after any of them.
	ea.close()
	ea2, err := a.openEvents("s-1")
	if err != nil {
		t.Fatal(err)
	}
	evs, gap, _ := ea2.after(2*per - 5)
	if gap || len(evs) != 5 || evs[0].ID != 2*per-4 {
		t.Fatalf("resume after %d: %d events from %v, gap %v", 2*per-5, len(evs), evs, gap)
	}
	for range 30 {
		ea2.publish(EventSettled, nil, true)
	}
	if evs, gap, _ := ea2.after(1); !gap || evs[0].ID != 2*per+30-49 {
		t.Fatalf("resume after 1 with 50 kept: gap %v, first %d", gap, evs[0].ID)
	}
}
