package ledger

import (
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// This file holds the recognisers of measurements.

// lineMeasurement recognises whole-line measurements: Go benchmark lines,
// "ok pkg 0.5s", coverage lines and test count summaries. It reports
// whether the line was one.
func (s *scanner) lineMeasurement(t string) bool {
	switch {
	case strings.HasPrefix(t, "Benchmark") && strings.Contains(t, "/op"):
		f := strings.Fields(t)
		if len(f) >= 4 && allDigits(f[1]) {
			s.add(KindMeasurement, f[0]+" "+strings.Join(f[2:], " "))
			return true
		}
	case strings.HasPrefix(t, "ok  ") || strings.HasPrefix(t, "ok \t"):
		if f := strings.Fields(t); len(f) >= 3 {
			s.add(KindMeasurement, strings.Join(f, " "))
			return true
		}
	case strings.HasPrefix(t, "FAIL\t") || strings.HasPrefix(t, "FAIL "):
		return true // an error line; its duration is in it
	case strings.HasPrefix(t, "coverage: ") && strings.Contains(t, "%"):
		s.add(KindMeasurement, t)
		return true
	}
	if s.output && s.profile(t) {
		return true
	}
	if s.output && testSummary(t) {
		// "412 passing (4m)", "Ran 412 tests across 38 files. [8.41s]"
		s.add(KindMeasurement, t)
		return true
	}
	if s.output && len(t) <= s.e.capOf(KindDecision) {
		if at, lower, ok := metricFigure(t); ok {
			if s.hotLine&hotSpike != 0 {
				// the step whose figure spikes (a loss or a gradient
				// blowing up) stays whatever the best lines are
				s.wide = true
				if p := s.add(KindMeasurement, t); p != nil {
					p.Odd = true
				}
				s.wide = false
				return true
			}
			// a training or evaluation log's line of metrics: of its
			// lines of one shape, those with the best held-out figure
			// stay (the best epoch, the best iteration)
			s.wide, s.lowerBetter = true, lower
			s.addCappedIn(t, at, "metric\x00"+maskDigitRuns(t, false))
			s.wide, s.lowerBetter = false, false
			return true
		}
	}
	if s.output && tallyLine(t) {
		// "Plan: 14 to add, 3 to change, 41 to destroy.", "Found 37
		// errors in 12 files (checked 412 source files)": a tool's tally
		// of what it did, kept as printed; a log's routine tallies are
		// grouped by their shape, the largest kept
		s.wide = true
		s.addCappedIn(t, strings.IndexFunc(t, func(r rune) bool { return r >= '0' && r <= '9' }), "line\x00"+maskDigitRuns(t, false))
		s.wide = false
		return true
	}
	if s.output && len(t) <= s.e.maxValueLen() && realUserSys(t) {
		// "Run Time: real 7.837 user 6.739887 sys 1.098000" (SQLite's
		// .timer), "real 0.41 user 0.30 sys 0.08" (time -p on one line)
		s.add(KindMeasurement, t)
		return true
	}
	if s.output && figureLine(t) {
		s.add(KindMeasurement, t)
		return true
	}
	if s.output && len(t) > 8 && (t[0] == '[' || isDigit(t[0]) || isUpper(t[0]) && isUpper(t[1])) {
		// a log line's prefix before a report: "[INFO] Total time:
		// 01:47 min", "2026-12-01 10:00:01 INFO Peak memory: 812 MB"
		if lv, msg := plainLevel(t); lv != lvNone && msg > 0 && msg < len(t) && figureLine(t[msg:]) {
			s.add(KindMeasurement, t[msg:])
			return true
		}
	}
	if s.output {
		// a tool's name before its report: "dhat: At t-gmax: 462,962,539
		// bytes in 89,246 blocks"
		if k := strings.Index(t, ": "); k > 0 && k <= 12 && isLowerWord(t[:k]) && figureLine(t[k+2:]) {
			s.add(KindMeasurement, t[k+2:])
			return true
		}
	}
	if s.output {
		if v, ok := reportLine(t); ok {
			s.add(KindMeasurement, v)
			return true
		}
	}
	if s.output && deltaRow(t) {
		s.add(KindMeasurement, strings.Join(strings.Fields(t), " "))
		return true
	}
	if s.output {
		if v, name, ok := benchResult(t, s.prev, s.bench); ok {
			if !strings.HasPrefix(t, name) {
				// named on another line (a long name above, a
				// "change:" under its "time:"): the line alone does
				// not say which benchmark it measures
				line := s.figureLine
				s.figureLine = ""
				defer func() { s.figureLine = line }()
			}
			s.add(KindMeasurement, v)
			s.bench = name
			return true
		}
	}
	if s.output && leaderLine(t) {
		// Maven's reactor summary: "Platform :: Integration Tests
		// ........ SUCCESS [21:18 min]"
		s.add(KindMeasurement, t)
		return true
	}
	if s.output && counterLine(t) && (counterLine(s.prev) || strings.HasSuffix(s.prev, ":") && !strings.Contains(s.prev, " ")) {
		// a listing of counters: netstat -s's "48211339 segments
		// retransmitted", vmstat -s's "7340412 K used swap"; past the
		// cap the largest stay (see replaceFigure)
		s.add(KindMeasurement, t)
		return true
	}
	if s.hotLine&hotCounts != 0 && testCounts(t) && (strings.ContainsAny(t, ",;=") || strings.Contains(t, "test") || strings.Contains(t, "Test")) {
		v := strings.Trim(t, "=-*_ \t")
		s.add(KindMeasurement, v)
		return true
	}
	return false
}

// leaderLine reports whether a line gives a figure after a leader of dots
// that follows its label: Maven's reactor summary ("Platform :: Core
// ........ SUCCESS [01:12 min]", "[  0.412 s]"), a runner's per-suite
// times. The figure carries a unit, or is a clock's minutes and seconds
// with one ("21:18 min").
func leaderLine(t string) bool {
	k := strings.Index(t, " ...")
	if k < 0 {
		// a name long enough to leave two dots of the leader: "3 of 6
		// OK created sql incremental model int_order_items_enriched ..
		// [SUCCESS 48211093 in 2362.10s]"
		k = strings.Index(t, " .. ")
	}
	if k <= 0 || k > 100 {
		// or a wide gap before an outcome in capitals: "Platform ::
		// Integration Tests          SUCCESS [21:18 min]"
		if k = strings.Index(t, "     "); k <= 0 || k > 100 || !outcomeAfter(t[k:]) {
			return false
		}
	}
	j := k + 1
	for j < len(t) && (t[j] == '.' || t[j] == ' ') {
		j++
	}
	if j-k < 4 || j >= len(t) {
		return false
	}
	rest := t[j:]
	for i := 0; i < len(rest); i++ {
		if !isDigit(rest[i]) || i > 0 && isDigit(rest[i-1]) {
			continue
		}
		end := i
		for end < len(rest) && (isDigit(rest[end]) || rest[end] == ':' || rest[end] == '.') {
			end++
		}
		if _, u := unitAfter(rest, end); unitFamilyOf(u) {
			return true
		}
		i = end
	}
	return false
}

// outcomeAfter reports whether what follows a gap opens with a step's
// outcome in capitals: SUCCESS, FAILURE, SKIPPED, PASSED, FAILED, OK.
func outcomeAfter(s string) bool {
	return hasAnyLead(strings.TrimLeft(s, " "), []string{"SUCCESS", "FAILURE", "FAILED", "SKIPPED", "PASSED", "OK", "DONE"})
}

// unitFamilyOf reports whether unit is one of time or size.
func unitFamilyOf(unit string) bool {
	f, _ := unitFamily(unit)
	return f != ""
}

// counterLine reports whether a trimmed line is a counter as listings of
// them print it: a whole number, perhaps a size's unit, then a few words
// that name what it counts ("1184302221 segments received", "7340412 K
// used swap", "3745 packets to unknown port received").
func counterLine(t string) bool {
	i := 0
	for i < len(t) && (isDigit(t[i]) || i > 0 && t[i] == ',') {
		i++
	}
	if i == 0 || i >= len(t) || t[i] != ' ' {
		return false
	}
	f := strings.Fields(t[i:])
	if len(f) > 0 && len(f[0]) <= 3 && sizeWord(f[0]+"B") || len(f) > 0 && (f[0] == "K" || f[0] == "kB") {
		f = f[1:]
	}
	if len(f) < 2 || len(f) > 7 {
		return false
	}
	for _, w := range f {
		if !isAlpha(w[0]) {
			return false
		}
		for j := 1; j < len(w); j++ {
			if !isAlpha(w[j]) && strings.IndexByte("-_()/", w[j]) < 0 {
				return false
			}
		}
	}
	return true
}

// reportLine recognises the lines of the reports tools print about sizes,
// memory and durations whose figures only mean something together, and
// returns the part to keep, as printed:
//
//   - du's "19.7G<TAB>build/tmp" (a size with K, M, G or T, a tab, a path);
//   - pprof's "Showing nodes accounting for 2.12GB, 94.10% of 2.24GB total";
//   - a slow test (slowTest): Go's "--- PASS: TestX (126.26s)", Rust's
//     "test x ... ok <20.919s>", Jest's "✓ name (56944 ms)", Surefire's
//     "Tests run: 16, …, Time elapsed: 211.286 s -- in X", and pytest's
//     "--durations" rows ("200.48s call  tests/x.py::test_y"), which list
//     the slowest by themselves;
//   - a JVM garbage collection pause, "Pause Full (G1 Compaction Pause)
//     4081M->4017M(4096M) 3791.536ms";
//   - tracemalloc's "size=1817 MiB, count=1524361, average=1249 B".
func reportLine(t string) (string, bool) {
	switch {
	case strings.HasPrefix(t, "Showing nodes accounting for "):
		return t, true
	case strings.HasPrefix(t, "--- PASS: ") || strings.HasPrefix(t, "--- FAIL: "):
		if k := strings.LastIndex(t, " ("); k > 0 && strings.HasSuffix(t, "s)") {
			if f, err := strconv.ParseFloat(t[k+2:len(t)-2], 64); err == nil && f >= slowTest {
				return t, true
			}
		}
		return "", false
	case strings.HasPrefix(t, "test ") && strings.HasSuffix(t, "s>"):
		if k := strings.LastIndex(t, " <"); k > 0 && strings.Contains(t, " ... ") {
			if f, err := strconv.ParseFloat(t[k+2:len(t)-2], 64); err == nil && f >= slowTest {
				return t, true
			}
		}
		return "", false
	case strings.HasPrefix(t, "✓ ") || strings.HasPrefix(t, "√ ") || strings.HasPrefix(t, "✕ "):
		if k := strings.LastIndex(t, " ("); k > 0 && strings.HasSuffix(t, " ms)") {
			if f, err := strconv.ParseFloat(t[k+2:len(t)-4], 64); err == nil && f >= slowTest*1000 {
				return t, true
			}
		}
		return "", false
	}
	if k := strings.Index(t, "Tests run: "); k >= 0 {
		if _, rest, ok := strings.Cut(t[k:], ", Time elapsed: "); ok {
			if e, ok := numberEnd(rest, 0); ok && e > 0 {
				if f, err := strconv.ParseFloat(rest[:e], 64); err == nil && f >= slowTest {
					return t[k:], true
				}
			}
		}
		return "", false
	}
	if k := strings.Index(t, "size="); k >= 0 && strings.Contains(t[k:], ", count=") && strings.Contains(t[k:], ", average=") {
		return t[k:], true
	}
	if k := strings.Index(t, "Pause "); k >= 0 && strings.Contains(t[k:], "->") && strings.HasSuffix(t, "ms") {
		return t[k:], true
	}
	// pytest --durations: "200.48s call     tests/x.py::test_y"
	if e, ok := numberEnd(t, 0); ok && e > 0 && e+1 < len(t) && t[e] == 's' && t[e+1] == ' ' {
		rest := strings.TrimLeft(t[e+1:], " ")
		for _, phase := range []string{"call ", "setup ", "teardown "} {
			if strings.HasPrefix(rest, phase) && strings.Contains(rest, "::") {
				return t, true
			}
		}
	}
	// du: "19.7G\tbuild/tmp"
	if tab := strings.IndexByte(t, '\t'); tab > 1 && tab < 8 && strings.IndexByte("KMGTP", t[tab-1]) >= 0 {
		if e, ok := numberEnd(t, 0); ok && e == tab-1 {
			return t, true
		}
	}
	return "", false
}

// tallyLine reports whether an output line tallies what a tool did: two
// counts or more, each a whole number followed by the plural of what it
// counts or by what is to be done ("37 errors", "1,412 packages", "14 to
// add"), in a short line of few words.
func tallyLine(t string) bool {
	if len(t) < 12 || len(t) > 140 || strings.Count(t, " ") > 24 || strings.ContainsAny(t, "{}=|\t") || strings.Contains(t, " among ") {
		// not criterion's "Found 5 outliers among 100 measurements",
		// printed for every benchmark
		return false
	}
	// cheap first: two numbers or more before a space and a letter
	pairs := 0
	for i := 1; i+1 < len(t); i++ {
		if isDigit(t[i-1]) && t[i] == ' ' && isLower(t[i+1]) {
			pairs++
		}
	}
	if pairs < 2 {
		return false
	}
	f := strings.Fields(t)
	n := 0
	for i := 0; i+1 < len(f); i++ {
		w := strings.TrimLeft(f[i], "([")
		if w == "" || !isDigit(w[0]) || !every(w, func(c byte) bool { return isDigit(c) || c == ',' }) || i > 0 && isDigit(f[i-1][len(f[i-1])-1]) {
			continue
		}
		// what is counted: a plural ("37 errors", "1,412 packages") or
		// what is to be done ("14 to add"); not "line 1 … value 1 ok"
		next := strings.TrimRight(f[i+1], ",.;:)]")
		if next == "to" && i+2 < len(f) {
			if v := strings.TrimRight(f[i+2], ",.;:)]"); len(v) >= 2 && isLowerWord(v) {
				n++
			}
			continue
		}
		if len(next) >= 3 && isLowerWord(next) && strings.HasSuffix(next, "s") && !timeUnits[next] {
			n++
		}
	}
	return n >= 2
}

// slowTest is how many seconds a test (or a test class) takes to be worth
// a measurement: the one that took 40 s among a suite's hundred that took
// milliseconds. The rest are routine and left out.
const slowTest = 10

// deltaRow recognises a row of benchstat's comparison: a benchmark's name,
// its figures before and after, and the change with its p-value
// ("Rollup-8  613.5µ ± 1%  315.8µ ± 3%  -48.52% (p=0.000 n=10)"). The row
// is kept whole, spaces collapsed. A row with no significant change ("~
// (p=0.563 n=10)") is routine and left to the other readers.
func deltaRow(t string) bool {
	k := strings.LastIndex(t, "(p=")
	if k < 0 || !strings.HasSuffix(t, ")") || !strings.Contains(t[k:], " n=") {
		return false
	}
	before := strings.TrimRight(t[:k], " ")
	return strings.HasSuffix(before, "%") && isAlnum(t[0]) && strings.Count(before, "±") >= 2
}

// testCounts recognises test summaries: "5 passed, 2 failed in 1.2s",
// "test result: FAILED. 3 passed; 1 failed", "Tests: 1 failed, 4 passed".
func testCounts(t string) bool {
	for _, w := range []string{" passed", " failed"} {
		off := 0
		for {
			k := strings.Index(t[off:], w)
			if k < 0 {
				break
			}
			k += off
			if k > 0 && isDigit(t[k-1]) {
				e := k + len(w)
				if e == len(t) || !isAlpha(t[e]) {
					return true
				}
			}
			off = k + len(w)
		}
	}
	return false
}

// testWords count what a test run ran.
var testWords = map[string]bool{"test": true, "tests": true, "passing": true, "passed": true, "failing": true,
	"failed": true, "examples": true, "example": true, "specs": true, "spec": true, "assertions": true,
	"pass": true, "cases": true, "scenarios": true, "checks": true, "suites": true}

// timeUnits end a duration.
var timeUnits = map[string]bool{"ms": true, "s": true, "sec": true, "secs": true, "second": true, "seconds": true,
	"m": true, "min": true, "mins": true, "minutes": true, "h": true, "hr": true, "hours": true, "µs": true, "us": true}

// testSummary reports whether a line sums up a test run: a count of tests
// and the time they took, in any runner's words ("412 passing (4m)", "Ran
// 412 tests across 38 files. [8.41s]", "Executed 412 tests, with 0
// failures (0 unexpected) in 398.412 (412.824) seconds").
func testSummary(t string) bool {
	if len(t) > 240 || !strings.ContainsAny(t, "0123456789") || !mentionsTests(t) {
		return false
	}
	f := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' })
	counted, timed := false, false
	for i, w := range f {
		w = strings.Trim(w, "()[],:;")
		if i > 0 && allDigits(strings.Trim(f[i-1], "()[],:;")) && testWords[strings.TrimRight(w, ".")] {
			counted = true
		}
		if durationWord(w) || i > 0 && timeUnits[strings.TrimRight(w, ".")] && numberWord(strings.Trim(f[i-1], "()[],:;")) {
			timed = true
		}
	}
	return counted && timed
}

// mentionsTests reports whether a line holds one of testWords' stems, a
// cheap test before testSummary splits it.
func mentionsTests(t string) bool {
	for _, w := range []string{"test", "pass", "fail", "example", "spec", "assertion", "case", "scenario", "check", "suite"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// durationWord reports whether a word is a number joined to a unit of time:
// "4m", "8.41s", "112ms".
func durationWord(w string) bool {
	w = strings.TrimRight(w, ".")
	k := 0
	for k < len(w) && (isDigit(w[k]) || w[k] == '.') {
		k++
	}
	return k > 0 && isDigit(w[0]) && timeUnits[w[k:]] && k < len(w)
}

// numberWord reports whether a word is a number: "398.412", "412".
func numberWord(w string) bool {
	if w == "" || !isDigit(w[0]) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if !isDigit(w[i]) && w[i] != '.' {
			return false
		}
	}
	return true
}

// unitShape returns the unit that opens t when it is built the way units
// are rather than listed: a size with a decimal or binary prefix in any
// spelling ("GBytes", "Kbit", "Mi", "Gi" as Kubernetes writes them), a
// size or a count per unit of time or per operation ("Gbits/sec",
// "msg/sec", "events/s", "trans/sec", "KB/call"); or "". A unit of one
// byte must touch its number ("412m" is not a unit, "1893Mi" is).
func unitShape(t string, spaced bool) string {
	e := 0
	for e < len(t) && e < 16 && isAlpha(t[e]) {
		e++
	}
	if e == 0 || e < len(t) && (isDigit(t[e]) || t[e] == '_') {
		return ""
	}
	word := t[:e]
	if e+1 < len(t) && t[e] == '/' {
		// a rate or a share: word/time or word/operation
		f := e + 1
		for f < len(t) && isAlpha(t[f]) {
			f++
		}
		if f < len(t) && (isAlnum(t[f]) || t[f] == '_' || t[f] == '/') {
			return ""
		}
		switch t[e+1 : f] {
		case "s", "sec", "second", "ms", "us", "min", "minute", "h", "hr", "hour", "op", "call", "iter", "req", "request", "query", "msg", "txn", "tx", "day":
			if e <= 12 && !spaced || e >= 2 {
				return t[:f]
			}
		}
		return ""
	}
	if e < len(t) && (isAlnum(t[e]) || t[e] == '/') {
		return ""
	}
	if sizeWord(word) && (!spaced || len(word) >= 2) {
		return word
	}
	if len(word) == 1 && !spaced && strings.ContainsRune("KMGTP", rune(word[0])) && (e == len(t) || t[e] != '.' && t[e] != '-' && t[e] != '\'') {
		return word // ls -lh's and df -h's "1.2G", "98G"
	}
	return ""
}

// sizeWord reports whether w is a size unit with a prefix: K, M, G, T or
// P, an optional i, then B, b, bit(s), byte(s), bps or Bps in any case
// ("GBytes", "Kbits", "MiB", "Gbps"), or Kubernetes' bare binary "Ki",
// "Mi", "Gi", "Ti".
func sizeWord(w string) bool {
	if len(w) < 2 || !strings.ContainsRune("kKmMgGtTpP", rune(w[0])) {
		return false
	}
	rest := w[1:]
	if rest == "i" {
		return w[0] != 'm' && w[0] != 'k' && w[0] != 'p' // "Ki", "Mi", "Gi", "Ti"; not "mi"
	}
	rest = strings.TrimPrefix(rest, "i")
	switch strings.ToLower(rest) {
	case "b", "bit", "bits", "byte", "bytes", "bps":
		return w[0] != 'm' || rest != "B" // "mB" is not a size; "MB" is listed, esbuild's "8.4mb" is one
	}
	return false
}

// units a measurement may carry, longest first where one is a prefix of
// another. Single-letter units must touch their number ("3.2s", not "3 s").
var units = []string{
	"allocs/op", "ns/op", "µs/op", "us/op", "ms/op", "s/op", "ops/ms", "ops/us", "B/op", "MB/s", "GB/s", "KB/s", "kB/s", "MiB/s", "GiB/s",
	"ops/sec", "op/sec", "req/sec", "req/s", "ops/s", "op/s", "tok/s", "tokens/s", "rows/s", "msg/s", "msgs/s", "events/s", "it/s",
	"i/s", "rps", "qps", "fps", "rows", "records",
	"requests", "frames",
	"seconds", "second", "secs", "sec", "usec", "µsec", "msec", "nsec", "ns", "µs", "μs", "us", "ms", "minutes", "mins", "min", "hours", "hrs",
	"KiB", "MiB", "GiB", "TiB", "KB", "kB", "MB", "GB", "TB", "bytes", "Ki", "Mi", "Gi", "Ti",
	"GHz", "MHz", "kHz", "Hz", "tokens", "times", "%", "s", "h", "B", "x",
}

// shortFigureLine is the length up to which an output line that opens with
// a word and holds one figure is kept whole: "in 2m 41s" says nothing
// without the "Finished `release` profile" before it.
const shortFigureLine = 80

// measurements finds numbers with a unit and labels them with the words
// before them ("p99 latency: 703.1ms", "took 3.2s"), with the key of a JSON
// field ("latency": "703.1ms" → latency: 703.1ms) or, when there are none,
// with the words after them ("81.3% of statements"). A measurement whose
// label is only linking words ("12.5 MB in 3.2s") joins the one before it.
func (s *scanner) measurements(t string, urlSpans [][2]int) {
	if !s.output && !s.source && s.figureLine == "" {
		s.saidFigures(t, urlSpans)
		return
	}
	if s.output && len(t) <= s.e.maxValueLen() {
		s.figureProbe, s.probeNum, s.probeGroup, s.probeCount = true, "", "", 0
		s.figures(t, urlSpans)
		s.figureProbe = false
		if s.probeCount == 0 {
			return // no figure: nothing to read again one by one
		}
		if m := moneyAt(t); m >= 0 && s.figureLine != "" {
			// a cost report's row ("├─ Database instance …  730  hours
			// $1,284.50"): its rows rank by their cost, the largest stay
			s.wide = true
			s.addCappedIn(t, m, "money")
			s.wide = false
			return
		}
		if s.probeCount >= 2 {
			at := max(0, strings.Index(t, s.probeNum))
			s.wide = true // its columns' gaps as printed
			s.addCappedIn(t, at, "line\x00"+maskDigitRuns(t, false))
			s.wide = false
			return
		}
		if len(t) <= shortFigureLine && isAlpha(t[0]) && strings.Count(t, " ") >= 2 {
			// "Done in 63.72s.", "Indexed 18,204 documents in 97.4 s",
			// "1 row in set (3.42 sec)": a short line that says what
			// its one figure measures is kept as said; its label and
			// unit group it as the figure alone would be.
			if s.probeGroup != "" {
				group := s.probeGroup
				if strings.HasPrefix(group, "\x00") {
					// no label before the figure ("JsonBench.parse  1024
					// thrpt  10  702455.310 ± 5120.884  ops/s" reads as
					// none): the line's shape groups it, as a line of
					// several figures is
					group = "line\x00" + maskDigitRuns(t, false)
				}
				s.addCappedIn(t, max(0, strings.Index(t, s.probeNum)), group)
				return
			}
		}
	}
	s.figures(t, urlSpans)
}

// saidFigures adds the figures of a line of a message: a sentence that
// states one is kept whole, as said, when it fits the cap ("The final
// image is now 1.9 GB, down from 3.4 GB — most of it is torch."). A
// figure said in prose is rarely labelled as a report labels it, and what
// it measures, what it is compared with and since when are in the words
// around it, often on both sides. A longer sentence gives its figures one
// by one.
func (s *scanner) saidFigures(t string, urlSpans [][2]int) {
	s.said = true
	defer func() { s.said = false }()
	for _, sp := range saidSpans(t, s.e.maxValueLen()) {
		sent := t[sp[0]:sp[1]]
		var spans [][2]int
		for _, u := range urlSpans {
			if u[0] >= sp[0] && u[1] <= sp[1] {
				spans = append(spans, [2]int{u[0] - sp[0], u[1] - sp[0]})
			}
		}
		if len(sent) > s.e.maxValueLen() || strings.Count(sent, " ") < 3 {
			s.figures(sent, spans)
			continue
		}
		s.figureProbe, s.probeNum, s.probeGroup, s.probeCount = true, "", "", 0
		s.figures(sent, spans)
		s.figureProbe = false
		if s.probeCount > 0 {
			s.addCapped(sent, max(0, strings.Index(sent, s.probeNum)))
		}
	}
}

// saidClause is the length up to which the clauses of a long sentence are
// kept together (see saidSpans).
const saidClause = 120

// saidSpans returns where the sentences of a line of prose are, the ones
// longer than max cut where their clauses end (at a comma outside
// brackets), consecutive clauses kept together up to saidClause bytes. A
// sentence ends at a full stop, a semicolon, a question or an exclamation
// mark and a space, whatever case the next word has: people typing in
// lower case end sentences too.
func saidSpans(t string, limit int) [][2]int {
	var out [][2]int
	start := 0
	flush := func(end int) {
		for start < end && t[start] == ' ' {
			start++
		}
		e := end
		for e > start && t[e-1] == ' ' {
			e--
		}
		if e > start {
			out = append(out, [2]int{start, e})
		}
		start = end
	}
	for i := 0; i+1 < len(t); i++ {
		if strings.IndexByte(".;!?", t[i]) >= 0 && t[i+1] == ' ' && !midSentenceDot(t, i) {
			if i+2 < len(t) && opensSentence(t[i+2]) || t[i] == ';' || i+2 < len(t) && isLower(t[i+2]) && i > 0 && (isAlnum(t[i-1]) || t[i-1] == ')') {
				flush(i + 1)
			}
		}
	}
	flush(len(t))
	var cut [][2]int
	for _, sp := range out {
		if sp[1]-sp[0] <= limit {
			cut = append(cut, sp)
			continue
		}
		// clauses: at ", " outside brackets, merged up to saidClause
		from, depth, last := sp[0], 0, sp[0]
		for i := sp[0]; i < sp[1]; i++ {
			switch t[i] {
			case '(', '[', '{':
				depth++
			case ')', ']', '}':
				depth = max(0, depth-1)
			case ',':
				if depth == 0 && i+1 < sp[1] && t[i+1] == ' ' {
					if i+1-from > saidClause && last > from {
						cut = append(cut, [2]int{from, last})
						from = last + 1
					}
					last = i + 1
				}
			}
		}
		if last > from && sp[1]-from > saidClause {
			cut = append(cut, [2]int{from, last})
			from = last + 1
		}
		cut = append(cut, [2]int{from, sp[1]})
	}
	for i := range cut {
		for cut[i][0] < cut[i][1] && t[cut[i][0]] == ' ' {
			cut[i][0]++
		}
	}
	return cut
}

// figures adds the figures of a line one by one, each with its label.
func (s *scanner) figures(t string, urlSpans [][2]int) {
	last := lastMeasurement{item: -1}
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) {
			continue
		}
		if c := clockDuration(t, i); c > 0 && inSpans(i, urlSpans) < 0 {
			// "Vacuum took 00:12:41"
			s.addMeasurement(t, i, c, &last)
			i = c - 1
			continue
		}
		if d := durationEnd(t, i); d > 0 && inSpans(i, urlSpans) < 0 {
			// "BUILD SUCCESSFUL in 4m 13s", "took 2m13.5s"
			s.addMeasurement(t, i, d, &last)
			i = d - 1
			continue
		}
		j, ok := numberEnd(t, i)
		if !ok {
			i = skipWord(t, i)
			continue
		}
		if c := currencyBefore(t, i); s.said && c > 0 {
			// an amount said in prose: "the invoice was $14,380 for april"
			if j < len(t) && (t[j] == 'k' || t[j] == 'K' || t[j] == 'M') && (j+1 == len(t) || !isAlnum(t[j+1])) {
				j++
			}
			s.addMeasurement(t, i-c, j, &last)
			i = j - 1
			continue
		}
		j = plusMinus(t, j)
		k, unit := unitAfter(t, j)
		if unit == "" && spacedSeconds(t, i, j) {
			// "Indexed 18,204 documents in 97.4 s": a decimal with a
			// lone "s" after a space is a duration.
			k, unit = j+1, "s"
		}
		if unit == "" && inSpans(i, urlSpans) < 0 {
			if key, from := jsonKeyBefore(t, i); key != "" && measureKey(key) && bareEnd(t, j) {
				// {"heapUsed": 8765432, "p99_ms": 812}, EXPLAIN's
				// "Execution Time": 26684.967: kept as printed
				s.addCapped(t[from:j], i-from)
				last.item = -1
				i = j - 1
				continue
			}
			if key := unitKeyBefore(t, i); key >= 0 && bareEnd(t, j) {
				// "avg_latency_ms=812.4", "duration_seconds: 41.2": the
				// key names the unit.
				s.addCapped(t[key:j], i-key)
				last.item = -1
				i = j - 1
				continue
			}
		}
		if unit == "" || inSpans(i, urlSpans) >= 0 {
			i = j - 1
			continue
		}
		end := k + len(unit)
		at := i
		if i > 0 && (t[i-1] == '-' || t[i-1] == '+') && (i == 1 || !isAlnum(t[i-2])) {
			at = i - 1 // a signed figure: "-4.0%", "+1.0ms"
		}
		s.addMeasurement(t, at, end, &last)
		i = end - 1
	}
}

// moneyAt returns where the digits of the last sum of money on line t
// start ("$1,284.50", "€ 12.40"), or -1.
func moneyAt(t string) int {
	at := -1
	for i := 1; i < len(t); i++ {
		if !isDigit(t[i]) || isDigit(t[i-1]) || t[i-1] == '.' || t[i-1] == ',' {
			continue
		}
		j := i
		if t[j-1] == ' ' && j > 1 {
			j-- // "€ 12.40"
		}
		if currencyBefore(t, j) > 0 {
			at = i
		}
	}
	return at
}

// currencyBefore returns the length of the currency sign just before
// t[i] ("$", "€", "£"), or 0.
func currencyBefore(t string, i int) int {
	for _, c := range []string{"$", "€", "£"} {
		if i >= len(c) && t[i-len(c):i] == c {
			return len(c)
		}
	}
	return 0
}

// spacedSeconds reports whether the number t[i:j] is a decimal after a
// word that introduces a duration (durationWords) and before a space and a
// lone "s" that ends the line or is followed by a space or a punctuation
// mark: "in 97.4 s", "Total time: 4.218 s,". A whole number ("page 3 s…")
// is not read this way.
func spacedSeconds(t string, i, j int) bool {
	if !strings.Contains(t[i:j], ".") || j+2 > len(t) || t[j] != ' ' || t[j+1] != 's' {
		return false
	}
	if strings.HasPrefix(t[j:], " s ±") || strings.HasPrefix(t[j:], " s …") {
		return true // hyperfine's "Time (mean ± σ):  1.184 s ±  0.021 s", its range "1.151 s …  1.219 s"
	}
	if !afterDurationWord(t, i) {
		return false // Criterion's "100 samples in estimated 5.0123 s" is its plan
	}
	switch k := j + 2; {
	case k == len(t):
		return true
	case t[k] == '.':
		return k+1 == len(t) || t[k+1] == ' ' // "… in 4.2 s." ends the sentence
	default:
		return !isAlnum(t[k]) && t[k] != '_' && t[k] != '/'
	}
}

// afterDurationWord reports whether the word before t[i] introduces a
// duration (see durationWords). It reads backwards: the line may be long.
func afterDurationWord(t string, i int) bool {
	return slices.Contains(durationWords, wordBefore(t, i))
}

// wordBefore returns the word before t[i] in lower case, without a
// trailing ':' or '='. It reads backwards: the line may be long.
func wordBefore(t string, i int) string {
	e := i
	for e > 0 && t[e-1] == ' ' {
		e--
	}
	b := e
	for b > 0 && t[b-1] != ' ' {
		b--
	}
	return strings.ToLower(strings.TrimRight(t[b:e], ":="))
}

// clockDuration returns the end of a duration written as a clock after a
// word that introduces one ("took 00:12:41", "in 1:07.3"), or -1: a clock
// elsewhere is a time of day.
func clockDuration(t string, i int) int {
	if i > 0 && t[i-1] != ' ' || i+3 >= len(t) || t[i+1] != ':' && t[i+2] != ':' {
		return -1 // no clock here: "1:07", "00:12:41"
	}
	if w := wordBefore(t, i); !slices.Contains(durationWords, w) || w == "in" || w == "after" {
		return -1 // "starts in 10:30" may be a time of day
	}
	j, parts := i, 0
	for {
		k := j
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		if k == j || k-j > 2 && parts > 0 {
			return -1
		}
		parts++
		j = k
		if j+1 < len(t) && t[j] == ':' && isDigit(t[j+1]) {
			j++
			continue
		}
		break
	}
	if parts < 2 {
		return -1
	}
	if j+1 < len(t) && t[j] == '.' && isDigit(t[j+1]) {
		for j++; j < len(t) && isDigit(t[j]); j++ {
		}
	}
	if j < len(t) && (isAlnum(t[j]) || t[j] == ':') {
		return -1
	}
	return j
}

// durationWords introduce a duration: "in 97.4 s", "took 3.1 s".
var durationWords = []string{"in", "took", "after", "time", "elapsed", "duration", "total", "wall", "user", "system", "sys", "real"}

// durationEnd returns the end of a compound duration that starts at t[i]
// ("4m 13s", "2m13.5s", "1h 02m", "3d 4h", "1s 200ms"): two parts or more,
// each a number and one of d, h, m, s or ms; or -1.
func durationEnd(t string, i int) int {
	if i > 0 && (isAlnum(t[i-1]) || t[i-1] == '.' || t[i-1] == '_') {
		return -1
	}
	parts, last, spaced := 0, -1, false
	for j := i; ; {
		k := j
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		if k == j || k-j > 4 {
			break
		}
		if k+1 < len(t) && t[k] == '.' && isDigit(t[k+1]) {
			for k++; k < len(t) && isDigit(t[k]); k++ {
			}
		}
		if parts == 0 && k+1 < len(t) && t[k] == ' ' && strings.ContainsRune("hms", rune(t[k+1])) {
			spaced = true // .NET's "2 m 13 s": every part spaced
		}
		if spaced {
			if k+1 >= len(t) || t[k] != ' ' {
				break
			}
			k++
		}
		if k >= len(t) || !strings.ContainsRune("dhms", rune(t[k])) {
			break
		}
		e := k + 1
		if t[k] == 'm' && e < len(t) && t[e] == 's' {
			e++
		}
		if e < len(t) && (isAlpha(t[e]) || t[e] == '_') {
			break
		}
		parts, last, j = parts+1, e, e
		if j+1 < len(t) && t[j] == ' ' && isDigit(t[j+1]) {
			j++
		}
	}
	if parts >= 2 {
		return last
	}
	return -1
}

// unitSuffixes end a key that names the unit of its bare number.
var unitSuffixes = []string{"_ms", "_us", "_ns", "_s", "_sec", "_secs", "_seconds", "_millis", "_micros", "_nanos",
	"_bytes", "_kb", "_mb", "_gb", "_kib", "_mib", "_gib", "_pct", "_percent", "_per_sec", "_per_second", "_rps", "_qps",
	"ms", "Ms", "Millis", "Seconds", "Bytes", "Pct", "Percent", "PerSec"}

// unitKeyBefore returns where a key that names a unit starts, when the
// number at t[i] is its value ("avg_latency_ms=812.4",
// "duration_seconds: 41.2", "heapBytes=183226112"), or -1.
func unitKeyBefore(t string, i int) int {
	p := i
	if p > 0 && t[p-1] == ' ' {
		p--
	}
	if p == 0 || t[p-1] != '=' && t[p-1] != ':' {
		return -1
	}
	p--
	e := p
	for p > 0 && (isAlnum(t[p-1]) || t[p-1] == '_' || t[p-1] == '.') {
		p--
	}
	key := t[p:e]
	if timingKeys[key] {
		return p // nginx's request_time as a log format names it: "rt=12.884 urt=\"12.883\""
	}
	if len(key) < 3 || !isAlpha(key[0]) || settingKey(strings.ToLower(key)) {
		return -1
	}
	for _, u := range unitSuffixes {
		if strings.HasSuffix(key, u) && len(key) > len(u) {
			if u == "ms" && !isLower(key[len(key)-3]) {
				return -1
			}
			return p
		}
	}
	if measureKey(key) {
		return p
	}
	return -1
}

// timingKeys are the short keys access logs give their timings under:
// nginx's rt (request time), urt, uht and uct (upstream response, header
// and connect times), a probe's rtt and ttfb.
var timingKeys = map[string]bool{"rt": true, "urt": true, "uht": true, "uct": true, "rtt": true, "ttfb": true}

// realUserSys reports whether t gives the real, user and system times of
// a run on one line, each word followed by its figure.
func realUserSys(t string) bool {
	for _, w := range []string{"real ", "user ", "sys "} {
		k := strings.Index(t, w)
		if k < 0 || k > 0 && isAlpha(t[k-1]) || k+len(w) >= len(t) || !isDigit(t[k+len(w)]) {
			return false
		}
	}
	return true
}

// keySpaces spells a key's spaces and hyphens as underscores.
var keySpaces = strings.NewReplacer(" ", "_", "-", "_")

// measureKeyWords in a key say that its bare number is a measure: a
// duration, a size, a rate or a statistic of them.
var measureKeyWords = []string{"latency", "duration", "elapsed", "took", "rss", "heap", "memory", "mem_", "throughput",
	"qps", "rps", "tps", "p50", "p75", "p90", "p95", "p99", "p999", "avg", "mean", "median", "stddev", "peak",
	"_ms", "_sec", "_bytes", "bytes_", "_size", "size_", "ms_", "time_", "_time", "runtime", "cpu"}

// measureKey reports whether a key names a measure (see measureKeyWords),
// in any case and spelling ("heapUsed", "p99_ms", "avg_latency").
func measureKey(key string) bool {
	if len(key) < 3 || len(key) > 40 {
		return false
	}
	low := strings.ToLower(key)
	if strings.ContainsAny(low, " -") {
		low = keySpaces.Replace(low) // "Execution Time", "run-time"
	}
	if settingKey(low) {
		return false
	}
	for _, w := range measureKeyWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	switch low {
	case "max", "min", "avg", "mean", "median", "stddev", "peak", "time", "elapsed", "rss", "score":
		return true
	}
	return false
}

// settingKey reports whether a lower-case key names a setting or a
// handle rather than a measure: "timeout_ms", "max_rss", "pid", "status".
func settingKey(low string) bool {
	for _, w := range []string{"id", "port", "pid", "code", "status", "version", "count", "timestamp", "timeout", "limit", "interval", "ttl", "deadline"} {
		if strings.HasSuffix(low, w) || strings.HasPrefix(low, w) {
			return true
		}
	}
	return false
}

// bareEnd reports whether a bare number ending at t[j] ends there: not a
// date, a clock, a version or a word ("2026-12-01", "10:00", "3.2.1").
func bareEnd(t string, j int) bool {
	return j == len(t) || !isAlpha(t[j]) && t[j] != '-' && t[j] != ':' && t[j] != '.' && t[j] != '_' && t[j] != '/'
}

// unitAfter returns the unit after a number ending at t[j] and where it
// starts: right after the number, after a space, or after a column gap of
// two spaces before a unit word; unit is "" when there is none.
func unitAfter(t string, j int) (k int, unit string) {
	k = j
	spaced := k < len(t) && t[k] == ' '
	if spaced {
		k++
		if k+1 < len(t) && t[k] == ' ' && t[k+1] != ' ' {
			k++
		}
	}
	return k, unitAt(t, k, spaced)
}

// numberEnd returns the end of the number that starts at t[i], thousands
// separators and decimals included. ok is false when the digits belong to
// a word, a version or an identifier ("v1.2.3", "x86", "sha-256").
func numberEnd(t string, i int) (end int, ok bool) {
	if i > 0 && (isAlpha(t[i-1]) || t[i-1] == '_' || t[i-1] == '.' || t[i-1] == '/' || t[i-1] == ':' && !(i > 1 && t[i-2] == '"') || t[i-1] == '-' && i > 1 && isAlnum(t[i-2])) {
		return 0, false // a JSON value ("Elapsed":12.3) may touch its key's colon
	}
	j := i
	for j < len(t) && (isDigit(t[j]) || t[j] == ',' && j+3 < len(t) && isDigit(t[j+1]) && isDigit(t[j+2]) && isDigit(t[j+3])) {
		j++
	}
	if j+1 < len(t) && t[j] == '.' && isDigit(t[j+1]) {
		j++
		for j < len(t) && isDigit(t[j]) {
			j++
		}
	}
	if j < len(t) && (t[j] == '.' && j+1 < len(t) && isDigit(t[j+1]) || isDigit(t[j])) {
		return 0, false
	}
	return j, true
}

// skipWord returns the end of the word or dotted name at t[i].
func skipWord(t string, i int) int {
	for i < len(t) && (isAlnum(t[i]) || t[i] == '.') {
		i++
	}
	return i
}

// lastMeasurement is the measurement added last in a line, which a
// following one whose label is only linking words joins.
type lastMeasurement struct {
	item      int // its index in the scanner's items, or -1
	from, end int // its text in the line
}

// addMeasurement adds the measurement t[i:end] (a number and its unit)
// with its label: a JSON key, the words before it, or the words after it;
// or joins it to the one before when its label only links them.
func (s *scanner) addMeasurement(t string, i, end int, last *lastMeasurement) {
	if key, from := jsonKeyBefore(t, i); key != "" {
		if end < len(t) && t[end] == '"' && t[i-1] == '"' {
			end++ // "latency": "703.1ms", its closing quote too
		}
		s.addCapped(t[from:end], i-from)
		last.item = -1
		return
	}
	from := labelBefore(t, i)
	linked := from < i && linking(t[from:i])
	if linked {
		if last.item >= 0 && last.item < len(s.items) && last.end <= from && linking(t[last.end:i]) {
			// "Downloaded 12.5 MB in 3.2s": one measurement.
			if s.figureLine == "" {
				s.setValue(last.item, clean(t[last.from:end], s.e.maxValueLen()))
			}
			last.end = end
			return
		}
	}
	label := from
	if linked {
		from = i
	}
	to := end
	if from == i {
		to = labelAfter(t, end)
		if to == end || linking(t[end:to]) {
			// No label on either side. A unit that names what it counts
			// ("9997 rows", "17.688 seconds") stands alone, with the link
			// words before it when there are some ("in 17.688 seconds").
			if !selfDescribing(t[i:end]) {
				return
			}
			from, to = label, end
		}
	}
	if strings.HasSuffix(t[i:end], "times") {
		to = max(to, labelAfter(t, end)) // what the ratio compares: "2.5 times slower"
	}
	n := len(s.items)
	if s.addCapped(t[from:to], i-from) {
		*last = lastMeasurement{item: n, from: from, end: to}
	}
}

// selfDescribing reports whether a measurement's unit says what it
// measures without a label: a unit word of four letters or more ("rows",
// "seconds"), or a unit of time, size or rate of two bytes or more ("sec",
// "µs", "MB", "us/op"): "(63.23 sec)" after a query and "[142.63 µs
// 224.97 µs 402.11 µs]" in a benchmark's report are measurements although
// nothing names them. A bare number with "%", "x" or a one-letter unit
// is not.
func selfDescribing(m string) bool {
	if durationEnd(m, 0) == len(m) {
		return true // "4m 13s"
	}
	k := len(m)
	for k > 0 && isAlpha(m[k-1]) {
		k--
	}
	if len(m)-k >= 4 {
		return true
	}
	u := m[strings.LastIndexAny(m, "0123456789 ")+1:]
	if u == "h" && len(m) > 3 && strings.Contains(m, ".") && isDigit(m[len(m)-2]) {
		return true // hours in a decimal: the reindex that ran "6.8h"
	}
	return len(u) >= 2 && unitSet[u]
}

// plusMinus returns the end of "± 16.569" (a margin of error) right after
// a number ending at j, so that "258.520 ± 16.569 us/op" reads as one
// measurement; j when there is none.
func plusMinus(t string, j int) int {
	k := j
	for k < len(t) && t[k] == ' ' {
		k++
	}
	if !strings.HasPrefix(t[k:], "±") {
		return j
	}
	k += len("±")
	for k < len(t) && t[k] == ' ' {
		k++
	}
	if k >= len(t) || !isDigit(t[k]) {
		return j
	}
	e, ok := numberEnd(t, k)
	if !ok {
		return j
	}
	return e
}

// addCapped adds measurement v, whose number starts at byte at of v. Past
// the per-kind cap it is not dropped outright: in a log of a hundred
// "took=12ms" lines the one that took 3472.1ms is the one that matters, so
// a measurement replaces the smallest kept one with the same label and
// unit when it is larger. It reports whether v was added as a new item.
func (s *scanner) addCapped(v string, at int) bool {
	return s.addCappedIn(v, at, "")
}

// addCappedIn is addCapped with the group the figure counts in given: a
// table's column, whose rows each have a label of their own; "" groups it
// by its label and unit.
func (s *scanner) addCappedIn(v string, at int, group string) bool {
	if s.figureProbe {
		if label, n, unit, ok := splitMeasurement(v, at); ok && (s.probeNum == "" || n > s.probeMax) {
			s.probeNum, s.probeMax = v[at:], n
			s.probeGroup = group
			if group == "" {
				s.probeGroup = label + "\x00" + unit
			}
		}
		s.probeCount++
		return false
	}
	max := s.e.maxOf(KindMeasurement)
	label, num, unit, ok := splitMeasurement(v, at)
	if group == "" {
		group = label + "\x00" + unit
	}
	if rateUnit(unit) != s.lowerBetter {
		// a throughput's worst is its lowest: of a benchmark's rows in
		// ops/sec, the slowest stays (see below); a loss's best is its
		// lowest
		num = -num
	}
	same := 0
	low, lowAt := num, -1
	if ok {
		for _, k := range s.mgroups[group] {
			if k >= len(s.items) || s.items[k].Kind != KindMeasurement {
				continue
			}
			same++
			if n := s.mnum[groupItem{group, k}]; n < low {
				low, lowAt = n, k
			}
		}
	}
	// Routine figures repeat under one label ("took=88ms" on every line
	// of a log): past sameLabelCap of them, only the largest stay.
	if (max <= 0 || s.counts[KindMeasurement] < max) && (!ok || same < sameLabelCap) {
		return s.addInGroup(v, group, num, ok)
	}
	if !ok {
		return false
	}
	if lowAt < 0 {
		if same > 0 {
			return false // smaller than every figure of its label kept
		}
		// Past the per-kind cap, a figure of a label not seen yet takes
		// the place of a routine one (the smallest of the largest group)
		// or, with none, of the piece's earliest figure: a tool prints
		// its summary last (k6's http_req_duration after its setup
		// lines), and the first figures of a report are the likeliest
		// to be its preamble.
		if lowAt = s.evictable(); lowAt < 0 {
			return false
		}
	}
	if s.inOtherGroup(lowAt, group) && (max <= 0 || s.counts[KindMeasurement] < max) {
		// The smallest of this group is a line kept whole for another
		// column's figure too: it stays for that one, leaves this
		// group, and the new figure's line is added.
		s.mgroups[group] = slices.DeleteFunc(s.mgroups[group], func(k int) bool { return k == lowAt })
		return s.addInGroup(v, group, num, true)
	}
	c := clean(v, s.e.maxValueLen())
	if s.figureLine != "" {
		c = cleanGaps(s.figureLine, s.e.capOf(KindDecision), s.e.capOf(KindDecision)) // as add keeps it
		if k, ok := s.seen[(&Item{Kind: KindMeasurement, Value: c}).Key()]; ok {
			// the line is kept already, for another of its figures
			s.inGroup(group, k, num)
			return false
		}
	}
	if c == "" {
		return false
	}
	it := &s.items[lowAt]
	if s.mgroups == nil {
		s.mgroups = make(map[string][]int)
		s.mnum = make(map[groupItem]float64)
	}
	s.mnum[groupItem{group, lowAt}] = num
	s.leaveGroups(lowAt, group)
	if !slices.Contains(s.mgroups[group], lowAt) {
		s.mgroups[group] = append(s.mgroups[group], lowAt)
	}
	s.setValue(lowAt, c)
	it.Loud = s.loud
	return false
}

// leaveGroups takes item k out of every group of figures but keep ("":
// out of all), as when another figure takes its place.
func (s *scanner) leaveGroups(k int, keep string) {
	for g, ks := range s.mgroups {
		if i := slices.Index(ks, k); i >= 0 && (keep == "" || g != keep) {
			if ks = slices.Delete(ks, i, i+1); len(ks) == 0 {
				delete(s.mgroups, g)
			} else {
				s.mgroups[g] = ks
			}
		}
	}
}

// groupItem is a measurement item in a group of figures: a line kept
// whole counts in the group of each of its columns, with that column's
// figure.
type groupItem struct {
	group string
	k     int
}

// inOtherGroup reports whether item k counts in a group of figures other
// than group: a line kept whole holds a figure of each of its columns.
func (s *scanner) inOtherGroup(k int, group string) bool {
	for g, ks := range s.mgroups {
		if g != group && slices.Contains(ks, k) {
			return true
		}
	}
	return false
}

// addInGroup adds measurement v and, when grouped, counts its item in
// group with the figure num. The item may be one kept already: a repeat,
// or the line of another figure kept whole. It reports whether v was
// kept.
func (s *scanner) addInGroup(v, group string, num float64, grouped bool) bool {
	n := len(s.items)
	p := s.add(KindMeasurement, v)
	if p == nil {
		return false
	}
	if len(s.items) == n {
		n = s.indexOf(p)
	}
	if grouped && n >= 0 {
		s.inGroup(group, n, num)
	}
	return true
}

// inGroup counts item k in group with the figure num.
func (s *scanner) inGroup(group string, k int, num float64) {
	if s.mgroups == nil {
		s.mgroups = make(map[string][]int)
		s.mnum = make(map[groupItem]float64)
	}
	if !slices.Contains(s.mgroups[group], k) {
		s.mgroups[group] = append(s.mgroups[group], k)
	}
	s.mnum[groupItem{group, k}] = num
}

// indexOf returns the index in s.items of the item p points to, or -1.
func (s *scanner) indexOf(p *Item) int {
	for i := len(s.items) - 1; i >= 0; i-- {
		if &s.items[i] == p {
			return i
		}
	}
	return -1
}

// evictable returns the measurement of this piece that a new figure past
// the per-kind cap may replace: the smallest of the largest group of one
// label and unit when it holds two or more, else the earliest figure not
// on a warning or error line; or -1.
func (s *scanner) evictable() int {
	best, bestN := -1, 1
	for _, g := range slices.Sorted(maps.Keys(s.mgroups)) { // the same choice on every run
		if ks := s.mgroups[g]; len(ks) > bestN {
			low := math.Inf(1)
			for _, k := range ks {
				if n := s.mnum[groupItem{g, k}]; n < low {
					low, best = n, k
				}
			}
			bestN = len(ks)
		}
	}
	if best >= 0 {
		return best
	}
	for k := range s.items {
		if it := &s.items[k]; it.Kind == KindMeasurement && it.Source == s.index && !it.Loud {
			return k
		}
	}
	return -1
}

// replaceSmaller is add for a measurement past the cap that came with no
// group (a report's line, a log line with its figure): when most figures
// kept from this text are of the same kind as v's (durations, sizes) and v
// is larger than the smallest of them, it takes that one's place. Of a GC
// log's pauses, of a build's module timings, the longest stay.
func (s *scanner) replaceSmaller(v string) *Item {
	if s.figureProbe {
		return nil
	}
	fam, num, ok := mainFigure(v)
	if !ok {
		return nil
	}
	same, total, lowAt, low := 0, 0, -1, math.Inf(1)
	for k := range s.items {
		it := &s.items[k]
		if it.Kind != KindMeasurement || it.Source != s.index {
			continue
		}
		total++
		if f, n, ok := mainFigure(it.Value); ok && f == fam {
			same++
			if !it.Loud && n < low {
				low, lowAt = n, k
			}
		}
	}
	if same < 4 || same*2 <= total || lowAt < 0 || num <= low {
		return nil
	}
	c := clean(v, s.e.capOf(KindMeasurement))
	if s.wide {
		c = cleanGaps(v, s.e.capOf(KindDecision), s.e.capOf(KindDecision))
	}
	it := Item{Kind: KindMeasurement, Value: c, Source: s.index, Loud: s.loud, Odd: s.odd}
	if c == "" {
		return nil
	}
	if i, ok := s.seen[it.Key()]; ok {
		return &s.items[i]
	}
	s.leaveGroups(lowAt, "")
	old := &s.items[lowAt]
	if s.seen != nil {
		delete(s.seen, old.Key())
		s.seen[it.Key()] = lowAt
	}
	*old = it
	return old
}

// mainFigure returns the last figure of v that carries a unit of time or
// size, brought to seconds or bytes, with the kind of its unit: "… Pause
// Young (Normal) 4081M->4017M(4096M) 37.512ms" gives time, 0.037512. A
// line's stamp and counters, which carry no such unit, are passed over.
func mainFigure(v string) (fam string, num float64, ok bool) {
	for i := 0; i < len(v); i++ {
		if !isDigit(v[i]) || i > 0 && isDigit(v[i-1]) {
			continue
		}
		end, isNum := numberEnd(v, i)
		if !isNum {
			continue
		}
		_, unit := unitAfter(v, end)
		f, scale := unitFamily(unit)
		if f == "time" || f == "size" {
			n, err := strconv.ParseFloat(strings.ReplaceAll(v[i:end], ",", ""), 64)
			if err == nil {
				fam, num, ok = f, n*scale, true
			}
		}
		i = end
	}
	return fam, num, ok
}

// unitFamily returns the kind of a unit, time or size, and the factor
// that brings a figure in it to seconds or bytes; "" for any other unit.
func unitFamily(unit string) (string, float64) {
	switch unit {
	case "ns", "nsec":
		return "time", 1e-9
	case "µs", "μs", "us", "usec", "µsec":
		return "time", 1e-6
	case "ms", "msec":
		return "time", 1e-3
	case "s", "sec", "secs", "second", "seconds":
		return "time", 1
	case "min", "mins", "minutes":
		return "time", 60
	case "h", "hrs", "hours":
		return "time", 3600
	case "B", "bytes":
		return "size", 1
	case "KB", "kB", "KiB", "Ki", "K": // du's and a GC log's "71G", "4081M"
		return "size", 1 << 10
	case "MB", "MiB", "Mi", "M":
		return "size", 1 << 20
	case "GB", "GiB", "Gi", "G":
		return "size", 1 << 30
	case "TB", "TiB", "Ti", "T":
		return "size", 1 << 40
	}
	return "", 0
}

// rateUnit reports whether unit counts something per unit of time
// (ops/sec, req/s, i/s, rps, fps), where less is worse.
func rateUnit(unit string) bool {
	return strings.HasSuffix(unit, "/s") || strings.HasSuffix(unit, "/sec") || unit == "rps" || unit == "qps" || unit == "fps"
}

// sameLabelCap is how many figures of one label and unit a piece of the
// log keeps before only larger ones replace the smallest.
const sameLabelCap = 3

// splitMeasurement splits a measurement value into the label before its
// number, the number and the unit after it. at is where the number
// starts, or -1 to take the first number that follows a non-word byte.
func splitMeasurement(v string, at int) (label string, num float64, unit string, ok bool) {
	if at < 0 {
		for k := 0; k < len(v); k++ {
			if isDigit(v[k]) && (k == 0 || !isAlnum(v[k-1]) && v[k-1] != '.' && v[k-1] != '_') {
				at = k
				break
			}
		}
	}
	if at < 0 || at >= len(v) || !isDigit(v[at]) {
		return "", 0, "", false
	}
	j := at
	for j < len(v) && (isDigit(v[j]) || v[j] == '.' || v[j] == ',') {
		j++
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(v[at:j], ",", ""), 64)
	if err != nil {
		return "", 0, "", false
	}
	u := j
	for u < len(v) && v[u] == ' ' {
		u++
	}
	e := u
	for e < len(v) && v[e] != ' ' {
		e++
	}
	return v[:at], f, v[u:e], true
}

// linkWords carry no meaning as a label on their own.
var linkWords = map[string]bool{"in": true, "at": true, "of": true, "after": true, "for": true,
	"the": true, "a": true, "an": true, "ago": true, "to": true, "by": true, "with": true,
	"and": true, "or": true, "on": true, "from": true, "over": true, "per": true, "within": true,
	"/": true} // a figure out of another: "3.933GiB / 4GiB"

// linking reports whether s holds only spaces, punctuation and link words.
func linking(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		if !linkWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// jsonKeyBefore returns the key, and where its opening quote is, when the
// number at t[i] is a JSON string or number field value: "latency":
// "703.1ms", "p99_ms": 703 or "Execution Time": 26684.967.
func jsonKeyBefore(t string, i int) (key string, from int) {
	p := i
	if p > 0 && t[p-1] == '"' {
		p--
	}
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p < 2 || t[p-1] != ':' {
		return "", 0
	}
	p--
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p < 2 || t[p-1] != '"' {
		return "", 0
	}
	q := strings.LastIndexByte(t[:p-1], '"')
	if q < 0 || p-1-q > 40 || p-1-q < 1 {
		return "", 0
	}
	key = t[q+1 : p-1]
	for k := 0; k < len(key); k++ {
		if !(isAlnum(key[k]) || key[k] == '_' || key[k] == '-' || key[k] == '.' || key[k] == ' ' && k > 0 && k < len(key)-1) {
			return "", 0
		}
	}
	return key, q
}

var unitSet = func() map[string]bool {
	m := make(map[string]bool, len(units))
	for _, u := range units {
		m[u] = true
	}
	return m
}()

func unitAt(t string, k int, spaced bool) string {
	if u := unitShape(t[k:], spaced); u != "" {
		return u
	}
	for _, u := range units {
		if !strings.HasPrefix(t[k:], u) {
			continue
		}
		e := k + len(u)
		if u != "%" && e < len(t) && (isAlnum(t[e]) || t[e] == '_' || t[e] == '/') {
			continue
		}
		if spaced && len(u) == 1 && u != "%" {
			continue
		}
		if u == "times" && !hasAnyLead(strings.TrimLeft(t[e:], " "), comparatives) {
			continue // "retried 3 times" counts; "8.04 times faster" compares
		}
		return u
	}
	return ""
}

// comparatives follow a ratio's "times": "2.15 ± 0.09 times faster than
// before".
var comparatives = []string{"faster", "slower", "more", "less", "fewer", "larger", "smaller", "bigger",
	"higher", "lower", "as"}

const labelStops = ",;|()[]{}<>\"'`"

// labelBefore returns where the label of the number at t[i] starts: up to
// four words (48 bytes) before it, after an optional ':' or '=', stopping
// at punctuation, at a column gap, at a word holding ':' or '=' (another
// field) or starting with a digit (another value). It returns i when there
// is no label.
func labelBefore(t string, i int) int {
	p := i
	for p > 0 && (t[p-1] == ' ' || t[p-1] == '\t') {
		p--
	}
	keyed := false
	if p > 0 && (t[p-1] == ':' || t[p-1] == '=' || t[p-1] == '|') {
		// "latency: 3ms", "latency=3ms", a table's "| latency | 3ms |".
		keyed = t[p-1] != '|'
		p--
		for p > 0 && (t[p-1] == ' ' || t[p-1] == '\t') {
			p--
		}
		if keyed {
			if q := callKeyStart(t, p); q < p {
				return q // "p(95)=293.27ms", "quantile(0.99)=812ms"
			}
		}
	}
	from := i
	for words := 0; words < 4 && p > 0; words++ {
		e := p
		for p > 0 && t[p-1] != ' ' && t[p-1] != '\t' && !labelStopSet[t[p-1]] {
			p--
		}
		w := t[p:e]
		// A word that is a signed number ("-4.0%" before "+0.4%") or only
		// signs is another figure, not a label.
		if bare := strings.TrimLeft(w, "+-±~("); bare == "" || isDigit(bare[0]) {
			break
		}
		// A key glued to its figure is a label even when it spells a unit
		// ("min=10.2ms").
		unit := unitSet[w] && !(keyed && words == 0)
		if w == "" || isDigit(w[0]) || unit || strings.ContainsAny(w, ":=") && words > 0 || i-p > 48 {
			break
		}
		if strings.ContainsAny(w, ":=") {
			// "latency=" glued to the number's ':' / '=' handled above;
			// a word like "a=b" is another field.
			break
		}
		from = p
		// Stop at a column gap (tab or two spaces) or punctuation.
		if p == 0 || t[p-1] == '\t' || labelStopSet[t[p-1]] || (p > 1 && t[p-1] == ' ' && t[p-2] == ' ') {
			break
		}
		p-- // the single space between words
	}
	return from
}

// callKeyStart returns where a key written as a call ends at t[:p] starts:
// "p(95)" in "p(95)=293.27ms", "quantile(0.99)"; p when t[:p] does not end
// with one.
func callKeyStart(t string, p int) int {
	if p == 0 || t[p-1] != ')' {
		return p
	}
	o := strings.LastIndexByte(t[max(0, p-24):p-1], '(')
	if o < 0 {
		return p
	}
	o += max(0, p-24)
	q := o
	for q > 0 && (isAlnum(t[q-1]) || t[q-1] == '_' || t[q-1] == '.') {
		q--
	}
	if q == o || strings.ContainsAny(t[o:p], " \t") {
		return p
	}
	return q
}

// labelAfter returns where a trailing label after t[:end] stops: up to three
// lower-case words ("of statements", "faster"), or end when there is none.
func labelAfter(t string, end int) int {
	to := end
	p := end
	for words := 0; words < 3; words++ {
		if p >= len(t) || t[p] != ' ' || p+1 >= len(t) || !isLower(t[p+1]) && !(words == 0 && isUpper(t[p+1])) {
			break
		}
		q := p + 1
		// a word, or a name joined with dashes or underscores: a unit's
		// ("cloud-init.service", "NetworkManager-wait-online.service")
		for q < len(t) && (isLower(t[q]) || q == p+1 && isUpper(t[q]) || q > p+1 && (isUpper(t[q]) || isDigit(t[q]) || (t[q] == '-' || t[q] == '_') && q+1 < len(t) && isAlnum(t[q+1]))) {
			q++
		}
		if q < len(t) && t[q] != ' ' && strings.IndexByte(labelStops+".:", t[q]) < 0 {
			break
		}
		to, p = q, q
	}
	return to
}

// benchResult recognises the result lines of the benchmark harnesses whose
// figures sit in columns with no label of their own, and returns the line
// labelled with its benchmark's name, and that name:
//
//   - Criterion (Rust): "parse/1k  time:   [41.2 µs 44.7 µs 48.1 µs]", the
//     middle figure the estimate, between the bounds of its confidence
//     interval; "thrpt:" likewise. A long name stands on the line before
//     (prev); a "thrpt:" line follows its "time:" line (bench, the name
//     of the latest result). → "parse/1k time: [41.2 µs 44.7 µs 48.1 µs]";
//   - JMH (Java): "ShiftBench.assign  avgt  25  499.247 ± 2.868  us/op",
//     the mode (thrpt, avgt, sample, ss) after the name. →
//     "ShiftBench.assign avgt: 499.247 ± 2.868  us/op", the figures as
//     printed.
func benchResult(t, prev, bench string) (value, name string, ok bool) {
	for _, key := range []string{"time:", "thrpt:", "change:"} {
		k := strings.Index(t, key)
		if k < 0 {
			continue
		}
		rest := strings.TrimSpace(t[k+len(key):])
		if key == "change:" {
			// "change: [-36.3192% -33.6127% -30.0798%] (p = 0.00 <
			// 0.05)", under its benchmark's time: line: a significant
			// change.
			e := strings.IndexByte(rest, ']')
			if k > 0 && strings.TrimSpace(t[:k]) != "" || bench == "" || e < 0 || rest[0] != '[' ||
				len(strings.Fields(rest[:e])) != 3 || !strings.HasSuffix(rest[:e], "%") || !strings.Contains(rest[e:], " < ") {
				continue // not one, or no significant change ("(p = 0.19 > 0.05)")
			}
			return bench + " change: " + strings.Join(strings.Fields(rest), " "), bench, true
		}
		if len(rest) < 2 || rest[0] != '[' || rest[len(rest)-1] != ']' || len(strings.Fields(rest)) != 6 {
			continue
		}
		name = strings.TrimSpace(t[:k])
		switch {
		case name != "":
		case bench != "" && strings.Contains(prev, "time:"):
			name = bench
		case !strings.Contains(prev, ":"):
			name = prev
		}
		if name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		return name + " " + key + " " + strings.Join(strings.Fields(rest), " "), name, true
	}
	// A JMH row: the second field is a mode. Checked before anything is
	// allocated: this runs on every line of output.
	first, rest, _ := strings.Cut(t, " ")
	mode, _, _ := strings.Cut(strings.TrimLeft(rest, " \t"), " ")
	if !jmhModes[mode] || !strings.ContainsAny(first, ".:") {
		return "", "", false
	}
	starts := fieldStarts(t)
	if len(starts) < 4 {
		return "", "", false
	}
	field := func(i int) string { return strings.Fields(t[starts[i]:])[0] }
	score := 2
	if allDigits(field(2)) && len(starts) > 4 {
		score = 3 // after the count of iterations
	}
	if _, err := strconv.ParseFloat(strings.ReplaceAll(field(score), ",", ""), 64); err != nil {
		return "", "", false
	}
	return field(0) + " " + field(1) + ": " + t[starts[score]:], field(0), true
}

// fieldStarts returns the offsets at which the space-separated fields of t
// start.
func fieldStarts(t string) []int {
	var out []int
	for i := 0; i < len(t); i++ {
		if t[i] != ' ' && t[i] != '\t' && (i == 0 || t[i-1] == ' ' || t[i-1] == '\t') {
			out = append(out, i)
		}
	}
	return out
}

// jmhModes are the benchmark modes of JMH's result table.
var jmhModes = map[string]bool{"thrpt": true, "avgt": true, "sample": true, "ss": true}

// profileRows is how many of a profile's first rows are kept: where the
// time went.
const profileRows = 3

// profile reads a profiler's table: after its header (pprof's "flat
// flat% sum% cum cum%", perf report's "Overhead … Symbol", cProfile's
// "ncalls tottime … filename:lineno(function)", async-profiler's "percent
// samples top", py-spy's "%Own %Total"), the first profileRows rows are
// kept as measurements, spaces collapsed ("1.20s 31.58% 31.58% 1.50s
// 39.47% main.flushLedger"): the functions that took the time, with how
// much. The entries that only wrap the whole run (cProfile's "{built-in
// method builtins.exec}" and "<module>") are passed over. It reports
// whether the line was the header or a row taken.
func (s *scanner) profile(t string) bool {
	if s.profRows == 0 {
		if profileHeader(t) {
			s.profRows = profileRows
			return true
		}
		return false
	}
	if t[0] == '#' || strings.Trim(t, "-. \t") == "" {
		return true // perf's comments, a rule under the header
	}
	if !isDigit(t[0]) && t[0] != '.' {
		s.profRows = 0 // the table ended
		return false
	}
	if s.profRows < 0 || strings.Contains(t, "builtins.exec}") || strings.Contains(t, "(<module>)") {
		return true // a row past the top ones, or the whole run's
	}
	s.add(KindMeasurement, t)
	if s.profRows--; s.profRows == 0 {
		s.profRows = -1 // the rest of the table is read and passed over
	}
	return true
}

// profileHeader recognises the header line of a profiler's table: its
// column names as whole fields, and no more than a header's few fields.
func profileHeader(t string) bool {
	h := strings.TrimLeft(t, "# ")
	first, _, _ := strings.Cut(h, " ")
	switch first {
	case "flat", "Overhead", "ncalls", "ns", "%Own": // the headers' first columns
	default:
		return false
	}
	f := strings.Fields(h)
	if len(f) > 8 {
		return false
	}
	has := func(words ...string) bool {
		for _, w := range words {
			if !slices.Contains(f, w) {
				return false
			}
		}
		return true
	}
	return has("flat%", "cum%") || has("Overhead", "Symbol") || has("ncalls", "tottime", "cumtime") ||
		has("ns", "percent", "samples", "top") || has("%Own", "%Total")
}

// figureLine reports whether an output's line is one label and its figure,
// as the summaries of load tools, profilers, time(1) and databases print
// them: "Requests/sec:  18266.17", "tps = 4123.771204 (without initial
// connection time)", "Maximum resident set size (kbytes): 6219344",
// "real\t0m41.203s", "99%  212.40ms" (a percentile's latency). Such a line
// is kept whole, as printed: its label says what the figure measures. The
// label is a few words before ':', '=', a tab or a column gap; the figure
// starts with a digit and only a unit or a short remark follows it. A
// count with no unit, no decimals and no word of measure in its label
// ("Parallelism: 1", "Port: 8080") is no measurement.
func figureLine(t string) bool {
	if len(t) < 4 || len(t) > 100 || !isAlpha(t[0]) && !isDigit(t[0]) {
		return false
	}
	if k := strings.Index(t, "% in "); k > 0 && !strings.ContainsRune(t[:k], ' ') {
		// hey's latency distribution: "99% in 0.2874 secs"
		_, ok := numberEnd(t, 0)
		return ok && isDigit(t[k+len("% in ")]) && figureValue(t[:k+1], t[k+len("% in "):])
	}
	for i := 1; i < len(t); i++ {
		c := t[i]
		gap := c == '\t' || c == ' ' && i+1 < len(t) && t[i+1] == ' '
		if c != ':' && c != '=' && !gap {
			continue
		}
		if c == ':' && i+1 < len(t) && t[i+1] != ' ' && t[i+1] != '\t' && !isDigit(t[i+1]) {
			continue // "h:mm:ss", "file:line" inside the label
		}
		if c == ':' && isDigit(t[i-1]) && i+1 < len(t) && isDigit(t[i+1]) {
			continue // a clock's "12:16:47" inside a row
		}
		label := strings.TrimRight(t[:i], " \t")
		j := i + 1
		for j < len(t) && (t[j] == ' ' || t[j] == '\t' || t[j] == '=' || t[j] == ':') {
			j++
		}
		if strings.HasSuffix(label, "%") && strings.HasPrefix(t[j:], "in ") {
			j += len("in ") // hey's "99% in 0.2874 secs"
		}
		if j >= len(t) || !isDigit(t[j]) && !((t[j] == '-' || t[j] == '+') && j+1 < len(t) && isDigit(t[j+1])) {
			if gap || c == ':' || c == '=' {
				if !figureLabel(label) {
					return false
				}
				continue
			}
		}
		return figureLabel(label) && figureValue(label, t[j:])
	}
	return false
}

// figureLabel reports whether s can label a figure: a few words (or a
// percentile, "99%", "p99"), no sentence.
func figureLabel(s string) bool {
	if s == "" || len(s) > 60 || strings.Count(s, " ") > 7 || strings.ContainsAny(s, "\"'`{}<>[]*#@") || strings.Contains(s, ": ") {
		return false
	}
	if k := strings.IndexByte(s, ','); k >= 0 && k+1 < len(s) && s[k+1] != ' ' {
		return false // a CSV row's fields
	}
	for i := 1; i+1 < len(s); i++ {
		if s[i] == '.' && isAlpha(s[i-1]) && isAlpha(s[i+1]) {
			return false // a file's or a package's name ("main.go:42: …")
		}
	}
	if strings.HasSuffix(s, "%") {
		_, ok := numberEnd(s, 0)
		return ok && isDigit(s[0])
	}
	letters := 0
	for i := 0; i < len(s); i++ {
		if isAlpha(s[i]) {
			letters++
		}
	}
	return letters >= 2 && !strings.HasSuffix(s, ".")
}

// figureValue reports whether v, what follows a label, is a figure: a
// number, then at most a unit and a short remark; and a measure: a unit, a
// fraction, or a label that names a measure.
func figureValue(label, v string) bool {
	k := 0
	for k < len(v) && v[k] != ' ' && v[k] != '\t' {
		k++
	}
	tok, rest := v[:k], strings.TrimSpace(v[k:])
	if strings.ContainsAny(rest, ";{}*") || strings.HasSuffix(tok, ",") || strings.HasSuffix(tok, ";") {
		return false // code ("total = 25 * 60;"), or a list
	}
	if o := strings.IndexByte(rest, '('); o >= 0 && strings.HasSuffix(rest, ")") && strings.Count(rest, "(") == 1 {
		rest = strings.TrimSpace(rest[:o]) // a remark: "341740.279 ms (05:41.740)", "6.5G (peak: 14.7G)"
	}
	rest = thousands.Replace(rest) // "bytes in 89,246 blocks"
	if numberList(v) {
		return true // uptime's "load average: 7.82, 6.11, 4.90"
	}
	if len(rest) > 40 || strings.Count(rest, " ") > 5 || strings.ContainsAny(rest, ":=,") || rest != "" && (rest[0] == '+' || rest[0] == '-') {
		return false // another field follows ("p50 latency: 41ms", "gc=12%", "+1.0ms")
	}
	if strings.ContainsAny(tok, ".:") || strings.TrimLeft(tok, "+-0123456789,") != "" {
		return true // "18266.17", "0:58.71", "0m41.203s", "3.41G", "412ms"
	}
	if u, _, _ := strings.Cut(rest, " "); unitSet[u] {
		return true // "2.7 GB", "412 ms"
	}
	l := strings.ToLower(label)
	for _, w := range measureWords {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// numberList reports whether v is a list of two to five decimal numbers
// separated by commas: "7.82, 6.11, 4.90".
func numberList(v string) bool {
	parts := strings.Split(v, ", ")
	if len(parts) < 2 || len(parts) > 5 {
		return false
	}
	for _, p := range parts {
		if e, ok := numberEnd(p, 0); !ok || e != len(p) || !strings.Contains(p, ".") {
			return false
		}
	}
	return true
}

// thousands drops the separators of figures such as 89,246, so that they
// are not read as a list.
var thousands = strings.NewReplacer(",0", "0", ",1", "1", ",2", "2", ",3", "3", ",4", "4", ",5", "5", ",6", "6",
	",7", "7", ",8", "8", ",9", "9")

// measureWords in a label say that its count is a measure.
var measureWords = []string{"time", "size", "memory", "bytes", "rss", "latency", "duration", "elapsed",
	"rows", "requests", "throughput", "/s", "per ", "sec", "ms", "rate", "lag", "hits", "misses",
	"p50", "p75", "p90", "p95", "p99", "avg", "mean", "median", "max", "min", "peak", "stddev"}
