package corpus

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseHalfReserve(t *testing.T) {
	h, err := ParseHalf("reserve")
	if err != nil || h != Reserve {
		t.Errorf("ParseHalf(reserve) = %q, %v", h, err)
	}
	if _, err := ParseHalf("reserved"); err == nil || !strings.Contains(err.Error(), "reserve") {
		t.Errorf("ParseHalf(reserved): %v", err)
	}
}

// TestReserveTables: every table the holdout half covers has reserve
// entries of its own, in the numbers the half promises; the other tables
// fall back to their report half; the reserve forms cover every category,
// measurements and decisions most.
func TestReserveTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range blindTables {
		if len(byName[name].Reserve) == 0 {
			t.Errorf("%s: no reserve entries", name)
		}
	}
	for _, tb := range Tables() {
		if len(tb.Holdout) > 0 && len(tb.Reserve) == 0 {
			t.Errorf("%s: holdout entries but no reserve ones", tb.Name)
		}
	}
	for name, least := range map[string]int{"error messages": 30, "rare commands": 20, "decision phrasings": 20, "constraint phrasings": 15, "plan distractors": 12, "probe forms": 40} {
		if n := len(byName[name].Reserve); n < least {
			t.Errorf("%s: %d reserve entries, want at least %d", name, n, least)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops", "psql", "mysql", "tf"} {
		if len(langTmpls(rareErrors, Reserve, l)) < 3 {
			t.Errorf("%s: fewer than 3 reserve errors", l)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareCommands, Reserve, l)) < 3 {
			t.Errorf("%s: fewer than 3 reserve commands", l)
		}
	}
	// The reserve forms embed commands in scripts (a TOML literal, a
	// shell loop): no command may end in a comment or hold '''.
	for _, tm := range rareCommands.of(Reserve) {
		if strings.Contains(tm.tmpl, "#") || strings.Contains(tm.tmpl, "'''") {
			t.Errorf("%s command %q has a comment or a TOML delimiter", tm.lang, tm.tmpl)
		}
	}
	if len(byName["harnesses"].Reserve) == 0 && fmt.Sprint(harnesses.of(Reserve)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the reserve half does not fall back to the report half")
	}
	for _, h := range []Half{Tune, Report, Fresh, Blind, Sealed, Holdout} {
		if fmt.Sprint(decisionForms.of(Reserve)) == fmt.Sprint(decisionForms.of(h)) {
			t.Errorf("decision phrasings: the reserve half is the %s half", h)
		}
	}
	fs := forms.of(Reserve)
	cats := map[string]int{}
	for _, f := range fs {
		cats[f.cat]++
	}
	for _, c := range Categories {
		if cats[c] < 3 {
			t.Errorf("%d reserve %s forms, want at least 3", cats[c], c)
		}
	}
	if cats["measurement"] < 10 {
		t.Errorf("%d reserve measurement forms, want at least 10", cats["measurement"])
	}
	if cats["decision"] < 10 {
		t.Errorf("%d reserve decision forms, want at least 10", cats["decision"])
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
		t.Error("the reserve constraint forms need a task form and a user form")
	}
	// decisionLine needs phrasings of one line.
	one := 0
	for _, d := range decisionForms.of(Reserve) {
		if !strings.Contains(d, "\n") {
			one++
		}
	}
	if one < 10 {
		t.Errorf("%d one-line reserve decision phrasings, want at least 10", one)
	}
}

// TestReserveTemplatesFill: every reserve error and command template
// fills with the values the generator draws, for a project of its
// language.
func TestReserveTemplatesFill(t *testing.T) { templatesFill(t, Reserve) }

// TestReserveEveryFormat: reserve sessions of every harness and project
// read back in their format with every probe in the messages and the
// file, and every reserve form plants at least once (in rounds of
// sessions: it has more forms than a round plants).
func TestReserveEveryFormat(t *testing.T) { everyFormat(t, Reserve, 1100, 2) }

// TestReserveDeterministic: a reserve corpus is the same for the same
// seed and differs from the report, fresh, blind, sealed and holdout
// corpora of that seed.
func TestReserveDeterministic(t *testing.T) {
	halfDeterministic(t, Reserve, Report, Fresh, Blind, Sealed, Holdout)
}

// TestReserveNewText: no reserve entry repeats a long literal run (24
// bytes or more between placeholders) of another half's entry of the same
// table, and the user's decision phrasings are in no table and none of
// the blind, sealed or holdout halves'.
func TestReserveNewText(t *testing.T) {
	newText(t, Reserve, []Half{Tune, Report, Fresh, Blind, Sealed, Holdout}, reserveUserDecisions, blindUserDecisions, sealedUserDecisions, holdoutUserDecisions)
}
