package ledger_test

import (
	"encoding/json"
	"fmt"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// A masked tool result keeps its ledger items in its placeholder.
func ExampleExtractResult() {
	call := condense.ToolCall("call_7", "bash", json.RawMessage(`{"command":"go test ./internal/x"}`))
	result := condense.ToolResult("call_7", true, condense.Text(
		"--- FAIL: TestIndex (0.00s)\n"+
			"panic: runtime error: index out of range [3] with length 3\n"+
			"\n"+
			"goroutine 7 [running]:\n"+
			"example.com/app/internal/x.Index(...)\n"+
			"\t/src/app/internal/x/index.go:27\n"+
			"FAIL\texample.com/app/internal/x\t0.012s\n"+
			"exit status 2\n"))

	items := ledger.ExtractResult(&call, &result, 42)
	kept, demoted := ledger.Bound(items, ledger.DefaultBudget(8000), nil)
	fmt.Println(condense.MaskPlaceholder(5210, condense.RecallRef(42, &result), ledger.Strings(kept)))
	fmt.Println(len(demoted), "demoted")
	// Output:
	// [condense: tool output masked (5,210 tokens) · recall r42-5238c4db · kept: command "go test ./internal/x" (exit 2); file ./internal/x; error "--- FAIL: TestIndex (0.00s)"; error "panic: runtime error: index out of range [3] with length 3"; file /src/app/internal/x/index.go; error "example.com/app/internal/x.Index(…) at /src/app/internal/x/index.go:27"; error `FAIL	example.com/app/internal/x	0.012s`]
	// 0 demoted
}

// Secrets are redacted before anything is extracted.
func ExampleRedact() {
	fmt.Println(ledger.Redact("psql postgres://app:hunter2@db:5432/orders"))
	fmt.Println(ledger.Redact(`curl -H "Authorization: Bearer abcdef0123456789" https://api.example.com`))
	// Output:
	// psql postgres://app:[REDACTED]@db:5432/orders
	// curl -H "Authorization: Bearer [REDACTED]" https://api.example.com
}

// A summary renders the ledger of its span in a "## Ledger" section.
func ExampleSection() {
	msgs := []condense.Message{
		condense.UserText("Speed up the parser; don't change its API."),
		condense.AssistantText("I'll use a lookup table instead of the switch."),
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", false,
			condense.Text("BenchmarkParse-8   1000000   1043 ns/op   512 B/op   8 allocs/op"))}},
	}
	kept, demoted := ledger.Bound(ledger.Extract(msgs, 0), 72, nil)
	fmt.Print(ledger.Section(kept, len(demoted)))
	// Output:
	// ## Ledger
	// - task "Speed up the parser; don't change its API."
	// - constraint "Speed up the parser; don't change its API."
	// - decision "I'll use a lookup table instead of the switch."
	// - (1 more demoted to recall-only)
}
