package ledger

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/condense-dev/condense"
)

// benchHistory builds a history of about size bytes of tool output: shell
// runs whose output is the testdata files (test runs, builds, logs,
// benchmarks), file reads whose output is this package's own source, and
// short assistant and user turns between them. It returns the history
// and the number of bytes of text in it.
func benchHistory(tb testing.TB, size int) ([]condense.Message, int) {
	tb.Helper()
	outputs, _ := filepath.Glob("testdata/*.txt")
	sources, _ := filepath.Glob("*.go")
	sort.Strings(outputs)
	sort.Strings(sources)
	var texts []string
	for _, f := range outputs {
		texts = append(texts, readTestdata(tb, filepath.Base(f)))
	}
	var code []string
	for _, f := range sources {
		b, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		code = append(code, string(b))
	}
	msgs := []condense.Message{condense.UserText("Make the test suite pass; don't change the public API.")}
	total := 0
	for i := 0; total < size; i++ {
		id := fmt.Sprintf("call_%d", i)
		var call condense.Part
		var out string
		if i%3 == 2 {
			f := sources[i%len(sources)]
			in, _ := json.Marshal(map[string]string{"file_path": "/repo/ledger/" + f})
			call = condense.ToolCall(id, "Read", in)
			out = code[i%len(code)]
		} else {
			in, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("go test ./... -run Test%d", i)})
			call = condense.ToolCall(id, "Bash", in)
			out = texts[i%len(texts)] + fmt.Sprintf("\nExit code %d\n", i%2)
		}
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("Next I'll check the output."), call}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, i%2 == 1, condense.Text(out))}},
		)
		total += len(out) + 30
	}
	return msgs, total
}

// BenchmarkExtract extracts the ledger of a 2.5 MB history of mixed tool
// output in one pass.
func BenchmarkExtract(b *testing.B) {
	msgs, n := benchHistory(b, 2_500_000)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		Extract(msgs, 0)
	}
}

// BenchmarkExtractResult extracts result by result, as masking does.
func BenchmarkExtractResult(b *testing.B) {
	msgs, n := benchHistory(b, 2_500_000)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := 2; i < len(msgs); i += 2 {
			call := &msgs[i-1].Parts[1]
			ExtractResult(call, &msgs[i].Parts[0], i)
		}
	}
}

func BenchmarkRedact(b *testing.B) {
	msgs, _ := benchHistory(b, 2_500_000)
	var text []byte
	for i := range msgs {
		for _, p := range msgs[i].Parts {
			if p.Type == condense.PartToolResult {
				text = append(text, p.Content[0].Text...)
			}
		}
	}
	s := string(text)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		Redact(s)
	}
}
