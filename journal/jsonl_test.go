package journal_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/journal/journaltest"
)

func TestJournalDirConformance(t *testing.T) {
	journaltest.Run(t, func(t *testing.T) journal.Store {
		d, err := journal.OpenDir(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		return d
	}, func(t *testing.T, s journal.Store) journal.Store {
		s.Close()
		d, err := journal.OpenDir(filepathDir(s))
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}

func filepathDir(s journal.Store) string {
	p := s.(*journal.Dir).Path("x")
	return p[:len(p)-len("/x.jsonl")]
}

// A crash mid-append leaves a torn last line: it is ignored when read and
// cut off by the next append.
func TestJournalDirTornTail(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d, _ := journal.OpenDir(dir)
	evs := journaltest.Events("r", 1, 3)
	if err := d.Append(ctx, "r", evs[:2]...); err != nil {
		t.Fatal(err)
	}
	f, _ := os.OpenFile(d.Path("r"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"seq":3,"run":"r","kind":"step:do`)
	f.Close()
	d.Close() // the crashed writer's lock goes with it

	d2, _ := journal.OpenDir(dir)
	got, err := d2.Load(ctx, "r")
	if err != nil || len(got) != 2 {
		t.Fatalf("load with a torn tail: %d events, %v", len(got), err)
	}
	if err := d2.Append(ctx, "r", evs[2]); err != nil {
		t.Fatal(err)
	}
	got, err = d2.Load(ctx, "r")
	if err != nil || len(got) != 3 {
		t.Fatalf("after the next append: %d events, %v", len(got), err)
	}
	b, _ := os.ReadFile(d.Path("r"))
	if strings.Contains(string(b), "step:do\"") || bytes.Count(b, []byte("\n")) != 3 {
		t.Fatalf("file:\n%s", b)
	}
	// A bad line in the middle is an error naming the line.
	os.WriteFile(d.Path("bad"), []byte("{}\n"+string(b)), 0o644)
	if _, err := d2.Load(ctx, "bad"); err == nil || !strings.Contains(err.Error(), "bad.jsonl:1") {
		t.Fatalf("bad line: %v", err)
	}
}

func FuzzJournalParseJSONL(f *testing.F) {
	var buf bytes.Buffer
	for _, e := range journaltest.Events("r", 1, 4) {
		b, _ := e.MarshalJSON()
		buf.Write(b)
		buf.WriteByte('\n')
	}
	f.Add(buf.Bytes())
	f.Add([]byte(`{"seq":1,"kind":"run:done","payload":null}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		evs, err := journal.ParseJSONL(bytes.NewReader(data))
		if err != nil {
			return
		}
		for i, e := range evs {
			if e.Payload() == nil || e.Seq != int64(i+1) {
				t.Fatalf("event %d accepted without payload or out of sequence", i)
			}
			if _, err := e.MarshalJSON(); err != nil {
				t.Fatalf("accepted event does not re-encode: %v", err)
			}
		}
	})
}

// Two stores over one directory, used in turn (each closed before the
// other appends), see each other's appends; used at once, the second gets
// ErrLocked instead of writing over the first one's events.
func TestJournalDirTwoStoresInTurn(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, _ := journal.OpenDir(dir)
	b, _ := journal.OpenDir(dir)
	evs := journaltest.Events("r", 1, 4)
	if err := a.Append(ctx, "r", evs[0]); err != nil {
		t.Fatal(err)
	}
	if err := b.Append(ctx, "r", evs[1]); !errors.Is(err, journal.ErrLocked) {
		t.Fatalf("second writer: %v, want ErrLocked", err)
	}
	if err := b.Append(ctx, "other", journaltest.Events("other", 1, 1)...); err != nil {
		t.Fatalf("another run is not locked: %v", err)
	}
	if got, err := b.Load(ctx, "r"); err != nil || len(got) != 1 {
		t.Fatalf("reading needs no lock: %d events, %v", len(got), err)
	}
	a.Close()
	if err := b.Append(ctx, "r", evs[1]); err != nil {
		t.Fatal(err)
	}
	b.Close()
	if err := a.Append(ctx, "r", evs[2]); err != nil {
		t.Fatal(err)
	}
	if err := a.Append(ctx, "r", evs[2]); !errors.Is(err, journal.ErrSequence) {
		t.Fatalf("a repeated seq: %v", err)
	}
	got, err := b.Load(ctx, "r")
	if err != nil || len(got) != 3 {
		t.Fatalf("%d events, %v", len(got), err)
	}
}

// Two writers appending to one run at once never lose an acknowledged
// event: one holds the run, the other is refused every time.
func TestJournalDirConcurrentWritersLoseNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var acked [2][]int64
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d, _ := journal.OpenDir(dir)
			defer d.Close()
			for i := 0; i < 200; i++ {
				evs, err := d.Load(ctx, "r")
				n := int64(len(evs))
				if err != nil && !errors.Is(err, journal.ErrNotFound) {
					t.Error(err)
					return
				}
				ev := journaltest.Events("r", int(n)+1, 1)
				if err := d.Append(ctx, "r", ev...); err == nil {
					acked[w] = append(acked[w], n+1)
				} else if !errors.Is(err, journal.ErrLocked) && !errors.Is(err, journal.ErrSequence) {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	d, _ := journal.OpenDir(dir)
	got, err := d.Load(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	for w := range 2 {
		for _, seq := range acked[w] {
			if seq > int64(len(got)) {
				t.Fatalf("writer %d: acknowledged event %d lost (journal holds %d)", w, seq, len(got))
			}
		}
	}
	if len(acked[0])+len(acked[1]) != len(got) {
		t.Fatalf("%d + %d acknowledged, %d stored", len(acked[0]), len(acked[1]), len(got))
	}
}

// A link at a run's name is refused, and its target left alone.
func TestJournalDirRefusesSymlink(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	target := dir + "/target.txt"
	os.WriteFile(target, []byte("not yours"), 0o644)
	d, _ := journal.OpenDir(dir)
	if err := os.Symlink(target, d.Path("r")); err != nil {
		t.Skip(err)
	}
	if err := d.Append(ctx, "r", journaltest.Events("r", 1, 1)...); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("append through a link: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "not yours" {
		t.Fatalf("target now holds %q", b)
	}
}

// A power cut mid-append can leave a torn tail of any shape: the last line
// cut short or garbled (sectors of the write never reached the disk), or
// part of an append of several events, whose lines carry batch_end. A torn
// tail is left out; a bad line followed by events of another append is
// damage, an error naming the bad line.
func TestJournalParseTornTails(t *testing.T) {
	line := func(e journal.Event, batchEnd int) string {
		b, err := e.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		if batchEnd > 0 {
			s = strings.Replace(s, `"payload"`, fmt.Sprintf(`"batch_end":%d,"payload"`, batchEnd), 1)
		}
		return s + "\n"
	}
	evs := journaltest.Events("r", 1, 6)
	head := line(evs[0], 0) + line(evs[1], 0) + line(evs[2], 0)
	garble := func(s string) string { return s[:20] + strings.Repeat("\x00", 30) + s[50:] }
	for _, c := range []struct {
		name, tail string
		want       int    // events read
		err        string // or the error
	}{
		{name: "none", want: 3},
		{name: "last line cut short", tail: line(evs[3], 0)[:40], want: 3},
		{name: "zeros", tail: strings.Repeat("\x00", 700), want: 3},
		{name: "last line garbled", tail: garble(line(evs[3], 0)), want: 3},
		{name: "whole append of several", tail: line(evs[3], 5) + line(evs[4], 5), want: 5},
		{name: "append of several, last line missing", tail: line(evs[3], 6) + line(evs[4], 6), want: 3},
		{name: "append of several, first line garbled", tail: garble(line(evs[3], 6)) + line(evs[4], 6) + line(evs[5], 6), want: 3},
		{name: "append of several, middle line garbled", tail: line(evs[3], 6) + garble(line(evs[4], 6)) + line(evs[5], 6), want: 3},
		{name: "garbled line before an event", tail: garble(line(evs[3], 0)) + line(evs[4], 0), err: "input:4:"},
		{name: "garbled line before another append", tail: line(evs[3], 5) + garble(line(evs[4], 5)) + line(evs[5], 6), err: "input:5:"},
		{name: "appends of several interleaved", tail: line(evs[3], 5) + line(evs[4], 6), err: "input:5:"},
		{name: "event out of sequence", tail: line(evs[4], 0), err: "input:4: event seq 5, want 4"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := journal.ParseJSONL(strings.NewReader(head + c.tail))
			switch {
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("err %v, want one naming %q", err, c.err)
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err == "" && len(got) != c.want:
				t.Fatalf("%d events, want %d", len(got), c.want)
			}
		})
	}
}

// An append of several events marks each line with the seq of its last
// event; a single event has no mark, as journals always had.
func TestJournalDirMarksAppendsOfSeveral(t *testing.T) {
	ctx := context.Background()
	d, _ := journal.OpenDir(t.TempDir())
	defer d.Close()
	evs := journaltest.Events("r", 1, 3)
	if err := d.Append(ctx, "r", evs[0]); err != nil {
		t.Fatal(err)
	}
	if err := d.Append(ctx, "r", evs[1:]...); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(d.Path("r"))
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 3 || strings.Contains(lines[0], "batch_end") ||
		!strings.Contains(lines[1], `"batch_end":3`) || !strings.Contains(lines[2], `"batch_end":3`) {
		t.Fatalf("file:\n%s", b)
	}
}
