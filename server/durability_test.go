package server_test

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/server"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/memstore"
)

// restartable serves servers one after the other over the same store and
// state directory, as a process restarted on the same data would.
type restartable struct {
	t     *testing.T
	st    store.Store
	js    journal.Store
	state string
}

func newRestartable(t *testing.T) *restartable {
	return &restartable{t: t, st: memstore.New(), js: journal.NewMemory(), state: t.TempDir()}
}

// start serves a new Server; stop closes it (its sessions and journal).
func (r *restartable) start(opts *server.Options) (c *client, stop func()) {
	r.t.Helper()
	if opts == nil {
		opts = &server.Options{}
	}
	opts.Logger = slog.New(slog.DiscardHandler)
	s, err := server.New(&server.Backend{Store: r.st, Journal: r.js, StateDir: r.state}, opts)
	if err != nil {
		r.t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	stopped := false
	stop = func() {
		if !stopped {
			stopped = true
			hs.Close()
			if err := s.Close(); err != nil {
				r.t.Errorf("close: %v", err)
			}
		}
	}
	r.t.Cleanup(stop)
	return &client{t: r.t, base: hs.URL}, stop
}

// withCookie sends a request with the login cookie only.
func (c *client) withCookie(method, path, cookie string) int {
	c.t.Helper()
	req, err := http.NewRequest(method, c.base+path, nil)
	if err != nil {
		c.t.Fatal(err)
	}
	req.AddCookie(&http.Cookie{Name: server.CookieName, Value: cookie})
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode
}

func login(t *testing.T, c *client, token string) string {
	t.Helper()
	req, _ := http.NewRequest("POST", c.base+"/v1/login", strings.NewReader(`{"token":"`+token+`"}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("login: status %d", resp.StatusCode)
	}
	for _, ck := range resp.Cookies() {
		if ck.Name == server.CookieName {
			if !ck.HttpOnly || ck.Expires.IsZero() {
				t.Fatalf("login cookie %+v: want HttpOnly with an expiry", ck)
			}
			return ck.Value
		}
	}
	t.Fatal("login set no cookie")
	return ""
}

// A login cookie works after a restart; the cookie of a token revoked
// meanwhile, an unknown cookie and a logged-out cookie do not; and the
// server's data directory holds neither the tokens nor the cookies.
func TestLoginSurvivesRestart(t *testing.T) {
	const alice, bob = "alice-token-0123456789", "bob-token-0123456789ab"
	r := newRestartable(t)
	c, stop := r.start(&server.Options{Tokens: map[string]string{alice: "alice", bob: "bob"}})
	ca, cb := login(t, c, alice), login(t, c, bob)
	if c.withCookie("GET", "/v1/sessions", ca) != 200 || c.withCookie("GET", "/v1/sessions", cb) != 200 {
		t.Fatal("fresh cookies refused")
	}
	stop()

	path := filepath.Join(r.state, "logins.json")
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("logins file mode %v, want 0600", st.Mode().Perm())
	}
	data, _ := os.ReadFile(path)
	for _, secret := range []string{alice, bob, ca, cb} {
		if strings.Contains(string(data), secret) {
			t.Fatalf("the logins file holds a token or cookie: %s", data)
		}
	}

	// Restarted with bob's token revoked.
	c, stop = r.start(&server.Options{Tokens: map[string]string{alice: "alice"}})
	if got := c.withCookie("GET", "/v1/sessions", ca); got != 200 {
		t.Fatalf("alice's cookie after a restart: status %d", got)
	}
	if got := c.withCookie("GET", "/v1/sessions", cb); got != 401 {
		t.Fatalf("the cookie of a revoked token: status %d, want 401", got)
	}
	if got := c.withCookie("GET", "/v1/sessions", "not-a-login-cookie"); got != 401 {
		t.Fatalf("an unknown cookie: status %d, want 401", got)
	}
	if got := c.withCookie("POST", "/v1/logout", ca); got != 204 {
		t.Fatalf("logout: status %d", got)
	}
	if got := c.withCookie("GET", "/v1/sessions", ca); got != 401 {
		t.Fatalf("a logged-out cookie: status %d, want 401", got)
	}
	stop()
	// Bob's token comes back: his old login was dropped with it.
	c, _ = r.start(&server.Options{Tokens: map[string]string{alice: "alice", bob: "bob"}})
	if c.withCookie("GET", "/v1/sessions", ca) != 401 || c.withCookie("GET", "/v1/sessions", cb) != 401 {
		t.Fatal("a logged-out or revoked login came back")
	}
}

// Events are durable in the server's event journal before they are shown
// or answered: when a session's own event file lost what was written to it
// (as unsynced writes are lost in a power cut), the next start restores
// them from the journal, with their ids, and numbering goes on.
func TestEventsSurviveLostEventFile(t *testing.T) {
	r := newRestartable(t)
	c, stop := r.start(nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o"},
		Messages: []condense.Message{condense.UserText("hello")}})
	p := "/v1/sessions/" + snap.ID
	for _, text := range []string{"one", "two", "three"} {
		c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: []condense.Message{condense.AssistantText(text)}}, nil)
	}
	var before server.Snapshot
	c.must(200, "GET", p, nil, &before)
	if before.LastEventID < 4 {
		t.Fatalf("last event id %d, want 4 appended events at least", before.LastEventID)
	}
	stop()

	file := filepath.Join(r.state, "events", snap.ID+".jsonl")
	if err := os.Truncate(file, 0); err != nil {
		t.Fatal(err)
	}
	c, _ = r.start(nil)
	var after server.Snapshot
	c.must(200, "GET", p, nil, &after)
	if after.LastEventID != before.LastEventID {
		t.Fatalf("after the restart the last event id is %d, want %d", after.LastEventID, before.LastEventID)
	}
	events := c.subscribe(snap.ID, 0)
	defer events.close()
	got := events.until(t, server.EventAppended, func(ev server.Event) bool { return ev.ID == before.LastEventID })
	for i, ev := range got {
		if ev.ID != int64(i+1) || ev.Type != server.EventAppended {
			t.Fatalf("event %d after the restart: %+v", i, ev)
		}
	}
	c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: []condense.Message{condense.UserText("four")}}, nil)
	next := events.until(t, server.EventAppended, nil)
	if id := next[len(next)-1].ID; id <= before.LastEventID {
		t.Fatalf("the next event has id %d, not after %d", id, before.LastEventID)
	}
}

// Appended events are not synced on their own: the messages they describe
// are durable in the store, and when a crash loses the newest of them —
// here, from the session's event file and the journal both — the session
// makes one appended event for the messages its log holds beyond the last
// kept one, under an id no event before the crash had.
func TestLostAppendedEventsAreMadeFromTheLog(t *testing.T) {
	r := newRestartable(t)
	c, stop := r.start(nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o"},
		Messages: []condense.Message{condense.UserText("hello")}})
	p := "/v1/sessions/" + snap.ID
	var first server.Snapshot
	c.must(200, "GET", p, nil, &first)
	stop()
	c, stop = r.start(nil)
	for _, text := range []string{"one", "two"} {
		c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: []condense.Message{condense.AssistantText(text)}}, nil)
	}
	var mid server.Snapshot
	c.must(200, "GET", p, nil, &mid)
	stop()
	// Lose the appended events after the first from the session's file
	// and the journal; the reservations, synced, stay.
	files, _ := filepath.Glob(filepath.Join(r.state, "events-*.wal"))
	files = append(files, filepath.Join(r.state, "events", snap.ID+".jsonl"))
	lost := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var keep []string
		for _, line := range strings.SplitAfter(string(data), "\n") {
			var ev server.Event
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == server.EventAppended && ev.ID > first.LastEventID {
				lost++
				continue
			}
			keep = append(keep, line)
		}
		if err := os.WriteFile(f, []byte(strings.Join(keep, "")), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if lost == 0 {
		t.Fatal("no appended event to lose")
	}

	c, _ = r.start(nil)
	var after server.Snapshot
	c.must(200, "GET", p, nil, &after)
	if after.Messages != 3 || after.LastEventID <= mid.LastEventID {
		t.Fatalf("after the restart: %d messages, last event %d (before the crash %d)", after.Messages, after.LastEventID, mid.LastEventID)
	}
	events := c.subscribe(snap.ID, mid.LastEventID)
	defer events.close()
	got := events.until(t, server.EventAppended, nil)
	var d struct {
		From, Count int
		IDs         []string
	}
	if err := json.Unmarshal(got[len(got)-1].Data, &d); err != nil || d.From != 1 || d.Count != 2 || len(d.IDs) != 2 {
		t.Fatalf("the appended event made from the log: %s (%v)", got[len(got)-1].Data, err)
	}
}

// The usage series of rendered requests survives a restart: each render
// appends its point to the session's usage file, and the record holds
// none of them.
func TestUsageSeriesSurvivesRestart(t *testing.T) {
	r := newRestartable(t)
	c, stop := r.start(nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "mask"}})
	p := "/v1/sessions/" + snap.ID
	for _, turn := range []string{"p1", "p2", "p3"} {
		c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: workTurn(turn, 4)}, nil)
		c.must(200, "POST", p+"/render", nil, nil)
	}
	var before struct{ Series []server.UsagePoint }
	c.must(200, "GET", p+"/usage", nil, &before)
	if len(before.Series) != 3 {
		t.Fatalf("usage series before the restart: %+v", before.Series)
	}
	// A change of settings rewrites the record: the series stays whole.
	c.must(200, "PATCH", p, map[string]any{"window": 7000}, nil)
	stop()
	rec, err := os.ReadFile(filepath.Join(r.state, "sessions", snap.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rec), `"series"`) {
		t.Fatalf("the record holds the usage series: %s", rec)
	}

	c, _ = r.start(nil)
	var after struct{ Series []server.UsagePoint }
	c.must(200, "GET", p+"/usage", nil, &after)
	if len(after.Series) != 3 {
		t.Fatalf("usage series after the restart: %d points, want 3", len(after.Series))
	}
	for i := range after.Series {
		a, b := after.Series[i], before.Series[i]
		if a.Tokens != b.Tokens || a.TokensBefore != b.TokensBefore || !a.Time.Equal(b.Time) || len(a.Compactions) != len(b.Compactions) {
			t.Fatalf("point %d: %+v after the restart, %+v before", i, a, b)
		}
	}
}
