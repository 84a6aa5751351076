package condense_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	csession "github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/strategy"
)

// catLog is the output of `cat` on a service log of about size bytes: a
// recognisable first line, numbered lines, and a fatal error at the end.
func catLog(size int) string {
	var b strings.Builder
	b.WriteString("2025-03-01T00:00:00Z INFO service starting: version 4.2.1 pid 7741\n")
	for i := 1; b.Len() < size-120; i++ {
		fmt.Fprintf(&b, "2025-03-01T00:%02d:%02dZ INFO worker-%d handled request id=%08d in %dms\n", i/60%60, i%60, i%7, i, 3+i%91)
	}
	b.WriteString("2025-03-01T23:59:59Z FATAL out of memory: killed worker-3 (rss 7.9 GiB)\n")
	return b.String()
}

// bigBudget is a 32k window with the default answer reserve.
func bigBudget() *condense.Options {
	return &condense.Options{Settings: condense.Settings{Window: 32_000, ReservedOutput: 4096}, Logger: quiet}
}

// truncated returns the rendered items the preflight truncated.
func truncated(r condense.Rendering) []condense.Item {
	var out []condense.Item
	for _, it := range r {
		if it.Edit == condense.EditTruncated {
			out = append(out, it)
		}
	}
	return out
}

// resultText joins the text parts of the first tool result of m.
func resultText(m *condense.Message) string {
	for _, p := range m.Parts {
		if p.Type == condense.PartToolResult {
			var b strings.Builder
			for _, c := range p.Content {
				b.WriteString(c.Text)
			}
			return b.String()
		}
	}
	return ""
}

// A `cat` of a 2 MB log as the newest step does not fit a 32k window
// whatever the strategy does; the preflight cuts it to its head and tail
// around a marker, and the request fits, validates and says so.
func TestPreflightTruncatesOversizedNewestOutput(t *testing.T) {
	out := catLog(2 << 20)
	s := (&session{}).user("The service crashed overnight; find out why.").step("bash", out)
	orig := slices.Clone(s.msgs)
	pf := condense.NewPreflight(&byteCounter{}, strategy.Default(), bigBudget())
	res, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	if lim := res.Budget.InputLimit(); res.Tokens > lim {
		t.Fatalf("%d tokens over the input limit %d", res.Tokens, lim)
	}
	if err := condense.Validate(res.Request.Messages); err != nil {
		t.Fatalf("the truncated request breaks turn safety: %v", err)
	}
	if !slices.EqualFunc(orig, s.msgs, func(a, b condense.Message) bool { return condense.Fingerprint(&a) == condense.Fingerprint(&b) }) {
		t.Fatal("the caller's messages were modified")
	}
	rec := res.Records[len(res.Records)-1]
	ref := condense.RecallRef(2, &s.msgs[2].Parts[0])
	if rec.Strategy != condense.TruncateStrategy || rec.Truncated.Results != 1 || !slices.Equal(rec.Truncated.Refs, []string{ref}) {
		t.Fatalf("record %+v", rec)
	}
	total := (&byteCounter{}).CountMessage(&s.msgs[2])
	if rec.Truncated.TokensCut <= total*9/10 || rec.Truncated.TokensCut >= total {
		t.Fatalf("cut %d of %d tokens", rec.Truncated.TokensCut, total)
	}
	if rec.TokensBefore <= res.Budget.InputLimit() || rec.TokensAfter != res.Tokens {
		t.Fatalf("record tokens %d → %d, result %d", rec.TokensBefore, rec.TokensAfter, res.Tokens)
	}
	tr := truncated(res.Rendering)
	if len(tr) != 1 || tr[0].Index != 2 {
		t.Fatalf("truncated items %+v", tr)
	}
	got := res.Request.Messages[len(res.Request.Messages)-1]
	text := resultText(&got)
	marker := condense.TruncationMarker(rec.Truncated.TokensCut, total, ref)
	if !strings.Contains(text, marker) {
		t.Fatalf("marker %q missing", marker)
	}
	head, tail, _ := strings.Cut(text, marker)
	if !strings.HasPrefix(out, head) || !strings.HasSuffix(out, tail) {
		t.Fatal("head and tail are not the output's own")
	}
	if !strings.Contains(head, "service starting") || !strings.Contains(tail, "FATAL out of memory") {
		t.Fatalf("head %.80q… tail …%.80q", head, tail[max(0, len(tail)-80):])
	}
	if !strings.HasSuffix(head, "\n") || !strings.HasSuffix(out[:len(out)-len(tail)], "\n") {
		t.Fatal("the cuts are not at line boundaries")
	}
	// Head and tail share the allowance: neither is starved.
	if len(head) < len(tail)/2 || len(tail) < len(head)/2 {
		t.Fatalf("head %d bytes, tail %d", len(head), len(tail))
	}
	// The call and its pairing are untouched.
	call := res.Request.Messages[len(res.Request.Messages)-2]
	if condense.Fingerprint(&call) != condense.Fingerprint(&s.msgs[1]) || got.Parts[0].CallID != s.msgs[2].Parts[0].CallID {
		t.Fatal("the tool call or the result's call id changed")
	}

	// The next call with the same history sends the same bytes and
	// compacts nothing more.
	res2, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	if err != nil || len(res2.Records) != 0 {
		t.Fatalf("second call: %v, records %+v", err, res2.Records)
	}
	if (&res2.Request).Fingerprint() != (&res.Request).Fingerprint() {
		t.Fatal("the second request differs")
	}

	// The agent goes on: the truncated output is no longer the newest
	// step, and the loop keeps going.
	s.assistant("The worker ran out of memory; checking the limits.").step("bash", "limit: 8 GiB")
	res3, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	if err != nil {
		t.Fatalf("third call: %v", err)
	}
	if err := condense.Validate(res3.Request.Messages); err != nil {
		t.Fatal(err)
	}
	if last := res3.Request.Messages[len(res3.Request.Messages)-1]; resultText(&last) != "limit: 8 GiB" {
		t.Fatalf("newest result %q", resultText(&last))
	}
}

// A request that fits is never truncated, however big its newest output;
// one that is over the limit because of older history is compacted by the
// strategy and its newest output stays verbatim.
func TestPreflightTruncatesOnlyWhenNeeded(t *testing.T) {
	c := &byteCounter{}
	ctx := context.Background()
	// 90% of the input limit: over the threshold, under the limit.
	s := (&session{}).user("task").step("bash", catLog(4*25_000*9/10))
	res, err := condense.NewPreflight(c, strategy.Default(), bigBudget()).Prepare(ctx, condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(truncated(res.Rendering)) != 0 || res.Tokens > res.Budget.InputLimit() {
		t.Fatalf("a request that fits was truncated: %+v", res.Records)
	}
	for _, r := range res.Records {
		if r.Strategy == condense.TruncateStrategy || r.Truncated.Results != 0 {
			t.Fatalf("record %+v", r)
		}
	}

	s = (&session{}).user("task")
	for i := range 6 {
		s.step("bash", catLog(20_000+i))
	}
	s.step("bash", catLog(60_000))
	newest := s.msgs[len(s.msgs)-1]
	res, err = condense.NewPreflight(c, strategy.Default(), bigBudget()).Prepare(ctx, condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Rendering[len(res.Rendering)-1]
	if len(res.Records) == 0 || len(truncated(res.Rendering)) != 0 || last.Edit != condense.EditNone ||
		condense.Fingerprint(&last.Message) != condense.Fingerprint(&newest) {
		t.Fatalf("records %+v; newest edit %q", res.Records, last.Edit)
	}

	// Without compaction nothing is truncated either: the guard refuses.
	s = (&session{}).user("task").step("bash", catLog(1<<20))
	_, err = condense.NewPreflight(c, strategy.Default(), bigBudget()).Prepare(ctx, condense.Request{Messages: s.msgs}, condense.WithoutCompaction())
	if !errors.Is(err, condense.ErrContextWindowExceeded) {
		t.Fatalf("WithoutCompaction: %v", err)
	}
}

// Several oversized results in one step: the biggest are cut first, as
// little as fits, and the small ones stay whole.
func TestPreflightTruncatesTheBiggestResultsFirst(t *testing.T) {
	huge, big2, mid, small := catLog(1<<20), catLog(300_000), catLog(30_000), "exit status 0"
	s := (&session{}).user("task").step("bash", huge, mid, big2, small)
	res, err := condense.NewPreflight(&byteCounter{}, strategy.Default(), bigBudget()).Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if res.Tokens > res.Budget.InputLimit() {
		t.Fatalf("%d tokens over %d", res.Tokens, res.Budget.InputLimit())
	}
	if err := condense.Validate(res.Request.Messages); err != nil {
		t.Fatal(err)
	}
	rec := res.Records[len(res.Records)-1]
	if rec.Truncated.Results != 2 || len(rec.Truncated.Refs) != 2 {
		t.Fatalf("record %+v", rec.Truncated)
	}
	r := res.Rendering
	want := []condense.Edit{condense.EditTruncated, condense.EditNone, condense.EditTruncated, condense.EditNone}
	for k, w := range want {
		it := r[len(r)-4+k]
		if it.Edit != w {
			t.Fatalf("result %d: edit %q, want %q", k, it.Edit, w)
		}
		if w == condense.EditNone && condense.Fingerprint(&it.Message) != condense.Fingerprint(&s.msgs[len(s.msgs)-4+k]) {
			t.Fatalf("result %d changed", k)
		}
	}
	// Both are cut to about the same allowance.
	a, b := len(resultText(&r[len(r)-4].Message)), len(resultText(&r[len(r)-2].Message))
	if a > b*3/2 || b > a*3/2 {
		t.Fatalf("kept %d and %d bytes", a, b)
	}
	for _, ref := range rec.Truncated.Refs {
		if _, _, err := condense.ParseRecallRef(ref); err != nil {
			t.Fatal(err)
		}
	}
}

// A result of several parts (text, an image, text) is cut across its
// parts; the image counts like any part, and the call pairing holds.
func TestPreflightTruncatesMultipartResults(t *testing.T) {
	first, last := catLog(600_000), catLog(600_000)
	img := condense.ImageData("image/png", []byte(strings.Repeat("\x89PNG", 50_000)))
	s := (&session{}).user("task")
	s.msgs = append(s.msgs,
		condense.Message{ID: "a1", Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c1", "screenshot", []byte(`{}`))}},
		condense.Message{ID: "t1", Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("c1", false, condense.Text(first), img, condense.Text(last))}})
	res, err := condense.NewPreflight(&byteCounter{}, strategy.Default(), bigBudget()).Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if err := condense.Validate(res.Request.Messages); err != nil || res.Tokens > res.Budget.InputLimit() {
		t.Fatalf("%v; %d tokens", err, res.Tokens)
	}
	p := res.Request.Messages[len(res.Request.Messages)-1].Parts[0]
	if len(p.Content) != 3 || p.Content[0].Type != condense.PartText || p.Content[2].Type != condense.PartText ||
		!strings.HasPrefix(p.Content[1].Text, "[condense: tool output truncated: ") {
		t.Fatalf("content %d parts", len(p.Content))
	}
	if !strings.HasPrefix(first, p.Content[0].Text) || !strings.HasSuffix(last, p.Content[2].Text) {
		t.Fatal("head and tail are not the result's own")
	}

	// An image small enough stays with the head.
	smallImg := condense.ImageData("image/png", []byte("\x89PNG tiny"))
	s.msgs[2].Parts[0].Content = []condense.Part{smallImg, condense.Text(first)}
	res, err = condense.NewPreflight(&byteCounter{}, strategy.Default(), bigBudget()).Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	p = res.Request.Messages[len(res.Request.Messages)-1].Parts[0]
	if p.Content[0].Type != condense.PartImage || len(p.Content) != 4 {
		t.Fatalf("content %+v", p.Content[0].Type)
	}
}

// When even the markers cannot fit (the task alone is over the window),
// the window error stays and nothing is truncated.
func TestPreflightTruncationCannotFitHugeTask(t *testing.T) {
	s := (&session{}).user(big("requirement", 12_000)).step("bash", catLog(1<<20))
	pf := condense.NewPreflight(&byteCounter{}, strategy.Default(), bigBudget())
	_, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs})
	var we *condense.WindowError
	if !errors.As(err, &we) {
		t.Fatalf("err = %v, want a *WindowError", err)
	}
	for _, r := range we.Records {
		if r.Truncated.Results != 0 {
			t.Fatalf("record %+v", r)
		}
	}
	if len(truncated(pf.Rendering())) != 0 {
		t.Fatal("the rendering was truncated although the request cannot fit")
	}
}

// tamper is a strategy that edits the current rendering with f and says
// nothing else.
type tamper func(r condense.Rendering) condense.Rendering

func (tamper) Name() string { return "tamper" }
func (f tamper) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	return &condense.Candidate{Rendering: f(cc.Current.Clone())}, nil
}

// editResult returns the item with its first result's content replaced.
func editResult(it condense.Item, content ...condense.Part) condense.Item {
	it.Message.Parts = slices.Clone(it.Message.Parts)
	it.Message.Parts[0].Content = content
	return condense.Item{Index: it.Index, Edit: condense.EditTruncated, Message: it.Message}
}

// The preflight's truncation is the one edit of the newest step the
// protected-message check accepts: any other change to it is refused.
func TestKeepsProtectedAcceptsOnlyTheTruncation(t *testing.T) {
	out := catLog(2 << 20)
	ctx := context.Background()
	s := (&session{}).user("task").assistant("earlier").step("bash", out)
	ref := condense.RecallRef(3, &s.msgs[3].Parts[0])
	pf := condense.NewPreflight(&byteCounter{}, strategy.Default(), bigBudget())
	res, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	cut := res.Rendering[len(res.Rendering)-1]
	if cut.Edit != condense.EditTruncated {
		t.Fatalf("newest edit %q", cut.Edit)
	}
	c := cut.Message.Parts[0].Content
	head, mk, tail := c[0], c[1], c[2]
	changed := func(p condense.Part, f func(*condense.Part)) condense.Part { f(&p); return p }
	last := func(f func(condense.Item) condense.Item) tamper {
		return func(r condense.Rendering) condense.Rendering {
			r[len(r)-1] = f(r[len(r)-1])
			// Drop "earlier" so the candidate is a real change otherwise.
			return slices.Delete(r, 1, 2)
		}
	}
	cases := map[string]tamper{
		"head edited": last(func(it condense.Item) condense.Item {
			return editResult(it, changed(head, func(p *condense.Part) { p.Text = "X" + p.Text[1:] }), mk, tail)
		}),
		"tail not the output's": last(func(it condense.Item) condense.Item {
			return editResult(it, head, mk, condense.Text("all tests passed\n"))
		}),
		"marker of another result": last(func(it condense.Item) condense.Item {
			return editResult(it, head, condense.Text(strings.Replace(mk.Text, ref, "r2-00000000", 1)), tail)
		}),
		"no marker": last(func(it condense.Item) condense.Item { return editResult(it, head, tail) }),
		"marker only, no truncation left": last(func(it condense.Item) condense.Item {
			return editResult(it, condense.Text(out[:len(out)/2]), mk, condense.Text(out[len(out)/2:]))
		}),
		"error flag flipped": last(func(it condense.Item) condense.Item {
			it = editResult(it, head, mk, tail)
			it.Message.Parts[0].IsError = true
			return it
		}),
		"message id changed": last(func(it condense.Item) condense.Item {
			it = editResult(it, head, mk, tail)
			it.Message.ID = "other"
			return it
		}),
		"pinned on the way": last(func(it condense.Item) condense.Item {
			it = editResult(it, head, mk, tail)
			it.Message.Pinned = true
			return it
		}),
		"marker says more was cut": last(func(it condense.Item) condense.Item {
			return editResult(it, head, condense.Text(condense.TruncationMarker(1, 0, ref)), tail)
		}),
		"masked instead": last(func(it condense.Item) condense.Item {
			it = editResult(it, condense.Text(condense.MaskPlaceholder(1000, ref, nil)))
			it.Edit = condense.EditMasked
			return it
		}),
		"the call truncated": func(r condense.Rendering) condense.Rendering {
			it := &r[len(r)-2]
			it.Edit = condense.EditTruncated
			it.Message.Parts = []condense.Part{condense.ToolCall(it.Message.Parts[0].ID, "bash", []byte(`{}`))}
			return slices.Delete(r, 1, 2)
		},
		"the task truncated": func(r condense.Rendering) condense.Rendering {
			r[0].Edit = condense.EditTruncated
			r[0].Message = condense.UserText("ta")
			return slices.Delete(r, 1, 2)
		},
	}
	for name, f := range cases {
		t.Run(name, func(t *testing.T) {
			pf := condense.NewPreflight(&byteCounter{}, f, bigBudget())
			if err := pf.Restore(s.msgs, res.Rendering, 1); err != nil {
				t.Fatal(err)
			}
			if _, err := pf.Compact(ctx, condense.Request{Messages: s.msgs}); !errors.Is(err, condense.ErrLostProtected) {
				t.Fatalf("err = %v, want ErrLostProtected", err)
			}
		})
	}
	// Keeping the truncation as it is, and changing only what may change,
	// is accepted.
	ok := tamper(func(r condense.Rendering) condense.Rendering { return slices.Delete(r, 1, 2) })
	pf = condense.NewPreflight(&byteCounter{}, ok, bigBudget())
	if err := pf.Restore(s.msgs, res.Rendering, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := pf.Compact(ctx, condense.Request{Messages: s.msgs}); err != nil {
		t.Fatalf("a candidate keeping the truncation was refused: %v", err)
	}
}

// A session saves the truncation as a checkpoint; reopened, it renders the
// same request, its records say what was cut, and the marker's recall
// reference returns the whole output from the log.
func TestSessionRestoresTruncatedRendering(t *testing.T) {
	ctx := context.Background()
	st := memstore.New()
	out := catLog(2 << 20)
	s := (&session{}).user("The service crashed overnight; find out why.").step("bash", out)
	sopts := &csession.Options{Counter: &byteCounter{}, Preflight: *bigBudget(), Logger: quiet}
	sess, err := csession.Open(ctx, st, "s1", sopts)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sess.Prepare(ctx, condense.Request{Model: "m", Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	cps := sess.Checkpoints()
	if len(cps) != 1 || cps[0].Records[len(cps[0].Records)-1].Truncated.Results != 1 {
		t.Fatalf("checkpoints %+v", cps)
	}
	if e := cps[0].Edits; len(e) == 0 || e[len(e)-1].Edit != condense.EditTruncated || e[len(e)-1].Start != 2 {
		t.Fatalf("edits %+v", e)
	}
	if err := sess.Close(); err != nil {
		t.Fatal(err)
	}

	sess, err = csession.Open(ctx, st, "s1", sopts)
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	r := sess.Rendering()
	if !r.Equal(res.Rendering) {
		t.Fatal("the reopened rendering differs")
	}
	rec := sess.Checkpoints()[0].Records
	if tr := rec[len(rec)-1].Truncated; tr.Results != 1 || tr.TokensCut == 0 || len(tr.Refs) != 1 {
		t.Fatalf("restored record %+v", tr)
	}
	res2, err := sess.Prepare(ctx, condense.Request{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Records) != 0 || (&res2.Request).Fingerprint() != (&res.Request).Fingerprint() {
		t.Fatalf("reopened: records %+v, request changed", res2.Records)
	}
	// A manual compaction over the restored rendering keeps the truncation.
	if _, err := sess.Compact(ctx); err != nil && !errors.Is(err, condense.ErrNothingToCompact) {
		t.Fatalf("manual compaction after reopening: %v", err)
	}
	if got := truncated(sess.Rendering()); len(got) != 1 {
		t.Fatalf("%d truncated items after a manual compaction", len(got))
	}
	// The marker recalls the whole output.
	last := res.Request.Messages[len(res.Request.Messages)-1]
	var marker string
	for _, c := range last.Parts[0].Content {
		if strings.HasPrefix(c.Text, "[condense: tool output truncated") {
			marker = c.Text
		}
	}
	got, err := sess.Recall(ctx, marker)
	if err != nil || len(got) != 1 || resultText(&got[0].Messages[0]) != out {
		t.Fatalf("recall %q: %v", marker, err)
	}
}
