package redact_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/condense-dev/condense/internal/redact"
	"github.com/condense-dev/condense/internal/redact/redacttest"
)

// Made-up secrets of real shapes.
const (
	openAIKey = redacttest.OpenAIKey
	githubKey = redacttest.GitHubKey
	awsKey    = redacttest.AWSKey
)

// countingErr counts the calls of its Error method.
type countingErr struct {
	msg   string
	calls *int
}

func (e countingErr) Error() string { *e.calls++; return e.msg }

func TestErrRedactsWhenWritten(t *testing.T) {
	msg := fmt.Sprintf("summarizer: 401 Unauthorized: Incorrect API key provided: %s (also tried %s, %s)", openAIKey, githubKey, awsKey)
	for name, h := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		t.Run(name, func(t *testing.T) {
			var buf bytes.Buffer
			calls := 0
			slog.New(h(&buf)).Warn("refused", "err", redact.Err(countingErr{msg, &calls}), "quote", redact.Text("export OPENAI_API_KEY="+openAIKey))
			out := buf.String()
			for _, k := range []string{openAIKey, githubKey, awsKey} {
				if strings.Contains(out, k) {
					t.Errorf("secret %s in the log line: %s", k[:8], out)
				}
			}
			for _, s := range []string{"Incorrect API key provided: [REDACTED] (also tried [REDACTED], [REDACTED])", "export OPENAI_API_KEY=[REDACTED]"} {
				if !strings.Contains(out, s) {
					t.Errorf("%q missing from the log line: %s", s, out)
				}
			}
			if calls != 1 {
				t.Errorf("Error called %d times, want 1", calls)
			}
			if name == "json" && !json.Valid(bytes.TrimSpace(buf.Bytes())) {
				t.Errorf("not JSON: %s", out)
			}
		})
	}
}

// TestErrIsLazy: nothing is formatted or redacted for a disabled level.
func TestErrIsLazy(t *testing.T) {
	var buf bytes.Buffer
	calls := 0
	log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelError}))
	log.Warn("refused", "err", redact.Err(countingErr{"x", &calls}))
	if calls != 0 || buf.Len() != 0 {
		t.Fatalf("a disabled line formatted its error (%d calls): %s", calls, buf.String())
	}
}

// TestErrUnresolved: a handler that prints the value with fmt, without
// resolving it, sees the redacted message too; a nil error stays nil.
func TestErrUnresolved(t *testing.T) {
	err := errors.New("token rejected: " + githubKey)
	if s := fmt.Sprint(redact.Err(err)); s != "token rejected: [REDACTED]" {
		t.Errorf("fmt of Err = %q", s)
	}
	if s := fmt.Sprint(redact.Text("key " + awsKey)); s != "key [REDACTED]" {
		t.Errorf("fmt of Text = %q", s)
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Warn("x", "err", redact.Err(nil))
	if !strings.Contains(buf.String(), "err=<nil>") {
		t.Errorf("nil error logged as %s", buf.String())
	}
}
