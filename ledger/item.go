package ledger

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Kind names what a ledger item records.
type Kind string

// The kinds of ledger items.
const (
	// KindTask is the task statement: the first user message of the log.
	KindTask Kind = "task"
	// KindFile is a file path that was read, written or mentioned.
	KindFile Kind = "file"
	// KindCommand is a command that was run, with its exit status when known.
	KindCommand Kind = "command"
	// KindError is an error line: the first line of a failure and the
	// decisive lines of tracebacks, panics and test failures.
	KindError Kind = "error"
	// KindID is an identifier: an issue key, a ticket or order id, a commit
	// hash, a UUID.
	KindID Kind = "id"
	// KindURL is an address, with any credentials redacted.
	KindURL Kind = "url"
	// KindMeasurement is a number with a unit next to what it measures.
	KindMeasurement Kind = "measurement"
	// KindDecision is a sentence in which the assistant settled on a course:
	// chose one option over another, adopted a rule or an approach for the
	// rest of the work, or drew a conclusion that changes the course.
	KindDecision Kind = "decision"
	// KindPlan is a sentence in which the assistant said what it will do
	// next ("Let me check the parser next."): worth little once the step
	// has run.
	KindPlan Kind = "plan"
	// KindNote is any other sentence of the assistant's prose: a finding,
	// an explanation, a conclusion or a choice in words the decision and
	// plan readers do not know. Notes are ranked like every item, so what
	// the assistant said once, with specifics, can be kept however it was
	// phrased.
	KindNote Kind = "note"
	// KindConstraint is a sentence in which the user set a rule.
	KindConstraint Kind = "constraint"
	// KindPinned is the text of a pinned message.
	KindPinned Kind = "pinned"
)

// Kinds lists every kind, highest priority first.
var Kinds = []Kind{KindPinned, KindTask, KindConstraint, KindError, KindDecision,
	KindNote, KindCommand, KindFile, KindID, KindURL, KindMeasurement, KindPlan}

// Access says what happened to a file.
type Access uint8

// File accesses, in increasing order of weight: when the same path is seen
// several ways, a Set keeps the heaviest.
const (
	// Mentioned: the path appeared in text or output.
	Mentioned Access = iota
	// Read: a tool read the file.
	Read
	// Written: a tool created, edited or patched the file.
	Written
)

func (a Access) String() string {
	switch a {
	case Read:
		return "read"
	case Written:
		return "written"
	}
	return "mentioned"
}

// Item is one ledger entry.
//
// Value is short (at most the extractor's MaxValueLen bytes, 200 by default,
// twice that for a decision or a constraint, four times it for an error), a
// single line of valid UTF-8 with no control characters, and has had
// secrets redacted. The one exception to the single line is a decision
// written over a few lines ("**Decision:** X.\n**Rejected:** Y."), whose
// lines, none empty, are joined by "\n": each trimmed, or, for a decision
// record shown in output, as printed ("> **Decided:** X" with its quote
// mark, "  chosen:   X" with its indentation); String quotes it, so a
// rendered item is still one line.
type Item struct {
	Kind  Kind
	Value string
	// Source is the log index of the message the item was found in; when a
	// Set merges repeated items it is the latest such index.
	Source int
	// Access is what happened to a file (KindFile only).
	Access Access
	// Exit is a command's exit status when the result reported one
	// (KindCommand only).
	Exit *int
	// Failed marks a command whose result was an error although no exit
	// status was reported (KindCommand only).
	Failed bool
	// Loud marks an item found on a log line at warning level or above
	// (WARN, ERROR, level=warn, "level":"error", …): among a log's routine
	// lines, the number or id on the one that warns is the one that
	// matters. It raises the item's salience and is not rendered.
	Loud bool
	// Odd marks an item found on the one line of a uniform output shaped
	// unlike the others (the commit with a pull-request number in a list
	// of routine commits). It raises the item's salience and is not
	// rendered.
	Odd bool
}

// String formats the item the way it is rendered into placeholders and
// summaries: "<kind> <value>", followed for a read or written file by
// " (read)" or " (written)" and for a command by " (exit N)" or " (failed)".
// The value is bare when it is non-empty and holds no space, ';', '"', '['
// or ']', and Go-quoted otherwise, so a rendered item never holds an
// unquoted bracket and never a newline:
//
//	file internal/x.go (written)
//	error "panic: runtime error: index out of range [3] with length 3"
//	command "go test ./..." (exit 1)
func (it Item) String() string {
	var b strings.Builder
	b.Grow(len(it.Kind) + len(it.Value) + 16)
	b.WriteString(string(it.Kind))
	b.WriteByte(' ')
	b.WriteString(quoteValue(it.Value))
	switch it.Kind {
	case KindFile:
		if it.Access != Mentioned {
			b.WriteString(" (")
			b.WriteString(it.Access.String())
			b.WriteByte(')')
		}
	case KindCommand:
		if it.Exit != nil {
			b.WriteString(" (exit ")
			b.WriteString(strconv.Itoa(*it.Exit))
			b.WriteByte(')')
		} else if it.Failed {
			b.WriteString(" (failed)")
		}
	}
	return b.String()
}

// quoteValue returns v bare when it is safe inside a bracketed, ';'
// separated placeholder, else quoted as a Go string literal: between
// backquotes when v holds a double quote or a backslash but no backquote
// (so an error
// such as `unique constraint "users_email_key"` reads as it was printed,
// and a search for the original text finds it), else Go-quoted.
func quoteValue(v string) string {
	if !utf8.ValidString(v) {
		return strconv.Quote(v)
	}
	tab := false
	for _, r := range v {
		if r == '\t' {
			tab = true
			continue
		}
		if r < 0x20 || r == 0x7f || !strconv.IsPrint(r) {
			return strconv.Quote(v)
		}
	}
	switch {
	case v != "" && !strings.ContainsAny(v, " \t;\"[]`"):
		return v
	case (tab || strings.ContainsAny(v, `"\`)) && !strings.Contains(v, "`"):
		return "`" + v + "`"
	}
	return strconv.Quote(v)
}

// Key is the deduplication key of an item: its kind and its normalized
// value. Access, exit status and source do not take part, so a file read and
// later written is one item, and a command run twice is one item.
func (it Item) Key() string {
	v := it.Value
	switch it.Kind {
	case KindFile:
		v = strings.TrimPrefix(path.Clean(v), "./")
	case KindURL:
		v = strings.TrimRight(v, "/")
	}
	return string(it.Kind) + "\x00" + v
}

// Priority orders kinds for the budget (Bound): higher is kept first.
//
//	pinned > task > constraint > error > decision > note > command > file > id = url > measurement > plan
//
// Pinned facts and the task are the user's own words and are few. A
// constraint is a rule whose loss makes the agent break it, and there are
// few of them. Errors are what the agent is working against; losing them
// sends it round the same failure again. Decisions come next (model
// summaries keep most of them anyway, so the ledger matters less for them),
// then commands with their exit status (a summary keeps almost none), then
// files (which can be found again with ls or grep), identifiers and
// addresses, then measurements: there are many of them in benchmark and
// test output and each is recallable from its masked original. Plans come
// last: once the step they announce has run, its command and output say
// more than the announcement.
func (it Item) Priority() int {
	return Priority(it.Kind)
}

// Priority returns the priority of a kind; unknown kinds get 0.
func Priority(k Kind) int {
	switch k {
	case KindPinned:
		return 100
	case KindTask:
		return 90
	case KindConstraint:
		return 80
	case KindError:
		return 70
	case KindDecision:
		return 60
	case KindNote:
		return 55
	case KindCommand:
		return 50
	case KindFile:
		return 40
	case KindID, KindURL:
		return 30
	case KindMeasurement:
		return 20
	case KindPlan:
		return 10
	}
	return 0
}

// Set is an ordered, deduplicated collection of items. Items keep the order
// in which their key was first added; adding an item whose key is present
// merges it into the existing one: Source becomes the later of the two, a
// file keeps its heaviest Access, and a command takes the exit status of its
// latest run. The zero Set is empty and ready to use.
type Set struct {
	items []Item
	index map[string]int
}

// Add adds items to the set, merging duplicates.
func (s *Set) Add(items ...Item) {
	if s.index == nil {
		s.index = make(map[string]int)
	}
	for _, it := range items {
		k := it.Key()
		i, ok := s.index[k]
		if !ok {
			s.index[k] = len(s.items)
			s.items = append(s.items, it)
			continue
		}
		s.items[i] = merge(s.items[i], it)
	}
}

func merge(old, it Item) Item {
	newer := it.Source >= old.Source
	if it.Access > old.Access {
		old.Access = it.Access
	}
	if it.Kind == KindCommand && (it.Exit != nil || it.Failed) && (newer || (old.Exit == nil && !old.Failed)) {
		old.Exit, old.Failed = it.Exit, it.Failed
	}
	if newer {
		old.Source = it.Source
	}
	return old
}

// Items returns the items of the set, in order, in a new slice.
func (s *Set) Items() []Item { return append([]Item(nil), s.items...) }

// Len returns the number of items in the set.
func (s *Set) Len() int { return len(s.items) }

// Contains reports whether an item with the given Key is in the set.
func (s *Set) Contains(key string) bool {
	_, ok := s.index[key]
	return ok
}

// Dedup returns items with duplicates merged as a Set merges them, in order
// of first appearance.
func Dedup(items []Item) []Item {
	var s Set
	s.Add(items...)
	return s.items
}
