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
		"Decision (no lines follow)\n\n> just a quoted remark\n> over two lines\n\n" +
		"Q: SQS or Kafka for the export queue?\nA: SQS, because nobody here runs Kafka.\n\nQ: Who owns the export job?\nA: The data team owns it.\n"
	got := values(result("curl -s https://wiki.example.dev/raw/Decisions", out, false), KindDecision)
	for _, want := range []string{
		"> **Decided:** SQS FIFO queues for the export jobs\n> **Not:** Redis lists, because a restart loses what is in flight",
		"Decision (the retry policy)\n  chosen:   jittered exponential backoff\n  rejected: fixed 5s retries\n  why:      fixed retries stampede the API",
		"> **Decision:** keep the v1 webhook payload\n> **Rejected:** a v2 envelope, because partners pin v1",
		"Q: SQS or Kafka for the export queue?\nA: SQS, because nobody here runs Kafka.",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("record %q missing from %q", want, got)
		}
	}
	for _, v := range got {
		if v == "**Decided:** SQS FIFO queues for the export jobs" || v == "Decision (no lines follow)" || v == "> just a quoted remark\n> over two lines" ||
			v == "Q: Who owns the export job?\nA: The data team owns it." {
			t.Errorf("%q kept as a decision", v)
		}
	}
}

// TestCommandsARunSaysItRan: a line a shell traced (set -x) or a CI step's
// script under its "#!/bin/bash" is a command whatever its program; a
// plan's "+" lines, builtins and assignments are not.
func TestCommandsARunSaysItRan(t *testing.T) {
	got := values(result("woodpecker-cli log show acme/api 812", "+ go version\ngo version go1.22.2 linux/amd64\n+ pip-audit --requirement requirements/api.txt --desc on\n+ export GOFLAGS=-mod=mod\n+ echo done\n", false), KindCommand)
	for _, w := range []string{"pip-audit --requirement requirements/api.txt --desc on"} {
		if !slices.Contains(got, w) {
			t.Errorf("%q missing from %q", w, got)
		}
	}
	for _, n := range []string{"export GOFLAGS=-mod=mod", "echo done"} {
		if slices.Contains(got, n) {
			t.Errorf("%q kept as a command", n)
		}
	}
	got = values(result("circleci local execute test", "====>> Repro\n  #!/bin/bash -eo pipefail\n  cargo deny check bans\nerror[bans]: found 2 duplicate entries\n", true), KindCommand)
	if !slices.Contains(got, "cargo deny check bans") {
		t.Errorf("the step's command missing from %q", got)
	}
	got = values(result("terraform plan", "  # aws_s3_bucket.logs will be created\n  + resource \"aws_s3_bucket\" \"logs\" {\n      + bucket = \"acme-logs\"\n      + force_destroy = false\n", false), KindCommand)
	if len(got) > 1 {
		t.Errorf("a plan's lines kept as commands: %q", got)
	}
}
