package ledger

import (
	"cmp"
	"slices"
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

// lineShape returns a hash of the shape of line t.
func lineShape(t string) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	h := uint64(offset)
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
	cells  []cell // markOddCells' values of table rows, sorted
	cols   []cell // the same, in row order
	rowEnd []int  // the end in cols of each line's hashes
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

// cell is a value of a table, keyed by its row's shape and its column.
type cell struct {
	shape uint64
	col   int
	val   uint64 // the value's hash
}

func (c cell) less(d cell) int {
	if r := cmp.Compare(c.shape, d.shape); r != 0 {
		return r
	}
	if r := cmp.Compare(c.col, d.col); r != 0 {
		return r
	}
	return cmp.Compare(c.val, d.val)
}

// column reports whether c and d are values of one column.
func (c cell) column(d cell) bool { return c.shape == d.shape && c.col == d.col }

// markOddCells adds hotCell to the rows of text holding an odd value in a
// column (b.starts, b.shapes and b.sorted are those of text's lines).
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
	// Every value of the rows in a table: b.cols in row order, b.cells
	// sorted by column and value.
	b.cols, b.rowEnd = b.cols[:0], b.rowEnd[:0]
	for k, sh := range b.shapes {
		i, _ := slices.BinarySearch(b.sorted, sh)
		if i+minTableRows > len(b.sorted) || b.sorted[i+minTableRows-1] != sh {
			b.rowEnd = append(b.rowEnd, len(b.cols))
			continue
		}
		from := len(b.cols)
		b.cols = cellsOf(text[b.starts[k]:lineEnd(text, b.starts[k])], sh, b.cols)
		if len(b.cols)-from < 2 {
			b.cols = b.cols[:from] // one column: a list, not a table
		}
		b.rowEnd = append(b.rowEnd, len(b.cols))
	}
	b.cells = append(b.cells[:0], b.cols...)
	slices.SortFunc(b.cells, cell.less)
	// A column is the run of cells of one shape and column; its rows are the run's
	// cells. Its odd values are those seen once, when another value holds
	// three rows of four.
	var odd map[cell]bool
	for i := 0; i < len(b.cells); {
		j, top := i, 0
		for j < len(b.cells) && b.cells[j].column(b.cells[i]) {
			k := j + 1
			for k < len(b.cells) && b.cells[k] == b.cells[j] {
				k++
			}
			top = max(top, k-j)
			j = k
		}
		if n := j - i; n >= minTableRows && top*4 >= n*3 && top < n {
			for k := i; k < j; k++ {
				if (k == i || b.cells[k-1] != b.cells[k]) && (k+1 == j || b.cells[k+1] != b.cells[k]) {
					if odd == nil {
						odd = make(map[cell]bool)
					}
					odd[b.cells[k]] = true
				}
			}
		}
		i = j
	}
	if odd == nil {
		return
	}
	from := 0
	for k, end := range b.rowEnd {
		for _, c := range b.cols[from:end] {
			if odd[c] {
				m[b.starts[k]] |= hotCell
				break
			}
		}
		from = end
	}
}

// cellsOf appends to dst the first maxCellColumns whitespace-separated
// values of line, keyed by the line's shape and their column.
func cellsOf(line string, shape uint64, dst []cell) []cell {
	col := 0
	for i := 0; i < len(line) && col < maxCellColumns; {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j == i {
			break
		}
		h := uint64(14695981039346656037)
		for k := i; k < j; k++ {
			h = (h ^ uint64(line[k])) * 1099511628211
		}
		dst = append(dst, cell{shape: shape, col: col, val: h})
		col++
		i = j
	}
	return dst
}
