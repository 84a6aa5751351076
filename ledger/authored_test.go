package ledger

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestDecisionsInAuthoredText: what an agent writes into a commit message,
// a pull request's body or a review comment is read as its prose.
func TestDecisionsInAuthoredText(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"git commit -am \"$(cat <<'EOF'\nimporter: bulk load\n\nSwitching the importer over to COPY. At first executemany looks appealing, but it is 30x slower on a million rows.\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
			"Switching the importer over to COPY. At first executemany looks appealing, but it is 30x slower on a million rows."},
		{`git commit -m "cache: ttl" -m "We'll use a read-through cache with a 30s TTL instead of invalidating on every write."`,
			"We'll use a read-through cache with a 30s TTL instead of invalidating on every write."},
		{"git commit -F - <<EOF\nfix(auth): verify EdDSA\n\nGoing with jose rather than node-jose: node-jose has no EdDSA support.\nEOF",
			"Going with jose rather than node-jose: node-jose has no EdDSA support."},
		{"gh pr create --title 'Partition orders' --body 'Decided: orders move to pg_partman monthly partitions. Keeping the manual scripts is not an option since they forgot February twice.'",
			"Decided: orders move to pg_partman monthly partitions. Keeping the manual scripts is not an option since they forgot February twice."},
		{`gh pr review 812 --comment -b "I'd rather keep the retry in the client than in the proxy, the proxy has no idea which calls are idempotent."`,
			"I'd rather keep the retry in the client than in the proxy"},
		{`gh api repos/acme/shop/pulls/812/comments/99/replies -f body='Good catch. We will keep the lock in Postgres rather than Redis, since Redis would be a second source of truth.'`,
			"We will keep the lock in Postgres rather than Redis, since Redis would be a second source of truth."},
		// a decision record written with a heredoc: its Decision section
		// is the decision, however it is worded
		{"mkdir -p docs/adr && cat > docs/adr/0012-queue.md <<'EOF'\n# 12. Queue\n\n## Context\n\nJobs are lost on deploy.\n\n## Decision\n\nA transactional outbox table polled every second.\n\n## Consequences\n\nOne more table to vacuum.\nEOF",
			"A transactional outbox table polled every second."},
		// a paragraph of that section is one decision, its reasons
		// with it
		{"cat > docs/adr/0038-ingest.md <<'EOF'\n# 38. Partition rollover\n\n## Decision\n\nRule for the rest of this change: daily partitions in the ingest API, never one big table. Reason: vacuum on the big table takes hours.\n\n## Consequences\n\n- The runbook changes.\nEOF",
			"Rule for the rest of this change: daily partitions in the ingest API, never one big table. Reason: vacuum on the big table takes hours."},
	} {
		items := callItems(t, tc.cmd)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, tc.want) }) {
			t.Errorf("%q: no decision holding %q in %q", tc.cmd, tc.want, Strings(items))
		}
	}
	// A command that only mentions a choice in a search, or a commit
	// with no message, says nothing.
	for _, cmd := range []string{
		`git log --grep "use jose instead of jsonwebtoken" --oneline`,
		"git commit --amend --no-edit",
		`gh api repos/acme/shop/pulls -f title='Use Postgres rather than Redis for locks' -f head=fix/locks`,
		"cat > README.md <<'EOF'\n## Decision\n\nUse Postgres rather than Redis for locks when you deploy this.\nEOF",
		"cat > docs/adr/0012-queue.md <<'EOF'\n## Consequences\n\nOne more table to vacuum every night.\nEOF",
		`grep -rn "we'll use COPY instead of executemany" docs/`,
	} {
		for _, it := range callItems(t, cmd) {
			if it.Kind == KindDecision {
				t.Errorf("%q: decision %q", cmd, it.Value)
			}
		}
	}
}

func callItems(t *testing.T, cmd string) []Item {
	t.Helper()
	in, err := json.Marshal(map[string]string{"command": cmd})
	if err != nil {
		t.Fatal(err)
	}
	c := condense.ToolCall("c1", "bash", in)
	return ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{c}}, 2)
}

// TestDecisionsInWrittenComments: a choice the agent writes into a source
// file's comments, an instruction file, a changelog, a note attached to a
// commit or a chat message is a decision; a comment that describes the
// code, a README and code echoed into a file are not read for one.
func TestDecisionsInWrittenComments(t *testing.T) {
	tool := func(name string, in map[string]string) []Item {
		t.Helper()
		raw, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		c := condense.ToolCall("c1", name, raw)
		return ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{c}}, 2)
	}
	has := func(items []Item, want string) bool {
		return slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindDecision && strings.Contains(it.Value, want) })
	}
	for _, tc := range []struct {
		items []Item
		want  string
	}{
		{tool("Write", map[string]string{"file_path": "src/session/store.ts", "content": "import { Wheel } from './wheel';\n\n// Eviction runs on one timer wheel rather than a setTimeout per session:\n// 100k timers stall the event loop.\nexport const wheel = new Wheel(64);\n"}),
			// as printed, its comment marks and line break kept
			"// Eviction runs on one timer wheel rather than a setTimeout per session:\n// 100k timers stall the event loop."},
		{tool("Edit", map[string]string{"file_path": "app/billing/rounding.py", "old_string": "x = 1", "new_string": "# We chose Decimal with ROUND_HALF_EVEN over float arithmetic, since floats lose cents over a year.\nROUNDING = ROUND_HALF_EVEN"}),
			"We chose Decimal with ROUND_HALF_EVEN over float arithmetic, since floats lose cents over a year."},
		{tool("str_replace_editor", map[string]string{"command": "str_replace", "path": "/repo/internal/quota/cache.go", "old_str": "mu sync.Mutex", "new_str": "hits atomic.Int64 // atomic counters instead of a mutex: the mutex shows up in every profile"}),
			"atomic counters instead of a mutex: the mutex shows up in every profile"},
		{tool("Write", map[string]string{"file_path": "db/migrations/0042_orders.sql", "content": "/*\n * Going with a NOT VALID constraint validated later, because a direct\n * constraint scans 400M rows under lock.\n */\nALTER TABLE orders ADD CONSTRAINT c CHECK (total >= 0) NOT VALID;\n"}),
			"* Going with a NOT VALID constraint validated later, because a direct\n * constraint scans 400M rows under lock."},
		{callItems(t, "cat >> AGENTS.md <<'EOF'\n- From now on the API uses pnpm workspaces and nothing goes through npm link: npm link breaks the lockfile.\nEOF"),
			"From now on the API uses pnpm workspaces and nothing goes through npm link: npm link breaks the lockfile."},
		{callItems(t, `echo "- Settled on keyset pagination instead of OFFSET, which rescans the table on every page." >> CHANGELOG.md`),
			"Settled on keyset pagination instead of OFFSET, which rescans the table on every page."},
		{callItems(t, `git notes add -m "Decided against a sliding-window log for rate limits; a token bucket per tenant costs no memory per request." HEAD`),
			"Decided against a sliding-window log for rate limits; a token bucket per tenant costs no memory per request."},
		{callItems(t, `curl -s -X POST -H 'Content-type: application/json' --data '{"channel":"#payments","text":"Heads up: we are going with idempotency keys on settle rather than a unique index, since retries arrive with different periods."}' https://hooks.example.com/services/T0/B0/x`),
			"we are going with idempotency keys on settle rather than a unique index, since retries arrive with different periods."},
		{callItems(t, "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: src/limiter.rs\n@@\n-    let mut guard = self.lock();\n+    // Sticking with tokio::select! and a shutdown token over aborting the task handles: aborts leave half-written batches.\n+    select! { _ = token.cancelled() => return }\n*** End Patch\nEOF"),
			"Sticking with tokio::select! and a shutdown token over aborting the task handles: aborts leave half-written batches."},
	} {
		if !has(tc.items, tc.want) {
			t.Errorf("no decision holding %q in %q", tc.want, Strings(tc.items))
		}
	}
	for _, items := range [][]Item{
		// comments that describe the code
		tool("Write", map[string]string{"file_path": "pkg/parse/parse.go", "content": "// Parse reads the input and returns the syntax tree instead of a flat token list.\nfunc Parse(s string) *Tree { return nil }\n"}),
		// a README tells its reader how to use the code
		tool("Write", map[string]string{"file_path": "README.md", "content": "## Usage\n\nUse Postgres rather than Redis for locks when you deploy this.\n"}),
		// code echoed into a source file, and a search
		callItems(t, `echo 'const useCache = true // we use Redis instead of Memcached' >> src/config.ts`),
		callItems(t, `grep -rn "we'll go with COPY instead of executemany" docs/`),
		// a directive, and words that are not a sentence
		tool("Write", map[string]string{"file_path": "main.go", "content": "//go:build linux && !cgo instead of windows\npackage main\n"}),
		callItems(t, `curl -s -d '{"query":"select id from orders where total > 0 instead"}' http://localhost:8080/q`),
	} {
		for _, it := range items {
			if it.Kind == KindDecision {
				t.Errorf("decision %q", it.Value)
			}
		}
	}
}

// TestNamedInAuthoredText: the files and commands a pull request's body or
// a commit message names are kept like those of the agent's reply.
func TestNamedInAuthoredText(t *testing.T) {
	items := callItems(t, "gh pr create --base main --title 'server: throttle token' --body \"$(cat <<'EOF'\n## Summary\n\nFixes channel fan-out.\n\n## Files\n\n- `src/protocol/authorizeLedger.ts`: the actual fix\n\n## Testing\n\n- `npx jest test/server/decodepresence.test.ts --ci`\nEOF\n)\"")
	for _, want := range []string{"file src/protocol/authorizeLedger.ts", `command "npx jest test/server/decodepresence.test.ts --ci"`} {
		if !slices.Contains(Strings(items), want) {
			t.Errorf("no %s in %q", want, Strings(items))
		}
	}
}
