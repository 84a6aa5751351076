// Package pgschema connects to PostgreSQL inside one schema and applies
// embedded, versioned migrations there. The session store (store/postgres)
// and the journal store (journal/postgres) share it, so both can live in
// one database and one schema, each with its own migration history.
//
// Migrations are files named NNNN_description.sql in a directory of an
// fs.FS, applied in order of NNNN. Each component's applied versions are
// rows of schema_migrations(component, version). Migrate runs every missing
// migration in one transaction that first takes a transaction-scoped
// advisory lock on the schema, so two processes starting together apply
// each migration once: the second waits for the first, then finds nothing
// left to do. A database migrated by a newer binary (a version this one
// does not know) is refused rather than used blind.
package pgschema

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ErrSchema: a schema name that is not a plain lower-case identifier.
var ErrSchema = errors.New("postgres: invalid schema name")

// ErrNewer: the database holds migrations newer than this binary knows.
var ErrNewer = errors.New("postgres: database schema is newer than this binary")

var schemaRE = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// ValidSchema checks a schema name: 1–63 characters, lower-case letters,
// digits and '_', not starting with a digit (so it never needs quoting).
func ValidSchema(s string) error {
	if !schemaRE.MatchString(s) || strings.HasPrefix(s, "pg_") {
		return fmt.Errorf("%w: %q (want 1-63 of a-z, 0-9, _; not starting with a digit or pg_)", ErrSchema, s)
	}
	return nil
}

// Connect opens a pool on url whose connections use schema as their
// search_path. maxConns ≤ 0 keeps pgxpool's default (or the URL's
// pool_max_conns).
func Connect(ctx context.Context, url, schema string, maxConns int32) (*pgxpool.Pool, error) {
	if err := ValidSchema(schema); err != nil {
		return nil, err
	}
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if maxConns > 0 {
		cfg.MaxConns = maxConns
	}
	cfg.ConnConfig.RuntimeParams["search_path"] = schema
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return pool, nil
}

type migration struct {
	version int
	name    string
	sql     string
}

func load(fsys fs.FS) ([]migration, error) {
	ents, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	var ms []migration
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || path.Ext(name) != ".sql" {
			continue
		}
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("postgres: migration %s: name must be NNNN_description.sql", name)
		}
		raw, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		ms = append(ms, migration{v, name, string(raw)})
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].version < ms[j].version })
	for i := range ms {
		if ms[i].version != i+1 {
			return nil, fmt.Errorf("postgres: migration %s: versions must run 1, 2, 3, … without a gap", ms[i].name)
		}
	}
	return ms, nil
}

// Migrate creates schema when missing and applies component's migrations
// from fsys that the database does not have yet; it returns the version
// the schema is at.
func Migrate(ctx context.Context, pool *pgxpool.Pool, schema, component string, fsys fs.FS) (int, error) {
	if err := ValidSchema(schema); err != nil {
		return 0, err
	}
	ms, err := load(fsys)
	if err != nil {
		return 0, err
	}
	var version int
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		// Serialize migrations of this schema across processes. The lock
		// is released when the transaction ends.
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(hashtext('condense-migrate'), hashtext($1))`, schema); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE SCHEMA IF NOT EXISTS `+schema); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+schema+`.schema_migrations (
			component text NOT NULL,
			version integer NOT NULL,
			name text NOT NULL,
			applied timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (component, version))`); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT COALESCE(max(version), 0) FROM `+schema+`.schema_migrations WHERE component = $1`, component).Scan(&version); err != nil {
			return err
		}
		if version > len(ms) {
			return fmt.Errorf("%w: %s.%s is at version %d, this binary knows %d", ErrNewer, schema, component, version, len(ms))
		}
		if _, err := tx.Exec(ctx, `SET LOCAL search_path TO `+schema); err != nil {
			return err
		}
		for _, m := range ms[version:] {
			if _, err := tx.Exec(ctx, m.sql); err != nil {
				return fmt.Errorf("postgres: migration %s/%s: %w", component, m.name, err)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO `+schema+`.schema_migrations(component, version, name) VALUES ($1, $2, $3)`, component, m.version, m.name); err != nil {
				return err
			}
			version = m.version
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("postgres: migrate %s in schema %s: %w", component, schema, err)
	}
	return version, nil
}
