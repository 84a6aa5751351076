package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestWriteAnthropicShape: roles alternate, tool results lead their user
// message, max_tokens is always there.
func TestWriteAnthropicShape(t *testing.T) {
	for _, c := range sampleCases {
		t.Run(c.file, func(t *testing.T) {
			tr := readSample(t, c.file, Options{})
			req := tr.Request
			req.MaxOutputTokens = 0
			var buf bytes.Buffer
			if err := Write(&buf, FormatAnthropic, req); err != nil {
				t.Fatal(err)
			}
			var body struct {
				MaxTokens int `json:"max_tokens"`
				Messages  []struct {
					Role    string `json:"role"`
					Content []struct {
						Type string `json:"type"`
					} `json:"content"`
				} `json:"messages"`
			}
			if err := json.Unmarshal(buf.Bytes(), &body); err != nil {
				t.Fatal(err)
			}
			if body.MaxTokens != 4096 {
				t.Errorf("max_tokens = %d, want the 4096 default", body.MaxTokens)
			}
			for i, m := range body.Messages {
				if i > 0 && m.Role == body.Messages[i-1].Role {
					t.Errorf("messages %d and %d are both %s", i-1, i, m.Role)
				}
				if len(m.Content) == 0 {
					t.Errorf("message %d is empty", i)
				}
				seenOther := false
				for _, b := range m.Content {
					if b.Type == "tool_result" && seenOther {
						t.Errorf("message %d: tool_result after other blocks", i)
					}
					seenOther = seenOther || b.Type != "tool_result"
				}
			}
		})
	}
}

// TestWriteAnthropicBytes: provider blocks and cache_control go back byte
// for byte.
func TestWriteAnthropicBytes(t *testing.T) {
	tr := readSample(t, "anthropic-messages.json", Options{})
	var buf bytes.Buffer
	if err := Write(&buf, FormatAnthropic, tr.Request); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		`{"type":"text","text":"(the graph above is from the load test)","cache_control":{"type": "ephemeral", "ttl": "1h"}}`,
		`"is_error":true,"cache_control":{"type": "ephemeral"}}`,
		`{"type": "compaction", "content": "Earlier turns: reproduced TestBurst failure; clamped tokens to cap in bucket.go.", "encrypted_content": "Z2lnYW50aWMtYmxvYi1vZi1lbmNyeXB0ZWQtc3R1ZmY="}`,
		`{"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "golang token bucket clamp capacity"}}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %s", want)
		}
	}
	// The sample ends with calls made without thinking, answered by the
	// writer's stand-in results: the API refuses that with thinking
	// enabled, so it is left out; the request before them keeps it.
	if strings.Contains(out, `"thinking":{"type"`) {
		t.Errorf("thinking enabled for a tool loop without thinking")
	}
	req := tr.Request
	last := len(req.Messages) - 1
	for req.Messages[last].Role != condense.RoleAssistant {
		last--
	}
	req.Messages = req.Messages[:last]
	buf.Reset()
	if err := Write(&buf, FormatAnthropic, req); err != nil {
		t.Fatal(err)
	}
	if want := `"thinking":{"type":"enabled","budget_tokens":2048}`; !strings.Contains(buf.String(), want) {
		t.Errorf("output lacks %s", want)
	}
}

// TestWriteOpenAIShape: one tool message per result, no thinking, images
// as image_url parts.
func TestWriteOpenAIShape(t *testing.T) {
	tr := readSample(t, "claude-code.jsonl", Options{})
	var buf bytes.Buffer
	if err := Write(&buf, FormatOpenAI, tr.Request); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "parseUnary. Run the tests") || strings.Contains(out, "signature") {
		t.Errorf("thinking written")
	}
	if !strings.Contains(out, `{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo`) {
		t.Errorf("image not written as a data URL")
	}
	var body struct {
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(buf.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	results := 0
	for _, m := range tr.Request.Messages {
		for _, p := range m.Parts {
			if p.Type == condense.PartToolResult {
				results++
			}
		}
	}
	tools := 0
	for _, m := range body.Messages {
		if m.Role == "tool" {
			tools++
			if m.ToolCallID == "" {
				t.Errorf("tool message without tool_call_id")
			}
		}
	}
	if tools != results {
		t.Errorf("%d tool messages for %d results", tools, results)
	}
}

func TestWriteUnknownFormat(t *testing.T) {
	err := Write(&bytes.Buffer{}, FormatCodex, condense.Request{})
	if err == nil || !strings.Contains(err.Error(), "openai, anthropic, condense") {
		t.Errorf("Write(codex) = %v", err)
	}
}

// TestAppendEncode: AppendEncode keeps dst and appends what Encode
// returns, in every format.
func TestAppendEncode(t *testing.T) {
	tr := readSample(t, sampleCases[0].file, Options{})
	for _, f := range []Format{FormatOpenAI, FormatAnthropic, FormatCondense} {
		want, err := Encode(f, tr.Request, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		dst := append(make([]byte, 0, 8), "prefix"...)
		got, err := AppendEncode(dst, f, tr.Request, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != "prefix"+string(want) {
			t.Errorf("%s: AppendEncode gives %.80q…, want the prefix then %.80q…", f, got, want)
		}
	}
}

// TestOpenAIWritableKeepsParts: the parts of a message written as they
// are are not copied (a render encodes every message of a session), and
// those changed are copied, never changed in place.
func TestOpenAIWritableKeepsParts(t *testing.T) {
	plain := []condense.Part{condense.Text("a"), condense.ToolResult("c1", false, condense.Text("ok"))}
	if got := oaiWritable(plain, condense.RoleUser); !sameParts(got, plain) {
		t.Errorf("parts written as they are were copied")
	}
	mixed := []condense.Part{condense.Text("a"), condense.Thinking("hm", "sig"), condense.ToolResult("c1", false, condense.Thinking("x", "s"), condense.Text("ok"))}
	got := oaiWritable(mixed, condense.RoleAssistant)
	if len(got) != 2 || got[0].Text != "a" || len(got[1].Content) != 1 || got[1].Content[0].Text != "ok" {
		t.Fatalf("oaiWritable = %+v, want the text and the result without thinking", got)
	}
	if mixed[1].Type != condense.PartThinking || len(mixed[2].Content) != 2 {
		t.Errorf("oaiWritable changed its input: %+v", mixed)
	}
}
