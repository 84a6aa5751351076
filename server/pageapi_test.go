package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/condense-dev/condense/server"
)

// The page's routes: the sessions list with state, what each checkpoint's
// ledger kept, the status that does not wait, and the page's files.
func TestPageAPI(t *testing.T) {
	c := inProcess(t, nil)
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "mask", System: testSystem}})
	p := "/v1/sessions/" + snap.ID
	var rr server.RenderResponse
	for _, turn := range []string{"p1", "p2", "p3"} {
		c.must(200, "POST", p+"/render", server.RenderRequest{Messages: workTurn(turn, 4)}, &rr)
	}
	c.must(200, "GET", p, nil, &snap)
	if snap.Checkpoint == nil {
		t.Fatal("the renders made no checkpoint")
	}

	var list struct{ Sessions []server.PageSession }
	c.must(200, "GET", "/v1/page/sessions", nil, &list)
	if len(list.Sessions) != 1 {
		t.Fatalf("listed %d sessions", len(list.Sessions))
	}
	ps := list.Sessions[0]
	if ps.ID != snap.ID || ps.Title != "task p1: look at the files and fix the failing test" || ps.Messages != snap.Messages ||
		ps.Usage != snap.Usage || ps.Busy || ps.Checkpoint == nil || ps.Checkpoint.ID != snap.Checkpoint.ID || ps.Checkpoints < 1 {
		t.Fatalf("page session %+v, snapshot %+v", ps, snap)
	}
	if ps.Checkpoint.TokensBefore <= ps.Checkpoint.TokensAfter {
		t.Fatalf("latest checkpoint %+v: tokens did not drop", ps.Checkpoint)
	}

	// Every item a checkpoint's ledger kept is in the request as rendered.
	var led struct{ Checkpoints []server.LedgerInfo }
	c.must(200, "GET", p+"/ledger", nil, &led)
	var cps struct{ Checkpoints []server.CheckpointInfo }
	c.must(200, "GET", p+"/checkpoints", nil, &cps)
	if len(led.Checkpoints) != len(cps.Checkpoints) {
		t.Fatalf("%d ledgers for %d checkpoints", len(led.Checkpoints), len(cps.Checkpoints))
	}
	c.must(200, "POST", p+"/render?format=condense", nil, &rr)
	kept := 0
	for _, l := range led.Checkpoints {
		for _, it := range l.Kept {
			kept++
			if !strings.Contains(string(rr.Request), strings.ReplaceAll(it, `"`, `\"`)) {
				t.Errorf("checkpoint %s kept %q, which the request lacks", l.Checkpoint, it)
			}
		}
	}
	if kept == 0 {
		t.Fatalf("no ledger item kept: %+v", led.Checkpoints)
	}

	var st server.PageStatus
	c.must(200, "GET", p+"/status", nil, &st)
	c.must(200, "GET", p, nil, &snap)
	if st.Busy || st.LastEventID != snap.LastEventID || st.LastEventID == 0 {
		t.Fatalf("status %+v, snapshot's last event %d", st, snap.LastEventID)
	}

	// The page: its HTML at /, its files under /page/, the API's 404
	// elsewhere.
	for _, tc := range []struct{ path, ctype, has string }{
		{"/", "text/html", `src="/page/page.js"`},
		{"/page/page.js", "javascript", "EventSource"},
		{"/page/page.css", "text/css", "@media"},
	} {
		resp, err := http.Get(c.base + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), tc.ctype) || !strings.Contains(string(body), tc.has) ||
			!strings.Contains(resp.Header.Get("Content-Security-Policy"), "default-src 'self'") {
			t.Errorf("GET %s: %d %s %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), body[:min(len(body), 80)])
		}
	}
	if st, body := c.do("GET", "/nothing-here", nil); st != 404 || errorCode(t, body) != server.CodeNotFound {
		t.Errorf("GET /nothing-here: %d %s", st, body)
	}
}
