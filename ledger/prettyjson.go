package ledger

import (
	"encoding/json"
	"strings"
)

// A log record or an error tracker's item printed as indented JSON (jq's
// default output, an API's pretty response, a tracker CLI's listing) is
// one record spread over lines: its level is on one line and its message
// on another, so neither line says it failed. When a line is the level
// member of such an object ("level": "error",), the object is read whole,
// as a one-line record would be.

// maxRecordLines bounds how far from its level line an object is looked
// for, either way: a record is a few dozen lines, not a document.
const maxRecordLines = 60

// prettyRecord reads the indented JSON object whose level member is the
// current line t, and reports whether it had a level.
func (s *scanner) prettyRecord(t string) bool {
	if !levelMember(t) || s.whole == "" {
		return false
	}
	rec, ok := enclosingObject(s.whole, s.lineStart)
	if !ok {
		return false
	}
	return s.logLine(rec)
}

// levelMember reports whether t is a JSON object's member that names a
// log level: "level": "error", "severity": "ERROR",
func levelMember(t string) bool {
	if len(t) < 8 || t[0] != '"' {
		return false
	}
	k := strings.IndexByte(t[1:], '"')
	if k < 0 {
		return false
	}
	key := t[1 : 1+k]
	rest := strings.TrimLeft(t[2+k:], " \t")
	if !strings.HasPrefix(rest, ":") {
		return false
	}
	for _, lk := range logKeys {
		if key == lk {
			return true
		}
	}
	return false
}

// enclosingObject returns, compacted to one line, the JSON object of text
// whose member is the line starting at at: the lines from the one that
// opens it to the one that closes it, when they are valid JSON.
func enclosingObject(text string, at int) (string, bool) {
	// back to the line that opens the object
	open, depth := -1, 0
	for i, end := 0, at; i < maxRecordLines && end > 0; i++ {
		start := strings.LastIndexByte(text[:end-1], '\n') + 1
		d := braceDepth(text[start : end-1])
		if depth+d > 0 {
			open = start
			break
		}
		depth += d
		end = start
	}
	if open < 0 {
		return "", false
	}
	// forward to the line that closes it
	depth = 0
	var b strings.Builder
	for i, start := 0, open; i < 2*maxRecordLines && start < len(text); i++ {
		end := lineEnd(text, start)
		l := strings.TrimSpace(text[start:end])
		if i == 0 {
			// "{", or "items": [{ … where the object starts at its brace
			l = l[strings.LastIndexByte(l, '{'):]
		}
		depth += braceDepth(l)
		if depth <= 0 {
			// the closing line: "}", "},", "}]"
			b.WriteByte('}')
			rec := b.String()
			return rec, json.Valid([]byte(rec))
		}
		b.WriteString(l)
		start = end + 1
	}
	return "", false
}

// braceDepth returns the braces a line opens less those it closes,
// outside its JSON strings.
func braceDepth(l string) int {
	d, in := 0, false
	for i := 0; i < len(l); i++ {
		switch c := l[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case in:
		case c == '{':
			d++
		case c == '}':
			d--
		}
	}
	return d
}
