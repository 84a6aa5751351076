package corpus

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/eval"
	"github.com/condense-dev/condense/internal/testmode"
	"github.com/condense-dev/condense/transcript"
)

// long reports whether CONDENSE_TEST_LONG=1 asks for full-size sessions.
func long() bool { return testmode.Long() }

// smallSteps keeps sessions small in ordinary runs.
const smallSteps = 24

// every returns one small session per harness of each half, with
// projects and styles in turn.
func every(t *testing.T, steps int) []*Session {
	t.Helper()
	var out []*Session
	for _, h := range Halves {
		ss, err := Corpus(h, 7, len(harnesses.of(h)), steps)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ss...)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	for _, h := range Halves {
		for _, hs := range harnesses.of(h) {
			cfg := Config{Half: h, Seed: 42, Steps: smallSteps, Harness: hs.name}
			a, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			b, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a.Data, b.Data) || fmt.Sprint(a.Plants) != fmt.Sprint(b.Plants) || fmt.Sprint(a.Distractors) != fmt.Sprint(b.Distractors) {
				t.Errorf("%s: two runs with seed 42 differ", a.Name)
			}
			cfg.Seed = 43
			c, err := Generate(cfg)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Equal(a.Data, c.Data) {
				t.Errorf("%s: seeds 42 and 43 give the same bytes", a.Name)
			}
		}
	}
}

var placeholder = regexp.MustCompile(`\{[a-z][a-z0-9_]*\}`)

// TestReadBack: every session reads with the repository's readers, in its
// format, validates, and holds every probe where condense eval looks for
// it (the flattened messages) and, JSON-escaped, in the file's bytes.
func TestReadBack(t *testing.T) {
	steps := smallSteps
	if long() {
		steps = 0
	}
	dir := t.TempDir()
	for _, s := range every(t, steps) {
		t.Run(s.Name, func(t *testing.T) { checkSession(t, dir, s, steps == 0) })
	}
}

// everyFormat generates rounds sessions of half h for every harness and
// project, seeds from seed0+1 on, and checks that every probe is in each
// session's data, that every form of the half plants at least once and no
// form of another half does. Each session is read back in its format
// (checkSession), under the race detector the slowest part. Outside
// CONDENSE_TEST_LONG=1 one round is generated (every form of every half
// still plants in it) and one project per harness, in turn, is read back.
func everyFormat(t *testing.T, h Half, seed0 uint64, rounds int) {
	t.Helper()
	all := long()
	if !all {
		rounds = 1
	}
	dir := t.TempDir()
	planted := map[string]int{}
	seed := seed0
	hs, ps := harnesses.of(h), projects.of(h)
	for round := 0; round < rounds; round++ {
		for hi, hr := range hs {
			for pi, p := range ps {
				seed++
				s, err := Generate(Config{Half: h, Seed: seed, Steps: 100, Harness: hr.name, Project: p.name})
				if err != nil {
					t.Fatal(err)
				}
				if s.Half != h || !strings.HasPrefix(s.Name, string(h)+"-") {
					t.Errorf("%s: half %s", s.Name, s.Half)
				}
				for _, pl := range s.Plants {
					planted[pl.Form]++
					if !bytes.Contains(s.Data, []byte(jsonInner(pl.Text))) && !bytes.Contains(s.Data, []byte(jsonInner(jsonInner(pl.Text)))) {
						t.Errorf("%s: probe %q (%s) is not in the data", s.Name, pl.Text, pl.Form)
					}
				}
				if all || (hi+round)%len(ps) == pi {
					t.Run(s.Name, func(t *testing.T) { checkSession(t, dir, s, false) })
				}
			}
		}
	}
	for _, f := range forms.of(h) {
		if planted[f.name] == 0 {
			t.Errorf("form %s planted nothing in %d sessions", f.name, seed-seed0)
		}
	}
	for name := range planted {
		if !slices.ContainsFunc(forms.of(h), func(f *form) bool { return f.name == name }) {
			t.Errorf("a %s session planted with form %s of another half", h, name)
		}
	}
}

// templatesFill checks that every error and command template of half h
// fills with the values the generator draws, for a project of its
// language (ops for the languages no project has).
func templatesFill(t *testing.T, h Half) {
	t.Helper()
	byLang := map[string]*project{}
	for _, p := range projects.of(h) {
		byLang[p.lang] = p
	}
	hr, st := harnesses.of(h)[0], styles.of(h)[0]
	for _, s := range []*split[langTmpl]{rareErrors, rareCommands} {
		for _, tm := range s.of(h) {
			p := byLang[tm.lang]
			if p == nil {
				p = byLang["ops"]
			}
			g := newGen(hr, p, st, h, 1, 20)
			if m := placeholder.FindString(fill(tm.tmpl, g.vars())); m != "" {
				t.Errorf("%s template %q leaves %s", tm.lang, tm.tmpl, m)
			}
		}
	}
}

// checkSession writes s to dir, reads it back in its format and checks its
// probes and distractors are where condense eval looks for them; fullSize
// also checks a session generated at full size (no step count given) is
// 1–4 MB of 240–260 steps.
func checkSession(t *testing.T, dir string, s *Session, fullSize bool) {
	f, err := s.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	tr, err := transcript.ReadFile(f.Session, transcript.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if string(tr.Format) != s.Format {
		t.Errorf("detected as %s, want %s", tr.Format, s.Format)
	}
	if tr.Skipped != 0 || tr.Repaired != 0 || tr.Dropped != 0 {
		t.Errorf("skipped %d, repaired %d, dropped %d", tr.Skipped, tr.Repaired, tr.Dropped)
	}
	if err := condense.Validate(tr.Request.Messages); err != nil {
		t.Fatal(err)
	}
	if tr.Request.Model != s.Model {
		t.Errorf("model %q, want %q", tr.Request.Model, s.Model)
	}
	steps := 0
	for i := range tr.Request.Messages {
		m := &tr.Request.Messages[i]
		if m.Role == condense.RoleAssistant && (m.HasToolCalls() || strings.Contains(m.TextContent(), "\n```")) {
			steps++
		}
	}
	if steps != s.Steps {
		t.Errorf("%d tool steps read back, generated %d", steps, s.Steps)
	}
	flat := eval.Flatten(tr.Request.Messages)
	if m := placeholder.FindString(flat); m != "" {
		t.Errorf("the session holds an unfilled placeholder %s", m)
	}
	probes, err := eval.LoadProbes(f.Probes)
	if err != nil {
		t.Fatal(err)
	}
	if len(probes) != len(s.Plants) {
		t.Fatalf("%d probes in the file, %d plants", len(probes), len(s.Plants))
	}
	cats := map[string]int{}
	for _, p := range s.Plants {
		cats[p.Category]++
		if !strings.Contains(flat, p.Text) {
			t.Errorf("probe %q (%s, %s) is not in the messages condense eval reads", p.Text, p.Category, p.Form)
		}
		esc := jstr(p.Text)
		esc = esc[1 : len(esc)-1]
		esc2 := jstr(esc) // tool arguments that are a JSON string
		if !bytes.Contains(s.Data, []byte(esc)) && !bytes.Contains(s.Data, []byte(esc2[1:len(esc2)-1])) {
			t.Errorf("probe %q (%s) is not in the file", p.Text, p.Form)
		}
	}
	for _, c := range Categories {
		if cats[c] == 0 {
			t.Errorf("no %s probe", c)
		}
	}
	for _, d := range s.Distractors {
		if !strings.Contains(flat, d.Text) {
			t.Errorf("distractor %q (%s) is not in the messages", d.Text, d.Category)
		}
	}
	if _, err := eval.LoadProbes(f.Distractors); err != nil {
		t.Fatal(err)
	}
	if fullSize {
		if n := len(s.Data); n < 1_000_000 || n > 4_000_000 {
			t.Errorf("%d bytes, want 1–4 MB", n)
		}
		if s.Steps < 240 || s.Steps > 260 {
			t.Errorf("%d steps, want 240–260", s.Steps)
		}
	}
}

// TestSplitDisjoint: no entry of any table's half is in another half of
// any table (tune, report, fresh, blind, sealed, holdout, reserve,
// practice and drill share nothing), and the tune and report halves of
// every table have entries. A table without fresh, blind, sealed, holdout,
// reserve, practice or drill entries falls back to its report half in
// those sessions (see TestFreshTables, TestBlindTables, TestSealedTables,
// TestHoldoutTables, TestReserveTables, TestPracticeTables and
// TestDrillTables).
func TestSplitDisjoint(t *testing.T) {
	in := map[Half]map[string]string{Tune: {}, Report: {}, Fresh: {}, Blind: {}, Sealed: {}, Holdout: {}, Reserve: {}, Practice: {}, Drill: {}}
	for _, tb := range Tables() {
		if len(tb.Tune) == 0 || len(tb.Report) == 0 {
			t.Errorf("%s: a half is empty", tb.Name)
		}
		for h, keys := range map[Half][]string{Tune: tb.Tune, Report: tb.Report, Fresh: tb.Fresh, Blind: tb.Blind, Sealed: tb.Sealed, Holdout: tb.Holdout, Reserve: tb.Reserve, Practice: tb.Practice, Drill: tb.Drill} {
			for _, k := range keys {
				in[h][k] = tb.Name
			}
		}
	}
	for i, a := range Halves {
		for _, b := range Halves[i+1:] {
			for k, name := range in[a] {
				if other, ok := in[b][k]; ok {
					t.Errorf("%q is in the %s half of %s and the %s half of %s", k, a, name, b, other)
				}
			}
		}
	}
}

// phraseChunks returns the literal runs of at least n bytes between the
// placeholders of the phrasing tables of half h.
func phraseChunks(h Half, n int) map[string]string {
	out := map[string]string{}
	add := func(table string, ts []string) {
		for _, tmpl := range ts {
			for _, part := range strings.FieldsFunc(tmpl, func(r rune) bool { return r == '{' || r == '}' }) {
				part = strings.TrimSpace(part)
				if len(part) >= n && !isKey(part) {
					out[part] = table
				}
			}
		}
	}
	for _, s := range []struct {
		name string
		t    *split[string]
	}{{"decision", decisionForms}, {"constraint", constraintForms}, {"plan", planForms}, {"task", taskForms}, {"ask", askForms},
		{"symptom", askIssues}, {"user path", userPathForms}, {"user command", userCommandForms}, {"user id", userIDForms},
		{"user error", userErrorForms}, {"prose command", proseCommandForms}, {"prose path", prosePathForms}, {"prose id", proseIDForms},
		{"close", closeForms}, {"thinking", thinkForms}} {
		add(s.name, s.t.of(h))
	}
	for _, st := range styles.of(h) {
		for _, ts := range [][]string{st.read, st.search, st.test, st.edit, st.other, st.pass, st.fail, st.done} {
			add("style "+st.name, ts)
		}
	}
	return out
}

// TestNoLeak: generated sessions of one half never hold a phrase that only
// another half's tables have.
func TestNoLeak(t *testing.T) {
	chunks := map[Half]map[string]string{}
	for _, h := range Halves {
		chunks[h] = phraseChunks(h, 14)
	}
	for _, s := range every(t, smallSteps) {
		own := chunks[s.Half]
		for _, other := range Halves {
			if other == s.Half {
				continue
			}
			for c, table := range chunks[other] {
				if _, mine := own[c]; mine {
					continue
				}
				if bytes.Contains(s.Data, []byte(c)) {
					t.Errorf("%s holds %q from the %s half's %s table", s.Name, c, other, table)
				}
			}
		}
	}
}

func TestCorpusCoverage(t *testing.T) {
	for _, h := range Halves {
		ss, err := Corpus(h, 1, 10, 10)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]map[string]bool{"harness": {}, "project": {}, "style": {}, "format": {}}
		for _, s := range ss {
			seen["harness"][s.Harness] = true
			seen["project"][s.Project] = true
			seen["style"][s.Style] = true
			seen["format"][s.Format] = true
		}
		if len(seen["harness"]) != len(harnesses.of(h)) || len(seen["project"]) != len(projects.of(h)) || len(seen["style"]) != len(styles.of(h)) {
			t.Errorf("%s: ten sessions cover %d harnesses, %d projects, %d styles", h, len(seen["harness"]), len(seen["project"]), len(seen["style"]))
		}
		if len(seen["format"]) < 5 {
			t.Errorf("%s: only formats %v", h, seen["format"])
		}
	}
}

func TestWriteFilesNames(t *testing.T) {
	s, err := Generate(Config{Half: Report, Seed: 3, Steps: 10})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	f, err := s.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{f.Session, f.Probes, f.Plants, f.Distractors} {
		if _, err := os.Stat(p); err != nil || filepath.Dir(p) != dir {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// halfDeterministic checks that a corpus of half h is the same for the
// same seed and differs from the corpora of the others for that seed.
func halfDeterministic(t *testing.T, h Half, others ...Half) {
	t.Helper()
	a, err := Corpus(h, 11, 4, smallSteps)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Corpus(h, 11, 4, smallSteps)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range others {
		r, err := Corpus(o, 11, 4, smallSteps)
		if err != nil {
			t.Fatal(err)
		}
		for i := range a {
			if bytes.Equal(a[i].Data, r[i].Data) {
				t.Errorf("%s: the same bytes as %s", a[i].Name, r[i].Name)
			}
		}
	}
	for i := range a {
		if !bytes.Equal(a[i].Data, b[i].Data) || fmt.Sprint(a[i].Plants) != fmt.Sprint(b[i].Plants) || fmt.Sprint(a[i].Distractors) != fmt.Sprint(b[i].Distractors) {
			t.Errorf("%s: two runs with seed 11 differ", a[i].Name)
		}
	}
}

// newText checks that no entry of half h repeats a long literal run (24
// bytes or more between placeholders) of an earlier half's entry of the
// same table, and that the user's decision phrasings of h are in no table
// and in none of the other halves' phrasings, and fill.
func newText(t *testing.T, h Half, earlier []Half, userDecisions []string, otherUsers ...[]string) {
	t.Helper()
	for _, tb := range Tables() {
		var others []string
		for _, e := range earlier {
			others = append(others, tb.entriesOf(e)...)
		}
		for _, k := range tb.entriesOf(h) {
			for _, part := range strings.FieldsFunc(k, func(r rune) bool { return r == '{' || r == '}' }) {
				if len(part) < 24 || isKey(part) {
					continue
				}
				for _, o := range others {
					if strings.Contains(o, part) {
						t.Errorf("%s: %s %q repeats %q of %q", tb.Name, h, k, part, o)
					}
				}
			}
		}
	}
	all := map[string]bool{}
	for _, tb := range Tables() {
		for _, e := range append(slices.Clone(earlier), h) {
			for _, k := range tb.entriesOf(e) {
				all[k] = true
			}
		}
	}
	for _, d := range userDecisions {
		if all[d] || slices.ContainsFunc(otherUsers, func(o []string) bool { return slices.Contains(o, d) }) {
			t.Errorf("user decision %q is in a table or in another half's", d)
		}
		if m := placeholder.FindString(fill(d, map[string]string{"x": "a", "y": "b", "c": "c", "why": "w"})); m != "" {
			t.Errorf("user decision %q leaves %s", d, m)
		}
	}
}

// entriesOf returns the keys of half h's entries in a table.
func (tb Table) entriesOf(h Half) []string {
	switch h {
	case Tune:
		return tb.Tune
	case Report:
		return tb.Report
	}
	return *tb.keysOf(h)
}
