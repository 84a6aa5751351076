package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/condense-dev/condense/journal"
	jpostgres "github.com/condense-dev/condense/journal/postgres"
	jsqlite "github.com/condense-dev/condense/journal/sqlite"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/postgres"
	"github.com/condense-dev/condense/store/sqlite"
)

// Backend is where a server keeps everything: the sessions' logs and
// checkpoints (Store), the hosted runs' journals (Journal) and the server's
// own state (StateDir: each session's settings and owner, its event
// stream).
//
// With PostgreSQL (Postgres set) all of it is in the database, StateDir
// unused, so that replicas serve the same sessions.
type Backend struct {
	Store    store.Store
	Journal  journal.Store
	StateDir string
	// Postgres is the PostgreSQL store when the backend is one (Store is
	// then Postgres itself), nil otherwise. The server then opens sessions
	// in its shared mode and keeps its own state in the same database and
	// schema rather than in StateDir, so that replicas serve the same
	// sessions (docs/server.md, Replicas on PostgreSQL).
	Postgres *postgres.Store
	// Describe says where, for logs ("sqlite:/…/condense.db").
	Describe string
}

// Close closes the stores.
func (b *Backend) Close() error {
	return errors.Join(b.Journal.Close(), b.Store.Close())
}

// DefaultStorePath is the SQLite file used when no --store is given:
// condense/condense.db under the user's data directory ($XDG_DATA_HOME, else
// ~/.local/share; the platform's application-data directory elsewhere).
func DefaultStorePath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "condense", "condense.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		d, cerr := os.UserConfigDir()
		if cerr != nil {
			return "", fmt.Errorf("no data directory: %w", err)
		}
		return filepath.Join(d, "condense", "condense.db"), nil
	}
	return filepath.Join(home, ".local", "share", "condense", "condense.db"), nil
}

// OpenBackend opens the backend a store URL names:
//
//	""                      SQLite at DefaultStorePath
//	sqlite:PATH             a SQLite file (sqlite://PATH too)
//	jsonl:DIR               a directory of JSONL files (jsonl://DIR too)
//	PATH ending .db, .sqlite or .sqlite3   a SQLite file
//	postgres://… or postgresql://…         a PostgreSQL database
//	any other PATH          a JSONL directory
//
// A SQLite store keeps journals in the same database and the server's state
// in the directory PATH + ".server"; a JSONL store keeps both in DIR, under
// "journals" and ".server" (names no session id can take). A PostgreSQL
// store keeps sessions and journals in the schema the URL's schema
// parameter names (default "condense"; the parameter is the store's, not
// passed to the server) and the server's own state in the same schema.
func OpenBackend(ctx context.Context, url string, logger *slog.Logger) (*Backend, error) {
	kind, path, err := parseStoreURL(url)
	if err != nil {
		return nil, err
	}
	switch kind {
	case "postgres":
		return openPostgres(ctx, path, logger)
	case "sqlite":
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		st, err := sqlite.Open(path, &sqlite.Options{Logger: logger})
		if err != nil {
			return nil, err
		}
		js, err := jsqlite.Open(ctx, path)
		if err != nil {
			st.Close()
			return nil, err
		}
		return &Backend{Store: st, Journal: js, StateDir: path + ".server", Describe: "sqlite:" + path}, nil
	default:
		if err := os.MkdirAll(path, 0o700); err != nil {
			return nil, err
		}
		st, err := jsonl.Open(path, &jsonl.Options{Logger: logger})
		if err != nil {
			return nil, err
		}
		js, err := journal.OpenDir(filepath.Join(path, ".journals"))
		if err != nil {
			st.Close()
			return nil, err
		}
		return &Backend{Store: st, Journal: js, StateDir: filepath.Join(path, ".server"), Describe: "jsonl:" + path}, nil
	}
}

// openPostgres opens sessions and journals in one pool on the database at
// url, in the schema its schema parameter names.
func openPostgres(ctx context.Context, url string, logger *slog.Logger) (*Backend, error) {
	u, err := neturl.Parse(url)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	q := u.Query()
	schema := q.Get("schema")
	if schema == "" {
		schema = postgres.DefaultSchema
	}
	q.Del("schema")
	u.RawQuery = q.Encode()
	st, err := postgres.Open(ctx, u.String(), &postgres.Options{Schema: schema, Logger: logger})
	if err != nil {
		return nil, err
	}
	js, err := jpostgres.New(ctx, st.Pool(), schema)
	if err != nil {
		st.Close()
		return nil, err
	}
	u.User = nil // no password in logs
	u.RawQuery = ""
	if schema != postgres.DefaultSchema {
		u.RawQuery = "schema=" + schema
	}
	return &Backend{Store: st, Journal: js, Describe: u.String(), Postgres: st}, nil
}

// parseStoreURL splits a store URL into its kind ("sqlite", "jsonl",
// "postgres") and path (for PostgreSQL, the URL).
func parseStoreURL(url string) (kind, path string, err error) {
	switch {
	case url == "":
		p, err := DefaultStorePath()
		return "sqlite", p, err
	case strings.HasPrefix(url, "sqlite://"):
		kind, path = "sqlite", strings.TrimPrefix(url, "sqlite://")
	case strings.HasPrefix(url, "sqlite:"):
		kind, path = "sqlite", strings.TrimPrefix(url, "sqlite:")
	case strings.HasPrefix(url, "jsonl://"):
		kind, path = "jsonl", strings.TrimPrefix(url, "jsonl://")
	case strings.HasPrefix(url, "jsonl:"):
		kind, path = "jsonl", strings.TrimPrefix(url, "jsonl:")
	case strings.HasPrefix(url, "postgres://"), strings.HasPrefix(url, "postgresql://"):
		kind, path = "postgres", url
	case strings.HasPrefix(url, "postgres:"), strings.HasPrefix(url, "postgresql:"):
		return "", "", fmt.Errorf("store %q: a PostgreSQL store is a URL, postgres://USER@HOST:PORT/DATABASE", url)
	default:
		switch strings.ToLower(filepath.Ext(url)) {
		case ".db", ".sqlite", ".sqlite3":
			kind = "sqlite"
		default:
			kind = "jsonl"
		}
		path = url
	}
	if path == "" {
		return "", "", fmt.Errorf("store %q: no path", url)
	}
	return kind, path, nil
}
