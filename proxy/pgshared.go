package proxy

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/condense-dev/condense/store/postgres"
)

// pgStore is the SharedStore of NewPostgresStore.
type pgStore struct {
	st    *postgres.Store
	links string // the links table, quoted with its schema
}

var _ SharedStore = (*pgStore)(nil)

// NewPostgresStore returns a SharedStore in st's database and schema: each
// conversation is a session of st opened in shared mode (id "px-" and 64
// hex digits, which no session of condense serve takes), and the links of
// the conversations' chains are rows of the table condense_proxy_links
// (link, conversation, position), created when missing. Proxies that
// share the database and schema share the conversations.
func NewPostgresStore(ctx context.Context, st *postgres.Store) (SharedStore, error) {
	s := &pgStore{st: st, links: pgx.Identifier{st.Schema(), "condense_proxy_links"}.Sanitize()}
	// Replicas starting together create the table once.
	err := pgx.BeginFunc(ctx, st.Pool(), func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", "condense_proxy_links "+st.Schema()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS `+s.links+` (
	link         bytea   PRIMARY KEY, -- SHA-256 chain link: credentials, API, model and the elements up to it
	conversation text    NOT NULL,    -- the session of the conversation that claimed it
	n            integer NOT NULL,    -- its position: the number of elements up to and including it
	UNIQUE (conversation, n)
)`)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("proxy: creating the table of conversation links: %w", err)
	}
	return s, nil
}

func (s *pgStore) Find(ctx context.Context, links []Link) (Found, error) {
	var f Found
	err := s.st.Pool().QueryRow(ctx, `SELECT l.conversation, l.n,
	(SELECT max(m.n) FROM `+s.links+` m WHERE m.conversation = l.conversation),
	(SELECT min(m.n) FROM `+s.links+` m WHERE m.conversation = l.conversation)
FROM `+s.links+` l WHERE l.link = ANY($1) ORDER BY l.n DESC LIMIT 1`, linkBytes(links)).Scan(&f.Conversation, &f.N, &f.Length, &f.Start)
	if errors.Is(err, pgx.ErrNoRows) {
		return Found{}, nil
	}
	return f, err
}

// Claim commits without waiting for the disk (synchronous_commit off):
// a crash may lose the latest claims, never one a checkpoint depends on.
// PostgreSQL writes its log in order, and a checkpoint is saved by a
// durable commit made after the claims of the request that made it, so
// the claims are on disk once the checkpoint is; a claim lost with no
// checkpoint after it is claimed again by the conversation's next
// request.
func (s *pgStore) Claim(ctx context.Context, conversation string, from int, links []Link) error {
	// One statement, its own transaction: the setting holds until it
	// commits.
	_, err := s.st.Pool().Exec(ctx, `WITH async AS (SELECT set_config('synchronous_commit', 'off', true))
INSERT INTO `+s.links+` (link, conversation, n)
SELECT u.l, $2, $3::integer + u.o::integer FROM async, unnest($1::bytea[]) WITH ORDINALITY AS u(l, o)`,
		linkBytes(links[from:]), conversation, from)
	var pe *pgconn.PgError
	if errors.As(err, &pe) && pe.Code == "23505" { // unique_violation
		return fmt.Errorf("%w: conversation %s from position %d", ErrClaimed, conversation, from+1)
	}
	return err
}

func (s *pgStore) Open(ctx context.Context, conversation string) (SharedLog, error) {
	return s.st.OpenShared(ctx, conversation)
}

func linkBytes(links []Link) [][]byte {
	out := make([][]byte, len(links))
	for i := range links {
		out[i] = links[i][:]
	}
	return out
}
