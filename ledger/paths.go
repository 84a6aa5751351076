package ledger

import (
	"strings"
)

// This file holds the recognisers of file paths.

const pathDelims = " \t\"'`()[]{}<>,;=|"

// byteSet returns the set of the bytes of s.
func byteSet(s string) (set [256]bool) {
	for i := 0; i < len(s); i++ {
		set[s[i]] = true
	}
	return set
}

var (
	pathDelimSet = byteSet(pathDelims)
	pathByteSet  = byteSet("_.-/~+@")
	fileByteSet  = byteSet("_./\\-+")
	labelStopSet = byteSet(labelStops)
)

// files finds path-like tokens: a directory separator and an extension
// or a known root. URLs, versions, dates, fractions and units such as
// ns/op are not paths.
func (s *scanner) files(t string, urlSpans [][2]int) {
	if rest, ok := strings.CutPrefix(t, "+++ b/"); ok {
		if p, ok := cleanPath(rest, true); ok {
			s.addFile(p)
		}
		return
	}
	if rest, ok := strings.CutPrefix(t, "--- a/"); ok {
		if p, ok := cleanPath(rest, true); ok {
			s.addFile(p)
		}
		return
	}
	if rest, ok := strings.CutPrefix(t, "diff --git a/"); ok {
		// "diff --git a/x.go b/x.go": the file, not a/x.go and b/x.go
		a, b, _ := strings.Cut(rest, " b/")
		for _, f := range []string{a, b} {
			if p, ok := cleanPath(f, true); ok {
				s.addFile(p)
			}
		}
		return
	}
	for off := 0; off < len(t); {
		k := strings.IndexByte(t[off:], '/')
		if k < 0 {
			break
		}
		k += off
		i, j := k, k+1
		for i > 0 && !pathDelimSet[t[i-1]] {
			i--
		}
		for j < len(t) && !pathDelimSet[t[j]] {
			j++
		}
		off = j
		if inSpans(i, urlSpans) >= 0 {
			continue
		}
		if p, ok := cleanPath(t[i:j], false); ok && !depPath(p) {
			s.addFile(p)
		}
	}
}

// depPath reports whether a path is inside a toolchain or a dependency
// tree (GOROOT, node_modules, site-packages, the module cache): such paths
// in stack traces are noise for the ledger.
func depPath(p string) bool {
	if goRuntimeFrame(p) {
		return true
	}
	for _, d := range []string{"node_modules/", "/site-packages/", "/dist-packages/", "/go/pkg/mod/", "/.cargo/registry/", "/rustc/", "/lib/python3", "<frozen "} {
		if strings.Contains(p, d) {
			return true
		}
	}
	return false
}

// windowsPaths finds "C:\\Users\\dev\\app\\main.py"-style paths with an
// extension.
func (s *scanner) windowsPaths(t string) {
	for off := 0; ; {
		k := strings.Index(t[off:], ":\\")
		if k < 0 {
			return
		}
		k += off
		off = k + 2
		if k == 0 || !isAlpha(t[k-1]) || k >= 2 && !pathDelimSet[t[k-2]] {
			continue
		}
		j := k + 2
		for j < len(t) && (isAlnum(t[j]) || t[j] == '\\' || pathByteSet[t[j]] && t[j] != '/' || t[j] >= 0x80) {
			j++
		}
		p := strings.TrimRight(t[k-1:j], ".")
		name := p[strings.LastIndexByte(p, '\\')+1:]
		if len(p) > 3 && hasExt(name) && !strings.Contains(p, "\\\\") {
			s.addFile(p)
		}
		off = j
	}
}

func (s *scanner) addFile(p string) {
	s.add(KindFile, p)
}

func inSpans(i int, spans [][2]int) int {
	for k, sp := range spans {
		if i >= sp[0] && i < sp[1] {
			return k
		}
	}
	return -1
}

var knownRoots = map[string]bool{"tmp": true, "etc": true, "usr": true, "var": true, "home": true,
	"opt": true, "srv": true, "app": true, "root": true, "Users": true, "workspace": true,
	"work": true, "mnt": true, "src": true, "repo": true, "testbed": true, "data": true}

// cleanPath trims a token to a path and says whether it is one. With
// loose, any plausible path is accepted (it came from a place where a path
// is expected); otherwise it needs a separator and an extension or a
// known root.
func cleanPath(tok string, loose bool) (string, bool) {
	tok = strings.TrimRight(tok, ".,:;!?")
	tok = strings.TrimLeft(tok, "*")
	// Drop a test's node id (tests/test_tax.py::test_rounding) and a
	// line anchor (.github/workflows/ci.yml#L12).
	if k := strings.Index(tok, "::"); k > 0 && strings.LastIndexByte(tok[:k], '/') >= 0 {
		tok = tok[:k]
	}
	if k := strings.LastIndex(tok, "#L"); k > 0 && k+2 < len(tok) && isDigit(tok[k+2]) {
		tok = tok[:k]
	}
	// Drop a :line or :line:col suffix.
	if i := strings.LastIndexByte(tok, '/'); i >= 0 {
		if k := strings.IndexByte(tok[i:], ':'); k >= 0 {
			if k+1 < len(tok[i:]) && isDigit(tok[i+k+1]) {
				tok = tok[:i+k]
			} else {
				return "", false
			}
		}
	} else if k := strings.IndexByte(tok, ':'); k >= 0 && k+1 < len(tok) && isDigit(tok[k+1]) {
		tok = tok[:k]
	}
	if len(tok) < 3 || len(tok) > 400 || tok[0] == '-' || tok[0] == '@' || tok[0] == '.' && len(tok) > 1 && isAlnum(tok[1]) && !strings.Contains(tok, "/") && !loose {
		return "", false
	}
	digitsOnly := true
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		if !(isAlnum(c) || pathByteSet[c] || c >= 0x80) {
			return "", false
		}
		if isAlpha(c) {
			digitsOnly = false
		}
	}
	if digitsOnly || strings.Contains(tok, "//") || strings.Contains(tok, "...") {
		return "", false
	}
	if loose {
		return tok, true
	}
	if strings.IndexByte(tok, '/') < 0 || strings.IndexByte(tok, '@') >= 0 {
		return "", false
	}
	last := tok[strings.LastIndexByte(tok, '/')+1:]
	if hasExt(last) {
		return tok, true
	}
	switch {
	case strings.HasPrefix(tok, "./") || strings.HasPrefix(tok, "../") || strings.HasPrefix(tok, "~/"):
		return tok, len(tok) > 3 && last != ""
	case tok[0] == '/':
		root, rest, _ := strings.Cut(tok[1:], "/")
		return tok, knownRoots[root] && rest != ""
	}
	return "", false
}

// hasExt reports whether a file name has an extension: "x.go", "Makefile.am",
// ".env"; not "v1.2", "1.0" or "foo".
func hasExt(name string) bool {
	dot := strings.LastIndexByte(name, '.')
	if dot < 0 || dot == len(name)-1 {
		return false
	}
	ext := name[dot+1:]
	if len(ext) > 10 {
		return false
	}
	upper, lower := false, false
	for i := 0; i < len(ext); i++ {
		c := ext[i]
		if !isAlnum(c) {
			return false
		}
		upper = upper || isUpper(c)
		lower = lower || isLower(c)
	}
	if !upper && !lower || upper && lower {
		// No letter (a version), or mixed case: "x.Index" is a Go
		// function, not a file.
		return false
	}
	stem := name[:dot]
	if stem == "" {
		return true // a dotfile
	}
	// "v1.2rc1"-like versions have a digit right before the dot.
	return !(isDigit(stem[len(stem)-1]) && isDigit(ext[0]))
}
