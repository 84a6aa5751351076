package ledger

import (
	"math/bits"
	"strings"
)

// This file ranks items by salience: how much losing each one would cost the
// agent, judged from signals that do not depend on how a session is phrased.
//
// Kind still counts (a constraint outranks a file path), but it is one signal
// of several, so a rare identifier from one warning line can outrank the
// hundredth path of a grep listing:
//
//   - rarity: an item extracted from one piece of the log (one tool result or
//     message) is worth more than one seen in piece after piece; boilerplate
//     repeats, what matters is often said once;
//   - crowding: an item that came from a piece holding many items of its kind
//     (a listing of 200 paths, a table of numbers) is one of a crowd, and
//     worth less than the only path or number of its piece;
//   - outcome: a failed command outranks a succeeding one, a written file a
//     read one, a read one a mentioned one; a succeeding command that only
//     looks (cat, grep, ls, git status, …) is routine;
//   - oddness: what the one line of a uniform listing shaped unlike the
//     others holds (oddlines.go), and what a warning or error log line
//     holds, outranks what routine lines hold;
//   - recency: among equals, the later item wins.

// Tally counts what salience needs across the pieces of a compaction: in how
// many pieces each item was found, and how crowded those pieces were. Add one
// piece at a time. The zero Tally is ready to use.
type Tally struct {
	seen  map[string]int // key → number of pieces it was extracted from
	crowd map[string]int // key → fewest items of its kind in a piece it came from
	// Templates of errors, commands and measurements: the template of each
	// key, and per template the pieces it was seen in and its distinct
	// lines.
	tmpl       templates
	tmplOf     map[string]int
	tmplPieces map[int]int
	tmplLines  map[int]int
}

// Add tallies the items of one piece of the log (one tool result, one
// message). Repeats within the piece count once.
func (t *Tally) Add(piece []Item) {
	if t.seen == nil {
		t.seen = make(map[string]int)
		t.crowd = make(map[string]int)
		t.tmplOf = make(map[string]int)
		t.tmplPieces = make(map[int]int)
		t.tmplLines = make(map[int]int)
	}
	perKind := make(map[Kind]int, 8)
	keys := make(map[string]bool, len(piece))
	var pieceTmpl map[int]bool
	for i := range piece {
		k := piece[i].Key()
		if keys[k] {
			continue
		}
		keys[k] = true
		perKind[piece[i].Kind]++
	}
	for i := range piece {
		k := piece[i].Key()
		if !keys[k] {
			continue
		}
		delete(keys, k)
		t.seen[k]++
		if templated(piece[i].Kind) {
			id, ok := t.tmplOf[k]
			if !ok {
				id = t.tmpl.assign(piece[i].Kind, piece[i].Value, true)
				t.tmplOf[k] = id
				t.tmplLines[id]++
			}
			if pieceTmpl == nil {
				pieceTmpl = make(map[int]bool)
			}
			if !pieceTmpl[id] {
				pieceTmpl[id] = true // count a template once per piece
				t.tmplPieces[id]++
			}
		}
		n := perKind[piece[i].Kind]
		if c, ok := t.crowd[k]; !ok || n < c {
			t.crowd[k] = n
		}
	}
}

// Seen returns the number of pieces an item with the given key was tallied
// in; 0 when it never was.
func (t *Tally) Seen(key string) int { return t.seen[key] }

// Salience returns how much keeping it is worth, higher first. It depends on
// the item (kind, access, exit status) and on what the tally saw of it; an
// item never tallied counts as seen once in an uncrowded piece. Recency is
// not included: Bound adds it.
func (t *Tally) Salience(it Item) int {
	k := it.Key()
	seen, crowd := 1, 1
	if t != nil {
		if n := t.seen[k]; n > 0 {
			seen = n
		}
		if n := t.crowd[k]; n > 0 {
			crowd = n
		}
		if templated(it.Kind) {
			id, ok := t.tmplOf[k]
			if !ok {
				id = t.tmpl.assign(it.Kind, it.Value, false)
			}
			if id >= 0 {
				seen = max(seen, t.tmplPieces[id], t.tmplLines[id])
			}
		}
	}
	s := kindWeight(it.Kind)
	switch it.Kind {
	case KindCommand:
		switch {
		case (it.Exit != nil && *it.Exit != 0) || it.Failed:
			s += 250
		case routineCommand(it.Value):
			s -= 150
		}
	case KindNote:
		// A short remark ("Quick look at the deploy script.") says little;
		// what the assistant concluded, chose or found takes a sentence,
		// or names a figure, a path or a name ("p99 is 40.2ms now.").
		if len(strings.Fields(it.Value)) < shortNote && !strings.ContainsAny(it.Value, "0123456789/`=_") {
			s -= 150
		}
	case KindFile:
		switch it.Access {
		case Written:
			s += 200
		case Mentioned:
			s -= 50
		}
	}
	// Loudness: what a warning or error log line holds beats the same
	// kind on routine lines (the error line itself is already an error).
	if it.Loud && it.Kind != KindError {
		s += 150
	}
	// Oddness: the one line of a uniform listing shaped unlike the rest.
	if it.Odd {
		s += 100
	}
	// Rarity: once is worth most; a few times (said, then referred to
	// again) is neutral; from then on each doubling costs.
	if seen == 1 {
		s += 100
	} else if seen > 3 {
		s -= 80 * (bits.Len(uint(seen)) - 2)
	}
	// Crowding: alone in its piece is worth most; each doubling of the
	// crowd of its kind costs.
	if crowd > 2 {
		s -= 50 * (bits.Len(uint(crowd)) - 1)
	}
	return s
}

// shortNote is the number of words under which a note is a short remark.
const shortNote = 10

// kindWeight is the starting salience of a kind.
func kindWeight(k Kind) int {
	switch k {
	case KindPinned:
		return 2000
	case KindTask:
		return 1800
	case KindConstraint:
		return 900
	case KindError:
		return 600
	case KindDecision:
		return 600
	case KindNote:
		// Below a recognised decision, above a command: what the
		// assistant concluded in its own words is said once and is not
		// in any tool output to recall.
		return 450
	case KindCommand:
		return 350
	case KindID:
		return 350
	case KindMeasurement:
		return 320
	case KindFile:
		return 300
	case KindURL:
		return 250
	case KindPlan:
		// What the agent meant to do next is worth little once the step
		// ran; the latest plans are kept by the summary's next steps.
		return 100
	}
	// Kinds added later (plans, custom kinds) start from their priority.
	return 3 * Priority(k)
}

// lookCommands only look at things; run successfully, they are routine.
var lookCommands = map[string]bool{
	"cat": true, "ls": true, "ll": true, "grep": true, "rg": true, "ag": true, "head": true, "tail": true,
	"find": true, "fd": true, "sed": true, "awk": true, "wc": true, "pwd": true, "cd": true, "echo": true,
	"tree": true, "less": true, "more": true, "file": true, "stat": true, "which": true, "nl": true,
	"open": true, "goto": true, "scroll_up": true, "scroll_down": true, "search_file": true,
	"search_dir": true, "find_file": true, "view": true, "type": true, "dir": true, "du": true, "diff": true,
}

// lookGit are git subcommands that only look.
var lookGit = map[string]bool{"status": true, "diff": true, "log": true, "show": true, "branch": true, "blame": true, "grep": true, "ls-files": true}

// routineCommand reports whether a command line only looks at things: its
// first word (after environment assignments and sudo) is a reading command.
func routineCommand(cmd string) bool {
	f := strings.Fields(cmd)
	for len(f) > 0 && (strings.Contains(f[0], "=") || f[0] == "sudo" || f[0] == "command") {
		f = f[1:]
	}
	if len(f) == 0 {
		return false
	}
	w := f[0]
	if i := strings.LastIndexByte(w, '/'); i >= 0 {
		w = w[i+1:]
	}
	if w == "git" && len(f) > 1 {
		return lookGit[f[1]]
	}
	return lookCommands[w]
}
