package ledger

import (
	"strings"

	"github.com/condense-dev/condense/internal/needles"
)

// This file reads what a failed assertion printed about the values it
// compared, in any test framework's words: the labelled values ("Actual:
// "INV-2024-0042"", "  left: [Ident("a"), Newline]", "Received string:
// "€50.00"", "Which is: "[::1"", "got: #<Date …>"), the changed lines of
// the diff it drew under a legend ("--- Expected / +++ Actual", "+ actual
// - expected", pytest's "Differing items:"), and a matcher's sentence
// ("3 was not equal to 5 (RateLimiterSpec.scala:34)"). The value that
// came out is what the fix is about; the test's name alone does not say
// it.

// maxDiffLines caps the changed lines kept of one assertion's diff.
const maxDiffLines = 4

// assertionLabels open a line giving one side of a comparison; the first
// strongLabels of them say so by themselves, the others ("Left: 2 workers
// still running", "Found: 3 stale snapshots") only near an assertion.
var assertionLabels = []string{"expected", "actual", "received", "want", "wanted", "but was",
	"got", "left", "right", "which is", "found", "obtained"}

const strongLabels = 6

// assertionValue reports whether t gives one side of a failed comparison
// under a label: "Actual:   "INV-2024-0042"", "Received message:
// "jwt malformed"", "left: [1, 2]". The label is one of assertionLabels,
// perhaps followed by one word ("Received string"), then a colon and a
// value.
func assertionValue(t string) bool { return assertionLabel(t) >= 0 }

// assertionLabel returns the index in assertionLabels of the label that
// opens t as a side of a comparison (see assertionValue), or -1.
func assertionLabel(t string) int {
	k := strings.IndexByte(t, ':')
	if k <= 0 || k > 24 || k+1 >= len(t) || strings.TrimSpace(t[k+1:]) == "" {
		return -1
	}
	label := strings.TrimSpace(t[:k])
	for i, l := range assertionLabels {
		if len(label) < len(l) || !strings.EqualFold(label[:len(l)], l) {
			continue
		}
		rest := label[len(l):]
		if rest == "" {
			return i
		}
		if rest[0] == ' ' && len(rest) <= 11 && every(rest[1:], func(c byte) bool { return isLower(c) || isUpper(c) }) && len(rest) > 1 {
			return i // "received string", "expected length"
		}
	}
	return -1
}

// diffLegends are the lines that introduce the diff of a failed comparison.
var diffLegends = []string{"differing items:", "--- expected", "+++ actual", "- expected", "+ received",
	"+ actual - expected", "+ expected - actual", "- expected + received", "- expected + actual"}

// diffLegend reports whether t introduces the diff of a failed
// comparison: "--- Expected", "+ actual - expected", "- Expected  - 1",
// "Differing items:", "Full diff:".
func diffLegend(t string) bool {
	t = strings.TrimSpace(t)
	if len(t) < 5 || len(t) >= 30 {
		return false
	}
	for _, l := range diffLegends {
		if strings.EqualFold(t, l) {
			return true
		}
	}
	if needles.HasPrefixFold(t, "- expected ") || needles.HasPrefixFold(t, "+ received ") {
		return strings.Contains(t[2:], "- ") || strings.Contains(t[2:], "+ ")
	}
	return needles.HasPrefixFold(t, "full diff:")
}

// matcherSentence reports whether t is a matcher's sentence about two
// values that differ: "3 was not equal to 5", "Expected objects to be the
// same.", "expected 3 to equal 5".
func matcherSentence(t string) bool {
	if len(t) > 300 {
		return false
	}
	for _, p := range []string{" was not equal to ", " were not equal", " did not equal ", " is not equal to ",
		" to be the same", " to deeply equal ", "expected objects to be"} {
		if needles.IndexFold(t, p) >= 0 {
			return true
		}
	}
	return false
}

// assertion reads line t of a failing command's output for what an
// assertion printed (see above), and adds it as an error. It reports
// whether the line was one.
func (s *scanner) assertion(t string) bool {
	if v, ok := strings.CutPrefix(t, "E "); ok {
		t = strings.TrimSpace(v) // pytest's detail lines
	} else if v, ok := strings.CutPrefix(t, "[info] "); ok {
		t = strings.TrimSpace(v) // sbt's
	}
	switch {
	case diffLegend(t):
		s.diffLeft, s.diffKept = 10, 0
		if strings.EqualFold(t, "differing items:") {
			s.diffKept = -1 // the next line is the item that differs
		}
		return false
	case s.diffLeft > 0:
		s.diffLeft--
		if s.diffKept < 0 {
			s.diffLeft, s.diffKept = 0, 0
			s.add(KindError, t)
			return true
		}
		if len(t) >= 2 && (t[0] == '+' || t[0] == '-') && !strings.HasPrefix(t, "+++") && !strings.HasPrefix(t, "---") &&
			s.diffKept < maxDiffLines {
			s.diffKept++
			s.add(KindError, t)
			return true
		}
	}
	if s.assertNear > 0 {
		s.assertNear--
	}
	if needles.IndexFold(t, "assert") >= 0 || needles.IndexFold(t, "expected") >= 0 || needles.IndexFold(t, "failure") >= 0 {
		s.assertNear = 4 // what the next lines label is an assertion's
	}
	l := assertionLabel(strings.TrimLeft(t, "+- "))
	if l >= 0 && l < strongLabels || l >= 0 && s.assertNear > 0 || matcherSentence(t) {
		s.add(KindError, t)
		return true
	}
	return false
}
