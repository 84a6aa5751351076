package corpus

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseHalfSealed(t *testing.T) {
	h, err := ParseHalf("sealed")
	if err != nil || h != Sealed {
		t.Errorf("ParseHalf(sealed) = %q, %v", h, err)
	}
	if _, err := ParseHalf("held-out"); err == nil || !strings.Contains(err.Error(), "sealed") {
		t.Errorf("ParseHalf(held-out): %v", err)
	}
}

// TestSealedTables: the tables blind covers have sealed entries of their
// own, in the numbers the half promises; the other tables fall back to
// their report half; the sealed forms cover every category, measurements
// and decisions most.
func TestSealedTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range blindTables {
		if len(byName[name].Sealed) == 0 {
			t.Errorf("%s: no sealed entries", name)
		}
	}
	for _, tb := range Tables() {
		if len(tb.Blind) > 0 && len(tb.Sealed) == 0 {
			t.Errorf("%s: blind entries but no sealed ones", tb.Name)
		}
	}
	for name, least := range map[string]int{"error messages": 30, "rare commands": 20, "decision phrasings": 20, "constraint phrasings": 15, "plan distractors": 12, "probe forms": 30} {
		if n := len(byName[name].Sealed); n < least {
			t.Errorf("%s: %d sealed entries, want at least %d", name, n, least)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops", "psql", "mysql", "tf"} {
		if len(langTmpls(rareErrors, Sealed, l)) < 3 {
			t.Errorf("%s: fewer than 3 sealed errors", l)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareCommands, Sealed, l)) < 3 {
			t.Errorf("%s: fewer than 3 sealed commands", l)
		}
	}
	if len(byName["harnesses"].Sealed) == 0 && fmt.Sprint(harnesses.of(Sealed)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the sealed half does not fall back to the report half")
	}
	for _, h := range []Half{Tune, Report, Fresh, Blind} {
		if fmt.Sprint(decisionForms.of(Sealed)) == fmt.Sprint(decisionForms.of(h)) {
			t.Errorf("decision phrasings: the sealed half is the %s half", h)
		}
	}
	fs := forms.of(Sealed)
	cats := map[string]int{}
	for _, f := range fs {
		cats[f.cat]++
	}
	for _, c := range Categories {
		if cats[c] < 2 {
			t.Errorf("%d sealed %s forms, want at least 2", cats[c], c)
		}
	}
	if cats["measurement"] < 10 {
		t.Errorf("%d sealed measurement forms, want at least 10", cats["measurement"])
	}
	if cats["decision"] < 6 {
		t.Errorf("%d sealed decision forms, want at least 6", cats["decision"])
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
		t.Error("the sealed constraint forms need a task form and a user form")
	}
	// decisionLine needs phrasings of one line.
	one := 0
	for _, d := range decisionForms.of(Sealed) {
		if !strings.Contains(d, "\n") {
			one++
		}
	}
	if one < 10 {
		t.Errorf("%d one-line sealed decision phrasings, want at least 10", one)
	}
}

// TestSealedTemplatesFill: every sealed error and command template fills
// with the values the generator draws, for a project of its language.
func TestSealedTemplatesFill(t *testing.T) { templatesFill(t, Sealed) }

// TestSealedEveryFormat: sealed sessions of every harness and project
// read back in their format with every probe in the messages and the
// file, and every sealed form plants at least once (in two rounds of
// sessions: it has more forms than a round plants).
func TestSealedEveryFormat(t *testing.T) { everyFormat(t, Sealed, 700, 2) }

// TestSealedDeterministic: a sealed corpus is the same for the same seed
// and differs from the report, fresh and blind corpora of that seed.
func TestSealedDeterministic(t *testing.T) { halfDeterministic(t, Sealed, Report, Fresh, Blind) }

// TestSealedNewText: no sealed entry repeats a long literal run (24 bytes
// or more between placeholders) of another half's entry of the same
// table, and the user's decision phrasings are in no table and none of
// blind's.
func TestSealedNewText(t *testing.T) {
	newText(t, Sealed, []Half{Tune, Report, Fresh, Blind}, sealedUserDecisions, blindUserDecisions)
}
