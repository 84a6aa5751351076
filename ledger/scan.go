package ledger

import (
	"math/bits"
	"slices"
	"strings"

	"github.com/condense-dev/condense/internal/needles"
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
	// errLine is the line of output being scanned, trimmed, while it is
	// scanned: an error read from it is kept as printed (see add).
	errLine string
	// errFrom maps an error as a reader put it to the item of the line it
	// was read from: the same error on the next line is that item again.
	errFrom map[string]int
	// errShapes holds the shapes (digits masked) of the errors kept from
	// the text, read when the errors held past half the cap first give way
	// (see tailEvictable); textFrom is where the text's items start.
	errShapes map[string]bool
	textFrom  int
	// errSearch: the command searched logs for errors ("grep -i error",
	// "journalctl -p err"): each line it printed is a hit.
	errSearch bool
	tail      []Item // the latest errors past the first half of the cap

	inTrace    bool     // inside a Python traceback
	traceFrame string   // its deepest `File "…", line N` so far
	traceOwn   string   // its deepest frame outside the standard library and installed packages
	traceOwn2  string   // the project's frame before traceOwn (its caller), if any
	goFunc     string   // after a Go panic, the latest function line, whose location follows
	rustFrames bool     // in a Rust "stack backtrace:", waiting for its first frame of the program
	rustFn     string   // that frame, whose "at file:line" may follow
	atFirst    string   // the first "at" frame, a runtime's, kept if no frame of the program follows
	traceLoose bool     // a Python traceback begun at a bare frame line, after no error or warning
	atLoose    bool     // those frames follow no error line: a runtime's frame alone is not kept
	stackOwn   string   // the program's first frame of the stack being read, added when the stack ends
	callers    []string // the program's functions that called it (see stackFrame)
	inFail     bool     // after a Go "--- FAIL:" line
	// diffLeft counts the lines still read for the diff of a failed
	// comparison after its legend, diffKept the changed lines kept of it
	// (-1: the next line is the one kept, after "Differing items:").
	diffLeft, diffKept int
	// assertNear counts the lines still near an assertion's line, where
	// a weak label ("left:", "got:") gives a side of its comparison.
	assertNear  int
	jestCase    bool     // after a Jest "● suite › test" failure header
	otherStack  bool     // in a PHP, Elixir, Dart, Lua or Ruby stack (otherFrame)
	stackHeader bool     // the previous line was "Stack trace:" or "stack traceback:"
	profRows    int      // rows of a profiler's table still to keep (see profile); -1 past them
	lines       int      // the non-empty lines of the output, counted with shapes
	called      bool     // the output is a tool call's whose call is known
	callItems   int      // the items the call itself gave (its command, its files), first in items
	unsure      []string // lines naming a failure in an output of unknown status (see endUnsure)
	pyCase      string   // the test a pytest failure section is about ("___ test_x ___"), until its first "E" line
	goFrame     bool     // after a Go panic, waiting for its first user frame
	atFrame     int      // after a JS/Java error, lines left to find its first "at" frame
	rustPanic   string   // a Rust panic line whose message is on the next line
	// openErr is 1 + the index in items of an error line that ends with
	// ':' ("Error: Received unexpected error:", a bare "ERROR:"), whose
	// message the lines indented under it carry; openIndent is its
	// indentation and openLines the lines joined to it so far.
	openErr, openIndent, openLines int
	// fence is the kind of code block a message's line is in: 0 none,
	// fenceShell (bash, console, powershell…), fencePlain (no language)
	// or fenceCode (any other language).
	fence uint8
	// fenceIntro is set when the plain block a message's line is in
	// follows a line that ends with a colon ("… when deploying it:").
	fenceIntro bool
	// lineStart is where the current line starts in whole.
	lineStart int
	// src is the current line without a log multiplexer's prefix, trimmed,
	// when it has one (logSource); "" otherwise.
	src string

	run runState // how the command whose output this is ended
	// failedPaste marks output a person pasted to show a failure: it is
	// read as a failed command's (see pastedFailure).
	failedPaste bool
	weak        []Item // error lines kept only if room is left under the cap

	table tableState // the table the current line is in, if any

	hot     map[int]uint8 // line start → the hot* marks of the line
	hotLine uint8         // the marks of the current line
	// aligned holds the header of the table aligned with spaces the
	// text is in, if any (see alignedLine).
	aligned []string
	// figureProbe makes addCappedIn count the figures of a line (and note
	// the first in probeNum) instead of adding them (see measurements).
	figureProbe bool
	// lowerBetter makes addCappedIn keep a group's lowest figures: a
	// metric of which less is better (a loss).
	lowerBetter bool
	// deniedOnly counts the weak errors of a text that only deny a
	// state ("… is not writable"): they do not stand for what a failed
	// command said last.
	deniedOnly int
	// fromUser: the text scanned is a user's message.
	fromUser bool
	// agentProse: the prose read is the agent's own (assistantProse).
	agentProse bool
	// docRead is set while a read document's prose is read for its
	// decisions: its rules are read apart (docRules).
	docRead bool
	// prompts are the prompts of an interactive program's session the
	// output holds (replPrompts).
	prompts []string
	// said is set while the figures of a message's prose are read
	// (saidFigures): an amount of money is a figure there.
	said bool
	// unwrap is set while prose that people wrap at a width is read
	// (authoredDecisions): a sentence wrapped over lines is read whole.
	unwrap bool
	// lineIndent is the indentation of the line errors reads, and
	// traceIndent that of the header of the Python traceback in progress.
	lineIndent, traceIndent int
	probeNum                string
	probeGroup              string // the group the figure in probeNum counts in (see addCappedIn)
	// readsFile marks the output of a call that only reads files (see
	// readsFile): its JSON is a file's data, not people's records.
	readsFile bool
	// people marks an output that holds records people wrote (see
	// personRecords), whose prose keys are read for decisions.
	people     bool
	probeCount int
	probeMax   float64
	// mgroups indexes the measurements added so far by label and unit
	// (see addCapped).
	mgroups map[string][]int
	// mnum holds the number each of them is compared by in its group: a
	// figure's, or a line's largest.
	mnum map[groupItem]float64
	// rowPicks holds the rows of the output's tables of figures to keep
	// whole (see pickedRow), worked out when first needed; wide lets the
	// measurement being added be as long as a decision.
	rowPicks map[string]bool
	wide     bool
	// figureLine is the line of output whose figures are being read, as
	// printed and trimmed, when a measurement found on it is to be kept
	// as that whole line (see wholeFigureLine); "" otherwise.
	figureLine string
	// quote is set in a plain code block of a tool's output opened under
	// a line ending with ':' (an issue's "From the logs:"): what a person
	// quoted there is the failure they saw, whatever the command's status.
	quote bool
	// pastedAny is set once a message's line was read as pasted output:
	// what it pasted is a program's output, whatever the message ran.
	pastedAny bool
	loud      bool   // the current line is a log line at warning level or above
	odd       bool   // the current line is shaped unlike the rest of a uniform output
	prev      string // the previous non-blank line of the text, trimmed
	// whole is the output being scanned and shapes its lines' shapes
	// counted, built when a line first needs them (see listed).
	whole  string
	shapes map[uint64]int
	// members counts the lines of whole that are a JSON object's member,
	// by key, built with shapes.
	members map[string]int
	// bad counts the lines of whole in a bad state (badStatus), by
	// shape, built when a row first needs them (see badRow).
	bad map[uint64]int
	// lineItems is the number of items before the current line's.
	lineItems int
	// paste is where a message's lines stand against pasted output:
	// after its intro (a line ending with ':'), or among its lines.
	paste uint8
	// lineCommand is the length of the longest command added from the
	// current line, 0 for none.
	lineCommand int
	// goHeader: a Go traceback's goroutine header was seen in this text.
	goHeader bool
	cell     bool // the current line is a table's row holding a value of its own
	// prevErr: the previous line of the text yielded an error item.
	prevErr bool
	// hcl is where the scanner is in a Terraform-style diagnostic (see
	// hclDetail).
	hcl uint8
	// failReason is set by a status block's "Reason: Error" (kubectl
	// describe's Last State, a job's condition): the "Message:" after it
	// says what failed.
	failReason bool
	// annotations: gh run view's ANNOTATIONS section, whose "X …" lines
	// are the failures of the run.
	annotations bool
	// wentWrong: inside Gradle's "* What went wrong:" block.
	wentWrong bool
	// warnLines counts the lines of the text that may name a warning
	// level: the one warning among a log's routine lines is kept.
	warnLines int
	// infoFails counts the info lines that named a failure (logLine).
	infoFails int
	bench     string // the name of the latest benchmark result line (benchResult)
}

// Marks of lines worth the slower checks, found by markLines.
const (
	hotError  uint8 = 1 << iota // may be a log error, pod failure or "Error: " line
	hotCounts                   // may be a test count summary
	hotURL                      // may hold a URL
	hotLevel                    // may name a warning level
	hotOdd                      // shaped unlike the rest of a uniform output (markOddLines)
	hotCell                     // a table's row holding a value of its own (markOddCells)
	hotBad                      // a table's row in a bad state among rows that are not (markOddCells)
	hotSpike                    // holds the figure that spikes in a series of a log (markSpikes)
)

// hotNeedles are the substrings that make a line hot: every slower check
// needs one of them, so a text is searched for all of them in one pass
// (needles.Set) instead of every line for each.
var hotNeedles = []struct {
	s    string
	mark uint8
}{
	{"rror", hotError}, {"RROR", hotError}, {"atal", hotError}, {"ATAL", hotError},
	{"RITICAL", hotError}, {"BackOff", hotError}, {"ErrImage", hotError}, {"Killed", hotError},
	{"Evicted", hotError}, {"Unhealthy", hotError}, {"Failed", hotError}, {"level", hotError},
	{"xception", hotError}, {"InvalidImage", hotError}, {" passed", hotCounts}, {" failed", hotCounts}, {"://", hotURL},
	{"WARN", hotLevel}, {"warn", hotLevel}, {"Warn", hotLevel},
}

var hotSet, hotMarks = func() (*needles.Set, []uint8) {
	var ns []string
	var marks []uint8
	for _, n := range hotNeedles {
		ns = append(ns, n.s)
		marks = append(marks, n.mark)
	}
	return needles.New(ns...), marks
}()

// markLines returns the marks of the lines of text, by line start.
func markLines(text string, m map[int]uint8) map[int]uint8 {
	if m == nil {
		m = make(map[int]uint8)
	} else {
		clear(m)
	}
	hotSet.Lines(text, func(start int, found uint64) {
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
	if k == KindCommand {
		s.lineCommand = max(s.lineCommand, len(v))
	}
	if k == KindError && levelOnly(v) {
		return nil // a setting or a cell: "LOG_LEVEL:    error", psql's " error"
	}
	max := s.e.maxOf(k)
	if max > 0 && s.counts[k] >= max && k != KindError && k != KindMeasurement {
		return nil
	}
	if k == KindMeasurement && s.figureLine != "" {
		// the figure with the line it was printed on, as printed
		v = s.figureLine
		defer func(w bool) { s.wide = w }(s.wide)
		s.wide = true
	}
	if k == KindMeasurement && max > 0 && s.counts[k] >= max {
		return s.replaceSmaller(v)
	}
	if k == KindError && s.errLine != "" && v != s.errLine && len(s.errLine) <= s.e.maxValueLen() && readFrom(v, s.errLine) {
		// The error as printed, on its line: a search for the line, or
		// for any part of it, finds it. The same error read again from
		// another line (a log's repeats, their times apart) is the item
		// kept for the first.
		if i, ok := s.errFrom[v]; ok && i < len(s.items) {
			return &s.items[i]
		}
		defer func(w bool) { s.wide = w }(s.wide)
		s.wide = true
		n := len(s.items)
		p := s.addLine(k, s.errLine)
		if p != nil && len(s.items) > n {
			if s.errFrom == nil {
				s.errFrom = make(map[string]int)
			}
			s.errFrom[v] = n
		}
		return p
	}
	if k == KindCommand && len(v) > s.e.capOf(k) && !s.wide {
		// a long command line keeps its program and its last arguments,
		// where what this run does differently is: "…/bin/java -Xms4g …
		// -jar quote-engine.jar --server.port=8080 --quote.cache.mode=…"
		v = headAndTail(strings.ToValidUTF8(v, "?"), s.e.capOf(k))
	}
	if k == KindError && len(v) > s.e.capOf(k) {
		// made valid first, so that clean does not grow the value past
		// its cap and cut off the tail shortenError keeps
		v = shortenError(strings.ToValidUTF8(v, "?"), s.e.capOf(k))
	}
	if s.wide {
		v = cleanGaps(v, s.e.capOf(KindDecision), s.e.capOf(KindDecision))
	} else if (k == KindDecision || k == KindConstraint) && strings.IndexByte(v, '\n') >= 0 {
		v = cleanWrapped(v, s.e.capOf(k))
	} else {
		v = clean(v, s.e.capOf(k))
	}
	if v == "" {
		return nil
	}
	it := Item{Kind: k, Value: v, Source: s.index, Loud: s.loud, Odd: s.odd}
	key := it.Key()
	if i, ok := s.seen[key]; ok {
		// A repeat does not count against the cap.
		s.items[i].Loud = s.items[i].Loud || s.loud
		s.items[i].Odd = s.items[i].Odd || s.odd
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
			i := s.tailEvictable()
			s.tail = slices.Delete(s.tail, i, i+1)
		}
		return nil
	}
	s.keep(it, key)
	return &s.items[len(s.items)-1]
}

// searchesErrors reports whether the command whose output is scanned
// searched logs for errors: a search tool (grep, rg, journalctl,
// papertrail, a cloud's log reader) asked for errors ("grep -i error",
// "journalctl -p err", "'error OR fatal OR exception'").
func (s *scanner) searchesErrors() bool {
	for i := range s.items {
		if s.items[i].Kind != KindCommand {
			continue
		}
		c := strings.ToLower(s.items[i].Value)
		if !hasAny(c, "grep", "rg ", "journalctl", "papertrail", "logcli", "logging read", "filter-log-events", "findstr", "select-string", "stern ") {
			return false
		}
		return hasAny(c, "error", "fatal", "exception", "panic", "crit", " -p err", "--priority=err", "-p 3")
	}
	return false
}

// hasAny reports whether s holds one of subs.
func hasAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// logStamped reports whether line t opens with a log's time stamp: a
// date or a time ("2026-04-11T08:11:56Z", "08:11:56", "[2026-04-11 …")
// or a syslog month ("Apr 11 08:11:56").
func logStamped(t string) bool {
	t = strings.TrimLeft(t, "[")
	if len(t) < 8 {
		return false
	}
	if isDigit(t[0]) && isDigit(t[1]) && (t[2] == ':' || t[2] == '-' || t[2] == '/' || isDigit(t[2]) && isDigit(t[3]) && (t[4] == '-' || t[4] == '/')) {
		return true
	}
	switch t[:4] {
	case "Jan ", "Feb ", "Mar ", "Apr ", "May ", "Jun ", "Jul ", "Aug ", "Sep ", "Oct ", "Nov ", "Dec ":
		return isDigit(t[4]) || t[4] == ' '
	}
	return false
}

// tailEvictable returns which of the errors held past half the cap (the tail)
// gives way to a newer one: the oldest whose shape (its digits masked) is
// held or kept twice or more, else the oldest. The one unlike error among
// a log's repeats (the GOAWAY among a hundred "connection reset by peer")
// stays; what repeats is one thing said many times.
func (s *scanner) tailEvictable() int {
	if s.errShapes == nil {
		// the shapes of the errors kept from the text so far, read once
		s.errShapes = make(map[string]bool)
		for _, it := range s.items[min(s.textFrom, len(s.items)):] {
			if it.Kind == KindError {
				s.errShapes[maskDigitRuns(it.Value, false)] = true
			}
		}
	}
	for i, it := range s.tail[:len(s.tail)-1] {
		// a compiler's or a log's warning gives way before any error:
		// a build's one fatal error among a hundred warnings stays
		if warningOnly(it.Value) {
			return i
		}
	}
	count := make(map[string]int, len(s.tail))
	for _, it := range s.tail {
		count[maskDigitRuns(it.Value, false)]++
	}
	for i, it := range s.tail[:len(s.tail)-1] {
		sh := maskDigitRuns(it.Value, false)
		if count[sh] >= 2 || s.errShapes[sh] {
			return i
		}
	}
	return 0
}

// warningOnly reports whether an error line is a warning: a compiler's
// "file:12:7: warning: …", rustc's "warning[…]", a log line at warning
// level; not a line that names an error too.
func warningOnly(v string) bool {
	t := strings.TrimSpace(v)
	if t == "" {
		return false
	}
	if lv, _ := logLevel(t); lv == lvWarn {
		return true
	}
	k := strings.Index(t, "warning: ")
	if k < 0 {
		k = strings.Index(t, "warning[")
	}
	return k >= 0 && !strings.Contains(strings.ToLower(t[:k]), "error")
}

// addLine is add for a whole line: the line is not read as an error
// again.
func (s *scanner) addLine(k Kind, line string) *Item {
	defer func(l string) { s.errLine = l }(s.errLine)
	s.errLine = ""
	return s.add(k, line)
}

// readFrom reports whether error v was read from line alone: it is part
// of the line, or each of its parts joined by ": " is (a log record's
// message and its error field, "failed to renew lease: context deadline
// exceeded").
func readFrom(v, line string) bool {
	if strings.Contains(line, v) {
		return true
	}
	parts := strings.Split(v, ": ")
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if p = strings.Trim(p, "\"' "); p == "" || !strings.Contains(line, p) {
			return false
		}
	}
	return true
}

// addWeak records an error line that is kept only if the decisive ones
// leave room for it under the cap: such lines are added, in order, at the
// end of the text.
func (s *scanner) addWeak(v string) {
	max := s.e.maxPerKind()
	if max > 0 && len(s.weak) >= max {
		return
	}
	if len(v) > s.e.capOf(KindError) {
		// as add does: a long line's tail often names what failed
		v = shortenError(strings.ToValidUTF8(v, "?"), s.e.capOf(KindError))
	}
	if v = clean(v, s.e.capOf(KindError)); v != "" && !levelOnly(v) {
		s.weak = append(s.weak, Item{Kind: KindError, Value: v, Source: s.index})
	}
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
	if s.output {
		var exit *int
		text, exit = unwrapOutput(text)
		s.run = s.runOf(text, exit)
		if s.failedPaste {
			s.run = runFailed
		}
	}
	textItems := len(s.items)
	s.textFrom = textItems
	s.deniedOnly = 0
	s.whole, s.shapes, s.members, s.bad, s.lines, s.goHeader = text, nil, nil, nil, 0, false
	s.errSearch = s.output && !s.source && s.searchesErrors()
	s.people = s.output && !s.source && !s.readsFile && personRecords(text)
	s.hot = markLines(text, s.hot)
	s.warnLines, s.infoFails = 0, 0
	if s.output {
		for _, m := range s.hot {
			if m&hotLevel != 0 {
				s.warnLines++
			}
		}
	}
	if s.output {
		markOddLines(text, s.hot, !s.source)
	}
	if s.output && !s.source {
		markSpikes(text, s.hot)
		s.prompts = replPrompts(text)
	}
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		s.hotLine = s.hot[start]
		s.loud = s.output && s.hotLine&(hotError|hotLevel) != 0 && loudLine(text[start:end])
		s.odd = s.hotLine&(hotOdd|hotCell|hotBad|hotSpike) != 0
		s.cell = s.hotLine&(hotCell|hotBad) != 0
		s.lineStart = start
		s.line(text[start:end])
		if t := strings.TrimSpace(text[start:end]); t != "" {
			s.prev = t
		}
		start = end + 1
	}
	last := s.prev
	if !s.source {
		s.keepRecords(text, textItems)
	}
	if s.output && !s.source {
		for _, r := range oddRecords(text) {
			s.wide, s.odd = true, true
			s.add(KindID, r) // the record that stands out, its handles with it
			s.wide = false
		}
	}
	s.errLine, s.errFrom, s.errShapes, s.prompts = "", nil, nil, nil
	s.diffLeft, s.diffKept, s.assertNear = 0, 0, 0
	s.loud, s.odd, s.cell, s.prev, s.bench = false, false, false, "", ""
	s.paste, s.fence, s.quote = 0, 0, false
	s.whole, s.shapes, s.members, s.bad, s.rowPicks = "", nil, nil, nil, nil
	s.endUnsure()
	s.flush()
	if s.output && !s.source && s.run == runFailed && s.counts[KindError] <= s.deniedOnly {
		// A command that failed saying nothing any recogniser knows
		// (or only denying a state): its last line is most often what
		// it said about the failure.
		if v, ok := lastWords(text, last); ok {
			s.add(KindError, v)
		}
	}
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

// flush ends pending multi-line shapes at the end of a text: the stacks
// still open add their frames first, while the errors held past half the
// cap (the tail) and the weak lines wait, so that a frame is not lost to
// them.
func (s *scanner) flush() {
	s.endTable()
	if s.rustPanic != "" {
		s.add(KindError, s.rustPanic)
		s.rustPanic = ""
	}
	if s.inTrace {
		s.endTraceback()
	}
	s.endStack()
	if s.atFirst != "" {
		s.add(KindError, s.atFirst)
		s.atFirst = ""
	}
	if s.rustFn != "" {
		s.add(KindError, s.rustFn)
		s.rustFn = ""
	}
	for _, it := range s.tail {
		key := it.Key()
		if _, ok := s.seen[key]; !ok {
			s.keep(it, key)
		}
	}
	s.tail = s.tail[:0]
	max := s.e.maxPerKind()
	for _, it := range s.weak {
		if max > 0 && s.counts[KindError] >= max {
			break
		}
		key := it.Key()
		if _, ok := s.seen[key]; !ok {
			s.keep(it, key)
		}
	}
	s.weak = s.weak[:0]
	s.inTrace, s.traceFrame, s.traceOwn, s.traceOwn2, s.inFail, s.goFrame, s.atFrame, s.atLoose = false, "", "", "", false, false, 0, false
	s.goFunc, s.rustFrames, s.pyCase, s.profRows, s.traceLoose, s.jestCase = "", false, "", 0, false, false
	s.otherStack, s.stackHeader, s.hcl = false, false, hclNone
	s.callers = s.callers[:0]
	s.openErr = 0
}

// openError joins to an error line that ends with ':' the message printed
// under it: testify's "Error: Received unexpected error:" and the error on
// the next line, grpcurl's bare "ERROR:" and its indented Code and Message
// lines, Xcode's "The following build commands failed:" and the command.
// The first line after it is joined, and up to two more while they are
// indented deeper than it; a blank line, a frame or a line that is an
// error of its own ends the message.
func (s *scanner) openError(line, t string) {
	lead := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	indent := len(lead) + 3*strings.Count(lead, "\t") // a tab as four spaces
	newErr := -1
	for i := s.lineItems; i < len(s.items); i++ {
		if s.items[i].Kind == KindError {
			newErr = i
		}
	}
	if s.openErr > 0 {
		i := s.openErr - 1
		s.openErr = 0
		if newErr < 0 && i < len(s.items) && !frameLike(t) && (s.openLines == 0 || indent > s.openIndent) {
			s.extendError(i, t)
			if s.openLines++; s.openLines < 3 {
				s.openErr = i + 1
			}
		}
		return
	}
	if newErr >= 0 && strings.HasSuffix(t, ":") && strings.HasSuffix(s.items[newErr].Value, ":") {
		s.openErr, s.openIndent, s.openLines = newErr+1, indent, 0
	}
}

// frameLike reports whether t is a stack frame or a traceback's line
// rather than a message.
func frameLike(t string) bool {
	return strings.HasPrefix(t, "at ") || strings.HasPrefix(t, `File "`) || strings.HasPrefix(t, "from ") ||
		strings.HasPrefix(t, "#") || strings.HasPrefix(t, "goroutine ")
}

// setValue gives the item at i the value v, its key in seen with it.
func (s *scanner) setValue(i int, v string) {
	old := s.items[i].Key()
	s.items[i].Value = v
	if s.seen != nil {
		delete(s.seen, old)
		s.seen[s.items[i].Key()] = i
	}
}

// extendError appends more to the value of the error item at i, under the
// error's cap, unless the longer value is an item already.
func (s *scanner) extendError(i int, more string) {
	it := &s.items[i]
	v := it.Value + " " + more
	if c := s.e.capOf(KindError); len(v) > c {
		v = shortenError(strings.ToValidUTF8(v, "?"), c)
	}
	old := it.Key()
	grown := Item{Kind: it.Kind, Value: clean(v, s.e.capOf(KindError))}
	key := grown.Key()
	if _, ok := s.seen[key]; ok || grown.Value == "" {
		return
	}
	delete(s.seen, old)
	it.Value = grown.Value
	s.seen[key] = i
}

func (s *scanner) line(line string) {
	if s.lineItems < len(s.items) {
		// what the previous line yielded
		s.prevErr = slices.ContainsFunc(s.items[s.lineItems:], func(it Item) bool { return it.Kind == KindError })
	} else if s.prev != "" {
		s.prevErr = false
	}
	s.lineItems = len(s.items)
	s.lineCommand = 0
	t := strings.TrimSpace(line)
	s.errLine = ""
	if s.output && !s.source && s.paste == 0 && !jsonRecord(t) {
		s.errLine = undecorated(strings.TrimPrefix(t, "│ "))
	}
	s.src = ""
	if !s.source {
		if rest, ok := logSource(t); ok {
			s.src = strings.TrimSpace(rest)
		}
	}
	if t == "" {
		s.aligned = nil
		if s.profRows < 0 {
			s.profRows = 0 // the profile's table ended
		}
		if s.paste == pastedLines {
			s.paste = 0 // the end of what was pasted under its intro
		}
		s.openErr = 0
		s.endTable()
		if s.rustPanic != "" {
			s.add(KindError, s.rustPanic)
			s.rustPanic = ""
		}
		return
	}
	if len(s.prompts) > 0 {
		if c, ok := typedAtPrompt(t, s.prompts); ok {
			s.add(KindCommand, c) // typed into an interactive program
		}
	}
	if s.output {
		s.hclDetail(t)
		if s.failReason {
			if v, ok := strings.CutPrefix(t, "Message:"); ok && strings.TrimSpace(v) != "" {
				s.add(KindError, strings.TrimSpace(v))
			}
		}
		if t == "ANNOTATIONS" {
			s.annotations = true
		} else if msg, ok := strings.CutPrefix(t, "X "); ok && s.annotations && !strings.HasPrefix(msg, "Process completed with exit code") {
			s.add(KindError, msg)
		}
		if v, ok := valgrindError(s.prev, t); ok {
			s.add(KindError, v)
		}
		if levelCell(t) {
			s.add(KindError, t) // MySQL's SHOW WARNINGS: "| Warning | 1265 | Data truncated … |"
		}
		if s.run == runFailed && !s.source {
			s.assertion(t)
		}
		if s.run == runFailed && messageLabel(s.prev) && len(strings.Fields(t)) >= 3 {
			// "Message:" on a line of its own, then the message: an
			// APM's or a test runner's report of the failure
			s.add(KindError, t)
		}
		if s.run == runFailed && numberedFailure(t) {
			s.addWeak(t) // ExUnit's "1) test caps the discount (Shop.PricingTest)"
		}
		// Gradle's "* What went wrong:" block: its "> " lines are the
		// failure and its causes, the deepest last ("> Could not find
		// com.acme:sdk:3.2.0."), up to the "* Try:" block.
		switch {
		case t == "* What went wrong:":
			s.wentWrong = true
		case strings.HasPrefix(t, "* "):
			s.wentWrong = false
		case s.wentWrong && strings.HasPrefix(t, "> ") && len(t) > 2:
			s.add(KindError, t)
		}
		if s.people {
			for _, p := range fieldProse(t) {
				s.authoredDecisions(Redact(p))
			}
		}
		v, ok := strings.CutPrefix(t, "Reason:")
		s.failReason = ok && (levelOnly(v) || slices.Contains(podFailures, strings.TrimSpace(v)) || strings.TrimSpace(v) == "Failed")
	}
	if s.output && !s.source && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")) {
		switch {
		case s.quote:
			s.quote = false
		case strings.HasSuffix(s.prev, ":") && plainFence(t):
			s.quote, s.pastedAny = true, true
		}
	}
	if !s.source {
		// A message's pasted output (under a line that ends with ':', in
		// a plain block, indented) is read for errors as output is: "the
		// web container keeps restarting with:\n web-1 | psycopg2…"
		pasted := !s.output && (s.paste != 0 || s.fence == fencePlain || strings.HasPrefix(line, "    ") || line[0] == '\t')
		if pasted {
			s.output, s.paste, s.pastedAny = true, pastedLines, true
		}
		s.errors(line, t)
		if s.output {
			s.openError(line, t)
		}
		if pasted {
			s.output = false
		}
		if !s.output && s.fence == 0 && strings.HasSuffix(t, ":") {
			s.paste = pasteIntro
		}
		if strings.HasPrefix(t, "$ ") && len(t) > 2 {
			s.add(KindCommand, t[2:])
		}
		if s.output {
			if c, ok := sourcedStep(s.src); ok {
				s.add(KindCommand, c)
			} else if c, ok := scriptContents(s.prev, t, s.src); ok {
				s.add(KindCommand, c)
			} else if t[0] == '+' {
				s.tracedCommand(t)
			} else if s.src != "" && s.src[0] == '+' {
				s.tracedCommand(s.src) // traced behind a CI log's prefix: "[Step 3/4] + poetry run pytest …"
			} else if strings.HasPrefix(s.prev, "#!/bin/") && ranLine(t) && !strings.HasPrefix(t, "#") {
				s.add(KindCommand, t) // a CI step's script: "#!/bin/bash -eo pipefail", then its command
			} else if c, ok := ciCommand(t); ok {
				s.add(KindCommand, c)
			} else if c, ok := colonCommand(t, outputLeads); ok {
				s.add(KindCommand, c)
			} else if c, ok := s.outputCommand(line, t); ok && !columnHeader(t) {
				s.add(KindCommand, hinted(t, c))
			} else if strings.ContainsAny(t, "'\"`") {
				s.quotedCommands(t)
			}
		} else if s.shellFence(t) {
			// a line of a code block in a message
		} else if s.blockCommand(line, t) {
			// an indented command, or one on its own after a colon
		} else {
			if strings.IndexByte(t, '`') >= 0 {
				s.inlineCommands(t)
			} else {
				s.writtenCommands(t)
			}
			if strings.IndexByte(t, '"') >= 0 {
				s.quotedCommands(t) // in pasted output: run "git rebase --continue"
			}
		}
	}
	var urlSpans [][2]int
	if s.hotLine&hotURL != 0 {
		urlSpans = s.urls(t)
	}
	if strings.IndexByte(t, '/') >= 0 {
		s.files(t, urlSpans)
	}
	if strings.IndexByte(t, '\\') >= 0 {
		s.windowsPaths(t)
	}
	if !diffIndex(t) {
		s.ids(t, urlSpans) // not a diff's blob hashes
	}
	if !s.output && !s.source {
		s.namedErrors(t)
	}
	// A command line's figures are its arguments (--since=2h, sleep 5),
	// not measurements.
	claimed := s.source || 2*s.lineCommand >= len(t)
	if !claimed {
		if s.wholeFigureLine(t) {
			s.figureLine = undecorated(t)
		}
		claimed = s.pickedRow(t) || s.tableLine(t) || s.alignedLine(t) || s.lineMeasurement(t)
		if !claimed {
			s.measurements(t, urlSpans)
		}
		s.figureLine = ""
	}
	if s.errSearch && s.lineItems == len(s.items) && logStamped(t) {
		// a hit of a search of logs for errors, in words no reader
		// knows ("http2: server sent GOAWAY and closed the connection")
		s.add(KindError, t)
		return
	}
	if s.output && !claimed && (s.lineItems == len(s.items) || s.standsOut(t) && !s.lineHasError()) {
		// a report's line in a layout no reader above knows, or the
		// row of a uniform output that stands out from the rest
		report := s.lineItems == len(s.items) && figureReport(t)
		if odd := !report && s.oddRow(t); report || odd {
			s.wide = true
			if p := s.add(KindMeasurement, t); p != nil && odd {
				p.Odd = true
			}
			s.wide = false
		}
	}
	if s.hotLine&hotSpike != 0 && !slices.ContainsFunc(s.items[min(s.lineItems, len(s.items)):], func(it Item) bool { return 2*len(it.Value) >= len(t) }) {
		// the line of the figure that spikes in a log (markSpikes), as
		// printed: a long one past its time and level
		v := t
		if len(v) > s.e.capOf(KindDecision) {
			if lv, msg := plainLevel(t); lv != lvNone && msg > 0 && msg < len(t) {
				v = strings.TrimSpace(t[msg:])
			}
		}
		s.wide = true
		if p := s.add(KindMeasurement, v); p != nil {
			p.Odd = true
		}
		s.wide = false
	}
}

// wholeFigureLine reports whether a measurement found on a line of output
// is kept as the whole line, as printed, rather than as the figure and
// its label the readers pick from it. What someone remembers of a report
// is its line ("BenchmarkEncodeLarge-16   4128   289312 ns/op …",
// "[INFO] Total time:  07:42 min (Wall Clock)", "Task x succeeded in
// 412.8s: {'rows': 41283}"), and a search for it finds it only when the
// line is kept as printed: its iteration count, its columns' spacing, its
// prefix and its tail included. A line longer than the value cap is still
// read for its figures alone: a wide row costs more than it is worth.
//
// A JSON record is not kept whole: its figure is read with its key
// (`"latency":"703.1ms"`), as printed, and its message is read apart.
func (s *scanner) wholeFigureLine(t string) bool {
	if !s.output || s.source || len(t) > s.e.maxValueLen() || strings.ContainsAny(t, "\x00\r") {
		return false
	}
	return !jsonRecord(t)
}

// jsonRecord reports whether line t is a JSON record: alone, in an array
// ("{…},") or behind a prefix ("data: {…}").
func jsonRecord(t string) bool {
	r := strings.TrimRight(t, ", ")
	return r != "" && strings.HasSuffix(r, "}") && (r[0] == '{' || strings.Contains(r, "{\""))
}

// undecorated returns a line without the rule a tool draws around it:
// "===== 2 failed, 5 passed in 0.87s =====" is "2 failed, 5 passed in
// 0.87s".
func undecorated(t string) string {
	const marks = "=-*#~_"
	if len(t) < 8 || strings.IndexByte(marks, t[0]) < 0 {
		return t
	}
	c := t[0]
	l := len(t) - len(strings.TrimLeft(t, string(c)))
	r := len(t) - len(strings.TrimRight(t, string(c)))
	if l < 3 || r < 3 || l+r >= len(t) {
		return t
	}
	if u := strings.TrimSpace(t[l : len(t)-r]); u != "" {
		return u
	}
	return t
}

// oddRow reports whether t is a row of a tool's uniform output that stands
// out from the others (shaped unlike them, or holding a value no other row
// has in a column: see markOddLines) and holds figures: the reindex
// running for hours among tasks of milliseconds, the node claim with no
// node among ready ones. Such a row is kept whole, as printed.
func (s *scanner) oddRow(t string) bool {
	if s.source || len(t) < 12 || len(t) > 240 || columnHeader(t) || strings.ContainsAny(t, "{};\"") {
		return false // not code: a numbered line of a file, a statement
	}
	if _, numbered := cutLineNumber(t, false); numbered {
		return false
	}
	if strings.HasSuffix(t, ":") {
		return false // a heading: "app-error.log last 41 lines:"
	}
	words := 0
	for range strings.FieldsSeq(t) {
		words++
	}
	if words == 2 && gapped(t) {
		return s.badRow(t) // a resource and its state: "/subscriptions/…/shop-redis-prod   Failed"
	}
	if words < 3 {
		return false
	}
	if !s.odd && !s.cell {
		return s.badRow(t)
	}
	for c := range strings.FieldsSeq(t) {
		if _, ok := figureCell(c); ok {
			return true
		}
	}
	return s.badRow(t)
}

// badRow reports whether t is a row in a bad state among rows shaped like
// it, three at least, its cells apart (a gap of spaces or a tab): the
// failed job among running and finished ones. The rows in a bad state
// must be few (two, or one in ten) and fewer than half their shape's: in
// a listing of failed rows, or of rows in every state, none stands out.
//
// Such a row, like an odd one, is kept whole whatever its cells hold (the
// job's id may be in a form no reader knows), and even when some of them
// were read: the row says what state the thing its ids name is in.
func (s *scanner) badRow(t string) bool {
	if !s.output || s.source || !gapped(t) || !badStatus(t) {
		return false
	}
	n := s.shapeCount(t)
	if n < 3 {
		return false
	}
	if s.bad == nil {
		s.bad = make(map[uint64]int)
		for start := 0; start < len(s.whole); {
			end := lineEnd(s.whole, start)
			if l := strings.TrimSpace(s.whole[start:end]); l != "" && badStatus(l) {
				s.bad[lineShape(l)]++
			}
			start = end + 1
		}
	}
	// a listing of failed rows, or of rows in every state, is routine
	bad := s.bad[lineShape(t)]
	return bad*2 < n && (bad <= 2 || bad*10 <= n)
}

// standsOut reports whether t, a row some of whose cells were read, is
// still kept whole: an odd row of a listing (shaped unlike the rest, or
// holding a value no other row has) or a row in a bad state among few
// (badRow).
func (s *scanner) standsOut(t string) bool {
	if s.hotLine&(hotOdd|hotCell) != 0 && gapped(t) {
		return true // its shape or a value of its own makes it odd
	}
	return badStatus(t) && s.badRow(t) // its state: only if it is rare
}

// levelCell reports whether t is a table's row whose first cell names a
// warning or an error level: MySQL's SHOW WARNINGS, "| Warning | 1265 |
// Data truncated for column 'status' at row 1 |".
func levelCell(t string) bool {
	rest, ok := strings.CutPrefix(t, "|")
	if !ok || !strings.HasSuffix(t, "|") {
		return false
	}
	cell, _, ok := strings.Cut(rest, "|")
	if !ok {
		return false
	}
	switch strings.TrimSpace(cell) {
	case "Warning", "Error", "WARNING", "ERROR":
		return strings.Count(t, "|") >= 3
	}
	return false
}

// numberedFailure reports whether t heads a numbered failure of a test
// run's report: "1) test apply_discount/2 caps percentage at 100
// (Shop.PricingTest)", "2) Cart adds an item". It needs a number, ") ",
// and two words or more, the first a letter's: not a numbered reply's
// `1) "key"` nor a list of figures.
func numberedFailure(t string) bool {
	i := 0
	for i < len(t) && i < 4 && isDigit(t[i]) {
		i++
	}
	if i == 0 || !strings.HasPrefix(t[i:], ") ") {
		return false
	}
	rest := t[i+2:]
	return rest != "" && isAlpha(rest[0]) && strings.Count(rest, " ") >= 1
}

// valgrindError returns the line before a Valgrind report's first frame
// ("==4411==    at 0x109A3E: token_free_all (token.c:117)"): the error the
// frames are of ("==4411== Invalid read of size 4"), as printed. An
// allocation's or a free's own frames follow a line about the block
// ("Address 0x… is 8 bytes inside…", "Block was alloc'd at"), which is
// not the error.
func valgrindError(prev, t string) (string, bool) {
	rest, ok := valgrindRest(t)
	if !ok || !strings.HasPrefix(rest, "at 0x") {
		return "", false
	}
	msg, ok := valgrindRest(prev)
	if !ok || msg == "" || strings.HasPrefix(msg, "at 0x") || strings.HasPrefix(msg, "by 0x") ||
		strings.HasPrefix(msg, "Address ") || strings.HasPrefix(msg, "Block was ") || !isUpper(msg[0]) {
		return "", false
	}
	return prev, true
}

// valgrindRest returns what follows a Valgrind line's "==PID==" prefix,
// trimmed.
func valgrindRest(t string) (string, bool) {
	if !strings.HasPrefix(t, "==") {
		return "", false
	}
	i := 2
	for i < len(t) && isDigit(t[i]) {
		i++
	}
	if i == 2 || !strings.HasPrefix(t[i:], "==") {
		return "", false
	}
	return strings.TrimSpace(t[i+2:]), true
}

// gapped reports whether line t has cells apart: a gap of spaces or a tab.
func gapped(t string) bool {
	return strings.Contains(t, "  ") || strings.IndexByte(t, '\t') >= 0
}

// lineHasError reports whether the line being scanned has yielded an error
// item: a pod's failure read as an error needs no row beside it.
func (s *scanner) lineHasError() bool {
	return slices.ContainsFunc(s.items[min(s.lineItems, len(s.items)):], func(it Item) bool { return it.Kind == KindError })
}

// keepItem records an item read back from a marker with its file access
// and command outcome.
func (s *scanner) keepItem(it Item) {
	p := s.add(it.Kind, it.Value)
	if p == nil {
		return
	}
	p.Access = max(p.Access, it.Access)
	if it.Exit != nil {
		p.Exit = it.Exit
	}
	p.Failed = p.Failed || it.Failed
}

// loudLine reports whether a line of output is a log line at warning level
// or above: an upper-case level word (WARN, WARNING, ERROR, FATAL,
// CRITICAL, PANIC) standing alone or in brackets, or a level field
// (level=warn, "level":"error", severity: WARNING) naming one.
func loudLine(line string) bool {
	for _, w := range []string{"WARN", "WARNING", "ERROR", "FATAL", "CRITICAL", "PANIC"} {
		for off := 0; ; {
			k := strings.Index(line[off:], w)
			if k < 0 {
				break
			}
			k += off
			e := k + len(w)
			if (k == 0 || !isAlnum(line[k-1]) && line[k-1] != '_') && (e == len(line) || !isAlnum(line[e]) && line[e] != '_') {
				return true
			}
			off = e
		}
	}
	for _, key := range []string{"level", "severity", "lvl"} {
		for off := 0; ; {
			k := needles.IndexFold(line[off:], key)
			if k < 0 {
				break
			}
			j := k + off + len(key)
			off = j
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ' ') {
				j++
			}
			if j >= len(line) || line[j] != '=' && line[j] != ':' {
				continue
			}
			j++
			for j < len(line) && (line[j] == '"' || line[j] == '\'' || line[j] == ' ') {
				j++
			}
			for _, v := range []string{"warn", "error", "err", "fatal", "crit", "panic", "alert", "emerg"} {
				if needles.HasPrefixFold(line[j:], v) {
					return true
				}
			}
		}
	}
	return false
}

// listed reports whether line t of the output being scanned is a routine
// row of a listing: neither loud nor odd nor in a bad state, and shaped
// like another line of an output of at least minListing lines. The rows of
// a short listing (a header and two jobs) are each worth their ids.
func (s *scanner) listed(t string) bool {
	if !s.output || s.loud || s.odd || s.whole == "" || badStatus(t) {
		return false
	}
	if same := s.shapeCount(t); s.lines < minListing || same < 2 {
		return false
	}
	if k, ok := memberKey(t); ok {
		// an indented JSON record's members are shaped alike but are
		// not rows: only the same key on other lines (the records of
		// an array) makes one routine
		return s.members[k] >= 2
	}
	return true
}

// shapeCount returns how many lines of the output being scanned are
// shaped like t (see lineShape), t's own included.
func (s *scanner) shapeCount(t string) int {
	if s.whole == "" {
		return 0
	}
	if s.shapes == nil {
		s.shapes = make(map[uint64]int)
		s.members = make(map[string]int)
		for start := 0; start < len(s.whole); {
			end := lineEnd(s.whole, start)
			if l := strings.TrimSpace(s.whole[start:end]); l != "" {
				s.shapes[lineShape(l)]++
				s.lines++
				if k, ok := memberKey(l); ok {
					s.members[k]++
				}
			}
			start = end + 1
		}
	}
	return s.shapes[lineShape(t)]
}

// memberKey returns the key of a line that is a JSON object's member:
// `"key": "PAY-4128",`.
func memberKey(t string) (string, bool) {
	if len(t) < 4 || t[0] != '"' {
		return "", false
	}
	k := strings.IndexByte(t[1:], '"')
	if k < 0 || !strings.HasPrefix(t[k+2:], ":") {
		return "", false
	}
	return t[1 : k+1], true
}

// minListing is how many lines an output needs for its rows to be a
// listing whose routine rows are left to its odd and failing ones: a
// header and four rows.
const minListing = 5

// badStates are the states listings print for what is not working: a
// NotReady node among Ready ones, a Restarting container, a row marked
// with a cross among ticked ones (gcloud's ✖ revision), and the pod
// states of podFailures.
var badStates = append([]string{"NotReady", "Error", "Failed", "FAILED", "Pending", "Terminating", "Unknown",
	"Restarting", "Exited (1", "Exited (2", "unhealthy", "degraded", "Degraded", "DOWN", "Down", "Stopped",
	"Dead", "dead", "failed", "error", "timeout", "Timeout", "✖", "✗", "✘", "❌",
	"ERROR", "Errored", "ERRORED", "errored", "FAILURE", "Failure", "failure", "Failing", "FAILING", "failing",
	"Aborted", "ABORTED", "aborted", "Crashed", "CRASHED", "crashed", "UNHEALTHY", "TIMED_OUT", "TimedOut",
	"Rejected", "REJECTED", "Stuck", "STUCK", "stuck", "DEAD", "Exited (3", "Exited (4", "Exited (5",
	"Exited (6", "Exited (7", "Exited (8", "Exited (9", "down", "suspected_down", "stopped"}, podFailures...)

// badStatus reports whether a listing's row shows something not working.
func badStatus(t string) bool {
	for _, w := range badStates {
		for off := 0; ; {
			k := strings.Index(t[off:], w)
			if k < 0 {
				break
			}
			k += off
			// "Failed" alone, or closing a state in CamelCase
			// ("PartiallyFailed", "BackoffLimitExceeded")
			camel := k > 0 && isLower(t[k-1]) && isUpper(w[0])
			if (k == 0 || !isAlpha(t[k-1]) || camel) && (k+len(w) == len(t) || !isAlpha(t[k+len(w)])) {
				return true
			}
			off = k + len(w)
		}
	}
	return false
}

// diffIndex reports whether t is a unified diff's index line, "index
// 3f2a9c1..8b1e5c0 100644": blob hashes no one refers to.
func diffIndex(t string) bool {
	rest, ok := strings.CutPrefix(t, "index ")
	if !ok {
		return false
	}
	r, _, _ := strings.Cut(rest, " ")
	a, b, ok := strings.Cut(r, "..")
	return ok && len(a) >= 7 && len(b) >= 7 && allHex(a) && allHex(b)
}

// The states of scanner.paste.
const (
	pasteIntro  = 1 + iota // after a line ending with ':'; a blank line may follow
	pastedLines            // among the pasted lines; a blank line ends them
)

// levelOnly reports whether an error's value names a level and nothing
// else, alone or as the value of a key: "error", "LOG_LEVEL: error",
// "level=fatal".
func levelOnly(v string) bool {
	v = strings.TrimSpace(v)
	if k := strings.LastIndexAny(v, ":="); k >= 0 && !strings.ContainsAny(strings.TrimSpace(v[:k]), " \t") {
		v = strings.TrimSpace(v[k+1:])
	}
	switch strings.ToLower(strings.Trim(v, `"'`)) {
	case "error", "errors", "err", "fatal", "critical", "panic", "warn", "warning", "failed", "failure", "exception":
		return true
	}
	return false
}

// The steps of an HCL diagnostic (Terraform, OpenTofu, Packer): its
// "Error: summary" line, its "on main.tf line 23, in …:" location with the
// lines of code it quotes, then its detail.
const (
	hclNone uint8 = iota
	hclSummary
	hclLocation
)

// hclDetail keeps the detail of an HCL diagnostic, the sentence that says
// what is wrong ("An argument named \"enable_dns64\" is not expected
// here."), which follows its summary ("Error: Unsupported argument") and
// the code it points at. t is the line, trimmed.
func (s *scanner) hclDetail(t string) {
	t = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(t, "│"), "╷"), "╵"))
	switch {
	case t == "":
	case strings.HasPrefix(t, "Error: "):
		s.hcl = hclSummary
	case s.hcl == hclSummary && strings.HasPrefix(t, "with ") && strings.HasSuffix(t, ","):
		// "with aws_subnet.private," names the resource before its location
	case s.hcl == hclSummary && strings.HasPrefix(t, "on ") && strings.Contains(t, " line "):
		s.hcl = hclLocation
	case s.hcl == hclLocation && (strings.HasPrefix(t, "├") || strings.HasPrefix(t, "│") || strings.HasPrefix(t, "└")):
		// the values of the expression it points at
	case s.hcl == hclLocation:
		if ok, d := digitsAt(t, 0); ok && d < len(t) && t[d] == ':' {
			return // a quoted line of code: "23:   enable_dns64 = true"
		}
		if len(t) >= 12 && isUpper(t[0]) && strings.Contains(t, " ") {
			s.add(KindError, t)
		}
		s.hcl = hclNone
	default:
		s.hcl = hclNone
	}
}
