package ledger

import (
	"strconv"
	"strings"
)

// This file groups lines of one template: log lines, errors, commands and
// figures that say the same thing with different numbers, ids and names
// ("timeout after 5s tenant=363", "timeout after 5s ledger=28"; a pod
// listing's "web-f70cad0d3-g9uh1 1/1 CrashLoopBackOff 3 21d" rows). A
// template seen many times is routine however unique each line is; what
// matters is often the one line of a shape never seen before.
//
// The grouping is a small version of the Drain log parser's: a line is cut
// into whitespace-separated tokens, every run of letters and digits that
// holds a digit becomes '#' (ids, counts, timestamps, hashes), and a line
// joins a template of its kind and length when at least 60% of its tokens
// equal the template's (a position where the template's lines already
// differ matches anything, up to 40% of the positions). Lines of one or
// two tokens join only a template they equal exactly, and so do commands:
// "pytest tests/a.py" and "pytest tests/b.py" are two actions, the same
// command rerun with another seed or limit is one.

// maxTemplates caps the templates kept per kind and length: past it, a line
// that matches none of them is a template of its own that later lines are
// not compared with (the cost stays linear in the number of items).
const maxTemplates = 256

// wildcard marks a template position where its lines differ.
const wildcard = "\x00*"

type template struct {
	tokens []string
	wild   int
	id     int
	// head is the position of a figure's headline number (the first
	// number of a measurement), which every line of the template shares
	// with its order of magnitude; -1 for other kinds.
	head int
}

// templates assigns lines to templates. The zero value is ready to use.
type templates struct {
	groups map[string][]*template // kind and token count → templates
	next   int
}

// templated reports whether items of kind k are grouped by template: the
// kinds whose lines repeat with different numbers. In an identifier the
// number is the point, and a path or URL is its own shape.
func templated(k Kind) bool {
	switch k {
	case KindError, KindCommand, KindMeasurement, KindNote, KindPlan:
		return true
	}
	return false
}

// assign returns the template id of a line of kind k, joining or creating a
// template when add is set; without add it only looks (-1: no template
// matches).
func (ts *templates) assign(k Kind, value string, add bool) int {
	toks := templateTokens(value, k == KindMeasurement)
	if len(toks) == 0 {
		return -1
	}
	key := string(k) + "\x00" + strconv.Itoa(len(toks))
	group := ts.groups[key]
	exact := k == KindCommand
	head := -1
	if k == KindMeasurement {
		head = headFigure(toks)
	}
	for _, t := range group {
		if t.head != head || head >= 0 && t.tokens[head] != toks[head] {
			continue
		}
		if joined, ok := t.match(toks, exact); ok {
			if add && joined {
				t.join(toks)
			}
			return t.id
		}
	}
	if !add {
		return -1
	}
	if ts.groups == nil {
		ts.groups = make(map[string][]*template)
	}
	t := &template{tokens: toks, id: ts.next, head: head}
	ts.next++
	if len(group) < maxTemplates {
		ts.groups[key] = append(group, t)
	}
	return t.id
}

// match reports whether toks belong to the template, and whether joining
// would change it (some position differs). With exact, only a line equal
// to the template's first belongs to it.
func (t *template) match(toks []string, exact bool) (differs, ok bool) {
	n := len(toks)
	equal, wild, newWild := 0, 0, 0
	for i, tok := range toks {
		switch {
		case t.tokens[i] == wildcard:
			wild++
		case t.tokens[i] == tok:
			equal++
		default:
			newWild++
		}
	}
	if n <= 2 || exact {
		return false, newWild == 0 && wild == 0
	}
	// At least 60% of the positions agree (a wildcard agrees), and no
	// more than 40% are wildcards once joined.
	if (equal+wild)*5 < n*3 || (wild+newWild)*5 > n*2 {
		return false, false
	}
	return newWild > 0, true
}

func (t *template) join(toks []string) {
	for i, tok := range toks {
		if t.tokens[i] != wildcard && t.tokens[i] != tok {
			t.tokens[i] = wildcard
			t.wild++
		}
	}
}

// headFigure returns the position of the first token of a figure's line
// that holds a number with its order of magnitude ("#6", "#3.#2",
// "took=#2ms"), or -1. Lines of a figure join a template only when their
// headline numbers agree in magnitude, whatever else they share: in a
// benchmark's listing "BenchmarkClaim-8 118946 ns/op 1440 B/op" has a
// template of its own among a dozen lines of five-digit ns/op, although
// three quarters of its tokens match theirs.
func headFigure(toks []string) int {
	for i, t := range toks {
		for k := 0; k+1 < len(t); k++ {
			if t[k] == '#' && isDigit(t[k+1]) && (k == 0 || t[k-1] == '=' || t[k-1] == ':') {
				return i
			}
		}
	}
	return -1
}

// templateTokens cuts a line into tokens, each with its runs of letters and
// digits that hold a digit replaced by '#'. With magnitude (figures), a
// number keeps its order of magnitude and its unit: "took=75ms" and
// "took=86ms" share a template, "took=4124.0ms" has another, as "(3 rows)"
// and "(68965 rows)" do.
func templateTokens(s string, magnitude bool) []string {
	fields := strings.Fields(s)
	for i, f := range fields {
		fields[i] = maskDigitRuns(f, magnitude)
	}
	return fields
}

// maskDigitRuns replaces each run of letters and digits that holds a digit
// by '#': "f70cad0d3-g9uh1" → "#-#", "took=75ms" → "took=#", "[arg-type]"
// stays. With magnitude, a run of digits then letters keeps the number of
// digits of its integer part and its letters: "took=75ms" → "took=#2ms",
// "4124.0ms" → "#4.#ms".
func maskDigitRuns(f string, magnitude bool) string {
	if strings.IndexAny(f, "0123456789") < 0 {
		return f
	}
	var b strings.Builder
	b.Grow(len(f))
	for i := 0; i < len(f); {
		if !isAlnum(f[i]) && f[i] != '_' {
			b.WriteByte(f[i])
			i++
			continue
		}
		j, digit := i, false
		for j < len(f) && (isAlnum(f[j]) || f[j] == '_') {
			if f[j] >= '0' && f[j] <= '9' {
				digit = true
			}
			j++
		}
		k := i
		for k < j && isDigit(f[k]) {
			k++
		}
		switch {
		case digit && magnitude && k > i && !strings.ContainsAny(f[k:j], "0123456789"):
			// A number, with its unit when letters follow.
			b.WriteByte('#')
			if i == 0 || f[i-1] != '.' {
				b.WriteString(strconv.Itoa(k - i))
			}
			b.WriteString(f[k:j])
		case digit:
			b.WriteByte('#')
		default:
			b.WriteString(f[i:j])
		}
		i = j
	}
	return b.String()
}
