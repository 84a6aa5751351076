package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// holdoutForms plant the holdout half's probes, in surfaces none of the
// other halves' forms use: `git diff --stat`, formatter checks, `git log --follow`,
// justfiles, Buildkite pipelines, go-task, stern, `gh issue view`,
// pg_restore, the MySQL client under `kubectl exec`, Terraform's JSON
// output; Cloudflare ray ids, GitHub advisory ids, Step Functions
// execution ARNs, Datadog trace ids in logs, PagerDuty incident ids; oha,
// bombardier, Locust, redis-benchmark, the MySQL slow log, EXPLAIN in
// JSON, sqlite's timer, `kubectl top`, dd, tokei, runtime GC and memory
// traces, micro-benchmark harnesses and iostat; decisions in plan steps,
// mail, follow-up issues, upgrade notes, review JSON, scratch notes and
// the user's reply; constraints as hard limits, asides, reminders and
// afterthoughts. Each returns its probe as the session holds it.
var holdoutForms = []*form{
	// paths
	{"user-path-blame", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	{"prose-path-culprit", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	{"diff-stat-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(g.r.chance(0.3))
		g.step(g.announce("other", map[string]string{"what": "what the branch changed so far"}), g.diffStatAct(p))
		return p
	}},
	{"format-check-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "whether formatting is clean"}), g.formatCheckAct(p))
		return p
	}},
	{"log-follow-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the history of that file"}), g.logFollowAct(p))
		return p
	}},
	// commands
	{"user-command-try", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command-saved", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	{"justfile-recipe-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		recipe := "repro-" + kebab(g.nounWords()...)
		content := fmt.Sprintf("set shell := [\"bash\", \"-euo\", \"pipefail\", \"-c\"]\n\ndefault:\n    @just --list\n\n# %s %s\n%s:\n    %s\n\ntest:\n    %s\n",
			title(pick(g.r, g.p.comps)), pick(g.r, g.p.issues), recipe, c, g.testCmd(pick(g.r, g.testTargets)))
		g.step(g.announce("edit", map[string]string{"path": "justfile"}), g.writeFileAct("justfile", content))
		return c
	}},
	{"buildkite-step-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		path := ".buildkite/pipeline.repro.yml"
		content := fmt.Sprintf("steps:\n  - label: \":mag: repro %s\"\n    key: repro\n    command: |\n      %s\n    timeout_in_minutes: %d\n    agents:\n      queue: %s\n    soft_fail:\n      - exit_status: 1\n",
			pick(g.r, g.p.comps), c, 10+g.r.intn(50), pick(g.r, []string{"default", "linux-large", "ci-arm64"}))
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return c
	}},
	{"go-task-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the repro task"}), g.goTaskAct(c))
		return c
	}},
	// errors
	{"user-error-alert", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	{"stern-log-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.sternAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the pods' logs"}), a)
		return probe
	}},
	{"gh-issue-view-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the bug report"}), g.issueViewAct(e))
		return e
	}},
	{"pg-restore-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("psql")
		g.step(g.announce("other", map[string]string{"what": "restoring the staging dump"}), g.pgRestoreAct(e))
		return e
	}},
	{"kubectl-exec-mysql-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("mysql")
		g.step(g.announce("other", map[string]string{"what": "loading the fixture into the cluster database"}), g.execMySQLAct(e))
		return e
	}},
	{"tf-plan-json-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("tf")
		g.step(g.announce("other", map[string]string{"what": "the machine-readable plan"}), g.tfJSONAct(e))
		return jsonInner(e)
	}},
	// identifiers
	{"user-id-ray", "identifier", siteUser, func(g *gen) string {
		id := g.uniq(func(g *gen) string {
			return g.r.hex(16) + "-" + pick(g.r, []string{"FRA", "AMS", "CDG", "LHR", "IAD", "SJC", "NRT", "GRU"})
		})
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"prose-id-advisory", "identifier", siteAssistant, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return g.ghsa() })
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	{"sfn-execution-arn", "identifier", siteOutput, func(g *gen) string {
		a, id := g.sfnExecutionsAct()
		g.step(g.announce("other", map[string]string{"what": "the state machine's recent executions"}), a)
		return id
	}},
	{"dd-trace-id-log", "identifier", siteOutput, func(g *gen) string {
		a, id := g.ddTraceLogAct()
		g.step(g.announce("other", map[string]string{"what": "the 5xx responses in the journal"}), a)
		return id
	}},
	{"pagerduty-incident-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.pagerDutyAct()
		g.step(g.announce("other", map[string]string{"what": "the open incidents"}), a)
		return id
	}},
	// measurements
	{"oha-latency-p99", "measurement", siteOutput, func(g *gen) string {
		a, v := g.ohaAct()
		g.step(g.announce("other", map[string]string{"what": "latency under fifty connections"}), a)
		return v
	}},
	{"bombardier-latency", "measurement", siteOutput, func(g *gen) string {
		a, v := g.bombardierAct()
		g.step(g.announce("other", map[string]string{"what": "the endpoint under load"}), a)
		return v
	}},
	{"locust-percentiles", "measurement", siteOutput, func(g *gen) string {
		a, v := g.locustAct()
		g.step(g.announce("other", map[string]string{"what": "the user-journey load test"}), a)
		return v
	}},
	{"redis-benchmark-rps", "measurement", siteOutput, func(g *gen) string {
		a, v := g.redisBenchmarkAct()
		g.step(g.announce("other", map[string]string{"what": "the cache's raw throughput"}), a)
		return v
	}},
	{"mysql-slow-log-time", "measurement", siteOutput, func(g *gen) string {
		a, v := g.slowLogAct()
		g.step(g.announce("other", map[string]string{"what": "the slow query log"}), a)
		return v
	}},
	{"explain-json-execution", "measurement", siteOutput, func(g *gen) string {
		a, v := g.explainJSONAct()
		g.step(g.announce("other", map[string]string{"what": "the plan of the slow query"}), a)
		return v
	}},
	{"sqlite-run-time", "measurement", siteOutput, func(g *gen) string {
		a, v := g.sqliteTimerAct()
		g.step(g.announce("other", map[string]string{"what": "the local cache database"}), a)
		return v
	}},
	{"kubectl-top-pod", "measurement", siteOutput, func(g *gen) string {
		a, v := g.topPodAct()
		g.step(g.announce("other", map[string]string{"what": "CPU and memory per pod"}), a)
		return v
	}},
	{"dd-write-rate", "measurement", siteOutput, func(g *gen) string {
		a, v := g.ddAct()
		g.step(g.announce("other", map[string]string{"what": "raw write speed of the data volume"}), a)
		return v
	}},
	{"tokei-code-lines", "measurement", siteOutput, func(g *gen) string {
		a, v := g.tokeiAct()
		g.step(g.announce("other", map[string]string{"what": "how much code there is"}), a)
		return v
	}},
	{"runtime-memory-trace", "measurement", siteOutput, func(g *gen) string {
		a, v := g.memTraceAct()
		g.step(g.announce("other", map[string]string{"what": "what the runtime does with memory"}), a)
		return v
	}},
	{"micro-bench-harness", "measurement", siteOutput, func(g *gen) string {
		a, v := g.microBenchAct()
		g.step(g.announce("other", map[string]string{"what": "the hot path on its own"}), a)
		return v
	}},
	{"iostat-device-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.iostatAct()
		g.step(g.announce("other", map[string]string{"what": "disk queueing while the job runs"}), a)
		return v
	}},
	// decisions
	{"decision-opening-line", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(d, g.readAct(g.routinePath(), false))
		return d
	}},
	{"decision-weighing", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(pick(g.r, []string{"Weighing it up.", "Okay, I have enough context now.", "Both options reproduce the fix locally."})+"\n\n"+d, g.editAct(""))
		return d
	}},
	{"decision-after-numbers", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(pick(g.r, []string{"The numbers settle it.", "That comparison is clear enough.", "Measured both."})+" "+d, g.testAct(0, "", nil))
		return d
	}},
	{"decision-plan-step", "decision", siteAssistant, func(g *gen) string {
		d := g.decisionLine()
		text := fmt.Sprintf("Plan:\n1. %s\n2. %s\n3. Add a regression test and rerun the suite.", g.plan(), d)
		g.step(text, g.editAct(""))
		return d
	}},
	{"decision-user-verdict", "decision", siteUser, func(g *gen) string {
		d := g.holdoutUserDecision()
		g.say(d)
		return d
	}},
	{"decision-sendmail", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		comp := pick(g.r, g.p.comps)
		cmd := fmt.Sprintf("sendmail -t <<'EOF'\nTo: %s-dev@northwind.dev\nSubject: [%s] %s: approach\n\nHi all,\n\n%s\n\nThe change and its test are on the branch; comments welcome before I open the PR.\nEOF", g.p.name, g.p.name, comp, d)
		g.step(g.announce("other", map[string]string{"what": "a note to the dev list"}), &act{kind: actRun, cmd: cmd, out: ""})
		return d
	}},
	{"decision-followup-issue", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		n := 100 + g.r.intn(4000)
		cmd := fmt.Sprintf("gh issue create --title \"Follow-up: %s\" --label tech-debt --body-file - <<'EOF'\n%s\n\nContext: %s %s.\nEOF", pick(g.r, g.p.comps), d, title(pick(g.r, g.p.comps)), pick(g.r, g.p.issues))
		g.step(g.announce("other", map[string]string{"what": "a follow-up issue"}), &act{kind: actRun, cmd: cmd, out: fmt.Sprintf("\nCreating issue in northwind/%s\n\nhttps://github.com/northwind/%s/issues/%d\n", g.p.name, g.p.name, n)})
		return d
	}},
	{"decision-upgrade-notes", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		path := pick(g.r, []string{"UPGRADING.md", "docs/upgrading.md", "MIGRATION.md"})
		content := fmt.Sprintf("# Upgrading\n\n## Unreleased\n\n### %s\n\n%s\n\nNo configuration change is needed; existing data is read as before.\n", title(pick(g.r, g.p.comps)), d)
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return d
	}},
	{"decision-review-json", "decision", siteOutput, func(g *gen) string {
		d := g.decisionLine()
		g.step(g.announce("other", map[string]string{"what": "the reviews on the pull request"}), g.reviewsJSONAct(d))
		return jsonInner(d)
	}},
	{"decision-scratch-notes", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		content := fmt.Sprintf("# Scratch notes\n\n## Repro\n\n%s\n\n## Findings\n\n- %s is reached twice per request\n- %s looks unrelated\n\n## Decision\n\n%s\n",
			g.testCmd(pick(g.r, g.testTargets)), g.typName(), pick(g.r, g.files), d)
		g.step(g.announce("edit", map[string]string{"path": "NOTES.md"}), g.writeFileAct("NOTES.md", content))
		return d
	}},
	// constraints
	{"constraint-task-hard-limits", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("\n\nHard limits:\n• " + c)
		} else {
			g.say("\n• " + c)
		}
		return c
	}},
	{"constraint-task-upfront", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("One thing before you start: " + c)
		} else {
			g.say("Also: " + c)
		}
		return c
	}},
	{"constraint-user-hold-on", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Hold on, before you go further. " + c)
		return c
	}},
	{"constraint-user-standup", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Reminder from this morning's standup: " + c)
		return c
	}},
	{"constraint-user-forgot", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Forgot to say earlier: " + c)
		return c
	}},
}

// holdoutUserDecision is a decision as the user words it: the session's
// next alternative, in a phrasing of holdoutUserDecisions.
func (g *gen) holdoutUserDecision() string {
	a := g.altOrder[0]
	g.altOrder = append(g.altOrder[1:], a)
	return sentence(fill(pick(g.r, holdoutUserDecisions), map[string]string{"x": a.x, "y": a.y, "why": a.why, "c": pick(g.r, g.p.comps)}))
}

// ghsa returns a GitHub security advisory id: three groups of four
// characters of the advisory alphabet.
func (g *gen) ghsa() string {
	const abc = "23456789cfghjmpqrvwx"
	var b strings.Builder
	b.WriteString("GHSA")
	for i := 0; i < 3; i++ {
		b.WriteByte('-')
		for k := 0; k < 4; k++ {
			b.WriteByte(abc[g.r.intn(len(abc))])
		}
	}
	return b.String()
}

// replayCmd is a command that runs the project's program over a recorded
// workload, for the tools that wrap a process.
func (g *gen) replayCmd() string {
	switch g.l.name {
	case "go":
		return "./bin/" + pick(g.r, g.p.hosts) + " replay testdata/capture.jsonl"
	case "python":
		return "python -m " + strings.TrimPrefix(g.p.module, "@") + " replay fixtures/capture.jsonl"
	case "ts":
		return "node dist/" + pick(g.r, g.p.nouns) + ".js replay fixtures/capture.jsonl"
	case "rust":
		return "target/release/" + crateOf(pick(g.r, g.p.dirs)) + " replay testdata/capture.jsonl"
	case "java":
		return "java -jar target/" + g.p.name + ".jar replay capture.jsonl"
	}
	return "psql -d app -f sql/" + snake(g.nounWords()...) + ".sql"
}

// diffStatAct is `git diff --stat` of the branch against main, path among
// the changed files.
func (g *gen) diffStatAct(path string) *act {
	files := pickN(g.r, append(slices.Clone(g.files), g.tfiles...), 2+g.r.intn(5))
	files = slices.Insert(files, g.r.intn(len(files)+1), path)
	w := 0
	for _, f := range files {
		w = max(w, len(f))
	}
	var b strings.Builder
	ins, del := 0, 0
	for _, f := range files {
		a, d := g.r.intn(60), g.r.intn(30)
		ins, del = ins+a, del+d
		fmt.Fprintf(&b, " %-*s | %3d %s%s\n", w, f, a+d, strings.Repeat("+", min(a, 40)), strings.Repeat("-", min(d, 20)))
	}
	fmt.Fprintf(&b, " %d files changed, %d insertions(+), %d deletions(-)\n", len(files), ins, del)
	return &act{kind: actRun, cmd: "git diff --stat=200 origin/main...HEAD", out: b.String()}
}

// formatCheckAct runs the ecosystem's formatter in check mode; path is
// among the files it would change.
func (g *gen) formatCheckAct(path string) *act {
	others := pickN(g.r, g.files, g.r.intn(3))
	files := slices.Insert(slices.Clone(others), g.r.intn(len(others)+1), path)
	var b strings.Builder
	switch g.l.name {
	case "go":
		for _, f := range files {
			b.WriteString(f + "\n")
		}
		return &act{kind: actRun, cmd: "gofmt -s -l $(git ls-files '*.go')", out: b.String()}
	case "python":
		for _, f := range files {
			fmt.Fprintf(&b, "would reformat %s\n", f)
		}
		fmt.Fprintf(&b, "\nOh no! 💥 💔 💥\n%d file%s would be reformatted, %d files would be left unchanged.\n", len(files), map[bool]string{true: "s"}[len(files) > 1], 20+g.r.intn(200))
		return &act{kind: actRun, cmd: "black --check .", out: b.String(), exit: 1}
	case "ts":
		b.WriteString("Checking formatting...\n")
		for _, f := range files {
			fmt.Fprintf(&b, "[warn] %s\n", f)
		}
		fmt.Fprintf(&b, "[warn] Code style issues found in %s. Run Prettier with --write to fix.\n", map[bool]string{true: fmt.Sprintf("%d files", len(files)), false: "the above file"}[len(files) > 1])
		return &act{kind: actRun, cmd: "npx prettier --check .", out: b.String(), exit: 1}
	case "rust":
		for _, f := range files {
			line := 10 + g.r.intn(300)
			v, fn, x, y := g.varName(), g.fnName(), g.varName(), g.varName()
			fmt.Fprintf(&b, "Diff in %s/%s:%d:\n-    let %s = %s(&%s,%s);\n+    let %s = %s(&%s, %s);\n", g.root, f, line, v, fn, x, y, v, fn, x, y)
		}
		return &act{kind: actRun, cmd: "cargo fmt --all --check", out: b.String(), exit: 1}
	case "java":
		fmt.Fprintf(&b, "[INFO] --- spotless:2.43.0:check (default-cli) @ %s ---\n[ERROR] Failed to execute goal com.diffplug.spotless:spotless-maven-plugin:2.43.0:check (default-cli) on project %s: The following files had format violations:\n", g.p.name, g.p.name)
		for _, f := range files {
			fmt.Fprintf(&b, "[ERROR]     %s\n[ERROR]         @@ -%d,7 +%d,8 @@\n", f, 10+g.r.intn(200), 10+g.r.intn(200))
		}
		b.WriteString("[ERROR] Run 'mvn spotless:apply' to fix these violations.\n")
		return &act{kind: actRun, cmd: "mvn -q spotless:check", out: b.String(), exit: 1}
	}
	for _, f := range files {
		fmt.Fprintf(&b, "%s:%d: trailing whitespace.\n+%s \n", f, 3+g.r.intn(200), pick(g.r, []string{"  - name: " + pick(g.r, g.p.hosts), "SELECT 1;", "set -euo pipefail", "retries: 3"}))
	}
	return &act{kind: actRun, cmd: "git diff --check origin/main...HEAD", out: b.String(), exit: 2}
}

// logFollowAct lists the commits that touched path, following renames.
func (g *gen) logFollowAct(path string) *act {
	var b strings.Builder
	for i := 0; i < 3+g.r.intn(6); i++ {
		fmt.Fprintf(&b, "%s %s 2026-0%d-%02d %s %s\n", g.r.hex(7), pick(g.r, []string{"Priya Raman", "Tomás Ortega", "Lena Vogel", "dependabot[bot]", "Kwame Mensah"}),
			1+g.r.intn(3), 1+g.r.intn(28), pick(g.r, g.p.verbs), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "))
	}
	return &act{kind: actRun, cmd: "git log --follow --format='%h %an %ad %s' --date=short -- " + path, out: b.String()}
}

// goTaskAct runs a go-task target whose command is cmd, which fails.
func (g *gen) goTaskAct(cmd string) *act {
	name := "repro:" + kebab(g.nounWords()...)
	var b strings.Builder
	fmt.Fprintf(&b, "task: [%s] %s\n", name, cmd)
	for k := 0; k < 2+g.r.intn(5); k++ {
		b.WriteString(g.logLine(pick(g.r, []string{"info", "warn"}), pick(g.r, routineLogMsgs)) + "\n")
	}
	fmt.Fprintf(&b, "task: Failed to run task %q: exit status 1\n", name)
	return &act{kind: actRun, cmd: "task " + name, out: b.String(), exit: 201}
}

// sternAct tails the logs of every pod of a deployment with stern; one
// line holds e. It returns e as that line holds it.
func (g *gen) sternAct(e string) (*act, string) {
	host := pick(g.r, g.p.hosts)
	pods := []string{}
	for i := 0; i < 2+g.r.intn(2); i++ {
		pods = append(pods, fmt.Sprintf("%s-%s-%s", host, g.r.hex(10)[:10], g.r.alnum(5)))
	}
	var lines []string
	var bad string
	n := int(float64(10+g.r.intn(30)) * g.scale)
	at := n/4 + g.r.intn(n/2+1)
	for i := 0; i < n; i++ {
		if i == at {
			bad = g.logLine("error", e)
			lines = append(lines, pick(g.r, pods)+" "+host+" "+bad)
			continue
		}
		lines = append(lines, pick(g.r, pods)+" "+host+" "+g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs)))
	}
	out := strings.Join(lines, "\n") + "\n"
	cmd := fmt.Sprintf("stern %s -n %s --since 20m --tail 200 --no-follow --color never", host, g.p.name)
	return &act{kind: actRun, cmd: cmd, out: out}, asLogged(bad, e)
}

// issueViewAct reads a bug report whose body quotes e.
func (g *gen) issueViewAct(e string) *act {
	n := 100 + g.r.intn(4000)
	comp := pick(g.r, g.p.comps)
	out := fmt.Sprintf("title:\t%s %s\nstate:\tOPEN\nauthor:\t%s\nlabels:\tbug, needs-triage\ncomments:\t%d\nassignees:\t\nprojects:\t\nmilestone:\t\nnumber:\t%d\n--\n### What happened?\n\n%s %s since the last release. From the logs:\n\n```\n%s\n```\n\n### Steps to reproduce\n\n1. Deploy %s\n2. Wait for the nightly batch\n\n### Version\n\n%s\n",
		title(comp), pick(g.r, g.p.issues), pick(g.r, []string{"mkeller", "a-okafor", "j-lindqvist", "ruth-b"}), g.r.intn(6), n, title(comp), pick(g.r, g.p.issues), e, pick(g.r, g.p.hosts), pick(g.r, []string{"v2.14.1", "v2.15.0", "main @ " + g.r.hex(7)}))
	return &act{kind: actRun, cmd: fmt.Sprintf("gh issue view %d --repo northwind/%s", n, g.p.name), out: out}
}

// pgRestoreAct restores a dump into a scratch database; one statement
// fails with the PostgreSQL error e.
func (g *gen) pgRestoreAct(e string) *act {
	t := pick(g.r, g.p.tables)
	entry := 3000 + g.r.intn(2000)
	stmt := pick(g.r, []string{
		fmt.Sprintf("ALTER TABLE ONLY public.%s\n    ADD CONSTRAINT %s_external_id_fkey FOREIGN KEY (external_id) REFERENCES public.%s(id);", t, t, pick(g.r, g.p.tables)),
		fmt.Sprintf("COPY public.%s (id, tenant_id, payload, created_at) FROM stdin;", t),
		fmt.Sprintf("ALTER TABLE public.%s ALTER COLUMN archived_at SET NOT NULL;", t),
	})
	out := fmt.Sprintf("pg_restore: while PROCESSING TOC:\npg_restore: from TOC entry %d; %d %d TABLE DATA %s app\npg_restore: error: could not execute query: ERROR:  %s\nCommand was: %s\npg_restore: warning: errors ignored on restore: 1\n",
		entry, 2600+g.r.intn(20), 16000+g.r.intn(9000), t, e, stmt)
	return &act{kind: actRun, cmd: fmt.Sprintf("pg_restore --no-owner --no-acl -j %d -d postgresql://localhost:5432/scratch dumps/staging-2026-04-%02d.dump", 2+g.r.intn(6), g.day), out: out, exit: 1}
}

// execMySQLAct pipes a fixture into the MySQL client of a pod, which
// fails with e.
func (g *gen) execMySQLAct(e string) *act {
	f := fmt.Sprintf("db/fixtures/%s.sql", snake(g.nounWords()...))
	cmd := fmt.Sprintf("kubectl exec -i -n %s deploy/%s-mysql -- mysql -uapp -p\"$MYSQL_PASSWORD\" app < %s", g.p.name, pick(g.r, g.p.hosts), f)
	return &act{kind: actRun, cmd: cmd, out: "mysql: [Warning] Using a password on the command line interface can be insecure.\n" + e + "\ncommand terminated with exit code 1\n", exit: 1}
}

// tfJSONAct runs `terraform plan -json`; its last lines are the error
// diagnostic for e, as JSON.
func (g *gen) tfJSONAct(e string) *act {
	stamp := func() string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%06d+00:00", g.day, h, m, s, g.r.intn(1000000))
	}
	res := pick(g.r, []string{"helm_release", "github_branch_protection", "datadog_monitor", "pagerduty_service"})
	name := snake(g.nounWords()...)
	line := 5 + g.r.intn(120)
	var b strings.Builder
	fmt.Fprintf(&b, "{\"@level\":\"info\",\"@message\":\"Terraform 1.8.%d\",\"@module\":\"terraform.ui\",\"@timestamp\":%s,\"terraform\":\"1.8.%d\",\"type\":\"version\",\"ui\":\"1.2\"}\n", g.r.intn(5), jstr(stamp()), g.r.intn(5))
	for i := 0; i < 1+g.r.intn(4); i++ {
		r := fmt.Sprintf("%s.%s", pick(g.r, []string{"helm_release", "datadog_monitor", "github_repository"}), snake(g.nounWords()...))
		fmt.Fprintf(&b, "{\"@level\":\"info\",\"@message\":\"%s: Refreshing state... [id=%s]\",\"@module\":\"terraform.ui\",\"@timestamp\":%s,\"hook\":{\"resource\":{\"addr\":\"%s\"}},\"type\":\"refresh_start\"}\n", r, g.r.hex(8), jstr(stamp()), r)
	}
	fmt.Fprintf(&b, "{\"@level\":\"error\",\"@message\":%s,\"@module\":\"terraform.ui\",\"@timestamp\":%s,\"diagnostic\":{\"severity\":\"error\",\"summary\":%s,\"detail\":\"\",\"address\":\"%s.%s\",\"range\":{\"filename\":\"main.tf\",\"start\":{\"line\":%d,\"column\":1,\"byte\":%d},\"end\":{\"line\":%d,\"column\":%d,\"byte\":%d}}},\"type\":\"diagnostic\"}\n",
		jstr("Error: "+e), jstr(stamp()), jstr(e), res, name, line, line*40, line, 20+len(res), line*40+20)
	return &act{kind: actRun, cmd: "terraform plan -json -input=false -lock-timeout=60s | tail -n 6", out: b.String(), exit: 1}
}

// sfnExecutionsAct lists a state machine's executions as the AWS CLI
// prints JSON; the failed one's ARN is the probe.
func (g *gen) sfnExecutionsAct() (*act, string) {
	acct := fmt.Sprintf("%012d", 100000000000+g.r.intn(899999999999))
	region := pick(g.r, []string{"eu-west-1", "us-east-2", "eu-central-1"})
	sm := pascal(g.words(2)...)
	mk := func() string {
		return fmt.Sprintf("arn:aws:states:%s:%s:execution:%s:%s", region, acct, sm, g.r.uuid())
	}
	id := g.uniq(func(g *gen) string { return mk() })
	var items []string
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		arn, status := mk(), pick(g.r, []string{"SUCCEEDED", "SUCCEEDED", "SUCCEEDED", "RUNNING"})
		if i == at {
			arn, status = id, "FAILED"
		}
		name := arn[strings.LastIndexByte(arn, ':')+1:]
		h, m, s, _ := g.clock()
		items = append(items, fmt.Sprintf("        {\n            \"executionArn\": \"%s\",\n            \"stateMachineArn\": \"arn:aws:states:%s:%s:stateMachine:%s\",\n            \"name\": \"%s\",\n            \"status\": \"%s\",\n            \"startDate\": \"2026-04-%02dT%02d:%02d:%02d.%03d000+00:00\"\n        }",
			arn, region, acct, sm, name, status, g.day, h, m, s, g.r.intn(1000)))
	}
	out := "{\n    \"executions\": [\n" + strings.Join(items, ",\n") + "\n    ]\n}\n"
	cmd := fmt.Sprintf("aws stepfunctions list-executions --state-machine-arn arn:aws:states:%s:%s:stateMachine:%s --max-items %d", region, acct, sm, n)
	return &act{kind: actRun, cmd: cmd, out: out}, id
}

// ddTraceLogAct greps the journal for server errors; the lines carry
// Datadog trace ids, and the slow failure's trace id is the probe.
func (g *gen) ddTraceLogAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	tid := func() string { return fmt.Sprint(1000000000000000000 + g.r.intn(8000000000000000000)) }
	id := g.uniq(func(g *gen) string { return tid() })
	var lines []string
	row := func(status, ms int, trace string) string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d+0000 %s %s[%d]: level=error msg=\"request failed\" method=%s path=/v1/%ss status=%d dur=%dms dd.service=%s dd.env=prod dd.trace_id=%s dd.span_id=%s",
			g.day, h, m, s, pick(g.r, []string{"ip-10-0-3-41", "ip-10-0-7-12"}), host, 900+g.r.intn(9000), pick(g.r, []string{"GET", "POST", "PUT"}), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"), status, ms, host, trace, tid())
	}
	n := 5 + g.r.intn(8)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		if i == at {
			lines = append(lines, row(504, 30000+g.r.intn(200), id))
			continue
		}
		lines = append(lines, row(pick(g.r, []int{500, 502, 503}), 5+g.r.intn(400), tid()))
	}
	cmd := fmt.Sprintf("journalctl -u %s --since '-1h' -o short-iso --no-pager | grep -E 'status=5[0-9]{2}' | tail -n 20", host)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, id
}

// pagerDutyAct lists open incidents from the PagerDuty API as tab
// separated rows; the incident for the project's service is the probe.
func (g *gen) pagerDutyAct() (*act, string) {
	const abc = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	mk := func() string {
		var b strings.Builder
		b.WriteString(pick(g.r, []string{"Q", "P"}))
		for i := 0; i < 13; i++ {
			b.WriteByte(abc[g.r.intn(len(abc))])
		}
		return b.String()
	}
	id := g.uniq(func(g *gen) string { return mk() })
	host := pick(g.r, g.p.hosts)
	var rows []string
	for i := 0; i < 2+g.r.intn(5); i++ {
		rows = append(rows, fmt.Sprintf("%s\t%d\t%s\t%s", mk(), 4000+g.r.intn(900), pick(g.r, []string{"triggered", "acknowledged"}),
			pick(g.r, []string{"[payments] webhook error rate above 2%", "[search] indexer lag > 10m", "[auth] login p95 above 1.5s", "[infra] disk 90% on db-replica-2"})))
	}
	rows = slices.Insert(rows, g.r.intn(len(rows)+1), fmt.Sprintf("%s\t%d\ttriggered\t[%s] %s %s", id, 4000+g.r.intn(900), host, title(pick(g.r, g.p.comps)), pick(g.r, g.p.issues)))
	cmd := "curl -s -H \"Authorization: Token token=$PD_TOKEN\" 'https://api.pagerduty.com/incidents?statuses[]=triggered&statuses[]=acknowledged' | jq -r '.incidents[] | [.id, .incident_number, .status, .title] | @tsv'"
	return &act{kind: actRun, cmd: cmd, out: strings.Join(rows, "\n") + "\n"}, id
}

// endpoint is a URL of one of the project's services.
func (g *gen) endpoint() string {
	return fmt.Sprintf("http://%s.internal:8080/v1/%ss", pick(g.r, g.p.hosts), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"))
}

// ohaAct runs oha against an endpoint; the 99th percentile line is the
// probe.
func (g *gen) ohaAct() (*act, string) {
	url := g.endpoint()
	p50 := 8 + g.r.intn(120) // ms
	var p99 int              // tenths of a ms
	v := g.uniq(func(g *gen) string {
		p99 = p50*10*(3+g.r.intn(8)) + g.r.intn(10)
		return fmt.Sprintf("99.00%% in %d.%04d secs", p99/10000, p99%10000)
	})
	secs := func(tenthsMs int) string { return fmt.Sprintf("%d.%04d secs", tenthsMs/10000, tenthsMs%10000) }
	rps := 50 * 1000 / p50
	total := rps * 30
	var b strings.Builder
	fmt.Fprintf(&b, "Summary:\n  Success rate:\t%d.%02d%%\n  Total:\t30.00%02d secs\n  Slowest:\t%s\n  Fastest:\t%s\n  Average:\t%s\n  Requests/sec:\t%d.%04d\n\n  Total data:\t%d.%02d MiB\n  Size/request:\t%d B\n  Size/sec:\t%d.%02d KiB\n\n",
		99, g.r.intn(100), g.r.intn(100), secs(p99*3), secs(p50*10/8), secs(p50*12), rps, g.r.intn(10000), total/2000, g.r.intn(100), 300+g.r.intn(900), rps/2, g.r.intn(100))
	b.WriteString("Response time distribution:\n")
	for _, q := range []struct {
		p string
		x int
	}{{"10.00", p50 * 4}, {"25.00", p50 * 7}, {"50.00", p50 * 10}, {"75.00", p50 * 14}, {"90.00", p50 * 20}, {"95.00", p50 * 26}} {
		fmt.Fprintf(&b, "  %s%% in %s\n", q.p, secs(q.x))
	}
	fmt.Fprintf(&b, "  %s\n  99.90%% in %s\n  99.99%% in %s\n\n", v, secs(p99*2), secs(p99*3))
	fmt.Fprintf(&b, "Details (average, fastest, slowest):\n  DNS+dialup:\t0.00%02d secs, 0.000%d secs, 0.0%03d secs\n  DNS-lookup:\t0.0000 secs, 0.0000 secs, 0.000%d secs\n\nStatus code distribution:\n  [200] %d responses\n  [503] %d responses\n",
		g.r.intn(100), g.r.intn(10), g.r.intn(1000), g.r.intn(10), total-total/100, total/100)
	return &act{kind: actRun, cmd: "oha -z 30s -c 50 --no-tui " + url, out: b.String()}, v
}

// bombardierAct runs bombardier against an endpoint; the latency row is
// the probe.
func (g *gen) bombardierAct() (*act, string) {
	url := g.endpoint()
	conns := pick(g.r, []int{64, 125, 200, 256})
	var avg int // hundredths of a ms
	v := g.uniq(func(g *gen) string {
		avg = 500 + g.r.intn(30000)
		sd, mx := avg*(30+g.r.intn(70))/100, avg*(8+g.r.intn(30))
		return fmt.Sprintf("Latency      %d.%02dms    %d.%02dms   %d.%02dms", avg/100, avg%100, sd/100, sd%100, mx/100, mx%100)
	})
	rps := conns * 100000 / avg
	out := fmt.Sprintf("Bombarding %s for 30s using %d connection(s)\n[%s] 30s\nDone!\nStatistics        Avg      Stdev        Max\n  Reqs/sec    %7d.%02d    %d.%02d   %d.%02d\n  %s\n  HTTP codes:\n    1xx - 0, 2xx - %d, 3xx - 0, 4xx - %d, 5xx - %d\n    others - 0\n  Throughput:     %d.%02dMB/s\n",
		url, conns, strings.Repeat("=", 72), rps, g.r.intn(100), rps/4, g.r.intn(100), rps*2, g.r.intn(100), v, rps*30, g.r.intn(40), g.r.intn(300), 1+rps/800, g.r.intn(100))
	return &act{kind: actRun, cmd: fmt.Sprintf("bombardier -c %d -d 30s -l %s", conns, url), out: out}, v
}

// locustAct runs a headless Locust test; the slow endpoint's row of the
// percentile table is the probe.
func (g *gen) locustAct() (*act, string) {
	var paths []string
	for _, n := range pickN(g.r, g.p.nouns, 3+g.r.intn(3)) {
		paths = append(paths, "/v1/"+strings.ReplaceAll(n, "_", "-")+"s")
	}
	slow := g.r.intn(len(paths))
	row := func(method, name string, med, reqs int) string {
		qs := []int{med, med * 12 / 10, med * 14 / 10, med * 16 / 10, med * 23 / 10, med * 34 / 10, med * 56 / 10, med * 82 / 10, med * 21, med * 40, med * 40}
		var b strings.Builder
		fmt.Fprintf(&b, "%-8s %-54s", method, name)
		for _, q := range qs {
			fmt.Fprintf(&b, " %6d", q)
		}
		fmt.Fprintf(&b, " %6d", reqs)
		return b.String()
	}
	var table []string
	var v string
	total := 0
	for i, p := range paths {
		reqs := 2000 + g.r.intn(20000)
		total += reqs
		m := pick(g.r, []string{"GET", "GET", "POST"})
		if i == slow {
			v = g.uniq(func(g *gen) string { return row(m, p, 300+g.r.intn(3000), reqs) })
			table = append(table, v)
			continue
		}
		table = append(table, row(m, p, 20+g.r.intn(150), reqs))
	}
	hdr := fmt.Sprintf("%-8s %-54s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s %6s", "Type", "Name", "50%", "66%", "75%", "80%", "90%", "95%", "98%", "99%", "99.9%", "99.99%", "100%", "# reqs")
	sep := "--------|" + strings.Repeat("-", 54) + "|" + strings.Repeat("-------|", 11) + "------"
	h, m, sec, ms := g.clock()
	out := fmt.Sprintf("[2026-04-%02d %02d:%02d:%02d,%03d] loadgen/INFO/locust.main: --run-time limit reached, shutting down\n[2026-04-%02d %02d:%02d:%02d,%03d] loadgen/INFO/locust.main: Shutting down (exit code 0)\nResponse time percentiles (approximated)\n%s\n%s\n%s\n%s\n%s\n\n",
		g.day, h, m, sec, ms, g.day, h, m, sec, min(ms+40, 999), hdr, sep, strings.Join(table, "\n"), sep, row("", "Aggregated", 60+g.r.intn(100), total))
	cmd := fmt.Sprintf("locust -f loadtest/locustfile.py --headless -u %d -r 20 -t 3m --host http://%s.internal:8080 --only-summary", 50*(1+g.r.intn(8)), pick(g.r, g.p.hosts))
	return &act{kind: actRun, cmd: cmd, out: out}, strings.TrimSpace(v)
}

// redisBenchmarkAct runs redis-benchmark in quiet mode; one command's
// line is the probe.
func (g *gen) redisBenchmarkAct() (*act, string) {
	cmds := []string{"PING_INLINE", "PING_MBULK", "SET", "GET", "INCR", "LPUSH", "RPUSH", "LPOP", "HSET", "ZADD"}
	at := 2 + g.r.intn(len(cmds)-2)
	var b strings.Builder
	var v string
	for i, c := range cmds {
		line := func(g *gen) string {
			rps := 20000 + g.r.intn(160000)
			return fmt.Sprintf("%s: %d.%02d requests per second, p50=%d.%03d msec", c, rps, g.r.intn(100), g.r.intn(2), 100+g.r.intn(900))
		}
		if i == at {
			v = g.uniq(line)
			b.WriteString(v + "\n")
			continue
		}
		b.WriteString(line(g) + "\n")
	}
	cmd := fmt.Sprintf("redis-benchmark -h %s-cache -p 6379 -n 200000 -c 50 -P %d -q -t %s", pick(g.r, g.p.hosts), pick(g.r, []int{1, 4, 16}), strings.ToLower(strings.Join(cmds, ",")))
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// slowLogAct reads the tail of the MySQL slow query log; the slowest
// entry's timing line is the probe.
func (g *gen) slowLogAct() (*act, string) {
	var b strings.Builder
	n := 2 + g.r.intn(3)
	at := g.r.intn(n)
	var v string
	for i := 0; i < n; i++ {
		h, m, s, _ := g.clock()
		t := pick(g.r, g.p.tables)
		fmt.Fprintf(&b, "# Time: 2026-04-%02dT%02d:%02d:%02d.%06dZ\n# User@Host: app[app] @  [10.0.%d.%d]  Id: %d\n", g.day, h, m, s, g.r.intn(1000000), g.r.intn(250), 2+g.r.intn(250), 100000+g.r.intn(900000))
		qt := func(g *gen) string {
			us := 1000000 + g.r.intn(3000000)
			if i == at {
				us = 8000000 + g.r.intn(60000000)
			}
			return fmt.Sprintf("# Query_time: %d.%06d  Lock_time: 0.%06d Rows_sent: %d  Rows_examined: %d", us/1000000, us%1000000, g.r.intn(2000), 1+g.r.intn(200), 100000+g.r.intn(9000000))
		}
		line := qt(g)
		if i == at {
			v = g.uniq(qt)
			line = v
		}
		fmt.Fprintf(&b, "%s\nSET timestamp=%d;\nSELECT * FROM %s WHERE status = 'pending' AND updated_at < NOW() - INTERVAL 1 DAY ORDER BY id LIMIT 500;\n", line, 1775001600+g.day*86400+h*3600+m*60+s, t)
	}
	return &act{kind: actRun, cmd: "sudo tail -n 40 /var/log/mysql/mysql-slow.log", out: b.String()}, v
}

// explainJSONAct runs EXPLAIN (ANALYZE, FORMAT JSON) on a query; the
// execution time field is the probe.
func (g *gen) explainJSONAct() (*act, string) {
	t := pick(g.r, g.p.tables)
	v := g.uniq(func(g *gen) string {
		return fmt.Sprintf("\"Execution Time\": %d.%03d", 200+g.r.intn(40000), g.r.intn(1000))
	})
	rows := 10000 + g.r.intn(5000000)
	out := fmt.Sprintf(`[
  {
    "Plan": {
      "Node Type": "Limit",
      "Parallel Aware": false,
      "Startup Cost": %d.%02d,
      "Total Cost": %d.%02d,
      "Plan Rows": 50,
      "Actual Rows": 50,
      "Actual Loops": 1,
      "Plans": [
        {
          "Node Type": "Seq Scan",
          "Parent Relationship": "Outer",
          "Relation Name": "%s",
          "Alias": "%s",
          "Filter": "(tenant_id = %d)",
          "Rows Removed by Filter": %d,
          "Actual Rows": 50,
          "Actual Loops": 1,
          "Shared Hit Blocks": %d,
          "Shared Read Blocks": %d
        }
      ]
    },
    "Planning Time": 0.%03d,
    "Triggers": [
    ],
    %s
  }
]
`, g.r.intn(100), g.r.intn(100), 10000+g.r.intn(90000), g.r.intn(100), t, t, 1+g.r.intn(900), rows, g.r.intn(9000), rows/60, 100+g.r.intn(900), v)
	// psql prints the plan as one cell of its aligned output, each line
	// but the last marked with a "+" where it wraps.
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	w := 0
	for _, l := range lines {
		w = max(w, len(l))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n%s\n", strings.Repeat(" ", (w-8)/2+1)+"QUERY PLAN", strings.Repeat("-", w+2))
	for i, l := range lines {
		if i == len(lines)-1 {
			fmt.Fprintf(&b, " %s\n", l)
			continue
		}
		fmt.Fprintf(&b, " %-*s+\n", w, l)
	}
	b.WriteString("(1 row)\n\n")
	cmd := fmt.Sprintf("psql \"$DATABASE_URL\" -c \"EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) SELECT * FROM %s WHERE tenant_id = $TENANT ORDER BY created_at DESC LIMIT 50\"", t)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// sqliteTimerAct times a query with sqlite3's .timer; the run time line
// is the probe.
func (g *gen) sqliteTimerAct() (*act, string) {
	db := fmt.Sprintf("var/%s.sqlite3", snake(g.nounWords()...))
	v := g.uniq(func(g *gen) string {
		ms := 200 + g.r.intn(20000)
		u := ms * (70 + g.r.intn(25)) / 100
		return fmt.Sprintf("Run Time: real %d.%03d user %d.%06d sys %d.%06d", ms/1000, ms%1000, u/1000, u%1000*1000+g.r.intn(1000), (ms-u)/1000, (ms-u)%1000*1000)
	})
	t := pick(g.r, g.p.tables)
	cmd := fmt.Sprintf("sqlite3 %s <<'SQL'\n.timer on\nSELECT count(*) FROM %s WHERE key LIKE '%%:%s:%%';\nSQL", db, t, strings.ReplaceAll(pick(g.r, g.p.nouns), "_", ""))
	return &act{kind: actRun, cmd: cmd, out: fmt.Sprintf("%d\n%s\n", 1000+g.r.intn(900000), v)}, v
}

// topPodAct shows the pods' CPU and memory; the heaviest pod's row is the
// probe.
func (g *gen) topPodAct() (*act, string) {
	var rows []string
	pod := func() string {
		return fmt.Sprintf("%s-%s-%s", pick(g.r, g.p.hosts), g.r.hex(10)[:10], g.r.alnum(5))
	}
	v := g.uniq(func(g *gen) string {
		return fmt.Sprintf("%-44s %-12s %s", pod(), fmt.Sprintf("%dm", 900+g.r.intn(3000)), fmt.Sprintf("%dMi", 1500+g.r.intn(6000)))
	})
	rows = append(rows, fmt.Sprintf("%-44s %-12s %s", "NAME", "CPU(cores)", "MEMORY(bytes)"), v)
	for i := 0; i < 3+g.r.intn(6); i++ {
		rows = append(rows, fmt.Sprintf("%-44s %-12s %s", pod(), fmt.Sprintf("%dm", 5+g.r.intn(400)), fmt.Sprintf("%dMi", 60+g.r.intn(900))))
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("kubectl top pod -n %s --sort-by=memory", g.p.name), out: strings.Join(rows, "\n") + "\n"}, v
}

// ddAct writes a file with dd, bypassing the page cache; the summary line
// is the probe.
func (g *gen) ddAct() (*act, string) {
	count := pick(g.r, []int{1024, 2048, 4096, 8192})
	bytes := count * 1048576
	v := g.uniq(func(g *gen) string {
		rate := 40 + g.r.intn(1900) // MB/s
		secs := float64(bytes) / float64(rate*1000000)
		return fmt.Sprintf("%d bytes (%.1f GB, %.1f GiB) copied, %.4f s, %d MB/s", bytes, float64(bytes)/1e9, float64(count)/1024, secs, rate)
	})
	out := fmt.Sprintf("%d+0 records in\n%d+0 records out\n%s\n", count, count, v)
	dir := pick(g.r, []string{"/var/lib/postgresql", "/var/lib/" + g.p.name, "/data"})
	return &act{kind: actRun, cmd: fmt.Sprintf("dd if=/dev/zero of=%s/ddtest bs=1M count=%d oflag=direct conv=fdatasync && rm %s/ddtest", dir, count, dir), out: out}, v
}

// tokeiAct counts the lines of code; the project's language row is the
// probe.
func (g *gen) tokeiAct() (*act, string) {
	name := map[string]string{"go": "Go", "python": "Python", "ts": "TypeScript", "rust": "Rust", "java": "Java"}[g.l.name]
	if name == "" {
		name = "SQL"
	}
	line := func(lang string, files, code int) string {
		comments, blanks := code/9, code/7
		return fmt.Sprintf(" %-22s %11d %11d %11d %11d %11d", lang, files, code+comments+blanks, code, comments, blanks)
	}
	v := g.uniq(func(g *gen) string { return strings.TrimSpace(line(name, 40+g.r.intn(600), 8000+g.r.intn(200000))) })
	rule := strings.Repeat("=", 80)
	rows := []string{rule, fmt.Sprintf(" %-22s %11s %11s %11s %11s %11s", "Language", "Files", "Lines", "Code", "Comments", "Blanks"), rule, " " + v}
	for _, o := range pickN(g.r, []string{"JSON", "YAML", "Markdown", "Shell", "TOML", "Dockerfile", "Makefile"}, 3+g.r.intn(3)) {
		rows = append(rows, line(o, 1+g.r.intn(40), 20+g.r.intn(3000)))
	}
	rows = append(rows, strings.Repeat("=", 80))
	return &act{kind: actRun, cmd: "tokei --sort code --exclude vendor --exclude node_modules .", out: strings.Join(rows, "\n") + "\n"}, v
}

// memTraceAct shows the runtime's own account of memory: Go's GC trace,
// Node's --trace-gc, the JVM's safepoint log, CPython's gc debug output,
// heaptrack for Rust, autovacuum's log for the rest. The line that
// stands out (the largest heap, the longest pause) is the probe.
func (g *gen) memTraceAct() (*act, string) {
	var lines []string
	var v string
	// trace writes n lines with mk, the one at index at made big; mk
	// draws a new line each call, so the big one is drawn until new.
	trace := func(mk func(g *gen, big bool) string) {
		n := 5 + g.r.intn(6)
		at := g.r.intn(n)
		for i := 0; i < n; i++ {
			if i == at {
				v = g.uniq(func(g *gen) string { return mk(g, true) })
				lines = append(lines, v)
				continue
			}
			lines = append(lines, mk(g, false))
		}
	}
	run := g.replayCmd()
	switch g.l.name {
	case "go":
		gc := 10 + g.r.intn(200)
		ms := 1000 + g.r.intn(5000)
		trace(func(g *gen, big bool) string {
			gc++
			ms += 100 + g.r.intn(900)
			heap, mark := 40+g.r.intn(200), 1+g.r.intn(20)
			if big {
				heap, mark = 900+g.r.intn(3000), 40+g.r.intn(300)
			}
			return fmt.Sprintf("gc %d @%d.%03ds %d%%: 0.0%02d+%d.%d+0.0%02d ms clock, 0.%03d+%d.%d/%d.%d/%d.%d+0.%03d ms cpu, %d->%d->%d MB, %d MB goal, 0 MB stacks, 0 MB globals, 8 P",
				gc, ms/1000, ms%1000, 1+g.r.intn(20), g.r.intn(100), mark, g.r.intn(10), g.r.intn(100), g.r.intn(1000), g.r.intn(9), g.r.intn(10), g.r.intn(20), g.r.intn(10), g.r.intn(40), g.r.intn(10), g.r.intn(1000),
				heap, heap+g.r.intn(60), heap/2, heap+heap/2)
		})
		return &act{kind: actRun, cmd: "GODEBUG=gctrace=1 " + run + " 2>&1 >/dev/null | tail -n 12", out: strings.Join(lines, "\n") + "\n"}, v
	case "ts":
		pid := 1000 + g.r.intn(60000)
		isolate := 0x5a0000000000 + g.r.intn(0xffffff)
		ms := 1000
		trace(func(g *gen, big bool) string {
			ms += 200 + g.r.intn(3000)
			before := 800 + g.r.intn(1200)
			after := before * (70 + g.r.intn(25)) / 100
			pause := 100 + g.r.intn(400)
			if big {
				pause = 1500 + g.r.intn(4000)
			}
			return fmt.Sprintf("[%d:0x%x] %7d ms: Mark-Compact %d.%d (%d.%d) -> %d.%d (%d.%d) MB, pooled: 0 MB, %d.%02d / 0.00 ms  (average mu = 0.%03d, current mu = 0.%03d) allocation failure; scavenge might not succeed",
				pid, isolate, ms, before, g.r.intn(10), before+40, g.r.intn(10), after, g.r.intn(10), after+50, g.r.intn(10), pause, g.r.intn(100), g.r.intn(1000), g.r.intn(1000))
		})
		return &act{kind: actRun, cmd: "node --trace-gc --max-old-space-size=2048 " + strings.TrimPrefix(run, "node ") + " | grep Mark-Compact | tail -n 10", out: strings.Join(lines, "\n") + "\n"}, v
	case "java":
		ms := 10000 + g.r.intn(900000)
		trace(func(g *gen, big bool) string {
			ms += 500 + g.r.intn(90000)
			at := 1000 + g.r.intn(90000) // µs
			if big {
				at = 400000 + g.r.intn(3000000)
			}
			reach, clean := 2000+g.r.intn(90000), 1000+g.r.intn(9000)
			return fmt.Sprintf("[%d.%03ds][info][safepoint] Safepoint \"%s\", Time since last: %d ns, Reaching safepoint: %d ns, Cleanup: %d ns, At safepoint: %d ns, Total: %d ns",
				ms/1000, ms%1000, pick(g.r, []string{"G1CollectForAllocation", "ICBufferFull", "HandshakeAllThreads", "G1PauseRemark"}), 100000000+g.r.intn(900000000), reach, clean, at*1000, at*1000+reach+clean)
		})
		return &act{kind: actRun, cmd: fmt.Sprintf("grep -F '[safepoint]' logs/%s-gc.log | tail -n 10", g.p.name), out: strings.Join(lines, "\n") + "\n"}, v
	case "python":
		trace(func(g *gen, big bool) string {
			ms := g.r.intn(40)
			if big {
				ms = 900 + g.r.intn(4000)
			}
			return fmt.Sprintf("gc: done, %d unreachable, 0 uncollectable, %d.%04ds elapsed", g.r.intn(200000), ms/1000, ms%1000*10+g.r.intn(10))
		})
		cmd := fmt.Sprintf("python -c 'import gc, runpy, sys; gc.set_debug(gc.DEBUG_STATS); sys.argv = [\"%s\", \"replay\"]; runpy.run_module(\"%s\", run_name=\"__main__\")' 2>&1 | grep 'gc: done' | tail -n 10", g.p.module, g.p.module)
		return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, v
	case "rust":
		v = g.uniq(func(g *gen) string {
			return fmt.Sprintf("peak heap memory consumption: %d.%02dG after %d.%03ds", 1+g.r.intn(6), g.r.intn(100), 5+g.r.intn(200), g.r.intn(1000))
		})
		out := fmt.Sprintf("reading file \"heaptrack.%s.%d.zst\" - please wait, this might take some time...\nDebuggee command was: %s\nfinished reading file, now analyzing data:\n\nMOST CALLS TO ALLOCATION FUNCTIONS\n%d calls to allocation functions with %d.%02dM peak consumption from\nalloc::raw_vec::finish_grow\n  in %s\n\ntotal runtime: %d.%03ds.\ncalls to allocation functions: %d (%d/s)\ntemporary memory allocations: %d (%d/s)\n%s\npeak RSS (including heaptrack overhead): %d.%02dG\ntotal memory leaked: %d.%02dK\n",
			crateOf(pick(g.r, g.p.dirs)), 1000+g.r.intn(60000), run, 100000+g.r.intn(9000000), 10+g.r.intn(900), g.r.intn(100), run, 10+g.r.intn(300), g.r.intn(1000), 1000000+g.r.intn(90000000), 10000+g.r.intn(900000), 10000+g.r.intn(900000), 1000+g.r.intn(90000), v, 7+g.r.intn(6), g.r.intn(100), g.r.intn(900), g.r.intn(100))
		return &act{kind: actRun, cmd: "heaptrack_print --print-peaks 0 --print-allocators 0 heaptrack.*.zst | tail -n 16", out: out}, v
	}
	h, m := 1, 0
	trace(func(g *gen, big bool) string {
		m += 5 + g.r.intn(40)
		r, w := 10+g.r.intn(60), g.r.intn(30)
		if big {
			r, w = 300+g.r.intn(900), 80+g.r.intn(300)
		}
		return fmt.Sprintf("2026-04-%02d %02d:%02d:%02d.%03d UTC [%d] LOG:  automatic vacuum of table \"app.public.%s\": index scans: 1\n\tavg read rate: %d.%03d MB/s, avg write rate: %d.%03d MB/s",
			g.day, h+m/60, m%60, g.r.intn(60), g.r.intn(1000), 1000+g.r.intn(60000), pick(g.r, g.p.tables), r, g.r.intn(1000), w, g.r.intn(1000))
	})
	// The probe is the rate line of the big entry, as a user would quote it.
	v = v[strings.IndexByte(v, '\t')+1:]
	return &act{kind: actRun, cmd: "sudo grep -h -A1 'automatic vacuum' /var/log/postgresql/postgresql-13-main.log | grep -v '^--' | tail -n 20", out: strings.Join(lines, "\n") + "\n"}, v
}

// microBenchAct measures one function with the ecosystem's benchmark
// harness: pytest-benchmark, mitata, divan, the JVM's native memory
// tracking, Go's scheduler trace, or stress-ng. Its headline line is the
// probe.
func (g *gen) microBenchAct() (*act, string) {
	var b strings.Builder
	fn := g.fnName()
	switch g.l.name {
	case "python":
		tf := pick(g.r, g.tfiles)
		names := []string{"test_" + snake(g.words(2)...), "test_" + snake(g.words(2)...), "test_" + snake(g.words(2)...)}
		at := g.r.intn(3)
		row := func(name string, us int) string {
			return fmt.Sprintf("%-34s %9d.%04d %9d.%04d %9d.%04d %7d.%04d %9d.%04d   %d;%d  %d.%04d  %d  %d", name, us*9/10, g.r.intn(10000), us*3, g.r.intn(10000), us, g.r.intn(10000), us/10, g.r.intn(10000), us*95/100, g.r.intn(10000), g.r.intn(9), g.r.intn(30), 1000000/max(us, 1), g.r.intn(10000), 50+g.r.intn(4000), 1)
		}
		var v string
		var rows []string
		for i, n := range names {
			if i == at {
				v = g.uniq(func(g *gen) string { return row(n, 200+g.r.intn(90000)) })
				rows = append(rows, v)
				continue
			}
			rows = append(rows, row(n, 5+g.r.intn(300)))
		}
		rule := strings.Repeat("-", 140)
		fmt.Fprintf(&b, "\n%s benchmark: %d tests %s\nName (time in us) %16s %14s %14s %12s %14s %9s %9s %6s %10s\n%s\n%s\n%s\n\nLegend:\n  Outliers: 1 Standard Deviation from Mean; 1.5 IQR (InterQuartile Range) from 1st Quartile and 3rd Quartile.\n  OPS: Operations Per Second, computed as 1 / Mean\n",
			strings.Repeat("-", 40), len(names), strings.Repeat("-", 40), "Min", "Max", "Mean", "StdDev", "Median", "Outliers", "OPS", "Rounds", "Iterations", rule, strings.Join(rows, "\n"), rule)
		return &act{kind: actRun, cmd: fmt.Sprintf("pytest %s --benchmark-only --benchmark-columns=min,max,mean,stddev,median,outliers,ops,rounds,iterations", tf), out: b.String()}, v
	case "ts":
		v := g.uniq(func(g *gen) string {
			avg := 200 + g.r.intn(90000) // ns
			return fmt.Sprintf("%-24s %s/iter %s", fn, nsUnit(avg), fmt.Sprintf("(%s … %s) %s", nsUnit(avg*8/10), nsUnit(avg*4), nsUnit(avg*12/10)))
		})
		fmt.Fprintf(&b, "clk: ~3.%02d GHz\ncpu: AMD EPYC 7R13 Processor\nruntime: node 22.%d.0 (x64-linux)\n\nbenchmark                   avg (min … max) p75   p99\n------------------------------------------- -------------\n%s\n%-24s %s/iter (%s … %s) %s\n",
			g.r.intn(100), g.r.intn(12), v, g.fnName()+"Baseline", nsUnit(90+g.r.intn(200)), nsUnit(60), nsUnit(900), nsUnit(120))
		return &act{kind: actRun, cmd: fmt.Sprintf("node --expose-gc bench/%s.bench.mjs", kebab(g.nounWords()...)), out: b.String()}, v
	case "rust":
		crate := crateOf(pick(g.r, g.p.dirs))
		name := snake(g.words(2)...)
		v := g.uniq(func(g *gen) string {
			us := 10 + g.r.intn(9000) // tenths of a µs
			return fmt.Sprintf("├─ %-22s %d.%d µs       │ %d.%d µs       │ %d.%d µs       │ %d.%d µs       │ 100     │ 100", name, us*9/100, us*9/10%10, us*3/10, us*3%10, us/10, us%10, us*11/100, us*11/10%10)
		})
		fmt.Fprintf(&b, "     Running benches/%s.rs (target/release/deps/%s-%s)\n%s  fastest       │ slowest       │ median        │ mean          │ samples │ iters\n%s\n╰─ %-22s 412.1 ns      │ 2.301 µs      │ 455.8 ns      │ 501.3 ns      │ 100     │ 100\n",
			crate, crate, g.r.hex(16), fmt.Sprintf("%-26s", crate), v, snake(g.words(2)...))
		return &act{kind: actRun, cmd: fmt.Sprintf("cargo bench -p %s --bench %s -- %s", crate, crate, name), out: b.String()}, v
	case "java":
		v := g.uniq(func(g *gen) string {
			res := 2000000 + g.r.intn(6000000)
			return fmt.Sprintf("Total: reserved=%dKB, committed=%dKB", res, res*(30+g.r.intn(40))/100)
		})
		fmt.Fprintf(&b, "%d:\n\nNative Memory Tracking:\n\n(Omitting categories weighting less than 1KB)\n\n%s\n       malloc: %dKB #%d\n       mmap:   reserved=%dKB, committed=%dKB\n\n-                 Java Heap (reserved=%dKB, committed=%dKB)\n                            (mmap: reserved=%dKB, committed=%dKB)\n\n-                     Class (reserved=%dKB, committed=%dKB)\n                            (classes #%d)\n\n-                    Thread (reserved=%dKB, committed=%dKB)\n                            (threads #%d)\n",
			1000+g.r.intn(60000), v, 100000+g.r.intn(900000), 100000+g.r.intn(900000), 2000000+g.r.intn(900000), 900000+g.r.intn(900000), 1048576*2, 1048576, 1048576*2, 1048576, 1050000+g.r.intn(9000), 30000+g.r.intn(90000), 20000+g.r.intn(9000), 200000+g.r.intn(90000), 60000+g.r.intn(9000), 100+g.r.intn(300))
		return &act{kind: actRun, cmd: fmt.Sprintf("jcmd $(pgrep -f %s) VM.native_memory summary scale=KB | head -n 24", g.p.module), out: b.String()}, v
	case "go":
		ms := 1000
		var v string
		at := 2 + g.r.intn(4)
		for i := 0; i < 7; i++ {
			line := func(g *gen) string {
				q := g.r.intn(40)
				if i == at {
					q = 200 + g.r.intn(3000)
				}
				return fmt.Sprintf("SCHED %dms: gomaxprocs=8 idleprocs=%d threads=%d spinningthreads=%d needspinning=%d idlethreads=%d runqueue=%d [%d %d %d %d %d %d %d %d] schedticks=[%d %d %d %d %d %d %d %d]",
					ms, g.r.intn(3), 14+g.r.intn(20), g.r.intn(2), g.r.intn(2), 2+g.r.intn(8), q, g.r.intn(200), g.r.intn(200), g.r.intn(200), g.r.intn(200), g.r.intn(200), g.r.intn(200), g.r.intn(200), g.r.intn(200),
					ms*3+g.r.intn(900), ms*3+g.r.intn(900), ms*3+g.r.intn(900), ms*3+g.r.intn(900), ms*3+g.r.intn(900), ms*3+g.r.intn(900), ms*3+g.r.intn(900), ms*3+g.r.intn(900))
			}
			if i == at {
				v = g.uniq(line)
				b.WriteString(v + "\n")
			} else {
				b.WriteString(line(g) + "\n")
			}
			ms += 1000 + g.r.intn(3)
		}
		return &act{kind: actRun, cmd: "GODEBUG=schedtrace=1000,scheddetail=0 " + g.replayCmd() + " 2>&1 >/dev/null | grep ^SCHED | head -n 7", out: b.String()}, v
	}
	pid := 1000 + g.r.intn(60000)
	v := g.uniq(func(g *gen) string {
		ops := 20000 + g.r.intn(900000)
		return fmt.Sprintf("stress-ng: metrc: [%d] %-13s %9d %9d.%02d %9d.%02d %9d.%02d %12d.%02d %13d.%02d", pid, pick(g.r, []string{"hdd", "iomix", "fsync"}), ops, 60, g.r.intn(100), g.r.intn(30), g.r.intn(100), 10+g.r.intn(200), g.r.intn(100), ops/60, g.r.intn(100), ops/(10+g.r.intn(200)), g.r.intn(100))
	})
	fmt.Fprintf(&b, "stress-ng: info:  [%d] setting to a 1 min run per stressor\nstress-ng: info:  [%d] dispatching hogs: 4 %s\nstress-ng: metrc: [%d] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s\nstress-ng: metrc: [%d]                           (secs)    (secs)    (secs)   (real time) (usr+sys time)\n%s\nstress-ng: info:  [%d] successful run completed in 1 min\n",
		pid, pid, strings.Fields(v)[3], pid, pid, v, pid)
	return &act{kind: actRun, cmd: fmt.Sprintf("stress-ng --%s 4 --temp-path /var/lib/postgresql/stress --timeout 60s --metrics-brief", strings.Fields(v)[3]), out: b.String()}, v
}

// nsUnit prints a duration of ns nanoseconds as mitata does.
func nsUnit(ns int) string {
	switch {
	case ns >= 1000000:
		return fmt.Sprintf("%d.%02d ms", ns/1000000, ns/10000%100)
	case ns >= 1000:
		return fmt.Sprintf("%d.%02d µs", ns/1000, ns/10%100)
	}
	return fmt.Sprintf("%d.00 ns", ns)
}

// iostatAct reports extended device statistics twice; the data volume's
// row in the second report is the probe.
func (g *gen) iostatAct() (*act, string) {
	hdr := "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util"
	row := func(dev string, busy bool) string {
		r, w := g.r.intn(400), g.r.intn(300)
		aw := g.r.intn(300)
		util := g.r.intn(30)
		if busy {
			r, w, aw, util = 800+g.r.intn(9000), 400+g.r.intn(6000), 2000+g.r.intn(20000), 92+g.r.intn(8)
		}
		return fmt.Sprintf("%-12s %8d.%02d %9d.%02d %8d.%02d %6d.%02d %7d.%02d %8d.%02d %7d.%02d %9d.%02d %8d.%02d %6d.%02d %7d.%02d %8d.%02d %7d.%02d %9d.%02d %8d.%02d %6d.%02d %7d.%02d %8d.%02d %7d.%02d %7d.%02d %7d.%02d %6d.%02d",
			dev, r, g.r.intn(100), r*16, g.r.intn(100), g.r.intn(20), g.r.intn(100), g.r.intn(10), g.r.intn(100), aw/100, aw%100, 16+g.r.intn(50), g.r.intn(100),
			w, g.r.intn(100), w*24, g.r.intn(100), g.r.intn(90), g.r.intn(100), g.r.intn(40), g.r.intn(100), aw/60, g.r.intn(100), 20+g.r.intn(40), g.r.intn(100),
			0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, g.r.intn(20), g.r.intn(100), g.r.intn(3), g.r.intn(100), (r+w)*aw/10000000, g.r.intn(100), util, g.r.intn(100))
	}
	dev := pick(g.r, []string{"nvme1n1", "xvdf", "sdb"})
	var b strings.Builder
	v := ""
	for rep := 0; rep < 2; rep++ {
		h, m, s, _ := g.clock()
		fmt.Fprintf(&b, "04/%02d/2026 %02d:%02d:%02d AM\n%s\n", g.day, h%12, m, s, hdr)
		b.WriteString(row("nvme0n1", false) + "\n")
		if rep == 1 {
			v = g.uniq(func(g *gen) string { return row(dev, true) })
			b.WriteString(v + "\n\n")
		} else {
			b.WriteString(row(dev, false) + "\n\n")
		}
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("iostat -dxt nvme0n1 %s 5 2", dev), out: b.String()}, v
}

// reviewsJSONAct reads a pull request's reviews through the API; one
// reviewer's approval holds d.
func (g *gen) reviewsJSONAct(d string) *act {
	n := 100 + g.r.intn(4000)
	var rows []string
	rows = append(rows, fmt.Sprintf("{\"body\":%s,\"state\":\"COMMENTED\",\"user\":\"%s\"}", jstr(pick(g.r, []string{"Can we get a test for the empty batch case?", "Left two small comments inline.", "Does this need a changelog entry?"})), pick(g.r, []string{"ci-review-bot", "mkeller"})))
	rows = append(rows, fmt.Sprintf("{\"body\":%s,\"state\":\"APPROVED\",\"user\":\"%s\"}", jstr(d), pick(g.r, []string{"a-okafor", "j-lindqvist", "ruth-b", "tsato"})))
	if g.r.chance(0.5) {
		rows = append(rows, "{\"body\":\"\",\"state\":\"APPROVED\",\"user\":\"mkeller\"}")
	}
	cmd := fmt.Sprintf("gh api repos/northwind/%s/pulls/%d/reviews --jq '.[] | {user: .user.login, state, body}'", g.p.name, n)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(rows, "\n") + "\n"}
}
