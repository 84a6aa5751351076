package server

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// LoginLifetime is how long a login cookie is good for.
const LoginLifetime = 30 * 24 * time.Hour

// logins keeps the login cookies across restarts without storing them or
// the tokens they were made with: DIR/logins.json (0600) holds, for each
// login, the SHA-256 of its cookie, its owner, its expiry and a salted
// SHA-256 of the token it logged in with. A login whose token is no longer
// in the token file (or names another owner now) is dropped when the
// server starts, so revoking a token revokes its logins; logout removes
// the login at once. The file is rewritten atomically, and synced, before
// a login or logout is answered.
type logins struct {
	path string
	now  func() time.Time

	mu     sync.Mutex
	byHash map[string]loginEntry
}

type loginEntry struct {
	Hash    string    `json:"hash"` // hex SHA-256 of the cookie
	Owner   string    `json:"owner"`
	Salt    string    `json:"salt"`
	Token   string    `json:"token"` // hex SHA-256 of salt and token
	Expires time.Time `json:"expires"`
}

type loginsFile struct {
	Logins []loginEntry `json:"logins"`
}

func cookieHash(cookie string) string {
	d := sha256.Sum256([]byte(cookie))
	return hex.EncodeToString(d[:])
}

func tokenPrint(salt, token string) string {
	d := sha256.Sum256([]byte(salt + "\x00" + token))
	return hex.EncodeToString(d[:])
}

// openLogins reads the logins kept in dir, keeping those still valid
// under tokens.
func openLogins(dir string, tokens map[string]string, now func() time.Time) (*logins, error) {
	l := &logins{path: filepath.Join(dir, "logins.json"), now: now, byHash: map[string]loginEntry{}}
	data, err := os.ReadFile(l.path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("logins: %w", err)
	}
	var f loginsFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("logins %s: %w", l.path, err)
	}
	t := now()
	for _, e := range f.Logins {
		if !t.Before(e.Expires) {
			continue
		}
		for tok, owner := range tokens {
			if owner == e.Owner && subtle.ConstantTimeCompare([]byte(tokenPrint(e.Salt, tok)), []byte(e.Token)) == 1 {
				l.byHash[e.Hash] = e
				break
			}
		}
	}
	if len(l.byHash) != len(f.Logins) {
		l.mu.Lock()
		err = l.save()
		l.mu.Unlock()
		if err != nil {
			return nil, fmt.Errorf("logins: %w", err)
		}
	}
	return l, nil
}

// save writes the logins; l.mu held.
func (l *logins) save() error {
	f := loginsFile{Logins: make([]loginEntry, 0, len(l.byHash))}
	t := l.now()
	for h, e := range l.byHash {
		if !t.Before(e.Expires) {
			delete(l.byHash, h)
			continue
		}
		f.Logins = append(f.Logins, e)
	}
	data, err := json.Marshal(f)
	if err != nil {
		return err
	}
	return writeFileAtomic(l.path, data)
}

// newLoginSecrets draws a login's cookie (32 random bytes) and the salt of
// its token's print (16).
func newLoginSecrets() (cookie, salt string, err error) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", err
	}
	var s [16]byte
	if _, err := rand.Read(s[:]); err != nil {
		return "", "", err
	}
	return base64.RawURLEncoding.EncodeToString(b[:]), hex.EncodeToString(s[:]), nil
}

// add makes a login for owner, who gave token, and returns its cookie.
func (l *logins) add(owner, token string) (string, time.Time, error) {
	cookie, salt, err := newLoginSecrets()
	if err != nil {
		return "", time.Time{}, err
	}
	e := loginEntry{Hash: cookieHash(cookie), Owner: owner, Salt: salt, Token: tokenPrint(salt, token), Expires: l.now().Add(LoginLifetime).UTC()}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.byHash[e.Hash] = e
	if err := l.save(); err != nil {
		delete(l.byHash, e.Hash)
		return "", time.Time{}, err
	}
	return cookie, e.Expires, nil
}

// owner returns the owner of a cookie's login, if it is valid.
func (l *logins) owner(cookie string) (string, bool) {
	h := cookieHash(cookie)
	l.mu.Lock()
	e, ok := l.byHash[h]
	l.mu.Unlock()
	if !ok || !l.now().Before(e.Expires) {
		return "", false
	}
	return e.Owner, true
}

// remove forgets a cookie's login.
func (l *logins) remove(cookie string) error {
	h := cookieHash(cookie)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.byHash[h]; !ok {
		return nil
	}
	delete(l.byHash, h)
	return l.save()
}
