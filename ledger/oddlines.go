package ledger

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// This file finds the odd lines of uniform output: in a listing of forty
// commits, pods or files that all look alike, the one line shaped unlike the
// others ("0b92945 Reconcile the payment webhook (#483)" among
// "c8d0ff7 Remove payment in payments") is the one someone put there for a
// reason, and what it holds outranks what the routine lines hold.
//
// A line's shape is the sequence of its whitespace-separated tokens'
// classes: a token holding a digit, a token holding a bracket, quote or
// other marker, or a plain word. An output is uniform when it has at least
// minUniformLines lines and one shape covers at least half of them; its odd
// lines are those whose shape no other line has, and they are marked only
// when they are few (at most one line in ten, and at least one): in output
// of many shapes nothing stands out.

const (
	// minUniformLines is the fewest lines an output needs for its odd
	// lines to be marked.
	minUniformLines = 10
	// maxShapeTokens caps the tokens a shape spells out; longer lines are
	// told apart by their token count beyond it.
	maxShapeTokens = 24
)

// lineShape returns a hash of the shape of line t. A row of a table drawn
// with bars ("48213 | refunds_svc | idle in transaction | …", psql's and
// Markdown's) is shaped by its cells instead, each empty, holding a digit,
// a marker or words: the words a cell holds ("active", "idle in
// transaction") do not set its row apart.
func lineShape(t string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
	if barRow(t) {
		h = (h ^ '|') * prime
		for cell := range strings.SplitSeq(t, "|") {
			h = (h ^ uint64(cellShape(strings.TrimSpace(cell)))) * prime
		}
		return h
	}
	if gapRow(t) {
		// a row aligned with gaps whose cells hold words apart by single
		// spaces ("up  20240528141507  Add currency to line items"): its
		// cells shape it, not how many words its free text has
		h = (h ^ 'g') * prime
		gapCells(t, func(cell string) { h = (h ^ uint64(cellShape(cell))) * prime })
		return h
	}
	n := 0
	for i := 0; i < len(t); {
		for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
			i++
		}
		if i == len(t) {
			break
		}
		c := byte('w')
		for ; i < len(t) && t[i] != ' ' && t[i] != '\t'; i++ {
			switch b := t[i]; {
			case isDigit(b):
				c = 'n'
			case c == 'w' && strings.IndexByte("()[]{}<>\"'`#=:|@", b) >= 0:
				c = 'p'
			}
		}
		n++
		if n <= maxShapeTokens {
			h = (h ^ uint64(c)) * prime
		}
	}
	return (h ^ uint64(n)) * prime
}

// cellShape is the shape of a table's cell: 'e' empty, 'n' holding a
// digit, 'p' opening with a marker, 'w' words.
func cellShape(cell string) byte {
	switch {
	case cell == "":
		return 'e'
	case strings.ContainsAny(cell, "0123456789"):
		return 'n'
	case strings.IndexByte("()[]{}<>\"'`#=:@", cell[0]) >= 0:
		return 'p'
	}
	return 'w'
}

// gapRow reports whether t is a row aligned with gaps (two spaces or
// more, or a tab, between cells) of three cells or more, one of them
// holding words apart by single spaces.
func gapRow(t string) bool {
	if !strings.Contains(t, "  ") && strings.IndexByte(t, '\t') < 0 {
		return false
	}
	n, spaced := 0, false
	gapCells(t, func(cell string) {
		n++
		spaced = spaced || proseCell(cell)
	})
	return n >= 3 && spaced
}

// gapCells calls f with each cell of t, its cells apart by gaps.
func gapCells(t string, f func(cell string)) {
	t = strings.TrimSpace(t)
	for i := 0; i < len(t); {
		j := i
		for j < len(t) && t[j] != '\t' && !(t[j] == ' ' && j+1 < len(t) && t[j+1] == ' ') {
			j++
		}
		f(t[i:j])
		for j < len(t) && (t[j] == ' ' || t[j] == '\t') {
			j++
		}
		i = j
	}
}

// proseCell reports whether a cell holds words apart by single spaces, each
// opening with a letter: "Add currency to line items", not "4.17.21
// 4.17.21" squeezed by a narrow column.
func proseCell(cell string) bool {
	n := 0
	for w := range strings.FieldsSeq(cell) {
		if !isAlpha(w[0]) {
			return false
		}
		n++
	}
	return n >= 2
}

// barRow reports whether t is a row of a table drawn with bars: two bars
// or more, one of them between spaces.
func barRow(t string) bool {
	return strings.Count(t, "|") >= 2 && strings.Contains(t, " | ")
}

// lineEnd returns the end of the line of text that starts at start, before
// its newline.
func lineEnd(text string, start int) int {
	if e := strings.IndexByte(text[start:], '\n'); e >= 0 {
		return start + e
	}
	return len(text)
}

// oddBuf holds markOddLines' buffers, reused from text to text.
type oddBuf struct {
	starts []int
	shapes []uint64
	sorted []uint64
	// markOddCells' buffers: the lines in order of shape, a table's values' hashes
	// row by row, and the values of a column that differ from its
	// dominant one.
	order []int
	vals  []uint64
	other []uint64
}

var oddBufs = sync.Pool{New: func() any { return new(oddBuf) }}

// markOddLines adds hotOdd to the marks of the odd lines of text (m holds
// the marks by line start, as markLines left them): the lines shaped unlike
// the rest of a uniform output, and the rows of a table that hold the one
// odd value of a column (see markOddCells), unless cells is false (a
// source file's content is no table).
func markOddLines(text string, m map[int]uint8, cells bool) {
	least := minUniformLines
	if cells {
		least = minTableRows
	}
	if strings.Count(text, "\n") < least-1 {
		return
	}
	b := oddBufs.Get().(*oddBuf)
	defer oddBufs.Put(b)
	b.mark(text, m, cells)
}

func (b *oddBuf) mark(text string, m map[int]uint8, cells bool) {
	b.starts, b.shapes = b.starts[:0], b.shapes[:0]
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		if t := strings.TrimSpace(text[start:end]); t != "" {
			b.starts = append(b.starts, start)
			b.shapes = append(b.shapes, lineShape(t))
		}
		start = end + 1
	}
	n := len(b.shapes)
	if n < minTableRows {
		return
	}
	b.sorted = append(b.sorted[:0], b.shapes...)
	slices.Sort(b.sorted)
	if cells {
		b.markOddCells(text, m)
		if n < minUniformLines {
			b.markShortOdd(text, m)
		}
	}
	if n < minUniformLines {
		return
	}
	top, odd := 0, 0
	for i := 0; i < n; {
		j := i + 1
		for j < n && b.sorted[j] == b.sorted[i] {
			j++
		}
		top = max(top, j-i)
		if j-i == 1 {
			odd++
		}
		i = j
	}
	if top*2 < n || odd == 0 || odd*10 > n {
		return
	}
	for k, sh := range b.shapes {
		if _, found := slices.BinarySearch(b.sorted, sh); found && once(b.sorted, sh) {
			m[b.starts[k]] |= hotOdd
		}
	}
}

// markShortOdd marks the odd line of a short listing (fewer than
// minUniformLines lines): under a header of words, every row but one
// with as many cells as each other, at least minTableRows-1 of them, and
// the one row with more or fewer: the node claim with no node among
// claims on nodes. Cells are counted, not shaped: the names of a short
// listing (general-jxcvm, general-3dn3o) differ in shape by chance. Its
// rows have cells apart: a gap of spaces or a tab. A
// listing this short has no room for a second odd line: with two,
// nothing is marked.
func (b *oddBuf) markShortOdd(text string, m map[int]uint8) {
	starts := b.starts
	if first := text[starts[0]:lineEnd(text, starts[0])]; !strings.ContainsAny(first, "0123456789") {
		starts = starts[1:] // the header
	}
	if len(starts) < minTableRows {
		return
	}
	for _, k := range starts[:2] {
		if !gapped(strings.TrimSpace(text[k:lineEnd(text, k)])) {
			return // lines of words, not a listing's rows
		}
	}
	cells := func(k int) int { return len(strings.Fields(text[starts[k]:lineEnd(text, starts[k])])) }
	// the count of most rows: that of the first row, unless the second
	// and third rows agree on another
	a := cells(0)
	if c := cells(1); c != a && cells(2) == c {
		a = c
	}
	if a < 3 {
		return
	}
	odd := -1
	for k := range starts {
		if cells(k) == a {
			continue
		}
		if odd >= 0 {
			return
		}
		odd = k
	}
	if odd >= 0 {
		m[starts[odd]] |= hotOdd
	}
}

// once reports whether v occurs exactly once in the sorted slice s.
func once(s []uint64, v uint64) bool {
	i, _ := slices.BinarySearch(s, v)
	return i+1 >= len(s) || s[i+1] != v
}

// The rows of a table hold an odd value when, among at least minTableRows
// rows of one shape and two columns or more, a column holds one value in at
// least three rows of four and the row holds another value there, seen in
// no other row: the job at 0/1 among jobs at 1/1, the row marked "stuck"
// among rows marked "done". A column whose values all differ (names,
// times) or that splits evenly says nothing; only the first maxCellColumns
// columns are read.
const (
	minTableRows   = 4
	maxCellColumns = 12
)

// markOddCells adds hotCell to the rows of text holding an odd value in a
// column (b.starts, b.shapes and b.sorted are those of text's lines). It
// is linear in the cells read: a column's dominant value is found by a
// majority vote, and only the few rows that differ from it are sorted.
func (b *oddBuf) markOddCells(text string, m map[int]uint8) {
	big := false
	for i := 0; i+minTableRows <= len(b.sorted); i++ {
		if b.sorted[i] == b.sorted[i+minTableRows-1] {
			big = true
			break
		}
	}
	if !big {
		return
	}
	// The lines in order of shape, then of position: each table's rows
	// are a run.
	b.order = b.order[:0]
	for k := range b.shapes {
		b.order = append(b.order, k)
	}
	slices.SortStableFunc(b.order, func(x, y int) int { return cmp.Compare(b.shapes[x], b.shapes[y]) })
	for i := 0; i < len(b.order); {
		j := i + 1
		for j < len(b.order) && b.shapes[b.order[j]] == b.shapes[b.order[i]] {
			j++
		}
		if j-i >= minTableRows {
			b.markTable(text, m, b.order[i:j])
		}
		i = j
	}
}

// markTable marks the odd rows of a table, the lines rows of text.
func (b *oddBuf) markTable(text string, m map[int]uint8, rows []int) {
	b.vals = b.vals[:0]
	// Rows with as many commas as each other, two or more, are CSV: their
	// values are between the commas.
	commas := -1
	for _, k := range rows {
		c := strings.Count(text[b.starts[k]:lineEnd(text, b.starts[k])], ",")
		if c < 2 || commas >= 0 && c != commas {
			commas = -1
			break
		}
		commas = c
	}
	sep := byte(0) // cells apart by whitespace
	switch {
	case barRow(strings.TrimSpace(text[b.starts[rows[0]]:lineEnd(text, b.starts[rows[0]])])):
		sep = '|' // rows of one shape have as many bars
	case commas > 0:
		sep = ','
	}
	ncol := -1
	for _, k := range rows {
		from := len(b.vals)
		b.vals = valuesOf(text[b.starts[k]:lineEnd(text, b.starts[k])], b.vals, sep)
		if n := len(b.vals) - from; ncol < 0 || n != ncol {
			if ncol >= 0 {
				return // rows of one shape have as many words, but for a hash collision
			}
			ncol = n
		}
	}
	if ncol < 2 {
		return // one column: a list, not a table
	}
	n := len(rows)
	b.markOutliers(text, m, rows, ncol, sep)
	// A row in a bad state (Failed, CrashLoopBackOff) among rows that are
	// not is odd, whatever else its columns hold: the failed job among
	// running and finished ones.
	b.other = b.other[:0] // the starts of the rows in a bad state
	for _, k := range rows {
		if badStatus(text[b.starts[k]:lineEnd(text, b.starts[k])]) {
			b.other = append(b.other, uint64(b.starts[k]))
		}
	}
	if len(b.other)*4 <= n {
		for _, start := range b.other {
			m[int(start)] |= hotBad
		}
	}
	for c := 0; c < ncol; c++ {
		// The majority vote: the only value that may hold more than half
		// the rows.
		cand, votes := uint64(0), 0
		for r := 0; r < n; r++ {
			v := b.vals[r*ncol+c]
			switch {
			case votes == 0:
				cand, votes = v, 1
			case v == cand:
				votes++
			default:
				votes--
			}
		}
		top := 0
		for r := 0; r < n; r++ {
			if b.vals[r*ncol+c] == cand {
				top++
			}
		}
		if top == n {
			continue
		}
		if top*4 < n*3 {
			b.markRare(m, rows, ncol, c)
			continue
		}
		b.other = b.other[:0]
		for r := 0; r < n; r++ {
			if v := b.vals[r*ncol+c]; v != cand {
				b.other = append(b.other, v)
			}
		}
		slices.Sort(b.other)
		for r := 0; r < n; r++ {
			v := b.vals[r*ncol+c]
			if v == cand {
				continue
			}
			i, _ := slices.BinarySearch(b.other, v)
			if i+1 == len(b.other) || b.other[i+1] != v {
				m[b.starts[rows[r]]] |= hotCell
			}
		}
	}
}

// A column of whole numbers marks its largest when that is at least
// outlierFactor times the next largest and outlierGap more: the job
// retried 24 times among jobs retried up to 3 times. Figures with a unit
// or a decimal point (times, sizes) are left to the measurements' own
// ranking.
const (
	outlierFactor = 4
	outlierGap    = 10
)

// markOutliers adds hotCell to the row holding the outlier of a column of
// whole numbers (see outlierFactor), the rows of a table being rows, with
// ncol cells apart by sep (0: by whitespace).
func (b *oddBuf) markOutliers(text string, m map[int]uint8, rows []int, ncol int, sep byte) {
	for c := 0; c < ncol; c++ {
		top, next, at := -1, -1, -1
		for _, k := range rows {
			v, ok := wholeCell(text[b.starts[k]:lineEnd(text, b.starts[k])], c, sep)
			if !ok {
				top = -1
				break
			}
			switch {
			case v > top:
				top, next, at = v, top, k
			case v > next:
				next = v
			}
		}
		if top >= 0 && next >= 0 && top >= outlierFactor*next && top-next >= outlierGap {
			m[b.starts[at]] |= hotCell
		}
		// A column of percentages marks its lowest when that is at most
		// half the next lowest and lowShareGap points below it: the file
		// covered at 34% among files covered at 73–100%.
		low, second, lowAt := math.Inf(1), math.Inf(1), -1
		for _, k := range rows {
			v, ok := percentCell(text[b.starts[k]:lineEnd(text, b.starts[k])], c, sep)
			if !ok {
				lowAt = -1
				break
			}
			switch {
			case v < low:
				low, second, lowAt = v, low, k
			case v < second:
				second = v
			}
		}
		if lowAt >= 0 && len(rows) >= 4 && low*2 <= second && second-low >= lowShareGap {
			m[b.starts[lowAt]] |= hotCell
		}
	}
}

// lowShareGap is how many points a column's lowest percentage must be
// below the next lowest to stand out.
const lowShareGap = 20

// percentCell returns cell c of line, when it is a percentage: "34%",
// "38.46%".
func percentCell(line string, c int, sep byte) (float64, bool) {
	cell := cellAt(line, c, sep)
	num, ok := strings.CutSuffix(cell, "%")
	if !ok || num == "" || len(num) > 7 {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	return v, err == nil && v >= 0 && v <= 100
}

// cellAt returns cell c of line, its cells apart by sep (0: by
// whitespace), or "".
func cellAt(line string, c int, sep byte) string {
	if sep != 0 {
		cells := strings.Split(line, string(sep))
		if c >= len(cells) {
			return ""
		}
		return strings.TrimSpace(cells[c])
	}
	i := 0
	for k := 0; ; k++ {
		var j int
		i, j = nextField(line, i)
		if i == j {
			return ""
		}
		if k == c {
			return line[i:j]
		}
		i = j
	}
}

// wholeCell returns cell c of line, when it is a whole number.
func wholeCell(line string, c int, sep byte) (int, bool) {
	cell := cellAt(line, c, sep)
	if cell == "" || len(cell) > 9 || !allDigits(cell) {
		return 0, false
	}
	v, err := strconv.Atoi(cell)
	return v, err == nil
}

// Among at least minCategoryRows rows, a column of a few values
// (maxCategories at most, each but one in two rows or more) is a category
// (a status, a currency, a region), and a row whose value there no other
// row has is odd: the one "refund_failed" among rows "paid", "pending"
// and "refunded".
const (
	minCategoryRows = 8
	maxCategories   = 5
)

// markRare marks the rows of a table whose value in column c is the one
// value of a category column seen in a single row (see maxCategories).
func (b *oddBuf) markRare(m map[int]uint8, rows []int, ncol, c int) {
	n := len(rows)
	if n < minCategoryRows {
		return
	}
	b.other = b.other[:0]
	for r := 0; r < n; r++ {
		b.other = append(b.other, b.vals[r*ncol+c])
	}
	slices.Sort(b.other)
	distinct, single := 0, uint64(0)
	singles := 0
	for i := 0; i < n; {
		j := i + 1
		for j < n && b.other[j] == b.other[i] {
			j++
		}
		distinct++
		if j-i == 1 {
			singles++
			single = b.other[i]
		}
		i = j
	}
	if distinct > maxCategories || singles != 1 {
		return
	}
	for r := 0; r < n; r++ {
		if b.vals[r*ncol+c] == single {
			m[b.starts[rows[r]]] |= hotCell
		}
	}
}

// valuesOf appends to dst the hashes of the first maxCellColumns values of
// line: separated by whitespace, or by sep (a comma, a bar) when it is
// not 0, each then trimmed of spaces.
func valuesOf(line string, dst []uint64, sep byte) []uint64 {
	col := 0
	for i := 0; i < len(line) && col < maxCellColumns; {
		var j int
		if sep != 0 {
			j = strings.IndexByte(line[i:], sep)
			if j < 0 {
				j = len(line)
			} else {
				j += i
			}
		} else {
			i, j = nextField(line, i)
		}
		if j == i && sep == 0 {
			break
		}
		cell := strings.TrimSpace(line[i:j])
		h := uint64(14695981039346656037)
		for k := 0; k < len(cell); k++ {
			h = (h ^ uint64(cell[k])) * 1099511628211
		}
		dst = append(dst, h)
		col++
		i = j
		if sep != 0 {
			i++ // past the separator
		}
	}
	return dst
}

// A record of a pretty-printed array of JSON records (jq's output, one
// member a line) stands out when a member all records have holds, in
// three records of four or more, one value, and in this record another no
// other record holds: the delivery that failed "permanent" among failures
// "temporary". Such a record is kept whole, on one line, its members that
// hold the common value left out (oddRecords).
const minRecords = 4

// jsonMember is a member of a record: its key and its value as printed.
type jsonMember struct{ key, value string }

// oddRecords returns the records of text that stand out (see minRecords),
// each as one line of its members.
func oddRecords(text string) []string {
	if strings.Count(text, "\n{") < minRecords-1 && !strings.HasPrefix(text, "{") {
		return nil
	}
	var recs [][]jsonMember
	var cur []jsonMember
	in := false
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		line := text[start:end]
		t := strings.TrimSpace(line)
		switch {
		case t == "{" && len(line)-len(strings.TrimLeft(line, " ")) <= 2:
			in, cur = true, nil
		case in && (t == "}" || t == "},"):
			recs = append(recs, cur)
			in = false
		case in:
			k, ok := memberKey(t)
			v := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[min(len(t), len(k)+3):]), ","))
			if !ok || strings.HasSuffix(t, "{") || strings.HasSuffix(t, "[") {
				in = false // a nested value: not a flat record
				break
			}
			cur = append(cur, jsonMember{k, v})
		}
		start = end + 1
	}
	if len(recs) < minRecords {
		return nil
	}
	// the values of each key, record by record
	odd := make([]bool, len(recs))
	common := map[string]string{}
	for _, m := range recs[0] {
		vals := map[string]int{}
		n := 0
		for _, r := range recs {
			for _, o := range r {
				if o.key == m.key {
					vals[o.value]++
					n++
					break
				}
			}
		}
		if n != len(recs) {
			continue
		}
		top, topV := 0, ""
		for v, c := range vals {
			if c > top {
				top, topV = c, v
			}
		}
		if top*4 >= n*3 {
			common[m.key] = topV
		}
		if top == n || top*4 < n*3 {
			continue
		}
		for i, r := range recs {
			for _, o := range r {
				if o.key == m.key && o.value != topV && vals[o.value] == 1 {
					odd[i] = true
				}
			}
		}
	}
	var out []string
	for i, r := range recs {
		if !odd[i] {
			continue
		}
		var b strings.Builder
		for _, m := range r {
			if common[m.key] == m.value {
				continue // what every record says
			}
			if b.Len() > 0 {
				b.WriteString(", ")
			}
			b.WriteString(`"` + m.key + `": ` + m.value)
		}
		out = append(out, b.String())
	}
	return out
}
