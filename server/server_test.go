package server_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/server"
	"github.com/condense-dev/condense/store/memstore"
)

// inProcess serves a server over a memory store.
func inProcess(t *testing.T, opts *server.Options) *client {
	t.Helper()
	if opts == nil {
		opts = &server.Options{}
	}
	opts.Logger = slog.New(slog.DiscardHandler)
	s, err := server.New(&server.Backend{Store: memstore.New(), Journal: journal.NewMemory(), StateDir: t.TempDir()}, opts)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() { hs.Close(); s.Close() })
	return &client{t: t, base: hs.URL}
}

func TestAppendProviderBodies(t *testing.T) {
	c := inProcess(t, nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o"}})
	p := "/v1/sessions/" + snap.ID + "/messages"
	body := json.RawMessage(`{"model":"gpt-4o","messages":[{"role":"user","content":"hello"},{"role":"assistant","content":"hi"}]}`)
	var ar server.AppendResponse
	c.must(200, "POST", p, server.AppendRequest{Format: "openai", Body: body}, &ar)
	if ar.Count != 2 || ar.Messages != 2 {
		t.Fatalf("first body: %+v", ar)
	}
	// The same conversation one turn later appends only the new turn.
	body = json.RawMessage(`{"model":"gpt-4o","messages":[{"role":"user","content":"hello"},{"role":"assistant","content":"hi"},{"role":"user","content":"again"}]}`)
	c.must(200, "POST", p, server.AppendRequest{Format: "openai", Body: body}, &ar)
	if ar.From != 2 || ar.Count != 1 {
		t.Fatalf("second body: %+v", ar)
	}
	// A body that rewrites the history is refused.
	body = json.RawMessage(`{"model":"gpt-4o","messages":[{"role":"user","content":"bye"},{"role":"assistant","content":"hi"},{"role":"user","content":"again"}]}`)
	if st, out := c.do("POST", p, server.AppendRequest{Format: "openai", Body: body}); st != 409 || errorCode(t, out) != server.CodeHistoryMismatch {
		t.Fatalf("rewritten history: %d %s", st, out)
	}
	// Anthropic bodies too, and the render answers in Anthropic's form.
	snap = newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "claude-sonnet-4-5"}})
	body = json.RawMessage(`{"model":"claude-sonnet-4-5","max_tokens":1024,"messages":[{"role":"user","content":[{"type":"text","text":"hello"}]}]}`)
	c.must(200, "POST", "/v1/sessions/"+snap.ID+"/messages", server.AppendRequest{Format: "anthropic", Body: body}, nil)
	var rr server.RenderResponse
	c.must(200, "POST", "/v1/sessions/"+snap.ID+"/render", server.RenderRequest{Format: "anthropic"}, &rr)
	if !strings.Contains(string(rr.Request), `"max_tokens"`) || rr.Format != "anthropic" {
		t.Fatalf("anthropic render: %s", rr.Request)
	}
}

func TestInvalidRequests(t *testing.T) {
	c := inProcess(t, &server.Options{MaxBodyBytes: 4096})
	for _, tc := range []struct {
		body  any
		field string
	}{
		{server.CreateRequest{}, "model"},
		{server.CreateRequest{SessionConfig: server.SessionConfig{Model: "no-such-model"}}, "window"},
		{server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o", Strategy: "magic"}}, "strategy"},
		{server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o", Provider: "anthropic"}}, "provider"},
	} {
		st, out := c.do("POST", "/v1/sessions", tc.body)
		var e struct{ Error server.Error }
		json.Unmarshal(out, &e)
		if st != 400 || e.Error.Code != server.CodeInvalidRequest || e.Error.Field != tc.field {
			t.Errorf("%+v: %d %s, want invalid_request on %s", tc.body, st, out, tc.field)
		}
	}
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o"}})
	big := server.AppendRequest{Messages: []condense.Message{condense.UserText(strings.Repeat("x", 8000))}}
	if st, out := c.do("POST", "/v1/sessions/"+snap.ID+"/messages", big); st != 413 || errorCode(t, out) != server.CodeTooLarge {
		t.Fatalf("over the body limit: %d %s", st, out)
	}
	if st, out := c.do("GET", "/v1/nowhere", nil); st != 404 || errorCode(t, out) != server.CodeNotFound {
		t.Fatalf("unknown route: %d %s", st, out)
	}
	if st, out := c.do("GET", "/v1/sessions/"+snap.ID+"/recall", nil); st != 400 || errorCode(t, out) != server.CodeInvalidRequest {
		t.Fatalf("recall without ref: %d %s", st, out)
	}
}

// A page logs in once; the cookie then serves every request, event
// streams included, and only the owner's sessions.
func TestLoginCookie(t *testing.T) {
	c := inProcess(t, &server.Options{Tokens: map[string]string{aliceToken: "alice", bobToken: "bob"}})
	jar, _ := cookiejar.New(nil)
	page := &client{t: t, base: c.base, hc: &http.Client{Jar: jar}}
	if st, _ := page.do("POST", "/v1/login", server.LoginRequest{Token: "wrong-token-0123456789"}); st != 401 {
		t.Fatalf("bad login: %d", st)
	}
	page.must(200, "POST", "/v1/login", server.LoginRequest{Token: aliceToken}, nil)
	snap := newSession(t, page, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o"}})
	alice := &client{t: t, base: c.base, token: aliceToken}
	alice.must(200, "GET", "/v1/sessions/"+snap.ID, nil, nil)
	bob := &client{t: t, base: c.base, token: bobToken}
	if st, _ := bob.do("DELETE", "/v1/sessions/"+snap.ID, nil); st != 404 {
		t.Fatalf("bob deleted alice's session: %d", st)
	}
	page.must(204, "POST", "/v1/logout", nil, nil)
	if st, _ := page.do("GET", "/v1/sessions", nil); st != 401 {
		t.Fatalf("after logout: %d", st)
	}
}

// Undo returns the rendering byte for byte; a window change refreshes
// compaction_available; the overlay and usage series describe renders.
func TestUndoPatchOverlay(t *testing.T) {
	c := inProcess(t, nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "mask"}})
	id := snap.ID
	var first server.RenderResponse
	for _, p := range []string{"p1", "p2"} {
		c.must(200, "POST", "/v1/sessions/"+id+"/messages", server.AppendRequest{Messages: workTurn(p, 4)}, nil)
	}
	c.must(200, "POST", "/v1/sessions/"+id+"/render", nil, &first)
	c.must(200, "POST", "/v1/sessions/"+id+"/messages", server.AppendRequest{Messages: workTurn("p3", 4)}, nil)
	var rr server.RenderResponse
	c.must(200, "POST", "/v1/sessions/"+id+"/render", nil, &rr)
	if len(rr.Compactions) == 0 {
		t.Fatal("no compaction")
	}
	var ov struct {
		Items []server.OverlayItem `json:"items"`
	}
	c.must(200, "GET", "/v1/sessions/"+id+"/overlay", nil, &ov)
	masked := 0
	for _, it := range ov.Items {
		if it.Rendering == "masked" {
			masked++
			if it.Recall == "" || it.Checkpoint != rr.Compactions[0].Checkpoint {
				t.Fatalf("masked item %+v", it)
			}
			var rec server.RecallResponse
			c.must(200, "GET", "/v1/sessions/"+id+"/recall?ref="+it.Recall, nil, &rec)
		}
	}
	if masked == 0 {
		t.Fatalf("overlay shows nothing masked: %+v", ov.Items)
	}
	var series struct{ Series []server.UsagePoint }
	c.must(200, "GET", "/v1/sessions/"+id+"/usage", nil, &series)
	if len(series.Series) != 2 || len(series.Series[1].Compactions) == 0 {
		t.Fatalf("usage series %+v", series.Series)
	}
	var undo server.UndoResponse
	c.must(200, "POST", "/v1/sessions/"+id+"/checkpoints/"+rr.Compactions[0].Checkpoint+"/undo", nil, &undo)
	if undo.Snapshot.Checkpoint != nil {
		t.Fatalf("checkpoint after undo: %+v", undo.Snapshot.Checkpoint)
	}
	// A window so large that nothing is over it: compaction_available
	// follows the setting.
	var before, after server.Snapshot
	c.must(200, "GET", "/v1/sessions/"+id, nil, &before)
	window := 1000000
	c.must(200, "PATCH", "/v1/sessions/"+id, server.ConfigChange{Window: &window}, &after)
	if after.Config.Window != window || after.Usage.Window != window || after.CompactionAvailable == nil {
		t.Fatalf("after PATCH: %+v", after)
	}
	if after.Usage.Percent >= before.Usage.Percent {
		t.Fatalf("percent %v after a larger window, %v before", after.Usage.Percent, before.Usage.Percent)
	}
}

// A mount serves its handler under its prefix, stripped, outside the API's
// auth; a prefix that would take the server's own routes is refused.
func TestMounts(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "mounted "+r.URL.Path) })
	c := inProcess(t, &server.Options{Tokens: map[string]string{"tok-0123456789abcdef": "alice"}, Mounts: map[string]http.Handler{"/proxy": h}})
	resp, err := http.Get(c.base + "/proxy/v1/messages")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "mounted /v1/messages" {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	if st, _ := c.do("GET", "/v1/sessions", nil); st != 401 {
		t.Fatalf("the API without a token: %d", st)
	}
	for _, bad := range []string{"proxy", "/proxy/", "/v1", "/v1/proxy", "/page", "/metrics", "/healthz", "/{x}"} {
		_, err := server.New(&server.Backend{Store: memstore.New(), Journal: journal.NewMemory(), StateDir: t.TempDir()},
			&server.Options{Mounts: map[string]http.Handler{bad: h}})
		if err == nil {
			t.Errorf("mount %q accepted", bad)
		}
	}
}
