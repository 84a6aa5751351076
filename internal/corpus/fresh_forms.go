package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// freshForms plant the fresh half's probes, in surfaces the tune and
// report forms do not use: compose logs, CI annotations and job logs,
// Kubernetes descriptions and events, Terraform error boxes, build tool
// failures, SQL clients, Sentry events, HTTP header dumps, API responses,
// rebases, load-test and benchmark summaries, `time`, to-do tools, diffs,
// linters, Makefiles and process lists; decisions and constraints as
// agents and users word them at length. Each returns its probe as the
// session holds it.
var freshForms = []*form{
	// paths
	{"service-trace-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		trace, probe := g.serviceTrace(p)
		g.step(g.announce("other", map[string]string{"what": "the crash in the service logs"}),
			&act{kind: actRun, cmd: g.logsCmd(), out: g.logs(int(float64(30+g.r.intn(120))*g.scale), trace)})
		return probe
	}},
	{"diff-header-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		var parts []string
		for i := 0; i < 1+g.r.intn(3); i++ {
			parts = append(parts, strings.TrimRight(g.diffText(), "\n"))
		}
		parts = slices.Insert(parts, g.r.intn(len(parts)+1), strings.TrimRight(g.fileDiff(p), "\n"))
		cmd, head := "git diff origin/main...HEAD", ""
		switch g.r.intn(3) {
		case 0:
			cmd = "git show HEAD"
			who := pick(g.r, [][2]string{{"Priya Raman", "priya"}, {"Tom Becker", "tom"}, {"Ana Souza", "ana"}, {"Kenji Mori", "kenji"}})
			head = fmt.Sprintf("commit %s\nAuthor: %s <%s@%s.dev>\nDate:   %s Apr %d 17:%02d:%02d 2026 +0200\n\n    %s %s in %s\n\n",
				g.r.hex(40), who[0], who[1], g.p.name, weekday(g.day)[:3], g.day, g.r.intn(60), g.r.intn(60), title(pick(g.r, g.p.verbs)), pick(g.r, g.p.nouns), pick(g.r, g.p.comps))
		case 1:
			cmd = "git diff --cached"
		}
		g.step(g.announce("other", map[string]string{"what": "the diff so far"}), &act{kind: actRun, cmd: cmd, out: head + strings.Join(parts, "\n") + "\n"})
		return p
	}},
	{"lint-report-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		cmd, out := g.lintReport(p)
		g.step(g.announce("other", map[string]string{"what": "what the linter says"}), &act{kind: actRun, cmd: cmd, out: out, exit: 1})
		return p
	}},
	{"todo-list-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the remaining work"}), g.todoAct(p))
		return p
	}},
	{"user-path-ticket", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	{"prose-path-traced", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	// commands
	{"make-recipe-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		target := pick(g.r, []string{"repro", "ci", "check-flaky", "debug"})
		var lines []string
		for i := 0; i < 2+g.r.intn(4); i++ {
			lines = append(lines, pick(g.r, append(slices.Clone(g.p.cmds), g.l.build(g), g.testCmd(pick(g.r, g.testTargets)))))
			for k := 0; k < 2+g.r.intn(10); k++ {
				lines = append(lines, g.logLine("info", pick(g.r, routineLogMsgs)))
			}
		}
		lines = append(lines, c)
		for k := 0; k < 3+g.r.intn(12); k++ {
			lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs)))
		}
		lines = append(lines, fmt.Sprintf("make: *** [Makefile:%d: %s] Error %d", 20+g.r.intn(80), target, 1+g.r.intn(2)))
		g.step(g.announce("other", map[string]string{"what": "the make target CI uses"}), &act{kind: actRun, cmd: "make " + target, out: strings.Join(lines, "\n") + "\n", exit: 2})
		return c
	}},
	{"gitlab-job-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the failed pipeline job"}), g.gitlabJobAct(c))
		return c
	}},
	{"process-list-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "what is still running"}), g.processListAct(c))
		return c
	}},
	{"workflow-yaml-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("edit", map[string]string{"path": workflowPath}), g.workflowStepAct(c))
		return c
	}},
	{"user-nightly-command", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command-repro", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	// errors
	{"compose-log-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.composeAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the containers' output"}), a)
		return probe
	}},
	{"gha-annotation-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the failed workflow run"}), g.ghaRunAct(e))
		return e
	}},
	{"k8s-describe-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "why the pod keeps restarting"}), g.describePodAct(e))
		return e
	}},
	{"terraform-error-box", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("tf")
		g.step(g.announce("other", map[string]string{"what": "the terraform apply"}), g.terraformAct(e))
		return e
	}},
	{"build-failure-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		a, probe := g.buildFailureAct(e)
		g.step(g.announce("other", map[string]string{"what": "the failing build task"}), a)
		return probe
	}},
	{"sql-client-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.sqlClientAct()
		g.step(g.announce("other", map[string]string{"what": "the SQL script"}), a)
		return probe
	}},
	{"sentry-event-error", "error", siteOutput, func(g *gen) string {
		// The output is a JSON document, which some readers decode and
		// others show as it is: an error JSON escapes differently would
		// be a different text for each, so draw one it leaves alone.
		e := g.rareError()
		for i := 0; i < 20 && jsonInner(e) != e; i++ {
			e = g.rareError()
		}
		g.step(g.announce("other", map[string]string{"what": "the latest Sentry event"}), g.sentryAct(e))
		return jsonInner(e)
	}},
	{"user-pasted-error", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	// identifiers
	{"trace-header-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.headerDumpAct()
		g.step(g.announce("other", map[string]string{"what": "the response headers of a failing request"}), a)
		return id
	}},
	{"api-json-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.apiListAct()
		g.step(g.announce("other", map[string]string{"what": "what the API returns"}), a)
		return id
	}},
	{"rebase-conflict-sha", "identifier", siteOutput, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return g.r.hex(7) })
		g.step(g.announce("other", map[string]string{"what": "the rebase onto main"}), g.rebaseAct(id))
		return id
	}},
	{"k8s-event-pod", "identifier", siteOutput, func(g *gen) string {
		id := g.uniq(func(g *gen) string {
			return fmt.Sprintf("%s-%s-%d-%s", pick(g.r, g.p.hosts), pick(g.r, []string{"nightly", "sweeper", "rollup", "export"}), 29580000+g.r.intn(20000), g.r.alnum(5))
		})
		g.step(g.announce("other", map[string]string{"what": "the cluster events"}), g.eventsAct(id))
		return id
	}},
	{"csv-export-order-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.csvExportAct()
		g.step(g.announce("other", map[string]string{"what": "yesterday's orders"}), a)
		return id
	}},
	{"user-ref-id", "identifier", siteUser, func(g *gen) string {
		id := g.uniq(func(g *gen) string {
			if g.r.chance(0.5) {
				return g.r.uuid()
			}
			return strings.ToUpper(g.p.name) + "-" + strings.ToUpper(g.r.alnum(3))
		})
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"prose-id-link", "identifier", siteAssistant, func(g *gen) string {
		id := g.rareID("{ticket}-{n}")
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	// measurements
	{"wrk-latency-p99", "measurement", siteOutput, func(g *gen) string {
		a, v := g.wrkAct()
		g.step(g.announce("other", map[string]string{"what": "latency under load"}), a)
		return v
	}},
	{"vegeta-latency-p99", "measurement", siteOutput, func(g *gen) string {
		a, v := g.vegetaAct()
		g.step(g.announce("other", map[string]string{"what": "the endpoint at a fixed rate"}), a)
		return v
	}},
	{"shell-time-real", "measurement", siteOutput, func(g *gen) string {
		var secs int
		v := g.uniq(func(g *gen) string {
			secs = 20000 + g.r.intn(400000)
			return fmt.Sprintf("%dm%d.%03ds", secs/60000, secs/1000%60, secs%1000)
		})
		target := pick(g.r, g.testTargets)
		out, exit := g.runTests(testRun{target: target, total: int(float64(20+g.r.intn(100)) * g.scale)})
		out += fmt.Sprintf("\nreal\t%s\nuser\t%dm%d.%03ds\nsys\t0m%d.%03ds\n", v, secs*2/60000, secs*2/1000%60, g.r.intn(1000), 1+g.r.intn(20), g.r.intn(1000))
		g.step(g.announce("other", map[string]string{"what": "how long the suite takes"}), &act{kind: actRun, cmd: "time " + g.testCmd(target), out: out, exit: exit})
		return v
	}},
	{"gnu-time-rss", "measurement", siteOutput, func(g *gen) string {
		a, v := g.gnuTimeAct()
		g.step(g.announce("other", map[string]string{"what": "peak memory of the build"}), a)
		return v
	}},
	{"bench-compare-delta", "measurement", siteOutput, func(g *gen) string {
		a, v := g.benchCompareAct()
		g.step(g.announce("other", map[string]string{"what": "before and after numbers"}), a)
		return v
	}},
	{"docker-stats-mem", "measurement", siteOutput, func(g *gen) string {
		a, v := g.dockerStatsAct()
		g.step(g.announce("other", map[string]string{"what": "container memory"}), a)
		return v
	}},
	// decisions
	{"decision-approach-heading", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		head := pick(g.r, []string{"**Approach**", "**Fix plan**", "### Approach", "**What I'm changing**"})
		g.step(head+"\n\n"+d+"\n\n"+g.plan(), g.editAct(""))
		return d
	}},
	{"decision-after-investigation", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		lead := fill(pick(g.r, []string{"I've now read both code paths.", "Now I understand what's going on.", "Okay, I've looked at how {comp} is wired up.",
			"That confirms the hypothesis.", "I see the problem now: {comp} is doing more than it should."}), map[string]string{"comp": pick(g.r, g.p.comps)})
		tail := pick(g.r, []string{" Implementing that now.", " Making the edit.", "", " Here's the change."})
		g.step(lead+" "+d+tail, g.editAct(""))
		return d
	}},
	{"decision-commit-message", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the commit"}), g.commitAct(d))
		return d
	}},
	{"decision-progress-bullets", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		target := pick(g.r, g.testTargets)
		head := pick(g.r, []string{"Where things stand:", "Quick status:", "Progress so far:"})
		g.step(fmt.Sprintf("%s\n- reproduced the failure with %s\n- %s\n- %s", head, g.testCmd(target), d, g.plan()), g.testAct(0, target, nil))
		return d
	}},
	// constraints
	{"constraint-task-numbered", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("Constraints: (1) " + c)
		} else {
			g.say(fmt.Sprintf("(%d) %s", len(g.userTx)+1, c))
		}
		return c
	}},
	{"constraint-interrupt", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say(pick(g.r, []string{"Wait, before you continue: ", "Hold on. ", "Quick interjection: "}) + c)
		return c
	}},
	{"constraint-review-quote", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("A reviewer left this on the PR, please respect it:\n> " + c + "\n")
		return c
	}},
	{"constraint-caps-reminder", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("IMPORTANT: " + c)
		return c
	}},
}

// toolCall renders an actTool as the call it is. Only tool sets with
// function calls get actTool (todoAct checks which).
func (g *gen) toolCall(a *act) call {
	if g.ts.text {
		panic("corpus: tool set " + g.ts.name + " has no tool " + a.tool)
	}
	return call{name: a.tool, input: a.input, out: a.out}
}

// jsonInner is s as a JSON string holds it, without the quotes.
func jsonInner(s string) string {
	j := jstr(s)
	return j[1 : len(j)-1]
}

// rareErrorOf draws a rare error of the pseudo-language lang (psql,
// mysql, tf) whatever the project's language.
func (g *gen) rareErrorOf(lang string) string {
	ts := langTmpls(rareErrors, g.half, lang)
	return g.uniq(func(g *gen) string { return fill(pick(g.r, ts), g.vars()) })
}

// appRoot is where a project's code sits in its container image.
const appRoot = "/app"

// weekday names the day of April 2026 (the 1st is a Wednesday).
func weekday(day int) string {
	return []string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}[(day+2)%7]
}

func dirOf(path string) string { return path[:max(strings.LastIndexByte(path, '/'), 0)] }

// serviceTrace is a crash as a running service prints it, with a frame in
// path; it returns the trace and how it names path.
func (g *gen) serviceTrace(path string) (string, string) {
	line := 12 + g.r.intn(380)
	msg := g.routineError()
	var b strings.Builder
	switch g.l.name {
	case "go":
		fmt.Fprintf(&b, "panic: %s\n\ngoroutine %d [running]:\n", msg, 20+g.r.intn(4000))
		fmt.Fprintf(&b, "%s/%s.(*%s).%s(...)\n\t%s/%s:%d +0x%x\n", g.p.module, dirOf(path), pick(g.r, g.p.types), g.fnName(), appRoot, path, line, 0x20+g.r.intn(0x400))
		for i := 0; i < 2+g.r.intn(3); i++ {
			f := pick(g.r, g.files)
			fmt.Fprintf(&b, "%s/%s.%s(...)\n\t%s/%s:%d +0x%x\n", g.p.module, dirOf(f), g.fnName(), appRoot, f, 10+g.r.intn(400), 0x20+g.r.intn(0x400))
		}
		f := pick(g.r, g.files)
		fmt.Fprintf(&b, "created by %s/%s.(*%s).Run in goroutine 1\n\t%s/%s:%d +0x%x", g.p.module, dirOf(f), pick(g.r, g.p.types), appRoot, f, 10+g.r.intn(400), 0x20+g.r.intn(0x400))
		return b.String(), path
	case "python":
		b.WriteString("Traceback (most recent call last):\n")
		f := pick(g.r, g.files)
		fmt.Fprintf(&b, "  File \"%s/%s\", line %d, in %s\n    %s = %s(%s)\n", appRoot, f, 10+g.r.intn(400), g.fnName(), g.varName(), g.fnName(), g.varName())
		fmt.Fprintf(&b, "  File \"%s/%s\", line %d, in %s\n    %s\n", appRoot, path, line, g.fnName(),
			pick(g.r, []string{"session.execute(stmt)", "return client.post(url, json=payload)", "for row in self._iter_rows(" + g.varName() + "):"}))
		fmt.Fprintf(&b, "  File \"/usr/local/lib/python3.11/site-packages/%s\n", pick(g.r, []string{
			"sqlalchemy/engine/base.py\", line 1967, in _exec_single_context\n    self.dialect.do_execute(",
			"httpx/_client.py\", line 1015, in _send_single_request\n    response = transport.handle_request(request)",
			"redis/connection.py\", line 707, in connect\n    raise ConnectionError(self._error_message(e))"}))
		b.WriteString(g.crashHead(msg))
		return b.String(), path
	case "ts":
		fmt.Fprintf(&b, "%s/%s:%d\n    throw err;\n    ^\n\n%s\n", appRoot, path, line, g.crashHead(msg))
		fmt.Fprintf(&b, "    at %s.%s (%s/%s:%d:%d)\n", pick(g.r, g.p.types), g.fnName(), appRoot, path, line, 3+g.r.intn(40))
		for i := 0; i < 1+g.r.intn(3); i++ {
			fmt.Fprintf(&b, "    at async %s.%s (%s/%s:%d:%d)\n", pick(g.r, g.p.types), g.fnName(), appRoot, pick(g.r, g.files), 10+g.r.intn(400), 3+g.r.intn(40))
		}
		b.WriteString("    at async Promise.all (index 0)\n\nNode.js v20.12.2")
		return b.String(), path
	case "rust":
		fmt.Fprintf(&b, "thread 'tokio-runtime-worker' panicked at %s:%d:%d:\n%s\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic_fmt\n   2: core::result::unwrap_failed\n", path, line, 5+g.r.intn(30), msg)
		fmt.Fprintf(&b, "   3: %s::%s::%s\n             at ./%s:%d:%d\n", strings.ReplaceAll(crateOf(path), "-", "_"), stemOf(path), g.fnName(), path, line, 5+g.r.intn(30))
		for i := 0; i < 1+g.r.intn(3); i++ {
			f := pick(g.r, g.files)
			fmt.Fprintf(&b, "   %d: %s::%s::%s\n             at ./%s:%d:%d\n", 4+i, strings.ReplaceAll(crateOf(f), "-", "_"), stemOf(f), g.fnName(), f, 10+g.r.intn(400), 5+g.r.intn(30))
		}
		b.WriteString("note: Some details are omitted, run with `RUST_BACKTRACE=full` for a verbose backtrace.")
		return b.String(), path
	case "java":
		fmt.Fprintf(&b, "%s\n%s\n", g.crashHead(msg), g.l.frame(g, path, g.fnName(), line))
		for i := 0; i < 1+g.r.intn(3); i++ {
			b.WriteString(g.l.frame(g, pick(g.r, g.files), g.fnName(), 10+g.r.intn(400)) + "\n")
		}
		b.WriteString("\tat org.springframework.scheduling.support.ScheduledMethodRunnable.run(ScheduledMethodRunnable.java:84)\n\tat java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:572)\n\tat java.base/java.lang.Thread.run(Thread.java:1583)")
		return b.String(), lastDir(path)
	}
	ref := g.opsFailure(path, line)
	logged := g.logLine("error", ref)
	return logged, asLogged(logged, path)
}

// opsFailure is how the tool that reads an ops file reports a failure at
// path:line.
func (g *gen) opsFailure(path string, line int) string {
	abs := "/opt/" + g.p.name + "/" + path
	switch {
	case strings.HasSuffix(path, ".sql"):
		return fmt.Sprintf("psql:%s:%d: ERROR:  canceling statement due to statement timeout", abs, line)
	case strings.Contains(path, "ansible/"):
		return fmt.Sprintf("ERROR! 'delegate_facts_to' is not a valid attribute for a Task. The error appears to be in '%s': line %d, column 3, but may be elsewhere in the file depending on the exact syntax problem.", abs, line)
	case strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"):
		return fmt.Sprintf("error: error parsing %s: error converting YAML to JSON: yaml: line %d: mapping values are not allowed in this context", abs, line)
	case strings.HasSuffix(path, ".tf"):
		return fmt.Sprintf("Error: Reference to undeclared resource on %s line %d", abs, line)
	case strings.HasSuffix(path, ".service"):
		return fmt.Sprintf("%s:%d: Unknown key name 'RestartSecs' in section 'Service', ignoring.", abs, line)
	case strings.HasSuffix(path, ".bats"):
		return fmt.Sprintf("# (in test file %s, line %d)", abs, line)
	}
	return fmt.Sprintf("%s: line %d: %s: unbound variable", abs, line, strings.ToUpper(g.varName()))
}

// fileDiff is path's part of a diff: a new file or a changed line.
func (g *gen) fileDiff(path string) string {
	var b strings.Builder
	if g.r.chance(0.5) {
		lines := strings.Split(strings.TrimRight(g.l.source(g, path, 10+g.r.intn(20)), "\n"), "\n")
		fmt.Fprintf(&b, "diff --git a/%s b/%s\nnew file mode 100644\nindex 0000000..%s\n--- /dev/null\n+++ b/%s\n@@ -0,0 +1,%d @@\n", path, path, g.r.hex(7), path, len(lines))
		for _, l := range lines {
			b.WriteString("+" + l + "\n")
		}
		return b.String()
	}
	lines := strings.Split(g.fileContent(path), "\n")
	at := g.r.intn(max(len(lines)-12, 1))
	fmt.Fprintf(&b, "diff --git a/%s b/%s\nindex %s..%s 100644\n--- a/%s\n+++ b/%s\n@@ -%d,8 +%d,9 @@\n", path, path, g.r.hex(7), g.r.hex(7), path, path, at+1, at+1)
	for i := at; i < min(at+8, len(lines)); i++ {
		b.WriteString(" " + lines[i] + "\n")
		if i == at+3 {
			indent := lines[i][:len(lines[i])-len(strings.TrimLeft(lines[i], " \t"))]
			b.WriteString("+" + indent + g.editLine() + "\n")
		}
	}
	return b.String()
}

// lintReport runs the project's linter over routine files and path.
func (g *gen) lintReport(path string) (cmd, out string) {
	var finds []string
	all := append(slices.Clone(g.files), g.tfiles...)
	for i := 0; i < 3+g.r.intn(8); i++ {
		finds = append(finds, g.lintFinding(pick(g.r, all)))
	}
	n := len(finds) + 1
	body := insertLines(g, finds, []string{g.lintFinding(path)})
	switch g.l.name {
	case "go":
		return "golangci-lint run --out-format=line-number ./...", body
	case "python":
		return "ruff check --output-format=concise .", body + fmt.Sprintf("Found %d errors.\n", n)
	case "ts":
		e := 1 + g.r.intn(n)
		return "npx eslint 'src/**/*.ts'", body + fmt.Sprintf("\n✖ %d problems (%d errors, %d warnings)\n", n, e, n-e)
	case "rust":
		return "cargo clippy --all-targets -- -D warnings", body + fmt.Sprintf("error: could not compile `%s` (lib) due to %d previous errors\n", crateOf(path), n)
	case "java":
		if g.p.runner == "maven" {
			return "mvn -q checkstyle:check", body + "[ERROR] Failed to execute goal org.apache.maven.plugins:maven-checkstyle-plugin:3.3.1:check (default-cli) on project " + g.p.name + ": You have " + fmt.Sprint(n) + " Checkstyle violations. -> [Help 1]\n"
		}
		return "./gradlew checkstyleMain checkstyleTest", "> Task :checkstyleMain\n" + body + fmt.Sprintf("Checkstyle rule violations were found. See the report at: file://%s/build/reports/checkstyle/main.html\nCheckstyle files with violations: %d\nCheckstyle violations by severity: [warning:%d]\n", g.root, 1+g.r.intn(n), n)
	}
	return "make lint", body + fmt.Sprintf("make: *** [Makefile:%d: lint] Error 1\n", 5+g.r.intn(30))
}

// lintFinding is one linter finding in path, as the project's linter
// prints it.
func (g *gen) lintFinding(path string) string {
	line, col := 5+g.r.intn(400), 1+g.r.intn(30)
	v := g.varName()
	switch g.l.name {
	case "go":
		return fmt.Sprintf("%s:%d:%d: %s", path, line, col, pick(g.r, []string{
			fmt.Sprintf("Error return value of `%s.Close` is not checked (errcheck)", v),
			fmt.Sprintf("ineffectual assignment to %s (ineffassign)", v),
			fmt.Sprintf("func `%s` is unused (unused)", camel(g.words(2)...)),
			fmt.Sprintf("S1008: should use 'return %s' instead of 'if %s { return true }; return false' (gosimple)", v, v),
			fmt.Sprintf("SA4006: this value of `%s` is never used (staticcheck)", v)}))
	case "python":
		return fmt.Sprintf("%s:%d:%d: %s", path, line, col, pick(g.r, []string{
			fmt.Sprintf("F841 [*] Local variable `%s` is assigned to but never used", v),
			"B006 Do not use mutable data structures for argument defaults",
			"E711 Comparison to `None` should be `cond is None`",
			"SIM102 Use a single `if` statement instead of nested `if` statements",
			"PLR2004 Magic value used in comparison, consider replacing `3` with a constant variable"}))
	case "ts":
		sev, msg := pick(g.r, []string{"error", "warning"}), pick(g.r, []string{
			fmt.Sprintf("'%s' is assigned a value but never used  @typescript-eslint/no-unused-vars", v),
			"Unexpected any. Specify a different type  @typescript-eslint/no-explicit-any",
			"Promises must be awaited, end with a call to .catch, end with a call to .then with a rejection handler or be explicitly marked as ignored with the `void` operator  @typescript-eslint/no-floating-promises",
			"Unexpected console statement  no-console"})
		return fmt.Sprintf("\n%s\n  %d:%d  %s  %s", g.abs(path), line, col, sev, msg)
	case "rust":
		l := pick(g.r, [][2]string{{"redundant clone", "redundant_clone"}, {"this `if` has identical blocks", "if_same_then_else"},
			{"useless conversion to the same type: `String`", "useless_conversion"}, {"called `map(..).flatten()` on `Option`", "map_flatten"},
			{"you seem to be trying to use `match` for destructuring a single pattern. Consider using `if let`", "single_match"}})
		return fmt.Sprintf("error: %s\n  --> %s:%d:%d\n   |\n%d |         let %s = %s.clone();\n   |\n   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#%s",
			l[0], path, line, col, line, v, g.varName(), l[1])
	case "java":
		l := pick(g.r, [][3]string{{"coding", "HiddenField", fmt.Sprintf("'%s' hides a field.", v)}, {"sizes", "LineLength", fmt.Sprintf("Line is longer than 120 characters (found %d).", 121+g.r.intn(60))},
			{"coding", "MagicNumber", fmt.Sprintf("'%d' is a magic number.", 2+g.r.intn(500))}, {"javadoc", "MissingJavadocMethod", "Missing a Javadoc comment."},
			{"imports", "AvoidStarImport", "Using the '.*' form of import should be avoided - java.util.*."}})
		if g.p.runner == "maven" {
			return fmt.Sprintf("[ERROR] %s:[%d,%d] (%s) %s: %s", path, line, col, l[0], l[1], l[2])
		}
		return fmt.Sprintf("[ant:checkstyle] [WARN] %s:%d:%d: %s [%s]", g.abs(path), line, col, l[2], l[1])
	}
	switch {
	case strings.HasSuffix(path, ".sql"):
		l := pick(g.r, [][2]string{{"LT01", "Expected only single space before start bracket '('."}, {"AM04", "Query produces an unknown number of result columns."},
			{"CP01", "Keywords must be consistently upper case."}, {"RF04", "Keywords should not be used as identifiers."}})
		return fmt.Sprintf("== [%s] FAIL\nL: %3d | P: %3d | %s | %s", path, line, col, l[0], l[1])
	case strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"):
		return fmt.Sprintf("%s:%d:%d: %s", path, line, col, pick(g.r, []string{"[error] wrong indentation: expected 4 but found 2 (indentation)",
			"[warning] truthy value should be one of [false, true] (truthy)", "[error] trailing spaces (trailing-spaces)", "[error] too many blank lines (3 > 2) (empty-lines)"}))
	case strings.HasSuffix(path, ".tf"):
		return fmt.Sprintf("Warning: variable %q is declared but not used (terraform_unused_declarations)\n\n  on %s line %d:\n  %d: variable %q {\n\nReference: https://github.com/terraform-linters/tflint-ruleset-terraform/blob/v0.5.0/docs/rules/terraform_unused_declarations.md\n", v, path, line, line, v)
	case strings.HasSuffix(path, ".service"):
		return fmt.Sprintf("%s:%d: Unknown key name 'RestartSecs' in section 'Service', ignoring.", g.abs(path), line)
	}
	return fmt.Sprintf("%s:%d:%d: %s", path, line, col, pick(g.r, []string{"warning: Quote this to prevent word splitting. [SC2046]",
		"note: Double quote to prevent globbing and word splitting. [SC2086]", fmt.Sprintf("warning: %s appears unused. Verify use (or export if used externally). [SC2034]", strings.ToUpper(v)),
		"warning: Use 'cd ... || exit' or 'cd ... || return' in case cd fails. [SC2164]"}))
}

// todoAct writes the agent's to-do list, which names path, with the tool
// its harness has for that; agents without one write a notes file.
func (g *gen) todoAct(path string) *act {
	thing := g.typName()
	pathItem := fill(pick(g.r, []string{"Fix the {thing} handling in {path}", "Guard the empty {thing} case in {path}", "Move the {thing} check into {path}",
		"Add logging around {thing} in {path}"}), map[string]string{"thing": thing, "path": path})
	items := []string{"Reproduce the failure of " + pick(g.r, g.p.comps), pathItem, "Add a regression test for " + pick(g.r, g.p.comps), "Run " + g.testCmd(pick(g.r, g.testTargets))}
	status := []string{"completed", "in_progress", "pending", "pending"}
	switch g.ts.name {
	case "claude-code":
		var todos []obj
		for i, it := range items {
			if g.h.name == "claude-code-merged" { // Claude Code 1.0
				todos = append(todos, obj{{"content", it}, {"status", status[i]}, {"priority", pick(g.r, []string{"high", "medium"})}, {"id", fmt.Sprint(i + 1)}})
				continue
			}
			todos = append(todos, obj{{"content", it}, {"status", status[i]}, {"activeForm", gerund(it)}})
		}
		return &act{kind: actTool, tool: "TodoWrite", input: obj{{"todos", todos}},
			out: "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable"}
	case "codex":
		var plan []obj
		for i, it := range items {
			plan = append(plan, obj{{"step", it}, {"status", status[i]}})
		}
		return &act{kind: actTool, tool: "update_plan", input: obj{{"explanation", "Reproduced it; fixing next."}, {"plan", plan}}, out: "Plan updated"}
	case "openhands":
		var b strings.Builder
		b.WriteString("Plan:\n")
		for i, it := range items {
			fmt.Fprintf(&b, "%d. %s (%s)\n", i+1, it, strings.ReplaceAll(status[i], "_", " "))
		}
		return &act{kind: actTool, tool: "think", input: obj{{"thought", b.String()}}, out: "Your thought has been logged."}
	}
	var b strings.Builder
	b.WriteString("# Plan\n\n")
	for i, it := range items {
		box := " "
		if status[i] == "completed" {
			box = "x"
		}
		fmt.Fprintf(&b, "- [%s] %s\n", box, it)
	}
	if g.ts.text || g.ts.name == "swe-agent-fc" {
		return &act{kind: actRun, cmd: "cat > /tmp/plan.md <<'EOF'\n" + b.String() + "EOF", out: ""}
	}
	return &act{kind: actWrite, path: "NOTES.md", content: b.String()}
}

// gerund turns an imperative to-do ("Fix the ...") into its active form
// ("Fixing the ...").
func gerund(s string) string {
	verb, rest, _ := strings.Cut(s, " ")
	switch {
	case strings.HasSuffix(verb, "e"):
		verb = verb[:len(verb)-1] + "ing"
	case verb == "Run":
		verb = "Running"
	case verb == "Add":
		verb = "Adding"
	default:
		verb += "ing"
	}
	return verb + " " + rest
}

const workflowPath = ".github/workflows/ci.yml"

// workflowYAML is the project's CI workflow.
func (g *gen) workflowYAML() string {
	setup := map[string]string{
		"go":     "      - uses: actions/setup-go@v5\n        with:\n          go-version: '1.22'\n",
		"python": "      - uses: actions/setup-python@v5\n        with:\n          python-version: '3.11'\n",
		"ts":     "      - uses: actions/setup-node@v4\n        with:\n          node-version: 20\n          cache: npm\n      - run: npm ci\n",
		"rust":   "      - uses: dtolnay/rust-toolchain@stable\n      - uses: Swatinem/rust-cache@v2\n",
		"java":   "      - uses: actions/setup-java@v4\n        with:\n          distribution: temurin\n          java-version: '17'\n",
	}[g.l.name]
	var runs strings.Builder
	for _, c := range g.p.cmds {
		fmt.Fprintf(&runs, "      - run: %s\n", c)
	}
	fmt.Fprintf(&runs, "      - run: %s\n", g.testCmd(g.testTargets[0]))
	return "name: CI\n\non:\n  push:\n    branches: [main]\n  pull_request:\n\njobs:\n  test:\n    runs-on: ubuntu-latest\n    timeout-minutes: 20\n    steps:\n      - uses: actions/checkout@v4\n" + setup + runs.String()
}

// workflowStepAct adds a CI step that runs cmd.
func (g *gen) workflowStepAct(cmd string) *act {
	content, ok := g.content[workflowPath]
	if !ok {
		content = g.workflowYAML()
	}
	step := fmt.Sprintf("      - name: Reproduce %s\n        run: |\n          %s", pick(g.r, g.p.comps), cmd)
	if g.ts.name == "mini-swe-agent" {
		g.content[workflowPath] = content + step + "\n"
		return &act{kind: actRun, cmd: "cat >> " + workflowPath + " <<'EOF'\n" + step + "\nEOF", out: ""}
	}
	// The step goes after the last one: the last line is unique.
	body := strings.TrimRight(content, "\n")
	at := strings.LastIndexByte(body, '\n') + 1
	old := body[at:]
	nw := old + "\n" + step
	c2 := body[:at] + nw + "\n"
	g.content[workflowPath] = c2
	return &act{kind: actEdit, path: workflowPath, old: old, new: nw, content: c2, line: strings.Count(body[:at], "\n") + 1}
}

// gitlabJobAct prints a GitLab CI job's log with cmd as one of its
// script lines.
func (g *gen) gitlabJobAct(cmd string) *act {
	image := map[string]string{"go": "golang:1.22", "python": "python:3.11-slim", "ts": "node:20-bookworm", "rust": "rust:1.79", "java": "eclipse-temurin:17-jdk", "ops": "alpine:3.20"}[g.l.name]
	job := 7000000000 + g.r.intn(999999999)
	lines := []string{
		fmt.Sprintf("Running with gitlab-runner 17.2.1 (9882d9c7)\n  on runner-docker-%d %s, system ID: s_%s", 1+g.r.intn(9), g.r.alnum(8), g.r.hex(12)),
		"Preparing the \"docker\" executor",
		fmt.Sprintf("Using Docker executor with image %s ...", image),
		fmt.Sprintf("Pulling docker image %s ...", image),
		"Preparing environment",
		fmt.Sprintf("Running on runner-%s-project-%d-concurrent-0 via gitlab-runner-%d...", g.r.alnum(8), 1000+g.r.intn(9000), 1+g.r.intn(9)),
		"Getting source from Git repository",
		"Fetching changes with git depth set to 20...",
		fmt.Sprintf("Checking out %s as detached HEAD (ref is %s)...", g.r.hex(8), pick(g.r, []string{"main", "fix/" + pick(g.r, g.p.nouns)})),
		"Executing \"step_script\" stage of the job script",
	}
	var script []string
	for i := 0; i < 2+g.r.intn(4); i++ {
		script = append(script, pick(g.r, append(slices.Clone(g.p.cmds), g.l.build(g), g.testCmd(pick(g.r, g.testTargets)))))
	}
	script = slices.Insert(script, g.r.intn(len(script)), cmd)
	for _, s := range script {
		lines = append(lines, "$ "+s)
		for k := 0; k < int(float64(2+g.r.intn(12))*g.scale); k++ {
			lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "debug"}), pick(g.r, routineLogMsgs)))
		}
	}
	lines = append(lines, g.logLine("error", g.routineError()), "Cleaning up project directory and file based variables", "ERROR: Job failed: exit code 1")
	return &act{kind: actRun, cmd: fmt.Sprintf("glab ci trace %d", job), out: strings.Join(lines, "\n") + "\n"}
}

// processListAct lists the processes of the machine, cmd among them.
func (g *gen) processListAct(cmd string) *act {
	host := pick(g.r, g.p.hosts)
	procs := []string{"/lib/systemd/systemd-journald", "/usr/sbin/sshd -D", "sshd: dev [priv]", "sshd: dev@pts/0", "-bash", "tmux new -s work",
		"/usr/bin/containerd", "/usr/bin/dockerd -H fd:// --containerd=/run/containerd/containerd.sock", "redis-server *:6379", "postgres: checkpointer", "postgres: walwriter",
		fmt.Sprintf("postgres: app app 10.0.%d.%d(%d) idle", g.r.intn(250), 2+g.r.intn(250), 40000+g.r.intn(20000))}
	switch g.l.name {
	case "go", "rust":
		procs = append(procs, fmt.Sprintf("%s/bin/%s -config /etc/%s/config.yaml", appRoot, host, g.p.name))
	case "python":
		procs = append(procs, fmt.Sprintf("/usr/local/bin/python /usr/local/bin/gunicorn %s.wsgi:application -w 4 -b 0.0.0.0:8000", g.p.module), fmt.Sprintf("celery -A %s worker -l info -c 8", g.p.module))
	case "ts":
		procs = append(procs, "node "+appRoot+"/dist/server.js", "npm run dev")
	case "java":
		procs = append(procs, fmt.Sprintf("java -Xmx2g -XX:+UseG1GC -jar %s/build/libs/%s.jar", appRoot, g.p.name))
	}
	shown := cmd
	switch f := strings.Fields(cmd); {
	case strings.ContainsAny(cmd, "|&;<>$`") || strings.Contains(f[0], "="):
		shown = "/bin/sh -c " + cmd
	case strings.HasPrefix(cmd, "./"):
		shown = "/bin/bash " + cmd
	}
	type proc struct {
		pid, secs int
		args      string
	}
	up := 86400 * (5 + g.r.intn(40))
	ps := []proc{{1, up, "/sbin/init"}}
	for _, a := range procs {
		ps = append(ps, proc{300 + g.r.intn(90000), g.r.intn(up), a})
	}
	ps = append(ps, proc{40000 + g.r.intn(50000), 60 + g.r.intn(6*3600), shown})
	slices.SortStableFunc(ps, func(a, b proc) int { return b.secs - a.secs })
	var b strings.Builder
	b.WriteString("    PID     ELAPSED COMMAND\n")
	for _, p := range ps {
		d, h, m, s := p.secs/86400, p.secs/3600%24, p.secs/60%60, p.secs%60
		et := fmt.Sprintf("%02d:%02d:%02d", h, m, s)
		if d > 0 {
			et = fmt.Sprintf("%d-%s", d, et)
		} else if h == 0 {
			et = fmt.Sprintf("%02d:%02d", m, s)
		}
		fmt.Fprintf(&b, "%7d %11s %s\n", p.pid, et, p.args)
	}
	return &act{kind: actRun, cmd: "ps -eww -o pid,etime,args --sort=-etime | head -40", out: b.String()}
}

// composeAct is `docker compose up` with e logged by one service; it
// returns e as the output holds it.
func (g *gen) composeAct(e string) (*act, string) {
	svcs := append(slices.Clone(g.p.hosts), "db", "redis")
	width := 0
	for _, s := range svcs {
		width = max(width, len(s)+2)
	}
	prefix := func(s string) string { return fmt.Sprintf("%-*s | ", width, s+"-1") }
	out := []string{fmt.Sprintf("[+] Running %d/%d", len(svcs)+1, len(svcs)+1), fmt.Sprintf(" ✔ Network %s_default  Created   0.1s", g.p.name)}
	for _, s := range svcs {
		out = append(out, fmt.Sprintf(" ✔ Container %s-%s-1  %s   %d.%ds", g.p.name, s, pick(g.r, []string{"Started", "Healthy"}), g.r.intn(6), g.r.intn(10)))
	}
	out = append(out, "Attaching to "+strings.Join(svcs, "-1, ")+"-1")
	bad := pick(g.r, g.p.hosts)
	n := int(float64(30+g.r.intn(100)) * g.scale)
	at := n/4 + g.r.intn(max(n/2, 1))
	var line string
	for i := 0; i < n; i++ {
		if i == at {
			line = g.logLine("error", e)
			out = append(out, prefix(bad)+line)
		}
		s := pick(g.r, svcs)
		h, m, sec, ms := g.clock()
		switch s {
		case "db":
			out = append(out, prefix(s)+fmt.Sprintf("2026-04-%02d %02d:%02d:%02d.%03d UTC [%d] LOG:  %s", g.day, h, m, sec, ms, 60+g.r.intn(900),
				pick(g.r, []string{"checkpoint starting: time", "checkpoint complete: wrote 112 buffers (0.7%); 0 WAL file(s) added, 0 removed, 0 recycled", "database system is ready to accept connections"})))
		case "redis":
			out = append(out, prefix(s)+fmt.Sprintf("1:M %02d Apr 2026 %02d:%02d:%02d.%03d * %s", g.day, h, m, sec, ms, pick(g.r, []string{"Background saving started by pid 42", "DB saved on disk", "100 changes in 300 seconds. Saving..."})))
		default:
			out = append(out, prefix(s)+g.logLine(pick(g.r, []string{"info", "info", "debug", "warn"}), pick(g.r, routineLogMsgs)))
		}
	}
	out = append(out, bad+"-1 exited with code 1", "Aborting on container exit...", fmt.Sprintf(" ✔ Container %s-%s-1  Stopped   0.%ds", g.p.name, bad, g.r.intn(10)))
	return &act{kind: actRun, cmd: "docker compose up --abort-on-container-exit --exit-code-from " + bad, out: strings.Join(out, "\n") + "\n", exit: 1}, asLogged(line, e)
}

// ghaRunAct is `gh run view` of a failed run with e as an annotation.
func (g *gen) ghaRunAct(e string) *act {
	run := 9000000000 + g.r.intn(999999999)
	job := 25000000000 + g.r.intn(999999999)
	setup := map[string]string{"go": "Set up Go", "python": "Set up Python", "ts": "Set up Node", "rust": "Install Rust toolchain", "java": "Set up JDK 17", "ops": "Install tools"}[g.l.name]
	f := pick(g.r, g.tfiles)
	out := fmt.Sprintf(`X %s CI · %d
Triggered via pull_request about %d minutes ago

JOBS
✓ lint in %ds (ID %d)
X test in %dm%ds (ID %d)
  ✓ Set up job
  ✓ Run actions/checkout@v4
  ✓ %s
  X Run tests
  - Post %s
  ✓ Complete job

ANNOTATIONS
X %s
test: %s#%d

X Process completed with exit code 1.
test: .github#%d


To see what failed, try: gh run view %d --log-failed
View this run on GitHub: https://github.com/example/%s/actions/runs/%d
`, pick(g.r, []string{"main", "fix/" + pick(g.r, g.p.nouns)}), run, 2+g.r.intn(50), 20+g.r.intn(40), job-1-g.r.intn(9), 1+g.r.intn(9), g.r.intn(60), job,
		setup, setup, e, f, 10+g.r.intn(300), 20+g.r.intn(40), run, g.p.name, run)
	return &act{kind: actRun, cmd: fmt.Sprintf("gh run view %d", run), out: out}
}

// describePodAct is `kubectl describe pod` of a crashing pod whose last
// termination message is e.
func (g *gen) describePodAct(e string) *act {
	host := pick(g.r, g.p.hosts)
	pod := fmt.Sprintf("%s-%s-%s", host, g.r.hex(10), g.r.alnum(5))
	ns := g.p.name
	node := fmt.Sprintf("ip-10-0-%d-%d.eu-west-1.compute.internal", g.r.intn(250), 2+g.r.intn(250))
	image := fmt.Sprintf("registry.internal/%s/%s:1.%d.%d", g.p.name, host, g.r.intn(9), g.r.intn(30))
	day := fmt.Sprintf("%s, %02d Apr 2026", weekday(g.day)[:3], g.day)
	startM := 10 + g.r.intn(40)
	restarts := 3 + g.r.intn(30)
	out := fmt.Sprintf(`Name:             %s
Namespace:        %s
Priority:         0
Service Account:  %s
Node:             %s/10.0.%d.%d
Start Time:       %s 07:%02d:%02d +0000
Labels:           app=%s
                  pod-template-hash=%s
Status:           Running
IP:               10.1.%d.%d
Controlled By:    ReplicaSet/%s-%s
Containers:
  %s:
    Container ID:   containerd://%s
    Image:          %s
    Port:           8080/TCP
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Message:      %s
      Exit Code:    1
      Started:      %s 08:%02d:%02d +0000
      Finished:     %s 08:%02d:%02d +0000
    Ready:          False
    Restart Count:  %d
    Limits:
      memory:  %dMi
    Requests:
      cpu:     %dm
      memory:  %dMi
Conditions:
  Type              Status
  Initialized       True
  Ready             False
  ContainersReady   False
  PodScheduled      True
Events:
  Type     Reason     Age                  From               Message
  ----     ------     ----                 ----               -------
  Normal   Scheduled  %dm                  default-scheduler  Successfully assigned %s/%s to %s
  Normal   Pulled     %dm (x%d over %dm)   kubelet            Container image %q already present on machine
  Warning  BackOff    %dm (x%d over %dm)   kubelet            Back-off restarting failed container %s in pod %s_%s(%s)
`, pod, ns, host, node, g.r.intn(250), 2+g.r.intn(250), day, g.r.intn(60), g.r.intn(60), host, g.r.hex(10), g.r.intn(250), 2+g.r.intn(250), host, g.r.hex(10),
		host, g.r.hex(64), image, e, day, startM, g.r.intn(60), day, startM, 2+g.r.intn(50), restarts,
		256*(1+g.r.intn(8)), 100*(1+g.r.intn(9)), 128*(1+g.r.intn(8)),
		60+g.r.intn(40), ns, pod, node, 2+g.r.intn(8), restarts, 50+g.r.intn(10), image,
		1+g.r.intn(3), restarts*3, 50+g.r.intn(10), host, pod, ns, g.r.uuid())
	return &act{kind: actRun, cmd: fmt.Sprintf("kubectl describe pod %s -n %s", pod, ns), out: out}
}

// terraformAct is a failed `terraform apply` whose error box says e.
func (g *gen) terraformAct(e string) *act {
	dir, mod := "infra/terraform", snake(g.nounWords()...)
	for _, d := range g.p.dirs {
		if strings.HasPrefix(d, "terraform") {
			dir, mod = d, lastDir(d)
		}
	}
	res, verb := "aws_db_instance", "Creating..."
	switch {
	case strings.Contains(e, "IAM Role"):
		res = "aws_iam_role"
	case strings.Contains(e, "S3 Bucket"):
		res, verb = "aws_s3_bucket", "Destroying... [id="+strings.Trim(strings.SplitN(strings.SplitN(e, "(", 2)[1], ")", 2)[0], " ")+"]"
	case strings.Contains(e, "EKS Node Group"):
		res = "aws_eks_node_group"
	}
	name := snake(g.nounWords()...)
	var lines []string
	for i := 0; i < 4+g.r.intn(12); i++ {
		r := fmt.Sprintf("module.%s.%s.%s", mod, pick(g.r, []string{"aws_security_group_rule", "aws_cloudwatch_log_group", "aws_iam_role_policy", "aws_route53_record"}), snake(g.nounWords()...))
		switch g.r.intn(3) {
		case 0:
			lines = append(lines, fmt.Sprintf("%s: Modifying... [id=%s-%s]", r, g.p.name, g.r.hex(8)))
		case 1:
			lines = append(lines, fmt.Sprintf("%s: Modifications complete after %ds [id=%s-%s]", r, 1+g.r.intn(9), g.p.name, g.r.hex(8)))
		default:
			lines = append(lines, fmt.Sprintf("%s: Creation complete after %ds [id=%s]", r, 1+g.r.intn(20), g.r.hex(16)))
		}
	}
	line := 5 + g.r.intn(200)
	still := "Still creating..."
	if strings.HasPrefix(verb, "Destroying") {
		still = "Still destroying... [id=" + verb[len("Destroying... [id="):]
		still = strings.TrimSuffix(still, "]") + ", 10s elapsed]"
	} else {
		still += " [10s elapsed]"
	}
	lines = append(lines, fmt.Sprintf("module.%s.%s.%s: %s", mod, res, name, verb),
		fmt.Sprintf("module.%s.%s.%s: %s", mod, res, name, still),
		"╷", "│ Error: "+e, "│ ", fmt.Sprintf("│   with module.%s.%s.%s,", mod, res, name),
		fmt.Sprintf("│   on %s/main.tf line %d, in resource %q %q:", dir, line, res, name),
		fmt.Sprintf("│  %d: resource %q %q {", line, res, name), "│ ", "╵")
	return &act{kind: actRun, cmd: "terraform -chdir=" + dir + " apply -auto-approve tfplan", out: strings.Join(lines, "\n") + "\n", exit: 1}
}

// buildFailureAct is the project's build tool failing on e, and e as
// the output holds it.
func (g *gen) buildFailureAct(e string) (*act, string) {
	out := func(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
	switch g.l.name {
	case "java":
		if g.p.runner == "maven" {
			return &act{kind: actRun, cmd: "mvn -q flyway:migrate -Dflyway.configFiles=flyway-staging.conf", exit: 1, out: out(
				fmt.Sprintf("[ERROR] Failed to execute goal org.flywaydb:flyway-maven-plugin:10.10.0:migrate (default-cli) on project %s: %s -> [Help 1]", g.p.name, e),
				"[ERROR] ", "[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.", "[ERROR] Re-run Maven using the -X switch to enable full debug logging.")}, e
		}
		task := pick(g.r, []string{"flywayMigrate", "bootRun", "integrationTest", "generateJooq"})
		return &act{kind: actRun, cmd: "./gradlew " + task, exit: 1, out: out("> Task :compileJava UP-TO-DATE", "> Task :processResources UP-TO-DATE", "> Task :classes UP-TO-DATE",
			"> Task :"+task+" FAILED", "", "FAILURE: Build failed with an exception.", "", "* What went wrong:", "Execution failed for task ':"+task+"'.", "> "+e, "", "* Try:",
			"> Run with --stacktrace option to get the stack trace.", "> Run with --info or --debug option to get more log output.", "> Run with --scan to get full insights.",
			"> Get more help at https://help.gradle.org.", "", fmt.Sprintf("BUILD FAILED in %ds", 3+g.r.intn(60)), fmt.Sprintf("%d actionable tasks: 1 executed, %d up-to-date", 4+g.r.intn(4), 3+g.r.intn(3)))}, e
	case "rust":
		crate := crateOf(pick(g.r, g.p.dirs))
		return &act{kind: actRun, cmd: "cargo build -p " + crate, exit: 101, out: out(
			fmt.Sprintf("   Compiling %s v0.%d.%d (%s/crates/%s)", crate, g.r.intn(9), g.r.intn(20), g.root, crate),
			fmt.Sprintf("error: failed to run custom build command for `%s v0.%d.%d (%s/crates/%s)`", crate, g.r.intn(9), g.r.intn(20), g.root, crate), "",
			"Caused by:", fmt.Sprintf("  process didn't exit successfully: `%s/target/debug/build/%s-%s/build-script-build` (exit status: 101)", g.root, crate, g.r.hex(16)),
			"  --- stderr", fmt.Sprintf("  thread 'main' panicked at crates/%s/build.rs:%d:%d:", crate, 10+g.r.intn(60), 5+g.r.intn(30)), "  "+e,
			"  note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace")}, e
	case "ts":
		script := pick(g.r, []string{"migrate", "seed", "build:schema", "generate"})
		return &act{kind: actRun, cmd: "npm run " + script, exit: 1, out: out("", fmt.Sprintf("> %s@1.%d.%d %s", g.p.module, g.r.intn(9), g.r.intn(30), script),
			fmt.Sprintf("> tsx scripts/%s.ts", strings.ReplaceAll(script, ":", "-")), "", e, fmt.Sprintf("    at %s (%s/scripts/%s.ts:%d:%d)", g.fnName(), g.root, strings.ReplaceAll(script, ":", "-"), 10+g.r.intn(90), 3+g.r.intn(30)),
			"", "Node.js v20.12.2", "npm ERR! Lifecycle script `"+script+"` failed with error: ", "npm ERR! Error: command failed ", "npm ERR!   in workspace: "+g.p.module+" ", "npm ERR!   at location: "+g.root+" ")}, e
	case "python":
		env := pick(g.r, []string{"migrate", "integration", "docs"})
		t := fmt.Sprintf("%d.%02d", g.r.intn(9), g.r.intn(100))
		return &act{kind: actRun, cmd: "tox -e " + env, exit: 1, out: out(fmt.Sprintf("%s: commands[0]> python -m %s.manage %s", env, g.p.module, env), "Traceback (most recent call last):",
			fmt.Sprintf("  File \"%s/%s\", line %d, in %s", g.root, pick(g.r, g.files), 10+g.r.intn(300), g.fnName()), "    "+g.varName()+" = "+g.fnName()+"()", g.crashHead(e),
			fmt.Sprintf("%s: exit 1 (%s seconds) %s> python -m %s.manage %s pid=%d", env, t, g.root, g.p.module, env, 1000+g.r.intn(60000)),
			fmt.Sprintf("  %s: FAIL code 1 (%d.%02d=setup[0.%02d]+cmd[%s] seconds)", env, 1+g.r.intn(9), g.r.intn(100), g.r.intn(100), t), fmt.Sprintf("  evaluation failed :( (%d.%02d seconds)", 1+g.r.intn(9), g.r.intn(100)))}, g.crashHead(e)
	case "go":
		cmd := pick(g.r, []string{"migrate", "seed", "reindex"})
		h, m, s, _ := g.clock()
		return &act{kind: actRun, cmd: fmt.Sprintf("go run ./cmd/%s -env staging", cmd), exit: 1, out: out(fmt.Sprintf("2026/04/%02d %02d:%02d:%02d %s", g.day, h, m, s, e), "exit status 1")}, e
	}
	host := pick(g.r, g.p.hosts)
	msg := jsonInner(e)
	return &act{kind: actRun, cmd: "ansible-playbook -i inventories/staging site.yml --limit " + host, exit: 2, out: out("", "PLAY [all] *********************************************************************", "",
		"TASK [Gathering Facts] *********************************************************", "ok: ["+host+"]", "",
		fmt.Sprintf("TASK [%s : %s %s] ***************************************************", lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns)),
		fmt.Sprintf("fatal: [%s]: FAILED! => {\"changed\": false, \"msg\": \"%s\", \"rc\": 1}", host, msg), "",
		"PLAY RECAP *********************************************************************",
		fmt.Sprintf("%-26s : ok=%d    changed=0    unreachable=0    failed=1    skipped=%d    rescued=0    ignored=0", host, 2+g.r.intn(20), g.r.intn(5)))}, msg
}

// sqlClientAct runs a SQL script with psql or mysql that fails on a
// rare error; it returns the act and the error as the output holds it.
func (g *gen) sqlClientAct() (*act, string) {
	pg := g.r.chance(0.7)
	if g.l.name == "ops" {
		pg = isPostgres(g.p)
	}
	file := fmt.Sprintf("sql/backfill_%s_%s.sql", pick(g.r, g.p.tables), pick(g.r, g.p.nouns))
	if pg {
		e := g.rareErrorOf("psql")
		var lines []string
		for i := 0; i < 3+g.r.intn(10); i++ {
			lines = append(lines, pick(g.r, []string{"SET", fmt.Sprintf("UPDATE %d", g.r.intn(5000)), fmt.Sprintf("INSERT 0 %d", g.r.intn(900)), "CREATE INDEX", "ALTER TABLE"}))
		}
		lines = append([]string{"BEGIN"}, lines...)
		lines = append(lines, fmt.Sprintf("psql:%s:%d: ERROR:  %s", file, 10+g.r.intn(200), e))
		return &act{kind: actRun, cmd: fmt.Sprintf("psql \"$DATABASE_URL\" -v ON_ERROR_STOP=1 -f %s", file), out: strings.Join(lines, "\n") + "\n", exit: 3}, e
	}
	e := g.rareErrorOf("mysql")
	return &act{kind: actRun, cmd: fmt.Sprintf("mysql -h %s app < %s", pick(g.r, g.p.hosts), file), out: "mysql: [Warning] Using a password on the command line interface can be insecure.\n" + e + "\n", exit: 1}, e
}

// sentryAct fetches the latest event of a Sentry issue whose error is e.
func (g *gen) sentryAct(e string) *act {
	typ, val := map[string]string{"go": "*errors.errorString", "python": "Exception", "ts": "Error", "rust": "panic", "java": "RuntimeException", "ops": "Error"}[g.l.name], e
	if i := strings.Index(e, ": "); i > 0 && !strings.ContainsAny(e[:i], " '\"`({") {
		typ, val = e[:i], e[i+2:]
	}
	title := e
	if !strings.HasPrefix(e, typ+": ") {
		title = typ + ": " + e
	}
	f := pick(g.r, g.files)
	var frames []obj
	for i := 0; i < 2+g.r.intn(3); i++ {
		ff := pick(g.r, g.files)
		frames = append(frames, obj{{"filename", ff}, {"function", g.fnName()}, {"lineNo", 10 + g.r.intn(400)}, {"inApp", true}})
	}
	issue := 4000000000 + g.r.intn(999999999)
	ev := obj{{"eventID", g.r.hex(32)}, {"groupID", fmt.Sprint(issue)}, {"title", title}, {"culprit", g.fnName() + " in " + f}, {"dateCreated", g.isoTime()},
		{"platform", map[string]string{"go": "go", "python": "python", "ts": "node", "rust": "rust", "java": "java", "ops": "other"}[g.l.name]},
		{"tags", []obj{{{"key", "environment"}, {"value", "production"}}, {{"key", "release"}, {"value", fmt.Sprintf("%s@1.%d.%d", g.p.name, g.r.intn(9), g.r.intn(40))}},
			{{"key", "server_name"}, {"value", fmt.Sprintf("%s-%s-%s", pick(g.r, g.p.hosts), g.r.hex(9), g.r.alnum(5))}}}},
		{"entries", []obj{{{"type", "exception"}, {"data", obj{{"values", []obj{{{"type", typ}, {"value", val}, {"mechanism", obj{{"type", "generic"}, {"handled", false}}},
			{"stacktrace", obj{{"frames", frames}}}}}}}}}}}}
	raw, _ := indent(ev, "  ")
	return &act{kind: actRun, cmd: fmt.Sprintf("curl -s -H \"Authorization: Bearer $SENTRY_AUTH_TOKEN\" https://sentry.io/api/0/organizations/example/issues/%d/events/latest/ | jq '{eventID, groupID, title, culprit, dateCreated, platform, tags, entries}'", issue), out: string(raw)}
}

// headerDumpAct dumps the headers of a failed request; the trace id in
// them is the probe.
func (g *gen) headerDumpAct() (*act, string) {
	var id, hdr string
	switch g.r.intn(3) {
	case 0:
		id = g.uniq(func(g *gen) string { return g.r.hex(32) })
		hdr = fmt.Sprintf("traceparent: 00-%s-%s-01", id, g.r.hex(16))
	case 1:
		id = g.uniq(func(g *gen) string { return fmt.Sprintf("1-%s-%s", g.r.hex(8), g.r.hex(24)) })
		hdr = fmt.Sprintf("x-amzn-trace-id: Root=%s;Parent=%s;Sampled=1", id, g.r.hex(16))
	default:
		id = g.uniq(func(g *gen) string { return g.r.hex(32) })
		hdr = fmt.Sprintf("x-cloud-trace-context: %s/%d;o=1", id, 1000000000000+g.r.intn(900000000))
	}
	host := pick(g.r, g.p.hosts)
	status := pick(g.r, []string{"502", "503", "504", "500"})
	hs := []string{fmt.Sprintf("date: %s, %02d Apr 2026 08:%02d:%02d GMT", weekday(g.day)[:3], g.day, g.r.intn(60), g.r.intn(60)), "content-type: application/json", fmt.Sprintf("content-length: %d", 60+g.r.intn(200)),
		hdr, "server: envoy", fmt.Sprintf("x-envoy-upstream-service-time: %d", 100+g.r.intn(30000)), "vary: Accept-Encoding", "strict-transport-security: max-age=31536000"}
	shuffle(g.r, hs[1:])
	out := "HTTP/2 " + status + " \n" + strings.Join(hs, "\n") + "\n\n"
	return &act{kind: actRun, cmd: fmt.Sprintf("curl -sS -D - -o /dev/null https://%s.staging.internal/v1/%ss/%d", host, pick(g.r, g.p.nouns), 1000+g.r.intn(90000)), out: out}, id
}

// apiListAct lists objects of a payment or cloud API as JSON; the one in
// a failed state is the probe.
func (g *gen) apiListAct() (*act, string) {
	if g.r.chance(0.5) {
		mk := func() string { return "pi_3" + g.r.b62(23) }
		id := g.uniq(func(g *gen) string { return mk() })
		var data []obj
		for i := 0; i < 3+g.r.intn(5); i++ {
			data = append(data, obj{{"id", mk()}, {"object", "payment_intent"}, {"amount", 500 + g.r.intn(90000)}, {"currency", pick(g.r, []string{"eur", "usd", "gbp"})},
				{"customer", "cus_" + g.r.b62(14)}, {"status", "succeeded"}, {"created", 1775100000 + g.r.intn(90000)}})
		}
		bad := obj{{"id", id}, {"object", "payment_intent"}, {"amount", 500 + g.r.intn(90000)}, {"currency", "eur"}, {"customer", "cus_" + g.r.b62(14)},
			{"status", "requires_payment_method"}, {"last_payment_error", obj{{"code", "card_declined"}, {"decline_code", pick(g.r, []string{"insufficient_funds", "do_not_honor", "expired_card"})}}},
			{"created", 1775100000 + g.r.intn(90000)}}
		data = slices.Insert(data, g.r.intn(len(data)+1), bad)
		raw, _ := indent(obj{{"object", "list"}, {"data", data}, {"has_more", true}, {"url", "/v1/payment_intents"}}, "  ")
		return &act{kind: actRun, cmd: "stripe payment_intents list --limit " + fmt.Sprint(len(data)), out: string(raw)}, id
	}
	mk := func() string { return "i-0" + g.r.hex(16) }
	id := g.uniq(func(g *gen) string { return mk() })
	var sts []obj
	st := func(iid, status string) obj {
		return obj{{"AvailabilityZone", "eu-west-1" + pick(g.r, []string{"a", "b", "c"})}, {"InstanceId", iid}, {"InstanceState", obj{{"Code", 16}, {"Name", "running"}}},
			{"InstanceStatus", obj{{"Details", []obj{{{"Name", "reachability"}, {"Status", status}}}}, {"Status", map[string]string{"passed": "ok", "failed": "impaired"}[status]}}},
			{"SystemStatus", obj{{"Details", []obj{{{"Name", "reachability"}, {"Status", "passed"}}}}, {"Status", "ok"}}}}
	}
	for i := 0; i < 3+g.r.intn(6); i++ {
		sts = append(sts, st(mk(), "passed"))
	}
	sts = slices.Insert(sts, g.r.intn(len(sts)+1), st(id, "failed"))
	raw, _ := indent(obj{{"InstanceStatuses", sts}}, "    ")
	return &act{kind: actRun, cmd: fmt.Sprintf("aws ec2 describe-instance-status --filters Name=tag:app,Values=%s --include-all-instances", pick(g.r, g.p.hosts)), out: string(raw)}, id
}

// rebaseAct is a rebase that stops on commit sha.
func (g *gen) rebaseAct(sha string) *act {
	files := pickN(g.r, g.files, 2+g.r.intn(4))
	var lines []string
	for _, f := range files {
		lines = append(lines, "Auto-merging "+f)
	}
	f := files[len(files)-1]
	subj := fmt.Sprintf("%s %s in %s", title(pick(g.r, g.p.verbs)), pick(g.r, g.p.nouns), pick(g.r, g.p.comps))
	lines = append(lines, "CONFLICT (content): Merge conflict in "+f,
		fmt.Sprintf("error: could not apply %s... %s", sha, subj),
		"hint: Resolve all conflicts manually, mark them as resolved with", "hint: \"git add/rm <conflicted_files>\", then run \"git rebase --continue\".",
		"hint: You can instead skip this commit: run \"git rebase --skip\".", "hint: To abort and get back to the state before \"git rebase\", run \"git rebase --abort\".",
		"hint: Disable this message with \"git config advice.mergeConflict false\"", fmt.Sprintf("Could not apply %s... %s", sha, subj))
	return &act{kind: actRun, cmd: "git rebase origin/main", out: strings.Join(lines, "\n") + "\n", exit: 1}
}

// eventsAct lists the namespace's events, some of them about pod.
func (g *gen) eventsAct(pod string) *act {
	row := func(age, typ, reason, object, msg string) string {
		return fmt.Sprintf("%-11s %-9s %-22s %-52s %s", age, typ, reason, object, msg)
	}
	var rows []string
	for i := 0; i < int(float64(8+g.r.intn(25))*g.scale); i++ {
		p := fmt.Sprintf("pod/%s-%s-%s", pick(g.r, g.p.hosts), g.r.hex(10), g.r.alnum(5))
		ev := pick(g.r, [][3]string{{"Normal", "Pulled", "Container image already present on machine"}, {"Normal", "Created", "Created container app"},
			{"Normal", "Started", "Started container app"}, {"Normal", "Killing", "Stopping container app"}, {"Warning", "Unhealthy", "Readiness probe failed: HTTP probe failed with statuscode: 503"}})
		rows = append(rows, row(fmt.Sprintf("%dm", 1+g.r.intn(50)), ev[0], ev[1], p, ev[2]))
	}
	job := pod[:strings.LastIndexByte(pod, '-')]
	cron := job[:strings.LastIndexByte(job, '-')]
	out := insertLines(g, rows, []string{
		row(fmt.Sprintf("%dm", 1+g.r.intn(9)), "Warning", "BackOff", "pod/"+pod, "Back-off restarting failed container "+cron+" in pod "+pod+"_"+g.p.name+"("+g.r.uuid()+")"),
		row(fmt.Sprintf("%dm", 1+g.r.intn(9)), "Warning", "BackoffLimitExceeded", "job/"+job, "Job has reached the specified backoff limit"),
	})
	return &act{kind: actRun, cmd: "kubectl get events -n " + g.p.name + " --sort-by=.lastTimestamp", out: row("LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE") + "\n" + out}
}

// csvExportAct is a psql CSV export of recent orders or invoices; the
// one in a bad state is the probe.
func (g *gen) csvExportAct() (*act, string) {
	inv := g.r.chance(0.5)
	mk := func() string {
		if inv {
			return fmt.Sprintf("IN-2026-%06d", g.r.intn(1000000))
		}
		return "ORD-" + strings.ToUpper(g.r.alnum(8))
	}
	id := g.uniq(func(g *gen) string { return mk() })
	ts := func() string {
		return fmt.Sprintf("2026-04-%02d %02d:%02d:%02d+00", max(g.day-1, 1), g.r.intn(24), g.r.intn(60), g.r.intn(60))
	}
	type row struct{ ts, text string }
	var rows []row
	for i := 0; i < int(float64(15+g.r.intn(60))*g.scale); i++ {
		t := ts()
		rows = append(rows, row{t, fmt.Sprintf("%s,%s,%d,%s,%s", mk(), pick(g.r, []string{"paid", "paid", "paid", "refunded", "pending"}), 500+g.r.intn(90000), pick(g.r, []string{"EUR", "USD"}), t)})
	}
	t := ts()
	rows = append(rows, row{t, fmt.Sprintf("%s,%s,%d,EUR,%s", id, pick(g.r, []string{"refund_failed", "charged_twice", "stuck_pending"}), 500+g.r.intn(90000), t)})
	slices.SortStableFunc(rows, func(a, b row) int { return strings.Compare(a.ts, b.ts) })
	var b strings.Builder
	b.WriteString("number,status,total_cents,currency,updated_at\n")
	for _, r := range rows {
		b.WriteString(r.text + "\n")
	}
	table := "orders"
	if inv {
		table = "invoices"
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("psql \"$DATABASE_URL\" --csv -c \"SELECT number, status, total_cents, currency, updated_at FROM %s WHERE updated_at > now() - interval '1 day' ORDER BY updated_at\"", table), out: b.String()}, id
}

// wrkAct is a wrk run whose 99th percentile latency is the probe.
func (g *gen) wrkAct() (*act, string) {
	var cs int // hundredths of a millisecond
	v := g.uniq(func(g *gen) string { cs = 8000 + g.r.intn(91000); return fmt.Sprintf("%d.%02dms", cs/100, cs%100) })
	// dur prints hundredths of a millisecond as wrk does.
	dur := func(x int) string {
		if x >= 100000 {
			return fmt.Sprintf("%d.%02ds", x/100000, x/1000%100)
		}
		return fmt.Sprintf("%d.%02dms", x/100, x%100)
	}
	p50, p75, p90 := cs*(20+g.r.intn(15))/100, cs*(40+g.r.intn(15))/100, cs*(60+g.r.intn(20))/100
	threads, conns := 2+2*g.r.intn(4), 50*(1+g.r.intn(8))
	url := fmt.Sprintf("http://localhost:8080/v1/%ss", pick(g.r, g.p.nouns))
	reqs := 20000 + g.r.intn(200000)
	out := fmt.Sprintf(`Running 30s test @ %s
  %d threads and %d connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   %8s %8s %8s   %d.%02d%%
    Req/Sec   %d.%02d    %d.%02d     %d.%02dk    %d.%02d%%
  Latency Distribution
     50%%  %8s
     75%%  %8s
     90%%  %8s
     99%%  %8s
  %d requests in 30.0%ds, %d.%02dMB read
  Non-2xx or 3xx responses: %d
Requests/sec:  %8d.%02d
Transfer/sec:  %7d.%02dKB
`, url, threads, conns, dur(p50+cs/20), dur(cs/5), dur(cs*(11+g.r.intn(20))/10), 70+g.r.intn(25), g.r.intn(100),
		reqs/30/threads, g.r.intn(100), 10+g.r.intn(200), g.r.intn(100), 1, g.r.intn(100), 60+g.r.intn(30), g.r.intn(100),
		dur(p50), dur(p75), dur(p90), v, reqs, g.r.intn(10), 5+g.r.intn(90), g.r.intn(100), g.r.intn(reqs/10), reqs/30, g.r.intn(100), 100+g.r.intn(900), g.r.intn(100))
	return &act{kind: actRun, cmd: fmt.Sprintf("wrk -t%d -c%d -d30s --latency %s", threads, conns, url), out: out}, v
}

// vegetaAct is a vegeta report whose 99th percentile latency is the
// probe.
func (g *gen) vegetaAct() (*act, string) {
	var us int
	v := g.uniq(func(g *gen) string { us = 40000 + g.r.intn(900000); return fmt.Sprintf("%d.%03dms", us/1000, us%1000) })
	ms := func(x int) string { return fmt.Sprintf("%d.%03dms", x/1000, x%1000) }
	rate := 50 * (1 + g.r.intn(10))
	total := rate * 60
	fail := g.r.intn(total / 20)
	out := fmt.Sprintf(`Requests      [total, rate, throughput]         %d, %d.%02d, %d.%02d
Duration      [total, attack, wait]             1m0s, 59.99%ds, %s
Latencies     [min, mean, 50, 90, 95, 99, max]  %s, %s, %s, %s, %s, %s, %d.%03ds
Bytes In      [total, mean]                     %d, %d.%02d
Bytes Out     [total, mean]                     0, 0.00
Success       [ratio]                           %d.%02d%%
Status Codes  [code:count]                      200:%d  503:%d
Error Set:
503 Service Unavailable
`, total, rate, g.r.intn(100), rate-1, g.r.intn(100), g.r.intn(10), ms(us/(5+g.r.intn(20))),
		ms(us/(40+g.r.intn(40))), ms(us*(15+g.r.intn(10))/100), ms(us*(10+g.r.intn(5))/100), ms(us*(40+g.r.intn(20))/100), ms(us*(65+g.r.intn(15))/100), v, 1+us/1000000*2, g.r.intn(1000),
		total*(100+g.r.intn(200)), 100+g.r.intn(200), g.r.intn(100), (total-fail)*100/total, g.r.intn(100), total-fail, fail)
	return &act{kind: actRun, cmd: fmt.Sprintf("echo 'GET http://localhost:8080/v1/%ss' | vegeta attack -rate=%d -duration=60s | tee /tmp/results.bin | vegeta report", pick(g.r, g.p.nouns), rate), out: out}, v
}

// gnuTimeAct runs the build under GNU time; the peak memory line is the
// probe.
func (g *gen) gnuTimeAct() (*act, string) {
	var kb int
	v := g.uniq(func(g *gen) string {
		kb = 200000 + g.r.intn(3800000)
		return fmt.Sprintf("Maximum resident set size (kbytes): %d", kb)
	})
	build := g.l.build(g)
	user := 5 + g.r.intn(200)
	out := g.l.buildOK(g) + fmt.Sprintf(`	Command being timed: "%s"
	User time (seconds): %d.%02d
	System time (seconds): %d.%02d
	Percent of CPU this job got: %d%%
	Elapsed (wall clock) time (h:mm:ss or m:ss): %d:%02d.%02d
	Average shared text size (kbytes): 0
	Average unshared data size (kbytes): 0
	Average stack size (kbytes): 0
	Average total size (kbytes): 0
	%s
	Average resident set size (kbytes): 0
	Major (requiring I/O) page faults: %d
	Minor (reclaiming a frame) page faults: %d
	Voluntary context switches: %d
	Involuntary context switches: %d
	Swaps: 0
	File system inputs: %d
	File system outputs: %d
	Socket messages sent: 0
	Socket messages received: 0
	Signals delivered: 0
	Page size (bytes): 4096
	Exit status: 0
`, build, user, g.r.intn(100), 1+g.r.intn(20), g.r.intn(100), 100+g.r.intn(600), user/60/3, user/3%60, g.r.intn(100), v,
		g.r.intn(50), kb/4+g.r.intn(100000), 1000+g.r.intn(90000), 100+g.r.intn(20000), g.r.intn(90000), g.r.intn(900000))
	return &act{kind: actRun, cmd: "/usr/bin/time -v " + build, out: out}, v
}

// benchCompareAct compares benchmarks before and after a change, with the
// comparison tool of the project's language; one change is the probe.
func (g *gen) benchCompareAct() (*act, string) {
	switch g.l.name {
	case "go":
		dir := pick(g.r, g.p.dirs)
		var d int // hundredths of a percent
		v := g.uniq(func(g *gen) string {
			d = 2000 + g.r.intn(7000)
			return fmt.Sprintf("-%d.%02d%% (p=0.000 n=10)", d/100, d%100)
		})
		var b strings.Builder
		fmt.Fprintf(&b, "goos: linux\ngoarch: amd64\npkg: %s/%s\ncpu: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz\n", g.p.module, dir)
		b.WriteString("                      │   old.txt   │               new.txt               │\n                      │   sec/op    │   sec/op     vs base                │\n")
		n := 3 + g.r.intn(5)
		at := g.r.intn(n)
		us := func(x int) string { return fmt.Sprintf("%d.%dµ", x/10, x%10) } // tenths of a microsecond
		for i := 0; i < n; i++ {
			old := 100 + g.r.intn(9000)
			nw, delta := old*(1000+g.r.intn(20)-10)/1000, fmt.Sprintf("~ (p=0.%03d n=10)", 100+g.r.intn(800))
			switch {
			case i == at:
				nw, delta = old*(10000-d)/10000, v
			case g.r.chance(0.4):
				x := 50 + g.r.intn(550)
				nw, delta = old*(10000-x)/10000, fmt.Sprintf("-%d.%02d%% (p=0.0%02d n=10)", x/100, x%100, 1+g.r.intn(40))
			}
			fmt.Fprintf(&b, "%-21s %9s ± %d%%   %9s ± %d%%  %s\n", g.fnName()+"-8", us(old), 1+g.r.intn(4), us(nw), 1+g.r.intn(4), delta)
		}
		return &act{kind: actRun, cmd: "benchstat old.txt new.txt", out: b.String()}, v
	case "rust":
		crate := crateOf(pick(g.r, g.p.dirs))
		v := g.uniq(func(g *gen) string {
			mid := 500 + g.r.intn(7000)
			return fmt.Sprintf("[-%d.%04d%% -%d.%04d%% -%d.%04d%%]", (mid+300)/100, g.r.intn(10000), mid/100, g.r.intn(10000), max(mid-300, 1)/100, g.r.intn(10000))
		})
		var b strings.Builder
		fmt.Fprintf(&b, "    Finished `bench` profile [optimized] target(s) in %d.%02ds\n     Running benches/%s.rs (target/release/deps/%s-%s)\n", 20+g.r.intn(90), g.r.intn(100), crate, strings.ReplaceAll(crate, "-", "_"), g.r.hex(16))
		n := 2 + g.r.intn(4)
		at := g.r.intn(n)
		for i := 0; i < n; i++ {
			t := 1000 + g.r.intn(90000) // hundredths of a microsecond
			fmt.Fprintf(&b, "%s/%s\n                        time:   [%d.%02d µs %d.%02d µs %d.%02d µs]\n", crate, g.fnName(), (t-40)/100, (t-40)%100, t/100, t%100, (t+40)/100, (t+40)%100)
			if i == at {
				fmt.Fprintf(&b, "                        change: %s (p = 0.00 < 0.05)\n                        Performance has improved.\n", v)
			} else {
				fmt.Fprintf(&b, "                        change: [-%d.%04d%% -0.%04d%% +%d.%04d%%] (p = 0.%02d > 0.05)\n                        No change in performance detected.\n", g.r.intn(3), g.r.intn(10000), g.r.intn(10000), g.r.intn(3), g.r.intn(10000), 10+g.r.intn(89))
			}
			if g.r.chance(0.5) {
				o := 1 + g.r.intn(12)
				fmt.Fprintf(&b, "Found %d outliers among 100 measurements (%d.00%%)\n  %d (%d.00%%) high mild\n", o, o, o, o)
			}
		}
		return &act{kind: actRun, cmd: fmt.Sprintf("cargo bench -p %s --bench %s -- --baseline main", crate, crate), out: b.String()}, v
	}
	var x100, e int
	v := g.uniq(func(g *gen) string {
		x100, e = 130+g.r.intn(700), 1+g.r.intn(9)
		return fmt.Sprintf("%d.%02d ± 0.0%d times faster than before", x100/100, x100%100, e)
	})
	bench := map[string]string{"python": fmt.Sprintf("python -m %s.%s --limit 5000", g.p.module, lastDir(pick(g.r, g.p.dirs))),
		"ts": fmt.Sprintf("node dist/%s.js --bench", pick(g.r, g.p.nouns)), "java": fmt.Sprintf("java -jar build/libs/%s.jar --bench", g.p.name),
		"ops": fmt.Sprintf("./%s --dry-run", pick(g.r, g.files))}[g.l.name]
	// ms prints tenths of a millisecond as hyperfine does.
	ms := func(x int) string {
		if x >= 10000 {
			return fmt.Sprintf("%d.%03d s", x/10000, x/10%1000)
		}
		return fmt.Sprintf("%d.%d ms", x/10, x%10)
	}
	after := 500 + g.r.intn(9000)
	before := after * x100 / 100
	row := func(name string, mean int) string {
		return fmt.Sprintf("Benchmark %s\n  Time (mean ± σ):     %s ±  %s    [User: %s, System: %s]\n  Range (min … max):   %s … %s    10 runs\n",
			name, ms(mean), ms(mean/50), ms(mean*8/10), ms(mean/10), ms(mean*95/100), ms(mean*105/100))
	}
	out := row("1: before", before) + " \n" + row("2: after", after) + " \nSummary\n  after ran\n    " + v + "\n"
	return &act{kind: actRun, cmd: fmt.Sprintf("hyperfine --warmup 2 -n before -n after 'git stash -q && %s; git stash pop -q' '%s'", bench, bench), out: out}, v
}

// dockerStatsAct is `docker stats` with one container near its memory
// limit; its usage is the probe.
func (g *gen) dockerStatsAct() (*act, string) {
	lim := 1 + g.r.intn(4)
	var mib int
	v := g.uniq(func(g *gen) string {
		f := 800 + g.r.intn(200)
		mib = (lim-1)*1024 + f*1024/1000
		return fmt.Sprintf("%d.%03dGiB / %dGiB", lim-1, f, lim)
	})
	bad := pick(g.r, g.p.hosts)
	svcs := append(slices.Clone(g.p.hosts), "db", "redis")
	w := len("NAME")
	for _, s := range svcs {
		w = max(w, len(g.p.name+"-"+s+"-1"))
	}
	rows := []string{fmt.Sprintf("%-14s %-*s   %-9s %-21s %-9s %-17s %-17s %s", "CONTAINER ID", w, "NAME", "CPU %", "MEM USAGE / LIMIT", "MEM %", "NET I/O", "BLOCK I/O", "PIDS")}
	for _, s := range svcs {
		l := 1 + g.r.intn(4)
		use := 20 + g.r.intn(500)
		text := fmt.Sprintf("%d.%dMiB / %dGiB", use, g.r.intn(10), l)
		if s == bad {
			l, use, text = lim, mib, v
		}
		pct := use * 10000 / (l * 1024)
		rows = append(rows, fmt.Sprintf("%-14s %-*s   %-9s %-21s %-9s %-17s %-17s %d", g.r.hex(12), w, g.p.name+"-"+s+"-1", fmt.Sprintf("%d.%02d%%", g.r.intn(180), g.r.intn(100)), text,
			fmt.Sprintf("%d.%02d%%", pct/100, pct%100), fmt.Sprintf("%dMB / %dMB", 1+g.r.intn(900), 1+g.r.intn(900)), fmt.Sprintf("%dMB / %dB", g.r.intn(90), g.r.intn(9)), 1+g.r.intn(60)))
	}
	return &act{kind: actRun, cmd: "docker stats --no-stream", out: strings.Join(rows, "\n") + "\n"}, v
}

// commitAct commits with msg's body holding the decision d.
func (g *gen) commitAct(d string) *act {
	subj := fmt.Sprintf("%s: %s %s", lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
	msg := subj + "\n\n" + d + "\n"
	if g.h.tools == "claude-code" {
		msg += "\n🤖 Generated with [Claude Code](https://claude.com/claude-code)\n\nCo-Authored-By: Claude <noreply@anthropic.com>\n"
	}
	cmd := "git commit -am \"$(cat <<'EOF'\n" + msg + "EOF\n)\""
	out := fmt.Sprintf("[fix/%s %s] %s\n %d files changed, %d insertions(+), %d deletions(-)\n", pick(g.r, g.p.nouns), g.r.hex(7), subj, 1+g.r.intn(6), 2+g.r.intn(120), g.r.intn(60))
	return &act{kind: actRun, cmd: cmd, out: out}
}
