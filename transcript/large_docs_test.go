package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// The large benchmarks read the generated session in every whole-document
// format. The formats condense writes are written by Write; for the others
// (which condense only reads) writeSynthetic lays the same conversation out
// the way the tool that writes the format does, item by item, so that the
// benchmark measures the reader on a document of the same size and shape
// as a real one.

// docFormats are the formats BenchmarkReadLargeDocument reads: every
// format whose input is one JSON document.
var docFormats = []Format{FormatOpenAI, FormatAnthropic, FormatCondense, FormatGeminiCLI,
	FormatOpenHands, FormatSWEAgent, FormatMiniSWEAgent, FormatLangChain, FormatCline}

// writeDocument writes req as a document of format f.
func writeDocument(w io.Writer, f Format, req condense.Request) error {
	for _, wf := range WriteFormats {
		if f == wf {
			return Write(w, f, req)
		}
	}
	return writeSynthetic(w, f, req)
}

// docWriter writes a JSON document whose one big array is written an item
// at a time.
type docWriter struct {
	w     *bufio.Writer
	n     int
	err   error
	count int // for ids and timestamps
}

func (d *docWriter) raw(s string) {
	if d.err == nil {
		_, d.err = d.w.WriteString(s)
	}
}

// item writes one array item, with the comma before it.
func (d *docWriter) item(v any) {
	if d.err != nil {
		return
	}
	if d.n > 0 {
		d.raw(",")
	}
	d.n++
	b, err := json.Marshal(v)
	if err != nil {
		d.err = err
		return
	}
	_, d.err = d.w.Write(b)
}

type obj = map[string]any

// resultText is the text of a tool result's content.
func resultText(p condense.Part) string {
	var b strings.Builder
	for _, c := range p.Content {
		b.WriteString(c.Text)
	}
	return b.String()
}

// argsOf returns a tool call's input as a JSON value for map members.
func argsOf(p condense.Part) json.RawMessage {
	if len(p.Input) == 0 {
		return json.RawMessage("{}")
	}
	return p.Input
}

// writeSynthetic writes req in format f (see the comment at the top).
func writeSynthetic(out io.Writer, f Format, req condense.Request) error {
	d := &docWriter{w: bufio.NewWriter(out)}
	msgs := req.Messages
	switch f {
	case FormatGeminiCLI:
		// A session record: results ride on their call.
		d.raw(`{"sessionId":"bench","projectHash":"0123abcd","startTime":"2026-11-30T12:00:00Z","lastUpdated":"2026-11-30T13:00:00Z","messages":[`)
		results := map[string]condense.Part{}
		for _, m := range msgs {
			for _, p := range m.Parts {
				if p.Type == condense.PartToolResult {
					results[p.CallID] = p
				}
			}
		}
		for i, m := range msgs {
			id := fmt.Sprintf("m%d", i)
			switch m.Role {
			case condense.RoleUser:
				d.item(obj{"id": id, "timestamp": "2026-11-30T12:00:00Z", "type": "user", "content": m.TextContent()})
			case condense.RoleAssistant:
				var text []string
				var thoughts, calls []obj
				for _, p := range m.Parts {
					switch p.Type {
					case condense.PartText:
						text = append(text, p.Text)
					case condense.PartThinking:
						thoughts = append(thoughts, obj{"subject": "Thinking", "description": p.Text})
					case condense.PartToolCall:
						r := results[p.ID]
						calls = append(calls, obj{"id": p.ID, "name": p.Name, "args": argsOf(p), "status": "success",
							"result": []obj{{"functionResponse": obj{"id": p.ID, "name": p.Name, "response": obj{"output": resultText(r)}}}}})
					}
				}
				d.item(obj{"id": id, "timestamp": "2026-11-30T12:00:00Z", "type": "gemini", "content": strings.Join(text, "\n\n"),
					"thoughts": thoughts, "toolCalls": calls, "model": "gemini-2.5-pro"})
			}
		}
		d.raw("]}\n")
	case FormatOpenHands:
		// Software-agent-sdk events: a user message, then per step one
		// action event per call and one observation per result.
		d.raw("[")
		for i, m := range msgs {
			switch m.Role {
			case condense.RoleUser:
				d.item(obj{"id": fmt.Sprintf("e%d", i), "source": "user", "kind": "MessageEvent", "timestamp": "2026-11-30T12:00:00",
					"llm_message": obj{"role": "user", "content": []obj{{"type": "text", "text": m.TextContent()}}}})
			case condense.RoleAssistant:
				var thought []obj
				var calls []condense.Part
				for _, p := range m.Parts {
					switch p.Type {
					case condense.PartText:
						thought = append(thought, obj{"type": "text", "text": p.Text})
					case condense.PartToolCall:
						calls = append(calls, p)
					}
				}
				if len(calls) == 0 {
					d.item(obj{"id": fmt.Sprintf("e%d", i), "source": "agent", "kind": "MessageEvent", "timestamp": "2026-11-30T12:00:00",
						"llm_message": obj{"role": "assistant", "content": thought}})
					continue
				}
				for k, c := range calls {
					if k > 0 {
						thought = []obj{}
					}
					d.item(obj{"id": fmt.Sprintf("e%d-%d", i, k), "source": "agent", "kind": "ActionEvent", "timestamp": "2026-11-30T12:00:00",
						"thought": thought, "tool_name": c.Name, "tool_call_id": c.ID, "llm_response_id": fmt.Sprintf("resp%d", i),
						"tool_call": obj{"id": c.ID, "name": c.Name, "arguments": string(argsOf(c)), "origin": "completion"},
						"action":    obj{"kind": "TerminalAction"}})
				}
			case condense.RoleTool:
				for k, p := range m.Parts {
					d.item(obj{"id": fmt.Sprintf("e%d-%d", i, k), "source": "environment", "kind": "ObservationEvent", "timestamp": "2026-11-30T12:00:00",
						"tool_name": "tool", "tool_call_id": p.CallID,
						"observation": obj{"kind": "TerminalObservation", "content": []obj{{"type": "text", "text": resultText(p)}}, "is_error": p.IsError}})
				}
			}
		}
		d.raw("]\n")
	case FormatSWEAgent, FormatMiniSWEAgent:
		// Chat messages: SWE-agent's history (tool messages answer
		// tool_call_ids) or mini-swe-agent's messages (with "extra").
		if f == FormatSWEAgent {
			d.raw(`{"environment":"swe_main","trajectory":[],"info":{"exit_status":"submitted"},"history":[`)
		} else {
			d.raw(`{"trajectory_format":"mini-swe-agent-1.1","info":{"exit_status":"Submitted","config":{"model":{"model_name":"claude-sonnet-4-5"}}},"messages":[`)
		}
		for _, m := range msgs {
			extra := func(o obj, typ string) obj {
				if f == FormatSWEAgent {
					o["agent"], o["message_type"] = "main", typ
				} else {
					o["extra"] = obj{"timestamp": 1764504000.0}
				}
				return o
			}
			switch m.Role {
			case condense.RoleUser:
				d.item(extra(obj{"role": "user", "content": m.TextContent()}, "observation"))
			case condense.RoleAssistant:
				var text []string
				var calls []obj
				for _, p := range m.Parts {
					switch p.Type {
					case condense.PartText:
						text = append(text, p.Text)
					case condense.PartToolCall:
						calls = append(calls, obj{"id": p.ID, "type": "function", "function": obj{"name": p.Name, "arguments": string(argsOf(p))}})
					}
				}
				o := obj{"role": "assistant", "content": strings.Join(text, "\n\n")}
				if calls != nil {
					o["tool_calls"] = calls
				}
				d.item(extra(o, "action"))
			case condense.RoleTool:
				for _, p := range m.Parts {
					o := obj{"role": "tool", "content": resultText(p)}
					if f == FormatSWEAgent {
						o["tool_call_ids"] = []string{p.CallID}
					} else {
						o["tool_call_id"] = p.CallID
					}
					d.item(extra(o, "observation"))
				}
			}
		}
		d.raw("]}\n")
	case FormatLangChain:
		// messages_to_dict: {"type", "data"}.
		d.raw("[")
		for _, m := range msgs {
			switch m.Role {
			case condense.RoleUser:
				d.item(obj{"type": "human", "data": obj{"type": "human", "content": m.TextContent(), "additional_kwargs": obj{}, "response_metadata": obj{}}})
			case condense.RoleAssistant:
				var text []string
				calls := []obj{}
				for _, p := range m.Parts {
					switch p.Type {
					case condense.PartText:
						text = append(text, p.Text)
					case condense.PartToolCall:
						calls = append(calls, obj{"name": p.Name, "args": argsOf(p), "id": p.ID, "type": "tool_call"})
					}
				}
				d.item(obj{"type": "ai", "data": obj{"type": "ai", "content": strings.Join(text, "\n\n"), "tool_calls": calls,
					"additional_kwargs": obj{}, "response_metadata": obj{"model_name": "gpt-4o"}}})
			case condense.RoleTool:
				for _, p := range m.Parts {
					d.item(obj{"type": "tool", "data": obj{"type": "tool", "content": resultText(p), "tool_call_id": p.CallID, "status": "success"}})
				}
			}
		}
		d.raw("]\n")
	case FormatCline:
		// api_conversation_history.json: Anthropic messages with "ts".
		d.raw("[")
		for i, m := range msgs {
			var blocks []obj
			role := "user"
			for _, p := range m.Parts {
				switch p.Type {
				case condense.PartText:
					blocks = append(blocks, obj{"type": "text", "text": p.Text})
				case condense.PartThinking:
					blocks = append(blocks, obj{"type": "thinking", "thinking": p.Text, "signature": p.Signature})
				case condense.PartToolCall:
					blocks = append(blocks, obj{"type": "tool_use", "id": p.ID, "name": p.Name, "input": argsOf(p)})
				case condense.PartToolResult:
					blocks = append(blocks, obj{"type": "tool_result", "tool_use_id": p.CallID, "is_error": p.IsError,
						"content": []obj{{"type": "text", "text": resultText(p)}}})
				}
			}
			if m.Role == condense.RoleAssistant {
				role = "assistant"
			}
			d.item(obj{"role": role, "ts": 1764504000000 + i, "content": blocks})
		}
		d.raw("]\n")
	default:
		return fmt.Errorf("no synthetic %s documents", f)
	}
	if d.err != nil {
		return d.err
	}
	return d.w.Flush()
}

// TestSyntheticDocuments checks that every document the large benchmarks
// read is read as its format, whole: one round of the generated session
// in each format holds as many tool calls as the session.
func TestSyntheticDocuments(t *testing.T) {
	dir := t.TempDir()
	src, _ := writeLargeSession(t, dir, 1)
	want, err := ReadFile(src, Options{MaxBytes: -1})
	if err != nil {
		t.Fatal(err)
	}
	calls := func(tr *Transcript) int {
		n := 0
		for _, m := range tr.Request.Messages {
			n += len(m.ToolCalls())
		}
		return n
	}
	for _, f := range docFormats {
		var buf bytes.Buffer
		if err := writeDocument(&buf, f, want.Request); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		tr, err := ReadBytes(buf.Bytes(), Options{})
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if tr.Format != f || calls(tr) != calls(want) || len(tr.Notes) > 0 {
			t.Errorf("%s: read as %s, %d calls (want %d), notes %v", f, tr.Format, calls(tr), calls(want), tr.Notes)
		}
	}
}
