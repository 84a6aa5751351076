package server_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/agent/workspace"
	"github.com/condense-dev/condense/server"
)

// A hosted run with the workspace tools: the model reads a file of the
// workspace and tries one outside it; both results — the file's text, and
// the refusal marked as an error — are in the session's history, and the
// run goes on to its answer.
func TestHostedRunReadsTheWorkspace(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "repo")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the lease is renewed every 5s\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "secret.txt"), []byte("TOP SECRET\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := workspace.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	model := agenttest.NewFakeModel(
		agenttest.CallTools("reading",
			agenttest.Call{ID: "c1", Name: "read_file", Input: map[string]string{"path": "notes.txt"}},
			agenttest.Call{ID: "c2", Name: "read_file", Input: map[string]string{"path": "../secret.txt"}}),
		agenttest.Text("the lease is renewed every 5s"))
	c := inProcess(t, &server.Options{
		NewModel: func(provider, name string) (agent.Model, error) { return model, nil },
		Tools:    ws.Tools(),
	})
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{Model: "gpt-4o", System: testSystem}})
	p := "/v1/sessions/" + snap.ID
	events := c.subscribe(snap.ID, snap.LastEventID)
	defer events.close()
	var pr server.PromptResponse
	c.must(202, "POST", p+"/prompt", server.PromptRequest{Text: "how often is the lease renewed?"}, &pr)
	events.until(t, server.EventSettled, nil)

	var run server.RunInfo
	c.must(200, "GET", p+"/runs/"+pr.Run, nil, &run)
	if run.State != server.RunDone || run.ToolCalls != 2 {
		t.Fatalf("run %+v, want done after 2 tool calls", run)
	}
	// The model was offered the tools.
	if calls := model.Calls(); len(calls) == 0 || len(calls[0].Tools) != 3 {
		t.Fatalf("the model was offered %d tools, want read_file, list_files and search", len(calls[0].Tools))
	}
	var page server.MessagesPage
	c.must(200, "GET", p+"/messages?from="+strconv.Itoa(snap.Messages), nil, &page)
	results := map[string]condense.Part{}
	for _, m := range page.Messages {
		for _, part := range m.Parts {
			if part.Type == condense.PartToolResult {
				results[part.CallID] = part
			}
		}
	}
	text := func(p condense.Part) string {
		var b strings.Builder
		for _, c := range p.Content {
			b.WriteString(c.Text)
		}
		return b.String()
	}
	if r, ok := results["c1"]; !ok || r.IsError || !strings.Contains(text(r), "the lease is renewed every 5s") {
		t.Fatalf("read_file result in the history: %+v", r)
	}
	if r, ok := results["c2"]; !ok || !r.IsError || !strings.Contains(text(r), "leaves the workspace") || strings.Contains(text(r), "SECRET") {
		t.Fatalf("the escape's result in the history: %+v", r)
	}
	if last := page.Messages[len(page.Messages)-1]; last.Role != condense.RoleAssistant || last.TextContent() != "the lease is renewed every 5s" {
		t.Fatalf("last message %+v", last)
	}
}
