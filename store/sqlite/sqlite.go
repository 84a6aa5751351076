// Package sqlite is the embedded SQLite store, on the pure-Go
// modernc.org/sqlite driver (no cgo).
//
// The database runs in WAL mode with synchronous=FULL: every commit syncs
// the WAL before it returns, so an acknowledged append survives power loss
// (NORMAL in WAL mode would only survive a process crash, and could lose the
// last commits on power loss). That costs one fsync per transaction, so
// concurrent appends — to one session or to many — are batched into shared
// transactions (group commit): one writer goroutine at a time takes
// everything queued and commits it together.
//
// A session open for writing holds a lease row in the database. Another
// Open — in this process or another — gets store.ErrLocked while the lease
// is live: renewed by its holder every few seconds, it expires after
// LeaseTTL, and a lease whose holder process is gone from this host is taken
// over at once. A store renews the leases of all its open sessions
// together, in one transaction (one sync, however many sessions are open).
// Every commit checks, in its transaction, that the lease is still its own.
// Closing a session releases its lease; closing the store closes the
// sessions still open first, then stops the renewal.
//
// Schema (version 1):
//
//	meta(key TEXT PRIMARY KEY, value TEXT)                        -- schema_version = 1
//	messages(session TEXT, idx INTEGER, data BLOB, PRIMARY KEY(session, idx))   -- condense JSON
//	checkpoints(session TEXT, seq INTEGER, id TEXT, data BLOB, PRIMARY KEY(session, seq)) -- store.Checkpoint JSON
//	undos(session TEXT, seq INTEGER, data BLOB, PRIMARY KEY(session, seq))       -- store.Undo JSON
//	leases(session TEXT PRIMARY KEY, owner TEXT, host TEXT, pid INTEGER, expires INTEGER) -- unix ms
package sqlite

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/store"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// insertRows is the most rows one INSERT statement carries.
const insertRows = 200

// LeaseTTL is how long a session's write lease lasts without renewal.
const LeaseTTL = 30 * time.Second

const schema = `
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO meta(key, value) VALUES('schema_version', '1');
CREATE TABLE IF NOT EXISTS messages(session TEXT NOT NULL, idx INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(session, idx)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS checkpoints(session TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, data BLOB NOT NULL, PRIMARY KEY(session, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS undos(session TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL, PRIMARY KEY(session, seq)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leases(session TEXT PRIMARY KEY, owner TEXT NOT NULL, host TEXT NOT NULL, pid INTEGER NOT NULL, expires INTEGER NOT NULL);
`

// Options configure a Store. The zero value is ready to use.
type Options struct {
	Logger *slog.Logger
	// BeforeCommit, when set, is called inside each group transaction
	// before it commits; an error it returns rolls the transaction back
	// (fault injection in tests).
	BeforeCommit func() error
}

// Store is a SQLite database of sessions.
type Store struct {
	db   *sql.DB
	opts Options
	log  *slog.Logger
	host string

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []*pending
	writing bool
	logs    map[*log]struct{} // open logs, until their Close has finished
	closed  bool

	// The lease renewal starts with the first session opened; stop ends
	// it and it closes stopped when it has.
	renewing      bool
	stop, stopped chan struct{}

	hooks hooks
}

// hooks let tests in this package watch and drive what is otherwise
// timed. All nil in use.
type hooks struct {
	// renewTick, when set, replaces the lease renewal ticker.
	renewTick <-chan time.Time
	// renewed is called after each lease renewal with the sessions it
	// renewed and its error.
	renewed func(ids []string, err error)
	// queued is called, with Store.mu held, when an Append joins the
	// queue, with the queue's length.
	queued func(n int)
}

var _ store.Store = (*Store)(nil)

// Open opens (creating) the database at path.
func Open(path string, opts *Options) (*Store, error) {
	q := url.Values{}
	q.Set("_busy_timeout", "10000")
	q.Set("_txlock", "immediate")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(8)
	if _, err := db.Exec(schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("sqlite store %s: %w", path, err)
	}
	// Durability rests on WAL with synchronous=FULL (condense cannot
	// intercept SQLite's own writes to test it): refuse a database where
	// the settings did not take, such as a file system without WAL support.
	var mode string
	var syncMode int
	if err := db.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		db.Close()
		return nil, fmt.Errorf("sqlite store %s: journal_mode is %q, want wal (%v)", path, mode, err)
	}
	if err := db.QueryRow("PRAGMA synchronous").Scan(&syncMode); err != nil || syncMode != 2 {
		db.Close()
		return nil, fmt.Errorf("sqlite store %s: synchronous is %d, want 2 (FULL) (%v)", path, syncMode, err)
	}
	var v string
	if err := db.QueryRow(`SELECT value FROM meta WHERE key = 'schema_version'`).Scan(&v); err != nil || v != "1" {
		db.Close()
		return nil, fmt.Errorf("%w: %s: schema version %q, want 1 (%v)", store.ErrCorrupt, path, v, err)
	}
	s := &Store{db: db}
	if opts != nil {
		s.opts = *opts
	}
	s.log = s.opts.Logger
	if s.log == nil {
		s.log = slog.Default()
	}
	s.host, _ = os.Hostname()
	s.cond = sync.NewCond(&s.mu)
	s.logs = map[*log]struct{}{}
	s.stop, s.stopped = make(chan struct{}), make(chan struct{})
	return s, nil
}

// DB returns the underlying database (read-only use: stats, inspection).
func (s *Store) DB() *sql.DB { return s.db }

// Close closes the logs still open — releasing their leases — stops the
// lease renewal and waits for it, and then closes the database.
func (s *Store) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	open := make([]*log, 0, len(s.logs))
	for l := range s.logs {
		open = append(open, l)
	}
	renewing := s.renewing
	s.mu.Unlock()
	for _, l := range open {
		l.Close()
	}
	close(s.stop)
	if renewing {
		<-s.stopped
	}
	return s.db.Close()
}

func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// Open opens session id for writing, taking its lease.
func (s *Store) Open(ctx context.Context, id string) (store.Log, error) {
	if err := store.ValidID(id); err != nil {
		return nil, err
	}
	s.mu.Lock()
	closed := s.closed
	s.mu.Unlock()
	if closed {
		return nil, store.ErrClosed
	}
	var tok [12]byte
	rand.Read(tok[:])
	l := &log{s: s, id: id, owner: hex.EncodeToString(tok[:]), released: make(chan struct{})}
	if err := l.takeLease(ctx); err != nil {
		return nil, err
	}
	if err := l.load(ctx); err != nil {
		l.releaseLease()
		return nil, err
	}
	s.mu.Lock()
	if s.closed { // closed while this Open took the lease
		s.mu.Unlock()
		l.releaseLease()
		return nil, store.ErrClosed
	}
	s.logs[l] = struct{}{}
	if !s.renewing {
		s.renewing = true
		go s.renew()
	}
	s.mu.Unlock()
	return l, nil
}

var _ store.Log = (*log)(nil)

type log struct {
	s     *Store
	id    string
	owner string

	// guarded by s.mu
	n      int
	cps    []store.Checkpoint
	undos  []store.Undo
	closed bool

	// released is closed once Close has released the lease.
	released chan struct{}
}

type pending struct {
	l     *log
	b     *store.Batch
	msgs  [][]byte
	cp    []byte
	undo  []byte
	first int
	err   error
	done  bool
}

func (l *log) takeLease(ctx context.Context) error {
	tx, err := l.s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	now := time.Now().UnixMilli()
	var owner, host string
	var pid int
	var expires int64
	err = tx.QueryRowContext(ctx, `SELECT owner, host, pid, expires FROM leases WHERE session = ?`, l.id).Scan(&owner, &host, &pid, &expires)
	switch {
	case errors.Is(err, sql.ErrNoRows):
	case err != nil:
		return err
	case expires > now && !(host == l.s.host && !alive(pid)):
		return fmt.Errorf("%w: session %q is leased by process %d on %s until %s", store.ErrLocked, l.id, pid, host,
			time.UnixMilli(expires).UTC().Format(time.RFC3339))
	}
	if _, err := tx.ExecContext(ctx, `INSERT OR REPLACE INTO leases(session, owner, host, pid, expires) VALUES(?, ?, ?, ?, ?)`,
		l.id, l.owner, l.s.host, os.Getpid(), now+LeaseTTL.Milliseconds()); err != nil {
		return err
	}
	return tx.Commit()
}

// renew renews the leases of the open sessions every LeaseTTL/6 until
// Store.Close stops it; Store.Close waits for it before it closes the
// database. A renewal racing with a session's Close is harmless: it
// updates only a lease row that is still the session's own.
func (s *Store) renew() {
	defer close(s.stopped)
	tick := s.hooks.renewTick
	if tick == nil {
		t := time.NewTicker(LeaseTTL / 6)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case <-s.stop:
			return
		case <-tick:
			ids, err := s.renewLeases()
			if err != nil {
				s.log.Warn("condense/sqlite: lease renewal failed", "sessions", len(ids), "err", redact.Err(err))
			}
			if s.hooks.renewed != nil {
				s.hooks.renewed(ids, err)
			}
		}
	}
}

// renewLeases extends the leases of the open sessions in one transaction
// and returns the sessions'.
func (s *Store) renewLeases() ([]string, error) {
	s.mu.Lock()
	var open []*log
	for l := range s.logs {
		if !l.closed {
			open = append(open, l)
		}
	}
	s.mu.Unlock()
	ids := make([]string, len(open))
	for i, l := range open {
		ids[i] = l.id
	}
	if len(open) == 0 {
		return ids, nil
	}
	tx, err := s.db.Begin()
	if err != nil {
		return ids, err
	}
	defer tx.Rollback()
	st, err := tx.Prepare(`UPDATE leases SET expires = ? WHERE session = ? AND owner = ?`)
	if err != nil {
		return ids, err
	}
	defer st.Close()
	expires := time.Now().Add(LeaseTTL).UnixMilli()
	for _, l := range open {
		if _, err := st.Exec(expires, l.id, l.owner); err != nil {
			return ids, err
		}
	}
	return ids, tx.Commit()
}

func (l *log) releaseLease() {
	l.s.db.Exec(`DELETE FROM leases WHERE session = ? AND owner = ?`, l.id, l.owner)
}

func (l *log) load(ctx context.Context) error {
	var n int
	if err := l.s.db.QueryRowContext(ctx, `SELECT COALESCE(MAX(idx) + 1, 0) FROM messages WHERE session = ?`, l.id).Scan(&n); err != nil {
		return err
	}
	var cps []store.Checkpoint
	err := l.eachRow(ctx, `SELECT seq, data FROM checkpoints WHERE session = ? ORDER BY seq`, func(seq int, data []byte) error {
		var cp store.Checkpoint
		if err := json.Unmarshal(data, &cp); err != nil {
			return fmt.Errorf("%w: session %q checkpoint row %d: %v", store.ErrCorrupt, l.id, seq, err)
		}
		cps = append(cps, cp)
		return nil
	})
	if err != nil {
		return err
	}
	var undos []store.Undo
	err = l.eachRow(ctx, `SELECT seq, data FROM undos WHERE session = ? ORDER BY seq`, func(seq int, data []byte) error {
		var u store.Undo
		if err := json.Unmarshal(data, &u); err != nil {
			return fmt.Errorf("%w: session %q undo row %d: %v", store.ErrCorrupt, l.id, seq, err)
		}
		undos = append(undos, u)
		return nil
	})
	if err != nil {
		return err
	}
	l.s.mu.Lock()
	l.n, l.cps, l.undos = n, cps, undos
	l.s.mu.Unlock()
	return nil
}

// eachRow runs query, which selects (seq, data) for the session, and calls
// f on each row in order. It closes the rows and reports an error that
// ended the iteration early (rows.Err).
func (l *log) eachRow(ctx context.Context, query string, f func(seq int, data []byte) error) error {
	rows, err := l.s.db.QueryContext(ctx, query, l.id)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var seq int
		var data []byte
		if err := rows.Scan(&seq, &data); err != nil {
			return err
		}
		if err := f(seq, data); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (l *log) Len() int {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	return l.n
}

func (l *log) Checkpoints() []store.Checkpoint {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	return append([]store.Checkpoint(nil), l.cps...)
}

func (l *log) Undos() []store.Undo {
	l.s.mu.Lock()
	defer l.s.mu.Unlock()
	return append([]store.Undo(nil), l.undos...)
}

func (l *log) Messages(ctx context.Context, from, to int) ([]condense.Message, error) {
	l.s.mu.Lock()
	n, closed := l.n, l.closed
	l.s.mu.Unlock()
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
	rows, err := l.s.db.QueryContext(ctx, `SELECT idx, data FROM messages WHERE session = ? AND idx >= ? AND idx < ? ORDER BY idx`, l.id, from, to)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var idx int
		var data []byte
		if err := rows.Scan(&idx, &data); err != nil {
			return nil, err
		}
		if idx != from+len(out) {
			return nil, fmt.Errorf("%w: session %q: message %d missing", store.ErrCorrupt, l.id, from+len(out))
		}
		var m condense.Message
		if err := m.UnmarshalJSON(data); err != nil {
			return nil, fmt.Errorf("%w: session %q message %d: %v", store.ErrCorrupt, l.id, idx, err)
		}
		out = append(out, m)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(out) != to-from {
		return nil, fmt.Errorf("%w: session %q: message %d missing", store.ErrCorrupt, l.id, from+len(out))
	}
	return out, nil
}

// Append queues b and waits for the group transaction that commits it.
func (l *log) Append(ctx context.Context, b store.Batch) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	p := &pending{l: l, b: &b}
	enc, err := store.Encode(b)
	if err != nil {
		return 0, err
	}
	p.msgs, p.cp, p.undo = enc.Messages, enc.Checkpoint, enc.Undo
	s := l.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if l.closed {
		return 0, store.ErrClosed
	}
	if b.Empty() {
		return l.n, nil
	}
	s.queue = append(s.queue, p)
	if s.hooks.queued != nil {
		s.hooks.queued(len(s.queue))
	}
	for !p.done {
		if s.writing {
			s.cond.Wait()
			continue
		}
		s.commit()
	}
	return p.first, p.err
}

// commit writes everything queued in one transaction; s.mu held, released
// while writing.
func (s *Store) commit() {
	s.writing = true
	batch := s.queue
	s.queue = nil
	next := map[*log]int{}
	for _, p := range batch {
		if _, ok := next[p.l]; !ok {
			next[p.l] = p.l.n
		}
	}
	s.mu.Unlock()

	var ok []*pending
	for _, p := range batch {
		n := next[p.l]
		if p.b.Checkpoint != nil && p.b.Checkpoint.HistoryCount > n+len(p.msgs) {
			p.err = fmt.Errorf("%w: checkpoint %s counts %d messages, the log would hold %d",
				store.ErrInvalidBatch, p.b.Checkpoint.ID, p.b.Checkpoint.HistoryCount, n+len(p.msgs))
			continue
		}
		p.first = n
		next[p.l] = n + len(p.msgs)
		ok = append(ok, p)
	}
	err := s.write(ok)

	s.mu.Lock()
	for _, p := range batch {
		p.done = true
		if p.err != nil {
			continue
		}
		if err != nil {
			p.err = err
			continue
		}
		l := p.l
		l.n = p.first + len(p.msgs)
		if p.cp != nil {
			var cp store.Checkpoint
			if json.Unmarshal(p.cp, &cp) == nil {
				l.cps = append(l.cps, cp)
			}
		}
		if p.undo != nil {
			var u store.Undo
			if json.Unmarshal(p.undo, &u) == nil {
				l.undos = append(l.undos, u)
			}
		}
	}
	s.writing = false
	s.cond.Broadcast()
}

func (s *Store) write(ps []*pending) (err error) {
	if len(ps) == 0 {
		return nil
	}
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	// Messages go in multi-row INSERTs of up to insertRows rows.
	var args []any
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		q := "INSERT INTO messages(session, idx, data) VALUES" + strings.Repeat("(?, ?, ?),", len(args)/3-1) + "(?, ?, ?)"
		_, err := tx.ExecContext(ctx, q, args...)
		args = args[:0]
		return err
	}
	// Check every session's lease first: a session whose lease was taken
	// over fails alone, and the others of the group still commit.
	lost := map[*log]error{}
	checked := map[*log]bool{}
	for _, p := range ps {
		l := p.l
		if checked[l] {
			continue
		}
		checked[l] = true
		var owner string
		qerr := tx.QueryRowContext(ctx, `SELECT owner FROM leases WHERE session = ?`, l.id).Scan(&owner)
		if qerr != nil && !errors.Is(qerr, sql.ErrNoRows) {
			return qerr
		}
		if qerr != nil || owner != l.owner {
			lost[l] = fmt.Errorf("%w: session %q: this writer's lease was taken over (%v)", store.ErrLocked, l.id, qerr)
		}
	}
	if len(lost) > 0 {
		keep := ps[:0:0]
		for _, p := range ps {
			if e := lost[p.l]; e != nil {
				p.err = e
				continue
			}
			keep = append(keep, p)
		}
		ps = keep
	}
	for _, p := range ps {
		l := p.l
		for i, raw := range p.msgs {
			args = append(args, l.id, p.first+i, raw)
			if len(args) >= 3*insertRows {
				if err := flush(); err != nil {
					return err
				}
			}
		}
		if p.cp != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO checkpoints(session, seq, id, data)
				VALUES(?, (SELECT COALESCE(MAX(seq) + 1, 0) FROM checkpoints WHERE session = ?), ?, ?)`,
				l.id, l.id, p.b.Checkpoint.ID, p.cp); err != nil {
				return err
			}
		}
		if p.undo != nil {
			if _, err := tx.ExecContext(ctx, `INSERT INTO undos(session, seq, data)
				VALUES(?, (SELECT COALESCE(MAX(seq) + 1, 0) FROM undos WHERE session = ?), ?)`,
				l.id, l.id, p.undo); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	if s.opts.BeforeCommit != nil {
		if err := s.opts.BeforeCommit(); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Close stops the lease renewal, waits for it and releases the lease. A
// second Close (Store.Close closes the logs still open) waits for the
// first to finish.
func (l *log) Close() error {
	l.s.mu.Lock()
	for l.s.writing {
		l.s.cond.Wait()
	}
	first := !l.closed
	l.closed = true
	l.s.mu.Unlock()
	if !first {
		<-l.released
		return nil
	}
	l.releaseLease()
	l.s.mu.Lock()
	delete(l.s.logs, l)
	l.s.mu.Unlock()
	close(l.released)
	return nil
}
