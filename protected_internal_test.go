package condense

import (
	"errors"
	"testing"
)

// A message the current rendering already summarized away (the agent's own
// compaction, restored) is not asked of the next candidate; one the current
// rendering keeps verbatim still is.
func TestKeepsProtectedBuildsOnTheBase(t *testing.T) {
	history := []Message{UserText("the task"), AssistantText("a"), UserText("more"), AssistantText("b"), UserText("newest")}
	summary := Item{Index: -1, Edit: EditSummary, Covers: Span{Start: 0, End: 2}, Message: UserText("<summary>")}
	base := Rendering{summary, {Index: 2, Message: history[2]}, {Index: 3, Message: history[3]}, {Index: 4, Message: history[4]}}
	cand := Rendering{{Index: -1, Edit: EditSummary, Covers: Span{Start: 0, End: 4}, Message: UserText("<summary 2>")}, {Index: 4, Message: history[4]}}
	if err := keepsProtected(history, base, cand); err != nil {
		t.Errorf("on the base: %v", err)
	}
	if err := keepsProtected(history, nil, cand); !errors.Is(err, ErrLostProtected) {
		t.Errorf("without a base the task is asked: %v", err)
	}
	whole := Rendering{{Index: 0, Message: history[0]}, {Index: 1, Message: history[1]}, {Index: 2, Message: history[2]}, {Index: 3, Message: history[3]}, {Index: 4, Message: history[4]}}
	if err := keepsProtected(history, whole, cand); !errors.Is(err, ErrLostProtected) {
		t.Errorf("a base keeping the task verbatim still protects it: %v", err)
	}
	drop := Rendering{summary, {Index: 2, Message: history[2]}, {Index: 3, Message: history[3]}}
	if err := keepsProtected(history, base, drop); !errors.Is(err, ErrLostProtected) {
		t.Errorf("the newest user message is still protected: %v", err)
	}
}
