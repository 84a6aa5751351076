package journal

import "testing"

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
