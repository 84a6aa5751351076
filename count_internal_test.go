package condense

import (
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// lenCounter counts a token per byte of text.
type lenCounter struct{}

func (lenCounter) Name() string                     { return "len" }
func (lenCounter) Exact() bool                      { return false }
func (lenCounter) CountMessage(m *Message) int      { return len(m.TextContent()) }
func (lenCounter) CountOverhead(string, []Tool) int { return 1 }

// countAll gives each message its own count, in order, whether it counts
// on one goroutine or several; an empty message counts 1.
func TestCountAll(t *testing.T) {
	for _, n := range []int{0, 1, parallelFrom - 1, parallelFrom, 1000} {
		msgs := make([]Message, n)
		for i := range msgs {
			msgs[i] = UserText(strings.Repeat("x", i%97))
		}
		got := countAll(lenCounter{}, msgs)
		if len(got) != n {
			t.Fatalf("%d messages: %d counts", n, len(got))
		}
		for i, c := range got {
			if want := max(1, i%97); c != want {
				t.Fatalf("%d messages: message %d counts %d, want %d", n, i, c, want)
			}
		}
	}
}

// A long history is counted by a Prepare exactly as message by message.
func TestPrepareLongHistoryCounts(t *testing.T) {
	var msgs []Message
	for i := range 500 {
		msgs = append(msgs, UserText(fmt.Sprintf("message %d %s", i, strings.Repeat("y", i%50))))
	}
	quiet := &Options{Logger: slog.New(slog.DiscardHandler)}
	res, err := NewPreflight(lenCounter{}, nil, quiet).Prepare(t.Context(), Request{Messages: msgs})
	if err != nil {
		t.Fatal(err)
	}
	want := 1
	for i := range msgs {
		want += max(1, len(msgs[i].TextContent()))
	}
	if res.Tokens != want {
		t.Fatalf("tokens %d, want %d", res.Tokens, want)
	}
}
