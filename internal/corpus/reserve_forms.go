package corpus

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// reserveForms plant the reserve half's probes, in surfaces none of the
// other halves' forms use: `git apply --check`, pre-commit hooks, Semgrep
// findings through jq, `git blame` of a line range, Jenkins console text,
// mise tasks, a shell loop hunting a flake, `fly logs`, supervisord's
// stderr tail, JUnit XML reports, Liquibase, GNU parallel around the
// MySQL client, OpenTofu; Auth0 user ids, upstream issue references,
// Airflow run ids, BigQuery job ids, Argo workflow names, Cassandra
// timeuuids; ghz, JMeter, siege, vmstat, nvidia-smi, progress bars
// (tqdm, indicatif, cli-progress, progressbar, pv), clickhouse-benchmark,
// Spark's scheduler log, mtr, `git count-objects`, ioping, `netstat -s`
// and nodetool; decisions before a search, inside reasoning, as answers,
// in Teams cards, postmortems, regression-test headers, an earlier
// commit's body, a work log and the user's reply; constraints as
// boundaries, notes, relayed requests, corrections and handbook quotes.
// Each returns its probe as the session holds it.
var reserveForms = []*form{
	// paths
	{"user-path-hotfix", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	{"prose-path-sits", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	{"apply-check-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "whether the saved patch still applies"}), g.applyCheckAct(p))
		return p
	}},
	{"pre-commit-fix-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the pre-commit hooks"}), g.preCommitAct(p))
		return p
	}},
	{"semgrep-finding-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the static analysis findings"}), g.semgrepAct(p))
		return p
	}},
	{"blame-range-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "who last touched those lines"}), g.blameAct(p))
		return p
	}},
	// commands
	{"user-command-laptop", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command-recorded", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	{"jenkins-console-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the Jenkins job's console"}), g.jenkinsAct(c))
		return c
	}},
	{"mise-task-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("edit", map[string]string{"path": "mise.toml"}), g.miseAct(c))
		return c
	}},
	{"flake-loop-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "how often it fails in a row"}), g.flakeLoopAct(c))
		return c
	}},
	// errors
	{"user-error-uptime", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	{"fly-logs-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.flyLogsAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the app's recent logs on Fly"}), a)
		return probe
	}},
	{"supervisor-stderr-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the process's stderr"}), g.supervisorAct(e))
		return e
	}},
	{"junit-xml-failure-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.junitAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the CI test report"}), a)
		return probe
	}},
	{"liquibase-update-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("psql")
		g.step(g.announce("other", map[string]string{"what": "the changelog update"}), g.liquibaseAct(e))
		return e
	}},
	{"parallel-seed-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("mysql")
		g.step(g.announce("other", map[string]string{"what": "loading the seed files"}), g.parallelSeedAct(e))
		return e
	}},
	{"tofu-apply-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("tf")
		g.step(g.announce("other", map[string]string{"what": "the staging apply"}), g.tofuAct(e))
		return e
	}},
	// identifiers
	{"user-id-auth0", "identifier", siteUser, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return "auth0|" + g.r.hex(24) })
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"prose-id-upstream", "identifier", siteAssistant, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return g.upstreamRef() })
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	{"airflow-run-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.airflowRunsAct()
		g.step(g.announce("other", map[string]string{"what": "the DAG's recent runs"}), a)
		return id
	}},
	{"bq-job-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.bqJobsAct()
		g.step(g.announce("other", map[string]string{"what": "the warehouse jobs"}), a)
		return id
	}},
	{"argo-workflow-name", "identifier", siteOutput, func(g *gen) string {
		a, id := g.argoListAct()
		g.step(g.announce("other", map[string]string{"what": "last night's workflows"}), a)
		return id
	}},
	{"cqlsh-timeuuid", "identifier", siteOutput, func(g *gen) string {
		a, id := g.cqlshAct()
		g.step(g.announce("other", map[string]string{"what": "the rows in Cassandra"}), a)
		return id
	}},
	// measurements
	{"ghz-latency-p99", "measurement", siteOutput, func(g *gen) string {
		a, v := g.ghzAct()
		g.step(g.announce("other", map[string]string{"what": "the gRPC endpoint under load"}), a)
		return v
	}},
	{"jmeter-summary-line", "measurement", siteOutput, func(g *gen) string {
		a, v := g.jmeterAct()
		g.step(g.announce("other", map[string]string{"what": "the JMeter plan headless"}), a)
		return v
	}},
	{"siege-transaction-rate", "measurement", siteOutput, func(g *gen) string {
		a, v := g.siegeAct()
		g.step(g.announce("other", map[string]string{"what": "throughput with fifty simulated users"}), a)
		return v
	}},
	{"vmstat-wait-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.vmstatAct()
		g.step(g.announce("other", map[string]string{"what": "CPU wait and blocked processes"}), a)
		return v
	}},
	{"nvidia-smi-memory", "measurement", siteOutput, func(g *gen) string {
		a, v := g.nvidiaSmiAct()
		g.step(g.announce("other", map[string]string{"what": "GPU memory on the worker"}), a)
		return v
	}},
	{"progress-bar-final", "measurement", siteOutput, func(g *gen) string {
		a, v := g.progressAct()
		g.step(g.announce("other", map[string]string{"what": "how fast the backfill runs"}), a)
		return v
	}},
	{"clickhouse-benchmark-qps", "measurement", siteOutput, func(g *gen) string {
		a, v := g.chBenchmarkAct()
		g.step(g.announce("other", map[string]string{"what": "the analytics query repeated"}), a)
		return v
	}},
	{"spark-job-duration", "measurement", siteOutput, func(g *gen) string {
		a, v := g.sparkJobAct()
		g.step(g.announce("other", map[string]string{"what": "the rollup job locally"}), a)
		return v
	}},
	{"mtr-lossy-hop", "measurement", siteOutput, func(g *gen) string {
		a, v := g.mtrAct()
		g.step(g.announce("other", map[string]string{"what": "the network path between the services"}), a)
		return v
	}},
	{"count-objects-pack-size", "measurement", siteOutput, func(g *gen) string {
		a, v := g.countObjectsAct()
		g.step(g.announce("other", map[string]string{"what": "why the clone is slow"}), a)
		return v
	}},
	{"ioping-latency", "measurement", siteOutput, func(g *gen) string {
		a, v := g.iopingAct()
		g.step(g.announce("other", map[string]string{"what": "per-request disk latency"}), a)
		return v
	}},
	{"netstat-retransmits", "measurement", siteOutput, func(g *gen) string {
		a, v := g.netstatAct()
		g.step(g.announce("other", map[string]string{"what": "TCP retransmissions on the box"}), a)
		return v
	}},
	{"nodetool-read-latency", "measurement", siteOutput, func(g *gen) string {
		a, v := g.nodetoolAct()
		g.step(g.announce("other", map[string]string{"what": "the Cassandra table's statistics"}), a)
		return v
	}},
	// decisions
	{"decision-then-callers", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		a := g.searchAct()
		g.step(d+"\n\n"+pick(g.r, []string{"Listing every caller before I touch it.", "First, every place that would have to change:", "Now the call sites."}), a)
		return d
	}},
	{"decision-in-reasoning", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		lead := pick(g.r, []string{"The failing and the passing case differ in exactly one place.", "Reading both code paths side by side made it obvious.", "The trace and the test agree now."})
		tail := pick(g.r, []string{"The edit below does just that.", "Applying it now.", "Small change, below."})
		g.step(lead+" "+d+" "+tail, g.editAct(""))
		return d
	}},
	{"decision-answer-question", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step("On your question about "+pick(g.r, g.p.comps)+": "+d, g.testAct(0, "", nil))
		return d
	}},
	{"decision-after-failure", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		g.step(pick(g.r, []string{"That failure rules one of the options out.", "The red run narrows it down.", "So the first attempt was wrong."})+"\n\n"+d, g.editAct(""))
		return d
	}},
	{"decision-user-pick", "decision", siteUser, func(g *gen) string {
		d := g.reserveUserDecision()
		g.say(d)
		return d
	}},
	{"decision-teams-card", "decision", siteInput, func(g *gen) string {
		d := g.decisionLine()
		g.step(g.announce("other", map[string]string{"what": "a note in the team's Teams channel"}), g.teamsCardAct(d))
		return jsonInner(d)
	}},
	{"decision-postmortem-doc", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		path, content := g.postmortem(d)
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return d
	}},
	{"decision-regression-test-header", "decision", siteInput, func(g *gen) string {
		d := g.decisionLine()
		path, content := g.regressionTestFile(d)
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return d
	}},
	{"decision-prior-commit-body", "decision", siteOutput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "why it was written this way"}), g.priorCommitAct(d))
		return d
	}},
	{"decision-worklog-tee", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the work log"}), g.worklogAct(d))
		return d
	}},
	// constraints
	{"constraint-task-boundaries", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("\n\nBoundaries for this work:\n→ " + c)
		} else {
			g.say("\n→ " + c)
		}
		return c
	}},
	{"constraint-task-important", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("Important for this task: " + c)
		} else {
			g.say("Plus: " + c)
		}
		return c
	}},
	{"constraint-user-relayed", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("My lead asked me to pass this on: " + c)
		return c
	}},
	{"constraint-user-correction", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Correction to what I said before: " + c)
		return c
	}},
	{"constraint-user-handbook", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Quoting the on-call handbook, because it applies here:\n\n> " + c + "\n")
		return c
	}},
}

// reserveUserDecision is a decision as the user words it: the session's
// next alternative, in a phrasing of reserveUserDecisions.
func (g *gen) reserveUserDecision() string {
	a := g.altOrder[0]
	g.altOrder = append(g.altOrder[1:], a)
	return sentence(fill(pick(g.r, reserveUserDecisions), map[string]string{"x": a.x, "y": a.y, "why": a.why, "c": pick(g.r, g.p.comps)}))
}

// upstreamRef is a reference to an issue or pull request of a project the
// ecosystem depends on, as GitHub writes it: owner/repo#number.
func (g *gen) upstreamRef() string {
	repos := map[string][]string{
		"go":     {"golang/go", "go-chi/chi", "spf13/cobra"},
		"python": {"python/cpython", "aio-libs/aiohttp", "pola-rs/polars"},
		"ts":     {"nodejs/node", "microsoft/TypeScript", "sequelize/sequelize"},
		"rust":   {"rust-lang/rust", "rust-lang/cargo", "bytecodealliance/wasmtime"},
		"java":   {"openjdk/jdk", "eclipse-vertx/vert.x", "quartz-scheduler/quartz"},
	}[g.l.name]
	if repos == nil {
		repos = []string{"haproxy/haproxy", "traefik/traefik", "hashicorp/packer"}
	}
	return fmt.Sprintf("%s#%d", pick(g.r, repos), 1000+g.r.intn(68000))
}

// sourceLines is about n lines of source for path, as a slice.
func (g *gen) sourceLines(path string, n int) []string {
	return strings.Split(strings.TrimRight(g.l.source(g, path, n), "\n"), "\n")
}

// applyCheckAct checks a saved patch against the tree; its hunk for path
// no longer applies.
func (g *gen) applyCheckAct(path string) *act {
	var b strings.Builder
	for _, f := range pickN(g.r, g.files, 1+g.r.intn(3)) {
		fmt.Fprintf(&b, "Checking patch %s...\n", f)
	}
	fmt.Fprintf(&b, "Checking patch %s...\n", path)
	code := g.sourceLines(path, 12)
	at := g.r.intn(max(len(code)-2, 1))
	fmt.Fprintf(&b, "error: while searching for:\n%s\n\nerror: patch failed: %s:%d\nerror: %s: patch does not apply\n",
		strings.Join(code[at:min(at+2, len(code))], "\n"), path, 10+g.r.intn(300), path)
	return &act{kind: actRun, cmd: fmt.Sprintf("git apply --check --verbose /tmp/%s.patch", kebab(g.words(2)...)), out: b.String(), exit: 1}
}

// preCommitAct runs every pre-commit hook; a fixer hook rewrites path.
func (g *gen) preCommitAct(path string) *act {
	row := func(name, status string) string {
		return name + strings.Repeat(".", max(79-len(name)-len(status), 3)) + status
	}
	var b strings.Builder
	for _, h := range pickN(g.r, []string{"check for added large files", "check for merge conflicts", "check yaml", "detect private key", "check for case conflicts"}, 2+g.r.intn(2)) {
		b.WriteString(row(h, "Passed") + "\n")
	}
	hook := pick(g.r, [][2]string{{"fix end of files", "end-of-file-fixer"}, {"trim trailing whitespace", "trailing-whitespace"}})
	fmt.Fprintf(&b, "%s\n- hook id: %s\n- exit code: 1\n- files were modified by this hook\n\n", row(hook[0], "Failed"), hook[1])
	others := pickN(g.r, g.files, g.r.intn(3))
	files := slices.Insert(slices.Clone(others), g.r.intn(len(others)+1), path)
	for _, f := range files {
		fmt.Fprintf(&b, "Fixing %s\n", f)
	}
	b.WriteString("\n" + row("check json", "(no files to check)Skipped") + "\n" + row("codespell", "Passed") + "\n")
	return &act{kind: actRun, cmd: "pre-commit run --all-files --show-diff-on-failure=false", out: b.String(), exit: 1}
}

// semgrepAct prints Semgrep's JSON findings through jq; one is in path.
func (g *gen) semgrepAct(path string) *act {
	rules := map[string][]string{
		"go": {"go.lang.security.audit.database.string-formatted-query.string-formatted-query", "go.lang.security.audit.crypto.math_random.math-random-used",
			"go.lang.security.audit.net.bind_all.avoid-bind-to-all-interfaces"},
		"python": {"python.lang.security.audit.subprocess-shell-true.subprocess-shell-true", "python.lang.security.audit.formatted-sql-query.formatted-sql-query",
			"python.requests.security.disabled-cert-validation.disabled-cert-validation"},
		"ts": {"javascript.lang.security.audit.path-traversal.path-join-resolve-traversal.path-join-resolve-traversal",
			"javascript.express.security.audit.express-open-redirect.express-open-redirect", "javascript.lang.security.detect-child-process.detect-child-process"},
		"rust": {"rust.lang.security.unsafe-usage.unsafe-usage", "rust.lang.security.reqwest-accept-invalid.reqwest-accept-invalid", "rust.lang.security.temp-dir.temp-dir"},
		"java": {"java.lang.security.audit.formatted-sql-string.formatted-sql-string", "java.lang.security.audit.crypto.weak-random.weak-random",
			"java.spring.security.audit.spring-csrf-disabled.spring-csrf-disabled"},
	}[g.l.name]
	if rules == nil {
		rules = []string{"bash.lang.security.ifs-tampering.ifs-tampering", "generic.secrets.security.detected-generic-secret.detected-generic-secret",
			"yaml.kubernetes.security.run-as-non-root.run-as-non-root"}
	}
	finding := func(f string) string {
		return fmt.Sprintf("{\n  \"check_id\": %s,\n  \"path\": %s,\n  \"line\": %d,\n  \"severity\": %s\n}", jstr(pick(g.r, rules)), jstr(f), 5+g.r.intn(400), jstr(pick(g.r, []string{"WARNING", "ERROR", "INFO"})))
	}
	var items []string
	for _, f := range pickN(g.r, g.files, 1+g.r.intn(4)) {
		items = append(items, finding(f))
	}
	items = slices.Insert(items, g.r.intn(len(items)+1), finding(path))
	cmd := "semgrep scan --config auto --json --quiet --metrics=off | jq '.results[] | {check_id, path, line: .start.line, severity: .extra.severity}'"
	return &act{kind: actRun, cmd: cmd, out: strings.Join(items, "\n") + "\n"}
}

// blameAct blames a range of path's lines, ignoring whitespace and
// following moved code.
func (g *gen) blameAct(path string) *act {
	lines := g.sourceLines(path, 30+g.r.intn(30))
	from := 1 + g.r.intn(max(len(lines)-12, 1))
	to := min(from+6+g.r.intn(10), len(lines))
	type commit struct{ sha, who, when string }
	var cs []commit
	for i := 0; i < 2+g.r.intn(2); i++ {
		h, m, s, _ := g.clock()
		cs = append(cs, commit{g.r.hex(8), pick(g.r, []string{"Mei Lin", "Jonas Berg", "Aisha Bello", "Diego Ferraz", "Hannah Cho"}),
			fmt.Sprintf("2026-0%d-%02d %02d:%02d:%02d +0%d00", 1+g.r.intn(3), 1+g.r.intn(28), h, m, s, g.r.intn(3))})
	}
	w := 0
	for _, c := range cs {
		w = max(w, len(c.who))
	}
	var b strings.Builder
	for i := from; i <= to; i++ {
		c := pick(g.r, cs)
		fmt.Fprintf(&b, "%s (%-*s %s %3d) %s\n", c.sha, w, c.who, c.when, i, lines[i-1])
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("git blame -w -C -L %d,%d -- %s", from, to, path), out: b.String()}
}

// jenkinsAct reads the console text of a failed Jenkins build whose
// shell step ran cmd.
func (g *gen) jenkinsAct(cmd string) *act {
	build := 200 + g.r.intn(4000)
	job := g.p.name + "-repro"
	lines := []string{
		pick(g.r, []string{"Started by timer", fmt.Sprintf("Started by user %s", pick(g.r, []string{"Mei Lin", "Jonas Berg", "Hannah Cho"})), fmt.Sprintf("Started by upstream project \"%s/main\" build number %d", g.p.name, build-1-g.r.intn(20))}),
		fmt.Sprintf("Obtained Jenkinsfile.repro from git https://git.northwind.dev/%s.git", g.p.name),
		"[Pipeline] Start of Pipeline",
		"[Pipeline] node",
		fmt.Sprintf("Running on linux-agent-%d in /var/lib/jenkins/workspace/%s", 1+g.r.intn(8), job),
		"[Pipeline] {",
		"[Pipeline] stage",
		"[Pipeline] { (Checkout)",
		"[Pipeline] checkout",
		"Fetching changes from the remote Git repository",
		fmt.Sprintf("Checking out Revision %s (refs/remotes/origin/main)", g.r.hex(40)),
		fmt.Sprintf("Commit message: \"%s %s\"", title(pick(g.r, g.p.verbs)), pick(g.r, g.p.comps)),
		"[Pipeline] }",
		"[Pipeline] // stage",
		"[Pipeline] stage",
		"[Pipeline] { (Repro)",
		"[Pipeline] sh",
		"+ " + cmd,
	}
	for k := 0; k < int(float64(4+g.r.intn(14))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "warn", "debug"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, g.logLine("error", g.routineError()), "[Pipeline] }", "[Pipeline] // stage", "[Pipeline] }", "[Pipeline] // node", "[Pipeline] End of Pipeline",
		"ERROR: script returned exit code 1", "Finished: FAILURE")
	c := fmt.Sprintf("curl -sS -u \"$JENKINS_USER:$JENKINS_TOKEN\" https://ci.northwind.dev/job/%s/%d/consoleText", job, build)
	return &act{kind: actRun, cmd: c, out: strings.Join(lines, "\n") + "\n"}
}

// miseAct writes a mise.toml with a task that runs cmd, as a TOML literal
// string, so cmd is in the file as written.
func (g *gen) miseAct(cmd string) *act {
	tools := map[string]string{"go": "go = \"1.22\"", "python": "python = \"3.11\"\nuv = \"0.4\"", "ts": "node = \"20\"\npnpm = \"9\"", "rust": "rust = \"1.79\"", "java": "java = \"temurin-17\""}[g.l.name]
	if tools == "" {
		tools = "shellcheck = \"0.10\"\nusage = \"1\""
	}
	name := "repro-" + kebab(g.nounWords()...)
	content := fmt.Sprintf("[tools]\n%s\n\n[tasks.%s]\ndescription = \"%s %s\"\nrun = '''\n%s\n'''\n\n[tasks.test]\nrun = '''\n%s\n'''\n",
		tools, name, title(pick(g.r, g.p.comps)), pick(g.r, g.p.issues), cmd, g.testCmd(pick(g.r, g.testTargets)))
	return g.writeFileAct("mise.toml", content)
}

// flakeLoopAct runs cmd until it fails, up to a few dozen times.
func (g *gen) flakeLoopAct(cmd string) *act {
	n := 20 + g.r.intn(31)
	fail := 2 + g.r.intn(n-2)
	var b strings.Builder
	for i := 1; i <= fail; i++ {
		fmt.Fprintf(&b, "== run %d\n", i)
		if i == fail {
			b.WriteString(g.logLine("error", g.routineError()) + "\n")
			fmt.Fprintf(&b, "failed on run %d\n", i)
			break
		}
		b.WriteString(g.logLine("info", pick(g.r, routineLogMsgs)) + "\n")
	}
	c := fmt.Sprintf("for i in $(seq 1 %d); do echo \"== run $i\"; %s || { echo \"failed on run $i\"; break; }; done", n, cmd)
	return &act{kind: actRun, cmd: c, out: b.String()}
}

// flyLogsAct reads an app's logs on Fly.io; one machine logs e. It
// returns e as that line holds it.
func (g *gen) flyLogsAct(e string) (*act, string) {
	host := pick(g.r, g.p.hosts)
	machines := []string{g.r.hex(14), g.r.hex(14)}
	region := pick(g.r, []string{"ams", "fra", "cdg", "lhr", "iad", "ord"})
	stamp := func() string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02dZ", g.day, h, m, s)
	}
	n := int(float64(12+g.r.intn(30)) * g.scale)
	at := n/4 + g.r.intn(n/2+1)
	var lines []string
	var bad string
	for i := 0; i < n; i++ {
		mach := pick(g.r, machines)
		if i == at {
			bad = g.logLine("error", e)
			lines = append(lines, fmt.Sprintf("%s app[%s] %s [info]%s", stamp(), mach, region, bad))
			continue
		}
		switch g.r.intn(8) {
		case 0:
			lines = append(lines, fmt.Sprintf("%s runner[%s] %s [info]Machine started in %dms", stamp(), mach, region, 300+g.r.intn(2000)))
		case 1:
			lines = append(lines, fmt.Sprintf("%s health[%s] %s [info]Health check on port 8080 is now passing.", stamp(), mach, region))
		default:
			// The app's own line is written before the platform stamps it.
			line := g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs))
			lines = append(lines, fmt.Sprintf("%s app[%s] %s [info]%s", stamp(), mach, region, line))
		}
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("fly logs -a %s --no-tail", host), out: strings.Join(lines, "\n") + "\n"}, asLogged(bad, e)
}

// supervisorAct tails a supervised program's stderr: it crashed with e
// and was started again.
func (g *gen) supervisorAct(e string) *act {
	host := pick(g.r, g.p.hosts)
	var b strings.Builder
	for k := 0; k < 2+g.r.intn(6); k++ {
		b.WriteString(g.logLine("info", pick(g.r, routineLogMsgs)) + "\n")
	}
	b.WriteString(strings.TrimRight(g.l.crash(g, g.crashHead(e), g.frames(3+g.r.intn(4))), "\n") + "\n")
	for k := 0; k < 1+g.r.intn(3); k++ {
		b.WriteString(g.logLine("info", pick(g.r, []string{"worker started", "config reloaded", "connection acquired"})) + "\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("sudo supervisorctl tail -%d %s stderr", 2000*(1+g.r.intn(4)), host), out: b.String()}
}

// xmlText escapes s for XML character data.
func xmlText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// xmlAttr escapes s for a double-quoted XML attribute.
func xmlAttr(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\"", "&quot;", "\n", "&#10;").Replace(s)
}

// junitAct greps the JUnit XML report of the last CI run for its failure,
// whose text is e. It returns e as the report holds it.
func (g *gen) junitAct(e string) (*act, string) {
	var file, cls string
	tf := pick(g.r, g.tfiles)
	switch g.p.runner {
	case "gradle":
		cls = javaPkg(pick(g.r, g.p.tests)) + "." + pick(g.r, g.p.types) + "Test"
		file = "build/test-results/test/TEST-" + cls + ".xml"
	case "maven":
		cls = javaPkg(pick(g.r, g.p.tests)) + "." + pick(g.r, g.p.types) + "Test"
		file = "target/surefire-reports/TEST-" + cls + ".xml"
	case "gotest-v", "gotest-race":
		cls = g.p.module + "/" + dirOf(tf)
		file = "reports/junit.xml"
	case "nextest", "cargo-test":
		cls = crateOf(pick(g.r, g.testTargets))
		file = "target/nextest/ci/junit.xml"
	default:
		if i := strings.LastIndexByte(tf, '.'); i > 0 {
			tf = tf[:i]
		}
		cls = strings.ReplaceAll(tf, "/", ".")
		file = "reports/junit.xml"
	}
	typ := "failure"
	if i := strings.Index(e, ":"); i > 0 && !strings.ContainsAny(e[:i], " /[\"'") {
		typ = e[:i]
	}
	var frames []string
	for _, f := range g.frames(2 + g.r.intn(3)) {
		frames = append(frames, xmlText(f))
	}
	probe := xmlText(e)
	head := fmt.Sprintf("    <testcase name=\"%s\" classname=\"%s\" time=\"%d.%03d\">", g.testName(), cls, g.r.intn(30), g.r.intn(1000))
	body := fmt.Sprintf("      <failure message=\"%s\" type=\"%s\">%s\n%s</failure>", xmlAttr(e), typ, probe, strings.Join(frames, "\n"))
	out := head + "\n" + body + "\n    </testcase>\n"
	return &act{kind: actRun, cmd: fmt.Sprintf("grep -B1 -A%d '<failure' %s", strings.Count(body, "\n")+1, file), out: out}, probe
}

// liquibaseAct runs a Liquibase update whose changeset fails with the
// PostgreSQL error e.
func (g *gen) liquibaseAct(e string) *act {
	t := pick(g.r, g.p.tables)
	id := fmt.Sprintf("%03d-%s", 10+g.r.intn(90), kebab(g.words(2)...))
	cs := fmt.Sprintf("db/changelog/2026/04/%s.sql::%s::%s", id, id, pick(g.r, []string{"mlin", "jberg", "abello", "dferraz"}))
	stmt := pick(g.r, []string{
		fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s_version integer NOT NULL DEFAULT 0", t, snake(g.nounWords()...)),
		fmt.Sprintf("CREATE INDEX idx_%s_%s ON %s (%s, created_at)", t, snake(g.nounWords()...), t, pick(g.r, []string{"tenant_id", "status", "external_id"})),
		fmt.Sprintf("UPDATE %s SET status = 'archived' WHERE updated_at < now() - interval '90 days'", t),
	})
	ran, prev := 1+g.r.intn(3), 20+g.r.intn(60)
	h, m, s, _ := g.clock()
	out := fmt.Sprintf("Starting Liquibase at %02d:%02d:%02d using Java 17.0.10 (version 4.27.0 #1525 built at 2024-03-25 17:08+0000)\nLiquibase Version: 4.27.0\nLiquibase Open Source 4.27.0 by Liquibase\nRunning Changeset: %s\n\nUPDATE SUMMARY\nRun:                          %d\nPreviously run:              %d\nFiltered out:                 0\n-------------------------------\nTotal change sets:           %d\n\nERROR: Exception Details\nERROR: Exception Primary Class:  PSQLException\nERROR: Exception Primary Reason:  ERROR: %s\nERROR: Exception Primary Source:  PostgreSQL 13.14\n\nUnexpected error running Liquibase: Migration failed for changeset %s:\n     Reason: liquibase.exception.DatabaseException: ERROR: %s [Failed SQL: (0) %s]\n\nFor more information, please use the --log-level flag\n",
		h, m, s, cs, ran, prev, ran+prev+1, e, cs, e, stmt)
	cmd := "liquibase --changelog-file=db/changelog/db.changelog-master.yaml --url=jdbc:postgresql://localhost:5432/app --username=app update"
	return &act{kind: actRun, cmd: cmd, out: out, exit: 1}
}

// parallelSeedAct loads seed files with GNU parallel, one mysql client per
// file; one file fails with e.
func (g *gen) parallelSeedAct(e string) *act {
	var files []string
	for i := 0; i < 3+g.r.intn(5); i++ {
		files = append(files, fmt.Sprintf("db/seed/%02d_%s.sql", i+1, pick(g.r, g.p.tables)))
	}
	bad := pick(g.r, files)
	out := fmt.Sprintf("%s\t%s\nparallel: This job failed:\nmysql --defaults-extra-file=.my.cnf app < %s\n", bad, e, bad)
	cmd := "parallel --tag --halt soon,fail=1 -j 4 'mysql --defaults-extra-file=.my.cnf app < {}' ::: db/seed/*.sql"
	return &act{kind: actRun, cmd: cmd, out: out, exit: 1}
}

// tofuAct applies one resource of a staging stack with OpenTofu, without
// colour; creating it fails with e.
func (g *gen) tofuAct(e string) *act {
	res := pick(g.r, []string{"hcloud_server", "digitalocean_droplet", "fastly_service_vcl", "snowflake_warehouse", "auth0_client"})
	name := snake(g.nounWords()...)
	line := 5 + g.r.intn(140)
	var b strings.Builder
	for i := 0; i < 1+g.r.intn(4); i++ {
		fmt.Fprintf(&b, "%s.%s: Refreshing state... [id=%d]\n", pick(g.r, []string{"hcloud_network", "hcloud_firewall", "digitalocean_vpc", "fastly_tls_subscription"}), snake(g.nounWords()...), 1000000+g.r.intn(9000000))
	}
	fmt.Fprintf(&b, "\nOpenTofu used the selected providers to generate the following execution\nplan. Resource actions are indicated with the following symbols:\n  + create\n\nOpenTofu will perform the following actions:\n\n  # %s.%s will be created\n  + resource \"%s\" \"%s\" {\n      + id   = (known after apply)\n      + name = \"%s-%s\"\n    }\n\nPlan: 1 to add, 0 to change, 0 to destroy.\n%s.%s: Creating...\n\nError: %s\n\n  with %s.%s,\n  on main.tf line %d, in resource \"%s\" \"%s\":\n  %d: resource \"%s\" \"%s\" {\n\n",
		res, name, res, name, pick(g.r, g.p.hosts), kebab(g.nounWords()...), res, name, e, res, name, line, res, name, line, res, name)
	return &act{kind: actRun, cmd: fmt.Sprintf("tofu -chdir=infra/staging apply -no-color -auto-approve -target=%s.%s", res, name), out: b.String(), exit: 1}
}

// pipeTable aligns rows of cells into columns separated by " | ", with a
// rule of fill characters under the header, crossed by "+".
func pipeTable(rows [][]string, fill string) string {
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len(c))
		}
	}
	var b strings.Builder
	for k, r := range rows {
		var cells []string
		for i, c := range r {
			cells = append(cells, fmt.Sprintf("%-*s", w[i], c))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, " | "), " ") + "\n")
		if k == 0 {
			var rule []string
			for _, x := range w {
				rule = append(rule, strings.Repeat(fill, x))
			}
			b.WriteString(strings.Join(rule, fill+"+"+fill) + "\n")
		}
	}
	return b.String()
}

// airflowRunsAct lists a DAG's runs; the failed run's id is the probe.
func (g *gen) airflowRunsAct() (*act, string) {
	dag := snake(g.nounWords()...) + "_" + pick(g.r, []string{"sync", "rollup", "export", "backfill"})
	day := time.Date(2026, 4, g.day, 2, 0, 0, 0, time.UTC)
	iso := func(t time.Time) string { return t.Format("2006-01-02T15:04:05+00:00") }
	isoMicro := func(t time.Time) string { return t.Format("2006-01-02T15:04:05.000000+00:00") }
	var failedAt time.Time
	id := g.uniq(func(g *gen) string {
		if g.r.chance(0.5) {
			failedAt = day.Add(time.Duration(6+g.r.intn(16))*time.Hour + time.Duration(g.r.intn(3600))*time.Second + time.Duration(g.r.intn(1000000))*time.Microsecond)
			return "manual__" + isoMicro(failedAt)
		}
		failedAt = day.AddDate(0, 0, -g.r.intn(5))
		return "scheduled__" + iso(failedAt)
	})
	rows := [][]string{{"dag_id", "run_id", "state", "execution_date", "start_date", "end_date"}}
	n := 4 + g.r.intn(4)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		ex := day.AddDate(0, 0, -i-5)
		run, state := "scheduled__"+iso(ex), "success"
		if i == at {
			ex, run, state = failedAt, id, "failed"
		}
		start := ex.AddDate(0, 0, 1).Add(time.Duration(g.r.intn(60))*time.Second + time.Duration(g.r.intn(1000000))*time.Microsecond)
		if strings.HasPrefix(run, "manual__") {
			start = ex.Add(time.Duration(1+g.r.intn(5))*time.Second + time.Duration(g.r.intn(1000000))*time.Microsecond)
		}
		end := start.Add(time.Duration(60+g.r.intn(3000))*time.Second + time.Duration(g.r.intn(1000000))*time.Microsecond)
		rows = append(rows, []string{dag, run, state, iso(ex), isoMicro(start), isoMicro(end)})
	}
	// The newest run first, as the command lists them.
	slices.SortStableFunc(rows[1:], func(a, b []string) int { return strings.Compare(b[3], a[3]) })
	return &act{kind: actRun, cmd: fmt.Sprintf("airflow dags list-runs -d %s -o table", dag), out: pipeTable(rows, "=")}, id
}

// bqJobsAct lists recent BigQuery jobs of all users; the failed job's id
// is the probe.
func (g *gen) bqJobsAct() (*act, string) {
	mk := func(kind int) string {
		switch kind {
		case 0:
			return fmt.Sprintf("bquxjob_%s_%s", g.r.hex(8), g.r.hex(11))
		case 1:
			return "scheduled_query_" + g.r.hex(8) + "-0000-2" + g.r.hex(3) + "-" + g.r.hex(4) + "-" + g.r.hex(12)
		}
		return fmt.Sprintf("bqjob_r%s_0000018f%s_1", g.r.hex(16), g.r.hex(8))
	}
	id := g.uniq(func(g *gen) string { return mk(2) })
	n := 4 + g.r.intn(6)
	at := g.r.intn(n)
	var b strings.Builder
	fmt.Fprintf(&b, "  %-52s %-10s %-9s %-17s %s\n %s %s %s %s %s\n", strings.Repeat(" ", 23)+"jobId", "Job Type", " State", "  Start Time", "   Duration",
		strings.Repeat("-", 53), strings.Repeat("-", 10), strings.Repeat("-", 9), strings.Repeat("-", 17), strings.Repeat("-", 16))
	for i := 0; i < n; i++ {
		job, state := mk(g.r.intn(3)), "SUCCESS"
		if i == at {
			job, state = id, "FAILURE"
		}
		h, m, s, ms := g.clock()
		fmt.Fprintf(&b, "  %-52s %-10s %-9s %02d Apr %02d:%02d:%02d   0:%02d:%02d.%03d000\n", job, pick(g.r, []string{"query", "query", "load", "extract"}), state, g.day, h, m, s, g.r.intn(12), g.r.intn(60), ms)
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("bq ls -j -a -n %d --project_id=northwind-%s", n, g.p.name), out: b.String()}, id
}

// argoListAct lists the namespace's Argo workflows; the failed one's name
// is the probe.
func (g *gen) argoListAct() (*act, string) {
	prefix := func() string {
		return kebab(pick(g.r, []string{"nightly", "hourly", "ingest", "reindex"}), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-")) + "-"
	}
	id := g.uniq(func(g *gen) string { return prefix() + g.r.alnum(5) })
	var rows []string
	row := func(name, status, age, dur, prio, msg string) string {
		return strings.TrimRight(fmt.Sprintf("%-34s %-11s %-5s %-10s %-10s %s", name, status, age, dur, prio, msg), " ")
	}
	rows = append(rows, row("NAME", "STATUS", "AGE", "DURATION", "PRIORITY", "MESSAGE"))
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		age := fmt.Sprintf("%dh", 1+i*2+g.r.intn(2))
		if i == at {
			rows = append(rows, row(id, "Failed", age, fmt.Sprintf("%dm", 3+g.r.intn(50)), "0", fmt.Sprintf("child '%s-%d' failed", id, 1000000000+g.r.intn(999999999))))
			continue
		}
		rows = append(rows, row(prefix()+g.r.alnum(5), pick(g.r, []string{"Succeeded", "Succeeded", "Running"}), age, fmt.Sprintf("%dm", 1+g.r.intn(40)), "0", ""))
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("argo list -n %s --since 24h", g.p.name), out: strings.Join(rows, "\n") + "\n"}, id
}

// cqlshAct selects a tenant's rows from Cassandra; the failed row's
// timeuuid is the probe.
func (g *gen) cqlshAct() (*act, string) {
	node := "0242ac1200" + g.r.hex(2)
	tu := func() string {
		return fmt.Sprintf("%s-%s-11f1-%c%s-%s", g.r.hex(8), g.r.hex(4), "89ab"[g.r.intn(4)], g.r.hex(3), node)
	}
	id := g.uniq(func(g *gen) string { return tu() })
	t := pick(g.r, g.p.tables) + "_by_tenant"
	tenant := 1 + g.r.intn(900)
	rows := [][]string{{"id", "tenant_id", "status", "attempts", "updated_at"}}
	n := 3 + g.r.intn(6)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		h, m, s, ms := g.clock()
		r := []string{tu(), fmt.Sprint(tenant), pick(g.r, []string{"done", "done", "queued"}), fmt.Sprint(1 + g.r.intn(2)), fmt.Sprintf("2026-04-%02d %02d:%02d:%02d.%03d000+0000", g.day, h, m, s, ms)}
		if i == at {
			r[0], r[2], r[3] = id, "failed", fmt.Sprint(5+g.r.intn(20))
		}
		rows = append(rows, r)
	}
	w := make([]int, 5)
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len(c))
		}
	}
	var b strings.Builder
	b.WriteString("\n")
	for k, r := range rows {
		var cells []string
		for i, c := range r {
			if k == 0 || i == 0 {
				cells = append(cells, fmt.Sprintf(" %-*s ", w[i], c))
			} else {
				cells = append(cells, fmt.Sprintf(" %*s ", w[i], c))
			}
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "|"), " ") + "\n")
		if k == 0 {
			var rule []string
			for _, x := range w {
				rule = append(rule, strings.Repeat("-", x+2))
			}
			b.WriteString(strings.Join(rule, "+") + "\n")
		}
	}
	fmt.Fprintf(&b, "\n(%d rows)\n", n)
	cmd := fmt.Sprintf("cqlsh %s-cass -k app -e \"SELECT id, tenant_id, status, attempts, updated_at FROM %s WHERE tenant_id = %d LIMIT 10\"", pick(g.r, g.p.hosts), t, tenant)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, id
}

// ghzAct load-tests a gRPC method with ghz; the 99th percentile line of
// the latency distribution is the probe.
func (g *gen) ghzAct() (*act, string) {
	svc := pascal(g.nounWords()...)
	host := pick(g.r, g.p.hosts)
	p50 := 300 + g.r.intn(6000) // hundredths of a ms
	var p99 int
	v := g.uniq(func(g *gen) string {
		p99 = p50*(3+g.r.intn(9)) + g.r.intn(100)
		return fmt.Sprintf("99 %% in %d.%02d ms", p99/100, p99%100)
	})
	ms := func(x int) string { return fmt.Sprintf("%d.%02d ms", x/100, x%100) }
	count := 5000
	var b strings.Builder
	fmt.Fprintf(&b, "\nSummary:\n  Count:\t%d\n  Total:\t%d.%02d s\n  Slowest:\t%s\n  Fastest:\t%s\n  Average:\t%s\n  Requests/sec:\t%d.%02d\n\nResponse time histogram:\n",
		count, count*p50/50/100000+1, g.r.intn(100), ms(p99*2), ms(p50/4+1), ms(p50*12/10), 50*100000/max(p50, 1), g.r.intn(100))
	for i, share := range []int{40, 100, 60, 25, 10, 4, 2, 1} {
		at := p50/4 + i*(p99*2-p50/4)/7 // hundredths of a ms
		fmt.Fprintf(&b, "  %d.%03d [%d]\t|%s\n", at/100, at%100*10+g.r.intn(10), share*count/250, strings.Repeat("∎", share*2/5))
	}
	b.WriteString("\nLatency distribution:\n")
	for _, q := range []struct {
		p string
		x int
	}{{"10", p50 * 4 / 10}, {"25", p50 * 7 / 10}, {"50", p50}, {"75", p50 * 14 / 10}, {"90", p50 * 2}, {"95", p50 * 27 / 10}} {
		fmt.Fprintf(&b, "  %s %% in %s\n", q.p, ms(q.x))
	}
	fmt.Fprintf(&b, "  %s\n\nStatus code distribution:\n  [OK]            %d responses\n  [Unavailable]   %d responses\n", v, count-count/400, count/400)
	cmd := fmt.Sprintf("ghz --insecure --proto proto/%s.proto --call %s.v1.%sService/Get%s -d '{\"id\":\"%d\"}' -c 50 -n %d %s:50051",
		snake(g.nounWords()...), strings.ReplaceAll(g.p.name, "-", ""), svc, svc, 1000+g.r.intn(90000), count, host)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// jmeterAct runs a JMeter plan in non-GUI mode; the last cumulative
// summary line is the probe.
func (g *gen) jmeterAct() (*act, string) {
	plan := fmt.Sprintf("loadtest/%s.jmx", kebab(g.nounWords()...))
	avg := 80 + g.r.intn(900)
	threads := 25 * (1 + g.r.intn(8))
	rate := threads * 1000 / (avg + 100)
	h, m, s, ms := g.clock()
	start := time.Date(2026, 4, g.day, h, m, s, ms*1000000, time.UTC)
	var b strings.Builder
	fmt.Fprintf(&b, "Creating summariser <summary>\nCreated the tree successfully using %s\nStarting standalone test @ %s (%d)\nWaiting for possible Shutdown/StopTestNow/HeapDump/ThreadDump message on port 4445\n",
		plan, start.Format("2006 Jan 2 15:04:05 MST"), start.UnixMilli())
	total, secs, errs := 0, 0, 0
	line := func(sign string, n, sec, avg, mn, mx, e int, tail string) string {
		return fmt.Sprintf("summary %s %6d in %02d:%02d:%02d = %6d.%d/s Avg: %5d Min: %5d Max: %5d Err: %5d (%d.%02d%%)%s",
			sign, n, sec/3600, sec/60%60, sec%60, n/max(sec, 1), g.r.intn(10), avg, mn, mx, e, e*100/max(n, 1), e*10000/max(n, 1)%100, tail)
	}
	rounds := 3 + g.r.intn(5)
	for i := 0; i < rounds; i++ {
		sec := 30
		if i == 0 {
			sec = 21
		}
		n := rate * sec
		e := g.r.intn(n/200 + 2)
		total, secs, errs = total+n, secs+sec, errs+e
		fmt.Fprintf(&b, "%s\n", line("+", n, sec, avg+g.r.intn(60), 5+g.r.intn(20), avg*(4+g.r.intn(8)), e, fmt.Sprintf(" Active: %d Started: %d Finished: 0", threads, threads)))
		if i > 0 && i < rounds-1 {
			fmt.Fprintf(&b, "%s\n", line("=", total, secs, avg+g.r.intn(30), 5, avg*12, errs, ""))
		}
	}
	v := g.uniq(func(g *gen) string {
		return line("=", total, secs, avg+g.r.intn(30), 4+g.r.intn(3), avg*(10+g.r.intn(6)), errs, "")
	})
	end := start.Add(time.Duration(secs) * time.Second)
	fmt.Fprintf(&b, "%s\nTidying up ...    @ %s (%d)\n... end of run\n", v, end.Format("2006 Jan 2 15:04:05 MST"), end.UnixMilli())
	return &act{kind: actRun, cmd: fmt.Sprintf("jmeter -n -t %s -Jthreads=%d -Jhost=%s.internal -l /tmp/%s.jtl", plan, threads, pick(g.r, g.p.hosts), g.p.name), out: b.String()}, v
}

// siegeAct besieges an endpoint; the transaction rate is the probe.
func (g *gen) siegeAct() (*act, string) {
	url := fmt.Sprintf("http://%s.internal:8080/v1/%ss", pick(g.r, g.p.hosts), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"))
	var rate int // hundredths of a transaction per second
	v := g.uniq(func(g *gen) string {
		rate = 2000 + g.r.intn(90000)
		return fmt.Sprintf("%d.%02d trans/sec", rate/100, rate%100)
	})
	elapsed := 5950 + g.r.intn(60)
	trans := rate * elapsed / 10000
	resp := 5000 * 100 / max(rate, 1) // hundredths of a second, fifty users
	failed := g.r.intn(trans/300 + 1)
	out := fmt.Sprintf("** SIEGE 4.0.7\n** Preparing 50 concurrent users for battle.\nThe server is now under siege...\nLifting the server siege...\nTransactions:\t\t       %d hits\nAvailability:\t\t      %d.%02d %%\nElapsed time:\t\t       %d.%02d secs\nData transferred:\t       %d.%02d MB\nResponse time:\t\t        %d.%02d secs\nTransaction rate:\t      %s\nThroughput:\t\t        %d.%02d MB/sec\nConcurrency:\t\t       %d.%02d\nSuccessful transactions:       %d\nFailed transactions:\t           %d\nLongest transaction:\t        %d.%02d\nShortest transaction:\t        0.%02d\n \n",
		trans, (10000-failed*10000/max(trans, 1))/100, (10000-failed*10000/max(trans, 1))%100, elapsed/100, elapsed%100, trans/600, g.r.intn(100), resp/100, resp%100, v, trans/36000, g.r.intn(100), 40+g.r.intn(10), g.r.intn(100), trans-failed, failed, resp/100*8+1+g.r.intn(4), g.r.intn(100), g.r.intn(5))
	return &act{kind: actRun, cmd: "siege -c 50 -t 60S --no-parser " + url, out: out}, v
}

// vmstatAct samples the machine six times; the sample with processes
// blocked on I/O is the probe.
func (g *gen) vmstatAct() (*act, string) {
	row := func(busy bool) string {
		r, bl, wa := g.r.intn(4), 0, g.r.intn(3)
		free, cache := 2000000+g.r.intn(6000000), 8000000+g.r.intn(4000000)
		bi, bo := g.r.intn(200), 40+g.r.intn(400)
		if busy {
			r, bl, wa = 2+g.r.intn(10), 6+g.r.intn(30), 30+g.r.intn(40)
			free, bi, bo = 60000+g.r.intn(200000), 20000+g.r.intn(90000), 8000+g.r.intn(60000)
		}
		us, sy := 5+g.r.intn(30), 1+g.r.intn(8)
		id := max(100-us-sy-wa, 0)
		return fmt.Sprintf("%4d %4d %12d %12d %12d %12d %4d %4d %5d %5d %5d %5d %3d %3d %3d %3d %3d", r, bl, 0, free, 100000+g.r.intn(300000), cache, 0, 0, bi, bo, 1000+g.r.intn(9000), 2000+g.r.intn(20000), us, sy, id, wa, 0)
	}
	var b strings.Builder
	b.WriteString("--procs-- -----------------------memory---------------------- ---swap-- -----io---- -system-- --------cpu--------\n   r    b         swpd         free         buff        cache   si   so    bi    bo    in    cs  us  sy  id  wa  st\n")
	at := 2 + g.r.intn(4)
	var v string
	for i := 0; i < 6; i++ {
		if i == at {
			v = g.uniq(func(g *gen) string { return row(true) })
			b.WriteString(v + "\n")
			continue
		}
		b.WriteString(row(false) + "\n")
	}
	return &act{kind: actRun, cmd: "vmstat -w 5 6", out: b.String()}, strings.TrimSpace(v)
}

// nvidiaSmiAct shows the GPU worker's state; the memory usage cell of the
// busy GPU is the probe.
func (g *gen) nvidiaSmiAct() (*act, string) {
	const total = 23028
	var used int
	v := g.uniq(func(g *gen) string {
		used = 14000 + g.r.intn(total-14000)
		return fmt.Sprintf("%dMiB / %dMiB", used, total)
	})
	h, m, s, _ := g.clock()
	rule := "+-----------------------------------------------------------------------------------------+"
	mid := "+-----------------------------------------+------------------------+----------------------+"
	gpu := fmt.Sprintf("|  0%%   %2dC    P0            %3dW /  300W | %22s |     %2d%%      Default |", 55+g.r.intn(25), 150+g.r.intn(140), v, 80+g.r.intn(20))
	out := fmt.Sprintf("%s Apr %2d %02d:%02d:%02d 2026       \n%s\n| NVIDIA-SMI 550.54.15              Driver Version: 550.54.15      CUDA Version: 12.4     |\n|-----------------------------------------+------------------------+----------------------+\n| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n|                                         |                        |               MIG M. |\n|=========================================+========================+======================|\n|   0  NVIDIA A10G                    On  |   00000000:00:1E.0 Off |                    0 |\n%s\n|                                         |                        |                  N/A |\n%s\n\n%s\n| Processes:                                                                              |\n|  GPU   GI   CI        PID   Type   Process name                              GPU Memory |\n|        ID   ID                                                               Usage      |\n|=========================================================================================|\n|    0   N/A  N/A     %5d      C   python                                      %5dMiB |\n%s\n",
		weekday(g.day)[:3], g.day, h, m, s, rule, gpu, mid, rule, 1000+g.r.intn(60000), used-13, rule)
	return &act{kind: actRun, cmd: "ssh gpu-worker-2 nvidia-smi", out: out}, v
}

// progressAct runs a backfill script whose progress bar, in the
// ecosystem's library (tqdm, indicatif, cli-progress, progressbar,
// me.tongfei.progressbar, pv), prints a line per refresh; the final line
// is the probe.
func (g *gen) progressAct() (*act, string) {
	noun := strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-")
	total := 5000 + g.r.intn(200000)
	rate := 40 + g.r.intn(900) // per second
	secs := total / rate
	clock := func(s int) string { return fmt.Sprintf("%02d:%02d", s/60, s%60) }
	hms := func(s int) string { return fmt.Sprintf("%02d:%02d:%02d", s/3600, s/60%60, s%60) }
	var bar func(pct int) string
	var cmd string
	switch g.l.name {
	case "python":
		desc := noun + "s"
		bar = func(pct int) string {
			done := total * pct / 100
			el := secs * pct / 100
			blocks := strings.Repeat("█", pct/10) + strings.Repeat(" ", 10-pct/10)
			return fmt.Sprintf("%s: %3d%%|%s| %d/%d [%s<%s, %d.%02dit/s]", desc, pct, blocks, done, total, clock(el), clock(secs-el), rate, g.r.intn(100))
		}
		cmd = fmt.Sprintf("python -m %s.scripts.%s_%s --all", strings.TrimPrefix(g.p.module, "@"), pick(g.r, g.p.verbs), snake(g.nounWords()...))
	case "rust":
		bar = func(pct int) string {
			return fmt.Sprintf("[%s] [%s%s] %d/%d (%d.%04d/s)", hms(secs*pct/100), strings.Repeat("#", pct*4/10), strings.Repeat("-", 40-pct*4/10), total*pct/100, total, rate, g.r.intn(10000))
		}
		cmd = fmt.Sprintf("cargo run -p %s --release -- %s --all", crateOf(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs))
	case "ts":
		bar = func(pct int) string {
			return fmt.Sprintf("%s [%s%s] %d%% | ETA: %ds | %d/%d | %d rows/s", noun, strings.Repeat("█", pct*4/10), strings.Repeat("░", 40-pct*4/10), pct, secs-secs*pct/100, total*pct/100, total, rate)
		}
		cmd = fmt.Sprintf("npx tsx scripts/%s-%s.ts --all", pick(g.r, g.p.verbs), noun)
	case "go":
		desc := noun + "s"
		bar = func(pct int) string {
			el := secs * pct / 100
			return fmt.Sprintf("%s %3d%% |%s%s| (%d/%d, %d it/s) [%dm%ds:%dm%ds]", desc, pct, strings.Repeat("█", pct*4/10), strings.Repeat(" ", 40-pct*4/10), total*pct/100, total, rate, el/60, el%60, (secs-el)/60, (secs-el)%60)
		}
		cmd = fmt.Sprintf("go run ./cmd/%s %s -all", lastDir(g.p.dirs[len(g.p.dirs)-1]), pick(g.r, g.p.verbs))
	case "java":
		desc := "Backfill " + noun
		bar = func(pct int) string {
			el := secs * pct / 100
			return fmt.Sprintf("%s %3d%% │%s%s│ %d/%d (%d:%02d:%02d / %d:%02d:%02d) %d.%d rows/s", desc, pct, strings.Repeat("█", pct*3/10), strings.Repeat(" ", 30-pct*3/10), total*pct/100, total, el/3600, el/60%60, el%60, (secs-el)/3600, (secs-el)/60%60, (secs-el)%60, rate, g.r.intn(10))
		}
		cmd = fmt.Sprintf("java -jar target/%s-tools.jar %s --all", g.p.name, pick(g.r, g.p.verbs))
	default:
		mib := total / 40
		bar = func(pct int) string {
			arrow := strings.Repeat("=", pct*3/10)
			if pct < 100 {
				arrow += ">" + strings.Repeat(" ", 30-pct*3/10)
			}
			return fmt.Sprintf("%d.%02dGiB %d:%s [%d.%02dMiB/s] [%s] %3d%%", mib*pct/100/1024, mib*pct/100%1024*100/1024, secs/3600, clock(secs*pct/100%3600), mib/max(secs, 1), g.r.intn(100), arrow, pct)
		}
		cmd = fmt.Sprintf("pg_dump -Fc app | pv -s %dM | zstd -T0 > /tmp/app-2026-04-%02d.dump.zst", total/40, g.day)
	}
	var lines []string
	for _, pct := range []int{0, 12, 25, 37, 50, 62, 75, 87} {
		lines = append(lines, bar(pct))
	}
	v := g.uniq(func(g *gen) string { return bar(100) })
	lines = append(lines, v)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, v
}

// chBenchmarkAct repeats a query with clickhouse-benchmark; the summary
// line is the probe.
func (g *gen) chBenchmarkAct() (*act, string) {
	host := pick(g.r, g.p.hosts) + "-ch"
	const queries = 50
	var qps int // thousandths
	v := g.uniq(func(g *gen) string {
		qps = 500 + g.r.intn(40000)
		rps := qps * (2000 + g.r.intn(90000))
		return fmt.Sprintf("%s:9000, queries: %d, QPS: %d.%03d, RPS: %d.%03d, MiB/s: %d.%03d, result RPS: %d.%03d, result MiB/s: 0.%03d.",
			host, queries, qps/1000, qps%1000, rps/1000, rps%1000, rps/1000*120/1048576, g.r.intn(1000), qps*12/1000, g.r.intn(1000), g.r.intn(1000))
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Loaded 1 queries.\n\nQueries executed: %d.\n\n%s\n\n", queries, v)
	base := 4000000 / max(qps, 1) // ms per query, four clients
	for i, p := range []string{"0.000", "10.000", "20.000", "30.000", "40.000", "50.000", "60.000", "70.000", "80.000", "90.000", "95.000", "99.000", "99.900", "99.990"} {
		x := base * (80 + i*i*2) / 100
		fmt.Fprintf(&b, "%s%%\t\t%d.%03d sec.\t\n", p, x/1000, x%1000)
	}
	t := pick(g.r, g.p.tables)
	cmd := fmt.Sprintf("echo \"SELECT toStartOfHour(created_at) AS h, count() FROM %s_events WHERE created_at >= now() - INTERVAL 7 DAY GROUP BY h ORDER BY h\" | clickhouse-benchmark -h %s -i %d -c 4", t, host, queries)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// sparkJobAct runs a rollup job on a local Spark; the scheduler's line
// for the finished job is the probe.
func (g *gen) sparkJobAct() (*act, string) {
	job := 2 + g.r.intn(8)
	stage := job*2 + 1
	tasks := pick(g.r, []int{64, 128, 200, 400})
	call := "count at NativeMethodAccessorImpl.java:0"
	cmd := fmt.Sprintf("spark-submit --master 'local[8]' --conf spark.sql.shuffle.partitions=%d jobs/%s_rollup.py 2>&1 | grep -E 'TaskSetManager|DAGScheduler' | tail -n 12", tasks, snake(g.nounWords()...))
	if g.l.name == "java" {
		cls := pick(g.r, g.p.types)
		call = fmt.Sprintf("count at %sRollup.java:%d", cls, 20+g.r.intn(200))
		cmd = fmt.Sprintf("spark-submit --class %s.%sRollup --master 'local[8]' target/%s-jobs.jar 2>&1 | grep -E 'TaskSetManager|DAGScheduler' | tail -n 12", g.p.module, cls, g.p.name)
	}
	var took int // µs
	v := g.uniq(func(g *gen) string {
		took = 20000000 + g.r.intn(600000000)
		return fmt.Sprintf("Job %d finished: %s, took %d.%06d s", job, call, took/1000000, took%1000000)
	})
	stamp := func() string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("26/04/%02d %02d:%02d:%02d", g.day, h, m, s)
	}
	var lines []string
	tid := 1000 + g.r.intn(5000)
	for i := tasks - 8; i < tasks; i++ {
		lines = append(lines, fmt.Sprintf("%s INFO TaskSetManager: Finished task %d.0 in stage %d.0 (TID %d) in %d ms on 10.0.%d.%d (executor driver) (%d/%d)", stamp(), i, stage, tid+i, 500+g.r.intn(9000), g.r.intn(10), 2+g.r.intn(250), i+1, tasks))
	}
	lines = append(lines, fmt.Sprintf("%s INFO DAGScheduler: ResultStage %d (%s) finished in %d.%03d s", stamp(), stage, call, took/1000000, took/1000%1000),
		fmt.Sprintf("%s INFO DAGScheduler: Job %d is finished. Cancelling potential speculative or zombie tasks for this job", stamp(), job))
	lines = append(lines, stamp()+" INFO DAGScheduler: "+v)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, v
}

// mtrAct reports the path to a service's host; the hop that drops
// packets is the probe.
func (g *gen) mtrAct() (*act, string) {
	target := pick(g.r, g.p.hosts)
	hops := 3 + g.r.intn(4)
	bad := 1 + g.r.intn(hops)
	row := func(i int, ip string, loss, avg int) string {
		return fmt.Sprintf("%3d.|-- %-40s %5d.%d%%    20 %6d.%d %5d.%d %5d.%d %5d.%d %5d.%d", i, ip, loss/10, loss%10, avg/10+g.r.intn(3), g.r.intn(10), avg/10, avg%10, avg/20, g.r.intn(10), avg/10*2+1, g.r.intn(10), avg/40, g.r.intn(10))
	}
	h, m, s, _ := g.clock()
	var b strings.Builder
	fmt.Fprintf(&b, "Start: 2026-04-%02dT%02d:%02d:%02d+0000\nHOST: %-38s Loss%%   Snt   Last   Avg  Best  Wrst StDev\n", g.day, h, m, s, pick(g.r, []string{"bastion-1", "ci-runner-4", "ops-jump-2"}))
	var v string
	for i := 1; i <= hops; i++ {
		ip := fmt.Sprintf("10.0.%d.%d", g.r.intn(16), 1+g.r.intn(250))
		if i == hops {
			ip = fmt.Sprintf("%s (10.0.%d.%d)", target+".internal", g.r.intn(16), 2+g.r.intn(250))
		}
		switch {
		case i == bad:
			v = g.uniq(func(g *gen) string { return strings.TrimSpace(row(i, ip, 50+g.r.intn(400), 200+g.r.intn(900))) })
			b.WriteString("  " + v + "\n")
		case i > bad: // the loss carries on to every hop after it
			b.WriteString(row(i, ip, 40+g.r.intn(400), 200+g.r.intn(900)) + "\n")
		default:
			b.WriteString(row(i, ip, 0, 2+g.r.intn(20)) + "\n")
		}
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("mtr -rwbc 20 %s.internal", target), out: b.String()}, v
}

// countObjectsAct counts the repository's objects; the pack size is the
// probe.
func (g *gen) countObjectsAct() (*act, string) {
	v := g.uniq(func(g *gen) string {
		if g.r.chance(0.6) {
			return fmt.Sprintf("size-pack: %d.%02d GiB", 1+g.r.intn(6), g.r.intn(100))
		}
		return fmt.Sprintf("size-pack: %d.%02d MiB", 300+g.r.intn(700), g.r.intn(100))
	})
	out := fmt.Sprintf("count: %d\nsize: %d.%02d MiB\nin-pack: %d\npacks: %d\n%s\nprune-packable: %d\ngarbage: 0\nsize-garbage: 0 bytes\n",
		g.r.intn(3000), g.r.intn(40), g.r.intn(100), 100000+g.r.intn(2000000), 1+g.r.intn(9), v, g.r.intn(40))
	return &act{kind: actRun, cmd: "git count-objects -vH", out: out}, v
}

// usUnit prints a duration of tenths of a microsecond as ioping does.
func usUnit(t int) string {
	if t >= 10000 {
		return fmt.Sprintf("%d.%02d ms", t/10000, t/100%100)
	}
	return fmt.Sprintf("%d.%d us", t/10, t%10)
}

// iopingAct measures request latency on a data volume; the
// min/avg/max/mdev line is the probe.
func (g *gen) iopingAct() (*act, string) {
	dir := pick(g.r, []string{"/var/lib/postgresql", "/var/lib/" + g.p.name, "/data"})
	var avg int
	v := g.uniq(func(g *gen) string {
		avg = 800 + g.r.intn(90000)
		return fmt.Sprintf("min/avg/max/mdev = %s / %s / %s / %s", usUnit(avg/3), usUnit(avg), usUnit(avg*(5+g.r.intn(20))), usUnit(avg*(8+g.r.intn(30))/10))
	})
	iops := 10000000 / max(avg, 1)
	out := fmt.Sprintf("\n--- %s (ext4 /dev/nvme1n1 492.0 GiB) ioping statistics ---\n19 requests completed in %s, 76 KiB read, %d iops, %d.%02d MiB/s\ngenerated 20 requests in 19.0 s, 80 KiB, 1 iops, 4.21 KiB/s\n%s\n",
		dir, usUnit(avg*19), iops, iops*4/1024, g.r.intn(100), v)
	return &act{kind: actRun, cmd: "ioping -c 20 -q " + dir, out: out}, v
}

// netstatAct greps the kernel's protocol counters for retransmissions;
// the retransmitted segments line is the probe.
func (g *gen) netstatAct() (*act, string) {
	v := g.uniq(func(g *gen) string { return fmt.Sprintf("%d segments retransmitted", 10000+g.r.intn(9000000)) })
	out := fmt.Sprintf("    %d other TCP timeouts\n    %s\n    TCPLostRetransmit: %d\n    TCPSynRetrans: %d\n    TCPTimeouts: %d\n    TCPSpuriousRtxHostQueues: %d\n",
		100+g.r.intn(90000), v, g.r.intn(9000), g.r.intn(900), 100+g.r.intn(90000), g.r.intn(90))
	return &act{kind: actRun, cmd: "netstat -s | grep -iE 'retrans|timeout'", out: out}, v
}

// nodetoolAct prints a Cassandra table's statistics; its local read
// latency is the probe.
func (g *gen) nodetoolAct() (*act, string) {
	t := pick(g.r, g.p.tables) + "_by_tenant"
	v := g.uniq(func(g *gen) string {
		us := 2000 + g.r.intn(90000)
		return fmt.Sprintf("Local read latency: %d.%03d ms", us/1000, us%1000)
	})
	out := fmt.Sprintf("Total number of tables: 1\n----------------\nKeyspace : app\n\tRead Count: %d\n\tRead Latency: 0.%03d ms\n\tWrite Count: %d\n\tWrite Latency: 0.0%02d ms\n\tPending Flushes: 0\n\t\tTable: %s\n\t\tSSTable count: %d\n\t\tOld SSTable count: 0\n\t\tSpace used (live): %d\n\t\tSpace used (total): %d\n\t\tSpace used by snapshots (total): 0\n\t\tOff heap memory used (total): %d\n\t\tSSTable Compression Ratio: 0.%05d\n\t\tNumber of partitions (estimate): %d\n\t\tMemtable cell count: %d\n\t\tMemtable data size: %d\n\t\tMemtable switch count: %d\n\t\tLocal read count: %d\n\t\t%s\n\t\tLocal write count: %d\n\t\tLocal write latency: 0.0%02d ms\n\t\tPending flushes: 0\n\t\tPercent repaired: %d.%d\n\t\tBloom filter false positives: %d\n\t\tBloom filter false ratio: 0.%05d\n\t\tAverage live cells per slice (last five minutes): %d.0\n\t\tMaximum live cells per slice (last five minutes): %d\n\t\tAverage tombstones per slice (last five minutes): %d.0\n\t\tMaximum tombstones per slice (last five minutes): %d\n\t\tDropped Mutations: 0\n\n----------------\n",
		100000+g.r.intn(9000000), g.r.intn(1000), 100000+g.r.intn(9000000), g.r.intn(100), t, 4+g.r.intn(40), 1000000000+g.r.intn(90000000), 1000000000+g.r.intn(90000000),
		1000000+g.r.intn(90000000), 20000+g.r.intn(70000), 10000+g.r.intn(9000000), g.r.intn(90000), g.r.intn(9000000), g.r.intn(900), 10000+g.r.intn(900000), v, 10000+g.r.intn(900000),
		g.r.intn(100), 40+g.r.intn(60), g.r.intn(10), g.r.intn(100), g.r.intn(100), 1+g.r.intn(50), 50+g.r.intn(5000), g.r.intn(2000), 1000+g.r.intn(100000))
	return &act{kind: actRun, cmd: "nodetool tablestats app." + t, out: out}, v
}

// teamsCardAct posts d to the team's Microsoft Teams channel through an
// incoming webhook, as a message card.
func (g *gen) teamsCardAct(d string) *act {
	comp := pick(g.r, g.p.comps)
	body := fmt.Sprintf("{\"@type\": \"MessageCard\", \"@context\": \"https://schema.org/extensions\", \"summary\": %s, \"themeColor\": \"0076D7\", \"title\": %s, \"text\": %s}",
		jstr(g.p.name+": "+comp), jstr(title(comp)), jstr(d))
	cmd := "curl -sS -H 'Content-Type: application/json' -d @- \"$TEAMS_WEBHOOK_URL\" <<'EOF'\n" + body + "\nEOF"
	return &act{kind: actRun, cmd: cmd, out: "1"}
}

// postmortem is an incident write-up whose remediation section holds d.
func (g *gen) postmortem(d string) (string, string) {
	comp := pick(g.r, g.p.comps)
	issue := pick(g.r, g.p.issues)
	path := fmt.Sprintf("docs/postmortems/2026-04-%02d-%s.md", g.day, kebab(g.words(2)...))
	h, m, _, _ := g.clock()
	content := fmt.Sprintf("# Postmortem: %s %s\n\nDate: 2026-04-%02d\nSeverity: SEV-%d\nStatus: Draft\n\n## Summary\n\n%s %s. %s was the component at fault.\n\n## Timeline (UTC)\n\n- %02d:%02d first alert\n- %02d:%02d mitigation deployed\n- %02d:%02d all clear\n\n## Root cause\n\n%s did not handle a case it met in production.\n\n## Remediation\n\n%s\n\n## Follow-ups\n\n- [ ] Regression test for %s\n- [ ] Alert on the early symptom\n",
		title(comp), issue, g.day, 2+g.r.intn(3), title(g.p.name), issue, title(comp), h, m, h, min(m+20, 59), h+1, m, title(comp), d, comp)
	return path, content
}

// regressionTestFile is a new test file whose header comment holds d.
func (g *gen) regressionTestFile(d string) (string, string) {
	dir := dirOf(pick(g.r, g.files))
	if len(g.p.tests) > 0 && g.p.tests[0] != "" {
		dir = pick(g.r, g.p.tests)
	}
	w := append([]string{"regression"}, g.nounWords()...)
	path := g.l.testFile(dir, w)
	if g.l.name == "java" {
		path = g.l.testFile(dir, []string{pascal(append(g.nounWords(), "Regression")...)})
	}
	cp := commentPrefix(path)
	head := fmt.Sprintf("%sRegression test for %s (%s).\n%s%s\n\n", cp, pick(g.r, g.p.comps), pick(g.r, g.p.issues), cp, d)
	return path, head + g.l.source(g, path, 15+g.r.intn(20))
}

// priorCommitAct shows the body of the commit that introduced the code
// under suspicion; a teammate recorded d in it.
func (g *gen) priorCommitAct(d string) *act {
	sha := g.r.hex(7)
	who := pick(g.r, [][2]string{{"Mei Lin", "mei.lin"}, {"Jonas Berg", "jonas"}, {"Aisha Bello", "aisha.b"}, {"Diego Ferraz", "dferraz"}})
	out := fmt.Sprintf("%s %s <%s@northwind.dev>\n\n%s: %s %s\n\n%s\n\nRefs: %s-%d\n", sha, who[0], who[1], lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "), d, g.p.ticket, 1000+g.r.intn(8999))
	return &act{kind: actRun, cmd: fmt.Sprintf("git log -1 --format='%%h %%an <%%ae>%%n%%n%%B' %s", sha), out: out}
}

// worklogAct appends d to the session's work log with tee, which echoes
// it.
func (g *gen) worklogAct(d string) *act {
	h, m, _, _ := g.clock()
	entry := fmt.Sprintf("\n## 2026-04-%02d %02d:%02d, %s\n\n%s\n", g.day, h, m, pick(g.r, g.p.comps), d)
	return &act{kind: actRun, cmd: "tee -a WORKLOG.md <<'EOF'" + entry + "EOF", out: entry}
}
