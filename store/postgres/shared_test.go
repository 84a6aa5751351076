package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
	"github.com/condense-dev/condense/store/storetest"
)

func userMsgs(prefix string, n int) []condense.Message {
	out := make([]condense.Message, n)
	for i := range out {
		id := fmt.Sprintf("%s-%d", prefix, i)
		out[i] = condense.Message{ID: id, Role: condense.RoleUser, Parts: []condense.Part{condense.Text("text of " + id)}}
	}
	return out
}

// Replicas — separate Store instances on one database, several goroutines
// each — append to one session in shared mode while some of them compact
// under the session's lock. Every batch lands whole at the index its
// Append returned, no message is lost or stored twice, batches do not
// overlap, every replica ends with the same state, and every checkpoint is
// saved once, numbered in order, each counting at least as many messages
// as the one before (a lock holder sees the latest state).
func TestSharedReplicasAppend(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	const replicas, workers, per, compactEvery = 3, 4, 15, 5
	stores := make([]*postgres.Store, replicas)
	logs := make([]*postgres.SharedLog, replicas)
	for r := range stores {
		stores[r] = open(t, schema, nil)
		defer stores[r].Close()
		l, err := stores[r].OpenShared(ctx, "shared")
		if err != nil {
			t.Fatal(err)
		}
		logs[r] = l
	}
	// Enough messages for a checkpoint to render.
	if _, err := logs[0].Append(ctx, store.Batch{Messages: userMsgs("seed", 6)}); err != nil {
		t.Fatal(err)
	}
	type batch struct {
		first int
		msgs  []condense.Message
	}
	var mu sync.Mutex
	var done []batch
	var cpIDs []string
	var wg sync.WaitGroup
	for r := range replicas {
		for w := range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for j := range per {
					b := userMsgs(fmt.Sprintf("r%d-w%d-%d", r, w, j), 1+(r+w+j)%3)
					first, err := logs[r].Append(ctx, store.Batch{Messages: b})
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					done = append(done, batch{first, b})
					mu.Unlock()
					if j%compactEvery != compactEvery-1 {
						continue
					}
					// Compact: lock, read the latest state, save the next
					// checkpoint over the whole log.
					l, err := logs[r].Lock(ctx)
					if err != nil {
						t.Error(err)
						return
					}
					next := 1
					for _, cp := range l.Checkpoints() {
						k, _ := strconv.Atoi(strings.TrimPrefix(cp.ID, "c"))
						next = max(next, k+1)
					}
					cp := storetest.SampleCheckpoint("c"+strconv.Itoa(next), l.Len())
					if _, err := l.Append(ctx, store.Batch{Checkpoint: &cp}); err != nil {
						t.Error(err)
					}
					mu.Lock()
					cpIDs = append(cpIDs, cp.ID)
					mu.Unlock()
					l.Close()
				}
			}()
		}
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	total := 6
	for _, b := range done {
		total += len(b.msgs)
	}
	sort.Slice(done, func(i, j int) bool { return done[i].first < done[j].first })
	end := 6
	for _, b := range done {
		if b.first != end {
			t.Fatalf("batch at %d, the one before ends at %d", b.first, end)
		}
		end += len(b.msgs)
	}
	for r, l := range logs {
		if _, err := l.Refresh(ctx); err != nil {
			t.Fatal(err)
		}
		if l.Len() != total {
			t.Fatalf("replica %d: Len %d, want %d", r, l.Len(), total)
		}
		all, err := l.Messages(ctx, 0, total)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, m := range all {
			if seen[m.ID] {
				t.Fatalf("message %s stored twice", m.ID)
			}
			seen[m.ID] = true
		}
		for _, b := range done {
			if got, want := storetest.JSON(t, all[b.first:b.first+len(b.msgs)]), storetest.JSON(t, b.msgs); got != want {
				t.Fatalf("replica %d: batch at %d:\n%s\nwant\n%s", r, b.first, got, want)
			}
		}
		cps := l.Checkpoints()
		if len(cps) != len(cpIDs) {
			t.Fatalf("replica %d: %d checkpoints saved, %d made", r, len(cps), len(cpIDs))
		}
		prev := 0
		for k, cp := range cps {
			if cp.ID != "c"+strconv.Itoa(k+1) {
				t.Fatalf("replica %d: checkpoint %d is %s", r, k, cp.ID)
			}
			if cp.HistoryCount < prev {
				t.Fatalf("checkpoint %s counts %d messages, the one before %d", cp.ID, cp.HistoryCount, prev)
			}
			prev = cp.HistoryCount
		}
		if l.Version() != logs[0].Version() {
			t.Fatalf("replica %d at version %d, replica 0 at %d", r, l.Version(), logs[0].Version())
		}
	}
}

// While one replica holds the session's lock, another replica's shared
// Append waits: the log changes only by the holder until it unlocks.
func TestSharedAppendWaitsForLock(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	waiting := make(chan struct{}, 1)
	a, b := open(t, schema, nil), open(t, schema, &postgres.Options{OnWait: func(string) {
		select {
		case waiting <- struct{}{}:
		default:
		}
	}})
	defer a.Close()
	defer b.Close()
	sa, err := a.OpenShared(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.OpenShared(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	l, err := sa.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan int, 1)
	go func() {
		first, err := sb.Append(ctx, store.Batch{Messages: userMsgs("b", 1)})
		if err != nil {
			t.Error(err)
		}
		got <- first
	}()
	select {
	case <-waiting: // b found the lease held
	case first := <-got:
		t.Fatalf("another replica's append landed at %d while the session was locked", first)
	}
	if first, err := l.Append(ctx, store.Batch{Messages: userMsgs("a", 2)}); err != nil || first != 0 {
		t.Fatalf("holder's append: %d, %v", first, err)
	}
	var n int
	if err := a.Pool().QueryRow(ctx, `SELECT messages FROM sessions WHERE id = 's'`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("the log holds %d messages (%v) while locked, want the holder's 2", n, err)
	}
	if _, err := sb.TryLock(ctx); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("TryLock while held: %v, want ErrLocked", err)
	}
	var le *postgres.LeaseError
	if _, err := b.Open(ctx, "s"); !errors.As(err, &le) || le.Session != "s" {
		t.Fatalf("exclusive Open while held: %v, want a *LeaseError", err)
	}
	l.Close()
	if first := <-got; first != 2 {
		t.Fatalf("the waiting append landed at %d, want 2", first)
	}
	if _, err := l.Append(ctx, store.Batch{Messages: userMsgs("late", 1)}); !errors.Is(err, store.ErrClosed) {
		t.Fatalf("append through an unlocked log: %v, want ErrClosed", err)
	}
}

// A holder that stops renewing (hung, or its replica died on another
// machine) loses the session once its lease expires: another replica
// takes it over, and the old holder's appends fail with ErrLocked. The
// test polls the lease row until it shows the expiry.
func TestLeaseExpiryTakeover(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	ttl := 300 * time.Millisecond
	a, b := open(t, schema, &postgres.Options{LeaseTTL: ttl}), open(t, schema, &postgres.Options{LeaseTTL: ttl})
	defer a.Close()
	defer b.Close()
	postgres.StopRenewal(a)
	sa, _ := a.OpenShared(ctx, "s")
	sb, err := b.OpenShared(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	held, err := sa.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := held.Append(ctx, store.Batch{Messages: userMsgs("a", 3)}); err != nil {
		t.Fatal(err)
	}
	if _, err := sb.TryLock(ctx); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("TryLock of a live lease: %v, want ErrLocked", err)
	}
	for {
		var expired bool
		if err := b.Pool().QueryRow(ctx, `SELECT lease_expires <= now() FROM sessions WHERE id = 's'`).Scan(&expired); err != nil {
			t.Fatal(err)
		}
		if expired {
			break
		}
		time.Sleep(10 * time.Millisecond) // poll interval, not synchronisation
	}
	l, err := sb.TryLock(ctx)
	if err != nil {
		t.Fatalf("TryLock of an expired lease: %v", err)
	}
	defer l.Close()
	if l.Len() != 3 {
		t.Fatalf("the new holder sees %d messages, want 3", l.Len())
	}
	if _, err := held.Append(ctx, store.Batch{Messages: userMsgs("stale", 1)}); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("the old holder's append after the takeover: %v, want ErrLocked", err)
	}
	if first, err := l.Append(ctx, store.Batch{Messages: userMsgs("b", 1)}); err != nil || first != 3 {
		t.Fatalf("new holder's append: %d, %v", first, err)
	}
	held.Close() // releases nothing: the lease is no longer its own
	var owner *string
	if err := b.Pool().QueryRow(ctx, `SELECT lease_owner FROM sessions WHERE id = 's'`).Scan(&owner); err != nil || owner == nil {
		t.Fatalf("the old holder's Close released the new holder's lease (%v)", err)
	}
}

// A checkpoint id is saved once per session: a second checkpoint with the
// same id fails with ErrDuplicateCheckpoint (store.ErrInvalidBatch) and
// stores nothing, and a batch refused in a group commit fails alone.
func TestDuplicateCheckpoint(t *testing.T) {
	ctx := context.Background()
	s := open(t, newSchema(t), nil)
	defer s.Close()
	l, err := s.Open(ctx, "d")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	cp := storetest.SampleCheckpoint("c1", 6)
	if _, err := l.Append(ctx, store.Batch{Messages: userMsgs("m", 6), Checkpoint: &cp}); err != nil {
		t.Fatal(err)
	}
	_, err = l.Append(ctx, store.Batch{Messages: userMsgs("n", 1), Checkpoint: &cp})
	if !errors.Is(err, postgres.ErrDuplicateCheckpoint) || !errors.Is(err, store.ErrInvalidBatch) {
		t.Fatalf("second c1: %v, want ErrDuplicateCheckpoint", err)
	}
	if l.Len() != 6 || len(l.Checkpoints()) != 1 {
		t.Fatalf("the refused batch left %d messages, %d checkpoints", l.Len(), len(l.Checkpoints()))
	}
}

// Processes starting together migrate the schema once.
func TestConcurrentMigrations(t *testing.T) {
	schema := newSchema(t)
	const n = 6
	stores := make([]*postgres.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			stores[i], errs[i] = postgres.Open(context.Background(), dbURL(t), &postgres.Options{Schema: schema})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	var rows, version int
	if err := stores[0].Pool().QueryRow(context.Background(),
		`SELECT count(*), max(version) FROM schema_migrations WHERE component = $1`, postgres.Component).Scan(&rows, &version); err != nil {
		t.Fatal(err)
	}
	if rows != version || rows == 0 {
		t.Fatalf("schema_migrations holds %d rows up to version %d", rows, version)
	}
}

// A connection whose commits are not durable is refused.
func TestRefusesAsyncCommit(t *testing.T) {
	u := dbURL(t)
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	_, err := postgres.Open(context.Background(), u+sep+"synchronous_commit=off", &postgres.Options{Schema: newSchema(t)})
	if !errors.Is(err, postgres.ErrNotDurable) {
		t.Fatalf("Open with synchronous_commit=off: %v, want ErrNotDurable", err)
	}
}

// Refresh reports whether the session moved and brings in what another
// instance saved: messages, checkpoints, undo markers.
func TestRefresh(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	a, b := open(t, schema, nil), open(t, schema, nil)
	defer a.Close()
	defer b.Close()
	sa, err := a.OpenShared(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	sb, err := b.OpenShared(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if changed, err := sb.Refresh(ctx); err != nil || changed {
		t.Fatalf("Refresh of an unchanged session: %v, %v", changed, err)
	}
	cp := storetest.SampleCheckpoint("c1", 6)
	if _, err := sa.Append(ctx, store.Batch{Messages: userMsgs("a", 6), Checkpoint: &cp}); err != nil {
		t.Fatal(err)
	}
	u := store.Undo{Checkpoints: []string{"c1"}, Time: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)}
	if _, err := sa.Append(ctx, store.Batch{Undo: &u}); err != nil {
		t.Fatal(err)
	}
	if sb.Len() != 0 || sb.Version() != 0 {
		t.Fatalf("before Refresh: %d messages, version %d", sb.Len(), sb.Version())
	}
	if changed, err := sb.Refresh(ctx); err != nil || !changed {
		t.Fatalf("Refresh after another instance's appends: %v, %v", changed, err)
	}
	if sb.Len() != 6 || sb.Version() != sa.Version() || storetest.JSON(t, sb.Checkpoints()) != storetest.JSON(t, []store.Checkpoint{cp}) ||
		storetest.JSON(t, sb.Undos()) != storetest.JSON(t, []store.Undo{u}) {
		t.Fatalf("after Refresh: %d messages, version %d (want %d), %d checkpoints, %d undos", sb.Len(), sb.Version(), sa.Version(), len(sb.Checkpoints()), len(sb.Undos()))
	}
	// b appends next: its batch lands after a's, and a's cache follows.
	if first, err := sb.Append(ctx, store.Batch{Messages: userMsgs("b", 1)}); err != nil || first != 6 {
		t.Fatalf("b's append: %d, %v", first, err)
	}
	if changed, err := sa.Refresh(ctx); err != nil || !changed || sa.Len() != 7 {
		t.Fatalf("a after b's append: %v, %v, %d messages", changed, err, sa.Len())
	}
}

// marker is the log Lock returns, which can mark its lease.
type marker interface {
	Mark(ctx context.Context, activity string) error
}

// LockUnless waits for a holder that marked nothing or another activity,
// and refuses one that marked an activity it names, or marks one while it
// waits: in another process (another Store) and in this one. The mark
// goes with the lease: a new holder has none, and an expired lease's mark
// counts for nothing.
func TestLockUnlessMarked(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	ttl := 300 * time.Millisecond
	waiting := make(chan string, 1)
	onWait := func(id string) {
		select {
		case waiting <- id:
		default:
		}
	}
	a := open(t, schema, &postgres.Options{LeaseTTL: ttl, OnWait: onWait})
	b := open(t, schema, &postgres.Options{OnWait: onWait})
	defer a.Close()
	defer b.Close()
	sa, _ := a.OpenShared(ctx, "s")
	sb, err := b.OpenShared(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	for _, local := range []bool{false, true} {
		other := sb
		if local {
			other = sa // a second operation of the holder's own process
		}
		held, err := sa.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Unmarked: LockUnless waits, and is refused once the holder
		// marks what it names.
		got := make(chan error, 1)
		go func() {
			l, err := other.LockUnless(ctx, "compaction")
			if l != nil {
				l.Close()
			}
			got <- err
		}()
		<-waiting
		if err := held.(marker).Mark(ctx, "append"); err != nil {
			t.Fatal(err)
		}
		<-waiting // looked again, still waits: "append" is not named
		select {
		case err := <-got:
			t.Fatalf("local=%v: LockUnless returned while the holder appends: %v", local, err)
		default:
		}
		if err := held.(marker).Mark(ctx, "compaction"); err != nil {
			t.Fatal(err)
		}
		var le *postgres.LeaseError
		if err := <-got; !errors.As(err, &le) || le.Activity != "compaction" || !errors.Is(err, store.ErrLocked) {
			t.Fatalf("local=%v: LockUnless while the holder compacts: %v, want a *LeaseError naming the compaction", local, err)
		}
		if _, err := other.LockUnless(ctx, "prompt", "compaction"); !errors.As(err, &le) || le.Activity != "compaction" {
			t.Fatalf("local=%v: LockUnless of a marked lease: %v", local, err)
		}
		if !strings.Contains(le.Error(), "(compaction)") {
			t.Fatalf("the lease error does not say what the holder does: %v", le)
		}
		// Lock still waits for it, and takes it unmarked.
		go func() {
			l, err := other.Lock(ctx)
			if err == nil {
				var mark *string
				b.Pool().QueryRow(ctx, `SELECT lease_activity FROM sessions WHERE id = 's'`).Scan(&mark)
				if mark != nil {
					err = fmt.Errorf("the new holder's lease is marked %q", *mark)
				}
				l.Close()
			}
			got <- err
		}()
		<-waiting
		held.Close()
		if err := <-got; err != nil {
			t.Fatalf("local=%v: Lock after the marked holder: %v", local, err)
		}
	}

	// A marked lease that expires marks nothing.
	postgres.StopRenewal(a)
	held, err := sa.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := held.(marker).Mark(ctx, "compaction"); err != nil {
		t.Fatal(err)
	}
	for {
		var expired bool
		if err := b.Pool().QueryRow(ctx, `SELECT lease_expires <= now() FROM sessions WHERE id = 's'`).Scan(&expired); err != nil {
			t.Fatal(err)
		}
		if expired {
			break
		}
		time.Sleep(10 * time.Millisecond) // poll interval, not synchronisation
	}
	l, err := sb.LockUnless(ctx, "compaction")
	if err != nil {
		t.Fatalf("LockUnless of an expired marked lease: %v", err)
	}
	l.Close()
	if err := held.(marker).Mark(ctx, "prompt"); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("marking a lease taken over: %v, want ErrLocked", err)
	}
}

// What AppendWith writes commits with the batch, in its transaction, told
// the index of the batch's first message; when it fails, the batch is not
// stored either.
func TestAppendWith(t *testing.T) {
	ctx := context.Background()
	schema := newSchema(t)
	s := open(t, schema, nil)
	defer s.Close()
	if _, err := s.Pool().Exec(ctx, `CREATE TABLE side (session text, first int)`); err != nil {
		t.Fatal(err)
	}
	sh, err := s.OpenShared(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	note := func(ctx context.Context, tx pgx.Tx, first int) error {
		_, err := tx.Exec(ctx, `INSERT INTO side VALUES ('s', $1)`, first)
		return err
	}
	if first, err := sh.AppendWith(ctx, store.Batch{Messages: userMsgs("a", 2)}, note); err != nil || first != 0 {
		t.Fatalf("AppendWith: %d, %v", first, err)
	}
	l, err := sh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type appendWith interface {
		AppendWith(context.Context, store.Batch, postgres.WithFunc) (int, error)
	}
	if first, err := l.(appendWith).AppendWith(ctx, store.Batch{Messages: userMsgs("b", 3)}, note); err != nil || first != 2 {
		t.Fatalf("AppendWith under the lease: %d, %v", first, err)
	}
	failed := errors.New("the side write failed")
	if _, err := l.(appendWith).AppendWith(ctx, store.Batch{Messages: userMsgs("c", 1)}, func(ctx context.Context, tx pgx.Tx, first int) error {
		if err := note(ctx, tx, first); err != nil {
			return err
		}
		return failed
	}); !errors.Is(err, failed) {
		t.Fatalf("AppendWith whose side write fails: %v", err)
	}
	l.Close()
	var firsts []int
	rows, _ := s.Pool().Query(ctx, `SELECT first FROM side ORDER BY first`)
	firsts, err = pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := s.Pool().QueryRow(ctx, `SELECT messages FROM sessions WHERE id = 's'`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(firsts) != "[0 2]" || n != 5 || sh.Len() != 5 {
		t.Fatalf("side rows %v, %d messages stored (%d cached); want [0 2] and 5", firsts, n, sh.Len())
	}
}
