package condense_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact/redacttest"
)

// Made-up secrets of real shapes, planted where a history can put them.
const (
	plantedOpenAI = redacttest.OpenAIKey
	plantedGitHub = redacttest.GitHubKey
	plantedAWS    = redacttest.AWSKey
)

var (
	capture       = redacttest.Logger
	checkRedacted = redacttest.Check
)

// TestPreflightLogsRedactRefusals: a strategy's error quoting tool output
// with keys in it is logged with the keys redacted and the rest intact; the
// error handed back to the caller is unchanged.
func TestPreflightLogsRedactRefusals(t *testing.T) {
	s := &session{}
	for i := 0; i < 5; i++ {
		s.user(big("x", 250)).assistant("ok")
	}
	quoting := condense.Func("quoting", func(context.Context, *condense.CompactionContext) ([]condense.Message, error) {
		return nil, fmt.Errorf("cannot parse the output of call_7: %q", "export OPENAI_API_KEY="+plantedOpenAI+"\ngit push https://"+plantedGitHub+"@github.com/acme/x")
	})
	log, buf := capture()
	o := opts(1_000)
	o.Logger = log
	res, err := condense.NewPreflight(&byteCounter{}, quoting, o).Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	checkRedacted(t, buf.String(), "compaction candidate refused", "strategy=quoting", "cannot parse the output of call_7",
		`export OPENAI_API_KEY=[REDACTED]`, `git push https://[REDACTED]@github.com/acme/x`)
	if len(res.Rejected) == 0 || !strings.Contains(res.Rejected[0].Error(), plantedOpenAI) {
		t.Errorf("the caller's error changed: %v", res.Rejected)
	}
}

// TestPreflightLogsRedactValidationErrors: a candidate that fails
// validation is logged with the call id it names, less the key in it.
func TestPreflightLogsRedactValidationErrors(t *testing.T) {
	id := "call_" + plantedAWS
	s := &session{}
	for i := 0; i < 5; i++ {
		s.user(big("x", 250)).assistant("ok")
	}
	s.msgs = append(s.msgs,
		condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", json.RawMessage(`{"command":"env"}`))}},
		condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text("HOME=/root"))}},
	)
	// Keeps the tool result, drops the call it answers.
	orphaning := condense.Func("orphaning", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		h := cc.Current.Messages()
		return []condense.Message{h[0], h[len(h)-1]}, nil
	})
	log, buf := capture()
	o := opts(1_000)
	o.Logger = log
	res, err := condense.NewPreflight(&byteCounter{}, orphaning, o).Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	var ve *condense.ValidationError
	if len(res.Rejected) == 0 || !errors.As(res.Rejected[0], &ve) {
		t.Fatalf("no validation error: %v", res.Rejected)
	}
	checkRedacted(t, buf.String(), "compaction candidate refused", "strategy=orphaning", "invalid history", `call_[REDACTED]`)
}
