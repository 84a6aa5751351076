package journal_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/journal/journaltest"
)

func TestJournalMemoryConformance(t *testing.T) {
	journaltest.Run(t, func(*testing.T) journal.Store { return journal.NewMemory() }, nil)
}

func TestJournalEventJSONRoundTrip(t *testing.T) {
	for _, e := range journaltest.Events("r", 1, 4) {
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		var back journal.Event
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		if !journal.Same(e, back) {
			t.Errorf("round trip changed %s into %s", b, journal.Comparable(back))
		}
	}
	var e journal.Event
	if err := json.Unmarshal([]byte(`{"seq":1,"kind":"nope","payload":{}}`), &e); err == nil {
		t.Error("an unknown kind was accepted")
	}
}

func TestJournalSameIgnoresDurations(t *testing.T) {
	evs := journaltest.Events("r", 1, 2)
	a, b := evs[1], evs[1]
	b.Duration *= 7
	b.Time = b.Time.Add(3600e9)
	if !journal.Same(a, b) {
		t.Error("events differing only in time and duration are not Same")
	}
	u := *b.Step.Usage
	u.OutputTokens++
	s := *b.Step
	s.Usage = &u
	b.Step = &s
	if journal.Same(a, b) {
		t.Error("events with different usage are Same")
	}
}

func TestJournalCompactedHasNoContentAtAnyLevel(t *testing.T) {
	// context:compacted carries counts and the strategy name only, and is
	// the same at every capture level.
	ev := journaltest.Events("r", 1, 3)[2]
	for _, c := range []journal.Capture{journal.CaptureNone, journal.CaptureCounts, journal.CaptureFull} {
		b, _ := json.Marshal(ev.Redact(c))
		var m struct {
			Payload map[string]any `json:"payload"`
		}
		json.Unmarshal(b, &m)
		keys := []string{}
		for k := range m.Payload {
			keys = append(keys, k)
		}
		want := map[string]bool{"call_index": true, "tokens_before": true, "tokens_after": true, "window": true,
			"messages_before": true, "messages_after": true, "strategy": true}
		for _, k := range keys {
			if !want[k] {
				t.Errorf("capture %s: context:compacted has field %q", c, k)
			}
		}
		if len(keys) != len(want) {
			t.Errorf("capture %s: fields %v", c, keys)
		}
	}
}

func TestJournalRedactLevels(t *testing.T) {
	ev := journaltest.Events("r", 1, 2)[1]
	out := "tool output"
	ev.Step.Output = &out
	ev.Step.Summary = "secret summary"
	full, _ := json.Marshal(ev.Redact(journal.CaptureFull))
	counts, _ := json.Marshal(ev.Redact(journal.CaptureCounts))
	none, _ := json.Marshal(ev.Redact(journal.CaptureNone))
	if !strings.Contains(string(full), "secret summary") || !strings.Contains(string(full), "answer 2") {
		t.Errorf("full capture lost content: %s", full)
	}
	for _, b := range [][]byte{counts, none} {
		if strings.Contains(string(b), "secret") || strings.Contains(string(b), "answer 2") || strings.Contains(string(b), "tool output") {
			t.Errorf("content below full capture: %s", b)
		}
	}
	if !strings.Contains(string(counts), `"input_tokens":20`) {
		t.Errorf("counts capture lost usage: %s", counts)
	}
	if strings.Contains(string(none), "input_tokens") {
		t.Errorf("none capture kept usage: %s", none)
	}
	if ev.Step.Summary != "secret summary" {
		t.Error("Redact modified its receiver")
	}
}

func TestJournalErrorsAreCodeAndMessage(t *testing.T) {
	we := &condense.WindowError{Tokens: 2100, InputLimit: 1800, Window: 2000}
	info := journal.ErrorOf(we)
	b, _ := json.Marshal(info)
	if string(b) != `{"code":"context_window_exceeded","message":"`+we.Error()+`"}` {
		t.Errorf("error as JSON: %s", b)
	}
	if journal.ErrorOf(nil) != nil {
		t.Error("ErrorOf(nil) is not nil")
	}
}

func TestJournalRecorderResumeAndVerify(t *testing.T) {
	ctx := context.Background()
	st := journal.NewMemory()
	evs := journaltest.Events("r", 1, 4) // started, step 2, compacted 3, step 4
	write := func(rec *journal.Recorder) {
		t.Helper()
		if err := rec.Started(ctx, *evs[0].Started); err != nil {
			t.Fatal(err)
		}
		if s, err := rec.Serve(*evs[1].Step); err != nil || s != nil {
			t.Fatalf("Serve on a new journal: %v, %v", s, err)
		}
		if err := rec.Step(ctx, *evs[1].Step, evs[1].Duration); err != nil {
			t.Fatal(err)
		}
		if err := rec.Compacted(ctx, *evs[2].Compacted); err != nil {
			t.Fatal(err)
		}
	}
	rec, err := journal.NewRecorder(ctx, st, "r", nil)
	if err != nil {
		t.Fatal(err)
	}
	write(rec)

	// Resume: the recorded events are served, not written again.
	rec, err = journal.NewRecorder(ctx, st, "r", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Replaying() {
		t.Fatal("a recorder over a journal is not replaying")
	}
	if err := rec.Started(ctx, *evs[0].Started); err != nil {
		t.Fatal(err)
	}
	want := *evs[1].Step
	want.Response, want.Usage = nil, nil
	served, err := rec.Serve(want)
	if err != nil || served == nil || served.Response.TextContent() != "answer 2" {
		t.Fatalf("Serve on resume: %+v, %v", served, err)
	}
	c := *evs[2].Compacted
	c.Window = 4000 // a rerun with another window still matches by call index
	if err := rec.Compacted(ctx, c); err != nil {
		t.Fatal(err)
	}
	if rec.Replaying() {
		t.Fatal("replayed events remain")
	}
	if s, err := rec.Serve(*evs[3].Step); s != nil || err != nil {
		t.Fatalf("Serve past the journal: %v, %v", s, err)
	}
	if err := rec.Step(ctx, *evs[3].Step, 0); err != nil {
		t.Fatal(err)
	}
	if err := rec.Finish(ctx, journal.Event{Kind: journal.KindRunDone, Done: &journal.RunDone{ModelCalls: 2}}); err != nil {
		t.Fatal(err)
	}
	got, _ := st.Load(ctx, "r")
	if len(got) != 5 {
		t.Fatalf("journal has %d events after resume, want 5", len(got))
	}
	if got[2].Compacted.Window != 2000 {
		t.Error("the recorded compaction was rewritten")
	}

	// Verify: a different step is a divergence; nothing is written.
	v, err := journal.NewRecorder(ctx, st, "r", &journal.RecorderOptions{Mode: journal.ModeVerify})
	if err != nil {
		t.Fatal(err)
	}
	if err := v.Started(ctx, *evs[0].Started); err != nil {
		t.Fatal(err)
	}
	bad := *evs[1].Step
	bad.Fingerprint = "ff"
	_, err = v.Serve(bad)
	var de *journal.DivergenceError
	if !errors.As(err, &de) || de.Seq != 2 || !errors.Is(err, journal.ErrDiverged) {
		t.Fatalf("a changed step: %v", err)
	}
	v, _ = journal.NewRecorder(ctx, st, "r", &journal.RecorderOptions{Mode: journal.ModeVerify})
	v.Started(ctx, *evs[0].Started)
	for _, e := range []journal.Event{evs[1], evs[3]} {
		if s, err := v.Serve(*e.Step); err != nil || s == nil {
			t.Fatal(s, err)
		}
	}
	if _, err := v.Serve(journal.Step{StepKind: journal.StepTool, ToolIndex: 1}); !errors.Is(err, journal.ErrDiverged) {
		t.Fatalf("a step past the end: %v", err)
	}
	if got, _ := st.Load(ctx, "r"); len(got) != 5 {
		t.Fatalf("verify wrote events: %d", len(got))
	}

	// A summarize call recorded where the rerun makes the model call: the
	// strategy no longer makes it.
	st2 := journal.NewMemory()
	r2, _ := journal.NewRecorder(ctx, st2, "r", nil)
	r2.Started(ctx, *evs[0].Started)
	r2.Step(ctx, journal.Step{StepKind: journal.StepLLM, CallIndex: 2, CompactionFor: 1, Summary: "s"}, 0)
	r2, _ = journal.NewRecorder(ctx, st2, "r", &journal.RecorderOptions{Mode: journal.ModeVerify})
	r2.Started(ctx, *evs[0].Started)
	_, err = r2.Serve(journal.Step{StepKind: journal.StepLLM, CallIndex: 1, Fingerprint: "00"})
	if !errors.Is(err, journal.ErrCompactionNotConsumed) || err.Error() != "recorded context compaction was not consumed" {
		t.Fatalf("unconsumed summary: %v", err)
	}
}

func TestJournalNotConsumedText(t *testing.T) {
	err := error(&journal.DivergenceError{Err: journal.ErrCompactionNotConsumed, Seq: 3})
	if err.Error() != "recorded context compaction was not consumed" || !errors.Is(err, journal.ErrCompactionNotConsumed) {
		t.Fatalf("%q", err)
	}
}

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
