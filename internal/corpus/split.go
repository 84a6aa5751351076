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
	// adjusted to them, so it is a tuning half now, like Tune: Report,
	// Sealed and Holdout are the held-out halves. Its probe-bearing tables
	// (probe forms, error messages, commands, phrasings) hold entries of
	// their own (see fresh.go); a table without fresh entries (harnesses,
	// projects, styles) falls back to the report half's entries.
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
)

// Halves lists every half.
var Halves = []Half{Tune, Report, Fresh, Blind, Sealed, Holdout}

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

// split is a table cut into a tune half, a report half and, optionally, a
// fresh half, a blind half, a sealed half and a holdout half.
type split[T any] struct {
	tune, report, fresh, blind, sealed, holdout []T
	table                                       int // index in tables
	key                                         func(T) string
}

// of returns the entries of half h. A table without fresh (blind, sealed,
// holdout) entries gives the report half's entries for Fresh (Blind,
// Sealed, Holdout): those
// halves are held out like the report half, so sharing its entries with
// them leaks nothing into tuning.
func (s *split[T]) of(h Half) []T {
	switch h {
	case Report:
		return s.report
	case Fresh:
		if len(s.fresh) > 0 {
			return s.fresh
		}
		return s.report
	case Blind:
		if len(s.blind) > 0 {
			return s.blind
		}
		return s.report
	case Sealed:
		if len(s.sealed) > 0 {
			return s.sealed
		}
		return s.report
	case Holdout:
		if len(s.holdout) > 0 {
			return s.holdout
		}
		return s.report
	}
	return s.tune
}

// withFresh gives the table its fresh half. It is called from init
// functions (fresh.go), after every table is registered.
func (s *split[T]) withFresh(fresh []T) *split[T] {
	s.fresh = append(s.fresh, fresh...)
	for _, e := range fresh {
		tables[s.table].Fresh = append(tables[s.table].Fresh, s.key(e))
	}
	return s
}

// withBlind gives the table its blind half. It is called from init
// functions (blind.go), after every table is registered.
func (s *split[T]) withBlind(blind []T) *split[T] {
	s.blind = append(s.blind, blind...)
	for _, e := range blind {
		tables[s.table].Blind = append(tables[s.table].Blind, s.key(e))
	}
	return s
}

// withSealed gives the table its sealed half. It is called from init
// functions (sealed.go), after every table is registered.
func (s *split[T]) withSealed(sealed []T) *split[T] {
	s.sealed = append(s.sealed, sealed...)
	for _, e := range sealed {
		tables[s.table].Sealed = append(tables[s.table].Sealed, s.key(e))
	}
	return s
}

// withHoldout gives the table its holdout half. It is called from init
// functions (holdout.go), after every table is registered.
func (s *split[T]) withHoldout(holdout []T) *split[T] {
	s.holdout = append(s.holdout, holdout...)
	for _, e := range holdout {
		tables[s.table].Holdout = append(tables[s.table].Holdout, s.key(e))
	}
	return s
}

// Table is one of the generator's tables as its entries' keys, for
// documentation and for checking that the halves share nothing. Fresh
// (Blind, Sealed, Holdout) is empty for a table that falls back to its
// report half in fresh (blind, sealed, holdout) sessions.
type Table struct {
	Name    string
	Tune    []string
	Report  []string
	Fresh   []string
	Blind   []string
	Sealed  []string
	Holdout []string
}

var tables []Table

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
		out[i] = Table{Name: t.Name, Tune: slices.Clone(t.Tune), Report: slices.Clone(t.Report), Fresh: slices.Clone(t.Fresh), Blind: slices.Clone(t.Blind), Sealed: slices.Clone(t.Sealed), Holdout: slices.Clone(t.Holdout)}
	}
	slices.SortFunc(out, func(a, b Table) int { return strings.Compare(a.Name, b.Name) })
	return out
}
