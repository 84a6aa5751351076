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
