package eval

import (
	"errors"
	"testing"
)

func FuzzParseProbes(f *testing.F) {
	for _, s := range []string{`[]`, `[{"category":"path","text":"a.go"}]`, `[{"category":"e","regex":"panic: .+"}]`,
		`[{"category":"e","regex":"("}]`, `{}`, `[{"category":"","text":"x"}]`, `[null]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		probes, err := ParseProbes("f.json", data)
		if err != nil {
			var pe *ProbeError
			if !errors.As(err, &pe) || pe.File != "f.json" {
				t.Fatalf("error %v is not a *ProbeError naming the file", err)
			}
			return
		}
		full := "some original text with a.go"
		for _, r := range Resolve(probes, full, NewIndex(full)) {
			if r.Category == "" || (r.Text == "") == (r.Regex == "") {
				t.Fatalf("accepted a bad probe %+v", r.Probe)
			}
		}
	})
}

func FuzzParsePrices(f *testing.F) {
	for _, s := range []string{`{}`, `{"m":{"input":1,"cached_input":0.1,"output":2}}`, `{"m":{"input":-1}}`, `[]`, `{"m":null}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ps, err := ParsePrices("p.json", data)
		if err != nil {
			return
		}
		for m, p := range ps {
			if p.Input < 0 || p.CachedInput < 0 || p.Output < 0 {
				t.Fatalf("accepted a negative price for %q: %+v", m, p)
			}
		}
	})
}
