package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver

	"github.com/condense-dev/condense/journal"
)

// Store keeps journals in an SQLite database. It is safe for concurrent
// use; appends are serialized.
type Store struct {
	db *sql.DB
}

var _ journal.Store = (*Store)(nil)

const schema = `CREATE TABLE IF NOT EXISTS journal_events (
	run  TEXT    NOT NULL,
	seq  INTEGER NOT NULL,
	kind TEXT    NOT NULL,
	data TEXT    NOT NULL,
	PRIMARY KEY (run, seq)
) WITHOUT ROWID`

// Open opens (creating when needed) the database at path. Commits are
// synced (synchronous=FULL in WAL mode): an append that returned survives
// a crash.
func Open(ctx context.Context, path string) (*Store, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	// Write transactions take the lock when they begin, so a second writer
	// waits out busy_timeout instead of failing when it upgrades.
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("journal/sqlite: %w", err)
	}
	db.SetMaxOpenConns(1)
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("journal/sqlite: %s: %w", path, err)
	}
	// Durability rests on these two settings (condense cannot intercept
	// SQLite's own writes to test it): refuse a database where they did not
	// take, such as a file system without WAL support.
	var mode string
	var sync int
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		db.Close()
		return nil, fmt.Errorf("journal/sqlite: %s: journal_mode is %q, want wal (%v)", path, mode, err)
	}
	if err := db.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil || sync != 2 {
		db.Close()
		return nil, fmt.Errorf("journal/sqlite: %s: synchronous is %d, want 2 (FULL) (%v)", path, sync, err)
	}
	return &Store{db: db}, nil
}

// Append implements journal.Store.
func (s *Store) Append(ctx context.Context, run string, events ...journal.Event) (err error) {
	if err := journal.ValidRun(run); err != nil {
		return err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("journal/sqlite: %w", err)
	}
	defer func() {
		if err != nil {
			tx.Rollback()
		}
	}()
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(seq), 0) FROM journal_events WHERE run = ?`, run).Scan(&n); err != nil {
		return fmt.Errorf("journal/sqlite: %w", err)
	}
	if err := journal.CheckSequence(run, n, events); err != nil {
		return err
	}
	for _, e := range events {
		e.Run = run
		b, err := json.Marshal(e)
		if err != nil {
			return fmt.Errorf("journal/sqlite: encode event %d: %w", e.Seq, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO journal_events (run, seq, kind, data) VALUES (?, ?, ?, ?)`, run, e.Seq, string(e.Kind), string(b)); err != nil {
			return fmt.Errorf("journal/sqlite: %w", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("journal/sqlite: %w", err)
	}
	return nil
}

// Load implements journal.Store.
func (s *Store) Load(ctx context.Context, run string) ([]journal.Event, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT data FROM journal_events WHERE run = ? ORDER BY seq`, run)
	if err != nil {
		return nil, fmt.Errorf("journal/sqlite: %w", err)
	}
	defer rows.Close()
	var evs []journal.Event
	for rows.Next() {
		var data string
		if err := rows.Scan(&data); err != nil {
			return nil, fmt.Errorf("journal/sqlite: %w", err)
		}
		var e journal.Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return nil, fmt.Errorf("journal/sqlite: run %s event %d: %w", run, len(evs)+1, err)
		}
		evs = append(evs, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("journal/sqlite: %w", err)
	}
	if len(evs) == 0 {
		return nil, journal.ErrNotFound
	}
	return evs, nil
}

// Runs implements journal.Store.
func (s *Store) Runs(ctx context.Context) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT run FROM journal_events ORDER BY run`)
	if err != nil {
		return nil, fmt.Errorf("journal/sqlite: %w", err)
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Close closes the database.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil && !errors.Is(err, sql.ErrConnDone) {
		return err
	}
	return nil
}
