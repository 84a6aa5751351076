package agent_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"go.uber.org/goleak"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/tokens"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// charCounter counts a token per 4 bytes of text plus 4 per message:
// simple enough that tests can predict it, independent of the calibrated
// counters.
type charCounter struct{}

func (charCounter) Name() string { return "chars/4" }
func (charCounter) Exact() bool  { return false }
func (charCounter) CountMessage(m *condense.Message) int {
	n := 4
	for _, p := range m.Parts {
		n += (len(p.Text) + len(p.Input) + 3) / 4
		for _, c := range p.Content {
			n += (len(c.Text) + 3) / 4
		}
	}
	return n
}
func (charCounter) CountOverhead(system string, tools []condense.Tool) int {
	n := 3 + (len(system)+3)/4
	for _, t := range tools {
		n += (len(t.Name) + len(t.Description) + len(t.InputSchema) + 3) / 4
	}
	return n
}

// newCounter gives each run a corrected chars/4 counter of its own.
func newCounter(model string) condense.Counter {
	return tokens.Corrected(charCounter{}, model, nil)
}

// summarizeMiddle keeps the first message and the last two and summarizes
// the rest with the journaled helper, in calls of at most per messages
// (per 0: one call).
func summarizeMiddle(name string, per int) condense.Strategy {
	return condense.Func(name, func(ctx context.Context, cc *condense.CompactionContext) ([]condense.Message, error) {
		msgs := cc.Current.Messages()
		if len(msgs) < 4 {
			return nil, condense.ErrNothingToCompact
		}
		head, middle, tail := msgs[:1], msgs[1:len(msgs)-2], msgs[len(msgs)-2:]
		if per <= 0 {
			per = len(middle)
		}
		var parts []string
		for chunk := range slices.Chunk(middle, per) {
			s, err := cc.Summarizer.Summarize(ctx, condense.SummaryRequest{Messages: chunk, Instructions: "Summarize the ticket history."})
			if err != nil {
				return nil, err
			}
			parts = append(parts, s.Text)
		}
		out := append(slices.Clone(head), condense.UserText("Earlier: "+strings.Join(parts, " ")))
		return append(out, tail...), nil
	})
}

// ticket builds the ticket agent's request: a task, notes acknowledged one
// by one, and a question.
func ticket(notes int) condense.Request {
	history := []condense.Message{condense.UserText("You handle ticket T-9.")}
	for i := range notes {
		history = append(history, condense.UserText(fmt.Sprintf("Note %d: ", i)+strings.Repeat("details ", 60)), condense.AssistantText("Noted."))
	}
	history = append(history, condense.UserText("What should we do next?"))
	return condense.Request{Model: "test-model", Messages: history}
}

func kinds(evs []journal.Event) []string {
	var out []string
	for _, e := range evs {
		k := string(e.Kind)
		if e.Step != nil {
			k += "/" + string(e.Step.StepKind)
			if e.Step.CompactionFor > 0 {
				k += "/summary"
			}
		}
		out = append(out, k)
	}
	return out
}

func compactions(evs []journal.Event) []journal.Compacted {
	var out []journal.Compacted
	for _, e := range evs {
		if e.Compacted != nil {
			out = append(out, *e.Compacted)
		}
	}
	return out
}

func mustLoad(t *testing.T, st journal.Store, run string) []journal.Event {
	t.Helper()
	evs, err := st.Load(context.Background(), run)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}
