package corpus

import (
	"fmt"
	"slices"
)

// Half names one of the two disjoint halves every table of the generator is
// cut into. A session is drawn from one half only.
type Half string

const (
	// Tune is the half to look at while writing or adjusting extractors,
	// strategies and summarizers.
	Tune Half = "tune"
	// Report is the held-out half: generate it to report figures, never to
	// tune against.
	Report Half = "report"
)

// Halves lists both halves.
var Halves = []Half{Tune, Report}

// ParseHalf returns the half named s.
func ParseHalf(s string) (Half, error) {
	for _, h := range Halves {
		if string(h) == s {
			return h, nil
		}
	}
	return "", fmt.Errorf("unknown half %q (want tune or report)", s)
}

// split is a table cut into a tune half and a report half.
type split[T any] struct {
	tune, report []T
}

// of returns the entries of half h.
func (s *split[T]) of(h Half) []T {
	if h == Report {
		return s.report
	}
	return s.tune
}

// Table is one of the generator's tables as its entries' keys, for
// documentation and for checking that the halves share nothing.
type Table struct {
	Name   string
	Tune   []string
	Report []string
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
	return &split[T]{tune: tune, report: report}
}

func strSplit(name string, tune, report []string) *split[string] {
	return newSplit(name, tune, report, func(s string) string { return s })
}

// Tables returns every split table of the generator, sorted by name.
func Tables() []Table {
	out := slices.Clone(tables)
	slices.SortFunc(out, func(a, b Table) int {
		switch {
		case a.Name < b.Name:
			return -1
		case a.Name > b.Name:
			return 1
		}
		return 0
	})
	return out
}
