package ledger

import (
	"slices"
	"testing"
)

// TestDecisionRecordsAsPrinted: a decision log's entries shown in output
// are kept with their lines as printed, their quote marks and their
// indentation, behind a thread's prefix too; a heading with no lines of
// labels under it, and a quote that is no record, are not records.
func TestDecisionRecordsAsPrinted(t *testing.T) {
	out := "== 2026-05-02: the export queue ==\n'''Status:''' accepted\n\n" +
		"> **Decided:** SQS FIFO queues for the export jobs\n> **Not:** Redis lists, because a restart loses what is in flight\n\n" +
		"Decision (the retry policy)\n  chosen:   jittered exponential backoff\n  rejected: fixed 5s retries\n  why:      fixed retries stampede the API\n\n" +
		"mkovacs [APPROVED]: > **Decision:** keep the v1 webhook payload\n> **Rejected:** a v2 envelope, because partners pin v1\n\n" +
		"Decision (no lines follow)\n\n> just a quoted remark\n> over two lines\n"
	got := values(result("curl -s https://wiki.example.dev/raw/Decisions", out, false), KindDecision)
	for _, want := range []string{
		"> **Decided:** SQS FIFO queues for the export jobs\n> **Not:** Redis lists, because a restart loses what is in flight",
		"Decision (the retry policy)\n  chosen:   jittered exponential backoff\n  rejected: fixed 5s retries\n  why:      fixed retries stampede the API",
		"> **Decision:** keep the v1 webhook payload\n> **Rejected:** a v2 envelope, because partners pin v1",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("record %q missing from %q", want, got)
		}
	}
	for _, v := range got {
		if v == "**Decided:** SQS FIFO queues for the export jobs" || v == "Decision (no lines follow)" || v == "> just a quoted remark\n> over two lines" {
			t.Errorf("%q kept as a decision", v)
		}
	}
}
