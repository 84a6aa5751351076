package server

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Timeouts bound the HTTP server's connections. Zero fields take the
// defaults in DefaultTimeouts.
type Timeouts struct {
	// ReadHeader and Read bound reading a request; Write bounds writing an
	// answer (a render or compaction that summarizes with a model must fit
	// in it; event streams are exempt); Idle bounds a kept-alive connection.
	ReadHeader, Read, Write, Idle time.Duration
	// Shutdown bounds the wait for requests in flight when the server
	// stops; hosted runs are cancelled then, and saves that started
	// complete.
	Shutdown time.Duration
}

// DefaultTimeouts are the timeouts of Serve.
var DefaultTimeouts = Timeouts{ReadHeader: 10 * time.Second, Read: time.Minute, Write: 5 * time.Minute, Idle: 2 * time.Minute, Shutdown: 30 * time.Second}

func (t Timeouts) orDefault() Timeouts {
	d := DefaultTimeouts
	pick := func(v, def time.Duration) time.Duration {
		if v > 0 {
			return v
		}
		return def
	}
	return Timeouts{ReadHeader: pick(t.ReadHeader, d.ReadHeader), Read: pick(t.Read, d.Read), Write: pick(t.Write, d.Write),
		Idle: pick(t.Idle, d.Idle), Shutdown: pick(t.Shutdown, d.Shutdown)}
}

// Serve serves the API on ln until ctx is cancelled, then shuts down
// gracefully: event streams end, requests in flight finish (up to
// Timeouts.Shutdown), hosted runs are cancelled and every save in flight
// completes before the sessions are closed.
func (s *Server) Serve(ctx context.Context, ln net.Listener, t Timeouts) error {
	t = t.orDefault()
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: t.ReadHeader,
		ReadTimeout:       t.Read,
		WriteTimeout:      t.Write,
		IdleTimeout:       t.Idle,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return errors.Join(err, s.Close())
	case <-ctx.Done():
	}
	s.log.Info("condense/server: shutting down")
	s.stopOnce.Do(func() { close(s.closing) })
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), t.Shutdown)
	defer cancel()
	err := hs.Shutdown(sctx)
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	<-errc
	return errors.Join(err, s.Close())
}

// IsLoopback reports whether addr (host:port) listens on loopback only.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
