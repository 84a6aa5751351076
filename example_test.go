package condense_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// A tool loop hands every request to the preflight before calling the model.
func Example() {
	ctx := context.Background()
	pf := condense.NewPreflight(tokens.ForModel("gpt-4o", tokens.Models), strategy.Default(),
		&condense.Options{Registry: tokens.Models, Settings: condense.Settings{Window: 16_000}})
	history := []condense.Message{condense.UserText("Make the test suite in ./internal/parse pass.")}
	for i := range 30 {
		id := fmt.Sprintf("call_%d", i) // the model asked for a tool; we ran it
		history = append(history,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", json.RawMessage(`{"command":"go test ./internal/parse"}`))}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, true,
				condense.Text(fmt.Sprintf("--- FAIL: TestParse%d (0.01s)\n", i)+strings.Repeat("    parse_test.go:42: unexpected token\n", 40)))}})
		res, err := pf.Prepare(ctx, condense.Request{Model: "gpt-4o", Messages: history})
		if err != nil {
			log.Fatal(err) // *condense.WindowError when even compaction cannot fit it
		}
		for _, r := range res.Records {
			fmt.Printf("call %d: %v %d → %d tokens\n", i, r.Steps, r.TokensBefore, r.TokensAfter)
		}
		_ = res.Request // send this to the model
	}
	// Output: call 20: [mask summarize(split-turn)] 9363 → 2190 tokens
}
