package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// hasDecision reports whether items hold a decision holding want.
func hasDecision(items []Item, want string) bool {
	return slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, want) })
}

// TestDecisionsInReviewFields: a person's words carried in the prose keys
// of a tool's JSON output (a review's body, a ticket's description), on
// one line or printed over many, are read for decisions; the rest of the
// record, and a body that decides nothing, are not.
func TestDecisionsInReviewFields(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{`[{"author":"dkim","body":"Nice cleanup.","state":"COMMENTED"},{"author":"lmoreau","body":"Moving the retry budget into the gateway client, because the handlers each had their own copy.","state":"APPROVED"}]`,
			"Moving the retry budget into the gateway client, because the handlers each had their own copy."},
		{"{\n  \"reviews\": [\n    {\n      \"body\": \"We settled on ULIDs for the order ids; UUIDv4 was rejected because the index fragments.\",\n      \"state\": \"APPROVED\"\n    }\n  ]\n}",
			"We settled on ULIDs for the order ids; UUIDv4 was rejected because the index fragments."},
		{`{"key":"OPS-2291","fields":{"description":"Keeping nightly snapshots and dropping WAL shipping for the replica; it is read-only and a day of lag is fine.","status":"Done"}}`,
			"Keeping nightly snapshots and dropping WAL shipping for the replica; it is read-only and a day of lag is fine."},
	} {
		items := siteItems(t, 0, "out", tc.out)
		if !hasDecision(items, tc.want) {
			t.Errorf("%q: no decision holding %q in %q", tc.out, tc.want, Strings(items))
		}
	}
	for _, out := range []string{
		`{"body":"Thanks for the quick turnaround on this one, looks good to me.","state":"APPROVED"}`,
		`{"level":"info","message":"switched to the fallback pool instead of the primary","took":"3ms"}`,
		`{"body":"rather than","state":"COMMENTED"}`,
	} {
		for _, it := range siteItems(t, 0, "out", out) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", out, it.Value)
			}
		}
	}
}

// TestDecisionsInGuides: a guide or an upgrade note the agent writes is
// read for what it says was chosen, not for what it tells its reader to
// do; a letter or an issue body fed to a command through a heredoc is read
// line by line, a type's brackets in a sentence no bar.
func TestDecisionsInGuides(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"cat > docs/upgrading-to-3.md <<'EOF'\n# Upgrading to 3.0\n\n### Storage\n\nRecommendation: SQLite in WAL mode for the agent cache. Not recommended: BoltDB, since its file only grows.\n\nRun `agent migrate` once after upgrading.\nEOF",
			"Not recommended: BoltDB, since its file only grows."},
		{"mail -s 'scheduler: approach' team@example.org <<'EOF'\nHello,\n\nThe timer queue stays a BinaryHeap<Deadline>; a BTreeMap<Instant, Job> was turned down because two jobs can share an instant.\n\nThanks\nEOF",
			"a BTreeMap<Instant, Job> was turned down because two jobs can share an instant."},
		{"glab issue create --title 'Rounding follow-up' --description - <<'EOF'\nI'll keep amounts in integer cents for the invoices. I considered decimal.Decimal, but the JSON encoder turns it into strings.\nEOF",
			"I'll keep amounts in integer cents for the invoices. I considered decimal.Decimal, but the JSON encoder turns it into strings."},
	} {
		items := callItems(t, tc.cmd)
		if !hasDecision(items, tc.want) {
			t.Errorf("%q: no decision holding %q in %q", tc.cmd, tc.want, Strings(items))
		}
	}
	for _, cmd := range []string{
		"cat > docs/deploying.md <<'EOF'\n# Deploying\n\nUse the blue/green script rather than a rolling restart when you ship a schema change.\nPrefer the staging cluster over your laptop for load tests, since the network is closer to production.\nEOF",
	} {
		for _, it := range callItems(t, cmd) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", cmd, it.Value)
			}
		}
	}
}

// TestDecisionsInTextActions: an agent that acts in text (a fenced command
// ending its reply) writes prose through that command as a tool's input
// would: a guide fed through a heredoc is read for its decisions.
func TestDecisionsInTextActions(t *testing.T) {
	text := "Writing the upgrade note.\n\n```\ncat > UPGRADING.md <<'EOF'\n# Upgrading\n\n### Sessions\n\nSessions now live in Redis with a 24h TTL rather than in sticky cookies; the load balancer could not pin websockets.\nEOF\n```"
	items := ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}}, 4)
	want := "Sessions now live in Redis with a 24h TTL rather than in sticky cookies; the load balancer could not pin websockets."
	if !hasDecision(items, want) {
		t.Errorf("no decision holding %q in %q", want, Strings(items))
	}
}

// TestPickJoinsItsWeighing: a short pick of what the sentence before it
// weighed carries that sentence, its reason; a pick of nothing said
// before, or a step that picks something up, does not take it.
func TestPickJoinsItsWeighing(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"Weighing both for the export job: pandas is quicker to write, polars with lazy frames is correct since the input does not fit in memory. Picking polars with lazy frames.",
			"Weighing both for the export job: pandas is quicker to write, polars with lazy frames is correct since the input does not fit in memory. Picking polars with lazy frames."},
		{"For the session store, cookies are the least work and Redis survives a restart of every node. Going with Redis for the session store.",
			"For the session store, cookies are the least work and Redis survives a restart of every node. Going with Redis for the session store."},
	} {
		items := siteItems(t, 0, "asst", tc.text)
		if !hasDecision(items, tc.want) {
			t.Errorf("%q: no decision holding %q in %q", tc.text, tc.want, Strings(items))
		}
	}
	for _, text := range []string{
		"The worker logs mention the retry queue twice. Picking up the retry queue next.",
		"The kernel hands out ports from a fixed range. Picking a port is done by the kernel.",
	} {
		for _, it := range siteItems(t, 0, "asst", text) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", text, it.Value)
			}
		}
	}
}

// TestUserForgetsAnOption: a user who keeps one option and tells the agent
// to forget another, with why, has decided.
func TestUserForgetsAnOption(t *testing.T) {
	text := "Thanks. Let's do nightly snapshots and forget the WAL shipping; the replica is read-only anyway."
	want := "Let's do nightly snapshots and forget the WAL shipping; the replica is read-only anyway."
	// kept whole as the user's choice or rule: both outrank every
	// specific and neither is cut
	items := siteItems(t, 0, "user", text)
	if !slices.ContainsFunc(items, func(it Item) bool {
		return (it.Kind == KindDecision || it.Kind == KindConstraint) && strings.Contains(it.Value, want)
	}) {
		t.Errorf("no decision or constraint holding %q in %q", want, Strings(items))
	}
}

// TestCommandsWrittenThroughHeredocs: a recipe or a CI step written into
// its file through a shell heredoc is a command that will run, as when a
// file tool writes it.
func TestCommandsWrittenThroughHeredocs(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"cat > justfile <<'EOF'\ndefault:\n    @just --list\n\n# the importer drops the last row\nrepro-import:\n    poetry run pytest tests/importer -k 'last_row' --maxfail=1 -q\nEOF",
			"poetry run pytest tests/importer -k 'last_row' --maxfail=1 -q"},
		{"mkdir -p .gitlab && cat > .gitlab/repro.yml <<'EOF'\nrepro:\n  stage: test\n  script:\n    - cargo test -p sync-engine --test replay -- --nocapture --test-threads 1\nEOF",
			"cargo test -p sync-engine --test replay -- --nocapture --test-threads 1"},
		{"cat > .buildkite/nightly.yml <<'EOF'\nsteps:\n  - label: \"soak\"\n    command: |\n      k6 run --vus 40 --duration 20m load/soak.js\nEOF",
			"k6 run --vus 40 --duration 20m load/soak.js"},
	} {
		items := callItems(t, tc.cmd)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindCommand && it.Value == tc.want }) {
			t.Errorf("%q: no command %q in %q", tc.cmd, tc.want, Strings(items))
		}
	}
}

// TestCommandBeforeTheNextSentence: a command typed after a colon ends
// where the next sentence starts, even with no full stop between; a
// capitalised word inside its quotes is its own.
func TestCommandBeforeTheNextSentence(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"The flake is easy to hit. Repro from the on-call notes: tox -e py311 -- tests/sync/test_merge.py -k 'conflict' -x Ping me when it is green.",
			"tox -e py311 -- tests/sync/test_merge.py -k 'conflict' -x"},
		{"Nightly fails again. To see it: go test -run '^$' -bench 'Merge' -benchtime 20x ./internal/merge/ Grafana shows the spike at 02:10.",
			"go test -run '^$' -bench 'Merge' -benchtime 20x ./internal/merge/"},
		{"It hangs here: psql -h db.internal -c 'SELECT Name FROM Accounts LIMIT 5' -v ON_ERROR_STOP=1",
			"psql -h db.internal -c 'SELECT Name FROM Accounts LIMIT 5' -v ON_ERROR_STOP=1"},
	} {
		items := siteItems(t, 0, "user", tc.text)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindCommand && it.Value == tc.want }) {
			t.Errorf("%q: no command %q in %q", tc.text, tc.want, Strings(items))
		}
	}
}

// TestReadingRulesHoldBack: what the rules above must not read. A
// capitalised argument stays in its command; a file the agent reads, a
// model's text block and a guide's instructions to its reader are no
// decisions; a lone "s" after a number is a duration only when it stands
// alone; a unit or a note after a key is not part of it.
func TestReadingRulesHoldBack(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"To reproduce: rg -n Deprecated src/", "rg -n Deprecated src/"},
		{"Run: docker run --name Api server -p 8080:80 nginx", "docker run --name Api server -p 8080:80 nginx"},
	} {
		items := siteItems(t, 0, "user", tc.text)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindCommand && it.Value == tc.want }) {
			t.Errorf("%q: no command %q in %q", tc.text, tc.want, Strings(items))
		}
	}
	noDecision := func(what string, items []Item) {
		t.Helper()
		for _, it := range items {
			if it.Kind == KindDecision {
				t.Errorf("%s: decision %q", what, it.Value)
			}
		}
	}
	// the agent reads a package's manifest: a file, not a person's words
	c := condense.ToolCall("c1", "bash", []byte(`{"command":"cat package.json"}`))
	r := condense.ToolResult("c1", false, condense.Text(`{"name": "tiny-queue", "description": "A tiny queue that uses a linked list instead of an array, so that shifts stay O(1).", "author": "kim"}`))
	noDecision("package.json", ExtractResult(&c, &r, 1))
	// a model's response printed by curl
	noDecision("model response", siteItems(t, 0, "out", `{"content":[{"type":"text","text":"I'll use Postgres advisory locks instead of Redis, because Redis locks expire."}],"stop_reason":"end_turn","usage":{"input_tokens":12}}`))
	for _, cmd := range []string{
		"cat > docs/dev.md <<'EOF'\nFor local development, use SQLite instead of Postgres because it needs no server.\nEOF",
		"cat > CONTRIBUTING.md <<'EOF'\nContributors should use pnpm rather than npm, because the lockfile is pnpm's.\nEOF",
		"cat > docs/setup.md <<'EOF'\n**Use Node 20** rather than 18, because 18 is out of support.\nEOF",
		"cat > LICENSE.txt <<'EOF'\nWe chose the MIT licence rather than Apache-2.0 because it is shorter.\nEOF",
		"cat > docs/ops.md <<'EOF'\nIn production, prefer Postgres advisory locks over Redis locks, since\nRedis locks expire while a job still runs.\nEOF",
	} {
		noDecision(cmd, callItems(t, cmd))
	}
	for _, tc := range []struct{ text, not string }{
		{"the job is done in 1.5 so the queue drains", "1.5 s"},
		{"Ordered the XR-200B and M2-1TB for the lab.", "XR-200B"},
		{"Pushed ENG-4821-WIP for review.", "ENG-4821-WIP"},
		{"the maintenance window starts in 10:30 and the job at 11:45:00", "10:30"},
		{"the maintenance window starts in 10:30 and the job at 11:45:00", "11:45"},
	} {
		for _, it := range siteItems(t, 0, "out", tc.text) {
			if strings.Contains(it.Value, tc.not) {
				t.Errorf("%q: %s", tc.text, it)
			}
		}
	}
}

// TestNotesKeepTheirParagraph: sentences of the assistant's prose that no
// reader recognises are kept as one note per paragraph, as said, so that a
// choice in unknown words that spans two sentences is not cut in two; a
// new paragraph starts a new note.
func TestNotesKeepTheirParagraph(t *testing.T) {
	text := "Thumbnails get rendered at three sizes inside the upload handler from this change. A fourth size for retina screens would double what the bucket costs each month.\n\nThe worker pool itself looks healthy across all three regions today."
	items := siteItems(t, 0, "asst", text)
	want := "Thumbnails get rendered at three sizes inside the upload handler from this change. A fourth size for retina screens would double what the bucket costs each month."
	if !slices.ContainsFunc(items, func(it Item) bool { return strings.Contains(it.Value, want) }) {
		t.Errorf("no item holding %q in %q", want, Strings(items))
	}
	for _, it := range items {
		if strings.Contains(it.Value, "each month") && strings.Contains(it.Value, "worker pool") {
			t.Errorf("two paragraphs in one item: %q", it.Value)
		}
	}
}
