package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"pgregory.net/rapid"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/agent"
	"github.com/condense-dev/condense/agent/agenttest"
	"github.com/condense-dev/condense/journal"
)

// stepSafeMiddle keeps the first message and the newest step (never
// splitting a call from its results) and summarizes the rest with the
// journaled helper, in calls of at most per messages.
func stepSafeMiddle(per int) condense.Strategy {
	return condense.Func("step_safe_middle", func(ctx context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		msgs := cc.Current.Messages()
		cut := len(msgs) - 1
		for cut > 1 && msgs[cut].Role == condense.RoleTool {
			cut--
		}
		if cut > 1 && msgs[cut].Role == condense.RoleAssistant && cut == len(msgs)-1 {
			cut-- // keep the user message the newest answer replies to
		}
		if cut <= 2 {
			return nil, condense.ErrNothingToCompact
		}
		var parts []string
		for chunk := range slices.Chunk(msgs[1:cut], per) {
			s, err := cc.Summarizer.Summarize(ctx, condense.SummaryRequest{Messages: chunk, Instructions: ""})
			if err != nil {
				return nil, err
			}
			parts = append(parts, s.Text)
		}
		out := []condense.Message{msgs[0], condense.UserText("Earlier: " + strings.Join(parts, " "))}
		return append(out, msgs[cut:]...), nil
	})
}

var roundRe = regexp.MustCompile(`round (\d+)`)

// scriptedWorld is a deterministic model and tool: answers depend only on
// the request, so a resumed run gets the same answers as an uncrashed one.
type scriptedWorld struct {
	rounds  int
	fanout  []int // tool calls per round
	filler  []int // bytes of each round's tool output
	toolRun atomic.Int64
}

func (w *scriptedWorld) model() *agenttest.FakeModel {
	f := agenttest.NewFakeModel()
	f.Func = func(ctx context.Context, n int, req *condense.Request) (*agent.Response, error) {
		h := fnv.New64a()
		for i := range req.Messages {
			json.NewEncoder(h).Encode(req.Messages[i])
		}
		u := condense.Usage{InputTokens: 100 + int(h.Sum64()%50), OutputTokens: 10}
		if len(req.Tools) == 0 { // a summary request
			return &agent.Response{Message: condense.AssistantText(fmt.Sprintf("S%x", h.Sum64()%0xffff)), StopReason: agent.StopEndTurn, Usage: u}, nil
		}
		last := toolText(req.Messages[len(req.Messages)-1])
		round := 0
		if m := roundRe.FindStringSubmatch(last); m != nil {
			round, _ = strconv.Atoi(m[1])
		}
		if round >= w.rounds {
			return &agent.Response{Message: condense.AssistantText(fmt.Sprintf("done after %d rounds", round)), StopReason: agent.StopEndTurn, Usage: u}, nil
		}
		m := condense.Message{Role: condense.RoleAssistant}
		for j := range w.fanout[round] {
			in, _ := json.Marshal(map[string]any{"round": round + 1, "part": j})
			m.Parts = append(m.Parts, condense.ToolCall(fmt.Sprintf("c%d-%d", round+1, j), "work", in))
		}
		return &agent.Response{Message: m, StopReason: agent.StopToolUse, Usage: u}, nil
	}
	return f
}

func (w *scriptedWorld) tool() agent.Tool {
	type in struct {
		Round int `json:"round"`
		Part  int `json:"part"`
	}
	return agent.NewTool("work", "Do a round of work.", func(ctx context.Context, x in) (string, error) {
		w.toolRun.Add(1)
		return fmt.Sprintf("round %d part %d: ", x.Round, x.Part) + strings.Repeat("data ", w.filler[x.Round-1]/5), nil
	})
}

// TestResumeProperty: random scripted runs with a crash at a random call;
// the resumed run renders the same final request and leaves the same
// journal as an uncrashed run, and no call is made twice.
func TestResumeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rounds := rapid.IntRange(0, 5).Draw(t, "rounds")
		world := func() *scriptedWorld {
			return &scriptedWorld{rounds: rounds}
		}
		w0 := world()
		w0.fanout = rapid.SliceOfN(rapid.IntRange(1, 3), rounds, rounds).Draw(t, "fanout")
		w0.filler = rapid.SliceOfN(rapid.IntRange(20, 800), rounds, rounds).Draw(t, "filler")
		notes := rapid.IntRange(1, 10).Draw(t, "notes")
		per := rapid.IntRange(1, 8).Draw(t, "per")
		window := rapid.IntRange(1200, 5000).Draw(t, "window")
		mk := func(w *scriptedWorld, st journal.Store) *agent.Agent {
			return &agent.Agent{Name: "prop", Model: w.model(), Tools: []agent.Tool{w.tool()}, Journal: st, NewCounter: newCounter,
				Strategy: stepSafeMiddle(per), Settings: condense.Settings{Window: window, ReservedOutput: 200, Fraction: 0.5},
				Limits: agent.Limits{MaxModelCalls: 60}}
		}
		ctx := context.Background()

		// The uncrashed run, counting its calls by kind.
		counts := map[agent.CallKind]int{}
		a0 := mk(w0, journal.NewMemory())
		a0.Hooks.BeforeCall = func(_ context.Context, k agent.CallKind, n int) error { counts[k] = n; return nil }
		want, wantErr := a0.Run(ctx, ticket(notes), agent.WithRunID("run-1"))
		wantEvents, err := a0.Journal.Load(ctx, "run-1")
		if err != nil {
			t.Fatal(err)
		}
		m0 := len(a0.Model.(*agenttest.FakeModel).Calls())

		kindsWith := []agent.CallKind{}
		for _, k := range []agent.CallKind{agent.CallModel, agent.CallTool, agent.CallSummarize} {
			if counts[k] > 0 {
				kindsWith = append(kindsWith, k)
			}
		}
		if len(kindsWith) == 0 {
			return
		}
		kind := rapid.SampledFrom(kindsWith).Draw(t, "crash kind")
		nth := rapid.IntRange(1, counts[kind]).Draw(t, "crash nth")

		w1 := world()
		w1.fanout, w1.filler = w0.fanout, w0.filler
		a1 := mk(w1, nil)
		r := agenttest.NewRunner(a1)
		r.CrashAt(kind, nth)
		if _, err := r.Run(ctx, ticket(notes)); !errors.Is(err, agenttest.ErrCrash) {
			t.Fatalf("crash at %s %d: %v", kind, nth, err)
		}
		got, gotErr := r.Run(ctx, ticket(notes))
		if (wantErr == nil) != (gotErr == nil) || (wantErr != nil && condense.ErrorCode(wantErr) != condense.ErrorCode(gotErr)) {
			t.Fatalf("uncrashed: %v; resumed: %v", wantErr, gotErr)
		}
		if wantErr == nil {
			x, _ := json.Marshal(condense.DocumentOf(want.Request))
			y, _ := json.Marshal(condense.DocumentOf(got.Request))
			if string(x) != string(y) {
				t.Fatalf("final rendering differs:\n%s\n%s", x, y)
			}
			if want.Text() != got.Text() || want.Usage != got.Usage || want.ModelCalls != got.ModelCalls {
				t.Fatalf("results differ: %q %+v %d vs %q %+v %d", want.Text(), want.Usage, want.ModelCalls, got.Text(), got.Usage, got.ModelCalls)
			}
		}
		gotEvents, _ := r.Journal(ctx)
		if len(gotEvents) != len(wantEvents) {
			t.Fatalf("journal has %d events, uncrashed %d:\n%s\n%s", len(gotEvents), len(wantEvents), kinds(gotEvents), kinds(wantEvents))
		}
		for i := range gotEvents {
			if !journal.Same(gotEvents[i], wantEvents[i]) {
				t.Fatalf("event %d:\n got %s\nwant %s", i, journal.Comparable(gotEvents[i]), journal.Comparable(wantEvents[i]))
			}
		}
		if m1 := len(a1.Model.(*agenttest.FakeModel).Calls()); m1 != m0 {
			t.Fatalf("%d model calls across crash and resume, %d uncrashed", m1, m0)
		}
		if w1.toolRun.Load() != w0.toolRun.Load() {
			t.Fatalf("%d tool runs across crash and resume, %d uncrashed", w1.toolRun.Load(), w0.toolRun.Load())
		}
	})
}
