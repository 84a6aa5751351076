package server

import (
	"context"
	"crypto/subtle"
	"time"

	"github.com/jackc/pgx/v5"
)

// pgLogins keeps the logins in PostgreSQL, as logins keeps them in a file
// (the same hashes: never a cookie or a token), so that a page that logged
// in on one replica is known to every other. Each cookie is looked up in
// the table, so a logout on one replica holds on all at once.
type pgLogins struct {
	p *pgState
}

// openPGLogins drops the expired logins and those whose token is no longer
// among tokens (or names another owner now).
func openPGLogins(ctx context.Context, p *pgState, tokens map[string]string) (*pgLogins, error) {
	l := &pgLogins{p: p}
	if _, err := p.pool.Exec(ctx, p.sql("DELETE FROM @.condense_server_logins WHERE expires <= $1"), p.now()); err != nil {
		return nil, err
	}
	rows, err := p.pool.Query(ctx, p.sql("SELECT hash, owner, salt, token FROM @.condense_server_logins"))
	if err != nil {
		return nil, err
	}
	type entry struct{ hash, owner, salt, token string }
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (entry, error) {
		var e entry
		return e, r.Scan(&e.hash, &e.owner, &e.salt, &e.token)
	})
	if err != nil {
		return nil, err
	}
	for _, e := range all {
		ok := false
		for tok, owner := range tokens {
			if owner == e.owner && subtle.ConstantTimeCompare([]byte(tokenPrint(e.salt, tok)), []byte(e.token)) == 1 {
				ok = true
				break
			}
		}
		if !ok {
			if _, err := p.pool.Exec(ctx, p.sql("DELETE FROM @.condense_server_logins WHERE hash = $1"), e.hash); err != nil {
				return nil, err
			}
		}
	}
	return l, nil
}

func (l *pgLogins) add(owner, token string) (string, time.Time, error) {
	cookie, salt, err := newLoginSecrets()
	if err != nil {
		return "", time.Time{}, err
	}
	expires := l.p.now().Add(LoginLifetime).UTC().Truncate(time.Microsecond)
	_, err = l.p.pool.Exec(context.Background(), l.p.sql("INSERT INTO @.condense_server_logins (hash, owner, salt, token, expires) VALUES ($1, $2, $3, $4, $5)"),
		cookieHash(cookie), owner, salt, tokenPrint(salt, token), expires)
	if err != nil {
		return "", time.Time{}, err
	}
	return cookie, expires, nil
}

func (l *pgLogins) owner(cookie string) (string, bool) {
	var owner string
	var expires time.Time
	err := l.p.pool.QueryRow(context.Background(), l.p.sql("SELECT owner, expires FROM @.condense_server_logins WHERE hash = $1"), cookieHash(cookie)).Scan(&owner, &expires)
	if err != nil || !l.p.now().Before(expires) {
		return "", false
	}
	return owner, true
}

func (l *pgLogins) remove(cookie string) error {
	_, err := l.p.pool.Exec(context.Background(), l.p.sql("DELETE FROM @.condense_server_logins WHERE hash = $1"), cookieHash(cookie))
	return err
}
