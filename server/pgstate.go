package server

import (
	"context"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/postgres"
)

//go:embed pgmigrations/*.sql
var pgMigrations embed.FS

// pgStateOptions configure the PostgreSQL state.
type pgStateOptions struct {
	// Schema holds the tables; "" means the connection's current schema.
	Schema string
	Keep   int
	Tokens map[string]string
	Now    func() time.Time
	Logger *slog.Logger
}

// pgState is the server's state in PostgreSQL, shared by every replica
// that uses the same database and schema: records, usage series, events
// and logins in tables (pgmigrations), and one LISTEN connection per
// replica that hears which session has a new event or a changed record.
// Notifications carry only ids; the data is read from the tables.
type pgState struct {
	pool    *pgxpool.Pool
	schema  string
	q       *strings.Replacer // "@." → the quoted schema
	channel string
	keep    int
	now     func() time.Time
	log     *slog.Logger
	lg      *pgLogins
	usageN  atomic.Int64

	mu      sync.Mutex
	streams map[string]*pgEventStream
	onRec   func(id string)
	stop    context.CancelFunc
	done    chan struct{}
	ready   chan struct{} // closed once the listener has listened (or given up)
	closed  bool
}

// openPGState applies the migrations, drops the logins whose token is
// gone and starts listening.
func openPGState(ctx context.Context, pool *pgxpool.Pool, o *pgStateOptions) (*pgState, error) {
	schema := o.Schema
	if schema == "" {
		if err := pool.QueryRow(ctx, "SELECT current_schema()").Scan(&schema); err != nil {
			return nil, fmt.Errorf("server state: %w", err)
		}
	}
	sum := sha256.Sum256([]byte(schema))
	p := &pgState{
		pool: pool, schema: schema, q: strings.NewReplacer("@.", pgx.Identifier{schema}.Sanitize()+"."),
		channel: "condense_" + hex.EncodeToString(sum[:8]), keep: o.Keep, now: o.Now, log: o.Logger,
		streams: map[string]*pgEventStream{}, done: make(chan struct{}), ready: make(chan struct{}),
	}
	if err := p.migrate(ctx); err != nil {
		return nil, fmt.Errorf("server state: migrations: %w", err)
	}
	lg, err := openPGLogins(ctx, p, o.Tokens)
	if err != nil {
		return nil, fmt.Errorf("logins: %w", err)
	}
	p.lg = lg
	lctx, stop := context.WithCancel(context.Background())
	p.stop = stop
	go p.listen(lctx)
	select {
	case <-p.ready:
	case <-ctx.Done():
		p.close()
		return nil, ctx.Err()
	}
	return p, nil
}

// sql puts the schema into a statement.
func (p *pgState) sql(s string) string { return p.q.Replace(s) }

// migrate applies the embedded migrations not applied yet, in order, in
// one transaction under an advisory lock, so replicas that start together
// apply each once.
func (p *pgState) migrate(ctx context.Context) error {
	names, err := fs.Glob(pgMigrations, "pgmigrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(names)
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "condense_server_migrations "+p.schema); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+pgx.Identifier{p.schema}.Sanitize()); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, p.sql(`CREATE TABLE IF NOT EXISTS @.condense_server_migrations (
		version int PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())`)); err != nil {
		return err
	}
	var have int
	if err := tx.QueryRow(ctx, p.sql("SELECT coalesce(max(version), 0) FROM @.condense_server_migrations")).Scan(&have); err != nil {
		return err
	}
	for _, name := range names {
		base := strings.TrimPrefix(name, "pgmigrations/")
		v, err := strconv.Atoi(strings.SplitN(base, "_", 2)[0])
		if err != nil {
			return fmt.Errorf("migration %s: no version number", base)
		}
		if v <= have {
			continue
		}
		body, err := pgMigrations.ReadFile(name)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, p.sql(string(body))); err != nil {
			return fmt.Errorf("migration %s: %w", base, err)
		}
		if _, err := tx.Exec(ctx, p.sql("INSERT INTO @.condense_server_migrations (version, name) VALUES ($1, $2)"), v, base); err != nil {
			return err
		}
	}
	return tx.Commit(ctx)
}

// listen holds a connection that listens on the state's channel and hands
// each notification to its session's stream or to the record watcher. A
// lost connection is made again; the streams then read what they may have
// missed.
func (p *pgState) listen(ctx context.Context) {
	defer close(p.done)
	readyOnce := sync.OnceFunc(func() { close(p.ready) })
	defer readyOnce()
	backoff := 50 * time.Millisecond
	first := true
	for ctx.Err() == nil {
		err := p.listenOnce(ctx, readyOnce, !first)
		first = false
		if ctx.Err() != nil {
			return
		}
		p.log.Warn("condense/server: listening for other replicas' events failed; listening again", "err", redact.Err(err))
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C:
		}
		backoff = min(2*backoff, 5*time.Second)
	}
}

func (p *pgState) listenOnce(ctx context.Context, ready func(), again bool) error {
	pc, err := p.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	// The connection is not given back to the pool: it listens.
	conn := pc.Hijack()
	defer conn.Close(context.Background())
	if _, err := conn.Exec(ctx, "LISTEN "+pgx.Identifier{p.channel}.Sanitize()); err != nil {
		return err
	}
	ready()
	if again {
		// Notifications sent while no one listened are lost: every
		// stream looks at the table again.
		p.mu.Lock()
		for _, st := range p.streams {
			st.poke(1 << 62)
		}
		p.mu.Unlock()
	}
	for {
		n, err := conn.WaitForNotification(ctx)
		if err != nil {
			return err
		}
		p.dispatch(n.Payload)
	}
}

// dispatch handles one notification: "e SESSION ID" (an event) or
// "r SESSION" (a record changed or removed).
func (p *pgState) dispatch(payload string) {
	kind, rest, _ := strings.Cut(payload, " ")
	switch kind {
	case "e":
		sess, idText, _ := strings.Cut(rest, " ")
		id, err := strconv.ParseInt(idText, 10, 64)
		if err != nil {
			return
		}
		p.mu.Lock()
		st := p.streams[sess]
		p.mu.Unlock()
		if st != nil {
			st.poke(id)
		}
	case "r":
		p.mu.Lock()
		fn := p.onRec
		p.mu.Unlock()
		if fn != nil {
			go fn(rest)
		}
	}
}

func (p *pgState) shared() bool { return true }

func (p *pgState) watch(fn func(id string)) {
	p.mu.Lock()
	p.onRec = fn
	p.mu.Unlock()
}

func (p *pgState) close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	p.mu.Unlock()
	p.stop()
	<-p.done
	return nil
}

func (p *pgState) records(ctx context.Context) ([]*record, error) {
	rows, err := p.pool.Query(ctx, p.sql("SELECT id, owner, created, config FROM @.condense_server_sessions ORDER BY id"))
	if err != nil {
		return nil, err
	}
	recs, err := pgx.CollectRows(rows, scanRecord)
	if err != nil {
		return nil, err
	}
	byID := map[string]*record{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	rows, err = p.pool.Query(ctx, p.sql(`SELECT session, point FROM (
		SELECT session, point, seq, row_number() OVER (PARTITION BY session ORDER BY seq DESC) AS n FROM @.condense_server_usage) u
		WHERE n <= $1 ORDER BY session, seq`), maxSeries)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var pt UsagePoint
		if err := rows.Scan(&id, &pt); err != nil {
			return nil, err
		}
		if r := byID[id]; r != nil {
			r.Series = append(r.Series, pt)
		}
	}
	return recs, rows.Err()
}

func scanRecord(row pgx.CollectableRow) (*record, error) {
	var r record
	if err := row.Scan(&r.ID, &r.Owner, &r.Created, &r.Config); err != nil {
		return nil, err
	}
	r.Created = r.Created.UTC()
	return &r, nil
}

func (p *pgState) record(ctx context.Context, id string) (*record, error) {
	rows, err := p.pool.Query(ctx, p.sql("SELECT id, owner, created, config FROM @.condense_server_sessions WHERE id = $1"), id)
	if err != nil {
		return nil, err
	}
	r, err := pgx.CollectExactlyOneRow(rows, scanRecord)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	r.Series, _, err = p.series(ctx, id)
	return r, err
}

// put writes the record and tells the other replicas.
func (p *pgState) put(ctx context.Context, rec *record) error {
	if err := store.ValidID(rec.ID); err != nil {
		return err
	}
	_, err := p.pool.Exec(ctx, p.sql(`WITH w AS (
		INSERT INTO @.condense_server_sessions (id, owner, created, config) VALUES ($1, $2, $3, $4)
		ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, config = excluded.config RETURNING id)
		SELECT pg_notify($5, 'r ' || id) FROM w`), rec.ID, rec.Owner, rec.Created, rec.Config, p.channel)
	return err
}

func (p *pgState) remove(ctx context.Context, id string) error {
	tx, err := p.pool.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	for _, t := range []string{"sessions WHERE id", "usage WHERE session", "events WHERE session", "event_heads WHERE session"} {
		if _, err := tx.Exec(ctx, p.sql("DELETE FROM @.condense_server_"+t+" = $1"), id); err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, "SELECT pg_notify($1, $2)", p.channel, "r "+id); err != nil {
		return err
	}
	return tx.Commit(ctx)
}

// addUsage inserts the point; now and then the session's series is cut to
// the last maxSeries points.
func (p *pgState) addUsage(ctx context.Context, rec *record, pt UsagePoint) error {
	if _, err := p.pool.Exec(ctx, p.sql("INSERT INTO @.condense_server_usage (session, point) VALUES ($1, $2)"), rec.ID, pt); err != nil {
		return err
	}
	if p.usageN.Add(1)%256 == 0 {
		_, err := p.pool.Exec(ctx, p.sql(`DELETE FROM @.condense_server_usage WHERE session = $1 AND seq <=
			(SELECT seq FROM @.condense_server_usage WHERE session = $1 ORDER BY seq DESC OFFSET $2 LIMIT 1)`), rec.ID, maxSeries)
		return err
	}
	return nil
}

func (p *pgState) releaseUsage(string) {}

func (p *pgState) series(ctx context.Context, id string) ([]UsagePoint, bool, error) {
	rows, err := p.pool.Query(ctx, p.sql("SELECT point FROM @.condense_server_usage WHERE session = $1 ORDER BY seq DESC LIMIT $2"), id, maxSeries)
	if err != nil {
		return nil, true, err
	}
	out, err := pgx.CollectRows(rows, pgx.RowTo[UsagePoint])
	if err != nil {
		return nil, true, err
	}
	slices.Reverse(out)
	return out, true, nil
}

func (p *pgState) logins() loginStore { return p.lg }

// openEvents opens a session's stream: the last kept events, read from the
// table, and what other replicas publish from then on.
func (p *pgState) openEvents(id string) (eventStream, error) {
	st := &pgEventStream{p: p, id: id, changed: make(chan struct{})}
	p.mu.Lock()
	if old := p.streams[id]; old != nil {
		p.mu.Unlock()
		return nil, fmt.Errorf("server state: the events of %s are open already", id)
	}
	p.streams[id] = st
	p.mu.Unlock()
	ctx := context.Background()
	var kept []Event
	rows, err := p.pool.Query(ctx, p.sql(`SELECT id, type, time, data::text FROM (
		SELECT * FROM @.condense_server_events WHERE session = $1 ORDER BY id DESC LIMIT $2) e ORDER BY id`), id, p.keep)
	if err == nil {
		kept, err = pgx.CollectRows(rows, scanEvent)
	}
	if err != nil {
		p.mu.Lock()
		delete(p.streams, id)
		p.mu.Unlock()
		return nil, err
	}
	// The stream hears notifications already (poke): what it reads is set
	// under its lock.
	st.mu.Lock()
	st.kept = kept
	if n := len(kept); n > 0 {
		st.last = kept[n-1].ID
	}
	st.mu.Unlock()
	return st, nil
}

func scanEvent(row pgx.CollectableRow) (Event, error) {
	var ev Event
	var data string
	if err := row.Scan(&ev.ID, &ev.Type, &ev.Time, &data); err != nil {
		return Event{}, err
	}
	ev.Time = ev.Time.UTC()
	ev.Data = json.RawMessage(data)
	return ev, nil
}

// pgEventStream is a session's events on one replica: those it has read
// from the table, kept in memory, and the newest id it has heard of. A
// notification only records that id and wakes the clients waiting; the
// first of them to ask reads the new events.
type pgEventStream struct {
	p  *pgState
	id string

	fetchMu sync.Mutex // one read of the table at a time

	mu       sync.Mutex
	kept     []Event
	last     int64 // the newest event read
	heard    int64 // the newest event notified
	changed  chan struct{}
	closed   bool
	lastWarn time.Time
}

// publish inserts the event and notifies every replica (insert); the
// event is shown once it is committed (shown).
func (l *pgEventStream) publish(typ string, data any, _ bool) {
	ev := l.event(typ, data)
	id, err := l.insert(context.Background(), l.p.pool, ev)
	if err != nil {
		l.p.log.Warn("condense/server: an event was not stored", "session", l.id, "type", typ, "err", redact.Err(err))
		return
	}
	ev.ID = id
	l.shown(ev)
}

// event makes an event of typ with data, stamped now; its id is given
// when it is inserted.
func (l *pgEventStream) event(typ string, data any) Event {
	raw, err := json.Marshal(data)
	if err != nil {
		raw = []byte("null")
	}
	return Event{Type: typ, Time: l.p.now().UTC().Truncate(time.Microsecond), Data: raw}
}

// queryRower is a pool or a transaction.
type queryRower interface {
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// insert inserts ev, its id the session's next (given under the session's
// head row, so ids commit in order), and notifies every replica in the
// same statement; in a transaction (q), both happen when it commits.
func (l *pgEventStream) insert(ctx context.Context, q queryRower, ev Event) (int64, error) {
	var id int64
	err := q.QueryRow(ctx, l.p.sql(`WITH h AS (
		INSERT INTO @.condense_server_event_heads AS h (session, last) VALUES ($1, 1)
		ON CONFLICT (session) DO UPDATE SET last = h.last + 1 RETURNING last),
	e AS (INSERT INTO @.condense_server_events (session, id, type, time, data) SELECT $1, last, $2, $3, $4::json FROM h RETURNING id)
	SELECT e.id FROM e CROSS JOIN LATERAL (SELECT pg_notify($5, 'e ' || $1 || ' ' || e.id)) n`),
		l.id, ev.Type, ev.Time, string(ev.Data), l.p.channel).Scan(&id)
	return id, err
}

// appendedWith returns what writes the appended event of msgs in the
// append's own transaction (postgres.SharedLog.AppendWith), so that a
// crash cannot keep the messages and lose their event; shown shows it
// here once the append has committed.
func (l *pgEventStream) appendedWith(msgs []condense.Message) (with postgres.WithFunc, shown func()) {
	var ev Event
	with = func(ctx context.Context, tx pgx.Tx, first int) error {
		ev = l.event(EventAppended, appendedData(first, msgs))
		id, err := l.insert(ctx, tx, ev)
		ev.ID = id
		return err
	}
	return with, func() { l.shown(ev) }
}

// shown shows a committed event: kept when it is the next, else read
// with what committed before it. Now and then the oldest events go.
func (l *pgEventStream) shown(ev Event) {
	id := ev.ID
	if id%256 == 0 {
		if _, err := l.p.pool.Exec(context.Background(), l.p.sql("DELETE FROM @.condense_server_events WHERE session = $1 AND id <= $2"), l.id, id-int64(2*l.p.keep)); err != nil {
			l.p.log.Warn("condense/server: old events not deleted", "session", l.id, "err", redact.Err(err))
		}
	}
	l.mu.Lock()
	if id == l.last+1 {
		// Every id below this one committed first: it is the next.
		l.add(ev)
		l.heard = max(l.heard, id)
		l.wake()
		l.mu.Unlock()
		return
	}
	l.heard = max(l.heard, id)
	l.mu.Unlock()
	l.fetch()
}

// add keeps ev; l.mu held.
func (l *pgEventStream) add(ev Event) {
	l.kept = append(l.kept, ev)
	l.last = ev.ID
	if keep := l.p.keep; len(l.kept) > 2*keep {
		l.kept = append([]Event(nil), l.kept[len(l.kept)-keep:]...)
	}
}

// wake tells the waiting clients; l.mu held.
func (l *pgEventStream) wake() {
	close(l.changed)
	l.changed = make(chan struct{})
}

// poke records that event id exists and wakes the clients waiting.
func (l *pgEventStream) poke(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id <= l.last || l.closed {
		return
	}
	l.heard = max(l.heard, id)
	l.wake()
}

// fetch reads the events newer than the newest read.
func (l *pgEventStream) fetch() {
	l.fetchMu.Lock()
	defer l.fetchMu.Unlock()
	l.mu.Lock()
	from, closed := l.last, l.closed
	l.mu.Unlock()
	if closed {
		return
	}
	rows, err := l.p.pool.Query(context.Background(), l.p.sql(`SELECT id, type, time, data::text FROM @.condense_server_events
		WHERE session = $1 AND id > $2 ORDER BY id LIMIT $3`), l.id, from, 2*l.p.keep)
	var evs []Event
	if err == nil {
		evs, err = pgx.CollectRows(rows, scanEvent)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err != nil {
		if time.Since(l.lastWarn) > time.Minute {
			l.lastWarn = time.Now()
			l.p.log.Warn("condense/server: reading events failed", "session", l.id, "err", redact.Err(err))
		}
		return
	}
	if len(evs) > 0 && evs[0].ID > from+1 {
		// Events pruned before this replica read them: start over after
		// the gap.
		l.kept = nil
	}
	for _, ev := range evs {
		if ev.ID > l.last {
			l.add(ev)
		}
	}
	if l.heard >= 1<<62 || l.heard < l.last {
		l.heard = l.last
	}
	if len(evs) > 0 {
		l.wake()
	}
}

// stale reports whether events were heard of that are not read yet.
func (l *pgEventStream) stale() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.heard > l.last
}

func (l *pgEventStream) after(id int64) ([]Event, bool, <-chan struct{}) {
	if l.stale() {
		l.fetch()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	kept := l.kept
	if len(kept) > l.p.keep {
		kept = kept[len(kept)-l.p.keep:]
	}
	var evs []Event
	gap := false
	for i := range kept {
		if kept[i].ID > id {
			if id > 0 && kept[i].ID > id+1 && i == 0 {
				gap = true
			}
			evs = append(evs, kept[i:]...)
			break
		}
	}
	return evs, gap, l.changed
}

func (l *pgEventStream) appendedTo() (int, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return appendedEnd(l.kept, l.p.keep)
}

func (l *pgEventStream) lastID() int64 {
	if l.stale() {
		l.fetch()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last
}

func (l *pgEventStream) close() {
	l.p.mu.Lock()
	if l.p.streams[l.id] == l {
		delete(l.p.streams, l.id)
	}
	l.p.mu.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed = true
		l.wake()
	}
}
