package eval_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/eval"
	"github.com/condense-dev/condense/tokens"
)

// Evaluate replays a transcript under the default policies and reports,
// per policy, whether the last request fits and how many of the original's
// specifics it kept.
func ExampleEvaluate() {
	msgs := []condense.Message{condense.UserText("Fix the failing test in internal/calc/parse.go.")}
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("c%d", i)
		out := fmt.Sprintf("--- FAIL: TestParse%d (0.%02ds)\n%s", i, i, strings.Repeat("parse trace line\n", 80))
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
				condense.ToolCall(id, "bash", json.RawMessage(fmt.Sprintf(`{"command":"go test -run TestParse%d ./internal/calc/"}`, i)))}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, true, condense.Text(out))}})
	}
	msgs = append(msgs, condense.AssistantText("Fixed: the parser now accepts unary minus."))

	t := eval.Transcript{Name: "session", Request: condense.Request{Model: "gpt-4o", Messages: msgs},
		Counter: tokens.ForModel("gpt-4o", tokens.Models), Budget: condense.Budget{Window: 12_000, ReservedOutput: 2_000}}
	reports, err := eval.Evaluate(context.Background(), []eval.Transcript{t}, eval.Config{})
	if err != nil {
		panic(err)
	}
	// The Codex policy keeps 20k tokens of recent turns verbatim: in a 12k
	// window with one long turn it has nothing it may summarize.
	for _, p := range reports[0].Policies {
		fmt.Printf("%-11s fits=%-5v valid=%v overflows=%d\n", p.Name, p.Final.Fits, p.Validity.Valid(), p.Replay.Overflows)
	}
	// Output:
	// none        fits=false valid=true overflows=3
	// drop-oldest fits=true  valid=true overflows=0
	// mask        fits=true  valid=true overflows=0
	// codex       fits=true  valid=true overflows=0
	// default     fits=true  valid=true overflows=0
}
