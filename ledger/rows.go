package ledger

import (
	"strconv"
	"strings"
)

// This file holds the reading of tables of figures as whole rows.
//
// A tool that prints a table of figures (a load test's percentiles per
// endpoint, iostat's devices, a line counter's languages, kubectl top's
// pods) prints one row per thing measured, and the row that stands out is
// the one with the largest figures: the slow endpoint, the busy disk, the
// hungry pod. That row is kept whole, as printed, so that the figures keep
// their columns' order and the thing they measure; the other rows are read
// cell by cell as before.

// rowFigures returns the figures ending a row of an aligned table: a label
// of one or more words, then three or more figures (bare numbers, or numbers
// with a short unit touching them: 2316m, 1909Mi, 94.7%), the row aligned by
// runs of two spaces or more. ok is false for any other line.
func rowFigures(t string) (vals []float64, ok bool) {
	if len(t) < 12 {
		return nil, false
	}
	if !strings.Contains(t, "  ") {
		if strings.Count(t, ",") >= 3 && !strings.Contains(t, ", ") {
			return csvFigures(t)
		}
		if !strings.Contains(t, " | ") {
			return nil, false
		}
		return cellFigures(strings.Fields(t)) // psql's widest row has no gap
	}
	f := strings.Fields(t)
	k := len(f)
	for k > 0 {
		v, ok := figureCell(f[k-1])
		if !ok {
			break
		}
		vals = append(vals, v)
		k--
	}
	if k == 0 || len(vals) < 3 || !isAlpha(f[0][0]) && f[0][0] != '/' && f[0][0] != '[' {
		return cellFigures(f)
	}
	return vals, true
}

// csvFigures reads a row of comma-separated values as rowFigures reads an
// aligned row: a label (one or more fields), then three or more figures
// ("checkout,POST /api/checkout,40,11502,31.9,412.7,1388.1").
func csvFigures(t string) (vals []float64, ok bool) {
	f := strings.Split(t, ",")
	k := len(f)
	for k > 0 {
		v, ok := figureCell(strings.TrimSpace(f[k-1]))
		if !ok {
			break
		}
		vals = append(vals, v)
		k--
	}
	if k == 0 || len(vals) < 3 || f[0] == "" || !isAlpha(f[0][0]) && f[0][0] != '/' {
		return nil, false
	}
	return vals, true
}

// cellFigures reads the figures of a row whose cells are not a label then
// figures: psql's "plan_archive | 276 GB | 55 GB | 221 GB", a unit apart
// from its number, or mongostat's and vmstat's rows of figures with no
// label, a time at their end. The row is one of figures when they are
// three or more (five or more with no word before them) and at least
// three in five of its cells.
func cellFigures(f []string) (vals []float64, ok bool) {
	cells, words := 0, 0
	lead := true // no word before the first figure
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == "|" || c == "│" {
			continue
		}
		cells++
		if v, ok := figureCell(c); ok {
			vals = append(vals, v)
			if i+1 < len(f) && unitWord(f[i+1]) {
				i++ // "276 GB": one cell
			}
			continue
		}
		if len(vals) == 0 && (isAlpha(c[0]) || c[0] == '/') {
			lead = false // a label: a word, a device or a mount point
		}
		if lead && !figureLike(c) {
			// a row of figures with no label ends with figures or a
			// time, not a function's name (a profiler's row, which
			// profile reads)
			return nil, false
		}
		words++
	}
	least := 3
	if lead {
		least = 5
	}
	if len(vals) < least || len(vals)*5 < cells*3 {
		return nil, false
	}
	return vals, true
}

// figureLike reports whether a cell of a row of figures that is no figure
// is still one of its values: "13|0", "0|34", a time "08:45:32.533", a
// month's name.
func figureLike(c string) bool {
	switch c {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	for i := 0; i < len(c); i++ {
		if !isDigit(c[i]) && !strings.ContainsRune("|:./-", rune(c[i])) {
			return false
		}
	}
	return true
}

// unitWord reports whether w is a unit printed apart from its number: GB,
// MiB, ms, µs, rows.
func unitWord(w string) bool {
	switch w {
	case "B", "kB", "KB", "KiB", "MB", "MiB", "GB", "GiB", "TB", "TiB", "bytes", "ms", "µs", "us", "ns", "s", "sec", "rows", "%":
		return true
	}
	return false
}

// figureCell parses a cell that is a number, with at most three letters or
// a '%' after it.
func figureCell(c string) (float64, bool) {
	j := 0
	for j < len(c) && (isDigit(c[j]) || c[j] == '.') {
		j++
	}
	if j == 0 || !isDigit(c[0]) || len(c)-j > 3 {
		return 0, false
	}
	for k := j; k < len(c); k++ {
		if !isAlpha(c[k]) && c[k] != '%' {
			return 0, false
		}
	}
	v, err := strconv.ParseFloat(c[:j], 64)
	return v, err == nil
}

// summaryRow reports whether a row's label names a total rather than a
// thing measured.
func summaryRow(t string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(t), " ")
	switch strings.ToLower(strings.TrimRight(w, ":")) {
	case "total", "totals", "sum", "all", "aggregated", "overall", "average", "avg", "mean":
		return true
	}
	return false
}

// minRows is how many rows of one shape an output needs for its largest to
// stand out; a row with fewer like it stands out by itself when it holds
// minLoneFigures figures or more (stress-ng's one stressor, free's Mem:).
const (
	minRows        = 3
	minLoneFigures = 4
)

// pickedRow reports whether t is the row of the output's table of figures
// whose figures, each measured against its column's largest, weigh the
// most (see rowFigures): that row is added whole. The picks of an output
// are worked out once, when its first row of figures is read.
func (s *scanner) pickedRow(t string) bool {
	if !s.output || s.source || s.whole == "" {
		return false
	}
	if s.rowPicks == nil {
		s.rowPicks = pickRows(s.whole)
	}
	if !s.rowPicks[t] {
		return false
	}
	s.wide = true
	s.add(KindMeasurement, t)
	s.wide = false
	return true
}

// pickRows returns, for each table of figures in text (its rows grouped by
// how many figures they end with), the trimmed text of its weightiest row
// that is not a total, and of its total row if it has one.
func pickRows(text string) map[string]bool {
	type row struct {
		t    string
		vals []float64
	}
	tables := map[int][]row{}
	var totals []row
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		t := strings.TrimSpace(text[start:end])
		start = end + 1
		if vals, ok := rowFigures(t); ok {
			if summaryRow(t) {
				// a table's total is kept too: coverage's TOTAL, a
				// load test's Aggregated row
				totals = append(totals, row{t, vals})
				continue
			}
			tables[len(vals)] = append(tables[len(vals)], row{t, vals})
		}
	}
	picks := map[string]bool{}
	for _, rows := range tables {
		if len(rows) < minRows && len(rows[0].vals) < minLoneFigures {
			continue
		}
		top := make([]float64, len(rows[0].vals))
		for _, r := range rows {
			for i, v := range r.vals {
				top[i] = max(top[i], v)
			}
		}
		best, bestScore := "", -1.0
		for _, r := range rows {
			score := 0.0
			for i, v := range r.vals {
				if top[i] > 0 {
					score += v / top[i]
				}
			}
			if score > bestScore {
				best, bestScore = r.t, score
			}
		}
		picks[best] = true
	}
	for _, r := range totals {
		if rows := tables[len(r.vals)]; len(rows)+1 >= minRows {
			picks[r.t] = true
		}
	}
	return picks
}
