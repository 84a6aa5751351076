package session_test

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
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
		openAIKey = "sk-proj-7Qm2Xv9Lr4Tz8Nc1Pb6Wd3Ky5Hf0Js2Ga7Ue4Io9Ol1Mn3Bq"
		githubKey = "ghp_4Fq9Zt2Lm7Xc1Vb8Nw3Kr6Yp0Hd5Js2Ge7Ta"
	)
	st := memstore.New()
	var fail error
	st.Fail = func(*store.Batch) error { return fail }
	var buf bytes.Buffer
	o := options(4000, strategy.Default())
	o.Logger = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s := open(t, st, "s", o)
	appendAll(t, s, turn("a", 1))
	fail = errors.New(`insert failed: value too long for column "text": "export OPENAI_API_KEY=` + openAIKey + ` GITHUB_TOKEN=` + githubKey + `"`)
	err := s.Append(bg, condense.UserText("deploy with the keys above"))
	if !errors.Is(err, session.ErrUnsaved) || !strings.Contains(err.Error(), openAIKey) {
		t.Fatalf("Append under a failing store: %v", err)
	}
	out := buf.String()
	for _, k := range []string{openAIKey, githubKey} {
		if strings.Contains(out, k) {
			t.Errorf("secret %s… in the logs:\n%s", k[:8], out)
		}
	}
	for _, want := range []string{"save failed", "session=s", `insert failed: value too long for column`, "export OPENAI_API_KEY=[REDACTED] GITHUB_TOKEN=[REDACTED]"} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from the logs:\n%s", want, out)
		}
	}
}
