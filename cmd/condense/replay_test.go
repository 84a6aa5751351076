package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/summarize"
)

// recordRun runs a tool loop that compacts with s and journals it as JSONL
// under dir; it returns the journal file.
func recordRun(t *testing.T, dir string, s condense.Strategy, crashAt int) string {
	t.Helper()
	var script []agenttest.Reply
	for i := range 8 {
		script = append(script, agenttest.CallTools(fmt.Sprintf("Reading part %d.", i),
			agenttest.Call{ID: fmt.Sprintf("c%d", i), Name: "read", Input: map[string]int{"part": i}}).WithUsage(condense.Usage{InputTokens: 1000 + 300*i, OutputTokens: 20}))
	}
	script = append(script, agenttest.Text("All parts read.").WithUsage(condense.Usage{InputTokens: 3000, OutputTokens: 5}))
	read := agent.NewTool("read", "Read a part.", func(ctx context.Context, in struct {
		Part int `json:"part"`
	}) (string, error) {
		return fmt.Sprintf("part %d: ", in.Part) + strings.Repeat("lorem ipsum dolor ", 30), nil
	})
	st, err := journal.OpenDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	a := &agent.Agent{Name: "reader", Model: agenttest.NewFakeModel(script...), Tools: []agent.Tool{read}, Journal: st, Strategy: s, Summarizer: summarize.Extractive{},
		Settings: condense.Settings{Window: 3000, ReservedOutput: 200, Fraction: 0.3}}
	if crashAt > 0 {
		a.Hooks.BeforeCall = func(_ context.Context, k agent.CallKind, n int) error {
			if k == agent.CallModel && n == crashAt {
				return agenttest.ErrCrash
			}
			return nil
		}
	}
	res, err := a.Run(context.Background(), condense.Request{Model: "claude-sonnet-4-5", Messages: []condense.Message{condense.UserText("Read all eight parts.")}}, agent.WithRunID("run-1"))
	if crashAt == 0 && s.Name() != "my_strategy" && (err != nil || len(res.Compactions) == 0) {
		t.Fatalf("recording: %v (compactions: %v)", err, res)
	}
	return st.Path("run-1")
}

func replay(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Run(context.Background(), append([]string{"replay"}, args...), &out, &errb)
	return ExitCode(err), out.String(), errb.String()
}

func TestReplayCommandMatches(t *testing.T) {
	for _, s := range []condense.Strategy{strategy.DropOldest{}, strategy.Default()} {
		path := recordRun(t, t.TempDir(), s, 0)
		code, out, errs := replay(t, path)
		if code != 0 || !strings.Contains(out, "events match") {
			t.Fatalf("%s: exit %d\n%s%s", s.Name(), code, out, errs)
		}
		// Another window that still compacts at the same calls matches too.
		code, out, errs = replay(t, path, "--window", "3100")
		if code != 0 {
			t.Fatalf("%s --window 3100: exit %d\n%s%s", s.Name(), code, out, errs)
		}
	}
}

func TestReplayCommandReportsFirstDivergence(t *testing.T) {
	path := recordRun(t, t.TempDir(), strategy.DropOldest{}, 0)
	b, _ := os.ReadFile(path)
	// The third tool's recorded output changes: the next model call's
	// input is no longer what was recorded.
	tampered := strings.Replace(string(b), `"output":"part 2: lorem`, `"output":"part 2: LOREM`, 1)
	if tampered == string(b) {
		t.Fatal("nothing to tamper with")
	}
	bad := filepath.Join(t.TempDir(), "tampered.jsonl")
	os.WriteFile(bad, []byte(tampered), 0o644)
	code, out, errs := replay(t, bad)
	if code != 1 || !strings.Contains(errs, "replay diverged at event") || !strings.Contains(errs, "recorded:") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

func TestReplayCommandCrashedJournal(t *testing.T) {
	path := recordRun(t, t.TempDir(), strategy.DropOldest{}, 5)
	code, out, errs := replay(t, path)
	if code != 0 || !strings.Contains(out, "resumable") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
}

func TestReplayCommandUsage(t *testing.T) {
	if code, _, _ := replay(t); code != 2 {
		t.Errorf("no file: exit %d", code)
	}
	if code, _, _ := replay(t, filepath.Join(t.TempDir(), "missing.jsonl")); code != 2 {
		t.Errorf("missing file: exit %d", code)
	}
	// A custom strategy cannot be rebuilt from its name.
	custom := condense.Func("my_strategy", func(ctx context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		return nil, condense.ErrNothingToCompact
	})
	path := recordRun(t, t.TempDir(), custom, 0)
	if code, _, errs := replay(t, path); code != 2 || !strings.Contains(errs, "not built in") {
		t.Errorf("custom strategy: exit %d: %s", code, errs)
	}
}
