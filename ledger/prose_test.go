package ledger

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// proseKinds returns the prose items (decisions, plans, constraints) of one
// message.
func proseKinds(m condense.Message) []string {
	var out []string
	for _, it := range ExtractMessage(&m, 1) {
		switch it.Kind {
		case KindDecision, KindPlan, KindConstraint:
			out = append(out, it.String())
		}
	}
	return out
}

// TestDecisionsAndPlans: an assistant's sentence that settles a course is
// a decision; one that only says what comes next is a plan; one that does
// neither is nothing. The phrasings are those of several agents: Claude
// Code, Codex, SWE-agent's DISCUSSION, mini-swe-agent's THOUGHT, OpenHands.
func TestDecisionsAndPlans(t *testing.T) {
	decisions := []string{
		"I'll go with a bounded worker pool rather than one goroutine per job.",
		"We will use optimistic locking instead of SELECT FOR UPDATE.",
		"Decision: keep the v1 endpoint until the clients move.",
		"Going forward, all handlers return typed errors.",
		"From now on I run the linter before every commit.",
		"Chose a bounded worker pool over unbounded goroutines because memory spiked at 10k jobs.",
		"I picked thiserror over anyhow in the library: callers need to match on error kinds.",
		"Settled on Intl.NumberFormat for prices; toFixed(2) is out because it breaks for JPY.",
		"Going with localStorage over cookies here; the cart outgrows the cookie size.",
		"For the retry queue, exponential backoff beats a fixed delay because fixed retries synchronize the workers.",
		"Postgres advisory locks it is for the scheduler, since the table lock serializes every claim.",
		"SQLite it is.",
		"The plan for the importer is a streaming parser, not loading the whole file.",
		"We'll stick with the stdlib HTTP client.",
		"The fix is to clamp the TTL before comparing.",
		"The root cause is the shared map in the cache; fix it by guarding it with a mutex.",
		"I decided to use Decimal with ROUND_HALF_EVEN because floats lose cents.",
		"Let's use a partial unique index and drop the idea of validating in the serializer.",
		"I'm going with React Query; a useEffect with fetch is tempting but it refetches on every render.",
		"Opting for a feature flag over a long-lived branch.",
		"THOUGHT: I'll use a dataclass instead of the dict.",
		"I'll compare with `!now.Before(expires)` instead.",
		"Let's go with a 30-day window constant.",
		"We'll use errgroup so the first error cancels the rest.",
		"The approach will be to split the migration into two deploys.",
		"We'll standardize on zerolog for the service logs.",
		"The call is to ship the migration behind a flag.",
		"I'd rather pin the toolchain than track the latest release.",
		"We're adopting table-driven tests for the parser.",
		"**Decision**: optimistic locking over SELECT FOR UPDATE.",
		"I think optimistic locking is the better fit than SELECT FOR UPDATE here, so that's what I'll implement.",
		"After weighing both, optimistic locking wins over SELECT FOR UPDATE.",
		"The cleaner path is optimistic locking rather than SELECT FOR UPDATE.",
		"Optimistic locking it is (SELECT FOR UPDATE deadlocks under load).",
		"I'm leaning towards optimistic locking instead of SELECT FOR UPDATE.",
		// A course worded as a plan, with its reason.
		"After comparing both options I'm going to keep the in-memory cache and invalidate it on every write, since the TTL approach left stale reads in the tests.",
		"I'll store amounts as integer cents because floats lose a cent on refunds.",
		"We'll batch the inserts per tenant so that one slow tenant cannot hold the others' rows.",
	}
	plans := []string{
		"Next I will look at the X handling.",
		"Let me check how TenantSettings handles this next.",
		"I will now run the tests.",
		"Let me read internal/queue/queue.go first.",
		"Now let's run the script to see if the bug is fixed.",
		"DISCUSSION\nLet's start by finding the missing_colon.py file within the current repository.",
		"THOUGHT: I need to look at the source code to understand the parser.",
		"I'm going to look at the failing test.",
		"First, check whether the config is loaded.",
		"Let's see what the test prints.",
		"I'll come back to LedgerEntry later.",
		"Next up is the tax rate code.",
		"Let's use find_file to see where it is.",
		"Let's use the edit command to fix the indentation.",
		"I'll help you solve this issue.",
		"We need to look at the serializer next.",
		"Then I'll look at the callers of parseUnary.",
		"Let me find the root cause of the flaky test.",
		"I'll rerun the tests because the cache was stale.",
		"Let me check the parser since it failed last time.",
		"Now I'll look at the callers, because the signature changed.",
	}
	// A change of course worded as a plan, with substance but no reason,
	// is a note: ranked like any specific, not dropped with older plans.
	courses := []string{
		"I'll batch the writes per tenant and flush them every 200 rows in the importer.",
		"I'm going to split the migration into two deploys with a backfill job in between.",
		"I will wrap the parser errors in a typed error that carries the line and column.",
	}
	for _, s := range courses {
		m := condense.AssistantText(s)
		var got []string
		for _, it := range ExtractMessage(&m, 1) {
			switch it.Kind {
			case KindDecision, KindPlan, KindNote:
				got = append(got, it.String())
			}
		}
		if len(got) != 1 || !strings.HasPrefix(got[0], "note ") {
			t.Errorf("%q: got %q, want a note", s, got)
		}
	}
	neither := []string{
		"The tests pass now.",
		"`--3` fails because the operand of '-' is parsed with parsePower instead of parseUnary.",
		"Round divides by 100 and multiplies back instead of leaving integer cents alone.",
		"The worker picked up the job twice.",
		"I don't know what it is.",
		"Here it is.",
		"The culprit is in `store/lease.go`.",
		"Reading store/lease.go",
		"The loop runs over every shard, not just the first.",
	}
	for _, s := range decisions {
		got := proseKinds(condense.AssistantText(s))
		if len(got) != 1 || !strings.HasPrefix(got[0], "decision ") {
			t.Errorf("%q: got %q, want a decision", s, got)
		}
	}
	for _, s := range plans {
		got := proseKinds(condense.AssistantText(s))
		if len(got) != 1 || !strings.HasPrefix(got[0], "plan ") {
			t.Errorf("%q: got %q, want a plan", s, got)
		}
	}
	for _, s := range neither {
		if got := proseKinds(condense.AssistantText(s)); len(got) != 0 {
			t.Errorf("%q: got %q, want nothing", s, got)
		}
	}
}

// TestConstraints: a user's sentence that sets a rule on the work is a
// constraint; "only", "always", "never" in ordinary sentences are not.
func TestConstraints(t *testing.T) {
	rules := []string{
		"Don't change the public API of package queue.",
		"Do not run anything against the production database.",
		"Never commit directly to main.",
		"Always run `pytest -x tests/billing` before you tell me it's done.",
		"You must keep the CartLine type unchanged.",
		"The fix must keep Python 3.9 support!",
		"Make sure nothing in src/lib/cart/hydrate.ts changes.",
		"Only change code inside src/lib/cart/.",
		"Use only the standard library.",
		"Fix the parser without changing the AST types.",
		"src/pages/api/ is generated, so don't edit it by hand.",
		"Keep it compatible with Rust 1.74.",
		"Leave store/requeue_lease.go exactly as it is.",
		"No new dependencies, please; serde_json included.",
		"Avoid adding requests-toolbelt; we are trying to get rid of it.",
		"Deploy target is eu-west-1; never touch prod.",
		"Please also make sure `go vet ./...` is clean.",
		"You should not edit the migrations.",
		"The vendor/ directory is off-limits.",
		"Hands off the generated protobuf code.",
		"The schema is frozen until Friday.",
		"We can't break the v1 clients.",
		"Nothing should write to the prod bucket.",
		"Be careful not to reformat unrelated files.",
		"All timestamps have to stay in UTC.",
		"Only the worker package may change.",
		"Prod is read-only for you.",
		// Written later, without looking at any corpus.
		"It's important that the CSV export format stays byte-identical.",
		"Target Python 3.9 — that's what production runs.",
		"All new code needs type hints.",
		"Ask me before deleting anything.",
		"Stay away from the migrations folder; the DBA owns it.",
		"Under no circumstances touch the prod database.",
		"Refrain from editing generated files (anything in gen/).",
		// Deadlines, platforms to support, a requirement, "pls".
		"heads up: this has to go out by Thursday 5pm CET, the customer demo is Friday morning.",
		"we have to support Safari 15 (a big customer is stuck on old iPads).",
		"All new code must have unit tests with at least 80% line coverage.",
		"pls don't run any migrations against the shared staging db, it's used by QA right now.",
	}
	notRules := []string{
		"All new tests pass now.",
		"Every request needed a retry yesterday.",
		"It's important to know the cache was cold.",
		"It only fails on CI.",
		"Production shows jobs claimed but never finished.",
		"The test always passes locally.",
		"I don't know why it fails.",
		"Only the first request times out.",
		"That must have been the cache.",
		"Someone must have changed the fixture last week.",
		"Also keep the old behaviour behind a flag?",
		"Thanks, that works.",
		"The timeout is always 30 seconds in prod.",
		"The bug might be in queue/expire_ledger.go.",
		"Only the first retry may fail.",
	}
	for _, s := range rules {
		got := proseKinds(condense.UserText(s))
		if len(got) != 1 || !strings.HasPrefix(got[0], "constraint ") {
			t.Errorf("%q: got %q, want a constraint", s, got)
		}
	}
	for _, s := range notRules {
		if got := proseKinds(condense.UserText(s)); len(got) != 0 {
			t.Errorf("%q: got %q, want nothing", s, got)
		}
	}
}

// TestRunOnSentences: a rule or decision typed straight after pasted
// output, with no full stop between, is kept from its own first word.
func TestRunOnSentences(t *testing.T) {
	cases := []struct {
		m    condense.Message
		want string
	}{
		{condense.UserText("Production logs show: FetchError: request to http://web:4229/shipping failed, reason: socket hang up Never commit directly to main."),
			`constraint "Never commit directly to main."`},
		{condense.UserText("The error we see is KeyError: 'payment_80438' Avoid adding requests-toolbelt; we are trying to get rid of it."),
			`constraint "Avoid adding requests-toolbelt; we are trying to get rid of it."`},
		{condense.AssistantText("THOUGHT: nope, 1 still red (span::tests::intern) all good, 255 green Decision: miette for diagnostics, not hand-rolled printing."),
			`decision "Decision: miette for diagnostics, not hand-rolled printing."`},
		// A name in the middle of a decision does not cut it.
		{condense.AssistantText("I'll go with React Query rather than a useEffect."),
			`decision "I'll go with React Query rather than a useEffect."`},
		// "assert_eq! on" and "e.g. the" do not end a sentence.
		{condense.AssistantText("I'm going with insta snapshots; assert_eq! on strings is tempting but unreadable."),
			`decision "I'm going with insta snapshots; assert_eq! on strings is tempting but unreadable."`},
		// A run-on sentence too long for one item keeps its decision
		// whole and leaves the next step out, instead of being cut off
		// in the middle of the decision.
		{condense.AssistantText("Looked at the pool settings again and compared the two drivers side by side on the staging box; going with pgx over lib/pq for the connection pool because lib/pq has no context cancellation on queries - next I will wire the pool into the server and run the suite."),
			`decision "Looked at the pool settings again and compared the two drivers side by side on the staging box; going with pgx over lib/pq for the connection pool because lib/pq has no context cancellation on queries"`},
		{condense.UserText("The staging cluster is shared with the payments team and their nightly jobs run between two and four in the morning, so whatever you deploy there, never restart the ledger-writer pods during that window, they hold the settlement locks; then tell me how it went."),
			`constraint "never restart the ledger-writer pods during that window, they hold the settlement locks; then tell me how it went."`},
		// A rule typed on the line of a pasted block's closing fence.
		{condense.UserText("Pasted from #alerts:\n```\nfailed to encode args[2]: cannot find encode plan\n``` Go with a read-through cache in the quota cache, please, not invalidating on every write."),
			`decision "Go with a read-through cache in the quota cache, please, not invalidating on every write."`},
		{condense.AssistantText("The flamegraph shows the encoder dominating the profile of the import job on the big tenant, and after trying both I prefer a pooled buffer to per-call allocation for the encoder, it halves the garbage; then I will rerun the benchmark and look at the p99 numbers."),
			`decision "after trying both I prefer a pooled buffer to per-call allocation for the encoder, it halves the garbage"`},
	}
	for _, tc := range cases {
		if got := proseKinds(tc.m); !slices.Equal(got, []string{tc.want}) {
			t.Errorf("%q:\n got  %q\n want %q", tc.m.TextContent(), got, tc.want)
		}
	}
}

// TestRelayedOutputIsNotProse: tool output that an agent relays as a user
// message (mini-swe-agent, SWE-agent in text mode) gives no constraints,
// and code and listings in a message are not prose; the task keeps its
// rules even when the agent appended its status footer to it.
func TestRelayedOutputIsNotProse(t *testing.T) {
	quiet := []string{
		"<returncode>0</returncode>\n<output>\n17 // a span is never evaled twice.\n    // must not be empty\n</output>",
		"[File: /repo/src/fields.py (1997 lines total)]\n1463: msg = 'The precision must be {} or \"{}\".'.format(\n1464: Always serializes to an integer.",
		"Traceback (most recent call last):\nValueError: must be positive\n(Open file: /repo/reproduce.py)\n(Current directory: /repo)\nbash-$",
		"Here is the diff:\n```\n- never do this\n+ always do that\n```",
		"    if x { never(); }\n// Only the owner may call this.",
	}
	for _, s := range quiet {
		if got := proseKinds(condense.UserText(s)); len(got) != 0 {
			t.Errorf("%q: got %q, want nothing", s, got)
		}
	}
	task := condense.UserText("ISSUE:\nThe dispatcher double-books. src/api/ is generated, so don't edit it by hand.\n\n(Open file: n/a)\n(Current directory: /repo)\nbash-$")
	obs := condense.UserText("Output: must be positive\n(Open file: n/a)\n(Current directory: /repo)\nbash-$")
	var got []string
	for _, it := range Extract([]condense.Message{task, condense.AssistantText("Looking."), obs}, 0) {
		if it.Kind == KindConstraint {
			got = append(got, it.String())
		}
	}
	if want := []string{`constraint "The dispatcher double-books. src/api/ is generated, so don't edit it by hand."`}; !slices.Equal(got, want) && !slices.Equal(got, []string{`constraint "src/api/ is generated, so don't edit it by hand."`}) {
		t.Errorf("task with a footer: got %q", got)
	}
}

// TestPlanPriority: plans rank below every other kind, and Kinds lists
// them.
func TestPlanPriority(t *testing.T) {
	for _, k := range Kinds {
		if k != KindPlan && Priority(k) <= Priority(KindPlan) {
			t.Errorf("%s ranks at or below plan", k)
		}
	}
	if Kinds[len(Kinds)-1] != KindPlan {
		t.Errorf("Kinds does not end with plan: %v", Kinds)
	}
}

// TestSpanKeepsLatestPlans: a span keeps only its latest plans; its
// decisions all stay.
func TestSpanKeepsLatestPlans(t *testing.T) {
	msgs := []condense.Message{condense.UserText("Fix the scheduler.")}
	for _, s := range []string{"Let me read the queue package.", "We will use a mutex instead of a channel.",
		"Let me read the worker package.", "Let me read the lease package.", "Next I will run the tests.",
		"Let me read the clock package."} {
		msgs = append(msgs, condense.AssistantText(s))
	}
	var got []string
	for _, it := range Extract(msgs, 0) {
		if it.Kind == KindPlan || it.Kind == KindDecision {
			got = append(got, it.String())
		}
	}
	want := []string{`decision "We will use a mutex instead of a channel."`, `plan "Let me read the lease package."`,
		`plan "Next I will run the tests."`, `plan "Let me read the clock package."`}
	if !slices.Equal(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestNotes: an assistant's sentence the decision and plan readers do not
// know becomes a note, verbatim, whatever its wording; pleasantries,
// questions and lead-ins to a list do not.
func TestNotes(t *testing.T) {
	m := condense.AssistantText("Done. The rounding happens in LineItem.total before the currency conversion, so totals drift by a cent. " +
		"Should I also fix the CSV export? Here is what changed: " +
		"Quarantining the flaky shard beats retrying it, given the 40-minute queue.")
	var notes []string
	for _, it := range ExtractMessage(&m, 1) {
		if it.Kind == KindNote {
			notes = append(notes, it.Value)
		}
	}
	want := []string{
		"The rounding happens in LineItem.total before the currency conversion, so totals drift by a cent.",
	}
	for _, w := range want {
		if !slices.Contains(notes, w) {
			t.Errorf("note %q missing from %q", w, notes)
		}
	}
	for _, n := range notes {
		if n == "Done." || strings.HasSuffix(n, "?") || strings.HasSuffix(n, ":") {
			t.Errorf("%q is no note", n)
		}
	}
	// The last sentence is a note or a decision (with the lead-in the
	// colon joins it to); either way it is kept.
	var all []string
	for _, it := range ExtractMessage(&m, 1) {
		all = append(all, it.Value)
	}
	if !slices.ContainsFunc(all, func(v string) bool {
		return strings.Contains(v, "Quarantining the flaky shard beats retrying it, given the 40-minute queue.")
	}) {
		t.Errorf("the choice is lost: %q", all)
	}
}

// TestKeptItemsReadBack: a placeholder's or drop marker's kept list reads
// back as the items it rendered, quoted values of both kinds included, and
// extraction takes a marker's items instead of its own words.
func TestKeptItemsReadBack(t *testing.T) {
	exit := 1
	items := []Item{
		{Kind: KindCommand, Value: "go test ./...", Exit: &exit},
		{Kind: KindError, Value: `pq: duplicate key value violates unique constraint "orders_pkey"`},
		{Kind: KindFile, Value: "internal/x.go", Access: Written},
		{Kind: KindConstraint, Value: "Don't touch the public API; keep [v1] compatible."},
		{Kind: KindNote, Value: "a`b \"c\" d"},
	}
	marker := "[condense: 3 messages dropped (1,024 tokens) · recall covers 4-9 · kept: " + strings.Join(Strings(items), "; ") + "]"
	got := KeptItems(marker)
	if len(got) != len(items) {
		t.Fatalf("KeptItems = %v, want %v", Strings(got), Strings(items))
	}
	for i := range items {
		if got[i].String() != items[i].String() {
			t.Errorf("item %d = %s, want %s", i, got[i], items[i])
		}
	}
	if KeptItems("[condense: 3 messages dropped (1,024 tokens) · recall covers 4-9]") != nil || KeptItems("kept: file x.go") != nil {
		t.Error("a marker keeping nothing, or plain text, gave items")
	}
	m := condense.UserText(marker)
	ex := ExtractMessage(&m, 7)
	if len(ex) != len(items) {
		t.Fatalf("extraction of a marker = %v, want its kept items", Strings(ex))
	}
	for _, it := range ex {
		if it.Source != 7 {
			t.Errorf("%s: source %d, want 7", it, it.Source)
		}
	}
}

// TestLongDecisionKeptWhole: a decision of one long clause is kept whole up
// to twice the value cap, its reason at the end included, and cut past
// that; a run-on sentence still keeps only the clauses around its choice
// (TestRunOnSentences).
func TestLongDecisionKeptWhole(t *testing.T) {
	long := "I'll switch the queue to FIFO ordering rather than priority ordering because the billing jobs must run in the order the invoices were created and priority starvation already hit us twice this month in production."
	if len(long) <= DefaultMaxValueLen {
		t.Fatalf("the sentence (%d bytes) must be over the cap", len(long))
	}
	m := condense.AssistantText(long)
	got := Strings(ExtractMessage(&m, 1))
	if want := "decision " + quoteValue(long); !slices.Contains(got, want) {
		t.Errorf("got %q, want %s", got, want)
	}
	longer := "We will keep the ledger writer on a single goroutine instead of a pool because " + strings.Repeat("the settlement order must hold for every tenant ", 9) + "here."
	m = condense.AssistantText(longer)
	found := false
	for _, it := range ExtractMessage(&m, 1) {
		if it.Kind == KindDecision {
			found = true
			if len(it.Value) > 2*DefaultMaxValueLen || !strings.HasSuffix(it.Value, "…") {
				t.Errorf("a %d-byte decision kept as %d bytes: %q", len(longer), len(it.Value), it.Value)
			}
		}
	}
	if !found {
		t.Errorf("no decision in %q", longer)
	}
	// A decision's reason after a semicolon may take the sentence past the
	// usual cap; a label before it stays with it.
	for _, text := range []string{
		"I'm going to regenerate `poetry.lock` from scratch rather than trying to resolve the merge conflict by hand; the conflict spans 300+ lines of hashes and a hand-merge would almost certainly leave it inconsistent.",
		"Note: I chose to make `timeout` a keyword-only argument with a default of `30.0` rather than positional.",
	} {
		m = condense.AssistantText(text)
		if got := Strings(ExtractMessage(&m, 1)); !slices.Contains(got, "decision "+quoteValue(text)) {
			t.Errorf("got %q, want the whole %q", got, text)
		}
	}
}

// TestDecisionsInMarkdown: a decision is read wherever Markdown puts it: a
// heading, a nested list item, a '+' item, a sentence cut at a semicolon;
// code outside a fence is still not read as prose.
func TestDecisionsInMarkdown(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"## Decision: go with the outbox table over two-phase commit, it needs no coordinator.\nMore below.",
			"Decision: go with the outbox table over two-phase commit, it needs no coordinator."},
		{"Plan:\n- Fix the parser\n    - I'll keep the retries in the client rather than in the gateway, since only the client knows the idempotency key.\n- Run tests",
			"I'll keep the retries in the client rather than in the gateway, since only the client knows the idempotency key."},
		{"+ We'll use a partial index instead of a unique constraint; soft-deleted rows must not block re-creation.",
			"We'll use a partial index instead of a unique constraint; soft-deleted rows must not block re-creation."},
		{"I'll use `errgroup` rather than a WaitGroup here so the first error cancels the rest;",
			"I'll use `errgroup` rather than a WaitGroup here so the first error cancels the rest;"},
	} {
		m := condense.AssistantText(tc.text)
		items := ExtractMessage(&m, 1)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, tc.want) }) {
			t.Errorf("%q: no decision %q in %q", tc.text, tc.want, Strings(items))
		}
	}
	for _, rule := range []string{
		"# Don't run this as root, it must run as the deploy user",
		"      - name: Only run on main branch pushes",
	} {
		m := condense.UserText("```\n" + rule + "\n```\n" + rule)
		for _, it := range ExtractMessage(&m, 2) {
			if it.Kind == KindConstraint {
				t.Errorf("%q read as a rule: %s", rule, it)
			}
		}
	}
	for _, code := range []string{
		"    return retry(ctx, client) // instead of the gateway's retry",
		"x = keep_old(rather_than_new);",
		"# use the v2 client instead of v1 = faster",
		"    # We use a lock here instead of a channel because the pool is shared",
		"import { retry } from './retry' instead of the old helper module;",
	} {
		m := condense.AssistantText(code)
		for _, it := range ExtractMessage(&m, 1) {
			if it.Kind == KindDecision || it.Kind == KindNote {
				t.Errorf("%q read as prose: %s", code, it)
			}
		}
	}
}

// TestHugeValueCap: a cap too large to double is kept as it is.
func TestHugeValueCap(t *testing.T) {
	e := Extractor{MaxValueLen: math.MaxInt}
	s := "We'll go with Redis streams over Kafka here, because the volume doesn't justify a cluster."
	m := condense.AssistantText(s)
	if got := Strings(e.ExtractMessage(&m, 1)); !slices.Contains(got, "decision "+quoteValue(s)) {
		t.Errorf("got %q", got)
	}
}

// TestDecisionJoinedByI: a decision whose "I" follows a comma or a
// conjunction is its whole sentence ("X is cleaner, so I'm going with
// it"); after a run-on result without punctuation it starts at the "I".
func TestDecisionJoinedByI(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"The cleaner option is a feature flag, so I'm going with that instead of a config file.",
			`decision "The cleaner option is a feature flag, so I'm going with that instead of a config file."`},
		{"The tests are slow, so I'll switch to table-driven subtests over separate functions.",
			`decision "The tests are slow, so I'll switch to table-driven subtests over separate functions."`},
		{"nice, 283 passing I'm going with errgroup over a bare sync.WaitGroup; the first error has to cancel the rest.",
			`decision "I'm going with errgroup over a bare sync.WaitGroup; the first error has to cancel the rest."`},
	} {
		got := Strings(ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(tc.text)}}, 3))
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s missing from %q", tc.want, got)
		}
	}
}

// TestChoiceShapesNotSteps: a gerund's option over another and a choice to
// leave something as it is are decisions; a channel after "over" and a
// step are not.
func TestChoiceShapesNotSteps(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Using Zod for validation over hand-written guards.", true},
		{"Sticking with cron over a queue here; the jobs are daily.", true},
		{"I'll keep the float column for now.", true},
		{"We'll leave the v1 route as is until the mobile app ships.", true},
		{"Using curl over ssh to check the health endpoint.", false},
		{"Using the debugger over SSH.", false},
		{"I'll keep reading the handler to find the bug.", false},
	} {
		items := ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(tc.text)}}, 3)
		got := slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision })
		if got != tc.want {
			t.Errorf("%q: decision = %v, want %v (%q)", tc.text, got, tc.want, Strings(items))
		}
	}
}

// TestChoiceAndTheOptionSetAside: a course followed by a sentence that
// names the option not taken is one decision, kept whole; a plan followed
// by a question about alternatives is not.
func TestChoiceAndTheOptionSetAside(t *testing.T) {
	for _, text := range []string{
		"I'll move the importer to COPY FROM STDIN. The alternative was batching INSERTs, but that still takes 40 minutes.",
		"Switching the cache to an LRU with a hard cap. At first a plain map looks tempting, but it grows without bound.",
		"We'll keep sessions in Redis. I considered sticky sessions, but the load balancer cannot pin websockets.",
		"Decided: the job runner moves to a single leader. Running it on every node isn't an option since jobs would run twice.",
		"I'm going to use chi for routing. gorilla/mux would also work, except that it is archived.",
		"Retry policy: exponential backoff with jitter. Not a fixed delay — every client would retry in lockstep.",
		"Picking zstd for the archive format. Why not gzip? Because zstd decompresses four times faster here.",
		"Two options for the lock: advisory locks or a lease row. Taking the lease row, since advisory locks die with the connection.",
		"Approach: a materialized view refreshed hourly. Alternative considered: a trigger per insert. Turned down because inserts would double in cost. Scope: the reports API.",
		"Rule for the rest of this refactor: no new globals, only injected dependencies. Reason: the tests cannot reset globals.",
		"Verdict on the cache layer: ristretto. Reason the hand-rolled LRU is out: it allocates on every hit.",
	} {
		items := ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}}, 3)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && it.Value == text }) {
			t.Errorf("%q: not one decision in %q", text, Strings(items))
		}
	}
	for _, text := range []string{
		"Next I'll read the importer. Is COPY or batching better here?",
		"I'll check the cache next. I also looked at the session code.",
		"Picking a port is left to the OS. Not sure why the test binds 8080.",
		"Taking a look at the handler now.",
		"Thanks for the options. Not all of them apply here.",
	} {
		for _, it := range ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}}, 3) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", text, it.Value)
			}
		}
	}
}

// TestDecisionBlocks: a decision written over a few lines, the option it
// sets aside or its reason on the next line under a label, is one
// decision kept as written; a blank line, or a next line that says
// something else, ends it, and emphasis around a label stays.
func TestDecisionBlocks(t *testing.T) {
	values := func(text string) []string {
		var out []string
		for _, it := range ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}}, 1) {
			if it.Kind == KindDecision {
				out = append(out, it.Value)
			}
		}
		return out
	}
	for _, tc := range []struct{ text, want string }{
		{"We need to pick one.\n\n**Decision:** atomic counters flushed every second for the quota cache.\n**Rejected:** a mutex around the usage map (the mutex shows up in every profile).\n\nNow the tests.",
			"**Decision:** atomic counters flushed every second for the quota cache.\n**Rejected:** a mutex around the usage map (the mutex shows up in every profile)."},
		{"Settled it:\n- chosen: a token bucket per tenant (the billing export)\n- turned down: a sliding-window log, because the log costs memory per request",
			// the block as printed, with the line that introduces it
			"Settled it:\n- chosen: a token bucket per tenant (the billing export)\n- turned down: a sliding-window log, because the log costs memory per request"},
		{"I'll go with pgx for the export.\nWhy: database/sql hides the COPY protocol.\nAlternatives considered: lib/pq, which is in maintenance mode.",
			"I'll go with pgx for the export.\nWhy: database/sql hides the COPY protocol.\nAlternatives considered: lib/pq, which is in maintenance mode."},
		{"**Decision:** i128 minor units for snapshotting.\n\n**Rejected:** this belongs to another list.",
			"**Decision:** i128 minor units for snapshotting."},
		{"I'll go with pgx for the export.\nThe tests are next.", "I'll go with pgx for the export."},
	} {
		if got := values(tc.text); !slices.Contains(got, tc.want) {
			t.Errorf("%q:\n got  %q\n want %q", tc.text, got, tc.want)
		}
	}
}

// TestUserChoiceAfterLeadIn: a user's choice said after a short lead-in
// ("Bigger thing: …"), after a judgement of the agent's proposal ("your
// second option makes sense, go with …") or after "nvm" is a decision;
// the lead-in alone, a finding after one or a question is not.
func TestUserChoiceAfterLeadIn(t *testing.T) {
	decisions := map[string]string{
		"Looping in from the product side: we're not going to support IE11 in the new dashboard — usage is under 0.3%.": `decision "we're not going to support IE11`,
		"Bigger thing: let's not add a new `utils/` dir, we already have `lib/`.":                                       `decision "Bigger thing: let's not add`,
		"your second option makes sense, go with the feature flag + gradual rollout":                                    `decision "your second option makes sense, go with the feature flag`,
		"actually nvm — go with the websocket one, polling every 2s from 5k clients is not happening.":                  `decision "actually nvm — go with the websocket one`,
	}
	for s, want := range decisions {
		got := proseKinds(condense.UserText(s))
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
			t.Errorf("%q: got %q, want an item starting %q", s, got, want)
		}
	}
	for _, s := range []string{
		"Looping in from the product side: the dashboard loads in 4 seconds on old laptops.",
		"Quick question: should we go with the websocket one?",
		"Heads up: the staging cluster was restarted overnight.",
		"your second option makes sense, but I need to check with the team first.",
	} {
		for _, g := range proseKinds(condense.UserText(s)) {
			if strings.HasPrefix(g, "decision ") {
				t.Errorf("%q: got %q, want no decision", s, g)
			}
		}
	}
}

// TestUserCourse: a user settles the course by picking a listed option
// by its number after a word of assent, by saying the choice is final, or
// by stating what the work keeps to as a conclusion or against what it
// leaves; a bare description of what the team uses is not a decision.
func TestUserCourse(t *testing.T) {
	decisions := map[string]string{
		"Options as I understand them:\n1. Keep OpenSearch 1.3\n2. Upgrade to OpenSearch 2.13 with a blue/green cluster\n3. Move to Meilisearch\n\nApproved option 2. Who owns the restore test?": "2. Upgrade to OpenSearch 2.13 with a blue/green cluster",
		"Kindly go ahead with the second approach only, i.e. a custom model manager.":                                                                                                             "Kindly go ahead with the second approach only",
		"For the logs, we keep the JSON format in production and the text format only in local, this is final.":                                                                                   "we keep the JSON format in production",
		"they prefer the hosted page because the PCI scope is smaller. so we use Stripe Checkout, please remove the Elements code.":                                                               "so we use Stripe Checkout, please remove the Elements code.",
		"they don't want the audit. so we use Stripe Checkout, please remove the Elements code you started.":                                                                                      "so we use Stripe Checkout, please remove the Elements code you started.",
		"We keep CSS modules for the dashboard; the one utility file is enough.":                                                                                                                  "We keep CSS modules for the dashboard",
		"Finally we decide to make the export in Parquet and not in CSV, because the data team uses Spark.":                                                                                       "make the export in Parquet and not in CSV",
		"re the multi-targeting question: we target net8.0 only from the next major, net6.0 is dropped.":                                                                                          "we target net8.0 only",
		"We're not migrating in-flight jobs. The cutover drains the queues first.":                                                                                                                "We're not migrating in-flight jobs.",
		"heads up: we're freezing dependencies until the 2.0 release ships.":                                                                                                                      "we're freezing dependencies",
		"we will be going ahead with the vendor SDK and not writing our own client.":                                                                                                              "going ahead with the vendor SDK",
		"I went ahead and used moment-timezone instead of luxon because the other files already import it.":                                                                                       "used moment-timezone instead of luxon",
		"we target net8.0 only from the next major, netstandard2.0 and net6.0 are dropped.":                                                                                                       "we target net8.0 only",
		"LGTM with the rename to `FetchOptions` and the sleep removed.":                                                                                                                           "LGTM with the rename",
	}
	for s, want := range decisions {
		got := proseKinds(condense.UserText(s))
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, "decision ") && strings.Contains(g, want) }) {
			t.Errorf("%q: got %q, want a decision holding %q", s, got, want)
		}
	}
	for _, s := range []string{
		"we use Datadog for the logs and Sentry for errors.",
		"Is this final?",
		"we keep getting timeouts from the payments API since Tuesday.",
		"we support Postgres 14 and 15 in CI.",
		"we won't do that.",
		"I looked at moment-timezone instead of luxon because you asked.",
	} {
		for _, g := range proseKinds(condense.UserText(s)) {
			if strings.HasPrefix(g, "decision ") {
				t.Errorf("%q: got %q, want no decision", s, g)
			}
		}
	}
}

// TestThreadVote: a reviewer's "+1 to Alex. Let's move …" is a comment
// to read, not a line a diff adds; and a retro's "Changes we're making"
// section holds decisions.
func TestThreadVote(t *testing.T) {
	out := "author:\tjo-w\nstatus:\tcommented\n--\n+1 to Alex. Let's move the retry into `ApiClient.request()` and delete the per-caller loops in this PR.\n--\n"
	if !unseenKept(unseenCase{Category: "decision", Source: "tool", Command: "gh pr view 77 --comments", Output: out,
		Probe: "Let's move the retry into `ApiClient.request()` and delete the per-caller loops in this PR."}) {
		t.Error("the decision after a +1 was not read")
	}
	retro := "# Sprint 34 Retro\n\n## What didn't\n- Three PRs sat >4 days without review\n\n## Changes we're making\n- Every PR gets a reviewer assigned within 1 business day; the on-call dev is the fallback reviewer.\n\n## Kudos\n- Fatima for the incident write-up\n"
	if !unseenKept(unseenCase{Category: "decision", Source: "tool", Command: "cat docs/meetings/retro.md", Output: retro,
		Probe: "Every PR gets a reviewer assigned within 1 business day"}) {
		t.Error("the retro's change was not read as a decision")
	}
	if unseenKept(unseenCase{Category: "decision", Source: "tool", Command: "cat docs/meetings/retro.md", Output: retro,
		Probe: "Three PRs sat"}) {
		t.Error("a finding of the retro was read as a decision")
	}
}

// TestPostsAndRecordsAsPrinted: a chat export's or a ticket's posts are
// read one by one, not joined as a wrapped paragraph, and a decision in
// one is kept with its author's prefix; a numbered decision keeps its
// number; a record's passive or past wording ("The decision was to …",
// "… are decided already", "we evaluated X and Y and chose Y because …")
// is a decision; a refusal of a switch with its reason is one.
func TestPostsAndRecordsAsPrinted(t *testing.T) {
	cases := []unseenCase{
		{Source: "tool", Command: "cat slack/standup.txt",
			Output: "alice: yesterday: finished pagination\ncarol: yes, gRPC was ~35% lower p99 for the chatty calls\ndan: cool, then internal service-to-service calls are gRPC from now on, public API stays REST\nbob: does that include the legacy PHP service?\n",
			Probe:  "dan: cool, then internal service-to-service calls are gRPC from now on"},
		{Source: "tool", Command: "jira issue view PLAT-1142 --plain",
			Output: "Comments\n[2024-05-02] r.osei: Spot for stateless workloads could save ~60%.\n[2024-05-06] r.osei: Decided: Spot (via Karpenter) for all stateless deployments; Graviton is deferred until the vendor ships arm64.\n[2024-05-06] j.meyer: sounds good. let's check PDBs before enabling.\n",
			Probe:  "[2024-05-06] r.osei: Decided: Spot (via Karpenter) for all stateless deployments"},
		{Source: "tool", Command: "cat slack/incident.txt",
			Output: "[14:09] marcus: roll back or hotfix the secret?\n[14:10] lucia: rolling back auth-svc to v2.14.3, not hotfixing the secret mid-incident\n[14:16] lucia: rollback done\n",
			Probe:  "rolling back auth-svc to v2.14.3, not hotfixing the secret mid-incident"},
		{Source: "user", Text: "Alright, here's what I want:\n1. Fix the failing test in `auth_test.go`\n3. Use distroless instead of alpine as the base image for all Go services going forward\nThanks!",
			Probe: "3. Use distroless instead of alpine as the base image"},
		{Source: "tool", Command: "grep -n -A4 '## Storage' docs/architecture.md",
			Output: "58:## Storage\n63-Multi-region replication was discussed at length.\n65-The decision was to enable replication only for buckets holding EU customer data.\n",
			Probe:  "The decision was to enable replication only for buckets holding EU customer data."},
		{Source: "user", Text: "Not sure about colors. Maybe respect NO_COLOR?\nExit codes are decided already: 0 success, 1 user error, 2 internal error.\n",
			Probe: "Exit codes are decided already: 0 success, 1 user error, 2 internal error."},
		{Source: "tool", Command: "git show --stat HEAD",
			Output: "commit 5e1d7c0b9a8f7e6d5c4b3a29181706f5e4d3c2b1\nAuthor: Ravi Iyer <ravi@example.com>\n\n    refactor(db): replace hand-written SQL scanning with sqlc\n\n    We evaluated GORM and sqlc and chose sqlc because it keeps raw SQL.\n",
			Probe:  "We evaluated GORM and sqlc and chose sqlc because it keeps raw SQL."},
		{Source: "tool", Command: "cat notes/ml-sync.md",
			Output: "2. tokenizer — the new 64k vocab gives 8% fewer tokens on code\n   - we're not switching tokenizers for the 7B run; 64k vocab is reserved for the next model generation\n",
			Probe:  "we're not switching tokenizers for the 7B run; 64k vocab is reserved"},
		{Source: "tool", Command: "cat adr/012-monorepo.md",
			Output: "Title: Repository structure\nStatus: Accepted\nOptions:\n  a) Monorepo with Bazel\n  b) Monorepo with plain Go workspaces\nOutcome:\n  Option (b): one monorepo using Go workspaces, no Bazel.\nConsequences:\n  CI must learn to build only changed modules.\n",
			Probe:  "Option (b): one monorepo using Go workspaces, no Bazel."},
		{Source: "tool", Command: "gh api repos/acme/core/pulls/455/comments --jq '.[].body'",
			Output: "Why `snake_case` here? The rest of the JSON API is camelCase.\nRight, I'd forgotten. OK then, decided: v2 response fields are snake_case everywhere.\nDone.\n",
			Probe:  "decided: v2 response fields are snake_case everywhere."},
		{Source: "tool", Command: "git log -2",
			Output: "commit 2b7e9f0a1c3d5e7f9a1b3c5d7e9f1a3b5c7d9e1f\nAuthor: Dario Rossi <dario@example.com>\n\n    switch image uploads from local disk to Cloudflare R2\n\ncommit c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0d2\nAuthor: Mei Lin <mei@example.com>\n\n    chore: move the fixtures to testdata\n",
			Probe:  "switch image uploads from local disk to Cloudflare R2"},
		{Source: "user", Text: "Should the parser throw or return a Result?\nThrow. We decided to phase the Result helper out; exceptions with typed error classes are the standard now.\n",
			Probe: "Throw. We decided to phase the Result helper out"},
	}
	for _, c := range cases {
		c.Category = "decision"
		if !unseenKept(c) {
			t.Errorf("%q: no item holds it", c.Probe)
		}
	}
	// history and another's choice stay out
	for _, c := range []unseenCase{
		{Source: "user", Text: "We found the previous developer chose MySQL for the queue.", Probe: "chose MySQL"},
		{Source: "tool", Command: "git log -1", Output: "commit c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a6b8c0d2\nAuthor: Mei Lin <mei@example.com>\n\n    chore: move the fixtures to testdata\n", Probe: "move the fixtures"},
		{Source: "tool", Command: "cat slack/standup.txt", Output: "alice: looking at the slow report query today\nbob: dig into the redis timeout\n", Probe: "looking at the slow report query"},
	} {
		c.Category = "decision"
		for _, it := range unseenItems(c) {
			if it.Kind == KindDecision && strings.Contains(it.Value, c.Probe) {
				t.Errorf("%q: read as a decision: %q", c.Probe, it.Value)
			}
		}
	}
}

// TestNotDecisions: sentences that hold a decision cue's words without
// settling anything.
func TestNotDecisions(t *testing.T) {
	for _, m := range []condense.Message{
		condense.AssistantText("Now I have enough information to write the final answer."),
		condense.AssistantText("Going ahead with running the test suite now."),
		condense.AssistantText("Python 2 is no longer supported by this library."),
		condense.UserText("We do not know why the build fails on arm64 yet."),
		condense.UserText("we use it only in tests"),
		condense.UserText("ok so we take a look at this tomorrow morning"),
		condense.UserText("Take the first step and add logging."),
		condense.UserText("do the first part of the migration and report back"),
	} {
		for _, g := range proseKinds(m) {
			if strings.HasPrefix(g, "decision ") {
				t.Errorf("%q: got %q, want no decision", m.TextContent(), g)
			}
		}
	}
}

// TestSettledWithoutTheWord: a lead-in that says what follows was settled,
// a course taken instead of another, one taken with the one not taken in
// the same sentence, the simpler option declared enough, and a user's
// instruction after an assent that also drops something are decisions;
// their look-alikes are not.
func TestSettledWithoutTheWord(t *testing.T) {
	decisions := []struct {
		m    condense.Message
		want string
	}{
		{condense.UserText("So, to be clear for the build: we ship arm64 and amd64 images, no 32-bit builds at all."), "we ship arm64 and amd64 images"},
		{condense.UserText("So scratch the queue plan: jobs stay in the cron table and we add a lock around the runner."), "jobs stay in the cron table"},
		{condense.UserText("Final call after talking to the auditors:\nreceipts are kept for seven years, then purged by the nightly job."), "receipts are kept for seven years"},
		{condense.UserText("Instead we keep every fetched price in the prices table keyed by the day it was published."), "Instead we keep every fetched price"},
		{condense.AssistantText("For the patch release I'll backport the fix only and not bump the minimum Go version."), "backport the fix only and not bump"},
		{condense.UserText("a cron job per tenant is enough for now, one container, no scheduler service."), "a cron job per tenant is enough for now"},
		{condense.UserText("Polling is enough here since nothing changes more than hourly, so poll every ten minutes and skip the webhook."), "Polling is enough here"},
		{condense.UserText("I agree with Tomás — return the error to the caller, drop the retry loop from the client."), "return the error to the caller, drop the retry loop"},
		{condense.UserText("I agree with Ana — pass the logger explicitly, drop the `log` field from `Server`."), "pass the logger explicitly, drop the `log` field"},
		{condense.UserText("let's just pin the protobuf runtime to 4.25 for now and open a ticket for the upgrade."), "pin the protobuf runtime to 4.25"},
		{condense.UserText("As agreed with the platform team yesterday, we will go ahead with the managed broker only."), "we will go ahead with the managed broker only"},
		{condense.UserText("We talked it over at the Tuesday sync. Fixtures stay in this repo; the big ones move to Git LFS."), "We talked it over at the Tuesday sync. Fixtures stay in this repo"},
		{condense.UserText("Threw out the cross-compiling attempt. Final version: two native runners."), "Threw out the cross-compiling attempt. Final version: two native runners."},
	}
	for _, c := range decisions {
		m, want := c.m, c.want
		got := proseKinds(m)
		if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, "decision ") && strings.Contains(g, want) }) {
			t.Errorf("%q: got %q, want a decision holding %q", m.TextContent(), got, want)
		}
	}
	for _, m := range []condense.Message{
		condense.UserText("To be clear: I haven't looked at the export yet?"),
		condense.UserText("we'll see the new prices and not the old ones after the deploy."),
		condense.UserText("Is one worker enough?"),
		condense.UserText("the disk is enough."),
		condense.UserText("let's just see what the CI says."),
		condense.AssistantText("Final result: 14 passed, 0 failed."),
	} {
		for _, g := range proseKinds(m) {
			if strings.HasPrefix(g, "decision ") {
				t.Errorf("%q: got %q, want no decision", m.TextContent(), g)
			}
		}
	}
}
