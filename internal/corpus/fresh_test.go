package corpus

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseHalfFresh(t *testing.T) {
	for _, s := range []string{"tune", "report", "fresh"} {
		h, err := ParseHalf(s)
		if err != nil || string(h) != s {
			t.Errorf("ParseHalf(%q) = %q, %v", s, h, err)
		}
	}
	if _, err := ParseHalf("held-out"); err == nil || !strings.Contains(err.Error(), "fresh") {
		t.Errorf("ParseHalf(held-out): %v", err)
	}
}

// freshTables are the probe-bearing tables that must have fresh entries.
var freshTables = []string{"probe forms", "error messages", "rare commands", "decision phrasings", "constraint phrasings", "plan distractors",
	"thinking phrasings", "user path phrasings", "user command phrasings", "user identifier phrasings", "user error phrasings",
	"assistant command phrasings", "assistant path phrasings", "assistant identifier phrasings", "follow-up phrasings"}

// TestFreshTables: the probe-bearing tables have fresh entries of their
// own, the other tables fall back to their report half, and the fresh
// forms cover every category with surfaces of their own.
func TestFreshTables(t *testing.T) {
	byName := map[string]Table{}
	for _, tb := range Tables() {
		byName[tb.Name] = tb
	}
	for _, name := range freshTables {
		if len(byName[name].Fresh) == 0 {
			t.Errorf("%s: no fresh entries", name)
		}
	}
	if n := len(byName["error messages"].Fresh); n < 18 {
		t.Errorf("%d fresh error messages, want at least 18", n)
	}
	for _, l := range []string{"go", "python", "ts", "rust", "java", "ops"} {
		if len(langTmpls(rareErrors, Fresh, l)) < 3 || len(langTmpls(rareCommands, Fresh, l)) < 3 {
			t.Errorf("%s: fewer than 3 fresh errors or commands", l)
		}
	}
	// Fallback: a table without fresh entries gives the report half's.
	if len(byName["harnesses"].Fresh) == 0 && fmt.Sprint(harnesses.of(Fresh)) != fmt.Sprint(harnesses.of(Report)) {
		t.Error("harnesses: the fresh half does not fall back to the report half")
	}
	if fmt.Sprint(decisionForms.of(Fresh)) == fmt.Sprint(decisionForms.of(Report)) {
		t.Error("decision phrasings: the fresh half is the report half")
	}
	fs := forms.of(Fresh)
	if len(fs) < 15 {
		t.Errorf("%d fresh forms, want at least 15", len(fs))
	}
	cats := map[string]int{}
	for _, f := range fs {
		cats[f.cat]++
	}
	for _, c := range Categories {
		if cats[c] < 2 {
			t.Errorf("%d fresh %s forms, want at least 2", cats[c], c)
		}
	}
	// The run loop takes task constraints from the first form and user
	// constraints from the last after sorting by site: constraint forms
	// must be task or user forms, with one of each.
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
		t.Error("the fresh constraint forms need a task form and a user form")
	}
}

// TestFreshTemplatesFill: every fresh error and command template fills
// with the values the generator draws, for a project of its language.
func TestFreshTemplatesFill(t *testing.T) { templatesFill(t, Fresh) }

// TestFreshEveryFormat: fresh sessions of every harness and project read
// back in their format with every probe in the messages and the file, and
// every fresh form plants at least once (100 steps: enough for task
// constraints).
func TestFreshEveryFormat(t *testing.T) { everyFormat(t, Fresh, 300, 1) }

// TestFreshDeterministic: a fresh corpus is the same for the same seed,
// differs from the report corpus of that seed, and holds no report or
// tune form.
func TestFreshDeterministic(t *testing.T) { halfDeterministic(t, Fresh, Report) }
