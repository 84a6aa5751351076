package condense_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// Made-up secrets of real shapes, planted where a history can put them.
const (
	plantedOpenAI = "sk-proj-7Qm2Xv9Lr4Tz8Nc1Pb6Wd3Ky5Hf0Js2Ga7Ue4Io9Ol1Mn3Bq"
	plantedGitHub = "ghp_4Fq9Zt2Lm7Xc1Vb8Nw3Kr6Yp0Hd5Js2Ge7Ta"
	plantedAWS    = "AKIAZ7Q2M8V1N7J3P6W0"
)

// capture returns a logger writing every level to a buffer.
func capture() (*slog.Logger, *bytes.Buffer) {
	var buf bytes.Buffer
	return slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})), &buf
}

// checkRedacted fails unless out holds each of keep and none of the
// planted secrets.
func checkRedacted(t *testing.T, out string, keep ...string) {
	t.Helper()
	for _, k := range []string{plantedOpenAI, plantedGitHub, plantedAWS} {
		if strings.Contains(out, k) {
			t.Errorf("secret %s… in the logs:\n%s", k[:8], out)
		}
	}
	for _, s := range keep {
		if !strings.Contains(out, s) {
			t.Errorf("%q missing from the logs:\n%s", s, out)
		}
	}
}

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
