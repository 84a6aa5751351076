package eval

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/condense-dev/condense"
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

// FuzzExtract checks the property retention rests on: every specific the
// extractor finds in a history occurs in that history's flattened text, so
// a rendering that keeps everything retains 100%.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{"--- FAIL: TestX (0.01s)\n\tx_test.go:3: panic: boom", "$ go test ./...\nok 12 MB 3ms",
		`{"output":"a/b.go:1: undefined: x\n"}`, "money.HalfEven 3f9e2c1a µs 50% ./cmd/main.go", "\xff\xfe/a/\xc2b.go"} {
		f.Add(s, `{"command":"make test"}`)
	}
	f.Fuzz(func(t *testing.T, text, input string) {
		msgs := []condense.Message{
			condense.UserText(text),
			{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c1", "Bash", json.RawMessage(input))}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", false, condense.Text(text))}},
		}
		idx := NewIndex(Flatten(msgs))
		for _, s := range Extract(msgs) {
			if s.Text == "" || !idx.Contains(s.Text) {
				t.Fatalf("%+v is not in the flattened history", s)
			}
		}
	})
}
