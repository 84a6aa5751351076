package ledger

import (
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
)

// scanner extracts the items of one message or tool result. It holds the
// small amount of state multi-line shapes need (a Python traceback, a Go
// panic, a JS error waiting for its first frame) and the per-kind counts.
type scanner struct {
	e      *Extractor
	index  int
	output bool // scanning tool output rather than prose
	source bool // the output is a source file's content: only paths, URLs and ids
	items  []Item
	counts map[Kind]int
	seen   map[string]int // item key → index in items
	tail   []Item         // the latest errors past the first half of the cap

	inTrace    bool   // inside a Python traceback
	traceFrame string // its deepest `File "…", line N` so far
	inFail     bool   // after a Go "--- FAIL:" line
	goFrame    bool   // after a Go panic, waiting for its first user frame
	atFrame    int    // after a JS/Java error, lines left to find its first "at" frame
	rustPanic  string // a Rust panic line whose message is on the next line

	hot     map[int]uint8 // line start → the hot* marks of the line
	hotLine uint8         // the marks of the current line
}

// Marks of lines worth the slower checks, found by markLines.
const (
	hotError  uint8 = 1 << iota // may be a log error, pod failure or "Error: " line
	hotCounts                   // may be a test count summary
	hotURL                      // may hold a URL
)

// hotNeedles are the substrings that make a line hot: every slower check
// needs one of them, so a text is searched for each once (fast, with SIMD)
// instead of every line for each.
var hotNeedles = []struct {
	s    string
	mark uint8
}{
	{"rror", hotError}, {"RROR", hotError}, {"atal", hotError}, {"ATAL", hotError},
	{"RITICAL", hotError}, {"BackOff", hotError}, {"ErrImage", hotError}, {"Killed", hotError},
	{"Evicted", hotError}, {"Unhealthy", hotError}, {"Failed", hotError}, {"level", hotError},
	{"xception", hotError}, {"InvalidImage", hotError}, {" passed", hotCounts}, {" failed", hotCounts}, {"://", hotURL},
}

var hotSet, hotMarks = func() (*needleSet, []uint8) {
	var ns []string
	var marks []uint8
	for _, n := range hotNeedles {
		ns = append(ns, n.s)
		marks = append(marks, n.mark)
	}
	return newNeedleSet(ns...), marks
}()

// markLines returns the marks of the lines of text, by line start.
func markLines(text string, m map[int]uint8) map[int]uint8 {
	if m == nil {
		m = make(map[int]uint8)
	} else {
		clear(m)
	}
	hotSet.lines(text, func(start int, found uint64) {
		var mark uint8
		for found != 0 {
			k := bits.TrailingZeros64(found)
			found &= found - 1
			mark |= hotMarks[k]
		}
		m[start] = mark
	})
	return m
}

func newScanner(e *Extractor, index int, output bool) *scanner {
	return &scanner{e: e, index: index, output: output, counts: make(map[Kind]int)}
}

// add records an item, cleaned and capped; empty values and items over the
// per-kind limit are dropped.
func (s *scanner) add(k Kind, v string) *Item {
	max := s.e.maxPerKind()
	if max > 0 && s.counts[k] >= max && k != KindError {
		return nil
	}
	v = clean(v, s.e.maxValueLen())
	if v == "" {
		return nil
	}
	it := Item{Kind: k, Value: v, Source: s.index}
	key := it.Key()
	if i, ok := s.seen[key]; ok {
		// A repeat does not count against the cap.
		return &s.items[i]
	}
	if max > 0 && k == KindError && s.counts[k] >= max-max/2 {
		// Past the first half of the cap, keep the latest errors: the
		// first and the last lines of a failure are the decisive ones.
		for _, t := range s.tail {
			if t.Value == v {
				return nil
			}
		}
		s.tail = append(s.tail, it)
		if len(s.tail) > max/2 {
			s.tail = append(s.tail[:0], s.tail[1:]...)
		}
		return nil
	}
	s.keep(it, key)
	return &s.items[len(s.items)-1]
}

func (s *scanner) keep(it Item, key string) {
	if s.seen == nil {
		s.seen = make(map[string]int)
	}
	s.seen[key] = len(s.items)
	s.counts[it.Kind]++
	s.items = append(s.items, it)
}

// text scans text (already redacted) line by line.
func (s *scanner) text(text string) {
	s.hot = markLines(text, s.hot)
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		s.hotLine = s.hot[start]
		s.line(text[start:end])
		start = end + 1
	}
	s.flush()
	for _, p := range s.e.Patterns {
		if p.Regexp == nil {
			continue
		}
		for _, m := range p.Regexp.FindAllStringSubmatch(text, -1) {
			v := m[0]
			if len(m) > 1 && m[1] != "" {
				v = m[1]
			}
			s.add(p.Kind, v)
		}
	}
}

// flush ends pending multi-line shapes at the end of a text.
func (s *scanner) flush() {
	if s.rustPanic != "" {
		s.add(KindError, s.rustPanic)
		s.rustPanic = ""
	}
	for _, it := range s.tail {
		key := it.Key()
		if _, ok := s.seen[key]; !ok {
			s.keep(it, key)
		}
	}
	s.tail = s.tail[:0]
	s.inTrace, s.traceFrame, s.inFail, s.goFrame, s.atFrame = false, "", false, false, 0
}

func (s *scanner) line(line string) {
	t := strings.TrimSpace(line)
	if t == "" {
		if s.rustPanic != "" {
			s.add(KindError, s.rustPanic)
			s.rustPanic = ""
		}
		return
	}
	if !s.source {
		s.errors(line, t)
		if strings.HasPrefix(t, "$ ") && len(t) > 2 {
			s.add(KindCommand, t[2:])
		}
	}
	var urlSpans [][2]int
	if s.hotLine&hotURL != 0 {
		urlSpans = s.urls(t)
	}
	if strings.IndexByte(t, '/') >= 0 {
		s.files(t, urlSpans)
	}
	s.ids(t, urlSpans)
	if !s.source && !s.lineMeasurement(t) {
		s.measurements(t, urlSpans)
	}
}

// ---- errors ---------------------------------------------------------------

var podFailures = []string{"CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "OOMKilled",
	"CreateContainerConfigError", "CreateContainerError", "RunContainerError", "InvalidImageName",
	"Evicted", "BackOff", "FailedScheduling", "FailedMount", "Unhealthy"}

var npmBoilerplate = []string{"A complete log of this run", "Log files were not written",
	"For a full report see", "This is probably not a problem with npm", "Run `npm audit"}

// npm lines worth keeping besides those that start a sentence.
var npmKeep = []string{"code ", "peer ", "missing ", "notarget ", "enoent ", "errno "}

// errors recognises error lines; line is the raw line, t the trimmed one.
func (s *scanner) errors(line, t string) {
	indented := line[0] == ' ' || line[0] == '\t'

	if s.rustPanic != "" {
		s.add(KindError, s.rustPanic+" "+t)
		s.rustPanic = ""
		return
	}
	if s.inTrace {
		if strings.HasPrefix(t, `File "`) {
			s.traceFrame = t
			return
		}
		if !indented && looksException(t) {
			s.add(KindError, t)
			if s.traceFrame != "" {
				s.add(KindError, s.traceFrame)
			}
			s.inTrace, s.traceFrame = false, ""
			return
		}
		if !indented && !strings.HasPrefix(t, "During handling") && !strings.HasPrefix(t, "The above exception") && !strings.HasPrefix(t, "Traceback") {
			// Not a traceback line any more.
			s.inTrace, s.traceFrame = false, ""
		} else {
			return
		}
	}
	if s.goFrame {
		if frame, ok := goFrame(t); ok {
			if !goRuntimeFrame(frame) {
				s.add(KindError, frame)
				s.goFrame = false
			}
			return
		}
	}
	if s.atFrame > 0 {
		if strings.HasPrefix(t, "at ") {
			s.add(KindError, t)
			s.atFrame = 0
			return
		}
		s.atFrame--
	}

	switch {
	case strings.HasPrefix(t, "Traceback (most recent call last)"):
		s.inTrace, s.traceFrame = true, ""
	case strings.HasPrefix(t, "panic: "):
		s.add(KindError, t)
		s.goFrame = true
	case strings.HasPrefix(t, "--- FAIL:"):
		s.add(KindError, t)
		s.inFail = true
	case strings.HasPrefix(t, "FAIL\t") || strings.HasPrefix(t, "FAIL "):
		s.add(KindError, t)
		s.inFail = false
	case strings.HasPrefix(t, "ok  ") || strings.HasPrefix(t, "ok \t") || strings.HasPrefix(t, "=== RUN") || t == "PASS":
		s.inFail = false
	case strings.HasPrefix(t, "FAILED ") || (strings.HasPrefix(t, "ERROR ") && strings.Contains(t, "::")):
		s.add(KindError, t) // pytest short summary
	case strings.HasPrefix(t, "E ") && looksException(strings.TrimSpace(t[2:])):
		s.add(KindError, strings.TrimSpace(t[2:])) // pytest assertion detail
	case strings.HasPrefix(t, "error[E") || strings.HasPrefix(t, "error: ") || strings.HasPrefix(t, "error["):
		s.add(KindError, t) // rustc, cargo, git
	case strings.HasPrefix(t, "thread '") && strings.Contains(t, "panicked at"):
		if strings.HasSuffix(t, ":") {
			s.rustPanic = t // the message follows on the next line
		} else {
			s.add(KindError, t)
		}
	case strings.HasPrefix(t, "make: *** ") || strings.HasPrefix(t, "make[") && strings.Contains(t, "*** "):
		s.add(KindError, t)
	case strings.HasSuffix(t, "... FAILED"):
		s.add(KindError, t) // cargo test
	case strings.HasPrefix(t, "npm ERR!") || strings.HasPrefix(t, "npm error"):
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "npm ERR!"), "npm error"))
		if rest != "" && !hasAnyPrefix(rest, npmBoilerplate) && (isUpper(rest[0]) || isDigit(rest[0]) || hasAnyPrefix(rest, npmKeep)) {
			s.add(KindError, t)
		}
	case strings.HasPrefix(t, "fatal: ") || strings.HasPrefix(t, "Fatal: ") || strings.HasPrefix(t, "FATAL: ") || strings.HasPrefix(t, "Error: ") || strings.HasPrefix(t, "ERROR: ") || strings.HasPrefix(t, "FATAL ERROR"):
		s.add(KindError, t)
		s.atFrame = 6
	case strings.HasPrefix(t, "Uncaught ") && looksException(t[len("Uncaught "):]):
		s.add(KindError, t)
		s.atFrame = 6
	case looksException(t):
		s.add(KindError, t)
		s.atFrame = 6
	case strings.HasPrefix(t, "Exception in thread "):
		s.add(KindError, t)
		s.atFrame = 6
	case compilerLine(t):
		s.add(KindError, t)
		if f, _, ok := strings.Cut(t, ":"); ok && s.e.maxPerKind() != 0 {
			if p, ok := cleanPath(f, true); ok {
				s.addFile(p)
			}
		}
	case indented && testLogLine(t) && (s.inFail || strings.Contains(t, "_test.go:")):
		s.add(KindError, t) // go test failure message
	case s.output && klogError(t):
		s.add(KindError, t)
	case s.hotLine&hotError == 0:
		// None of the checks below can match.
	case s.output && logError(t):
		s.add(KindError, logErrorValue(t))
	case s.output && podFailure(t):
		s.add(KindError, t)
	case s.output && (strings.Contains(t, "Error: ") || strings.Contains(t, "error: ") || strings.Contains(t, "Exception: ")):
		s.add(KindError, t)
	}
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// looksException reports whether t starts with an exception name followed
// by ':' or nothing: "ValueError: bad", "java.lang.IllegalStateException: x",
// "TypeError: x is not a function", "KeyboardInterrupt".
func looksException(t string) bool {
	name, rest, colon := strings.Cut(t, ":")
	if !colon {
		name, rest = t, ""
	}
	if name == "" || len(name) > 80 {
		return false
	}
	if colon && rest != "" && rest[0] != ' ' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(isAlnum(c) || c == '_' || c == '.' || c == '$') {
			return false
		}
	}
	if !isUpper(name[0]) && !strings.Contains(name, ".") {
		return false
	}
	for _, suf := range []string{"Error", "Exception", "Exit", "Interrupt", "Failure", "Panic"} {
		if strings.HasSuffix(name, suf) {
			return colon || len(name) > len(suf)
		}
	}
	return false
}

// goFrame recognises a Go stack frame location line:
// "/home/u/p/main.go:12 +0x1d" → "/home/u/p/main.go:12".
func goFrame(t string) (string, bool) {
	i := strings.Index(t, ".go:")
	if i < 0 {
		return "", false
	}
	j := i + 4
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	if j == i+4 {
		return "", false
	}
	return t[:j], true
}

// goRuntimeFrame reports whether a frame is in the Go distribution
// (runtime, testing, reflect…) rather than in the program.
func goRuntimeFrame(f string) bool {
	for _, d := range []string{"/usr/local/go/src/", "/usr/lib/go/src/", "/src/runtime/", "/src/testing/", "/src/reflect/", "/src/sync/", "/libexec/src/"} {
		if strings.Contains(f, d) {
			return true
		}
	}
	return strings.HasPrefix(f, "runtime/") || strings.HasPrefix(f, "testing/")
}

// compilerLine recognises "path/x.go:12:5: message" (Go, gcc, clang, vet,
// linters) and "x.ts(12,5): error TS2322: …".
func compilerLine(t string) bool {
	i := 0
	for i < len(t) && (isAlnum(t[i]) || fileByteSet[t[i]]) {
		i++
	}
	if i == 0 || i >= len(t) || !strings.Contains(t[:i], ".") {
		return false
	}
	if t[i] == '(' {
		return strings.Contains(t[i:], "): error")
	}
	if t[i] != ':' {
		return false
	}
	n := 0
	j := i + 1
	for n < 2 {
		k := j
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		if k == j || k >= len(t) || t[k] != ':' {
			break
		}
		n++
		j = k + 1
	}
	return n == 2 && j < len(t) && t[j] == ' ' && len(t) > j+1
}

// testLogLine recognises "x_test.go:12: message".
func testLogLine(t string) bool {
	i := strings.Index(t, ".go:")
	if i <= 0 || strings.ContainsAny(t[:i], " \t") {
		return false
	}
	j := i + 4
	k := j
	for k < len(t) && isDigit(t[k]) {
		k++
	}
	return k > j && k+1 < len(t) && t[k] == ':' && t[k+1] == ' '
}

var logLevels = []string{"level=error", "level=fatal", "level=ERROR", "level=FATAL", "level=panic",
	`"level":"error"`, `"level":"ERROR"`, `"level":"fatal"`, `"level":"FATAL"`, `"level": "error"`, `"level": "ERROR"`,
	`"severity":"ERROR"`, `"severity":"CRITICAL"`, `"severity": "ERROR"`, `"lvl":"eror"`, `"level":50`, `"level":60`,
	" ERROR ", "[ERROR]", " FATAL ", "[FATAL]", "\tERROR\t", " CRITICAL ", "[CRITICAL]", "ERROR:"}

func logError(t string) bool {
	for _, l := range logLevels {
		if strings.Contains(t, l) {
			return true
		}
	}
	return strings.HasPrefix(t, "ERROR ") || strings.HasPrefix(t, "FATAL ")
}

// logErrorValue shortens a JSON log line to its message and error fields;
// other lines are returned as they are.
func logErrorValue(t string) string {
	if t[0] != '{' {
		var parts []string
		for _, k := range []string{"msg=", "message=", "error=", "err="} {
			if v := logfmtValue(t, k); v != "" {
				parts = append(parts, v)
			}
		}
		if len(parts) == 0 {
			return t
		}
		return strings.Join(parts, ": ")
	}
	if len(t) > 1<<16 {
		return t
	}
	var rec map[string]any
	if json.Unmarshal([]byte(t), &rec) != nil {
		return t
	}
	var parts []string
	for _, k := range []string{"msg", "message", "error", "err", "exception"} {
		if v, ok := rec[k].(string); ok && v != "" {
			parts = append(parts, v)
		}
	}
	if len(parts) == 0 {
		return t
	}
	return strings.Join(parts, ": ")
}

// logfmtValue returns the value of key (given with its '=') in a logfmt
// line, unquoted.
func logfmtValue(t, key string) string {
	for off := 0; ; {
		k := strings.Index(t[off:], key)
		if k < 0 {
			return ""
		}
		k += off
		off = k + len(key)
		if k > 0 && t[k-1] != ' ' && t[k-1] != '\t' {
			continue
		}
		v := t[off:]
		if strings.HasPrefix(v, `"`) {
			if uq, err := strconv.QuotedPrefix(v); err == nil {
				if s, err := strconv.Unquote(uq); err == nil {
					return s
				}
			}
			return strings.Trim(v, `"`)
		}
		if sp := strings.IndexByte(v, ' '); sp >= 0 {
			v = v[:sp]
		}
		return v
	}
}

// klogError recognises Kubernetes klog error lines: "E1130 12:00:01.123 …".
func klogError(t string) bool {
	return len(t) > 14 && (t[0] == 'E' || t[0] == 'F') && isDigit(t[1]) && isDigit(t[2]) && isDigit(t[3]) && isDigit(t[4]) && t[5] == ' ' && isDigit(t[6]) && t[8] == ':'
}

func podFailure(t string) bool {
	for _, f := range podFailures {
		if i := strings.Index(t, f); i > 0 && (t[i-1] == ' ' || t[i-1] == '\t') {
			j := i + len(f)
			if j == len(t) || t[j] == ' ' || t[j] == '\t' {
				return true
			}
		}
	}
	// A pod whose STATUS column is plain "Error".
	if i := strings.Index(t, " Error "); i > 0 && strings.Contains(t[:i], "/") {
		return true
	}
	return false
}

// ---- files ------------------------------------------------------------------

const pathDelims = " \t\"'`()[]{}<>,;=|"

// byteSet returns the set of the bytes of s.
func byteSet(s string) (set [256]bool) {
	for i := 0; i < len(s); i++ {
		set[s[i]] = true
	}
	return set
}

var (
	pathDelimSet = byteSet(pathDelims)
	pathByteSet  = byteSet("_.-/~+@")
	fileByteSet  = byteSet("_./\\-+")
	labelStopSet = byteSet(labelStops)
)

// files finds path-like tokens: a directory separator and an extension
// or a known root. URLs, versions, dates, fractions and units such as
// ns/op are not paths.
func (s *scanner) files(t string, urlSpans [][2]int) {
	if rest, ok := strings.CutPrefix(t, "+++ b/"); ok {
		if p, ok := cleanPath(rest, true); ok {
			s.addFile(p)
		}
		return
	}
	if rest, ok := strings.CutPrefix(t, "--- a/"); ok {
		if p, ok := cleanPath(rest, true); ok {
			s.addFile(p)
		}
		return
	}
	for off := 0; off < len(t); {
		k := strings.IndexByte(t[off:], '/')
		if k < 0 {
			break
		}
		k += off
		i, j := k, k+1
		for i > 0 && !pathDelimSet[t[i-1]] {
			i--
		}
		for j < len(t) && !pathDelimSet[t[j]] {
			j++
		}
		off = j
		if inSpans(i, urlSpans) >= 0 {
			continue
		}
		if p, ok := cleanPath(t[i:j], false); ok && !depPath(p) {
			s.addFile(p)
		}
	}
}

// depPath reports whether a path is inside a toolchain or a dependency
// tree (GOROOT, node_modules, site-packages, the module cache): such paths
// in stack traces are noise for the ledger.
func depPath(p string) bool {
	if goRuntimeFrame(p) {
		return true
	}
	for _, d := range []string{"node_modules/", "/site-packages/", "/dist-packages/", "/go/pkg/mod/", "/.cargo/registry/", "/rustc/", "/lib/python3", "<frozen "} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

func (s *scanner) addFile(p string) {
	s.add(KindFile, p)
}

func inSpans(i int, spans [][2]int) int {
	for k, sp := range spans {
		if i >= sp[0] && i < sp[1] {
			return k
		}
	}
	return -1
}

var knownRoots = map[string]bool{"tmp": true, "etc": true, "usr": true, "var": true, "home": true,
	"opt": true, "srv": true, "app": true, "root": true, "Users": true, "workspace": true,
	"work": true, "mnt": true, "src": true, "repo": true, "testbed": true, "data": true}

// cleanPath trims a token to a path and says whether it is one. With
// loose, any plausible path is accepted (it came from a place where a path
// is expected); otherwise it needs a separator and an extension or a
// known root.
func cleanPath(tok string, loose bool) (string, bool) {
	tok = strings.TrimRight(tok, ".,:;!?")
	tok = strings.TrimLeft(tok, "*")
	// Drop a :line or :line:col suffix.
	if i := strings.LastIndexByte(tok, '/'); i >= 0 {
		if k := strings.IndexByte(tok[i:], ':'); k >= 0 {
			if k+1 < len(tok[i:]) && isDigit(tok[i+k+1]) {
				tok = tok[:i+k]
			} else {
				return "", false
			}
		}
	} else if k := strings.IndexByte(tok, ':'); k >= 0 && k+1 < len(tok) && isDigit(tok[k+1]) {
		tok = tok[:k]
	}
	if len(tok) < 3 || len(tok) > 400 || tok[0] == '-' || tok[0] == '@' || tok[0] == '.' && len(tok) > 1 && isAlnum(tok[1]) && !strings.Contains(tok, "/") && !loose {
		return "", false
	}
	digitsOnly := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(isAlnum(c) || pathByteSet[c] || c >= 0x80) {
			return "", false
		}
		if isAlpha(c) {
			digitsOnly = false
		}
	}
	if digitsOnly || strings.Contains(tok, "//") || strings.Contains(tok, "...") {
		return "", false
	}
	if loose {
		return tok, true
	}
	if strings.IndexByte(tok, '/') < 0 || strings.IndexByte(tok, '@') >= 0 {
		return "", false
	}
	last := tok[strings.LastIndexByte(tok, '/')+1:]
	if hasExt(last) {
		return tok, true
	}
	switch {
	case strings.HasPrefix(tok, "./") || strings.HasPrefix(tok, "../") || strings.HasPrefix(tok, "~/"):
		return tok, len(tok) > 3 && last != ""
	case tok[0] == '/':
		root, rest, _ := strings.Cut(tok[1:], "/")
		return tok, knownRoots[root] && rest != ""
	}
	return "", false
}

// hasExt reports whether a file name has an extension: "x.go", "Makefile.am",
// ".env"; not "v1.2", "1.0" or "foo".
func hasExt(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || dot == len(name)-1 {
		return false
	}
	ext := name[dot+1:]
	if len(ext) > 10 {
		return false
	}
	upper, lower := false, false
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		if !isAlnum(c) {
			return false
		}
		upper = upper || isUpper(c)
		lower = lower || isLower(c)
	}
	if !upper && !lower || upper && lower {
		// No letter (a version), or mixed case: "x.Index" is a Go
		// function, not a file.
		return false
	}
	stem := name[:dot]
	if stem == "" {
		return true // a dotfile
	}
	// "v1.2rc1"-like versions have a digit right before the dot.
	return !(isDigit(stem[len(stem)-1]) && isDigit(ext[0]))
}

// ---- urls -------------------------------------------------------------------

// urls finds addresses and returns their spans in t.
func (s *scanner) urls(t string) [][2]int {
	var spans [][2]int
	for off := 0; ; {
		k := strings.Index(t[off:], "://")
		if k < 0 {
			break
		}
		k += off
		start := k
		for start > 0 && (isAlnum(t[start-1]) || t[start-1] == '+' || t[start-1] == '.' || t[start-1] == '-') {
			start--
		}
		for start < k && !isAlpha(t[start]) {
			start++
		}
		end := k + 3
		for end < len(t) && !isURLStop(t[end]) {
			end++
		}
		off = end
		if k-start < 2 || end == k+3 {
			continue
		}
		u := trimURL(t[start:end])
		if len(u) <= k-start+3 {
			continue
		}
		spans = append(spans, [2]int{start, start + len(u)})
		s.add(KindURL, u)
	}
	return spans
}

func isURLStop(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '\\' || c == '|' || c == '{' || c == '}'
}

// trimURL drops trailing punctuation and unbalanced closing brackets.
func trimURL(u string) string {
	for len(u) > 0 {
		c := u[len(u)-1]
		switch {
		case strings.IndexByte(".,;:!?*", c) >= 0:
			u = u[:len(u)-1]
			continue
		case c == ')' && strings.Count(u, "(") < strings.Count(u, ")"):
			u = u[:len(u)-1]
			continue
		case c == ']' && strings.Count(u, "[") < strings.Count(u, "]"):
			u = u[:len(u)-1]
			continue
		}
		break
	}
	return u
}

// ---- identifiers ------------------------------------------------------------

var issueDeny = map[string]bool{"UTF": true, "SHA": true, "ISO": true, "AES": true, "RSA": true,
	"MD": true, "HTTP": true, "TLS": true, "SSL": true, "IPV": true, "GPT": true, "ES": true,
	"IEEE": true, "ANSI": true, "X": true, "PKCS": true, "ECMA": true, "UTC": true, "GMT": true,
	"TCP": true, "UDP": true, "ARM": true, "LTS": true, "FIPS": true, "KOI": true, "CP": true,
	"EUC": true, "P": true, "H": true, "W": true, "C": true, "E": true}

// ids finds issue keys (ABC-123, ORD-2024-0042), ticket numbers (#1234),
// key=value ids (order_id=…, "request_id": "…"), commit hashes in context
// (commit 3fa9c2d) or standalone 40-hex, and UUIDs.
func (s *scanner) ids(t string, urlSpans [][2]int) {
	var covered [][2]int
	skip := func(i int) bool { return inSpans(i, covered) >= 0 || inSpans(i, urlSpans) >= 0 }
	for i := 0; i < len(t); i++ {
		c := t[i]
		switch {
		case c == '=' || c == ':':
			if i == 0 || !(isAlnum(t[i-1]) || t[i-1] == '"' || t[i-1] == '\'' || t[i-1] == ' ') {
				continue
			}
			key, vs, ve, ok := idKeyValue(t, i)
			if !ok || inSpans(i, urlSpans) >= 0 {
				continue
			}
			s.add(KindID, key+"="+t[vs:ve])
			covered = append(covered, [2]int{vs, ve})
			i = ve - 1
		case c == '-' && i > 0 && i+1 < len(t) && isDigit(t[i+1]) && (isUpper(t[i-1]) || isDigit(t[i-1])):
			if v, ok := issueKey(t, i); ok && !skip(i) {
				s.add(KindID, v)
			}
		case c == '#' && i > 0 && i+2 < len(t) && isDigit(t[i+1]) && isDigit(t[i+2]) && !isAlnum(t[i-1]) && t[i-1] != '&' && t[i-1] != '#':
			j := i + 1
			for j < len(t) && isDigit(t[j]) {
				j++
			}
			if (j == len(t) || !isAlnum(t[j])) && j-i <= 10 && !skip(i) {
				s.add(KindID, t[i:j])
			}
			i = j - 1
		case isHex(c) && (i == 0 || !isWordByte(t[i-1])):
			j := i
			for j < len(t) && isHex(t[j]) {
				j++
			}
			if j < len(t) && isWordByte(t[j]) && t[j] != '-' {
				i = j
				continue
			}
			if j-i == 8 && j < len(t) && t[j] == '-' {
				if u, ok := uuidAt(t, i); ok {
					if !skip(i) {
						s.add(KindID, u)
					}
					i += len(u) - 1
					continue
				}
			}
			if (j == len(t) || t[j] != '-') && hexHash(t, i, j) && !skip(i) {
				s.add(KindID, t[i:j])
			}
			i = j - 1
		}
	}
}

// idKeyValue reads a key=value or "key": "value" id around the '=' or ':'
// at t[k]: a key such as order_id, requestId, TRACE_ID, id, ticket, order
// or issue, and a value of 3–64 id characters holding a digit. It returns
// the key and the value's span.
func idKeyValue(t string, k int) (key string, vs, ve int, ok bool) {
	p := k
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p > 0 && (t[p-1] == '"' || t[p-1] == '\'') {
		p--
	}
	e := p
	for p > 0 && (isAlnum(t[p-1]) || t[p-1] == '_') {
		p--
	}
	if p == e || e-p > 40 || !isAlpha(t[p]) {
		return "", 0, 0, false
	}
	key = t[p:e]
	if !idKey(key) {
		return "", 0, 0, false
	}
	v := k + 1
	for v < len(t) && t[v] == ' ' {
		v++
	}
	if v < len(t) && (t[v] == '"' || t[v] == '\'') {
		v++
	}
	if v >= len(t) || !isAlnum(t[v]) {
		return "", 0, 0, false
	}
	w := v
	digit := false
	for w < len(t) && w-v < 64 && (isAlnum(t[w]) || strings.IndexByte("_.:-", t[w]) >= 0) {
		digit = digit || isDigit(t[w])
		w++
	}
	for w > v && strings.IndexByte(".:-", t[w-1]) >= 0 {
		w--
	}
	if w-v < 3 || !digit || w < len(t) && (isAlnum(t[w]) || strings.IndexByte("_.:-", t[w]) >= 0) {
		return "", 0, 0, false
	}
	return key, v, w, true
}

func idKey(k string) bool {
	switch k {
	case "id", "ID", "Id", "ticket", "order", "issue", "ticket_no", "order_no", "order_number":
		return true
	}
	n := len(k)
	if n > 3 && (strings.HasSuffix(k, "_id") || strings.HasSuffix(k, "_ID")) {
		return true
	}
	// requestId, traceID: a lower-case start and an "Id" or "ID" ending.
	return n > 2 && isLower(k[0]) && (strings.HasSuffix(k, "Id") || strings.HasSuffix(k, "ID"))
}

// issueKey reads an issue key whose first '-' is at t[dash].
func issueKey(t string, dash int) (string, bool) {
	start := dash
	for start > 0 && (isUpper(t[start-1]) || isDigit(t[start-1])) {
		start--
	}
	if start == dash || !isUpper(t[start]) || dash-start > 10 {
		return "", false
	}
	if start > 0 && (isAlnum(t[start-1]) || t[start-1] == '_' || t[start-1] == '-' || t[start-1] == '.' || t[start-1] == '/') {
		return "", false
	}
	if issueDeny[t[start:dash]] {
		return "", false
	}
	end := dash
	for end < len(t) && t[end] == '-' && end+1 < len(t) && isDigit(t[end+1]) {
		end++
		n := 0
		for end < len(t) && isDigit(t[end]) {
			end++
			n++
		}
		if n > 8 {
			return "", false
		}
	}
	if end < len(t) && (isAlpha(t[end]) || t[end] == '_' || (t[end] == '.' && end+1 < len(t) && isDigit(t[end+1]))) {
		return "", false
	}
	return t[start:end], true
}

// uuidAt reads a UUID starting at t[i].
func uuidAt(t string, i int) (string, bool) {
	const n = 36
	if i+n > len(t) {
		return "", false
	}
	for k := 0; k < n; k++ {
		c := t[i+k]
		if k == 8 || k == 13 || k == 18 || k == 23 {
			if c != '-' {
				return "", false
			}
		} else if !isHex(c) {
			return "", false
		}
	}
	if i+n < len(t) && (isWordByte(t[i+n]) || t[i+n] == '-') {
		return "", false
	}
	return t[i : i+n], true
}

var hashContext = []string{"commit", "sha", "hash", "rev", "head", "merge", "checkout", "cherry", "revert", "digest", "at "}

// hexHash decides whether the hex run t[i:j] is a hash: 40 or 64 digits
// standing alone, or 7–64 digits with a digit and a letter after a word
// such as commit, sha, hash or revision, or in git's "[main 3fa9c2d]".
func hexHash(t string, i, j int) bool {
	n := j - i
	if n < 7 || n > 64 {
		return false
	}
	digit, letter := false, false
	for k := i; k < j; k++ {
		if isDigit(t[k]) {
			digit = true
		} else {
			letter = true
		}
	}
	if !digit || !letter {
		return false
	}
	if n == 40 || n == 64 {
		return true
	}
	if i > 0 && t[i-1] == ' ' && j < len(t) && t[j] == ']' && strings.LastIndexByte(t[:i], '[') >= 0 {
		return true // [main 3fa9c2d] message
	}
	from := max(0, i-12)
	ctx := strings.ToLower(t[from:i])
	for _, w := range hashContext {
		if strings.Contains(ctx, w) {
			return true
		}
	}
	return false
}

// ---- measurements -----------------------------------------------------------

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
	case strings.HasPrefix(t, "coverage: ") && strings.Contains(t, "%"):
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

// units a measurement may carry, longest first where one is a prefix of
// another. Single-letter units must touch their number ("3.2s", not "3 s").
var units = []string{
	"allocs/op", "ns/op", "µs/op", "ms/op", "B/op", "MB/s", "GB/s", "KB/s", "kB/s", "MiB/s", "GiB/s",
	"req/s", "ops/s", "op/s", "tok/s", "tokens/s", "rows/s", "rps", "qps",
	"seconds", "second", "secs", "sec", "ns", "µs", "μs", "us", "ms", "minutes", "mins", "min", "hours", "hrs",
	"KiB", "MiB", "GiB", "TiB", "KB", "kB", "MB", "GB", "TB", "bytes",
	"GHz", "MHz", "kHz", "Hz", "tokens", "%", "s", "h", "B", "x",
}

// measurements finds numbers with a unit and labels them with the words
// before them ("p99 latency: 703.1ms", "took 3.2s"), with the key of a JSON
// field ("latency": "703.1ms" → latency: 703.1ms) or, when there are none,
// with the words after them ("81.3% of statements"). A measurement whose
// label is only linking words ("12.5 MB in 3.2s") joins the one before it.
func (s *scanner) measurements(t string, urlSpans [][2]int) {
	lastItem, lastFrom, lastEnd := -1, 0, 0
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) {
			continue
		}
		if i > 0 && (isAlpha(t[i-1]) || t[i-1] == '_' || t[i-1] == '.' || t[i-1] == '/' || t[i-1] == ':' || t[i-1] == '-' && i > 1 && isAlnum(t[i-2])) {
			for i < len(t) && (isAlnum(t[i]) || t[i] == '.') {
				i++
			}
			continue
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
			for i < len(t) && (isAlnum(t[i]) || t[i] == '.') {
				i++
			}
			continue
		}
		k := j
		spaced := k < len(t) && t[k] == ' '
		if spaced {
			k++
		}
		unit := unitAt(t, k, spaced)
		if unit == "" || inSpans(i, urlSpans) >= 0 {
			i = j - 1
			continue
		}
		end := k + len(unit)
		if key := jsonKeyBefore(t, i); key != "" {
			s.add(KindMeasurement, key+": "+t[i:end])
			lastItem = -1
			i = end - 1
			continue
		}
		from := labelBefore(t, i)
		if linking(t[from:i]) {
			if lastItem >= 0 && lastItem < len(s.items) && lastEnd <= from && linking(t[lastEnd:i]) {
				// "Downloaded 12.5 MB in 3.2s": one measurement.
				s.items[lastItem].Value = clean(t[lastFrom:end], s.e.maxValueLen())
				lastEnd = end
				i = end - 1
				continue
			}
			from = i
		}
		to := end
		if from == i {
			to = labelAfter(t, end)
			if to == end || linking(t[end:to]) {
				i = end - 1
				continue
			}
		}
		n := len(s.items)
		if s.add(KindMeasurement, t[from:to]) != nil {
			lastItem, lastFrom, lastEnd = n, from, to
		}
		i = end - 1
	}
}

// linkWords carry no meaning as a label on their own.
var linkWords = map[string]bool{"in": true, "at": true, "of": true, "after": true, "for": true,
	"the": true, "a": true, "an": true, "ago": true, "to": true, "by": true, "with": true,
	"and": true, "or": true, "on": true, "from": true, "over": true, "per": true, "within": true}

// linking reports whether s holds only spaces, punctuation and link words.
func linking(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		if !linkWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// jsonKeyBefore returns the key when the number at t[i] is a JSON string
// or number field value: "latency": "703.1ms" or "p99_ms": 703.
func jsonKeyBefore(t string, i int) string {
	p := i
	if p > 0 && t[p-1] == '"' {
		p--
	}
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p < 2 || t[p-1] != ':' {
		return ""
	}
	p--
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p < 2 || t[p-1] != '"' {
		return ""
	}
	q := strings.LastIndexByte(t[:p-1], '"')
	if q < 0 || p-1-q > 40 || p-1-q < 1 {
		return ""
	}
	key := t[q+1 : p-1]
	for k := 0; k < len(key); k++ {
		if !(isAlnum(key[k]) || key[k] == '_' || key[k] == '-' || key[k] == '.') {
			return ""
		}
	}
	return key
}

var unitSet = func() map[string]bool {
	m := make(map[string]bool, len(units))
	for _, u := range units {
		m[u] = true
	}
	return m
}()

func unitAt(t string, k int, spaced bool) string {
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
		return u
	}
	return ""
}

const labelStops = ",;|()[]{}<>\"'`"

// labelBefore returns where the label of the number at t[i] starts: up to
// four words (48 bytes) before it, after an optional ':' or '=', stopping
// at punctuation, at a column gap, at a word holding ':' or '=' (another
// field) or starting with a digit (another value). It returns i when there
// is no label.
func labelBefore(t string, i int) int {
	p := i
	for p > 0 && t[p-1] == ' ' {
		p--
	}
	if p > 0 && (t[p-1] == ':' || t[p-1] == '=') {
		p--
		for p > 0 && t[p-1] == ' ' {
			p--
		}
	}
	from := i
	for words := 0; words < 4 && p > 0; words++ {
		e := p
		for p > 0 && t[p-1] != ' ' && t[p-1] != '\t' && !labelStopSet[t[p-1]] {
			p--
		}
		w := t[p:e]
		if w == "" || isDigit(w[0]) || unitSet[w] || strings.ContainsAny(w, ":=") && words > 0 || i-p > 48 {
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

// labelAfter returns where a trailing label after t[:end] stops: up to three
// lower-case words ("of statements", "faster"), or end when there is none.
func labelAfter(t string, end int) int {
	to := end
	p := end
	for words := 0; words < 3; words++ {
		if p >= len(t) || t[p] != ' ' || p+1 >= len(t) || !isLower(t[p+1]) {
			break
		}
		q := p + 1
		for q < len(t) && isLower(t[q]) {
			q++
		}
		if q < len(t) && t[q] != ' ' && strings.IndexByte(labelStops+".:", t[q]) < 0 {
			break
		}
		to, p = q, q
	}
	return to
}

// ---- bytes --------------------------------------------------------------------

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isUpper(c byte) bool    { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }
func isAlpha(c byte) bool    { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool    { return isAlpha(c) || isDigit(c) }
func isWordByte(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }
func isHex(c byte) bool      { return isDigit(c) || c >= 'a' && c <= 'f' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}
