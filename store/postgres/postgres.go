package postgres

import (
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/pgschema"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/store"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Component names the store's migrations in schema_migrations.
const Component = "store"

// DefaultSchema is the schema used when Options.Schema is empty.
const DefaultSchema = "condense"

// DefaultLeaseTTL is how long a lease lasts without renewal when
// Options.LeaseTTL is zero.
const DefaultLeaseTTL = 30 * time.Second

// Options configure a Store. The zero value is ready to use.
type Options struct {
	// Schema holds the tables (created when missing): lower-case letters,
	// digits and '_'. Default DefaultSchema.
	Schema string
	// LeaseTTL is how long a lease lives without renewal; its holder
	// renews it every LeaseTTL/3. Default DefaultLeaseTTL.
	LeaseTTL time.Duration
	// MaxConns caps the connection pool (default: pgxpool's, or the URL's
	// pool_max_conns).
	MaxConns int32
	Logger   *slog.Logger
	// OnWait, when set, is called each time a Lock, LockUnless or shared
	// Append finds the session's lease held by someone else and waits
	// (to count contention, or for a test to know that a caller waits).
	OnWait func(session string)
}

// LeaseError is the error of an Open or TryLock that finds the session's
// lease held by someone else; it matches store.ErrLocked.
type LeaseError struct {
	Session string
	Host    string // the holder's machine
	PID     int
	// Left is how long the lease has to run unless renewed.
	Left time.Duration
	// Activity is what the holder marked it is doing (Mark), "" when it
	// marked nothing.
	Activity string
}

func (e *LeaseError) Error() string {
	doing := ""
	if e.Activity != "" {
		doing = " (" + e.Activity + ")"
	}
	return fmt.Sprintf("%v: session %q is leased by process %d on %s%s for %v more", store.ErrLocked, e.Session, e.PID,
		hostName(e.Host), doing, e.Left.Round(time.Millisecond))
}

// Is makes a LeaseError match store.ErrLocked.
func (e *LeaseError) Is(target error) bool { return target == store.ErrLocked }

// ErrDuplicateCheckpoint: a batch whose checkpoint id the session already
// holds. It matches store.ErrInvalidBatch too.
var ErrDuplicateCheckpoint = fmt.Errorf("%w: checkpoint id already saved", store.ErrInvalidBatch)

// Store is a PostgreSQL database of sessions.
type Store struct {
	pool    *pgxpool.Pool
	schema  string
	ttl     time.Duration
	log     *slog.Logger
	machine string // hostName/boot/pid namespace; "" when unknown
	pid     int

	mu      sync.Mutex
	closed  bool
	local   map[string]bool          // sessions whose lease a log of this store holds or is taking
	marks   map[string]string        // what the log of this store holding a session's lease marked (Mark)
	release map[string]chan struct{} // closed when this store next gives up a session's lease or marks it
	logs    map[*lockedLog]struct{}
	shared  map[*SharedLog]struct{}

	hooks hooks
}

// hooks let tests watch and drive what is otherwise timed. All nil in use.
type hooks struct {
	// renewTick, when set, replaces the lease renewal ticker.
	renewTick func() <-chan time.Time
	// renewed is called after each lease renewal.
	renewed func(id string, err error)
	// queued is called, with the log's mutex held, when an Append joins
	// the queue, with the queue's length.
	queued func(n int)
	// waiting is Options.OnWait.
	waiting func(id string)
}

var _ store.Store = (*Store)(nil)

// Open connects to the database at url (a postgres:// URL or a libpq
// connection string), applies the schema's migrations and returns the
// store.
func Open(ctx context.Context, url string, opts *Options) (*Store, error) {
	var o Options
	if opts != nil {
		o = *opts
	}
	if o.Schema == "" {
		o.Schema = DefaultSchema
	}
	if o.LeaseTTL <= 0 {
		o.LeaseTTL = DefaultLeaseTTL
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	pool, err := pgschema.Connect(ctx, url, o.Schema, o.MaxConns)
	if err != nil {
		return nil, err
	}
	if err := checkDurable(ctx, pool); err != nil {
		pool.Close()
		return nil, err
	}
	sub, _ := fs.Sub(migrationFiles, "migrations")
	if _, err := pgschema.Migrate(ctx, pool, o.Schema, Component, sub); err != nil {
		pool.Close()
		return nil, err
	}
	return &Store{pool: pool, schema: o.Schema, ttl: o.LeaseTTL, log: o.Logger, machine: machineID(), pid: os.Getpid(),
		local: map[string]bool{}, marks: map[string]string{}, release: map[string]chan struct{}{},
		logs: map[*lockedLog]struct{}{}, shared: map[*SharedLog]struct{}{}, hooks: hooks{waiting: o.OnWait}}, nil
}

// ErrNotDurable: the server or the connection would acknowledge commits
// it has not made durable (fsync or synchronous_commit off).
var ErrNotDurable = errors.New("postgres store: commits are not durable")

// checkDurable refuses a database whose commits return before they are
// durable: an Append acknowledged must survive a crash of the server.
func checkDurable(ctx context.Context, pool *pgxpool.Pool) error {
	var fsync, syncCommit string
	if err := pool.QueryRow(ctx, `SELECT current_setting('fsync'), current_setting('synchronous_commit')`).Scan(&fsync, &syncCommit); err != nil {
		return fmt.Errorf("postgres store: %w", err)
	}
	if fsync != "on" || syncCommit == "off" {
		return fmt.Errorf("%w: fsync is %s and synchronous_commit is %s; want fsync on and synchronous_commit not off", ErrNotDurable, fsync, syncCommit)
	}
	return nil
}

// Pool returns the store's connection pool (its connections use the
// store's schema as search_path).
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// Schema returns the schema the store's tables are in.
func (s *Store) Schema() string { return s.schema }

// LeaseTTL returns how long a lease lives without renewal.
func (s *Store) LeaseTTL() time.Duration { return s.ttl }

// Close closes the logs still open — releasing their leases — and then
// the pool.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	var logs []*lockedLog
	for l := range s.logs {
		logs = append(logs, l)
	}
	var shared []*SharedLog
	for h := range s.shared {
		shared = append(shared, h)
	}
	s.mu.Unlock()
	for _, l := range logs {
		l.Close()
	}
	for _, h := range shared {
		h.Close()
	}
	s.pool.Close()
	return nil
}

func (s *Store) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// machineID names this process's machine and pid namespace, so a lease
// whose holder ran here can be checked with kill(pid, 0). Empty when the
// boot id or pid namespace cannot be read: leases then end only by
// expiry.
func machineID() string {
	host, _ := os.Hostname()
	boot, err1 := os.ReadFile("/proc/sys/kernel/random/boot_id")
	ns, err2 := os.Readlink("/proc/self/ns/pid")
	if err1 != nil || err2 != nil || host == "" {
		return ""
	}
	return host + "/" + strings.TrimSpace(string(boot)) + "/" + ns
}

// hostName is the host part of a machine id, for messages.
func hostName(machine string) string {
	h, _, _ := strings.Cut(machine, "/")
	if h == "" {
		return "an unknown host"
	}
	return h
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func token() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// ensure creates session id's row when missing.
func (s *Store) ensure(ctx context.Context, id string) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO sessions(id) VALUES ($1) ON CONFLICT (id) DO NOTHING`, id)
	return err
}

// takeLocal marks session id as leased by this store; when a log of this
// store already holds it, it returns false, what that log marked, and a
// channel closed when that log lets go or marks the lease.
func (s *Store) takeLocal(id string) (bool, string, <-chan struct{}) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.local[id] {
		return false, s.marks[id], s.releasedLocked(id)
	}
	s.local[id] = true
	return true, "", nil
}

// dropLocal undoes takeLocal and wakes this store's waiters for id.
func (s *Store) dropLocal(id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.local, id)
	delete(s.marks, id)
	s.wakeLocked(id)
}

// wakeLocked wakes this store's waiters for id; s.mu held.
func (s *Store) wakeLocked(id string) {
	if ch := s.release[id]; ch != nil {
		close(ch)
		delete(s.release, id)
	}
}

// released returns a channel closed when this store next gives up id's
// lease (or marks it: a waiter looks again).
func (s *Store) released(id string) <-chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.releasedLocked(id)
}

func (s *Store) releasedLocked(id string) <-chan struct{} {
	ch := s.release[id]
	if ch == nil {
		ch = make(chan struct{})
		s.release[id] = ch
	}
	return ch
}

// wait waits until a lease that has left to run may have been released:
// until released is closed (this store let go of the session; taken
// before the attempt that found the lease held, so no release is missed),
// a backoff (attempt) passes or the lease would expire, whichever is
// first.
func (s *Store) wait(ctx context.Context, id string, released <-chan struct{}, left time.Duration, attempt int) error {
	if s.hooks.waiting != nil {
		s.hooks.waiting(id)
	}
	d := time.Millisecond << min(attempt, 5) // 1ms … 32ms
	if left >= 0 && left+time.Millisecond < d {
		d = left + time.Millisecond
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-released:
	case <-t.C:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// Open opens session id for writing, creating it, and holds its lease
// until the log is closed. A lease held elsewhere gives a *LeaseError
// (store.ErrLocked).
func (s *Store) Open(ctx context.Context, id string) (store.Log, error) {
	if err := store.ValidID(id); err != nil {
		return nil, err
	}
	if s.isClosed() {
		return nil, store.ErrClosed
	}
	if err := s.ensure(ctx, id); err != nil {
		return nil, err
	}
	c := newCore(s, id)
	l, err := c.lock(ctx, waitFor{})
	if err != nil {
		return nil, err
	}
	l.exclusive = true
	return l, nil
}

// counters are what a session row counts.
type counters struct {
	n, cps, undos int
	version       int64
}

// lease is a session row's lease.
type lease struct {
	owner    *string
	host     *string
	pid      *int32
	left     *int64 // ms until expiry
	activity *string
}

// live reports whether l is held by a holder other than owner that may
// still be working: not expired, and not a process of this machine that
// is gone.
func (s *Store) live(l lease, owner string) bool {
	if l.owner == nil || *l.owner == owner || l.left == nil || *l.left <= 0 {
		return false
	}
	if s.machine != "" && l.host != nil && *l.host == s.machine && l.pid != nil && int(*l.pid) != s.pid && !alive(int(*l.pid)) {
		return false
	}
	return true
}

func (s *Store) leaseError(id string, l lease) *LeaseError {
	e := &LeaseError{Session: id}
	if l.host != nil {
		e.Host = *l.host
	}
	if l.pid != nil {
		e.PID = int(*l.pid)
	}
	if l.left != nil {
		e.Left = time.Duration(*l.left) * time.Millisecond
	}
	if l.activity != nil {
		e.Activity = *l.activity
	}
	return e
}

// leaseCommit makes a transaction that only takes, renews or releases a
// lease commit without waiting for its WAL flush. A lease needs no
// durability of its own: every append checks in its own (durable)
// transaction that the lease is its writer's, so a lease change lost with
// a database crash can only make a writer fail or wait, never write where
// it should not. It saves a disk flush on every lock and unlock.
const leaseCommit = `SET LOCAL synchronous_commit TO off`

// leaseExec runs one statement that changes a lease in a transaction of
// its own that commits without waiting for its flush (leaseCommit).
func (s *Store) leaseExec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error) {
	var ct pgconn.CommandTag
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, leaseCommit); err != nil {
			return err
		}
		var err error
		ct, err = tx.Exec(ctx, sql, args...)
		return err
	})
	return ct, err
}

const selectRow = `SELECT messages, checkpoints, undos, version, lease_owner, lease_host, lease_pid,
	(extract(epoch FROM lease_expires - now()) * 1000)::bigint, lease_activity FROM sessions WHERE id = $1 FOR UPDATE`

func scanRow(row pgx.Row) (counters, lease, error) {
	var c counters
	var l lease
	var n int64
	err := row.Scan(&n, &c.cps, &c.undos, &c.version, &l.owner, &l.host, &l.pid, &l.left, &l.activity)
	c.n = int(n)
	return c, l, err
}

// core is one session as a log of this store sees it: its cached state
// and its group commit queue.
type core struct {
	s  *Store
	id string

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []*pending
	writing bool // a commit, refresh or lock holds the right to sync the state
	n       int
	cps     []store.Checkpoint
	undos   []store.Undo
	version int64
	closed  bool
}

func newCore(s *Store, id string) *core {
	c := &core{s: s, id: id}
	c.cond = sync.NewCond(&c.mu)
	return c
}

func (c *core) have() counters {
	return counters{c.n, len(c.cps), len(c.undos), c.version}
}

// begin waits for the right to sync the state and takes it; c.mu held.
func (c *core) begin() {
	for c.writing {
		c.cond.Wait()
	}
	c.writing = true
}

// beginSync takes the right to sync the state (begin) and returns the
// cached counters; ErrClosed once the log is closed. c.mu not held.
func (c *core) beginSync() (counters, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return counters{}, store.ErrClosed
	}
	c.begin()
	return c.have(), nil
}

// end gives the right back; c.mu held.
func (c *core) end() {
	c.writing = false
	c.cond.Broadcast()
}

// news is what a sync read or wrote: the session's counters after it and
// the checkpoints and undo markers beyond the cached ones.
type news struct {
	to    counters
	cps   []store.Checkpoint
	undos []store.Undo
}

func (c *core) apply(nw news) {
	if nw.to.version < c.version {
		return
	}
	c.n = nw.to.n
	c.cps = append(c.cps, nw.cps...)
	c.undos = append(c.undos, nw.undos...)
	c.version = nw.to.version
}

// catchUp reads the checkpoints and undo markers saved after have, up to
// to.
func (c *core) catchUp(ctx context.Context, q pgx.Tx, have, to counters) (news, error) {
	nw := news{to: to}
	if to.version == have.version {
		return nw, nil
	}
	var err error
	if to.cps > have.cps {
		if nw.cps, err = readRows[store.Checkpoint](ctx, q, c.id, "checkpoints", "checkpoint", have.cps, to.cps); err != nil {
			return nw, err
		}
	}
	if to.undos > have.undos {
		if nw.undos, err = readRows[store.Undo](ctx, q, c.id, "undos", "undo marker", have.undos, to.undos); err != nil {
			return nw, err
		}
	}
	return nw, nil
}

// readRows reads the JSON rows of table (checkpoints or undos) from seq from
// on, which must be to-from rows; what names a row in errors.
func readRows[T any](ctx context.Context, q pgx.Tx, id, table, what string, from, to int) ([]T, error) {
	rows, _ := q.Query(ctx, `SELECT seq, data FROM `+table+` WHERE session = $1 AND seq >= $2 ORDER BY seq`, id, from)
	var out []T
	var seq int
	var data []byte
	_, err := pgx.ForEachRow(rows, []any{&seq, &data}, func() error {
		var v T
		if err := json.Unmarshal(data, &v); err != nil {
			return fmt.Errorf("%w: session %q %s row %d: %v", store.ErrCorrupt, id, what, seq, err)
		}
		out = append(out, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) != to-from {
		return nil, fmt.Errorf("%w: session %q counts %d %ss, %d stored", store.ErrCorrupt, id, to, what, from+len(out))
	}
	return out, nil
}

// refresh brings the cached state up to the database's: it reads the
// session row and, only when its version moved, the checkpoints and undo
// markers beyond the cached ones.
func (c *core) refresh(ctx context.Context) (bool, error) {
	have, err := c.beginSync()
	if err != nil {
		return false, err
	}
	var nw news
	read := func(q pgx.Row) error {
		var n int64
		if err := q.Scan(&n, &nw.to.cps, &nw.to.undos, &nw.to.version); err != nil {
			return err
		}
		nw.to.n = int(n)
		return nil
	}
	const row = `SELECT messages, checkpoints, undos, version FROM sessions WHERE id = $1`
	// One round trip when nothing changed; else the row again and what is
	// new, read in one transaction so they agree.
	err = read(c.s.pool.QueryRow(ctx, row, c.id))
	if err == nil && nw.to.version != have.version {
		err = pgx.BeginTxFunc(ctx, c.s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, func(tx pgx.Tx) error {
			if err := read(tx.QueryRow(ctx, row, c.id)); err != nil {
				return err
			}
			var err error
			nw, err = c.catchUp(ctx, tx, have, nw.to)
			return err
		})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.end()
	if err != nil {
		return false, fmt.Errorf("postgres store: refresh session %q: %w", c.id, err)
	}
	c.apply(nw)
	return nw.to.version != have.version, nil
}

// waitFor says which holders a lock waits for: none (TryLock), all
// (Lock), or those that have not marked one of unless (LockUnless).
type waitFor struct {
	wait   bool
	unless []string
}

// waits reports whether a lock waits for a holder that marked activity.
func (w waitFor) waits(activity string) bool {
	return w.wait && (activity == "" || !slices.Contains(w.unless, activity))
}

// lock takes the session's lease for a new lockedLog, waiting for its
// holder as w says (else a *LeaseError), and brings the cached state up to
// date in the same transaction.
func (c *core) lock(ctx context.Context, w waitFor) (*lockedLog, error) {
	s := c.s
	for {
		ok, mark, released := s.takeLocal(c.id)
		if ok {
			break
		}
		if !w.waits(mark) {
			return nil, &LeaseError{Session: c.id, Host: s.machine, PID: s.pid, Left: s.ttl, Activity: mark}
		}
		if s.hooks.waiting != nil {
			s.hooks.waiting(c.id)
		}
		select {
		case <-released:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	// Held by no log of this store: another process holds it, or no one.
	// A holder that marks its lease while this waits is seen at the next
	// attempt.
	owner := token()
	for attempt := 0; ; attempt++ {
		busy, err := c.take(ctx, owner)
		if err == nil {
			break
		}
		if busy == nil || !w.waits(busy.Activity) {
			s.dropLocal(c.id)
			return nil, err
		}
		if err := s.wait(ctx, c.id, nil, busy.Left, attempt); err != nil {
			s.dropLocal(c.id)
			return nil, err
		}
	}
	l := &lockedLog{c: c, owner: owner, stop: make(chan struct{}), stopped: make(chan struct{}), released: make(chan struct{})}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		l.releaseLease()
		s.dropLocal(c.id)
		return nil, store.ErrClosed
	}
	s.logs[l] = struct{}{}
	s.mu.Unlock()
	go l.renew()
	return l, nil
}

// take tries once to take the lease for owner; a lease held elsewhere
// gives a *LeaseError (returned twice: as busy and as the error).
func (c *core) take(ctx context.Context, owner string) (*LeaseError, error) {
	have, err := c.beginSync()
	if err != nil {
		return nil, err
	}
	var nw news
	var busy *LeaseError
	err = pgx.BeginFunc(ctx, c.s.pool, func(tx pgx.Tx) error {
		to, ls, err := scanRow(tx.QueryRow(ctx, selectRow, c.id))
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: session %q has no row", store.ErrCorrupt, c.id)
		}
		if err != nil {
			return err
		}
		if c.s.live(ls, owner) {
			busy = c.s.leaseError(c.id, ls)
			return busy
		}
		if _, err := tx.Exec(ctx, leaseCommit); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE sessions SET lease_owner = $2, lease_host = $3, lease_pid = $4,
			lease_expires = now() + $5 * interval '1 millisecond', lease_activity = NULL WHERE id = $1`,
			c.id, owner, c.s.machine, c.s.pid, c.s.ttl.Milliseconds()); err != nil {
			return err
		}
		nw, err = c.catchUp(ctx, tx, have, to)
		return err
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	defer c.end()
	if err != nil {
		if busy != nil {
			return busy, busy
		}
		return nil, fmt.Errorf("postgres store: lease session %q: %w", c.id, err)
	}
	c.apply(nw)
	return nil, nil
}

func (c *core) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *core) Checkpoints() []store.Checkpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]store.Checkpoint(nil), c.cps...)
}

func (c *core) Undos() []store.Undo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]store.Undo(nil), c.undos...)
}

func (c *core) Version() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

func (c *core) messages(ctx context.Context, from, to int, closed bool) ([]condense.Message, error) {
	c.mu.Lock()
	n := c.n
	closed = closed || c.closed
	c.mu.Unlock()
	if closed {
		return nil, store.ErrClosed
	}
	if from < 0 || to > n || from > to {
		return nil, fmt.Errorf("%w: [%d, %d) of %d", store.ErrOutOfRange, from, to, n)
	}
	out := make([]condense.Message, 0, to-from)
	if from == to {
		return out, nil
	}
	rows, _ := c.s.pool.Query(ctx, `SELECT idx, data FROM messages WHERE session = $1 AND idx >= $2 AND idx < $3 ORDER BY idx`, c.id, from, to)
	var idx int64
	var data []byte
	_, err := pgx.ForEachRow(rows, []any{&idx, &data}, func() error {
		if int(idx) != from+len(out) {
			return fmt.Errorf("%w: session %q: message %d missing", store.ErrCorrupt, c.id, from+len(out))
		}
		var m condense.Message
		if err := m.UnmarshalJSON(data); err != nil {
			return fmt.Errorf("%w: session %q message %d: %v", store.ErrCorrupt, c.id, idx, err)
		}
		out = append(out, m)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(out) != to-from {
		return nil, fmt.Errorf("%w: session %q: message %d missing", store.ErrCorrupt, c.id, from+len(out))
	}
	return out, nil
}

// pending is one Append waiting for its group commit.
type pending struct {
	b     *store.Batch
	enc   store.Encoded
	owner string // the lease token the append runs under; "" for a shared append
	with  WithFunc
	first int
	err   error
	done  bool
}

// WithFunc writes what belongs with an append (AppendWith) in the
// append's transaction, after the batch: first is the index of the
// batch's first message. Its error fails the transaction, and with it the
// appends committed together.
type WithFunc func(ctx context.Context, tx pgx.Tx, first int) error

// append queues b and waits for the group commit that commits it. With an
// owner, the commit requires the session's lease to be owner's; without,
// it requires the lease to be free (or void) and waits while it is not.
func (c *core) append(ctx context.Context, b store.Batch, owner string, with WithFunc, closed func() bool) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	enc, err := store.Encode(b)
	if err != nil {
		return 0, err
	}
	for attempt := 0; ; attempt++ {
		p := &pending{b: &b, enc: enc, owner: owner, with: with}
		var released <-chan struct{}
		if owner == "" {
			released = c.s.released(c.id)
		}
		c.mu.Lock()
		if c.closed || closed() {
			c.mu.Unlock()
			return 0, store.ErrClosed
		}
		if b.Empty() {
			n := c.n
			c.mu.Unlock()
			return n, nil
		}
		c.queue = append(c.queue, p)
		if c.s.hooks.queued != nil {
			c.s.hooks.queued(len(c.queue))
		}
		for !p.done {
			if c.writing {
				c.cond.Wait()
				continue
			}
			c.commit()
		}
		c.mu.Unlock()
		var busy *LeaseError
		if owner != "" || !errors.As(p.err, &busy) {
			return p.first, p.err
		}
		// A shared append found the lease held: wait for it and retry.
		if err := c.s.wait(ctx, c.id, released, busy.Left, attempt); err != nil {
			return 0, err
		}
	}
}

// commit writes the queued appends of the first one's owner in one
// transaction; c.mu held, released while writing.
func (c *core) commit() {
	c.writing = true
	owner := c.queue[0].owner
	var batch, rest []*pending
	for _, p := range c.queue {
		if p.owner == owner {
			batch = append(batch, p)
		} else {
			rest = append(rest, p)
		}
	}
	c.queue = rest
	have := c.have()
	c.mu.Unlock()
	nw, err := c.write(batch, owner, have)
	c.mu.Lock()
	for _, p := range batch {
		p.done = true
		if p.err == nil && err != nil {
			p.err = err
		}
	}
	if err == nil {
		c.apply(nw)
	}
	c.end()
}

// write commits batch, whose appends all run under owner, in one
// transaction: it locks the session row, checks the lease, reads what
// other writers saved since have, and inserts the batches' messages
// contiguously from the log's end, with their checkpoints and undo
// markers. A batch the log cannot take fails alone.
func (c *core) write(batch []*pending, owner string, have counters) (news, error) {
	ctx := context.Background()
	var nw news
	err := pgx.BeginFunc(ctx, c.s.pool, func(tx pgx.Tx) error {
		to, ls, err := scanRow(tx.QueryRow(ctx, selectRow, c.id))
		if errors.Is(err, pgx.ErrNoRows) {
			return fmt.Errorf("%w: session %q has no row", store.ErrCorrupt, c.id)
		}
		if err != nil {
			return err
		}
		switch {
		case owner != "" && (ls.owner == nil || *ls.owner != owner):
			return fmt.Errorf("%w: session %q: this writer's lease was taken over", store.ErrLocked, c.id)
		case owner == "" && c.s.live(ls, ""):
			return c.s.leaseError(c.id, ls)
		}
		if nw, err = c.catchUp(ctx, tx, have, to); err != nil {
			return err
		}
		ids := map[string]bool{}
		for _, cp := range c.cps {
			ids[cp.ID] = true
		}
		for _, cp := range nw.cps {
			ids[cp.ID] = true
		}
		n := to.n
		var msgs [][]byte
		var cpIDs []string
		var cpCounts []int64
		var cpData, undoData [][]byte
		var mine []store.Checkpoint
		var mineUndos []store.Undo
		for _, p := range batch {
			if cp := p.b.Checkpoint; cp != nil {
				if cp.HistoryCount > n+len(p.enc.Messages) {
					p.err = fmt.Errorf("%w: checkpoint %s counts %d messages, the log would hold %d",
						store.ErrInvalidBatch, cp.ID, cp.HistoryCount, n+len(p.enc.Messages))
					continue
				}
				if ids[cp.ID] {
					p.err = fmt.Errorf("%w: session %q, checkpoint %s", ErrDuplicateCheckpoint, c.id, cp.ID)
					continue
				}
				ids[cp.ID] = true
			}
			p.first = n
			n += len(p.enc.Messages)
			msgs = append(msgs, p.enc.Messages...)
			if p.enc.Checkpoint != nil {
				var cp store.Checkpoint
				if err := json.Unmarshal(p.enc.Checkpoint, &cp); err != nil {
					return err
				}
				mine = append(mine, cp)
				cpIDs = append(cpIDs, cp.ID)
				cpCounts = append(cpCounts, int64(cp.HistoryCount))
				cpData = append(cpData, p.enc.Checkpoint)
			}
			if p.enc.Undo != nil {
				var u store.Undo
				if err := json.Unmarshal(p.enc.Undo, &u); err != nil {
					return err
				}
				mineUndos = append(mineUndos, u)
				undoData = append(undoData, p.enc.Undo)
			}
		}
		if n == to.n && len(cpData) == 0 && len(undoData) == 0 {
			return nil // every batch refused
		}
		var b pgx.Batch
		if len(msgs) > 0 {
			b.Queue(`INSERT INTO messages(session, idx, data)
				SELECT $1, $2 + t.i - 1, t.d FROM unnest($3::bytea[]) WITH ORDINALITY AS t(d, i)`, c.id, to.n, msgs)
		}
		if len(cpData) > 0 {
			b.Queue(`INSERT INTO checkpoints(session, seq, id, history_count, data)
				SELECT $1, $2 + t.i - 1, t.id, t.hc, t.d FROM unnest($3::text[], $4::bigint[], $5::bytea[]) WITH ORDINALITY AS t(id, hc, d, i)`,
				c.id, to.cps, cpIDs, cpCounts, cpData)
		}
		if len(undoData) > 0 {
			b.Queue(`INSERT INTO undos(session, seq, data)
				SELECT $1, $2 + t.i - 1, t.d FROM unnest($3::bytea[]) WITH ORDINALITY AS t(d, i)`, c.id, to.undos, undoData)
		}
		next := counters{n, to.cps + len(cpData), to.undos + len(undoData), 0}
		b.Queue(`UPDATE sessions SET messages = $2, checkpoints = $3, undos = $4, version = version + 1, updated = now()
			WHERE id = $1 RETURNING version`, c.id, next.n, next.cps, next.undos).QueryRow(func(row pgx.Row) error {
			return row.Scan(&next.version)
		})
		if err := tx.SendBatch(ctx, &b).Close(); err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && pe.Code == "23505" && pe.ConstraintName == "checkpoints_session_id_key" {
				return fmt.Errorf("%w: session %q: %s", ErrDuplicateCheckpoint, c.id, pe.Detail)
			}
			return err
		}
		for _, p := range batch {
			if p.err == nil && p.with != nil {
				if err := p.with(ctx, tx, p.first); err != nil {
					return err
				}
			}
		}
		nw.to = next
		nw.cps = append(nw.cps, mine...)
		nw.undos = append(nw.undos, mineUndos...)
		return nil
	})
	if err != nil {
		var le *LeaseError
		if errors.As(err, &le) || errors.Is(err, store.ErrLocked) || errors.Is(err, store.ErrCorrupt) || errors.Is(err, store.ErrInvalidBatch) {
			return nw, err
		}
		return nw, fmt.Errorf("postgres store: append to session %q: %w", c.id, err)
	}
	return nw, nil
}

// lockedLog is a session whose lease this store holds: the log Open
// returns (held until Close) and the one SharedLog.Lock returns (Close
// unlocks).
type lockedLog struct {
	c         *core
	owner     string
	exclusive bool // Close closes the session's core too

	mu     sync.Mutex
	closed bool
	// stop asks the renewal goroutine to end; it closes stopped when it
	// has. released is closed once Close has released the lease.
	stop, stopped, released chan struct{}
}

var _ store.Log = (*lockedLog)(nil)

func (l *lockedLog) isClosed() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.closed
}

func (l *lockedLog) Len() int                        { return l.c.Len() }
func (l *lockedLog) Checkpoints() []store.Checkpoint { return l.c.Checkpoints() }
func (l *lockedLog) Undos() []store.Undo             { return l.c.Undos() }
func (l *lockedLog) Version() int64                  { return l.c.Version() }
func (l *lockedLog) Append(ctx context.Context, b store.Batch) (int, error) {
	return l.c.append(ctx, b, l.owner, nil, l.isClosed)
}

// AppendWith is Append, with what with writes committed in the same
// transaction (an event that says the messages were appended): both are
// stored, or neither.
func (l *lockedLog) AppendWith(ctx context.Context, b store.Batch, with WithFunc) (int, error) {
	return l.c.append(ctx, b, l.owner, with, l.isClosed)
}

func (l *lockedLog) Messages(ctx context.Context, from, to int) ([]condense.Message, error) {
	return l.c.messages(ctx, from, to, l.isClosed())
}

// Mark records on the lease what its holder is doing (activity; ""
// clears it), for the processes that find the lease held: a LockUnless
// naming activity fails at once rather than waiting, and every
// *LeaseError carries it. The mark goes with the lease: released, taken
// over or expired, it is gone.
func (l *lockedLog) Mark(ctx context.Context, activity string) error {
	if l.isClosed() {
		return store.ErrClosed
	}
	var mark *string
	if activity != "" {
		mark = &activity
	}
	s := l.c.s
	ct, err := s.leaseExec(ctx, `UPDATE sessions SET lease_activity = $3 WHERE id = $1 AND lease_owner = $2`, l.c.id, l.owner, mark)
	if err == nil && ct.RowsAffected() == 0 {
		err = fmt.Errorf("%w: session %q: the lease was taken over", store.ErrLocked, l.c.id)
	}
	if err != nil {
		return fmt.Errorf("postgres store: mark session %q: %w", l.c.id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.isClosed() {
		return nil // Close drops the mark, or has dropped it
	}
	if activity == "" {
		delete(s.marks, l.c.id)
	} else {
		s.marks[l.c.id] = activity
	}
	s.wakeLocked(l.c.id) // waiters of this store look at the mark again
	return nil
}

// renew renews the lease every TTL/3 until Close stops it.
func (l *lockedLog) renew() {
	defer close(l.stopped)
	s := l.c.s
	var tick <-chan time.Time
	if s.hooks.renewTick != nil {
		tick = s.hooks.renewTick()
	} else {
		t := time.NewTicker(s.ttl / 3)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-l.stop:
			return
		case <-tick:
			ct, err := s.leaseExec(context.Background(), `UPDATE sessions SET lease_expires = now() + $3 * interval '1 millisecond'
				WHERE id = $1 AND lease_owner = $2`, l.c.id, l.owner, s.ttl.Milliseconds())
			if err == nil && ct.RowsAffected() == 0 {
				err = fmt.Errorf("%w: session %q: the lease was taken over", store.ErrLocked, l.c.id)
			}
			if err != nil {
				s.log.Warn("condense/postgres: lease renewal failed", "session", l.c.id, "err", redact.Err(err))
			}
			if s.hooks.renewed != nil {
				s.hooks.renewed(l.c.id, err)
			}
		}
	}
}

func (l *lockedLog) releaseLease() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := l.c.s.leaseExec(ctx, `UPDATE sessions SET lease_owner = NULL, lease_host = NULL, lease_pid = NULL, lease_expires = NULL,
		lease_activity = NULL WHERE id = $1 AND lease_owner = $2`, l.c.id, l.owner)
	if err != nil {
		l.c.s.log.Warn("condense/postgres: lease release failed; it ends when it expires", "session", l.c.id, "err", redact.Err(err))
	}
}

// Close stops the lease renewal, waits for appends under way, releases the
// lease and, for a log Open returned, closes the log. A second Close waits
// for the first.
func (l *lockedLog) Close() error {
	l.mu.Lock()
	first := !l.closed
	l.closed = true
	l.mu.Unlock()
	if !first {
		<-l.released
		return nil
	}
	c := l.c
	c.mu.Lock()
	for c.writing || c.hasQueued(l.owner) {
		c.cond.Wait()
	}
	if l.exclusive {
		c.closed = true
	}
	c.mu.Unlock()
	close(l.stop)
	<-l.stopped
	l.releaseLease()
	s := c.s
	s.mu.Lock()
	delete(s.logs, l)
	s.mu.Unlock()
	s.dropLocal(c.id)
	close(l.released)
	return nil
}

// hasQueued reports whether appends under owner wait in the queue; c.mu
// held.
func (c *core) hasQueued(owner string) bool {
	for _, p := range c.queue {
		if p.owner == owner {
			return true
		}
	}
	return false
}
