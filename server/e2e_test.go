package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/server"
)

const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef00"
)

// child is a server process of the end-to-end test.
type child struct {
	cmd  *exec.Cmd
	base string
	done chan error
}

// startChild runs this test binary as a server on a loopback port over
// the store at url.
func startChild(t *testing.T, url, tokens string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CONDENSE_E2E_STORE="+url, "CONDENSE_E2E_TOKENS="+tokens)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &child{cmd: cmd, done: make(chan error, 1)}
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("server process: %v", err)
	}
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
	if !ok {
		cmd.Process.Kill()
		t.Fatalf("server process said %q", line)
	}
	c.base = "http://" + addr
	go func() { c.done <- cmd.Wait() }()
	t.Cleanup(func() { c.cmd.Process.Kill(); <-c.done })
	return c
}

// kill kills the server process at once (SIGKILL: no shutdown).
func (c *child) kill() {
	c.cmd.Process.Kill()
	<-c.done
	c.done <- nil // for Cleanup
}

// workTurn is a user prompt and steps tool steps with long results.
func workTurn(p string, steps int) []condense.Message {
	out := []condense.Message{{ID: p + "-u", Role: condense.RoleUser, Parts: []condense.Part{condense.Text("task " + p + ": look at the files and fix the failing test")}}}
	for k := 0; k < steps; k++ {
		id := fmt.Sprintf("%s-call%d", p, k)
		out = append(out,
			condense.Message{ID: id + "-a", Role: condense.RoleAssistant, Parts: []condense.Part{
				condense.Text("reading file " + id),
				condense.ToolCall(id, "read", json.RawMessage(fmt.Sprintf(`{"path":"internal/%s.go"}`, id)))}},
			condense.Message{ID: id + "-t", Role: condense.RoleTool, Parts: []condense.Part{
				condense.ToolResult(id, false, condense.Text(strings.Repeat(fmt.Sprintf("line of output from %s that goes on\n", id), 40)))}},
		)
	}
	return append(out, condense.Message{ID: p + "-done", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("done with " + p)}})
}

func newSession(t *testing.T, c *client, cfg server.CreateRequest) server.Snapshot {
	t.Helper()
	var snap server.Snapshot
	c.must(201, "POST", "/v1/sessions", cfg, &snap)
	return snap
}

// TestEndToEnd starts the real server in a process of its own on a
// loopback port and drives it with a plain HTTP client.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts server processes")
	}
	dir := t.TempDir()
	tokens := filepath.Join(dir, "tokens")
	os.WriteFile(tokens, []byte("# test tokens\n"+aliceToken+" alice\n"+bobToken+" bob\n"), 0o600)
	url := "jsonl:" + filepath.Join(dir, "store")
	srv := startChild(t, url, tokens)
	alice := &client{t: t, base: srv.base, token: aliceToken}
	bob := &client{t: t, base: srv.base, token: bobToken}

	// Without a token nothing is served.
	if st, body := (&client{t: t, base: srv.base}).do("GET", "/v1/sessions", nil); st != 401 || errorCode(t, body) != server.CodeUnauthorized {
		t.Fatalf("no token: %d %s", st, body)
	}

	// Create, append, render over the threshold.
	snap := newSession(t, alice, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "mask", System: testSystem}})
	id := snap.ID
	events := alice.subscribe(id, 0)
	for _, p := range []string{"p1", "p2", "p3"} {
		alice.must(200, "POST", "/v1/sessions/"+id+"/messages", server.AppendRequest{Messages: workTurn(p, 4)}, nil)
	}
	var rr server.RenderResponse
	alice.must(200, "POST", "/v1/sessions/"+id+"/render?format=openai", nil, &rr)
	if len(rr.Compactions) == 0 || rr.Compactions[0].Checkpoint == "" || rr.TokensBefore <= rr.Usage.Tokens {
		t.Fatalf("render over the threshold made no compaction: %+v", rr)
	}
	if rr.Usage.Tokens > rr.Usage.InputLimit {
		t.Fatalf("rendered %d tokens over the input limit %d", rr.Usage.Tokens, rr.Usage.InputLimit)
	}
	var body map[string]any
	if err := json.Unmarshal(rr.Request, &body); err != nil || body["model"] != "gpt-4o" || body["messages"] == nil {
		t.Fatalf("render did not return an OpenAI request: %s", rr.Request)
	}
	got := events.until(t, server.EventCompacted, nil)
	var compacted map[string]any
	json.Unmarshal(got[len(got)-1].Data, &compacted)
	if compacted["checkpoint"] != rr.Compactions[0].Checkpoint {
		t.Fatalf("compacted event %v, render made %s", compacted, rr.Compactions[0].Checkpoint)
	}
	lastSeen := got[len(got)-1].ID
	events.close()

	// Reconnect with Last-Event-ID: what happened meanwhile comes first,
	// nothing lost, nothing repeated.
	alice.must(200, "POST", "/v1/sessions/"+id+"/messages", server.AppendRequest{Messages: workTurn("p4", 1)}, nil)
	events = alice.subscribe(id, lastSeen)
	got = events.until(t, server.EventAppended, nil)
	if got[0].ID != lastSeen+1 {
		t.Fatalf("resumed at event %d, want %d", got[0].ID, lastSeen+1)
	}
	events.close()

	// Compact with nothing to compact: 400, history unchanged byte for byte.
	small := newSession(t, alice, server.CreateRequest{
		SessionConfig: server.SessionConfig{Model: "gpt-4o", Window: 100000, Strategy: "summarize", System: testSystem},
		Messages:      []condense.Message{condense.UserText("the task"), condense.AssistantText("on it")},
	})
	before := alice.must(200, "GET", "/v1/sessions/"+small.ID+"/messages", nil, nil)
	cpsBefore := alice.must(200, "GET", "/v1/sessions/"+small.ID+"/checkpoints", nil, nil)
	st, out := alice.do("POST", "/v1/sessions/"+small.ID+"/compact", server.CompactRequest{Instructions: "keep the task"})
	if st != 400 || errorCode(t, out) != server.CodeNothingToCompact {
		t.Fatalf("compact with nothing to compact: %d %s", st, out)
	}
	if after := alice.must(200, "GET", "/v1/sessions/"+small.ID+"/messages", nil, nil); !bytes.Equal(before, after) {
		t.Fatalf("history changed:\n%s\n%s", before, after)
	}
	if cps := alice.must(200, "GET", "/v1/sessions/"+small.ID+"/checkpoints", nil, nil); !bytes.Equal(cpsBefore, cps) {
		t.Fatalf("checkpoints changed:\n%s\n%s", cpsBefore, cps)
	}

	// A second token cannot read the first token's session.
	if st, out := bob.do("GET", "/v1/sessions/"+id, nil); st != 404 || errorCode(t, out) != server.CodeNotFound {
		t.Fatalf("bob read alice's session: %d %s", st, out)
	}
	var list server.SessionList
	bob.must(200, "GET", "/v1/sessions", nil, &list)
	if len(list.Sessions) != 0 {
		t.Fatalf("bob lists %v", list.Sessions)
	}

	// Abort a hosted run mid-summary: the model blocks on summaries until
	// cancelled.
	hostedSession := newSession(t, alice, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "summarize", Summarizer: "model", System: testSystem}})
	for _, p := range []string{"h1", "h2", "h3"} {
		alice.must(200, "POST", "/v1/sessions/"+hostedSession.ID+"/messages", server.AppendRequest{Messages: workTurn(p, 4)}, nil)
	}
	events = alice.subscribe(hostedSession.ID, 0)
	var pr server.PromptResponse
	alice.must(202, "POST", "/v1/sessions/"+hostedSession.ID+"/prompt", server.PromptRequest{Text: "go on"}, &pr)
	events.until(t, server.EventCompacting, func(ev server.Event) bool { return strings.Contains(string(ev.Data), `"summary"`) })
	// While the run waits on its summary the session is busy.
	if st, out := alice.do("POST", "/v1/sessions/"+hostedSession.ID+"/compact", nil); st != 409 || errorCode(t, out) != server.CodeBusy {
		t.Fatalf("compact during a run: %d %s", st, out)
	}
	alice.must(200, "POST", "/v1/sessions/"+hostedSession.ID+"/abort", nil, nil)
	got = events.until(t, server.EventSettled, nil)
	sawError := false
	for _, ev := range got {
		sawError = sawError || (ev.Type == server.EventError && strings.Contains(string(ev.Data), server.CodeCancelled))
	}
	if !sawError {
		t.Fatalf("no cancelled error event before settled: %v", got)
	}
	events.close()
	var run server.RunInfo
	alice.must(200, "GET", "/v1/sessions/"+hostedSession.ID+"/runs/"+pr.Run, nil, &run)
	if run.State != server.RunAborted {
		t.Fatalf("run state %q, want aborted", run.State)
	}
	var hs server.Snapshot
	alice.must(200, "GET", "/v1/sessions/"+hostedSession.ID, nil, &hs)
	if hs.Busy {
		t.Fatal("still busy after abort")
	}
	if jl := alice.must(200, "GET", "/v1/sessions/"+hostedSession.ID+"/runs/"+pr.Run+"/journal", nil, nil); !bytes.Contains(jl, []byte(`"run:started"`)) {
		t.Fatalf("journal export: %s", jl)
	}

	// Kill the server mid-append and restart: no acknowledged message is
	// lost. The kill comes after a number of acknowledgements, not after
	// a time.
	var mu sync.Mutex
	var acked []string
	killAt := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		c := &client{t: t, base: srv.base, token: aliceToken, hc: noFatal()}
		for k := 0; ; k++ {
			m := condense.UserText(fmt.Sprintf("message %d", k))
			m.ID = fmt.Sprintf("kill-%d", k)
			st, ok := c.try("POST", "/v1/sessions/"+small.ID+"/messages", server.AppendRequest{Messages: []condense.Message{m}})
			if !ok {
				return
			}
			if st == 200 {
				mu.Lock()
				acked = append(acked, m.ID)
				if len(acked) == 20 {
					close(killAt)
				}
				mu.Unlock()
			}
		}
	}()
	<-killAt
	srv.kill()
	<-stopped
	srv = startChild(t, url, tokens)
	alice.base = srv.base
	var page server.MessagesPage
	alice.must(200, "GET", "/v1/sessions/"+small.ID+"/messages?limit=1000", nil, &page)
	have := map[string]bool{}
	for _, m := range page.Messages {
		have[m.ID] = true
	}
	for _, id := range acked {
		if !have[id] {
			t.Fatalf("acknowledged message %s lost in the kill (have %d messages, %d acknowledged)", id, len(page.Messages), len(acked))
		}
	}
	// The event stream resumes after the restart too.
	events = alice.subscribe(id, lastSeen)
	got = events.until(t, server.EventAppended, nil)
	if got[0].ID != lastSeen+1 {
		t.Fatalf("after restart resumed at event %d, want %d", got[0].ID, lastSeen+1)
	}
	events.close()
	// And the first session still renders with its checkpoint.
	alice.must(200, "GET", "/v1/sessions/"+id, nil, &snap)
	if snap.Checkpoint == nil || snap.Checkpoint.ID != rr.Compactions[0].Checkpoint {
		t.Fatalf("after restart the checkpoint is %+v", snap.Checkpoint)
	}
}
