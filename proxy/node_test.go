package proxy

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense"
)

// The Node clients the proxy is tested with, at pinned versions.
var nodePackages = []string{"openai@6.49.0", "@anthropic-ai/sdk@1.15.0"}

// nodeClients returns a directory holding node_modules with the pinned
// clients, installing them with npm into a cache directory
// ($CONDENSE_NPM_DIR, else the user's cache directory) the first time. The
// test is skipped, saying why, when node or npm is missing or the install
// fails (no network).
func nodeClients(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("skipping the Node client tests: %s is not installed", tool)
		}
	}
	dir := os.Getenv("CONDENSE_NPM_DIR")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			cache = os.TempDir()
		}
		dir = filepath.Join(cache, "condense", "npm-proxy-test")
	}
	installed := true
	for _, pkg := range nodePackages {
		at := strings.LastIndex(pkg, "@")
		b, err := os.ReadFile(filepath.Join(dir, "node_modules", pkg[:at], "package.json"))
		if err != nil || gjson.GetBytes(b, "version").Str != pkg[at+1:] {
			installed = false
		}
	}
	if !installed {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Skipf("skipping the Node client tests: %v", err)
		}
		// Bounded so that a machine without a registry skips instead of
		// hanging; the bound decides nothing the test checks.
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, "npm", append([]string{"install", "--prefix", dir, "--no-audit", "--no-fund", "--no-save", "--loglevel=error"}, nodePackages...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("skipping the Node client tests: npm install %s failed: %v\n%s", strings.Join(nodePackages, " "), err, out)
		}
	}
	return dir
}

// The official Node clients work through the proxy: small requests pass
// through with their unknown members, large ones are compacted, streams
// are relayed chunk by chunk (the upstream sends the next chunk only once
// the script has acknowledged the last).
func TestNodeClients(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the Node client tests in -short mode")
	}
	dir := nodeClients(t)
	script, err := os.ReadFile("testdata/clients.mjs")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "clients.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}

	h := newHarness(t, Options{Settings: smallWindow})
	const n = 6
	acks := make(chan int)
	ackSrv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		i, _ := strconv.Atoi(r.URL.Query().Get("i"))
		acks <- i
	}))
	defer ackSrv.Close()
	h.up.answer(func(w http.ResponseWriter, r *http.Request) {
		b := h.up.body(-1)
		switch {
		case gjson.GetBytes(b, "stream").Bool() && strings.HasSuffix(r.URL.Path, "/chat/completions"):
			streamChat(t, w, n, acks)
		case gjson.GetBytes(b, "stream").Bool():
			streamMessages(t, w, n, acks)
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(cannedReply(r.URL.Path)))
		}
	})

	cmd := exec.Command("node", filepath.Join(dir, "clients.mjs"))
	cmd.Env = append(os.Environ(), "PROXY_URL="+h.srv.URL, "ACK_URL="+ackSrv.URL, "API_KEY="+plantedKey)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node: %v\n%s", err, stderr.String())
	}
	type result struct {
		Content   string `json:"content"`
		Compacted string `json:"compacted"`
		Before    int    `json:"before"`
		After     int    `json:"after"`
	}
	var out struct {
		ChatSmall, ChatLarge, MessagesLarge result
		ChatStream, MessagesStream          []string
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("script output %q: %v", stdout.String(), err)
	}
	if r := out.ChatSmall; r.Content != "done" || r.Compacted != "false" || r.Before != r.After {
		t.Errorf("small chat: %+v", r)
	}
	for name, r := range map[string]result{"chat": out.ChatLarge, "messages": out.MessagesLarge} {
		if r.Content != "done" || r.Compacted != "true" || r.After >= r.Before {
			t.Errorf("large %s: %+v", name, r)
		}
	}
	want := []string{"0", "1", "2", "3", "4", "5"}
	if strings.Join(out.ChatStream, ",") != strings.Join(want, ",") || strings.Join(out.MessagesStream, ",") != strings.Join(want, ",") {
		t.Errorf("streams: chat %v, messages %v", out.ChatStream, out.MessagesStream)
	}

	// What the upstream got: the small body with its unknown member, the
	// large ones compacted and turn-safe.
	if h.up.calls() != 5 {
		t.Fatalf("upstream got %d calls, want 5", h.up.calls())
	}
	if !gjson.GetBytes(h.up.body(0), "x_unknown.kept").Bool() {
		t.Errorf("the unknown member did not reach the upstream: %s", h.up.body(0))
	}
	for _, i := range []int{1, 3} {
		api := map[int]*wireAPI{1: chatAPI, 3: messagesAPI}[i]
		pb, err := splitBody(h.up.body(i), api)
		if err != nil {
			t.Fatal(err)
		}
		var msgs []condense.Message
		for _, e := range pb.elems[1:] {
			ms, err := api.element(e)
			if err != nil {
				t.Fatal(err)
			}
			msgs = append(msgs, ms...)
		}
		if err := condense.Validate(msgs); err != nil || strings.Contains(string(h.up.body(i)), "step 0 line 1:") {
			t.Errorf("call %d: compacted history: %v", i, err)
		}
	}
}
