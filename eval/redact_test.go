package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// testSecret is an OpenAI project key in the shape the redaction table
// knows: no report may carry it.
const testSecret = "sk-proj-" + "Qx7vT2mLp9Rk4Wz8Nc3Jd6Hs1Fb5Yg0Ue8Ai2Ko7"

// Reports list lost specifics by their text: error lines that quote a key
// are listed with the key redacted.
func TestReportsRedactLostSpecifics(t *testing.T) {
	msgs := []condense.Message{condense.UserText("Deploy the service.")}
	for i := 0; i < 30; i++ {
		id := fmt.Sprintf("c%d", i)
		out := fmt.Sprintf("Error: authentication failed for key %s at /srv/app/config_%d.go:12\n%s", testSecret, i,
			strings.Repeat("deploy trace line\n", 80))
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
				condense.ToolCall(id, "bash", json.RawMessage(fmt.Sprintf(`{"command":"./deploy.sh --stage %d"}`, i)))}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, true, condense.Text(out))}})
	}
	msgs = append(msgs, condense.AssistantText("Deployed."))
	tr := Transcript{Name: "session", Request: condense.Request{Model: "gpt-4o", Messages: msgs},
		Counter: tokens.ForModel("gpt-4o", tokens.Models), Budget: condense.Budget{Window: 12_000, ReservedOutput: 2_000}}
	reports, err := Evaluate(context.Background(), []Transcript{tr}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(struct {
		R []*Report
		T []PolicyReport
	}{reports, Aggregate(reports)})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), testSecret) {
		t.Fatalf("a report carries the key: %s", b)
	}
	// The test means something only if lost error lines are listed.
	if !strings.Contains(string(b), "Error: authentication failed for key [REDACTED]") {
		t.Fatalf("no lost error line listed: %s", b)
	}
}

// A rendering's validity error quotes call ids, which come from the
// history.
func TestValidityErrorRedacted(t *testing.T) {
	var v Validity
	v.check([]condense.Message{condense.UserText("go"),
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("key="+testSecret, false, condense.Text("ok"))}}})
	if v.Invalid != 1 || v.First == "" || strings.Contains(v.First, testSecret) {
		t.Fatalf("validity %+v", v)
	}
}

// A judge's answers quote the history; the verdicts report them redacted,
// after comparing the answers as given.
func TestJudgeVerdictsRedacted(t *testing.T) {
	line := "export OPENAI_API_KEY=" + testSecret
	full := []condense.Message{condense.UserText("set up: " + line)}
	probes := []Resolved{{Probe: Probe{Category: "config", Regex: "export OPENAI_API_KEY=\\S+"}, Expect: line}}
	vs, err := JudgeProbes(context.Background(), &fakeJudge{know: []string{line}}, full, full, probes, true)
	if err != nil || len(vs) != 1 {
		t.Fatalf("%v %v", vs, err)
	}
	b, _ := json.Marshal(vs)
	if strings.Contains(string(b), testSecret) || vs[0].Verdict != "same" || !strings.Contains(vs[0].Full, "OPENAI_API_KEY") {
		t.Fatalf("verdicts: %s", b)
	}
}
