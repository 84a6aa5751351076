package server

import (
	"bufio"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"
)

// CookieName is the login cookie: POST /v1/login with a token sets it
// (HttpOnly, SameSite=Strict), and every later request — an EventSource
// included, which cannot send headers — may use it instead of the bearer
// token.
const CookieName = "condense_login"

// ParseTokens reads a token file: one token per line, optionally followed
// by whitespace and the owner's name (else the owner is named after a
// digest of the token); blank lines and lines starting with '#' are
// skipped.
func ParseTokens(r io.Reader) (map[string]string, error) {
	out := map[string]string{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		tok, owner := f[0], ""
		if len(f) > 1 {
			owner = f[1]
		}
		if len(tok) < 16 {
			return nil, fmt.Errorf("token file line %d: a token needs 16 characters or more", n)
		}
		if owner == "" {
			d := sha256.Sum256([]byte(tok))
			owner = "t-" + hex.EncodeToString(d[:6])
		}
		if _, dup := out[tok]; dup {
			return nil, fmt.Errorf("token file line %d: the token is listed twice", n)
		}
		out[tok] = owner
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("token file holds no token")
	}
	return out, nil
}

// owner returns the owner a request authenticates as ("" when the server
// has no tokens) and whether it is authenticated.
func (s *Server) owner(r *http.Request) (string, bool) {
	if len(s.opts.Tokens) == 0 {
		return "", true
	}
	if h := r.Header.Get("Authorization"); strings.HasPrefix(h, "Bearer ") {
		return s.tokenOwner(strings.TrimPrefix(h, "Bearer "))
	}
	if c, err := r.Cookie(CookieName); err == nil {
		return s.logins.owner(c.Value)
	}
	return "", false
}

// tokenOwner compares tok with every token in constant time.
func (s *Server) tokenOwner(tok string) (string, bool) {
	owner, found := "", false
	for t, o := range s.opts.Tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
			owner, found = o, true
		}
	}
	return owner, found
}

func unauthorized() *Error {
	return &Error{Code: CodeUnauthorized, Message: "a bearer token (Authorization: Bearer …) or the login cookie is needed", status: http.StatusUnauthorized}
}

// auth runs h for authenticated requests only.
func (s *Server) auth(h func(w http.ResponseWriter, r *http.Request, owner string)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		owner, ok := s.owner(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="condense"`)
			writeError(w, unauthorized())
			return
		}
		h(w, r, owner)
	}
}

// withSession runs h with the session {id} the request's owner sees.
func (s *Server) withSession(h func(w http.ResponseWriter, r *http.Request, hs *hosted)) http.HandlerFunc {
	return s.auth(func(w http.ResponseWriter, r *http.Request, owner string) {
		hs, err := s.lookup(r.Context(), r.PathValue("id"), owner)
		if err != nil {
			writeError(w, err)
			return
		}
		h(w, r, hs)
	})
}

// LoginRequest is the body of POST /v1/login.
type LoginRequest struct {
	Token string `json:"token"`
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var req LoginRequest
	if err := s.decode(w, r, &req); err != nil {
		writeError(w, err)
		return
	}
	if len(s.opts.Tokens) == 0 {
		writeJSON(w, http.StatusOK, map[string]string{"owner": ""})
		return
	}
	owner, ok := s.tokenOwner(req.Token)
	if !ok {
		writeError(w, unauthorized())
		return
	}
	key, expires, err := s.logins.add(owner, req.Token)
	if err != nil {
		writeError(w, fmt.Errorf("login: %w", err))
		return
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: key, Path: "/", HttpOnly: true, Expires: expires,
		SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil})
	writeJSON(w, http.StatusOK, map[string]string{"owner": owner})
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if c, err := r.Cookie(CookieName); err == nil {
		if err := s.logins.remove(c.Value); err != nil {
			writeError(w, fmt.Errorf("logout: %w", err))
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: CookieName, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode})
	w.WriteHeader(http.StatusNoContent)
}

// statusWriter records the status and size of an answer for the access
// log; it passes Flush through for event streams.
type statusWriter struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(p)
	w.bytes += int64(n)
	return n, err
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// accessLog logs every request at info (debug for /healthz and /metrics)
// and counts it in the metrics.
func (s *Server) accessLog(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r)
		if sw.status == 0 {
			sw.status = http.StatusOK
		}
		d := time.Since(start)
		s.tel.Request(r.Pattern, sw.status, d)
		lvl := slog.LevelInfo
		if r.URL.Path == "/healthz" || r.URL.Path == "/metrics" {
			lvl = slog.LevelDebug
		}
		if !s.log.Enabled(r.Context(), lvl) {
			return
		}
		s.log.LogAttrs(r.Context(), lvl, "http",
			slog.String("method", r.Method), slog.String("path", r.URL.Path), slog.String("route", r.Pattern),
			slog.Int("status", sw.status), slog.Int64("bytes", sw.bytes), slog.Duration("duration", d),
			slog.String("remote", r.RemoteAddr))
	})
}
