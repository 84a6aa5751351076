package strategy_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

// fakeSummarizer answers with a fixed function and counts its calls.
type fakeSummarizer struct {
	calls int
	last  condense.SummaryRequest
	f     func(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error)
}

func (f *fakeSummarizer) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	f.calls++
	f.last = in
	return f.f(ctx, in)
}

// withSummarizer runs s with sum as the preflight's summarizer, whatever
// the preflight was configured with.
func withSummarizer(s condense.Strategy, sum condense.Summarizer) condense.Strategy {
	return summarizing{s, sum}
}

type summarizing struct {
	condense.Strategy
	sum condense.Summarizer
}

func (s summarizing) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	c := *cc
	c.Summarizer = s.sum
	return s.Strategy.Compact(ctx, &c)
}

// turns builds n user turns of one tool step each, about size bytes a turn.
func turns(n, size int) []condense.Message {
	var msgs []condense.Message
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("call_%d", i)
		in, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("go test ./pkg%d/...", i)})
		msgs = append(msgs,
			condense.Message{ID: fmt.Sprintf("u%d", i), Role: condense.RoleUser, Parts: []condense.Part{condense.Text(fmt.Sprintf("Request %d: fix pkg%d.", i, i))}},
			condense.Message{ID: fmt.Sprintf("a%d", i), Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("Running the tests."), condense.ToolCall(id, "bash", in)}},
			condense.Message{ID: fmt.Sprintf("t%d", i), Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, true,
				condense.Text(fmt.Sprintf("--- FAIL: TestPkg%d (0.01s)\n", i)+strings.Repeat("noise line of test output\n", size/26)))}},
			condense.Message{ID: fmt.Sprintf("r%d", i), Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(fmt.Sprintf("pkg%d is fixed.", i))}},
		)
	}
	return msgs
}

func prepare(t *testing.T, s condense.Strategy, window int, msgs []condense.Message) (*condense.Preflight, *condense.Result) {
	t.Helper()
	pf := condense.NewPreflight(tokens.Heuristic("anthropic"), s, &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 500}, Logger: quiet})
	res, err := pf.Prepare(context.Background(), condense.Request{Messages: msgs})
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return pf, res
}

func TestSummarizeRejectedResponsesLeaveTheRendering(t *testing.T) {
	msgs := turns(6, 4000)
	cases := map[string]func(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error){
		"Truncated": func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
			return nil, &summarize.RejectedError{Reason: summarize.ErrTruncated, StopReason: "max_tokens"}
		},
		"Empty": func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
			return &condense.Summary{Text: "  \n"}, nil
		},
		"ToolCall": func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
			return nil, &summarize.RejectedError{Reason: summarize.ErrToolCall}
		},
		"Overloaded": func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
			return nil, &condense.APIError{Provider: "anthropic", Status: 529, Kind: condense.ErrOverloaded}
		},
		"Longer": func(_ context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
			return &condense.Summary{Text: strings.Repeat("## Summary\nwordy words words\n", 5000)}, nil
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			fs := &fakeSummarizer{f: f}
			full := condense.CountRequest(tokens.Heuristic("anthropic"), &condense.Request{Messages: msgs})
			_, res := prepare(t, withSummarizer(strategy.Summarize{}, fs), full+2000, msgs) // over threshold, under the limit
			if fs.calls != 1 {
				t.Fatalf("summarizer called %d times", fs.calls)
			}
			if len(res.Records) != 0 || len(res.Rejected) != 1 {
				t.Fatalf("records %v, rejected %v", res.Records, res.Rejected)
			}
			if len(res.Request.Messages) != len(msgs) {
				t.Fatalf("rendering changed: %d messages, want %d", len(res.Request.Messages), len(msgs))
			}
			for i := range msgs {
				if res.Rendering[i].Index != i || res.Rendering[i].Edit != condense.EditNone {
					t.Fatalf("item %d changed", i)
				}
			}
		})
	}
}

func TestSummarizeCancel(t *testing.T) {
	msgs := turns(6, 4000)
	ctx, cancel := context.WithCancel(context.Background())
	fs := &fakeSummarizer{f: func(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
		cancel()
		return nil, ctx.Err()
	}}
	pf := condense.NewPreflight(tokens.Heuristic("anthropic"), withSummarizer(strategy.Summarize{}, fs), &condense.Options{Settings: condense.Settings{Window: 10_000}, Logger: quiet})
	if _, err := pf.Prepare(ctx, condense.Request{Messages: msgs}); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if r := pf.Rendering(); len(r) != len(msgs) {
		t.Fatalf("a cancelled pass changed the rendering: %d items", len(r))
	}
}

func TestSummarizeNeedsTwoTurns(t *testing.T) {
	msgs := turns(1, 400)
	fs := &fakeSummarizer{f: func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
		t.Fatal("called")
		return nil, nil
	}}
	pf := condense.NewPreflight(tokens.Heuristic("anthropic"), withSummarizer(strategy.Summarize{}, fs), &condense.Options{Settings: condense.Settings{Window: 100_000}, Logger: quiet})
	_, err := pf.Compact(context.Background(), condense.Request{Messages: msgs})
	if !errors.Is(err, condense.ErrNothingToCompact) {
		t.Fatalf("err = %v", err)
	}
}

func TestSummarizeIncrementalAndGrowsAtEnd(t *testing.T) {
	msgs := turns(8, 3000)
	fs := &fakeSummarizer{f: func(_ context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
		return &condense.Summary{Text: fmt.Sprintf("## Summary\nSummary of %d messages.\n\n## Facts\n- fact from %d\n", len(in.Messages), in.Base)}, nil
	}}
	counter := tokens.Heuristic("anthropic")
	// Recent retention holds one turn of the first eight, not one of them
	// and the two small turns added later.
	oneTurn := condense.CountRequest(counter, &condense.Request{Messages: turns(1, 3000)})
	pf := condense.NewPreflight(counter, withSummarizer(strategy.Summarize{RecentTokens: oneTurn + 50}, fs),
		&condense.Options{Settings: condense.Settings{Window: 1_000_000}, Logger: quiet})
	ctx := context.Background()
	res, err := pf.Compact(ctx, condense.Request{Messages: msgs})
	if err != nil || len(res.Records) != 1 {
		t.Fatalf("first compaction: %v %+v", err, res)
	}
	first := res.Request.Messages
	sum := first[1].TextContent()
	if !strings.HasPrefix(sum, `<summary checkpoint="c1" covers="1-`) || !strings.HasSuffix(sum, "</summary>") {
		t.Fatalf("summary message: %q", sum[:min(80, len(sum))])
	}
	if first[0].TextContent() != msgs[0].TextContent() {
		t.Fatal("the task is not first and verbatim")
	}
	// Between compactions the rendering only grows at its end.
	more := append(msgs[:len(msgs):len(msgs)], renamed(turns(2, 100), "more")...)
	res2, err := pf.Prepare(ctx, condense.Request{Messages: more})
	if err != nil || len(res2.Records) != 0 {
		t.Fatalf("second call: %v, %d records", err, len(res2.Records))
	}
	if len(res2.Request.Messages) != len(first)+8 {
		t.Fatalf("rendering has %d messages, want %d", len(res2.Request.Messages), len(first)+8)
	}
	for i := range first {
		a, _ := json.Marshal(first[i])
		b, _ := json.Marshal(res2.Request.Messages[i])
		if string(a) != string(b) {
			t.Fatalf("prefix changed at %d without a compaction", i)
		}
	}
	// A second compaction feeds the first summary in and replaces it.
	res3, err := pf.Compact(ctx, condense.Request{Messages: more})
	if err != nil || len(res3.Records) != 1 {
		t.Fatalf("second compaction: %v", err)
	}
	if !strings.Contains(fs.last.Previous, "Summary of") {
		t.Fatalf("the previous summary was not fed in: %q", fs.last.Previous)
	}
	summaries := 0
	for _, it := range res3.Rendering {
		if it.Edit == condense.EditSummary {
			summaries++
			if !strings.Contains(it.Message.TextContent(), `checkpoint="c2" covers="1-`) {
				t.Fatalf("second summary: %.80q", it.Message.TextContent())
			}
		}
	}
	if summaries != 1 {
		t.Fatalf("%d summaries rendered, want 1", summaries)
	}
}

// renamed gives msgs fresh message and call ids with prefix p.
func renamed(msgs []condense.Message, p string) []condense.Message {
	out := make([]condense.Message, len(msgs))
	for i, m := range msgs {
		m.ID = p + m.ID
		m.Parts = append([]condense.Part(nil), m.Parts...)
		for k := range m.Parts {
			if m.Parts[k].ID != "" {
				m.Parts[k].ID = p + m.Parts[k].ID
			}
			if m.Parts[k].CallID != "" {
				m.Parts[k].CallID = p + m.Parts[k].CallID
			}
		}
		out[i] = m
	}
	return out
}

func TestSummarizeSplitTurn(t *testing.T) {
	// One task, many steps: the newest turn alone is over the retention
	// budget, so a split-turn summary cuts it at a step boundary.
	var msgs []condense.Message
	msgs = append(msgs, condense.UserText("Bisect the regression."))
	for i := 0; i < 40; i++ {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", json.RawMessage(`{"command":"git bisect good"}`))}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(strings.Repeat("log ", 300)))}})
	}
	counter := tokens.Heuristic("anthropic")
	full := condense.CountRequest(counter, &condense.Request{Messages: msgs})
	pf := condense.NewPreflight(counter, strategy.Summarize{}, &condense.Options{Settings: condense.Settings{Window: full / 2}, Logger: quiet})
	res, err := pf.Prepare(context.Background(), condense.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 1 || res.Records[0].Steps[0] != "summarize(split-turn)" {
		t.Fatalf("records %+v", res.Records)
	}
	out := res.Request.Messages
	if out[0].TextContent() != "Bisect the regression." || !strings.HasPrefix(out[1].TextContent(), "<summary") {
		t.Fatalf("rendering starts %q, %q", out[0].TextContent(), out[1].TextContent()[:20])
	}
	last := msgs[len(msgs)-2:]
	if got := out[len(out)-2:]; got[0].Parts[0].ID != last[0].Parts[0].ID || got[1].Parts[0].CallID != last[1].Parts[0].CallID {
		t.Fatal("the newest step is not kept")
	}
	if err := condense.Validate(out); err != nil {
		t.Fatal(err)
	}
}

// A one-task run is summarized again and again: after a split-turn summary
// the steps that follow are split in turn, and the newest step stays
// verbatim.
func TestSummarizeSecondSplitTurn(t *testing.T) {
	steps := func(from, n int) []condense.Message {
		var out []condense.Message
		for i := from; i < from+n; i++ {
			id := fmt.Sprintf("c%d", i)
			out = append(out,
				condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", json.RawMessage(`{"command":"git bisect good"}`))}},
				condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(strings.Repeat("log ", 300)))}})
		}
		return out
	}
	msgs := append([]condense.Message{condense.UserText("Bisect the regression.")}, steps(0, 40)...)
	pf := condense.NewPreflight(tokens.Heuristic("anthropic"), strategy.Summarize{RecentTokens: 2000},
		&condense.Options{Settings: condense.Settings{Window: 1_000_000}, Logger: quiet})
	ctx := context.Background()
	if _, err := pf.Compact(ctx, condense.Request{Messages: msgs}); err != nil {
		t.Fatal(err)
	}
	more := append(msgs[:len(msgs):len(msgs)], steps(40, 40)...)
	res, err := pf.Compact(ctx, condense.Request{Messages: more})
	if err != nil {
		t.Fatalf("second split-turn: %v", err)
	}
	sums := 0
	for _, it := range res.Rendering {
		if it.Edit == condense.EditSummary {
			sums++
			if !strings.Contains(it.Message.TextContent(), `checkpoint="c2" covers="1-`) {
				t.Fatalf("summary %.60q", it.Message.TextContent())
			}
		}
	}
	if sums != 1 || res.Request.Messages[0].TextContent() != "Bisect the regression." {
		t.Fatalf("%d summaries", sums)
	}
	if err := condense.Validate(res.Request.Messages); err != nil {
		t.Fatal(err)
	}
	last := more[len(more)-2:]
	got := res.Request.Messages[len(res.Request.Messages)-2:]
	if got[0].Parts[0].ID != last[0].Parts[0].ID {
		t.Fatal("the newest step is not kept")
	}
}
