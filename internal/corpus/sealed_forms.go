package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// sealedForms plant the sealed half's probes, in surfaces none of the
// other halves' forms use: renames in `git log --name-status`, CODEOWNERS,
// tmux scrollback, runbooks, Loki's logcli, Nomad allocations, Flyway,
// make around the MySQL client, Terragrunt, `gh run list`, Temporal's
// workflow list; sysbench, fio, iperf3, `perf stat`, hyperfine, timeit,
// V8's tick profile, iai-callgrind, GC.heap_info, Go's inittrace,
// pg_test_fsync, promtool, pg_stat_statements, ping, mysqlslap, size-limit,
// Bloaty and `docker image ls`; decisions in code comments, Cline's memory
// bank, AGENTS.md, Slack webhooks, git notes, Jira comments, changelog
// fragments and the user's one-line reply; constraints as acceptance
// criteria, ground rules, postscripts and forwarded mail. Each returns its
// probe as the session holds it.
var sealedForms = []*form{
	// paths
	{"user-path-hunch", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	{"prose-path-located", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	{"rename-status-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "which files moved recently"}), g.renameLogAct(p))
		return p
	}},
	{"codeowners-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "who owns the code"}), g.codeownersAct(p))
		return p
	}},
	// commands
	{"user-command-snippet", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command-noted", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	{"tmux-scrollback-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the terminal the on-call left open"}), g.tmuxAct(c))
		return c
	}},
	{"runbook-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		path := fmt.Sprintf("docs/runbooks/%s.md", kebab(append(g.words(1), g.nounWords()...)...))
		content := fmt.Sprintf("# %s\n\nSymptom: %s %s.\n\n## Reproduce\n\n```sh\n%s\n```\n\n## Escalate\n\nPage the owner of %s if the command above fails twice.\n",
			title(pick(g.r, g.p.comps)), pick(g.r, g.p.comps), pick(g.r, g.p.issues), c, pick(g.r, g.p.dirs))
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return c
	}},
	// errors
	{"user-error-quote", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	{"logcli-query-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.logcliAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "Loki for the last hour"}), a)
		return probe
	}},
	{"nomad-alloc-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the failed allocation"}), g.nomadAllocAct(e))
		return e
	}},
	{"flyway-migrate-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("psql")
		g.step(g.announce("other", map[string]string{"what": "the Flyway migration"}), g.flywayAct(e))
		return e
	}},
	{"make-seed-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("mysql")
		g.step(g.announce("other", map[string]string{"what": "the seed target"}), g.makeSeedAct(e))
		return e
	}},
	{"terragrunt-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("tf")
		g.step(g.announce("other", map[string]string{"what": "the Terragrunt stack"}), g.terragruntAct(e))
		return e
	}},
	// identifiers
	{"user-id-ksuid", "identifier", siteUser, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return g.ksuid() })
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"prose-id-merge-request", "identifier", siteAssistant, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return fmt.Sprintf("northwind/%s!%d", g.p.name, 1000+g.r.intn(8000)) })
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	{"gh-run-list-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.runListAct()
		g.step(g.announce("other", map[string]string{"what": "recent CI runs"}), a)
		return id
	}},
	{"temporal-workflow-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.temporalAct()
		g.step(g.announce("other", map[string]string{"what": "the failed workflows"}), a)
		return id
	}},
	// measurements
	{"sysbench-oltp-tps", "measurement", siteOutput, func(g *gen) string {
		a, v := g.sysbenchAct()
		g.step(g.announce("other", map[string]string{"what": "database throughput"}), a)
		return v
	}},
	{"fio-iops", "measurement", siteOutput, func(g *gen) string {
		a, v := g.fioAct()
		g.step(g.announce("other", map[string]string{"what": "the volume's random read rate"}), a)
		return v
	}},
	{"iperf3-bitrate", "measurement", siteOutput, func(g *gen) string {
		a, v := g.iperfAct()
		g.step(g.announce("other", map[string]string{"what": "bandwidth between the nodes"}), a)
		return v
	}},
	{"perf-stat-cache-misses", "measurement", siteOutput, func(g *gen) string {
		a, v := g.perfStatAct()
		g.step(g.announce("other", map[string]string{"what": "hardware counters"}), a)
		return v
	}},
	{"hyperfine-mean", "measurement", siteOutput, func(g *gen) string {
		a, v := g.hyperfineAct()
		g.step(g.announce("other", map[string]string{"what": "wall time over ten runs"}), a)
		return v
	}},
	{"runtime-micro-figure", "measurement", siteOutput, func(g *gen) string {
		a, v := g.microAct()
		g.step(g.announce("other", map[string]string{"what": "the hot function in isolation"}), a)
		return v
	}},
	{"promtool-quantile", "measurement", siteOutput, func(g *gen) string {
		a, v := g.promtoolAct()
		g.step(g.announce("other", map[string]string{"what": "p99 per route in Prometheus"}), a)
		return v
	}},
	{"pg-stat-statements-mean", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pgStatStatementsAct()
		g.step(g.announce("other", map[string]string{"what": "the most expensive statements"}), a)
		return v
	}},
	{"ping-rtt-summary", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pingAct()
		g.step(g.announce("other", map[string]string{"what": "round trips to the replica"}), a)
		return v
	}},
	{"mysqlslap-average", "measurement", siteOutput, func(g *gen) string {
		a, v := g.mysqlslapAct()
		g.step(g.announce("other", map[string]string{"what": "the query under fifty clients"}), a)
		return v
	}},
	{"artifact-size", "measurement", siteOutput, func(g *gen) string {
		a, v := g.artifactSizeAct()
		g.step(g.announce("other", map[string]string{"what": "how big the build output got"}), a)
		return v
	}},
	// decisions
	{"decision-code-comment", "decision", siteInput, func(g *gen) string {
		d := g.decisionLine()
		p := g.routinePath()
		g.step(g.announce("edit", map[string]string{"path": p}), g.commentEditAct(p, d))
		return d
	}},
	{"decision-memory-bank", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		comp := pick(g.r, g.p.comps)
		content := fmt.Sprintf("# Active Context\n\n## Current Focus\n\n%s %s.\n\n## Recent Changes\n\n- Reproduced the failure with `%s`.\n- Read %s.\n\n## Active Decisions\n\n%s\n\n## Next Steps\n\n- Regression test for %s.\n",
			title(comp), pick(g.r, g.p.issues), g.testCmd(pick(g.r, g.testTargets)), pick(g.r, g.files), d, comp)
		g.step(g.announce("edit", map[string]string{"path": "memory-bank/activeContext.md"}), g.writeFileAct("memory-bank/activeContext.md", content))
		return d
	}},
	{"decision-agents-md-rule", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		file := pick(g.r, []string{"AGENTS.md", "CONVENTIONS.md", ".cursor/rules/decisions.mdc"})
		cmd := fmt.Sprintf("cat >> %s <<'EOF'\n\n## %s (2026-04-%02d)\n\n%s\nEOF", file, title(pick(g.r, g.p.comps)), g.day, d)
		g.step(g.announce("other", map[string]string{"what": "the rule file for later sessions"}), &act{kind: actRun, cmd: cmd, out: ""})
		return d
	}},
	{"decision-slack-webhook", "decision", siteInput, func(g *gen) string {
		d := g.decisionLine()
		body := fmt.Sprintf("{\"channel\": \"#%s-dev\", \"username\": \"%s-bot\", \"text\": %s}", g.p.name, g.p.name, jstr(d))
		cmd := "curl -sS -X POST -H 'Content-type: application/json' --data @- \"$SLACK_WEBHOOK_URL\" <<'EOF'\n" + body + "\nEOF"
		g.step(g.announce("other", map[string]string{"what": "the team channel"}), &act{kind: actRun, cmd: cmd, out: "ok"})
		return jsonInner(d)
	}},
	{"decision-git-notes", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "a note on the commit"}), &act{kind: actRun, cmd: "git notes --ref=decisions add -F - HEAD <<'EOF'\n" + d + "\nEOF", out: ""})
		return d
	}},
	{"decision-jira-comment", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		key := fmt.Sprintf("%s-%d", g.p.ticket, 1000+g.r.intn(8999))
		cmd := fmt.Sprintf("jira issue comment add %s --template - <<'EOF'\n%s\nEOF", key, d)
		out := fmt.Sprintf("✓ Comment added to issue \"%s\"\nhttps://northwind.atlassian.net/browse/%s\n", key, key)
		g.step(g.announce("other", map[string]string{"what": "the ticket"}), &act{kind: actRun, cmd: cmd, out: out})
		return d
	}},
	{"decision-changelog-fragment", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		path, content := g.changelogFragment(d)
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return d
	}},
	{"decision-user-reply", "decision", siteUser, func(g *gen) string {
		d := g.sealedUserDecision()
		g.say(d)
		return d
	}},
	// constraints
	{"constraint-task-acceptance", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("\n\nAcceptance criteria:\n* " + c)
		} else {
			g.say("\n* " + c)
		}
		return c
	}},
	{"constraint-task-ground-rules", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("Ground rules for this one: " + c)
		} else {
			g.say("And: " + c)
		}
		return c
	}},
	{"constraint-user-ps", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("PS: " + c)
		return c
	}},
	{"constraint-user-forwarded", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		who := pick(g.r, []string{"Dana (security)", "Oluwaseun, release manager", "Kenji from SRE", "Ines"})
		g.say(fmt.Sprintf("Forwarding this from email, it applies here too:\n\n> %s\n>\n> %s\n", c, who))
		return c
	}},
}

// sealedUserDecision is a decision as the user words it: the session's
// next alternative, in a phrasing of sealedUserDecisions.
func (g *gen) sealedUserDecision() string {
	a := g.altOrder[0]
	g.altOrder = append(g.altOrder[1:], a)
	return sentence(fill(pick(g.r, sealedUserDecisions), map[string]string{"x": a.x, "y": a.y, "why": a.why, "c": pick(g.r, g.p.comps)}))
}

// decisionLine is a decision in one line, for surfaces that hold one line
// as written (a code comment, a JSON string): the next of the session's
// phrasings that has no line break.
func (g *gen) decisionLine() string {
	for range g.decForms {
		if !strings.Contains(g.decForms[0], "\n") {
			break
		}
		g.decForms = append(g.decForms[1:], g.decForms[0])
	}
	return g.decision()
}

// ksuid returns a KSUID-shaped identifier: 27 base62 characters.
func (g *gen) ksuid() string {
	return string("23"[g.r.intn(2)]) + g.r.b62(26)
}

// commentPrefix is the line comment of the file's language.
func commentPrefix(path string) string {
	switch {
	case strings.HasSuffix(path, ".py"), strings.HasSuffix(path, ".sh"), strings.HasSuffix(path, ".yaml"), strings.HasSuffix(path, ".yml"),
		strings.HasSuffix(path, ".tf"), strings.HasSuffix(path, ".service"), strings.HasSuffix(path, ".bats"):
		return "# "
	case strings.HasSuffix(path, ".sql"):
		return "-- "
	}
	return "// "
}

// commentEditAct adds a comment holding d above a line of path, the way
// an agent records why it wrote the code it wrote.
func (g *gen) commentEditAct(path, d string) *act {
	c := g.fileContent(path)
	lines, i := g.editableLine(c)
	old := lines[i]
	indent := old[:len(old)-len(strings.TrimLeft(old, " \t"))]
	nw := indent + commentPrefix(path) + d + "\n" + old
	lines[i] = nw
	c2 := strings.Join(lines, "\n") + "\n"
	g.content[path] = c2
	return &act{kind: actEdit, path: path, old: old, new: nw, content: c2, line: i + 1}
}

// changelogFragment is a changelog entry holding d, in the fragment tool
// of the project's ecosystem: changesets, towncrier or scriv.
func (g *gen) changelogFragment(d string) (string, string) {
	switch g.l.name {
	case "ts":
		path := fmt.Sprintf(".changeset/%s-%s-%s.md", pick(g.r, []string{"brave", "quiet", "tidy", "lucky", "sour"}), pick(g.r, []string{"owls", "lamps", "pens", "geese", "moons"}), pick(g.r, []string{"sing", "jump", "rest", "wink", "dance"}))
		return path, fmt.Sprintf("---\n\"%s\": patch\n---\n\nFix %s.\n\n%s\n", g.p.module, pick(g.r, g.p.comps), d)
	case "python":
		return fmt.Sprintf("changes/%d.changed.md", 100+g.r.intn(900)), fmt.Sprintf("Fix %s.\n\n%s\n", pick(g.r, g.p.comps), d)
	}
	h, m, s, _ := g.clock()
	path := fmt.Sprintf("changelog.d/202604%02d_%02d%02d%02d_%s.md", g.day, h, m, s, kebab(g.nounWords()...))
	return path, fmt.Sprintf("### Changed\n\n- Fix %s.\n\n%s\n", pick(g.r, g.p.comps), d)
}

// renameLogAct is `git log --name-status` of the last commits, one of
// which renamed a file to path.
func (g *gen) renameLogAct(path string) *act {
	var b strings.Builder
	n := 4 + g.r.intn(6)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%s %s: %s %s\n", g.r.hex(7), lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "))
		for _, f := range pickN(g.r, append(slices.Clone(g.files), g.tfiles...), 1+g.r.intn(3)) {
			fmt.Fprintf(&b, "%s\t%s\n", pick(g.r, []string{"M", "M", "M", "A"}), f)
		}
		if i == at {
			old := dirOf(path) + "/" + strings.Join(g.words(1), "_") + "_" + lastDir(path)
			fmt.Fprintf(&b, "R%03d\t%s\t%s\n", 70+g.r.intn(30), old, path)
		}
		b.WriteString("\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("git log --name-status --format='%%h %%s' -n %d", n), out: b.String()}
}

// codeownersAct prints the CODEOWNERS file, with a line for path.
func (g *gen) codeownersAct(path string) *act {
	teams := []string{"@northwind/platform", "@northwind/" + g.p.name + "-core", "@northwind/sre", "@northwind/data"}
	var lines []string
	lines = append(lines, "# Each line is a file pattern followed by one or more owners.", "*                       @northwind/"+g.p.name+"-core")
	for _, d := range g.p.dirs {
		lines = append(lines, fmt.Sprintf("/%-22s %s", d+"/", pick(g.r, teams)))
	}
	lines = slices.Insert(lines, 2+g.r.intn(len(lines)-1), fmt.Sprintf("/%s %s @%s", path, pick(g.r, teams), pick(g.r, []string{"pkowalczyk", "nadia-h", "tbrandt", "yuki-s"})))
	return &act{kind: actRun, cmd: "cat .github/CODEOWNERS", out: strings.Join(lines, "\n") + "\n"}
}

// tmuxAct captures the scrollback of a tmux pane in which cmd was run.
func (g *gen) tmuxAct(cmd string) *act {
	host := pick(g.r, g.p.hosts)
	prompt := fmt.Sprintf("oncall@%s:~/%s$ ", host, g.p.name)
	var b strings.Builder
	for i := 0; i < 2+g.r.intn(3); i++ {
		b.WriteString(prompt + pick(g.r, []string{"git log -1 --oneline", "uptime", "df -h /", "free -m"}) + "\n")
		for k := 0; k < 1+g.r.intn(3); k++ {
			b.WriteString(g.logLine("info", pick(g.r, routineLogMsgs)) + "\n")
		}
	}
	b.WriteString(prompt + cmd + "\n")
	for k := 0; k < 3+g.r.intn(8); k++ {
		b.WriteString(g.logLine(pick(g.r, []string{"info", "warn"}), pick(g.r, routineLogMsgs)) + "\n")
	}
	b.WriteString("^C\n" + prompt + "\n")
	return &act{kind: actRun, cmd: fmt.Sprintf("tmux capture-pane -p -J -S -300 -t oncall:%d", g.r.intn(4)), out: b.String()}
}

// logcliAct queries Loki for errors; the line holding e is among them. It
// returns e as the line holds it.
func (g *gen) logcliAct(e string) (*act, string) {
	host := pick(g.r, g.p.hosts)
	pod := fmt.Sprintf("%s-%s-%s", host, g.r.hex(9)[:9], g.r.alnum(5))
	stamp := func() string {
		h, m, s, ms := g.clock()
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%03dZ", g.day, h, m, s, ms)
	}
	labels := fmt.Sprintf("{app=\"%s\", namespace=\"%s\", pod=\"%s\"}", host, g.p.name, pod)
	var lines []string
	for i := 0; i < int(float64(8+g.r.intn(30))*g.scale); i++ {
		lines = append(lines, stamp()+" "+labels+" "+g.logLine("error", g.routineError()))
	}
	bad := g.logLine("error", e)
	out := insertLines(g, lines, []string{stamp() + " " + labels + " " + bad})
	cmd := fmt.Sprintf("logcli query '{app=\"%s\"} |= \"error\"' --since=1h --limit=500 --quiet", host)
	return &act{kind: actRun, cmd: cmd, out: out}, asLogged(bad, e)
}

// nomadAllocAct is `nomad alloc status` of an allocation whose task failed
// with e.
func (g *gen) nomadAllocAct(e string) *act {
	host := pick(g.r, g.p.hosts)
	id := g.r.uuid()
	node := g.r.hex(8)
	var b strings.Builder
	fmt.Fprintf(&b, "ID                  = %s\nEval ID             = %s\nName                = %s.%s[0]\nNode ID             = %s\nNode Name           = nomad-client-%d\nJob ID              = %s\nJob Version         = %d\nClient Status       = failed\nClient Description  = Failed tasks\nDesired Status      = run\nCreated             = %dm%ds ago\nModified            = %ds ago\n\n",
		id[:8], g.r.hex(8), host, host, node, 1+g.r.intn(9), host, 3+g.r.intn(40), 1+g.r.intn(30), g.r.intn(60), 5+g.r.intn(50))
	fmt.Fprintf(&b, "Task %q is \"dead\"\nTask Resources:\nCPU        Memory           Disk     Addresses\n%d/500 MHz  %d MiB/512 MiB  300 MiB\n\nTask Events:\nStarted At     = 2026-04-%02dT08:%02d:%02dZ\nFinished At    = 2026-04-%02dT08:%02d:%02dZ\nTotal Restarts = %d\nLast Restart   = N/A\n\nRecent Events:\nTime                       Type            Description\n",
		host, g.r.intn(500), 100+g.r.intn(400), g.day, g.r.intn(60), g.r.intn(60), g.day, g.r.intn(60), g.r.intn(60), 2+g.r.intn(3))
	at := func() string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02dZ", g.day, h, m, s)
	}
	rows := [][2]string{{"Not Restarting", "Exceeded allowed attempts 2 in interval 30m0s and mode is \"fail\""}, {"Terminated", "Exit Code: 1, Exit Message: " + e},
		{"Started", "Task started by client"}, {"Restarting", "Task restarting in 16.283s"}, {"Driver", "Downloading image"}, {"Task Setup", "Building Task Directory"}, {"Received", "Task received by client"}}
	for _, r := range rows {
		fmt.Fprintf(&b, "%s  %-14s  %s\n", at(), r[0], r[1])
	}
	return &act{kind: actRun, cmd: "nomad alloc status " + id[:8], out: b.String()}
}

// flywayAct is a Flyway migration that fails with the PostgreSQL error e.
func (g *gen) flywayAct(e string) *act {
	v := 20 + g.r.intn(80)
	desc := pick(g.r, g.p.verbs) + " " + strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " ")
	file := fmt.Sprintf("V%d__%s.sql", v, strings.ReplaceAll(desc, " ", "_"))
	host := pick(g.r, g.p.hosts)
	state := pick(g.r, []string{"2BP01", "42883", "23505", "42501"})
	out := fmt.Sprintf(`Flyway OSS Edition 10.11.0 by Redgate

See release notes here: https://rd.gt/416ObMi
Database: jdbc:postgresql://%s:5432/app (PostgreSQL 13.14)
Successfully validated %d migrations (execution time 00:00.%03ds)
Current version of schema "public": %d
Migrating schema "public" to version "%d - %s"
ERROR: Migration of schema "public" to version "%d - %s" failed! Changes successfully rolled back.
ERROR: Migration %s failed
-------------------------------------
SQL State  : %s
Error Code : 0
Message    : ERROR: %s
Location   : db/migration/%s (/flyway/sql/%s)
Line       : %d
Statement  : %s

`, host, v, g.r.intn(1000), v-1, v, desc, v, desc, file, state, e, file, file, 2+g.r.intn(30), pick(g.r, []string{"DROP TABLE " + pick(g.r, g.p.tables), "CREATE UNIQUE INDEX CONCURRENTLY ON " + pick(g.r, g.p.tables) + " (external_id)", "ALTER TABLE " + pick(g.r, g.p.tables) + " ADD COLUMN archived_at timestamptz"}))
	return &act{kind: actRun, cmd: "flyway -configFiles=conf/flyway.toml -locations=filesystem:db/migration migrate", out: out, exit: 1}
}

// makeSeedAct runs a make target that pipes seed files into the MySQL
// client, which fails with e.
func (g *gen) makeSeedAct(e string) *act {
	var b strings.Builder
	for i := 0; i < 1+g.r.intn(4); i++ {
		f := fmt.Sprintf("db/seeds/%02d_%s.sql", i+1, snake(g.nounWords()...))
		fmt.Fprintf(&b, "mysql --defaults-extra-file=.my.cnf app < %s\n", f)
	}
	line := 20 + g.r.intn(60)
	fmt.Fprintf(&b, "%s\nmake: *** [Makefile:%d: db-seed] Error 1\n", e, line)
	return &act{kind: actRun, cmd: "make db-seed", out: b.String(), exit: 2}
}

// terragruntAct is `terragrunt run-all plan` where one module's plan
// fails with e in Terraform's error box.
func (g *gen) terragruntAct(e string) *act {
	mods := []string{"network", "dns", "gke", "aks", "iam", "database", "namespaces"}
	bad := pick(g.r, mods)
	var b strings.Builder
	t := 1 + g.r.intn(5)
	for _, m := range pickN(g.r, mods, 3+g.r.intn(3)) {
		if m == bad {
			continue
		}
		fmt.Fprintf(&b, "%02d:%02d:%02d.%03d INFO   [live/prod/%s] terraform: No changes. Your infrastructure matches the configuration.\n", 8+t/3600, t/60%60, t%60, g.r.intn(1000), m)
		t += 2 + g.r.intn(20)
	}
	res, name := pick(g.r, []string{"google_compute_instance", "azurerm_kubernetes_cluster", "kubernetes_namespace", "cloudflare_record"}), snake(g.nounWords()...)
	line := 5 + g.r.intn(120)
	pre := fmt.Sprintf("%02d:%02d:%02d.%03d STDERR [live/prod/%s] terraform: ", 8+t/3600, t/60%60, t%60, g.r.intn(1000), bad)
	for _, l := range []string{"╷", "│ Error: " + e, "│ ", fmt.Sprintf("│   with %s.%s,", res, name), fmt.Sprintf("│   on main.tf line %d, in resource %q %q:", line, res, name), fmt.Sprintf("│  %d: resource %q %q {", line, res, name), "│ ", "╵"} {
		b.WriteString(pre + l + "\n")
	}
	fmt.Fprintf(&b, "%02d:%02d:%02d.%03d ERROR  [live/prod/%s] Failed to execute \"terraform plan -input=false\" in ./.terragrunt-cache/%s/%s\n%02d:%02d:%02d.%03d ERROR  exit status 1\n",
		8+t/3600, t/60%60, t%60+1, g.r.intn(1000), bad, g.r.b62(27), g.r.b62(27), 8+t/3600, t/60%60, t%60+1, g.r.intn(1000))
	return &act{kind: actRun, cmd: "terragrunt run-all plan --terragrunt-non-interactive --terragrunt-working-dir live/prod", out: b.String(), exit: 1}
}

// runListAct lists recent CI runs as `gh run list` prints them to a pipe;
// the failed run's id is the probe.
func (g *gen) runListAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return fmt.Sprint(14000000000 + g.r.intn(999999999)) })
	var rows []string
	row := func(status, concl, rid string) string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("%s\t%s\t%s: %s %s\tci\tfix/%s\tpush\t%s\t%dm%ds\t2026-04-%02dT%02d:%02d:%02dZ", status, concl, lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs),
			strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "), kebab(g.nounWords()...), rid, 1+g.r.intn(12), g.r.intn(60), g.day, h, m, s)
	}
	for i := 0; i < 6+g.r.intn(10); i++ {
		rows = append(rows, row("completed", pick(g.r, []string{"success", "success", "success", "cancelled"}), fmt.Sprint(14000000000+g.r.intn(999999999))))
	}
	rows = slices.Insert(rows, g.r.intn(len(rows)+1), row("completed", "failure", id))
	return &act{kind: actRun, cmd: "gh run list --workflow ci.yml --limit 20", out: strings.Join(rows, "\n") + "\n"}, id
}

// temporalAct lists Temporal workflows; the failed one's id is the probe.
func (g *gen) temporalAct() (*act, string) {
	typ := pascal(g.words(2)...)
	mk := func() string {
		return fmt.Sprintf("%s-%s-%s", pick(g.r, g.p.verbs), kebab(g.nounWords()...), g.r.alnum(10))
	}
	id := g.uniq(func(g *gen) string { return mk() })
	var rows []string
	row := func(status, wid string) string {
		return fmt.Sprintf("  %-10s %-44s %-22s %d minutes ago", status, wid, typ, 1+g.r.intn(59))
	}
	for i := 0; i < 4+g.r.intn(8); i++ {
		rows = append(rows, row(pick(g.r, []string{"Completed", "Completed", "Running"}), mk()))
	}
	rows = slices.Insert(rows, g.r.intn(len(rows)+1), row("Failed", id))
	out := fmt.Sprintf("  %-10s %-44s %-22s %s\n", "Status", "WorkflowId", "Type", "StartTime") + strings.Join(rows, "\n") + "\n"
	return &act{kind: actRun, cmd: fmt.Sprintf("temporal workflow list --namespace %s --limit 20", g.p.name), out: out}, id
}

// sysbenchAct runs sysbench's OLTP read-write test; the transactions line
// is the probe.
func (g *gen) sysbenchAct() (*act, string) {
	threads := 8 * (1 + g.r.intn(8))
	var tx, tps int // tps in hundredths
	v := g.uniq(func(g *gen) string {
		tps = 20000 + g.r.intn(400000)
		tx = tps * 60 / 100
		return fmt.Sprintf("transactions:                        %-6d (%d.%02d per sec.)", tx, tps/100, tps%100)
	})
	q := tx * 20
	driver, port := "pgsql", 5432
	if !isPostgres(g.p) && g.r.chance(0.5) {
		driver, port = "mysql", 3306
	}
	host := pick(g.r, g.p.hosts)
	avg := threads * 100000 / tps // hundredths of a ms
	out := fmt.Sprintf(`sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)

Running the test with following options:
Number of threads: %d
Initializing random number generator from current time


Initializing worker threads...

Threads started!

SQL statistics:
    queries performed:
        read:                            %d
        write:                           %d
        other:                           %d
        total:                           %d
    %s
    queries:                             %d (%d.%02d per sec.)
    ignored errors:                      %-6d (0.%02d per sec.)
    reconnects:                          0      (0.00 per sec.)

General statistics:
    total time:                          60.00%02ds
    total number of events:              %d

Latency (ms):
         min:                                    %d.%02d
         avg:                                   %d.%02d
         max:                                  %d.%02d
         95th percentile:                       %d.%02d
         sum:                               %d.%02d

Threads fairness:
    events (avg/stddev):           %d.%04d/%d.%02d
    execution time (avg/stddev):   59.%04d/0.%02d

`, threads, tx*14, tx*4, tx*2, q, v, q, tps*20/100, tps*20%100, g.r.intn(40), g.r.intn(100), g.r.intn(100), tx,
		1+g.r.intn(4), g.r.intn(100), avg/100, avg%100, avg/100*8+g.r.intn(300), g.r.intn(100), avg/100*2+g.r.intn(20), g.r.intn(100), tx*avg/100, g.r.intn(100),
		tx/threads, g.r.intn(10000), 10+g.r.intn(80), g.r.intn(100), 9000+g.r.intn(999), g.r.intn(100))
	cmd := fmt.Sprintf("sysbench oltp_read_write --db-driver=%s --%s-host=%s --%s-port=%d --%s-user=bench --tables=8 --table-size=1000000 --threads=%d --time=60 run", driver, driver, host, driver, port, driver, threads)
	return &act{kind: actRun, cmd: cmd, out: out}, v
}

// fioAct runs a random-read fio job against a volume; the IOPS line is
// the probe.
func (g *gen) fioAct() (*act, string) {
	var iops int
	v := g.uniq(func(g *gen) string {
		iops = 3000 + g.r.intn(90000)
		mib := iops * 10 / 256 // tenths
		return fmt.Sprintf("read: IOPS=%d.%dk, BW=%d.%dMiB/s (%d.%dMB/s)(%d.%dGiB/60002msec)", iops/1000, iops/100%10, mib/10, mib%10, iops*4096/1000000, iops*4096/100000%10, mib*60/10240, mib*60/1024%10)
	})
	clat := 32 * 4 * 1000000 / iops // usec
	pct := func(p int) int { return clat * (40 + p) / 100 }
	out := fmt.Sprintf(`randread: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, iodepth=32
...
fio-3.36
Starting 4 processes

randread: (groupid=0, jobs=4): err= 0: pid=%d: %s Apr %2d 08:%02d:%02d 2026
  %s
    slat (usec): min=2, max=%d, avg= %d.%02d, stdev= %d.%02d
    clat (usec): min=%d, max=%d, avg=%d.%02d, stdev=%d.%02d
     lat (usec): min=%d, max=%d, avg=%d.%02d, stdev=%d.%02d
    clat percentiles (usec):
     |  1.00th=[%5d],  5.00th=[%5d], 10.00th=[%5d], 20.00th=[%5d],
     | 50.00th=[%5d], 90.00th=[%5d], 99.00th=[%5d], 99.99th=[%5d]
   iops        : min=%d, max=%d, avg=%d.%02d, stdev=%d.%02d, samples=476
  cpu          : usr=%d.%02d%%, sys=%d.%02d%%, ctx=%d, majf=0, minf=%d
  IO depths    : 1=0.1%%, 2=0.1%%, 4=0.1%%, 8=0.1%%, 16=0.1%%, 32=100.0%%, >=64=0.0%%

Disk stats (read/write):
  nvme1n1: ios=%d/%d, merge=0/%d, ticks=%d/%d, in_queue=%d, util=99.%02d%%
`, 1000+g.r.intn(90000), weekday(g.day)[:3], g.day, g.r.intn(60), g.r.intn(60), v, 100+g.r.intn(4000), 3+g.r.intn(9), g.r.intn(100), 1+g.r.intn(5), g.r.intn(100),
		clat/10, clat*12, clat, g.r.intn(100), clat/3, g.r.intn(100), clat/10+4, clat*12+5, clat+5, g.r.intn(100), clat/3, g.r.intn(100),
		pct(0), pct(10), pct(20), pct(35), pct(60), pct(120), pct(260), pct(900), iops*8/10, iops*11/10, iops, g.r.intn(100), iops/90, g.r.intn(100),
		1+g.r.intn(9), g.r.intn(100), 5+g.r.intn(20), g.r.intn(100), iops*50+g.r.intn(1000), 100+g.r.intn(200), iops*60, g.r.intn(40), g.r.intn(9), iops*60*clat/1000, g.r.intn(50), iops*60*clat/1000+g.r.intn(90), g.r.intn(100))
	return &act{kind: actRun, cmd: "sudo fio --name=randread --filename=/dev/nvme1n1 --readonly --rw=randread --bs=4k --ioengine=libaio --iodepth=32 --numjobs=4 --runtime=60 --time_based --group_reporting", out: out}, v
}

// iperfAct measures the bandwidth to another host with iperf3; the
// sender's summary is the probe.
func (g *gen) iperfAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	var mbit, retr int
	v := g.uniq(func(g *gen) string {
		mbit = 200 + g.r.intn(9000)
		retr = g.r.intn(3000)
		return fmt.Sprintf("0.00-10.00  sec  %s  %4d Mbits/sec  %-4d            sender", gbytes(mbit*10/8), mbit, retr)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "Connecting to host %s, port 5201\n[  5] local 10.0.%d.%d port %d connected to 10.0.%d.%d port 5201\n[ ID] Interval           Transfer     Bitrate         Retr  Cwnd\n",
		host, g.r.intn(250), 2+g.r.intn(250), 40000+g.r.intn(20000), g.r.intn(250), 2+g.r.intn(250))
	for i := 0; i < 10; i++ {
		x := mbit * (85 + g.r.intn(30)) / 100
		fmt.Fprintf(&b, "[  5]   %d.00-%d.00   sec  %s  %4d Mbits/sec  %3d    %d KBytes\n", i, i+1, gbytes(x/8), x, retr/10+g.r.intn(20), 200+g.r.intn(2800))
	}
	fmt.Fprintf(&b, "- - - - - - - - - - - - - - - - - - - - - - - - -\n[ ID] Interval           Transfer     Bitrate         Retr\n[  5]   %s\n[  5]   0.00-10.04  sec  %s  %4d Mbits/sec                  receiver\n\niperf Done.\n",
		v, gbytes(mbit*10/8), mbit*99/100)
	return &act{kind: actRun, cmd: fmt.Sprintf("iperf3 -c %s -t 10 -P 1", host), out: b.String()}, v
}

// gbytes prints a transfer of mb megabytes as iperf3 does.
func gbytes(mb int) string {
	if mb >= 1024 {
		return fmt.Sprintf("%d.%02d GBytes", mb/1024, mb%1024*100/1024)
	}
	return fmt.Sprintf("%4d MBytes", mb)
}

// perfStatAct counts hardware events of a run with `perf stat`; the
// cache-misses line is the probe.
func (g *gen) perfStatAct() (*act, string) {
	var run string
	switch g.l.name {
	case "go":
		run = "./bin/" + pick(g.r, g.p.hosts) + " --replay testdata/replay.bin"
	case "python":
		run = "python -m " + g.p.module + " replay --limit 50000"
	case "ts":
		run = "node dist/" + pick(g.r, g.p.nouns) + ".js --replay 50000"
	case "rust":
		run = "target/release/" + crateOf(pick(g.r, g.p.dirs)) + " replay --limit 50000"
	case "java":
		run = "java -jar target/" + g.p.name + ".jar --replay"
	default:
		run = "psql -d app -f sql/functions/" + snake(g.nounWords()...) + ".sql"
	}
	refs := 100000000 + g.r.intn(900000000)
	v := g.uniq(func(g *gen) string {
		miss := refs * (5 + g.r.intn(60)) / 100
		return fmt.Sprintf("%s      cache-misses                     #   %d.%02d%% of all cache refs", commas(miss), miss*100/refs, g.r.intn(100))
	})
	cyc := 4000000000 + g.r.intn(40000000000)
	secs := 1 + g.r.intn(20)
	out := fmt.Sprintf(`
 Performance counter stats for '%s':

       %9d.%02d msec task-clock                       #    %d.%03d CPUs utilized
    %14s      context-switches                 #    %d.%03d K/sec
    %14s      cpu-migrations                   #   %d.%03d /sec
    %14s      page-faults                      #   %d.%03d K/sec
    %14s      cycles                           #    %d.%03d GHz
    %14s      instructions                     #    %d.%02d  insn per cycle
    %14s      branches                         #  %d.%03d M/sec
    %14s      branch-misses                    #    %d.%02d%% of all branches
    %14s      cache-references                 #   %d.%03d M/sec
    %14s

    %6d.%09d seconds time elapsed

    %6d.%06d000 seconds user
    %6d.%06d000 seconds sys

`, run, secs*3100+g.r.intn(900), g.r.intn(100), 2+g.r.intn(4), g.r.intn(1000), commas(10000+g.r.intn(90000)), 1+g.r.intn(9), g.r.intn(1000), commas(100+g.r.intn(5000)), 10+g.r.intn(300), g.r.intn(1000),
		commas(10000+g.r.intn(900000)), 1+g.r.intn(50), g.r.intn(1000), commas(cyc), 2+g.r.intn(2), g.r.intn(1000), commas(cyc*(8+g.r.intn(16))/10), g.r.intn(3), g.r.intn(100),
		commas(cyc/5), 200+g.r.intn(800), g.r.intn(1000), commas(cyc/500), g.r.intn(5), g.r.intn(100), commas(refs), 10+g.r.intn(200), g.r.intn(1000), v,
		secs, g.r.intn(1000000000), secs*3, g.r.intn(1000000), g.r.intn(3), g.r.intn(1000000))
	return &act{kind: actRun, cmd: "perf stat -e task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses,cache-references,cache-misses -- " + run, out: out}, v
}

// hyperfineAct times the test command over ten runs; the mean line is the
// probe.
func (g *gen) hyperfineAct() (*act, string) {
	target := pick(g.r, g.testTargets)
	cmd := g.testCmd(target)
	var ms int
	v := g.uniq(func(g *gen) string {
		ms = 800 + g.r.intn(90000)
		sd := ms * (1 + g.r.intn(8)) / 100
		return fmt.Sprintf("Time (mean ± σ):     %3d.%03d s ±  %d.%03d s    [User: %d.%03d s, System: %d.%03d s]", ms/1000, ms%1000, sd/1000, sd%1000, ms*2/1000, ms*2%1000, ms/9/1000, ms/9%1000)
	})
	lo, hi := ms*95/100, ms*108/100
	out := fmt.Sprintf("Benchmark 1: %s\n  %s\n  Range (min … max):   %3d.%03d s … %3d.%03d s    10 runs\n \n", cmd, v, lo/1000, lo%1000, hi/1000, hi%1000)
	if g.r.chance(0.5) {
		out += "  Warning: Ignoring non-zero exit code.\n \n"
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("hyperfine --warmup 1 --runs 10 %s", shq(cmd)), out: out}, v
}

// microAct measures one hot function with the runtime's own tool: timeit,
// V8's tick profile, iai-callgrind, the JVM's heap summary, Go's init
// trace or pg_test_fsync. Its headline line is the probe.
func (g *gen) microAct() (*act, string) {
	var b strings.Builder
	switch g.l.name {
	case "python":
		fn := g.fnName()
		mod := strings.ReplaceAll(strings.TrimPrefix(pick(g.r, g.p.dirs), "src/"), "/", ".")
		v := g.uniq(func(g *gen) string {
			return fmt.Sprintf("%d loops, best of 5: %d %s per loop", pick(g.r, []int{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000}), 2+g.r.intn(900), pick(g.r, []string{"usec", "msec"}))
		})
		return &act{kind: actRun, cmd: fmt.Sprintf("python -m timeit -s 'from %s import %s; from tests.fixtures import load_batch; batch = load_batch(%d)' '%s(batch)'", mod, fn, 100*(1+g.r.intn(50)), fn), out: v + "\n"}, v
	case "ts":
		total := 4000 + g.r.intn(20000)
		var rows []string
		var v string
		left := total * (40 + g.r.intn(30)) / 100
		for i := 0; i < 6+g.r.intn(6); i++ {
			t := left * (20 + g.r.intn(30)) / 100
			left -= t
			row := fmt.Sprintf("%7d   %4.1f%%   %4.1f%%  JS: *%s file:///app/dist/%s.js:%d:%d", t, float64(t)*100/float64(total), float64(t)*110/float64(total), g.fnName(), pick(g.r, g.p.nouns), 10+g.r.intn(400), 3+g.r.intn(40))
			if i == 0 {
				row = g.uniq(func(g *gen) string {
					return fmt.Sprintf("%7d   %4.1f%%   %4.1f%%  JS: *%s file:///app/dist/%s.js:%d:%d", t, float64(t)*100/float64(total), float64(t)*110/float64(total), g.fnName(), pick(g.r, g.p.nouns), 10+g.r.intn(400), 3+g.r.intn(40))
				})
				v = strings.TrimSpace(row)
			}
			rows = append(rows, row)
		}
		log := fmt.Sprintf("isolate-0x%x-%d-v8.log", 0x5000000+g.r.intn(0xffffff), 1000+g.r.intn(90000))
		fmt.Fprintf(&b, "Statistical profiling result from %s, (%d ticks, %d unaccounted, 0 excluded).\n\n [Shared libraries]:\n   ticks  total  nonlib   name\n%7d   %4.1f%%          /usr/local/bin/node\n%7d    %3.1f%%          /usr/lib/x86_64-linux-gnu/libc.so.6\n\n [JavaScript]:\n   ticks  total  nonlib   name\n%s\n",
			log, total, g.r.intn(400), total/6, 100.0/6, total/40, 100.0/40, strings.Join(rows, "\n"))
		return &act{kind: actRun, cmd: "node --prof-process --preprocess=false " + log + " 2>/dev/null | head -n 40", out: b.String()}, v
	case "rust":
		crate := crateOf(pick(g.r, g.p.dirs))
		bench := fmt.Sprintf("%s::bench_%s", snake(g.nounWords()...), snake(g.words(2)...))
		var ins int
		v := g.uniq(func(g *gen) string {
			ins = 200000 + g.r.intn(9000000)
			old := ins * (90 + g.r.intn(9)) / 100
			d := float64(ins-old) * 100 / float64(old)
			return fmt.Sprintf("Instructions:     %7d|%-7d     (+%.5f%%) [+%.5fx]", ins, old, d, 1+d/100)
		})
		fmt.Fprintf(&b, "%s_iai::%s large:setup_large()\n  %s\n  L1 Hits:          %7d|%-7d     (+%.5f%%) [+%.5fx]\n  L2 Hits:          %7d|%-7d     (No change)\n  RAM Hits:         %7d|%-7d     (-%.5f%%) [-%.5fx]\n  Total read+write: %7d|%-7d     (+%.5f%%) [+%.5fx]\n  Estimated Cycles: %7d|%-7d     (+%.5f%%) [+%.5fx]\n",
			crate, bench, v, ins*13/10, ins*13/10-g.r.intn(9000), 1.2, 1.012, 900+g.r.intn(900), 900+g.r.intn(900), 100+g.r.intn(900), 100+g.r.intn(900), 0.8, 1.008, ins*14/10, ins*14/10-g.r.intn(9000), 1.1, 1.011, ins*16/10, ins*16/10-g.r.intn(9000), 1.3, 1.013)
		return &act{kind: actRun, cmd: fmt.Sprintf("cargo bench -p %s --bench %s_iai", crate, crate), out: b.String()}, v
	case "java":
		pid := 1000 + g.r.intn(90000)
		total := 1048576 * (1 + g.r.intn(4))
		v := g.uniq(func(g *gen) string {
			return fmt.Sprintf("garbage-first heap   total %dK, used %dK", total, total*(60+g.r.intn(38))/100)
		})
		fmt.Fprintf(&b, "%d:\n %s [0x0000000080000000, 0x0000000100000000)\n  region size 1024K, %d young (%dK), %d survivors (%dK)\n Metaspace       used %dK, committed %dK, reserved 1146880K\n  class space    used %dK, committed %dK, reserved 1048576K\n",
			pid, v, 100+g.r.intn(900), 102400+g.r.intn(900000), 2+g.r.intn(30), 2048+g.r.intn(30000), 90000+g.r.intn(20000), 110000+g.r.intn(9000), 10000+g.r.intn(5000), 15000+g.r.intn(2000))
		return &act{kind: actRun, cmd: fmt.Sprintf("jcmd $(pgrep -f %s) GC.heap_info", g.p.module), out: b.String()}, v
	case "go":
		pkgs := []string{"internal/bytealg", "runtime", "errors", "math", "sync", "io", "os", "unicode", "reflect", "fmt", "net", "crypto/tls", "net/http", "google.golang.org/protobuf/internal/impl", "google.golang.org/grpc"}
		at := 0.01
		for _, p := range pkgs {
			at += float64(g.r.intn(300)) / 1000
			fmt.Fprintf(&b, "init %s @%.3f ms, %.3f ms clock, %d bytes, %d allocs\n", p, at, float64(g.r.intn(900))/1000, g.r.intn(30000), g.r.intn(300))
		}
		v := g.uniq(func(g *gen) string {
			return fmt.Sprintf("init %s/%s @%.1f ms, %d ms clock, %d bytes, %d allocs", g.p.module, pick(g.r, g.p.dirs), at+1+float64(g.r.intn(30))/10, 40+g.r.intn(900), 1000000+g.r.intn(90000000), 10000+g.r.intn(900000))
		})
		b.WriteString(v + "\n")
		fmt.Fprintf(&b, "init %s/%s @%.1f ms, 0.%03d ms clock, %d bytes, %d allocs\n", g.p.module, pick(g.r, g.p.dirs), at+300, g.r.intn(1000), g.r.intn(9000), g.r.intn(90))
		return &act{kind: actRun, cmd: fmt.Sprintf("GODEBUG=inittrace=1 ./bin/%s --version 2>&1 | tail -n 20", pick(g.r, g.p.hosts)), out: b.String()}, v
	}
	var ops int // thousandths
	v := g.uniq(func(g *gen) string {
		ops = 150000 + g.r.intn(3000000)
		return fmt.Sprintf("fdatasync                      %8d.%03d ops/sec  %6d usecs/op", ops/1000, ops%1000, 1000000000/ops)
	})
	row := func(name string, x int) string {
		return fmt.Sprintf("        %-30s %8d.%03d ops/sec  %6d usecs/op", name, x/1000, x%1000, 1000000000/x)
	}
	out := fmt.Sprintf("5 seconds per test\nO_DIRECT supported on this platform for open_datasync and open_sync.\n\nCompare file sync methods using one 8kB write:\n(in wal_sync_method preference order, except fdatasync is Linux's default)\n%s\n        %s\n%s\n        fsync_writethrough                              n/a\n%s\n\nCompare file sync methods using two 8kB writes:\n%s\n",
		row("open_datasync", ops*(95+g.r.intn(20))/100), v, row("fsync", ops*(40+g.r.intn(20))/100), row("open_sync", ops*(40+g.r.intn(20))/100), row("open_datasync", ops/2))
	return &act{kind: actRun, cmd: "sudo -u postgres /usr/lib/postgresql/13/bin/pg_test_fsync -f /var/lib/postgresql/13/main/pg_fsync_test.out", out: out}, v
}

// promtoolAct asks Prometheus for the 99th percentile latency per route;
// the slow route's sample is the probe.
func (g *gen) promtoolAct() (*act, string) {
	job := pick(g.r, g.p.hosts)
	routes := []string{}
	for _, n := range pickN(g.r, g.p.nouns, 3+g.r.intn(4)) {
		routes = append(routes, "/v1/"+strings.ReplaceAll(n, "_", "-")+"s")
	}
	ts := 1775001600 + g.day*86400 + 30000 + g.r.intn(20000)
	slow := g.r.intn(len(routes))
	var lines []string
	var v string
	for i, r := range routes {
		if i == slow {
			v = g.uniq(func(g *gen) string {
				return fmt.Sprintf("{route=\"%s\"} => %d.%04d @[%d.%03d]", r, 1+g.r.intn(9), g.r.intn(10000), ts, g.r.intn(1000))
			})
			lines = append(lines, v)
			continue
		}
		lines = append(lines, fmt.Sprintf("{route=\"%s\"} => 0.%04d @[%d.%03d]", r, 100+g.r.intn(4000), ts, g.r.intn(1000)))
	}
	cmd := fmt.Sprintf("promtool query instant http://prometheus.monitoring:9090 'histogram_quantile(0.99, sum by (le, route) (rate(http_request_duration_seconds_bucket{job=\"%s\"}[5m])))'", job)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, v
}

// pgStatStatementsAct lists the costliest statements in psql's expanded
// display; the first record's mean time is the probe.
func (g *gen) pgStatStatementsAct() (*act, string) {
	var b strings.Builder
	var v string
	mean := 20000 + g.r.intn(2000000) // hundredths of a ms
	for rec := 1; rec <= 3; rec++ {
		calls := 1000 + g.r.intn(4000000)
		m := mean
		if rec == 1 {
			v = g.uniq(func(g *gen) string {
				mean = 20000 + g.r.intn(2000000)
				return fmt.Sprintf("mean_exec_time_ms  | %d.%02d", mean/100, mean%100)
			})
			m = mean
		} else {
			m = 1 + g.r.intn(mean/3)
		}
		t := pick(g.r, g.p.tables)
		q := pick(g.r, []string{"UPDATE " + t + " SET status = $1, updated_at = now() WHERE id = $2", "SELECT * FROM " + t + " WHERE tenant_id = $1 ORDER BY created_at DESC LIMIT $2",
			"INSERT INTO " + t + " (tenant_id, payload) VALUES ($1, $2) ON CONFLICT DO NOTHING", "DELETE FROM " + t + " WHERE created_at < $1"})
		fmt.Fprintf(&b, "-[ RECORD %d ]------+%s\nqueryid            | %d\ncalls              | %d\ntotal_exec_time_ms | %d.%d\n", rec, strings.Repeat("-", 80), -9000000000000000000+g.r.intn(1<<62), calls, calls/100*m/100, g.r.intn(10))
		if rec == 1 {
			b.WriteString(v + "\n")
		} else {
			fmt.Fprintf(&b, "mean_exec_time_ms  | %d.%02d\n", m/100, m%100)
		}
		fmt.Fprintf(&b, "rows               | %d\nquery              | %s\n", calls*(1+g.r.intn(3)), q)
	}
	cmd := "psql \"$DATABASE_URL\" -x -c \"SELECT queryid, calls, round(total_exec_time::numeric, 1) AS total_exec_time_ms, round(mean_exec_time::numeric, 2) AS mean_exec_time_ms, rows, left(query, 80) AS query FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 3\""
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// pingAct pings a host twenty times; the round-trip summary is the probe.
func (g *gen) pingAct() (*act, string) {
	host := pick(g.r, g.p.hosts) + ".internal"
	ip := fmt.Sprintf("10.0.%d.%d", g.r.intn(250), 2+g.r.intn(250))
	var b strings.Builder
	fmt.Fprintf(&b, "PING %s (%s) 56(84) bytes of data.\n", host, ip)
	var sum, mx int
	mn := 1 << 30
	for i := 1; i <= 20; i++ {
		us := 200 + g.r.intn(900)
		if g.r.chance(0.2) {
			us = 20000 + g.r.intn(250000)
		}
		sum += us
		mn, mx = min(mn, us), max(mx, us)
		fmt.Fprintf(&b, "64 bytes from %s (%s): icmp_seq=%d ttl=63 time=%d.%03d ms\n", host, ip, i, us/1000, us%1000)
	}
	avg := sum / 20
	v := g.uniq(func(g *gen) string {
		md := avg * (80 + g.r.intn(60)) / 100
		return fmt.Sprintf("rtt min/avg/max/mdev = %d.%03d/%d.%03d/%d.%03d/%d.%03d ms", mn/1000, mn%1000, avg/1000, avg%1000, mx/1000, mx%1000, md/1000, md%1000)
	})
	fmt.Fprintf(&b, "\n--- %s ping statistics ---\n20 packets transmitted, 20 received, 0%% packet loss, time %dms\n%s\n", host, 19000+g.r.intn(100), v)
	return &act{kind: actRun, cmd: "ping -c 20 " + host, out: b.String()}, v
}

// mysqlslapAct runs a query under concurrent clients with mysqlslap; the
// average line is the probe.
func (g *gen) mysqlslapAct() (*act, string) {
	var ms int
	v := g.uniq(func(g *gen) string {
		ms = 50 + g.r.intn(20000)
		return fmt.Sprintf("Average number of seconds to run all queries: %d.%03d seconds", ms/1000, ms%1000)
	})
	t := pick(g.r, g.p.tables)
	out := fmt.Sprintf("Benchmark\n\tRunning for engine innodb\n\t%s\n\tMinimum number of seconds to run all queries: %d.%03d seconds\n\tMaximum number of seconds to run all queries: %d.%03d seconds\n\tNumber of clients running queries: 50\n\tAverage number of queries per client: 20\n\n",
		v, ms*9/10/1000, ms*9/10%1000, ms*13/10/1000, ms*13/10%1000)
	cmd := fmt.Sprintf("mysqlslap -h %s --concurrency=50 --iterations=5 --number-of-queries=1000 --create-schema=app --query=\"SELECT status, count(*) FROM %s WHERE created_at > now() - INTERVAL 7 DAY GROUP BY status\"", pick(g.r, g.p.hosts), t)
	return &act{kind: actRun, cmd: cmd, out: out}, v
}

// artifactSizeAct sizes what the build produced: size-limit for a
// TypeScript bundle, Bloaty for a Go or Rust binary, `docker image ls`
// for the rest. The over-budget figure is the probe.
func (g *gen) artifactSizeAct() (*act, string) {
	switch g.l.name {
	case "ts":
		var limit int
		v := g.uniq(func(g *gen) string {
			limit = 10 * (2 + g.r.intn(20))
			size := limit*100 + 100 + g.r.intn(limit*60)
			return fmt.Sprintf("Size:       %d.%02d kB with all dependencies, minified and brotlied", size/100, size%100)
		})
		out := fmt.Sprintf("\n  dist/index.js\n  Size limit: %d kB\n  %s\n\n  dist/worker.js\n  Size limit: 20 kB\n  Size:       %d.%02d kB with all dependencies, minified and brotlied\n\n  Try to reduce size or increase limit in \"size-limit\" section of package.json\n", limit, v, 8+g.r.intn(10), g.r.intn(100))
		return &act{kind: actRun, cmd: "npx size-limit", out: out, exit: 1}, v
	case "go", "rust":
		bin := "bin/" + pick(g.r, g.p.hosts)
		if g.l.name == "rust" {
			bin = "target/release/" + crateOf(pick(g.r, g.p.dirs))
		}
		var file int // tenths of a MiB
		v := g.uniq(func(g *gen) string {
			file = 80 + g.r.intn(900)
			return fmt.Sprintf("100.0%%  %d.%dMi 100.0%%  %d.%dMi    TOTAL", file/10, file%10, file*85/100/10, file*85/100%10)
		})
		var b strings.Builder
		b.WriteString("    FILE SIZE        VM SIZE    \n --------------  -------------- \n")
		for _, s := range []string{".text", ".rodata", ".gopclntab", ".data.rel.ro", ".symtab", ".strtab", "[Unmapped]"} {
			f := file * (2 + g.r.intn(30)) / 100
			fmt.Fprintf(&b, "  %4.1f%%  %d.%dMi  %4.1f%%  %d.%dMi    %s\n", float64(f)*100/float64(file), f/10, f%10, float64(f)*100/float64(file), f/10, f%10, s)
		}
		b.WriteString(" " + v + "\n")
		return &act{kind: actRun, cmd: "bloaty " + bin + " -n 7", out: b.String()}, v
	}
	host := pick(g.r, g.p.hosts)
	repo := fmt.Sprintf("registry.internal/%s/%s", g.p.name, host)
	v := g.uniq(func(g *gen) string {
		return fmt.Sprintf("%-44s %-9s %s   %-15s %d.%02dGB", repo, fmt.Sprintf("pr-%d", 100+g.r.intn(900)), g.r.hex(12), fmt.Sprintf("%d minutes ago", 2+g.r.intn(50)), 1+g.r.intn(4), g.r.intn(100))
	})
	rows := []string{fmt.Sprintf("%-44s %-9s %-14s %-15s %s", "REPOSITORY", "TAG", "IMAGE ID", "CREATED", "SIZE"), v}
	for i := 0; i < 3+g.r.intn(4); i++ {
		rows = append(rows, fmt.Sprintf("%-44s %-9s %s   %-15s %dMB", repo, fmt.Sprintf("1.%d.%d", g.r.intn(9), g.r.intn(20)), g.r.hex(12), fmt.Sprintf("%d days ago", 1+g.r.intn(30)), 300+g.r.intn(600)))
	}
	return &act{kind: actRun, cmd: "docker image ls " + repo, out: strings.Join(rows, "\n") + "\n"}, v
}
