package ledger

import "strings"

// This file reads figures in tables. A benchmark or load tool's table
// (autocannon's boxes, a Markdown table, psql's output) puts its figures in
// cells whose meaning is in the column's header and the row's first cell:
//
//	│ Stat    │ 2.5% │ 50%  │ … │ Avg       │ Stdev    │
//	├─────────┼──────┼──────┼───┼───────────┼──────────┤
//	│ Latency │ 1 ms │ 8 ms │ … │ 189.73 ms │ 21.90 ms │
//
// Read as prose, "189.73 ms" has no label (the cell border stops it), and
// every cell of every such table looks alike. Read as a table it is
// "Latency Avg 189.73 ms": what it measures, and a line of its own shape.

// tableState follows the table a text is in, line by line.
type tableState struct {
	// rows is the number of rows with cells since the table began
	// (borders and rules do not count).
	rows int
	// head holds the header's cells once a rule confirmed it.
	head []string
	// pending is the table's first row, held back until the next line
	// says whether it is a header (a rule follows) or data.
	pending string
	// ids are the values of the id columns of its first rows, kept when
	// the table ends if it had few rows (see tableIDs).
	ids []string
}

// reset ends the table.
func (ts *tableState) reset() { *ts = tableState{} }

// cellSeps are the characters that separate a table's cells.
var cellSeps = []string{"|", "│", "┃", "║"}

// tableCells splits a table row into its trimmed cells; ok is false when
// the line is not one (no separator, or fewer than two cells). The empty
// cells outside the outer borders ("| a | b |") are dropped; psql draws
// none (" id | status").
func tableCells(t string) (cells []string, ok bool) {
	n := 0
	for _, sep := range cellSeps {
		n += strings.Count(t, sep)
	}
	if n == 0 {
		return nil, false
	}
	norm := t
	for _, sep := range cellSeps[1:] {
		if strings.Contains(norm, sep) {
			norm = strings.ReplaceAll(norm, sep, "|")
		}
	}
	cells = strings.Split(norm, "|")
	for i := range cells {
		cells[i] = strings.TrimSpace(cells[i])
	}
	if len(cells) > 0 && cells[0] == "" {
		cells = cells[1:]
	}
	if len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	return cells, len(cells) >= 2
}

// tableRule reports whether a line only draws a table's border or the rule
// under its header: dashes, equals signs, pluses, colons, pipes and
// box-drawing characters, at least three of them.
func tableRule(t string) bool {
	n := 0
	for _, r := range t {
		switch {
		case r == '-' || r == '=' || r == '+' || r == ':' || r == '|':
		case r >= 0x2500 && r <= 0x257F: // box drawing
		case r == ' ' || r == '\t':
			continue
		default:
			return false
		}
		n++
	}
	return n >= 3
}

// tableLine takes line t of output as part of a table. It reports whether
// t's figures were read here (the caller skips its own measurement pass),
// and reads a held-back first row as data when t shows it was not a
// header.
func (s *scanner) tableLine(t string) bool {
	ts := &s.table
	if ts.rows == 0 && strings.IndexByte(t, '|') < 0 && strings.IndexByte(t, 0xE2) < 0 {
		// Not in a table, and no separator ('|' or a box-drawing
		// character, all of which start with the byte 0xE2).
		return false
	}
	if tableRule(t) {
		if ts.pending != "" {
			ts.head, _ = tableCells(ts.pending)
			ts.pending = ""
		}
		return true
	}
	cells, ok := tableCells(t)
	if !ok {
		if n, ok := rowCount(t); ok && n > maxIDRows {
			ts.ids = nil // psql's footer: the rows shown were the first of many
		}
		s.endTable()
		return false
	}
	ts.rows++
	if ts.rows == 1 {
		ts.pending = t
		return true
	}
	s.releasePending()
	if ts.head == nil {
		return false
	}
	if ts.rows-1 <= maxIDRows {
		s.tableIDs(cells)
	} else {
		ts.ids = nil
	}
	return s.tableRow(cells)
}

// maxIDRows is how many data rows a table may have for the ids of its id
// columns to be kept: a query that returns a few rows is about those rows;
// the rows of a long result are left to its odd ones.
const maxIDRows = 3

// rowCount reads psql's footer, "(1 row)" or "(219 rows)".
func rowCount(t string) (int, bool) {
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, "(") || !strings.HasSuffix(t, " row)") && !strings.HasSuffix(t, " rows)") {
		return 0, false
	}
	n := 0
	for _, c := range t[1:strings.IndexByte(t, ' ')] {
		if c < '0' || c > '9' || n > 1e9 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// tableIDs holds the values of a data row's id columns ("id", "user_id",
// "uuid", "pk"), each under its column's name: " 48213 | ana@example.com"
// under " id | email" is "id=48213". They are added when the table ends
// with at most maxIDRows rows.
func (s *scanner) tableIDs(cells []string) {
	head := s.table.head
	for i, c := range cells {
		if i >= len(head) || c == "" || len(c) > 64 || strings.ContainsAny(c, " \t") || !idColumn(head[i]) {
			continue
		}
		if !(allDigits(c) && len(c) >= 3 || generatedID(c) || strings.ContainsAny(c, "0123456789") && strings.ContainsAny(c, "-_") && len(c) >= 6) {
			continue // 1, 42, null, a name
		}
		if entityKeys[strings.TrimSuffix(strings.ToLower(head[i]), "_id")] && allDigits(c) && len(c) < 5 {
			continue // as in a log, "tenant_id | 105" is a field, not a handle
		}
		s.table.ids = append(s.table.ids, head[i]+"="+c)
	}
}

// idColumn reports whether a table's column header names an id.
func idColumn(h string) bool {
	return idKey(h) || strings.EqualFold(h, "id") || strings.EqualFold(h, "uuid") || strings.EqualFold(h, "pk") ||
		len(h) > 3 && strings.HasSuffix(strings.ToLower(h), " id")
}

// endTable ends the current table, reading a held-back first row as data
// and keeping the ids of a short one.
func (s *scanner) endTable() {
	s.releasePending()
	for _, id := range s.table.ids {
		s.add(KindID, id)
	}
	s.table.reset()
}

// releasePending reads the held-back first row, which no rule followed, as
// an ordinary line of figures.
func (s *scanner) releasePending() {
	if p := s.table.pending; p != "" {
		s.table.pending = ""
		// read as the line it is, not as the current one
		line := s.figureLine
		s.figureLine = ""
		if s.wholeFigureLine(p) {
			s.figureLine = undecorated(p)
		}
		s.measurements(p, nil)
		s.figureLine = line
	}
}

// tableRow adds the figures of a data row under a header, each labelled
// with the row's first cell and its column's header. It reports false when
// the row holds no figure it could label, so the caller reads it as text.
func (s *scanner) tableRow(cells []string) bool {
	head := s.table.head
	row := ""
	if c := cells[0]; c != "" && !isDigit(c[0]) && len(c) <= 40 {
		row = c
	}
	found := false
	for i, c := range cells {
		if c == "" || !isDigit(c[0]) && !(len(c) > 1 && (c[0] == '-' || c[0] == '+') && isDigit(c[1])) {
			continue
		}
		at := 0
		if !isDigit(c[0]) {
			at = 1
		}
		j, ok := numberEnd(c, at)
		if !ok {
			continue
		}
		k, unit := unitAfter(c, plusMinus(c, j))
		h := ""
		if i < len(head) && head[i] != "" && len(head[i]) <= 40 && head[i] != row {
			h = head[i]
		}
		if unit == "" {
			// a bare number under a header that names a measure:
			// psql's "mean_exec_time | 481.77", "P99(ms)"
			if h == "" || j != len(c) || !measureHeader(h) {
				continue
			}
			k = j
		}
		label := strings.TrimSpace(row + " " + h)
		if label == "" {
			continue
		}
		if unit == "" {
			s.addCappedIn(label+": "+c[:k], len(label)+2, "column\x00"+h)
		} else {
			s.addCapped(label+" "+c[:k+len(unit)], len(label)+1)
		}
		found = true
	}
	return found
}

// headerKey spells a column's header as a key: "p99 (ms)" → "p99__ms".
var headerKey = strings.NewReplacer(" ", "_", "(", "_", ")", "", "[", "_", "]", "")

// measureHeader reports whether a table column's header names a measure:
// a key that does (measureKey: "mean_exec_time", "P99(ms)"), a unit in
// brackets ("Latency (ms)", "Size [MiB]", "%CPU"), or a word that does by
// itself ("time", "size", "memory").
func measureHeader(h string) bool {
	low := strings.ToLower(strings.TrimSpace(h))
	if measureKey(headerKey.Replace(low)) {
		return true
	}
	if o := strings.IndexAny(low, "(["); o >= 0 {
		u := strings.Trim(low[o:], "()[] ")
		if unitSet[u] || unitSet[strings.ToUpper(u[:min(1, len(u))])+u[min(1, len(u)):]] || u == "usec" || u == "msec" || u == "%" {
			return true
		}
	}
	switch low {
	case "time", "size", "mem", "memory", "cpu", "%cpu", "cpu%", "%mem", "mem%", "usage", "rss", "latency",
		"duration", "throughput", "rate", "speed", "elapsed", "total time", "wall", "wall time":
		return true
	}
	return false
}

// alignedLine reads a table aligned with spaces ("Endpoint  Requests
// Mean(ms)  P99(ms)" then "/checkout  41223  12.34  481.77"): after its
// header (columnHeader), a row with as many columns gives the bare numbers
// under headers that name a measure, labelled with the row's first cell and
// the header, at most a few per column (see addCappedIn). It reports
// whether the line gave any.
func (s *scanner) alignedLine(t string) bool {
	if !s.output {
		return false
	}
	if columnHeader(t) {
		s.aligned = gapFields(t)
		return false
	}
	if s.aligned == nil {
		return false
	}
	cells := gapFields(t)
	if len(cells) != len(s.aligned) {
		s.aligned = nil
		return false
	}
	row := cells[0]
	if row == "" || isDigit(row[0]) || len(row) > 40 {
		row = ""
	}
	found := false
	for i := 1; i < len(cells); i++ {
		c, h := cells[i], s.aligned[i]
		if c == "" || !isDigit(c[0]) || !measureHeader(h) {
			continue
		}
		if j, ok := numberEnd(c, 0); !ok || j != len(c) {
			continue
		}
		label := strings.TrimSpace(row + " " + h)
		s.addCappedIn(label+": "+c, len(label)+2, "column\x00"+h)
		found = true
	}
	return found
}
