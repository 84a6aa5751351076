package agenttest_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
)

// summarizeMiddle keeps the first message (the task) and the last two, and
// summarizes the middle with the journaled summarize helper.
var summarizeMiddle = condense.Func("summarize_middle", func(ctx context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
	msgs := cc.Current.Messages()
	head, middle, tail := msgs[:1], msgs[1:len(msgs)-2], msgs[len(msgs)-2:]
	summary, err := cc.Summarizer.Summarize(ctx, condense.SummaryRequest{Messages: middle, Instructions: "Summarize the ticket history."})
	if err != nil {
		return nil, err
	}
	out := append(slices.Clone(head), condense.UserText("Earlier: "+summary.Text))
	return append(out, tail...), nil
})

// ticket is the agent's request: the task, a note and an acknowledgement
// per note, and the question.
func ticket(notes []string) condense.Request {
	history := []condense.Message{condense.UserText("You handle ticket T-9.")}
	for _, n := range notes {
		history = append(history, condense.UserText(n), condense.AssistantText("Noted."))
	}
	history = append(history, condense.UserText("What should we do next?"))
	return condense.Request{Model: "claude-sonnet-4-5", Messages: history}
}

// A ticket agent with a 2,000-token window summarizes the middle of its
// history, crashes before the answer call, and resumes: the summary is
// served from the journal, not asked for again.
func ExampleRunner() {
	ctx := context.Background()
	llm := agenttest.NewFakeModel(
		agenttest.Text("Customer was double-charged; refund approved."), // the summary
		agenttest.Text("Issue the refund."),                             // the answer
	)
	runner := agenttest.NewRunner(&agent.Agent{
		Name:     "ticket",
		Model:    llm,
		Strategy: summarizeMiddle,
		Settings: condense.Settings{Window: 2_000, ReservedOutput: 200, Fraction: 0.5},
	})
	var notes []string
	for i := range 8 {
		notes = append(notes, fmt.Sprintf("Note %d: ", i)+strings.Repeat("details ", 60))
	}

	runner.CrashAt(agent.CallModel, 1) // the process dies before the answer call
	_, err := runner.Run(ctx, ticket(notes))
	fmt.Println("crashed:", errors.Is(err, agenttest.ErrCrash), "calls:", len(llm.Calls()))

	res, err := runner.Run(ctx, ticket(notes)) // resume
	if err != nil {
		fmt.Println(err)
		return
	}
	calls := llm.Calls()
	fmt.Println("calls:", len(calls), "final request:", len(calls[len(calls)-1].Messages), "messages")
	fmt.Println("answer:", res.Text())

	events, _ := runner.Journal(ctx)
	for _, e := range events {
		if e.Kind == journal.KindCompacted {
			c := e.Compacted
			fmt.Printf("context:compacted %d → %d messages, strategy %s\n", c.MessagesBefore, c.MessagesAfter, c.Strategy)
		}
	}
	// Output:
	// crashed: true calls: 1
	// calls: 2 final request: 4 messages
	// answer: Issue the refund.
	// context:compacted 18 → 4 messages, strategy summarize_middle
}
