package corpus

import (
	"fmt"
	"slices"
	"strings"
)

// Half names one of the disjoint halves every table of the generator is
// cut into. A session is drawn from one half only.
type Half string

const (
	// Tune is the half to look at while writing or adjusting extractors,
	// strategies and summarizers.
	Tune Half = "tune"
	// Report is the held-out half: generate it to report figures, never to
	// tune against.
	Report Half = "report"
	// Fresh was a second held-out half, written without looking at the
	// extractors. Its misses have since been read and the extractors
	// adjusted to them, so it is a tuning half now, like Tune and Practice:
	// Report, Sealed, Holdout and Reserve are the held-out halves. Its
	// probe-bearing tables (probe forms, error messages, commands,
	// phrasings) hold entries of their own (see fresh.go); a table without
	// fresh entries (harnesses, projects, styles) falls back to the report
	// half's entries.
	Fresh Half = "fresh"
	// Blind was a held-out half, written without looking at the
	// extractors or at what the other halves plant, and, like Fresh,
	// tuned against once its misses were read: a third tuning half now.
	// Like the fresh half, its probe-bearing tables hold entries of their
	// own (see blind.go) and the other tables fall back to the report
	// half's entries.
	Blind Half = "blind"
	// Sealed is a held-out half written like Blind, after it and without
	// looking at the extractors or at what the four other halves plant:
	// report only, never tune on it. Its probe-bearing tables hold entries
	// of their own (see sealed.go); the other tables fall back to the
	// report half's entries.
	Sealed Half = "sealed"
	// Holdout is a held-out half written after Sealed and like it, without
	// looking at the extractors, with tools, libraries, ecosystems and
	// wordings none of the five other halves use: report only, never tune
	// on it. Its probe-bearing tables hold entries of their own (see
	// holdout.go); the other tables fall back to the report half's
	// entries.
	Holdout Half = "holdout"
	// Reserve is a held-out half written after Holdout and like it,
	// without looking at the extractors, with tools, libraries,
	// ecosystems and wordings none of the six other halves use: report
	// only, never tune on it. Its probe-bearing tables hold entries of
	// their own (see reserve.go); the other tables fall back to the report
	// half's entries.
	Reserve Half = "reserve"
	// Practice is a tuning half written after Reserve and like it, without
	// looking at the extractors, with tools, libraries, ecosystems and
	// wordings none of the seven other halves use. Unlike Sealed, Holdout
	// and Reserve, which stay report only, it is meant to be tuned
	// against: its misses may be read and the extractors adjusted to them.
	// Its probe-bearing tables hold entries of their own (see
	// practice.go); the other tables fall back to the report half's
	// entries.
	Practice Half = "practice"
	// Drill is a tuning half written after Practice and like it, without
	// looking at the extractors, with tools, formats and wordings none of
	// the eight other halves use. It drills what compaction still loses:
	// identifiers and figures printed inside the output of tools never
	// seen before, and errors, commands and decisions that reach the agent
	// through a tool's output. Like Practice it is meant to be tuned
	// against. Its probe-bearing tables hold entries of their own (see
	// drill.go); the other tables fall back to the report half's entries.
	Drill Half = "drill"
)

// Halves lists every half.
var Halves = []Half{Tune, Report, Fresh, Blind, Sealed, Holdout, Reserve, Practice, Drill}

// ParseHalf returns the half named s.
func ParseHalf(s string) (Half, error) {
	for _, h := range Halves {
		if string(h) == s {
			return h, nil
		}
	}
	names := make([]string, len(Halves))
	for i, h := range Halves {
		names[i] = string(h)
	}
	return "", fmt.Errorf("unknown half %q (want %s)", s, strings.Join(names, ", "))
}

func validHalf(h Half) bool { return slices.Contains(Halves, h) }

// split is a table cut into a tune half, a report half and, optionally,
// entries of its own for the other halves (fresh, blind, sealed, holdout,
// reserve, practice, drill).
type split[T any] struct {
	tune, report []T
	own          map[Half][]T // entries of the halves after the first two
	table        int          // index in tables
	key          func(T) string
}

// of returns the entries of half h. A table without entries of its own for
// Fresh (Blind, Sealed, Holdout, Reserve, Practice, Drill) gives the
// report half's entries for it: only the harnesses, projects and agent
// styles do, the tables whose entries are not probe texts (a project's
// alternatives, dependencies and versions do fill the decision and
// constraint phrasings).
func (s *split[T]) of(h Half) []T {
	switch {
	case h == Tune:
		return s.tune
	case len(s.own[h]) > 0:
		return s.own[h]
	}
	return s.report
}

// with gives the table entries of its own for half h (Fresh, Blind, Sealed,
// Holdout, Reserve, Practice or Drill). It is called from init functions
// (fresh.go, blind.go, sealed.go, holdout.go, reserve.go, practice.go,
// drill.go), after every table is registered.
func (s *split[T]) with(h Half, entries []T) *split[T] {
	if s.own == nil {
		s.own = make(map[Half][]T)
	}
	s.own[h] = append(s.own[h], entries...)
	keys := tables[s.table].keysOf(h)
	for _, e := range entries {
		*keys = append(*keys, s.key(e))
	}
	return s
}

// Table is one of the generator's tables as its entries' keys, for
// documentation and for checking that the halves share nothing. Fresh
// (Blind, Sealed, Holdout, Reserve, Practice, Drill) is empty for a table
// that falls back to its report half in fresh (blind, sealed, holdout,
// reserve, practice, drill) sessions.
type Table struct {
	Name     string
	Tune     []string
	Report   []string
	Fresh    []string
	Blind    []string
	Sealed   []string
	Holdout  []string
	Reserve  []string
	Practice []string
	Drill    []string
}

var tables []Table

// keysOf returns where the table lists the keys of half h's own entries.
func (t *Table) keysOf(h Half) *[]string {
	switch h {
	case Fresh:
		return &t.Fresh
	case Blind:
		return &t.Blind
	case Sealed:
		return &t.Sealed
	case Holdout:
		return &t.Holdout
	case Reserve:
		return &t.Reserve
	case Practice:
		return &t.Practice
	case Drill:
		return &t.Drill
	}
	panic("corpus: half " + string(h) + " has no entries of its own")
}

// newSplit registers a table under name; key gives an entry's identity (its
// text, or its name for structured entries).
func newSplit[T any](name string, tune, report []T, key func(T) string) *split[T] {
	t := Table{Name: name}
	for _, e := range tune {
		t.Tune = append(t.Tune, key(e))
	}
	for _, e := range report {
		t.Report = append(t.Report, key(e))
	}
	tables = append(tables, t)
	return &split[T]{tune: tune, report: report, table: len(tables) - 1, key: key}
}

func strSplit(name string, tune, report []string) *split[string] {
	return newSplit(name, tune, report, func(s string) string { return s })
}

// Tables returns every split table of the generator, sorted by name.
func Tables() []Table {
	out := make([]Table, len(tables))
	for i, t := range tables {
		out[i] = Table{Name: t.Name, Tune: slices.Clone(t.Tune), Report: slices.Clone(t.Report), Fresh: slices.Clone(t.Fresh), Blind: slices.Clone(t.Blind), Sealed: slices.Clone(t.Sealed), Holdout: slices.Clone(t.Holdout), Reserve: slices.Clone(t.Reserve), Practice: slices.Clone(t.Practice), Drill: slices.Clone(t.Drill)}
	}
	slices.SortFunc(out, func(a, b Table) int { return strings.Compare(a.Name, b.Name) })
	return out
}
