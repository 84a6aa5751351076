package ledger

import (
	"encoding/json"
	"iter"
	"slices"
	"strings"
)

// This file holds the broad recogniser of error lines: what is left after
// the recognisers of known shapes (tracebacks, panics, test runners,
// compilers) is read for the signals any ecosystem's failures share: the
// level of a log line, failure vocabulary as whole words, the messages of
// the operating system, of signals and of language runtimes, exception and
// errno names, HTTP statuses, and a program's "name: message" prefix.
//
// How much it takes depends on how the command ended. The output of a
// failing command is read loosely: a line that only uses failure words is
// kept, though only in the room the decisive lines leave under the cap.
// Any other output (a passing command, a result without a known status)
// keeps a line only when it has the shape of an error, so a passing test
// called test_error_handling, "0 errors" or a flag named
// --no-error-on-unmatched-pattern never become errors.

// runState is what is known of how the command whose output is scanned
// ended.
type runState uint8

const (
	runUnknown runState = iota // no command, or no status reported
	runPassed                  // exit status 0
	runFailed                  // a non-zero status, or a result marked as an error
)

// level is the severity of a log line.
type level uint8

const (
	lvNone  level = iota // not a log line, or no level found
	lvInfo               // info, debug, trace, notice…
	lvWarn               // warn, warning
	lvError              // error, fatal, critical, panic…
)

// levelWord returns the level a word names, in any case: "ERROR", "eror"
// (log15), "WRN" (zerolog's console), "SEVERE" (java.util.logging).
func levelWord(w string) level {
	if len(w) > 9 && len(w) <= 40 && strings.HasSuffix(w, "Warning") && isUpper(w[0]) && every(w, isAlnum) {
		// Python's warning classes: "clean.py:31: FutureWarning: …",
		// DeprecationWarning, SettingWithCopyWarning
		return lvWarn
	}
	if len(w) < 3 || len(w) > 9 {
		return lvNone
	}
	var buf [9]byte
	for i := 0; i < len(w); i++ {
		buf[i] = lowerByte(w[i])
	}
	switch string(buf[:len(w)]) {
	case "error", "err", "eror", "erro", "fatal", "fatl", "ftl", "crit", "critical", "crt", "panic", "pnc",
		"alert", "emerg", "emergency", "severe":
		return lvError
	case "warn", "warning", "wrn", "wrng":
		return lvWarn
	case "info", "inf", "debug", "dbg", "dbug", "trace", "trc", "notice", "verbose", "fine", "finer",
		"finest", "note", "hint", "help":
		return lvInfo
	}
	return lvNone
}

func lowerByte(c byte) byte {
	if isUpper(c) {
		return c + 'a' - 'A'
	}
	return c
}

// logKeys are the keys structured logs put the level under (PostgreSQL's
// JSON log names it error_severity, OpenTelemetry's severity_text).
var logKeys = []string{"level", "lvl", "severity", "log.level", "levelname", "loglevel", "log_level", "@level", "@l",
	"error_severity", "severity_text", "SeverityText", "Level", "Severity"}

// logLevel finds the level of a log line: a JSON object's level field
// (string, or pino's number), a logfmt level= pair, a klog prefix
// ("E1130 12:00:01…"), or a level word near the start of a plain line
// ("2026-04-09 08:17:39.668 ERROR 1 --- [main] c.a.App : …",
// "[2026-04-04T11:36:06Z WARN  app::db] …", "ERROR:root:…", "[error] …").
// msg is where the message starts, or -1 when the whole line is the value
// (structured lines, whose value logErrorValue builds).
func logLevel(t string) (lv level, msg int) {
	if t[0] == '{' {
		return jsonLevel(t), -1
	}
	if strings.Contains(t, "l=") || strings.Contains(t, "y=") { // level=, lvl=, log.level=, severity=
		for _, k := range logKeys {
			if v := logfmtValue(t, k+"="); v != "" {
				if lv := levelWord(v); lv != lvNone {
					return lv, -1
				}
			}
		}
	}
	if rest, ok := logSource(t); ok {
		// behind a log multiplexer's prefix: the level of the line it
		// gathered, whose message is kept when the whole is too long
		if lv, msg := plainLevel(rest); lv != lvNone {
			return lv, len(t) - len(rest) + msg
		}
	}
	if klogLine(t) {
		switch t[0] {
		case 'E', 'F':
			return lvError, 0
		case 'W':
			return lvWarn, 0
		}
		return lvInfo, 0
	}
	return plainLevel(t)
}

// jsonLevel reads the level field of a JSON log line without decoding it.
func jsonLevel(t string) level {
	if i := strings.Index(t, `"s":"`); i >= 0 && i+6 < len(t) && t[i+6] == '"' && strings.Contains(t, `"ctx":"`) {
		// MongoDB: "s" is the severity, F, E, W, I or D1–D5.
		switch t[i+5] {
		case 'F', 'E':
			return lvError
		case 'W':
			return lvWarn
		}
		return lvInfo
	}
	for _, k := range logKeys {
		i := strings.Index(t, `"`+k+`"`)
		if i < 0 {
			continue
		}
		v := strings.TrimLeft(t[i+len(k)+2:], " \t")
		if v == "" || v[0] != ':' {
			continue
		}
		v = strings.TrimLeft(v[1:], " \t")
		if v == "" {
			continue
		}
		if v[0] == '"' {
			end := strings.IndexByte(v[1:], '"')
			if end < 0 {
				continue
			}
			if lv := levelWord(v[1 : 1+end]); lv != lvNone {
				return lv
			}
			continue
		}
		// pino and bunyan: 10 trace … 30 info, 40 warn, 50 error, 60 fatal.
		if ok, j := digitsAt(v, 0); ok && j == 2 {
			switch {
			case v[0] >= '5':
				return lvError
			case v[0] == '4':
				return lvWarn
			default:
				return lvInfo
			}
		}
	}
	return lvNone
}

// klogLine recognises the prefix of Kubernetes' klog: "E1130 12:00:01.123 …".
func klogLine(t string) bool {
	return len(t) > 14 && strings.IndexByte("IWEF", t[0]) >= 0 && isDigit(t[1]) && isDigit(t[2]) &&
		isDigit(t[3]) && isDigit(t[4]) && t[5] == ' ' && isDigit(t[6]) && t[8] == ':'
}

// plainLevel looks for a level word among the first words of a plain log
// line, after a timestamp, a pid or bracketed fields: upper case
// ("ERROR"), bracketed in any case ("[error]", "<warn>"), or leading the
// line before a colon ("Warning: …", "note: …"; redis-cli's "(error) …"). msg is where the message
// starts (0 when the level leads the line).
func plainLevel(t string) (level, int) {
	if len(t) > 1 && (t[0] == '+' || t[0] == '-') && (t[1] == ' ' || t[1] == '\t') {
		// a line of a diff, or a command traced by set -x; but a
		// listing's step with its outcome after a leader of dots
		// ("+ add_users ........ psql:x.sql:8: ERROR:  …") is read
		// after the leader
		k := strings.Index(t, " ...")
		if k < 0 || k > 80 {
			return lvNone, 0
		}
		j := k + 1
		for j < len(t) && (t[j] == '.' || t[j] == ' ') {
			j++
		}
		if j == len(t) {
			return lvNone, 0
		}
		lv, msg := plainLevel(t[j:])
		return lv, j + msg
	}
	n := min(len(t), 120)
	words := 0
	for i := 0; i < n && words < 6; {
		if !isAlpha(t[i]) {
			i++
			continue
		}
		j := i
		for j < len(t) && isAlpha(t[j]) {
			j++
		}
		w := t[i:j]
		if len(w) < 3 {
			i = j
			continue
		}
		words++
		if i > 0 && t[i-1] == '.' && j < len(t) && t[j] == ']' {
			// a browser console's level as a test harness prints it:
			// "[console.error] Access to fetch at … blocked by CORS"
			if k := strings.LastIndexByte(t[:i], '['); k >= 0 && every(t[k+1:i-1], isAlpha) {
				if lv := levelWord(w); lv != lvNone {
					return lv, min(j+2, len(t))
				}
			}
		}
		if (i > 0 && (isAlnum(t[i-1]) || t[i-1] == '_' || t[i-1] == '"' || t[i-1] == '\'' || t[i-1] == '.')) || (j < len(t) && (isDigit(t[j]) || t[j] == '_' || t[j] == '(')) {
			// Part of a name, a call or a string literal: "ERROR_CODE",
			// "log.error(", "\"ERROR: %v\"".
			i = j
			continue
		}
		upper := allUpper(w)
		bracketed := i > 0 && (t[i-1] == '[' || t[i-1] == '<') && j < len(t) && (t[j] == ']' || t[j] == '>') ||
			i == 1 && t[0] == '(' && j < len(t) && t[j] == ')'
		leading := i == 0 && j < len(t) && t[j] == ':'
		if upper || bracketed || leading {
			if lv := levelWord(w); lv != lvNone {
				if i == 0 {
					return lv, 0
				}
				return lv, logMessage(t, j)
			}
		}
		i = j
	}
	return lvNone, 0
}

func allUpper(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isUpper(w[i]) {
			return false
		}
	}
	return true
}

// logMessage skips the header that follows a log line's level (a pid,
// "---", bracketed fields, the logger's name) and returns where the message
// starts: "ERROR 1 --- [exec-7] c.a.f.Eta : boom" → "boom",
// "WARN  app::db] slow" → "slow", "ERROR:root:boom" → "boom".
func logMessage(t string, end int) int {
	r := end
	skip := func(cut string) {
		for r < len(t) && strings.IndexByte(cut, t[r]) >= 0 {
			r++
		}
	}
	colon := end < len(t) && t[end] == ':'
	skip(" \t:|]>-/")
	for k := 0; k < 5 && r < len(t); k++ {
		rest := t[r:]
		tok, _, _ := strings.Cut(rest, " ")
		switch {
		case rest[0] == '[':
			e := strings.IndexByte(rest, ']')
			if e < 0 || e > 80 {
				return r
			}
			r += e + 1
		case allDigits(tok) || tok == "---" || tok == "--" || tok == "-" || tok == ":" || strings.HasSuffix(tok, "]") && len(tok) > 1:
			r += len(tok)
		default:
			k = 5
			continue
		}
		skip(" \t")
	}
	rest := t[r:]
	// A logger's name followed by " : " or " - " (Spring, logback, log4j).
	for _, sep := range []string{" : ", " - "} {
		if i := strings.Index(rest, sep); i > 0 && i < 80 && !strings.ContainsAny(rest[:i], " \t") {
			return r + i + len(sep)
		}
	}
	// Python's default "LEVEL:logger:message", the logger touching the
	// level's colon (after "ERROR:  " comes a message, "DBD::Pg::st …").
	if colon && end+1 < len(t) && t[end+1] != ' ' && t[end+1] != '\t' {
		if i := strings.IndexByte(rest, ':'); i > 0 && i < 60 && identLike(rest[:i]) && i+1 < len(rest) {
			return r + i + 1
		}
	}
	if r >= len(t) {
		return 0
	}
	return r
}

// identLike reports whether s is a dotted identifier: "root", "app.db".
func identLike(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(isAlnum(c) || c == '_' || c == '.') {
			return false
		}
	}
	return s != ""
}

// logLine handles a log line with a level: an error line is added (just
// its message when the line is too long to keep whole), a warning is kept when it names a
// failure or the command failed, and the rest are left alone, whatever
// words they use. It reports whether the line had a level.
func (s *scanner) logLine(t string) bool {
	lv, msg := logLevel(t)
	value := func() string {
		switch {
		case msg < 0:
			return logErrorValue(t)
		case len(t) <= s.e.maxValueLen():
			return t
		}
		// Too long to keep whole: the message, without the header (but
		// for a level in brackets just before it, nginx's "[error] "),
		// and, when it is longer than an error's cap, without the
		// request context nginx appends to it (", client: 10.0.3.7,
		// server: …"), but for the request.
		m := strings.TrimSpace(t[msg:])
		if h := strings.TrimRight(t[:msg], " "); strings.HasSuffix(h, "]") {
			if k := strings.LastIndexByte(h, '['); k >= 0 && k >= len(h)-9 {
				m = h[k:] + " " + m
			}
		}
		if len(m) <= s.e.capOf(KindError) {
			return m
		}
		if k := strings.Index(m, ", client: "); k > 0 {
			ctx := m[k:]
			m = m[:k]
			if r := strings.Index(ctx, `, request: "`); r >= 0 {
				if e := strings.IndexByte(ctx[r+len(`, request: "`):], '"'); e >= 0 {
					m += ctx[r : r+len(`, request: "`)+e+1]
				}
			}
		}
		return m
	}
	switch lv {
	case lvError:
		s.add(KindError, value())
		if f := ownFrame(stackField(t)); f != "" {
			// The stack the record carries says where the program
			// failed: its own deepest frame (see ownFrame).
			s.add(KindError, f)
		}
	case lvWarn:
		// A warning is kept, after the errors, when the command failed,
		// when it reads as a failure, or when it is one of the few a
		// log (structured, or stamped with the time) printed among its
		// routine lines. A tool's own warnings ("npm WARN deprecated",
		// pip's "WARNING: Running pip as the 'root' user") are not a
		// log's and say the same every run.
		v := value()
		if sig := signalsOf(v); s.run == runFailed || sig.shape || sig.vocab > 0 || s.warnLines <= maxFewWarnings && (msg < 0 || stampedLine(t)) {
			s.addWeak(v)
		}
	case lvInfo:
		// An info line that reports a failure by its shape ("context
		// deadline exceeded while waiting…", "connection refused") is an
		// error whatever level its logger gave it.
		// So is one that opens with an exception's name or says
		// "error:" ("mysqldump: Got error: 2013: Lost connection …"). One
		// that merely names a failure ("checksum mismatch for chunk 7")
		// is kept after the errors when it is one of the few (at most
		// three) such info lines of a log, structured or stamped with
		// the time.
		v := value()
		switch sig := signalsOf(v); {
		case sig.shape || looksException(v) || errorSaid(v):
			s.add(KindError, v)
		case sig.vocab > 0 && (msg < 0 || stampedLine(t)) && !passLine(v) && !reportsSuccess(v):
			if s.infoFails++; s.infoFails <= maxFewWarnings {
				s.addWeak(v)
			}
		}
	default:
		return false
	}
	return true
}

// signals are what a line says about failure.
type signals struct {
	vocab int // failure words, not negated
	// denied counts states denied ("is not writable", "are not
	// allowed"): a failure in a failed command's output only.
	denied int
	shape  bool // an error's shape: a runtime, system or signal message, an errno, an HTTP failure
}

// genericError reads a line of output no other recogniser took.
func (s *scanner) genericError(t string) {
	// Gradle: "* What went wrong:" heads the failure's line.
	if s.run != runPassed && signalLine(t) || jsonErrorBody(t) || strings.HasPrefix(t, "::error") || failedWith(t) ||
		s.prev == "* What went wrong:" {
		s.add(KindError, t)
		return
	}
	if skipGeneric(t) {
		return
	}
	if excLine(t) {
		s.add(KindError, t)
		return
	}
	sig := signalsOf(t)
	switch {
	case sig.shape || errorLead(t):
		s.add(KindError, t)
	case sig.vocab > 0 && (programPrefix(t) || sourcePrefix(t)):
		// "pq: duplicate key value violates…", "cat: x: No such file…"
		s.add(KindError, t)
	case (sig.vocab > 0 || sig.denied > 0) && s.run == runFailed && !passLine(t):
		if sig.vocab == 0 {
			s.deniedOnly++
		}
		s.addWeak(t)
	case (s.paste == pastedLines || s.quote || s.run == runFailed) && classAfterColon(t):
		// "already mutably borrowed: BorrowError in …": a message, then
		// the error's class, in what a person pasted or a failed run
		s.add(KindError, t)
	case sig.vocab > 0 && classAfterColon(t) && !passLine(t) && !reportsSuccess(t):
		// "failed to set global default subscriber: SetGlobalDefaultError(…)":
		// a failure said and its class named, in a run that went on
		// (the program handled it, or the harness reported no failure)
		s.addWeak(t)
	case sig.vocab > 0 && (s.run == runUnknown || s.quote) && !passLine(t) && !reportsSuccess(t) && len(s.unsure) <= maxUnsure:
		// No status was recorded (a text-protocol agent's output, a
		// tool that reports none): a line naming a failure is kept if it
		// is one of the few such lines of a program's run (see
		// endUnsure).
		s.unsure = append(s.unsure, t)
	}
}

// classAfterColon reports whether ": " is followed somewhere in t by an
// error's class name standing as a word or printed with its fields:
// "already mutably borrowed: BorrowError in …", "request failed:
// TimeoutError after 30s", "failed to set the subscriber:
// SetGlobalDefaultError(\"…\")".
func classAfterColon(t string) bool {
	for off := 0; ; {
		k := strings.Index(t[off:], ": ")
		if k < 0 {
			return false
		}
		i := off + k + 2
		off = i
		j := i
		for j < len(t) && isWordByte(t[j]) {
			j++
		}
		if j-i >= 7 && isUpper(t[i]) && exceptionName(t[i:j]) && (j == len(t) || t[j] == ' ' || t[j] == ':' || t[j] == ',' || t[j] == '(') {
			return true
		}
	}
}

// maxUnsure is how many lines naming a failure an output of unknown status
// may hold for them to be kept: a few stand out from a run's routine lines;
// many are a document or a listing that talks about failures.
const maxUnsure = 3

// endUnsure keeps, weakly, the lines naming a failure that an output of
// unknown status held, when they were few and the command ran a program
// (not cat, grep or ls, whose output is a file's or a listing's text).
func (s *scanner) endUnsure() {
	if len(s.unsure) > 0 && len(s.unsure) <= maxUnsure && (s.runsProgram() || s.pastedAny) {
		for _, t := range s.unsure {
			s.addWeak(t)
		}
	}
	s.unsure = s.unsure[:0]
}

// runsProgram reports whether the output is a command's that runs a
// program rather than one that reads, edits or lists files: a shell
// command other than cat, grep or ls, or a call of another tool (a
// database's, a deploy's) that names no file.
func (s *scanner) runsProgram() bool {
	for i := range s.items[:s.callItems] {
		if s.items[i].Kind == KindCommand {
			return !routineCommand(s.items[i].Value)
		}
	}
	return s.called && !slices.ContainsFunc(s.items[:s.callItems], func(it Item) bool { return it.Kind == KindFile })
}

// errorLead reports whether a line starts with the word error, fatal or
// panic, in any case, followed by a space or a colon: "Error from server
// (NotFound): …", "FATAL ERROR: …", "fatal error: …".
func errorLead(t string) bool {
	j := 0
	for j < len(t) && isAlpha(t[j]) {
		j++
	}
	if j == len(t) || t[j] != ' ' && t[j] != ':' {
		return false
	}
	switch strings.ToLower(t[:j]) {
	case "error", "fatal", "panic":
		return true
	}
	// apt and dpkg: "E: Unable to locate package libpq-devel"
	return t[:j] == "E" && strings.HasPrefix(t[j:], ": ")
}

// signalWords are what a shell prints when a signal ends a program.
var signalWords = []string{"Killed", "Terminated", "Aborted", "Segmentation fault", "Bus error",
	"Illegal instruction", "Floating point exception", "Hangup", "Out of memory: Killed process"}

// signalLine reports whether a line is a shell's report that a signal
// ended the program: "Killed", "Segmentation fault (core dumped)",
// "[1]+  Killed  python train.py", "zsh: killed  ./bin/indexer".
func signalLine(t string) bool {
	if len(t) > 120 {
		return false
	}
	r, framed := t, false
	if strings.HasPrefix(r, "[") {
		// a job: "[1]+  Killed …"
		if k := strings.IndexByte(r, ']'); k > 0 && k < 6 {
			r, framed = strings.TrimLeft(r[k+1:], "+- "), true
		}
	}
	for _, p := range []string{"bash: ", "zsh: ", "sh: "} {
		if rest, ok := strings.CutPrefix(r, p); ok {
			r, framed = rest, true
			if len(r) > 0 && isLower(r[0]) {
				r = strings.ToUpper(r[:1]) + r[1:]
			}
		}
	}
	for _, w := range signalWords {
		rest, ok := strings.CutPrefix(r, w)
		if !ok {
			continue
		}
		// the bare report, "(core dumped)", ": 9"; after a job's or a
		// shell's prefix, the command it ended. Not "Killed 3 stale
		// processes" or "Hangup handler installed".
		rest = strings.TrimSpace(rest)
		switch {
		case rest == "" || rest == "(core dumped)":
			return true
		case rest[0] == ':':
			return allDigits(strings.TrimSpace(rest[1:]))
		}
		return framed && len(strings.Fields(rest)) <= 4
	}
	return false
}

// skipGeneric reports whether a line is no message at all: a stack frame, a
// line of code (a diff, a code excerpt, a search hit), a shell prompt.
func skipGeneric(t string) bool {
	if columnHeader(t) {
		return true // "name  calls  errors  p99": a table's head names its columns
	}
	switch t[0] {
	case '+', '-', '>', '<', '|', '^', '~', '$', '@', '*', '/', '=', '}', '{', ')', ']':
		return !strings.HasPrefix(t, "/bin/") && !strings.HasPrefix(t, "/usr/bin/")
	}
	// A numbered line of a listing ("33\treturn x", "  12→func f()",
	// "41: throw new …"): read what follows the number.
	if ok, j := digitsAt(t, 0); ok && j < len(t) && (t[j] == '\t' || strings.HasPrefix(t[j:], "→") || strings.HasPrefix(t[j:], ": ") || strings.HasPrefix(t[j:], ":\t")) {
		if t = strings.TrimLeft(t[j:], "\t→: "); t == "" {
			return true
		}
		switch t[0] {
		case '+', '-', '>', '<', '|', '^', '~', '$', '@', '*', '/', '=', '}', '{', ')', ']', '#', '"', '\'':
			return true
		}
	}
	for _, rule := range []string{"⎯", "─", "━", "═"} {
		if strings.HasPrefix(t, rule) {
			return true // a banner: "⎯⎯⎯ Failed Tests 1 ⎯⎯⎯"
		}
	}
	first, rest, _ := strings.Cut(t, " ")
	if rest == "" && allUpper(first) {
		return true // a bare status word ("FAIL") says no more than the exit status
	}
	switch first {
	case "at", "from", "in", "raise", "throw", "return", "def", "func", "fn", "if", "elif", "else",
		"except", "catch", "try", "case", "let", "const", "var", "import", "class", "pub", "assert",
		"expect", "#", "//", "goroutine", "...", "File", "self.assert", "t.Errorf", "t.Fatalf":
		if first != "File" || strings.HasPrefix(rest, `"`) {
			return true
		}
	}
	if ok, j := digitsAt(t, 0); ok && j < len(t) {
		// "12 |  let x = …" (a compiler's excerpt), "  3: core::panicking…" (a frame)
		r := strings.TrimLeft(t[j:], " ")
		if strings.HasPrefix(r, "|") || strings.HasPrefix(r, ": ") && strings.Contains(r, "::") {
			return true
		}
	}
	// "fmt.Fprintln(os.Stderr, …)", "main.main()": a call, in code or a
	// frame; but "bind() failed: …" is a C program's message.
	if k := strings.IndexByte(first, '('); k > 0 && identLike(first[:k]) && (!strings.HasPrefix(first[k:], "()") || rest == "") {
		return true
	}
	// "  code: 'ECONNREFUSED',": a field of an object printed with an error.
	if strings.HasSuffix(first, ":") && identLike(first[:len(first)-1]) && (strings.HasSuffix(t, ",") || strings.HasSuffix(t, "{")) {
		return true
	}
	// "src/x.go:12:	return errors.New(…)": a search hit, not a message;
	// but "standard_init_linux.go:228: exec user process caused: exec
	// format error" is a program's message that names its source line.
	if k := strings.IndexByte(first, ':'); k > 0 && strings.ContainsAny(first[:k], "./") {
		if ok, j := digitsAt(first, k+1); ok && j < len(first) && first[j] == ':' || ok && j == len(first) {
			message := j == len(first)-1 && rest != "" && isLower(rest[0]) && !strings.Contains(rest, "//")
			if !message {
				return true
			}
			sig := signalsOf(rest)
			return !sig.shape && sig.vocab == 0
		}
	}
	return strings.Contains(t, ".go:") && strings.Contains(t, " +0x")
}

// excLine recognises an exception with its message after a prefix: a
// driver's or a tool's ("error: psycopg2.errors.UniqueViolation: …"), or a
// label ("Unhandled rejection FetchError: …").
func excLine(t string) bool {
	for off := 0; off < len(t); {
		i := strings.Index(t[off:], ": ")
		if i < 0 || off+i > 120 {
			return false
		}
		i += off
		// The word before the colon.
		j := i
		for j > 0 && (isAlnum(t[j-1]) || t[j-1] == '_' || t[j-1] == '.' || t[j-1] == '$') {
			j--
		}
		if j < i && (j == 0 || t[j-1] == ' ' || t[j-1] == ':' || t[j-1] == '\t') && looksException(t[j:i]) && exceptionName(t[j:i]) {
			return true
		}
		off = i + 2
	}
	return false
}

// exceptionName reports whether name, a dotted identifier, is an
// exception's: it ends in Error, Exception, Failure, Fault, Violation or
// Panic, or its package says so (psycopg2.errors.UniqueViolation,
// redis.exceptions.ConnectionError).
func exceptionName(name string) bool {
	for _, suf := range []string{"Error", "Exception", "Failure", "Fault", "Violation", "Panic", "Exceeded", "Timeout", "TimedOut"} {
		if len(name) > len(suf) && strings.HasSuffix(name, suf) {
			return true
		}
	}
	return strings.Contains(name, ".errors.") || strings.Contains(name, ".exceptions.") || strings.Contains(name, ".exc.")
}

// programPrefix reports whether t starts as a program's or a driver's
// message does: "name: message" with a lower-case or path name and a
// message of a few words ("pq: duplicate key…", "bash: foo: command not
// found", "/bin/sh: 1: x: not found", "mysqldump: Got error: …").
func programPrefix(t string) bool {
	i := strings.Index(t, ": ")
	if i <= 0 || i > 40 {
		return false
	}
	name := t[:i]
	if !(isLower(name[0]) || name[0] == '.' || name[0] == '/') || strings.Contains(name, "//") {
		return false
	}
	for k := 0; k < len(name); k++ {
		if c := name[k]; !(isAlnum(c) || c == '_' || c == '-' || c == '.' || c == '/') {
			return false
		}
	}
	return strings.Count(t[i+2:], " ") >= 2
}

// passLine recognises the report of something that passed or was skipped:
// "test_error_handling PASSED", "test x::invalid ... ok", "✓ handles
// timeouts", "--- PASS: TestFailure".
func passLine(t string) bool {
	if strings.Contains(t, "✓") || strings.Contains(t, "✔") || strings.Contains(t, "√") {
		return true
	}
	first, _, _ := strings.Cut(t, " ")
	last := t
	if k := strings.LastIndexAny(t, " \t"); k >= 0 {
		last = t[k+1:]
	}
	for _, w := range []string{first, last} {
		switch strings.Trim(w, "[]():") {
		case "PASS", "PASSED", "ok", "OK", "SKIP", "SKIPPED", "XFAIL", "XPASS", "xfail", "passed", "skipped", "SUCCESS", "succeeded":
			return true
		}
	}
	return strings.Contains(t, "--- PASS") || strings.Contains(t, " PASSED") || strings.Contains(t, " passed ")
}

// runOf says how the command whose output text is ended: from the command
// item of the call (its exit status, or the result marked as an error),
// else from the status the output's wrapper gave (exit), else from a status
// the output reports itself ("Exit code 1").
func (s *scanner) runOf(text string, exit *int) runState {
	for i := range s.items {
		it := &s.items[i]
		if it.Kind != KindCommand {
			continue
		}
		switch {
		case it.Exit != nil && *it.Exit == 0:
			if statusMasked(it.Value) {
				// "pytest -x 2>&1 | tail -30": the status is tail's.
				return runUnknown
			}
			return runPassed
		case it.Exit != nil || it.Failed:
			return runFailed
		}
	}
	if exit == nil {
		exit = exitStatus(text)
	}
	switch {
	case exit == nil:
		return runUnknown
	case *exit == 0:
		return runPassed
	}
	return runFailed
}

// filters are the commands a pipeline's output is commonly passed through
// to be cut down or shown; a pipeline ending in one exits with its status.
var filters = map[string]bool{"tail": true, "head": true, "grep": true, "egrep": true, "rg": true, "tee": true,
	"sed": true, "awk": true, "cut": true, "sort": true, "uniq": true, "less": true, "more": true,
	"cat": true, "wc": true, "jq": true, "column": true, "tr": true, "nl": true}

// statusMasked reports whether a shell command's exit status says nothing
// of how its program ran: a pipeline into a filter without pipefail
// ("go test ./... 2>&1 | tail -40"), or a failure silenced with "|| true".
func statusMasked(cmd string) bool {
	if strings.Contains(cmd, "|| true") || strings.Contains(cmd, "|| :") || strings.Contains(cmd, "|| echo") {
		return true
	}
	if strings.Contains(cmd, "pipefail") {
		return false
	}
	// the last pipe outside quotes: "go test ./... | grep -E 'FAIL|ok'"
	last, quote := -1, byte(0)
	for i := 0; i < len(cmd); i++ {
		switch c := cmd[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '|' && (i+1 == len(cmd) || cmd[i+1] != '|') && (i == 0 || cmd[i-1] != '|'):
			last = i
		}
	}
	if last <= 0 {
		return false
	}
	f := strings.Fields(strings.TrimPrefix(cmd[last+1:], "&")) // "|&" pipes stderr too
	return len(f) > 0 && filters[f[0]]
}

// unwrapOutput returns the output inside a JSON wrapper holding only an
// output and its metadata, as Codex records a shell command's result
// ({"output": "…", "metadata": {"exit_code": 1, "duration_seconds": 0.8}}),
// with the exit code the wrapper gives. Any other text is returned as it is.
// The output is redacted again: its secrets could only be recognised once
// unescaped.
func unwrapOutput(text string) (string, *int) {
	t := strings.TrimLeft(text, " \t\r\n")
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"metadata"`) || !strings.Contains(t, `"output"`) {
		return text, nil
	}
	var w map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &w) != nil {
		return text, nil
	}
	var out string
	if json.Unmarshal(w["output"], &out) != nil {
		return text, nil
	}
	var meta struct {
		ExitCode *int `json:"exit_code"`
	}
	for k, v := range w {
		switch k {
		case "output":
		case "metadata":
			if json.Unmarshal(v, &meta) != nil {
				return text, nil
			}
		default:
			return text, nil
		}
	}
	return Redact(out), meta.ExitCode
}

// namedErrors adds the exceptions and error codes a person names in prose:
// "the nightly job died with MemoryError again", "it fails with
// ECONNRESET under load". Whole error lines in prose are read elsewhere;
// this keeps the name when the sentence around it is not kept.
func (s *scanner) namedErrors(t string) {
	for i := 0; i < len(t); {
		if !isUpper(t[i]) || i > 0 && (isWordByte(t[i-1]) || t[i-1] == '.') {
			i++
			continue
		}
		j := i
		for j < len(t) && isWordByte(t[j]) {
			j++
		}
		w := t[i:j]
		i = j
		if j < len(t) && (t[j] == '.' && j+1 < len(t) && isAlpha(t[j+1]) || t[j] == '(' || t[j] == ':') {
			continue // a qualified name, a call, or an error line read elsewhere
		}
		if (len(w) >= 7 && exceptionName(w) && !strings.Contains(w, ".") || len(w) >= 5 && w[0] == 'E' && errnoNames[w]) &&
			!handledName(t[:i-len(w)]) {
			s.add(KindError, w)
		}
	}
}

// errorSaid reports whether a message says "error:" or "exception:" after
// its first word: "mysqldump: Got error: 2013: …", "sync: Exception: …".
func errorSaid(v string) bool {
	for _, w := range []string{"error: ", "Error: ", "ERROR: ", "Exception: "} {
		if k := strings.Index(v, w); k > 0 && v[k-1] == ' ' {
			return true
		}
	}
	return false
}

// jsonErrorBody reports whether a line is a JSON object that carries an
// error, as an API answers a failed request: {"error":"403 Forbidden",
// "detail":"token lacks scope admin:write"}.
func jsonErrorBody(t string) bool {
	if len(t) < 12 || t[0] != '{' || t[len(t)-1] != '}' {
		return false
	}
	for _, k := range []string{`"error":`, `"error": `, `"errors":`, `"errors": `, `"err":`, `"error.message":`, `"error.message": `,
		`"error_message":`, `"error_message": `, `"errorMessage":`, `"errorMessage": `, `"exception":`, `"exception": `} {
		if i := strings.Index(t, k); i > 0 && i < 40 {
			v := strings.TrimLeft(t[i+len(k):], " ")
			for _, none := range []string{"null", `""`, "false", "[]", "{}", "0", `"none"`, `"None"`, `"ok"`, `"OK"`} {
				if strings.HasPrefix(v, none) && (len(v) == len(none) || !isAlnum(v[len(none)])) {
					return false
				}
			}
			return true
		}
	}
	return false
}

// sourcePrefix reports whether t starts with the source line that printed
// it: "standard_init_linux.go:228: exec user process caused: …".
func sourcePrefix(t string) bool {
	first, _, _ := strings.Cut(t, " ")
	k := strings.IndexByte(first, ':')
	if k <= 0 || !strings.Contains(first[:k], ".") {
		return false
	}
	ok, j := digitsAt(first, k+1)
	return ok && j == len(first)-1 && first[j] == ':'
}

// failedWith reports whether a line says what failed and why: "Migration
// failed: relation \"invoices\" does not exist", "OCI runtime exec failed:
// …", "terraform apply failed with exit code 1". The words before say
// what failed; a count ("0 failed: none") says nothing failed.
func failedWith(t string) bool {
	for _, cue := range []string{" failed: ", " failed with ", " failed because "} {
		k := strings.Index(t, cue)
		if k <= 0 || k > 80 {
			continue
		}
		before := strings.Fields(t[:k])
		if len(before) == 0 || len(before) > 6 || allDigits(before[len(before)-1]) || passLine(t) {
			return false
		}
		after := strings.Fields(t[k+len(cue):])
		w := strings.Trim(after[0], ".,;:")
		if len(after) < 2 || isDigit(after[0][0]) || strings.EqualFold(w, "none") || strings.EqualFold(w, "no") {
			return false // "Build failed: 0 errors", "Checks failed: none"
		}
		return true
	}
	return false
}

// handledName reports whether the words before an exception's name make it
// code being written rather than a failure seen: "raise
// NotImplementedError", "catch ValueError", "add a KeyError handler".
func handledName(before string) bool {
	f := strings.Fields(strings.ToLower(before))
	for k := len(f) - 1; k >= 0 && k >= len(f)-2; k-- {
		switch strings.Trim(f[k], "`'\"(,") {
		case "raise", "raises", "raising", "catch", "catches", "catching", "handle", "handles", "handling",
			"except", "rescue", "throw", "throws", "add", "adding", "wrap", "wrapping", "define", "defining",
			"class", "new", "subclass", "type", "expect", "expects", "expecting", "assertraises", "pytest.raises":
			return true
		}
	}
	return false
}

// maxFewWarnings is the most warning lines an output may hold for each to
// be kept as one of the few.
const maxFewWarnings = 3

// stampedLine reports a log line that opens with a date or a time, bare
// or in brackets: "2026-11-30 10:02:12 WARN …", "[2026-04-04T08:28:58Z
// WARN  tern::db] …", "10:02:12.104 WARN …".
func stampedLine(t string) bool {
	t = strings.TrimLeft(t, "[")
	ok, j := digitsAt(t, 0)
	return ok && j >= 2 && j < len(t) && (t[j] == '-' || t[j] == ':' || t[j] == '/')
}

// lastWords returns the last line of a failed command's output of two
// lines or more, last (the text trimmed of its ends), unless it only
// reports the exit status, is too short to say anything or is code or a
// diff: "migrate: could not settle the ledger", "Refusing to run with an
// empty DATABASE_URL". An output of one line that no recogniser took is
// left alone: it may be a status line, a test count or a line of code.
func lastWords(text, last string) (string, bool) {
	if strings.IndexByte(strings.TrimSpace(text), '\n') < 0 {
		return "", false
	}
	if exitLine(last) {
		// "exit status 3" after the message: the line before it.
		t := strings.TrimRight(text, " \t\r\n")
		if k := strings.LastIndexByte(t, '\n'); k > 0 {
			t = strings.TrimRight(t[:k], " \t\r\n")
			last = strings.TrimSpace(t[strings.LastIndexByte(t, '\n')+1:])
		} else {
			return "", false
		}
	}
	if last == "" || exitLine(last) || len(strings.Fields(last)) < 3 || skipGeneric(last) || reportsSuccess(last) {
		return "", false
	}
	// The last row of a listing or a log is one more row, not a message:
	// a line shaped like another line of the output is left alone.
	shape, n := lineShape(last), 0
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		if l := strings.TrimSpace(text[start:end]); l != "" && lineShape(l) == shape {
			if n++; n > 1 {
				return "", false
			}
		}
		start = end + 1
	}
	return last, true
}

// reportsSuccess reports a line that says something went well or sums up
// a run: "ok  github.com/acme/wire 4.113s", "Plan: 0 to add, 1 to change",
// "the whole run took 61.4s".
func reportsSuccess(t string) bool {
	low := strings.ToLower(t)
	if strings.HasPrefix(low, "plan:") {
		return true
	}
	if k := strings.LastIndex(low, " -> "); k >= 0 {
		// a change of state ("pending -> running"), unless where it
		// leads names a failure ("… -> your php version (7.4.33) does
		// not satisfy that requirement.")
		return signalsOf(t[k+4:]).vocab == 0
	}
	for _, w := range []string{"ok", "success", "successful", "successfully", "succeeded", "passed", "complete",
		"completed", "done", "finished", "took", "up-to-date", "healthy", "ready"} {
		if hasWord(low, w) {
			return true
		}
	}
	return false
}

// exitLine reports a line that only reports how a command ended.
func exitLine(t string) bool {
	low := strings.ToLower(strings.Trim(t, "[]() "))
	for _, p := range []string{"exit status", "exit code", "exited with", "process exited", "command exited",
		"returncode", "return code", "error: process completed with exit code"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// columnHeader reports whether a line is the header of a table aligned
// with spaces: three columns or more, set apart by gaps of two spaces or a
// tab, each a short name ("% time", "usecs/call", "p99", "MEMORY(bytes)")
// without the punctuation of a message or a value.
func columnHeader(t string) bool {
	if len(t) > 200 || !strings.Contains(t, "  ") && !strings.Contains(t, "\t") {
		return false
	}
	n, named := 0, 0
	for f := range eachGapField(t) {
		if n == 0 && levelWord(strings.ToLower(f)) >= lvWarn {
			return false // "ERROR   worker   connection refused"
		}
		n++
		if len(f) > 24 || strings.Count(f, " ") > 2 || strings.ContainsAny(f, ".:;,!?\"'=[]{}<>") {
			return false
		}
		letters, alnum := 0, 0
		for i := 0; i < len(f); i++ {
			if isAlpha(f[i]) {
				letters++
			}
			if isAlnum(f[i]) {
				alnum++
			}
		}
		if letters == 0 {
			return false
		}
		if letters*2 >= alnum || isAlpha(f[0]) && alnum <= 4 { // "p99", "P99(ms)"
			named++
		}
	}
	return n >= 3 && named == n
}

// gapFields splits a line at its column gaps: two spaces or more, or a
// tab.
func gapFields(t string) []string { return slices.Collect(eachGapField(t)) }

// eachGapField yields the fields of a line between its column gaps (see
// gapFields) without gathering them.
func eachGapField(t string) iter.Seq[string] {
	return func(yield func(string) bool) {
		start := -1
		for i := 0; i <= len(t); i++ {
			gap := i == len(t) || t[i] == '\t' || t[i] == ' ' && i+1 < len(t) && t[i+1] == ' '
			if gap {
				if start >= 0 {
					if !yield(strings.TrimSpace(t[start:i])) {
						return
					}
					start = -1
				}
				continue
			}
			if start < 0 && t[i] != ' ' {
				start = i
			}
		}
	}
}
