package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
)

// Probe is a specific the user wants kept, from a --probes file
// (docs/formats.md):
//
//	[{"category": "path", "text": "internal/x.go"},
//	 {"category": "error", "regex": "panic: [^\n]+"}]
//
// A probe is retained when its text, or the text its regexp matched first
// in the original transcript, appears in the compacted rendering. Question,
// when set, is what a judge is asked instead of the generated question.
type Probe struct {
	Category string `json:"category"`
	Text     string `json:"text,omitempty"`
	Regex    string `json:"regex,omitempty"`
	Question string `json:"question,omitempty"`

	re *regexp.Regexp
}

// ProbeError is a bad probe file or entry.
type ProbeError struct {
	File string
	// Entry is the 1-based position of the bad entry; 0 for the file as a
	// whole.
	Entry int
	Err   error
}

func (e *ProbeError) Error() string {
	if e.Entry == 0 {
		return fmt.Sprintf("probes %s: %v", e.File, e.Err)
	}
	return fmt.Sprintf("probes %s: entry %d: %v", e.File, e.Entry, e.Err)
}

func (e *ProbeError) Unwrap() error { return e.Err }

// LoadProbes reads a probe file.
func LoadProbes(path string) ([]Probe, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, &ProbeError{File: path, Err: err}
	}
	return ParseProbes(path, data)
}

// ParseProbes parses the probes of file name. Each entry needs a category
// and exactly one of text and regex; unknown keys are errors (a typo would
// otherwise silently measure nothing).
func ParseProbes(name string, data []byte) ([]Probe, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &ProbeError{File: name, Err: fmt.Errorf("not a JSON array of probes: %w", err)}
	}
	probes := make([]Probe, 0, len(raw))
	for i, r := range raw {
		bad := func(err error) error { return &ProbeError{File: name, Entry: i + 1, Err: err} }
		dec := json.NewDecoder(bytes.NewReader(r))
		dec.DisallowUnknownFields()
		var p Probe
		if err := dec.Decode(&p); err != nil {
			return nil, bad(fmt.Errorf("want {\"category\", \"text\"} or {\"category\", \"regex\"}: %w", err))
		}
		p.Category = strings.TrimSpace(p.Category)
		switch {
		case p.Category == "":
			return nil, bad(errors.New(`"category" is missing`))
		case p.Text == "" && p.Regex == "":
			return nil, bad(errors.New(`needs "text" or "regex"`))
		case p.Text != "" && p.Regex != "":
			return nil, bad(errors.New(`has both "text" and "regex"; give one`))
		}
		if p.Regex != "" {
			re, err := regexp.Compile(p.Regex)
			if err != nil {
				return nil, bad(fmt.Errorf("bad regex: %w", err))
			}
			p.re = re
		}
		probes = append(probes, p)
	}
	return probes, nil
}

// Resolved is a probe with the text looked for in renderings.
type Resolved struct {
	Probe
	// Expect is the probe's text, or its regexp's first match in the
	// original.
	Expect string `json:"expect"`
	// Absent: the original does not hold the probe, so it is not counted.
	Absent bool `json:"absent,omitempty"`
}

// Resolve finds each probe in the original transcript's indexed text
// (full, the same text as idx).
func Resolve(probes []Probe, full string, idx *Index) []Resolved {
	out := make([]Resolved, len(probes))
	for i, p := range probes {
		r := Resolved{Probe: p}
		if p.Regex != "" {
			re := p.re
			if re == nil {
				re = regexp.MustCompile(p.Regex)
			}
			r.Expect = re.FindString(full)
			r.Absent = r.Expect == ""
		} else {
			r.Expect = p.Text
			r.Absent = !idx.Contains(p.Text)
		}
		out[i] = r
	}
	return out
}

// ProbeRetention is how many probes a rendering kept: per category,
// overall as the mean over categories (Overall), and item-weighted
// (ItemWeighted), as for the extractor's specifics.
type ProbeRetention struct {
	Retention
	// Absent counts probes the original does not hold.
	Absent int `json:"absent"`
	// Duplicates counts probes that repeat an earlier probe's category and
	// text; each is counted once.
	Duplicates int `json:"duplicates,omitempty"`
}

// MeasureProbes counts the resolved probes that appear in the rendering
// indexed by idx; a nil idx is a rendering that was not sent, which keeps
// none of them.
func MeasureProbes(probes []Resolved, idx *Index) ProbeRetention {
	r := ProbeRetention{Retention: Retention{ByCategory: map[string]Tally{}}}
	type key struct{ category, expect string }
	seen := map[key]bool{}
	for _, p := range probes {
		if p.Absent {
			r.Absent++
			continue
		}
		k := key{p.Category, p.Expect}
		if seen[k] {
			r.Duplicates++
			continue
		}
		seen[k] = true
		kept := idx != nil && idx.Contains(p.Expect)
		r.Total.count(p.Expect, kept)
		t := r.ByCategory[p.Category]
		t.count(p.Expect, kept)
		r.ByCategory[p.Category] = t
	}
	if idx == nil {
		r.Unsent = 1
	}
	r.score()
	return r
}

// Add adds o's counts to r.
func (r *ProbeRetention) Add(o ProbeRetention) {
	r.Retention.Add(o.Retention)
	r.Absent += o.Absent
	r.Duplicates += o.Duplicates
}
