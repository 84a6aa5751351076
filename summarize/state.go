package summarize

import (
	"fmt"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/condense-dev/condense/ledger"
)

// This file sorts the runs of a span into the state of the work: what is
// done (and what was routine, as counts) and what is still failing.

// stat is what the runs of one action (one command line, or one tool on
// one file) add up to.
type stat struct {
	key         string
	last        run
	count       int
	fails       int
	okBefore    bool // a run succeeded before the latest failures
	failsSince  int  // failed runs since the last success
	errsSince   []ledger.Item
	first, at   int // order of first and latest run
	resolvedAft int // failed runs before the latest success, when it is one
}

// tally adds up the runs by action, in order of first run.
func tally(runs []run) []*stat {
	byKey := map[string]*stat{}
	var out []*stat
	for i, r := range runs {
		st := byKey[r.key]
		if st == nil {
			st = &stat{key: r.key, first: i}
			byKey[r.key] = st
			out = append(out, st)
		}
		st.count++
		if !r.known {
			// A masked run whose status was not kept: it neither fixes
			// nor repeats a failure, and the latest known run stands.
			if st.count == 1 {
				st.last, st.at = r, i
			}
			continue
		}
		st.last, st.at = r, i
		if r.failed {
			st.fails++
			st.failsSince++
			st.errsSince = append(st.errsSince, r.errs...)
			continue
		}
		st.resolvedAft = st.failsSince
		st.okBefore = true
		st.failsSince, st.errsSince = 0, nil
	}
	return out
}

// done writes what was done: the size of the span, the files written,
// commands that succeed now after failing, the latest passing test runs, then
// routine repeated actions as counts, then the previous summary's lines.
func (w writer) done(prev map[string][]string, act activity, stats []*stat) *section {
	s := &section{name: "Done", leftNote: "more", share: 0.12, keep: 3}
	failed := 0
	for _, r := range act.runs {
		if r.failed {
			failed++
		}
	}
	s.bullets = append(s.bullets, fmt.Sprintf("%s: %s, %s (%d failed)",
		plural(act.messages, "message"), plural(len(act.requests), "user request"), plural(len(act.runs), "tool step"), failed))
	if l := w.written(act.runs); l != "" {
		s.bullets = append(s.bullets, l)
	}
	// What the assistant reported in its latest answers.
	if n := len(act.reports); n > 0 {
		for _, r := range act.reports[max(0, n-2):] {
			s.bullets = append(s.bullets, "reported: "+r)
		}
	}
	shown := map[string]bool{}
	// Commands that succeed now after failing: the newest first.
	byRecent := append([]*stat(nil), stats...)
	sort.SliceStable(byRecent, func(i, j int) bool { return byRecent[i].at > byRecent[j].at })
	fixed := 0
	for _, st := range byRecent {
		if st.last.cmd == nil || st.last.failed || !st.last.known || st.resolvedAft == 0 || fixed == 3 {
			continue
		}
		fixed++
		shown[st.key] = true
		s.bullets = append(s.bullets, fmt.Sprintf("%s succeeds now, after %s", w.cmd(st.last), plural(st.resolvedAft, "failed run")))
	}
	// Commands a previous summary had open that succeed now.
	prevOpen := merge(prev["Failed / open"], prev["Pending"])
	for _, st := range byRecent {
		if st.last.cmd == nil || st.last.failed || !st.last.known || shown[st.key] || fixed == 3 || !reruns(prevOpen, st) {
			continue
		}
		fixed++
		shown[st.key] = true
		s.bullets = append(s.bullets, w.cmd(st.last)+" succeeds now, after failing before this span")
	}
	// The latest passing test runs not listed yet.
	tests := 0
	for _, st := range byRecent {
		if st.last.cmd == nil || st.last.failed || !st.last.known || !isTest(st.last.cmd.Value) || tests == 2 {
			continue
		}
		tests++
		if !shown[st.key] {
			shown[st.key] = true
			s.bullets = append(s.bullets, fmt.Sprintf("tests pass: %s%s", w.cmd(st.last), times(st.count)))
		}
	}
	// Repeated commands as counts, the most run first; those failing now
	// are under ## Failed / open.
	byCount := append([]*stat(nil), stats...)
	sort.SliceStable(byCount, func(i, j int) bool { return byCount[i].count > byCount[j].count })
	repeated := 0
	for _, st := range byCount {
		if st.last.cmd == nil || st.count < 3 || shown[st.key] || repeated == 3 || looks(st.last.cmd.Value) || st.last.failed {
			continue
		}
		repeated++
		shown[st.key] = true
		s.bullets = append(s.bullets, fmt.Sprintf("ran `%s` %d times (last: %s)", capString(st.last.cmd.Value, 80), st.count, status(st.last)))
	}
	if l := otherCommands(act.runs, shown); l != "" {
		s.bullets = append(s.bullets, l)
	}
	if l := readFiles(act.runs); l != "" {
		s.bullets = append(s.bullets, l)
	}
	if l := otherTools(act.runs); l != "" {
		s.bullets = append(s.bullets, l)
	}
	carried := 0
	for _, p := range merge(prev["Done"], nil) {
		if carried == 4 {
			break
		}
		carried++
		if !strings.HasPrefix(p, "before: ") {
			p = "before: " + p
		}
		s.bullets = append(s.bullets, p)
	}
	s.capBullets(w.maxB + 2)
	return s
}

// open writes the actions whose latest run failed, the newest first, each
// with the error lines of its failures since it last succeeded, and the
// previous summary's open items that no run of the span resolved.
func (w writer) open(prev map[string][]string, stats []*stat) *section {
	s := &section{name: "Failed / open", leftNote: "older failures", share: 0.15, keep: 2}
	byRecent := append([]*stat(nil), stats...)
	sort.SliceStable(byRecent, func(i, j int) bool { return byRecent[i].at > byRecent[j].at })
	for _, st := range byRecent {
		if !st.last.failed {
			continue
		}
		var b strings.Builder
		if st.last.cmd != nil {
			b.WriteString(w.cmd(st.last))
		} else {
			b.WriteString(st.last.desc + " failed")
		}
		switch {
		case st.failsSince > 1 && st.okBefore:
			fmt.Fprintf(&b, ", %d failed runs since it last succeeded", st.failsSince)
		case st.failsSince > 1:
			fmt.Fprintf(&b, ", %d failed runs", st.failsSince)
		case st.okBefore:
			b.WriteString(", after succeeding earlier")
		}
		if errs := latestErrors(st); len(errs) > 0 {
			b.WriteString(": ")
			for i, e := range errs {
				if i > 0 {
					b.WriteString("; ")
				}
				b.WriteString(w.item(e))
			}
		}
		s.bullets = append(s.bullets, b.String())
	}
	// The previous summary's open items, unless this span ran them again.
	for _, p := range merge(prev["Failed / open"], prev["Pending"]) {
		if !rerun(p, stats) {
			s.bullets = append(s.bullets, p)
		}
	}
	s.bullets = dedup(s.bullets)
	s.capBullets(w.maxB)
	return s
}

// rerun reports whether an open item of a previous summary names an action
// this span ran again: its outcome here replaces the item.
func rerun(line string, stats []*stat) bool {
	for _, st := range stats {
		if names(line, st) {
			return true
		}
	}
	return false
}

// reruns reports whether one of the open lines names st's action.
func reruns(lines []string, st *stat) bool {
	for _, l := range lines {
		if names(l, st) {
			return true
		}
	}
	return false
}

// names reports whether an open line (as open writes them) is about st's
// action.
func names(line string, st *stat) bool {
	if st.last.cmd != nil {
		head := ledger.Item{Kind: ledger.KindCommand, Value: st.last.cmd.Value}.String()
		return line == head || strings.HasPrefix(line, head+" ") || strings.HasPrefix(line, head+",") || strings.HasPrefix(line, head+":")
	}
	return strings.HasPrefix(line, st.last.desc+" failed")
}

// latestErrors returns up to two error lines of an action's failures since
// it last succeeded: those of its latest run first.
func latestErrors(st *stat) []ledger.Item {
	errs := append(append([]ledger.Item(nil), st.last.errs...), st.errsSince...)
	errs = ledger.Dedup(errs)
	if len(errs) > 2 {
		errs = errs[:2]
	}
	return errs
}

// cmd renders a run's command as its ledger item, with the exit status of
// that run: command "go test ./..." (exit 1).
func (w writer) cmd(r run) string {
	if r.cmd == nil {
		return r.desc
	}
	return w.item(*r.cmd)
}

// item renders a ledger item as the ledger does when it fits a bullet, so
// the summary holds it verbatim; a longer one is cut (and the strategy's
// ledger then carries it whole).
func (w writer) item(it ledger.Item) string {
	s := it.String()
	if len(s) <= w.maxLen {
		return s
	}
	it.Value = capString(it.Value, max(20, w.maxLen-len(it.Kind)-16))
	return it.String()
}

func status(r run) string {
	switch {
	case r.cmd != nil && r.cmd.Exit != nil:
		return "exit " + strconv.Itoa(*r.cmd.Exit)
	case r.failed:
		return "failed"
	case !r.known:
		return "status not kept"
	}
	return "ok"
}

// lookPrograms only look at things: repeated, they are routine, counted
// with the other commands rather than listed.
var lookPrograms = map[string]bool{"cat": true, "ls": true, "ll": true, "grep": true, "rg": true, "ag": true,
	"head": true, "tail": true, "find": true, "fd": true, "sed": true, "awk": true, "wc": true, "pwd": true,
	"cd": true, "echo": true, "tree": true, "less": true, "more": true, "nl": true, "stat": true, "file": true,
	"which": true, "diff": true, "git status": true, "git diff": true, "git log": true, "git show": true,
	"git branch": true, "git blame": true, "git grep": true}

// looks reports whether a command line only looks at things.
func looks(cmd string) bool { return lookPrograms[program(cmd)] }

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func times(n int) string {
	if n < 2 {
		return ""
	}
	return fmt.Sprintf(", run %d times", n)
}

// written lists the files written, the most recently written last.
func (w writer) written(runs []run) string {
	last := map[string]int{}
	for i, r := range runs {
		if r.failed {
			continue
		}
		for _, f := range r.writes {
			last[f] = i
		}
	}
	if len(last) == 0 {
		return ""
	}
	files := make([]string, 0, len(last))
	for f := range last {
		files = append(files, f)
	}
	sort.Slice(files, func(i, j int) bool {
		if last[files[i]] != last[files[j]] {
			return last[files[i]] < last[files[j]]
		}
		return files[i] < files[j]
	})
	const show = 4
	if len(files) <= show {
		return fmt.Sprintf("wrote %s: %s", plural(len(files), "file"), strings.Join(files, ", "))
	}
	return fmt.Sprintf("wrote %d files, the last %d: %s", len(files), show, strings.Join(files[len(files)-show:], ", "))
}

// otherCommands counts the command runs not listed yet by program: "ran 57
// other commands: rg 20, cat 15, …".
func otherCommands(runs []run, shown map[string]bool) string {
	counts := map[string]int{}
	n := 0
	for _, r := range runs {
		if r.cmd == nil || shown[r.key] {
			continue
		}
		n++
		counts[program(r.cmd.Value)]++
	}
	if n == 0 {
		return ""
	}
	other := "other "
	if len(shown) == 0 {
		other = ""
	}
	return fmt.Sprintf("ran %d %scommands: %s", n, other, sortedCounts(counts, 6))
}

// otherTools counts the runs of tools that ran no command, by tool name.
func otherTools(runs []run) string {
	counts := map[string]int{}
	n := 0
	for _, r := range runs {
		if r.cmd != nil || r.tool == "" {
			continue
		}
		n++
		counts[r.tool]++
	}
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("used tools %s: %s", plural(n, "time"), sortedCounts(counts, 5))
}

// readFiles counts the distinct files read, by directory under the
// directory they share: "read 87 files under src/: lib/ 30, components/ 20".
func readFiles(runs []run) string {
	seen := map[string]bool{}
	var files []string
	for _, r := range runs {
		for _, f := range r.reads {
			if !seen[f] {
				seen[f] = true
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		return ""
	}
	if len(files) == 1 {
		return "read 1 file: " + files[0]
	}
	root := commonDir(files)
	counts := map[string]int{}
	for _, f := range files {
		rel := strings.TrimPrefix(strings.TrimPrefix(f, root), "/")
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			rel = rel[:i+1]
		} else {
			rel = "./"
		}
		counts[rel]++
	}
	where := ""
	if root != "" {
		where = " under " + root
	}
	return fmt.Sprintf("read %d files%s: %s", len(files), where, sortedCounts(counts, 5))
}

// program is the program a command line runs, with its subcommand for the
// tools that have them: "rg", "git status", "npx vitest", "go test".
func program(cmd string) string {
	f := strings.Fields(cmd)
	for len(f) > 0 && (strings.Contains(f[0], "=") || f[0] == "sudo" || f[0] == "command" || f[0] == "time") {
		f = f[1:]
	}
	if len(f) == 0 {
		return "?"
	}
	p := path.Base(f[0])
	switch p {
	case "git", "go", "cargo", "npm", "npx", "pnpm", "yarn", "docker", "kubectl", "make", "python", "python3", "uv", "poetry", "mvn", "gradle", "./gradlew", "gradlew", "dotnet", "bundle", "terraform", "helm":
		if len(f) > 1 && !strings.HasPrefix(f[1], "-") {
			return p + " " + f[1]
		}
	}
	return p
}

// isTest reports whether a command line runs tests: its program or
// subcommand names them (go test, pytest, npx vitest, cargo test, mvn
// test, make check, …).
func isTest(cmd string) bool {
	f := strings.Fields(cmd)
	for i, w := range f {
		if i > 3 {
			break
		}
		w = strings.ToLower(path.Base(w))
		if testWords[w] || strings.HasPrefix(w, "test:") || strings.HasPrefix(w, "test-") {
			return true
		}
	}
	return false
}

var testWords = map[string]bool{"test": true, "tests": true, "check": true, "verify": true, "pytest": true,
	"vitest": true, "jest": true, "mocha": true, "unittest": true, "ctest": true, "rspec": true, "tox": true,
	"nox": true, "phpunit": true, "gotestsum": true, "nextest": true, "test.sh": true, "run-tests": true}

// commonDir returns the directory prefix (ending in '/') that all paths
// share, or "".
func commonDir(paths []string) string {
	p := paths[0]
	for _, q := range paths[1:] {
		for !strings.HasPrefix(q, p) {
			p = p[:len(p)-1]
		}
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i+1]
	}
	return ""
}
