package eval

import (
	"errors"
	"strings"
	"testing"
)

func TestParseProbesErrors(t *testing.T) {
	tests := []struct {
		data  string
		entry int
		says  string
	}{
		{`{"category": "path"}`, 0, "not a JSON array"},
		{`[{"category": "path", "text": "a.go"}, {"text": "b.go"}]`, 2, `"category" is missing`},
		{`[{"category": "path"}]`, 1, `needs "text" or "regex"`},
		{`[{"category": "path", "text": "a", "regex": "b"}]`, 1, "both"},
		{`[{"category": "path", "regex": "("}]`, 1, "bad regex"},
		{`[{"category": "path", "txt": "a.go"}]`, 1, `unknown field "txt"`},
		{`[1]`, 1, "want"},
	}
	for _, tt := range tests {
		_, err := ParseProbes("p.json", []byte(tt.data))
		var pe *ProbeError
		if !errors.As(err, &pe) {
			t.Errorf("%s: error %v is not a *ProbeError", tt.data, err)
			continue
		}
		if pe.Entry != tt.entry || pe.File != "p.json" || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), "p.json") {
			t.Errorf("%s: %v (entry %d), want entry %d saying %q", tt.data, err, pe.Entry, tt.entry, tt.says)
		}
	}
}

func TestProbesRetainedAndLost(t *testing.T) {
	probes, err := ParseProbes("p.json", []byte(`[
		{"category": "path", "text": "internal/x.go"},
		{"category": "path", "text": "internal/gone.go"},
		{"category": "error", "regex": "panic: [^\\n]+"},
		{"category": "error", "regex": "segfault at 0x[0-9a-f]+"},
		{"category": "command", "text": "make deploy"}
	]`))
	if err != nil {
		t.Fatal(err)
	}
	original := "edit internal/x.go\nrm internal/gone.go\npanic: nil map write\nall good"
	resolved := Resolve(probes, original, NewIndex(original))
	if resolved[2].Expect != "panic: nil map write" || resolved[2].Absent {
		t.Fatalf("regex probe resolved to %+v", resolved[2])
	}
	if !resolved[3].Absent || !resolved[4].Absent {
		t.Fatalf("probes missing from the original should be absent: %+v %+v", resolved[3], resolved[4])
	}
	compacted := "[kept: file internal/x.go; error \"panic: nil map write\"]"
	r := MeasureProbes(resolved, NewIndex(compacted))
	if r.Total.Found != 3 || r.Total.Retained != 2 || r.Absent != 2 {
		t.Fatalf("total %+v absent %d", r.Total, r.Absent)
	}
	if p := r.ByCategory["path"]; p.Found != 2 || p.Retained != 1 || len(p.Lost) != 1 || p.Lost[0] != "internal/gone.go" {
		t.Fatalf("path %+v", p)
	}
	if e := r.ByCategory["error"]; e.Found != 1 || e.Retained != 1 {
		t.Fatalf("error %+v", e)
	}
}
