package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// blindForms plant the blind half's probes, in surfaces none of the other
// halves' forms use: coverage reports, `find -newer`, pull request bodies,
// shell history, BuildKit logs, repro scripts, `systemctl status`, cron
// mail, API error bodies, the PostgreSQL server log, migration loops,
// Atlantis comments, retry wrappers, nginx access logs with ULIDs, `git
// bisect`, `docker ps -a`, image digests, pgbench, ApacheBench,
// Lighthouse, `du`, Redis INFO, heap profiles and GC logs, per-test
// durations, curl timings and psql's \timing; decisions in ADRs, pull
// request bodies, review replies and the user's own words; constraints in
// checklists, quoted tickets, review threads, chat pastes and policy
// excerpts. Each returns its probe as the session holds it.
var blindForms = []*form{
	// paths
	{"coverage-table-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		a, probe := g.coverageAct(p)
		g.step(g.announce("other", map[string]string{"what": "which lines the tests never reach"}), a)
		return probe
	}},
	{"find-newer-path", "path", siteOutput, func(g *gen) string {
		p := g.rarePath(false)
		g.step(g.announce("other", map[string]string{"what": "what changed since the last pull"}), g.findNewerAct(p))
		return p
	}},
	{"pr-body-files-path", "path", siteInput, func(g *gen) string {
		p := g.rarePath(false)
		var files []string
		for _, f := range pickN(g.r, g.files, 1+g.r.intn(3)) {
			files = append(files, fmt.Sprintf("- `%s`: %s", f, pick(g.r, []string{"tidy-up", "log the " + pick(g.r, g.p.nouns) + " id", "rename a helper"})))
		}
		files = slices.Insert(files, g.r.intn(len(files)+1), fmt.Sprintf("- `%s`: the actual fix", p))
		body := fmt.Sprintf("## Summary\n\nFixes %s.\n\n## Files\n\n%s\n\n## Testing\n\n- `%s`\n", pick(g.r, g.p.comps), strings.Join(files, "\n"), g.testCmd(pick(g.r, g.testTargets)))
		g.step(g.announce("other", map[string]string{"what": "the pull request"}), g.prCreateAct(body))
		return p
	}},
	{"user-path-paste", "path", siteUser, func(g *gen) string {
		p := g.rarePath(false)
		g.say(fill(pick(g.r, userPathForms.of(g.half)), map[string]string{"path": p}))
		return p
	}},
	{"prose-path-narrowed", "path", siteAssistant, func(g *gen) string {
		p := g.rarePath(false)
		g.step(fill(pick(g.r, prosePathForms.of(g.half)), map[string]string{"path": p}), g.testAct(0, "", nil))
		return p
	}},
	// commands
	{"shell-history-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "what was run on the box before"}), g.historyAct(c))
		return c
	}},
	{"docker-build-run-command", "command", siteOutput, func(g *gen) string {
		c := g.rareCommand()
		g.step(g.announce("other", map[string]string{"what": "the image build"}), g.dockerBuildAct(c))
		return c
	}},
	{"repro-script-command", "command", siteInput, func(g *gen) string {
		c := g.rareCommand()
		path := fmt.Sprintf("scripts/repro-%s.sh", kebab(g.nounWords()...))
		content := fmt.Sprintf("#!/usr/bin/env bash\n# Reproduces %s %s.\nset -euo pipefail\ncd \"$(git rev-parse --show-toplevel)\"\n\n%s\n", pick(g.r, g.p.comps), pick(g.r, g.p.issues), c)
		g.step(g.announce("edit", map[string]string{"path": path}), g.writeFileAct(path, content))
		return c
	}},
	{"user-chat-command", "command", siteUser, func(g *gen) string {
		c := g.rareCommand()
		g.say(fill(pick(g.r, userCommandForms.of(g.half)), map[string]string{"cmd": c}))
		return c
	}},
	{"prose-command-minimal", "command", siteAssistant, func(g *gen) string {
		c := g.rareCommand()
		g.step(fill(pick(g.r, proseCommandForms.of(g.half)), map[string]string{"cmd": c}), g.testAct(1, "", nil))
		return c
	}},
	// errors
	{"systemctl-status-error", "error", siteOutput, func(g *gen) string {
		a, probe := g.systemctlAct(g.rareError())
		g.step(g.announce("other", map[string]string{"what": "the unit's status"}), a)
		return probe
	}},
	{"cron-mail-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the mail cron sent overnight"}), g.cronMailAct(e))
		return e
	}},
	{"api-error-body", "error", siteOutput, func(g *gen) string {
		// The body is JSON: draw an error it leaves as it is, so that a
		// reader that decodes it and one that shows it hold the same text.
		e := g.rareError()
		for i := 0; i < 20 && jsonInner(e) != e; i++ {
			e = g.rareError()
		}
		g.step(g.announce("other", map[string]string{"what": "the failing endpoint by hand"}), g.apiErrorAct(e))
		return jsonInner(e)
	}},
	{"postgres-server-log-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("psql")
		g.step(g.announce("other", map[string]string{"what": "the database server's log"}), g.pgServerLogAct(e))
		return e
	}},
	{"mysql-migration-loop-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("mysql")
		g.step(g.announce("other", map[string]string{"what": "the migrations one by one"}), g.mysqlLoopAct(e))
		return e
	}},
	{"atlantis-comment-error", "error", siteOutput, func(g *gen) string {
		e := g.rareErrorOf("tf")
		g.step(g.announce("other", map[string]string{"what": "the plan on the pull request"}), g.atlantisAct(e))
		return e
	}},
	{"retry-wrapper-error", "error", siteOutput, func(g *gen) string {
		e := g.rareError()
		g.step(g.announce("other", map[string]string{"what": "the job with its retry wrapper"}), g.retryAct(e))
		return e
	}},
	{"user-chat-error", "error", siteUser, func(g *gen) string {
		e := g.rareError()
		g.say(fill(pick(g.r, userErrorForms.of(g.half)), map[string]string{"err": e}))
		return e
	}},
	// identifiers
	{"ulid-access-log-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.accessLogAct()
		g.step(g.announce("other", map[string]string{"what": "the access log around the failure"}), a)
		return id
	}},
	{"bisect-first-bad-sha", "identifier", siteOutput, func(g *gen) string {
		a, id := g.bisectAct()
		g.step(g.announce("other", map[string]string{"what": "which commit introduced it"}), a)
		return id
	}},
	{"docker-ps-exited-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.dockerPsAct()
		g.step(g.announce("other", map[string]string{"what": "the stopped containers"}), a)
		return id
	}},
	{"image-digest-id", "identifier", siteOutput, func(g *gen) string {
		a, id := g.imageDigestAct()
		g.step(g.announce("other", map[string]string{"what": "which image each pod runs"}), a)
		return id
	}},
	{"user-incident-id", "identifier", siteUser, func(g *gen) string {
		id := g.uniq(func(g *gen) string {
			if g.r.chance(0.5) {
				return g.ulid()
			}
			return "Q" + strings.ToUpper(g.r.alnum(13))
		})
		g.say(fill(pick(g.r, userIDForms.of(g.half)), map[string]string{"id": id}))
		return id
	}},
	{"prose-issue-ref", "identifier", siteAssistant, func(g *gen) string {
		id := g.uniq(func(g *gen) string { return fmt.Sprintf("northwind/%s#%d", g.p.name, 100+g.r.intn(9900)) })
		g.step(fill(pick(g.r, proseIDForms.of(g.half)), map[string]string{"id": id}), g.testAct(0, "", nil))
		return id
	}},
	// measurements
	{"pgbench-latency", "measurement", siteOutput, func(g *gen) string {
		a, v := g.pgbenchAct()
		g.step(g.announce("other", map[string]string{"what": "the query under concurrent load"}), a)
		return v
	}},
	{"ab-time-per-request", "measurement", siteOutput, func(g *gen) string {
		a, v := g.abAct()
		g.step(g.announce("other", map[string]string{"what": "the endpoint with ApacheBench"}), a)
		return v
	}},
	{"lighthouse-audit", "measurement", siteOutput, func(g *gen) string {
		a, v := g.lighthouseAct()
		g.step(g.announce("other", map[string]string{"what": "the page's web vitals"}), a)
		return v
	}},
	{"du-disk-usage", "measurement", siteOutput, func(g *gen) string {
		a, v := g.duAct()
		g.step(g.announce("other", map[string]string{"what": "where the disk went"}), a)
		return v
	}},
	{"redis-info-memory", "measurement", siteOutput, func(g *gen) string {
		a, v := g.redisInfoAct()
		g.step(g.announce("other", map[string]string{"what": "Redis memory"}), a)
		return v
	}},
	{"heap-profile-figure", "measurement", siteOutput, func(g *gen) string {
		a, v := g.heapProfileAct()
		g.step(g.announce("other", map[string]string{"what": "the memory profile"}), a)
		return v
	}},
	{"slow-test-duration", "measurement", siteOutput, func(g *gen) string {
		a, v := g.slowTestsAct()
		g.step(g.announce("other", map[string]string{"what": "the slowest tests"}), a)
		return v
	}},
	{"curl-timing-ttfb", "measurement", siteOutput, func(g *gen) string {
		a, v := g.curlTimingAct()
		g.step(g.announce("other", map[string]string{"what": "where the request time goes"}), a)
		return v
	}},
	{"psql-timing", "measurement", siteOutput, func(g *gen) string {
		a, v := g.psqlTimingAct()
		g.step(g.announce("other", map[string]string{"what": "how long the update takes"}), a)
		return v
	}},
	// decisions
	{"decision-adr-file", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the decision record"}), g.adrAct(d))
		return d
	}},
	{"decision-pr-body", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		design := "## Design\n\n" + d
		if strings.HasPrefix(d, "## ") {
			design = d
		}
		body := fmt.Sprintf("## Summary\n\n%s\n\n%s\n\n## Testing\n\n- `%s` passes locally\n", title(fill("fixes {comp}, which {issue}", map[string]string{"comp": pick(g.r, g.p.comps), "issue": pick(g.r, g.p.issues)})),
			design, g.testCmd(pick(g.r, g.testTargets)))
		g.step(g.announce("other", map[string]string{"what": "the pull request"}), g.prCreateAct(body))
		return d
	}},
	{"decision-review-reply", "decision", siteInput, func(g *gen) string {
		d := g.decision()
		g.step(g.announce("other", map[string]string{"what": "the reviewer's question"}), g.reviewReplyAct(d))
		return d
	}},
	{"decision-user-choice", "decision", siteUser, func(g *gen) string {
		d := g.userDecision()
		g.say(d)
		return d
	}},
	{"decision-after-revert", "decision", siteAssistant, func(g *gen) string {
		d := g.decision()
		p := g.routinePath()
		lead := fmt.Sprintf(pick(g.r, []string{"That attempt made things worse (%d failures), so I reverted %s.", "Reverted %[2]s: the first attempt broke %[1]d tests.",
			"Backing out my change to %[2]s, it left %[1]d tests red."}), 2+g.r.intn(9), p)
		g.step(lead+"\n\n"+d, &act{kind: actRun, cmd: "git restore " + p, out: ""})
		return d
	}},
	// constraints
	{"constraint-task-checklist", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		g.say("- [ ] " + c)
		return c
	}},
	{"constraint-task-quoted", "constraint", siteTask, func(g *gen) string {
		c := g.constraint()
		if len(g.userTx) == 0 {
			g.say("From the ticket: " + c)
		} else {
			g.say("Also from the ticket: " + c)
		}
		return c
	}},
	{"constraint-review-thread", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		who := pick(g.r, []string{"mkowalski", "jdiaz", "aoyelaran", "lfischer"})
		g.say(fmt.Sprintf("Carrying over a comment from the review on #%d:\n> @%s: %s\n", 100+g.r.intn(900), who, c))
		return c
	}},
	{"constraint-chat-paste", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		who := pick(g.r, []string{"maria.k", "dev-lead", "sam (platform)", "yusuf"})
		g.say(fmt.Sprintf("From the team channel:\n[%02d:%02d] %s: %s", 9+g.r.intn(9), g.r.intn(60), who, c))
		return c
	}},
	{"constraint-policy-excerpt", "constraint", siteUser, func(g *gen) string {
		c := g.constraint()
		g.say(fmt.Sprintf("Per ADR-%04d in docs/adr: %s", 3+g.r.intn(40), c))
		return c
	}},
}

// userDecision is a decision as the user words it: the session's next
// alternative, in a phrasing of blindUserDecisions.
func (g *gen) userDecision() string {
	a := g.altOrder[0]
	g.altOrder = append(g.altOrder[1:], a)
	return sentence(fill(pick(g.r, blindUserDecisions), map[string]string{"x": a.x, "y": a.y, "why": a.why, "c": pick(g.r, g.p.comps)}))
}

// crockford is the alphabet of ULIDs.
const crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

// ulid returns a ULID of the session's day: ten characters of
// milliseconds since the epoch, sixteen of randomness.
func (g *gen) ulid() string {
	ms := uint64(1775001600000) + uint64(g.day)*86400000 + uint64(g.r.intn(86400000))
	b := make([]byte, 26)
	for i := 9; i >= 0; i-- {
		b[i] = crockford[ms%32]
		ms /= 32
	}
	for i := 10; i < 26; i++ {
		b[i] = crockford[g.r.intn(32)]
	}
	return string(b)
}

// coverageAct prints a coverage report with path among the files, as the
// project's coverage tool does; it returns how the report names path.
func (g *gen) coverageAct(path string) (*act, string) {
	all := append(slices.Clone(g.files), path)
	shuffle(g.r, all)
	var b strings.Builder
	switch g.l.name {
	case "go":
		total := 0
		for _, f := range all {
			for k := 0; k < 1+g.r.intn(4); k++ {
				pct := fmt.Sprintf("%d.%d%%", g.r.intn(101), g.r.intn(10))
				if f == path {
					pct = "0.0%"
				}
				loc := fmt.Sprintf("%s/%s:%d:", g.p.module, f, 10+g.r.intn(300))
				fmt.Fprintf(&b, "%-72s %-28s %s\n", loc, g.fnName(), pct)
				total++
			}
		}
		fmt.Fprintf(&b, "%-72s %-28s %d.%d%%\n", "total:", "(statements)", 40+g.r.intn(50), g.r.intn(10))
		return &act{kind: actRun, cmd: "go test -coverprofile=/tmp/cover.out ./... >/dev/null && go tool cover -func=/tmp/cover.out", out: b.String()}, path
	case "python":
		fmt.Fprintf(&b, "%-56s %5s %6s %6s   %s\n%s\n", "Name", "Stmts", "Miss", "Cover", "Missing", strings.Repeat("-", 90))
		st, mi := 0, 0
		for _, f := range all {
			s := 20 + g.r.intn(300)
			m := g.r.intn(s / 3)
			if f == path {
				m = s/2 + g.r.intn(s/3)
			}
			st, mi = st+s, mi+m
			a := 10 + g.r.intn(100)
			fmt.Fprintf(&b, "%-56s %5d %6d %5d%%   %d-%d, %d\n", f, s, m, (s-m)*100/s, a, a+g.r.intn(20), a+30+g.r.intn(100))
		}
		fmt.Fprintf(&b, "%s\n%-56s %5d %6d %5d%%\n", strings.Repeat("-", 90), "TOTAL", st, mi, (st-mi)*100/st)
		return &act{kind: actRun, cmd: "coverage report -m --skip-covered=false", out: b.String()}, path
	case "ts":
		type row struct {
			pct  int
			text string
		}
		var rows []row
		for _, f := range all {
			pct := 3000 + g.r.intn(7000)
			if f == path {
				pct = g.r.intn(2500)
			}
			rows = append(rows, row{pct, fmt.Sprintf("%d.%02d%%  %s", pct/100, pct%100, g.abs(f))})
		}
		slices.SortStableFunc(rows, func(a, b row) int { return a.pct - b.pct })
		for _, r := range rows {
			b.WriteString(r.text + "\n")
		}
		return &act{kind: actRun, cmd: `jq -r 'to_entries[] | select(.key != "total") | "\(.value.lines.pct)%  \(.key)"' coverage/coverage-summary.json | sort -n`, out: b.String()}, path
	case "rust":
		fmt.Fprintf(&b, "%-60s %8s %15s %8s %10s %17s %9s\n%s\n", "Filename", "Regions", "Missed Regions", "Cover", "Lines", "Missed Lines", "Cover", strings.Repeat("-", 134))
		for _, f := range all {
			rg, ln := 40+g.r.intn(400), 60+g.r.intn(600)
			mr, ml := g.r.intn(rg/4), g.r.intn(ln/4)
			if f == path {
				mr, ml = rg/2+g.r.intn(rg/3), ln/2+g.r.intn(ln/3)
			}
			fmt.Fprintf(&b, "%-60s %8d %15d %7.2f%% %10d %17d %8.2f%%\n", f, rg, mr, float64(rg-mr)*100/float64(rg), ln, ml, float64(ln-ml)*100/float64(ln))
		}
		return &act{kind: actRun, cmd: "cargo llvm-cov --workspace --summary-only", out: b.String()}, path
	}
	report := "coverage/cobertura.xml"
	if g.l.name == "java" {
		report = "target/site/jacoco/jacoco.xml --src-roots src/main/java"
		if g.p.runner != "maven" {
			report = "build/reports/jacoco/test/jacocoTestReport.xml --src-roots src/main/java"
		}
	}
	b.WriteString("-------------\nDiff Coverage\nDiff: origin/main...HEAD, staged and unstaged changes\n-------------\n")
	lines, missing := 0, 0
	for _, f := range pickN(g.r, all, 3+g.r.intn(4)) {
		if f == path {
			continue
		}
		n := 5 + g.r.intn(60)
		m := g.r.intn(n / 3)
		lines, missing = lines+n, missing+m
		if m == 0 {
			fmt.Fprintf(&b, "%s (100%%)\n", f)
			continue
		}
		a := 10 + g.r.intn(300)
		fmt.Fprintf(&b, "%s (%.1f%%): Missing lines %d-%d\n", f, float64(n-m)*100/float64(n), a, a+m-1)
	}
	n := 20 + g.r.intn(80)
	m := n/2 + g.r.intn(n/3)
	lines, missing = lines+n, missing+m
	a := 10 + g.r.intn(300)
	fmt.Fprintf(&b, "%s (%.1f%%): Missing lines %d-%d,%d\n", path, float64(n-m)*100/float64(n), a, a+m-2, a+m+20)
	fmt.Fprintf(&b, "-------------\nTotal:   %d lines\nMissing: %d lines\nCoverage: %d%%\n-------------\n", lines, missing, (lines-missing)*100/lines)
	return &act{kind: actRun, cmd: "diff-cover " + report + " --compare-branch=origin/main", out: b.String()}, path
}

// findNewerAct lists the files changed since the last pull, path among
// them.
func (g *gen) findNewerAct(path string) *act {
	fs := pickN(g.r, append(slices.Clone(g.files), g.tfiles...), 3+g.r.intn(10))
	fs = append(fs, path)
	slices.Sort(fs)
	var b strings.Builder
	for _, f := range fs {
		b.WriteString("./" + f + "\n")
	}
	return &act{kind: actRun, cmd: "find . -type f -newer .git/ORIG_HEAD -not -path './.git/*' | sort", out: b.String()}
}

// prCreateAct opens a pull request with body.
func (g *gen) prCreateAct(body string) *act {
	t := fmt.Sprintf("%s: %s %s", lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "))
	cmd := fmt.Sprintf("gh pr create --base main --title %s --body \"$(cat <<'EOF'\n%sEOF\n)\"", shq(t), body)
	return &act{kind: actRun, cmd: cmd, out: fmt.Sprintf("\nCreating pull request for fix/%s into main in northwind/%s\n\nhttps://github.com/northwind/%s/pull/%d\n",
		kebab(g.nounWords()...), g.p.name, g.p.name, 100+g.r.intn(900))}
}

// reviewReplyAct answers a review comment with d.
func (g *gen) reviewReplyAct(d string) *act {
	pr, id := 100+g.r.intn(900), 1800000000+g.r.intn(99999999)
	q := fmt.Sprintf("> %s\n\n", pick(g.r, []string{"Is this the approach we want for " + pick(g.r, g.p.comps) + "?", "Did you consider the alternative here?", "Why this and not the simpler option?"}))
	cmd := fmt.Sprintf("gh api repos/northwind/%s/pulls/%d/comments/%d/replies -F body=@- --jq .html_url <<'EOF'\n%s%s\nEOF", g.p.name, pr, id, q, d)
	return &act{kind: actRun, cmd: cmd, out: fmt.Sprintf("https://github.com/northwind/%s/pull/%d#discussion_r%d\n", g.p.name, pr, id+1+g.r.intn(5000))}
}

// adrAct writes an architecture decision record holding d.
func (g *gen) adrAct(d string) *act {
	n := 3 + g.r.intn(40)
	comp := pick(g.r, g.p.comps)
	path := fmt.Sprintf("docs/adr/%04d-%s.md", n, kebab(append(g.words(1), g.nounWords()...)...))
	dec := "## Decision\n\n" + d
	if strings.HasPrefix(d, "## ") {
		dec = d
	}
	content := fmt.Sprintf("# %d. %s\n\nDate: 2026-04-%02d\n\n## Status\n\nAccepted\n\n## Context\n\n%s: %s %s. The current code was written before %s mattered.\n\n%s\n\n## Consequences\n\n- %s needs a follow-up in %s.\n- The runbook for %s changes.\n",
		n, title(comp), g.day, title(g.p.name), comp, pick(g.r, g.p.issues), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "), dec,
		title(pick(g.r, g.p.comps)), pick(g.r, g.p.dirs), pick(g.r, g.p.comps))
	return g.writeFileAct(path, content)
}

// writeFileAct writes a new file with its content in the tool input:
// SWE-agent's create command takes no content, and Codex's apply_patch
// puts a '+' before every line (a probe of several lines would not be
// there as written), so their agents write the file with a heredoc.
func (g *gen) writeFileAct(path, content string) *act {
	if g.ts.name == "swe-agent" || g.ts.name == "swe-agent-fc" || g.ts.name == "codex" {
		return &act{kind: actRun, cmd: "cat > " + path + " <<'EOF'\n" + content + "EOF", out: ""}
	}
	return &act{kind: actWrite, path: path, content: content}
}

// historyAct shows the tail of the shell history of the box, cmd among
// the commands.
func (g *gen) historyAct(cmd string) *act {
	ts := 1775001600 + g.day*86400 - 3*86400
	var lines []string
	add := func(c string) {
		ts += 20 + g.r.intn(900)
		lines = append(lines, fmt.Sprintf("#%d", ts), c)
	}
	routine := append(slices.Clone(g.p.cmds), "git status", "git pull --rebase", "ls -la", "cd "+g.root, g.logsCmd(), g.testCmd(pick(g.r, g.testTargets)), "vim "+pick(g.r, g.files), "htop", "df -h")
	n := 8 + g.r.intn(12)
	at := n/3 + g.r.intn(n/2)
	for i := 0; i < n; i++ {
		if i == at {
			add(cmd)
		}
		add(pick(g.r, routine))
	}
	return &act{kind: actRun, cmd: "tail -n 60 ~/.bash_history", out: strings.Join(lines, "\n") + "\n"}
}

// dockerBuildAct is a BuildKit build that fails in the RUN step of cmd.
func (g *gen) dockerBuildAct(cmd string) *act {
	base := map[string]string{"go": "golang:1.22-bookworm", "python": "python:3.11-slim-bookworm", "ts": "node:20-bookworm-slim", "rust": "rust:1.79-bookworm",
		"java": "maven:3.9-eclipse-temurin-17", "ops": "postgres:13-bookworm"}[g.l.name]
	var b strings.Builder
	fmt.Fprintf(&b, "#0 building with \"default\" instance using docker driver\n\n#1 [internal] load build definition from Dockerfile\n#1 transferring dockerfile: %d.%02dkB done\n#1 DONE 0.0s\n\n", 1+g.r.intn(3), g.r.intn(100))
	fmt.Fprintf(&b, "#2 [internal] load metadata for docker.io/library/%s\n#2 DONE %d.%ds\n\n#3 [internal] load .dockerignore\n#3 transferring context: 2B done\n#3 DONE 0.0s\n\n", base, 1+g.r.intn(3), g.r.intn(10))
	fmt.Fprintf(&b, "#4 [app 1/7] FROM docker.io/library/%s@sha256:%s\n#4 CACHED\n\n#5 [internal] load build context\n#5 transferring context: %d.%02dMB %d.%ds done\n#5 DONE %d.%ds\n\n", base, g.r.hex(64), 1+g.r.intn(90), g.r.intn(100), g.r.intn(3), g.r.intn(10), g.r.intn(3), g.r.intn(10))
	b.WriteString("#6 [app 2/7] WORKDIR /app\n#6 CACHED\n\n#7 [app 3/7] COPY . .\n#7 DONE 0.4s\n\n")
	fmt.Fprintf(&b, "#8 [app 4/7] RUN %s\n", cmd)
	var logs []string
	t := 0
	for i := 0; i < 3+g.r.intn(12); i++ {
		t += 50 + g.r.intn(900)
		l := fmt.Sprintf("#8 %d.%03d %s", t/1000, t%1000, g.logLine("info", pick(g.r, routineLogMsgs)))
		logs = append(logs, l)
		b.WriteString(l + "\n")
	}
	t += 100 + g.r.intn(900)
	last := fmt.Sprintf("#8 %d.%03d %s", t/1000, t%1000, g.logLine("error", g.routineError()))
	b.WriteString(last + "\n")
	fmt.Fprintf(&b, "#8 ERROR: process \"/bin/sh -c %s\" did not complete successfully: exit code: 1\n------\n > [app 4/7] RUN %s:\n", cmd, cmd)
	for _, l := range append(logs[max(len(logs)-3, 0):], last) {
		b.WriteString(strings.TrimPrefix(l, "#8 ") + "\n")
	}
	line := 8 + g.r.intn(20)
	fmt.Fprintf(&b, "------\nDockerfile:%d\n--------------------\n  %d |     COPY . .\n  %d | >>> RUN %s\n  %d |     \n--------------------\nERROR: failed to solve: process \"/bin/sh -c %s\" did not complete successfully: exit code: 1\n", line, line-1, line, cmd, line+1, cmd)
	return &act{kind: actRun, cmd: fmt.Sprintf("docker build --progress=plain -t %s:debug .", pick(g.r, g.p.hosts)), out: b.String(), exit: 1}
}

// systemctlAct is `systemctl status` of a unit that failed with e logged
// last; it returns e as the output holds it.
func (g *gen) systemctlAct(e string) (*act, string) {
	unit := pick(g.r, g.p.hosts)
	host := fmt.Sprintf("ip-10-0-%d-%d", g.r.intn(250), 2+g.r.intn(250))
	pid := 1000 + g.r.intn(90000)
	h, m, s, _ := g.clock()
	day := fmt.Sprintf("Apr %02d", g.day)
	stamp := func(dh, dm, ds int) string { return fmt.Sprintf("%s %02d:%02d:%02d", day, dh, dm, ds) }
	var b strings.Builder
	fmt.Fprintf(&b, "× %s.service - %s\n     Loaded: loaded (/etc/systemd/system/%s.service; enabled; preset: enabled)\n", unit, unit, unit)
	fmt.Fprintf(&b, "     Active: failed (Result: exit-code) since %s 2026-04-%02d %02d:%02d:%02d UTC; %dmin %ds ago\n", weekday(g.day)[:3], g.day, h, m, s, 1+g.r.intn(20), g.r.intn(60))
	fmt.Fprintf(&b, "   Duration: %dmin %d.%03ds\n    Process: %d ExecStart=/opt/%s/bin/%s --config /etc/%s/config.yaml (code=exited, status=1/FAILURE)\n   Main PID: %d (code=exited, status=1/FAILURE)\n        CPU: %d.%03ds\n\n",
		1+g.r.intn(90), g.r.intn(60), g.r.intn(1000), pid, g.p.name, unit, g.p.name, pid, 1+g.r.intn(60), g.r.intn(1000))
	var line string
	n := 4 + g.r.intn(6)
	for i := 0; i < n; i++ {
		if i == n-1 {
			line = g.logLine("error", e)
		} else {
			line = g.logLine(pick(g.r, []string{"info", "info", "warn"}), pick(g.r, routineLogMsgs))
		}
		fmt.Fprintf(&b, "%s %s %s[%d]: %s\n", stamp(h, m, max(s-n+i, 0)), host, unit, pid, line)
	}
	fmt.Fprintf(&b, "%s %s systemd[1]: %s.service: Main process exited, code=exited, status=1/FAILURE\n%s %s systemd[1]: %s.service: Failed with result 'exit-code'.\n", stamp(h, m, s), host, unit, stamp(h, m, s), host, unit)
	return &act{kind: actRun, cmd: fmt.Sprintf("systemctl status %s.service --no-pager -l", unit), out: b.String(), exit: 3}, asLogged(line, e)
}

// cronMailAct reads the local mailbox, where cron left the output of a
// failed job ending in e.
func (g *gen) cronMailAct(e string) *act {
	host := pick(g.r, g.p.hosts)
	job := fmt.Sprintf("/opt/%s/bin/%s-%s.sh", g.p.name, pick(g.r, g.p.verbs), kebab(g.nounWords()...))
	var b strings.Builder
	fmt.Fprintf(&b, "From app@%s  %s Apr %2d 03:%02d:%02d 2026\nReturn-Path: <app@%s>\nX-Original-To: app\nDelivered-To: app@%s\nFrom: root@%s (Cron Daemon)\nTo: app@%s\n", host, weekday(g.day)[:3], g.day, g.r.intn(60), g.r.intn(60), host, host, host, host)
	fmt.Fprintf(&b, "Subject: Cron <app@%s> %s >> /var/log/%s/cron.log\nContent-Type: text/plain; charset=UTF-8\nX-Cron-Env: <SHELL=/bin/sh>\nX-Cron-Env: <HOME=/home/app>\nMessage-Id: <%s@%s>\nDate: %s, %d Apr 2026 03:%02d:%02d +0000\n\n",
		host, job, g.p.name, g.r.hex(16), host, weekday(g.day)[:3], g.day, g.r.intn(60), g.r.intn(60))
	for i := 0; i < 2+g.r.intn(5); i++ {
		fmt.Fprintf(&b, "%s: %s %s\n", lastDir(job), pick(g.r, g.p.verbs), pick(g.r, g.p.tables))
	}
	fmt.Fprintf(&b, "%s\n%s: exiting with status 1\n\n", e, lastDir(job))
	return &act{kind: actRun, cmd: "tail -n 80 /var/mail/app", out: b.String()}
}

// apiErrorAct calls an endpoint of the service that answers with e in
// its error body.
func (g *gen) apiErrorAct(e string) *act {
	host := pick(g.r, g.p.hosts)
	body := obj{{"error", obj{{"code", pick(g.r, []string{"internal", "unavailable", "upstream_failure"})}, {"message", e},
		{"request_id", g.ulid()}, {"retryable", g.r.chance(0.5)}}}}
	raw, _ := indent(body, "  ")
	url := fmt.Sprintf("https://%s.staging.internal/v1/%ss/%d", host, strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"), 1000+g.r.intn(90000))
	return &act{kind: actRun, cmd: fmt.Sprintf("curl -sS -X POST %s -H 'Content-Type: application/json' -d '{}' | jq .", url), out: string(raw)}
}

// pgServerLogAct tails the PostgreSQL server log, where a statement failed
// with e.
func (g *gen) pgServerLogAct(e string) *act {
	var lines []string
	ts := func() (string, int) {
		h, m, s, ms := g.clock()
		return fmt.Sprintf("2026-04-%02d %02d:%02d:%02d.%03d UTC", g.day, h, m, s, ms), 1000 + g.r.intn(90000)
	}
	for i := 0; i < int(float64(15+g.r.intn(40))*g.scale); i++ {
		t, pid := ts()
		switch g.r.intn(4) {
		case 0:
			lines = append(lines, fmt.Sprintf("%s [%d] LOG:  checkpoint starting: time", t, pid))
		case 1:
			lines = append(lines, fmt.Sprintf("%s [%d] LOG:  checkpoint complete: wrote %d buffers (%d.%d%%); 0 WAL file(s) added, %d removed, %d recycled", t, pid, 100+g.r.intn(9000), g.r.intn(20), g.r.intn(10), g.r.intn(4), g.r.intn(4)))
		case 2:
			lines = append(lines, fmt.Sprintf("%s [%d] LOG:  automatic vacuum of table \"app.public.%s\": index scans: %d", t, pid, pick(g.r, g.p.tables), g.r.intn(3)))
		default:
			lines = append(lines, fmt.Sprintf("%s [%d] app@app LOG:  connection authorized: user=app database=app application_name=%s", t, pid, pick(g.r, g.p.hosts)))
		}
	}
	t, pid := ts()
	tb := pick(g.r, g.p.tables)
	bad := fmt.Sprintf("%s [%d] app@app ERROR:  %s\n%s [%d] app@app STATEMENT:  UPDATE %s SET status = 'closed', updated_at = now() WHERE id = ANY($1)", t, pid, e, t, pid, tb)
	return &act{kind: actRun, cmd: "sudo tail -n 300 /var/log/postgresql/postgresql-13-main.log", out: insertLines(g, lines, []string{bad})}
}

// mysqlLoopAct applies migrations one at a time until one fails with e.
func (g *gen) mysqlLoopAct(e string) *act {
	first := 20 + g.r.intn(60)
	var b strings.Builder
	for i := 0; i < 2+g.r.intn(6); i++ {
		fmt.Fprintf(&b, "== sql/migrations/%04d_%s_%s.sql\n", first+i, pick(g.r, g.p.verbs), snake(g.nounWords()...))
	}
	b.WriteString(e + "\n")
	return &act{kind: actRun, cmd: "for f in sql/migrations/*.sql; do echo \"== $f\"; mysql --defaults-extra-file=.my.cnf app < \"$f\" || break; done", out: b.String()}
}

// atlantisAct reads the comments of a pull request, where Atlantis
// reported a failed plan with e.
func (g *gen) atlantisAct(e string) *act {
	pr := 100 + g.r.intn(900)
	dir := "terraform/" + snake(g.nounWords()...)
	res, name := pick(g.r, []string{"aws_db_instance", "aws_sqs_queue", "aws_elasticache_replication_group"}), snake(g.nounWords()...)
	line := 5 + g.r.intn(200)
	repo := fmt.Sprintf("/atlantis-data/repos/northwind/%s/%d/default", g.p.name, pr)
	var b strings.Builder
	fmt.Fprintf(&b, "author:\t%s\nassociation:\tmember\nedited:\tfalse\nstatus:\tnone\n--\natlantis plan -d %s\n--\n", pick(g.r, []string{"mkowalski", "jdiaz", "lfischer"}), dir)
	fmt.Fprintf(&b, "author:\tatlantis-bot\nassociation:\tnone\nedited:\tfalse\nstatus:\tnone\n--\nRan Plan for dir: `%s` workspace: `default`\n\n**Plan Error**\n\n```\n", dir)
	fmt.Fprintf(&b, "running \"/usr/local/bin/terraform plan -input=false -refresh -out \\\"%s/%s/default.tfplan\\\"\" in \"%s/%s\": exit status 1\n", repo, dir, repo, dir)
	fmt.Fprintf(&b, "╷\n│ Error: %s\n│ \n│   with %s.%s,\n│   on main.tf line %d, in resource %q %q:\n│  %d: resource %q %q {\n│ \n╵\n```\n--\n", e, res, name, line, res, name, line, res, name)
	return &act{kind: actRun, cmd: fmt.Sprintf("gh pr view %d --comments", pr), out: b.String()}
}

// retryAct runs a job under a retry wrapper whose later attempts fail
// with e.
func (g *gen) retryAct(e string) *act {
	n := 4 + g.r.intn(3)
	first := 1 + g.r.intn(2)
	var b strings.Builder
	job := fmt.Sprintf("./bin/%s-%s", pick(g.r, g.p.verbs), kebab(g.nounWords()...))
	for i := 1; i <= n; i++ {
		msg := e
		if i <= first {
			msg = g.routineError()
		}
		for k := 0; k < 1+g.r.intn(3); k++ {
			b.WriteString(g.logLine("info", pick(g.r, routineLogMsgs)) + "\n")
		}
		if i == n {
			fmt.Fprintf(&b, "[with-retry] attempt %d/%d: %s; giving up\n", i, n, msg)
			break
		}
		fmt.Fprintf(&b, "[with-retry] attempt %d/%d: %s; sleeping %ds\n", i, n, msg, 1<<i)
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("./scripts/with-retry.sh %d -- %s", n, job), out: b.String(), exit: 1}
}

// accessLogAct tails an nginx access log whose lines carry ULID request
// ids; the failed request's id is the probe.
func (g *gen) accessLogAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return g.ulid() })
	agents := []string{"okhttp/4.12.0", "Go-http-client/2.0", "python-httpx/0.27.0", "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15"}
	line := func(status int, rt string, rid string) string {
		h, m, s, _ := g.clock()
		method := pick(g.r, []string{"GET", "GET", "POST", "PUT"})
		return fmt.Sprintf("10.0.%d.%d - - [%02d/Apr/2026:%02d:%02d:%02d +0000] \"%s /v1/%ss/%d HTTP/1.1\" %d %d \"-\" \"%s\" rt=%s rid=%s", g.r.intn(250), 2+g.r.intn(250), g.day, h, m, s,
			method, strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"), 1000+g.r.intn(90000), status, 40+g.r.intn(4000), pick(g.r, agents), rt, rid)
	}
	var lines []string
	for i := 0; i < int(float64(20+g.r.intn(60))*g.scale); i++ {
		lines = append(lines, line(pick(g.r, []int{200, 200, 200, 201, 204, 304, 404}), fmt.Sprintf("0.%03d", g.r.intn(400)), g.ulid()))
	}
	bad := line(pick(g.r, []int{502, 504}), fmt.Sprintf("%d.%03d", 30+g.r.intn(30), g.r.intn(1000)), id)
	return &act{kind: actRun, cmd: "tail -n 400 /var/log/nginx/access.log", out: insertLines(g, lines, []string{bad})}, id
}

// bisectAct runs `git bisect run`; the first bad commit is the probe.
func (g *gen) bisectAct() (*act, string) {
	sha := g.uniq(func(g *gen) string { return g.r.hex(40) })
	subj := func() string {
		return fmt.Sprintf("%s: %s %s", lastDir(pick(g.r, g.p.dirs)), pick(g.r, g.p.verbs), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", " "))
	}
	var b strings.Builder
	left := 8 + g.r.intn(40)
	script := pick(g.r, []string{"./scripts/check.sh", "./scripts/bisect-test.sh"})
	for left > 0 {
		fmt.Fprintf(&b, "running  '%s'\n", script)
		for k := 0; k < 1+g.r.intn(3); k++ {
			b.WriteString(g.logLine("info", pick(g.r, routineLogMsgs)) + "\n")
		}
		left /= 2
		steps := 0
		for x := left; x > 0; x /= 2 {
			steps++
		}
		fmt.Fprintf(&b, "Bisecting: %d revisions left to test after this (roughly %d steps)\n[%s] %s\n", left, steps, g.r.hex(40), subj())
	}
	f := pick(g.r, g.files)
	ins, del := 2+g.r.intn(30), g.r.intn(20)
	who := pick(g.r, [][2]string{{"Priya Raman", "priya"}, {"Tom Becker", "tom"}, {"Ana Souza", "ana"}})
	fmt.Fprintf(&b, "running  '%s'\n%s is the first bad commit\ncommit %s\nAuthor: %s <%s@northwind.dev>\nDate:   %s Apr %d 16:%02d:%02d 2026 +0200\n\n    %s\n\n %s | %d %s\n 1 file changed, %d insertions(+), %d deletions(-)\nbisect found first bad commit\n",
		script, sha, sha, who[0], who[1], weekday(max(g.day-3, 1))[:3], max(g.day-3, 1), g.r.intn(60), g.r.intn(60), subj(), f, ins+del, strings.Repeat("+", min(ins, 20))+strings.Repeat("-", min(del, 10)), ins, del)
	return &act{kind: actRun, cmd: "git bisect run " + script, out: b.String()}, sha
}

// dockerPsAct lists stopped containers; the one killed is the probe.
func (g *gen) dockerPsAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return g.r.hex(12) })
	row := func(cid, image, cmd, created, status, name string) string {
		return fmt.Sprintf("%-14s %-44s %-24s %-15s %-28s %s", cid, image, cmd, created, status, name)
	}
	var rows []string
	bad := pick(g.r, g.p.hosts)
	for _, h := range g.p.hosts {
		if h == bad {
			continue
		}
		rows = append(rows, row(g.r.hex(12), fmt.Sprintf("registry.internal/%s/%s:1.%d.%d", g.p.name, h, g.r.intn(9), g.r.intn(30)), "\"/app/bin/"+h[:min(len(h), 8)]+"…\"", fmt.Sprintf("%d hours ago", 1+g.r.intn(9)), fmt.Sprintf("Exited (0) %d minutes ago", 5+g.r.intn(50)), g.p.name+"-"+h+"-1"))
	}
	for i := 0; i < 2+g.r.intn(4); i++ {
		rows = append(rows, row(g.r.hex(12), pick(g.r, []string{"postgres:13", "redis:7-alpine", "busybox:1.36"}), "\"docker-entrypoint.s…\"", fmt.Sprintf("%d days ago", 1+g.r.intn(9)), fmt.Sprintf("Exited (%d) %d days ago", pick(g.r, []int{0, 0, 1}), 1+g.r.intn(9)), fmt.Sprintf("%s_%s", pick(g.r, []string{"eager", "quirky", "sleepy", "brave"}), pick(g.r, []string{"turing", "hopper", "lovelace", "knuth"}))))
	}
	rows = slices.Insert(rows, g.r.intn(len(rows)+1), row(id, fmt.Sprintf("registry.internal/%s/%s:1.%d.%d", g.p.name, bad, g.r.intn(9), g.r.intn(30)), "\"/app/bin/"+bad[:min(len(bad), 8)]+"…\"", "About an hour ago", fmt.Sprintf("Exited (137) %d minutes ago", 2+g.r.intn(40)), g.p.name+"-"+bad+"-1"))
	out := row("CONTAINER ID", "IMAGE", "COMMAND", "CREATED", "STATUS", "NAMES") + "\n" + strings.Join(rows, "\n") + "\n"
	return &act{kind: actRun, cmd: "docker ps -a --filter status=exited", out: out}, id
}

// imageDigestAct lists the image each pod of a deployment runs; the one
// pod on another digest is the probe.
func (g *gen) imageDigestAct() (*act, string) {
	id := g.uniq(func(g *gen) string { return "sha256:" + g.r.hex(64) })
	host := pick(g.r, g.p.hosts)
	usual := "sha256:" + g.r.hex(64)
	var rows []string
	for i := 0; i < 3+g.r.intn(8); i++ {
		rows = append(rows, fmt.Sprintf("%-36s registry.internal/%s/%s@%s", fmt.Sprintf("%s-%s-%s", host, g.r.hex(10), g.r.alnum(5)), g.p.name, host, usual))
	}
	rows = slices.Insert(rows, g.r.intn(len(rows)+1), fmt.Sprintf("%-36s registry.internal/%s/%s@%s", fmt.Sprintf("%s-%s-%s", host, g.r.hex(10), g.r.alnum(5)), g.p.name, host, id))
	out := fmt.Sprintf("%-36s %s\n", "NAME", "IMAGE_ID") + strings.Join(rows, "\n") + "\n"
	return &act{kind: actRun, cmd: fmt.Sprintf("kubectl get pods -n %s -l app=%s -o custom-columns=NAME:.metadata.name,IMAGE_ID:.status.containerStatuses[0].imageID", g.p.name, host), out: out}, id
}

// pgbenchAct runs a custom pgbench script; the average latency is the
// probe.
func (g *gen) pgbenchAct() (*act, string) {
	var us int
	v := g.uniq(func(g *gen) string {
		us = 2000 + g.r.intn(120000)
		return fmt.Sprintf("latency average = %d.%03d ms", us/1000, us%1000)
	})
	clients := 8 * (1 + g.r.intn(8))
	tps := clients * 1000000 / us
	script := fmt.Sprintf("bench/%s_%s.sql", pick(g.r, g.p.verbs), snake(g.nounWords()...))
	processed := tps * 60
	out := fmt.Sprintf(`pgbench (16.2 (Ubuntu 16.2-1.pgdg22.04+1), server 13.14)
transaction type: %s
scaling factor: 1
query mode: prepared
number of clients: %d
number of threads: 4
maximum number of tries: 1
duration: 60 s
number of transactions actually processed: %d
number of failed transactions: 0 (0.000%%)
%s
latency stddev = %d.%03d ms
initial connection time = %d.%03d ms
tps = %d.%06d (without initial connection time)
`, script, clients, processed, v, us/3000, g.r.intn(1000), 20+g.r.intn(80), g.r.intn(1000), tps, g.r.intn(1000000))
	return &act{kind: actRun, cmd: fmt.Sprintf("pgbench -h %s -n -M prepared -c %d -j 4 -T 60 -f %s app", pick(g.r, g.p.hosts), clients, script), out: out}, v
}

// abAct runs ApacheBench against an endpoint; the mean time per request
// is the probe.
func (g *gen) abAct() (*act, string) {
	var us int
	v := g.uniq(func(g *gen) string {
		us = 20000 + g.r.intn(900000)
		return fmt.Sprintf("%d.%03d [ms] (mean)", us/1000, us%1000)
	})
	conc := 10 * (1 + g.r.intn(10))
	reqs := 1000 * (1 + g.r.intn(10))
	taken := reqs * us / conc / 1000 // ms
	path := fmt.Sprintf("/v1/%ss", strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"))
	doc := 200 + g.r.intn(3000)
	med := us / 1000 * (80 + g.r.intn(15)) / 100
	var pct strings.Builder
	for i, p := range []int{50, 66, 75, 80, 90, 95, 98, 99} {
		fmt.Fprintf(&pct, "  %d%%  %5d\n", p, med*(100+i*i*12)/100)
	}
	out := fmt.Sprintf(`This is ApacheBench, Version 2.3 <$Revision: 1913912 $>
Copyright 1996 Adam Twiss, Zeus Technology Ltd, http://www.zeustech.net/
Licensed to The Apache Software Foundation, http://www.apache.org/

Benchmarking localhost (be patient)
Completed %d requests
Finished %d requests


Server Software:        
Server Hostname:        localhost
Server Port:            8080

Document Path:          %s
Document Length:        %d bytes

Concurrency Level:      %d
Time taken for tests:   %d.%03d seconds
Complete requests:      %d
Failed requests:        0
Total transferred:      %d bytes
HTML transferred:       %d bytes
Requests per second:    %d.%02d [#/sec] (mean)
Time per request:       %s
Time per request:       %d.%03d [ms] (mean, across all concurrent requests)
Transfer rate:          %d.%02d [Kbytes/sec] received

Connection Times (ms)
              min  mean[+/-sd] median   max
Connect:        0    0   0.%d      0       %d
Processing:    %2d %4d %3d.%d   %4d    %4d
Waiting:       %2d %4d %3d.%d   %4d    %4d
Total:         %2d %4d %3d.%d   %4d    %4d

Percentage of the requests served within a certain time (ms)
%s 100%%  %5d (longest request)
`, reqs/2, reqs, path, doc, conc, taken/1000, taken%1000, reqs, reqs*(doc+240), reqs*doc, reqs*1000/max(taken, 1), g.r.intn(100), v,
		us/conc/1000, us/conc%1000, 100+g.r.intn(900), g.r.intn(100),
		g.r.intn(9), 1+g.r.intn(5), 5+g.r.intn(20), us/1000, us/4000, g.r.intn(10), med, us/1000*3, 4+g.r.intn(20), us/1000-1, us/4000, g.r.intn(10), med-1, us/1000*3-1,
		5+g.r.intn(20), us/1000, us/4000, g.r.intn(10), med, us/1000*3, pct.String(), us/1000*3)
	return &act{kind: actRun, cmd: fmt.Sprintf("ab -n %d -c %d -H 'Authorization: Bearer $TOKEN' http://localhost:8080%s", reqs, conc, path), out: out}, v
}

// lighthouseAct runs Lighthouse on a page and lists the audits' display
// values; the largest contentful paint or the total blocking time is the
// probe.
func (g *gen) lighthouseAct() (*act, string) {
	var lcp, tbt string
	lcpFirst := g.r.chance(0.5)
	v := g.uniq(func(g *gen) string {
		lcp = fmt.Sprintf("largest-contentful-paint: %d.%d s", 2+g.r.intn(9), g.r.intn(10))
		tbt = fmt.Sprintf("total-blocking-time: %s ms", commas(300+g.r.intn(4000)))
		if lcpFirst {
			return lcp
		}
		return tbt
	})
	lines := []string{
		fmt.Sprintf("first-contentful-paint: %d.%d s", 1+g.r.intn(3), g.r.intn(10)), lcp,
		fmt.Sprintf("speed-index: %d.%d s", 2+g.r.intn(6), g.r.intn(10)), tbt,
		fmt.Sprintf("max-potential-fid: %d ms", 100+g.r.intn(900)),
		fmt.Sprintf("cumulative-layout-shift: 0.%03d", g.r.intn(400)),
		fmt.Sprintf("server-response-time: Root document took %s ms", commas(100+g.r.intn(2000))),
		fmt.Sprintf("interactive: %d.%d s", 4+g.r.intn(9), g.r.intn(10)),
		fmt.Sprintf("bootup-time: %d.%d s", 1+g.r.intn(4), g.r.intn(10)),
		fmt.Sprintf("mainthread-work-breakdown: %d.%d s", 2+g.r.intn(8), g.r.intn(10)),
		fmt.Sprintf("dom-size: %s elements", commas(800+g.r.intn(3000))),
		fmt.Sprintf("unused-javascript: Potential savings of %d KiB", 50+g.r.intn(900)),
		fmt.Sprintf("render-blocking-resources: Potential savings of %s ms", commas(100+g.r.intn(1500))),
		fmt.Sprintf("total-byte-weight: Total size was %s KiB", commas(900+g.r.intn(4000))),
	}
	url := fmt.Sprintf("http://localhost:3000/%ss", strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"))
	cmd := fmt.Sprintf(`npx lighthouse %s --only-categories=performance --output=json --quiet --chrome-flags='--headless=new' | jq -r '.audits | to_entries[] | select(.value.displayValue != null) | "\(.key): \(.value.displayValue)"'`, url)
	return &act{kind: actRun, cmd: cmd, out: strings.Join(lines, "\n") + "\n"}, v
}

// commas prints n with thousands separators.
func commas(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// duAct sizes the directories a project's tools fill; the one that grew
// is the probe.
func (g *gen) duAct() (*act, string) {
	dirs := map[string][]string{
		"go":     {"/root/.cache/go-build", "/root/go/pkg/mod", "bin", "/tmp/" + g.p.name + "-profiles"},
		"python": {".venv", ".tox", ".mypy_cache", ".pytest_cache", "htmlcov"},
		"ts":     {"node_modules", "dist", "coverage", "node_modules/.cache", ".turbo"},
		"rust":   {"target/debug/deps", "target/debug/incremental", "target/release", "target/llvm-cov-target"},
		"java":   {"/root/.m2/repository", "target", "/root/.gradle/caches", "build/tmp"},
		"ops":    {"/var/lib/postgresql/13/main/base", "/var/lib/postgresql/13/main/pg_wal", "/var/lib/postgresql/13/main/pg_xact", "/var/lib/postgresql/13/main/pg_stat_tmp"},
	}[g.l.name]
	big := pick(g.r, dirs)
	var size string
	v := g.uniq(func(g *gen) string {
		size = fmt.Sprintf("%d.%dG", 3+g.r.intn(60), g.r.intn(10))
		return size + "\t" + big
	})
	type row struct {
		kb   int
		text string
	}
	var rows []row
	for _, d := range dirs {
		if d == big {
			continue
		}
		kb := 4 + g.r.intn(2000000)
		s := fmt.Sprintf("%dK", kb)
		if kb >= 1024 {
			s = fmt.Sprintf("%dM", kb/1024)
		}
		rows = append(rows, row{kb, s + "\t" + d})
	}
	slices.SortFunc(rows, func(a, b row) int { return a.kb - b.kb })
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(r.text + "\n")
	}
	b.WriteString(v + "\n")
	sudo := ""
	if g.l.name == "ops" {
		sudo = "sudo "
	}
	return &act{kind: actRun, cmd: sudo + "du -sh " + strings.Join(dirs, " ") + " 2>/dev/null | sort -h", out: b.String()}, v
}

// redisInfoAct prints Redis's memory section; the peak is the probe.
func (g *gen) redisInfoAct() (*act, string) {
	var peak int // hundredths of a GiB
	v := g.uniq(func(g *gen) string {
		peak = 150 + g.r.intn(1400)
		return fmt.Sprintf("used_memory_peak_human:%d.%02dG", peak/100, peak%100)
	})
	used := peak * (60 + g.r.intn(35)) / 100
	gib := func(x int) int { return x * (1 << 30) / 100 }
	maxm := (peak/100 + 1) * 100
	out := fmt.Sprintf(`# Memory
used_memory:%d
used_memory_human:%d.%02dG
used_memory_rss:%d
used_memory_rss_human:%d.%02dG
used_memory_peak:%d
%s
used_memory_peak_perc:%d.%02d%%
used_memory_overhead:%d
used_memory_startup:%d
used_memory_dataset:%d
used_memory_lua:31744
maxmemory:%d
maxmemory_human:%d.00G
maxmemory_policy:%s
allocator_frag_ratio:1.%02d
mem_fragmentation_ratio:1.%02d
mem_allocator:jemalloc-5.3.0
`, gib(used)+g.r.intn(1000), used/100, used%100, gib(used*11/10), used*11/10/100, used*11/10%100, gib(peak)+g.r.intn(1000), v, used*100/peak, g.r.intn(100),
		gib(used)/20, 900000+g.r.intn(100000), gib(used)*19/20, gib(maxm), maxm/100, pick(g.r, []string{"noeviction", "allkeys-lru", "volatile-lru"}), g.r.intn(10), 5+g.r.intn(60))
	return &act{kind: actRun, cmd: fmt.Sprintf("redis-cli -h %s-redis INFO memory", pick(g.r, g.p.hosts)), out: out}, v
}

// heapProfileAct shows where the memory goes, with the project's memory
// tool; its headline figure is the probe.
func (g *gen) heapProfileAct() (*act, string) {
	var b strings.Builder
	switch g.l.name {
	case "go":
		var total, shown int // hundredths of a GB
		v := g.uniq(func(g *gen) string {
			total = 80 + g.r.intn(400)
			shown = total * (90 + g.r.intn(9)) / 100
			return fmt.Sprintf("Showing nodes accounting for %d.%02dGB, %d.%02d%% of %d.%02dGB total", shown/100, shown%100, shown*100/total, g.r.intn(100), total/100, total%100)
		})
		fmt.Fprintf(&b, "Fetching profile over HTTP from http://localhost:6060/debug/pprof/heap\nSaved profile in /root/pprof/pprof.%s.alloc_objects.alloc_space.inuse_objects.inuse_space.%03d.pb.gz\nFile: %s\nType: inuse_space\nTime: Apr %d, 2026 at %d:%02dam (UTC)\n%s\nDropped %d nodes (cum <= %d.%02dMB)\n      flat  flat%%   sum%%        cum   cum%%\n",
			lastDir(g.p.module), 1+g.r.intn(40), lastDir(g.p.module), g.day, 8+g.r.intn(3), g.r.intn(60), v, 20+g.r.intn(200), 1+g.r.intn(9), g.r.intn(100))
		left, sum := shown*10, 0 // MB
		for i := 0; i < 6+g.r.intn(6) && left > 0; i++ {
			x := left * (30 + g.r.intn(40)) / 100
			left -= x
			sum += x
			f := pick(g.r, g.files)
			fmt.Fprintf(&b, "%8d.%02dMB %5.2f%% %5.2f%% %8d.%02dMB %5.2f%%  %s/%s.(*%s).%s\n", x, g.r.intn(100), float64(x)/float64(total*10)*100, float64(sum)/float64(total*10)*100,
				x, g.r.intn(100), float64(x)/float64(total*10)*100, g.p.module, dirOf(f), pick(g.r, g.p.types), g.fnName())
		}
		return &act{kind: actRun, cmd: "go tool pprof -top -sample_index=inuse_space http://localhost:6060/debug/pprof/heap", out: b.String()}, v
	case "python":
		var mib, count int
		v := g.uniq(func(g *gen) string {
			mib, count = 100+g.r.intn(1900), 100000+g.r.intn(4000000)
			return fmt.Sprintf("size=%d MiB, count=%d, average=%d B", mib, count, mib*1048576/count)
		})
		b.WriteString("[ Top 10 ]\n")
		fmt.Fprintf(&b, "%s:%d: %s\n", g.abs(pick(g.r, g.files)), 10+g.r.intn(300), v)
		for i := 0; i < 9; i++ {
			kib, c := 100+g.r.intn(90000), 100+g.r.intn(90000)
			fmt.Fprintf(&b, "%s:%d: size=%d KiB, count=%d, average=%d B\n", g.abs(pick(g.r, g.files)), 10+g.r.intn(300), kib, c, kib*1024/c)
		}
		return &act{kind: actRun, cmd: fmt.Sprintf("python -X tracemalloc=25 scripts/mem_top.py --module %s --limit 10", g.p.module), out: b.String()}, v
	case "ts":
		pid, iso := 1000+g.r.intn(90000), fmt.Sprintf("0x%x", 0x5000000+g.r.intn(0xffffff))
		var v string
		var before int // tenths of a MB
		v = g.uniq(func(g *gen) string {
			before = 19000 + g.r.intn(1800)
			after := before - 50 - g.r.intn(400)
			return fmt.Sprintf("Mark-Compact %d.%d (%d.%d) -> %d.%d (%d.%d) MB, %d.%02d / 0.00 ms", before/10, before%10, (before+900)/10, g.r.intn(10), after/10, after%10, (before+920)/10, g.r.intn(10), 800+g.r.intn(2000), g.r.intn(100))
		})
		t := 40000 + g.r.intn(20000)
		for i := 0; i < 4+g.r.intn(6); i++ {
			t += 200 + g.r.intn(2000)
			x := before - 300 + g.r.intn(250)
			fmt.Fprintf(&b, "[%d:%s] %8d ms: Scavenge %d.%d (%d.%d) -> %d.%d (%d.%d) MB, %d.%02d / 0.00 ms  (average mu = 0.%03d, current mu = 0.%03d) allocation failure; \n", pid, iso, t, x/10, x%10, (x+800)/10, g.r.intn(10), (x-10)/10, g.r.intn(10), (x+840)/10, g.r.intn(10), 2+g.r.intn(20), g.r.intn(100), 100+g.r.intn(300), g.r.intn(300))
		}
		t += 500 + g.r.intn(3000)
		fmt.Fprintf(&b, "[%d:%s] %8d ms: %s  (average mu = 0.%03d, current mu = 0.%03d) allocation failure; scavenge might not succeed\n\n\n<--- Last few GCs --->\n\n<--- JS stacktrace --->\n\nFATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory\n", pid, iso, t, v, 50+g.r.intn(100), g.r.intn(60))
		return &act{kind: actRun, cmd: fmt.Sprintf("node --trace-gc --max-old-space-size=2048 dist/%s.js", pick(g.r, g.p.nouns)), out: b.String(), exit: 134}, v
	case "rust":
		v := g.uniq(func(g *gen) string {
			return fmt.Sprintf("At t-gmax: %s bytes in %s blocks", commas(100000000+g.r.intn(1900000000)), commas(1000+g.r.intn(90000)))
		})
		crate := crateOf(pick(g.r, g.p.dirs))
		for i := 0; i < 3+g.r.intn(8); i++ {
			b.WriteString(g.logLine("info", pick(g.r, routineLogMsgs)) + "\n")
		}
		fmt.Fprintf(&b, "dhat: Total:     %s bytes in %s blocks\ndhat: %s\ndhat: At t-end:  %s bytes in %d blocks\ndhat: The data has been saved to dhat-heap.json, and is viewable with dhat/dh_view.html\n",
			commas(2000000000+g.r.intn(900000000)), commas(1000000+g.r.intn(9000000)), v, commas(1000+g.r.intn(90000)), 3+g.r.intn(40))
		return &act{kind: actRun, cmd: fmt.Sprintf("cargo run -p %s --release --features dhat-heap -- replay --limit %d", crate, 10000*(1+g.r.intn(9))), out: b.String()}, v
	case "java":
		v := g.uniq(func(g *gen) string {
			heap := 1024 * (1 + g.r.intn(4))
			before := heap - g.r.intn(heap/20)
			return fmt.Sprintf("Pause Full (G1 Compaction Pause) %dM->%dM(%dM) %d.%03dms", before, before-g.r.intn(heap/5), heap, 500+g.r.intn(4000), g.r.intn(1000))
		})
		up := 30 + g.r.intn(3000)
		var lines []string
		for i := 0; i < 6+g.r.intn(10); i++ {
			up += 1 + g.r.intn(30)
			h, m, s, ms := g.clock()
			lines = append(lines, fmt.Sprintf("[2026-04-%02dT%02d:%02d:%02d.%03d+0000][%d.%03ds][info][gc] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) %dM->%dM(%dM) %d.%03dms", g.day, h, m, s, ms, up, g.r.intn(1000), 100+i, 600+g.r.intn(900), 200+g.r.intn(300), 2048, 5+g.r.intn(60), g.r.intn(1000)))
		}
		h, m, s, ms := g.clock()
		lines = append(lines, fmt.Sprintf("[2026-04-%02dT%02d:%02d:%02d.%03d+0000][%d.%03ds][info][gc] GC(%d) %s", g.day, h, m, s, ms, up+40, g.r.intn(1000), 100+len(lines), v))
		return &act{kind: actRun, cmd: fmt.Sprintf("grep -E 'Pause (Young|Full)' /var/log/%s/gc.log | tail -n 20", g.p.name), out: strings.Join(lines, "\n") + "\n"}, v
	}
	unit := "postgresql@13-main"
	v := g.uniq(func(g *gen) string {
		cur := 40 + g.r.intn(200)
		return fmt.Sprintf("Memory: %d.%dG (peak: %d.%dG)", cur/10, cur%10, (cur+20+g.r.intn(60))/10, g.r.intn(10))
	})
	pid := 1000 + g.r.intn(9000)
	fmt.Fprintf(&b, "● %s.service - PostgreSQL Cluster 13-main\n     Loaded: loaded (/lib/systemd/system/postgresql@.service; enabled-runtime; preset: enabled)\n     Active: active (running) since %s 2026-04-%02d 02:%02d:%02d UTC; %dh ago\n    Process: %d ExecStart=/usr/bin/pg_ctlcluster --skip-systemctl-redirect 13-main start (code=exited, status=0/SUCCESS)\n   Main PID: %d (postgres)\n      Tasks: %d (limit: 76978)\n     %s\n        CPU: %dh %dmin %d.%03ds\n     CGroup: /system.slice/system-postgresql.slice/postgresql@13-main.service\n",
		unit, weekday(g.day)[:3], g.day, g.r.intn(60), g.r.intn(60), 2+g.r.intn(20), pid-4, pid, 20+g.r.intn(200), v, 1+g.r.intn(9), g.r.intn(60), g.r.intn(60), g.r.intn(1000))
	for _, p := range []string{"checkpointer", "background writer", "walwriter", "autovacuum launcher", "logical replication launcher"} {
		fmt.Fprintf(&b, "             ├─%d \"postgres: 13/main: %s\"\n", pid+1+g.r.intn(40), p)
	}
	fmt.Fprintf(&b, "             └─%d /usr/lib/postgresql/13/bin/postgres -D /var/lib/postgresql/13/main -c config_file=/etc/postgresql/13/main/postgresql.conf\n", pid)
	return &act{kind: actRun, cmd: "systemctl status " + unit + " --no-pager", out: b.String()}, v
}

// slowTestsAct lists test durations as the project's test runner prints
// them; the slowest test's line is the probe.
func (g *gen) slowTestsAct() (*act, string) {
	target := pick(g.r, g.testTargets)
	var rows []string
	var v string
	n := 5 + g.r.intn(8)
	at := g.r.intn(n)
	for i := 0; i < n; i++ {
		slow := i == at
		var row string
		switch g.l.name {
		case "go":
			d := 10 + g.r.intn(400)
			if slow {
				row = g.uniq(func(g *gen) string {
					return fmt.Sprintf("--- PASS: %s (%d.%02ds)", g.testNameFor(), 20+g.r.intn(200), g.r.intn(100))
				})
			} else {
				row = fmt.Sprintf("--- PASS: %s (%d.%02ds)", g.testNameFor(), d/100, d%100)
			}
		case "python":
			if slow {
				row = g.uniq(func(g *gen) string {
					return fmt.Sprintf("%d.%02ds call     %s::%s", 20+g.r.intn(200), g.r.intn(100), pick(g.r, g.tfiles), g.testNameFor())
				})
			} else {
				d := 50 + g.r.intn(900)
				row = fmt.Sprintf("%d.%02ds %-8s %s::%s", d/100, d%100, pick(g.r, []string{"call", "setup", "teardown"}), pick(g.r, g.tfiles), g.testNameFor())
			}
		case "ts":
			name := func() string { return pick(g.r, g.p.types) + " › " + strings.Join(g.words(3), " ") }
			if slow {
				row = g.uniq(func(g *gen) string { return fmt.Sprintf("✓ %s (%d ms)", name(), 8000+g.r.intn(60000)) })
			} else {
				row = fmt.Sprintf("✓ %s (%d ms)", name(), 1+g.r.intn(900))
			}
		case "rust":
			name := func() string { return pick(g.r, g.p.nouns) + "::tests::" + snake(g.words(2)...) }
			if slow {
				row = g.uniq(func(g *gen) string {
					return fmt.Sprintf("test %s ... ok <%d.%03ds>", name(), 20+g.r.intn(200), g.r.intn(1000))
				})
			} else {
				row = fmt.Sprintf("test %s ... ok <%d.%03ds>", name(), g.r.intn(3), g.r.intn(1000))
			}
		case "java":
			cls := func() string { return javaPkg(pick(g.r, g.p.tests)) + "." + pick(g.r, g.p.types) + "Test" }
			if slow {
				row = g.uniq(func(g *gen) string {
					return fmt.Sprintf("Tests run: %d, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: %d.%03d s -- in %s", 3+g.r.intn(30), 40+g.r.intn(200), g.r.intn(1000), cls())
				})
			} else {
				row = fmt.Sprintf("Tests run: %d, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: %d.%03d s -- in %s", 3+g.r.intn(30), g.r.intn(4), g.r.intn(1000), cls())
			}
		default:
			file := func() string { return pick(g.r, append(slices.Clone(g.tfiles), g.files...)) }
			if slow {
				row = g.uniq(func(g *gen) string { return fmt.Sprintf("%s .. ok   %6d ms", file(), 20000+g.r.intn(200000)) })
			} else {
				row = fmt.Sprintf("%s .. ok   %6d ms", file(), 10+g.r.intn(3000))
			}
		}
		if slow {
			v = row
		}
		rows = append(rows, row)
	}
	switch g.l.name {
	case "go":
		return &act{kind: actRun, cmd: fmt.Sprintf("go test -v -count=1 ./%s/ 2>&1 | grep -E -- '^--- (PASS|FAIL)'", target), out: strings.Join(rows, "\n") + "\n"}, v
	case "python":
		slices.SortStableFunc(rows, func(a, b string) int { return durOf(b) - durOf(a) })
		return &act{kind: actRun, cmd: fmt.Sprintf("pytest %s -q --durations=%d -p no:randomly", target, n),
			out: fmt.Sprintf("%s\n============================= slowest %d durations =============================\n%s\n========================= %d passed in %d.%02ds =========================\n", strings.Repeat(".", 20+g.r.intn(60)), n, strings.Join(rows, "\n"), 20+g.r.intn(200), 30+g.r.intn(300), g.r.intn(100))}, v
	case "ts":
		for i := range rows {
			rows[i] = "    " + rows[i]
		}
		return &act{kind: actRun, cmd: fmt.Sprintf("npx jest %s --verbose --runInBand", target), out: fmt.Sprintf("PASS %s\n%s\n\nTests:       %d passed, %d total\n", target, strings.Join(rows, "\n"), n, n)}, v
	case "rust":
		return &act{kind: actRun, cmd: fmt.Sprintf("cargo test -p %s -- -Z unstable-options --report-time", crateOf(target)), out: fmt.Sprintf("\nrunning %d tests\n%s\n\ntest result: ok. %d passed; 0 failed; 0 ignored; 0 measured; 0 filtered out\n", n, strings.Join(rows, "\n"), n)}, v
	case "java":
		for i := range rows {
			rows[i] = "[INFO] " + rows[i]
		}
		return &act{kind: actRun, cmd: "mvn -B test | grep 'Tests run:'", out: strings.Join(rows, "\n") + "\n"}, v
	}
	for i := range rows {
		rows[i] = fmt.Sprintf("[%02d:%02d:%02d] ", 8+g.r.intn(2), g.r.intn(60), g.r.intn(60)) + rows[i]
	}
	return &act{kind: actRun, cmd: "pg_prove --timer -d pgops_test " + target, out: strings.Join(rows, "\n") + fmt.Sprintf("\nAll tests successful.\nFiles=%d, Tests=%d, %d wallclock secs\nResult: PASS\n", n, n*8, 30+g.r.intn(300))}, v
}

// durOf reads the leading seconds of a pytest durations row, in
// hundredths.
func durOf(row string) int {
	var s, cs int
	fmt.Sscanf(row, "%d.%ds", &s, &cs)
	return s*100 + cs
}

// curlTimingAct times a few requests with curl's write-out; the slow
// time to first byte is the probe.
func (g *gen) curlTimingAct() (*act, string) {
	url := fmt.Sprintf("https://%s.staging.internal/v1/%ss/%d", pick(g.r, g.p.hosts), strings.ReplaceAll(pick(g.r, g.p.nouns), "_", "-"), 1000+g.r.intn(90000))
	n := 4 + g.r.intn(4)
	at := g.r.intn(n)
	var v string
	var lines []string
	for i := 0; i < n; i++ {
		dns, conn, tls := 1000+g.r.intn(8000), 10000+g.r.intn(20000), 40000+g.r.intn(40000)
		ttfb := tls + 20000 + g.r.intn(200000)
		if i == at {
			v = g.uniq(func(g *gen) string {
				ttfb = tls + 1500000 + g.r.intn(6000000)
				return fmt.Sprintf("ttfb=%d.%06ds", ttfb/1000000, ttfb%1000000)
			})
		}
		total := ttfb + g.r.intn(3000)
		lines = append(lines, fmt.Sprintf("dns=0.%06ds connect=0.%06ds tls=0.%06ds ttfb=%d.%06ds total=%d.%06ds code=200", dns, conn, tls, ttfb/1000000, ttfb%1000000, total/1000000, total%1000000))
	}
	return &act{kind: actRun, cmd: fmt.Sprintf("for i in $(seq %d); do curl -o /dev/null -sS -w @scripts/curl-timing.txt %s; done", n, url), out: strings.Join(lines, "\n") + "\n"}, v
}

// psqlTimingAct runs an update with psql's \timing on; the time is the
// probe.
func (g *gen) psqlTimingAct() (*act, string) {
	var us int
	v := g.uniq(func(g *gen) string {
		us = 1200000 + g.r.intn(400000000)
		ms := us / 1000
		clock := fmt.Sprintf("%02d:%02d.%03d", ms/60000, ms/1000%60, ms%1000)
		return fmt.Sprintf("Time: %d.%03d ms (%s)", us/1000, us%1000, clock)
	})
	t := pick(g.r, g.p.tables)
	rows := 1000 + g.r.intn(900000)
	sql := fmt.Sprintf("UPDATE %s SET status = 'archived' WHERE created_at < now() - interval '90 days' AND status = 'closed'", t)
	return &act{kind: actRun, cmd: fmt.Sprintf("psql \"$DATABASE_URL\" -c '\\timing on' -c \"%s\"", sql), out: fmt.Sprintf("Timing is on.\nUPDATE %d\n%s\n", rows, v)}, v
}
