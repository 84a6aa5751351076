package strategy_test

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
	"github.com/condense-dev/condense/transcript"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// TestExtractiveGolden summarizes the sample sessions with the extractive
// summarizer: the rendered summary is byte-identical run to run (and to the
// golden file), and every ledger item of the summarized span is in it or
// counted as demoted.
func TestExtractiveGolden(t *testing.T) {
	samples := []string{"claude-code.jsonl", "codex-rollout.jsonl", "openai-chat.json", "anthropic-messages.json", "swe-agent-fc.traj", "claude-code-large.jsonl"}
	for _, name := range samples {
		t.Run(name, func(t *testing.T) {
			tr, err := transcript.ReadFile(filepath.Join("..", "transcript", "testdata", name), transcript.Options{})
			if err != nil {
				t.Fatal(err)
			}
			summarizeOnce := func() (string, *condense.Result) {
				pf := condense.NewPreflight(tokens.Heuristic("anthropic"), strategy.Summarize{RecentTokens: 1},
					&condense.Options{Settings: condense.Settings{Window: 200_000}, Logger: quiet})
				res, err := pf.Compact(context.Background(), condense.Request{Messages: tr.Request.Messages})
				if errors.Is(err, condense.ErrNothingToCompact) {
					t.Skipf("%s has fewer than two turns", name)
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, it := range res.Rendering {
					if it.Edit == condense.EditSummary {
						return it.Message.TextContent(), res
					}
				}
				t.Fatal("no summary rendered")
				return "", nil
			}
			a, res := summarizeOnce()
			b, _ := summarizeOnce()
			if a != b {
				t.Fatal("extractive summary differs between runs")
			}
			golden := filepath.Join("testdata", "golden", strings.ReplaceAll(name, ".", "_")+".summary.md")
			if *update {
				os.MkdirAll(filepath.Dir(golden), 0o755)
				if err := os.WriteFile(golden, []byte(a), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if string(want) != a {
				t.Fatalf("summary differs from %s (run with -update after checking the change):\n%s", golden, a)
			}
			// Every ledger item of the span is in the summary, or demoted.
			var sum condense.Item
			for _, it := range res.Rendering {
				if it.Edit == condense.EditSummary {
					sum = it
				}
			}
			msgs := tr.Request.Messages
			verbatim := map[int]bool{}
			for _, it := range res.Rendering {
				if it.Index >= 0 && it.Edit == condense.EditNone {
					verbatim[it.Index] = true
				}
			}
			var span []condense.Message
			for i := sum.Covers.Start; i < sum.Covers.End; i++ {
				if verbatim[i] {
					span = append(span, condense.Message{Role: msgs[i].Role})
				} else {
					span = append(span, msgs[i])
				}
			}
			missing := 0
			for _, li := range ledger.Extract(span, sum.Covers.Start) {
				if li.Kind != ledger.KindTask && !strings.Contains(a, li.Value) && !strings.Contains(a, li.String()) {
					missing++
				}
			}
			if missing > res.Records[0].Demoted {
				t.Fatalf("%d ledger items missing from the summary, %d demoted", missing, res.Records[0].Demoted)
			}
			t.Logf("%s: covers %d-%d, gate %+v", name, sum.Covers.Start, sum.Covers.End-1, res.Records[0].Gate)
		})
	}
}
