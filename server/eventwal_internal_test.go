package server

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// When the journal outgrows its limit it rotates: the session files
// written meanwhile are synced, the old generation is removed, and a
// replay restores from the generations left only what the files miss.
func TestEventWALRotates(t *testing.T) {
	dir := t.TempDir()
	st, err := openStateDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := openEventWAL(dir, 1, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	w.max = 2000
	now := func() time.Time { return time.Unix(0, 0) }
	var logs []*eventLog
	for _, id := range []string{"s-a", "s-b"} {
		l, err := openEventLog(st.eventsPath(id), id, w, 1000, now)
		if err != nil {
			t.Fatal(err)
		}
		logs = append(logs, l)
	}
	for i := 0; i < 100; i++ {
		logs[i%2].publish(EventBusy, map[string]any{"n": i}, true)
	}
	gens, err := walFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(gens) != 1 || gens[0] == 1 {
		t.Fatalf("journal generations %v: want one, rotated past the first", gens)
	}
	// Three more events, then lose them from the session's file (as a
	// power cut loses unsynced writes) and replay: they come back, once.
	w.max = 1 << 30
	fi, err := os.Stat(st.eventsPath("s-a"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		logs[0].publish(EventBusy, map[string]any{"n": 100 + i}, true)
	}
	for _, l := range logs {
		l.close()
	}
	w.close()
	if err := os.Truncate(st.eventsPath("s-a"), fi.Size()); err != nil {
		t.Fatal(err)
	}
	next, err := replayEventWAL(st, map[string]bool{"s-a": true, "s-b": true}, 1000)
	if err != nil {
		t.Fatal(err)
	}
	if next != gens[0]+1 {
		t.Fatalf("next generation %d, want %d", next, gens[0]+1)
	}
	if left, _ := walFiles(dir); len(left) != 0 {
		t.Fatalf("journals left after the replay: %v", left)
	}
	b, _, err := readEvents(st.eventsPath("s-b"), 1000)
	if err != nil || len(b) != 50 {
		t.Fatalf("s-b holds %d events, want 50: %v", len(b), err)
	}
	for i, ev := range b {
		if ev.ID != int64(i+1) {
			t.Fatalf("s-b event %d has id %d", i, ev.ID)
		}
	}
	a, reserved, err := readEvents(st.eventsPath("s-a"), 1000)
	if err != nil || len(a) != 53 {
		t.Fatalf("s-a after the replay: %d events, want 53: %v", len(a), err)
	}
	for i, ev := range a {
		if ev.ID != int64(i+1) {
			t.Fatalf("s-a event %d has id %d", i, ev.ID)
		}
	}
	if reserved != reserveStep {
		t.Fatalf("s-a reserves ids up to %d, want %d", reserved, reserveStep)
	}
	if _, err := os.Stat(filepath.Join(dir, walName(next-1))); !os.IsNotExist(err) {
		t.Fatal(fmt.Sprint("the replayed journal is still there: ", err))
	}
}
