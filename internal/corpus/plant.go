package corpus

import (
	"fmt"
	"strconv"
	"strings"
)

// Categories are the probe categories, in report order.
var Categories = []string{"path", "command", "error", "identifier", "measurement", "decision", "constraint"}

// baseCounts are the probes per category in a 250-step session.
var baseCounts = map[string]int{"path": 10, "command": 8, "error": 10, "identifier": 10, "measurement": 8, "decision": 10, "constraint": 8}

// Sites say where a form puts its probe.
const (
	siteTask      = "task"        // the first user message
	siteUser      = "user"        // a later user message
	siteAssistant = "assistant"   // assistant text
	siteInput     = "tool-input"  // a tool call's input
	siteOutput    = "tool-output" // a tool's result
)

// form plants one probe. A form of site task or user appends its sentence
// to the user message being built and returns the probe; any other form
// emits exactly one tool step.
type form struct {
	name string
	cat  string
	site string
	run  func(g *gen) string
}

func formKey(f *form) string { return f.name }

var forms = newSplit("probe forms", []*form{
	// paths
	{"read-tool-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("read", map[string]string{"path": p}), g.readAct(p, true))
		return p
	}},
	{"compiler-error-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the build"}), g.buildAct(g.l.compileErr(g, p, 10+g.r.intn(300), g.compileMsg())))
		return p
	}},
	{"prose-path", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	{"write-tool-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(true)
		g.step(g.announce("edit", map[string]string{"path": p}), &act{kind: actWrite, path: p, content: g.l.source(g, p, 20+g.r.intn(40))})
		return p
	}},
	{"user-path-aside", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	// commands
	{"shell-tool-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "a narrower reproduction"}), g.runAct(c))
		return c
	}},
	{"xtrace-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		var lines []string
		for i := 0; i < 30+g.r.intn(60); i++ {
			lines = append(lines, fmt.Sprintf("+ %s", pick(g.r, []string{"cd " + g.root, "export CI=1", "echo '--- " + pick(g.r, g.p.verbs) + "'", g.testCmd(pick(g.r, g.testTargets)), "test -f " + pick(g.r, g.files)})))
			if g.r.chance(0.5) {
				lines = append(lines, g.logLine("info", pick(g.r, routineLogMsgs)))
			}
		}
		out := insertLines(g, lines, []string{"+ " + c})
		g.step(g.announce("other", map[string]string{"what": "what the CI script runs"}), &act{kind: actRun, cmd: "bash -x ./scripts/ci.sh", out: out, exit: 1})
		return c
	}},
	{"user-repro-command", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	// errors
	{"test-output-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		line := g.logLine("error", e)
		g.step(g.announce("test", map[string]string{"target": "the tests"}), g.testAct(1+g.r.intn(2), "", []string{line}))
		return asLogged(line, e)
	}},
	{"lower-prefix-error", "error", siteOutput, func(g *gen) string {
		line := "error: " + g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the deploy script"}), g.scriptAct(line))
		return line
	}},
	{"json-log-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		line := g.logLine("error", e, pick(g.r, g.p.nouns), fmt.Sprint(g.r.intn(900)))
		g.step(g.announce("other", map[string]string{"what": "the service logs"}), g.logsAct(line))
		return asLogged(line, e)
	}},
	{"user-prod-error", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	// identifiers
	{"ticket-log-field", "identifier", siteOutput, func(g *gen) string {
		id := g.rareID("{ticket}-{n}")
		g.step(g.announce("other", map[string]string{"what": "recent warnings"}), g.logsAct(g.logLine("warn", "retrying "+pick(g.r, g.p.nouns), "ticket", id, "attempt", fmt.Sprint(1+g.r.intn(5)))))
		return id
	}},
	{"commit-sha-git-log", "identifier", siteOutput, func(g *gen) string {
		id := g.rareID("{hex7}")
		g.step(g.announce("other", map[string]string{"what": "the recent history"}), g.gitLogAct(id))
		return id
	}},
	{"uuid-user", "identifier", siteUser, func(g *gen) string {
		id := g.rareID("{uuid}")
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"pod-name-listing", "identifier", siteOutput, func(g *gen) string {
		id := g.rareID("{pod}")
		g.step(g.announce("other", map[string]string{"what": "the pods"}), g.podsAct(id))
		return id
	}},
	// measurements
	{"bench-line", "measurement", siteOutput, func(g *gen) string {
		v := g.uniq(g.l.benchValue)
		g.step(g.announce("other", map[string]string{"what": "the benchmark"}), &act{kind: actRun, cmd: g.benchCmd(), out: g.l.bench(g, v)})
		return v
	}},
	{"psql-row-count", "measurement", siteOutput, func(g *gen) string {
		n := 1000 + g.r.intn(98000)
		v := fmt.Sprintf("%d rows", n)
		g.step(g.announce("other", map[string]string{"what": "how many rows are affected"}), g.queryAct(n))
		return v
	}},
	{"log-latency", "measurement", siteOutput, func(g *gen) string {
		v := g.uniq(func(g *gen) string { return fmt.Sprintf("%d.%dms", 200+g.r.intn(4800), g.r.intn(10)) })
		g.step(g.announce("other", map[string]string{"what": "slow requests in the logs"}), g.logsAct(g.logLine("warn", "slow "+pick(g.r, g.p.verbs), pick(g.r, g.p.nouns), fmt.Sprint(g.r.intn(900)), "took", v)))
		return v
	}},
	// decisions
	{"decision-alone", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(d, g.editAct(""))
		return d
	}},
	{"decision-after-result", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(g.result(0, "")+" "+d, g.editAct(""))
		return d
	}},
	// constraints
	{"constraint-task", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		g.say(c)
		return c
	}},
	{"constraint-follow-up", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say(c)
		return c
	}},
}, []*form{
	// paths
	{"edit-tool-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("edit", map[string]string{"path": p}), g.editAct(p))
		return p
	}},
	{"stack-frame-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		frames := g.frames(3 + g.r.intn(5))
		at := g.r.intn(len(frames))
		frames[at] = g.l.frame(g, p, g.fnName(), 10+g.r.intn(400))
		g.step(g.announce("test", map[string]string{"target": "the failing package"}), g.testCrashAct(g.crashHead(g.routineError()), frames))
		if !strings.Contains(frames[at], p) {
			return lastDir(p) // a Java frame names the file, not its path
		}
		return p
	}},
	{"git-status-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "what changed"}), g.gitStatusAct(p))
		return p
	}},
	{"grep-hit-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		a := g.searchAct()
		a.all = true
		a.hits[len(a.hits)/2] = hit{path: p, line: 10 + g.r.intn(300), text: "\t" + a.pattern + "(ctx)"}
		g.step(g.announce("search", map[string]string{"pattern": a.pattern}), a)
		return p
	}},
	{"user-path-suspect", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	// commands
	{"pipeline-tool-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the failure in isolation"}), g.runAct(c))
		return c
	}},
	{"ci-log-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the failed CI job"}), g.ciLogAct(c))
		return c
	}},
	{"prose-command-record", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	{"user-ci-command", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	// errors
	{"crash-trace-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("test", map[string]string{"target": "the suite"}), g.testCrashAct(g.crashHead(e), g.frames(4+g.r.intn(6))))
		return e
	}},
	{"upper-prefix-error", "error", siteOutput, func(g *gen) string {
		line := pick(g.r, []string{"Error: ", "ERROR: "}) + g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the migration output"}), g.scriptAct(line))
		return line
	}},
	{"timeout-log-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		line := g.logLine("warn", e, "attempt", fmt.Sprint(1+g.r.intn(6)))
		g.step(g.announce("other", map[string]string{"what": "the worker logs"}), g.logsAct(line))
		return asLogged(line, e)
	}},
	{"user-alert-error", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	// identifiers
	{"request-id-log", "identifier", siteOutput, func(g *gen) string {
		id := g.rareID(pick(g.r, []string{"req_{b62}", "{uuid}"}))
		g.step(g.announce("other", map[string]string{"what": "the request log"}), g.logsAct(g.logLine("error", g.routineError(), "request_id", id)))
		return id
	}},
	{"ticket-prose", "identifier", siteAssistant, func(g *gen) string {
		id := g.rareID("{ticket}-{n}")
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	{"rare-function-frame", "identifier", siteOutput, func(g *gen) string {
		id := g.rareID("{rarefn}")
		frames := g.frames(4 + g.r.intn(5))
		frames[g.r.intn(len(frames))] = g.l.frame(g, pick(g.r, g.files), id, 10+g.r.intn(400))
		g.step(g.announce("test", map[string]string{"target": "the integration tests"}), g.testCrashAct(g.crashHead(g.routineError()), frames))
		return id
	}},
	{"user-record-id", "identifier", siteUser, func(g *gen) string {
		id := g.rareID("{uuid}")
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	// measurements
	{"explain-analyze-time", "measurement", siteOutput, func(g *gen) string {
		v := g.uniq(func(g *gen) string { return fmt.Sprintf("%d.%03d ms", 100+g.r.intn(9000), g.r.intn(1000)) })
		g.step(g.announce("other", map[string]string{"what": "the query plan"}), g.explainAct(v))
		return v
	}},
	{"load-test-p95", "measurement", siteOutput, func(g *gen) string {
		v := g.uniq(func(g *gen) string { return fmt.Sprintf("p(95)=%d.%02dms", 100+g.r.intn(2000), g.r.intn(100)) })
		g.step(g.announce("other", map[string]string{"what": "the load test"}), g.loadTestAct(v))
		return v
	}},
	{"rows-affected", "measurement", siteOutput, func(g *gen) string {
		v := g.uniq(func(g *gen) string { return fmt.Sprintf("%d rows affected", 1000+g.r.intn(400000)) })
		g.step(g.announce("other", map[string]string{"what": "the backfill"}), g.backfillAct(v))
		return v
	}},
	// decisions
	{"decision-mid-paragraph", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		p := g.routinePath()
		g.step(g.announce("edit", map[string]string{"path": p})+"\n\n"+d+"\n\n"+g.result(0, ""), g.editAct(""))
		return d
	}},
	{"decision-before-plan", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(d+" "+g.plan(), g.editAct(""))
		return d
	}},
	// constraints
	{"constraint-task-rules", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		g.say("- " + c)
		return c
	}},
	{"constraint-aside", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say(c)
		return c
	}},
}, formKey)

// asLogged returns s as line holds it: verbatim, or escaped the way
// logfmt (Go quoting) or a JSON log escapes it.
func asLogged(line, s string) string {
	if strings.Contains(line, s) {
		return s
	}
	q := strconv.Quote(s)
	if q = q[1 : len(q)-1]; strings.Contains(line, q) {
		return q
	}
	if j := jstr(s); strings.Contains(line, j[1:len(j)-1]) {
		return j[1 : len(j)-1]
	}
	return s
}

// crashHead prints an error message as the language's crash does, the
// message verbatim.
func (g *gen) crashHead(msg string) string {
	switch g.l.name {
	case "go":
		if strings.HasPrefix(msg, "index out of range") || strings.HasPrefix(msg, "invalid memory") {
			return "panic: runtime error: " + msg + " [recovered]\n\tpanic: runtime error: " + msg
		}
		return "panic: " + msg
	case "python":
		if !strings.Contains(msg, "Error") && !strings.Contains(msg, "Exception") {
			return "RuntimeError: " + msg
		}
	case "ts":
		if !strings.Contains(strings.SplitN(msg, " ", 2)[0], "Error") {
			return "Error: " + msg
		}
	case "java":
		if !strings.HasPrefix(msg, "java.") && !strings.HasPrefix(msg, "org.") {
			return "java.lang.RuntimeException: " + msg
		}
		return "Exception in thread \"main\" " + msg
	}
	return msg
}
