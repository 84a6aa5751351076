package session_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact/redacttest"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/strategy"
)

// TestSaveFailureLogRedacted: a store whose save fails with an error
// quoting the batch (a constraint violation echoing the row, here with
// keys in it) is logged without the keys; the caller's error keeps them.
func TestSaveFailureLogRedacted(t *testing.T) {
	const (
		openAIKey = redacttest.OpenAIKey
		githubKey = redacttest.GitHubKey
	)
	st := memstore.New()
	var fail error
	st.Fail = func(*store.Batch) error { return fail }
	o := options(4000, strategy.Default())
	var buf *bytes.Buffer
	o.Logger, buf = redacttest.Logger()
	s := open(t, st, "s", o)
	appendAll(t, s, turn("a", 1))
	fail = errors.New(`insert failed: value too long for column "text": "export OPENAI_API_KEY=` + openAIKey + ` GITHUB_TOKEN=` + githubKey + `"`)
	err := s.Append(bg, condense.UserText("deploy with the keys above"))
	if !errors.Is(err, session.ErrUnsaved) || !strings.Contains(err.Error(), openAIKey) {
		t.Fatalf("Append under a failing store: %v", err)
	}
	redacttest.Check(t, buf.String(), "save failed", "session=s", `insert failed: value too long for column`, "export OPENAI_API_KEY=[REDACTED] GITHUB_TOKEN=[REDACTED]")
}
