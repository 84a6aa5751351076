package ledger

import (
	"slices"
	"testing"

	"github.com/condense-dev/condense"
)

// TestObservationsTextProtocol: in a log with no tool calls, a user message
// answering an assistant message with a fenced action is the action's
// output, however it opens; the user's own messages stay requests.
func TestObservationsTextProtocol(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("Fix the flaky retry test. Never touch vendor/."),
		condense.AssistantText("Looking for the test.\n\n```\nfind_file retry_test.go\n```"),
		condense.UserText("Found 1 matches for \"retry_test.go\" in /repo:\n/repo/internal/retry/retry_test.go"),
		condense.AssistantText("Opening it.\n```\nopen internal/retry/retry_test.go\n```"),
		condense.UserText("(88 lines total)"),
		condense.AssistantText("The test is fixed."),
		condense.UserText("Thanks. Do not change the public API of package retry."),
		condense.AssistantText("```\ngo test ./internal/retry/\n```"),
		condense.UserText("ok  \trepo/internal/retry\t0.012s"),
	}
	got := Observations(msgs, 0)
	want := []bool{false, false, true, false, true, false, false, false, true}
	if !slices.Equal(got, want) {
		t.Fatalf("Observations = %v, want %v", got, want)
	}
	// A span that does not start the log has no task: its first user
	// message is read after the action before it, when it is given.
	if got := Observations(msgs[1:3], 1); !slices.Equal(got, []bool{false, true}) {
		t.Errorf("span: %v", got)
	}
	// The user's rule is a constraint; the relayed output's words are not
	// the user's.
	items := Strings(Extract(msgs, 0))
	if !slices.Contains(items, Item{Kind: KindConstraint, Value: "Do not change the public API of package retry."}.String()) {
		t.Errorf("the follow-up's rule is missing: %q", items)
	}
}

// TestObservationsWithTools: where the agent calls tools, a user message
// after a reply holding code is the user's answer, not output.
func TestObservationsWithTools(t *testing.T) {
	msgs := []condense.Message{
		condense.UserText("Add a retry to the client."),
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c1", "bash", []byte(`{"command":"ls"}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", false, condense.Text("client.go"))}},
		condense.AssistantText("Here is the change:\n```go\nfor i := 0; i < 3; i++ {}\n```"),
		condense.UserText("Looks good, but keep the backoff under one second."),
	}
	if got := Observations(msgs, 0); slices.Contains(got, true) {
		t.Errorf("Observations = %v, want none", got)
	}
}
