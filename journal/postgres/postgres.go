// Package postgres is a journal.Store in PostgreSQL: one row per event in
// the table journal_events, keyed by run and sequence number, in the same
// database and schema as the session store (store/postgres) when given
// its pool.
//
// Each Append is one transaction: it reads the run's last sequence number,
// checks that the events continue it, and inserts them; the primary key
// (run, seq) turns a concurrent append to the same run that read the same
// last number into journal.ErrSequence, with nothing stored. The table is
// created by an embedded migration applied when the store opens
// (internal/pgschema: versioned, under an advisory lock).
package postgres

import (
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/condense-dev/condense/internal/pgschema"
	"github.com/condense-dev/condense/journal"
)

//go:embed migrations/*.sql
var migrationFiles embed.FS

// Component names the journal's migrations in schema_migrations.
const Component = "journal"

// DefaultSchema is the schema Open uses when none is given.
const DefaultSchema = "condense"

// Store keeps journals in PostgreSQL. It is safe for concurrent use.
type Store struct {
	pool *pgxpool.Pool
	own  bool // Close closes the pool
}

var _ journal.Store = (*Store)(nil)

// Open connects to url and uses schema (DefaultSchema when empty),
// migrating it.
func Open(ctx context.Context, url, schema string) (*Store, error) {
	if schema == "" {
		schema = DefaultSchema
	}
	pool, err := pgschema.Connect(ctx, url, schema, 0)
	if err != nil {
		return nil, err
	}
	s, err := New(ctx, pool, schema)
	if err != nil {
		pool.Close()
		return nil, err
	}
	s.own = true
	return s, nil
}

// New uses pool, whose connections' search_path is schema (such as the
// session store's Pool), migrating the schema. Close leaves the pool open.
func New(ctx context.Context, pool *pgxpool.Pool, schema string) (*Store, error) {
	sub, _ := fs.Sub(migrationFiles, "migrations")
	if _, err := pgschema.Migrate(ctx, pool, schema, Component, sub); err != nil {
		return nil, err
	}
	return &Store{pool: pool}, nil
}

// Append implements journal.Store.
func (s *Store) Append(ctx context.Context, run string, events ...journal.Event) error {
	if err := journal.ValidRun(run); err != nil {
		return err
	}
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT COALESCE(max(seq), 0) FROM journal_events WHERE run = $1`, run).Scan(&n); err != nil {
			return err
		}
		if err := journal.CheckSequence(run, n, events); err != nil {
			return err
		}
		if len(events) == 0 {
			return nil
		}
		seqs := make([]int64, len(events))
		kinds := make([]string, len(events))
		data := make([]string, len(events))
		for i, e := range events {
			e.Run = run
			b, err := json.Marshal(e)
			if err != nil {
				return fmt.Errorf("encode event %d: %w", e.Seq, err)
			}
			seqs[i], kinds[i], data[i] = e.Seq, string(e.Kind), string(b)
		}
		_, err := tx.Exec(ctx, `INSERT INTO journal_events(run, seq, kind, data)
			SELECT $1, t.seq, t.kind, t.data::json FROM unnest($2::bigint[], $3::text[], $4::text[]) AS t(seq, kind, data)`,
			run, seqs, kinds, data)
		return err
	})
	var pe *pgconn.PgError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, journal.ErrSequence):
		return err
	case errors.As(err, &pe) && pe.Code == "23505":
		return fmt.Errorf("%w: run %s: another writer appended meanwhile", journal.ErrSequence, run)
	}
	return fmt.Errorf("journal/postgres: %w", err)
}

// Load implements journal.Store.
func (s *Store) Load(ctx context.Context, run string) ([]journal.Event, error) {
	rows, _ := s.pool.Query(ctx, `SELECT seq, data::text FROM journal_events WHERE run = $1 ORDER BY seq`, run)
	var evs []journal.Event
	var seq int64
	var data string
	_, err := pgx.ForEachRow(rows, []any{&seq, &data}, func() error {
		var e journal.Event
		if err := json.Unmarshal([]byte(data), &e); err != nil {
			return fmt.Errorf("run %s event %d: %w", run, seq, err)
		}
		evs = append(evs, e)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("journal/postgres: %w", err)
	}
	if len(evs) == 0 {
		return nil, journal.ErrNotFound
	}
	return evs, nil
}

// Runs implements journal.Store.
func (s *Store) Runs(ctx context.Context) ([]string, error) {
	rows, _ := s.pool.Query(ctx, `SELECT run FROM journal_events GROUP BY run ORDER BY run COLLATE "C"`)
	ids, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, fmt.Errorf("journal/postgres: %w", err)
	}
	return ids, nil
}

// Close closes the pool when Open made it.
func (s *Store) Close() error {
	if s.own {
		s.pool.Close()
	}
	return nil
}
