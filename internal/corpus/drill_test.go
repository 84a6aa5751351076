package corpus

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseHalfDrill(t *testing.T) {
	h, err := ParseHalf("drill")
	if err != nil || h != Drill {
		t.Errorf("ParseHalf(drill) = %q, %v", h, err)
	}
	if _, err := ParseHalf("drills"); err == nil || !strings.Contains(err.Error(), "drill") {
		t.Errorf("ParseHalf(drills): %v", err)
	}
}

// TestDrillTables: every table the blind half covers has drill entries of
// its own; the other tables fall back to their report half; the drill
// forms plant most of their probes in tools' output: identifiers and
// measurements only there, at least 14 forms each, at least 6 error forms
// there, at least 5 command forms in a tool's input or output and at least
// 3 decision forms in a tool's output.
func TestDrillTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range blindTables {
		if len(byName[name].Drill) == 0 {
			t.Errorf("%s: no drill entries", name)
		}
	}
	for name, least := range map[string]int{"error messages": 36, "rare commands": 30, "decision phrasings": 14, "constraint phrasings": 10, "plan distractors": 8, "probe forms": 50} {
		if n := len(byName[name].Drill); n < least {
			t.Errorf("%s: %d drill entries, want at least %d", name, n, least)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareErrors, Drill, l)) < 5 {
			t.Errorf("%s: fewer than 5 drill errors", l)
		}
		if len(langTmpls(rareCommands, Drill, l)) < 5 {
			t.Errorf("%s: fewer than 5 drill commands", l)
		}
	}
	// The drill forms echo commands in CI logs and a terminal recording:
	// no command may hold a line break.
	for _, tm := range rareCommands.of(Drill) {
		if strings.Contains(tm.tmpl, "\n") {
			t.Errorf("%s command %q has a line break", tm.lang, tm.tmpl)
		}
	}
	if len(byName["harnesses"].Drill) == 0 && fmt.Sprint(harnesses.of(Drill)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the drill half does not fall back to the report half")
	}
	for _, h := range []Half{Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve, Practice} {
		if fmt.Sprint(decisionForms.of(Drill)) == fmt.Sprint(decisionForms.of(h)) {
			t.Errorf("decision phrasings: the drill half is the %s half", h)
		}
	}
	cats := map[string]int{}
	atSite := map[string]map[string]int{}
	for _, f := range forms.of(Drill) {
		cats[f.cat]++
		if atSite[f.cat] == nil {
			atSite[f.cat] = map[string]int{}
		}
		atSite[f.cat][f.site]++
	}
	for _, c := range Categories {
		if cats[c] == 0 {
			t.Errorf("no drill %s form", c)
		}
	}
	for cat, least := range map[string]int{"identifier": 14, "measurement": 14, "error": 6, "decision": 3} {
		if n := atSite[cat][siteOutput]; n < least {
			t.Errorf("%d drill %s forms in a tool's output, want at least %d", n, cat, least)
		}
	}
	for _, cat := range []string{"identifier", "measurement"} {
		if n := atSite[cat][siteOutput]; n != cats[cat] {
			t.Errorf("%d of %d drill %s forms outside a tool's output", cats[cat]-n, cats[cat], cat)
		}
	}
	if n := atSite["command"][siteOutput] + atSite["command"][siteInput]; n < 5 {
		t.Errorf("%d drill command forms in a tool's input or output, want at least 5", n)
	}
	// The run loop takes task constraints from the first form and user
	// constraints from the last after sorting by site.
	for _, f := range forms.of(Drill) {
		if f.cat == "constraint" && f.site != siteTask && f.site != siteUser {
			t.Errorf("constraint form %s has site %s", f.name, f.site)
		}
	}
	if atSite["constraint"][siteTask] == 0 || atSite["constraint"][siteUser] == 0 {
		t.Error("the drill constraint forms need a task form and a user form")
	}
	// The design note and the commit body take one-line decisions.
	one := 0
	for _, d := range decisionForms.of(Drill) {
		if !strings.Contains(d, "\n") {
			one++
		}
	}
	if one < 10 {
		t.Errorf("%d one-line drill decision phrasings, want at least 10", one)
	}
}

// TestDrillOneRow: the drill identifier and measurement forms print a
// listing or a report whose one row that matters holds the probe: it is
// in exactly one line of the tool's output, for a project of every
// language.
func TestDrillOneRow(t *testing.T) {
	hr, st := harnesses.of(Drill)[0], styles.of(Drill)[0]
	for _, p := range projects.of(Drill) {
		for seed := uint64(1); seed <= 3; seed++ {
			g := newGen(hr, p, st, Drill, seed, 100)
			for _, f := range forms.of(Drill) {
				if f.cat != "identifier" && f.cat != "measurement" {
					continue
				}
				probe := f.run(g)
				calls := g.turns[len(g.turns)-1].calls
				lines := 0
				for _, c := range calls {
					for _, l := range strings.Split(c.out, "\n") {
						if strings.Contains(l, probe) {
							lines++
						}
					}
				}
				if lines != 1 {
					t.Errorf("%s, %s: probe %q in %d lines of the output", p.name, f.name, probe, lines)
				}
			}
		}
	}
}

// TestDrillTemplatesFill: every drill error and command template fills
// with the values the generator draws, for a project of its language.
func TestDrillTemplatesFill(t *testing.T) { templatesFill(t, Drill) }

// TestDrillEveryFormat: drill sessions of every harness and project read
// back in their format with every probe in the messages and the file, and
// every drill form plants at least once (in rounds of sessions: it has
// more forms than a round plants).
func TestDrillEveryFormat(t *testing.T) { everyFormat(t, Drill, 1800, 2) }

// TestDrillDeterministic: a drill corpus is the same for the same seed and
// differs from the corpora of every other half for that seed.
func TestDrillDeterministic(t *testing.T) {
	halfDeterministic(t, Drill, Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve, Practice)
}

// TestDrillNewText: no drill entry repeats a long literal run (24 bytes or
// more between placeholders) of another half's entry of the same table.
func TestDrillNewText(t *testing.T) {
	newText(t, Drill, []Half{Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve, Practice}, nil)
}
