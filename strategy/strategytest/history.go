package strategytest

import (
	"encoding/json"
	"fmt"
	"strings"

	"pgregory.net/rapid"

	"github.com/condense-dev/condense"
)

// words are the filler of generated text.
var words = []string{"the", "build", "failed", "because", "handler", "returns", "nil", "when", "cache", "is", "cold",
	"retry", "request", "latency", "config", "value", "token", "parse", "error", "module", "function", "test"}

// specifics are the lines the ledger must keep: paths, errors, test
// failures, measurements, identifiers.
var specifics = []string{
	"internal/server/handler.go", "cmd/api/main.go", "panic: runtime error: index out of range [3] with length 3",
	"--- FAIL: TestParse (0.01s)", "p99 latency: 703.1ms", "BenchmarkParse-8   1000000   1043 ns/op",
	"ERROR connection refused to db-primary:5432", "PROJ-1234", "FAIL github.com/acme/api/internal/server 0.532s",
	"exit status 1", "Traceback (most recent call last):", "ValueError: invalid literal for int() with base 10: 'x'",
}

// History returns the generator of the histories the kit checks
// strategies on: valid agent histories of one to eight user turns, each of
// up to six steps, with parallel tool batches (one tool message per batch or
// one per result), tool inputs indented or not, failed tool results,
// thinking, images, pinned user messages, and failed and aborted assistant
// replies. One history in five ends in a long turn of 50 to 300 steps; some
// end in a step whose tool calls are still running. Tool output and text
// carry, now and then, a specific the ledger extracts (a path, an error
// line, a measurement, an identifier).
func History() *rapid.Generator[[]condense.Message] {
	return rapid.Custom(genHistory)
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

// historyGen draws one history; its fields carry the state of the drawing.
type historyGen struct {
	t     *rapid.T
	msgs  []condense.Message
	id    int // messages so far, for their ids
	calls int // tool calls so far, for their ids
}

func genHistory(t *rapid.T) []condense.Message {
	g := &historyGen{t: t}
	turns := rapid.IntRange(1, 8).Draw(t, "turns")
	longTurn := rapid.IntRange(0, 4).Draw(t, "long") == 0
	for turn := 0; turn < turns; turn++ {
		last := turn == turns-1
		g.userMessage()
		steps := rapid.IntRange(0, 6).Draw(t, "steps")
		if longTurn && last {
			steps = rapid.IntRange(50, 300).Draw(t, "long_steps")
		}
		for s := 0; s < steps; s++ {
			if !g.step(last && s == steps-1) {
				return g.msgs // the newest step's calls are still running
			}
		}
		g.endOfTurn()
	}
	return g.msgs
}

func (g *historyGen) nextID() string {
	g.id++
	return fmt.Sprintf("m%d", g.id)
}

// userMessage adds a user message, sometimes pinned, sometimes with an
// image.
func (g *historyGen) userMessage() {
	t := g.t
	u := condense.Message{ID: g.nextID(), Role: condense.RoleUser, Parts: []condense.Part{condense.Text(genText(t, "user", 40))}}
	if rapid.IntRange(0, 9).Draw(t, "pin") == 0 {
		u.Pinned = true
	}
	if rapid.IntRange(0, 12).Draw(t, "img") == 0 {
		u.Parts = append(u.Parts, condense.Part{Type: condense.PartImage, MediaType: "image/png", Data: []byte("PNGDATA"), Width: 800, Height: 600})
	}
	g.msgs = append(g.msgs, u)
}

// step adds an assistant message calling one to three tools and, unless
// newest is set and the draw leaves its calls running, their results. It
// reports whether the results were added.
func (g *historyGen) step(newest bool) bool {
	t := g.t
	a := condense.Message{ID: g.nextID(), Role: condense.RoleAssistant}
	if rapid.IntRange(0, 4).Draw(t, "think") == 0 {
		a.Parts = append(a.Parts, condense.Thinking(genText(t, "thinking", 20), "sig"))
	}
	if rapid.IntRange(0, 2).Draw(t, "say") == 0 {
		a.Parts = append(a.Parts, condense.Text(genText(t, "say", 20)))
	}
	n := rapid.IntRange(1, 3).Draw(t, "batch")
	var ids []string
	for k := 0; k < n; k++ {
		g.calls++
		cid := fmt.Sprintf("call_%d", g.calls)
		ids = append(ids, cid)
		in, _ := json.Marshal(map[string]string{"command": "go test ./internal/" + words[g.calls%len(words)] + "/..."})
		if rapid.Bool().Draw(t, "indent") {
			in, _ = json.MarshalIndent(map[string]string{"path": "internal/x.go"}, "", "  ")
		}
		a.Parts = append(a.Parts, condense.ToolCall(cid, "bash", in))
	}
	g.msgs = append(g.msgs, a)
	if newest && rapid.IntRange(0, 5).Draw(t, "open") == 0 {
		return false
	}
	g.results(ids)
	return true
}

// results adds the results of the calls ids, in one tool message or one
// each.
func (g *historyGen) results(ids []string) {
	t := g.t
	results := make([]condense.Part, len(ids))
	for k, cid := range ids {
		size := rapid.IntRange(1, 400).Draw(t, "out")
		results[k] = condense.ToolResult(cid, rapid.IntRange(0, 6).Draw(t, "iserr") == 0, condense.Text(genText(t, "out", size)))
	}
	if rapid.Bool().Draw(t, "onemsg") {
		g.msgs = append(g.msgs, condense.Message{ID: g.nextID(), Role: condense.RoleTool, Parts: results})
		return
	}
	for _, r := range results {
		g.msgs = append(g.msgs, condense.Message{ID: g.nextID(), Role: condense.RoleTool, Parts: []condense.Part{r}})
	}
}

// endOfTurn ends a turn with a failed or aborted reply, a final answer, or
// nothing.
func (g *historyGen) endOfTurn() {
	t := g.t
	if rapid.IntRange(0, 6).Draw(t, "failed") == 0 {
		st := condense.StatusFailed
		if rapid.Bool().Draw(t, "aborted") {
			st = condense.StatusAborted
		}
		g.msgs = append(g.msgs, condense.Message{ID: g.nextID(), Role: condense.RoleAssistant, Status: st, Parts: []condense.Part{condense.Text("partial " + genText(t, "fail", 10))}})
		return
	}
	msgs := g.msgs
	if rapid.Bool().Draw(t, "final") && (len(msgs) == 0 || msgs[len(msgs)-1].Role != condense.RoleAssistant || !msgs[len(msgs)-1].HasToolCalls()) {
		g.msgs = append(g.msgs, condense.Message{ID: g.nextID(), Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(genText(t, "answer", 30))}})
	}
}
