package journal

import (
	"encoding/json"
	"strings"
	"testing"
)

// Below full capture an error keeps its code only: a tool's or provider's
// message may echo content. Final run errors carry numbers only and
// keep their message.
func TestRedactErrorsBelowFull(t *testing.T) {
	step := Event{Step: &Step{Error: &ErrorInfo{Code: "tool_error", Message: "open /home/me/secret.txt: denied"}}}
	run := Event{Error: &RunError{Code: "api", Message: "anthropic: HTTP 400: your prompt said: hello"}}
	final := Event{Error: &RunError{Code: "context_window_exceeded", Message: "request needs 9000 tokens", Tokens: 9000, Window: 8000}}
	for _, c := range []Capture{CaptureCounts, CaptureNone} {
		if got := step.Redact(c).Step.Error; got.Message != "" || got.Code != "tool_error" {
			t.Errorf("%v: step error %+v", c, got)
		}
		if got := run.Redact(c).Error; got.Message != "" || got.Code != "api" {
			t.Errorf("%v: run error %+v", c, got)
		}
		if got := final.Redact(c).Error; got.Message == "" || got.Tokens != 9000 {
			t.Errorf("%v: final run error lost its numbers: %+v", c, got)
		}
	}
	if got := step.Redact(CaptureFull).Step.Error.Message; got == "" {
		t.Error("full capture lost the message")
	}
	if step.Step.Error.Message == "" {
		t.Error("Redact modified the event it was given")
	}
}

// Below full capture no text an event keeps carries a secret from the
// run's history: every event kind, with a key planted in each of its text
// fields, is written without it at CaptureCounts and CaptureNone.
func TestRedactSecretsBelowFull(t *testing.T) {
	secrets := []string{
		"sk-proj-" + "Qx7vT2mLp9Rk4Wz8Nc3Jd6Hs1Fb5Yg0Ue8Ai2Ko7",
		"ghp_" + "a8F3kL9mQ2xR7tV4wZ1pN6cJ0bH5dS3gY8uE",
	}
	for _, secret := range secrets {
		text := "curl -H 'Authorization: Bearer " + secret + "' failed; key=" + secret + " " + secret
		out := text
		events := []Event{
			{Kind: KindRunStarted, Started: &RunStarted{Agent: text, Model: text, Strategy: text, Fingerprint: "ab"}},
			{Kind: KindStepDone, Step: &Step{StepKind: StepTool, Tool: text, CallID: text, Model: text, StopReason: text,
				Fingerprint: "ab", Output: &out, Input: []byte(`{"cmd":"` + text + `"}`), Summary: text,
				Error: &ErrorInfo{Code: "tool_error", Message: text}}},
			{Kind: KindRunError, Error: &RunError{Code: "invalid_history", Message: "message 3: " + text, Limit: text}},
			{Kind: KindRunError, Error: &RunError{Code: "limit_exceeded", Message: text, Limit: text}},
			{Kind: KindRunError, Error: &RunError{Code: "provider_error", Message: text}},
			{Kind: KindRunDone, Done: &RunDone{StopReason: text, Result: &out}},
		}
		for _, c := range []Capture{CaptureCounts, CaptureNone} {
			for _, ev := range events {
				ev.Seq, ev.Run = 1, "r"
				b, err := json.Marshal(ev.Redact(c))
				if err != nil {
					t.Fatal(err)
				}
				if strings.Contains(string(b), secret) {
					t.Errorf("%s at %s keeps a secret: %s", ev.Kind, c, b)
				}
			}
		}
		// Full capture keeps the history whole: that is what replay needs.
		full, _ := json.Marshal(events[1].Redact(CaptureFull))
		if !strings.Contains(string(full), secret) {
			t.Errorf("full capture lost content: %s", full)
		}
	}
}

// A divergence's message quotes the recorded event, which holds content
// at full capture: its secrets are redacted.
func TestRedactDivergenceMessage(t *testing.T) {
	secret := "sk-proj-" + "Qx7vT2mLp9Rk4Wz8Nc3Jd6Hs1Fb5Yg0Ue8Ai2Ko7"
	out := "export OPENAI_API_KEY=" + secret
	want := Event{Seq: 3, Run: "r", Kind: KindStepDone, Step: &Step{StepKind: StepTool, Tool: "bash", Fingerprint: "ab", Output: &out}}
	got := Event{Seq: 3, Run: "r", Kind: KindStepDone, Step: &Step{StepKind: StepTool, Tool: "bash", Fingerprint: "cd", Output: &out}}
	msg := (&DivergenceError{Seq: 3, Want: &want, Got: &got, Reason: "the rerun made a different step"}).Error()
	if strings.Contains(msg, secret) || !strings.Contains(msg, "recorded:") || !strings.Contains(msg, "OPENAI_API_KEY") {
		t.Fatalf("divergence message: %s", msg)
	}
}
