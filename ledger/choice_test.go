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
