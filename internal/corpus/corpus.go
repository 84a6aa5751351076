package corpus

import (
	"cmp"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Config says which session to generate. Only Half and Seed are needed.
type Config struct {
	Half Half
	Seed uint64
	// Steps is the number of tool steps; 0 draws one in [240, 260].
	Steps int
	// Harness, Project and Style pick by name within the half; "" draws
	// one from the seed.
	Harness string
	Project string
	Style   string
}

// Probe is one entry of a `condense eval --probes` file.
type Probe struct {
	Category string `json:"category"`
	Text     string `json:"text"`
}

// Plant is a probe with where it was planted.
type Plant struct {
	Category string `json:"category"`
	Text     string `json:"text"`
	// Form names the surface form that planted it.
	Form string `json:"form"`
	// Site: task, user, assistant, tool-input or tool-output.
	Site string `json:"site"`
	// Step is the number of tool steps before the probe (0 for the task).
	Step int `json:"step"`
	// Count is how often the text occurs in the session's messages.
	Count int `json:"count"`
}

// Session is one generated transcript with its probes.
type Session struct {
	Name    string
	Half    Half
	Seed    uint64
	Harness string
	// Format is the transcript format, as `condense --format` names it.
	Format    string
	Ext       string
	Model     string
	Tools     string
	Project   string
	Ecosystem string
	Style     string
	Steps     int
	Data      []byte
	Plants    []Plant
	// Distractors are routine specifics and plans that are not decisions,
	// in the probe format, to see whether compaction keeps routine over
	// rare: categories plan, routine-command, routine-path, routine-error.
	Distractors []Probe
}

// Probes returns the session's probes.
func (s *Session) Probes() []Probe {
	out := make([]Probe, len(s.Plants))
	for i, p := range s.Plants {
		out[i] = Probe{Category: p.Category, Text: p.Text}
	}
	return out
}

// Generate builds one session. The same Config gives the same bytes.
func Generate(cfg Config) (*Session, error) {
	if !validHalf(cfg.Half) {
		return nil, fmt.Errorf("corpus: unknown half %q", cfg.Half)
	}
	r := newRNG(cfg.Seed, "choose/"+string(cfg.Half))
	h, err := byName(harnesses.of(cfg.Half), cfg.Harness, hKey, r)
	if err != nil {
		return nil, err
	}
	p, err := byName(projects.of(cfg.Half), cfg.Project, func(p *project) string { return p.name }, r)
	if err != nil {
		return nil, err
	}
	st, err := byName(styles.of(cfg.Half), cfg.Style, func(s *style) string { return s.name }, r)
	if err != nil {
		return nil, err
	}
	steps := cfg.Steps
	if steps <= 0 {
		steps = r.between(240, 260)
	}
	if steps < 8 {
		return nil, fmt.Errorf("corpus: %d steps is too few (want at least 8)", steps)
	}
	g := newGen(h, p, st, cfg.Half, cfg.Seed, steps)
	g.run()
	data, err := h.write(g)
	if err != nil {
		return nil, err
	}
	s := &Session{Half: cfg.Half, Seed: cfg.Seed, Harness: h.name, Format: h.format, Ext: h.ext, Model: h.model, Tools: h.tools,
		Project: p.name, Ecosystem: p.lang, Style: st.name, Steps: g.stepN, Data: data}
	s.Name = fmt.Sprintf("%s-s%d-%s-%s", cfg.Half, cfg.Seed, p.name, h.name)
	text := g.visibleText()
	for _, pl := range g.plants {
		pl.Count = strings.Count(text, pl.Text)
		if pl.Count == 0 {
			return nil, fmt.Errorf("corpus: %s: probe %q (%s) is not in the session", s.Name, pl.Text, pl.Form)
		}
		s.Plants = append(s.Plants, pl)
	}
	s.Distractors = g.distractors(text)
	return s, nil
}

func byName[T any](xs []T, name string, key func(T) string, r *rng) (T, error) {
	if name == "" {
		return pick(r, xs), nil
	}
	var names []string
	for _, x := range xs {
		if key(x) == name {
			return x, nil
		}
		names = append(names, key(x))
	}
	var zero T
	return zero, fmt.Errorf("corpus: %q is not in this half (have %s)", name, strings.Join(names, ", "))
}

// Corpus generates n sessions of half h from seed: session i uses seed+i
// and the half's harnesses, projects and styles in turn, so that ten
// sessions cover all six harnesses, all six projects and all four styles.
func Corpus(h Half, seed uint64, n, steps int) ([]*Session, error) {
	hs, ps, ss := harnesses.of(h), projects.of(h), styles.of(h)
	r := newRNG(seed, "corpus/"+string(h))
	hi, pi, si := r.intn(len(hs)), r.intn(len(ps)), r.intn(len(ss))
	var out []*Session
	for i := 0; i < n; i++ {
		s, err := Generate(Config{Half: h, Seed: seed + uint64(i), Steps: steps,
			Harness: hs[(hi+i)%len(hs)].name,
			Project: ps[(pi+i+i/len(ps))%len(ps)].name,
			Style:   ss[(si+i)%len(ss)].name})
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// Files names what WriteFiles writes for a session.
type Files struct {
	Session, Probes, Plants, Distractors string
}

// WriteFiles writes the session and its probe files into dir:
// NAME+Ext, NAME.probes.json (for `condense eval --probes`),
// NAME.plants.json (the probes with their forms, sites and steps) and
// NAME.distractors.json (routine specifics, in the probe format).
func (s *Session) WriteFiles(dir string) (Files, error) {
	f := Files{
		Session:     filepath.Join(dir, s.Name+s.Ext),
		Probes:      filepath.Join(dir, s.Name+".probes.json"),
		Plants:      filepath.Join(dir, s.Name+".plants.json"),
		Distractors: filepath.Join(dir, s.Name+".distractors.json"),
	}
	if err := os.WriteFile(f.Session, s.Data, 0o644); err != nil {
		return f, err
	}
	for _, w := range []struct {
		path string
		v    any
	}{{f.Probes, s.Probes()}, {f.Plants, s.Plants}, {f.Distractors, s.Distractors}} {
		raw, err := indent(w.v, "  ")
		if err != nil {
			return f, err
		}
		if err := os.WriteFile(w.path, raw, 0o644); err != nil {
			return f, err
		}
	}
	return f, nil
}

// run builds the whole session.
func (g *gen) run() {
	n := g.steps
	// User turns between steps.
	nu := max(2, n/35)
	userAt := make([]int, nu)
	for i := range userAt {
		at := (i+1)*n/(nu+1) + g.r.intn(5) - 2
		if i > 0 {
			at = max(at, userAt[i-1]+1)
		}
		userAt[i] = min(max(at, 1), n-2)
	}
	userForms := make([][]*form, nu)
	var taskForms []*form
	tool := map[int]*form{}
	byCat := map[string][]*form{}
	for _, f := range forms.of(g.half) {
		byCat[f.cat] = append(byCat[f.cat], f)
	}
	var toolJobs []*form
	ui := g.r.intn(nu)
	for _, cat := range Categories {
		k := max(1, int(math.Round(float64(baseCounts[cat])*float64(n)/250)))
		fs := slices.Clone(byCat[cat])
		shuffle(g.r, fs)
		if cat == "constraint" {
			slices.SortStableFunc(fs, func(a, b *form) int { return cmp.Compare(a.site, b.site) }) // task before user
			taskN := min(2, k/3)
			for i := 0; i < k; i++ {
				if i < taskN {
					taskForms = append(taskForms, fs[0])
				} else {
					userForms[ui%nu] = append(userForms[ui%nu], fs[len(fs)-1])
					ui++
				}
			}
			continue
		}
		for i := 0; i < k; i++ {
			f := fs[i%len(fs)]
			if f.site == siteUser {
				userForms[ui%nu] = append(userForms[ui%nu], f)
				ui++
				continue
			}
			toolJobs = append(toolJobs, f)
		}
	}
	shuffle(g.r, toolJobs)
	lo, hi := 2, max(n-6, 3)
	for _, f := range toolJobs {
		at := lo + g.r.intn(hi-lo)
		for k := 0; k < n && tool[at] != nil; k++ {
			at = lo + (at-lo+1)%(hi-lo)
		}
		if tool[at] == nil {
			tool[at] = f
		}
	}

	g.task(taskForms)
	u := 0
	for s := 0; s < n; s++ {
		for u < nu && userAt[u] == s {
			g.userTurn(userForms[u])
			u++
		}
		if f := tool[s]; f != nil {
			before := g.stepN
			text := f.run(g)
			if g.stepN != before+1 {
				panic(fmt.Sprintf("corpus: form %s emitted %d steps", f.name, g.stepN-before))
			}
			g.plants = append(g.plants, Plant{Category: f.cat, Text: text, Form: f.name, Site: f.site, Step: before})
			continue
		}
		if s == n-1 && (g.ts.name == "swe-agent" || g.ts.name == "swe-agent-fc" || g.ts.name == "mini-swe-agent") {
			g.step(g.announce("other", map[string]string{"what": "the final diff"}), &act{kind: actSubmit})
			continue
		}
		g.routine()
	}
	g.turns = append(g.turns, &turn{role: "assistant", text: pick(g.r, g.st.done) + "\n" +
		fill(pick(g.r, closeForms.of(g.half)), map[string]string{"comp": pick(g.r, g.p.comps), "n": fmt.Sprint(100 + g.r.intn(900))})})
}

func (g *gen) task(fs []*form) {
	g.userTx = nil
	text := fill(pick(g.r, taskForms.of(g.half)), map[string]string{"proj": title(g.p.name), "issue": pick(g.r, g.p.issues)})
	for _, f := range fs {
		p := f.run(g)
		g.plants = append(g.plants, Plant{Category: f.cat, Text: p, Form: f.name, Site: f.site})
	}
	if len(g.userTx) > 0 {
		sep := " "
		if strings.HasPrefix(g.userTx[0], "- ") {
			sep = "\n"
			text += "\n"
		}
		text += sep + strings.Join(g.userTx, sep)
	}
	g.turns = append(g.turns, &turn{role: "user", text: g.h.wrap(g, text)})
}

func (g *gen) userTurn(fs []*form) {
	g.userTx = nil
	comp := pick(g.r, g.p.comps)
	text := fill(pick(g.r, askForms.of(g.half)), map[string]string{"comp": comp, "issue": pick(g.r, askIssues.of(g.half))})
	for _, f := range fs {
		p := f.run(g)
		g.plants = append(g.plants, Plant{Category: f.cat, Text: p, Form: f.name, Site: f.site, Step: g.stepN})
	}
	if len(g.userTx) > 0 {
		text += " " + strings.Join(g.userTx, " ")
	}
	g.turns = append(g.turns, &turn{role: "user", text: text})
}

// visibleText is what the session's messages hold for a reader: texts,
// the strings of tool inputs (or a text action) and tool outputs.
// Thinking is left out, as condense eval leaves it out.
func (g *gen) visibleText() string {
	var b strings.Builder
	for _, t := range g.turns {
		b.WriteString(t.text)
		b.WriteByte('\n')
		for _, c := range t.calls {
			if g.ts.text {
				b.WriteString(c.action)
			} else {
				walk(c.input, func(s string) { b.WriteString(s); b.WriteByte('\n') })
			}
			b.WriteByte('\n')
			b.WriteString(c.out)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func walk(v any, f func(string)) {
	switch x := v.(type) {
	case string:
		f(x)
	case []string:
		for _, s := range x {
			f(s)
		}
	case obj:
		for _, m := range x {
			walk(m.v, f)
		}
	case []obj:
		for _, o := range x {
			walk(o, f)
		}
	}
}

// distractors returns the routine specifics: plans that are not decisions,
// the most repeated commands and paths, and the errors seen run after run.
func (g *gen) distractors(text string) []Probe {
	var out []Probe
	seen := map[string]bool{}
	add := func(cat, s string) {
		if s != "" && !seen[s] && strings.Contains(text, s) {
			seen[s] = true
			out = append(out, Probe{Category: cat, Text: s})
		}
	}
	for _, p := range g.plans {
		add("plan", p)
	}
	top := func(m map[string]int, cat string) {
		type kc struct {
			k string
			c int
		}
		var xs []kc
		for k, c := range m {
			xs = append(xs, kc{k, c})
		}
		slices.SortFunc(xs, func(a, b kc) int {
			if a.c != b.c {
				return b.c - a.c
			}
			return strings.Compare(a.k, b.k)
		})
		for i := 0; i < len(xs) && i < 5; i++ {
			add(cat, xs[i].k)
		}
	}
	top(g.cmdCount, "routine-command")
	top(g.pathCount, "routine-path")
	for _, f := range g.usual {
		add("routine-error", strings.SplitN(f.msg, "\n", 2)[0])
	}
	for _, e := range g.routineErrs {
		add("routine-error", e)
	}
	return out
}
