package summarize

import (
	"github.com/condense-dev/condense/ledger"
)

// A tool result an earlier pass masked reaches the summarizer as a
// placeholder, "[condense: tool output masked (5,210 tokens) · recall … ·
// kept: command "go test ./..." (exit 1); error "--- FAIL: TestX"]", not as
// its output: the exit status and error lines of the run are in its kept
// list, as ledger items. This file reads them back.

const placeholderPrefix = "[condense:"

// placeholderItems returns the ledger items a placeholder's kept list
// holds, in order; nil when text is not a placeholder or keeps nothing.
// Items it cannot read are skipped.
func placeholderItems(text string) []ledger.Item {
	return ledger.KeptItems(text)
}
