package session_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/tokens"
)

// A coding session compacted on demand, as /compact does in Claude Code.
// The oldest turn becomes one summary message (the task before it stays
// verbatim, the newest turns are kept whole), the log itself is unchanged,
// and the compaction is saved as checkpoint c1: its originals can be
// recalled and the checkpoint undone. The summary is written by the
// embedded extractive summarizer: no model, no network.
func ExampleSession_Compact() {
	ctx := context.Background()
	s, err := session.Open(ctx, memstore.New(), "demo", &session.Options{
		Request:   condense.Request{Model: "gpt-4o", System: "You are a coding agent."},
		Counter:   tokens.Heuristic(tokens.FamilyOpenAI),
		Preflight: condense.Options{Settings: condense.Settings{Window: 8_000, ReservedOutput: 1_000}},
	})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	// step is one tool call of the agent and its (long) result.
	step := func(id, cmd, output string) []condense.Message {
		input, _ := json.Marshal(map[string]string{"command": cmd})
		return []condense.Message{
			{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", input)}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(output))}},
		}
	}
	var history []condense.Message
	history = append(history, condense.UserText("Fix the failing test in ./internal/parse."))
	history = append(history, step("call_1", "go test ./internal/parse",
		strings.Repeat("=== RUN   TestParse\n", 150)+"--- FAIL: TestParse (0.01s)\n    lexer_test.go:42: got 3 tokens, want 4\n")...)
	history = append(history, condense.AssistantText("The lexer drops the last token; I fixed internal/parse/lexer.go."))
	history = append(history, condense.UserText("Now make the CLI print its version."))
	history = append(history, step("call_2", "go build ./cmd/app", strings.Repeat("compiling cmd/app\n", 150))...)
	history = append(history, condense.AssistantText("cmd/app/main.go prints the version with --version."))
	history = append(history, condense.UserText("Run the whole test suite."))
	if err := s.Append(ctx, history...); err != nil {
		panic(err)
	}

	res, err := s.Compact(ctx, condense.WithInstructions("Keep the names of the files that changed."))
	if err != nil {
		panic(err)
	}
	fmt.Println("tokens:", res.TokensBefore, "→", res.Tokens)
	for _, r := range res.Records {
		fmt.Printf("record %s: %s %v, %d → %d messages, manual %v\n",
			r.Checkpoint, r.Strategy, r.Steps, r.MessagesBefore, r.MessagesAfter, r.Manual)
	}
	for _, cp := range s.Checkpoints() {
		fmt.Printf("checkpoint %s: history %d, first kept %d, edits %v\n", cp.ID, cp.HistoryCount, cp.FirstKept, cp.Edits)
	}
	for _, it := range s.Rendering() {
		what, _, _ := strings.Cut(it.Message.TextContent(), "\n")
		if what == "" {
			what = string(it.Message.Parts[0].Type)
		}
		fmt.Printf("  %2d %-9s %s\n", it.Index, it.Message.Role, what)
	}

	// The summary's sections; the log behind it can be recalled.
	var sections []string
	for _, line := range strings.Split(s.Rendering()[1].Message.TextContent(), "\n") {
		if strings.HasPrefix(line, "## ") {
			sections = append(sections, line)
		}
	}
	fmt.Println(strings.Join(sections, " "))
	recalled, _ := s.Recall(ctx, "c1")
	fmt.Println("recall c1: log messages from", recalled[0].Start, "count", len(recalled[0].Messages))

	// Undo takes the checkpoint back: the rendering is the log again.
	undone, _ := s.Undo(ctx, "c1")
	fmt.Println("undone:", undone, "rendering:", len(s.Rendering()), "messages, log:", s.Len(), "messages")
	// Output:
	// tokens: 1890 → 967
	// record c1: pipeline(minify,mask,summarize,drop-oldest) [summarize], 9 → 7 messages, manual true
	// checkpoint c1: history 9, first kept 4, edits [{summary 1 4}]
	//    0 user      Fix the failing test in ./internal/parse.
	//   -1 user      <summary checkpoint="c1" covers="1-3">
	//    4 user      Now make the CLI print its version.
	//    5 assistant tool_call
	//    6 tool      tool_result
	//    7 assistant cmd/app/main.go prints the version with --version.
	//    8 user      Run the whole test suite.
	// ## Task ## Constraints ## Decisions ## Done ## Failed / open ## Next steps
	// recall c1: log messages from 1 count 3
	// undone: [c1] rendering: 9 messages, log: 9 messages
}
