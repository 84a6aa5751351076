package condense_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// callModel and runTools stand in for a provider call and tool execution:
// the model runs "go test" three times, then answers.
var turn int

func callModel(_ context.Context, req condense.Request) condense.Message {
	turn++
	if turn > 3 {
		return condense.AssistantText(fmt.Sprintf("Done after reading %d messages.", len(req.Messages)))
	}
	return condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.ToolCall(fmt.Sprintf("call_%d", turn), "bash", json.RawMessage(`{"command":"go test ./internal/parse"}`))}}
}

func runTools(reply condense.Message) []condense.Message {
	var out []condense.Message
	for _, c := range reply.ToolCalls() {
		out = append(out, condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(c.ID, false, condense.Text("ok"))}})
	}
	return out
}

func agentLoop(ctx context.Context) error {
	// The README's library example, verbatim (TestReadmeExample checks it).
	pf := condense.NewPreflight(tokens.ForModel("gpt-4o", tokens.Models), strategy.Default(),
		&condense.Options{Registry: tokens.Models})
	history := []condense.Message{condense.UserText("Make the test suite in ./internal/parse pass.")}
	for {
		res, err := pf.Prepare(ctx, condense.Request{Model: "gpt-4o", Messages: history})
		if err != nil {
			return err // *condense.WindowError when even compaction cannot fit it
		}
		for _, r := range res.Records {
			log.Printf("%s: %d → %d tokens", r.Strategy, r.TokensBefore, r.TokensAfter)
		}
		reply := callModel(ctx, res.Request) // your provider call, with the rendered request
		history = append(history, reply)
		if !reply.HasToolCalls() {
			break
		}
		history = append(history, runTools(reply)...) // tool messages with the results
	}
	fmt.Println(history[len(history)-1].TextContent())
	return nil
}

func Example_agentLoop() {
	if err := agentLoop(context.Background()); err != nil {
		log.Fatal(err)
	}
	// Output: Done after reading 7 messages.
}

// TestReadmeExample keeps the README's library example identical to the
// code above, so the README's code compiles and runs.
func TestReadmeExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile("(?s)```go\n(.*?)```").FindSubmatch(readme)
	if m == nil {
		t.Fatal("README has no go block")
	}
	src, _ := os.ReadFile("example_readme_test.go")
	var body []string
	for _, line := range strings.Split(string(src), "\n") {
		body = append(body, strings.TrimPrefix(line, "\t"))
	}
	code := strings.Join(body, "\n")
	block := strings.TrimSpace(string(m[1]))
	if !strings.Contains(code, block) {
		t.Fatalf("README example differs from agentLoop in example_readme_test.go:\n%s", block)
	}
	if n := strings.Count(block, "\n") + 1; n > 20 {
		t.Errorf("README example has %d lines, want ≤ 20", n)
	}
}
