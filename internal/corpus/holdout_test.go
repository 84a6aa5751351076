package corpus

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseHalfHoldout(t *testing.T) {
	h, err := ParseHalf("holdout")
	if err != nil || h != Holdout {
		t.Errorf("ParseHalf(holdout) = %q, %v", h, err)
	}
	if _, err := ParseHalf("hold-out"); err == nil || !strings.Contains(err.Error(), "holdout") {
		t.Errorf("ParseHalf(hold-out): %v", err)
	}
}

// TestHoldoutTables: every table the sealed half covers has holdout
// entries of its own, in the numbers the half promises; the other tables
// fall back to their report half; the holdout forms cover every category,
// measurements and decisions most.
func TestHoldoutTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range blindTables {
		if len(byName[name].Holdout) == 0 {
			t.Errorf("%s: no holdout entries", name)
		}
	}
	for _, tb := range Tables() {
		if len(tb.Sealed) > 0 && len(tb.Holdout) == 0 {
			t.Errorf("%s: sealed entries but no holdout ones", tb.Name)
		}
	}
	for name, least := range map[string]int{"error messages": 30, "rare commands": 20, "decision phrasings": 20, "constraint phrasings": 15, "plan distractors": 12, "probe forms": 40} {
		if n := len(byName[name].Holdout); n < least {
			t.Errorf("%s: %d holdout entries, want at least %d", name, n, least)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops", "psql", "mysql", "tf"} {
		if len(langTmpls(rareErrors, Holdout, l)) < 3 {
			t.Errorf("%s: fewer than 3 holdout errors", l)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareCommands, Holdout, l)) < 3 {
			t.Errorf("%s: fewer than 3 holdout commands", l)
		}
	}
	if len(byName["harnesses"].Holdout) == 0 && fmt.Sprint(harnesses.of(Holdout)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the holdout half does not fall back to the report half")
	}
	for _, h := range []Half{Tune, Report, Fresh, Blind, Sealed} {
		if fmt.Sprint(decisionForms.of(Holdout)) == fmt.Sprint(decisionForms.of(h)) {
			t.Errorf("decision phrasings: the holdout half is the %s half", h)
		}
	}
	fs := forms.of(Holdout)
	cats := map[string]int{}
	for _, f := range fs {
		cats[f.cat]++
	}
	for _, c := range Categories {
		if cats[c] < 3 {
			t.Errorf("%d holdout %s forms, want at least 3", cats[c], c)
		}
	}
	if cats["measurement"] < 10 {
		t.Errorf("%d holdout measurement forms, want at least 10", cats["measurement"])
	}
	if cats["decision"] < 10 {
		t.Errorf("%d holdout decision forms, want at least 10", cats["decision"])
	}
	// The run loop takes task constraints from the first form and user
	// constraints from the last after sorting by site.
	sites := map[string]bool{}
	for _, f := range fs {
		if f.cat == "constraint" {
			if f.site != siteTask && f.site != siteUser {
				t.Errorf("constraint form %s has site %s", f.name, f.site)
			}
			sites[f.site] = true
		}
	}
	if !sites[siteTask] || !sites[siteUser] {
		t.Error("the holdout constraint forms need a task form and a user form")
	}
	// decisionLine needs phrasings of one line.
	one := 0
	for _, d := range decisionForms.of(Holdout) {
		if !strings.Contains(d, "\n") {
			one++
		}
	}
	if one < 10 {
		t.Errorf("%d one-line holdout decision phrasings, want at least 10", one)
	}
}

// TestHoldoutTemplatesFill: every holdout error and command template
// fills with the values the generator draws, for a project of its
// language.
func TestHoldoutTemplatesFill(t *testing.T) { templatesFill(t, Holdout) }

// TestHoldoutEveryFormat: holdout sessions of every harness and project
// read back in their format with every probe in the messages and the
// file, and every holdout form plants at least once (in rounds of
// sessions: it has more forms than a round plants).
func TestHoldoutEveryFormat(t *testing.T) { everyFormat(t, Holdout, 900, 2) }

// TestHoldoutDeterministic: a holdout corpus is the same for the same
// seed and differs from the report, fresh, blind and sealed corpora of
// that seed.
func TestHoldoutDeterministic(t *testing.T) {
	halfDeterministic(t, Holdout, Report, Fresh, Blind, Sealed)
}

// TestHoldoutNewText: no holdout entry repeats a long literal run (24
// bytes or more between placeholders) of another half's entry of the same
// table, and the user's decision phrasings are in no table and none of
// the blind or sealed halves'.
func TestHoldoutNewText(t *testing.T) {
	newText(t, Holdout, []Half{Tune, Report, Fresh, Blind, Sealed}, holdoutUserDecisions, blindUserDecisions, sealedUserDecisions)
}
