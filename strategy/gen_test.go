package strategy_test

import (
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/condense-dev/condense"
)

var words = []string{"the", "build", "failed", "because", "handler", "returns", "nil", "when", "cache", "is", "cold",
	"retry", "request", "latency", "config", "value", "token", "parse", "error", "module", "function", "test"}

var specifics = []string{
	"internal/server/handler.go", "cmd/api/main.go", "panic: runtime error: index out of range [3] with length 3",
	"--- FAIL: TestParse (0.01s)", "p99 latency: 703.1ms", "BenchmarkParse-8   1000000   1043 ns/op",
	"ERROR connection refused to db-primary:5432", "PROJ-1234", "FAIL github.com/acme/api/internal/server 0.532s",
	"exit status 1", "Traceback (most recent call last):", "ValueError: invalid literal for int() with base 10: 'x'",
}

func genText(t *rapid.T, label string, maxWords int) string {
	n := rapid.IntRange(1, maxWords).Draw(t, label+"_n")
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		if rapid.IntRange(0, 30).Draw(t, label+"_s") == 0 {
			b.WriteString(specifics[rapid.IntRange(0, len(specifics)-1).Draw(t, label+"_spec")])
			b.WriteByte('\n')
			continue
		}
		b.WriteString(words[rapid.IntRange(0, len(words)-1).Draw(t, label+"_w")])
	}
	return b.String()
}

// genHistory draws a random, valid agent history: turns of steps with
// parallel tool batches, thinking, failed and aborted replies, images and
// pinned messages; sometimes one long turn of many steps; sometimes ending
// in a step whose calls are still running.
func genHistory(t *rapid.T) []condense.Message {
	var msgs []condense.Message
	id := 0
	next := func() string { id++; return fmt.Sprintf("m%d", id) }
	calls := 0
	turns := rapid.IntRange(1, 8).Draw(t, "turns")
	longTurn := rapid.IntRange(0, 4).Draw(t, "long") == 0
	for turn := 0; turn < turns; turn++ {
		u := condense.Message{ID: next(), Role: condense.RoleUser, Parts: []condense.Part{condense.Text(genText(t, "user", 40))}}
		if rapid.IntRange(0, 9).Draw(t, "pin") == 0 {
			u.Pinned = true
		}
		if rapid.IntRange(0, 12).Draw(t, "img") == 0 {
			u.Parts = append(u.Parts, condense.Part{Type: condense.PartImage, MediaType: "image/png", Data: []byte("PNGDATA"), Width: 800, Height: 600})
		}
		msgs = append(msgs, u)
		steps := rapid.IntRange(0, 6).Draw(t, "steps")
		if longTurn && turn == turns-1 {
			steps = rapid.IntRange(50, 300).Draw(t, "long_steps")
		}
		for s := 0; s < steps; s++ {
			a := condense.Message{ID: next(), Role: condense.RoleAssistant}
			if rapid.IntRange(0, 4).Draw(t, "think") == 0 {
				a.Parts = append(a.Parts, condense.Thinking(genText(t, "thinking", 20), "sig"))
			}
			if rapid.IntRange(0, 2).Draw(t, "say") == 0 {
				a.Parts = append(a.Parts, condense.Text(genText(t, "say", 20)))
			}
			n := rapid.IntRange(1, 3).Draw(t, "batch")
			var ids []string
			for k := 0; k < n; k++ {
				calls++
				cid := fmt.Sprintf("call_%d", calls)
				ids = append(ids, cid)
				in, _ := json.Marshal(map[string]string{"command": "go test ./internal/" + words[calls%len(words)] + "/..."})
				if rapid.Bool().Draw(t, "indent") {
					in, _ = json.MarshalIndent(map[string]string{"path": "internal/x.go"}, "", "  ")
				}
				a.Parts = append(a.Parts, condense.ToolCall(cid, "bash", in))
			}
			msgs = append(msgs, a)
			if turn == turns-1 && s == steps-1 && rapid.IntRange(0, 5).Draw(t, "open") == 0 {
				return msgs // the newest step's calls are still running
			}
			results := make([]condense.Part, len(ids))
			for k, cid := range ids {
				size := rapid.IntRange(1, 400).Draw(t, "out")
				results[k] = condense.ToolResult(cid, rapid.IntRange(0, 6).Draw(t, "iserr") == 0, condense.Text(genText(t, "out", size)))
			}
			if rapid.Bool().Draw(t, "onemsg") {
				msgs = append(msgs, condense.Message{ID: next(), Role: condense.RoleTool, Parts: results})
			} else {
				for _, r := range results {
					msgs = append(msgs, condense.Message{ID: next(), Role: condense.RoleTool, Parts: []condense.Part{r}})
				}
			}
		}
		if rapid.IntRange(0, 6).Draw(t, "failed") == 0 {
			st := condense.StatusFailed
			if rapid.Bool().Draw(t, "aborted") {
				st = condense.StatusAborted
			}
			msgs = append(msgs, condense.Message{ID: next(), Role: condense.RoleAssistant, Status: st, Parts: []condense.Part{condense.Text("partial " + genText(t, "fail", 10))}})
		} else if rapid.Bool().Draw(t, "final") && (len(msgs) == 0 || msgs[len(msgs)-1].Role != condense.RoleAssistant || !msgs[len(msgs)-1].HasToolCalls()) {
			msgs = append(msgs, condense.Message{ID: next(), Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(genText(t, "answer", 30))}})
		}
	}
	return msgs
}
