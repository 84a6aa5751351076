package corpus

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// drillForms plant the drill half's probes, in surfaces none of the other
// halves' forms use. Most sit in a tool's output, where compaction loses
// them most: gitleaks findings, jscpd clones and `git check-ignore`;
// CircleCI's local executor, Woodpecker, Bitbucket Pipelines, Rake's
// echo and an asciinema recording, and a script written by heredoc; pm2,
// foreman, Cloud Logging, Papertrail, New Relic's NRQL, Splunk and
// Skaffold; Sidekiq's retry set, Prefect flow runs, OpenStack servers,
// cloudflared's log, YARN applications, Cloud Build, Elasticsearch tasks,
// RabbitMQ consumers, Mailgun events, Trino queries, a Redis stream's
// pending entries, Karpenter node claims, ECS tasks, Dataflow jobs,
// Velero backups and Glue job runs, each with the one row that matters
// among routine ones; criterion, pyperf, benchmark.js, fortio and Gatling,
// webpack's assets, mongostat, mpstat, hdparm, `ss -s`, pressure stall
// information, systemd-analyze, Kafka's producer perf test, YCSB,
// pt-query-digest, a Next.js build, a node's allocated resources, table
// sizes and `ceph df`; decisions in a design note, a Gitea review, a
// commit body, a wiki page and a Discourse topic. Constraints come as
// house rules and asides, as everywhere. Each returns its probe as the
// session holds it.
var drillForms = []*form{
	// paths
	{"gitleaks-finding-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "whether a secret slipped into the history"}), g.gitleaksAct(p))
		return p
	}},
	{"jscpd-clone-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "the copy-pasted code"}), g.jscpdAct(p))
		return p
	}},
	{"check-ignore-rule-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "which files git ignores"}), g.checkIgnoreAct(p))
		return p
	}},
	// commands
	{"circleci-local-step-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the CircleCI job locally"}), g.circleciAct(c))
		return c
	}},
	{"woodpecker-step-log-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the Woodpecker pipeline's log"}), g.woodpeckerAct(c))
		return c
	}},
	{"bitbucket-step-log-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the Bitbucket Pipelines step"}), g.bitbucketAct(c))
		return c
	}},
	{"rake-sh-echo-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the rake task"}), g.rakeAct(c))
		return c
	}},
	{"asciinema-cast-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the recorded terminal session"}), g.asciinemaAct(c))
		return c
	}},
	{"heredoc-script-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "a throwaway repro script"}), g.heredocScriptAct(c))
		return c
	}},
	// errors
	{"pm2-error-log-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.pm2LogsAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the pm2 error log"}), a)
		return probe
	}},
	{"foreman-process-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.foremanAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the processes under foreman"}), a)
		return probe
	}},
	{"cloud-logging-payload-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "Cloud Logging"}), g.cloudLoggingAct(e))
		return e
	}},
	{"papertrail-search-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "Papertrail"}), g.papertrailAct(e))
		return e
	}},
	{"nrql-facet-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the error facets in New Relic"}), g.nrqlAct(e))
		return jsonInner(e)
	}},
	{"splunk-rawdata-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.splunkAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the Splunk index"}), a)
		return probe
	}},
	{"skaffold-tail-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.skaffoldAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the Skaffold deploy"}), a)
		return probe
	}},
	// identifiers
	{"sidekiq-retry-jid", "identifier", siteOutput, func(g *gen) string {
		a, id := g.sidekiqRetryAct()
		g.step(g.announce("other", map[string]string{"what": "the Sidekiq retry set"}), a)
		return id
	}},
	{"prefect-flow-run-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.prefectRunsAct()
		g.step(g.announce("other", map[string]string{"what": "the recent flow runs"}), a)
		return id
	}},
	{"openstack-server-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.openstackServersAct()
		g.step(g.announce("other", map[string]string{"what": "the OpenStack servers"}), a)
		return id
	}},
	{"cloudflared-cf-ray", "identifier", siteOutput, func(g *gen) string {
		a, id := g.cloudflaredAct()
		g.step(g.announce("other", map[string]string{"what": "the tunnel's log"}), a)
		return id
	}},
	{"yarn-application-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.yarnAppsAct()
		g.step(g.announce("other", map[string]string{"what": "the YARN applications"}), a)
		return id
	}},
	{"cloud-build-id-flattened", "identifier", siteOutput, func(g *gen) string {
		a, id := g.cloudBuildsAct()
		g.step(g.announce("other", map[string]string{"what": "the recent Cloud Build runs"}), a)
		return id
	}},
	{"es-cat-task-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.esTasksAct()
		g.step(g.announce("other", map[string]string{"what": "the running search cluster tasks"}), a)
		return id
	}},
	{"rabbitmq-consumer-tag", "identifier", siteOutput, func(g *gen) string {
		a, id := g.rabbitConsumersAct()
		g.step(g.announce("other", map[string]string{"what": "the queue consumers"}), a)
		return id
	}},
	{"mailgun-failed-message-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.mailgunEventsAct()
		g.step(g.announce("other", map[string]string{"what": "the failed email deliveries"}), a)
		return id
	}},
	{"trino-query-id-csv", "identifier", siteOutput, func(g *gen) string {
		a, id := g.trinoQueriesAct()
		g.step(g.announce("other", map[string]string{"what": "the recent Trino queries"}), a)
		return id
	}},
	{"redis-xpending-entry-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.xpendingAct()
		g.step(g.announce("other", map[string]string{"what": "the stream's pending entries"}), a)
		return id
	}},
	{"karpenter-nodeclaim-name", "identifier", siteOutput, func(g *gen) string {
		a, id := g.nodeclaimsAct()
		g.step(g.announce("other", map[string]string{"what": "the node claims"}), a)
		return id
	}},
	{"ecs-stopped-task-arn", "identifier", siteOutput, func(g *gen) string {
		a, id := g.ecsTasksAct()
		g.step(g.announce("other", map[string]string{"what": "why the ECS tasks stopped"}), a)
		return id
	}},
	{"dataflow-job-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.dataflowJobsAct()
		g.step(g.announce("other", map[string]string{"what": "the Dataflow jobs"}), a)
		return id
	}},
	{"velero-backup-name", "identifier", siteOutput, func(g *gen) string {
		a, id := g.veleroBackupsAct()
		g.step(g.announce("other", map[string]string{"what": "the cluster backups"}), a)
		return id
	}},
	{"glue-job-run-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.glueRunsAct()
		g.step(g.announce("other", map[string]string{"what": "the Glue job's runs"}), a)
		return id
	}},
	// measurements
	{"microbench-regressed-line", "measurement", siteOutput, func(g *gen) string {
		a, v := g.microbenchAct()
		g.step(g.announce("other", map[string]string{"what": "the micro-benchmarks"}), a)
		return v
	}},
	{"webpack-big-asset", "measurement", siteOutput, func(g *gen) string {
		a, v := g.webpackAct()
		g.step(g.announce("other", map[string]string{"what": "the production bundle"}), a)
		return v
	}},
	{"mongostat-dirty-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.mongostatAct()
		g.step(g.announce("other", map[string]string{"what": "the document store's counters"}), a)
		return v
	}},
	{"mpstat-softirq-cpu", "measurement", siteOutput, func(g *gen) string {
		a, v := g.mpstatAct()
		g.step(g.announce("other", map[string]string{"what": "the per-CPU load"}), a)
		return v
	}},
	{"hdparm-buffered-reads", "measurement", siteOutput, func(g *gen) string {
		a, v := g.hdparmAct()
		g.step(g.announce("other", map[string]string{"what": "raw disk read speed"}), a)
		return v
	}},
	{"ss-summary-tcp", "measurement", siteOutput, func(g *gen) string {
		a, v := g.ssSummaryAct()
		g.step(g.announce("other", map[string]string{"what": "the socket summary"}), a)
		return v
	}},
	{"psi-memory-full", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pressureAct()
		g.step(g.announce("other", map[string]string{"what": "pressure stall information"}), a)
		return v
	}},
	{"systemd-analyze-blame", "measurement", siteOutput, func(g *gen) string {
		a, v := g.systemdAnalyzeAct()
		g.step(g.announce("other", map[string]string{"what": "what slows the boot"}), a)
		return v
	}},
	{"kafka-producer-perf-final", "measurement", siteOutput, func(g *gen) string {
		a, v := g.producerPerfAct()
		g.step(g.announce("other", map[string]string{"what": "producer throughput"}), a)
		return v
	}},
	{"ycsb-update-p99", "measurement", siteOutput, func(g *gen) string {
		a, v := g.ycsbAct()
		g.step(g.announce("other", map[string]string{"what": "the YCSB workload"}), a)
		return v
	}},
	{"pt-query-digest-rank", "measurement", siteOutput, func(g *gen) string {
		a, v := g.queryDigestAct()
		g.step(g.announce("other", map[string]string{"what": "the slow query log"}), a)
		return v
	}},
	{"nextjs-route-size", "measurement", siteOutput, func(g *gen) string {
		a, v := g.nextBuildAct()
		g.step(g.announce("other", map[string]string{"what": "the Next.js route sizes"}), a)
		return v
	}},
	{"node-allocated-cpu", "measurement", siteOutput, func(g *gen) string {
		a, v := g.nodeAllocatedAct()
		g.step(g.announce("other", map[string]string{"what": "how full the node is"}), a)
		return v
	}},
	{"table-size-row", "measurement", siteOutput, func(g *gen) string {
		a, v := g.tableSizesAct()
		g.step(g.announce("other", map[string]string{"what": "the biggest tables"}), a)
		return v
	}},
	{"ceph-pool-usage", "measurement", siteOutput, func(g *gen) string {
		a, v := g.cephDfAct()
		g.step(g.announce("other", map[string]string{"what": "the storage cluster's capacity"}), a)
		return v
	}},
	// decisions
	{"decision-design-note-read", "decision", siteOutput, func(g *gen) string {
		d := g.drillDecisionLine()
		g.step(g.announce("other", map[string]string{"what": "the design note"}), g.designNoteAct(d))
		return d
	}},
	{"decision-gitea-review", "decision", siteOutput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the reviews on the pull request"}), g.giteaReviewsAct(d))
		return d
	}},
	{"decision-commit-body-fuller", "decision", siteOutput, func(g *gen) string {
		d := g.drillDecisionLine()
		g.step(g.announce("other", map[string]string{"what": "the commits that touched this"}), g.fullerLogAct(d))
		return d
	}},
	{"decision-wiki-raw", "decision", siteOutput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the team wiki's decision log"}), g.wikiRawAct(d))
		return d
	}},
	{"decision-discourse-topic", "decision", siteOutput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the forum thread"}), g.discourseAct(d))
		return d
	}},
	// constraints
	{"constraint-task-house-rules", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("\n\nHouse rules for this one:\n1. " + c)
		} else {
			g.say(fmt.Sprintf("\n%d. %s", len(g.userTx)+1, c))
		}
		return c
	}},
	{"constraint-user-boundary", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("One boundary before you go further: " + c)
		return c
	}},
	{"constraint-user-platform-ask", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say("Relaying a request from the platform folks: " + c)
		return c
	}},
}

// drillPeople are the teammates drill surfaces name.
var drillPeople = [][2]string{{"Amara Okafor", "aokafor"}, {"Jonas Lindqvist", "jlindqvist"}, {"Mei Tanaka", "mtanaka"}, {"Rafael Duarte", "rduarte"}, {"Sofia Marchetti", "smarchetti"}}

// drillDecisionLine is a decision of one line: the session's next
// decision whose phrasing has no line break.
func (g *gen) drillDecisionLine() string {
	var d string
	for range len(g.decForms) {
		if d = g.decision(); !strings.Contains(d, "\n") {
			return d
		}
	}
	return strings.ReplaceAll(d, "\n", " ")
}

// drillAlign lays rows out in columns padded to their widest cell,
// joined by gap, trailing blanks trimmed.
func drillAlign(rows [][]string, gap string) string {
	var w []int
	for _, r := range rows {
		for i, c := range r {
			if i >= len(w) {
				w = append(w, 0)
			}
			w[i] = max(w[i], utf8.RuneCountInString(c))
		}
	}
	var b strings.Builder
	for _, r := range rows {
		var cells []string
		for i, c := range r {
			cells = append(cells, c+strings.Repeat(" ", w[i]-utf8.RuneCountInString(c)))
		}
		b.WriteString(strings.TrimRight(strings.Join(cells, gap), " ") + "\n")
	}
	return b.String()
}

// drillWidths returns the widest cell of each column.
func drillWidths(rows [][]string) []int {
	w := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, c := range r {
			w[i] = max(w[i], utf8.RuneCountInString(c))
		}
	}
	return w
}

// drillPad pads s with blanks to n runes.
func drillPad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// drillBoxTable draws rows as Python's cliff and prettytable do, head
// first.
func drillBoxTable(rows [][]string) string {
	w := drillWidths(rows)
	var rule strings.Builder
	rule.WriteString("+")
	for _, n := range w {
		rule.WriteString(strings.Repeat("-", n+2) + "+")
	}
	line := func(r []string) string {
		var b strings.Builder
		b.WriteString("|")
		for i, c := range r {
			b.WriteString(" " + drillPad(c, w[i]) + " |")
		}
		return b.String()
	}
	out := []string{rule.String(), line(rows[0]), rule.String()}
	for _, r := range rows[1:] {
		out = append(out, line(r))
	}
	out = append(out, rule.String())
	return strings.Join(out, "\n") + "\n"
}

// drillRichTable draws rows as Python's rich library does by default (a heavy
// head), with title centred above.
func drillRichTable(title string, rows [][]string) string {
	w := drillWidths(rows)
	rule := func(l, m, r, fill string) string {
		var parts []string
		for _, n := range w {
			parts = append(parts, strings.Repeat(fill, n+2))
		}
		return l + strings.Join(parts, m) + r
	}
	line := func(r []string, edge, mid string) string {
		var parts []string
		for i, c := range r {
			parts = append(parts, " "+drillPad(c, w[i])+" ")
		}
		return edge + strings.Join(parts, mid) + edge
	}
	top := rule("┏", "┳", "┓", "━")
	width := utf8.RuneCountInString(top)
	pad := max(0, (width-len(title))/2)
	out := []string{strings.Repeat(" ", pad) + title, top, line(rows[0], "┃", "┃"), rule("┡", "╇", "┩", "━")}
	for _, r := range rows[1:] {
		out = append(out, line(r, "│", "│"))
	}
	out = append(out, rule("└", "┴", "┘", "─"))
	return strings.Join(out, "\n") + "\n"
}

// drillStamp is an ISO-8601 UTC time on the session's day, advancing with the
// session.
func (g *gen) drillStamp() string {
	h, m, s, _ := g.clock()
	return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02dZ", g.day, h, m, s)
}

// drillDashed is a project word as it appears in a resource name.
func drillDashed(s string) string { return strings.ReplaceAll(s, "_", "-") }

// gitleaksAct scans the history with gitleaks; the one finding is in
// path.
func (g *gen) gitleaksAct(path string) *act {
	who := pick(g.r, drillPeople)
	commit := g.r.hex(40)
	line := 8 + g.r.intn(200)
	secret := "EXAMPLE" + strings.ToUpper(g.r.alnum(17))
	rule := pick(g.r, []string{"generic-api-key", "aws-access-token", "slack-webhook-url"})
	h, m, _, _ := g.clock()
	out := fmt.Sprintf("Finding:     %s_TOKEN = \"%s\"\nSecret:      %s\nRuleID:      %s\nEntropy:     %d.%06d\nFile:        %s\nLine:        %d\nCommit:      %s\nAuthor:      %s\nEmail:       %s@northwind.dev\nDate:        2026-04-%02dT%02d:%02d:%02dZ\nFingerprint: %s:%s:%s:%d\n\n%d:%02dAM INF %d commits scanned.\n%d:%02dAM INF scan completed in %d.%02ds\n%d:%02dAM WRN leaks found: 1\n",
		strings.ToUpper(snake(g.nounWords()...)), secret, secret, rule, 3+g.r.intn(2), g.r.intn(1000000), path, line, commit, who[0], who[1],
		max(g.day-1, 1), 9+g.r.intn(8), g.r.intn(60), g.r.intn(60), commit, path, rule, line,
		h%12, m, 200+g.r.intn(3000), h%12, m, 1+g.r.intn(9), g.r.intn(100), h%12, m)
	return &act{kind: actRun, cmd: "gitleaks detect --source . --no-banner -v", out: out, exit: 1}
}

// jscpdAct looks for duplicated code with jscpd; path is half of a clone.
func (g *gen) jscpdAct(path string) *act {
	format := map[string]string{"go": "go", "python": "python", "ts": "typescript", "rust": "rust", "java": "java"}[g.l.name]
	if format == "" {
		format = "bash"
	}
	var b strings.Builder
	pairs := [][2]string{{path, pick(g.r, g.files)}}
	for k := 0; k < g.r.intn(3); k++ {
		two := pickN(g.r, g.files, 2)
		pairs = append(pairs, [2]string{two[0], two[1]})
	}
	shuffle(g.r, pairs)
	lines, tokens := 0, 0
	for _, p := range pairs {
		from, n := 5+g.r.intn(200), 12+g.r.intn(40)
		other := 5 + g.r.intn(200)
		tok := n * (6 + g.r.intn(5))
		lines += n
		tokens += tok
		fmt.Fprintf(&b, "Clone found (%s):\n - %s [%d:1 - %d:2] (%d lines, %d tokens)\n   %s [%d:1 - %d:2]\n\n", format, p[0], from, from+n, n, tok, p[1], other, other+n)
	}
	total := 2000 + g.r.intn(30000)
	fmt.Fprintf(&b, "┌────────────┬────────────────┬─────────────┬──────────────┬──────────────┬──────────────────┬───────────────────┐\n│ Format     │ Files analyzed │ Total lines │ Total tokens │ Clones found │ Duplicated lines │ Duplicated tokens │\n├────────────┼────────────────┼─────────────┼──────────────┼──────────────┼──────────────────┼───────────────────┤\n│ %-10s │ %-14d │ %-11d │ %-12d │ %-12d │ %-16s │ %-17s │\n└────────────┴────────────────┴─────────────┴──────────────┴──────────────┴──────────────────┴───────────────────┘\nFound %d clones.\n",
		format, 20+g.r.intn(300), total, total*8, len(pairs), fmt.Sprintf("%d (%d.%02d%%)", lines, lines*100/total, g.r.intn(100)), fmt.Sprintf("%d (%d.%02d%%)", tokens, tokens*100/(total*8), g.r.intn(100)), len(pairs))
	return &act{kind: actRun, cmd: "npx jscpd --min-lines 12 --reporters console " + strings.Join(g.p.dirs, " "), out: b.String(), exit: 1}
}

// checkIgnoreAct asks git which tracked and untracked files an ignore
// rule hides; path is hidden by a rule meant for something else.
func (g *gen) checkIgnoreAct(path string) *act {
	base := lastDir(path)
	ext := ""
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		ext = base[i:]
	}
	stem := strings.TrimSuffix(base, ext)
	word := stem
	if i := strings.LastIndexAny(stem, "_-"); i >= 0 {
		word = stem[i+1:]
	}
	var b strings.Builder
	rows := [][2]string{{fmt.Sprintf(".gitignore:%d:*%s%s", 10+g.r.intn(40), word, ext), path}}
	others := [][2]string{{"/dist/", "dist/bundle.js"}, {"*.log", "logs/app.log"}, {"/coverage/", "coverage/lcov.info"}, {".env", ".env"}}
	for i, o := range pickN(g.r, others, 1+g.r.intn(3)) {
		rows = append(rows, [2]string{fmt.Sprintf(".gitignore:%d:%s", 2+i*2+g.r.intn(2), o[0]), o[1]})
	}
	shuffle(g.r, rows)
	for _, r := range rows {
		fmt.Fprintf(&b, "%s\t%s\n", r[0], r[1])
	}
	return &act{kind: actRun, cmd: "git ls-files --cached --others | git check-ignore -v --stdin --no-index", out: b.String()}
}

// circleciAct runs a CircleCI job with the local executor; its repro step
// runs cmd and fails.
func (g *gen) circleciAct(cmd string) *act {
	image := map[string]string{"go": "cimg/go:1.22", "python": "cimg/python:3.12", "ts": "cimg/node:20.12", "rust": "cimg/rust:1.77", "java": "cimg/openjdk:17.0"}[g.l.name]
	if image == "" {
		image = "cimg/postgres:16.2"
	}
	lines := []string{
		"Docker Engine Version: 24.0.7",
		"Kernel Version: Linux 6.5.0-1018-azure x86_64",
		"Starting container " + image,
		"====>> Spin up environment",
		"Build-agent version 1.0.230351-8b5a3fa0 (2026-03-28T14:02:11+0000)",
		"System information:",
		" Server Version: 24.0.7",
		" Operating System: Ubuntu 22.04.4 LTS",
		"Using build environment variables:",
		"  BASH_ENV=/tmp/.bash_env-localbuild-" + fmt.Sprint(1775000000+g.r.intn(900000)),
		"  CIRCLE_BRANCH=fix/" + kebab(g.words(2)...),
		"  CIRCLE_JOB=repro",
		"====>> Checkout code",
		"  #!/bin/sh -eo pipefail",
		"  mkdir -p /home/circleci/project && cd /tmp/_circleci_local_build_repo && git ls-files -z | xargs -0 -s 2090860 tar -c | tar -x -C /home/circleci/project && cp -a /tmp/_circleci_local_build_repo/.git /home/circleci/project",
		"====>> Repro",
		"  #!/bin/bash -eo pipefail",
		"  " + cmd,
	}
	for k := 0; k < int(float64(3+g.r.intn(10))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "debug", "warn"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, g.logLine("error", g.routineError()), "", "Error: Exited with code exit status 1", "", "Step failed", "Error: Task failed")
	return &act{kind: actRun, cmd: "circleci local execute repro", out: strings.Join(lines, "\n") + "\n", exit: 1}
}

// woodpeckerAct shows the log of a Woodpecker pipeline's repro step; the
// generated script echoes each command before it runs.
func (g *gen) woodpeckerAct(cmd string) *act {
	pre, ver := "psql --version", "psql (PostgreSQL) 16.2"
	switch g.l.name {
	case "go":
		pre, ver = "go version", "go version go1.22.2 linux/amd64"
	case "python":
		pre, ver = "python --version", "Python 3.12.3"
	case "ts":
		pre, ver = "node --version", "v20.12.2"
	case "rust":
		pre, ver = "cargo --version", "cargo 1.77.2 (e52e36006 2024-03-26)"
	case "java":
		pre, ver = "mvn --version", "Apache Maven 3.9.6"
	}
	lines := []string{"+ " + pre, ver, "+ " + cmd}
	for k := 0; k < int(float64(3+g.r.intn(12))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "debug"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, g.logLine("error", g.routineError()))
	c := fmt.Sprintf("woodpecker-cli log show northwind/%s %d repro", g.p.name, 300+g.r.intn(900))
	return &act{kind: actRun, cmd: c, out: strings.Join(lines, "\n") + "\n"}
}

// bitbucketAct downloads a Bitbucket Pipelines step's log; the step's
// script ends with cmd.
func (g *gen) bitbucketAct(cmd string) *act {
	sha := g.r.hex(40)
	lines := []string{
		"+ umask 000",
		"",
		"+ GIT_LFS_SKIP_SMUDGE=1 retry 6 git clone --branch=\"fix/" + kebab(g.words(2)...) + "\" --depth 50 https://x-token-auth:$REPOSITORY_OAUTH_ACCESS_TOKEN@bitbucket.org/$BITBUCKET_REPO_FULL_NAME.git $BUILD_DIR",
		"Cloning into '/opt/atlassian/pipelines/agent/build'...",
		"",
		"+ git reset --hard " + sha,
		"HEAD is now at " + sha[:7] + " " + title(pick(g.r, g.p.verbs)) + " " + pick(g.r, g.p.comps),
		"",
		"+ git config user.name bitbucket-pipelines",
		"",
		"+ git config user.email commits-noreply@bitbucket.org",
		"",
		"+ git config push.default current",
		"",
		"+ " + g.testCmd(pick(g.r, g.testTargets)),
		"ok",
		"",
		"+ " + cmd,
	}
	for k := 0; k < int(float64(3+g.r.intn(12))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, g.logLine("error", g.routineError()), "", "Searching for test report files in directories named [test-results, failsafe-reports, test-reports, TestResults, surefire-reports] down to a depth of 4", "Finished scanning for test reports. Found 0 test report files.")
	c := fmt.Sprintf("curl -sS -u \"$BB_USER:$BB_APP_PASSWORD\" -L 'https://api.bitbucket.org/2.0/repositories/northwind/%s/pipelines/%%7B%s%%7D/steps/%%7B%s%%7D/log'", g.p.name, g.r.uuid(), g.r.uuid())
	return &act{kind: actRun, cmd: c, out: strings.Join(lines, "\n") + "\n"}
}

// rakeAct runs a rake task whose sh call runs cmd: rake echoes the
// command, then fails with the first 42 characters of it.
func (g *gen) rakeAct(cmd string) *act {
	show := cmd
	if len(show) > 42 {
		show = show[:42] + "..."
	}
	lines := []string{cmd}
	for k := 0; k < int(float64(2+g.r.intn(10))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, "rake aborted!", fmt.Sprintf("Command failed with status (1): [%s]", show),
		fmt.Sprintf("%s/Rakefile:%d:in `block (2 levels) in <top (required)>'", g.root, 10+g.r.intn(40)),
		"/usr/local/bundle/gems/rake-13.1.0/exe/rake:27:in `<top (required)>'", "Tasks: TOP => debug:repro", "(See full trace by running task with --trace)")
	return &act{kind: actRun, cmd: "bundle exec rake debug:repro", out: strings.Join(lines, "\n") + "\n", exit: 1}
}

// asciinemaAct prints a terminal recording a teammate made of the
// failure; the command they typed is cmd.
func (g *gen) asciinemaAct(cmd string) *act {
	who := pick(g.r, drillPeople)
	prompt := fmt.Sprintf("%s@%s:~/src/%s$ ", who[1], g.p.name+"-dev", g.p.name)
	lines := []string{prompt + "git log --oneline -1", g.r.hex(7) + " " + title(pick(g.r, g.p.verbs)) + " " + pick(g.r, g.p.comps), prompt + cmd}
	for k := 0; k < int(float64(3+g.r.intn(10))*g.scale); k++ {
		lines = append(lines, g.logLine(pick(g.r, []string{"info", "info", "debug"}), pick(g.r, routineLogMsgs)))
	}
	lines = append(lines, g.logLine("error", g.routineError()), prompt+"echo $?", "1", prompt+"exit", "exit")
	return &act{kind: actRun, cmd: fmt.Sprintf("asciinema cat /tmp/%s-repro-%d.cast", who[1], 1+g.r.intn(9)), out: strings.Join(lines, "\r\n") + "\r\n"}
}

// heredocScriptAct writes a repro script with a heredoc and runs it; the
// script's last line is cmd.
func (g *gen) heredocScriptAct(cmd string) *act {
	name := fmt.Sprintf("/tmp/repro-%s.sh", kebab(g.nounWords()...))
	c := fmt.Sprintf("tee %s >/dev/null <<'SH'\n#!/usr/bin/env bash\nset -euo pipefail\ncd %s\nexport LOG_LEVEL=debug\n%s\nSH\nchmod +x %s && %s", name, g.root, cmd, name, name)
	a := g.runAct(cmd)
	a.cmd = c
	return a
}

// pm2LogsAct reads a pm2 app's error log; one line is e. It returns e as
// that line holds it.
func (g *gen) pm2LogsAct(e string) (*act, string) {
	app := pick(g.r, g.p.hosts)
	n := int(float64(10+g.r.intn(30)) * g.scale)
	at := n/4 + g.r.intn(n/2+1)
	var b strings.Builder
	fmt.Fprintf(&b, "[TAILING] Tailing last %d lines for [%s] process (change the value with --lines option)\n/home/deploy/.pm2/logs/%s-error.log last %d lines:\n", n, app, app, n)
	var bad string
	for i := 0; i < n; i++ {
		line := g.logLine(pick(g.r, []string{"warn", "warn", "error"}), g.routineError())
		if i == at {
			bad = g.logLine("error", e)
			line = bad
		}
		fmt.Fprintf(&b, "%d|%s | %s\n", g.r.intn(2), app, line)
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("pm2 logs %s --err --lines %d --nostream", app, n), out: b.String()}, asLogged(bad, e)
}

// foremanAct runs the app's processes under foreman until the worker
// dies with e. It returns e as that line holds it.
func (g *gen) foremanAct(e string) (*act, string) {
	procs := []string{"web.1", "worker.1", "clock.1"}
	w := 8
	row := func(p, text string) string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("%02d:%02d:%02d %-*s | %s", h, m, s, w, p, text)
	}
	var lines []string
	for _, p := range procs {
		lines = append(lines, row(p, fmt.Sprintf("started with pid %d", 40000+g.r.intn(20000))))
	}
	for k := 0; k < int(float64(6+g.r.intn(20))*g.scale); k++ {
		lines = append(lines, row(pick(g.r, procs), g.logLine(pick(g.r, []string{"info", "info", "debug", "warn"}), pick(g.r, routineLogMsgs))))
	}
	bad := g.logLine("error", e)
	lines = append(lines, row("worker.1", bad), row("worker.1", "exited with code 1"), row("system", "sending SIGTERM to all processes"),
		row("clock.1", "terminated by SIGTERM"), row("web.1", "terminated by SIGTERM"))
	return &act{kind: actRun, cmd: "foreman start -f Procfile.dev", out: strings.Join(lines, "\n") + "\n", exit: 1}, asLogged(bad, e)
}

// cloudLoggingAct reads a Cloud Run service's warnings and errors from
// Cloud Logging as tab-separated values; one payload is e.
func (g *gen) cloudLoggingAct(e string) *act {
	svc := pick(g.r, g.p.hosts)
	n := int(float64(8+g.r.intn(25)) * g.scale)
	at := g.r.intn(n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		sev, payload := pick(g.r, []string{"WARNING", "WARNING", "ERROR"}), g.routineError()
		if sev == "WARNING" {
			payload = pick(g.r, []string{"The request was aborted because there was no available instance.", "Container called exit(0).", "Readiness probe failed: HTTP probe failed with statuscode: 503"})
		}
		if i == at {
			sev, payload = "ERROR", e
		}
		h, m, s, ms := g.clock()
		fmt.Fprintf(&b, "2026-04-%02dT%02d:%02d:%02d.%03d%03dZ\t%s\t%s\n", g.day, h, m, s, ms, g.r.intn(1000), sev, payload)
	}
	cmd := fmt.Sprintf("gcloud logging read 'resource.type=\"cloud_run_revision\" AND resource.labels.service_name=\"%s\" AND severity>=WARNING' --freshness=2h --limit=%d --format='value(timestamp,severity,textPayload)'", svc, n)
	return &act{kind: actRun, cmd: cmd, out: b.String()}
}

// papertrailAct searches Papertrail for the last hour's errors; one event
// is e.
func (g *gen) papertrailAct(e string) *act {
	n := int(float64(8+g.r.intn(25)) * g.scale)
	at := g.r.intn(n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		msg := g.routineError()
		if i == at {
			msg = e
		}
		h, m, s, _ := g.clock()
		host := pick(g.r, g.p.hosts)
		fmt.Fprintf(&b, "Apr %02d %02d:%02d:%02d %s-%d %s: %s\n", g.day, h, m, s, host, 1+g.r.intn(3), host, msg)
	}
	return &act{kind: actRun, cmd: "papertrail --min-time '1 hour ago' -g 'Production' 'error OR fatal OR exception'", out: b.String()}
}

// nrqlAct facets the last hour's transaction errors by message in New
// Relic; one facet is e.
func (g *gen) nrqlAct(e string) *act {
	app := pick(g.r, g.p.hosts)
	var items []string
	for k := 0; k < 2+g.r.intn(4); k++ {
		items = append(items, fmt.Sprintf("{\"count\":%d,\"error.message\":%s}", 200+g.r.intn(9000), jstr(g.routineError())))
	}
	items = append(items, fmt.Sprintf("{\"count\":%d,\"error.message\":%s}", 1+g.r.intn(30), jstr(e)))
	cmd := fmt.Sprintf("newrelic nrql query --accountId %d --query \"SELECT count(*) FROM TransactionError WHERE appName = '%s' FACET error.message SINCE 1 hour ago LIMIT 10\" | jq -c '.[]'", 3000000+g.r.intn(900000), app)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(items, "\n") + "\n"}
}

// splunkAct searches an index's raw events from the command line; one
// event is e. It returns e as that event holds it.
func (g *gen) splunkAct(e string) (*act, string) {
	bad := g.logLine("error", e)
	a := &act{kind: actRun, out: g.logs(int(float64(15+g.r.intn(40))*g.scale), bad)}
	a.cmd = fmt.Sprintf("splunk search 'index=prod sourcetype=%s (log_level=ERROR OR level=error) earliest=-60m' -output rawdata -maxout 500 -auth \"$SPLUNK_USER:$SPLUNK_PASSWORD\"", pick(g.r, g.p.hosts))
	return a, asLogged(bad, e)
}

// skaffoldAct deploys with skaffold and tails the pod that crashes with
// e. It returns e as that line holds it.
func (g *gen) skaffoldAct(e string) (*act, string) {
	svc := pick(g.r, g.p.hosts)
	pod := fmt.Sprintf("%s-%s-%s", svc, g.r.hex(9)[:9], g.r.alnum(5))
	sha := g.r.hex(7)
	lines := []string{"Generating tags...", fmt.Sprintf(" - %s -> registry.northwind.dev/%s:%s-dirty", svc, svc, sha), "Checking cache...", fmt.Sprintf(" - %s: Not found. Building", svc),
		"Starting build...", fmt.Sprintf("Building [%s]...", svc), "Build [" + svc + "] succeeded", "Starting deploy...", fmt.Sprintf(" - deployment.apps/%s configured", svc), "Waiting for deployments to stabilize..."}
	for k := 0; k < int(float64(4+g.r.intn(12))*g.scale); k++ {
		lines = append(lines, fmt.Sprintf("[%s %s] %s", pod, svc, g.logLine(pick(g.r, []string{"info", "info", "debug"}), pick(g.r, routineLogMsgs))))
	}
	bad := g.logLine("error", e)
	lines = append(lines, fmt.Sprintf("[%s %s] %s", pod, svc, bad),
		fmt.Sprintf(" - deployment/%s: container %s terminated with exit code 1", svc, svc),
		fmt.Sprintf("    - pod/%s: container %s terminated with exit code 1", pod, svc),
		fmt.Sprintf(" - deployment/%s failed. Error: container %s terminated with exit code 1.", svc, svc),
		"Cleaning up...", "1/1 deployment(s) failed")
	return &act{kind: actRun, cmd: "skaffold run --tail --port-forward=false", out: strings.Join(lines, "\n") + "\n", exit: 1}, asLogged(bad, e)
}

// sidekiqRetryAct lists Sidekiq's retry set through jq, one object a
// line; the job close to running out of retries is the probe.
func (g *gen) sidekiqRetryAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return g.r.hex(24) })
	n := 4 + g.r.intn(5)
	at := g.r.intn(n)
	base := 1775001600 + (g.day-1)*86400 + 8*3600
	var b strings.Builder
	for i := 0; i < n; i++ {
		jid, count, class := g.r.hex(24), g.r.intn(3), pick(g.r, []string{"Net::ReadTimeout", "Faraday::ConnectionFailed", "Redis::TimeoutError"})
		if i == at {
			jid, count, class = id, 17+g.r.intn(7), pick(g.r, []string{"ActiveRecord::RecordNotUnique", "JSON::ParserError", "NoMethodError", "Aws::S3::Errors::NoSuchKey"})
		}
		fmt.Fprintf(&b, "{\"jid\":%s,\"class\":%s,\"queue\":%s,\"retry_count\":%d,\"error_class\":%s,\"failed_at\":%d.%03d}\n",
			jstr(jid), jstr(pascal(g.nounWords()...)+pick(g.r, []string{"SyncJob", "Job", "Worker"})), jstr(pick(g.r, []string{"default", "default", "critical", "low"})), count, jstr(class), base+g.r.intn(3600), g.r.intn(1000))
	}
	cmd := "redis-cli -h sidekiq-redis ZRANGE retry 0 -1 | jq -c '{jid, class, queue, retry_count, error_class, failed_at}'"
	return &act{kind: actRun, cmd: cmd, out: b.String()}, id
}

// prefectRunsAct lists Prefect flow runs as rich draws them; the failed
// run's id is the probe.
func (g *gen) prefectRunsAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return g.r.uuid() })
	adj := []string{"crimson", "azure", "gentle", "brisk", "quiet", "amber", "lucky", "fuzzy"}
	animal := []string{"okapi", "heron", "lynx", "marmot", "gecko", "ibis", "tapir", "wombat"}
	flow := kebab(pick(g.r, g.p.verbs), drillDashed(pick(g.r, g.p.nouns)))
	n := 4 + g.r.intn(5)
	at := 1 + g.r.intn(n-1)
	rows := [][]string{{"ID", "Flow", "Name", "State", "When"}}
	for i := 0; i < n; i++ {
		rid, state := g.r.uuid(), "COMPLETED"
		when := fmt.Sprintf("%d hours ago", i+1)
		if i == 0 {
			state, when = "RUNNING", "4 minutes ago"
		}
		if i == at {
			rid, state = id, "FAILED"
		}
		rows = append(rows, []string{rid, flow, pick(g.r, adj) + "-" + pick(g.r, animal), state, when})
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("prefect flow-run ls --flow-name %s --limit %d", flow, n), out: drillRichTable("Flow Runs", rows)}, id
}

// openstackServersAct lists the project's OpenStack servers; the one in
// ERROR is the probe.
func (g *gen) openstackServersAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return g.r.uuid() })
	n := 3 + g.r.intn(4)
	at := g.r.intn(n)
	rows := [][]string{{"ID", "Name", "Status", "Networks", "Image", "Flavor"}}
	for i := 0; i < n; i++ {
		sid, status, net := g.r.uuid(), "ACTIVE", fmt.Sprintf("private=10.20.%d.%d", g.r.intn(8), 2+g.r.intn(250))
		if i == at {
			sid, status, net = id, "ERROR", ""
		}
		rows = append(rows, []string{sid, fmt.Sprintf("%s-%d", pick(g.r, g.p.hosts), i+1), status, net, pick(g.r, []string{"ubuntu-22.04", "ubuntu-24.04", "debian-12"}), pick(g.r, []string{"m1.large", "m1.xlarge", "c2.medium"})})
	}
	return &act{kind: actRun, cmd: "openstack server list --sort-column Name", out: drillBoxTable(rows)}, id
}

// cloudflaredAct reads the tunnel's debug log; the request the origin
// refused is logged with its ray id, the probe.
func (g *gen) cloudflaredAct() (*act, string) {
	colo := pick(g.r, []string{"AMS", "FRA", "LHR", "CDG"})
	ray := func() string { return g.r.hex(16) + "-" + colo }
	id := g.uniq(func(g *gen) string { return ray() })
	host := fmt.Sprintf("%s.northwind.dev", pick(g.r, g.p.hosts))
	origin := "http://localhost:8080"
	var lines []string
	lines = append(lines, fmt.Sprintf("%s INF Starting tunnel tunnelID=%s", g.drillStamp(), g.r.uuid()), g.drillStamp()+" INF Version 2024.4.1")
	for c := 0; c < 4; c++ {
		lines = append(lines, fmt.Sprintf("%s INF Registered tunnel connection connIndex=%d connection=%s event=0 ip=198.41.%d.%d location=%s0%d protocol=quic", g.drillStamp(), c, g.r.uuid(), 192+g.r.intn(8), 2+g.r.intn(250), strings.ToLower(colo), 1+g.r.intn(9)))
	}
	n := int(float64(4+g.r.intn(12)) * g.scale)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		path := fmt.Sprintf("/v1/%ss/%d", drillDashed(pick(g.r, g.p.nouns)), 1000+g.r.intn(90000))
		conn := g.r.intn(4)
		if i == at {
			msg := "Unable to reach the origin service. The service may be down or it may not be responding to traffic from cloudflared: dial tcp 127.0.0.1:8080: connect: connection refused"
			lines = append(lines, fmt.Sprintf("%s ERR  error=\"%s\" cfRay=%s event=1 ingressRule=0 originService=%s", g.drillStamp(), msg, id, origin),
				fmt.Sprintf("%s ERR Request failed error=\"%s\" connIndex=%d dest=https://%s%s event=0 ip=198.41.%d.%d type=http", g.drillStamp(), msg, conn, host, path, 192+g.r.intn(8), 2+g.r.intn(250)))
			continue
		}
		r := ray()
		lines = append(lines, fmt.Sprintf("%s DBG GET https://%s%s HTTP/1.1 cfRay=%s connIndex=%d event=1 ingressRule=0 originService=%s", g.drillStamp(), host, path, r, conn, origin),
			fmt.Sprintf("%s DBG 200 OK cfRay=%s connIndex=%d content-length=%d event=1 ingressRule=0 originService=%s", g.drillStamp(), r, conn, 100+g.r.intn(9000), origin))
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("journalctl -u cloudflared --since '30 min ago' -o cat | tail -n %d", len(lines)), out: strings.Join(lines, "\n") + "\n"}, id
}

// yarnAppsAct lists YARN applications in every state; the failed Spark
// application's id is the probe.
func (g *gen) yarnAppsAct() (*act, string) {
	cluster := 1775000000000 + int64(g.r.intn(900000000))
	seq := 30 + g.r.intn(9000)
	n := 4 + g.r.intn(4)
	at := g.r.intn(n)
	var id string
	row := func(cells ...any) string {
		return fmt.Sprintf("%30s\t%20s\t%20s\t%10s\t%10s\t%18s\t%18s\t%15s\t%35s", cells...)
	}
	var b strings.Builder
	h, m, s, ms := g.clock()
	fmt.Fprintf(&b, "2026-04-%02d %02d:%02d:%02d,%03d INFO client.DefaultNoHARMFailoverProxyProvider: Connecting to ResourceManager at rm-1.internal/10.0.1.5:8032\n", g.day, h, m, s, ms)
	fmt.Fprintf(&b, "Total number of applications (application-types: [], states: [FINISHED, FAILED, KILLED, RUNNING] and tags: []):%d\n", n)
	b.WriteString(row("Application-Id", "Application-Name", "Application-Type", "User", "Queue", "State", "Final-State", "Progress", "Tracking-URL") + "\n")
	for i := 0; i < n; i++ {
		app := fmt.Sprintf("application_%d_%04d", cluster, seq+n-i)
		state, final, prog := "FINISHED", "SUCCEEDED", "100%"
		if i == 0 {
			state, final, prog = "RUNNING", "UNDEFINED", fmt.Sprintf("%d%%", 10+g.r.intn(80))
		}
		if i == at {
			id = g.uniq(func(g *gen) string { return app })
			state, final = "FAILED", "FAILED"
		}
		b.WriteString(row(app, kebab(pick(g.r, g.p.verbs), drillDashed(pick(g.r, g.p.nouns))), "SPARK", "hadoop", pick(g.r, []string{"default", "etl"}), state, final, prog, "http://rm-1.internal:8088/proxy/"+app+"/") + "\n")
	}
	return &act{kind: actRun, cmd: "yarn application -list -appStates FINISHED,FAILED,KILLED,RUNNING", out: b.String()}, id
}

// cloudBuildsAct lists recent Cloud Build runs in gcloud's flattened
// format; the failed build's id is the probe.
func (g *gen) cloudBuildsAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return g.r.uuid() })
	n := 3 + g.r.intn(4)
	at := g.r.intn(n)
	keys := []string{"id", "status", "createTime", "substitutions.BRANCH_NAME", "substitutions.SHORT_SHA"}
	var b strings.Builder
	for i := 0; i < n; i++ {
		bid, status := g.r.uuid(), "SUCCESS"
		if i == at {
			bid, status = id, pick(g.r, []string{"FAILURE", "TIMEOUT"})
		}
		h, m, s, _ := g.clock()
		vals := []string{bid, status, fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%06dZ", g.day, h, m, s, g.r.intn(1000000)), pick(g.r, []string{"main", "main", "fix/" + kebab(g.words(2)...)}), g.r.hex(7)}
		b.WriteString("---\n")
		for k, key := range keys {
			fmt.Fprintf(&b, "%-26s %s\n", key+":", vals[k])
		}
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("gcloud builds list --limit=%d --format='flattened(id,status,createTime,substitutions.BRANCH_NAME,substitutions.SHORT_SHA)'", n), out: b.String()}, id
}

// esTasksAct lists a search cluster's tasks; the reindex that has run
// for hours is the probe.
func (g *gen) esTasksAct() (*act, string) {
	nodes := []string{g.r.b62(22), g.r.b62(22), g.r.b62(22)}
	host := g.p.name + "-es"
	start := int64(1775001600+(g.day-1)*86400+8*3600) * 1000
	var id string
	rows := [][]string{{"action", "task_id", "parent_task_id", "type", "start_time", "timestamp", "running_time", "ip", "node"}}
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		ni := g.r.intn(len(nodes))
		action, run, t := pick(g.r, []string{"indices:data/read/search", "indices:data/read/search[phase/query]", "cluster:monitor/nodes/stats", "indices:data/write/bulk"}), fmt.Sprintf("%d.%dms", 1+g.r.intn(900), g.r.intn(10)), start+int64(g.r.intn(1000000))
		tid := fmt.Sprintf("%s:%d", nodes[ni], 1000+g.r.intn(9000000))
		if i == at {
			id = g.uniq(func(g *gen) string { return fmt.Sprintf("%s:%d", nodes[ni], 1000+g.r.intn(9000000)) })
			tid, action, run, t = id, "indices:data/write/reindex", fmt.Sprintf("%d.%dh", 2+g.r.intn(9), g.r.intn(10)), start-int64(3600000*(2+g.r.intn(8))+g.r.intn(3600000))
		}
		ts := fmt.Sprintf("%02d:%02d:%02d", t/3600000%24, t/60000%60, t/1000%60)
		rows = append(rows, []string{action, tid, "-", "transport", fmt.Sprint(t), ts, run, fmt.Sprintf("10.0.2.%d", 10+ni), fmt.Sprintf("%s-data-%d", host, ni+1)})
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("curl -s 'http://%s:9200/_cat/tasks?v'", host), out: drillAlign(rows, " ")}, id
}

// rabbitConsumersAct lists a vhost's consumers; the one whose node is
// suspected down is the probe.
func (g *gen) rabbitConsumersAct() (*act, string) {
	tag := func() string { return "amq.ctag-" + g.r.b62(22) }
	id := g.uniq(func(g *gen) string { return tag() })
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	var b strings.Builder
	b.WriteString("Listing consumers in vhost / ...\nqueue_name\tchannel_pid\tconsumer_tag\tack_required\tprefetch_count\tactive\tactivity_status\targuments\n")
	for i := 0; i < n; i++ {
		t, active, status := tag(), "true", "up"
		if i == at {
			t, active, status = id, "false", "suspected_down"
		}
		fmt.Fprintf(&b, "%s.%s\t<rabbit@mq-%d.%d.%d.0>\t%s\ttrue\t%d\t%s\t%s\t[]\n", g.p.name, drillDashed(pick(g.r, g.p.nouns)), 1+g.r.intn(3), 1775000000+g.r.intn(900000), 100+g.r.intn(9000), t, pick(g.r, []int{10, 50, 250}), active, status)
	}
	return &act{kind: actRun, cmd: "sudo rabbitmqctl list_consumers -p /", out: b.String()}, id
}

// mailgunEventsAct lists failed deliveries through jq; the permanent
// failure's message id is the probe.
func (g *gen) mailgunEventsAct() (*act, string) {
	domain := "mg.northwind.dev"
	msgID := func() string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("202604%02d%02d%02d%02d.%s@%s", g.day, h, m, s, g.r.hex(16), domain)
	}
	id := g.uniq(func(g *gen) string { return msgID() })
	n := 3 + g.r.intn(4)
	at := g.r.intn(n)
	var items []string
	for i := 0; i < n; i++ {
		mid, sev, reason := msgID(), "temporary", "generic"
		if i == at {
			mid, sev, reason = id, "permanent", "bounce"
		}
		items = append(items, fmt.Sprintf("{\n  \"event\": \"failed\",\n  \"severity\": %s,\n  \"recipient\": %s,\n  \"reason\": %s,\n  \"message\": %s\n}",
			jstr(sev), jstr(fmt.Sprintf("%s.%d@example.com", drillDashed(pick(g.r, g.p.nouns)), 10+g.r.intn(900))), jstr(reason), jstr(mid)))
	}
	cmd := fmt.Sprintf("curl -s --user \"api:$MAILGUN_API_KEY\" 'https://api.eu.mailgun.net/v3/%s/events?event=failed&limit=%d' | jq '.items[] | {event, severity, recipient, reason, message: .message.headers[\"message-id\"]}'", domain, n)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(items, "\n") + "\n"}, id
}

// trinoQueriesAct lists the last hour's queries as CSV; the failed
// query's id is the probe.
func (g *gen) trinoQueriesAct() (*act, string) {
	coord := g.r.alnum(5)
	seq := 100 + g.r.intn(90000)
	qid := func(i int) string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("202604%02d_%02d%02d%02d_%05d_%s", g.day, h, m, s, seq-i, coord)
	}
	n := 4 + g.r.intn(5)
	at := g.r.intn(n)
	var b strings.Builder
	b.WriteString("\"query_id\",\"state\",\"source\",\"error_code\",\"queued_time_ms\"\n")
	var id string
	for i := 0; i < n; i++ {
		q, state, code := qid(i), "FINISHED", ""
		if i == at {
			id = g.uniq(func(g *gen) string { return q })
			state, code = "FAILED", pick(g.r, []string{"EXCEEDED_TIME_LIMIT", "EXCEEDED_LOCAL_MEMORY_LIMIT", "HIVE_METASTORE_ERROR"})
		}
		fmt.Fprintf(&b, "\"%s\",\"%s\",\"%s\",\"%s\",\"%d\"\n", q, state, pick(g.r, []string{"trino-cli", "dbt", "superset"}), code, g.r.intn(400))
	}
	cmd := fmt.Sprintf("trino --server https://trino.northwind.dev --output-format CSV_HEADER --execute \"SELECT query_id, state, source, error_code, queued_time_ms FROM system.runtime.queries WHERE created > now() - INTERVAL '1' HOUR ORDER BY created DESC LIMIT %d\"", n)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, id
}

// xpendingAct lists a Redis stream's pending entries; the one delivered
// over and over is the probe.
func (g *gen) xpendingAct() (*act, string) {
	stream := drillDashed(pick(g.r, g.p.nouns)) + ":events"
	group := pick(g.r, g.p.hosts)
	ms := int64(1775001600+(g.day-1)*86400+8*3600) * 1000
	entry := func() string { return fmt.Sprintf("%d-%d", ms+int64(g.r.intn(3600000)), g.r.intn(3)) }
	id := g.uniq(func(g *gen) string { return entry() })
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		e, idle, count := entry(), 1000+g.r.intn(60000), 1
		if i == at {
			e, idle, count = id, 3600000+g.r.intn(9000000), 9+g.r.intn(20)
		}
		fmt.Fprintf(&b, "%d) 1) \"%s\"\n   2) \"%s-%d\"\n   3) (integer) %d\n   4) (integer) %d\n", i+1, e, group, 1+g.r.intn(4), idle, count)
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("redis-cli --no-raw -h %s-redis XPENDING %s %s - + 10", g.p.name, stream, group), out: b.String()}, id
}

// nodeclaimsAct lists Karpenter's node claims; the one that never became
// ready is the probe.
func (g *gen) nodeclaimsAct() (*act, string) {
	pool := pick(g.r, []string{"default", "general", "batch"})
	name := func() string { return pool + "-" + g.r.alnum(5) }
	id := g.uniq(func(g *gen) string { return name() })
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	rows := [][]string{{"NAME", "TYPE", "CAPACITY", "ZONE", "NODE", "READY", "AGE"}}
	for i := 0; i < n; i++ {
		zone := "eu-west-1" + pick(g.r, []string{"a", "b", "c"})
		nm, node, ready, age := name(), fmt.Sprintf("ip-10-0-%d-%d.eu-west-1.compute.internal", g.r.intn(16), 2+g.r.intn(250)), "True", fmt.Sprintf("%dd", 1+g.r.intn(20))
		if i == at {
			nm, node, ready, age = id, "", "False", fmt.Sprintf("%dm", 12+g.r.intn(40))
		}
		rows = append(rows, []string{nm, pick(g.r, []string{"m6i.xlarge", "c6i.2xlarge", "r6i.large", "m7g.xlarge"}), pick(g.r, []string{"on-demand", "spot"}), zone, node, ready, age})
	}
	return &act{kind: actRun, cmd: "kubectl get nodeclaims", out: drillAlign(rows, "   ")}, id
}

// ecsTasksAct describes a service's stopped tasks as YAML; the task the
// kernel killed for memory is the probe.
func (g *gen) ecsTasksAct() (*act, string) {
	cluster := g.p.name + "-prod"
	acct := fmt.Sprintf("arn:aws:ecs:eu-west-1:%d:", 210000000000+g.r.intn(9000000))
	mk := func() string { return fmt.Sprintf("%stask/%s/%s", acct, cluster, g.r.hex(32)) }
	id := g.uniq(func(g *gen) string { return mk() })
	n := 3 + g.r.intn(4)
	at := g.r.intn(n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		t, code, reason := mk(), "ServiceSchedulerInitiated", fmt.Sprintf("Scaling activity initiated by (deployment ecs-svc/%d)", 1000000000000000000+g.r.intn(900000000))
		if i == at {
			t, code, reason = id, "EssentialContainerExited", "'OutOfMemoryError: Container killed due to memory usage'"
		}
		fmt.Fprintf(&b, "- taskArn: %s\n  lastStatus: STOPPED\n  stopCode: %s\n  stoppedReason: %s\n", t, code, reason)
	}
	svc := pick(g.r, g.p.hosts)
	cmd := fmt.Sprintf("aws ecs describe-tasks --cluster %s --tasks $(aws ecs list-tasks --cluster %s --service-name %s --desired-status STOPPED --query 'taskArns' --output text) --query 'tasks[].{taskArn: taskArn, lastStatus: lastStatus, stopCode: stopCode, stoppedReason: stoppedReason}' --output yaml", cluster, cluster, svc)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, id
}

// dataflowJobsAct lists a region's Dataflow jobs; the failed one's id is
// the probe.
func (g *gen) dataflowJobsAct() (*act, string) {
	jobID := func(day int) string {
		h, m, s, _ := g.clock()
		return fmt.Sprintf("2026-04-%02d_%02d_%02d_%02d-%d%09d", day, (h+17)%24, m, s, 1000000000+g.r.intn(900000000), g.r.intn(1000000000))
	}
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	var id string
	rows := [][]string{{"JOB_ID", "NAME", "TYPE", "CREATION_TIME", "STATE", "REGION"}}
	for i := 0; i < n; i++ {
		day := max(g.day-i, 1)
		jid, state := jobID(day), "Done"
		if i == 0 {
			state = "Running"
		}
		if i == at {
			id = g.uniq(func(g *gen) string { return jobID(day) })
			jid, state = id, "Failed"
		}
		h, m, s, _ := g.clock()
		rows = append(rows, []string{jid, fmt.Sprintf("%s-export-202604%02d", drillDashed(pick(g.r, g.p.nouns)), day), "Batch", fmt.Sprintf("2026-04-%02d %02d:%02d:%02d", day, h, m, s), state, "europe-west1"})
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("gcloud dataflow jobs list --region=europe-west1 --status=all --limit=%d", n), out: drillAlign(rows, "  ")}, id
}

// veleroBackupsAct lists the cluster's backups; the partially failed
// one's name is the probe.
func (g *gen) veleroBackupsAct() (*act, string) {
	sched := pick(g.r, []string{"nightly", "daily-full", "ns-" + g.p.name})
	name := func(day int) string {
		return fmt.Sprintf("%s-202604%02d02%02d%02d", sched, day, g.r.intn(60), g.r.intn(60))
	}
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	var id string
	rows := [][]string{{"NAME", "STATUS", "ERRORS", "WARNINGS", "CREATED", "EXPIRES", "STORAGE LOCATION", "SELECTOR"}}
	for i := 0; i < n; i++ {
		day := max(g.day-i, 1)
		nm, status, errs, warns := name(day), "Completed", "0", fmt.Sprint(g.r.intn(2))
		if i == at {
			id = g.uniq(func(g *gen) string { return name(day) })
			nm, status, errs = id, "PartiallyFailed", fmt.Sprint(1+g.r.intn(12))
		}
		rows = append(rows, []string{nm, status, errs, warns, fmt.Sprintf("2026-04-%02d 02:00:%02d +0000 UTC", day, g.r.intn(60)), fmt.Sprintf("%dd", 29-i), "default", "<none>"})
	}
	return &act{kind: actRun, cmd: "velero backup get", out: drillAlign(rows, "   ")}, id
}

// glueRunsAct lists a Glue job's runs as the AWS CLI's text output; the
// failed run's id is the probe.
func (g *gen) glueRunsAct() (*act, string) {
	job := g.p.name + "-" + drillDashed(pick(g.r, g.p.nouns)) + "-etl"
	id := g.uniq(func(g *gen) string { return "jr_" + g.r.hex(64) })
	n := 3 + g.r.intn(5)
	at := g.r.intn(n)
	var b strings.Builder
	for i := 0; i < n; i++ {
		rid, state, msg := "jr_"+g.r.hex(64), "SUCCEEDED", "None"
		if i == at {
			rid, state, msg = id, "FAILED", pick(g.r, []string{"Command failed with exit code 1", "Job run timed out", "An error occurred while calling o112.pyWriteDynamicFrame. Job aborted due to stage failure"})
		}
		fmt.Fprintf(&b, "%s\t%s\t2026-04-%02dT02:%02d:%02d.%06d+00:00\t%d\t%s\n", rid, state, max(g.day-i, 1), g.r.intn(60), g.r.intn(60), g.r.intn(1000000), 60+g.r.intn(2000), msg)
	}
	cmd := fmt.Sprintf("aws glue get-job-runs --job-name %s --max-items %d --query 'JobRuns[].[Id,JobRunState,StartedOn,ExecutionTime,ErrorMessage]' --output text", job, n)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, id
}

// drillCommas writes n with thousands separators.
func drillCommas(n int) string {
	s := fmt.Sprint(n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// drillSig writes v with sig significant digits, as criterion does.
func drillSig(v float64, sig int) string {
	d := sig - 1
	for x := v; x >= 10 && d > 0; x /= 10 {
		d--
	}
	return strconv.FormatFloat(v, 'f', d, 64)
}

// drillDur writes a duration in nanoseconds as criterion does: five
// significant digits, in the unit that fits.
func drillDur(ns float64) string {
	switch {
	case ns < 1e3:
		return drillSig(ns, 5) + " ns"
	case ns < 1e6:
		return drillSig(ns/1e3, 5) + " µs"
	case ns < 1e9:
		return drillSig(ns/1e6, 5) + " ms"
	}
	return drillSig(ns/1e9, 5) + " s"
}

// pyperfMean writes a mean and its standard deviation in nanoseconds as
// pyperf does: three significant digits, both in the mean's unit.
func pyperfMean(mean, sd float64) string {
	unit, div := "ns", 1.0
	switch {
	case mean >= 1e9:
		unit, div = "sec", 1e9
	case mean >= 1e6:
		unit, div = "ms", 1e6
	case mean >= 1e3:
		unit, div = "us", 1e3
	}
	m := mean / div
	dec := 2
	if m >= 100 {
		dec = 0
	} else if m >= 10 {
		dec = 1
	}
	return fmt.Sprintf("%.*f %s +- %.*f %s", dec, m, unit, dec, sd/div, unit)
}

// drillPct writes a signed percentage from ten-thousandths of a percent,
// as criterion's change line does.
func drillPct(x int) string {
	sign := "+"
	if x < 0 {
		sign, x = "-", -x
	}
	return fmt.Sprintf("%s%d.%04d%%", sign, x/10000, x%10000)
}

// microbenchAct runs the language's micro-benchmark tool (criterion,
// pyperf, benchmark.js, Gatling, or fortio against the service); the line
// that shows the regression is the probe.
func (g *gen) microbenchAct() (*act, string) {
	switch g.l.name {
	case "rust":
		return g.criterionAct()
	case "python":
		return g.pyperfAct()
	case "ts":
		return g.benchmarkjsAct()
	case "java":
		return g.gatlingAct()
	}
	return g.fortioAct()
}

// criterionAct runs a criterion benchmark; the time of the benchmark that
// regressed is the probe.
func (g *gen) criterionAct() (*act, string) {
	crate := crateOf(pick(g.r, g.p.dirs))
	bench := snake(g.nounWords()...) + "_bench"
	group := snake(pick(g.r, g.p.verbs), pick(g.r, g.p.nouns))
	sizes := []string{"small", "medium", "large", "batch_1k"}
	bad := g.r.intn(len(sizes))
	var b strings.Builder
	fmt.Fprintf(&b, "   Compiling %s v0.%d.%d (%s/crates/%s)\n    Finished `bench` profile [optimized] target(s) in %d.%02ds\n     Running benches/%s.rs (target/release/deps/%s-%s)\nGnuplot not found, using plotters backend\n",
		crate, 1+g.r.intn(9), g.r.intn(20), g.root, crate, 20+g.r.intn(90), g.r.intn(100), bench, bench, g.r.hex(16))
	var v string
	for i, sz := range sizes {
		name := group + "/" + sz
		base := float64((200 + g.r.intn(800)) * (1 + i*i*40))
		tri := func(x float64) string {
			spread := 1 + float64(1+g.r.intn(20))/1000
			return fmt.Sprintf("time:   [%s %s %s]", drillDur(x/spread), drillDur(x), drillDur(x*spread))
		}
		t := tri(base)
		mid := g.r.intn(20000) - 10000
		change := fmt.Sprintf("change: [%s %s %s] (p = 0.%02d > 0.05)\n%sNo change in performance detected.", drillPct(mid-5000-g.r.intn(10000)), drillPct(mid), drillPct(mid+5000+g.r.intn(10000)), 6+g.r.intn(90), strings.Repeat(" ", 24))
		if i == bad {
			v = g.uniq(func(g *gen) string { return tri(base * float64(130+g.r.intn(90)) / 100) })
			t = v
			p := 200000 + g.r.intn(600000)
			change = fmt.Sprintf("change: [%s %s %s] (p = 0.00 < 0.05)\n%sPerformance has regressed.", drillPct(p-5000-g.r.intn(20000)), drillPct(p), drillPct(p+5000+g.r.intn(20000)), strings.Repeat(" ", 24))
		}
		if len(name) < 24 {
			fmt.Fprintf(&b, "%-24s%s\n", name, t)
		} else {
			fmt.Fprintf(&b, "%s\n%s%s\n", name, strings.Repeat(" ", 24), t)
		}
		fmt.Fprintf(&b, "%s%s\n", strings.Repeat(" ", 24), change)
		if k := g.r.intn(8); k > 0 {
			fmt.Fprintf(&b, "Found %d outliers among 100 measurements (%d.00%%)\n  %d (%d.00%%) high mild\n", k, k, k, k)
		}
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("cargo bench -p %s --bench %s -- --baseline main", crate, bench), out: b.String()}, v
}

// pyperfAct compares two pyperf result files; the benchmark that got
// slower is the probe, its whole line.
func (g *gen) pyperfAct() (*act, string) {
	n := 3 + g.r.intn(3)
	bad := g.r.intn(n)
	var b strings.Builder
	var v string
	for i := 0; i < n; i++ {
		name := snake(g.words(2)...)
		base := float64(20000 + g.r.intn(4000000))
		sd := base / float64(30+g.r.intn(40))
		line := func(after float64, verdict string) string {
			return fmt.Sprintf("%s: Mean +- std dev: [bench-main] %s -> [bench-branch] %s: %s", name, pyperfMean(base, sd), pyperfMean(after, sd*1.1), verdict)
		}
		if i == bad {
			v = g.uniq(func(g *gen) string {
				r := 130 + g.r.intn(120)
				return line(base*float64(r)/100, fmt.Sprintf("%d.%02dx slower", r/100, r%100))
			})
			b.WriteString(v + "\n")
			continue
		}
		r := 103 + g.r.intn(8)
		b.WriteString(line(base*100/float64(r), fmt.Sprintf("1.%02dx faster", r%100)) + "\n")
	}
	fmt.Fprintf(&b, "\nBenchmark hidden because not significant (1): %s\n\nGeometric mean: 1.%02dx slower\n", snake(g.words(2)...), 5+g.r.intn(30))
	return &act{kind: actRun, cmd: "python -m pyperf compare_to /tmp/bench-main.json /tmp/bench-branch.json", out: b.String()}, v
}

// benchmarkjsAct runs a benchmark.js suite comparing main's code with the
// branch's; the branch's slower line is the probe.
func (g *gen) benchmarkjsAct() (*act, string) {
	noun := drillDashed(pick(g.r, g.p.nouns))
	fns := pickN(g.r, []string{"encode", "decode", "validate", "serialize", "diff", "merge"}, 2+g.r.intn(2))
	bad := g.r.intn(len(fns))
	var b strings.Builder
	fmt.Fprintf(&b, "\n> %s@1.%d.%d bench\n> node bench/%s.bench.js\n\n", g.p.module, g.r.intn(20), g.r.intn(10), noun)
	row := func(name string, ops, rme, runs int) string {
		return fmt.Sprintf("%s x %s ops/sec ±%d.%02d%% (%d runs sampled)", name, drillCommas(ops), rme/100, rme%100, runs)
	}
	var v, fastest string
	top := 0
	for i, fn := range fns {
		ops := 20000 + g.r.intn(2000000)
		b.WriteString(row(fn+" (main)", ops, 30+g.r.intn(200), 85+g.r.intn(12)) + "\n")
		if ops > top {
			top, fastest = ops, fn+" (main)"
		}
		if i == bad {
			v = g.uniq(func(g *gen) string {
				return row(fn+" (branch)", ops*(40+g.r.intn(35))/100, 50+g.r.intn(300), 80+g.r.intn(15))
			})
			b.WriteString(v + "\n")
			continue
		}
		b.WriteString(row(fn+" (branch)", ops*(97+g.r.intn(6))/100, 30+g.r.intn(200), 85+g.r.intn(12)) + "\n")
	}
	fmt.Fprintf(&b, "Fastest is %s\n", fastest)
	return &act{kind: actRun, cmd: "npm run bench", out: b.String()}, v
}

// gatlingAct runs a Gatling simulation; the global 99th percentile line
// is the probe.
func (g *gen) gatlingAct() (*act, string) {
	sim := pascal(g.nounWords()...) + "Simulation"
	total := 6000 * (1 + g.r.intn(4))
	ko := 10 + g.r.intn(total/50)
	ok := total - ko
	rowN := func(label string, all, okv, kov int) string {
		return fmt.Sprintf("> %-42s %9d (OK=%-6d KO=%-6d)", label, all, okv, kov)
	}
	rowS := func(label, all, okv, kov string) string {
		return fmt.Sprintf("> %-42s %9s (OK=%-6s KO=%-6s)", label, all, okv, kov)
	}
	p99ok := 100 + g.r.intn(900)
	v := g.uniq(func(g *gen) string {
		return rowN("response time 99th percentile", 10000+g.r.intn(20), p99ok, 10008+g.r.intn(10))
	})
	host := pick(g.r, g.p.hosts)
	lines := []string{
		"Simulation com.northwind.perf." + sim + " completed in 61 seconds",
		"Parsing log file(s)...",
		"Parsing log file(s) done",
		"Generating reports...",
		"",
		strings.Repeat("=", 80),
		"---- Global Information --------------------------------------------------------",
		rowN("request count", total, ok, ko),
		rowN("min response time", 2+g.r.intn(5), 2+g.r.intn(5), 10000+g.r.intn(5)),
		rowN("max response time", 10020+g.r.intn(30), 2000+g.r.intn(3000), 10020+g.r.intn(30)),
		rowN("mean response time", 40+g.r.intn(200), 15+g.r.intn(40), 10004+g.r.intn(5)),
		rowN("std deviation", 400+g.r.intn(900), 20+g.r.intn(60), 2+g.r.intn(5)),
		rowN("response time 50th percentile", 10+g.r.intn(20), 10+g.r.intn(20), 10003+g.r.intn(5)),
		rowN("response time 75th percentile", 20+g.r.intn(20), 20+g.r.intn(20), 10005+g.r.intn(5)),
		rowN("response time 95th percentile", 60+g.r.intn(80), 55+g.r.intn(80), 10007+g.r.intn(5)),
		v,
		rowS("mean requests/sec", fmt.Sprintf("%d", total/60), fmt.Sprintf("%d.%02d", ok/60, g.r.intn(100)), fmt.Sprintf("%d.%02d", ko/60, g.r.intn(100))),
		"---- Response Time Distribution ------------------------------------------------",
		fmt.Sprintf("> %-42s %9d (%3d%%)", "t < 800 ms", ok-20, (ok-20)*100/total),
		fmt.Sprintf("> %-42s %9d (%3d%%)", "800 ms <= t < 1200 ms", 12, 0),
		fmt.Sprintf("> %-42s %9d (%3d%%)", "t >= 1200 ms", 8, 0),
		fmt.Sprintf("> %-42s %9d (%3d%%)", "failed", ko, ko*100/total),
		"---- Errors --------------------------------------------------------------------",
		fmt.Sprintf("> j.u.c.TimeoutException: Request timeout to %s/10.0.1.%d:8080 after 10000 ms %8d (100.0%%)", host, 2+g.r.intn(250), ko),
		strings.Repeat("=", 80),
		"",
		fmt.Sprintf("Reports generated in 0s.\nPlease open the following file: file:///%s/target/gatling/%s-202604%02d%02d%02d%02d/index.html", strings.TrimPrefix(g.root, "/"), strings.ToLower(sim), g.day, 8+g.r.intn(10), g.r.intn(60), g.r.intn(60)),
	}
	return &act{kind: actRun, cmd: "mvn -pl " + g.p.module + " gatling:test -Dgatling.simulationClass=com.northwind.perf." + sim, out: strings.Join(lines, "\n") + "\n"}, v
}

// fortioAct load-tests the service with fortio; the 99th percentile
// target line is the probe.
func (g *gen) fortioAct() (*act, string) {
	url := fmt.Sprintf("http://%s.internal:8080/v1/%ss", pick(g.r, g.p.hosts), drillDashed(pick(g.r, g.p.nouns)))
	calls := 50000 + g.r.intn(200000)
	avg := 2000 + g.r.intn(20000) // microseconds
	qps := 32 * 1000000 / max(avg, 1)
	sec := func(us int) string {
		return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%d.%06d", us/1000000, us%1000000), "0"), ".")
	}
	v := g.uniq(func(g *gen) string { return "# target 99% " + sec(avg*(4+g.r.intn(8))+g.r.intn(1000)) })
	errs := g.r.intn(calls / 500)
	h, m, s, _ := g.clock()
	var b strings.Builder
	fmt.Fprintf(&b, "Fortio 1.63.3 running at 0 queries per second, 8->8 procs, for 30s: %s\n%02d:%02d:%02d I httprunner.go:121> Starting http test for %s with 32 threads at -1.0 qps and parallel warmup\nStarting at max qps with 32 thread(s) [gomax 8] for 30s\n", url, h, m, s, url)
	fmt.Fprintf(&b, "Ended after 30.00%ds : %d calls. qps=%d.%d\nAggregated Function Time : count %d avg %s +/- %s min %s max %s sum %d.%03d\n# range, mid point, percentile, count\n",
		g.r.intn(10), calls, qps, g.r.intn(10), calls, sec(avg), sec(avg/3), sec(avg/10), sec(avg*30), calls*avg/1000000, g.r.intn(1000))
	fmt.Fprintf(&b, "# target 50%% %s\n# target 75%% %s\n# target 90%% %s\n%s\n# target 99.9%% %s\n", sec(avg*9/10), sec(avg*12/10), sec(avg*2), v, sec(avg*25))
	fmt.Fprintf(&b, "Error cases : count %d avg %s +/- %s min %s max %s sum %s\nSockets used: 32 (for perfect keepalive, would be 32)\nUniform: false, Jitter: false, Catchup allowed: true\nCode 200 : %d (%d.%d %%)\nCode 503 : %d (%d.%d %%)\nAll done %d calls (plus 32 warmup) %d.%03d ms avg, %d.%d qps\n",
		errs, sec(avg*3), sec(avg), sec(avg), sec(avg*9), sec(errs*avg*3), calls-errs, (calls-errs)*1000/calls/10, (calls-errs)*1000/calls%10, errs, errs*1000/calls/10, errs*1000/calls%10, calls, avg/1000, avg%1000, qps, g.r.intn(10))
	return &act{kind: actRun, cmd: "fortio load -qps 0 -c 32 -t 30s " + url, out: b.String()}, v
}

// webpackAct builds the front end with webpack; the oversized asset's
// line is the probe.
func (g *gen) webpackAct() (*act, string) {
	var asset string
	v := g.uniq(func(g *gen) string {
		asset = "main." + g.r.hex(20) + ".js"
		return fmt.Sprintf("asset %s %d.%02d MiB [emitted] [immutable] [minimized] [big] (name: main) 1 related asset", asset, 1+g.r.intn(3), g.r.intn(100))
	})
	size := v[strings.Index(v, ".js ")+4 : strings.Index(v, " [emitted]")]
	var b strings.Builder
	b.WriteString(v + "\n")
	for k := 0; k < 1+g.r.intn(3); k++ {
		fmt.Fprintf(&b, "asset %d.%s.js %d.%d KiB [emitted] [immutable] [minimized] 1 related asset\n", 100+g.r.intn(900), g.r.hex(20), 10+g.r.intn(200), g.r.intn(10))
	}
	fmt.Fprintf(&b, "asset index.html %d.%d KiB [emitted]\norphan modules %d KiB [orphan] %d modules\nruntime modules %d.%02d KiB %d modules\ncacheable modules %d.%02d MiB\n  modules by path ./node_modules/ %d.%d MiB %d modules\n  modules by path ./src/ %d KiB %d modules\n\n",
		1+g.r.intn(3), g.r.intn(10), 100+g.r.intn(400), 20+g.r.intn(100), 2+g.r.intn(5), g.r.intn(100), 6+g.r.intn(6), 3+g.r.intn(4), g.r.intn(100), 2+g.r.intn(3), g.r.intn(10), 300+g.r.intn(900), 200+g.r.intn(900), 80+g.r.intn(300))
	fmt.Fprintf(&b, "WARNING in asset size limit: The following asset(s) exceed the recommended size limit (244 KiB).\nThis can impact web performance.\nAssets: \n  %s (%s)\n\nWARNING in entrypoint size limit: The following entrypoint(s) combined asset size exceeds the recommended limit (244 KiB). This can impact web performance.\nEntrypoints:\n  main (%s)\n      %s\n\n", asset, size, size, asset)
	fmt.Fprintf(&b, "WARNING in webpack performance recommendations: \nYou can limit the size of your bundles by using import() or require.ensure to lazy load some parts of your application.\nFor more info visit https://webpack.js.org/guides/code-splitting/\n\nwebpack 5.91.0 compiled with 3 warnings in %d ms\n", 8000+g.r.intn(40000))
	return &act{kind: actRun, cmd: "npx webpack --mode production --config webpack.prod.js", out: b.String()}, v
}

// mongostatAct samples the document store once a second; the sample
// where dirty bytes and queues pile up is the probe.
func (g *gen) mongostatAct() (*act, string) {
	host := pick(g.r, g.p.hosts) + "-mongo"
	pct := func(x int) string { return fmt.Sprintf("%d.%d%%", x/10, x%10) }
	row := func(busy bool) string {
		h, m, s, ms := g.clock()
		ins, qry, upd, del := g.r.intn(40), 20+g.r.intn(400), g.r.intn(90), g.r.intn(5)
		dirty, used, qrw, arw := pct(5+g.r.intn(30)), pct(700+g.r.intn(100)), "0|0", fmt.Sprintf("%d|0", 1+g.r.intn(3))
		if busy {
			ins, upd = 400+g.r.intn(3000), 900+g.r.intn(4000)
			dirty, used, qrw, arw = pct(180+g.r.intn(100)), pct(940+g.r.intn(50)), fmt.Sprintf("0|%d", 20+g.r.intn(90)), fmt.Sprintf("%d|0", 120+g.r.intn(8))
		}
		return fmt.Sprintf("%6d %5d %6d %6d %7d %7s %5s %5s %7d %5s %5s %5s %5s %6s %7s %4d %s", ins, qry, upd, del, g.r.intn(9), fmt.Sprintf("%d|0", 10+g.r.intn(40)), dirty, used, 0,
			fmt.Sprintf("%d.%02dG", 3+g.r.intn(6), g.r.intn(100)), fmt.Sprintf("%d.%02dG", 1+g.r.intn(3), g.r.intn(100)), qrw, arw, fmt.Sprintf("%d.%dk", 1+g.r.intn(90), g.r.intn(10)), fmt.Sprintf("%d.%dk", 10+g.r.intn(900), g.r.intn(10)), 30+g.r.intn(200),
			fmt.Sprintf("Apr %02d %02d:%02d:%02d.%03d", g.day, h, m, s, ms))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%6s %5s %6s %6s %7s %7s %5s %5s %7s %5s %5s %5s %5s %6s %7s %4s %19s\n", "insert", "query", "update", "delete", "getmore", "command", "dirty", "used", "flushes", "vsize", "res", "qrw", "arw", "net_in", "net_out", "conn", "time")
	n := 5 + g.r.intn(4)
	at := 2 + g.r.intn(n-2)
	var v string
	for i := 0; i < n; i++ {
		if i == at {
			v = g.uniq(func(g *gen) string { return row(true) })
			b.WriteString(v + "\n")
			continue
		}
		b.WriteString(row(false) + "\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("mongostat --host %s:27017 -n %d 1", host, n), out: b.String()}, strings.TrimSpace(v)
}

// mpstatAct samples every CPU once; the CPU drowning in soft interrupts
// is the probe, its Average line.
func (g *gen) mpstatAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	cpus := 8
	hot := g.r.intn(cpus)
	f := func(x int) string { return fmt.Sprintf("%d.%02d", x/100, x%100) }
	row := func(label, cpu string, usr, sys, iow, soft int) string {
		idle := max(0, 10000-usr-sys-iow-soft)
		return fmt.Sprintf("%-12s %4s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s", label, cpu, f(usr), "0.00", f(sys), f(iow), "0.00", f(soft), "0.00", "0.00", "0.00", f(idle))
	}
	h, m, s, _ := g.clock()
	at := fmt.Sprintf("%02d:%02d:%02d", h, m, s+1)
	var b strings.Builder
	fmt.Fprintf(&b, "Linux 5.15.0-1051-aws (%s) \t04/%02d/26 \t_x86_64_\t(%d CPU)\n\n", host, g.day, cpus)
	head := func(label string) string {
		return fmt.Sprintf("%-12s %4s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s\n", label, "CPU", "%usr", "%nice", "%sys", "%iowait", "%irq", "%soft", "%steal", "%guest", "%gnice", "%idle")
	}
	type cpu struct{ usr, sys, iow, soft int }
	vals := make([]cpu, cpus)
	var v string
	for i := range vals {
		vals[i] = cpu{200 + g.r.intn(1500), 50 + g.r.intn(400), g.r.intn(200), g.r.intn(100)}
		if i == hot {
			vals[i] = cpu{100 + g.r.intn(300), 100 + g.r.intn(200), g.r.intn(50), 8500 + g.r.intn(1000)}
		}
	}
	for _, label := range []string{at, "Average:"} {
		b.WriteString(head(label))
		all := cpu{}
		for _, c := range vals {
			all.usr, all.sys, all.iow, all.soft = all.usr+c.usr/cpus, all.sys+c.sys/cpus, all.iow+c.iow/cpus, all.soft+c.soft/cpus
		}
		b.WriteString(row(label, "all", all.usr, all.sys, all.iow, all.soft) + "\n")
		for i, c := range vals {
			line := row(label, fmt.Sprint(i), c.usr, c.sys, c.iow, c.soft)
			if label == "Average:" && i == hot {
				v = g.uniq(func(g *gen) string { return line })
			}
			b.WriteString(line + "\n")
		}
		b.WriteString("\n")
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("ssh %s mpstat -P ALL 1 1", host), out: b.String()}, v
}

// hdparmAct times reads from the two data disks; the slow disk's
// buffered read line is the probe.
func (g *gen) hdparmAct() (*act, string) {
	disks := []string{"/dev/nvme0n1", "/dev/nvme1n1"}
	slow := g.r.intn(2)
	var b strings.Builder
	var v string
	for i, d := range disks {
		cached := 9000 + g.r.intn(14000)
		fmt.Fprintf(&b, "\n%s:\n Timing cached reads:   %d MB in  1.99 seconds = %d.%02d MB/sec\n", d, cached*2, cached, g.r.intn(100))
		mb, secs := 1500+g.r.intn(1500), 300
		if i == slow {
			v = g.uniq(func(g *gen) string {
				mb, secs = 120+g.r.intn(400), 300+g.r.intn(20)
				rate := mb * 10000 / secs
				return fmt.Sprintf("Timing buffered disk reads: %d MB in %2d.%02d seconds = %d.%02d MB/sec", mb, secs/100, secs%100, rate/100, rate%100)
			})
			b.WriteString(" " + v + "\n")
			continue
		}
		rate := mb * 10000 / secs
		fmt.Fprintf(&b, " Timing buffered disk reads: %d MB in %2d.%02d seconds = %d.%02d MB/sec\n", mb, secs/100, secs%100, rate/100, rate%100)
	}
	return &act{kind: actRun, cmd: "sudo hdparm -Tt " + strings.Join(disks, " "), out: b.String()}, v
}

// ssSummaryAct prints the socket summary; the TCP line with its pile of
// sockets in TIME-WAIT is the probe.
func (g *gen) ssSummaryAct() (*act, string) {
	var total int
	v := g.uniq(func(g *gen) string {
		estab, tw := 200+g.r.intn(3000), 8000+g.r.intn(40000)
		total = estab + tw + g.r.intn(100)
		return fmt.Sprintf("TCP:   %d (estab %d, closed %d, orphaned %d, timewait %d)", total, estab, tw+g.r.intn(50), g.r.intn(40), tw)
	})
	tcp := 300 + g.r.intn(2000)
	out := fmt.Sprintf("Total: %d\n%s\n\nTransport Total     IP        IPv6\nRAW\t  1         0         1        \nUDP\t  %-9d %-9d %-9d\nTCP\t  %-9d %-9d %-9d\nINET\t  %-9d %-9d %-9d\nFRAG\t  0         0         0        \n",
		total/10+g.r.intn(500), v, 9, 6, 3, tcp, tcp-40, 40, tcp+10, tcp-33, 43)
	return &act{kind: actRun, cmd: "ssh " + pick(g.r, g.p.hosts) + " ss -s", out: out}, v
}

// pressureAct reads the pressure stall information of CPU, memory and
// I/O; memory's full line is the probe.
func (g *gen) pressureAct() (*act, string) {
	f := func(x int) string { return fmt.Sprintf("%d.%02d", x/100, x%100) }
	line := func(kind string, a10, a60, a300, total int) string {
		return fmt.Sprintf("%s avg10=%s avg60=%s avg300=%s total=%d", kind, f(a10), f(a60), f(a300), total)
	}
	v := g.uniq(func(g *gen) string {
		a := 1500 + g.r.intn(5000)
		return line("full", a, a*8/10, a*3/10, 1000000000+g.r.intn(900000000))
	})
	var b strings.Builder
	b.WriteString("== cpu\n" + line("some", g.r.intn(300), g.r.intn(250), g.r.intn(200), 100000000+g.r.intn(900000000)) + "\n" + line("full", 0, 0, 0, 0) + "\n")
	b.WriteString("== memory\n" + line("some", 3000+g.r.intn(4000), 2500+g.r.intn(3000), 1000+g.r.intn(1000), 2000000000+g.r.intn(900000000)) + "\n" + v + "\n")
	b.WriteString("== io\n" + line("some", 100+g.r.intn(900), 80+g.r.intn(600), 50+g.r.intn(300), 300000000+g.r.intn(900000000)) + "\n" + line("full", 50+g.r.intn(400), 40+g.r.intn(300), 20+g.r.intn(200), 200000000+g.r.intn(900000000)) + "\n")
	host := pick(g.r, g.p.hosts)
	return &act{kind: actRun, cmd: fmt.Sprintf("ssh %s 'for r in cpu memory io; do echo \"== $r\"; cat /proc/pressure/$r; done'", host), out: b.String()}, v
}

// systemdAnalyzeAct shows how long the host took to boot and which units
// took longest; the slowest unit's blame line is the probe.
func (g *gen) systemdAnalyzeAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	var slowMs int
	unit := host + ".service"
	v := g.uniq(func(g *gen) string {
		slowMs = 40000 + g.r.intn(80000)
		return fmt.Sprintf("%s %s", drillSpan(slowMs), unit)
	})
	kernel := 2000 + g.r.intn(3000)
	user := slowMs + 5000 + g.r.intn(9000)
	var b strings.Builder
	fmt.Fprintf(&b, "Startup finished in %s (kernel) + %s (userspace) = %s \nmulti-user.target reached after %s in userspace\n", drillSpan(kernel), drillSpan(user), drillSpan(kernel+user), drillSpan(user-30))
	rows := []string{v}
	ms := 9000 + g.r.intn(3000)
	for _, u := range pickN(g.r, []string{"cloud-init.service", "snapd.seeded.service", "systemd-networkd-wait-online.service", "apt-daily-upgrade.service", "docker.service", "cloud-config.service", "containerd.service"}, 6) {
		ms = ms * (55 + g.r.intn(40)) / 100
		rows = append(rows, fmt.Sprintf("%s %s", drillSpan(ms), u))
	}
	w := 0
	for _, r := range rows {
		w = max(w, strings.Index(r, " "+strings.Fields(r)[len(strings.Fields(r))-1]))
	}
	for _, r := range rows {
		name := strings.Fields(r)[len(strings.Fields(r))-1]
		dur := strings.TrimSuffix(r, " "+name)
		fmt.Fprintf(&b, "%*s %s\n", w, dur, name)
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("ssh %s 'systemd-analyze && systemd-analyze blame | head -n 7'", host), out: b.String()}, v
}

// drillSpan writes milliseconds as systemd does: 8.212s, 1min 2.104s.
func drillSpan(ms int) string {
	if ms >= 60000 {
		return fmt.Sprintf("%dmin %d.%03ds", ms/60000, ms/1000%60, ms%1000)
	}
	return fmt.Sprintf("%d.%03ds", ms/1000, ms%1000)
}

// producerPerfAct runs Kafka's producer performance test; the final
// summary line is the probe.
func (g *gen) producerPerfAct() (*act, string) {
	topic := g.p.name + "." + drillDashed(pick(g.r, g.p.nouns)) + "-perf"
	const records = 500000
	var b strings.Builder
	sent := 0
	for sent < records*8/10 {
		k := 50000 + g.r.intn(20000)
		sent += k
		rate := k * 10 / 5
		fmt.Fprintf(&b, "%d records sent, %d.%d records/sec (%d.%02d MB/sec), %d.%d ms avg latency, %d.0 ms max latency.\n", k, rate/10, rate%10, rate/10/1024, g.r.intn(100), 800+g.r.intn(2000), g.r.intn(10), 2000+g.r.intn(2000))
	}
	v := g.uniq(func(g *gen) string {
		rate := 6000000 + g.r.intn(9000000) // thousandths of a record per second
		avg := 1500 + g.r.intn(2000)
		return fmt.Sprintf("%d records sent, %d.%06d records/sec (%d.%02d MB/sec), %d.%02d ms avg latency, %d.00 ms max latency, %d ms 50th, %d ms 95th, %d ms 99th, %d ms 99.9th.",
			records, rate/1000, rate%1000*1000+g.r.intn(1000), rate/1000/1024, g.r.intn(100), avg, g.r.intn(100), avg*2+g.r.intn(500), avg*9/10, avg*15/10, avg*18/10, avg*19/10)
	})
	b.WriteString(v + "\n")
	cmd := fmt.Sprintf("kafka-producer-perf-test.sh --topic %s --num-records %d --record-size 1024 --throughput -1 --producer-props bootstrap.servers=kafka-1:9092 acks=all linger.ms=5", topic, records)
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// ycsbAct runs a YCSB workload; the updates' 99th percentile latency line
// is the probe.
func (g *gen) ycsbAct() (*act, string) {
	db := pick(g.r, []string{"mongodb", "jdbc", "redis", "cassandra-cql"})
	ops := 500000
	reads := ops * 95 / 100
	v := g.uniq(func(g *gen) string {
		return fmt.Sprintf("[UPDATE], 99thPercentileLatency(us), %d", 20000+g.r.intn(200000))
	})
	lines := []string{
		fmt.Sprintf("[OVERALL], RunTime(ms), %d", 60000+g.r.intn(9000)),
		fmt.Sprintf("[OVERALL], Throughput(ops/sec), %d.%d", 7000+g.r.intn(3000), g.r.intn(10)),
		fmt.Sprintf("[TOTAL_GCS_G1_Young_Generation], Count, %d", 10+g.r.intn(90)),
		fmt.Sprintf("[TOTAL_GC_TIME_G1_Young_Generation], Time(ms), %d", 100+g.r.intn(900)),
		fmt.Sprintf("[READ], Operations, %d", reads),
		fmt.Sprintf("[READ], AverageLatency(us), %d.%d", 300+g.r.intn(900), g.r.intn(10)),
		fmt.Sprintf("[READ], MinLatency(us), %d", 100+g.r.intn(100)),
		fmt.Sprintf("[READ], MaxLatency(us), %d", 50000+g.r.intn(90000)),
		fmt.Sprintf("[READ], 95thPercentileLatency(us), %d", 900+g.r.intn(900)),
		fmt.Sprintf("[READ], 99thPercentileLatency(us), %d", 2000+g.r.intn(3000)),
		fmt.Sprintf("[READ], Return=OK, %d", reads),
		fmt.Sprintf("[CLEANUP], Operations, %d", 16),
		fmt.Sprintf("[UPDATE], Operations, %d", ops-reads),
		fmt.Sprintf("[UPDATE], AverageLatency(us), %d.%d", 3000+g.r.intn(9000), g.r.intn(10)),
		fmt.Sprintf("[UPDATE], MinLatency(us), %d", 200+g.r.intn(300)),
		fmt.Sprintf("[UPDATE], MaxLatency(us), %d", 300000+g.r.intn(900000)),
		fmt.Sprintf("[UPDATE], 95thPercentileLatency(us), %d", 9000+g.r.intn(9000)),
		v,
		fmt.Sprintf("[UPDATE], Return=OK, %d", ops-reads),
	}
	cmd := fmt.Sprintf("./bin/ycsb run %s -s -P workloads/workloadb -p operationcount=%d -threads 32 -P %s.properties 2>/dev/null | grep '^\\['", db, ops, g.p.name)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, v
}

// queryDigestAct summarizes the slow query log with pt-query-digest; the
// top-ranked query's profile row is the probe.
func (g *gen) queryDigestAct() (*act, string) {
	host := pick(g.r, g.p.hosts)
	total := 1000 + g.r.intn(20000) // tenths of a second of response time
	var b strings.Builder
	fmt.Fprintf(&b, "# %d.%ds user time, %dms system time, %d.%02dM rss, %d.%02dM vsz\n# Current date: %s Apr %2d %02d:%02d:%02d 2026\n# Hostname: %s\n# Files: /var/log/mysql/mysql-slow.log\n# Overall: %d.%02dk total, %d unique, %d.%02d QPS, %d.%02dx concurrency ______________\n\n# Profile\n# Rank Query ID                            Response time   Calls R/Call V/M   Item\n# ==== =================================== =============== ===== ====== ===== ==========\n",
		1+g.r.intn(20), g.r.intn(10), 10+g.r.intn(300), 40+g.r.intn(60), g.r.intn(100), 200+g.r.intn(200), g.r.intn(100), drillWeekday(g.day), g.day, 8+g.r.intn(10), g.r.intn(60), g.r.intn(60), host,
		5+g.r.intn(90), g.r.intn(100), 30+g.r.intn(200), 1+g.r.intn(9), g.r.intn(100), g.r.intn(3), g.r.intn(100))
	row := func(rank int, secs10, calls int, item string) string {
		rc := secs10 * 1000 / max(calls, 1) // ten-thousandths of a second per call
		return fmt.Sprintf("# %4d 0x%s %s %5d %d.%04d %2d.%02d %s", rank, strings.ToUpper(g.r.hex(32)), digestTime(secs10, total, g.r.intn(1000), g.r.intn(10)), calls, rc/10000, rc%10000, g.r.intn(2), g.r.intn(100), item)
	}
	tables := g.p.tables
	share := total * (45 + g.r.intn(40)) / 100
	v := g.uniq(func(g *gen) string { return row(1, share, 200+g.r.intn(3000), "SELECT "+pick(g.r, tables)) })
	b.WriteString(v + "\n")
	rest := total - share
	for rank := 2; rank <= 3+g.r.intn(3); rank++ {
		part := rest / 3
		rest -= part
		b.WriteString(row(rank, part, 1000+g.r.intn(90000), pick(g.r, []string{"SELECT ", "UPDATE ", "INSERT "})+pick(g.r, tables)) + "\n")
	}
	fmt.Fprintf(&b, "%-41s %s %5d %d.%04d %5s <%d ITEMS>\n", "# MISC 0xMISC", digestTime(rest, total, g.r.intn(1000), g.r.intn(10)), 100+g.r.intn(900), 0, g.r.intn(10000), "0.0", 10+g.r.intn(90))
	return &act{kind: actRun, cmd: fmt.Sprintf("ssh %s 'pt-query-digest --limit 8 /var/log/mysql/mysql-slow.log' | sed -n '1,/^# Query 1:/p' | head -n -1", host), out: b.String()}, v
}

// digestTime is pt-query-digest's response time column: seconds and the
// share of the total, from tenths of a second.
func digestTime(secs10, total, milli, tenth int) string {
	return fmt.Sprintf("%8d.%04d %2d.%d%%", secs10/10, secs10%10*1000+milli, secs10*100/max(total, 1), tenth)
}

// drillWeekday names the weekday of a day of April 2026 as ctime does.
func drillWeekday(day int) string {
	return time.Date(2026, time.April, day, 0, 0, 0, 0, time.UTC).Format("Mon")
}

// nextBuildAct builds the Next.js front end; the route whose first load
// is far heavier than the rest is the probe, its whole row.
func (g *gen) nextBuildAct() (*act, string) {
	shared := 80 + g.r.intn(20)
	routes := []string{"/", "/_not-found", "/login"}
	for _, n := range pickN(g.r, g.p.nouns, 3) {
		routes = append(routes, "/"+drillDashed(n)+"s")
	}
	heavy := 3 + g.r.intn(len(routes)-3)
	row := func(mark, route, size, first string) string {
		return fmt.Sprintf("%s %-36s %8s %14s", mark, route, size, first)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "  ▲ Next.js 14.2.3\n\n   Creating an optimized production build ...\n ✓ Compiled successfully\n ✓ Linting and checking validity of types\n ✓ Collecting page data\n ✓ Generating static pages (%d/%d)\n ✓ Finalizing page optimization\n\n", len(routes)+2, len(routes)+2)
	b.WriteString(fmt.Sprintf("%-40s %8s %14s\n", "Route (app)", "Size", "First Load JS"))
	var v string
	for i, r := range routes {
		mark := "├ ○"
		if i == 0 {
			mark = "┌ ○"
		}
		if i == len(routes)-1 {
			mark = "└ ○"
		}
		if i == heavy {
			v = g.uniq(func(g *gen) string {
				kb := 120 + g.r.intn(300)
				return row(mark, r, fmt.Sprintf("%d kB", kb), fmt.Sprintf("%d kB", kb+shared))
			})
			b.WriteString(v + "\n")
			continue
		}
		kb := 1 + g.r.intn(9)
		b.WriteString(row(mark, r, fmt.Sprintf("%d.%d kB", kb, g.r.intn(10)), fmt.Sprintf("%d.%d kB", shared+kb, g.r.intn(10))) + "\n")
	}
	fmt.Fprintf(&b, "%-40s %8s\n", "+ First Load JS shared by all", fmt.Sprintf("%d.%d kB", shared, g.r.intn(10)))
	fmt.Fprintf(&b, "  %-38s %8s\n", "├ chunks/"+fmt.Sprint(100+g.r.intn(900))+"-"+g.r.hex(16)+".js", fmt.Sprintf("%d.%d kB", 30+g.r.intn(5), g.r.intn(10)))
	fmt.Fprintf(&b, "  %-38s %8s\n", "├ chunks/"+g.r.hex(8)+"-"+g.r.hex(16)+".js", fmt.Sprintf("%d.%d kB", 50+g.r.intn(5), g.r.intn(10)))
	fmt.Fprintf(&b, "  %-38s %8s\n\n\n○  (Static)  prerendered as static content\n\n", "└ other shared chunks (total)", fmt.Sprintf("%d.%d kB", 1+g.r.intn(3), g.r.intn(10)))
	return &act{kind: actRun, cmd: "npx next build", out: b.String()}, v
}

// nodeAllocatedAct shows what a node has promised its pods; the CPU row,
// overcommitted, is the probe.
func (g *gen) nodeAllocatedAct() (*act, string) {
	node := fmt.Sprintf("ip-10-0-%d-%d.eu-west-1.compute.internal", g.r.intn(16), 2+g.r.intn(250))
	row := func(res, req, lim string) string { return fmt.Sprintf("  %-18s %-13s %s", res, req, lim) }
	v := g.uniq(func(g *gen) string {
		req := 3700 + g.r.intn(290)
		return strings.TrimSpace(row("cpu", fmt.Sprintf("%dm (%d%%)", req, req/40), fmt.Sprintf("%d (%d%%)", 5+g.r.intn(4), 130+g.r.intn(90))))
	})
	mem := 12 + g.r.intn(3)
	out := strings.Join([]string{"Allocated resources:", "  (Total limits may be over 100 percent, i.e., overcommitted.)", row("Resource", "Requests", "Limits"), row("--------", "--------", "------"),
		"  " + v, row("memory", fmt.Sprintf("%dGi (%d%%)", mem, mem*100/16), fmt.Sprintf("%dGi (%d%%)", mem+6, (mem+6)*100/16)),
		row("ephemeral-storage", "0 (0%)", "0 (0%)"), row("hugepages-1Gi", "0 (0%)", "0 (0%)"), row("hugepages-2Mi", "0 (0%)", "0 (0%)"), "Events:              <none>"}, "\n") + "\n"
	return &act{kind: actRun, cmd: fmt.Sprintf("kubectl describe node %s | sed -n '/Allocated resources/,/Events/p'", node), out: out}, v
}

// tableSizesAct lists the biggest tables with their index sizes; the
// table whose indexes outweigh its rows is the probe, its whole row.
func (g *gen) tableSizesAct() (*act, string) {
	tables := slices.Clone(g.p.tables)
	for len(tables) < 5 {
		tables = append(tables, snake(g.nounWords()...)+"_archive")
	}
	tables = slices.Compact(tables)
	bloated := g.r.intn(len(tables))
	type sz struct {
		t, total, table, idx string
		n                    int
	}
	var rows []sz
	gb := func(x int) string { return fmt.Sprintf("%d GB", x) }
	for i, t := range tables {
		tb, ix := 2+g.r.intn(90), 1+g.r.intn(20)
		if i == bloated {
			tb, ix = 20+g.r.intn(60), 100+g.r.intn(300)
		}
		rows = append(rows, sz{t, gb(tb + ix), gb(tb), gb(ix), tb + ix})
	}
	bloatedName := tables[bloated]
	slices.SortStableFunc(rows, func(a, b sz) int { return b.n - a.n })
	w := [4]int{len("relname"), len("total"), len("table"), len("indexes")}
	for _, r := range rows {
		w[0], w[1], w[2], w[3] = max(w[0], len(r.t)), max(w[1], len(r.total)), max(w[2], len(r.table)), max(w[3], len(r.idx))
	}
	center := func(s string, n int) string {
		l := (n - len(s)) / 2
		return strings.Repeat(" ", l) + s + strings.Repeat(" ", n-len(s)-l)
	}
	line := func(r sz) string {
		return strings.TrimRight(fmt.Sprintf(" %-*s | %-*s | %-*s | %-*s", w[0], r.t, w[1], r.total, w[2], r.table, w[3], r.idx), " ")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s\n", strings.TrimRight(" "+center("relname", w[0])+" | "+center("total", w[1])+" | "+center("table", w[2])+" | "+center("indexes", w[3]), " "))
	fmt.Fprintf(&b, "%s+%s+%s+%s\n", strings.Repeat("-", w[0]+2), strings.Repeat("-", w[1]+2), strings.Repeat("-", w[2]+2), strings.Repeat("-", w[3]+2))
	var v string
	for _, r := range rows {
		l := line(r)
		if r.t == bloatedName {
			v = g.uniq(func(g *gen) string { return strings.TrimSpace(l) })
		}
		b.WriteString(l + "\n")
	}
	fmt.Fprintf(&b, "(%d rows)\n", len(rows))
	cmd := "psql \"$DATABASE_URL\" -c \"SELECT relname, pg_size_pretty(pg_total_relation_size(relid)) AS total, pg_size_pretty(pg_relation_size(relid)) AS \\\"table\\\", pg_size_pretty(pg_indexes_size(relid)) AS indexes FROM pg_statio_user_tables ORDER BY pg_total_relation_size(relid) DESC\""
	return &act{kind: actRun, cmd: cmd, out: b.String()}, v
}

// cephDfAct prints the storage cluster's usage; the pool close to full
// is the probe, its whole row.
func (g *gen) cephDfAct() (*act, string) {
	raw := 300 + g.r.intn(600)
	used := raw * (60 + g.r.intn(30)) / 100
	pctRaw := fmt.Sprintf("%d.%02d", used*100/raw, used*10000/raw%100)
	var b strings.Builder
	fmt.Fprintf(&b, "--- RAW STORAGE ---\nCLASS     SIZE    AVAIL     USED  RAW USED  %%RAW USED\nhdd    %3d TiB  %3d TiB  %3d TiB   %3d TiB      %s\nTOTAL  %3d TiB  %3d TiB  %3d TiB   %3d TiB      %s\n\n--- POOLS ---\n",
		raw, raw-used, used, used, pctRaw, raw, raw-used, used, used, pctRaw)
	pools := []string{".mgr", g.p.name + "-rbd", g.p.name + "-cephfs-data", g.p.name + "-cephfs-meta", "default.rgw.buckets.data"}
	full := 1 + g.r.intn(len(pools)-1)
	row := func(name string, id, pgs int, stored, objects, usedS, pct, avail string) string {
		return fmt.Sprintf("%-26s %2d %4d %9s %8s %9s %6s %9s", name, id, pgs, stored, objects, usedS, pct, avail)
	}
	fmt.Fprintf(&b, "%-26s %2s %4s %9s %8s %9s %6s %9s\n", "POOL", "ID", "PGS", "STORED", "OBJECTS", "USED", "%USED", "MAX AVAIL")
	var v string
	for i, p := range pools {
		if i == full {
			v = g.uniq(func(g *gen) string {
				st := used / 3 * (50 + g.r.intn(40)) / 100
				return row(p, i+1, 256, fmt.Sprintf("%d TiB", st), fmt.Sprintf("%d.%dM", 10+g.r.intn(90), g.r.intn(10)), fmt.Sprintf("%d TiB", st*3), fmt.Sprintf("%d.%02d", 88+g.r.intn(10), g.r.intn(100)), fmt.Sprintf("%d.%d TiB", 1+g.r.intn(4), g.r.intn(10)))
			})
			b.WriteString(v + "\n")
			continue
		}
		st := 1 + g.r.intn(900)
		b.WriteString(row(p, i+1, pick(g.r, []int{1, 32, 64, 128}), fmt.Sprintf("%d GiB", st), fmt.Sprintf("%dk", 1+g.r.intn(900)), fmt.Sprintf("%d GiB", st*3), fmt.Sprintf("%d.%02d", g.r.intn(30), g.r.intn(100)), fmt.Sprintf("%d TiB", 10+g.r.intn(40))) + "\n")
	}
	return &act{kind: actRun, cmd: "sudo ceph df", out: b.String()}, v
}

// designNoteAct reads a design note whose outcome section holds d.
func (g *gen) designNoteAct(d string) *act {
	comp := pick(g.r, g.p.comps)
	path := fmt.Sprintf("docs/design/%s.md", kebab(g.words(2)...))
	who := pickN(g.r, drillPeople, 2)
	content := fmt.Sprintf("# %s\n\nOwners: %s, %s\nLast reviewed: 2026-04-%02d\n\n## Context\n\n%s %s, and the on-call rotation has paged on it twice this quarter.\n\n## Options considered\n\n1. Keep the current behaviour and add alerting.\n2. Rework %s.\n\n## Where we landed\n\n%s\n\n## Follow-ups\n\n- Load test before the next release.\n- Revisit once %s has metrics.\n",
		title(comp), who[0][0], who[1][0], g.day, title(g.p.name), pick(g.r, g.p.issues), comp, d, pick(g.r, g.p.comps))
	g.content[path] = content
	return &act{kind: actRead, path: path, content: content}
}

// giteaReviewsAct lists a pull request's reviews on the team's Gitea; one
// reviewer's body is d.
func (g *gen) giteaReviewsAct(d string) *act {
	who := pickN(g.r, drillPeople, 3)
	lines := []string{
		fmt.Sprintf("%s [COMMENT]: Left a couple of nits on %s.", who[0][1], pick(g.r, g.files)),
		fmt.Sprintf("%s [REQUEST_CHANGES]: Two options on the table for %s; let's pick one before merging.", who[1][1], pick(g.r, g.p.comps)),
		fmt.Sprintf("%s [APPROVED]: %s", who[2][1], d),
	}
	if g.r.chance(0.5) {
		lines = append(lines, fmt.Sprintf("%s [APPROVED]: LGTM once CI is green.", who[0][1]))
	}
	cmd := fmt.Sprintf("curl -s -H \"Authorization: token $GITEA_TOKEN\" https://git.northwind.dev/api/v1/repos/northwind/%s/pulls/%d/reviews | jq -r '.[] | \"\\(.user.login) [\\(.state)]: \\(.body)\"'", g.p.name, 100+g.r.intn(900))
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}
}

// fullerLogAct shows the last commits that touched a file, with full
// author and committer dates; one body holds d.
func (g *gen) fullerLogAct(d string) *act {
	path := pick(g.r, g.files)
	var b strings.Builder
	n := 2 + g.r.intn(2)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		who := pick(g.r, drillPeople)
		day := max(g.day-i*2, 1)
		h, m, s, _ := g.clock()
		date := fmt.Sprintf("%s Apr %d %02d:%02d:%02d 2026 +0000", drillWeekday(day), day, h, m, s)
		fmt.Fprintf(&b, "commit %s\nAuthor:     %s <%s@northwind.dev>\nAuthorDate: %s\nCommit:     %s <%s@northwind.dev>\nCommitDate: %s\n\n    %s %s\n",
			g.r.hex(40), who[0], who[1], date, who[0], who[1], date, title(pick(g.r, g.p.verbs)), pick(g.r, g.p.comps))
		if i == at {
			fmt.Fprintf(&b, "\n    %s\n", d)
		} else {
			fmt.Fprintf(&b, "\n    Covered by %s.\n", pick(g.r, g.tfiles))
		}
		if i < n-1 {
			b.WriteString("\n")
		}
	}
	return &act{kind: actRun, cmd: "git log --format=fuller -n " + fmt.Sprint(n) + " -- " + path, out: b.String()}
}

// wikiRawAct fetches the raw wikitext of the team's decision log; the
// newest entry is d.
func (g *gen) wikiRawAct(d string) *act {
	who := pickN(g.r, drillPeople, 2)
	page := title(g.p.name) + "/Decision_log"
	out := fmt.Sprintf("= %s decision log =\n\n== 2026-04-%02d: %s ==\n'''Status:''' accepted<br/>\n'''Owner:''' [[User:%s|%s]]\n\n%s\n\n== 2026-03-%02d: %s ==\n'''Status:''' superseded<br/>\n'''Owner:''' [[User:%s|%s]]\n\nKeep the defaults until we have numbers.\n\n[[Category:%s]]\n",
		title(g.p.name), g.day, pick(g.r, g.p.comps), who[0][1], who[0][0], d, 3+g.r.intn(25), pick(g.r, g.p.comps), who[1][1], who[1][0], title(g.p.name))
	return &act{kind: actRun, cmd: fmt.Sprintf("curl -s 'https://wiki.northwind.dev/index.php?title=%s&action=raw'", page), out: out}
}

// discourseAct reads a topic on the team's Discourse forum; the reply
// that settles it is d.
func (g *gen) discourseAct(d string) *act {
	who := pickN(g.r, drillPeople, 3)
	comp := pick(g.r, g.p.comps)
	out := fmt.Sprintf("--- %s (#1)\nWhat should we do about %s? %s %s and we keep patching around it.\n\n--- %s (#2)\nI can take whichever option we pick.\n\n--- %s (#3)\n%s\n\n",
		who[0][1], comp, title(g.p.name), pick(g.r, g.p.issues), who[1][1], who[2][1], d)
	cmd := fmt.Sprintf("curl -s -H \"Api-Key: $DISCOURSE_API_KEY\" -H 'Api-Username: system' 'https://forum.northwind.dev/t/%d.json?include_raw=true' | jq -r '.post_stream.posts[] | \"--- \\(.username) (#\\(.post_number))\\n\\(.raw)\\n\"'", 1000+g.r.intn(9000))
	return &act{kind: actRun, cmd: cmd, out: out}
}
