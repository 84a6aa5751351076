package ledger

import (
	"math"
	"regexp"
	"slices"
	"strings"

	"github.com/condense-dev/condense"
)

func regexpMust(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// Pattern is a custom extraction rule: every match of Regexp in a text
// becomes an item of Kind, its value the first submatch when there is one
// and the whole match otherwise.
type Pattern struct {
	Kind   Kind
	Regexp *regexp.Regexp
}

// Extractor extracts ledger items. The zero Extractor is ready to use with
// the defaults; the package-level functions use one.
type Extractor struct {
	// MaxValueLen caps an item's value, in bytes; 0 means
	// DefaultMaxValueLen. A decision or a constraint may hold twice as
	// much: cut short, it would lose its reason or its exception, which
	// come last ("… rather than priority ordering because the billing
	// jobs must run in invoice order"). An error may hold four times as
	// much: a driver's, a cloud API's or a wrapped chain's message often
	// runs to several hundred bytes with the clause that says what
	// failed in its middle ("… :: too many certificates (5) already
	// issued … :: see https://…"), and errors are few: kept as printed, a
	// search for any part of the line finds it.
	MaxValueLen int
	// MaxPerKind caps the distinct items of one kind taken from one
	// message or one tool result, so a 10,000-line log does not flood the
	// ledger: the first ones are kept, except for errors, where the first
	// half of the cap and the latest lines are (the start and the end of a
	// failure are the decisive parts). 0 means DefaultMaxPerKind (twice
	// that for measurements: a long report prints more figures than
	// anything else), a negative value means no cap.
	MaxPerKind int
	// ShellTools names extra tools (case-insensitive) whose calls run a
	// command given in their "command", "cmd" or "script" input, besides
	// the built-in names (bash, shell, exec, run, terminal, run_command,
	// execute_bash, …).
	ShellTools []string
	// Patterns are extra rules run over every text after redaction.
	Patterns []Pattern
}

// DefaultMaxPerKind is the default cap of items of one kind per message or
// tool result.
const DefaultMaxPerKind = 20

func (e *Extractor) maxValueLen() int {
	if e.MaxValueLen <= 0 {
		return DefaultMaxValueLen
	}
	return e.MaxValueLen
}

// capOf returns the cap of the value of an item of kind k.
func (e *Extractor) capOf(k Kind) int {
	m := e.maxValueLen()
	switch {
	case m > math.MaxInt/2:
	case k == KindDecision || k == KindConstraint || k == KindCommand:
		// a command line's flags, like a decision's reason, run long
		return 2 * m
	case k == KindError:
		return m * 4
	}
	return m
}

func (e *Extractor) maxPerKind() int {
	if e.MaxPerKind == 0 {
		return DefaultMaxPerKind
	}
	if e.MaxPerKind < 0 {
		return 0
	}
	return e.MaxPerKind
}

// maxOf is the most items of kind k one message or tool output gives:
// the per-kind cap, twice over for measurements by default. A long report
// (several load tests' runs, a du or netstat listing, a benchmark's rows)
// prints more figures than it prints commands or paths, and the one that
// matters is often past the twentieth.
func (e *Extractor) maxOf(k Kind) int {
	max := e.maxPerKind()
	if k == KindMeasurement && max > 0 && e.MaxPerKind == 0 {
		return 2 * max
	}
	return max
}

var defaultExtractor Extractor

// Extract returns the items of a span of the log with the default
// Extractor. See Extractor.Extract.
func Extract(msgs []condense.Message, base int) []Item {
	return defaultExtractor.Extract(msgs, base)
}

// ExtractMessage returns the items of one message with the default
// Extractor. See Extractor.ExtractMessage.
func ExtractMessage(m *condense.Message, index int) []Item {
	return defaultExtractor.ExtractMessage(m, index)
}

// ExtractResult returns the items of one tool result with the default
// Extractor. See Extractor.ExtractResult.
func ExtractResult(call, result *condense.Part, index int) []Item {
	return defaultExtractor.ExtractResult(call, result, index)
}

// Task returns the task item of m, the first user message of the log:
// its text, trimmed to one line and capped. ok is false when m has no text.
func Task(m *condense.Message, index int) (it Item, ok bool) {
	return defaultExtractor.Task(m, index)
}

// Extract returns the items of msgs, a span of the log whose first message
// has log index base: deduplicated (see Set), in order of first appearance,
// each with the log index it was last seen at. When base is 0 the span
// starts the log and its first user message is the task. Tool results are
// read with the tool call they answer when the call is in the span, so a
// command carries its exit status and a read file its access. Of the plans,
// only the latest SpanPlans are kept: the steps older ones announced have
// run since.
//
// The result depends only on the arguments and the Extractor's options.
func (e *Extractor) Extract(msgs []condense.Message, base int) []Item {
	return e.extract(msgs, base, nil)
}

// ExtractTally is Extract that also tallies each message as one piece into
// t, so that BoundBy can rank the items by salience (what repeats message
// after message, what came from a crowded listing) although they come back
// deduplicated.
func (e *Extractor) ExtractTally(msgs []condense.Message, base int, t *Tally) []Item {
	return e.extract(msgs, base, t)
}

// ExtractTally is Extractor.ExtractTally with the default Extractor.
func ExtractTally(msgs []condense.Message, base int, t *Tally) []Item {
	return defaultExtractor.ExtractTally(msgs, base, t)
}

func (e *Extractor) extract(msgs []condense.Message, base int, t *Tally) []Item {
	var set Set
	sp := &span{calls: make(map[string]*condense.Part)}
	taskDone := base != 0
	obs := Observations(msgs, base)
	for i := range msgs {
		m := &msgs[i]
		idx := base + i
		sp.task = false
		sp.relayed = obs[i]
		if !taskDone && m.Role == condense.RoleUser {
			taskDone = true
			sp.task = true
			if it, ok := e.Task(m, idx); ok {
				set.Add(it)
			}
		}
		items := e.message(m, idx, sp)
		if t != nil {
			t.Add(items)
		}
		set.Add(items...)
	}
	return latestPlans(set.Items(), SpanPlans)
}

// ExtractMessage returns the items of one message at log index index,
// deduplicated. A tool message's results are read without their calls (use
// ExtractResult, or Extract over the span, to have them). It does not know
// whether m is the task; see Task.
func (e *Extractor) ExtractMessage(m *condense.Message, index int) []Item {
	return Dedup(e.message(m, index, &span{}))
}

// ExtractResult returns the items of one tool result at log index index,
// deduplicated: what a mask placeholder keeps. call, the tool call the
// result answers, may be nil; when given, it says which command ran (with
// the exit status read from the result) and which file was read or
// written. When the call read one source file (a Read tool or cat on a .go,
// .py, .ts… file), the output is code: only paths, addresses and
// identifiers are taken from it, not the error strings and numbers in its
// literals.
func (e *Extractor) ExtractResult(call, result *condense.Part, index int) []Item {
	return Dedup(e.result(call, result, index, ""))
}

// Task returns the task item of m; see the package-level Task.
func (e *Extractor) Task(m *condense.Message, index int) (Item, bool) {
	v := clean(Redact(m.TextContent()), e.maxValueLen())
	if v == "" {
		return Item{}, false
	}
	return Item{Kind: KindTask, Value: v, Source: index}, true
}

// span is what Extract carries from one message to the next: the tool calls
// seen, by id (nil: results are read without their calls), and the file an
// editor has open, which SWE-agent's edit commands change without naming it.
type span struct {
	calls map[string]*condense.Part
	open  string
	// task is set while the task message is read: it is the user's
	// prose even when the agent appended its status footer to it.
	task bool
	// relayed is set while a user message that relays tool output is read
	// (see Observations).
	relayed bool
	// action holds the command and files of the last action an agent
	// acting in text ran (see textAction): what the observation after it
	// is the output of.
	action []Item
}

func (e *Extractor) message(m *condense.Message, index int, sp *span) []Item {
	var out []Item
	if m.Pinned {
		var text string
		if m.Role == condense.RoleTool {
			for i := range m.Parts {
				text += resultText(&m.Parts[i])
			}
		} else {
			text = m.TextContent()
		}
		if v := clean(Redact(text), e.maxValueLen()); v != "" {
			out = append(out, Item{Kind: KindPinned, Value: v, Source: index})
		}
	}
	for i := range m.Parts {
		p := &m.Parts[i]
		switch p.Type {
		case condense.PartText:
			text := Redact(p.Text)
			if IsMarker(text) {
				// A drop marker or placeholder of an earlier compaction:
				// what it kept, not the marker's own words and counts.
				for _, it := range keptFrom(text, index) {
					if it.Value = clean(it.Value, e.capOf(it.Kind)); it.Value != "" {
						out = append(out, it)
					}
				}
				continue
			}
			// An observation (tool output an agent relays as a user
			// message) is read as output: its errors, exit status and
			// measurements, not the user's rules.
			relayed := m.Role == condense.RoleUser && !sp.task && (sp.relayed || observation(text))
			s := newScanner(e, index, m.Role == condense.RoleTool || relayed)
			s.fromUser = m.Role == condense.RoleUser && !relayed
			switch m.Role {
			case condense.RoleUser:
				if !relayed {
					s.userProse(text)
				}
			case condense.RoleAssistant:
				if m.Status == condense.StatusComplete {
					s.assistantProse(text)
				}
				if !hasToolCalls(m) {
					e.textAction(s, text, sp)
				}
			}
			if m.Role != condense.RoleAssistant {
				sp.noteOpen(text)
			}
			s.text(text)
			if relayed {
				s.readDecisions(text, sp.action)
			} else if m.Role == condense.RoleUser {
				if out := pastedFailure(text); out != "" {
					// what the person pasted to show a failure is read
					// as the failed command's output it is
					ps := newScanner(e, index, true)
					ps.failedPaste = true
					ps.text(out)
					for _, it := range ps.items {
						if it.Kind == KindError {
							s.keepItem(it)
						}
					}
				}
			}
			out = append(out, containedItems(s.items)...)
		case condense.PartThinking:
			// An agent often weighs its options in its reasoning and only
			// acts in its text: the choice made there is a decision worth
			// keeping. Only firm choices are taken, not the musings,
			// plans and notes around them.
			if m.Role == condense.RoleAssistant && p.Text != "" {
				s := newScanner(e, index, false)
				s.thinkingProse(Redact(p.Text))
				out = append(out, s.items...)
			}
		case condense.PartToolCall:
			if sp.calls != nil && p.ID != "" {
				sp.calls[p.ID] = p
			}
			items := e.call(p, index, sp.open)
			sp.noteCall(p, items)
			out = append(out, items...)
		case condense.PartToolResult:
			var call *condense.Part
			if sp.calls != nil {
				call = sp.calls[p.CallID]
			}
			out = append(out, e.result(call, p, index, sp.open)...)
			sp.noteOpen(resultText(p))
		}
	}
	return out
}

// resultText joins the text parts of a tool result.
func resultText(p *condense.Part) string {
	if p.Type == condense.PartText {
		return p.Text
	}
	var n, parts, last int
	for i := range p.Content {
		if p.Content[i].Type == condense.PartText {
			n += len(p.Content[i].Text) + 1
			parts++
			last = i
		}
	}
	switch parts {
	case 0:
		return ""
	case 1:
		return p.Content[last].Text
	}
	var b strings.Builder
	b.Grow(n)
	for i := range p.Content {
		if p.Content[i].Type == condense.PartText {
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(p.Content[i].Text)
		}
	}
	return b.String()
}

func (e *Extractor) result(call, result *condense.Part, index int, open string) []Item {
	text := Redact(resultText(result))
	s := newScanner(e, index, true)
	s.called = call != nil
	if call != nil {
		if open == "" {
			// An edit that names no file shows the file it edited.
			open = openFile(text)
		}
		for _, it := range e.call(call, index, open) {
			if p := s.add(it.Kind, it.Value); p != nil {
				p.Access = max(p.Access, it.Access)
			}
		}
		for i := range s.items {
			it := &s.items[i]
			if it.Kind == KindCommand && e.isShell(call.Name) {
				it.Exit = exitStatus(text)
				it.Failed = it.Exit == nil && result.IsError
			}
		}
		s.source = readsSource(s.items)
		s.readsFile = readsFile(s.items)
		s.callItems = len(s.items)
	}
	if IsMarker(text) {
		for _, it := range keptFrom(text, index) {
			s.keepItem(it)
		}
		return s.items
	}
	if s.readsFile {
		// a file viewer's line numbers ("    21\t…") are not the file's:
		// its rows and records are read as printed without them
		s.text(unnumbered(text))
	} else {
		s.text(text)
	}
	s.recordReasons(text)
	if call != nil {
		s.readDecisions(text, s.items[:s.callItems])
		if s.readsFile {
			s.readSteps(text, s.items[:s.callItems])
		}
	}
	return containedItems(s.items)
}

// containedItems drops from the items of one text or output a decision
// whose text another decision of it holds whole (a record read two ways:
// a "**Decided:** X" line alone, and with the "**Not:** Y" line that goes
// on with it), and a measurement that a sentence kept from the same text
// (a note, a decision, a rule) already holds: a figure said in a reply is
// kept once, with the sentence that says it.
func containedItems(items []Item) []Item {
	n := 0
	for _, it := range items {
		if it.Kind == KindDecision || it.Kind == KindMeasurement {
			n++
		}
	}
	if n < 1 || len(items) < 2 {
		return items
	}
	drop := make([]bool, len(items))
	for i, it := range items {
		if it.Kind != KindDecision && it.Kind != KindMeasurement {
			continue
		}
		for _, o := range items {
			holds := it.Kind == KindDecision && o.Kind == KindDecision && len(o.Value) > len(it.Value) ||
				it.Kind == KindMeasurement && (o.Kind == KindNote || o.Kind == KindDecision || o.Kind == KindConstraint)
			if holds && strings.Contains(o.Value, it.Value) {
				drop[i] = true
				break
			}
		}
	}
	out := items[:0]
	for i, it := range items {
		if !drop[i] {
			out = append(out, it)
		}
	}
	return out
}

// maxReadSteps is the most commands kept from one file read: a long
// script's or Makefile's lines do not crowd out the rest of the ledger,
// and a CI workflow's later jobs (e2e after lint, unit and build) still
// count.
const maxReadSteps = 16

// readSteps adds the commands a file the agent read runs or tells its
// reader to run: a README's or a contributing guide's shell blocks, a CI
// workflow's steps, a Taskfile's, a Makefile's recipes, a Dockerfile's RUN
// lines, package.json's scripts. How the project builds, tests, migrates
// and deploys is what the agent reads them for, and what it has to find
// again after a compaction.
func (s *scanner) readSteps(text string, call []Item) {
	var files []string
	for _, it := range call {
		if it.Kind == KindFile && it.Access == Read {
			files = append(files, it.Value)
		}
	}
	if len(files) > 1 {
		// several names: a filter or a pattern taken for a file ("jq
		// '.scripts' composer.json") beside the one file of steps
		files = slices.DeleteFunc(files, func(f string) bool { return !stepsFile(f) })
	}
	if len(files) != 1 {
		return // none, or several files: whose lines are whose is unknown
	}
	file := files[0]
	text, _ = unwrapOutput(text)
	n := 0
	for _, c := range stepsIn(file, unnumbered(text)) {
		if n >= maxReadSteps {
			return
		}
		if s.add(KindCommand, c) != nil {
			n++
		}
	}
}

// keptFrom returns the items a marker keeps, from the log index it stands
// at.
func keptFrom(text string, index int) []Item {
	items := KeptItems(text)
	for i := range items {
		items[i].Source = index
	}
	return items
}
