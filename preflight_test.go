package condense_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// shrinkMiddle is a custom strategy: keep the first message and the last
// two, and put a one-line note for everything between: the shape of a
// typical hand-written strategy.
func shrinkMiddle() condense.Strategy {
	return condense.Func("shrink_middle", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		h := cc.Current.Messages()
		if len(h) < 4 {
			return h, nil
		}
		out := []condense.Message{h[0], condense.UserText("Earlier: things happened.")}
		return append(out, h[len(h)-2:]...), nil
	})
}

// growing is a strategy whose candidate is larger than its input.
var growing = condense.Func("growing", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
	h := cc.Current.Messages()
	return append([]condense.Message{condense.UserText(big("padding", 500))}, h...), nil
})

func opts(window int) *condense.Options {
	return &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 200}, Logger: quiet}
}

func TestPreflightPassThroughUnderThreshold(t *testing.T) {
	s := (&session{}).user("hello").assistant("hi").user("bye")
	pf := condense.NewPreflight(&byteCounter{}, shrinkMiddle(), opts(10_000))
	res, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 0 || res.Pressured {
		t.Fatalf("compacted under threshold: %+v", res.Records)
	}
	if !reflect.DeepEqual(res.Request.Messages, s.msgs) {
		t.Fatalf("request changed")
	}
	if res.Budget.InputLimit() != 9_800 || res.Budget.Threshold() != 7_350 {
		t.Fatalf("budget %+v: limit %d threshold %d", res.Budget, res.Budget.InputLimit(), res.Budget.Threshold())
	}
}

func TestPreflightCompactsOverThreshold(t *testing.T) {
	s := &session{}
	s.user("task: fix it")
	for i := 0; i < 8; i++ {
		s.user("note " + big("details", 100)).assistant("Noted.")
	}
	s.user("What next?")
	orig := append([]condense.Message(nil), s.msgs...)
	pf := condense.NewPreflight(&byteCounter{}, shrinkMiddle(), opts(2_000))
	res, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 1 {
		t.Fatalf("records = %+v", res.Records)
	}
	r := res.Records[0]
	if r.Strategy != "shrink_middle" || r.MessagesBefore != 18 || r.MessagesAfter != 4 || r.TokensAfter >= r.TokensBefore || r.Window != 2_000 {
		t.Fatalf("record %+v", r)
	}
	if len(res.Request.Messages) != 4 || res.Tokens != r.TokensAfter {
		t.Fatalf("request has %d messages, tokens %d", len(res.Request.Messages), res.Tokens)
	}
	// Mapped back: the first item is log message 0, the note synthesized,
	// the last two the log's last two.
	got := []int{res.Rendering[0].Index, res.Rendering[1].Index, res.Rendering[2].Index, res.Rendering[3].Index}
	if !reflect.DeepEqual(got, []int{0, -1, 16, 17}) {
		t.Fatalf("source map %v", got)
	}
	// The caller's slice is untouched.
	if !reflect.DeepEqual(s.msgs, orig) {
		t.Fatal("caller's messages modified")
	}
	// The next call with one more message grows the rendering at its end.
	s.assistant("Issue the refund.")
	res2, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Records) != 0 || len(res2.Request.Messages) != 5 || res2.Rendering[4].Index != 18 {
		t.Fatalf("second call: %d records, %d messages", len(res2.Records), len(res2.Request.Messages))
	}
	for i := 0; i < 4; i++ {
		if !reflect.DeepEqual(res2.Request.Messages[i], res.Request.Messages[i]) {
			t.Fatalf("prefix changed at %d between calls", i)
		}
	}
}

func TestPreflightRefusesNonReducingCandidate(t *testing.T) {
	s := &session{}
	for i := 0; i < 5; i++ {
		s.user(big("x", 250)).assistant("ok")
	}
	pf := condense.NewPreflight(&byteCounter{}, growing, opts(1_000))
	res, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatalf("fits the input limit, should be sent: %v", err)
	}
	if len(res.Records) != 0 || len(res.Rejected) == 0 || !res.Pressured {
		t.Fatalf("records %v rejected %v", res.Records, res.Rejected)
	}
	if !strings.Contains(res.Rejected[0].Error(), "does not reduce") {
		t.Fatalf("rejection: %v", res.Rejected[0])
	}
	// A manual compaction keeps a non-reducing candidate.
	mres, err := pf.Compact(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil || len(mres.Records) != 1 || !mres.Records[0].Manual {
		t.Fatalf("manual: %v %+v", err, mres)
	}
}

func TestPreflightWindowExceeded(t *testing.T) {
	s := (&session{}).user(big("huge", 2000))
	pf := condense.NewPreflight(&byteCounter{}, shrinkMiddle(), opts(1_000))
	_, err := pf.Prepare(context.Background(), condense.Request{Model: "m", Messages: s.msgs})
	var we *condense.WindowError
	if !errors.As(err, &we) || !errors.Is(err, condense.ErrContextWindowExceeded) {
		t.Fatalf("err = %v", err)
	}
	if we.Window != 1_000 || we.InputLimit != 800 || we.Tokens <= 800 {
		t.Fatalf("%+v", we)
	}
	if condense.ErrorCode(err) != "context_window_exceeded" {
		t.Fatalf("code %q", condense.ErrorCode(err))
	}
}

// countingStrategy records each call's emergency flag and drops the oldest
// non-protected unit when emergency, else does nothing useful.
type recordingStrategy struct {
	calls []bool
	inner condense.Strategy
}

func (r *recordingStrategy) Name() string { return "recording" }
func (r *recordingStrategy) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	r.calls = append(r.calls, cc.Emergency)
	if !cc.Emergency {
		return nil, condense.ErrNothingToCompact
	}
	return r.inner.Compact(ctx, cc)
}

func TestPreflightEmergencyPass(t *testing.T) {
	s := &session{}
	for i := 0; i < 6; i++ {
		s.user(big("x", 600)).assistant("ok")
	}
	rs := &recordingStrategy{inner: shrinkMiddle()}
	pf := condense.NewPreflight(&byteCounter{}, rs, opts(1_500))
	res, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(rs.calls, []bool{false, true}) {
		t.Fatalf("attempts %v, want normal then emergency", rs.calls)
	}
	if len(res.Records) != 1 || !res.Records[0].Emergency {
		t.Fatalf("records %+v", res.Records)
	}
}

func TestPreflightSuppressesAfterTwoPressured(t *testing.T) {
	// A strategy that shrinks a little each time, never below threshold.
	n := 0
	nibble := condense.Func("nibble", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		n++
		h := cc.Current.Messages()
		first := h[0]
		first.Parts = []condense.Part{condense.Text(first.TextContent()[:len(first.TextContent())-40])}
		return append([]condense.Message{first}, h[1:]...), nil
	})
	s := (&session{}).user(big("x", 1400)).assistant("ok")
	pf := condense.NewPreflight(&byteCounter{}, nibble, opts(1_000))
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		s.assistant("more")
		res, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Pressured {
			t.Fatalf("call %d not pressured", i)
		}
		if (i == 2) != res.Suppressed {
			t.Fatalf("call %d suppressed=%v", i, res.Suppressed)
		}
	}
	if n != 2 {
		t.Fatalf("strategy ran %d times, want 2", n)
	}
	// A new user prompt resets the counter.
	s.user("new prompt")
	res, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs})
	if err != nil || res.Suppressed || n != 3 {
		t.Fatalf("after a new prompt: err %v suppressed %v runs %d", err, res.Suppressed, n)
	}
}

func TestPreflightCountsOnlyNewMessages(t *testing.T) {
	c := &byteCounter{}
	pf := condense.NewPreflight(c, shrinkMiddle(), opts(1_000_000))
	s := &session{}
	ctx := context.Background()
	for i := 0; i < 200; i++ {
		s.user("q").assistant("a")
		if _, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs}); err != nil {
			t.Fatal(err)
		}
	}
	// Each message counted once: 400 messages.
	if got := c.calls.Load(); got != 400 {
		t.Fatalf("counted %d messages, want 400", got)
	}
}

func TestPreflightNoticesEditedHistory(t *testing.T) {
	for _, verify := range []bool{false, true} {
		c := &byteCounter{}
		o := opts(1_000_000)
		o.VerifyPrefix = verify
		pf := condense.NewPreflight(c, nil, o)
		s := (&session{}).user("a").assistant("b").user("c")
		ctx := context.Background()
		if _, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs}); err != nil {
			t.Fatal(err)
		}
		edited := append([]condense.Message(nil), s.msgs...)
		edited[2] = condense.Message{ID: "other", Role: condense.RoleUser, Parts: []condense.Part{condense.Text(big("longer", 100))}}
		res, err := pf.Prepare(ctx, condense.Request{Messages: edited})
		if err != nil {
			t.Fatal(err)
		}
		want := condense.CountRequest(c, &condense.Request{Messages: edited})
		if res.Tokens != want {
			t.Fatalf("verify=%v: tokens %d after edit, full count %d", verify, res.Tokens, want)
		}
		if res.Request.Messages[2].ID != "other" {
			t.Fatalf("stale message rendered")
		}
	}
}

func TestPreflightRejectsInvalidHistory(t *testing.T) {
	s := (&session{}).user("a")
	s.msgs = append(s.msgs, msg(condense.RoleTool, result("nope")))
	pf := condense.NewPreflight(&byteCounter{}, nil, opts(10_000))
	_, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs})
	var ve *condense.ValidationError
	if !errors.As(err, &ve) || ve.Index != 1 {
		t.Fatalf("err = %v", err)
	}
	// Fixing the history makes the next call work.
	if _, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs[:1]}); err != nil {
		t.Fatalf("after fix: %v", err)
	}
}

func TestPreflightUnknownModelNoGuard(t *testing.T) {
	s := (&session{}).user(big("huge", 5000))
	pf := condense.NewPreflight(&byteCounter{}, shrinkMiddle(), &condense.Options{Logger: quiet})
	res, err := pf.Prepare(context.Background(), condense.Request{Model: "mystery-model", Messages: s.msgs})
	if err != nil || res.Budget.Known() {
		t.Fatalf("unknown model: err %v budget %+v", err, res.Budget)
	}
}

func TestPreflightCompactionOffKeepsGuard(t *testing.T) {
	s := &session{}
	for i := 0; i < 10; i++ {
		s.user(big("x", 200)).assistant("ok")
	}
	pf := condense.NewPreflight(&byteCounter{}, shrinkMiddle(), opts(1_000))
	_, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs}, condense.WithoutCompaction())
	if !errors.Is(err, condense.ErrContextWindowExceeded) {
		t.Fatalf("err = %v", err)
	}
	pf2 := condense.NewPreflight(&byteCounter{}, nil, opts(1_000))
	if _, err := pf2.Prepare(context.Background(), condense.Request{Messages: s.msgs}); !errors.Is(err, condense.ErrContextWindowExceeded) {
		t.Fatalf("nil strategy: err = %v", err)
	}
}

func TestPreflightEagerMode(t *testing.T) {
	o := opts(1_000_000)
	o.EagerTurns = 3
	pf := condense.NewPreflight(&byteCounter{}, shrinkMiddle(), o)
	s := &session{}
	var compactedAt []int
	for i := 0; i < 7; i++ {
		s.user("q").assistant("a")
		res, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Records) > 0 {
			compactedAt = append(compactedAt, i)
		}
	}
	if !reflect.DeepEqual(compactedAt, []int{2, 5}) {
		t.Fatalf("eager compactions at %v, want [2 5]", compactedAt)
	}
}

func TestPreflightBudgetNote(t *testing.T) {
	o := opts(10_000)
	o.BudgetNote = true
	pf := condense.NewPreflight(&byteCounter{}, nil, o)
	s := (&session{}).user("hello")
	res, err := pf.Prepare(context.Background(), condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatal(err)
	}
	last := res.Request.Messages[len(res.Request.Messages)-1]
	if len(res.Request.Messages) != 2 || !strings.HasPrefix(last.TextContent(), "[condense: context ") || res.Rendering[1].Edit != condense.EditNote {
		t.Fatalf("note missing: %+v", res.Request.Messages)
	}
}

func TestResolveBudgetPrecedence(t *testing.T) {
	req := &condense.Request{MaxOutputTokens: 8000, ThinkingBudget: 2000}
	info := condense.ModelInfo{Window: 200_000}
	b := condense.ResolveBudget(req, info, condense.Settings{Fraction: 0.5}, condense.Settings{Window: 100_000, Fraction: 0.9}, condense.Settings{ReservedOutput: 1000})
	if b.Window != 100_000 || b.Fraction != 0.5 || b.ReservedOutput != 3000 {
		t.Fatalf("%+v", b)
	}
	b = condense.ResolveBudget(req, info)
	if b.Window != 200_000 || b.ReservedOutput != 10_000 || b.Fraction != condense.DefaultFraction {
		t.Fatalf("%+v", b)
	}
	b = condense.ResolveBudget(&condense.Request{}, condense.ModelInfo{Window: 64_000})
	if b.InputLimit() != 59_904 || b.Threshold() != 44_928 {
		t.Fatalf("stats example budget: %d %d", b.InputLimit(), b.Threshold())
	}
}

// A resolved budget handed back as settings resolves to itself: the
// thinking budget is reserved once, not once per resolution.
func TestBudgetSettingsRoundTrip(t *testing.T) {
	info := condense.ModelInfo{Window: 200_000}
	for _, req := range []*condense.Request{
		{},
		{MaxOutputTokens: 16_000, ThinkingBudget: 4096},
		{ThinkingBudget: 2048},
		{MaxOutputTokens: 8000},
	} {
		for _, set := range []condense.Settings{{}, {Window: 32_000}, {ReservedOutput: 1000, Safety: 96, Fraction: 0.5, LowWater: 0.6}} {
			b := condense.ResolveBudget(req, info, set)
			again := condense.ResolveBudget(req, info, b.Settings(req))
			if again != b {
				t.Errorf("request %+v, settings %+v: resolved %+v, resolved again from its settings %+v", *req, set, b, again)
			}
		}
	}
}

func TestPreflightSuppressedStillCompactsOverTheLimit(t *testing.T) {
	// Three pressured preflights in a row, the third over the hard limit:
	// suppression does not stop the attempts a request over the limit needs.
	runs := 0
	counting := condense.Func("counting", func(ctx context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		runs++
		h := cc.Current.Messages()
		if cc.Emergency && len(h) > 3 {
			return append([]condense.Message{h[0]}, h[len(h)-2:]...), nil // the task and the newest
		}
		return h, nil // leave it
	})
	pf := condense.NewPreflight(&byteCounter{}, counting, opts(1_000))
	s := (&session{}).user("task").assistant(big("x", 1300)).assistant("ok")
	ctx := context.Background()
	for i := 0; i < 2; i++ {
		s.assistant("more")
		if _, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs}); err != nil {
			t.Fatal(err)
		}
	}
	s.assistant(big("y", 400))
	res, err := pf.Prepare(ctx, condense.Request{Messages: s.msgs})
	if err != nil {
		t.Fatalf("over the limit while suppressed: %v", err)
	}
	if !res.Suppressed || len(res.Records) != 1 || !res.Records[0].Emergency {
		t.Fatalf("suppressed %v records %+v", res.Suppressed, res.Records)
	}
}

func TestMapBackKeepsLogOrderForRepeatedMessages(t *testing.T) {
	s := (&session{}).user("task")
	for i := 0; i < 5; i++ {
		s.msgs = append(s.msgs, condense.AssistantText("Noted."), condense.UserText("more"))
	}
	cur := condense.Verbatim(s.msgs)
	h := cur.Messages()
	got := condense.MapBack(cur, append([]condense.Message{h[0], condense.UserText("Earlier: notes.")}, h[len(h)-2:]...))
	idx := []int{got[0].Index, got[1].Index, got[2].Index, got[3].Index}
	if !reflect.DeepEqual(idx, []int{0, -1, 9, 10}) {
		t.Fatalf("source map %v, want [0 -1 9 10]", idx)
	}
}

func TestRestoreKeepsValidationState(t *testing.T) {
	s := (&session{}).user("task").step("bash", "ok")
	hist := s.msgs
	running := hist[:len(hist)-1] // the newest call is still running
	pf := condense.NewPreflight(&byteCounter{}, nil, opts(100_000))
	if err := pf.Restore(running, condense.Verbatim(running), 0); err != nil {
		t.Fatal(err)
	}
	if _, err := pf.Prepare(context.Background(), condense.Request{Messages: hist}); err != nil {
		t.Fatalf("the running call's result after Restore: %v", err)
	}
	pf2 := condense.NewPreflight(&byteCounter{}, nil, opts(100_000))
	if err := pf2.Restore(hist, condense.Verbatim(hist), 0); err != nil {
		t.Fatal(err)
	}
	dup := append(append([]condense.Message(nil), hist...), hist[1], hist[2])
	dup[len(dup)-2].ID, dup[len(dup)-1].ID = "x1", "x2"
	if _, err := pf2.Prepare(context.Background(), condense.Request{Messages: dup}); !errors.Is(err, condense.ErrInvalidHistory) {
		t.Fatalf("a duplicate call id after Restore: %v", err)
	}
}

func TestRestoreRejectsBadRenderings(t *testing.T) {
	s := (&session{}).user("task").assistant("ok")
	pf := condense.NewPreflight(&byteCounter{}, nil, opts(100_000))
	bad := []condense.Rendering{
		{{Index: 5, Message: s.msgs[0]}},
		{{Index: -2, Message: s.msgs[0]}},
		{{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: -1, End: 1}, Message: condense.UserText("s")}},
		{{Index: 0, Message: condense.UserText("not the task")}},
	}
	for i, r := range bad {
		if err := pf.Restore(s.msgs, r, 0); !errors.Is(err, condense.ErrInvalidHistory) {
			t.Errorf("rendering %d: err = %v", i, err)
		}
	}
}

func TestBudgetNoteNeverBreaksTheRequest(t *testing.T) {
	c := &byteCounter{}
	// A request that fits exactly: the note would push it over the limit.
	s := (&session{}).user(big("word", 300))
	req := condense.Request{Messages: s.msgs}
	n := condense.CountRequest(c, &req)
	pf := condense.NewPreflight(c, nil, &condense.Options{BudgetNote: true, Logger: quiet,
		Settings: condense.Settings{Window: n + 10, ReservedOutput: 10}})
	res, err := pf.Prepare(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Tokens > res.Budget.InputLimit() || len(res.Request.Messages) != 1 {
		t.Fatalf("%d tokens over the limit %d, %d messages", res.Tokens, res.Budget.InputLimit(), len(res.Request.Messages))
	}
	// After calls still running, no note (it would separate a call from its
	// result).
	msgs := []condense.Message{condense.UserText("task"), msg(condense.RoleAssistant, call("c1"))}
	pf2 := condense.NewPreflight(c, nil, &condense.Options{BudgetNote: true, Logger: quiet, Settings: condense.Settings{Window: 100_000}})
	res, err = pf2.Prepare(context.Background(), condense.Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if err := condense.Validate(res.Request.Messages); err != nil {
		t.Fatalf("the request breaks turn safety: %v", err)
	}
}

func TestParseRecallRef(t *testing.T) {
	idx, dig, err := condense.ParseRecallRef("r42-3fa9c2d1")
	if err != nil || idx != 42 || dig != "3fa9c2d1" {
		t.Fatalf("%d %q %v", idx, dig, err)
	}
	for _, bad := range []string{"r+5-3fa9c2d1", "r-3fa9c2d1", "x42-3fa9c2d1", "r42-3fa9", "r42-zzzzzzzz", "r4 2-3fa9c2d1"} {
		if _, _, err := condense.ParseRecallRef(bad); !errors.Is(err, condense.ErrMalformed) {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestPreflightSendsRepeatedToolDefinitionsOnce(t *testing.T) {
	bash := condense.Tool{Name: "bash", Description: "run", InputSchema: json.RawMessage(`{"type":"object"}`)}
	read := condense.Tool{Name: "read", Description: "read a file", InputSchema: json.RawMessage(`{"type":"object"}`)}
	tools := []condense.Tool{bash, read, bash, read, bash}
	c := &byteCounter{}
	pf := condense.NewPreflight(c, nil, opts(100_000))
	res, err := pf.Prepare(context.Background(), condense.Request{Tools: tools, Messages: (&session{}).user("hi").msgs})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Request.Tools) != 2 || len(tools) != 5 {
		t.Fatalf("%d tools sent, caller's slice has %d", len(res.Request.Tools), len(tools))
	}
	want := condense.CountRequest(c, &condense.Request{Tools: tools[:2], Messages: res.Request.Messages})
	if res.Tokens != want {
		t.Fatalf("tokens %d, want %d (tools counted once)", res.Tokens, want)
	}
}

// A candidate that loses the task, a pinned message, the newest user
// message or the newest step is refused, whatever strategy made it; the
// rendering stays as it was.
func TestPreflightRefusesLosingProtected(t *testing.T) {
	build := func() *session {
		s := (&session{}).user("the task").assistant(big("a", 300)).user(big("b", 300))
		s.msgs[2].Pinned = true
		return s.user("the newest question").assistant("the newest answer")
	}
	for name, drop := range map[string]int{"task": 0, "pinned": 2, "newest user": 3, "newest step": 4} {
		t.Run(name, func(t *testing.T) {
			s := build()
			cut := condense.Func("cut", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
				h := cc.Current.Messages()
				return append(append([]condense.Message(nil), h[:drop]...), h[drop+1:]...), nil
			})
			pf := condense.NewPreflight(&byteCounter{}, cut, opts(100_000))
			_, err := pf.Compact(context.Background(), condense.Request{Messages: s.msgs})
			if !errors.Is(err, condense.ErrLostProtected) {
				t.Fatalf("err = %v, want ErrLostProtected", err)
			}
			if r := pf.Rendering(); len(r) != len(s.msgs) {
				t.Fatalf("rendering has %d items after a refused candidate, want %d", len(r), len(s.msgs))
			}
		})
	}
	// Dropping what may go (the old assistant message) is accepted.
	s := build()
	ok := condense.Func("ok", func(_ context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		h := cc.Current.Messages()
		return append([]condense.Message{h[0]}, h[2:]...), nil
	})
	if _, err := condense.NewPreflight(&byteCounter{}, ok, opts(100_000)).Compact(context.Background(), condense.Request{Messages: s.msgs}); err != nil {
		t.Fatalf("a candidate keeping what must stay was refused: %v", err)
	}
}
