package session_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/session"
	"github.com/condense-dev/condense/store"
	"github.com/condense-dev/condense/store/jsonl"
	"github.com/condense-dev/condense/store/memstore"
	"github.com/condense-dev/condense/strategy"
)

func TestPrepareCheckpointsAndReopen(t *testing.T) {
	st := newMem()
	s := open(t, st, "s", options(4000, nil))
	appendAll(t, s, turn("a", 3))
	res := prepare(t, s)
	if len(res.Records) != 0 || len(s.Checkpoints()) != 0 {
		t.Fatalf("small history compacted: %+v", res.Records)
	}
	appendAll(t, s, turn("b", 6))
	res = prepare(t, s)
	if len(res.Records) == 0 {
		t.Fatalf("no compaction at %d tokens (before %d)", res.Tokens, res.TokensBefore)
	}
	if err := condense.Validate(res.Request.Messages); err != nil {
		t.Fatal(err)
	}
	cps := s.Checkpoints()
	if len(cps) != 1 || cps[0].ID != "c1" || cps[0].HistoryCount != s.Len() || len(cps[0].Edits) == 0 || cps[0].Time.IsZero() {
		t.Fatalf("checkpoints = %+v", cps)
	}
	want := requestJSON(t, res.Request)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = open(t, st, "s", options(4000, nil))
	defer s.Close()
	got := prepare(t, s, condense.WithoutCompaction())
	if requestJSON(t, got.Request) != want {
		t.Fatalf("reopened session renders differently:\n%s\nwant\n%s", requestJSON(t, got.Request), want)
	}
	if cps2 := s.Checkpoints(); len(cps2) != 1 || cps2[0].ID != "c1" || !cps2[0].Time.Equal(cps[0].Time) {
		t.Fatalf("checkpoints after reopen = %+v", cps2)
	}
	// The next compaction continues the numbering.
	appendAll(t, s, turn("c", 8))
	res = prepare(t, s)
	if len(res.Records) == 0 || res.Records[0].Checkpoint != "c2" {
		t.Fatalf("next compaction records %+v", res.Records)
	}
}

func TestPrepareAppendsRequestMessages(t *testing.T) {
	s := open(t, newMem(), "s", options(100000, nil))
	defer s.Close()
	msgs := turn("a", 2)
	res, err := s.Prepare(bg, condense.Request{Model: "gpt-4o", Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	if s.Len() != len(msgs) || len(res.Request.Messages) != len(msgs) {
		t.Fatalf("len %d, rendered %d, want %d", s.Len(), len(res.Request.Messages), len(msgs))
	}
}

func TestUndoRestoresRenderingByteForByte(t *testing.T) {
	for _, reopen := range []bool{false, true} {
		t.Run(map[bool]string{false: "same process", true: "after reopen"}[reopen], func(t *testing.T) {
			st := newMem()
			o := options(12000, nil)
			o.Preflight.Settings.Fraction = 0.2
			s := open(t, st, "s", o)
			appendAll(t, s, turn("a", 6))
			before1 := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request)
			if len(prepare(t, s).Records) == 0 {
				t.Fatal("no first compaction")
			}
			after1 := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request)
			appendAll(t, s, turn("b", 8))
			before2 := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request)
			if len(prepare(t, s).Records) == 0 {
				t.Fatal("no second compaction")
			}
			if reopen {
				s.Close()
				s = open(t, st, "s", o)
			}
			defer s.Close()
			undone, err := s.Undo(bg, "c2")
			if err != nil || len(undone) != 1 || undone[0] != "c2" {
				t.Fatalf("Undo(c2) = %v, %v", undone, err)
			}
			if got := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request); got != before2 {
				t.Fatalf("after undoing c2:\n%s\nwant\n%s", got, before2)
			}
			_ = after1
			// Compact again (c3), then undo c1: c3 depends on it and goes too.
			if _, err := s.Compact(bg); err != nil {
				t.Fatal(err)
			}
			undone, err = s.Undo(bg, "c1")
			if err != nil || strings.Join(undone, ",") != "c1,c3" {
				t.Fatalf("Undo(c1) = %v, %v; want [c1 c3]", undone, err)
			}
			appendAll(t, s, []condense.Message{condense.UserText("and one more thing")})
			full, _ := s.History(bg)
			want := requestJSON(t, condense.Request{Model: "gpt-4o", System: "You are a coding agent.", Messages: full})
			if got := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request); got != want {
				t.Fatalf("after undoing c1 the rendering is not the verbatim log")
			}
			if !strings.HasPrefix(want, before1[:len(before1)-3]) {
				t.Fatal("verbatim log does not extend the rendering before c1")
			}
			if len(s.Checkpoints()) != 0 {
				t.Fatalf("checkpoints left: %+v", s.Checkpoints())
			}
			if _, err := s.Undo(bg, "c1"); !errors.Is(err, session.ErrUnknownCheckpoint) {
				t.Fatalf("second Undo(c1): %v", err)
			}
			// The undo is saved: a reopened session has no checkpoint.
			s.Close()
			s = open(t, st, "s", o)
			if len(s.Checkpoints()) != 0 {
				t.Fatal("undo not persisted")
			}
			if got := requestJSON(t, prepare(t, s, condense.WithoutCompaction()).Request); got != want {
				t.Fatal("reopened after undo renders differently")
			}
		})
	}
}

var (
	reMaskRef = regexp.MustCompile(`recall (r\d+-[0-9a-f]{8})`)
	reDropRef = regexp.MustCompile(`recall covers \d+-\d+`)
)

func TestRecall(t *testing.T) {
	st := newMem()
	s := open(t, st, "s", options(4000, strategy.Mask{KeepSteps: 2}))
	defer s.Close()
	appendAll(t, s, turn("a", 6))
	appendAll(t, s, turn("b", 1))
	res := prepare(t, s)
	if len(res.Records) == 0 {
		t.Fatal("no compaction")
	}
	hist, _ := s.History(bg)
	var refs int
	for _, it := range res.Rendering {
		if it.Edit != condense.EditMasked {
			continue
		}
		for _, m := range reMaskRef.FindAllStringSubmatch(it.Message.Parts[0].Content[0].Text, -1) {
			refs++
			got, err := s.Recall(bg, m[1])
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Start != it.Index || requestJSON(t, condense.Request{Messages: got[0].Messages}) != requestJSON(t, condense.Request{Messages: hist[it.Index : it.Index+1]}) {
				t.Fatalf("Recall(%s) = %+v", m[1], got)
			}
			// The whole placeholder works too.
			if _, err := s.Recall(bg, it.Message.Parts[0].Content[0].Text); err != nil {
				t.Fatal(err)
			}
			// A wrong digest is refused.
			bad := m[1][:len(m[1])-8] + "00000000"
			if _, err := s.Recall(bg, bad); !errors.Is(err, session.ErrBadReference) {
				t.Fatalf("Recall(%s) = %v", bad, err)
			}
		}
	}
	if refs == 0 {
		t.Fatal("no mask placeholder rendered")
	}
	// Summary tags and checkpoint ids.
	got, err := s.Recall(bg, `<summary checkpoint="c9" covers="2-5">`)
	if err != nil || len(got) != 1 || got[0].Start != 2 || len(got[0].Messages) != 4 || got[0].Messages[0].ID != hist[2].ID || got[0].Messages[3].ID != hist[5].ID {
		t.Fatalf("Recall(summary) = %+v, %v", got, err)
	}
	got, err = s.Recall(bg, "c1")
	if err != nil || len(got) == 0 {
		t.Fatalf("Recall(c1) = %+v, %v", got, err)
	}
	for _, bad := range []string{"nonsense", "r999-00000000", "c7", "5-1000"} {
		if _, err := s.Recall(bg, bad); !errors.Is(err, session.ErrBadReference) {
			t.Errorf("Recall(%q) = %v, want ErrBadReference", bad, err)
		}
	}
}

func TestRecallDropMarker(t *testing.T) {
	st := newMem()
	s := open(t, st, "s", options(4000, strategy.DropOldest{KeepRecent: 4}))
	appendAll(t, s, turn("a", 8))
	appendAll(t, s, turn("b", 1))
	res := prepare(t, s)
	hist, _ := s.History(bg)
	s.Close()
	// Reopen: the dropped messages are not decoded, Recall reads them.
	s = open(t, st, "s", options(4000, strategy.DropOldest{KeepRecent: 4}))
	defer s.Close()
	found := 0
	for _, it := range res.Rendering {
		if it.Edit != condense.EditDropped {
			continue
		}
		ref := reDropRef.FindString(it.Message.TextContent())
		got, err := s.Recall(bg, ref)
		if err != nil {
			t.Fatal(err)
		}
		found++
		want := hist[it.Covers.Start:it.Covers.End]
		if len(got) != 1 || got[0].Start != it.Covers.Start || requestJSON(t, condense.Request{Messages: got[0].Messages}) != requestJSON(t, condense.Request{Messages: want}) {
			t.Fatalf("Recall(%q) returned %d messages from %d, want %d from %d", ref, len(got[0].Messages), got[0].Start, len(want), it.Covers.Start)
		}
	}
	if found == 0 {
		t.Fatalf("no drop marker in %d items", len(res.Rendering))
	}
}

func TestCompactNothingToCompact(t *testing.T) {
	st := newMem()
	s := open(t, st, "s", options(100000, nil))
	defer s.Close()
	appendAll(t, s, turn("a", 1))
	prepare(t, s)
	before := requestJSON(t, prepare(t, s).Request)
	if ok, err := s.CompactionAvailable(bg); ok || err != nil {
		t.Fatalf("CompactionAvailable = %v, %v on a short session", ok, err)
	}
	if _, err := s.Compact(bg, condense.WithInstructions("keep the file names")); !errors.Is(err, condense.ErrNothingToCompact) {
		t.Fatalf("Compact: %v", err)
	}
	if len(s.Checkpoints()) != 0 || requestJSON(t, prepare(t, s).Request) != before {
		t.Fatal("nothing_to_compact changed something")
	}
}

func TestManualCompactAndAvailability(t *testing.T) {
	var summarized atomic.Int32
	o := options(100000, nil)
	o.Preflight.Summarizer = summarizerFunc(func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
		summarized.Add(1)
		return &condense.Summary{Text: "summary"}, nil
	})
	st := newMem()
	s := open(t, st, "s", o)
	defer s.Close()
	appendAll(t, s, turn("a", 14))
	appendAll(t, s, turn("b", 1))
	ok, err := s.CompactionAvailable(bg)
	if err != nil || !ok {
		t.Fatalf("CompactionAvailable = %v, %v", ok, err)
	}
	if len(s.Checkpoints()) != 0 || summarized.Load() != 0 {
		t.Fatal("CompactionAvailable saved or summarized")
	}
	res, err := s.Compact(bg, condense.WithInstructions("focus on the failing test"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Records) != 1 || !res.Records[0].Manual {
		t.Fatalf("records %+v", res.Records)
	}
	cps := s.Checkpoints()
	if len(cps) != 1 || cps[0].Strategy == "" || cps[0].HistoryCount != s.Len() {
		t.Fatalf("checkpoints %+v", cps)
	}
}

func TestRestoreRejectsInvalidCheckpoints(t *testing.T) {
	msgs := turn("a", 4) // u, a, t, a, t, a, t, a, t, done = 10
	good := func(id string, n int) store.Checkpoint {
		r := condense.Verbatim(msgs[:n])
		return store.Checkpoint{ID: id, Strategy: "test", HistoryCount: n, Rendering: store.EncodeOverlay(r)}
	}
	summary := func(id string, end int) store.Checkpoint {
		r := condense.Rendering{{Index: 0, Message: msgs[0]},
			{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 1, End: end}, Message: condense.UserText(`<summary checkpoint="` + id + `">x</summary>`)}}
		for i := end; i < len(msgs); i++ {
			r = append(r, condense.Item{Index: i, Message: msgs[i]})
		}
		cp := store.Checkpoint{ID: id, Strategy: "test", HistoryCount: len(msgs), Rendering: store.EncodeOverlay(r)}
		cp.FirstKept = end
		return cp
	}
	orphan := func() store.Checkpoint {
		// Renders a tool result without its call.
		r := condense.Rendering{{Index: 0, Message: msgs[0]}, {Index: 2, Message: msgs[2]}}
		return store.Checkpoint{ID: "c1", Strategy: "test", HistoryCount: 3, Rendering: store.EncodeOverlay(r)}
	}
	cases := []struct {
		name string
		cps  []store.Checkpoint
		bad  string
	}{
		{"count goes backwards", []store.Checkpoint{good("c1", 8), good("c2", 5)}, "c2"},
		{"ids out of order", []store.Checkpoint{good("c2", 5), good("c1", 8)}, "c1"},
		{"bad id", []store.Checkpoint{good("x1", 5)}, "x1"},
		{"summary boundary not a user message", []store.Checkpoint{summary("c1", 4)}, "c1"},
		{"turn safety", []store.Checkpoint{orphan()}, "c1"},
		{"first kept goes backwards", []store.Checkpoint{func() store.Checkpoint { c := good("c1", 5); c.FirstKept = 3; return c }()}, "c1"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st := newMem()
			l, _ := st.Open(bg, "s")
			if _, err := l.Append(bg, store.Batch{Messages: msgs}); err != nil {
				t.Fatal(err)
			}
			for i := range tc.cps {
				if _, err := l.Append(bg, store.Batch{Checkpoint: &tc.cps[i]}); err != nil {
					t.Fatal(err)
				}
			}
			l.Close()
			_, err := session.Open(bg, st, "s", options(4000, nil))
			var ce *session.CheckpointError
			if !errors.As(err, &ce) || ce.ID != tc.bad || !errors.Is(err, session.ErrInvalidCheckpoint) {
				t.Fatalf("Open = %v, want a CheckpointError naming %s", err, tc.bad)
			}
			// The session is not left open.
			if l, err := st.Open(bg, "s"); err != nil {
				t.Fatalf("store still locked: %v", err)
			} else {
				l.Close()
			}
		})
	}
	t.Run("valid summary", func(t *testing.T) {
		st := newMem()
		l, _ := st.Open(bg, "s")
		l.Append(bg, store.Batch{Messages: append(msgs, turn("b", 1)...)})
		cp := summary("c1", 10)
		cp.HistoryCount = 10
		cp.Rendering = cp.Rendering[:2]
		if _, err := l.Append(bg, store.Batch{Checkpoint: &cp}); err != nil {
			t.Fatal(err)
		}
		l.Close()
		s, err := session.Open(bg, st, "s", options(4000, nil))
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	})
}

// TestLockSerializesCompactionAndAppends checks that no append completes
// while a compaction runs. A compaction bumps gen to an odd number when it
// starts and to the next even one when it ends; an append that saw an odd
// gen before it began and the same gen after it returned ran entirely inside
// one compaction. Appends that merely race with a compaction's start are
// not counted, so the check holds however the goroutines are scheduled.
func TestLockSerializesCompactionAndAppends(t *testing.T) {
	st := newMem()
	var gen atomic.Int64
	var overlaps atomic.Int32
	cs := &countingStrategy{inner: strategy.Default()}
	var sess *session.Session
	cs.hook = func(ctx context.Context, cc *condense.CompactionContext) error {
		gen.Add(1)
		n := sess.Len()
		time.Sleep(20 * time.Millisecond) // gives appends a chance to sneak in; not needed for validity
		if sess.Len() != n {
			overlaps.Add(1)
		}
		gen.Add(1)
		return nil
	}
	sess = open(t, st, "s", options(4000, cs))
	defer sess.Close()
	appendAll(t, sess, turn("a", 6))
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; ; k++ {
				select {
				case <-stop:
					return
				default:
				}
				before := gen.Load()
				if err := sess.Append(bg, condense.AssistantText("note")); err != nil {
					t.Error(err)
					return
				}
				if before%2 == 1 && gen.Load() == before {
					overlaps.Add(1)
				}
			}
		}()
	}
	for i := 0; i < 5; i++ {
		sess.Compact(bg)
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	if cs.calls < 5 {
		t.Fatalf("strategy ran %d times", cs.calls)
	}
	if overlaps.Load() != 0 {
		t.Fatalf("%d appends overlapped a compaction", overlaps.Load())
	}
}

func TestCancelStopsCompaction(t *testing.T) {
	st := newMem()
	cs := &countingStrategy{inner: strategy.Default()}
	started := make(chan struct{})
	cs.hook = func(ctx context.Context, cc *condense.CompactionContext) error {
		close(started)
		<-ctx.Done()
		return ctx.Err()
	}
	s := open(t, st, "s", options(4000, cs))
	defer s.Close()
	appendAll(t, s, turn("a", 6))
	ctx, cancel := context.WithCancel(bg)
	done := make(chan error)
	go func() {
		_, err := s.Compact(ctx)
		done <- err
	}()
	<-started
	// An append waits for the compaction's lock, then goes through.
	appended := make(chan error)
	go func() { appended <- s.Append(bg, condense.UserText("next")) }()
	select {
	case <-appended:
		t.Fatal("append ran during a compaction")
	case <-time.After(20 * time.Millisecond):
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Compact after cancel: %v", err)
	}
	if err := <-appended; err != nil {
		t.Fatal(err)
	}
	if len(s.Checkpoints()) != 0 {
		t.Fatal("a cancelled compaction saved a checkpoint")
	}
	// Waiting for the lock honours cancellation too.
	ctx2, cancel2 := context.WithTimeout(bg, 10*time.Millisecond)
	defer cancel2()
	cs.hook = func(ctx context.Context, cc *condense.CompactionContext) error {
		time.Sleep(100 * time.Millisecond)
		return nil
	}
	go s.Compact(bg)
	time.Sleep(10 * time.Millisecond)
	if err := s.Append(ctx2, condense.UserText("late")); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Append waiting for the lock: %v", err)
	}
}

func TestConcurrentSessions(t *testing.T) {
	st := newMem()
	var wg sync.WaitGroup
	for k := 0; k < 8; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := session.Open(bg, st, "s"+string(rune('a'+k)), options(4000, nil))
			if err != nil {
				t.Error(err)
				return
			}
			defer s.Close()
			for i := 0; i < 3; i++ {
				if err := s.Append(bg, turn("t"+string(rune('a'+i)), 3)...); err != nil {
					t.Error(err)
					return
				}
				if _, err := s.Prepare(bg, condense.Request{Model: "gpt-4o"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestSecondWriterIsLockedOut(t *testing.T) {
	st := newMem()
	s := open(t, st, "s", nil)
	defer s.Close()
	if _, err := session.Open(bg, st, "s", nil); !errors.Is(err, store.ErrLocked) {
		t.Fatalf("second Open: %v, want store.ErrLocked", err)
	}
}

func TestRecallSummary(t *testing.T) {
	st := newMem()
	s := open(t, st, "s", options(6000, strategy.NewPipeline(strategy.Summarize{})))
	defer s.Close()
	for _, p := range []string{"a", "b", "c", "d"} {
		appendAll(t, s, turn(p, 3))
	}
	res := prepare(t, s)
	hist, _ := s.History(bg)
	found := 0
	for _, it := range res.Rendering {
		if it.Edit != condense.EditSummary {
			continue
		}
		text := it.Message.TextContent()
		tag := text[:strings.Index(text, ">")+1]
		got, err := s.Recall(bg, tag)
		if err != nil {
			t.Fatalf("Recall(%s): %v", tag, err)
		}
		want := hist[it.Covers.Start:it.Covers.End]
		if len(got) != 1 || got[0].Start != it.Covers.Start || requestJSON(t, condense.Request{Messages: got[0].Messages}) != requestJSON(t, condense.Request{Messages: want}) {
			t.Fatalf("Recall(%s) = %d messages from %d, want %d from %d", tag, len(got[0].Messages), got[0].Start, len(want), it.Covers.Start)
		}
		found++
	}
	if found == 0 {
		t.Fatalf("no summary rendered (records %+v)", res.Records)
	}
}

func TestCancelDuringSaveKeepsTheWrite(t *testing.T) {
	st := newMem()
	ctx, cancel := context.WithCancel(bg)
	defer cancel()
	st.Fail = func(b *store.Batch) error {
		if b.Checkpoint != nil {
			cancel() // the caller gives up while the checkpoint is being written
		}
		return nil
	}
	s := open(t, st, "s", options(4000, nil))
	defer s.Close()
	appendAll(t, s, turn("a", 6))
	res, err := s.Prepare(ctx, condense.Request{Model: "gpt-4o"})
	if err != nil || len(res.Records) == 0 {
		t.Fatalf("Prepare = %v, %v", res, err)
	}
	if ctx.Err() == nil {
		t.Fatal("the save did not run")
	}
	s.Close()
	s = open(t, st, "s", options(4000, nil))
	if len(s.Checkpoints()) != 1 {
		t.Fatal("the completed save was rolled back")
	}
}

// scripted returns the renderings it is given, one per call.
type scripted struct {
	steps []func(cc *condense.CompactionContext) condense.Rendering
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Compact(_ context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	f := s.steps[0]
	s.steps = s.steps[1:]
	return &condense.Candidate{Rendering: f(cc)}, nil
}

func TestUnrestorableCheckpointIsRefused(t *testing.T) {
	verbatimFrom := func(cc *condense.CompactionContext, r condense.Rendering, from int) condense.Rendering {
		for i := from; i < len(cc.History); i++ {
			r = append(r, condense.Item{Index: i, Message: cc.History[i]})
		}
		return r
	}
	st := &scripted{steps: []func(cc *condense.CompactionContext) condense.Rendering{
		func(cc *condense.CompactionContext) condense.Rendering { // c1: drop 1-4
			return verbatimFrom(cc, condense.Rendering{{Index: 0, Message: cc.History[0]},
				{Index: -1, Edit: condense.EditDropped, Covers: condense.Span{Start: 1, End: 5}, Message: condense.UserText("[dropped · recall covers 1-4]")}}, 5)
		},
		func(cc *condense.CompactionContext) condense.Rendering { // c2: shows 3-4 again
			return verbatimFrom(cc, condense.Rendering{{Index: 0, Message: cc.History[0]},
				{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 1, End: 3}, Message: condense.UserText("<summary>x</summary>")}}, 3)
		},
	}}
	s := open(t, newMem(), "s", options(100000, st))
	defer s.Close()
	appendAll(t, s, turn("a", 4))
	if _, err := s.Compact(bg); err != nil {
		t.Fatal(err)
	}
	want := requestJSON(t, prepare(t, s).Request)
	_, err := s.Compact(bg)
	var ce *session.CheckpointError
	if !errors.As(err, &ce) {
		t.Fatalf("Compact with an unrestorable result: %v, want a CheckpointError", err)
	}
	if len(s.Checkpoints()) != 1 || requestJSON(t, prepare(t, s).Request) != want {
		t.Fatal("a refused compaction changed the session")
	}
}

func TestConcurrentAppendsOneSessionJSONL(t *testing.T) {
	st, err := jsonl.Open(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	s := open(t, st, "s", options(8000, nil))
	appendAll(t, s, []condense.Message{condense.UserText("task")})
	const workers, per = 16, 10
	var wg sync.WaitGroup
	var prepares atomic.Int32
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < per; j++ {
				step := turn(fmt.Sprintf("w%d-%d", w, j), 1)[1:3] // one step: call and result, saved together
				if err := s.Append(bg, step...); err != nil {
					t.Error(err)
					return
				}
				if w == 0 && j%3 == 0 {
					if _, err := s.Prepare(bg, condense.Request{Model: "gpt-4o"}); err != nil {
						t.Error(err)
						return
					}
					prepares.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	hist, err := s.History(bg)
	if err != nil {
		t.Fatal(err)
	}
	if len(hist) != 1+2*workers*per {
		t.Fatalf("history holds %d messages, want %d", len(hist), 1+2*workers*per)
	}
	if err := condense.Validate(hist); err != nil {
		t.Fatalf("steps interleaved: %v", err)
	}
	s.Close()
	s = open(t, st, "s", options(8000, nil))
	defer s.Close()
	again, _ := s.History(bg)
	if requestJSON(t, condense.Request{Messages: again}) != requestJSON(t, condense.Request{Messages: hist}) {
		t.Fatal("reopened history differs")
	}
}

// modelSummarizer stands for a provider summarizer: it counts calls.
type summarizerFunc func(context.Context, condense.SummaryRequest) (*condense.Summary, error)

func (f summarizerFunc) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	return f(ctx, req)
}

type modelSummarizer struct{ calls atomic.Int32 }

func (m *modelSummarizer) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	m.calls.Add(1)
	return &condense.Summary{Text: "## Summary\nfrom the model"}, nil
}

func TestCompactionAvailableCallsNoModel(t *testing.T) {
	ms := &modelSummarizer{}
	o := options(6000, strategy.NewPipeline(strategy.Summarize{}))
	o.Preflight.Summarizer = ms
	s := open(t, newMem(), "s", o)
	defer s.Close()
	for _, p := range []string{"a", "b", "c", "d"} {
		appendAll(t, s, turn(p, 3))
	}
	ok, err := s.CompactionAvailable(bg)
	if err != nil || !ok {
		t.Fatalf("CompactionAvailable = %v, %v", ok, err)
	}
	if ms.calls.Load() != 0 || len(s.Checkpoints()) != 0 {
		t.Fatalf("CompactionAvailable called the model %d times", ms.calls.Load())
	}
	if _, err := s.Compact(bg); err != nil {
		t.Fatal(err)
	}
	if ms.calls.Load() != 1 {
		t.Fatalf("Compact called the model %d times, want 1", ms.calls.Load())
	}
}

// A request that cannot fit even after compaction is not sent, but the
// compaction it made stays in the rendering: it is saved as a checkpoint,
// so a reopened session renders what the live one did.
func TestPrepareOverTheLimitSavesItsCompaction(t *testing.T) {
	st := memstore.New()
	o := options(3000, strategy.Mask{KeepSteps: 1})
	s := open(t, st, "over", o)
	appendAll(t, s, turn("a", 6))
	// One last huge user message that no strategy may touch: the newest user
	// message always stays verbatim.
	appendAll(t, s, []condense.Message{{ID: "huge", Role: condense.RoleUser, Parts: []condense.Part{condense.Text(strings.Repeat("giant paste ", 2000))}}})
	_, err := s.Prepare(bg, condense.Request{})
	var we *condense.WindowError
	if !errors.As(err, &we) || len(we.Records) == 0 {
		t.Fatalf("err = %v, want a WindowError carrying the mask compaction", err)
	}
	cps := s.Checkpoints()
	if len(cps) != 1 || cps[0].ID != we.Records[0].Checkpoint {
		t.Fatalf("checkpoints %+v, want the one the failed call made", cps)
	}
	live := s.Rendering().Messages()
	s.Close()
	s2 := open(t, st, "over", o)
	defer s2.Close()
	a, _ := json.Marshal(live)
	b, _ := json.Marshal(s2.Rendering().Messages())
	if string(a) != string(b) {
		t.Fatal("the reopened session renders differently from the live one")
	}
}
