package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/server"
)

// testSystem is the system text of test sessions: a request with another
// system text is a summary request.
const testSystem = "You are a test agent."

// TestMain runs a server process when the end-to-end test starts this
// binary as one (CONDENSE_E2E_STORE set): it serves until killed or
// interrupted.
func TestMain(m *testing.M) {
	if url := os.Getenv("CONDENSE_E2E_STORE"); url != "" {
		if err := runChild(url, os.Getenv("CONDENSE_E2E_TOKENS")); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func runChild(url, tokensFile string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	b, err := server.OpenBackend(ctx, url, log)
	if err != nil {
		return err
	}
	defer b.Close()
	opts := &server.Options{Logger: log, NewModel: func(provider, model string) (agent.Model, error) { return blockingSummaries{}, nil }}
	if tokensFile != "" {
		f, err := os.Open(tokensFile)
		if err != nil {
			return err
		}
		opts.Tokens, err = server.ParseTokens(f)
		f.Close()
		if err != nil {
			return err
		}
	}
	s, err := server.New(b, opts)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	fmt.Printf("listening %s\n", ln.Addr())
	return s.Serve(ctx, ln, server.Timeouts{})
}

// blockingSummaries is the model of test servers: it echoes prompts and
// blocks on every summary request until it is cancelled.
type blockingSummaries struct{}

func (blockingSummaries) Generate(ctx context.Context, req *condense.Request) (*agent.Response, error) {
	if req.System != testSystem {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	return server.EchoModel{}.Generate(ctx, req)
}

func (b blockingSummaries) Stream(ctx context.Context, req *condense.Request) iter.Seq2[agent.StreamEvent, error] {
	resp, err := b.Generate(ctx, req)
	if err != nil {
		return func(yield func(agent.StreamEvent, error) bool) { yield(agent.StreamEvent{}, err) }
	}
	return agent.Events(resp)
}

// client drives a server with plain HTTP.
type client struct {
	t     testing.TB
	base  string
	token string
	hc    *http.Client
}

// do sends a JSON request and returns the status and body.
func (c *client) do(method, path string, body any) (int, []byte) {
	c.t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			c.t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	req.Header.Set("Content-Type", "application/json")
	hc := c.hc
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		c.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		c.t.Fatal(err)
	}
	return resp.StatusCode, out
}

// must sends a request that must answer want, and decodes the body into v.
func (c *client) must(want int, method, path string, body, v any) []byte {
	c.t.Helper()
	st, out := c.do(method, path, body)
	if st != want {
		c.t.Fatalf("%s %s: status %d, want %d: %s", method, path, st, want, out)
	}
	if v != nil {
		if err := json.Unmarshal(out, v); err != nil {
			c.t.Fatalf("%s %s: %v: %s", method, path, err, out)
		}
	}
	return out
}

// errorCode returns the code of an error body.
func errorCode(t testing.TB, body []byte) string {
	t.Helper()
	var e struct {
		Error server.Error `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error body: %s", body)
	}
	return e.Error.Code
}

// sse is an open event stream.
type sse struct {
	events chan server.Event
	cancel context.CancelFunc
	done   chan struct{}
}

// subscribe opens a session's event stream after lastID.
func (c *client) subscribe(id string, lastID int64) *sse {
	c.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, "GET", c.base+"/v1/sessions/"+id+"/events", nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if lastID > 0 {
		req.Header.Set("Last-Event-ID", fmt.Sprint(lastID))
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		c.t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		cancel()
		c.t.Fatalf("events: status %d", resp.StatusCode)
	}
	s := &sse{events: make(chan server.Event, 1024), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(s.done)
		defer close(s.events)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 64<<10), 8<<20)
		for sc.Scan() {
			line := sc.Text()
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				var ev server.Event
				if json.Unmarshal([]byte(data), &ev) == nil && ev.ID > 0 {
					s.events <- ev
				}
			}
		}
	}()
	return s
}

func (s *sse) close() {
	s.cancel()
	<-s.done
}

// until reads events until one of type typ for which ok (nil: any)
// returns true; it returns the events read, that one last. The stream
// ending first fails the test.
func (s *sse) until(t testing.TB, typ string, ok func(server.Event) bool) []server.Event {
	t.Helper()
	var got []server.Event
	for ev := range s.events {
		got = append(got, ev)
		if ev.Type == typ && (ok == nil || ok(ev)) {
			return got
		}
	}
	t.Fatalf("event stream ended before a %q event; got %d events", typ, len(got))
	return nil
}

// noFatal is an HTTP client for a goroutine: errors are returned, not
// fatal.
func noFatal() *http.Client { return &http.Client{} }

// send sends a JSON request from a goroutine other than the test's: a
// transport error is returned, not fatal.
func (c *client) send(method, path string, body any) (int, []byte, error) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
	if err != nil {
		return 0, nil, err
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	return resp.StatusCode, out, err
}

// try sends a request from a goroutine other than the test's: it reports
// a transport error as ok=false instead of failing the test.
func (c *client) try(method, path string, body any) (int, bool) {
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(method, c.base+path, bytes.NewReader(raw))
	if err != nil {
		return 0, false
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, true
}
