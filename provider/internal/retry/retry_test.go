package retry

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		name   string
		header map[string]string
		want   time.Duration
	}{
		{"none", nil, 0},
		{"seconds", map[string]string{"Retry-After": "7"}, 7 * time.Second},
		{"fractional seconds", map[string]string{"Retry-After": "1.5"}, 1500 * time.Millisecond},
		{"milliseconds win", map[string]string{"Retry-After": "7", "Retry-After-Ms": "320"}, 320 * time.Millisecond},
		{"bad milliseconds", map[string]string{"Retry-After": "2", "Retry-After-Ms": "soon"}, 2 * time.Second},
		{"http date", map[string]string{"Retry-After": now.Add(90 * time.Second).Format(http.TimeFormat)}, 90 * time.Second},
		{"past date", map[string]string{"Retry-After": now.Add(-time.Minute).Format(http.TimeFormat)}, 0},
		{"negative", map[string]string{"Retry-After": "-3"}, 0},
		{"garbage", map[string]string{"Retry-After": "later"}, 0},
	}
	for _, tt := range tests {
		h := http.Header{}
		for k, v := range tt.header {
			h.Set(k, v)
		}
		if got := RetryAfter(h, now); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		status        int
		typ, code, ms string
		want          error
	}{
		{401, "authentication_error", "", "invalid x-api-key", condense.ErrAuth},
		{403, "permission_error", "", "", condense.ErrAuth},
		{429, "rate_limit_error", "", "", condense.ErrRateLimited},
		{413, "request_too_large", "", "", condense.ErrContextTooLarge},
		{400, "invalid_request_error", "", "prompt is too long: 215339 tokens > 200000 maximum", condense.ErrContextTooLarge},
		{400, "invalid_request_error", "context_length_exceeded", "", condense.ErrContextTooLarge},
		{400, "", "", "the request exceeds the available context size, try increasing it", condense.ErrContextTooLarge},
		{400, "invalid_request_error", "", "max_tokens: Field required", nil},
		{404, "not_found_error", "", "", nil},
		{529, "overloaded_error", "", "Overloaded", condense.ErrOverloaded},
		{503, "", "", "", condense.ErrOverloaded},
		{500, "api_error", "", "", condense.ErrServer},
		{502, "", "", "", condense.ErrServer},
	}
	for _, tt := range tests {
		e := Classify("p", tt.status, tt.typ, tt.code, tt.ms, nil)
		if e.Kind != tt.want {
			t.Errorf("%d %s %q: kind %v, want %v", tt.status, tt.typ, tt.ms, e.Kind, tt.want)
		}
		if e.Status != tt.status || e.Provider != "p" || e.Type != tt.typ || e.Message != tt.ms {
			t.Errorf("fields lost: %+v", e)
		}
	}
}

func TestBackoff(t *testing.T) {
	p := Policy{Jitter: func() float64 { return 0.999999 }}
	prev := time.Duration(0)
	for n := range 10 {
		d := p.Backoff(n)
		if d < prev || d > DefaultMaxWait {
			t.Errorf("backoff %d = %v after %v", n, d, prev)
		}
		prev = d
	}
	if d := (Policy{Jitter: func() float64 { return 0 }}).Backoff(0); d != DefaultBase/2 {
		t.Errorf("lowest first backoff %v, want %v", d, DefaultBase/2)
	}
	if d := p.Backoff(40); d > DefaultMaxWait {
		t.Errorf("backoff 40 = %v, over the cap", d)
	}
}

func TestRetries(t *testing.T) {
	for _, tt := range []struct{ in, want int }{{0, DefaultMaxRetries}, {-1, 0}, {5, 5}} {
		if got := (Policy{MaxRetries: tt.in}).Retries(); got != tt.want {
			t.Errorf("MaxRetries %d: %d retries, want %d", tt.in, got, tt.want)
		}
	}
}

func TestDo(t *testing.T) {
	server := &condense.APIError{Status: 500, Kind: condense.ErrServer}
	auth := &condense.APIError{Status: 401, Kind: condense.ErrAuth}
	var slept []time.Duration
	sleep := func(ctx context.Context, d time.Duration) error { slept = append(slept, d); return nil }

	calls := 0
	err := Do(context.Background(), Policy{MaxRetries: 2, Sleep: sleep}, func(context.Context) error {
		calls++
		return server
	})
	if !errors.Is(err, condense.ErrServer) || calls != 3 || len(slept) != 2 {
		t.Errorf("server errors: err %v, %d calls, waits %v", err, calls, slept)
	}

	calls, slept = 0, nil
	err = Do(context.Background(), Policy{Sleep: sleep}, func(context.Context) error {
		calls++
		return auth
	})
	if !errors.Is(err, condense.ErrAuth) || calls != 1 || len(slept) != 0 {
		t.Errorf("auth: err %v, %d calls", err, calls)
	}

	calls, slept = 0, nil
	plain := errors.New("connection reset")
	err = Do(context.Background(), Policy{Sleep: sleep}, func(context.Context) error {
		calls++
		return plain
	})
	if err != plain || calls != 1 {
		t.Errorf("transport error: err %v, %d calls (not an API answer: not retried)", err, calls)
	}

	// A wait past the deadline is not started.
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	calls, slept = 0, nil
	limited := &condense.APIError{Status: 429, Kind: condense.ErrRateLimited, RetryAfter: 10 * time.Second}
	err = Do(ctx, Policy{Sleep: sleep}, func(context.Context) error {
		calls++
		return limited
	})
	if err != limited || calls != 1 || len(slept) != 0 {
		t.Errorf("wait past deadline: err %v, %d calls, waits %v", err, calls, slept)
	}
}

func TestSleepCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	if err := Sleep(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
	if time.Since(start) > time.Second {
		t.Error("Sleep ignored the cancellation")
	}
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Errorf("err = %v", err)
	}
}

func TestDeadline(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	if err := Deadline(parent, context.DeadlineExceeded, time.Second, "x"); !errors.Is(err, context.DeadlineExceeded) || err.Error() != "x timed out after 1s: context deadline exceeded" {
		t.Errorf("timeout: %v", err)
	}
	other := errors.New("boom")
	if err := Deadline(parent, other, time.Second, "x"); err != other {
		t.Errorf("other error changed: %v", err)
	}
	cancel()
	if err := Deadline(parent, context.DeadlineExceeded, time.Second, "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled parent: %v", err)
	}
}
