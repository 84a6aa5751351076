package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5"
)

// proxy starts, forwards a request to its upstream with the condense
// headers, serves its metrics, and stops cleanly when its context ends.
func TestProxyCommand(t *testing.T) {
	base, stop := startListening(t, func(upstream string) []string {
		return []string{"proxy", "--listen", "127.0.0.1:0", "--openai-upstream", upstream}
	})
	resp, err := http.Post(base+"/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Condense-Compacted") != "false" {
		t.Errorf("status %d, headers %v", resp.StatusCode, resp.Header)
	}
	resp, err = http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), `condense_proxy_requests_total{api="chat",outcome="forwarded"} 1`) {
		t.Errorf("metrics: %s", b)
	}
	stop()
}

// A bad upstream URL is a usage error.
func TestProxyBadUpstream(t *testing.T) {
	var out, errb bytes.Buffer
	err := Run(context.Background(), []string{"proxy", "--listen", "127.0.0.1:0", "--anthropic-upstream", "ftp://x"}, &out, &errb)
	if ExitCode(err) != exitUsage || !strings.Contains(errb.String(), "Anthropic upstream") {
		t.Fatalf("exit %d: %s", ExitCode(err), errb.String())
	}
}

// addrWriter sends the address of the proxy's first line.
type addrWriter struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	addr chan string
}

var proxyAddr = regexp.MustCompile(`(?:proxying|serving \S+) on (http://[0-9.:]+)`)

func (w *addrWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if m := proxyAddr.FindSubmatch(w.buf.Bytes()); m != nil && w.addr != nil {
		w.addr <- string(m[1])
		w.addr = nil
	}
	return len(p), nil
}

// serve --proxy mounts the proxy under /proxy: a request there reaches the
// upstream without the prefix and answers with the condense headers, the
// API still answers under /v1, and the proxy's counters are on /metrics.
func TestServeMountsProxy(t *testing.T) {
	dir := t.TempDir()
	base, stop := startListening(t, func(upstream string) []string {
		return []string{"serve", "--addr", "127.0.0.1:0", "--store", "jsonl:" + dir, "--proxy", "--openai-base-url", upstream}
	})
	resp, err := http.Post(base+"/proxy/v1/chat/completions", "application/json",
		strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Condense-Compacted") != "false" {
		t.Errorf("through /proxy: status %d, headers %v", resp.StatusCode, resp.Header)
	}
	for path, want := range map[string]string{"/v1/sessions": `"sessions"`, "/metrics": `condense_proxy_requests_total{api="chat",outcome="forwarded"} 1`} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(string(b), want) {
			t.Errorf("%s: status %d: %.300s", path, resp.StatusCode, b)
		}
	}
	stop()
}

// startListening runs the command args(upstream) gives, with upstream the
// /v1 base URL of a fake OpenAI API that answers chat completions, and
// returns the address the command says it listens on and a stop that ends
// it and checks it ended cleanly.
func startListening(t *testing.T, args func(upstream string) []string) (base string, stop func()) {
	t.Helper()
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" {
			t.Errorf("upstream path %s", r.URL.Path)
		}
		io.WriteString(w, `{"id":"x","object":"chat.completion","choices":[]}`)
	}))
	t.Cleanup(up.Close)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	addr := make(chan string, 1)
	e := &env{stdin: strings.NewReader(""), stdout: &bytes.Buffer{}, stderr: &addrWriter{addr: addr}}
	done := make(chan error, 1)
	go func() { done <- runEnv(ctx, args(up.URL+"/v1"), e) }()
	select {
	case base = <-addr:
	case err := <-done:
		t.Fatalf("exited: %v", err)
	}
	return base, func() {
		cancel()
		if err := <-done; ExitCode(err) != exitOK && ExitCode(err) != exitCancelled {
			t.Fatalf("stopped: %v", err)
		}
	}
}

// --store takes PostgreSQL or nothing: a SQLite or JSONL store is refused
// with a usage error that says why, before anything is opened.
func TestProxyStoreRefusesFiles(t *testing.T) {
	for _, url := range []string{"sqlite:" + t.TempDir() + "/x.db", "jsonl:" + t.TempDir(), "./sessions"} {
		var out, errb bytes.Buffer
		err := Run(context.Background(), []string{"proxy", "--listen", "127.0.0.1:0", "--store", url}, &out, &errb)
		if ExitCode(err) != exitUsage || !strings.Contains(errb.String(), "in memory (no --store) or in PostgreSQL") {
			t.Errorf("--store %s: exit %d: %s", url, ExitCode(err), errb.String())
		}
	}
}

// proxy --store postgres://… and serve --proxy --store postgres://… keep
// the proxy's conversations in the database: a request leaves the links
// of its history in the schema the URL names.
func TestProxyStorePostgres(t *testing.T) {
	url := os.Getenv("CONDENSE_TEST_POSTGRES")
	if url == "" {
		t.Skip("CONDENSE_TEST_POSTGRES is not set")
	}
	for _, cmd := range []string{"proxy", "serve"} {
		t.Run(cmd, func(t *testing.T) {
			schema := fmt.Sprintf("condense_cli_test_%d_%s", os.Getpid(), cmd)
			t.Cleanup(func() { pgExec(t, url, "DROP SCHEMA IF EXISTS "+schema+" CASCADE") })
			storeURL := url + "&schema=" + schema
			if !strings.Contains(url, "?") {
				storeURL = url + "?schema=" + schema
			}
			prefix := ""
			base, stop := startListening(t, func(upstream string) []string {
				if cmd == "serve" {
					prefix = "/proxy"
					return []string{"serve", "--addr", "127.0.0.1:0", "--store", storeURL, "--proxy", "--openai-base-url", upstream}
				}
				return []string{"proxy", "--listen", "127.0.0.1:0", "--store", storeURL, "--openai-upstream", upstream}
			})
			resp, err := http.Post(base+prefix+"/v1/chat/completions", "application/json",
				strings.NewReader(`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"},{"role":"user","content":"bye"}]}`))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 || resp.Header.Get("Condense-Compacted") != "false" {
				t.Errorf("status %d, headers %v", resp.StatusCode, resp.Header)
			}
			stop()
			if n := pgCount(t, url, "SELECT count(*) FROM "+schema+".condense_proxy_links"); n != 3 {
				t.Errorf("%d links stored, want the 3 of the history", n)
			}
		})
	}
}

func pgExec(t *testing.T, url, sql string) {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Error(err)
		return
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql); err != nil {
		t.Error(err)
	}
}

func pgCount(t *testing.T, url, sql string) int {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int
	if err := conn.QueryRow(ctx, sql).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}
