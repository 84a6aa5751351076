package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
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

// TestDecisionBlocksByShape: a short block that keeps one course and sets
// another aside, or picks from the options it lists, is one decision kept
// as printed, whatever its labels, in a reply and in a document read; a
// paragraph of prose wrapped at a width, a list of steps and a block with
// no course set aside are not.
func TestDecisionBlocksByShape(t *testing.T) {
	blocks := []string{
		"Options for the cache layer\n  a) Caffeine in-process\n  b) Redis cluster\nPicked (b); (a) fails because each pod would hold its own copy.",
		"**Storage engine**\n- RocksDB: chosen, compaction is tunable\n- LMDB: rejected, single writer only",
		"<details>\n<summary>Chosen: HTTP/2 keepalive pings every 30s</summary>\nNot chosen: TCP keepalive, the LB drops idle flows at 60s.\n</details>",
		"<details><summary>Verdict: one consumer group per region</summary>\n\nDiscarded: a global group, cross-region rebalances take minutes.\n</details>",
		"Serialization\n+ msgpack for the wire format: adopted\n- protobuf: skipped, the schema churns weekly",
	}
	text := "I compared the approaches.\n\n" + strings.Join(blocks, "\n\nThen more.\n\n") + "\n\nNext I'll wire the client."
	for name, got := range map[string][]string{
		"reply": values(Extract([]condense.Message{condense.AssistantText(text)}, 0), KindDecision),
		"doc":   values(result("cat docs/notes/cache.md", text, false), KindDecision),
	} {
		for _, want := range blocks {
			if !slices.Contains(got, want) {
				t.Errorf("%s: block %q missing from %q", name, want, got)
			}
		}
	}
	// an element opened after a sentence on its line, and one posted
	// through a heredoc as a command's message
	mid := "The callers agree, so nothing else moves. <details><summary>Outcome: one writer goroutine per shard</summary>\n\nDropped: a mutex per account, it serialises the reads too.\n</details>"
	want := "<details><summary>Outcome: one writer goroutine per shard</summary>\n\nDropped: a mutex per account, it serialises the reads too.\n</details>"
	if got := values(Extract([]condense.Message{condense.AssistantText(mid)}, 0), KindDecision); !slices.Contains(got, want) {
		t.Errorf("mid-line block %q missing from %q", want, got)
	}
	posted := "chat-send --stream ops --message \"$(cat <<'EOF'\n" + strings.TrimPrefix(mid, "The callers agree, so nothing else moves. ") + "\nEOF\n)\""
	if got := values(callItems(t, posted), KindDecision); !slices.Contains(got, want) {
		t.Errorf("posted block %q missing from %q", want, got)
	}
	for _, text := range []string{
		// prose wrapped at a width
		"rustls-native-certs reads the system store fine, I tried it in a container and\nkept it. We dropped the vendored bundle\nbecause it went stale twice.",
		// steps, nothing set aside
		"Plan:\n- keep the old handler for now\n- add the new route\n- run the e2e suite",
		// a course kept with nothing set aside and no options
		"Cache\n- chosen: Redis cluster\n- owner: platform team",
	} {
		for _, v := range values(Extract([]condense.Message{condense.AssistantText(text)}, 0), KindDecision) {
			if strings.Count(v, "\n") >= 2 {
				t.Errorf("%q: block %q kept as a decision", text, v)
			}
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
