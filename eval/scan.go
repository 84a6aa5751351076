package eval

import "strings"

// Hand-written scanners for the two categories whose regexps were the
// extractor's cost: every line is tested for errors, every word for
// identifiers.

// isErrorLine reports whether a line reports an error: it names an error,
// panic, fatal condition, exception or warning followed by ':', '[', '(',
// '!' or a quote; starts with FAIL or "--- FAIL"; says failed, failure,
// panicked, traceback, cannot or segmentation fault; holds "undefined:",
// "SomeError:" or "SomeException:"; or gives a non-zero exit code or status.
func isErrorLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	if hasWordPrefix(t, "FAIL") || hasWordPrefix(t, "--- FAIL") {
		return true
	}
	if strings.Contains(line, "Error:") || strings.Contains(line, "Exception:") || strings.Contains(line, "undefined:") {
		return true
	}
	lower := strings.ToLower(line)
	for _, w := range []string{"error", "panic", "fatal", "exception", "warning"} {
		for off := 0; ; {
			i := strings.Index(lower[off:], w)
			if i < 0 {
				break
			}
			i += off
			end := i + len(w)
			off = end
			if !boundary(lower, i, end) {
				continue
			}
			rest := strings.TrimLeft(lower[end:], " ")
			if rest != "" && strings.IndexByte(":[(!\"'", rest[0]) >= 0 {
				return true
			}
		}
	}
	for _, w := range []string{"failed", "failure", "panicked", "traceback", "cannot", "segmentation fault"} {
		if containsWord(lower, w) {
			return true
		}
	}
	for _, w := range []string{"exit code ", "exit status "} {
		if i := strings.Index(lower, w); i >= 0 {
			if j := i + len(w); j < len(lower) && lower[j] >= '1' && lower[j] <= '9' {
				return true
			}
		}
	}
	return false
}

func hasWordPrefix(s, w string) bool {
	return strings.HasPrefix(s, w) && (len(s) == len(w) || !isWordByte(s[len(w)]))
}

func containsWord(s, w string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], w)
		if i < 0 {
			return false
		}
		i += off
		if boundary(s, i, i+len(w)) {
			return true
		}
		off = i + len(w)
	}
}

// boundary reports whether s[i:end] is a whole word.
func boundary(s string, i, end int) bool {
	return (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end]))
}

func isWordByte(b byte) bool {
	return b == '_' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

// identifiers calls f with every identifier of a line: CamelCase with two
// humps (TestParseUnary), camelCase (parseUnary), snake_case
// (parse_unary_expr), pkg.Name (money.HalfEven), UUIDs and hex digests
// with letters and digits (3f9e2c1a).
func identifiers(line string, f func(string)) {
	for i := 0; i < len(line); {
		if !isTokenByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isTokenByte(line[j]) {
			j++
		}
		token(strings.Trim(line[i:j], ".-"), f)
		i = j
	}
}

func isTokenByte(b byte) bool { return isWordByte(b) || b == '.' || b == '-' }

func token(tok string, f func(string)) {
	if isUUID(tok) {
		f(tok)
		return
	}
	for _, part := range strings.Split(tok, "-") {
		if part == "" {
			continue
		}
		if l, r, ok := strings.Cut(part, "."); ok && !strings.Contains(r, ".") && isLowerWord(l) && isExported(r) {
			f(part)
			continue
		}
		for _, w := range strings.Split(part, ".") {
			if isIdentWord(w) {
				f(w)
			}
		}
	}
}

func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < 36; i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
				return false
			}
		}
	}
	return true
}

// isLowerWord: [a-z][a-z0-9]*.
func isLowerWord(s string) bool {
	if s == "" || !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9') {
			return false
		}
	}
	return true
}

// isExported: [A-Z][A-Za-z0-9]*.
func isExported(s string) bool {
	if s == "" || !(s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isWordByte(s[i]) || s[i] == '_' {
			return false
		}
	}
	return true
}

// isIdentWord classifies one word of [A-Za-z0-9_].
func isIdentWord(w string) bool {
	if w == "" {
		return false
	}
	var upper, lower, digit, under, hexOnly = 0, 0, 0, 0, true
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 'A' && c <= 'Z':
			upper++
			hexOnly = false
		case c >= 'a' && c <= 'z':
			lower++
			if c > 'f' {
				hexOnly = false
			}
		case c >= '0' && c <= '9':
			digit++
		case c == '_':
			under++
			hexOnly = false
		default:
			return false
		}
	}
	first := w[0]
	isLetter := first >= 'a' && first <= 'z' || first >= 'A' && first <= 'Z'
	switch {
	case under > 0:
		// snake_case: a letter first, no empty segment.
		return isLetter && !strings.HasSuffix(w, "_") && !strings.Contains(w, "__")
	case hexOnly:
		return len(w) >= 7 && len(w) <= 40 && digit > 0 && lower > 0
	case first >= 'A' && first <= 'Z':
		// CamelCase: an upper, lower case or digits, then another upper.
		if upper < 2 {
			return false
		}
		for i := 1; i < len(w); i++ {
			if w[i] >= 'A' && w[i] <= 'Z' {
				return i > 1 && !(w[i-1] >= 'A' && w[i-1] <= 'Z') && !(w[1] >= 'A' && w[1] <= 'Z')
			}
		}
		return false
	case first >= 'a' && first <= 'z':
		return upper > 0 // camelCase
	}
	return false
}

// sourceExts are the file extensions that make a word without a slash a
// path ("parse_test.go").
var sourceExts = map[string]bool{}

func init() {
	for _, e := range strings.Fields("go py js jsx ts tsx rs rb java kt c h cc cpp hpp cs swift sh md json yaml yml toml txt sql proto html css lock mod sum cfg ini xml") {
		sourceExts[e] = true
	}
}

func isPathByte(b byte) bool {
	return isWordByte(b) || b == '.' || b == '-' || b == '/' || b == '@' || b == '+' || b == '~'
}

// paths calls f with every path of a line: a word of path characters with
// a slash, or a file name with a source extension.
func paths(line string, f func(string)) {
	for i := 0; i < len(line); {
		if !isPathByte(line[i]) {
			i++
			continue
		}
		j := i
		for j < len(line) && isPathByte(line[j]) {
			j++
		}
		tok := line[i:j]
		i = j
		if !strings.Contains(tok, "/") {
			dot := strings.LastIndexByte(tok, '.')
			if dot <= 0 || !sourceExts[tok[dot+1:]] || strings.Count(tok, ".") != 1 {
				continue
			}
		}
		tok = strings.TrimRight(tok, "/")
		if isSubtest(tok) {
			continue
		}
		if p := cleanPath(tok); p != "" {
			f(p)
		}
	}
}

// isSubtest reports whether tok is a Go subtest's name ("TestParse/empty",
// "BenchmarkCount/o200k/1MB"), not a path: its first segment is a test
// function's name and its last segment has no source extension. A
// "go test -v" listing prints thousands of them; the test function itself
// is an identifier.
func isSubtest(tok string) bool {
	first, _, ok := strings.Cut(tok, "/")
	if !ok {
		return false
	}
	if dot := strings.LastIndexByte(tok, '.'); dot >= 0 && !strings.Contains(tok[dot:], "/") && sourceExts[tok[dot+1:]] {
		return false
	}
	for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
		rest, ok := strings.CutPrefix(first, p)
		if !ok {
			continue
		}
		// Go's rule: the name goes on with anything but a lower-case letter.
		if rest != "" && rest[0] >= 'a' && rest[0] <= 'z' {
			return false
		}
		for i := 0; i < len(rest); i++ {
			if !isWordByte(rest[i]) {
				return false
			}
		}
		return true
	}
	return false
}

// units are the units that make a number a measurement (lower case).
var units = map[string]bool{}

func init() {
	for _, u := range strings.Fields("ns/op b/op allocs/op req/s ops/s rps qps ns µs us ms s sec secs seconds min mins minutes h hours " +
		"kb mb gb tb kib mib gib tib b bytes % tokens x lines files tests rows ops") {
		units[u] = true
	}
}

func isUnitByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '/' || b == '%'
}

// measurements calls f with every number followed by a unit: "703.1ms",
// "12 MB", "1234 ns/op", "50%".
func measurements(line string, f func(string)) {
	for i := 0; i < len(line); i++ {
		if !(line[i] >= '0' && line[i] <= '9') || (i > 0 && isWordByte(line[i-1])) {
			continue
		}
		j := i
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		for j+1 < len(line) && (line[j] == '.' || line[j] == ',') && line[j+1] >= '0' && line[j+1] <= '9' {
			j++
			for j < len(line) && line[j] >= '0' && line[j] <= '9' {
				j++
			}
		}
		numEnd := j
		if j < len(line) && line[j] == ' ' {
			j++
		}
		u := j
		if strings.HasPrefix(line[u:], "µ") {
			u += len("µ")
		}
		for u < len(line) && isUnitByte(line[u]) {
			u++
		}
		if u > j && (u == len(line) || !isWordByte(line[u])) && units[strings.ToLower(line[j:u])] {
			f(line[i:u])
			i = u - 1
			continue
		}
		i = numEnd - 1
	}
}
