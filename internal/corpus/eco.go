package corpus

import (
	"fmt"
	"strings"
)

// lang holds what is fixed by a language's tools, the same in both halves:
// how source looks, how files are named, how a crash, a compiler error and
// a profiling line are printed.
type lang struct {
	name    string
	pkgKind string
	// srcFile and testFile name a file from words.
	srcFile  func(dir string, words []string) string
	testFile func(dir string, words []string) string
	// pkg names the package or module of a directory.
	pkg func(p *project, dir string) string
	// source writes about n lines of the file at path.
	source func(g *gen, path string, n int) string
	// fn and typ make a function and a type name from words.
	fn  func(words ...string) string
	typ func(words ...string) string
	// frame is one stack frame of fn at path:line, as a crash prints it.
	frame func(g *gen, path, fn string, line int) string
	// crash prints msg (the error line, verbatim) with frames around it.
	crash func(g *gen, msg string, frames []string) string
	// compileErr is one compiler diagnostic for path:line saying msg, with
	// the context the compiler prints; msg appears verbatim.
	compileErr func(g *gen, path string, line int, msg string) string
	// compileMsgs are routine diagnostics (%s: a name).
	compileMsgs []string
	// build is the build or type-check command; buildOK its quiet output.
	build   func(g *gen) string
	buildOK func(g *gen) string
	// bench returns profiling output whose line k holds the value v (a
	// number with its unit, verbatim), and the name measured.
	bench func(g *gen, v string) string
	// benchValue draws a plausible measured value with its unit.
	benchValue func(g *gen) string
}

var langs = map[string]*lang{}

func register(l *lang) *lang { langs[l.name] = l; return l }

// words draws n vocabulary words: verbs first, then nouns.
func (g *gen) words(n int) []string {
	w := []string{pick(g.r, g.p.verbs)}
	for len(w) < n {
		x := pick(g.r, g.p.nouns)
		if x == w[len(w)-1] {
			continue
		}
		w = append(w, x)
	}
	// Multi-word nouns ("line_item") split into words.
	var out []string
	for _, x := range w {
		out = append(out, strings.Split(x, "_")...)
	}
	return out
}

func (g *gen) nounWords() []string {
	return strings.Split(pick(g.r, g.p.nouns), "_")
}

// fnName returns a function name in the project's language.
func (g *gen) fnName() string { return g.l.fn(g.words(1 + g.r.intn(2))...) }

func (g *gen) typName() string {
	if g.r.chance(0.6) {
		return pick(g.r, g.p.types)
	}
	return g.l.typ(append(g.nounWords(), g.nounWords()...)...)
}

func (g *gen) varName() string {
	a := g.nounWords()
	if g.r.chance(0.4) {
		a = append([]string{pick(g.r, []string{"next", "last", "max", "min", "total", "pending", "stale", "active"})}, a...)
	}
	switch g.l.name {
	case "python", "rust", "ops":
		return snake(a...)
	}
	return camel(a...)
}

// past returns a verb's past participle, for the regular verbs of the
// vocabularies.
func past(v string) string {
	switch {
	case strings.HasSuffix(v, "e"):
		return v + "d"
	case strings.HasSuffix(v, "y") && !strings.HasSuffix(v, "ay"):
		return v[:len(v)-1] + "ied"
	case v == "run":
		return "run"
	case v == "split":
		return "split"
	}
	return v + "ed"
}

// lastDir is the last element of a directory.
func lastDir(dir string) string {
	if i := strings.LastIndexByte(dir, '/'); i >= 0 {
		return dir[i+1:]
	}
	return dir
}

func joinPath(dir, file string) string {
	if dir == "" {
		return file
	}
	if file == "" {
		return dir
	}
	return dir + "/" + file
}

// stemOf returns a file's name without directory and extension.
func stemOf(path string) string {
	s := lastDir(path)
	if i := strings.IndexByte(s, '.'); i > 0 {
		s = s[:i]
	}
	return s
}

// numberLines formats lines as "%6d\t%s" from first (cat -n).
func numberLines(src string, first int, sep string) string {
	var b strings.Builder
	for i, l := range strings.Split(strings.TrimRight(src, "\n"), "\n") {
		fmt.Fprintf(&b, "%6d%s%s\n", first+i, sep, l)
	}
	return b.String()
}

// window returns lines [from, to] (1-based, inclusive) of src, clamped.
func window(src string, from, to int) (string, int) {
	lines := strings.Split(strings.TrimRight(src, "\n"), "\n")
	if from < 1 {
		from = 1
	}
	if to > len(lines) {
		to = len(lines)
	}
	if from > to {
		from = to
	}
	return strings.Join(lines[from-1:to], "\n") + "\n", len(lines)
}

func lineCount(src string) int { return strings.Count(strings.TrimRight(src, "\n"), "\n") + 1 }

// ms formats a duration in seconds the way test runners do.
func (g *gen) secs(maxMs int) string {
	v := g.r.intn(maxMs)
	return fmt.Sprintf("%d.%03ds", v/1000, v%1000)
}

// clock returns a timestamp that advances with the session.
func (g *gen) clock() (h, m, s, ms int) {
	t := 8*3600 + 11*60 + g.tick*7
	g.tick++
	return t / 3600 % 24, t / 60 % 60, t % 60, g.r.intn(1000)
}

func (g *gen) isoTime() string {
	h, m, s, ms := g.clock()
	return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%03dZ", g.day, h, m, s, ms)
}

// logLine writes one log line in the project's log style.
func (g *gen) logLine(level, msg string, kv ...string) string {
	h, m, s, ms := g.clock()
	host := pick(g.r, g.p.hosts)
	pairs := func(sep, quote string) string {
		var b strings.Builder
		for i := 0; i+1 < len(kv); i += 2 {
			v := kv[i+1]
			if quote != "" {
				v = quote + v + quote
			}
			fmt.Fprintf(&b, "%s%s%s%s", sep, kv[i], map[bool]string{true: ":", false: "="}[quote != ""], v)
		}
		return b.String()
	}
	jsonPairs := func() string {
		var b strings.Builder
		for i := 0; i+1 < len(kv); i += 2 {
			fmt.Fprintf(&b, ",%s:%s", jstr(kv[i]), jstr(kv[i+1]))
		}
		return b.String()
	}
	upper := strings.ToUpper(level)
	switch g.p.logs {
	case "zap":
		return fmt.Sprintf(`{"level":%s,"ts":%d.%03d,"caller":%s,"msg":%s%s}`, jstr(level), 1775117000+g.tick*7, ms,
			jstr(fmt.Sprintf("%s/%s.go:%d", lastDir(pick(g.r, g.p.dirs)), snake(g.nounWords()...), 20+g.r.intn(300))), jstr(msg), jsonPairs())
	case "logfmt":
		return fmt.Sprintf("time=2026-04-%02dT%02d:%02d:%02d.%03dZ level=%s msg=%q%s", g.day, h, m, s, ms, level, msg, pairs(" ", ""))
	case "django":
		return fmt.Sprintf("[2026-04-%02d %02d:%02d:%02d,%03d] %s %s.%s: %s%s", g.day, h, m, s, ms, upper, g.p.module, lastDir(pick(g.r, g.p.dirs)), msg, pairs(" ", ""))
	case "pyjson":
		return fmt.Sprintf(`{"asctime": "2026-04-%02d %02d:%02d:%02d,%03d", "levelname": %s, "name": "harvest.%s", "message": %s%s}`, g.day, h, m, s, ms, jstr(upper), lastDir(pick(g.r, g.p.dirs)), jstr(msg), strings.ReplaceAll(jsonPairs(), ",", ", "))
	case "winston":
		return fmt.Sprintf(`{"level":%s,"message":%s,"service":%s,"timestamp":"2026-04-%02dT%02d:%02d:%02d.%03dZ"%s}`, jstr(level), jstr(msg), jstr(host), g.day, h, m, s, ms, jsonPairs())
	case "pino":
		lv := map[string]int{"debug": 20, "info": 30, "warn": 40, "error": 50}[level]
		return fmt.Sprintf(`{"level":%d,"time":%d%03d,"pid":%d,"hostname":"%s-%s-%s","msg":%s%s}`, lv, 1775117000+g.tick*7, ms, 40+g.r.intn(20), host, g.r.hex(9)[:9], g.r.alnum(5), jstr(msg), jsonPairs())
	case "envlogger":
		return fmt.Sprintf("[2026-04-%02dT%02d:%02d:%02dZ %-5s tern_core::%s] %s%s", g.day, h, m, s, upper, pick(g.r, g.p.nouns), msg, pairs(" ", ""))
	case "tracing":
		return fmt.Sprintf("2026-04-%02dT%02d:%02d:%02d.%03d412Z %5s ledger_core::%s: %s%s", g.day, h, m, s, ms, upper, pick(g.r, g.p.verbs), msg, pairs(" ", ""))
	case "logback":
		cls := pick(g.r, g.p.types)
		return fmt.Sprintf("2026-04-%02d %02d:%02d:%02d.%03d %5s 1 --- [%s] %s : %s%s", g.day, h, m, s, ms, upper,
			pick(g.r, []string{"nio-8080-exec-3", "nio-8080-exec-7", "scheduling-1", "kafka-consumer-2"}), abbrevClass(g.p.module, cls), msg, pairs(", ", ""))
	case "journald":
		return fmt.Sprintf("Apr %02d %02d:%02d:%02d %s %s[%d]: %s %s%s", g.day, h, m, s, host, pick(g.r, []string{"mysqld", "backup.sh", "kubelet", "cron"}), 1000+g.r.intn(9000), upper, msg, pairs(" ", ""))
	case "postgres":
		return fmt.Sprintf("2026-04-%02d %02d:%02d:%02d.%03d UTC [%d] %s:  %s%s", g.day, h, m, s, ms, 1000+g.r.intn(30000), postgresLevel(upper), msg, pairs(" ", ""))
	}
	return fmt.Sprintf("%s %s %s", upper, msg, pairs(" ", ""))
}

func postgresLevel(l string) string {
	switch l {
	case "WARN":
		return "WARNING"
	case "INFO":
		return "LOG"
	}
	return l
}

func abbrevClass(module, cls string) string {
	var b strings.Builder
	for _, part := range strings.Split(module, ".") {
		b.WriteString(part[:1])
		b.WriteByte('.')
	}
	return b.String() + cls
}

// routineLogMsgs are the log messages of ordinary operation.
var routineLogMsgs = []string{"request served", "batch flushed", "lease renewed", "cache refreshed", "health check ok",
	"worker started", "connection acquired", "metrics exported", "config reloaded", "job finished", "checkpoint written", "retry scheduled"}

// logs writes n log lines of ordinary operation, with inject lines placed
// at random positions.
func (g *gen) logs(n int, inject ...string) string {
	lines := make([]string, 0, n+len(inject))
	for i := 0; i < n; i++ {
		lv := "info"
		switch x := g.r.intn(20); {
		case x == 0:
			lv = "error"
		case x < 4:
			lv = "warn"
		case x < 6:
			lv = "debug"
		}
		msg := pick(g.r, routineLogMsgs)
		kv := []string{pick(g.r, g.p.nouns), fmt.Sprint(g.r.intn(500)), "took", fmt.Sprintf("%dms", 1+g.r.intn(90))}
		if lv == "error" {
			msg = g.routineError()
			kv = kv[:2]
		}
		lines = append(lines, g.logLine(lv, msg, kv...))
	}
	return insertLines(g, lines, inject)
}

// insertLines puts each of inject at a random position of lines, away from
// both ends, and joins them.
func insertLines(g *gen, lines []string, inject []string) string {
	for _, in := range inject {
		lo := len(lines) / 4
		hi := len(lines) - len(lines)/4
		at := lo + g.r.intn(max(hi-lo, 1))
		lines = append(lines[:at], append([]string{in}, lines[at:]...)...)
	}
	return strings.Join(lines, "\n") + "\n"
}

// routineError is an error the session sees over and over.
func (g *gen) routineError() string {
	if g.routineErrs == nil {
		for i := 0; i < 3; i++ {
			g.routineErrs = append(g.routineErrs, fmt.Sprintf("%s %s: %s", pick(g.r, g.p.verbs), pick(g.r, g.p.nouns),
				pick(g.r, []string{"connection reset by peer", "timeout after 5s", "resource temporarily unavailable", "too many open files", "retry budget exhausted"})))
		}
	}
	return pick(g.r, g.routineErrs)
}
