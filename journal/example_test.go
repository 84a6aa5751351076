package journal_test

import (
	"context"
	"fmt"
	"os"

	"github.com/condense-dev/condense/journal"
)

// A recorder appends a run's events; reopened over the same journal it
// replays them first, which is how a crashed run resumes.
func ExampleNewRecorder() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "journals")
	defer os.RemoveAll(dir)
	store, _ := journal.OpenDir(dir)

	rec, _ := journal.NewRecorder(ctx, store, "run-1", nil)
	rec.Started(ctx, journal.RunStarted{Model: "claude-sonnet-4-5", Strategy: "summarize_middle", Messages: 18, Fingerprint: "c063d4856b8b6268"})
	rec.Step(ctx, journal.Step{StepKind: journal.StepLLM, CallIndex: 2, CompactionFor: 1, Summary: "Refund approved."}, 0)
	rec.Compacted(ctx, journal.Compacted{CallIndex: 1, TokensBefore: 1620, TokensAfter: 190, Window: 2000, MessagesBefore: 18, MessagesAfter: 4, Strategy: "summarize_middle"})
	// … the process dies here.

	rec, _ = journal.NewRecorder(ctx, store, "run-1", nil)
	rec.Started(ctx, journal.RunStarted{Model: "claude-sonnet-4-5", Strategy: "summarize_middle", Messages: 18, Fingerprint: "c063d4856b8b6268"})
	s, _ := rec.Serve(journal.Step{StepKind: journal.StepLLM, CallIndex: 2, CompactionFor: 1})
	fmt.Println("served summary:", s.Summary)
	rec.Compacted(ctx, journal.Compacted{CallIndex: 1, MessagesBefore: 18, MessagesAfter: 4, Strategy: "summarize_middle"}) // not written again
	next, _ := rec.Serve(journal.Step{StepKind: journal.StepLLM, CallIndex: 1, Fingerprint: "c063d4856b8b6268"})
	fmt.Println("answer recorded:", next != nil, "| still replaying:", rec.Replaying())

	evs, _ := store.Load(ctx, "run-1")
	for _, e := range evs {
		fmt.Println(e.Seq, e.Kind)
	}
	// Output:
	// served summary: Refund approved.
	// answer recorded: false | still replaying: false
	// 1 run:started
	// 2 step:done
	// 3 context:compacted
}
