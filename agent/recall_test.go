package agent_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/strategy"
)

// An agent given a recall tool wired to its session's Recall gets the
// original of a masked tool output back.
func TestJournalRecallTool(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	s, err := session.Open(ctx, st, "s1", &session.Options{
		Request:   condense.Request{Model: "m"},
		Counter:   charCounter{},
		Strategy:  strategy.Mask{KeepSteps: 1},
		Preflight: condense.Options{Settings: condense.Settings{Window: 50_000, ReservedOutput: 200}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	secret := "panic: runtime error: index out of range [7] with length 3 at internal/x.go:42"
	hist := []condense.Message{
		condense.UserText("Fix the crash."),
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("t1", "run", []byte(`{"cmd":"go test ./..."}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("t1", true, condense.Text(strings.Repeat("ok  \tpkg/a\t0.1s\n", 200)+secret))}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("t2", "run", []byte(`{"cmd":"git status"}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("t2", false, condense.Text("clean"))}},
		condense.AssistantText("Looking."),
		condense.UserText("Go on."),
	}
	if err := s.Append(ctx, hist...); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Compact(ctx); err != nil {
		t.Fatal(err)
	}
	var ref string
	for _, it := range s.Rendering() {
		if m := regexp.MustCompile(`recall (r\d+-[0-9a-f]{8})`).FindStringSubmatch(toolText(it.Message)); m != nil {
			ref = m[1]
		}
	}
	if ref == "" {
		t.Fatal("no masked tool output with a recall reference")
	}
	llm := agenttest.NewFakeModel(
		agenttest.CallTools("Let me see the original.", agenttest.Call{ID: "r1", Name: "recall", Input: agent.RecallInput{Ref: ref}}),
		agenttest.Text("The index is out of range in internal/x.go."),
	)
	a := &agent.Agent{Model: llm, NewCounter: newCounter, Tools: []agent.Tool{agent.RecallTool(s)}, Settings: condense.Settings{Window: 50_000}}
	rendered := s.Rendering().Messages()
	if _, err := a.Run(ctx, condense.Request{Model: "m", Messages: rendered}); err != nil {
		t.Fatal(err)
	}
	calls := llm.Calls()
	if len(calls) != 2 {
		t.Fatalf("%d calls", len(calls))
	}
	last := calls[1].Messages[len(calls[1].Messages)-1]
	if last.Role != condense.RoleTool || !strings.Contains(toolText(last), secret) || last.Parts[0].IsError {
		t.Fatalf("recall result: %s", toolText(last))
	}
	if strings.Count(toolText(rendered[2]), "ok  \tpkg/a") > 1 {
		t.Fatal("the rendering was not masked")
	}
	// A bad reference is an error result, and the loop goes on.
	llm = agenttest.NewFakeModel(
		agenttest.CallTools("", agenttest.Call{ID: "r1", Name: "recall", Input: agent.RecallInput{Ref: "nonsense"}}),
		agenttest.Text("ok"),
	)
	a.Model = llm
	if _, err := a.Run(ctx, condense.Request{Model: "m", Messages: rendered}); err != nil {
		t.Fatal(err)
	}
	if p := llm.Calls()[1].Messages[len(llm.Calls()[1].Messages)-1].Parts[0]; !p.IsError {
		t.Fatalf("bad reference: %+v", p)
	}
}

func toolText(m condense.Message) string {
	var b strings.Builder
	for _, p := range m.Parts {
		b.WriteString(p.Text)
		for _, c := range p.Content {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}
