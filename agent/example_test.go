package agent_test

import (
	"context"
	"fmt"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
)

// A tool loop: the model calls a tool, reads its result and answers. The
// run is journaled; running it again under the same id serves it from the
// journal without calling the model or the tool.
func ExampleAgent_Run() {
	ctx := context.Background()
	type order struct {
		ID string `json:"id" jsonschema:"required,description=the order id"`
	}
	lookups := 0
	lookup := agent.NewTool("lookup", "Look an order up.", func(ctx context.Context, in order) (string, error) {
		lookups++
		return "order " + in.ID + ": charged twice, 12.00 EUR each", nil
	})
	model := agenttest.NewFakeModel( // stands for anthropicmodel.New(…) or openaimodel.New(…)
		agenttest.CallTools("Let me check.", agenttest.Call{ID: "call-1", Name: "lookup", Input: order{ID: "o-7"}}),
		agenttest.Text("Refund one 12.00 EUR charge of order o-7."),
	)
	a := &agent.Agent{
		Model:    model,
		Tools:    []agent.Tool{lookup},
		Journal:  journal.NewMemory(), // journal.OpenDir(dir) or sqlite.Open(ctx, path) to keep it
		Settings: condense.Settings{Window: 200_000},
	}
	req := condense.Request{Model: "claude-sonnet-4-5", Messages: []condense.Message{condense.UserText("Why was I charged twice?")}}
	res, err := a.Run(ctx, req, agent.WithRunID("ticket-9"))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Text())
	fmt.Println("model calls:", res.ModelCalls, "tool calls:", res.ToolCalls, "history:", len(res.Messages), "messages")

	again, _ := a.Run(ctx, req, agent.WithRunID("ticket-9")) // served from the journal
	fmt.Println(again.Text(), "| requests sent:", len(model.Calls()), "lookups:", lookups)
	// Output:
	// Refund one 12.00 EUR charge of order o-7.
	// model calls: 2 tool calls: 1 history: 4 messages
	// Refund one 12.00 EUR charge of order o-7. | requests sent: 2 lookups: 1
}
