package ledger

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/condense-dev/condense/internal/needles"
)

// This file holds the recognisers of error lines.

var podFailures = []string{"CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "OOMKilled",
	"CreateContainerConfigError", "CreateContainerError", "RunContainerError", "InvalidImageName",
	"Evicted", "BackOff", "FailedScheduling", "FailedMount", "Unhealthy"}

var npmBoilerplate = []string{"A complete log of this run", "Log files were not written",
	"For a full report see", "This is probably not a problem with npm", "Run `npm audit"}

// npm lines worth keeping besides those that start a sentence.
var npmKeep = []string{"code ", "peer ", "missing ", "notarget ", "enoent ", "errno "}

// errors recognises error lines; line is the raw line, t the trimmed one.
// A line that continues a multi-line error (a traceback, a panic's frames)
// is taken by it; any other line is checked for the start of an error, in
// order: runtime failures and test results, then tool errors, then
// compiler and log lines, and last, in tool output, the broad recogniser
// of errors_generic.go.
func (s *scanner) errors(line, t string) {
	indented := line[0] == ' ' || line[0] == '\t'
	if s.output && indented && psMessage(t, s.prev) {
		// PowerShell's error view: the message under the caret line of
		// "Line |\n  58 |  Copy-Item …\n     |  ~~~~\n     | Cannot bind
		// argument to parameter 'Destination' because it is null."
		s.add(KindError, strings.TrimSpace(t[1:]))
		return
	}
	if s.output && pgDetail(t) && (s.prevErr || strings.Contains(s.prev, "ERROR:") || strings.Contains(s.prev, "FATAL:") ||
		strings.Contains(s.prev, ": error: ")) {
		// PostgreSQL's DETAIL line says which row or key an error was
		// about ("Key (id)=(48213) already exists."): kept after the
		// decisive lines if room is left.
		s.addWeak(t)
		return
	}
	if s.atFrame == 0 && s.stackOwn == "" && indented && strings.HasPrefix(t, "at ") && !strings.HasPrefix(s.prev, "at ") && atFrameShape(t) && !rustFrameLine(s.prev) {
		// The frames of an error line no recogniser below starts them
		// for ("[server] Error: backlog overflow", a logged exception),
		// or of a warning or a trace printed with its stack: the
		// program's frame says where. Only after an error is a
		// runtime's frame kept when no frame of the program follows.
		s.atFrame, s.atFirst, s.atLoose = 6, "", !s.prevErr
	}
	if s.output && !s.source && sqlServerMsg(s.prev) {
		// SQL Server prints its error's message under "Msg 5074, Level
		// 16, State 1, Server SQL01, Line 9"
		s.add(KindError, t)
		return
	}
	if s.output && !s.source && (strings.HasPrefix(t, "| ") || strings.Contains(t, " | ")) {
		// a table's cell that holds an exception's line (Airflow's
		// "filepath | error" rows, a traceback spread over them):
		// "… | ModuleNotFoundError: No module named 'x'"
		for cell := range strings.SplitSeq(t, "|") {
			if c := strings.TrimSpace(cell); len(c) > 12 && looksException(c) && strings.Contains(c, ": ") {
				s.add(KindError, c)
			}
		}
	}
	s.lineIndent = indentOf(line)
	switch {
	case s.continueError(t, indented):
	case s.runtimeOrTestLine(t):
	case s.output && t[0] == '{' && s.logLine(t):
		// A JSON log record with a level is read by its message fields
		// before any recogniser sees an HTTP status or "Error: " in it.
	case s.output && s.sourcedRecord():
		// the same behind a log multiplexer's prefix
	case s.output && !s.source && t[0] == '"' && s.prettyRecord(t):
		// the same printed as indented JSON, read at its level's line
	case s.toolErrorLine(t):
	default:
		s.compilerOrLogLine(t, indented)
	}
}

// continueError feeds t to the multi-line error in progress, if any, and
// reports whether the line belonged to it.
func (s *scanner) continueError(t string, indented bool) bool {
	if s.rustPanic != "" {
		s.add(KindError, s.rustPanic+" "+t)
		s.rustPanic = ""
		return true
	}
	if s.inTrace && s.tracebackLine(t, indented && s.lineIndent > s.traceIndent) {
		// indented past the traceback's own header: a traceback a
		// warnings summary or a log prints indented ends at its
		// exception line indented as its header is
		return true
	}
	if s.goFrame {
		if frame, ok := goFrame(t); ok {
			if !goRuntimeFrame(frame) {
				// The function the panic went through, with where:
				// "main.(*Store).reap(…) at /repo/store/reap.go:42";
				// the program's functions that called it follow.
				v := frame
				if f := goFuncName(s.goFunc); f != "" {
					v = f + " at " + frame
				}
				s.stackFrame(v, goShortName(s.goFunc))
			}
			s.goFunc = ""
			return true
		}
		if goFuncLine(t) {
			s.goFunc = t
			return true
		}
		if s.stackOwn != "" {
			s.endStack() // the stack ended
			s.goFrame = false
		}
	}
	if s.rustFn != "" {
		f := s.rustFn
		s.rustFn = ""
		if strings.HasPrefix(t, "at ") {
			s.stackFrame(f+" "+t, f) // "tern_core::lease::drop at ./src/lease.rs:77:9"
			return true
		}
		s.stackFrame(f, f)
	}
	if s.rustFrames {
		if f, ok := rustFrame(t); ok {
			if !rustLibraryFrame(f) {
				if s.stackOwn == "" {
					s.rustFn = f // its "at file:line" may follow
				} else {
					s.stackFrame(f, f) // a function of the program's that called it
				}
			}
			return true
		}
		if strings.HasPrefix(t, "at ") {
			return true
		}
		s.rustFrames = false
		s.endStack()
	}
	if s.otherStack {
		if frame, name, lib, ok := otherFrame(t); ok {
			if !lib {
				s.stackFrame(frame, name)
			}
			return true
		}
		s.otherStack = false
		s.endStack()
	} else if s.prevErr || s.stackHeader {
		if frame, name, lib, ok := otherFrame(t); ok {
			// The frames of PHP, Elixir, Dart, Lua and Ruby: the
			// program's first one, and the functions of the program's
			// that called it.
			s.otherStack, s.stackHeader = true, false
			if !lib {
				s.stackFrame(frame, name)
			}
			return true
		}
	}
	s.stackHeader = t == "Stack trace:" || t == "stack traceback:"
	if s.atFrame > 0 {
		if strings.HasPrefix(t, "at ") {
			if atLibraryFrame(t) {
				if s.atFirst == "" && s.stackOwn == "" && !s.atLoose {
					s.atFirst = t
				}
				return true // the project's own frame may follow
			}
			// The program's first frame, then the program's functions
			// that called it.
			s.stackFrame(t, atFrameName(t))
			s.atFirst = ""
			return true
		}
		if s.stackOwn != "" {
			s.endStack() // the stack ended
			s.atFrame, s.atLoose = 0, false
			return false
		}
		s.atFrame--
		if s.atFirst != "" {
			// Only the runtime's frames: the first says where it failed.
			s.add(KindError, s.atFirst)
			s.lineItems = len(s.items) // the frame's, not this line's
			s.atFrame, s.atFirst = 0, ""
		}
		if s.atFrame == 0 {
			s.atLoose = false
		}
	}
	return false
}

// goFuncLine reports whether t is the function line of a Go stack frame
// ("main.(*Store).reap(0xc000010000)", "created by main.main in goroutine
// 1"), which the frame's location line follows.
func goFuncLine(t string) bool {
	if strings.HasPrefix(t, "created by ") {
		return true
	}
	open := strings.IndexByte(t, '(')
	if open <= 0 || !strings.HasSuffix(t, ")") || strings.ContainsAny(t[:open], " \t") {
		return false
	}
	// A package path may hold '/' (github.com/acme/billing/internal/
	// ledger.(*Book).settle); the function's name follows its last '/'.
	return strings.Contains(t[strings.LastIndexByte(t[:open], '/')+1:open], ".")
}

// goFuncName returns the function of a Go frame's function line, its
// arguments elided: "main.(*Store).reap(0xc0, 0x1)" → "main.(*Store).reap(…)".
func goFuncName(t string) string {
	t = strings.TrimPrefix(t, "created by ")
	if i := strings.Index(t, " in goroutine"); i > 0 {
		return t[:i]
	}
	if i := strings.LastIndexByte(t, '('); i > 0 && strings.HasSuffix(t, ")") {
		if t[i+1:len(t)-1] == "" {
			return t
		}
		return t[:i] + "(…)"
	}
	return t
}

// rustFrame reads a frame of a Rust backtrace: "   3: tern_core::lease::drop
// _holds" → "tern_core::lease::drop_holds".
func rustFrame(t string) (string, bool) {
	i := 0
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 0 || !strings.HasPrefix(t[i:], ": ") {
		return "", false
	}
	f := strings.TrimSpace(t[i+2:])
	return f, f != "" && !strings.Contains(f, " ")
}

// rustLibraryFrame reports whether a Rust frame is the standard library's,
// the panic machinery's or the test harness's.
func rustLibraryFrame(f string) bool {
	f = strings.TrimPrefix(f, "<")
	for _, p := range []string{"std::", "core::", "alloc::", "rust_begin_unwind", "rust_panic", "__rust", "backtrace::", "test::", "tokio::runtime", "_start", "__libc", "main"} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return false
}

// atLibraryFrame reports whether an "at …" frame of a Java, Kotlin, C# or
// JavaScript stack is the runtime's or a framework's rather than the
// program's.
func atLibraryFrame(t string) bool {
	f := strings.TrimPrefix(t, "at ")
	for _, p := range []string{"java.", "javax.", "jdk.", "sun.", "kotlin.", "kotlinx.coroutines.", "org.junit.", "junit.",
		"System.", "Microsoft.", "node:", "process.", "Module.", "new Promise", "async Promise.", "Promise."} {
		if strings.HasPrefix(f, p) {
			return true
		}
	}
	return strings.Contains(f, "(node:") || strings.Contains(f, "/node_modules/") || strings.Contains(f, "<anonymous>")
}

// tracebackLine takes a line inside a Python traceback: it remembers the
// deepest frame and, at the exception line that ends the traceback, adds
// the exception and that frame. It reports false, ending the traceback,
// at a line that is no part of one.
func (s *scanner) tracebackLine(t string, indented bool) bool {
	if strings.HasPrefix(t, `File "`) {
		s.traceFrame = t
		if !libraryFrame(t) {
			if s.traceOwn != "" && s.traceOwn != t {
				if n := pyFrameName(s.traceOwn2); callerName(n) && !slices.Contains(s.callers, n) {
					// an earlier caller, outermost first; only the
					// nearest few are named, so the oldest go
					if len(s.callers) == 2*maxCallers {
						s.callers = append(s.callers[:0], s.callers[1:]...)
					}
					s.callers = append(s.callers, n)
				}
				s.traceOwn2 = s.traceOwn
			}
			s.traceOwn = t
		}
		return true
	}
	if !indented && (looksException(t) || raisedLine(t)) {
		s.add(KindError, t)
		if s.traceFrame != "" {
			s.add(KindError, s.traceFrame)
		}
		if s.traceOwn != "" && s.traceOwn != s.traceFrame {
			// The deepest frame is a library's: the project's own
			// deepest frame says where its code went wrong.
			s.add(KindError, s.traceOwn)
		}
		if s.traceOwn2 != "" {
			// And the project's frame that called it: the function the
			// failure went through, with the project's functions that
			// called it, nearest first.
			slices.Reverse(s.callers)
			s.add(KindError, withCallers(s.traceOwn2, s.callers))
		}
		s.inTrace, s.traceFrame, s.traceOwn, s.traceOwn2, s.callers = false, "", "", "", s.callers[:0]
		return true
	}
	if !indented && !strings.HasPrefix(t, "During handling") && !strings.HasPrefix(t, "The above exception") && !strings.HasPrefix(t, "Traceback") {
		s.endTraceback()
		return false
	}
	return true
}

// endTraceback ends a Python traceback that no exception line ended (a
// warning's or a log's stack, output cut short): the program's deepest
// frame is kept, with the functions that called it.
func (s *scanner) endTraceback() {
	if s.traceOwn != "" && !s.traceLoose {
		if n := pyFrameName(s.traceOwn2); callerName(n) && !slices.Contains(s.callers, n) {
			s.callers = append(s.callers, n)
		}
		slices.Reverse(s.callers)
		s.add(KindError, withCallers(s.traceOwn, s.callers))
		s.lineItems = len(s.items) // the traceback's, not the line's that ended it
	}
	s.inTrace, s.traceFrame, s.traceOwn, s.traceOwn2, s.callers, s.traceLoose = false, "", "", "", s.callers[:0], false
}

// rustFrameLine reports whether t is a numbered frame of a Rust backtrace,
// whose location line ("at ./src/x.rs:7:9") follows it.
func rustFrameLine(t string) bool {
	f, ok := rustFrame(t)
	return ok && strings.Contains(f, "::")
}

// atFrameShape reports whether an "at" line is a stack frame: "at f
// (file.ts:1:2)", "at file.js:1:2", "at a.b.C.m(C.java:12)", not a
// sentence ("at least three retries").
func atFrameShape(t string) bool {
	if k := strings.LastIndex(t, ":line "); k > 0 && strings.Contains(t, ") in ") {
		// .NET: "at Billing.Refunds.Settle(Int32 id) in /src/Refunds.cs:line 42"
		ok, _ := digitsAt(t, k+len(":line "))
		return ok
	}
	if !strings.HasSuffix(t, ")") {
		ok, _ := digitsAt(t, strings.LastIndexByte(t, ':')+1)
		return ok && strings.Count(t, ":") >= 2 && !strings.Contains(t[3:], " ")
	}
	open := strings.IndexByte(t, '(')
	if open <= 3 {
		return false
	}
	// one name before the location: "at f (", "at a.b.C.m(", "at async
	// f (", "at new Store (", "at Layer.handle [as handle_request] ("
	name := strings.TrimSpace(t[3:open])
	name = strings.TrimPrefix(strings.TrimPrefix(name, "async "), "new ")
	if i := strings.Index(name, " [as "); i > 0 {
		name = name[:i]
	}
	if name == "" || strings.Contains(name, " ") {
		return false
	}
	return strings.Contains(t[open:], ":") || strings.Contains(t[open:], "<anonymous>") || strings.Contains(t[open:], "native")
}

// libraryFrame reports whether a Python frame line is in the standard
// library or an installed package rather than the project's own code.
func libraryFrame(t string) bool {
	return strings.Contains(t, "/site-packages/") || strings.Contains(t, "/dist-packages/") ||
		strings.Contains(t, "/lib/python") || strings.Contains(t, `"<frozen `) || strings.Contains(t, `\Lib\`)
}

// runtimeOrTestLine recognises the start of a Python traceback or a Go
// panic, and the failures of test runners and builds (go test, pytest,
// rustc, cargo, make). It reports whether the line was one of them.
func (s *scanner) runtimeOrTestLine(t string) bool {
	switch {
	case strings.HasPrefix(t, "Traceback (most recent call last)") || strings.HasSuffix(t, " Traceback (most recent call last):"):
		// The second form: a logger's line ends with the traceback it logs.
		s.inTrace, s.traceFrame, s.traceOwn, s.traceOwn2, s.traceLoose = true, "", "", "", false
		s.traceIndent = 0
		if strings.HasPrefix(t, "Traceback") {
			s.traceIndent = s.lineIndent
		}
	case t == "Stack (most recent call last):":
		// logging's stack_info: frames, and no exception after them
		s.inTrace, s.traceFrame, s.traceOwn, s.traceOwn2, s.traceLoose = true, "", "", "", false
		s.traceIndent = 0
	case strings.HasPrefix(t, `File "`) && strings.Contains(t, `", line `):
		// A traceback whose header a log's tail cut off: its frames
		// still end at the exception line. With no exception line, its
		// frames are kept only after an error or a warning (a
		// DeprecationWarning's stack), not for a frame line alone.
		s.inTrace, s.traceFrame, s.traceOwn, s.traceOwn2 = true, "", "", ""
		s.traceIndent = 0
		s.traceLoose = !s.prevErr && !strings.Contains(s.prev, "Warning")
		s.tracebackLine(t, true)
	case t == "Unhandled exception:":
		s.rustPanic = t // Dart: the message follows on the next line, then the frames
	case strings.HasPrefix(t, "panic: "):
		s.add(KindError, t)
		s.goFrame, s.goFunc = true, ""
	case strings.HasPrefix(t, "goroutine ") && strings.HasSuffix(t, "]:") && strings.Contains(t, " ["):
		// A Go traceback's header: what it printed just before is the
		// failure ("panic: …", or a bare message a crash handler wrote).
		// Only the first header of a text: in a dump of many goroutines
		// the line before each later one is the previous stack's frame.
		if !s.goHeader && crashMessage(s.prev) {
			s.add(KindError, s.prev)
		}
		s.goHeader = true
	case t == "stack backtrace:":
		s.rustFrames = true // a Rust panic's backtrace (RUST_BACKTRACE=1)
	case strings.HasPrefix(t, "--- FAIL:"):
		s.add(KindError, t)
		s.inFail = true
	case strings.HasPrefix(t, "FAIL\t") || strings.HasPrefix(t, "FAIL "):
		s.add(KindError, t)
		s.inFail = false
	case strings.HasPrefix(t, "ok  ") || strings.HasPrefix(t, "ok \t") || strings.HasPrefix(t, "=== RUN") || t == "PASS":
		s.inFail = false
	case strings.HasPrefix(t, "● Console"):
		s.jestCase = false // what the tests logged, not what failed
		return false
	case strings.HasPrefix(t, "● ") && !systemdUnit(t):
		// Jest's failure header: "● RefundService › settles once", then
		// what the matcher expected and received.
		s.add(KindError, t)
		s.jestCase = true
	case s.jestCase && (strings.HasPrefix(t, "Expected: ") || strings.HasPrefix(t, "Received: ") || strings.HasPrefix(t, "Expected value: ") || strings.HasPrefix(t, "Received value: ")):
		s.add(KindError, t)
	case s.jestCase && (strings.HasPrefix(t, "Tests: ") || strings.HasPrefix(t, "Test Suites: ")):
		s.jestCase = false
		return false
	case strings.HasPrefix(t, "FAILED ") || (strings.HasPrefix(t, "ERROR ") && strings.Contains(t, "::")):
		s.add(KindError, t) // pytest short summary
	case s.pyCase != "" && strings.HasPrefix(t, "E "):
		// The first "E" line of a failure section says what failed in
		// the test its header named: "E       assert 2 == 1", kept as
		// printed after the test's name.
		w := s.wide
		s.wide = true
		s.add(KindError, s.pyCase+": "+t)
		s.wide = w
		s.pyCase = ""
	case strings.HasPrefix(t, "E ") && looksException(strings.TrimSpace(t[2:])):
		s.add(KindError, strings.TrimSpace(t[2:])) // pytest assertion detail
	case pytestHeader(t) != "":
		s.pyCase = pytestHeader(t)
	case pytestLocation(t):
		s.add(KindError, t) // "tests/test_refund.py:12: AssertionError"
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
	default:
		return false
	}
	return true
}

// linkerError recognises the linker's own complaint, which a compiler
// prints indented under its summary: "= note: /usr/bin/ld: cannot find
// -lpq", "ld: undefined reference to `pq_connect'", "ld.lld: error: …".
func linkerError(t string) bool {
	k := strings.Index(t, "ld: ")
	if k < 0 {
		k = strings.Index(t, "ld.lld: ")
	}
	if k < 0 || k > 0 && t[k-1] != '/' && t[k-1] != ' ' && t[k-1] != 'l' {
		return false
	}
	rest := t[strings.IndexByte(t[k:], ' ')+k+1:]
	return hasAnyPrefix(rest, []string{"cannot find ", "error: ", "undefined reference to ", "library not found", "symbol(s) not found", "fatal error: "})
}

// unresolvedSymbol reports the linker's line for a symbol it could not
// resolve, printed after the object's or the source's location:
// "/src/main.cpp:27: undefined reference to `Config::load()'".
func unresolvedSymbol(t string) bool {
	return strings.Contains(t, ": undefined reference to `") || strings.Contains(t, ": multiple definition of `")
}

// kotlinError reports kotlinc's error line, "e: " and the file's location:
// "e: file:///app/src/Repo.kt:34:18 Unresolved reference: findByMrn".
func kotlinError(t string) bool {
	r, ok := strings.CutPrefix(t, "e: ")
	return ok && (strings.HasPrefix(r, "file://") || strings.Contains(r, ".kt:") || strings.Contains(r, ".kts:") || strings.Contains(r, ".kt (") || strings.Contains(r, ".java:"))
}

// sanitizerReport reports the summary line of a sanitizer's report and
// the race detector's header: "SUMMARY: AddressSanitizer: heap-use-after-free
// src/lru.c:64 in lru_get", "WARNING: DATA RACE".
func sanitizerReport(t string) bool {
	if r, ok := strings.CutPrefix(t, "SUMMARY: "); ok {
		name, _, ok := strings.Cut(r, ": ")
		return ok && strings.HasSuffix(name, "Sanitizer")
	}
	if r, ok := strings.CutPrefix(t, "=="); ok {
		// "==4711==ERROR: AddressSanitizer: heap-use-after-free on address …",
		// the report's first line, the process id between "=="s
		k := 0
		for k < len(r) && isDigit(r[k]) {
			k++
		}
		if k > 0 && (strings.HasPrefix(r[k:], "==ERROR: ") || strings.HasPrefix(r[k:], "==WARNING: ")) && strings.Contains(r, "Sanitizer") {
			return true
		}
	}
	return t == "WARNING: DATA RACE" || strings.HasPrefix(t, "WARNING: ThreadSanitizer: ")
}

// httpErrorStatus reports an HTTP response's status line of a client or a
// server error, as curl -i or -v prints it: "HTTP/1.1 502 Bad Gateway",
// "< HTTP/2 404".
func httpErrorStatus(t string) bool {
	r, ok := strings.CutPrefix(strings.TrimPrefix(t, "< "), "HTTP/")
	if !ok {
		return false
	}
	_, code, ok := strings.Cut(r, " ")
	return ok && len(code) >= 3 && (code[0] == '4' || code[0] == '5') && isDigit(code[1]) && isDigit(code[2]) && (len(code) == 3 || code[3] == ' ')
}

// toolComplaint reports a command-line tool's complaint, the tool's name
// first, in the output of a command that failed: "sed: -e expression #1,
// char 38: unterminated `s' command", "tar: Error is not recoverable:
// exiting now", "ssh: connect to host db1 port 22: Connection refused".
func toolComplaint(t string) bool {
	p, rest, ok := strings.Cut(t, ": ")
	if !ok || rest == "" || len(p) > 12 || needles.HasPrefixFold(strings.TrimPrefix(rest, "["), "warning") {
		return false // a warning ("mysql: [Warning] Using a password…") is not what failed
	}
	_, known := cliTools[p]
	return known
}

// cliTools are programs that print their complaints after their name.
var cliTools = func() map[string]struct{} {
	m := make(map[string]struct{})
	for _, w := range strings.Fields(`sed awk gawk grep egrep cp mv rm ln mkdir rmdir chmod chown touch cat head tail
		sort cut tr tee stat ls find xargs tar gzip gunzip unzip zip curl wget ssh scp rsync bash sh zsh dash env sudo
		kill pkill jq yq openssl gpg patch diff docker kubectl helm psql mysql sqlite3 redis-cli mongosh node python
		python3 ruby perl php java mount umount dd lsof nc ping dig systemctl journalctl crontab install realpath
		readlink base64 sha256sum md5sum iconv envsubst timeout watch nohup`) {
		m[w] = struct{}{}
	}
	return m
}()

// assertionMessage reports a failed assertion's message that names what
// was expected and what came instead, in the output of a command that
// failed: "Expected response status code [201] but received 422.",
// "expected: <201> but was: <422>", "expected 3 items, got 2".
func assertionMessage(t string) bool {
	if len(t) < 12 || len(t) > 400 || !needles.HasPrefixFold(t, "expected") {
		return false
	}
	for _, w := range []string{" but ", " got ", ", got", " received ", " actual ", " instead"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// systemdUnit reports whether a "● " line is systemctl's unit header
// ("● billing.service - Billing API"), not a test's failure.
func systemdUnit(t string) bool {
	w, _, _ := strings.Cut(t[len("● "):], " ")
	for _, suf := range []string{".service", ".socket", ".timer", ".target", ".mount", ".path", ".slice", ".scope", ".device", ".swap"} {
		if strings.HasSuffix(w, suf) {
			return true
		}
	}
	return false
}

// toolErrorLine recognises npm errors, "fatal:"/"Error:" lines and
// exceptions (after which a JS or Java error's first "at" frame is looked
// for). It reports whether the line was one of them.
func (s *scanner) toolErrorLine(t string) bool {
	switch {
	case strings.HasPrefix(t, "npm ERR!") || strings.HasPrefix(t, "npm error"):
		rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(t, "npm ERR!"), "npm error"))
		if rest != "" && !hasAnyPrefix(rest, npmBoilerplate) && (isUpper(rest[0]) || isDigit(rest[0]) || hasAnyPrefix(rest, npmKeep)) {
			s.add(KindError, t)
		} else if _, r, ok := strings.Cut(rest, "gyp ERR! stack "); ok && looksException(r) {
			// node-gyp's own failure inside npm's: "npm ERR! gyp ERR!
			// stack Error: Could not find any Python installation to use"
			s.add(KindError, t)
		}
	case strings.HasPrefix(t, "fatal: ") || strings.HasPrefix(t, "Fatal: ") || strings.HasPrefix(t, "FATAL: ") || strings.HasPrefix(t, "Error: ") || strings.HasPrefix(t, "ERROR: ") || strings.HasPrefix(t, "FATAL ERROR"),
		strings.HasPrefix(t, "Uncaught ") && looksException(t[len("Uncaught "):]),
		strings.HasPrefix(t, "Unhandled exception. ") && looksException(t[len("Unhandled exception. "):]),
		looksException(t),
		strings.HasPrefix(t, "Exception in thread ") || strings.HasPrefix(t, "Caused by: "),
		// .NET's inner exception: " ---> Npgsql.PostgresException
		// (0x80004005): 28P01: password authentication failed …"
		strings.HasPrefix(t, "---> ") && looksException(hresultless(t[len("---> "):])):
		s.add(KindError, t)
		s.atFrame, s.atFirst, s.atLoose = 6, "", false
	case detailOf(s.prev, t):
		// what the line before only announced: C++'s "terminate called
		// after throwing an instance of 'std::out_of_range'" then
		// "what():  vector::_M_range_check: …", GHC's "error:
		// [GHC-39999]" then "• No instance for ‘Ord SkuId’ …"
		s.add(KindError, t)
	case curlError(t), rubyError(t), tapFailure(t), failMark(t), elixirError(t), interpreterError(t), linkerError(t), unresolvedSymbol(t),
		kotlinError(t), sanitizerReport(t), httpErrorStatus(t),
		s.run == runFailed && (toolComplaint(t) || assertionMessage(t)):
		s.add(KindError, t)
	default:
		return false
	}
	return true
}

// hresultless returns a .NET exception line without the HRESULT between
// its name and its message: "Npgsql.PostgresException (0x80004005): …".
func hresultless(t string) string {
	if k := strings.Index(t, " (0x"); k > 0 && k < 80 {
		if e := strings.Index(t[k:], "):"); e > 0 && e < 16 {
			return t[:k] + t[k+e+1:]
		}
	}
	return t
}

// detailOf reports whether line t gives the message of the error that
// the line before it, prev, only announced: an uncaught C++ exception's
// "what():", or the first "•" point under a diagnostic whose header ends
// with its code ("Index.hs:57:24: error: [GHC-39999]").
func detailOf(prev, t string) bool {
	if strings.HasPrefix(t, "what():") {
		return strings.HasPrefix(prev, "terminate called after throwing")
	}
	if !strings.HasPrefix(t, "• ") || len(t) < 12 {
		return false
	}
	k := strings.LastIndex(prev, "error:")
	if k < 0 {
		return false
	}
	rest := strings.TrimSpace(prev[k+len("error:"):])
	return rest == "" || rest[0] == '[' && strings.HasSuffix(rest, "]")
}

// compilerOrLogLine recognises compiler and linter diagnostics and go test
// failure messages; in tool output it then reads log lines by their level
// (logLine), failed pods and "Error: " lines, and leaves any other line to
// the broad recogniser (genericError).
func (s *scanner) compilerOrLogLine(t string, indented bool) {
	switch {
	case compilerLine(t):
		s.add(KindError, t)
		f := strings.TrimPrefix(t, "vet: ")
		if k := strings.IndexAny(f, ":("); k > 0 {
			if p, ok := cleanPath(f[:k], true); ok {
				s.addFile(p)
			}
		}
	case eslintLine(t):
		s.add(KindError, t)
	case indented && testLogLine(t) && (s.inFail || strings.Contains(t, "_test.go:")):
		s.add(KindError, t) // go test failure message
	case s.output && klogError(t):
		s.add(KindError, t)
	case !s.output:
		s.inlineErrors(t)
	case s.logLine(t):
	case s.hotLine&hotError != 0 && podFailure(t):
		s.add(KindError, t)
	case s.hotLine&hotError != 0 && (strings.Contains(t, "Error: ") || strings.Contains(t, "error: ") || strings.Contains(t, "Exception: ")):
		s.add(KindError, t)
	case t[0] == '{' && t[len(t)-1] == '}' && !jsonErrorBody(t):
		// A JSON record with no level: its message is read as a line
		// of its own would be.
		if sig := signalsOf(t); !sig.shape && sig.vocab == 0 {
			s.genericError(t) // names no failure: not worth decoding
		} else if v := logErrorValue(t); v != t && v != "" {
			s.genericError(v)
		} else {
			s.genericError(t)
		}
	case pyWarning(t):
		// "clean.py:31: FutureWarning: Downcasting … is deprecated":
		// Python's warnings module, kept after the errors when the run
		// failed (a passing run's deprecation warnings say the same
		// every run).
		if s.run == runFailed {
			s.addWeak(t)
		}
	case indented && strings.HasPrefix(t, "- ") && len(t) > 2:
		// an item of an indented list in a tool's report (composer's
		// "    - x require php ^8.1 -> your php version … does not
		// satisfy that requirement."), not a diff's removed line
		s.genericError(t[2:])
	default:
		s.genericError(t)
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
	// the name ends at the first ':' that is not half of a "::" (Ruby's
	// and C++'s namespaces: "ActiveRecord::PendingMigrationError")
	cut := -1
	for i := 0; i < len(t) && i <= 80; i++ {
		if t[i] == ':' {
			if i+1 < len(t) && t[i+1] == ':' {
				i++
				continue
			}
			cut = i
			break
		}
	}
	name, rest, colon := t, "", cut >= 0
	if colon {
		name, rest = t[:cut], t[cut+1:]
	}
	if name == "" || len(name) > 80 {
		return false
	}
	if colon && rest != "" && rest[0] != ' ' {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(isAlnum(c) || c == '_' || c == '.' || c == '$' || c == ':' && i > 0 && i+1 < len(name) && (name[i+1] == ':' || name[i-1] == ':')) {
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
	// Before ": ", a class of an errors or exceptions module, whatever its
	// name ends with (celery.exceptions.SoftTimeLimitExceeded,
	// sqlalchemy.exc.NoResultFound), or one named for a failure
	// (DeadlineExceeded, ReadTimeout).
	last := name[strings.LastIndexByte(name, '.')+1:]
	return colon && rest != "" && last != "" && isUpper(last[0]) && exceptionName(name)
}

// raisedLine recognises the line that ends a Python traceback when its
// exception's name does not say it is one: "psycopg2.errors.UniqueViolation:
// duplicate key…", "StopIteration", "asyncio.CancelledError".
func raisedLine(t string) bool {
	name, rest, colon := strings.Cut(t, ": ")
	if !colon {
		name, rest = t, ""
	}
	if name == "" || len(name) > 100 || !isAlpha(name[0]) {
		return false
	}
	upper := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(isAlnum(c) || c == '_' || c == '.') {
			return false
		}
		upper = upper || isUpper(c)
	}
	return upper && (colon || rest == "")
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
// linters), "x.py:12: error: …" (mypy), "x.ts:12:5 - error TS2322: …" and
// "x.ts(12,5): error TS2322: …" (tsc).
func compilerLine(t string) bool {
	t = strings.TrimPrefix(t, "vet: ")
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
	line, j := digitsAt(t, i+1)
	if !line {
		return false
	}
	col := false
	if j < len(t) && t[j] == ':' {
		if ok, k := digitsAt(t, j+1); ok {
			col, j = true, k
		}
	}
	rest := t[j:]
	switch {
	case strings.HasPrefix(rest, " - error"):
		return true
	case strings.HasPrefix(rest, ": error"):
		return true
	case col && strings.HasPrefix(rest, ": ") && len(rest) > 2:
		return true
	}
	return false
}

// sqlServerMsg reports whether line is the header SQL Server prints above
// an error's message: "Msg 5074, Level 16, State 1, Server SQL01, Line 9",
// a level of 11 or more (10 and below are notices).
func sqlServerMsg(line string) bool {
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), "Msg ")
	if !ok {
		return false
	}
	_, rest, ok = strings.Cut(rest, ", Level ")
	if !ok {
		return false
	}
	ok, j := digitsAt(rest, 0)
	return ok && j <= 2 && atoiSmall(rest[:j]) >= 11 && strings.HasPrefix(rest[j:], ", State ")
}

// pyWarning recognises the line Python's warnings module prints:
// "path/x.py:31: FutureWarning: message" (a warning class's name after the
// file and line, no column).
func pyWarning(t string) bool {
	k := strings.Index(t, ".py:")
	if k <= 0 {
		return false
	}
	ok, j := digitsAt(t, k+4)
	if !ok || !strings.HasPrefix(t[j:], ": ") {
		return false
	}
	name, _, found := strings.Cut(t[j+2:], ": ")
	return found && levelWord(name) == lvWarn && len(name) > len("Warning")
}

// digitsAt reports whether t[i:] starts with a digit, and where the digits
// end.
func digitsAt(t string, i int) (bool, int) {
	j := i
	for j < len(t) && isDigit(t[j]) {
		j++
	}
	return j > i, j
}

// eslintLine recognises ESLint's "  12:5  error  'x' is not defined  no-undef".
func eslintLine(t string) bool {
	ok, j := digitsAt(t, 0)
	if !ok || j >= len(t) || t[j] != ':' {
		return false
	}
	ok, j = digitsAt(t, j+1)
	return ok && strings.HasPrefix(strings.TrimLeft(t[j:], " "), "error ")
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

// logErrorValue shortens a JSON log line to its message and error fields;
// other lines are returned as they are.
func logErrorValue(t string) string {
	if t[0] != '{' {
		var parts []string
		for _, k := range []string{"msg=", "message=", "error=", "err="} {
			if v := logfmtPrinted(t, k); v != "" {
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
	// Only the message fields are read, as printed: a quote or a newline
	// inside them stays escaped (\"orders_ref_key\"), so the message is
	// the text the log holds, which is what a reader searches for. A
	// field of another type (an error given as an object) is left out,
	// not a reason to give up.
	var rec logFields
	if err := json.Unmarshal([]byte(t), &rec); err != nil {
		return t
	}
	var parts []string
	if bytes.Contains(rec.Exception, []byte(`\n`)) {
		// An exception of many lines is a traceback: its frame is read
		// from it (see stackField), not kept as the message.
		rec.Exception = nil
	}
	if len(rec.Msg) == 0 && len(rec.Message) == 0 {
		// structlog names its message "event", Serilog's compact JSON
		// "@m", Terraform's machine-readable output and Logstash
		// "@message"; an error tracker's item (Sentry, Rollbar) its
		// "title"
		rec.Msg = rec.Event
		if len(rec.Msg) == 0 {
			rec.Msg = rec.SerilogM
		}
		if len(rec.Msg) == 0 {
			rec.Msg = rec.AtMessage
		}
		if len(rec.Msg) == 0 {
			rec.Msg = rec.SerilogMT
		}
		if len(rec.Msg) == 0 && len(rec.Error) == 0 && len(rec.Err) == 0 {
			rec.Msg = rec.Title
		}
	}
	for _, raw := range []json.RawMessage{rec.Msg, rec.Message, rec.Error, rec.Err, rec.Exception, rec.Attr} {
		if len(raw) > 2 && raw[0] == '"' {
			parts = append(parts, string(raw[1:len(raw)-1]))
		} else if len(raw) > 2 && raw[0] == '{' {
			// an error given as an object (pino's err, MongoDB's attr):
			// its message fields
			var in logFields
			if json.Unmarshal(raw, &in) == nil {
				for _, v := range []json.RawMessage{in.Message, in.Msg, in.Errmsg, in.Reason, in.Error} {
					if len(v) > 2 && v[0] == '"' {
						parts = append(parts, string(v[1:len(v)-1]))
					}
				}
			}
		}
	}
	if x := rec.SerilogX; len(x) > 2 && x[0] == '"' {
		// Serilog's "@x": "Microsoft.Data.SqlClient.SqlException
		// (0x80131904): Client with IP address … is not allowed …\n
		// at …": its first line, as printed
		first := string(x[1 : len(x)-1])
		if k := strings.Index(first, `\r\n`); k >= 0 {
			first = first[:k]
		}
		if k := strings.Index(first, `\n`); k >= 0 {
			first = first[:k]
		}
		if len(rec.Message) == 0 && len(rec.SerilogM) == 0 && len(rec.AtMessage) == 0 && len(parts) > 0 && bytes.Equal(rec.Msg, rec.SerilogMT) {
			// a template's placeholders ('{database}') say less than
			// the exception: it alone is the message
			parts = parts[1:]
		}
		parts = append(parts, first)
	}
	if len(parts) == 0 {
		return t
	}
	return strings.Join(parts, ": ")
}

// logFields are the message fields of a JSON log record, and of an error
// given as an object inside one.
type logFields struct {
	Msg       json.RawMessage `json:"msg"`
	Message   json.RawMessage `json:"message"`
	Error     json.RawMessage `json:"error"`
	Err       json.RawMessage `json:"err"`
	Exception json.RawMessage `json:"exception"`
	Attr      json.RawMessage `json:"attr"` // MongoDB's attributes
	Errmsg    json.RawMessage `json:"errmsg"`
	Reason    json.RawMessage `json:"reason"`
	Event     json.RawMessage `json:"event"`
	SerilogM  json.RawMessage `json:"@m"`
	SerilogMT json.RawMessage `json:"@mt"` // the message template, when no rendered message
	SerilogX  json.RawMessage `json:"@x"`  // the exception, its type and message on the first line
	AtMessage json.RawMessage `json:"@message"`
	Title     json.RawMessage `json:"title"`
}

// logfmtValue returns the value of key (given with its '=') in a logfmt
// line, unquoted.
func logfmtValue(t, key string) string { return logfmtField(t, key, false) }

// logfmtPrinted is logfmtValue with a quoted value's escapes kept as
// printed (msg="Post \"https://…\": …"), as a JSON record's message is
// kept: a search for the printed line must find it.
func logfmtPrinted(t, key string) string { return logfmtField(t, key, true) }

// logfmtField returns the value of key in a logfmt line, unquoted, or as
// printed between its quotes when printed is set.
func logfmtField(t, key string, printed bool) string {
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
				if printed {
					return uq[1 : len(uq)-1]
				}
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
		if i := strings.Index(t, f); i > 0 && (t[i-1] == ' ' || t[i-1] == '\t' || t[i-1] == '"' && strings.Contains(t[:i], `"reason":`)) {
			// a column of kubectl's, or a status's "reason": "OOMKilled"
			j := i + len(f)
			if j == len(t) || t[j] == ' ' || t[j] == '\t' || t[j] == '"' && t[i-1] == '"' {
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

// crashMessage reports whether the line before a Go traceback's first
// header is the failure it printed: not a frame, a call, a prompt or a
// test's banner, and either a message shaped like a crash handler's
// ("read tcp …: i/o timeout") or one that names a failure.
func crashMessage(p string) bool {
	if p == "" || strings.Contains(p, " +0x") || strings.HasSuffix(p, ")") || strings.HasPrefix(p, "/") {
		return false
	}
	for _, pre := range []string{"goroutine ", "--- ", "=== ", "[signal", "$ ", "created by "} {
		if strings.HasPrefix(p, pre) {
			return false
		}
	}
	if isLower(p[0]) && strings.Contains(p, ": ") {
		return true
	}
	sig := signalsOf(p)
	return sig.shape || sig.vocab > 0
}

// pgDetail reports a PostgreSQL DETAIL line, alone or after a server log's
// prefix ("2026-04-02 10:00:00.123 UTC [61] DETAIL:  …"). The caller
// keeps it only after an error line (ERROR, FATAL, a driver's exception):
// after a NOTICE or a LOG it details something routine.
func pgDetail(t string) bool {
	k := strings.Index(t, "DETAIL:  ")
	if k == 0 || k > 0 && t[k-1] == ' ' && strings.HasSuffix(t[:k-1], "]") {
		return true
	}
	// its client tools: "pg_dump: detail: server version: 16.1; pg_dump
	// version: 14.10"
	k = strings.Index(t, ": detail: ")
	return k > 0 && k <= 24 && !strings.ContainsAny(t[:k], " :")
}

// psMessage reports whether a trimmed line is the message of PowerShell's
// error view: "| " and the message, after the line of carets under the
// failing statement ("     |   ~~~~~~~").
func psMessage(t, prev string) bool {
	if !strings.HasPrefix(t, "| ") || len(t) < 8 {
		return false
	}
	p, ok := strings.CutPrefix(prev, "|")
	p = strings.TrimSpace(p)
	return ok && p != "" && strings.Trim(p, "~") == ""
}

// curlError reports curl's report of a failed transfer, its exit code in
// parentheses: "curl: (60) SSL: no alternative certificate subject name …".
func curlError(t string) bool {
	r, ok := strings.CutPrefix(t, "curl: (")
	if !ok {
		return false
	}
	k := 0
	for k < len(r) && isDigit(r[k]) {
		k++
	}
	return k > 0 && k < len(r) && r[k] == ')'
}

// rubyError reports Ruby's report of an uncaught exception, the class
// last in parentheses: "…/runtime.rb:304:in `check!': You have already
// activated rack 3.0.8 (Gem::LoadError)".
func rubyError(t string) bool {
	if !strings.HasSuffix(t, ")") || !strings.Contains(t, ":in `") && !strings.Contains(t, ":in '") {
		return false
	}
	open := strings.LastIndexByte(t, '(')
	if open < 0 {
		return false
	}
	class := t[open+1 : len(t)-1]
	if class == "" || !isUpper(class[0]) || strings.ContainsAny(class, " \t") {
		return false
	}
	return strings.HasSuffix(class, "Error") || strings.HasSuffix(class, "Exception") || strings.Contains(class, "::")
}

// tapFailure reports a failed test of the Test Anything Protocol
// (node-tap, Perl's prove, bats): "not ok 3 - rounds half up".
func tapFailure(t string) bool {
	r, ok := strings.CutPrefix(t, "not ok ")
	return ok && r != "" && isDigit(r[0]) && !strings.Contains(r, "# SKIP") && !strings.Contains(r, "# TODO")
}

// failMark reports a test runner's line for a failed test, marked with a
// cross (Jest, Mocha, Vitest, RSpec's documentation format): "✕ rounds
// half up (5 ms)".
func failMark(t string) bool {
	for _, m := range []string{"✗ ", "✕ ", "✘ ", "× ", "❌ "} {
		if r, ok := strings.CutPrefix(t, m); ok && len(strings.Fields(r)) >= 2 {
			return true
		}
	}
	return false
}

// stackKeys are the fields a structured log record carries a stack in.
var stackKeys = []string{"stack", "stacktrace", "stack_trace", "stackTrace", "traceback", "exc_info", "exception"}

// stackField returns the stack a log record carries, decoded: a JSON
// record's field or a logfmt line's quoted value, with its escaped
// newlines turned back into lines. It returns "" when there is none.
func stackField(t string) string {
	// a stack key, not a trace_id
	if !strings.Contains(t, "stack") && !strings.Contains(t, "traceback") && !strings.Contains(t, "exc") {
		return ""
	}
	if t[0] != '{' {
		for _, k := range stackKeys {
			if v := logfmtValue(t, k+"="); strings.Contains(v, "\n") {
				return v
			}
		}
		return ""
	}
	if len(t) > 1<<16 {
		return ""
	}
	var rec map[string]any
	if err := json.Unmarshal([]byte(t), &rec); err != nil {
		return ""
	}
	for _, k := range stackKeys {
		switch v := rec[k].(type) {
		case string:
			if strings.Contains(v, "\n") {
				return v
			}
		case []any: // a stack given as a list of frames
			var b strings.Builder
			for _, f := range v {
				if fs, ok := f.(string); ok {
					b.WriteString(fs)
					b.WriteByte('\n')
				}
			}
			if b.Len() > 0 {
				return b.String()
			}
		}
	}
	return ""
}

// ownFrame returns the frame of a stack trace that says where the
// program's own code failed: the first "at …" frame of a JavaScript, Java
// or C# stack that is not the runtime's or a library's; the first Go frame
// outside the Go distribution, with its function; the deepest Python frame
// outside the standard library and installed packages; the first Rust
// frame outside the standard library. It returns "" when the stack holds
// none of them.
func ownFrame(stack string) string {
	var frame, goFunc, rustFn string
	var callers, py []string
	// take records a frame of the program's: the first is kept whole,
	// the next by name, as its callers.
	take := func(f, name string) {
		if frame == "" {
			frame = f
		} else if callerName(name) && len(callers) < maxCallers && !slices.Contains(callers, name) {
			callers = append(callers, name)
		}
	}
	for _, line := range strings.Split(stack, "\n") {
		t := strings.TrimSpace(line)
		switch {
		case t == "":
		case strings.HasPrefix(t, "at "):
			if rustFn != "" {
				take(rustFn+" "+t, rustFn) // the location of a Rust frame
				rustFn = ""
			} else if !atLibraryFrame(t) {
				take(t, atFrameName(t))
			}
		case strings.HasPrefix(t, `File "`):
			if !libraryFrame(t) {
				py = append(py, t)
			}
		case goFuncLine(t):
			goFunc = t
		default:
			if f, ok := goFrame(t); ok && goFunc != "" {
				if !goRuntimeFrame(f) {
					take(goFuncName(goFunc)+" at "+f, goShortName(goFunc))
				}
				goFunc = ""
			} else if f, ok := rustFrame(t); ok {
				if rustFn != "" {
					take(rustFn, rustFn)
				}
				rustFn = ""
				if !rustLibraryFrame(f) {
					rustFn = f
				}
			}
		}
	}
	if rustFn != "" {
		take(rustFn, rustFn)
	}
	// A Python stack lists its frames outermost first: the deepest of
	// the program's is kept, the ones before it are its callers.
	for i := len(py) - 1; i >= 0; i-- {
		take(py[i], pyFrameName(py[i]))
	}
	return withCallers(frame, callers)
}

// callerName reports whether a function is worth naming as a caller: not
// the program's entry point, which every stack ends in.
func callerName(name string) bool {
	return name != "" && name != "main" && !strings.HasSuffix(name, ".main") && !strings.HasSuffix(name, "::main")
}

// otherFrame reads a stack frame of PHP ("#1 /app/src/Api.php(17):
// Refund->settle(4821)"), Elixir ("(billing 0.4.0) lib/refund.ex:42:
// Billing.Refund.settle/1"), Dart ("#0      Refund.settle
// (package:billing/refund.dart:42:7)"), Lua ("app.lua:42: in function
// 'settle'") or Ruby ("from app/models/refund.rb:12:in `block in
// settle_all'"). name is the frame's function ("" when it has none, at a
// script's top level); lib is true for a frame in the runtime or its
// libraries.
func otherFrame(t string) (frame, name string, lib, ok bool) {
	switch {
	case len(t) > 3 && t[0] == '#' && isDigit(t[1]):
		k := 2
		for k < len(t) && isDigit(t[k]) {
			k++
		}
		if k >= len(t) || t[k] != ' ' {
			return "", "", false, false
		}
		rest := strings.TrimSpace(t[k:])
		if rest == "{main}" {
			return t, "", true, true
		}
		if c := strings.Index(rest, "): "); c > 0 && strings.IndexByte(rest[:c], '(') > 0 {
			// PHP: path(line): function(args)
			fn := rest[c+3:]
			if p := strings.IndexByte(fn, '('); p > 0 {
				fn = fn[:p]
			}
			return t, fn, strings.Contains(rest[:c], "/vendor/"), true
		}
		if p := strings.Index(rest, " ("); p > 0 && strings.HasSuffix(rest, ")") && strings.Contains(rest[p:], ":") {
			// Dart: name (uri:line:col)
			uri := rest[p+2:]
			return t, rest[:p], strings.HasPrefix(uri, "dart:") || strings.Contains(uri, "/.pub-cache/"), true
		}
	case strings.HasPrefix(t, "(") && strings.Contains(t, ") ") && strings.Count(t, ": ") >= 1:
		// Elixir: (app version) path:line: Module.function/arity
		app, rest, _ := strings.Cut(t[1:], ") ")
		loc, fn, found := strings.Cut(rest, ": ")
		if !found || !strings.Contains(loc, ":") || !strings.Contains(fn, "/") || strings.ContainsAny(app, "()") {
			return "", "", false, false
		}
		appName, _, _ := strings.Cut(app, " ")
		switch appName {
		case "elixir", "stdlib", "kernel", "ex_unit", "iex", "mix", "logger", "erts":
			lib = true
		}
		return t, fn, lib, true
	case strings.Contains(t, ": in "):
		// Lua: path:line: in function 'name' | in main chunk | in ?
		loc, what, _ := strings.Cut(t, ": in ")
		if ok, end := digitsAt(loc, strings.LastIndexByte(loc, ':')+1); (!ok || end != len(loc) || strings.ContainsAny(loc, " \t")) && loc != "[C]" {
			return "", "", false, false
		}
		if q := strings.IndexAny(what, "'`"); q >= 0 && strings.HasPrefix(what, "function ") {
			name = strings.TrimRight(what[q+1:], "'")
		}
		return t, name, strings.HasPrefix(loc, "[C]"), true
	case strings.HasPrefix(t, "from ") && strings.Contains(t, ":in "):
		// Ruby: from path:line:in `name'
		loc, what, _ := strings.Cut(t[len("from "):], ":in ")
		if !strings.Contains(loc, ":") {
			return "", "", false, false
		}
		name = strings.Trim(what, "`'")
		name = strings.TrimPrefix(strings.TrimPrefix(name, "block in "), "rescue in ")
		if strings.HasPrefix(name, "<") {
			name = ""
		}
		return t, name, strings.Contains(loc, "/gems/") || strings.Contains(loc, "/ruby/"), true
	}
	return "", "", false, false
}

// pytestHeader returns the test a pytest failure or error section is about,
// from its header "____ test_refund_twice ____" or "____ ERROR at setup of
// test_x ____"; "" for any other line.
func pytestHeader(t string) string {
	if !strings.HasPrefix(t, "___") || !strings.HasSuffix(t, "___") {
		return ""
	}
	name := strings.TrimSpace(strings.Trim(t, "_"))
	name = strings.TrimPrefix(strings.TrimPrefix(name, "ERROR at setup of "), "ERROR at teardown of ")
	if name == "" || strings.ContainsAny(name, " \t") && !strings.Contains(name, "[") {
		return ""
	}
	// pytest collects test_* functions and Test* classes: a rule of
	// underscores around another word heads no failure.
	if !strings.Contains(strings.ToLower(name), "test") {
		return ""
	}
	return name
}

// pytestLocation recognises the line that ends a pytest failure section:
// where the test failed and the exception, "tests/test_refund.py:12:
// AssertionError".
func pytestLocation(t string) bool {
	i := strings.Index(t, ".py:")
	if i <= 0 || strings.ContainsAny(t[:i], " \t") {
		return false
	}
	ok, j := digitsAt(t, i+4)
	if !ok || !strings.HasPrefix(t[j:], ": ") {
		return false
	}
	return looksException(strings.TrimSpace(t[j+2:]))
}

// maxCallers is how many of the program's functions that called the
// failing frame are named with it.
const maxCallers = 3

// stackFrame records a frame of the program's own code in the stack being
// read: the first is the frame kept (with its location), the next ones
// only by name, as its callers.
func (s *scanner) stackFrame(frame, name string) {
	if s.stackOwn == "" {
		s.stackOwn = frame
		return
	}
	if callerName(name) && len(s.callers) < maxCallers && !slices.Contains(s.callers, name) {
		s.callers = append(s.callers, name)
	}
}

// endStack adds the stack's kept frame with its callers.
func (s *scanner) endStack() {
	if s.stackOwn == "" {
		return
	}
	s.add(KindError, withCallers(s.stackOwn, s.callers))
	s.stackOwn, s.callers = "", s.callers[:0]
	// The frame belongs to the stack's lines, not to the line that ended
	// it: that line is no error because of it.
	s.lineItems = len(s.items)
}

// withCallers writes a frame with the functions that called it, nearest
// first: "at resolveTenant (src/tenancy.ts:31:22) ← handleOrder ← main".
func withCallers(frame string, callers []string) string {
	if len(callers) > maxCallers {
		callers = callers[:maxCallers]
	}
	if len(callers) == 0 {
		return frame
	}
	return frame + " ← " + strings.Join(callers, " ← ")
}

// atFrameName returns the function an "at" frame names: "at async
// processOrder (file.mjs:17:3)" → processOrder, "at com.acme.pay.Retry.
// backoffFor(Retry.java:57)" → Retry.backoffFor; "" for a frame with no
// name ("at /app/x.js:1:2", "at Object.<anonymous> (…)").
func atFrameName(t string) string {
	f := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "at "), "async "), "new ")
	end := strings.IndexAny(f, " (")
	if end <= 0 || strings.ContainsAny(f[:end], "/<:\\") {
		return ""
	}
	f = f[:end]
	if strings.Count(f, ".") > 1 {
		// a Java method under its package: the class and the method
		parts := strings.Split(f, ".")
		f = parts[len(parts)-2] + "." + parts[len(parts)-1]
	}
	return f
}

// goShortName returns a Go frame's function without its package path:
// "github.com/acme/x/ledger.(*Book).settle(0x0)" → "ledger.(*Book).settle".
func goShortName(line string) string {
	f := goFuncName(line)
	f = strings.TrimSuffix(f, "(…)")
	f = strings.TrimSuffix(f, "()")
	return f[strings.LastIndexByte(f, '/')+1:]
}

// pyFrameName returns the function of a Python frame line, "" at module
// level: `File "x.py", line 3, in settle` → settle.
func pyFrameName(t string) string {
	i := strings.LastIndex(t, ", in ")
	if i < 0 || strings.HasSuffix(t, "<module>") {
		return ""
	}
	return t[i+5:]
}

// elixirError recognises Elixir's uncaught error: "** (RuntimeError)
// refund window closed", "** (exit) shutdown".
func elixirError(t string) bool {
	rest, ok := strings.CutPrefix(t, "** (")
	if !ok {
		return false
	}
	k := strings.IndexByte(rest, ')')
	return k > 0 && !strings.ContainsAny(rest[:k], " \t")
}

// interpreterError recognises an interpreter's report of where a script
// failed, "lua: app.lua:12: attempt to index a nil value": a lower-case
// program name, a script with its extension and line, then the message.
func interpreterError(t string) bool {
	p, rest, ok := strings.Cut(t, ": ")
	if !ok || p == "" || len(p) > 12 || !allLower(p) {
		return false
	}
	switch p {
	case "warning", "note", "info", "debug", "hint", "help":
		return false // a level, not a program
	}
	file, msg, ok := strings.Cut(rest, ": ")
	if !ok || msg == "" {
		return false
	}
	i := strings.LastIndexByte(file, ':')
	if i <= 0 || !allDigits(file[i+1:]) || file[i+1:] == "" {
		return false
	}
	dot := strings.LastIndexByte(file[:i], '.')
	return dot > 0 && dot < i-1 && !strings.ContainsAny(file[:i], " \t")
}

// sourcedRecord reads a JSON log record behind a log multiplexer's prefix
// ("api.1.kq3v9@node-2 | {"level":50,…}": the line's s.src), as errors
// reads one that opens its line, and reports whether it was one with a
// level.
func (s *scanner) sourcedRecord() bool {
	return strings.HasPrefix(s.src, "{") && strings.HasSuffix(s.src, "}") && s.logLine(s.src)
}
