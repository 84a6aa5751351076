// Package retry holds what the provider summarizers share: the mapping of
// HTTP error answers to *condense.APIError, the parsing of Retry-After, and
// the retry loop with exponential backoff, jitter and a cap.
//
// The provider SDKs are configured with zero retries of their own: this loop
// is the only one, so that every answer is classified the same way, waits
// honour Retry-After exactly, and a wait longer than the cap (or than what is
// left of the caller's deadline) returns the typed error at once instead of
// sleeping for nothing.
package retry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/condense-dev/condense"
)

// Defaults of Policy.
const (
	DefaultMaxRetries = 3
	DefaultBase       = 500 * time.Millisecond
	DefaultMaxWait    = 30 * time.Second
)

// Policy says how often and how long to retry.
type Policy struct {
	// MaxRetries is the number of retries after the first attempt; negative
	// means none, 0 means DefaultMaxRetries.
	MaxRetries int
	// Base is the first backoff; each retry doubles it. 0 means DefaultBase.
	Base time.Duration
	// MaxWait caps a wait. A Retry-After above it is not waited for: the
	// error is returned with its RetryAfter. 0 means DefaultMaxWait.
	MaxWait time.Duration
	// Sleep waits d or until ctx is done; nil means a timer. Tests inject
	// one that records the waits.
	Sleep func(ctx context.Context, d time.Duration) error
	// Jitter returns a number in [0, 1); nil means math/rand/v2.
	Jitter func() float64
	// Logger receives one line per retry; nil means none.
	Logger *slog.Logger
}

// Retries returns the number of retries the policy allows.
func (p Policy) Retries() int {
	switch {
	case p.MaxRetries < 0:
		return 0
	case p.MaxRetries == 0:
		return DefaultMaxRetries
	}
	return p.MaxRetries
}

// Backoff returns the wait before retry n (0 for the first retry) when the
// provider named none: Base·2ⁿ, capped at MaxWait, with "equal jitter" (a
// uniformly random point in the upper half), so concurrent clients spread
// out but never retry immediately.
func (p Policy) Backoff(n int) time.Duration {
	base, maxWait := p.base(), p.maxWait()
	d := base
	for i := 0; i < n && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	j := p.Jitter
	if j == nil {
		j = rand.Float64
	}
	return d/2 + time.Duration(j()*float64(d/2))
}

func (p Policy) base() time.Duration {
	if p.Base <= 0 {
		return DefaultBase
	}
	return p.Base
}

func (p Policy) maxWait() time.Duration {
	if p.MaxWait <= 0 {
		return DefaultMaxWait
	}
	return p.MaxWait
}

// Do calls attempt until it succeeds, fails with an error that is not a
// retryable *condense.APIError, or the retries are spent. Between attempts
// it waits the error's RetryAfter when the provider gave one, else Backoff.
// A wait is never longer than MaxWait nor past ctx's deadline: when it would
// be, the last error is returned at once. Cancellation during a wait returns
// ctx's error.
func Do(ctx context.Context, p Policy, attempt func(ctx context.Context) error) error {
	retries := p.Retries()
	for n := 0; ; n++ {
		err := attempt(ctx)
		if err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		var api *condense.APIError
		if !errors.As(err, &api) || !api.Retryable() || n >= retries {
			return err
		}
		wait := api.RetryAfter
		if wait <= 0 {
			wait = p.Backoff(n)
		} else if wait > p.maxWait() {
			return err // honouring it would exceed our cap
		}
		if dl, ok := ctx.Deadline(); ok && time.Until(dl) < wait {
			return err // the caller's deadline would pass while we wait
		}
		if p.Logger != nil {
			p.Logger.LogAttrs(ctx, slog.LevelWarn, "retrying provider request",
				slog.String("provider", api.Provider), slog.Int("status", api.Status),
				slog.String("code", api.Code()), slog.Int("retry", n+1),
				slog.Duration("wait", wait))
		}
		sleep := p.Sleep
		if sleep == nil {
			sleep = Sleep
		}
		if serr := sleep(ctx, wait); serr != nil {
			return serr
		}
	}
}

// Sleep waits d or until ctx is done, whichever comes first.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RetryAfter reads how long the provider asks us to wait: retry-after-ms
// (milliseconds, Anthropic and OpenAI both send it), else Retry-After in
// seconds (possibly fractional) or as an HTTP date. 0 when absent or
// unreadable; a date in the past is 0.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil {
		if d := t.Sub(now); d > 0 {
			return d
		}
	}
	return 0
}

// Classify maps an HTTP error answer to a *condense.APIError with
// condense.ClassifyHTTP, adding the wait the provider asked for.
func Classify(provider string, status int, errType, code, message string, h http.Header) *condense.APIError {
	e := condense.ClassifyHTTP(provider, status, errType, code, message)
	e.RetryAfter = RetryAfter(h, time.Now())
	return e
}

// Deadline turns the error of a call made under a timeout into what the
// caller should see: when the parent context is done, its error; when only
// the timeout passed, err wrapped with context.DeadlineExceeded and the
// timeout; else err.
func Deadline(parent context.Context, err error, timeout time.Duration, what string) error {
	if err == nil {
		return nil
	}
	if perr := parent.Err(); perr != nil {
		if errors.Is(err, perr) {
			return err
		}
		return errors.Join(perr, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%s timed out after %s: %w", what, timeout, err)
	}
	return err
}
