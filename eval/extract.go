package eval

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/condense-dev/condense"
)

// Category is a kind of specific the eval measures retention of.
type Category string

// The categories of specifics, the ones model summaries are known to drop:
// the extractor finds them with its own patterns, independent of the ledger,
// so the eval does not grade the ledger by the ledger's own rules.
const (
	CatPath        Category = "path"
	CatCommand     Category = "command"
	CatError       Category = "error"
	CatIdentifier  Category = "identifier"
	CatMeasurement Category = "measurement"
)

// Categories lists the extractor's categories in report order.
var Categories = []Category{CatPath, CatCommand, CatError, CatIdentifier, CatMeasurement}

// Specific is one specific found in a transcript.
type Specific struct {
	Category Category `json:"category"`
	Text     string   `json:"text"`
}

// maxSpecificLen caps an extracted line (errors, commands) in bytes.
const maxSpecificLen = 160

// rePrompt finds shell prompt lines in text: "$ go test ./...". The other
// categories are scanned by hand (scan.go): the regexps were 15 times
// slower.
var rePrompt = regexp.MustCompile(`(?m)^\s*\$ (\S.*)$`)

// Extractor finds specifics in messages. The zero value is ready to use.
type Extractor struct {
	// MinIdentifier is the shortest identifier kept; 0 means 6.
	MinIdentifier int
}

// Extract returns the distinct specifics of msgs, in order of first
// appearance. Thinking is left out: it is the model's own scratch space.
func Extract(msgs []condense.Message) []Specific {
	var e Extractor
	return e.Extract(msgs)
}

// Extract returns the distinct specifics of msgs, in order of first
// appearance.
func (e *Extractor) Extract(msgs []condense.Message) []Specific {
	c := collector{seen: map[Specific]bool{}, minIdent: e.MinIdentifier}
	if c.minIdent <= 0 {
		c.minIdent = 6
	}
	for i := range msgs {
		c.parts(msgs[i].Parts)
	}
	return c.out
}

// ExtractText returns the distinct specifics of one text.
func ExtractText(s string) []Specific {
	c := collector{seen: map[Specific]bool{}, minIdent: 6}
	c.text(s)
	return c.out
}

type collector struct {
	seen     map[Specific]bool
	out      []Specific
	minIdent int
}

func (c *collector) add(cat Category, s string) {
	s = strings.TrimSpace(s)
	if s == "" {
		return
	}
	if len(s) > maxSpecificLen {
		s = cutUTF8(s, maxSpecificLen)
	}
	sp := Specific{Category: cat, Text: s}
	if !c.seen[sp] {
		c.seen[sp] = true
		c.out = append(c.out, sp)
	}
}

func (c *collector) parts(parts []condense.Part) {
	for i := range parts {
		p := &parts[i]
		switch p.Type {
		case condense.PartText:
			c.text(p.Text)
		case condense.PartToolCall:
			c.call(p)
		case condense.PartToolResult:
			c.parts(p.Content)
		}
	}
}

// call takes the command of a shell-like call and the strings of its input.
func (c *collector) call(p *condense.Part) {
	var in any
	if err := json.Unmarshal(p.Input, &in); err != nil {
		c.text(string(p.Input))
		return
	}
	if obj, ok := in.(map[string]any); ok {
		for _, key := range []string{"command", "cmd", "script"} {
			if cmd := commandOf(obj[key]); cmd != "" {
				c.add(CatCommand, firstLine(cmd))
				break
			}
		}
	}
	walkStrings(in, c.text)
}

// commandOf reads a command given as a string or an argv array (Codex
// shell calls: ["bash", "-lc", "go test ./..."]).
func commandOf(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case []any:
		var args []string
		for _, a := range v {
			if s, ok := a.(string); ok {
				args = append(args, s)
			}
		}
		if len(args) == 3 && (args[1] == "-lc" || args[1] == "-c") {
			return args[2]
		}
		return strings.Join(args, " ")
	}
	return ""
}

func walkStrings(v any, f func(string)) {
	switch v := v.(type) {
	case string:
		f(v)
	case []any:
		for _, x := range v {
			walkStrings(x, f)
		}
	case map[string]any:
		for _, x := range v {
			walkStrings(x, f)
		}
	}
}

// text scans one text line by line. A text holding a JSON document (tool output
// such as Codex's {"output": "…"}) is scanned string by string.
func (c *collector) text(s string) {
	if decodeJSON(s, c.plain) {
		return
	}
	c.plain(s)
}

func (c *collector) plain(s string) {
	if strings.Contains(s, "$ ") {
		for _, m := range rePrompt.FindAllStringSubmatch(s, -1) {
			c.add(CatCommand, m[1])
		}
	}
	for len(s) > 0 {
		line := s
		if i := strings.IndexByte(s, '\n'); i >= 0 {
			line, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		c.line(line)
	}
}

func (c *collector) line(line string) {
	if strings.TrimSpace(line) == "" {
		return
	}
	paths(line, func(p string) { c.add(CatPath, p) })
	if isErrorLine(line) {
		c.add(CatError, line)
	}
	identifiers(line, func(m string) {
		if len(m) >= c.minIdent {
			c.add(CatIdentifier, m)
		}
	})
	measurements(line, func(m string) { c.add(CatMeasurement, m) })
}

// cleanPath trims punctuation around a path candidate and rejects what is
// not a path: URLs' hosts, bare slashes, version numbers, "a/b" fractions.
func cleanPath(m string) string {
	m = strings.TrimRight(m, ".,:;")
	if len(m) < 4 || strings.Contains(m, "//") {
		return ""
	}
	// "/cwd" from "</cwd>", "/parser" from "./parser/": a lone absolute
	// segment without an extension is markup or a fragment, not a path.
	if strings.HasPrefix(m, "/") && strings.Count(m, "/") == 1 && !strings.Contains(m, ".") {
		return ""
	}
	letters := false
	for _, r := range m {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			letters = true
			break
		}
	}
	if !letters {
		return ""
	}
	if !strings.Contains(m, "/") && strings.Count(m, ".") == 0 {
		return ""
	}
	return m
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}

// decodeJSON calls f with every string of s when s is a JSON object or
// array, and reports whether it was one.
func decodeJSON(s string, f func(string)) bool {
	t := strings.TrimSpace(s)
	if len(t) < 2 || (t[0] != '{' && t[0] != '[') || !json.Valid([]byte(t)) {
		return false
	}
	var v any
	if json.Unmarshal([]byte(t), &v) != nil {
		return false
	}
	walkStrings(v, f)
	return true
}
