package condense_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func sampleDoc() condense.Document {
	return condense.Document{
		Version:        1,
		Model:          "gpt-4o",
		System:         "You are terse.",
		ThinkingBudget: 2048,
		Tools:          []condense.Tool{{Name: "bash", Description: "run a command", InputSchema: json.RawMessage(`{"type":"object"}`)}},
		Messages: []condense.Message{
			{ID: "u1", Role: condense.RoleUser, Pinned: true, Parts: []condense.Part{condense.Text("fix the bug"), {Type: condense.PartImage, MediaType: "image/png", Data: []byte{1, 2, 3}, Width: 10, Height: 20}, {Type: condense.PartImage, MediaType: "image/png", URL: "https://example.test/w.png", Width: 640}}},
			{ID: "a1", Role: condense.RoleAssistant, Parts: []condense.Part{condense.Thinking("look first", "sig=="), condense.RedactedThinking("ENCRYPTED"), condense.ToolCall("c1", "bash", json.RawMessage(`{"command":"go test ./..."}`))}},
			{ID: "t1", Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", true, condense.Text("FAIL"), condense.ImageURL("image/jpeg", "https://example.test/x.jpg"))}},
			{ID: "a2", Role: condense.RoleAssistant, Status: condense.StatusAborted, Parts: []condense.Part{condense.ProviderBlock("anthropic", json.RawMessage(`{"type":"compaction","encrypted_content":"  AbC=="}`))}},
		},
	}
}

func TestDocumentRoundTrip(t *testing.T) {
	d := sampleDoc()
	raw, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := condense.ParseDocument(raw)
	if err != nil {
		t.Fatalf("ParseDocument: %v\n%s", err, raw)
	}
	if !reflect.DeepEqual(got, d) {
		t.Fatalf("round trip differs:\n got %#v\nwant %#v", got, d)
	}
	again, _ := json.Marshal(got)
	if string(again) != string(raw) {
		t.Fatalf("second encoding differs:\n%s\n%s", again, raw)
	}
	// The provider block is carried byte for byte, whitespace included.
	if !strings.Contains(string(raw), `{"type":"compaction","encrypted_content":"  AbC=="}`) {
		t.Errorf("provider block not carried byte for byte: %s", raw)
	}
}

func TestParseDocumentErrors(t *testing.T) {
	tests := []struct{ in, path string }{
		{`{"version":2,"messages":[]}`, "version"},
		{`{"version":1}`, "messages"},
		{`{"version":1,"messages":[{"role":"robot","parts":[]}]}`, "messages[0].role"},
		{`{"version":1,"messages":[{"role":"user","parts":[{"type":"txt","text":"x"}]}]}`, "messages[0].parts[0].type"},
		{`{"version":1,"messages":[{"role":"user","parts":[]},{"role":"assistant","parts":[{"type":"tool_call","name":"x","input":{}}]}]}`, "messages[1].parts[0].id"},
		{`{"version":1,"messages":[{"role":"tool","parts":[{"type":"tool_result","call_id":"c","content":[{"type":"tool_call","id":"x","name":"y"}]}]}]}`, "messages[0].parts[0].content[0].type"},
		{`{"version":1,"messages":[{"role":"user","parts":[{"type":"image","media_type":"image/png","data":"%%%"}]}]}`, "messages[0].parts[0].data"},
		{`{"version":1,"messages":[{"role":"user","status":"weird","parts":[]}]}`, "messages[0].status"},
		{`{"version":1,"messages":[{"role":"assistant","parts":[{"type":"tool_call","id":"c","name":"x","input":"{bad"}]}]}`, "messages[0].parts[0].input"},
		{`{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"x","extra":1}]}]}`, "messages[0].parts[0]"},
	}
	for _, tt := range tests {
		_, err := condense.ParseDocument([]byte(tt.in))
		var je *condense.JSONError
		if !errors.As(err, &je) {
			t.Errorf("%s: err = %v, want *JSONError", tt.in, err)
			continue
		}
		if je.Path != tt.path {
			t.Errorf("%s: path %q, want %q (%v)", tt.in, je.Path, tt.path, err)
		}
		if !errors.Is(err, condense.ErrMalformed) {
			t.Errorf("%s: does not wrap ErrMalformed", tt.in)
		}
	}
}

func FuzzParseDocument(f *testing.F) {
	raw, _ := json.Marshal(sampleDoc())
	f.Add(raw)
	f.Add([]byte(`{"version":1,"messages":[]}`))
	f.Add([]byte(`{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"x"}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := condense.ParseDocument(data)
		if err != nil {
			if !errors.Is(err, condense.ErrMalformed) {
				t.Fatalf("error does not wrap ErrMalformed: %v", err)
			}
			return
		}
		// Whatever parses re-encodes, and re-parses to the same document.
		out, err := json.Marshal(d)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		d2, err := condense.ParseDocument(out)
		if err != nil {
			t.Fatalf("re-parse of our own output: %v\n%s", err, out)
		}
		out2, _ := json.Marshal(d2)
		if string(out) != string(out2) {
			t.Fatalf("not stable:\n%s\n%s", out, out2)
		}
	})
}

func TestDocumentOriginalIDs(t *testing.T) {
	doc := condense.Document{Messages: []condense.Message{
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("c~2", "bash", json.RawMessage(`{}`))}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c~2", false, condense.Text("ok"))}},
	}, OriginalIDs: map[string]string{"c~2": "c"}}
	raw, err := doc.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"id":"c~2","original_id":"c"`) {
		t.Errorf("written: %s", raw)
	}
	back, err := condense.ParseDocument(raw)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.OriginalIDs) != 1 || back.OriginalIDs["c~2"] != "c" {
		t.Errorf("read back: %v", back.OriginalIDs)
	}
	// A lone message reads it and leaves it out.
	var m condense.Message
	if err := m.UnmarshalJSON([]byte(`{"role":"assistant","parts":[{"type":"tool_call","id":"c~2","original_id":"c","name":"bash","input":{}}]}`)); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{
		`{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"a","original_id":"x"}]}]}`,
		`{"version":1,"messages":[{"role":"assistant","parts":[{"type":"tool_call","id":"c","original_id":"","name":"b","input":{}}]}]}`,
	} {
		if _, err := condense.ParseDocument([]byte(bad)); err == nil {
			t.Errorf("no error for %s", bad)
		}
	}
}
