package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// turn is one message of the session.
type turn struct {
	role  string // "user" or "assistant"
	text  string
	think string
	calls []call
}

// gen builds one session.
type gen struct {
	r     *rng
	half  Half
	p     *project
	l     *lang
	st    *style
	h     *harness
	ts    *toolset
	steps int
	// scale multiplies the size of tool outputs.
	scale float64

	root  string
	day   int
	tick  int
	files []string // routine source files
	// tfiles are routine test files; testTargets what test commands name.
	tfiles      []string
	testTargets []string
	content     map[string]string
	openFile    string // SWE-agent's open file

	usual       []failure
	routineErrs []string

	turns   []*turn
	stepN   int // tool steps so far
	k       int // the style's step counter
	userTx  []string
	pending string // a result to report at the start of the next step
	// pendingNew is a result found while building the current step's
	// acts; it becomes pending once the step is written.
	pendingNew string

	plants      []Plant
	plans       []string
	used        map[string]bool
	cmdCount    map[string]int
	pathCount   map[string]int
	altOrder    []alt
	decForms    []string
	conForms    []string
	rareFnNames map[string]bool
}

func newGen(h *harness, p *project, st *style, half Half, seed uint64, steps int) *gen {
	stream := h.name + "/" + p.name + "/" + st.name
	if half == Fresh || half == Blind || half == Sealed || half == Holdout || half == Reserve || half == Practice || half == Drill {
		// Fresh, blind, sealed, holdout, reserve, practice and drill
		// sessions share harnesses, projects and styles with the report
		// half; a stream of their own keeps them from following a report
		// session's draws.
		stream = string(half) + "/" + stream
	}
	g := &gen{r: newRNG(seed, stream), half: half, p: p, l: langs[p.lang], st: st, h: h, ts: toolsets[h.tools], steps: steps,
		content: map[string]string{}, used: map[string]bool{}, cmdCount: map[string]int{}, pathCount: map[string]int{}, rareFnNames: map[string]bool{}}
	g.root = h.root(p)
	// Sizes put a 250-step session between about 1.2 and 3.2 MB.
	g.scale = h.scale * 1.35
	if p.lang == "ops" {
		g.scale *= 1.25
	}
	g.day = 1 + g.r.intn(27)
	g.altOrder = slices.Clone(p.alts)
	shuffle(g.r, g.altOrder)
	g.decForms = slices.Clone(decisionForms.of(half))
	shuffle(g.r, g.decForms)
	g.conForms = slices.Clone(constraintForms.of(half))
	shuffle(g.r, g.conForms)
	g.setupFiles()
	return g
}

// setupFiles draws the routine files: two or three per directory, and
// tests.
func (g *gen) setupFiles() {
	seen := map[string]bool{}
	for _, d := range g.p.dirs {
		for i := 0; i < 2+g.r.intn(2); i++ {
			f := g.l.srcFile(d, g.words(1+g.r.intn(2)))
			if !seen[f] {
				seen[f] = true
				g.files = append(g.files, f)
			}
		}
	}
	tdirs := g.p.tests
	if len(tdirs) == 0 {
		tdirs = []string{""}
	}
	for i := 0; i < 6; i++ {
		d := pick(g.r, tdirs)
		src := pick(g.r, g.files)
		if d == "" {
			d = src[:max(strings.LastIndexByte(src, '/'), 0)]
		}
		f := g.l.testFile(d, strings.Split(strings.ToLower(stemOf(src)), "_"))
		if g.l.name == "java" {
			f = g.l.testFile(d, []string{stemOf(src)})
		}
		if !seen[f] {
			seen[f] = true
			g.tfiles = append(g.tfiles, f)
		}
	}
	switch g.l.name {
	case "go":
		g.testTargets = slices.Clone(g.p.dirs[:len(g.p.dirs)-1])
	case "rust", "java", "ops":
		g.testTargets = slices.Clone(tdirs)
	default:
		for _, f := range g.tfiles {
			if !slices.Contains(g.testTargets, f) {
				g.testTargets = append(g.testTargets, f)
			}
		}
		g.testTargets = append(g.testTargets, tdirs...)
		g.testTargets = slices.DeleteFunc(g.testTargets, func(s string) bool { return s == "" })
	}
}

// say adds a sentence to the user message being built.
func (g *gen) say(s string) { g.userTx = append(g.userTx, s) }

// step appends one assistant tool step: text (may be empty), thinking
// drawn by the style, and the acts as the tool set renders them.
func (g *gen) step(text string, acts ...*act) {
	if g.pending != "" {
		text = strings.TrimSpace(g.pending + " " + text)
		g.pending = ""
	}
	t := &turn{role: "assistant", text: text}
	if g.h.thinking && g.r.chance(g.st.think) {
		t.think = fill(pick(g.r, thinkForms.of(g.half)), map[string]string{"path": pick(g.r, g.files), "thing": g.typName()})
	}
	if g.ts.text && len(acts) > 1 {
		acts = acts[:1]
	}
	for _, a := range acts {
		var c call
		if a.kind == actTool {
			c = g.toolCall(a)
		} else {
			c = g.ts.render(g, a)
		}
		c.id = g.h.callID(g)
		t.calls = append(t.calls, c)
		switch a.kind {
		case actRun:
			g.cmdCount[a.cmd]++
		case actRead, actEdit:
			g.pathCount[a.path]++
		}
	}
	g.turns = append(g.turns, t)
	g.stepN++
	g.pending, g.pendingNew = g.pendingNew, ""
}

// announce returns the style's announcement of an action of kind (read,
// search, test, edit, other).
func (g *gen) announce(kind string, vars map[string]string) string {
	var ts []string
	switch kind {
	case "read":
		ts = g.st.read
	case "search":
		ts = g.st.search
	case "test":
		ts = g.st.test
	case "edit":
		ts = g.st.edit
	default:
		ts = g.st.other
	}
	g.k++
	v := map[string]string{"k": fmt.Sprint(g.k)}
	for k, x := range vars {
		v[k] = x
	}
	return fill(pick(g.r, ts), v)
}

// result returns the style's report of a test run.
func (g *gen) result(fails int, test string) string {
	v := map[string]string{"n": fmt.Sprint(20 + g.r.intn(400)), "f": fmt.Sprint(fails), "test": test, "k": fmt.Sprint(g.k)}
	if fails == 0 || test == "" {
		return fill(pick(g.r, g.st.pass), v)
	}
	return fill(pick(g.r, g.st.fail), v)
}

// plan returns a plan that is not a decision, and records it as a
// distractor.
func (g *gen) plan() string {
	s := sentence(fill(pick(g.r, planForms.of(g.half)), map[string]string{
		"topic": strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "), "thing": g.typName(), "path": pick(g.r, g.files)}))
	g.plans = append(g.plans, s)
	return s
}

func (g *gen) decision() string {
	a := g.altOrder[0]
	g.altOrder = append(g.altOrder[1:], a)
	f := g.decForms[0]
	g.decForms = append(g.decForms[1:], f)
	return sentence(fill(f, map[string]string{"x": a.x, "y": a.y, "why": a.why, "c": pick(g.r, g.p.comps)}))
}

func (g *gen) constraint() string {
	f := g.conForms[0]
	g.conForms = append(g.conForms[1:], f)
	dir := pick(g.r, g.p.dirs)
	return sentence(fill(f, map[string]string{
		"pkgkind": g.l.pkgKind, "pkg": g.l.pkg(g.p, dir), "dir": dir + "/", "file": pick(g.r, g.files),
		"dep": pick(g.r, g.p.deps), "ver": pick(g.r, g.p.vers), "env": pick(g.r, g.p.envs), "api": pick(g.r, g.p.apis), "cmd": pick(g.r, g.p.cmds)}))
}

// uniq draws with f until the value is new to the session.
func (g *gen) uniq(f func(*gen) string) string {
	for i := 0; ; i++ {
		s := f(g)
		if !g.used[s] || i > 50 {
			g.used[s] = true
			return s
		}
	}
}

func (g *gen) rareError() string {
	ts := langTmpls(rareErrors, g.half, g.l.name)
	return g.uniq(func(g *gen) string { return fill(pick(g.r, ts), g.vars()) })
}

func (g *gen) rareCommand() string {
	ts := langTmpls(rareCommands, g.half, g.l.name)
	return g.uniq(func(g *gen) string { return fill(pick(g.r, ts), g.vars()) })
}

// rareID draws an identifier of shape: {ticket}-{n}, {hex7}, {uuid},
// {pod}, req_{b62} or {rarefn}.
func (g *gen) rareID(shape string) string {
	return g.uniq(func(g *gen) string {
		v := map[string]string{"ticket": g.p.ticket, "n": fmt.Sprint(1000 + g.r.intn(8999)), "hex7": g.r.hex(7), "uuid": g.r.uuid(),
			"b62": g.r.b62(20), "pod": fmt.Sprintf("%s-%s-%s-%s", pick(g.r, g.p.hosts), pick(g.r, []string{"canary", "backfill", "migrate", "replay"}), g.r.hex(9), g.r.alnum(5)),
			"rarefn": g.l.fn(append(g.words(2), pick(g.r, []string{"orphaned", "stale", "dangling", "shadow", "legacy", "pending"}), pick(g.r, []string{"holds", "leases", "slots", "tokens", "entries"}))...)}
		return fill(shape, v)
	})
}

// rarePath returns a file path that appears nowhere else in the session.
func (g *gen) rarePath(test bool) string {
	return g.uniq(func(g *gen) string {
		dir := pick(g.r, g.p.dirs)
		w := append(g.words(1), pick(g.r, []string{"window", "guard", "shim", "fallback", "audit", "compat", "budget", "ledger", "hook", "probe"}))
		if test && len(g.p.tests) > 0 && g.p.tests[0] != "" {
			return g.l.testFile(pick(g.r, g.p.tests), w)
		}
		if g.l.name == "java" {
			return g.l.srcFile(dir, []string{pascal(w...)})
		}
		p := g.l.srcFile(dir, w)
		if slices.Contains(g.files, p) {
			return g.l.srcFile(dir, append(w, "v2"))
		}
		return p
	})
}

func (g *gen) routinePath() string {
	p := pick(g.r, g.files)
	g.pathCount[p]++
	return p
}

// fileContent returns a routine file's text, drawn once.
func (g *gen) fileContent(path string) string {
	if c, ok := g.content[path]; ok {
		return c
	}
	c := g.l.source(g, path, int(float64(60+g.r.intn(260))*g.scale))
	g.content[path] = c
	return c
}

func (g *gen) readAct(path string, whole bool) *act {
	c := g.fileContent(path)
	a := &act{kind: actRead, path: path, content: c}
	n := lineCount(c)
	if !whole && n > 120 && g.r.chance(0.35) {
		a.from = 1 + g.r.intn(n-100)
		a.to = a.from + 60 + g.r.intn(100)
	}
	return a
}

// editAct changes one line of a file (a routine one when path is "").
// editableLine splits file content c into lines and picks one to edit at:
// a non-blank line found once in c (so that an edit's old text is
// unique), else the middle one.
func (g *gen) editableLine(c string) (lines []string, i int) {
	lines = strings.Split(strings.TrimRight(c, "\n"), "\n")
	i = len(lines) / 2
	for k := 0; k < 20; k++ {
		j := g.r.intn(len(lines))
		if strings.TrimSpace(lines[j]) != "" && strings.Count(c, lines[j]) == 1 {
			return lines, j
		}
	}
	return lines, i
}

func (g *gen) editAct(path string) *act {
	if path == "" {
		path = g.routinePath()
	}
	c := g.fileContent(path)
	lines, i := g.editableLine(c)
	old := lines[i]
	indent := old[:len(old)-len(strings.TrimLeft(old, " \t"))]
	nw := old + "\n" + indent + g.editLine()
	lines[i] = nw
	c2 := strings.Join(lines, "\n") + "\n"
	g.content[path] = c2
	return &act{kind: actEdit, path: path, old: old, new: nw, content: c2, line: i + 1}
}

// editLine is a line an edit adds.
func (g *gen) editLine() string {
	v := g.varName()
	switch g.l.name {
	case "go":
		return fmt.Sprintf("if %s == nil { return false, errors.New(%q) }", v, g.routineError())
	case "python":
		return fmt.Sprintf("if %s is None:  # %s", v, pick(g.r, g.p.verbs))
	case "ts":
		return fmt.Sprintf("if (%s === undefined) return false; // %s", v, pick(g.r, g.p.verbs))
	case "rust":
		return fmt.Sprintf("let %s = %s.checked_sub(1).ok_or(Error::Underflow)?;", v, v)
	case "java":
		return fmt.Sprintf("Objects.requireNonNull(%s, %q);", v, v)
	}
	return fmt.Sprintf("%s=\"${%s:-%d}\"", strings.ToUpper(v), strings.ToUpper(v), g.r.intn(100))
}

func (g *gen) searchAct() *act {
	pat := g.fnName()
	if g.r.chance(0.3) {
		pat = pick(g.r, g.p.types)
	}
	n := int(float64(8+g.r.intn(110)) * g.scale)
	a := &act{kind: actSearch, pattern: pat, dir: pick(g.r, append([]string{""}, g.p.dirs...))}
	for i := 0; i < n; i++ {
		f := pick(g.r, append(g.files, g.tfiles...))
		a.hits = append(a.hits, hit{path: f, line: 5 + g.r.intn(400), text: g.codeLineWith(pat)})
	}
	slices.SortStableFunc(a.hits, func(x, y hit) int { return strings.Compare(x.path, y.path) })
	return a
}

func (g *gen) codeLineWith(pat string) string {
	v := g.varName()
	switch g.l.name {
	case "python", "ops":
		return fmt.Sprintf("        %s = %s(%s)", v, pat, g.varName())
	case "ts":
		return fmt.Sprintf("  const %s = await %s(%s);", v, pat, g.varName())
	case "rust":
		return fmt.Sprintf("        let %s = self.%s(&%s)?;", v, pat, g.varName())
	case "java":
		return fmt.Sprintf("        var %s = %s.%s(%s);", v, g.varName(), pat, g.varName())
	}
	return fmt.Sprintf("\t%s, err := x.%s(ctx, %s)", v, pat, g.varName())
}

func (g *gen) listAct() *act {
	ext := lastDir(g.files[0])
	ext = ext[strings.LastIndexByte(ext, '.'):]
	a := &act{kind: actList, pattern: "**/*" + ext, dir: ""}
	a.paths = append(slices.Clone(g.files), g.tfiles...)
	for i := 0; i < int(float64(10+g.r.intn(60))*g.scale); i++ {
		a.paths = append(a.paths, g.l.srcFile(pick(g.r, g.p.dirs), g.words(1+g.r.intn(2))))
	}
	slices.Sort(a.paths)
	a.paths = slices.Compact(a.paths)
	return a
}

// testAct runs the tests of target (a random one when ""), with fails
// failures and inject printed in the middle.
func (g *gen) testAct(fails int, target string, inject []string) *act {
	if target == "" {
		target = pick(g.r, g.testTargets)
	}
	out, exit := g.runTests(testRun{target: target, total: int(float64(20+g.r.intn(160)) * g.scale), fails: fails, inject: inject})
	a := &act{kind: actRun, cmd: g.testCmd(target), out: out, exit: exit}
	if fails > 0 && g.r.chance(g.st.narrate) {
		g.pendingNew = g.result0(fails)
	}
	return a
}

func (g *gen) result0(fails int) string {
	name := ""
	if len(g.usual) > 0 {
		name = g.usual[len(g.usual)-1].name
	}
	return g.result(fails, name)
}

func (g *gen) testCrashAct(head string, frames []string) *act {
	target := pick(g.r, g.testTargets)
	out, exit := g.runTests(testRun{target: target, total: int(float64(20+g.r.intn(120)) * g.scale), fails: 1, crash: g.l.crash(g, head, frames)})
	return &act{kind: actRun, cmd: g.testCmd(target), out: out, exit: max(exit, 1)}
}

// frames returns n stack frames in routine files.
func (g *gen) frames(n int) []string {
	var out []string
	for i := 0; i < n; i++ {
		out = append(out, g.l.frame(g, pick(g.r, g.files), g.fnName(), 10+g.r.intn(400)))
	}
	return out
}

func (g *gen) compileMsg() string {
	return fmt.Sprintf(pick(g.r, g.l.compileMsgs), g.fnName())
}

// buildAct runs the build with routine diagnostics and extra in the middle.
func (g *gen) buildAct(extra string) *act {
	var parts []string
	for i := 0; i < 2+g.r.intn(8); i++ {
		parts = append(parts, strings.TrimRight(g.l.compileErr(g, pick(g.r, g.files), 10+g.r.intn(400), g.compileMsg()), "\n"))
	}
	out := insertLines(g, parts, []string{strings.TrimRight(extra, "\n")})
	return &act{kind: actRun, cmd: g.l.build(g), out: out, exit: 1 + g.r.intn(2)}
}

// runAct runs a rare command, with output that fits it.
func (g *gen) runAct(cmd string) *act {
	if strings.Contains(cmd, "test") || strings.Contains(cmd, "pytest") || strings.Contains(cmd, "jest") || strings.Contains(cmd, "vitest") {
		out, exit := g.runTests(testRun{target: pick(g.r, g.testTargets), total: int(float64(5+g.r.intn(60)) * g.scale), fails: g.r.intn(2)})
		return &act{kind: actRun, cmd: cmd, out: out, exit: exit}
	}
	return &act{kind: actRun, cmd: cmd, out: g.logs(int(float64(10+g.r.intn(60)) * g.scale))}
}

// scriptAct is a long deploy or migration script run with line in the
// middle.
func (g *gen) scriptAct(line string) *act {
	var lines []string
	for i := 0; i < int(float64(40+g.r.intn(120))*g.scale); i++ {
		switch g.r.intn(4) {
		case 0:
			lines = append(lines, fmt.Sprintf("==> %s %s (%d/%d)", pick(g.r, g.p.verbs), pick(g.r, g.p.tables), i+1, 200))
		case 1:
			lines = append(lines, fmt.Sprintf("    applied %s in %dms", g.l.srcFile(pick(g.r, g.p.dirs), g.words(2)), 1+g.r.intn(900)))
		case 2:
			lines = append(lines, g.logLine("info", pick(g.r, routineLogMsgs)))
		default:
			lines = append(lines, fmt.Sprintf("    %s: ok", pick(g.r, g.p.hosts)))
		}
	}
	cmd := pick(g.r, []string{"./scripts/deploy.sh staging", "make migrate ENV=staging", "./bin/release --stage canary", "npm run migrate -- --env staging"})
	return &act{kind: actRun, cmd: cmd, out: insertLines(g, lines, []string{line}), exit: 1}
}

func (g *gen) logsCmd() string {
	h := pick(g.r, g.p.hosts)
	return pick(g.r, []string{
		fmt.Sprintf("kubectl logs deploy/%s --since=2h --tail=400", h),
		fmt.Sprintf("docker compose logs --no-color --tail=300 %s", h),
		fmt.Sprintf("journalctl -u %s --since '2 hours ago' --no-pager", h),
		fmt.Sprintf("tail -n 400 /var/log/%s/%s.log", g.p.name, h)})
}

func (g *gen) logsAct(inject ...string) *act {
	return &act{kind: actRun, cmd: g.logsCmd(), out: g.logs(int(float64(40+g.r.intn(160))*g.scale), inject...)}
}

func (g *gen) gitLogAct(sha string) *act {
	var lines []string
	for i := 0; i < 15+g.r.intn(30); i++ {
		lines = append(lines, fmt.Sprintf("%s %s %s in %s", g.r.hex(7), pick(g.r, []string{"Fix", "Refactor", "Add", "Remove", "Bump", "Revert"}), pick(g.r, g.p.nouns), lastDir(pick(g.r, g.p.dirs))))
	}
	out := insertLines(g, lines, []string{fmt.Sprintf("%s %s %s (#%d)", sha, title(pick(g.r, g.p.verbs)), pick(g.r, g.p.comps), 100+g.r.intn(900))})
	return &act{kind: actRun, cmd: pick(g.r, []string{"git log --oneline -40", "git log --oneline --since='3 weeks ago'", "git log --oneline -- " + pick(g.r, g.p.dirs)}), out: out}
}

func (g *gen) gitStatusAct(rare string) *act {
	var lines []string
	diffstat := g.r.chance(0.5)
	for i := 0; i < 12+g.r.intn(30); i++ {
		f := pick(g.r, append(g.files, g.tfiles...))
		if diffstat {
			lines = append(lines, fmt.Sprintf(" %-60s | %3d %s", f, 1+g.r.intn(80), strings.Repeat("+", 1+g.r.intn(20))+strings.Repeat("-", g.r.intn(10))))
		} else {
			lines = append(lines, fmt.Sprintf(" %s %s", pick(g.r, []string{"M", "M", "A", "D", "?"}), f))
		}
	}
	if diffstat {
		return &act{kind: actRun, cmd: "git diff --stat HEAD~3", out: insertLines(g, lines, []string{fmt.Sprintf(" %-60s | %3d %s", rare, 1+g.r.intn(80), strings.Repeat("+", 1+g.r.intn(20)))})}
	}
	return &act{kind: actRun, cmd: "git status --short", out: insertLines(g, lines, []string{" M " + rare})}
}

func (g *gen) podsAct(rare string) *act {
	lines := []string{"NAME                                          READY   STATUS             RESTARTS      AGE"}
	var body []string
	for i := 0; i < 10+g.r.intn(30); i++ {
		body = append(body, fmt.Sprintf("%-45s %d/1     %-18s %-13d %dd", fmt.Sprintf("%s-%s-%s", pick(g.r, g.p.hosts), g.r.hex(9), g.r.alnum(5)), 1, pick(g.r, []string{"Running", "Running", "Running", "CrashLoopBackOff", "Completed"}), g.r.intn(40), 1+g.r.intn(30)))
	}
	out := lines[0] + "\n" + insertLines(g, body, []string{fmt.Sprintf("%-45s 0/1     %-18s %-13d %dh", rare, "Error", 3+g.r.intn(9), 1+g.r.intn(20))})
	return &act{kind: actRun, cmd: "kubectl get pods -n " + g.p.name + " -o wide", out: out}
}

// queryAct prints a psql result of n rows (showing the first ones).
func (g *gen) queryAct(n int) *act {
	t := pick(g.r, g.p.tables)
	var b strings.Builder
	b.WriteString("  id   | tenant_id |  status  |          created_at\n-------+-----------+----------+-------------------------------\n")
	for i := 0; i < int(float64(20+g.r.intn(60))*g.scale); i++ {
		fmt.Fprintf(&b, " %5d | %9d | %-8s | 2026-03-%02d %02d:%02d:%02d.%06d+00\n", 1000+g.r.intn(90000), 1+g.r.intn(300), pick(g.r, []string{"open", "closed", "pending", "failed"}), 1+g.r.intn(28), g.r.intn(24), g.r.intn(60), g.r.intn(60), g.r.intn(1000000))
	}
	fmt.Fprintf(&b, "(%d rows)\n", n)
	return &act{kind: actRun, cmd: fmt.Sprintf("psql \"$DATABASE_URL\" -c \"SELECT id, tenant_id, status, created_at FROM %s WHERE status <> 'closed' ORDER BY created_at\"", t), out: b.String()}
}

func (g *gen) explainAct(v string) *act {
	t := pick(g.r, g.p.tables)
	out := fmt.Sprintf(`                                                              QUERY PLAN
-----------------------------------------------------------------------------------------------------------------------------------
 Sort  (cost=%d.%02d..%d.%02d rows=%d width=72) (actual time=%d.%03d..%d.%03d rows=%d loops=1)
   Sort Key: created_at DESC
   Sort Method: external merge  Disk: %dkB
   ->  Seq Scan on %s  (cost=0.00..%d.00 rows=%d width=72) (actual time=0.%03d..%d.%03d rows=%d loops=1)
         Filter: ((tenant_id = %d) AND (status = ANY ('{open,pending}'::text[])))
         Rows Removed by Filter: %d
 Planning Time: 0.%03d ms
 Execution Time: %s
(9 rows)
`, 9000+g.r.intn(90000), g.r.intn(100), 9000+g.r.intn(90000), g.r.intn(100), 100+g.r.intn(9000), 100+g.r.intn(900), g.r.intn(1000), 1000+g.r.intn(9000), g.r.intn(1000), 100+g.r.intn(90000),
		1000+g.r.intn(90000), t, 9000+g.r.intn(90000), 100+g.r.intn(90000), g.r.intn(1000), 100+g.r.intn(9000), g.r.intn(1000), 100+g.r.intn(90000), 1+g.r.intn(400), 10000+g.r.intn(900000), g.r.intn(1000), v)
	return &act{kind: actRun, cmd: fmt.Sprintf("psql \"$DATABASE_URL\" -c \"EXPLAIN ANALYZE SELECT * FROM %s WHERE tenant_id = %d AND status IN ('open','pending') ORDER BY created_at DESC\"", t, 1+g.r.intn(400)), out: out}
}

func (g *gen) loadTestAct(v string) *act {
	out := fmt.Sprintf(`
          /\      |‾‾| /‾‾/   /‾‾/
     /\  /  \     |  |/  /   /  /
    /  \/    \    |     (   /   ‾‾\
   /          \   |  |\  \ |  (‾)  |
  / __________ \  |__| \__\ \_____/ .io

  execution: local
     script: loadtest/%s.js
     output: -

  scenarios: (100.00%%) 1 scenario, %d max VUs, 2m30s max duration (incl. graceful stop):
           * default: %d looping VUs for 2m0s (gracefulStop: 30s)

     checks.........................: %d.%02d%% ✓ %d       ✗ %d
     data_received..................: %d MB  %d kB/s
     data_sent......................: %d MB  %d kB/s
     http_req_blocked...............: avg=%dµs   min=1µs     med=4µs     max=%dms   p(90)=6µs     p(95)=8µs
     http_req_duration..............: avg=%d.%02dms min=%d.%02dms med=%d.%02dms max=%d.%02ds p(90)=%d.%02dms %s
     http_req_failed................: %d.%02d%%  ✓ %d      ✗ %d
     http_reqs......................: %d  %d.%06d/s
     iteration_duration.............: avg=%d.%02dms min=%d.%02dms med=%d.%02dms max=%d.%02ds
     vus............................: %d     min=%d      max=%d
`, pick(g.r, g.p.nouns), 50+g.r.intn(200), 50+g.r.intn(200), 90+g.r.intn(10), g.r.intn(100), 10000+g.r.intn(90000), g.r.intn(900), 10+g.r.intn(900), 100+g.r.intn(900), 1+g.r.intn(90), 10+g.r.intn(900),
		10+g.r.intn(90), 10+g.r.intn(900), 10+g.r.intn(90), g.r.intn(100), 1, g.r.intn(100), 10+g.r.intn(90), g.r.intn(100), 1+g.r.intn(9), g.r.intn(100), 50+g.r.intn(300), g.r.intn(100), v,
		g.r.intn(5), g.r.intn(100), g.r.intn(900), 10000+g.r.intn(90000), 10000+g.r.intn(90000), 100+g.r.intn(900), g.r.intn(1000000), 10+g.r.intn(90), g.r.intn(100), 1, g.r.intn(100), 10+g.r.intn(90), g.r.intn(100), 1+g.r.intn(9), g.r.intn(100), 50+g.r.intn(200), 1, 50+g.r.intn(200))
	return &act{kind: actRun, cmd: fmt.Sprintf("k6 run loadtest/%s.js --vus 100 --duration 2m", pick(g.r, g.p.nouns)), out: out}
}

func (g *gen) backfillAct(v string) *act {
	var lines []string
	for i := 0; i < int(float64(20+g.r.intn(60))*g.scale); i++ {
		lines = append(lines, fmt.Sprintf("Query OK, %d rows affected (%d.%02d sec)\nRows matched: %d  Changed: %d  Warnings: 0", g.r.intn(5000), g.r.intn(3), g.r.intn(100), g.r.intn(5000), g.r.intn(5000)))
	}
	out := insertLines(g, lines, []string{fmt.Sprintf("Query OK, %s (%d.%02d sec)", v, 1+g.r.intn(90), g.r.intn(100))})
	return &act{kind: actRun, cmd: fmt.Sprintf("mysql -h %s app < sql/backfill_%s.sql", pick(g.r, g.p.hosts), pick(g.r, g.p.tables)), out: out}
}

// ciLogAct prints a failed CI job's log, GitHub Actions style, with cmd as
// one of its steps.
func (g *gen) ciLogAct(cmd string) *act {
	job := pick(g.r, []string{"test", "lint", "integration", "build"})
	var lines []string
	ts := func() string {
		h, m, s, ms := g.clock()
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%03d%04dZ", g.day, h, m, s, ms, g.r.intn(10000))
	}
	for i := 0; i < int(float64(40+g.r.intn(120))*g.scale); i++ {
		var l string
		switch g.r.intn(4) {
		case 0:
			l = "##[group]Run " + pick(g.r, append(slices.Clone(g.p.cmds), g.testCmd(pick(g.r, g.testTargets))))
		case 1:
			l = g.logLine("info", pick(g.r, routineLogMsgs))
		default:
			l = fmt.Sprintf("%s %s", pick(g.r, []string{"ok", "PASS", "done", "cache hit"}), pick(g.r, g.files))
		}
		lines = append(lines, fmt.Sprintf("%s\t%s\t%s %s", job, "Run tests", ts(), l))
	}
	out := insertLines(g, lines, []string{fmt.Sprintf("%s\t%s\t%s ##[group]Run %s", job, "Run tests", ts(), cmd)})
	out += fmt.Sprintf("%s\tRun tests\t%s ##[error]Process completed with exit code 1.\n", job, ts())
	return &act{kind: actRun, cmd: fmt.Sprintf("gh run view %d --log-failed", 8000000000+g.r.intn(999999999)), out: out, exit: 0}
}

func (g *gen) benchCmd() string {
	d := pick(g.r, g.p.dirs)
	switch g.l.name {
	case "go":
		return fmt.Sprintf("go test -run '^$' -bench . -benchmem ./%s/", d)
	case "python":
		return fmt.Sprintf("python -m cProfile -s cumulative -m %s.%s", strings.TrimPrefix(g.p.module, "@"), lastDir(d))
	case "ts":
		return fmt.Sprintf("npx autocannon -c 100 -d 30 http://localhost:3000/%s", pick(g.r, g.p.nouns))
	case "rust":
		return "cargo bench -p " + crateOf(d)
	case "java":
		return "java -jar target/benchmarks.jar -f 1 -wi 5 -i 5"
	}
	if isPostgres(g.p) {
		return fmt.Sprintf("psql -c \"EXPLAIN ANALYZE SELECT * FROM %s WHERE status = 'open'\"", pick(g.r, g.p.tables))
	}
	return fmt.Sprintf("mysql -e \"EXPLAIN SELECT * FROM %s WHERE status = 'open'\"", pick(g.r, g.p.tables))
}

// routine emits one ordinary step.
func (g *gen) routine() {
	narrate := g.r.chance(g.st.narrate) || g.ts.text
	text := func(kind string, vars map[string]string) string {
		if !narrate {
			return ""
		}
		if g.r.chance(0.12) {
			return g.plan()
		}
		return g.announce(kind, vars)
	}
	x := g.r.intn(100)
	switch {
	case x < 26:
		p := g.routinePath()
		acts := []*act{g.readAct(p, false)}
		if g.h.parallel && g.r.chance(0.2) {
			acts = append(acts, g.readAct(g.routinePath(), false))
		}
		g.step(text("read", map[string]string{"path": p}), acts...)
	case x < 39:
		a := g.searchAct()
		acts := []*act{a}
		if g.h.parallel && g.r.chance(0.15) {
			acts = append(acts, g.searchAct())
		}
		g.step(text("search", map[string]string{"pattern": a.pattern}), acts...)
	case x < 44:
		a := g.listAct()
		g.step(text("other", map[string]string{"what": "the file layout"}), a)
	case x < 60:
		target := pick(g.r, g.testTargets)
		fails := 0
		if g.r.chance(0.55) {
			fails = 1 + g.r.intn(3)
		}
		g.step(text("test", map[string]string{"target": g.testCmd(target)}), g.testAct(fails, target, nil))
	case x < 70:
		a := g.editAct("")
		g.step(text("edit", map[string]string{"path": a.path}), a)
	case x < 76:
		if g.r.chance(0.35) {
			g.step(text("other", map[string]string{"what": "the build"}), g.buildAct(g.l.compileErr(g, g.routinePath(), 10+g.r.intn(400), g.compileMsg())))
		} else {
			g.step(text("other", map[string]string{"what": "the build"}), &act{kind: actRun, cmd: g.l.build(g), out: g.l.buildOK(g)})
		}
	case x < 82:
		var a *act
		switch g.r.intn(3) {
		case 0:
			a = g.gitStatusAct(pick(g.r, g.files))
		case 1:
			a = g.gitLogAct(g.r.hex(7))
		default:
			a = &act{kind: actRun, cmd: "git diff " + g.routinePath(), out: g.diffText()}
		}
		g.step(text("other", map[string]string{"what": "the working tree"}), a)
	case x < 88:
		g.step(text("other", map[string]string{"what": "the logs"}), g.logsAct())
	case x < 92:
		g.step(text("other", map[string]string{"what": "the data"}), g.queryAct(10+g.r.intn(900)))
	case x < 95:
		g.step(text("other", map[string]string{"what": "performance"}), &act{kind: actRun, cmd: g.benchCmd(), out: g.l.bench(g, g.l.benchValue(g))})
	default:
		p := g.routinePath()
		g.step(text("read", map[string]string{"path": p}), &act{kind: actRun, cmd: "cat " + p, out: g.fileContent(p)})
	}
}

func (g *gen) diffText() string {
	var b strings.Builder
	p := pick(g.r, g.files)
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex %s..%s 100644\n--- a/%s\n+++ b/%s\n", p, p, g.r.hex(7), g.r.hex(7), p, p)
	c := g.fileContent(p)
	lines := strings.Split(c, "\n")
	at := g.r.intn(max(len(lines)-12, 1))
	fmt.Fprintf(&b, "@@ -%d,9 +%d,10 @@\n", at+1, at+1)
	for i := at; i < min(at+9, len(lines)); i++ {
		if i == at+4 {
			b.WriteString("-" + lines[i] + "\n+" + lines[i] + " // " + pick(g.r, g.p.verbs) + "\n")
			continue
		}
		b.WriteString(" " + lines[i] + "\n")
	}
	return b.String()
}
