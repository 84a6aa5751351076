package eval

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// session generates a long coding session of about size bytes,
// deterministically from seed: user turns every 20–30 steps, shell and file
// tool calls, Go test output with failures and panics, file listings and
// benchmark lines, so every category of specifics is present.
func session(seed uint64, size int) []condense.Message {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	pkgs := []string{"store", "ledger", "strategy", "tokens", "session", "proxy", "server", "journal"}
	words := strings.Fields("the a request window token budget compaction summary ledger result call step turn history " +
		"checkpoint render count limit mask drop keep recall render prefix cache")
	line := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	msgs := []condense.Message{condense.UserText(fmt.Sprintf("Session %d: make `go test ./...` pass and keep p99 latency under 250ms. %s.", seed, line(30)))}
	total, step, call := len(msgs[0].Parts[0].Text), 0, 0
	for total < size {
		step++
		if step%(20+r.IntN(10)) == 0 {
			u := condense.UserText(fmt.Sprintf("Next: %s in internal/%s/%s_%d.go.", line(12), pkgs[r.IntN(len(pkgs))], words[r.IntN(len(words))], r.IntN(50)))
			msgs = append(msgs, u)
			total += len(u.Parts[0].Text)
		}
		pkg := pkgs[r.IntN(len(pkgs))]
		file := fmt.Sprintf("internal/%s/%s_%d.go", pkg, words[r.IntN(len(words))], r.IntN(40))
		call++
		id := fmt.Sprintf("toolu_%06d_%d", seed, call)
		var name, input, output string
		isErr := false
		switch r.IntN(4) {
		case 0, 1:
			name = "Bash"
			cmd := fmt.Sprintf("go test -run Test%s%d ./internal/%s/...", strings.ToUpper(pkg[:1])+pkg[1:], r.IntN(90), pkg)
			input = fmt.Sprintf(`{"command":%q,"description":%q}`, cmd, line(6))
			var b strings.Builder
			for k := 0; k < 20+r.IntN(40); k++ {
				fmt.Fprintf(&b, "=== RUN   Test%s%d\n--- PASS: Test%s%d (%d.%02ds)\n", pkg, k, pkg, k, r.IntN(3), r.IntN(100))
			}
			if r.IntN(3) == 0 {
				isErr = true
				fmt.Fprintf(&b, "--- FAIL: Test%sWindow%d (0.%02ds)\n    %s:%d: got %d tokens, want %d\n", pkg, r.IntN(20), r.IntN(100), file, r.IntN(400), r.IntN(9000), r.IntN(9000))
				if r.IntN(2) == 0 {
					fmt.Fprintf(&b, "panic: runtime error: index out of range [%d] with length %d\n", r.IntN(9), r.IntN(9))
				}
				fmt.Fprintf(&b, "FAIL\tgithub.com/condense-dev/condense/internal/%s\t%d.%03ds\n", pkg, r.IntN(5), r.IntN(1000))
			} else {
				fmt.Fprintf(&b, "ok  \tgithub.com/condense-dev/condense/internal/%s\t%d.%03ds\n", pkg, r.IntN(5), r.IntN(1000))
			}
			for k := 0; k < r.IntN(4); k++ {
				fmt.Fprintf(&b, "BenchmarkPrepare%d-8   \t%d\t%d ns/op\t%d B/op\t%d allocs/op\n", k, 1000+r.IntN(9000), r.IntN(90000), r.IntN(4096), r.IntN(40))
			}
			output = b.String()
		case 2:
			name = "Read"
			input = fmt.Sprintf(`{"file_path":%q}`, "/home/dev/condense/"+file)
			var b strings.Builder
			fmt.Fprintf(&b, "package %s\n\n", pkg)
			for k := 0; k < 30+r.IntN(60); k++ {
				fn := fmt.Sprintf("%s%sFor%d", strings.ToUpper(words[r.IntN(len(words))][:1]), words[r.IntN(len(words))], k)
				fmt.Fprintf(&b, "%4d\tfunc %s(ctx context.Context, n int) (int, error) { // %s\n", k*3+1, fn, line(5))
			}
			output = b.String()
		default:
			name = "Edit"
			input = fmt.Sprintf(`{"file_path":%q,"old_string":%q,"new_string":%q}`, "/home/dev/condense/"+file, line(20), line(24))
			output = fmt.Sprintf("The file /home/dev/condense/%s has been updated. %s", file, line(40))
		}
		a := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.Text(line(8 + r.IntN(30))),
			condense.ToolCall(id, name, json.RawMessage(input)),
		}}
		t := condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, isErr, condense.Text(output))}}
		msgs = append(msgs, a, t)
		total += len(a.Parts[0].Text) + len(input) + len(output)
	}
	msgs = append(msgs, condense.AssistantText("Done: every test passes; p99 latency is 212ms."))
	return msgs
}

// benchTranscripts returns n generated transcripts of about size bytes each
// for a 64k-token Claude window, so every one overflows and compacts.
func benchTranscripts(n, size int) []Transcript {
	ts := make([]Transcript, n)
	model := "claude-sonnet-4-5"
	for i := range ts {
		req := condense.Request{Model: model, System: "You are a coding agent.", Messages: session(uint64(i+1), size)}
		ts[i] = Transcript{Name: fmt.Sprintf("gen-%02d", i+1), Format: "condense", Request: req,
			Counter: tokens.ForModel(model, tokens.Models),
			Budget:  condense.Budget{Window: 64_000, ReservedOutput: 4096, Fraction: condense.DefaultFraction}}
	}
	return ts
}

// BenchmarkEval20x300KB evaluates 20 transcripts of 300 KB each under the
// five default policies: extraction, replay, retention and validity. The
// target is under 30 s per operation.
func BenchmarkEval20x300KB(b *testing.B) {
	ts := benchTranscripts(20, 300_000)
	steps, bytes := 0, 0
	for i := range ts {
		steps += CountSteps(ts[i].Request.Messages)
		for _, m := range ts[i].Request.Messages {
			bytes += len(Flatten([]condense.Message{m}))
		}
	}
	b.SetBytes(int64(bytes))
	b.ResetTimer()
	for b.Loop() {
		reports, err := Evaluate(context.Background(), ts, Config{})
		if err != nil {
			b.Fatal(err)
		}
		if len(reports) != 20 {
			b.Fatal("missing reports")
		}
	}
	b.ReportMetric(float64(steps), "steps/transcript-set")
}

// BenchmarkExtract measures the independent extractor on a 300 KB session.
func BenchmarkExtract(b *testing.B) {
	msgs := session(1, 300_000)
	n := 0
	for _, m := range msgs {
		n += len(Flatten([]condense.Message{m}))
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		Extract(msgs)
	}
}
