package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// fixedCounter counts every message as 100 tokens and the overhead as 10,
// so replay figures can be computed by hand.
type fixedCounter struct{}

func (fixedCounter) Name() string                              { return "fixed" }
func (fixedCounter) Exact() bool                               { return true }
func (fixedCounter) CountMessage(*condense.Message) int        { return 100 }
func (fixedCounter) CountOverhead(string, []condense.Tool) int { return 10 }

var _ condense.Counter = fixedCounter{}

// steps returns a task and n steps of one call and one result each.
func steps(n int) []condense.Message {
	msgs := []condense.Message{condense.UserText("task: fix internal/a.go")}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "Bash", json.RawMessage(`{"command":"go test ./..."}`))}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(fmt.Sprintf("ok step %d", i)))}})
	}
	return append(msgs, condense.AssistantText("done"))
}

func TestReplayByHand(t *testing.T) {
	// 5 steps + the final answer: requests of 1, 3, 5, 7, 9, 11 messages.
	msgs := steps(5)
	tr := Transcript{Name: "hand", Request: condense.Request{Model: "gpt-4o", Messages: msgs}, Counter: fixedCounter{},
		Budget: condense.Budget{Window: 10_000, ReservedOutput: 1000, Fraction: 0.75}}
	none := Policy{Name: "none"}
	var progressed atomic.Int64
	reps, err := Evaluate(context.Background(), []Transcript{tr}, Config{Policies: []Policy{none},
		Prices: tokens.Prices{"gpt-4o": {Input: 1, CacheRead: 0.5, Output: 2}}, Progress: func(n int) { progressed.Add(int64(n)) }})
	if err != nil {
		t.Fatal(err)
	}
	rep := reps[0]
	r := rep.Policies[0].Replay
	if rep.Steps != 6 || r.Steps != 6 || r.Sent != 6 || r.Overflows != 0 || progressed.Load() != 6 {
		t.Fatalf("steps %d, replay %+v, progress %d", rep.Steps, r, progressed.Load())
	}
	wantTokens := []int{110, 310, 510, 710, 910, 1110}
	wantCached := []int{0, 110, 310, 510, 710, 910} // the previous request, overhead included
	var in, cached int64
	for i := range wantTokens {
		if r.TokensPerStep[i] != wantTokens[i] || r.CachedPerStep[i] != wantCached[i] {
			t.Fatalf("step %d: %d tokens (%d cached), want %d (%d)", i, r.TokensPerStep[i], r.CachedPerStep[i], wantTokens[i], wantCached[i])
		}
		in += int64(wantTokens[i])
		cached += int64(wantCached[i])
	}
	if r.InputTokens != in || r.CachedTokens != cached || r.OutputTokens != 600 || r.PeakTokens != 1110 {
		t.Fatalf("totals %+v", r)
	}
	wantCost := (float64(in-cached)*1 + float64(cached)*0.5 + 600*2) / 1e6
	if !r.Priced || r.CostUSD < wantCost-1e-12 || r.CostUSD > wantCost+1e-12 {
		t.Fatalf("cost %v, want %v", r.CostUSD, wantCost)
	}
	p := rep.Policies[0]
	if !p.Final.Fits || p.Final.Tokens != 1210 || p.Final.Messages != len(msgs) || p.Validity.Renderings != 7 || !p.Validity.Valid() {
		t.Fatalf("final %+v validity %+v", p.Final, p.Validity)
	}
	if p.Retention.Total.Rate() != 1 || p.Retention.Total.Found == 0 {
		t.Fatalf("retention %+v", p.Retention.Total)
	}
}

func TestReplayOverflowsAndCompaction(t *testing.T) {
	// An input limit of 1,200 tokens: without compaction the requests of
	// 13 messages and more (1,310 tokens: from step 6 on) do not fit.
	msgs := steps(12)
	tr := Transcript{Name: "tight", Request: condense.Request{Model: "unpriced-model", Messages: msgs}, Counter: fixedCounter{},
		Budget: condense.Budget{Window: 1300, ReservedOutput: 100, Fraction: 0.75}}
	reps, err := Evaluate(context.Background(), []Transcript{tr}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]PolicyReport{}
	for _, p := range reps[0].Policies {
		byName[p.Name] = p
		if p.Replay.Priced || p.Replay.CostUSD != 0 {
			t.Errorf("%s: an unknown model is priced: %+v", p.Name, p.Replay)
		}
		if !p.Validity.Valid() {
			t.Errorf("%s: %+v", p.Name, p.Validity)
		}
	}
	none := byName["none"]
	if none.Replay.Overflows != 13-6 || none.Replay.Sent != 6 || none.Final.Fits {
		t.Fatalf("none: %+v", none.Replay)
	}
	for i, s := range none.Replay.OverflowSteps {
		if s != i+6 || none.Replay.TokensPerStep[s] <= 1200 {
			t.Fatalf("overflow steps %v, tokens %v", none.Replay.OverflowSteps, none.Replay.TokensPerStep)
		}
	}
	drop := byName["drop-oldest"]
	if drop.Replay.Compactions == 0 || drop.Replay.Overflows >= none.Replay.Overflows || drop.Final.Tokens >= none.Final.Tokens {
		t.Fatalf("drop-oldest: %+v final %+v", drop.Replay, drop.Final)
	}
	// Every request sent fits; the ones that did not are marked.
	over := map[int]bool{}
	for _, s := range drop.Replay.OverflowSteps {
		over[s] = true
	}
	for s, tok := range drop.Replay.TokensPerStep {
		if !over[s] && tok > 1200 {
			t.Errorf("step %d sent %d tokens over the limit", s, tok)
		}
		if over[s] && tok <= 1200 {
			t.Errorf("step %d marked as overflow at %d tokens", s, tok)
		}
	}
	// A compaction breaks the cached prefix at its step.
	for _, s := range drop.Replay.CompactionSteps {
		if drop.Replay.CachedPerStep[s] >= drop.Replay.TokensPerStep[s-1] {
			t.Errorf("step %d after a compaction caches %d of the previous %d", s, drop.Replay.CachedPerStep[s], drop.Replay.TokensPerStep[s-1])
		}
	}
	if drop.Final.Compression <= 0 || drop.Final.Ratio <= 1 {
		t.Errorf("drop-oldest final %+v", drop.Final)
	}
}

func TestReplayReservesThinkingOnce(t *testing.T) {
	// A request with a thinking budget: the budget the transcript resolved
	// (2,000 reserved, thinking included) is the one the replay works
	// with. 12 messages are 1,210 tokens, under the input limit of 1,300.
	msgs := steps(5)
	req := condense.Request{Model: "gpt-4o", Messages: msgs, MaxOutputTokens: 1000, ThinkingBudget: 1000}
	b := condense.ResolveBudget(&req, condense.ModelInfo{}, condense.Settings{Window: 3300})
	tr := Transcript{Name: "thinking", Request: req, Counter: fixedCounter{}, Budget: b}
	reps, err := Evaluate(context.Background(), []Transcript{tr}, Config{Policies: []Policy{{Name: "none"}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, p := reps[0], reps[0].Policies[0]
	if rep.InputLimit != 1300 || p.Replay.Overflows != 0 || !p.Final.Fits {
		t.Fatalf("input limit %d: replay %+v, final %+v", rep.InputLimit, p.Replay, p.Final)
	}
}

func TestEvaluateDeterministicAndCancellable(t *testing.T) {
	ts := benchTranscripts(2, 40_000)
	for i := range ts {
		ts[i].Budget.Window = 12_000
	}
	a, err := Evaluate(context.Background(), ts, Config{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Evaluate(context.Background(), ts, Config{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("two evaluations of the same transcripts differ")
	}
	if a[0].Policies[4].Replay.Compactions == 0 {
		t.Fatalf("the generated session should compact under a 12k window: %+v", a[0].Policies[4].Replay)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evaluate(ctx, ts, Config{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	agg := Aggregate(a)
	if agg[0].Replay.Steps != a[0].Steps+a[1].Steps || agg[0].Retention.Total.Found != a[0].Policies[0].Retention.Total.Found+a[1].Policies[0].Retention.Total.Found {
		t.Fatalf("aggregate %+v", agg[0])
	}
}

func TestChart(t *testing.T) {
	msgs := steps(12)
	tr := Transcript{Name: "a&b <chart>", Request: condense.Request{Model: "gpt-4o", Messages: msgs}, Counter: tokens.ForModel("gpt-4o", tokens.Models),
		Budget: condense.Budget{Window: 400, ReservedOutput: 100}}
	reps, err := Evaluate(context.Background(), []Transcript{tr}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteChart(&buf, reps); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&buf)
	count := map[string]int{}
	policies := map[string]bool{}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("invalid XML: %v", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		count[se.Name.Local]++
		for _, a := range se.Attr {
			if a.Name.Local == "data-policy" {
				policies[a.Value] = true
			}
			if a.Name.Local == "points" && len(strings.Fields(a.Value)) != reps[0].Steps {
				t.Errorf("polyline of %d points for %d steps", len(strings.Fields(a.Value)), reps[0].Steps)
			}
			if a.Name.Local == "class" && a.Value == "overflow" {
				count["overflow"]++
			}
		}
	}
	if count["polyline"] != len(DefaultPolicies()) || len(policies) != count["polyline"] {
		t.Errorf("%d polylines for %v", count["polyline"], policies)
	}
	overflows := 0
	for _, p := range reps[0].Policies {
		overflows += p.Replay.Overflows
	}
	if count["overflow"] != overflows || reps[0].Policies[0].Replay.Overflows == 0 {
		t.Errorf("%d overflow marks for %d overflows", count["overflow"], overflows)
	}
}
