package strategy

import (
	"testing"

	"github.com/condense-dev/condense"
)

// TestAbsorbBefore: an update of a summary starts at the requests earlier
// split-turn summaries kept verbatim before it and at the drop markers
// there, not at the summary, so they are summarized instead of piling up;
// the task and the newest user message stay out of it.
func TestAbsorbBefore(t *testing.T) {
	marker := condense.Item{Index: -1, Edit: condense.EditDropped, Covers: condense.Span{Start: 3, End: 5},
		Message: condense.UserText(`[condense: 2 messages dropped (90 tokens) · recall covers 3-4 · kept: constraint "Never commit to main."]`)}
	summary := condense.Item{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 1, End: 9},
		Message: condense.UserText("<summary checkpoint=\"c2\" covers=\"1-8\">\n## Task\n</summary>")}
	r := condense.Rendering{
		{Index: 0, Message: condense.UserText("Fix the rounding bug.")},
		marker,
		{Index: 6, Message: condense.UserText("Also look at the CSV export.")},
		summary,
		{Index: 9, Message: condense.AssistantText("Looking at the export now.")},
		{Index: 10, Message: condense.UserText("And keep the API stable.")},
		{Index: 11, Message: condense.AssistantText("Will do.")},
	}
	if got := absorbBefore(r, 3); got != 1 {
		t.Errorf("absorbBefore = %d, want 1 (the marker and the kept request, not the task)", got)
	}
	// Nothing to take in: the summary follows the task.
	if got := absorbBefore(condense.Rendering{r[0], summary, r[4]}, 1); got != 1 {
		t.Errorf("absorbBefore = %d, want 1", got)
	}
	// An assistant message before the summary stops it.
	r2 := condense.Rendering{r[0], {Index: 5, Message: condense.AssistantText("Earlier words.")}, r[2], summary, r[5]}
	if got := absorbBefore(r2, 3); got != 2 {
		t.Errorf("absorbBefore = %d, want 2", got)
	}
}

// TestCollectSpanBringsBackDroppedRequests: a drop marker in a summary's
// span keeps specifics, not the user's words; the requests it dropped come
// back from the log, before it, so the summary lists them in ## Task.
func TestCollectSpanBringsBackDroppedRequests(t *testing.T) {
	history := []condense.Message{
		condense.UserText("Fix the rounding bug."),
		condense.AssistantText("Looking."),
		condense.UserText("Also look at the CSV export; it double-counts retries."),
		condense.AssistantText("On it."),
		condense.UserText("<returncode>0</returncode>\n<output>\nok\n</output>"), // an observation, not a request
		condense.AssistantText("Done."),
	}
	marker := condense.Item{Index: -1, Edit: condense.EditDropped, Covers: condense.Span{Start: 1, End: 5},
		Message: condense.UserText(`[condense: 4 messages dropped (90 tokens) · recall covers 1-4 · kept: file export.py]`)}
	cur := condense.Rendering{{Index: 0, Message: history[0]}, marker, {Index: 5, Message: history[5]}}
	_, span := collectSpan(cur, plan{start: 1, boundary: 2, prev: -1}, history)
	if len(span.msgs) != 2 || span.msgs[0].TextContent() != history[2].TextContent() || span.msgs[1].TextContent() != marker.Message.TextContent() {
		t.Fatalf("span messages = %q, want the dropped request then the marker", texts(span.msgs))
	}
	if span.covers != (condense.Span{Start: 1, End: 5}) {
		t.Errorf("covers = %v, want 1-5", span.covers)
	}
}

func texts(msgs []condense.Message) []string {
	out := make([]string, len(msgs))
	for i := range msgs {
		out[i] = msgs[i].TextContent()
	}
	return out
}

// TestDroppedRequestsTextProtocol: in a text-protocol log, the answer to a
// fenced action is its output whatever it opens with, so a drop marker's
// requests are the user's own messages only.
func TestDroppedRequestsTextProtocol(t *testing.T) {
	history := []condense.Message{
		condense.UserText("Fix the rounding bug."),
		condense.AssistantText("Searching.\n```\nsearch_dir round src\n```"),
		condense.UserText("Found 4 matches for \"round\" in /repo/src"),
		condense.AssistantText("Fixed."),
		condense.UserText("Also keep the CSV export stable."),
		condense.AssistantText("```\npytest -q\n```"),
		condense.UserText("3 passed in 0.2s"),
	}
	got := texts(droppedRequests(history, condense.Span{Start: 1, End: 7}))
	if len(got) != 1 || got[0] != "Also keep the CSV export stable." {
		t.Errorf("dropped requests = %q, want only the user's follow-up", got)
	}
	// A span that starts at an observation reads the action before it.
	if got := droppedRequests(history, condense.Span{Start: 2, End: 4}); len(got) != 0 {
		t.Errorf("dropped requests = %q, want none", texts(got))
	}
}
