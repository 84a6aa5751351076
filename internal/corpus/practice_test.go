package corpus

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseHalfPractice(t *testing.T) {
	h, err := ParseHalf("practice")
	if err != nil || h != Practice {
		t.Errorf("ParseHalf(practice) = %q, %v", h, err)
	}
	if _, err := ParseHalf("practise"); err == nil || !strings.Contains(err.Error(), "practice") {
		t.Errorf("ParseHalf(practise): %v", err)
	}
}

// TestPracticeTables: every table the reserve half covers has practice
// entries of its own, at least as many as the reserve half has; the other
// tables fall back to their report half; the practice forms cover every
// category, measurements and decisions most.
func TestPracticeTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range blindTables {
		if len(byName[name].Practice) == 0 {
			t.Errorf("%s: no practice entries", name)
		}
	}
	for _, tb := range Tables() {
		if len(tb.Practice) < len(tb.Reserve) {
			t.Errorf("%s: %d practice entries, fewer than the reserve half's %d", tb.Name, len(tb.Practice), len(tb.Reserve))
		}
	}
	for name, least := range map[string]int{"error messages": 56, "rare commands": 30, "decision phrasings": 24, "constraint phrasings": 17, "plan distractors": 13, "probe forms": 52} {
		if n := len(byName[name].Practice); n < least {
			t.Errorf("%s: %d practice entries, want at least %d", name, n, least)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops", "psql", "mysql", "tf"} {
		if len(langTmpls(rareErrors, Practice, l)) < 5 {
			t.Errorf("%s: fewer than 5 practice errors", l)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareCommands, Practice, l)) < 5 {
			t.Errorf("%s: fewer than 5 practice commands", l)
		}
	}
	// The practice forms embed commands in a Procfile line and a YAML
	// block: no command may hold a comment or a line break.
	for _, tm := range rareCommands.of(Practice) {
		if strings.Contains(tm.tmpl, "#") || strings.Contains(tm.tmpl, "\n") {
			t.Errorf("%s command %q has a comment or a line break", tm.lang, tm.tmpl)
		}
	}
	if len(byName["harnesses"].Practice) == 0 && fmt.Sprint(harnesses.of(Practice)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the practice half does not fall back to the report half")
	}
	for _, h := range []Half{Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve} {
		if fmt.Sprint(decisionForms.of(Practice)) == fmt.Sprint(decisionForms.of(h)) {
			t.Errorf("decision phrasings: the practice half is the %s half", h)
		}
	}
	fs := forms.of(Practice)
	cats := map[string]int{}
	sitesOf := map[string]map[string]bool{}
	for _, f := range fs {
		cats[f.cat]++
		if sitesOf[f.cat] == nil {
			sitesOf[f.cat] = map[string]bool{}
		}
		sitesOf[f.cat][f.site] = true
	}
	for _, c := range Categories {
		if cats[c] < 5 {
			t.Errorf("%d practice %s forms, want at least 5", cats[c], c)
		}
	}
	if cats["measurement"] < 13 {
		t.Errorf("%d practice measurement forms, want at least 13", cats["measurement"])
	}
	if cats["decision"] < 10 {
		t.Errorf("%d practice decision forms, want at least 10", cats["decision"])
	}
	// Every category but measurements is planted in more than one kind of
	// site.
	for _, c := range []string{"path", "command", "error", "identifier", "decision", "constraint"} {
		if len(sitesOf[c]) < 2 {
			t.Errorf("practice %s forms use only sites %v", c, sitesOf[c])
		}
	}
	// The run loop takes task constraints from the first form and user
	// constraints from the last after sorting by site.
	for _, f := range fs {
		if f.cat == "constraint" && f.site != siteTask && f.site != siteUser {
			t.Errorf("constraint form %s has site %s", f.name, f.site)
		}
	}
	if !sitesOf["constraint"][siteTask] || !sitesOf["constraint"][siteUser] {
		t.Error("the practice constraint forms need a task form and a user form")
	}
	// decisionLine needs phrasings of one line.
	one := 0
	for _, d := range decisionForms.of(Practice) {
		if !strings.Contains(d, "\n") {
			one++
		}
	}
	if one < 10 {
		t.Errorf("%d one-line practice decision phrasings, want at least 10", one)
	}
}

// TestPracticeTemplatesFill: every practice error and command template
// fills with the values the generator draws, for a project of its
// language.
func TestPracticeTemplatesFill(t *testing.T) { templatesFill(t, Practice) }

// TestPracticeEveryFormat: practice sessions of every harness and project
// read back in their format with every probe in the messages and the
// file, and every practice form plants at least once (in rounds of
// sessions: it has more forms than a round plants).
func TestPracticeEveryFormat(t *testing.T) { everyFormat(t, Practice, 1200, 2) }

// TestPracticeDeterministic: a practice corpus is the same for the same
// seed and differs from the corpora of every other half for that seed.
func TestPracticeDeterministic(t *testing.T) {
	halfDeterministic(t, Practice, Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve)
}

// TestPracticeNewText: no practice entry repeats a long literal run (24
// bytes or more between placeholders) of another half's entry of the same
// table, and the user's decision phrasings are in no table and none of
// the blind, sealed, holdout or reserve halves'.
func TestPracticeNewText(t *testing.T) {
	newText(t, Practice, []Half{Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve}, practiceUserDecisions, blindUserDecisions, sealedUserDecisions, holdoutUserDecisions, reserveUserDecisions)
}
