package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/condense-dev/condense"
)

// genReader hands out the fuzz input a byte at a time, zeros once it runs
// out.
type genReader struct{ data []byte }

func (g *genReader) next() int {
	if len(g.data) == 0 {
		return 0
	}
	b := g.data[0]
	g.data = g.data[1:]
	return int(b)
}

func (g *genReader) pick(n int) int { return g.next() % n }

var (
	genTexts   = []string{"fix the parser", "", " ", "\n\t", "done. ", "ok", "λ → ∞", "ends with newline\n"}
	genIDs     = []string{"toolu_01", "call_0123456789012345678901234567890123456789", "call_1", "c1~2", "a.b", "x y", "é", "-", "call_1_2", "c1_2", "id/with/slash"}
	genNames   = []string{"bash", "Read", "mcp.fs/read", "a b", "x", "bash", "0123456789012345678901234567890123456789012345678901234567890123456789", "functions.shell"}
	genSchemas = []string{"", `{}`, `[]`, `{"type":"string"}`, `{"properties":{"p":{"type":"string"}}}`, `{"type":"object","properties":{}}`, `null`}
	genRaw     = []condense.Part{
		condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"compaction","content":"earlier turns"}`)),
		condense.ProviderBlock("openai", json.RawMessage(`{"type":"refusal","refusal":"no"}`)),
		condense.ProviderBlock("openai", json.RawMessage(`{"type":"input_audio","input_audio":{"data":"AA","format":"wav"}}`)),
		condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning","summary":[]}`)),
		condense.ProviderBlock("other", json.RawMessage(`{"x":1}`)),
		condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"thinking","thinking":"unsigned"}`)),
		condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"tool_use","id":"raw~1","name":"x","input":{}}`)),
		condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"text","text":"  "}`)),
		condense.ProviderBlock("anthropic", json.RawMessage(`{"cache_control":{"type":"ephemeral"}}`)),
	}
)

// genPart returns a content part of a message of role.
func (g *genReader) genPart(role condense.Role) condense.Part {
	switch g.pick(9) {
	case 0:
		return condense.ImageData([]string{"image/png", "image/bmp", ""}[g.pick(3)], []byte{0x89, 'P', 'N', 'G'})
	case 1:
		return condense.ImageURL("image/jpeg", "https://example.com/a.jpg")
	case 2:
		return genRaw[g.pick(len(genRaw))]
	case 3:
		switch g.pick(3) {
		case 0:
			return condense.Thinking("let me think", "sig")
		case 1:
			return condense.Thinking("unsigned reasoning", "")
		}
		return condense.RedactedThinking("b64data")
	}
	return condense.Text(genTexts[g.pick(len(genTexts))])
}

// genRequest builds a request that passes condense.Validate from the fuzz
// input: user, system and assistant messages, tool calls with ids and
// names the APIs may refuse, results split over tool messages (the newest
// step's possibly missing), thinking signed or not, images and provider
// blocks, tool definitions duplicated or missing, odd schemas and budgets.
func genRequest(data []byte) condense.Request {
	g := &genReader{data: data}
	req := condense.Request{Model: "m"}
	if g.pick(2) == 0 {
		req.System = genTexts[g.pick(len(genTexts))]
	}
	req.MaxOutputTokens = []int{0, 1, 1000, 4096, 32000}[g.pick(5)]
	req.ThinkingBudget = []int{0, 0, 100, 1024, 2048, 40000}[g.pick(6)]
	for n := g.pick(4); n > 0; n-- {
		req.Tools = append(req.Tools, condense.Tool{Name: genNames[g.pick(len(genNames))],
			InputSchema: json.RawMessage(genSchemas[g.pick(len(genSchemas))])})
	}
	used := map[string]bool{}
	steps := 1 + g.pick(8)
	for s := 0; s < steps; s++ {
		last := s == steps-1
		switch g.pick(4) {
		case 0, 1:
			role := condense.RoleUser
			if g.pick(4) == 0 {
				role = condense.RoleSystem
			}
			m := condense.Message{Role: role}
			for n := g.pick(3); n >= 0; n-- {
				m.Parts = append(m.Parts, g.genPart(role))
			}
			req.Messages = append(req.Messages, m)
		default:
			m := condense.Message{Role: condense.RoleAssistant}
			if g.pick(5) == 0 {
				m.Status = condense.StatusFailed
			}
			for n := g.pick(3); n > 0; n-- {
				m.Parts = append(m.Parts, g.genPart(condense.RoleAssistant))
			}
			// Thinking before the calls, as Validate wants, and never on
			// its own.
			m.Parts = append(thinkingOnly(m.Parts), notThinking(m.Parts)...)
			if len(m.Parts) > 0 && len(notThinking(m.Parts)) == 0 {
				m.Parts = append(m.Parts, condense.Text("ok"))
			}
			var ids []string
			for n := g.pick(4); n > 0; n-- {
				id := genIDs[g.pick(len(genIDs))]
				for k := 2; used[id]; k++ {
					id = fmt.Sprintf("%s~%d", genIDs[g.pick(len(genIDs))], k)
				}
				used[id] = true
				ids = append(ids, id)
				m.Parts = append(m.Parts, condense.ToolCall(id, genNames[g.pick(len(genNames))], json.RawMessage(`{"a":1}`)))
			}
			req.Messages = append(req.Messages, m)
			if len(ids) == 0 || last && g.pick(2) == 0 {
				continue // the newest step may be still running
			}
			var t condense.Message
			for i, id := range ids {
				if i > 0 && g.pick(3) == 0 {
					req.Messages = append(req.Messages, condense.Message{Role: condense.RoleTool, Parts: t.Parts})
					t = condense.Message{}
				}
				var content []condense.Part
				for n := g.pick(3); n > 0; n-- {
					content = append(content, g.genPart(condense.RoleTool))
				}
				content = notThinking(content)
				t.Parts = append(t.Parts, condense.ToolResult(id, g.pick(2) == 0, content...))
			}
			req.Messages = append(req.Messages, condense.Message{Role: condense.RoleTool, Parts: t.Parts})
		}
	}
	return req
}

func thinkingOnly(parts []condense.Part) []condense.Part {
	var out []condense.Part
	for _, p := range parts {
		if p.Type == condense.PartThinking {
			out = append(out, p)
		}
	}
	return out
}

func notThinking(parts []condense.Part) []condense.Part {
	var out []condense.Part
	for _, p := range parts {
		if p.Type != condense.PartThinking {
			out = append(out, p)
		}
	}
	return out
}

// checkWrite is the writers' fuzz property: a request that passes
// condense.Validate is written in every format without error, and what is
// written passes that format's checker.
func checkWrite(t *testing.T, req condense.Request, original map[string]string) {
	for _, f := range WriteFormats {
		var buf bytes.Buffer
		if err := WriteWith(&buf, f, req, WriteOptions{OriginalIDs: original}); err != nil {
			t.Fatalf("Write %s: %v", f, err)
		}
		if v := CheckWritten(f, buf.Bytes()); len(v) > 0 {
			t.Fatalf("%s: %v\n%s", f, v, buf.Bytes())
		}
	}
}

// FuzzWrite: random valid requests, written in each format, pass the
// format's checker.
func FuzzWrite(f *testing.F) {
	for _, s := range []string{"", "\x00\x01\x02\x03", "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
		"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0\x02\x02\x02\x02\x03\x03\x03\x03"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req := genRequest(data)
		if err := condense.Validate(req.Messages); err != nil {
			t.Fatalf("generated an invalid request: %v", err)
		}
		checkWrite(t, req, nil)
	})
}

// FuzzWriteRead: whatever a reader makes of the fuzz input (any format,
// read leniently), written in each format, passes the format's checker.
func FuzzWriteRead(f *testing.F) {
	seeds(f, FormatAuto)
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadBytes(data, Options{Lenient: true})
		if err != nil {
			return
		}
		checkWrite(t, tr.Request, tr.OriginalIDs)
		if tr.Checkpoint != nil {
			r := tr.Request
			r.Messages = tr.Rendered()
			checkWrite(t, r, nil)
		}
	})
}
