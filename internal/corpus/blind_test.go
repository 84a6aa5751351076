package corpus

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestParseHalfBlind(t *testing.T) {
	h, err := ParseHalf("blind")
	if err != nil || h != Blind {
		t.Errorf("ParseHalf(blind) = %q, %v", h, err)
	}
	if _, err := ParseHalf("held-out"); err == nil || !strings.Contains(err.Error(), "blind") {
		t.Errorf("ParseHalf(held-out): %v", err)
	}
}

// blindTables are the probe-bearing tables that must have blind entries.
var blindTables = append(slices.Clone(freshTables), "task phrasings", "follow-up symptoms", "closing phrasings")

// TestBlindTables: the probe-bearing tables have blind entries of their
// own, in the numbers the half promises; the other tables fall back to
// their report half; the blind forms cover every category.
func TestBlindTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range blindTables {
		if len(byName[name].Blind) == 0 {
			t.Errorf("%s: no blind entries", name)
		}
	}
	for name, least := range map[string]int{"error messages": 30, "rare commands": 20, "decision phrasings": 20, "constraint phrasings": 15, "plan distractors": 12, "probe forms": 25} {
		if n := len(byName[name].Blind); n < least {
			t.Errorf("%s: %d blind entries, want at least %d", name, n, least)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops", "psql", "mysql", "tf"} {
		if len(langTmpls(rareErrors, Blind, l)) < 3 {
			t.Errorf("%s: fewer than 3 blind errors", l)
		}
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareCommands, Blind, l)) < 3 {
			t.Errorf("%s: fewer than 3 blind commands", l)
		}
	}
	if len(byName["harnesses"].Blind) == 0 && fmt.Sprint(harnesses.of(Blind)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the blind half does not fall back to the report half")
	}
	for _, h := range []Half{Report, Fresh} {
		if fmt.Sprint(decisionForms.of(Blind)) == fmt.Sprint(decisionForms.of(h)) {
			t.Errorf("decision phrasings: the blind half is the %s half", h)
		}
	}
	fs := forms.of(Blind)
	cats := map[string]int{}
	for _, f := range fs {
		cats[f.cat]++
	}
	for _, c := range Categories {
		if cats[c] < 2 {
			t.Errorf("%d blind %s forms, want at least 2", cats[c], c)
		}
	}
	if cats["measurement"] < 8 {
		t.Errorf("%d blind measurement forms, want at least 8", cats["measurement"])
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
		t.Error("the blind constraint forms need a task form and a user form")
	}
}

// TestBlindNewText: no blind entry repeats a long literal run (24 bytes or
// more between placeholders) of another half's entry of the same table,
// and the user's decision phrasings are in no table.
func TestBlindNewText(t *testing.T) {
	for _, tb := range Tables() {
		var others []string
		others = append(others, tb.Tune...)
		others = append(others, tb.Report...)
		others = append(others, tb.Fresh...)
		for _, k := range tb.Blind {
			for _, part := range strings.FieldsFunc(k, func(r rune) bool { return r == '{' || r == '}' }) {
				if len(part) < 24 || isKey(part) {
					continue
				}
				for _, o := range others {
					if strings.Contains(o, part) {
						t.Errorf("%s: blind %q repeats %q of %q", tb.Name, k, part, o)
					}
				}
			}
		}
	}
	all := map[string]bool{}
	for _, tb := range Tables() {
		for _, ks := range [][]string{tb.Tune, tb.Report, tb.Fresh, tb.Blind} {
			for _, k := range ks {
				all[k] = true
			}
		}
	}
	for _, d := range blindUserDecisions {
		if all[d] {
			t.Errorf("user decision %q is in a table", d)
		}
		if m := placeholder.FindString(fill(d, map[string]string{"x": "a", "y": "b", "c": "c", "why": "w"})); m != "" {
			t.Errorf("user decision %q leaves %s", d, m)
		}
	}
}

// TestBlindTemplatesFill: every blind error and command template fills
// with the values the generator draws, for a project of its language.
func TestBlindTemplatesFill(t *testing.T) { templatesFill(t, Blind) }

// TestBlindEveryFormat: blind sessions of every harness and project read
// back in their format with every probe in the messages and the file, and
// every blind form plants at least once.
func TestBlindEveryFormat(t *testing.T) { everyFormat(t, Blind, 500, 1) }

// TestBlindDeterministic: a blind corpus is the same for the same seed and
// differs from the report and fresh corpora of that seed.
func TestBlindDeterministic(t *testing.T) { halfDeterministic(t, Blind, Report, Fresh) }
