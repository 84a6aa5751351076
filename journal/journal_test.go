package journal_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

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
	// the same at every capture level (DESIGN B29).
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
	evs := journaltest.Events("r", 1, 4)
	rec, err := journal.NewRecorder(ctx, st, "r", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs[:2] {
		if err := rec.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := rec.Compacted(ctx, *evs[2].Compacted); err != nil {
		t.Fatal(err)
	}
	// Resume: the same events are consumed, not written again.
	rec, err = journal.NewRecorder(ctx, st, "r", nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.Replaying() {
		t.Fatal("a recorder over a journal is not replaying")
	}
	for _, e := range evs[:2] {
		if err := rec.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	c := *evs[2].Compacted
	c.Window = 4000 // a rerun with another window still matches by call index
	if err := rec.Compacted(ctx, c); err != nil {
		t.Fatal(err)
	}
	if rec.Replaying() {
		t.Fatal("replayed events remain")
	}
	if err := rec.Record(ctx, evs[3]); err != nil {
		t.Fatal(err)
	}
	got, _ := st.Load(ctx, "r")
	if len(got) != 4 {
		t.Fatalf("journal has %d events after resume, want 4", len(got))
	}
	if got[2].Compacted.Window != 2000 {
		t.Error("the recorded compaction was rewritten")
	}

	// Verify: a different event is a divergence, and so is running past
	// the end; nothing is written.
	v, err := journal.NewRecorder(ctx, st, "r", &journal.RecorderOptions{Mode: journal.ModeVerify})
	if err != nil {
		t.Fatal(err)
	}
	bad := evs[0]
	st0 := *bad.Started
	st0.Fingerprint = "ff"
	bad.Started = &st0
	err = v.Record(ctx, bad)
	var de *journal.DivergenceError
	if !errors.As(err, &de) || de.Seq != 1 || !errors.Is(err, journal.ErrDiverged) {
		t.Fatalf("a changed event: %v", err)
	}
	v, _ = journal.NewRecorder(ctx, st, "r", &journal.RecorderOptions{Mode: journal.ModeVerify})
	for _, e := range append(evs[:2:2], evs[3]) {
		if err := v.Record(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := v.Record(ctx, journaltest.Events("r", 6, 1)[0]); !errors.Is(err, journal.ErrDiverged) {
		t.Fatalf("an event past the end: %v", err)
	}
	if got, _ := st.Load(ctx, "r"); len(got) != 4 {
		t.Fatalf("verify wrote events: %d", len(got))
	}
}

func TestJournalNotConsumedText(t *testing.T) {
	err := error(&journal.DivergenceError{Err: journal.ErrCompactionNotConsumed, Seq: 3})
	if err.Error() != "recorded context compaction was not consumed" || !errors.Is(err, journal.ErrCompactionNotConsumed) {
		t.Fatalf("%q", err)
	}
}
