package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// evaluateOne evaluates one transcript of steps(n) under policies with the
// given window (fixedCounter: 100 tokens a message).
func evaluateOne(t *testing.T, n, window int, probes []Probe, pols ...Policy) *Report {
	t.Helper()
	tr := Transcript{Name: fmt.Sprintf("w%d", window), Request: condense.Request{Model: "gpt-4o", Messages: steps(n)}, Counter: fixedCounter{},
		Budget: condense.Budget{Window: window, ReservedOutput: 100, Fraction: 0.75}}
	reps, err := Evaluate(context.Background(), []Transcript{tr}, Config{Policies: pols, Probes: probes})
	if err != nil {
		t.Fatal(err)
	}
	return reps[0]
}

func TestUnsentRenderingRetainsNothing(t *testing.T) {
	probes, err := ParseProbes("p.json", []byte(`[{"category": "path", "text": "internal/a.go"},
		{"category": "fact", "text": "ok step 11"}]`))
	if err != nil {
		t.Fatal(err)
	}
	none := Policy{Name: "none"}
	// 12 steps: 2,410 tokens for the final request. A 1,200-token input
	// limit does not hold it; a 10,000-token one does.
	tight := evaluateOne(t, 12, 1300, probes, none)
	roomy := evaluateOne(t, 12, 10_000, probes, none)

	p := tight.Policies[0]
	if p.Final.Fits {
		t.Fatalf("the final rendering fits: %+v", p.Final)
	}
	r := p.Retention
	if r.Total.Found == 0 || r.Total.Retained != 0 || r.Overall != 0 || r.ItemWeighted != 0 || r.Unsent != 1 {
		t.Errorf("a rendering that cannot be sent scores %+v", r)
	}
	for c, tl := range r.ByCategory {
		if tl.Retained != 0 {
			t.Errorf("%s: %+v kept by an unsent rendering", c, tl)
		}
	}
	if p.Probes == nil || p.Probes.Total.Found != 2 || p.Probes.Total.Retained != 0 || p.Probes.Overall != 0 || p.Probes.Unsent != 1 {
		t.Errorf("probes of an unsent rendering: %+v", p.Probes)
	}

	q := roomy.Policies[0]
	if !q.Final.Fits || q.Retention.Overall != 1 || q.Retention.Unsent != 0 || q.Probes.Total.Retained != 2 {
		t.Fatalf("the same transcript in a roomy window: final %+v retention %+v probes %+v", q.Final, q.Retention, q.Probes)
	}

	// Pooled, every category has half its items kept: the unsent run is
	// averaged in as a loss, not as full retention.
	agg := Aggregate([]*Report{tight, roomy})[0]
	if agg.Final.Fits || agg.Retention.Unsent != 1 || agg.Retention.Overall != 0.5 || agg.Retention.ItemWeighted != 0.5 {
		t.Errorf("aggregate: fits %v, retention %+v", agg.Final.Fits, agg.Retention)
	}
	if agg.Probes == nil || agg.Probes.Overall != 0.5 || agg.Probes.Total.Found != 4 || agg.Probes.Unsent != 1 {
		t.Errorf("aggregate probes: %+v", agg.Probes)
	}
}

func TestOverflowingReplayIsIncomplete(t *testing.T) {
	none := Policy{Name: "none"}
	drop := DefaultPolicies()[1]
	tight := evaluateOne(t, 12, 1300, nil, none, drop)
	roomy := evaluateOne(t, 12, 10_000, nil, none, drop)

	// Steps 0–5 fit (requests of up to 1,110 tokens), step 6 is refused.
	r := tight.Policies[0].Replay
	if r.Complete || r.Incomplete != 1 || r.CompletedSteps != 6 || r.Overflows != 7 || r.OverflowSteps[0] != 6 {
		t.Errorf("none in a tight window: %+v", r)
	}
	for _, p := range append(tight.Policies[1:], roomy.Policies...) {
		r := p.Replay
		if r.Complete != (r.Overflows == 0) || r.Complete != (r.Incomplete == 0) {
			t.Errorf("%s: complete %v with %d overflows, incomplete %d", p.Name, r.Complete, r.Overflows, r.Incomplete)
		}
		if r.Complete && r.CompletedSteps != r.Steps || !r.Complete && r.CompletedSteps != r.OverflowSteps[0] {
			t.Errorf("%s: completed %d of %d steps, overflows at %v", p.Name, r.CompletedSteps, r.Steps, r.OverflowSteps)
		}
	}
	if !roomy.Policies[0].Replay.Complete || roomy.Policies[0].Replay.CompletedSteps != 13 {
		t.Errorf("none in a roomy window: %+v", roomy.Policies[0].Replay)
	}
	agg := Aggregate([]*Report{tight, roomy})[0].Replay
	if agg.Complete || agg.Incomplete != 1 || agg.CompletedSteps != 6+13 {
		t.Errorf("aggregate of one complete and one stopped replay: %+v", agg)
	}
}

func TestOverallIsTheMeanOfCategories(t *testing.T) {
	// A grep listing's worth of identifiers, all kept, and a handful of
	// errors, all lost, and five paths, all kept.
	var sp []Specific
	var kept strings.Builder
	for i := range 1000 {
		id := fmt.Sprintf("handlerNumber%04d", i)
		sp = append(sp, Specific{CatIdentifier, id})
		kept.WriteString(id + "\n")
	}
	for i := range 10 {
		sp = append(sp, Specific{CatError, fmt.Sprintf("error: disk %d is full", i)})
	}
	for i := range 5 {
		p := fmt.Sprintf("internal/pkg%d/file.go", i)
		sp = append(sp, Specific{CatPath, p})
		kept.WriteString(p + "\n")
	}
	r := Measure(sp, NewIndex(kept.String()))
	// Commands and measurements have nothing to look for: they are left
	// out of the mean, not counted as kept.
	if r.Overall != 2.0/3 {
		t.Errorf("overall %v, want the mean of 1, 0 and 1", r.Overall)
	}
	if want := 1005.0 / 1015; r.ItemWeighted != want || r.Total.Rate() != want {
		t.Errorf("item-weighted %v, want %v", r.ItemWeighted, want)
	}

	// Pooling two transcripts pools each category first.
	a := Measure([]Specific{{CatError, "panic: boom"}}, NewIndex("panic: boom"))
	b := Measure(sp[:100], NewIndex("nothing"))
	var sum Retention
	sum.Add(a)
	sum.Add(b)
	if sum.Overall != 0.5 || sum.ItemWeighted != 1.0/101 {
		t.Errorf("pooled: overall %v (want 0.5), item-weighted %v (want 1/101)", sum.Overall, sum.ItemWeighted)
	}
	var empty Retention
	if empty.Macro() != 1 || Measure(nil, nil).Overall != 1 {
		t.Errorf("nothing looked for should read as nothing lost")
	}
}

func TestProbesCountedOncePerCategory(t *testing.T) {
	probes, err := ParseProbes("p.json", []byte(`[
		{"category": "error", "text": "disk full"},
		{"category": "error", "text": "disk full"},
		{"category": "error", "regex": "disk \\w+"},
		{"category": "note", "text": "disk full"},
		{"category": "path", "text": "a/b.go"},
		{"category": "path", "text": "c/d.go"},
		{"category": "path", "text": "e/f.go"}]`))
	if err != nil {
		t.Fatal(err)
	}
	full := "disk full in a/b.go c/d.go e/f.go"
	res := Resolve(probes, full, NewIndex(full))
	r := MeasureProbes(res, NewIndex("a/b.go c/d.go e/f.go"))
	// The two repeats of "disk full" as an error (one by regex) count once;
	// the same text under another category is another probe.
	if r.Duplicates != 2 || r.Total.Found != 5 || r.ByCategory["error"].Found != 1 || r.ByCategory["note"].Found != 1 {
		t.Errorf("probes counted: %+v", r)
	}
	// error 0/1, note 0/1, path 3/3.
	if r.Overall != 1.0/3 || r.ItemWeighted != 3.0/5 {
		t.Errorf("overall %v (want 1/3), item-weighted %v (want 3/5)", r.Overall, r.ItemWeighted)
	}
}

// TestMaskPolicyKeepsTenSteps checks that the "mask" policy keeps the tool
// outputs of the last ten steps, a step being an assistant message and the
// results answering it: parallel calls keep all their outputs, a reply in
// prose counts as a step.
func TestMaskPolicyKeepsTenSteps(t *testing.T) {
	var mask Policy
	for _, p := range DefaultPolicies() {
		if p.Name == "mask" {
			mask = p
		}
	}
	if mask.New == nil || !strings.Contains(mask.Describe, "last M=10 steps") || MaskKeepSteps != 10 {
		t.Fatalf("mask policy: %+v", mask)
	}
	output := func(id string) string {
		return fmt.Sprintf("output of %s: %s", id, strings.Repeat(id+" lorem ipsum dolor sit amet ", 30))
	}
	msgs := []condense.Message{condense.UserText("task: tidy the repository")}
	var calls [][]string // the call ids of each step, nil for prose
	call := func(ids ...string) {
		var parts []condense.Part
		for _, id := range ids {
			parts = append(parts, condense.ToolCall(id, "Bash", json.RawMessage(`{"command":"cat `+id+`.txt"}`)))
		}
		msgs = append(msgs, condense.Message{Role: condense.RoleAssistant, Parts: parts})
		for _, id := range ids {
			msgs = append(msgs, condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(output(id)))}})
		}
		calls = append(calls, ids)
	}
	for i := range 16 {
		switch i {
		case 3, 12, 13: // parallel calls, one old pair and two recent
			call(fmt.Sprintf("c%da", i), fmt.Sprintf("c%db", i))
		case 8: // a reply in prose, then the user again
			msgs = append(msgs, condense.AssistantText("Halfway there."), condense.UserText("go on"))
			calls = append(calls, nil)
		default:
			call(fmt.Sprintf("c%d", i))
		}
	}
	counter := tokens.ForModel("gpt-4o", tokens.Models)
	req := condense.Request{Model: "gpt-4o", Messages: msgs}
	total := condense.CountRequest(counter, &req)
	// A window whose threshold (75% of the input limit) the history passes
	// by a sixth: one automatic masking pass is due, and enough.
	window := total*100/75*85/100 + 100
	pf := condense.NewPreflight(counter, mask.New(), &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 100}})
	res, err := pf.Prepare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) == 0 {
		t.Fatalf("no compaction of %d tokens in a window of %d", total, window)
	}
	verbatim := map[string]bool{}
	for _, m := range res.Request.Messages {
		for _, p := range m.Parts {
			if p.Type == condense.PartToolResult && len(p.Content) == 1 && p.Content[0].Text == output(p.CallID) {
				verbatim[p.CallID] = true
			}
		}
	}
	for i, ids := range calls {
		recent := i >= len(calls)-10
		for _, id := range ids {
			if verbatim[id] != recent {
				t.Errorf("step %d (%s): verbatim %v, want %v", i, id, verbatim[id], recent)
			}
		}
	}
	// The last ten steps hold eleven outputs: two parallel pairs, one
	// reply in prose. Counting outputs would mask c6; skipping the reply
	// would keep c5.
	if len(verbatim) != 11 {
		t.Errorf("%d outputs kept verbatim: %v", len(verbatim), verbatim)
	}
}
