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
