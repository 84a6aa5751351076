package summarizertest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/summarize/summarizertest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// toy is the simplest provider summarizer a user might write, for a
// made-up API: it posts {"model", "max_tokens", "system", "prompt"} to
// /v1/summarize and is answered {"model", "text", "stop", "usage"}, or
// {"error": {"type", "message"}}. Its faults, when set, each break one
// rule.
type toy struct {
	base      string
	client    *http.Client
	model     string
	maxOutput int
	modelMax  int
	retries   int
	timeout   time.Duration
	limits    summarize.Limits
	sleep     func(context.Context, time.Duration) error
	faults
}

// faults are the ways a broken toy breaks the rules.
type faults struct {
	retriesAuth       bool // retries every error answer, a 401 included
	ignoresRetryAfter bool // waits its own backoff whatever the provider asked
	waitsOverCap      bool // waits for any Retry-After, however long, deadline or not
	acceptsTruncated  bool // keeps a summary cut at its output cap
	cancelAsTimeout   bool // reports a cancellation as a timeout
}

const (
	toyDefaultModel = "toy-1"
	toyMaxWait      = 30 * time.Second
	toyBase         = 500 * time.Millisecond
)

// toyModels are the output limits of the models the toy knows.
var toyModels = map[string]int{"toy-small": 1024}

func newToy(c summarizertest.Config, f faults) *toy {
	s := &toy{
		base: c.BaseURL, client: c.HTTPClient, model: c.Model,
		maxOutput: c.MaxOutputTokens, modelMax: c.ModelMaxOutput,
		retries: c.MaxRetries, timeout: c.Timeout, limits: c.Limits, sleep: c.Sleep,
		faults: f,
	}
	if s.model == "" {
		s.model = toyDefaultModel
	}
	if s.modelMax <= 0 {
		s.modelMax = toyModels[s.model]
	}
	switch {
	case s.retries == 0:
		s.retries = 3
	case s.retries < 0:
		s.retries = 0
	}
	if s.timeout <= 0 {
		s.timeout = summarize.DefaultTimeout
	}
	return s
}

type toyAnswer struct {
	Model string `json:"model"`
	Text  string `json:"text"`
	Stop  string `json:"stop"`
	Usage struct {
		Input      int `json:"input"`
		Output     int `json:"output"`
		CacheRead  int `json:"cache_read"`
		CacheWrite int `json:"cache_write"`
	} `json:"usage"`
}

func (s *toy) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	requested := in.MaxOutputTokens
	if requested <= 0 {
		requested = s.maxOutput
	}
	maxTokens := summarize.OutputCap(requested, s.modelMax)
	p, err := summarize.BuildPrompt(in, s.limits)
	if err != nil {
		return nil, err
	}
	body, err := json.Marshal(map[string]any{"model": s.model, "max_tokens": maxTokens, "system": p.System, "prompt": p.User})
	if err != nil {
		return nil, err
	}

	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var ans toyAnswer
	for n := 0; ; n++ {
		if err = s.post(cctx, body, &ans); err == nil {
			break
		}
		var api *condense.APIError
		if cctx.Err() != nil || !errors.As(err, &api) || !(api.Retryable() || s.retriesAuth) || n >= s.retries {
			break
		}
		wait := api.RetryAfter
		if wait <= 0 {
			wait = backoff(n)
		} else if wait > toyMaxWait && !s.waitsOverCap {
			break
		}
		if s.ignoresRetryAfter {
			wait = backoff(n)
		}
		if dl, ok := cctx.Deadline(); ok && time.Until(dl) < wait && !s.waitsOverCap {
			break
		}
		if err = s.sleep(cctx, wait); err != nil {
			break
		}
	}
	if err != nil {
		return nil, s.deadline(ctx, err)
	}

	if ans.Stop == "refused" {
		return nil, &summarize.RejectedError{Reason: summarize.ErrFailed, StopReason: ans.Stop}
	}
	truncated := []string{"max_tokens"}
	if s.acceptsTruncated {
		truncated = nil
	}
	if err := summarize.Check(ans.Text, ans.Stop, ans.Stop == "tool_call", truncated...); err != nil {
		return nil, err
	}
	u := condense.Usage{
		Provider: "toy", Model: ans.Model,
		InputTokens: ans.Usage.Input, OutputTokens: ans.Usage.Output,
		CacheReadTokens: ans.Usage.CacheRead, CacheWriteTokens: ans.Usage.CacheWrite,
	}
	u.CostUSD = float64(u.InputTokens*1+u.OutputTokens*5) / 1e6
	return &condense.Summary{Text: strings.TrimSpace(ans.Text), Usage: u, Trim: p.Trim}, nil
}

// deadline turns the error of a call made under the toy's timeout into
// what the caller sees.
func (s *toy) deadline(parent context.Context, err error) error {
	if s.cancelAsTimeout && parent.Err() != nil {
		return fmt.Errorf("toy: summary request timed out after %s: %w", s.timeout, context.DeadlineExceeded)
	}
	if perr := parent.Err(); perr != nil {
		if errors.Is(err, perr) {
			return err
		}
		return errors.Join(perr, err)
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("toy: summary request timed out after %s: %w", s.timeout, err)
	}
	return err
}

// backoff is 500ms·2ⁿ with equal jitter.
func backoff(n int) time.Duration {
	d := toyBase << n
	return d/2 + time.Duration(rand.Float64()*float64(d/2))
}

func (s *toy) post(ctx context.Context, body []byte, ans *toyAnswer) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.base+"/v1/summarize", bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer test-key")
	req.Header.Set("Content-Type", "application/json")
	resp, err := s.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e struct {
			Error struct{ Type, Message string }
		}
		typ, msg := "", strings.TrimSpace(string(data))
		if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
			typ, msg = e.Error.Type, e.Error.Message
		}
		api := condense.ClassifyHTTP("toy", resp.StatusCode, typ, "", msg)
		api.RetryAfter = retryAfter(resp.Header)
		return api
	}
	return json.Unmarshal(data, ans)
}

func retryAfter(h http.Header) time.Duration {
	if ms, err := strconv.ParseFloat(h.Get("Retry-After-Ms"), 64); err == nil && ms > 0 {
		return time.Duration(ms * float64(time.Millisecond))
	}
	if s, err := strconv.ParseFloat(h.Get("Retry-After"), 64); err == nil && s > 0 {
		return time.Duration(s * float64(time.Second))
	}
	return 0
}

func toyError(status int, typ, msg string) summarizertest.Step {
	return summarizertest.Step{Status: status, Body: fmt.Sprintf(`{"error":{"type":%q,"message":%q}}`, typ, msg)}
}

func toyText(stop, text string) summarizertest.Step {
	return summarizertest.Step{Body: fmt.Sprintf(`{"model":"toy-1-2026","text":%q,"stop":%q,"usage":{"input":1200,"output":80,"cache_read":300,"cache_write":100}}`, text, stop)}
}

// toyProvider describes the toy with faults f to the kit.
func toyProvider(f faults) summarizertest.Provider {
	return summarizertest.Provider{
		Name: "toy",
		New: func(c summarizertest.Config) (condense.Summarizer, error) {
			return newToy(c, f), nil
		},
		Path:         "/v1/summarize",
		DefaultModel: toyDefaultModel,
		Models:       []summarizertest.Model{{Name: "toy-small", MaxOutputTokens: 1024}, {Name: "toy-unknown", MaxOutputTokens: summarize.DefaultMaxOutput}},
		Sent: func(t summarizertest.TB, r summarizertest.Request) summarizertest.Sent {
			var b struct {
				Model     string `json:"model"`
				MaxTokens int    `json:"max_tokens"`
				System    string `json:"system"`
				Prompt    string `json:"prompt"`
			}
			if err := json.Unmarshal(r.Body, &b); err != nil {
				t.Fatalf("request body: %v", err)
			}
			return summarizertest.Sent{Model: b.Model, MaxOutputTokens: b.MaxTokens, System: b.System, User: b.Prompt}
		},
		Check: func(t summarizertest.TB, r summarizertest.Request) {
			if got := r.Header.Get("Authorization"); got != "Bearer test-key" {
				t.Errorf("authorization = %q", got)
			}
		},
		Backoff: func(n int) (time.Duration, time.Duration) {
			d := toyBase << n
			return d / 2, d
		},
		Success: toyText("end", "## Summary\nThe agent fixed internal/x.go."),
		Text:    "## Summary\nThe agent fixed",
		Usage: condense.Usage{Provider: "toy", Model: "toy-1-2026", InputTokens: 1200, OutputTokens: 80,
			CacheReadTokens: 300, CacheWriteTokens: 100, CostUSD: (1200*1 + 80*5) / 1e6},
		Auth:            toyError(401, "unauthorized", "bad key"),
		AuthType:        "unauthorized",
		AuthMessage:     "bad key",
		RateLimited:     toyError(429, "rate_limited", "slow down"),
		ServerError:     toyError(500, "internal", "oops"),
		Overloaded:      toyError(503, "overloaded", "busy"),
		OverloadedType:  "overloaded",
		ContextTooLarge: []summarizertest.Step{toyError(400, "invalid_request", "prompt is too long: 300000 tokens"), {Status: 413, Body: "too large"}},
		ClientError:     toyError(400, "invalid_request", "unknown field"),
		Rejections: []summarizertest.Rejection{
			{Name: "Truncated", Answer: toyText("max_tokens", "## Summary\nThe agent"), Reason: summarize.ErrTruncated, StopReason: "max_tokens"},
			{Name: "ToolCall", Answer: toyText("tool_call", ""), Reason: summarize.ErrToolCall, StopReason: "tool_call"},
			{Name: "Empty", Answer: toyText("end", " \n"), Reason: summarize.ErrEmpty, StopReason: "end"},
			{Name: "Refused", Answer: toyText("refused", "I can't."), Reason: summarize.ErrFailed, StopReason: "refused"},
		},
	}
}

func TestRunOnAUserSummarizer(t *testing.T) {
	summarizertest.Run(t, toyProvider(faults{}))
}

// recorder is a summarizertest.TB that records what the kit reports
// instead of failing the test that runs it.
type recorder struct {
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(f string, a ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(f, a...))
}
func (r *recorder) Fatalf(f string, a ...any) {
	r.Errorf(f, a...)
	runtime.Goexit()
}

func (r *recorder) report() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errors, "\n")
}

// record runs the kit's Check on a recorder, in a goroutine of its own so
// that Fatalf can end it, and returns the recorder.
func record(p summarizertest.Provider) *recorder {
	r := &recorder{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		summarizertest.Check(r, p)
	}()
	<-done
	return r
}

func TestCheckPassesAWorkingSummarizer(t *testing.T) {
	if r := record(toyProvider(faults{})); r.report() != "" {
		t.Errorf("the kit failed a working summarizer:\n%s", r.report())
	}
}

func TestCheckFailsBrokenSummarizers(t *testing.T) {
	tests := []struct {
		name   string
		faults faults
		want   string
	}{
		{"retries a 401", faults{retriesAuth: true}, "auth errors are not retried"},
		{"ignores Retry-After", faults{ignoresRetryAfter: true}, "want [1s 250ms] (Retry-After, then Retry-After-Ms"},
		{"waits a Retry-After over the cap", faults{waitsOverCap: true}, "a Retry-After over the cap is returned, not waited for"},
		{"keeps a truncated summary", faults{acceptsTruncated: true}, `Truncated: err = <nil>, want summary response was truncated`},
		{"reports a cancellation as a timeout", faults{cancelAsTimeout: true}, "a cancellation reported as a timeout"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := record(toyProvider(tt.faults)).report()
			if !strings.Contains(got, tt.want) {
				t.Errorf("the kit said:\n%s\nwant a failure saying %q", got, tt.want)
			}
		})
	}
}

func TestCheckNamesWhatAProviderLacks(t *testing.T) {
	p := toyProvider(faults{})
	p.Sent, p.RateLimited = nil, summarizertest.Step{}
	got := record(p).report()
	if want := "Provider lacks Sent, RateLimited"; !strings.Contains(got, want) {
		t.Errorf("the kit said %q, want %q", got, want)
	}
}

// The server replays its script, repeating the last step, and records
// what it was sent.
func TestServer(t *testing.T) {
	srv := summarizertest.NewServer(t,
		summarizertest.Step{Status: 429, Header: map[string]string{"Retry-After": "3"}, Body: `{}`},
		summarizertest.Step{Body: `{"ok":true}`, Header: map[string]string{"Content-Type": "text/plain"}},
	)
	var got []string
	for i := range 3 {
		resp, err := srv.Client().Post(srv.URL+"/x", "application/json", strings.NewReader(fmt.Sprintf(`{"n":%d}`, i)))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		got = append(got, fmt.Sprintf("%d %s %s %s", resp.StatusCode, resp.Header.Get("Retry-After"), resp.Header.Get("Content-Type"), b))
	}
	want := []string{`429 3 application/json {}`, `200  text/plain {"ok":true}`, `200  text/plain {"ok":true}`}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("answers:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	reqs := srv.Requests()
	if len(reqs) != 3 || reqs[2].Method != "POST" || reqs[2].Path != "/x" || reqs[2].JSON(t)["n"] != 2.0 {
		t.Errorf("requests %+v", reqs)
	}
}

// A held answer is released when the server closes, so a test never
// waits on a client that does not give up.
func TestServerCloseReleasesHang(t *testing.T) {
	srv := summarizertest.NewServer(t, summarizertest.Step{Hang: true})
	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Get(srv.URL)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-srv.Arrived()
	srv.Close()
	<-done // any answer or error: the call returned
}
