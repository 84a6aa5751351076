package ledger

import (
	"bufio"
	"os"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestChoicesInManyVoices reads testdata/choices.txt: each sentence under
// [decision] is a decision, none under [other] is.
func TestChoicesInManyVoices(t *testing.T) {
	f, err := os.Open("testdata/choices.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	section := ""
	n := map[string]int{}
	sc := bufio.NewScanner(f)
	for line := 0; sc.Scan(); {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") {
			continue
		}
		if strings.HasPrefix(s, "[") {
			section = strings.Trim(s, "[]")
			continue
		}
		n[section]++
		var kinds []string
		decided := false
		for _, it := range ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(s)}}, 1) {
			kinds = append(kinds, string(it.Kind))
			decided = decided || it.Kind == KindDecision
		}
		switch section {
		case "decision":
			if !decided {
				t.Errorf("choices.txt:%d: %q read as %v, want a decision", line, s, kinds)
			}
		case "other":
			if decided {
				t.Errorf("choices.txt:%d: %q read as a decision", line, s)
			}
		}
	}
	if n["decision"] < 50 || n["other"] < 50 {
		t.Fatalf("choices.txt holds %d decisions and %d others; the file was cut", n["decision"], n["other"])
	}
}

// TestDecisionSites: a choice is a decision wherever it is made: in the
// assistant's reasoning (unless hedged), in the user's reply, and with the
// sentence after it that gives its reason.
func TestDecisionSites(t *testing.T) {
	kinds := func(m condense.Message) []string {
		var out []string
		for _, it := range ExtractMessage(&m, 1) {
			if it.Kind == KindDecision {
				out = append(out, it.Value)
			}
		}
		return out
	}
	think := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
		condense.Thinking("The trace shows two writers. I'll go with a single writer goroutine rather than a mutex. Maybe I should use a channel instead? Let me read the code.", "sig"),
		condense.Text("Reading the store."),
	}}
	if got := kinds(think); len(got) != 1 || got[0] != "I'll go with a single writer goroutine rather than a mutex." {
		t.Errorf("thinking: got %q, want the one firm choice", got)
	}
	user := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("Thanks for the options. Let's go with Redis for the rate limiter, not Postgres advisory locks.")}}
	if got := kinds(user); len(got) != 1 || !strings.HasPrefix(got[0], "Let's go with Redis") {
		t.Errorf("user: got %q, want the user's choice", got)
	}
	reason := condense.AssistantText("We'll use pgx directly. It exposes the COPY protocol that database/sql hides. Next I'll run the tests.")
	if got := kinds(reason); len(got) != 1 || got[0] != "We'll use pgx directly. It exposes the COPY protocol that database/sql hides." {
		t.Errorf("reason: got %q, want the choice with its reason and without the plan", got)
	}
	unrelated := condense.AssistantText("I'll use a generation counter instead of timestamps. Round 0 is fixed: p99 latency: 40.2ms.")
	if got := kinds(unrelated); len(got) != 1 || got[0] != "I'll use a generation counter instead of timestamps." {
		t.Errorf("unrelated: got %q, want the choice alone", got)
	}
}

// TestDecisionWithItsReason: a decision keeps the sentence before it that
// states the problem it answers and the sentences after it that give its
// reason, in one item; a plain finding before it, a step taken, a report
// that something works and the next step stay apart.
func TestDecisionWithItsReason(t *testing.T) {
	decisions := func(text string) []string {
		m := condense.AssistantText(text)
		var out []string
		for _, it := range ExtractMessage(&m, 1) {
			if it.Kind == KindDecision {
				out = append(out, it.Value)
			}
		}
		return out
	}
	for _, tc := range []struct{ text, want string }{
		{"We'll use pgx directly. The stdlib driver hides the COPY protocol.", "We'll use pgx directly. The stdlib driver hides the COPY protocol."},
		{"I'm going with optimistic locking on the orders row. Row locks would be held across the HTTP call to the bank.",
			"I'm going with optimistic locking on the orders row. Row locks would be held across the HTTP call to the bank."},
		{"SELECT FOR UPDATE deadlocks when two refunds hit the same order. So I'll use optimistic locking with a version column.",
			"SELECT FOR UPDATE deadlocks when two refunds hit the same order. So I'll use optimistic locking with a version column."},
		{"jsonwebtoken cannot verify EdDSA signatures. We will use jose for token verification.",
			"jsonwebtoken cannot verify EdDSA signatures. We will use jose for token verification."},
		{"The migration takes 40 minutes on the largest tenant table. Therefore we'll backfill in batches of 10k rows.",
			"The migration takes 40 minutes on the largest tenant table. Therefore we'll backfill in batches of 10k rows."},
		{"The trace shows two writers. I'll go with a single writer goroutine rather than a mutex.", "I'll go with a single writer goroutine rather than a mutex."},
		{"I looked at the code. I'll use a dataclass instead of the dict.", "I'll use a dataclass instead of the dict."},
		{"I'll use a generation counter instead of timestamps. Round 0 is fixed: p99 latency: 40.2ms.", "I'll use a generation counter instead of timestamps."},
		{"Going with tokio::sync::Mutex here. Next I'll run the tests.", "Going with tokio::sync::Mutex here."},
		{"The global lock is overkill for one writer. We'll use a per-tenant mutex.", "The global lock is overkill for one writer. We'll use a per-tenant mutex."},
		{"THOUGHT: The stdlib driver cannot stream COPY. We'll use pgx.", "The stdlib driver cannot stream COPY. We'll use pgx."},
		{"jsonwebtoken cannot verify EdDSA. Ran it again 255 green Decision: use jose over jsonwebtoken.", "Decision: use jose over jsonwebtoken."},
		{"We'll use pgx. Faster.", "We'll use pgx. Faster."},
	} {
		if got := decisions(tc.text); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%q:\n got  %q\n want [%q]", tc.text, got, tc.want)
		}
	}
}
