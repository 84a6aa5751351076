package server_test

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/server"
)

// A hosted run prepares through the session: the compaction its first
// preflight makes is saved as a checkpoint the page sees, each message is
// appended as the run makes it, and an aborted run keeps what it did.
func TestHostedRunCheckpointsAndKeepsWhatItDid(t *testing.T) {
	blocked := make(chan struct{})
	model := agenttest.NewFakeModel(agenttest.CallTools("looking", agenttest.Call{ID: "look-1", Name: "look", Input: map[string]string{"path": "queue.go"}}))
	model.Func = func(ctx context.Context, n int, req *condense.Request) (*agent.Response, error) {
		if req.System != testSystem { // a summary: answer it
			return &agent.Response{Message: condense.AssistantText("summary"), StopReason: agent.StopEndTurn}, nil
		}
		close(blocked) // the second call of the loop waits until the run is aborted
		<-ctx.Done()
		return nil, ctx.Err()
	}
	look := agent.NewTool("look", "read a file", func(ctx context.Context, in struct{ Path string }) (string, error) {
		return "contents of " + in.Path, nil
	})
	c := inProcess(t, &server.Options{
		NewModel: func(provider, name string) (agent.Model, error) { return model, nil },
		Tools:    []agent.Tool{look},
	})
	snap := newSession(t, c, server.CreateRequest{SessionConfig: server.SessionConfig{
		Model: "gpt-4o", Window: 6000, ReservedOutput: 500, Strategy: "mask", System: testSystem}})
	p := "/v1/sessions/" + snap.ID
	for _, turn := range []string{"p1", "p2", "p3"} {
		c.must(200, "POST", p+"/messages", server.AppendRequest{Messages: workTurn(turn, 4)}, nil)
	}
	var before server.Snapshot
	c.must(200, "GET", p, nil, &before)
	if before.Checkpoint != nil {
		t.Fatalf("a checkpoint before the run: %+v", before.Checkpoint)
	}
	events := c.subscribe(snap.ID, before.LastEventID)
	defer events.close()

	var pr server.PromptResponse
	c.must(202, "POST", p+"/prompt", server.PromptRequest{Text: "go on"}, &pr)
	<-blocked

	// While the run waits on its second model call, the session already
	// holds the run's compaction as a checkpoint, and the prompt, the
	// model's tool call and the tool's result.
	var cps struct{ Checkpoints []server.CheckpointInfo }
	c.must(200, "GET", p+"/checkpoints", nil, &cps)
	if len(cps.Checkpoints) == 0 {
		t.Fatal("the run's compaction was not saved as a checkpoint")
	}
	var page server.MessagesPage
	c.must(200, "GET", p+"/messages?from="+strconv.Itoa(before.Messages), nil, &page)
	if len(page.Messages) != 3 || !page.Messages[1].HasToolCalls() || page.Messages[2].Role != condense.RoleTool {
		t.Fatalf("during the run the session holds %d new messages, want the prompt, the tool call and its result: %+v", len(page.Messages), page.Messages)
	}
	got := events.until(t, server.EventCompacted, nil)
	var compacted map[string]any
	json.Unmarshal(got[len(got)-1].Data, &compacted)
	if compacted["checkpoint"] != cps.Checkpoints[0].ID || compacted["run"] != pr.Run {
		t.Fatalf("compacted event %v, want checkpoint %s of run %s", compacted, cps.Checkpoints[0].ID, pr.Run)
	}

	c.must(200, "POST", p+"/abort", nil, nil)
	events.until(t, server.EventSettled, nil)
	var run server.RunInfo
	c.must(200, "GET", p+"/runs/"+pr.Run, nil, &run)
	if run.State != server.RunAborted || run.Appended != 2 {
		t.Fatalf("run %+v, want aborted with 2 messages appended", run)
	}
	var after server.Snapshot
	c.must(200, "GET", p, nil, &after)
	if after.Messages != before.Messages+3 || after.Checkpoint == nil {
		t.Fatalf("after the abort: %d messages (want %d), checkpoint %v", after.Messages, before.Messages+3, after.Checkpoint)
	}
	if !strings.HasPrefix(pr.Run, snap.ID) {
		t.Fatalf("run id %q", pr.Run)
	}
}
