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

// A session's file is a checkpoint of the journal, written in batches:
// an event is in the journal when it is published, its line reaches the
// file with the next batch or sync, and a crash that loses the lines
// waiting in memory loses nothing, since the journal is replayed.
func TestEventFileWrittenInBatches(t *testing.T) {
	dir := t.TempDir()
	st, err := openStateDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	w, err := openEventWAL(dir, 1, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return time.Unix(0, 0) }
	open := func() *eventLog {
		l, err := openEventLog(st.eventsPath("s-a"), "s-a", w, 1000, now)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	stored := func() int {
		evs, _, err := readEvents(st.eventsPath("s-a"), 1000)
		if err != nil {
			t.Fatal(err)
		}
		return len(evs)
	}
	l := open()
	l.publish(EventBusy, map[string]any{"n": 0}, true)
	if n := stored(); n != 0 {
		t.Fatalf("the file holds %d events right after the first publish, want it to wait for a batch", n)
	}
	if err := l.sync(); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != 1 {
		t.Fatalf("the file holds %d events after sync, want 1", n)
	}
	// Enough events to fill a batch: they reach the file without a sync.
	for i := 1; i <= pendingMax/64; i++ {
		l.publish(EventBusy, map[string]any{"n": i}, false)
	}
	if n := stored(); n <= 1 {
		t.Fatalf("the file holds %d events after a full batch", n)
	}
	// Three more, then a crash: the lines waiting in memory are lost, the
	// journal (written, and synced for the last one) has them.
	for i := 0; i < 3; i++ {
		l.publish(EventBusy, map[string]any{"late": i}, i == 2)
	}
	want := int(l.lastID())
	if err := w.close(); err != nil {
		t.Fatal(err)
	}
	l.f.Close() // the process dies: its descriptors close, the batch is lost
	if n := stored(); n >= want {
		t.Fatalf("the file holds all %d events before the replay: nothing was waiting", n)
	}
	if _, err := replayEventWAL(st, map[string]bool{"s-a": true}, 1000); err != nil {
		t.Fatal(err)
	}
	if n := stored(); n != want {
		t.Fatalf("after the replay the file holds %d events, want %d", n, want)
	}
}
