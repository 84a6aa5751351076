package ledger

import "strings"

// This file holds the last reader of measurements in tool output: a line
// that reports figures in any tool's layout, read by its shape rather than by
// the tool's words. The other readers know the layouts of particular tools
// (benchmarks, test summaries, tables of figures with a label per row); the
// tools an agent runs are many more, and each prints its report its own way:
//
//	STAT evictions 3890435                     (a label, a space, a figure)
//	avg_wait_time     | 421482                 (a label, a bar, a figure)
//	p99: ...................... 864.9          (a label, a leader, a figure)
//	Totals   25094.29   12319.28   4.01400     (a label and a row of figures)
//	08:42:37   1000   35467   239.25   node    (a row of mostly figures)
//
// Such a line is kept whole, as printed (its gaps of up to maxGap bytes
// included), since its figures only mean something next to their label and
// to each other. The reader runs only on lines of tool output that no other
// reader took anything from, never on a source file's lines; a report of many
// such lines is a crowd, which salience ranks below what stands alone.

// figureReport reports whether t (trimmed) is a line reporting figures: a
// labelled figure or a row of figures.
func figureReport(t string) bool {
	if len(t) < 6 || len(t) > 240 {
		return false
	}
	return labelledFigure(t) || figureRow(t)
}

// labelledFigure reports whether t is a label of one to four words, a
// separator (a colon, '=', '|', a leader of dots, or only spaces) and one
// figure ending the line: a number of two digits or more, or with a decimal
// point, with at most a short unit after it and a trailing ',' or ';', or
// with what it breaks down into after it in parentheses, or as the first
// of a list of figures.
func labelledFigure(t string) bool {
	if oneLabelledFigure(t) {
		return true
	}
	// the figure may be followed by what it breaks down into, in
	// parentheses: ss's "TCP:   17535 (estab 1358, closed 16171, …)",
	// sysbench's "transactions:   12345  (411.49 per sec.)"
	if k := strings.LastIndex(t, " ("); k > 0 && strings.HasSuffix(t, ")") && !strings.Contains(t[k+2:len(t)-1], "(") {
		return oneLabelledFigure(strings.TrimRight(t[:k], " \t"))
	}
	// or by more of its kind, a list: uptime's "load average: 12.41,
	// 10.02, 8.77", the last of the line's fields set apart by a comma
	// and a gap ("up 41 days,  2 users,  load average: …")
	if k := strings.LastIndex(t, ",  "); k > 0 {
		t = strings.TrimSpace(t[k+3:])
	}
	if c := strings.Index(t, ": "); c > 0 {
		figs := strings.Split(t[c+2:], ", ")
		if len(figs) >= 2 && len(figs) <= 6 {
			for _, f := range figs {
				if _, ok := figureCell(strings.TrimSpace(f)); !ok {
					return false
				}
			}
			return oneLabelledFigure(t[:c+2] + strings.TrimSpace(figs[0]))
		}
	}
	return false
}

// oneLabelledFigure is labelledFigure of a line that ends with its figure.
func oneLabelledFigure(t string) bool {
	t = strings.TrimRight(t, ",;")
	// the figure at the end
	end := len(t)
	u := end
	for u > 0 && (isAlpha(t[u-1]) || t[u-1] == '%' || t[u-1] == '/') {
		u--
	}
	if end-u > 8 {
		return false
	}
	n := u
	digits, point := 0, false
	for n > 0 && (isDigit(t[n-1]) || t[n-1] == '.' || t[n-1] == ',') {
		switch {
		case isDigit(t[n-1]):
			digits++
		case t[n-1] == '.':
			if point {
				return false // a version, an address
			}
			point = true
		}
		n--
	}
	if n > 0 && (t[n-1] == '-' || t[n-1] == '+') {
		n--
	}
	if digits == 0 || digits < 2 && !point && u == end || n == 0 || !isDigit(t[u-1]) {
		return false
	}
	// the separator before it
	k := n
	sep := false
	for k > 0 {
		c := t[k-1]
		if c == ' ' || c == '\t' {
			k--
			continue
		}
		if c == '.' && (k > 1 && t[k-2] == '.' || k < len(t) && t[k] == '.') || c == ':' || c == '=' || c == '|' {
			sep = true
			k--
			continue
		}
		break
	}
	if k == n || k == 0 || digits < 2 && !point {
		return false
	}
	if t[k] == ':' && k+1 == n && isDigit(t[k-1]) {
		return false // a time of day, "10:02", or a place, "main.go:41"
	}
	// the label: one to four words, a letter in them, no sentence; with
	// no separator but spaces, up to three words that start with a letter
	label := strings.Trim(t[:k], `"'`)
	words := strings.Fields(label)
	if len(words) == 0 || len(words) > 4 || len(label) > 60 || !sep && len(words) > 2 {
		return false
	}
	for _, w := range words {
		if !sep && (!isAlpha(w[0]) || strings.ContainsAny(w, "0123456789.")) {
			return false // "index ad388c7..20da768 100644": a diff's header
		}
		if l := strings.ToLower(w); l == "exit" || l == "code" || l == "status" || l == "left" || l == "right" {
			return false // a header or an assertion's operand, not a report
		}
	}
	letter := false
	for i := 0; i < len(label); i++ {
		c := label[i]
		switch {
		case isAlpha(c):
			letter = true
		case isDigit(c) || c == ' ' || c == '\t' || c == '_' || c == '-' || c == '.' || c == '/' || c == '(' || c == ')' || c == '%' || c == '"' || c == '\'':
		default:
			return false
		}
	}
	return letter
}

// figureRow reports whether t is a row of four figures or more making up at
// least three fifths of its fields, its columns aligned by gaps of two spaces
// or more or by tabs: a report's row of numbers, with or without a label.
func figureRow(t string) bool {
	if !strings.Contains(t, "  ") && !strings.Contains(t, "\t") {
		return false
	}
	fields := strings.Fields(t)
	if len(fields) < 4 {
		return false
	}
	figures := 0
	for _, f := range fields {
		if figureField(f) {
			figures++
		}
	}
	return figures >= 4 && 5*figures >= 3*len(fields)
}

// figureField reports whether f is a figure: digits with separators
// (1,234 12.5 08:42:37), a sign, and at most four letters or a '%' after
// them (60.0s, 512Mi, 94.7%).
func figureField(f string) bool {
	i := 0
	if i < len(f) && (f[i] == '-' || f[i] == '+') {
		i++
	}
	start := i
	for i < len(f) && (isDigit(f[i]) || (f[i] == '.' || f[i] == ',' || f[i] == ':') && i > start && i+1 < len(f) && isDigit(f[i+1])) {
		i++
	}
	if i == start || !isDigit(f[start]) {
		return false
	}
	rest := f[i:]
	if rest == "%" {
		return true
	}
	if len(rest) > 4 {
		return false
	}
	for j := 0; j < len(rest); j++ {
		if !isAlpha(rest[j]) && rest[j] != '/' {
			return false
		}
	}
	return true
}
