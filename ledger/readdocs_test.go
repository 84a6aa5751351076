package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	condense "github.com/condense-dev/condense"
)

// decisionsOf returns the decisions extracted from one call and its output.
func decisionsOf(t *testing.T, tool, input, out string) []string {
	t.Helper()
	return kindOf(KindDecision, tool, input, out)
}

// kindOf returns the values of kind k extracted from one call and its
// output.
func kindOf(k Kind, tool, input, out string) []string {
	call := condense.ToolCall("c1", tool, []byte(input))
	res := condense.ToolResult("c1", false, condense.Text(out))
	var got []string
	for _, it := range ExtractResult(&call, &res, 1) {
		if it.Kind == k {
			got = append(got, it.Value)
		}
	}
	return got
}

func TestReadDocDecisions(t *testing.T) {
	const d = "Keep the advisory lock rather than a Redis lock: Redis locks expire mid-run."
	notes := "# Ledger sync, 2026-04-09\n\nAttendees: Ana, Bo, Cy\n\n## Notes\n\n- Retry storms on the importer\n\n" +
		"## Decisions\n\n" + d + "\n\n## Action items\n\n- [ ] Ana: regression test for the importer\n"
	cases := []struct {
		name, tool, input, out string
		want                   []string
	}{
		{"meeting notes read with cat", "bash", `{"command":"cat docs/meetings/2026-04-09-sync.md"}`, notes, []string{d}},
		{"a decision record read with a file tool, numbered", "Read", `{"file_path":"/repo/docs/adr/0007-lock.md"}`,
			"     1→# 7. Lock\n     2→\n     3→## Status\n     4→\n     5→Accepted\n     6→\n     7→## Decision\n     8→\n     9→We use the advisory lock for the importer.\n",
			[]string{"We use the advisory lock for the importer."}},
		{"a guide's instruction is not the work's choice", "bash", `{"command":"cat docs/deploy.md"}`,
			"# Deploying\n\nUse Postgres rather than Redis for locks when you deploy this.\n", nil},
		{"a source file's comments are not read", "bash", `{"command":"cat internal/lock.go"}`,
			"package lock\n\n// Advisory lock rather than Redis: Redis locks expire mid-run.\nfunc Take() {}\n", nil},
		{"stash list", "bash", `{"command":"git stash list"}`,
			"stash@{0}: On fix/lease-expiry: " + d + "\nstash@{1}: WIP on main: 3eb0076 Tidy the importer\n", []string{d}},
		{"one-line log", "bash", `{"command":"git log --oneline -5"}`,
			"3eb0076 (HEAD -> main) " + d + "\n1a2b3c4 Bump deps\n", []string{d}},
		{"full log, not its patch", "bash", `{"command":"git show HEAD"}`,
			"commit 3eb0076d1a2b3c4d5e6f708192a3b4c5d6e7f801\nAuthor: Ana <a@x>\nDate:   Tue Apr 7 10:00:00 2026 +0000\n\n    " + d + "\n\n" +
				"diff --git a/x.go b/x.go\n--- a/x.go\n+++ b/x.go\n@@ -1,3 +1,3 @@\n     // We chose the cache rather than the queue because the queue drops.\n",
			[]string{d}},
		{"a pull request's comments", "bash", `{"command":"gh pr view 212 --comments"}`,
			"title:\tFix lease expiry\nstate:\tOPEN\nauthor:\tbo\n--\nThe importer loses its lease.\n\n" +
				"ana (Member) • 2d\n\n  " + d + "\n\n  ```\n  We chose the cache rather than the queue because the queue drops.\n  ```\n", []string{d}},
		{"a message body printed by a custom format", "bash", `{"command":"git log -2 --format='%h %s%n%n%b'"}`,
			"a91c3e7 build: replace webpack with vite for the admin app\n\nDev server cold start was 48s, now 3s.\n" +
				"Vite chosen over turbopack because turbopack isn't usable outside Next.js yet.\nAuthor: Ana\n",
			[]string{"Vite chosen over turbopack because turbopack isn't usable outside Next.js yet."}},
		{"a reviewer's directive in a thread", "bash", `{"command":"gh pr view 93 --comments"}`,
			"author:\tmaintainer\n--\nPlease output a single JSON array for the export.\n--\nLet's see how CI does first.\n",
			[]string{"Please output a single JSON array for the export."}},
		{"a pull request's diff is not prose", "bash", `{"command":"gh pr diff 212"}`,
			"+// " + d + "\n", nil},
		{"a design note's section where it landed", "Read", `{"file_path":"/repo/docs/design/archive.md"}`,
			"# Archive\n\n## Options considered\n\n1. Keep it.\n2. Rework it.\n\n## Where we landed\n\n" + d + "\n\n## Follow-ups\n\n- Load test.\n",
			[]string{d}},
		{"reviews fetched and printed as text", "bash", `{"command":"curl -s https://git.example.dev/api/v1/repos/acme/ledger/pulls/484/reviews | jq -r '.[] | .body'"}`,
			"Left a couple of nits.\n\n" + d + "\n", []string{d}},
		{"a wiki page fetched raw", "bash", `{"command":"curl -s 'https://wiki.example.dev/index.php?title=Ledger_decisions&action=raw'"}`,
			"= Ledger decision log =\n\n== 2026-04-25: leases ==\n'''Status:''' accepted\n\nWe are standardising the importer on the advisory lock; a Redis lock got vetoed because it expires mid-run.\n",
			[]string{"We are standardising the importer on the advisory lock; a Redis lock got vetoed because it expires mid-run."}},
		{"a commit message wrapped at 72 columns", "bash", `{"command":"git show --no-patch HEAD~2"}`,
			"commit e41d7a2f9b0c3d5e6f8a1b2c4d6e8f0a2b4c6d8e\nAuthor: Pia <p@x>\n\n    Async transport for order emails\n\n" +
				"    Order confirmation emails were sent synchronously inside the checkout\n    request.\n\n" +
				"    Doctrine transport vs. RabbitMQ (AMQP) was discussed in the MR. We use the\n" +
				"    Doctrine transport (messenger_messages table) for now since the hosting\n    has no RabbitMQ.\n",
			[]string{"Doctrine transport vs. RabbitMQ (AMQP) was discussed in the MR. We use the\n    Doctrine transport (messenger_messages table) for now since the hosting\n    has no RabbitMQ."}},
		{"a review comment wrapped by its author", "bash", `{"command":"gh pr view 412 --comments"}`,
			"mkowalski (Member) • Mar 5, 2024 • Commented\n\n" +
				"  rustls-native-certs reads /etc/pki/tls/certs fine on RHEL 7, I tried it in a container.\n" +
				"  Keeping two TLS stacks doubles the test matrix. We'll drop the native-tls feature\n" +
				"  entirely in 0.19 instead of keeping it behind a flag. I'll add a note to UPGRADING.md.\n",
			[]string{"We'll drop the native-tls feature\n  entirely in 0.19 instead of keeping it behind a flag. I'll add a note to UPGRADING.md."}},
		{"a forum thread's record read once, with its rejected option", "bash", `{"command":"curl -s 'https://forum.example.dev/t/6937.json?include_raw=true' | jq -r '.post_stream.posts[] | .raw'"}`,
			"What should we do about contract changes?\n\nI can take whichever option we pick.\n\n> **Decided:** an immutable TaxTable per period\n> **Not:** a mutable singleton, because mid-run updates change half the payslips\n",
			[]string{"> **Decided:** an immutable TaxTable per period\n> **Not:** a mutable singleton, because mid-run updates change half the payslips"}},
		{"a merge request thread's outcome after the discussion it names", "bash", `{"command":"glab mr view 231 --comments"}`,
			"title:\tReplace the SQL builder with jOOQ\n--\nkmueller commented 3 days ago\njOOQ codegen needs a live DB at build time. Are we ok running Testcontainers?\n\n" +
				"svetlana.k commented 2 days ago\nDiscussed in the backend guild: codegen runs against Testcontainers Postgres in the `generate-sources` phase, DDLDatabase is not used.\n",
			[]string{"Discussed in the backend guild: codegen runs against Testcontainers Postgres in the `generate-sources` phase, DDLDatabase is not used."}},
		{"a discussion's comments asked for by a GraphQL query", "bash", `{"command":"gh api graphql -f query='query{repository(owner:\"t\",name:\"z\"){discussion(number:58){comments(first:5){nodes{body}}}}}' --jq '.data.repository.discussion.comments.nodes[].body'"}`,
			"How many users are still on 0.11?\nWe only track the latest tagged Zig release from now on; main follows 0.12.\n",
			[]string{"We only track the latest tagged Zig release from now on; main follows 0.12."}},
		{"a decision marked in a comment a search found", "bash", `{"command":"git grep -n -E '# (TODO|DECISION)' -- 'billing/*.py'"}`,
			"billing/invoices.py:23:# TODO: localize the PDF footer\nbilling/proration.py:12:# DECISION (2024-03, with finance): prorate by calendar day, not by 30-day month\n",
			[]string{"# DECISION (2024-03, with finance): prorate by calendar day, not by 30-day month"}},
		{"a ticket's journal note that says what was decided", "bash", `{"command":"curl -s 'https://redmine.example/issues/5531.json?include=journals' | jq '.issue.journals[] | {user: .user.name, notes}'"}`,
			"{\n  \"user\": \"Karim\",\n  \"notes\": \"OK for me. Decided: we replace wkhtmltopdf with a Gotenberg 8 container in the stack. Jean, please check memory limits.\"\n}\n",
			[]string{"OK for me. Decided: we replace wkhtmltopdf with a Gotenberg 8 container in the stack. Jean, please check memory limits."}},
		{"a chat export a script printed", "bash", `{"command":"python3 tools/export_chat.py --channel infra --day 2026-03-02"}`,
			"[2026-03-02 10:02] Ilse Brandt\nThe nightly export failed again, same timeout as last week. I reran it by hand.\n\n" +
				"[2026-03-02 10:05] Tomasz Lis\nWe could split the export per tenant, or move it to the replica. Which do you prefer?\n\n" +
				"[2026-03-02 10:11] Ilse Brandt (lead)\nLet's split the export per tenant and keep it on the primary, the replica lags too much.\n",
			[]string{"Let's split the export per tenant and keep it on the primary, the replica lags too much."}},
		{"a source file's comments are no thread", "bash", `{"command":"cat internal/chat/export.go"}`,
			"package chat\n\n// [2026-03-02 10:02] Ilse: we keep the export on the primary.\n// [2026-03-02 10:05] Tomasz: I will split it per tenant, you review.\n" +
				"// Let's split the export per tenant and keep it on the primary, as we agreed.\nfunc Export() {}\n", nil},
		{"a mail thread a search prints", "bash", `{"command":"grep -v '^X-' ~/Mail/dev/cur/1711.eml"}`,
			"From: Ruth Ames <ruth@example.org>\nDate: Tue, 5 Mar 2026 09:14:02 +0100\nSubject: Re: keep the XSD files?\n\n" +
				"On Mon, 4 Mar 2026, Omar Haddad wrote:\n> We could split them into their own package.\n\n" +
				"Thanks, that answers my question about the build time.\n" +
				"So for the next upload I'll keep the XSD files in the data package and not split it.\n",
			[]string{"So for the next upload I'll keep the XSD files in the data package and not split it."}},
		{"a plain listing is not history", "bash", `{"command":"./list.sh"}`,
			"3eb0076 " + d + "\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := decisionsOf(t, c.tool, c.input, c.out)
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("%q not among the decisions %q", w, got)
				}
			}
			if len(c.want) == 0 && len(got) > 0 {
				t.Errorf("decisions %q, want none", got)
			}
			if len(c.want) > 0 && len(got) > len(c.want) {
				t.Errorf("decisions %q, want only %q", got, c.want)
			}
		})
	}
}

// An agent that acts in text gets its output back as a user message: the
// records it reads there are read as from a tool's output.
func TestReadDecisionsOfTextActions(t *testing.T) {
	const d = "Keep the advisory lock rather than a Redis lock: Redis locks expire mid-run."
	for _, c := range []struct{ action, observation string }{
		{"```\ngit stash list\n```", "stash@{0}: On fix/lease: " + d + "\nstash@{1}: WIP on main: 3eb0076 Tidy\n(Open file: /repo/x.go)\n(Current directory: /repo)\nbash-$"},
		{"```\nopen docs/adr/0007-lock.md\n```", "[File: /repo/docs/adr/0007-lock.md (5 lines total)]\n1:# 7. Lock\n2:\n3:## Decision\n4:\n5:" + d + "\n(Open file: /repo/docs/adr/0007-lock.md)"},
	} {
		msgs := []condense.Message{
			condense.UserText("Fix the lease expiry."),
			condense.AssistantText("Let me look.\n\n" + c.action),
			condense.UserText("OBSERVATION:\n" + c.observation),
		}
		var got []string
		for _, it := range Extract(msgs, 0) {
			if it.Kind == KindDecision {
				got = append(got, it.Value)
			}
		}
		if !slices.Contains(got, d) {
			t.Errorf("%s: %q not among the decisions %q", c.action, d, got)
		}
	}
}

func TestUnnumbered(t *testing.T) {
	for in, want := range map[string]string{
		"     1→# T\n     2→\n     3→body": "# T\n\nbody",
		"  1\ta\n  2\tb":                   "a\nb",
		"1: a\n2: b":                       " a\n b",
		"# T\n1→x":                         "# T\n1→x", // not every line numbered
		"[File: a.md (3 lines total)]\n1:# A\n2:\n3:b\n(0 more lines below)": "# A\n\nb",
		"4:## A\n5-\n6-text\n--\n9:b":                                        "## A\n\ntext\n\nb", // grep -n -C
		"2024-05-02 entry\n2024-06-01 entry":                                 "2024-05-02 entry\n2024-06-01 entry",
		"":                                                                   "",
	} {
		if got := unnumbered(in); got != want {
			t.Errorf("unnumbered(%q) = %q, want %q", in, got, want)
		}
	}
	if got := historyMessage("stash@{1}: WIP on main: 3eb0076 Tidy it"); got != "Tidy it" {
		t.Errorf("stash WIP message %q", got)
	}
	if got := historyMessage("* 3eb0076 (tag: v1.2) Tidy it"); got != "Tidy it" {
		t.Errorf("graph line message %q", got)
	}
	if got := historyMessage("Merge: 1a2b3c4 5d6e7f8"); got != "" {
		t.Errorf("header read as a message: %q", got)
	}
}

// A project's rules read by the agent are kept as constraints, each with
// its list item whole; a README's setup steps for its reader are not.
func TestDocRules(t *testing.T) {
	rulesOf := func(tool, input, out string) []string { return kindOf(KindConstraint, tool, input, out) }
	cases := []struct {
		name, tool, input, out string
		want                   []string
	}{
		{"an agent's instructions, read whole", "bash", `{"command":"cat AGENTS.md"}`,
			"## Rust workspace notes\n\n- Rust MSRV is 1.70. Do not use features stabilized after 1.70.\n" +
				"- `cargo clippy --all-targets -- -D warnings` must be clean.\n- Raise `AcmeError` subclasses, not bare `Exception`.\n" +
				"- Prefer small commits.\n- The workspace has three crates.\n",
			[]string{"Rust MSRV is 1.70. Do not use features stabilized after 1.70.",
				"`cargo clippy --all-targets -- -D warnings` must be clean.",
				"Raise `AcmeError` subclasses, not bare `Exception`."}},
		{"a rules file with no extension", "bash", `{"command":"cat .cursorrules"}`,
			"You are an expert in TypeScript.\n\nCode style\n- Use functional components only; no class components.\n- Prefer named exports.\n",
			[]string{"Use functional components only; no class components."}},
		{"a contributing guide's requirement, read with a file tool", "Read", `{"file_path":"/repo/docs/CONTRIBUTING.md"}`,
			"     1→## Documentation\n     2→\n     3→Public functions require docstrings in Google style.\n     4→Private helpers may omit them.\n",
			[]string{"Public functions require docstrings in Google style. Private helpers may omit them."}},
		{"a README's rule found with grep and its context", "bash", `{"command":"grep -n -A3 '## Compatibility' README.md"}`,
			"112:## Compatibility\n113-\n114-The wire format is frozen: messages serialized by 2.x must be readable by 1.9 clients.\n115-\n",
			[]string{"The wire format is frozen: messages serialized by 2.x must be readable by 1.9 clients."}},
		{"a README's setup step is not a rule", "bash", `{"command":"cat README.md"}`,
			"# Tool\n\nYou must install Node 18 first.\n\n```sh\nnever run this in prod\n```\n", nil},
		{"a source file is not a document", "bash", `{"command":"cat src/lock.rs"}`,
			"// Callers must hold the lock.\nfn take() {}\n", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := rulesOf(c.tool, c.input, c.out); !slices.Equal(got, c.want) {
				t.Errorf("got %q\nwant %q", got, c.want)
			}
		})
	}
	var long strings.Builder
	for i := range 40 {
		fmt.Fprintf(&long, "- Rule %d: never edit generated file number %d by hand.\n", i, i)
	}
	if got := rulesOf("bash", `{"command":"cat CLAUDE.md"}`, long.String()); len(got) != maxDocRules {
		t.Errorf("a long rules file gave %d rules, want the cap %d", len(got), maxDocRules)
	}
}

// A few more ways of setting an option aside or naming a verdict, in a
// text the agent reads or writes; and narration that uses the same words.
func TestMoreChoiceWords(t *testing.T) {
	dec := func(text string) bool {
		s := newScanner(&defaultExtractor, 1, false)
		s.authoredDecisions(text)
		return slices.ContainsFunc(s.items, func(it Item) bool { return it.Kind == KindDecision })
	}
	for _, text := range []string{
		"The retry queue gets the nod for webhooks; polling doesn't, as it misses bursts.",
		"Ended up with pgbouncer in session mode after trying transaction mode first; prepared statements broke.",
		"Webhooks use a retry queue; a cron sweep would have been tempting, but it runs late by minutes.",
		"Preference for the export: Parquet files, since CSV loses the column types.",
		"Exports will be written as Parquet, and CSV stays on the shelf: it loses the column types.",
		"The importer runs on COPY; row-by-row INSERT breaks down because it takes forty minutes.",
		"Invoices keep integer cents; floats are not coming back, given the rounding bugs of March.",
		"Standing instruction while this refactor is open: handlers take a context and only a context as their first argument.",
		"Keyset pagination wins for the export; OFFSET was the runner-up until it turned out that OFFSET rescans every page.",
		"Agreed in review: one consumer group per region; a global group stays out because rebalances stall every region.",
		"Sessions live in Redis, full stop; sticky sessions would bite us since the balancer cannot pin websockets.",
		"Exports get Parquet files. No CSV: CSV loses the column types.",
		"We agreed to stay on Node 20 until 22 has been LTS for 6 months.",
		"Let's just go with Option B — the separate `events_archive` table — and not partition the main table.",
		"Vite chosen over turbopack because turbopack isn't usable outside Next.js yet.",
		"**Decision (2024-02-20):** field-level LWW with a conflict log.",
	} {
		if !dec(text) {
			t.Errorf("%q: not a decision", text)
		}
	}
	for _, text := range []string{
		"The nightly job ended up with three retries before the lease expired.",
		"The outcome of the test run is in the log below.",
		"Preferences are stored in the user's profile.",
		"The old dashboard stays on the shelf in the office.",
		"No idea what broke: the logs are empty today.",
	} {
		if dec(text) {
			t.Errorf("%q: read as a decision", text)
		}
	}
}

func TestConversationShape(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       bool
	}{
		{"chat export", "[09:14] Ana Ruiz: the export failed again, I reran it by hand this morning\n" +
			"[09:20] Bo Chen: we should split it per tenant, it is too big for one call\n" +
			"[09:21] Ana Ruiz: fine by me, let's do that and keep the replica out of it\n", true},
		{"mail thread", "From: Ruth <r@example.org>\nDate: Tue, 5 Mar 2026 09:14:02 +0100\n\n" +
			"On Mon, 4 Mar 2026, Omar wrote:\n> Could we split the package?\n\nI think the split is more churn than it is worth.\n" +
			"We would need a new binary package and every dependant checked again.\nYou can prepare the merge request if you like.\n", true},
		{"ticket comments", "alice commented 3 days ago\nI tried the native runner, it takes eight minutes as well.\n\n" +
			"bob commented 2 days ago\nThat is better than both attempts, we should keep it.\nI will update the workflow tomorrow then.\n", true},
		{"log records with levels", "2026-03-02 10:02:11 INFO we are starting the worker pool with four workers\n" +
			"2026-03-02 10:02:12 WARN you have no queue configured, we use the default one\n" +
			"2026-03-02 10:02:15 INFO we use the replica for reads instead of the primary\n", false},
		{"JSON", `[{"created_at": "2026-03-02T10:02", "body": "we keep the replica, I think you agree"},` + "\n" +
			`{"created_at": "2026-03-02T10:05", "body": "we do, let's not split it up any further now"}]` + "\n", false},
		{"posts far down a long log", strings.Repeat("compiling the next module of the build\n", 80) +
			"[09:14] Ana Ruiz: the export failed again, I reran it by hand this morning\n" +
			"[09:20] Bo Chen: we should split it per tenant, it is too big for one call\n" +
			"[09:21] Ana Ruiz: fine by me, let's do that and keep the replica out of it\n", false},
		{"chat export with full stamps", "[2026-03-02 09:14:22] ana.r: the export job failed again since Friday\n" +
			"[2026-03-02 09:15:03] bo.c: can we split it per tenant?\n" +
			"[2026-03-02 09:16:40] ana.r: we could, or cap the batch at 500\n" +
			"[2026-03-02 09:17:12] bo.c: ok going with the split, I'll do it tonight\n", true},
		{"a program's output with times", "10:02:11 compiling 214 files\n10:02:19 linking the binary for linux/amd64\n" +
			"10:02:21 wrote dist/app (14.2 MB)\n", false},
	} {
		if got := conversationShape(c.text); got != c.want {
			t.Errorf("%s: conversationShape = %v, want %v", c.name, got, c.want)
		}
	}
}
