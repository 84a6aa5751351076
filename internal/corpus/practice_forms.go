package corpus

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// practiceForms plant the practice half's probes, in surfaces none of the
// other halves' forms use: inotifywait's events, `sha256sum -c`, REUSE's
// lint report, typos findings, `git log -L`; Azure Pipelines' script
// log, Earthly, Tekton's pipeline-run logs, a Procfile, lefthook; TeamCity
// build logs, Docker Swarm service logs, Heroku's log stream, Rollbar
// items through jq, Sqitch, the MySQL client over an SSH jump host, CDK
// for Terraform; Twilio message SIDs, Gerrit Change-Ids, Swarm task ids,
// X-Ray trace ids, Shopify GIDs, git-describe versions of a fleet, Cloud
// Run revisions; Bazel, Turborepo, Lambda REPORT lines, h2load,
// Artillery, CockroachDB's workload, Redpanda's rpk, Pulsar topic stats,
// dive, PgBouncer's SHOW STATS, memcached stats, Linkerd's viz stat,
// nvme smart-log, memtier_benchmark and pidstat; decisions before a
// benchmark, in a recap, after counting call sites, before an edit, in
// Gerrit review messages, Notion pages, RFCs, Zulip, the stash list,
// meeting notes and the user's reply; constraints as non-negotiables,
// guardrails, retro action items, compliance asks, afterthoughts and
// repetitions. Each returns its probe as the session holds it.
var practiceForms = []*form{
	// paths
	{"user-path-teammate", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	{"prose-path-mistake", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	{"inotify-event-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "which files get rewritten behind our back"}), g.inotifyAct(p))
		return p
	}},
	{"checksum-mismatch-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the release checksums"}), g.checksumAct(p))
		return p
	}},
	{"reuse-lint-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the license headers"}), g.reuseLintAct(p))
		return p
	}},
	{"typos-finding-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the spelling checker"}), g.typosAct(p))
		return p
	}},
	{"log-line-range-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "how that block evolved"}), g.lineHistoryAct(p))
		return p
	}},
	// commands
	{"user-command-invocation", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command-reproducer", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	{"azure-script-contents-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the Azure Pipelines run"}), g.azureLogAct(c))
		return c
	}},
	{"earthly-run-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the Earthly target"}), g.earthlyAct(c))
		return c
	}},
	{"tekton-step-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the Tekton pipeline run"}), g.tektonAct(c))
		return c
	}},
	{"procfile-entry-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("edit", map[string]string{"path": "Procfile.repro"}), g.procfileAct(c))
		return c
	}},
	{"lefthook-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("edit", map[string]string{"path": "lefthook.yml"}), g.lefthookAct(c))
		return c
	}},
	// errors
	{"user-error-monitor", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	{"teamcity-build-log-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the TeamCity build log"}), g.teamcityAct(e))
		return e
	}},
	{"swarm-service-logs-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.swarmLogsAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the Swarm service's logs"}), a)
		return probe
	}},
	{"heroku-log-stream-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.herokuLogsAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the Heroku log stream"}), a)
		return probe
	}},
	{"rollbar-item-title-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the active Rollbar items"}), g.rollbarAct(e))
		return jsonInner(e)
	}},
	{"sqitch-deploy-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("psql")
		g.step(g.announce("other", map[string]string{"what": "the Sqitch deploy"}), g.sqitchAct(e))
		return e
	}},
	{"ssh-jump-mysql-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("mysql")
		g.step(g.announce("other", map[string]string{"what": "the fix-up script on the database host"}), g.sshMySQLAct(e))
		return e
	}},
	{"cdktf-deploy-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("tf")
		g.step(g.announce("other", map[string]string{"what": "the CDKTF stack"}), g.cdktfAct(e))
		return e
	}},
	// identifiers
	{"user-id-twilio-sid", "identifier", siteUser, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return "SM" + g.r.hex(32) })
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"prose-id-gerrit-change", "identifier", siteAssistant, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return "I" + g.r.hex(40) })
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	{"swarm-task-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.swarmPsAct()
		g.step(g.announce("other", map[string]string{"what": "the service's task history"}), a)
		return id
	}},
	{"xray-trace-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.xrayAct()
		g.step(g.announce("other", map[string]string{"what": "the slow traces in X-Ray"}), a)
		return id
	}},
	{"shopify-order-gid", "identifier", siteOutput, func(g *gen) string {
		a, id := g.shopifyAct()
		g.step(g.announce("other", map[string]string{"what": "the pending orders in the shop"}), a)
		return id
	}},
	{"fleet-version-describe", "identifier", siteOutput, func(g *gen) string {
		a, id := g.fleetVersionAct()
		g.step(g.announce("other", map[string]string{"what": "which build each replica runs"}), a)
		return id
	}},
	{"cloud-run-revision", "identifier", siteOutput, func(g *gen) string {
		a, id := g.runRevisionsAct()
		g.step(g.announce("other", map[string]string{"what": "the Cloud Run revisions"}), a)
		return id
	}},
	// measurements
	{"bazel-elapsed-time", "measurement", siteOutput, func(g *gen) string {
		a, v := g.bazelAct()
		g.step(g.announce("other", map[string]string{"what": "the Bazel test run"}), a)
		return v
	}},
	{"turbo-run-time", "measurement", siteOutput, func(g *gen) string {
		a, v := g.turboAct()
		g.step(g.announce("other", map[string]string{"what": "the monorepo pipeline"}), a)
		return v
	}},
	{"lambda-init-duration", "measurement", siteOutput, func(g *gen) string {
		a, v := g.lambdaReportAct()
		g.step(g.announce("other", map[string]string{"what": "the function's cold starts"}), a)
		return v
	}},
	{"h2load-finished", "measurement", siteOutput, func(g *gen) string {
		a, v := g.h2loadAct()
		g.step(g.announce("other", map[string]string{"what": "the endpoint over HTTP/2"}), a)
		return v
	}},
	{"artillery-p99", "measurement", siteOutput, func(g *gen) string {
		a, v := g.artilleryAct()
		g.step(g.announce("other", map[string]string{"what": "the Artillery scenario"}), a)
		return v
	}},
	{"crdb-workload-result", "measurement", siteOutput, func(g *gen) string {
		a, v := g.crdbWorkloadAct()
		g.step(g.announce("other", map[string]string{"what": "the CockroachDB workload"}), a)
		return v
	}},
	{"rpk-total-lag", "measurement", siteOutput, func(g *gen) string {
		a, v := g.rpkLagAct()
		g.step(g.announce("other", map[string]string{"what": "the consumer group's lag"}), a)
		return v
	}},
	{"pulsar-msg-backlog", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pulsarStatsAct()
		g.step(g.announce("other", map[string]string{"what": "the Pulsar topic's backlog"}), a)
		return v
	}},
	{"dive-wasted-bytes", "measurement", siteOutput, func(g *gen) string {
		a, v := g.diveAct()
		g.step(g.announce("other", map[string]string{"what": "how much of the image is wasted"}), a)
		return v
	}},
	{"pgbouncer-avg-wait", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pgbouncerStatsAct()
		g.step(g.announce("other", map[string]string{"what": "the pooler's statistics"}), a)
		return v
	}},
	{"memcached-evictions", "measurement", siteOutput, func(g *gen) string {
		a, v := g.memcachedStatsAct()
		g.step(g.announce("other", map[string]string{"what": "the cache's counters"}), a)
		return v
	}},
	{"linkerd-stat-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.linkerdStatAct()
		g.step(g.announce("other", map[string]string{"what": "the mesh's golden metrics"}), a)
		return v
	}},
	{"nvme-percentage-used", "measurement", siteOutput, func(g *gen) string {
		a, v := g.nvmeSmartAct()
		g.step(g.announce("other", map[string]string{"what": "the data disk's wear"}), a)
		return v
	}},
	{"memtier-totals-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.memtierAct()
		g.step(g.announce("other", map[string]string{"what": "the cache under synthetic load"}), a)
		return v
	}},
	{"pidstat-sample-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pidstatAct()
		g.step(g.announce("other", map[string]string{"what": "the process's CPU and memory"}), a)
		return v
	}},
	// decisions
	{"decision-then-benchmark", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		tail := pick(g.r, []string{"Re-running the benchmark with that in place.", "Measuring again with the change applied.", "Numbers next, to make sure it holds."})
		g.step(d+"\n\n"+tail, &act{kind: actRun, cmd: g.benchCmd(), out: g.l.bench(g, g.l.benchValue(g))})
		return d
	}},
	{"decision-recap-block", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		head := pick(g.r, []string{"Where this leaves us:", "Recap before moving on:", "State of play:"})
		g.step(head+"\n\n"+d+"\n\n"+pick(g.r, []string{"Now the tests.", "Tests next.", "On to verification."}), g.testAct(0, "", nil))
		return d
	}},
	{"decision-after-call-sites", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		lead := pick(g.r, []string{"Only a handful of call sites, so the switch is cheap.", "Every caller goes through one function, which keeps this contained.", "The callers agree on the contract, so nothing else moves."})
		g.step(lead+" "+d, g.readAct(g.routinePath(), false))
		return d
	}},
	{"decision-before-edit-note", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		lead := pick(g.r, []string{"Before the edit, for the log:", "Writing this down before touching code:", "Recording the choice first:"})
		g.step(lead+" "+d, g.editAct(""))
		return d
	}},
	{"decision-user-approval", "decision", siteUser, func(g *gen) string {
		d := g.practiceUserDecision()
		g.say(d)
		return d
	}},
	{"decision-gerrit-review", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "a note on the Gerrit change"}), g.gerritReviewAct(d))
		return d
	}},
	{"decision-notion-page", "decision", siteInput, func(g *gen) string {
		d := g.decisionLine()
		g.step(g.announce("other", map[string]string{"what": "the team's Notion decision log"}), g.notionPageAct(d))
		return jsonInner(d)
	}},
	{"decision-rfc-doc", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		path, content := g.rfcDoc(d)
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return d
	}},
	{"decision-zulip-message", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "a message to the Zulip stream"}), g.zulipAct(d))
		return d
	}},
	{"decision-stash-message", "decision", siteOutput, func(g *gen) string {
		d := g.decisionLine()
		g.step(g.announce("other", map[string]string{"what": "what is stashed"}), g.stashListAct(d))
		return d
	}},
	{"decision-meeting-notes", "decision", siteOutput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the notes from the last sync"}), g.meetingNotesAct(d))
		return d
	}},
	// constraints
	{"constraint-task-non-negotiables", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("\n\nNon-negotiables:\n▪ " + c)
		} else {
			g.say("\n▪ " + c)
		}
		return c
	}},
	{"constraint-task-guardrail", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("Guardrail: " + c)
		} else {
			g.say("Another guardrail: " + c)
		}
		return c
	}},
	{"constraint-user-retro", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("An action item from our last retro applies here: " + c)
		return c
	}},
	{"constraint-user-compliance", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Compliance asked me to spell this out: " + c)
		return c
	}},
	{"constraint-user-oh-and", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Oh, and one more thing: " + c)
		return c
	}},
	{"constraint-user-repeat", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Saying this twice because it matters:\n\n**" + c + "**\n")
		return c
	}},
}

// practiceUserDecision is a decision as the user words it: the session's
// next alternative, in a phrasing of practiceUserDecisions.
func (g *gen) practiceUserDecision() string {
	a := g.altOrder[0]
	g.altOrder = append(g.altOrder[1:], a)
	return sentence(fill(pick(g.r, practiceUserDecisions), map[string]string{"x": a.x, "y": a.y, "why": a.why, "c": pick(g.r, g.p.comps)}))
}

// practicePeople are the teammates practice surfaces name.
var practicePeople = [][2]string{{"Priya Raman", "priya"}, {"Tomás Ortega", "tortega"}, {"Yuki Sato", "ysato"}, {"Lena Vogel", "lvogel"}, {"Kwame Mensah", "kmensah"}}

// withPath returns a few of the session's files with path among them, at
// a random position.
func (g *gen) withPath(path string, lo, n int) []string {
	others := pickN(g.r, g.files, lo+g.r.intn(n))
	return slices.Insert(slices.Clone(others), g.r.intn(len(others)+1), path)
}

// inotifyAct watches the source directories for a while; one of the files
// written behind the agent's back is path.
func (g *gen) inotifyAct(path string) *act {
	var b strings.Builder
	b.WriteString("Setting up watches.  Beware: since -r was given, this may take a while!\nWatches established.\n")
	for _, f := range g.withPath(path, 1, 4) {
		h, m, s, _ := g.clock()
		fmt.Fprintf(&b, "%02d:%02d:%02d %s %s\n", h, m, s, f, pick(g.r, []string{"CLOSE_WRITE,CLOSE", "CLOSE_WRITE,CLOSE", "MOVED_TO"}))
	}
	cmd := fmt.Sprintf("timeout %d inotifywait -m -r -e close_write,moved_to --format '%%T %%w%%f %%e' --timefmt '%%H:%%M:%%S' %s", 20+g.r.intn(40), strings.Join(g.p.dirs, " "))
	return &act{kind: actRun, cmd: cmd, out: b.String(), exit: 124}
}

// checksumAct checks the release's source checksums; path no longer
// matches its recorded sum.
func (g *gen) checksumAct(path string) *act {
	var b strings.Builder
	for _, f := range g.withPath(path, 3, 5) {
		if f == path {
			fmt.Fprintf(&b, "%s: FAILED\n", f)
			continue
		}
		fmt.Fprintf(&b, "%s: OK\n", f)
	}
	b.WriteString("sha256sum: WARNING: 1 computed checksum did NOT match\n")
	return &act{kind: actRun, cmd: "sha256sum -c .release/sources.sha256", out: b.String(), exit: 1}
}

// reuseLintAct runs REUSE's linter; path lacks a licence header.
func (g *gen) reuseLintAct(path string) *act {
	files := g.withPath(path, 0, 3)
	total := 40 + g.r.intn(300)
	var b strings.Builder
	b.WriteString("# MISSING COPYRIGHT AND LICENSING INFORMATION\n\nThe following files have no copyright and licensing information:\n")
	for _, f := range files {
		fmt.Fprintf(&b, "* %s\n", f)
	}
	fmt.Fprintf(&b, "\n\n# SUMMARY\n\n* Bad licenses: 0\n* Deprecated licenses: 0\n* Licenses without file extension: 0\n* Missing licenses: 0\n* Unused licenses: 0\n* Used licenses: %s\n* Read errors: 0\n* Files with copyright information: %d / %d\n* Files with license information: %d / %d\n\nUnfortunately, your project is not compliant with version 3.2 of the REUSE Specification :-(\n",
		pick(g.r, []string{"Apache-2.0", "MIT", "MPL-2.0"}), total-len(files), total, total-len(files), total)
	return &act{kind: actRun, cmd: "reuse lint", out: b.String(), exit: 1}
}

// typosAct runs the typos spell checker; one finding is in path.
func (g *gen) typosAct(path string) *act {
	words := [][2]string{{"recieve", "receive"}, {"seperate", "separate"}, {"occured", "occurred"}, {"retreive", "retrieve"}, {"accross", "across"}, {"lenght", "length"}}
	var b strings.Builder
	for _, f := range g.withPath(path, 0, 3) {
		w := pick(g.r, words)
		line := 5 + g.r.intn(300)
		pre := commentPrefix(f)
		text := pre + w[0] + " the " + strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " ") + " and " + pick(g.r, g.p.verbs) + " it"
		num := fmt.Sprint(line)
		pad := strings.Repeat(" ", len(num))
		fmt.Fprintf(&b, "error: `%s` should be `%s`\n  --> %s:%d:%d\n%s |\n%s | %s\n%s | %s%s\n%s |\n",
			w[0], w[1], f, line, len(pre)+1, pad, num, text, pad, strings.Repeat(" ", len(pre)), strings.Repeat("^", len(w[0])), pad)
	}
	return &act{kind: actRun, cmd: "typos --format long " + strings.Join(g.p.dirs, " "), out: b.String(), exit: 2}
}

// lineHistoryAct follows a range of path's lines back through history.
func (g *gen) lineHistoryAct(path string) *act {
	lines := g.sourceLines(path, 30+g.r.intn(30))
	from := 1 + g.r.intn(max(len(lines)-10, 1))
	to := min(from+4+g.r.intn(6), len(lines))
	var b strings.Builder
	for k := 0; k < 2+g.r.intn(2); k++ {
		fmt.Fprintf(&b, "%s %s %s\n\ndiff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n", g.r.hex(7), title(pick(g.r, g.p.verbs)), pick(g.r, g.p.comps), path, path, path, path, from, to-from, from, to-from+1)
		added := from + g.r.intn(to-from+1)
		for i := from; i <= to; i++ {
			mark := " "
			if i == added {
				mark = "+"
			}
			b.WriteString(mark + lines[i-1] + "\n")
		}
		b.WriteString("\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("git log -L %d,%d:%s --format='%%h %%s' -n 3", from, to, path), out: b.String()}
}

// azureLogAct reads the log of a failed Azure Pipelines command-line
// step whose script is cmd.
func (g *gen) azureLogAct(cmd string) *act {
	h, m, s, _ := g.clock()
	at := time.Date(2026, 4, g.day, h, m, s, 0, time.UTC)
	stamp := func() string {
		at = at.Add(time.Duration(g.r.intn(3))*time.Second + time.Duration(g.r.intn(10000000))*100)
		return at.Format("2006-01-02T15:04:05.0000000") + "Z"
	}
	lines := []string{
		"##[section]Starting: Repro",
		"==============================================================================",
		"Task         : Command line",
		"Description  : Run a command line script using Bash on Linux and macOS and cmd.exe on Windows",
		"Version      : 2.212.0",
		"Author       : Microsoft Corporation",
		"Help         : https://docs.microsoft.com/azure/devops/pipelines/tasks/utility/command-line",
		"==============================================================================",
		"Generating script.",
		"Script contents:",
		cmd,
		"========================== Starting Command Output ===========================",
		"[command]/usr/bin/bash --noprofile --norc /home/vsts/work/_temp/" + g.r.uuid() + ".sh",
	}
	for k := 0; k < int(float64(3+g.r.intn(12))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "debug", "warn"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, g.logLine("error", g.routineError()), "##[error]Bash exited with code '1'.", "##[section]Finishing: Repro")
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(stamp() + " " + l + "\n")
	}
	c := fmt.Sprintf("curl -sS -u \":$AZURE_DEVOPS_EXT_PAT\" 'https://dev.azure.com/northwind/%s/_apis/build/builds/%d/logs/%d?api-version=7.1'", g.p.name, 1000+g.r.intn(9000), 6+g.r.intn(8))
	return &act{kind: actRun, cmd: c, out: b.String()}
}

// earthlyAct runs an Earthly target whose RUN is cmd; it fails.
func (g *gen) earthlyAct(cmd string) *act {
	image := map[string]string{"go": "golang:1.21-bookworm", "python": "python:3.10-slim", "ts": "node:16-bullseye", "rust": "rust:1.70-slim", "java": "eclipse-temurin:11-jdk"}[g.l.name]
	if image == "" {
		image = "postgres:13-bookworm"
	}
	rule := strings.Repeat("—", 80)
	row := func(target, text string) string { return fmt.Sprintf("%20s | %s", target, text) }
	lines := []string{" 1. Init 🚀", rule, "", row("buildkitd", "Found buildkit daemon as docker container (earthly-buildkitd)"), "", " 2. Build 🔧", rule, "",
		row(image, "--> Load metadata "+image+" linux/amd64"), row("+base", "--> FROM "+image), row("+base", "--> WORKDIR /src"), row("+base", "--> COPY . ."),
		row("+repro", "--> RUN "+cmd)}
	for k := 0; k < int(float64(2+g.r.intn(10))*g.scale); k++ {
		lines = append(lines, row("+repro", g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs))))
	}
	line := 8 + g.r.intn(30)
	lines = append(lines, row("+repro", g.logLine("error", g.routineError())), row("+repro", fmt.Sprintf("ERROR Earthfile line %d:4", line)),
		row("+repro", "      The command"), row("+repro", "          RUN "+cmd), row("+repro", "      did not complete successfully. Exit code 1"))
	return &act{kind: actRun, cmd: "earthly +repro", out: strings.Join(lines, "\n") + "\n", exit: 1}
}

// tektonAct reads the logs of a Tekton pipeline run whose repro step ran
// cmd under `set -x`.
func (g *gen) tektonAct(cmd string) *act {
	run := "repro-run-" + g.r.alnum(5)
	lines := []string{
		fmt.Sprintf("[fetch-source : clone] {\"level\":\"info\",\"ts\":%d.%d,\"caller\":\"git/git.go:176\",\"msg\":\"Successfully cloned https://git.northwind.dev/%s.git @ %s (grafted, HEAD) in path /workspace/output/\"}", 1775117000+g.r.intn(90000), g.r.intn(1000000), g.p.name, g.r.hex(40)),
		"[repro : run] + cd /workspace/source",
		"[repro : run] + " + cmd,
	}
	for k := 0; k < int(float64(3+g.r.intn(12))*g.scale); k++ {
		lines = append(lines, "[repro : run] "+g.logLine(pick(g.r, []string{"info", "info", "debug"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, "[repro : run] "+g.logLine("error", g.routineError()), "",
		fmt.Sprintf("failed to get logs for task repro : container step-run has failed  : [{\"key\":\"StartedAt\",\"value\":\"2026-04-%02dT%02d:%02d:00.000Z\",\"type\":3}]", g.day, 8+g.r.intn(10), g.r.intn(60)))
	return &act{kind: actRun, cmd: fmt.Sprintf("tkn pipelinerun logs %s -n ci", run), out: strings.Join(lines, "\n") + "\n"}
}

// procfileAct writes a Procfile for overmind with a process that runs
// cmd.
func (g *gen) procfileAct(cmd string) *act {
	content := fmt.Sprintf("web: make run\nworker: make worker\nrepro: %s\n", cmd)
	return g.writeFileAct("Procfile.repro", content)
}

// lefthookAct writes a lefthook configuration whose pre-push hook runs
// cmd as a block scalar.
func (g *gen) lefthookAct(cmd string) *act {
	content := fmt.Sprintf("pre-push:\n  parallel: false\n  commands:\n    repro-%s:\n      run: |\n        %s\n    tests:\n      run: %s\n",
		kebab(g.nounWords()...), cmd, g.testCmd(pick(g.r, g.testTargets)))
	return g.writeFileAct("lefthook.yml", content)
}

// teamcityAct downloads the plain build log of a failed TeamCity build;
// its repro step wrote e to stderr.
func (g *gen) teamcityAct(e string) *act {
	stamp := func() string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("[%02d:%02d:%02d]", h, m, s)
	}
	lines := []string{
		stamp() + "i: TeamCity server version is 2024.03.3 (build 160548)",
		stamp() + " : The build is removed from the queue to be prepared for the start",
		fmt.Sprintf("%s : Starting the build on the agent \"linux-agent-%d\"", stamp(), 1+g.r.intn(9)),
		stamp() + " : Updating sources: auto checkout (on agent)",
		fmt.Sprintf("%s :\t [Updating sources] Building incremental patch for VCS root: %s main", stamp(), g.p.name),
		stamp() + " : Step 1/2: Build (Command Line)",
		fmt.Sprintf("%s :\t [Step 1/2] Process exited with code 0", stamp()),
		stamp() + " : Step 2/2: Repro (Command Line)",
		fmt.Sprintf("%s :\t [Step 2/2] Starting: /opt/buildagent/temp/agentTmp/custom_script%d.sh", stamp(), 1000000+g.r.intn(9000000)),
		fmt.Sprintf("%s :\t [Step 2/2] in directory: /opt/buildagent/work/%s", stamp(), g.r.hex(16)),
	}
	for k := 0; k < int(float64(3+g.r.intn(12))*g.scale); k++ {
		lines = append(lines, fmt.Sprintf("%s :\t [Step 2/2] %s", stamp(), g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs))))
	}
	lines = append(lines, fmt.Sprintf("%sW:\t [Step 2/2] %s", stamp(), e),
		fmt.Sprintf("%sW:\t [Step 2/2] Process exited with code 1", stamp()),
		fmt.Sprintf("%sE:\t [Step 2/2] Process exited with code 1 (Step: Repro (Command Line))", stamp()),
		fmt.Sprintf("%sE: Build finished with problems", stamp()))
	c := fmt.Sprintf("curl -sS -H \"Authorization: Bearer $TEAMCITY_TOKEN\" 'https://teamcity.northwind.dev/downloadBuildLog.html?buildId=%d&plain=true'", 10000+g.r.intn(90000))
	return &act{kind: actRun, cmd: c, out: strings.Join(lines, "\n") + "\n"}
}

// swarmService names a Docker Swarm service of the project's stack.
func (g *gen) swarmService() string { return g.p.name + "_" + pick(g.r, g.p.hosts) }

// swarmLogsAct reads a Swarm service's logs; one task logs e. It returns
// e as that line holds it.
func (g *gen) swarmLogsAct(e string) (*act, string) {
	svc := g.swarmService()
	var tasks []string
	w := 0
	for slot := 1; slot <= 2+g.r.intn(2); slot++ {
		t := fmt.Sprintf("%s.%d.%s@node-%d", svc, slot, g.r.alnum(25), 1+g.r.intn(4))
		tasks = append(tasks, t)
		w = max(w, len(t))
	}
	n := int(float64(12+g.r.intn(30)) * g.scale)
	at := n/4 + g.r.intn(n/2+1)
	var b strings.Builder
	var bad string
	for i := 0; i < n; i++ {
		line := g.logLine(pick(g.r, []string{"info", "info", "info", "warn", "debug"}), pick(g.r, routineLogMsgs))
		if i == at {
			bad = g.logLine("error", e)
			line = bad
		}
		fmt.Fprintf(&b, "%-*s    | %s\n", w, pick(g.r, tasks), line)
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("docker service logs --no-trunc --since 30m %s", svc), out: b.String()}, asLogged(bad, e)
}

// herokuLogsAct reads an app's Heroku log stream; a worker dyno logs e and
// crashes. It returns e as that line holds it.
func (g *gen) herokuLogsAct(e string) (*act, string) {
	app := "northwind-" + g.p.name
	h, m, s, _ := g.clock()
	at := time.Date(2026, 4, g.day, h, m, s, 0, time.UTC)
	stamp := func() string {
		at = at.Add(time.Duration(g.r.intn(4000000)) * time.Microsecond)
		return at.Format("2006-01-02T15:04:05.000000") + "+00:00"
	}
	n := int(float64(12+g.r.intn(30)) * g.scale)
	bad := n/4 + g.r.intn(n/2+1)
	var lines []string
	var line string
	for i := 0; i < n; i++ {
		switch {
		case i == bad:
			line = g.logLine("error", e)
			lines = append(lines, fmt.Sprintf("%s app[worker.1]: %s", stamp(), line),
				fmt.Sprintf("%s heroku[worker.1]: Process exited with status 1", stamp()),
				fmt.Sprintf("%s heroku[worker.1]: State changed from up to crashed", stamp()))
		case g.r.intn(3) == 0:
			lines = append(lines, fmt.Sprintf("%s heroku[router]: at=info method=GET path=\"/v1/%ss/%d\" host=%s.herokuapp.com request_id=%s fwd=\"203.0.113.%d\" dyno=web.%d connect=0ms service=%dms status=200 bytes=%d protocol=https",
				stamp(), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"), 1000+g.r.intn(90000), app, g.r.uuid(), 2+g.r.intn(250), 1+g.r.intn(2), 2+g.r.intn(400), 200+g.r.intn(9000)))
		default:
			lines = append(lines, fmt.Sprintf("%s app[%s]: %s", stamp(), pick(g.r, []string{"web.1", "web.2", "worker.1"}), g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs))))
		}
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("heroku logs -a %s -n 500", app), out: strings.Join(lines, "\n") + "\n"}, asLogged(line, e)
}

// rollbarAct lists the project's active Rollbar items through jq; one
// item's title is e.
func (g *gen) rollbarAct(e string) *act {
	item := func(title string, occ int) string {
		return fmt.Sprintf("{\n  \"counter\": %d,\n  \"title\": %s,\n  \"level\": \"error\",\n  \"total_occurrences\": %d,\n  \"environment\": \"production\"\n}", 100+g.r.intn(900), jstr(title), occ)
	}
	var items []string
	for k := 0; k < 1+g.r.intn(4); k++ {
		items = append(items, item(g.routineError(), 1000+g.r.intn(90000)))
	}
	items = slices.Insert(items, g.r.intn(len(items)+1), item(e, 1+g.r.intn(400)))
	cmd := "curl -sS -H \"X-Rollbar-Access-Token: $ROLLBAR_READ_TOKEN\" 'https://api.rollbar.com/api/1/items?status=active&level=error' | jq '.result.items[] | {counter, title, level, total_occurrences, environment}'"
	return &act{kind: actRun, cmd: cmd, out: strings.Join(items, "\n") + "\n"}
}

// sqitchAct deploys the pending Sqitch changes; one fails with the
// PostgreSQL error e and the deploy reverts.
func (g *gen) sqitchAct(e string) *act {
	var names []string
	for k := 0; k < 2+g.r.intn(3); k++ {
		names = append(names, fmt.Sprintf("%s_%s", pick(g.r, []string{"add", "drop", "backfill", "index"}), snake(g.nounWords()...))+fmt.Sprintf("_%d", k+1))
	}
	dots := func(n string) string { return "  + " + n + " " + strings.Repeat(".", max(3, 36-len(n))) + " " }
	bad := len(names) - 1
	var b strings.Builder
	b.WriteString("Deploying changes to db:pg://app@localhost/app\n")
	for i, n := range names {
		if i == bad {
			fmt.Fprintf(&b, "%spsql:deploy/%s.sql:%d: ERROR:  %s\nnot ok\n", dots(n), n, 3+g.r.intn(40), e)
			break
		}
		b.WriteString(dots(n) + "ok\n")
	}
	b.WriteString("\"psql\" unexpectedly returned exit value 3\nReverting all changes\n")
	for i := bad - 1; i >= 0; i-- {
		b.WriteString(strings.Replace(dots(names[i]), "+", "-", 1) + "ok\n")
	}
	b.WriteString("Deploy failed\n")
	return &act{kind: actRun, cmd: "sqitch deploy --verify db:pg://app@localhost/app", out: b.String(), exit: 2}
}

// sshMySQLAct runs a fix-up script with the MySQL client on the database
// host, through a jump host; it fails with e.
func (g *gen) sshMySQLAct(e string) *act {
	file := fmt.Sprintf("sql/fixups/2026-04-%02d_%s.sql", g.day, snake(g.nounWords()...))
	out := "Warning: Permanently added 'mysql-primary-1' (ED25519) to the list of known hosts.\n" + e + "\n"
	cmd := fmt.Sprintf("ssh -J bastion-2 mysql-primary-1 'mysql --defaults-group-suffix=_rw app' < %s", file)
	return &act{kind: actRun, cmd: cmd, out: out, exit: 1}
}

// cdktfAct deploys a CDK for Terraform stack; creating one resource fails
// with e.
func (g *gen) cdktfAct(e string) *act {
	// The resource whose provider prints e, else any of them.
	kinds := [][3]string{{"Linode", "linode_instance", "linode/linode"}, {"scaleway", "scaleway_instance_server", "scaleway/scaleway"},
		{"LimitExceeded", "oci_core_instance", "oracle/oci"}, {"MongoDB", "mongodbatlas_cluster", "mongodb/mongodbatlas"}, {"group rule", "okta_group_rule", "okta/okta"}}
	k := pick(g.r, kinds)
	for _, c := range kinds {
		if strings.Contains(e, c[0]) {
			k = c
		}
	}
	res, provider := k[1], k[2]
	name := snake(g.nounWords()...) + "_" + g.r.hex(8)
	line := 20 + g.r.intn(300)
	stack := "staging"
	pad := strings.Repeat(" ", len(stack))
	out := fmt.Sprintf("%[1]s  Initializing the backend...\n%[1]s  Initializing provider plugins...\n%[1]s  - Reusing previous version of %[2]s from the dependency lock file\n%[1]s  - Using previously-installed %[2]s v%[3]d.%[4]d.0\n%[1]s  Terraform has been successfully initialized!\n%[1]s  %[5]s.%[6]s: Creating...\n%[1]s  ╷\n%[7]s  │ Error: %[8]s\n%[7]s  │ \n%[7]s  │   with %[5]s.%[6]s (%[6]s),\n%[7]s  │   on cdk.tf.json line %[9]d, in resource \"%[5]s\" \"%[6]s\":\n%[7]s  │   %[9]d:       }\n%[7]s  ╵\n\n0 Stacks deploying     1 Stack done     0 Stacks waiting\nInvoking Terraform CLI failed with exit code 1\n",
		stack, provider, 1+g.r.intn(5), g.r.intn(30), res, name, pad, e, line)
	return &act{kind: actRun, cmd: "npx cdktf deploy " + stack + " --auto-approve", out: out, exit: 1}
}

// swarmPsAct lists a Swarm service's tasks, shut-down ones too; the
// failed task's id is the probe.
func (g *gen) swarmPsAct() (*act, string) {
	svc := g.swarmService()
	id := g.uniq(func(g *gen) string { return g.r.alnum(25) })
	image := fmt.Sprintf("registry.northwind.dev/%s:2026.04.%d", g.p.name, 1+g.r.intn(9))
	rows := [][]string{{"ID", "NAME", "IMAGE", "NODE", "DESIRED STATE", "CURRENT STATE", "ERROR", "PORTS"}}
	n := 3 + g.r.intn(4)
	at := 2 + g.r.intn(n-2) // the running tasks come first, then the history
	for i := 0; i < n; i++ {
		name, desired, current, errText := fmt.Sprintf("%s.%d", svc, 1+i%2), "Running", fmt.Sprintf("Running %d hours ago", 1+g.r.intn(20)), ""
		tid := g.r.alnum(25)
		if i > 1 {
			name = " \\_ " + name
			desired, current = "Shutdown", fmt.Sprintf("Shutdown %d hours ago", 2+g.r.intn(30))
		}
		if i == at {
			tid, current, errText = id, fmt.Sprintf("Failed %d minutes ago", 2+g.r.intn(50)), fmt.Sprintf("\"task: non-zero exit (%d)\"", pick(g.r, []int{1, 137, 139, 143}))
		}
		rows = append(rows, []string{tid, name, image, fmt.Sprintf("node-%d", 1+g.r.intn(4)), desired, current, errText, ""})
	}
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		var cells []string
		for i, c := range r {
			cells = append(cells, fmt.Sprintf("%-*s", w[i], c))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "   "), " ") + "\n")
	}
	return &act{kind: actRun, cmd: "docker service ps --no-trunc " + svc, out: b.String()}, id
}

// xrayAct summarizes the service's faulty or slow traces in AWS X-Ray;
// the id of the trace that failed with a 5xx is the probe.
func (g *gen) xrayAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	start := 1775001600 + (g.day-1)*86400 + 8*3600
	traceID := func() string { return fmt.Sprintf("1-%08x-%s", start+g.r.intn(3600), g.r.hex(24)) }
	id := g.uniq(func(g *gen) string { return traceID() })
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	var items []string
	for i := 0; i < n; i++ {
		tid, status, dur := traceID(), 200, 2000+g.r.intn(6000)
		if i == at {
			tid, status, dur = id, pick(g.r, []int{500, 502, 504}), 100+g.r.intn(30000)
		}
		items = append(items, fmt.Sprintf("    {\n        \"Id\": %s,\n        \"Duration\": %d.%03d,\n        \"Http\": %d\n    }", jstr(tid), dur/1000, dur%1000, status))
	}
	cmd := fmt.Sprintf("aws xray get-trace-summaries --start-time %d --end-time %d --filter-expression 'service(\"%s\") AND (fault = true OR responsetime > 2)' --query 'TraceSummaries[].{Id: Id, Duration: Duration, Http: Http.HttpStatus}'", start, start+3600, host)
	return &act{kind: actRun, cmd: cmd, out: "[\n" + strings.Join(items, ",\n") + "\n]\n"}, id
}

// shopifyAct asks the shop's GraphQL Admin API for pending orders; the
// global id of the one stuck in an odd state is the probe.
func (g *gen) shopifyAct() (*act, string) {
	gid := func() string { return fmt.Sprintf("gid://shopify/Order/55%011d", g.r.intn(100000000000)) }
	id := g.uniq(func(g *gen) string { return gid() })
	n := 3 + g.r.intn(4)
	at := g.r.intn(n)
	num := 10000 + g.r.intn(80000)
	var nodes []string
	for i := 0; i < n; i++ {
		oid, status := gid(), "PENDING"
		if i == at {
			oid, status = id, "PARTIALLY_PAID"
		}
		h, m, s, _ := g.clock()
		nodes = append(nodes, fmt.Sprintf("        {\n          \"id\": %s,\n          \"name\": \"#%d\",\n          \"displayFinancialStatus\": %s,\n          \"createdAt\": \"2026-04-%02dT%02d:%02d:%02dZ\"\n        }", jstr(oid), num+i, jstr(status), g.day, h, m, s))
	}
	out := "{\n  \"data\": {\n    \"orders\": {\n      \"nodes\": [\n" + strings.Join(nodes, ",\n") + "\n      ]\n    }\n  }\n}\n"
	cmd := fmt.Sprintf("curl -sS -X POST https://northwind-%s.myshopify.com/admin/api/2024-04/graphql.json -H \"X-Shopify-Access-Token: $SHOPIFY_ADMIN_TOKEN\" -H 'Content-Type: application/json' -d '{\"query\": \"{ orders(first: %d, query: \\\"financial_status:pending\\\") { nodes { id name displayFinancialStatus createdAt } } }\"}' | jq .", g.p.name, n)
	return &act{kind: actRun, cmd: cmd, out: out}, id
}

// fleetVersionAct asks every replica which build it runs; the one still
// on an untagged build, named as git describe names it, is the probe.
func (g *gen) fleetVersionAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	minor := 10 + g.r.intn(40)
	release := fmt.Sprintf("v1.%d.%d", minor, g.r.intn(5))
	var id, commit string
	id = g.uniq(func(g *gen) string {
		commit = g.r.hex(7)
		return fmt.Sprintf("v1.%d.%d-%d-g%s", minor-1, g.r.intn(6), 2+g.r.intn(40), commit)
	})
	relCommit := g.r.hex(7)
	n := 3 + g.r.intn(3)
	at := g.r.intn(n)
	var hosts []string
	var b strings.Builder
	for i := 1; i <= n; i++ {
		h := fmt.Sprintf("%s-%d", host, i)
		hosts = append(hosts, h)
		v, c, built := release, relCommit, fmt.Sprintf("2026-04-%02dT%02d:%02d:%02dZ", g.day, 6+g.r.intn(2), g.r.intn(60), g.r.intn(60))
		if i-1 == at {
			v, c, built = id, commit, fmt.Sprintf("2026-03-%02dT%02d:%02d:%02dZ", 10+g.r.intn(18), g.r.intn(24), g.r.intn(60), g.r.intn(60))
		}
		fmt.Fprintf(&b, "%s {\"version\":%s,\"commit\":%s,\"built\":%s}\n", h, jstr(v), jstr(c), jstr(built))
	}
	cmd := fmt.Sprintf("for h in %s; do printf '%%s ' $h; curl -s https://$h.internal/version | jq -c .; done", strings.Join(hosts, " "))
	return &act{kind: actRun, cmd: cmd, out: b.String()}, id
}

// runRevisionsAct lists a Cloud Run service's revisions; the revision
// that failed to become ready is the probe.
func (g *gen) runRevisionsAct() (*act, string) {
	svc := pick(g.r, g.p.hosts)
	suffix := func() string {
		const cs = "abcdefghijklmnopqrstuvwxyz"
		return string([]byte{cs[g.r.intn(26)], cs[g.r.intn(26)], cs[g.r.intn(26)]})
	}
	n := 3 + g.r.intn(5)
	top := 20 + g.r.intn(200)
	at := g.r.intn(min(n, 2))
	var id string
	rows := [][]string{{"", "REVISION", "ACTIVE", "SERVICE", "DEPLOYED", "DEPLOYED BY"}}
	for i := 0; i < n; i++ {
		rev := fmt.Sprintf("%s-%05d-%s", svc, top-i, suffix())
		mark, active := "✔", ""
		if (i == 0 && at != 0) || (i == 1 && at == 0) {
			active = "yes" // the newest revision that became ready
		}
		if i == at {
			id = g.uniq(func(g *gen) string { return fmt.Sprintf("%s-%05d-%s", svc, top-i, suffix()) })
			rev, mark = id, "✖"
		}
		h, m, s, _ := g.clock()
		rows = append(rows, []string{mark, rev, active, svc, fmt.Sprintf("2026-04-%02d %02d:%02d:%02d UTC", max(g.day-i, 1), h, m, s), fmt.Sprintf("deployer@northwind-%s.iam.gserviceaccount.com", g.p.name)})
	}
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len([]rune(c)))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		var cells []string
		for i, c := range r {
			cells = append(cells, c+strings.Repeat(" ", w[i]-len([]rune(c))))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " ") + "\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("gcloud run revisions list --service %s --region europe-west1 --limit %d", svc, n), out: b.String()}, id
}

// bazelAct runs a package's tests under Bazel; the elapsed and critical
// path line is the probe.
func (g *gen) bazelAct() (*act, string) {
	dir := pick(g.r, g.p.dirs)
	var crit int
	v := g.uniq(func(g *gen) string {
		el := 20000 + g.r.intn(600000)
		crit = el * (40 + g.r.intn(50)) / 100
		return fmt.Sprintf("Elapsed time: %d.%03ds, Critical Path: %d.%02ds", el/1000, el%1000, crit/1000, crit/10%100)
	})
	targets := 100 + g.r.intn(900)
	tests := 3 + g.r.intn(9)
	procs := 200 + g.r.intn(3000)
	cached := procs * (20 + g.r.intn(60)) / 100
	var b strings.Builder
	fmt.Fprintf(&b, "INFO: Invocation ID: %s\nINFO: Analyzed %d targets (%d packages loaded, %d targets configured).\nINFO: Found %d targets and %d test targets...\nINFO: %s\nINFO: %d processes: %d disk cache hit, %d internal, %d linux-sandbox.\nINFO: Build completed successfully, %d total actions\n",
		g.r.uuid(), targets, g.r.intn(40), g.r.intn(900), targets-tests, tests, v, procs, cached, procs/5, procs-cached-procs/5, procs)
	for k := 0; k < tests; k++ {
		name := snake(g.words(2)...) + "_test"
		label := fmt.Sprintf("//%s:%s", dir, name)
		fmt.Fprintf(&b, "%-64s %s in %d.%ds\n", label, pick(g.r, []string{"PASSED", "PASSED", "(cached) PASSED"}), g.r.intn(crit/1000+1), g.r.intn(10))
	}
	fmt.Fprintf(&b, "\nExecuted %d out of %d tests: %d tests pass.\n", tests, tests, tests)
	return &act{kind: actRun, cmd: fmt.Sprintf("bazel test //%s/... --test_output=errors", dir), out: b.String()}, v
}

// turboAct runs the monorepo's build and test tasks with Turborepo; the
// run's wall time line is the probe.
func (g *gen) turboAct() (*act, string) {
	var pkgs []string
	for _, n := range pickN(g.r, g.p.nouns, 3+g.r.intn(4)) {
		pkgs = append(pkgs, "@northwind/"+strings.ReplaceAll(n, "_", "-"))
	}
	total := len(pkgs) * 2
	cached := g.r.intn(total)
	v := g.uniq(func(g *gen) string {
		ms := 3000 + g.r.intn(200000)
		if ms >= 60000 {
			return fmt.Sprintf("Time:    %dm%d.%03ds", ms/60000, ms/1000%60, ms%1000)
		}
		return fmt.Sprintf("Time:    %d.%03ds", ms/1000, ms%1000)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "• Packages in scope: %s\n• Running build, test in %d packages\n• Remote caching disabled\n", strings.Join(pkgs, ", "), len(pkgs))
	hits := 0
	for _, p := range pkgs {
		for _, task := range []string{"build", "test"} {
			if hits < cached && g.r.chance(0.6) {
				hits++
				fmt.Fprintf(&b, "%s:%s: cache hit, replaying logs %s\n", p, task, g.r.hex(16))
				continue
			}
			fmt.Fprintf(&b, "%s:%s: cache miss, executing %s\n", p, task, g.r.hex(16))
		}
	}
	fmt.Fprintf(&b, "\n Tasks:    %d successful, %d total\nCached:    %d cached, %d total\n  %s\n", total, total, hits, total, v)
	return &act{kind: actRun, cmd: "npx turbo run build test --concurrency=4", out: b.String()}, v
}

// lambdaReportAct prints the REPORT lines of a Lambda function's recent
// invocations; the cold start's init duration is the probe.
func (g *gen) lambdaReportAct() (*act, string) {
	fn := g.p.name + "-" + kebab(g.nounWords()...)
	mem := pick(g.r, []int{512, 1024, 1769, 2048})
	v := g.uniq(func(g *gen) string {
		x := 30000 + g.r.intn(400000)
		return fmt.Sprintf("Init Duration: %d.%02d ms", x/100, x%100)
	})
	n := 4 + g.r.intn(8)
	at := g.r.intn(n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		d := 500 + g.r.intn(300000)
		fmt.Fprintf(&b, "REPORT RequestId: %s\tDuration: %d.%02d ms\tBilled Duration: %d ms\tMemory Size: %d MB\tMax Memory Used: %d MB\t", g.r.uuid(), d/100, d%100, d/100+1, mem, mem*(20+g.r.intn(70))/100)
		if i == at {
			b.WriteString(v + "\t")
		}
		b.WriteString("\n")
	}
	since := int64(1775001600+(g.day-1)*86400) * 1000
	cmd := fmt.Sprintf("aws logs filter-log-events --log-group-name /aws/lambda/%s --filter-pattern REPORT --start-time %d --query 'events[].message' --output json | jq -r '.[]'", fn, since)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// h2loadAct load-tests an endpoint over HTTP/2 with h2load; the finished
// line is the probe.
func (g *gen) h2loadAct() (*act, string) {
	url := fmt.Sprintf("https://%s.internal:8443/v1/%ss", pick(g.r, g.p.hosts), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"))
	const reqs = 50000
	var rate int // hundredths of a request per second
	v := g.uniq(func(g *gen) string {
		rate = 50000 + g.r.intn(2000000)
		secs := reqs * 100 * 100 / rate // hundredths of a second
		return fmt.Sprintf("finished in %d.%02ds, %d.%02d req/s, %d.%02dMB/s", secs/100, secs%100, rate/100, rate%100, rate/100*400/1048576, g.r.intn(100))
	})
	failed := g.r.intn(reqs / 200)
	mean := 1000000000 / max(rate, 1) // hundredths of a ms per request, 100 clients
	ms := func(x int) string { return fmt.Sprintf("%d.%02dms", x/100, x%100) }
	var b strings.Builder
	b.WriteString("starting benchmark...\nspawning thread #0: 100 total client(s). 50000 total requests\nTLS Protocol: TLSv1.3\nCipher: TLS_AES_128_GCM_SHA256\nServer Temp Key: X25519 253 bits\nApplication protocol: h2\n")
	for p := 10; p <= 100; p += 10 {
		fmt.Fprintf(&b, "progress: %d%% done\n", p)
	}
	fmt.Fprintf(&b, "\n%s\nrequests: %d total, %d started, %d done, %d succeeded, %d failed, 0 errored, 0 timeout\nstatus codes: %d 2xx, 0 3xx, 0 4xx, %d 5xx\ntraffic: %d.%02dMB (%d) total, %d.%02dKB (%d) headers (space savings 9%d.%02d%%), %d.%02dMB (%d) data\n",
		v, reqs, reqs, reqs, reqs-failed, failed, reqs-failed, failed, reqs*400/1048576, g.r.intn(100), reqs*400, reqs*10/1024, g.r.intn(100), reqs*10, g.r.intn(10), g.r.intn(100), reqs*380/1048576, g.r.intn(100), reqs*380)
	fmt.Fprintf(&b, "                     min         max         mean         sd        +/- sd\ntime for request: %10s %11s %12s %10s    %d.%02d%%\ntime for connect: %10s %11s %12s %10s    %d.%02d%%\ntime to 1st byte: %10s %11s %12s %10s    %d.%02d%%\nreq/s           : %10d.%02d %8d.%02d %9d.%02d %7d.%02d    %d.%02d%%\n",
		ms(mean/30+1), ms(mean*12), ms(mean), ms(mean*13/10), 80+g.r.intn(19), g.r.intn(100),
		ms(80+g.r.intn(100)), ms(500+g.r.intn(900)), ms(200+g.r.intn(300)), ms(100+g.r.intn(100)), 60+g.r.intn(30), g.r.intn(100),
		ms(500+g.r.intn(900)), ms(3000+g.r.intn(9000)), ms(1500+g.r.intn(2000)), ms(500+g.r.intn(900)), 60+g.r.intn(30), g.r.intn(100),
		rate/100/100*9/10, g.r.intn(100), rate/100/100*11/10, g.r.intn(100), rate/100/100, g.r.intn(100), 1+g.r.intn(5), g.r.intn(100), 60+g.r.intn(30), g.r.intn(100))
	return &act{kind: actRun, cmd: "h2load -n 50000 -c 100 -m 10 " + url, out: b.String()}, v
}

// artilleryRow is one line of Artillery's summary report: a label, dots
// and the value.
func artilleryRow(indent, label, value string) string {
	return indent + label + ": " + strings.Repeat(".", max(3, 78-len(indent)-len(label)-len(value))) + " " + value
}

// artilleryAct runs an Artillery scenario; the response time's p99 line
// of the summary report is the probe.
func (g *gen) artilleryAct() (*act, string) {
	noun := strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-")
	median := 200 + g.r.intn(3000) // tenths of a ms
	var p99 int
	v := g.uniq(func(g *gen) string {
		p99 = median*(4+g.r.intn(12)) + g.r.intn(10)
		return artilleryRow("", "p99", fmt.Sprintf("%d.%d", p99/10, p99%10))
	})
	reqs := 6000 * (1 + g.r.intn(5))
	bad := g.r.intn(reqs / 40)
	tenths := func(x int) string { return fmt.Sprintf("%d.%d", x/10, x%10) }
	h, m, s, _ := g.clock()
	lines := []string{"--------------------------------", fmt.Sprintf("Summary report @ %02d:%02d:%02d(+0000)", h, m, s), "--------------------------------", "",
		artilleryRow("", "http.codes.200", fmt.Sprint(reqs-bad)), artilleryRow("", "http.codes.503", fmt.Sprint(bad)),
		artilleryRow("", "http.downloaded_bytes", fmt.Sprint(reqs*(300+g.r.intn(2000)))),
		artilleryRow("", "http.request_rate", fmt.Sprintf("%d/sec", reqs/60)), artilleryRow("", "http.requests", fmt.Sprint(reqs)),
		"http.response_time:",
		artilleryRow("  ", "min", fmt.Sprint(1+median/100)), artilleryRow("  ", "max", fmt.Sprint(p99/10*3)),
		artilleryRow("  ", "mean", tenths(median*13/10)), artilleryRow("  ", "median", tenths(median)),
		artilleryRow("  ", "p95", tenths(p99*6/10)), "  " + v,
		artilleryRow("", "vusers.completed", fmt.Sprint(reqs/6-bad)), artilleryRow("", "vusers.created", fmt.Sprint(reqs/6)),
		artilleryRow("", "vusers.failed", fmt.Sprint(bad)),
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("npx artillery run --output /tmp/%s-report.json loadtest/%s.yml", noun, noun), out: strings.Join(lines, "\n") + "\n"}, v
}

// crdbWorkloadAct runs CockroachDB's kv workload for a minute; the final
// result row is the probe.
func (g *gen) crdbWorkloadAct() (*act, string) {
	rate := 2000 + g.r.intn(20000) // operations per second
	p := func(x int) string { return fmt.Sprintf("%d.%d", x/10, x%10) }
	row := func(el string, errs, ops, cum int, avg, p50, p95, p99, pmax int, tail string) string {
		return strings.TrimRight(fmt.Sprintf("%8s %8d %14d %14d.%d %8s %8s %8s %8s %8s  %s", el, errs, ops, cum, g.r.intn(10), p(avg), p(p50), p(p95), p(p99), p(pmax), tail), " ")
	}
	base := 320000 / rate // tenths of a ms, 32 clients
	var b strings.Builder
	b.WriteString("_elapsed___errors__ops/sec(inst)___ops/sec(cum)__p50(ms)__p95(ms)__p99(ms)_pMax(ms)\n")
	for s := 1; s <= 5; s++ {
		inst := rate * (90 + g.r.intn(20)) / 100
		fmt.Fprintf(&b, "%8s %8d %14d.%d %14d.%d %8s %8s %8s %8s read\n", fmt.Sprintf("%d.0s", s), 0, inst, g.r.intn(10), rate, g.r.intn(10), p(base), p(base*3), p(base*6), p(base*12))
	}
	b.WriteString("...\n\n_elapsed___errors_____ops(total)___ops/sec(cum)__avg(ms)__p50(ms)__p95(ms)__p99(ms)_pMax(ms)__total\n")
	b.WriteString(row("60.0s", 0, rate*60*9/10, rate*9/10, base*12/10, base, base*3, base*6, base*30, "read") + "\n")
	b.WriteString(row("60.0s", 0, rate*60/10, rate/10, base*2, base*15/10, base*4, base*9, base*40, "write") + "\n")
	v := g.uniq(func(g *gen) string {
		return row("60.0s", g.r.intn(5), rate*60, rate, base*13/10, base, base*3+g.r.intn(10), base*7+g.r.intn(20), base*40+g.r.intn(100), "")
	})
	b.WriteString("\n_elapsed___errors_____ops(total)___ops/sec(cum)__avg(ms)__p50(ms)__p95(ms)__p99(ms)_pMax(ms)__result\n" + v + "\n")
	cmd := fmt.Sprintf("cockroach workload run kv --duration=60s --concurrency=32 --read-percent=90 'postgresql://root@%s-crdb-1:26257/kv?sslmode=disable'", g.p.name)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, strings.TrimSpace(v)
}

// rpkLagAct describes a Redpanda consumer group; its total lag is the
// probe.
func (g *gen) rpkLagAct() (*act, string) {
	group := g.p.name + "-" + strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-") + "-consumers"
	topic := g.p.name + "." + strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-") + "-events"
	parts := 3 + g.r.intn(6)
	var lags []int
	total := 0
	v := g.uniq(func(g *gen) string {
		lags, total = nil, 0
		for i := 0; i < parts; i++ {
			l := g.r.intn(20000)
			if g.r.chance(0.3) {
				l = g.r.intn(50)
			}
			lags = append(lags, l)
			total += l
		}
		return fmt.Sprintf("TOTAL-LAG    %d", total)
	})
	var b strings.Builder
	fmt.Fprintf(&b, "GROUP        %s\nCOORDINATOR  %d\nSTATE        Stable\nBALANCER     cooperative-sticky\nMEMBERS      %d\n%s\n\n", group, g.r.intn(3), 2+g.r.intn(4), v)
	rows := [][]string{{"TOPIC", "PARTITION", "CURRENT-OFFSET", "LOG-START-OFFSET", "LOG-END-OFFSET", "LAG", "MEMBER-ID", "CLIENT-ID", "HOST"}}
	for i, l := range lags {
		end := 1000000 + g.r.intn(90000000)
		rows = append(rows, []string{topic, fmt.Sprint(i), fmt.Sprint(end - l), fmt.Sprint(g.r.intn(1000)), fmt.Sprint(end), fmt.Sprint(l),
			fmt.Sprintf("kgo-%s", g.r.uuid()), "kgo", fmt.Sprintf("10.0.%d.%d", g.r.intn(16), 2+g.r.intn(250))})
	}
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], len(c))
		}
	}
	for _, r := range rows {
		var cells []string
		for i, c := range r {
			cells = append(cells, fmt.Sprintf("%-*s", w[i], c))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, "  "), " ") + "\n")
	}
	return &act{kind: actRun, cmd: "rpk group describe " + group, out: b.String()}, v
}

// pulsarStatsAct greps the rates, sizes and backlog out of a Pulsar
// topic's stats; the subscription's message backlog is the probe.
func (g *gen) pulsarStatsAct() (*act, string) {
	topic := fmt.Sprintf("persistent://%s/default/%s-events", g.p.name, strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"))
	sub := pick(g.r, g.p.hosts) + "-sub"
	var backlog int
	v := g.uniq(func(g *gen) string {
		backlog = 10000 + g.r.intn(5000000)
		return fmt.Sprintf("\"msgBacklog\" : %d", backlog)
	})
	f := func(x int) string { return fmt.Sprintf("%d.%d", x/10, x%10) }
	in := 1000 + g.r.intn(90000)
	out := fmt.Sprintf("{\n  \"msgRateIn\" : %s,\n  \"msgThroughputIn\" : %s,\n  \"msgRateOut\" : %s,\n  \"msgThroughputOut\" : %s,\n  \"bytesInCounter\" : %d,\n  \"msgInCounter\" : %d,\n  \"averageMsgSize\" : %s,\n  \"storageSize\" : %d,\n  \"backlogSize\" : %d,\n  \"publishers\" : [ {\n    \"msgRateIn\" : %s,\n    \"producerId\" : %d,\n    \"producerName\" : \"%s-%d-%d\"\n  } ],\n  \"subscriptions\" : {\n    \"%s\" : {\n      \"msgRateOut\" : %s,\n      \"msgThroughputOut\" : %s,\n      \"msgRateRedeliver\" : %s,\n      %s,\n      \"type\" : \"Shared\",\n      \"unackedMessages\" : %d,\n      \"consumers\" : [ ]\n    }\n  },\n  \"replication\" : { },\n  \"deduplicationStatus\" : \"Disabled\"\n}\n",
		f(in), f(in*400), f(in/10), f(in*40), 1000000000+g.r.intn(900000000), 10000000+g.r.intn(90000000), f(4000+g.r.intn(3000)), 100000000+g.r.intn(900000000), backlog*400,
		f(in), g.r.intn(9), pick(g.r, g.p.hosts), g.r.intn(9), g.r.intn(900), sub, f(in/10), f(in*40), f(g.r.intn(100)), v, g.r.intn(5000))
	var kept []string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "\"msgRate") || strings.Contains(l, "\"msgBacklog\"") || strings.Contains(l, "Size\"") || strings.Contains(l, "\"unackedMessages\"") {
			kept = append(kept, l)
		}
	}
	cmd := "pulsar-admin topics stats " + topic + " | grep -E '\"(msgRate[A-Za-z]*|msgBacklog|[a-zA-Z]*Size|unackedMessages)\"'"
	return &act{kind: actRun, cmd: cmd, out: strings.Join(kept, "\n") + "\n"}, v
}

// diveAct checks the efficiency of the service's image with dive in CI
// mode; the wasted bytes line is the probe.
func (g *gen) diveAct() (*act, string) {
	image := fmt.Sprintf("registry.northwind.dev/%s:2026.04.%d", g.p.name, 1+g.r.intn(9))
	var wasted int
	v := g.uniq(func(g *gen) string {
		wasted = 20000000 + g.r.intn(900000000)
		return fmt.Sprintf("wastedBytes: %d bytes (%d MB)", wasted, wasted/1000000)
	})
	pct := 5 + g.r.intn(40)
	var b strings.Builder
	fmt.Fprintf(&b, "  Using default CI config\nImage Source: docker://%s\nFetching image... (this can take a while for large images)\nAnalyzing image...\n  efficiency: %d.%04d %%\n  %s\n  userWastedPercent: %d.%04d %%\nInefficient Files:\nCount  Wasted Space  File Path\n", image, 99-pct/4, g.r.intn(10000), v, pct, g.r.intn(10000))
	for _, f := range []string{"/var/cache/apt/archives", "/root/.cache", "/usr/lib/x86_64-linux-gnu/libLLVM-15.so.1", "/tmp/build"} {
		fmt.Fprintf(&b, "%5d  %12s  %s\n", 2+g.r.intn(4), fmt.Sprintf("%d MB", 1+g.r.intn(wasted/4000000+1)), f)
	}
	fmt.Fprintf(&b, "Results:\n  FAIL: highestUserWastedPercent: too many bytes wasted, relative to the user bytes added (%%-user-wasted-bytes=0.%02d > threshold=0.1)\n  PASS: highestWastedBytes\n  PASS: lowestEfficiency\nResult:FAIL [Total:3] [Passed:2] [Failed:1] [Warn:0] [Skipped:0]\n", pct)
	return &act{kind: actRun, cmd: "CI=true dive " + image, out: b.String(), exit: 1}, v
}

// pgbouncerStatsAct shows PgBouncer's statistics in expanded display; the
// application database's average wait is the probe.
func (g *gen) pgbouncerStatsAct() (*act, string) {
	host := g.p.name + "-pgbouncer"
	if slices.Contains(g.p.hosts, "pgbouncer-1") {
		host = "pgbouncer-1"
	}
	var v string
	rec := func(n int, db string, probe bool) string {
		xact := 100000 + g.r.intn(9000000)
		kv := [][2]string{{"database", db}, {"total_xact_count", fmt.Sprint(xact)}, {"total_query_count", fmt.Sprint(xact * (2 + g.r.intn(4)))},
			{"total_received", fmt.Sprint(xact * 300)}, {"total_sent", fmt.Sprint(xact * 900)}, {"total_xact_time", fmt.Sprint(xact * 1200)},
			{"total_query_time", fmt.Sprint(xact * 900)}, {"total_wait_time", fmt.Sprint(xact * 40)}, {"avg_xact_count", fmt.Sprint(10 + g.r.intn(400))},
			{"avg_query_count", fmt.Sprint(20 + g.r.intn(900))}, {"avg_recv", fmt.Sprint(1000 + g.r.intn(90000))}, {"avg_sent", fmt.Sprint(1000 + g.r.intn(90000))},
			{"avg_xact_time", fmt.Sprint(500 + g.r.intn(20000))}, {"avg_query_time", fmt.Sprint(200 + g.r.intn(9000))}, {"avg_wait_time", fmt.Sprint(g.r.intn(40))}}
		if probe {
			v = g.uniq(func(g *gen) string { return fmt.Sprintf("%-17s | %d", "avg_wait_time", 5000+g.r.intn(900000)) })
		}
		var b strings.Builder
		fmt.Fprintf(&b, "-[ RECORD %d ]-----+-%s\n", n, strings.Repeat("-", 10))
		for _, p := range kv {
			if probe && p[0] == "avg_wait_time" {
				b.WriteString(v + "\n")
				continue
			}
			fmt.Fprintf(&b, "%-17s | %s\n", p[0], p[1])
		}
		return b.String()
	}
	out := rec(1, "app", true) + rec(2, "pgbouncer", false)
	return &act{kind: actRun, cmd: fmt.Sprintf("psql -h %s -p 6432 -U pgbouncer pgbouncer -x -c 'SHOW STATS'", host), out: out}, v
}

// memcachedStatsAct greps memcached's stats; the eviction counter is the
// probe.
func (g *gen) memcachedStatsAct() (*act, string) {
	host := pick(g.r, g.p.hosts) + "-memcached"
	v := g.uniq(func(g *gen) string { return fmt.Sprintf("STAT evictions %d", 1000+g.r.intn(9000000)) })
	limit := pick(g.r, []int{1073741824, 2147483648, 4294967296})
	hits := 1000000 + g.r.intn(90000000)
	out := fmt.Sprintf("STAT bytes %d\nSTAT curr_items %d\nSTAT get_hits %d\nSTAT get_misses %d\n%s\nSTAT limit_maxbytes %d\n",
		limit-g.r.intn(limit/100), 100000+g.r.intn(9000000), hits, hits/(2+g.r.intn(8)), v, limit)
	cmd := fmt.Sprintf("printf 'stats\\r\\nquit\\r\\n' | nc -q1 %s 11211 | tr -d '\\r' | grep -E 'curr_items|get_hits|get_misses|evictions|bytes |limit_maxbytes'", host)
	return &act{kind: actRun, cmd: cmd, out: out}, v
}

// linkerdStatAct shows the mesh's metrics per deployment; the degraded
// deployment's row is the probe.
func (g *gen) linkerdStatAct() (*act, string) {
	row := func(name string, meshed string, success, rps, p50, p95, p99, conns int) string {
		return fmt.Sprintf("%-22s %6s %8s %9s %13s %13s %13s %10d", name, meshed, fmt.Sprintf("%d.%02d%%", success/100, success%100), fmt.Sprintf("%d.%drps", rps/10, rps%10),
			fmt.Sprintf("%dms", p50), fmt.Sprintf("%dms", p95), fmt.Sprintf("%dms", p99), conns)
	}
	var b strings.Builder
	b.WriteString(fmt.Sprintf("%-22s %6s %8s %9s %13s %13s %13s %10s\n", "NAME", "MESHED", "SUCCESS", "RPS", "LATENCY_P50", "LATENCY_P95", "LATENCY_P99", "TCP_CONN"))
	names := append(slices.Clone(g.p.hosts), g.p.name+"-cron", g.p.name+"-admin")
	bad := g.r.intn(len(g.p.hosts))
	var v string
	for i, n := range names {
		k := 1 + g.r.intn(4)
		meshed := fmt.Sprintf("%d/%d", k, k)
		if i == bad {
			v = g.uniq(func(g *gen) string {
				return row(n, meshed, 8500+g.r.intn(1400), 100+g.r.intn(900), 2+g.r.intn(8), 30+g.r.intn(200), 300+g.r.intn(3000), 4+g.r.intn(40))
			})
			b.WriteString(v + "\n")
			continue
		}
		b.WriteString(row(n, meshed, 10000, 10+g.r.intn(400), 1+g.r.intn(3), 4+g.r.intn(10), 10+g.r.intn(30), 1+g.r.intn(20)) + "\n")
	}
	return &act{kind: actRun, cmd: "linkerd viz stat deploy -n " + g.p.name, out: b.String()}, v
}

// nvmeSmartAct reads the data disk's SMART log; its wear is the probe.
func (g *gen) nvmeSmartAct() (*act, string) {
	kv := func(k, val string) string { return fmt.Sprintf("%-40s: %s", k, val) }
	v := g.uniq(func(g *gen) string { return kv("percentage_used", fmt.Sprintf("%d%%", 60+g.r.intn(60))) })
	hours := 8000 + g.r.intn(40000)
	read, written := 100000000+g.r.intn(900000000), 200000000+g.r.intn(1800000000)
	tb := func(units int) string { return fmt.Sprintf("%d (%d.%02d TB)", units, units/1953125, g.r.intn(100)) }
	lines := []string{"Smart Log for NVME device:nvme1n1 namespace-id:ffffffff",
		kv("critical_warning", "0"), kv("temperature", fmt.Sprintf("%d °C (%d K)", 35+g.r.intn(20), 308+g.r.intn(20))),
		kv("available_spare", fmt.Sprintf("%d%%", 90+g.r.intn(11))), kv("available_spare_threshold", "10%"), v,
		kv("endurance group critical warning summary", "0"), kv("Data Units Read", tb(read)), kv("Data Units Written", tb(written)),
		kv("host_read_commands", fmt.Sprint(read*12)), kv("host_write_commands", fmt.Sprint(written*9)), kv("controller_busy_time", fmt.Sprint(hours/3)),
		kv("power_cycles", fmt.Sprint(10+g.r.intn(90))), kv("power_on_hours", commas(hours)), kv("unsafe_shutdowns", fmt.Sprint(g.r.intn(30))),
		kv("media_errors", "0"), kv("num_err_log_entries", fmt.Sprint(g.r.intn(20)))}
	return &act{kind: actRun, cmd: "sudo nvme smart-log /dev/nvme1n1", out: strings.Join(lines, "\n") + "\n"}, v
}

// memtierAct loads the cache with memtier_benchmark; the totals row of
// its summary is the probe.
func (g *gen) memtierAct() (*act, string) {
	host := pick(g.r, g.p.hosts) + "-memcached"
	lat := 800 + g.r.intn(6000) // microseconds
	ops := 100 * 1000000 / max(lat, 1)
	ms := func(us int) string { return fmt.Sprintf("%d.%05d", us/1000, us%1000*100) }
	row := func(kind string, rate, hits, misses int, l int) string {
		h, mi := "---", "---"
		if hits >= 0 {
			h, mi = fmt.Sprintf("%d.%02d", hits, g.r.intn(100)), fmt.Sprintf("%d.%02d", misses, g.r.intn(100))
		}
		return fmt.Sprintf("%-8s %12s %12s %12s %15s %15s %15s %15s %12s", kind, fmt.Sprintf("%d.%02d", rate, g.r.intn(100)), h, mi, ms(l), ms(l*9/10), ms(l*3), ms(l*5), fmt.Sprintf("%d.%02d", rate/10, g.r.intn(100)))
	}
	sets := ops / 11
	gets := ops - sets
	hits := gets * (50 + g.r.intn(45)) / 100
	rule := strings.Repeat("=", 124)
	var b strings.Builder
	fmt.Fprintf(&b, "Writing results to stdout\n[RUN #1] Preparing benchmark client...\n[RUN #1] Launching threads now...\n[RUN #1 100%%,  60 secs]  0 threads:    %d ops, %d (avg: %d) ops/sec, %d.%02dMB/sec (avg: %d.%02dMB/sec),  %s (avg:  %s) msec latency\n\n4         Threads\n25        Connections per thread\n60        Seconds\n\n\nALL STATS\n%s\n",
		ops*60, ops, ops, ops/1000, g.r.intn(100), ops/1000, g.r.intn(100), ms(lat), ms(lat), rule)
	fmt.Fprintf(&b, "%-8s %12s %12s %12s %15s %15s %15s %15s %12s\n%s\n", "Type", "Ops/sec", "Hits/sec", "Misses/sec", "Avg. Latency", "p50 Latency", "p99 Latency", "p99.9 Latency", "KB/sec", strings.Repeat("-", 124))
	b.WriteString(row("Sets", sets, -1, -1, lat) + "\n" + row("Gets", gets, hits, gets-hits, lat) + "\n")
	fmt.Fprintf(&b, "%-8s %12s %12s %12s %15s %15s %15s %15s %12s\n", "Waits", "0.00", "---", "---", "---", "---", "---", "---", "---")
	v := g.uniq(func(g *gen) string { return row("Totals", ops, hits, gets-hits, lat+g.r.intn(50)) })
	b.WriteString(v + "\n")
	cmd := fmt.Sprintf("memtier_benchmark -s %s -p 11211 --protocol=memcache_text -t 4 -c 25 --test-time=60 --ratio=1:10 --hide-histogram", host)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// pidstatAct samples a service's CPU and memory with pidstat; the sample
// where it spikes is the probe.
func (g *gen) pidstatAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	proc := map[string]string{"go": host, "python": "python3", "ts": "node", "rust": host, "java": "java"}[g.l.name]
	if proc == "" {
		proc = "postgres"
	}
	pid := 1000 + g.r.intn(60000)
	vsz := 1000000 + g.r.intn(8000000)
	row := func(busy bool) string {
		h, m, s, _ := g.clock()
		usr, sys := 2+g.r.intn(20), 1+g.r.intn(5)
		rss := vsz / (4 + g.r.intn(3))
		if busy {
			usr, sys, rss = 180+g.r.intn(500), 20+g.r.intn(60), vsz/(2+g.r.intn(2))
		}
		return fmt.Sprintf("%02d:%02d:%02d %8d %9d %7d.%02d %7d.%02d %7s %7s %7d.%02d %5d %9d.%02d %9s %9d %9d %6d.%02d  %s",
			h, m, s, 1000, pid, usr, g.r.intn(100), sys, g.r.intn(100), "0.00", "0.00", usr+sys, g.r.intn(100), g.r.intn(8), g.r.intn(900), g.r.intn(100), "0.00", vsz, rss, rss*100/16000000, g.r.intn(100), proc)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Linux 5.15.0-1051-aws (%s) \t04/%02d/26 \t_x86_64_\t(8 CPU)\n\n# Time        UID       PID    %%usr %%system  %%guest   %%wait    %%CPU   CPU  minflt/s  majflt/s     VSZ     RSS   %%MEM  Command\n", host, g.day)
	at := 1 + g.r.intn(3)
	var v string
	for i := 0; i < 4; i++ {
		if i == at {
			v = g.uniq(func(g *gen) string { return row(true) })
			b.WriteString(v + "\n")
			continue
		}
		b.WriteString(row(false) + "\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("pidstat -h -u -r -p $(pgrep -d, -f %s) 5 4", host), out: b.String()}, v
}

// gerritReviewAct posts d as a review message on a Gerrit change.
func (g *gen) gerritReviewAct(d string) *act {
	who := pick(g.r, practicePeople)
	cmd := fmt.Sprintf("ssh -p 29418 %s@gerrit.northwind.dev gerrit review --project %s --message \"$(cat <<'EOF'\n%s\nEOF\n)\" %d,%d", who[1], g.p.name, d, 10000+g.r.intn(90000), 1+g.r.intn(9))
	return &act{kind: actRun, cmd: cmd, out: ""}
}

// notionPageAct adds d to the team's decision log in Notion, as a page
// with one paragraph.
func (g *gen) notionPageAct(d string) *act {
	comp := pick(g.r, g.p.comps)
	body := fmt.Sprintf("{\"parent\": {\"database_id\": \"%s\"}, \"properties\": {\"Name\": {\"title\": [{\"text\": {\"content\": %s}}]}}, \"children\": [{\"object\": \"block\", \"type\": \"paragraph\", \"paragraph\": {\"rich_text\": [{\"type\": \"text\", \"text\": {\"content\": %s}}]}}]}",
		g.r.hex(32), jstr(title(comp)), jstr(d))
	cmd := "curl -sS https://api.notion.com/v1/pages -H \"Authorization: Bearer $NOTION_TOKEN\" -H 'Notion-Version: 2022-06-28' -H 'Content-Type: application/json' --data @- <<'EOF'\n" + body + "\nEOF"
	id := g.r.uuid()
	out := fmt.Sprintf("{\"object\":\"page\",\"id\":\"%s\",\"url\":\"https://www.notion.so/%s\"}", id, strings.ReplaceAll(id, "-", ""))
	return &act{kind: actRun, cmd: cmd, out: out}
}

// rfcDoc is a design RFC whose decision section holds d.
func (g *gen) rfcDoc(d string) (string, string) {
	comp := pick(g.r, g.p.comps)
	num := 10 + g.r.intn(80)
	path := fmt.Sprintf("docs/rfcs/%04d-%s.md", num, kebab(g.words(2)...))
	who := pickN(g.r, practicePeople, 2)
	content := fmt.Sprintf("# RFC %04d: %s\n\n- Status: Accepted\n- Authors: %s, %s\n- Created: 2026-04-%02d\n\n## Summary\n\n%s %s.\n\n## Motivation\n\nThe current behaviour of %s is hard to reason about and has bitten us in production.\n\n## Decision\n\n%s\n\n## Unresolved questions\n\n- Is a migration path needed for %s?\n- Who owns the alert?\n",
		num, title(comp), who[0][0], who[1][0], g.day, title(g.p.name), pick(g.r, g.p.issues), comp, d, pick(g.r, g.p.comps))
	return path, content
}

// zulipAct sends d to the team's Zulip stream.
func (g *gen) zulipAct(d string) *act {
	comp := pick(g.r, g.p.comps)
	cmd := fmt.Sprintf("zulip-send --stream 'eng-%s' --subject '%s' --message \"$(cat <<'EOF'\n%s\nEOF\n)\"", g.p.name, comp, d)
	return &act{kind: actRun, cmd: cmd, out: ""}
}

// stashListAct lists the stash; the newest entry's message is d.
func (g *gen) stashListAct(d string) *act {
	branch := "fix/" + kebab(g.words(2)...)
	var b strings.Builder
	fmt.Fprintf(&b, "stash@{0}: On %s: %s\n", branch, d)
	for i := 1; i <= 1+g.r.intn(3); i++ {
		fmt.Fprintf(&b, "stash@{%d}: WIP on %s: %s %s %s\n", i, pick(g.r, []string{"main", branch}), g.r.hex(7), title(pick(g.r, g.p.verbs)), pick(g.r, g.p.comps))
	}
	return &act{kind: actRun, cmd: "git stash list", out: b.String()}
}

// meetingNotesAct prints the notes of the team's last sync; their
// decisions section holds d.
func (g *gen) meetingNotesAct(d string) *act {
	comp := pick(g.r, g.p.comps)
	path := fmt.Sprintf("docs/meetings/2026-04-%02d-%s-sync.md", g.day, g.p.name)
	who := pickN(g.r, practicePeople, 3)
	out := fmt.Sprintf("# %s sync, 2026-04-%02d\n\nAttendees: %s, %s, %s\n\n## Notes\n\n- %s %s\n- %s keeps coming up in on-call handovers\n\n## Decisions\n\n%s\n\n## Action items\n\n- [ ] %s: regression test for %s\n- [ ] %s: update the dashboard\n",
		title(g.p.name), g.day, who[0][0], who[1][0], who[2][0], title(comp), pick(g.r, g.p.issues), title(pick(g.r, g.p.comps)), d, who[0][0], comp, who[1][0])
	return &act{kind: actRun, cmd: "cat " + path, out: out}
}
