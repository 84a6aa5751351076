package transcript

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestReadLangChain(t *testing.T) {
	cases := []struct {
		file, roles, model, system string
		check                      func(t *testing.T, tr *Transcript)
	}{
		{file: "langchain-dumpd.json", roles: "uatatta", model: "claude-sonnet-4-5-20250929", system: "You are a careful coding agent.",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				wantParts(t, msgs, 0, "text image")
				if msgs[0].ID != "h1" || msgs[0].Parts[1].MediaType != "image/png" {
					t.Errorf("human message = %+v", msgs[0])
				}
				// The tool_use block and tool_calls are one call.
				wantParts(t, msgs, 1, "text tool_call")
				if c := msgs[1].Parts[1]; c.ID != "toolu_01" || string(c.Input) != `{"path": "main.go"}` {
					t.Errorf("call = %+v (%s)", c, c.Input)
				}
				wantParts(t, msgs, 3, "tool_call tool_call")
				if r := msgs[4].Parts[0]; r.CallID != "toolu_02" || !r.IsError || r.Content[0].Text != "FAIL: panic" {
					t.Errorf("error result = %+v", r)
				}
				if r := msgs[5].Parts[0]; r.CallID != "toolu_03" || r.IsError {
					t.Errorf("second result = %+v", r)
				}
			}},
		{file: "langchain-dict.json", roles: "uatua", model: "gpt-4o-2024-08-06",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				if c := msgs[1].Parts[0]; c.ID != "call_1" || c.Name != "get_weather" || string(c.Input) != `{"city":"Paris"}` {
					t.Errorf("additional_kwargs call = %+v", c)
				}
				if msgs[3].TextContent() != "Also Rome." || msgs[3].Role != condense.RoleUser {
					t.Errorf("chat message = %+v", msgs[3])
				}
				wantParts(t, msgs, 4, "text tool_call")
			}},
		{file: "langgraph-values.json", roles: "uata", model: "claude-sonnet-4-5-20250929",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				wantParts(t, msgs, 1, "thinking thinking text tool_call")
				if msgs[1].Parts[0].Text != "The user wants a summary." || msgs[1].Parts[1].Text != "Need the README." {
					t.Errorf("reasoning = %q, %q", msgs[1].Parts[0].Text, msgs[1].Parts[1].Text)
				}
				if n := len(callIDs(msgs)); n != 1 {
					t.Errorf("%d calls; the tool_call block is the tool_calls entry and invalid calls are left out", n)
				}
				if r := msgs[2].Parts[0]; len(r.Content) != 2 || r.Content[1].Type != condense.PartImage {
					t.Errorf("tool result = %+v", r)
				}
				wantParts(t, msgs, 3, "thinking text provider")
				if p := msgs[3].Parts[0]; p.Signature != "sig-1" {
					t.Errorf("signed thinking = %+v", p)
				}
				if p := msgs[3].Parts[2]; p.Provider != "langchain" || !strings.Contains(string(p.Raw), "citation_block") {
					t.Errorf("unknown block = %+v", p)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if f, err := Detect(data); f != FormatLangChain || err != nil {
				t.Fatalf("Detect = %q, %v", f, err)
			}
			tr := readSample(t, c.file, Options{})
			if err := condense.Validate(tr.Request.Messages); err != nil {
				t.Fatal(err)
			}
			if got := roles(tr.Request.Messages); got != c.roles {
				t.Errorf("roles = %s, want %s", got, c.roles)
			}
			if tr.Request.Model != c.model || tr.Request.System != c.system {
				t.Errorf("model, system = %q, %q", tr.Request.Model, tr.Request.System)
			}
			if tr.Repaired+tr.Skipped+tr.Dropped != 0 || len(tr.Notes) != 0 {
				t.Errorf("notes: %v", tr.Notes)
			}
			c.check(t, tr)
		})
	}
}

func TestReadLangChainErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"function message", `[{"type":"function","content":"x","name":"f"}]`, "[0]: langchain: malformed input: legacy function messages"},
		{"remove", `{"messages":[{"type":"remove","content":"","id":"x"}]}`, "messages[0]: langchain: malformed input: a RemoveMessage"},
		{"tool without id", `[{"type":"tool","content":"x"}]`, "[0].tool_call_id: langchain: malformed input: missing"},
		{"call without id", `[{"type":"ai","content":"","tool_calls":[{"name":"f","args":{}}]}]`, "[0].tool_calls[0].id: langchain: malformed input: missing"},
		{"orphan result", `[{"type":"human","content":"x"},{"type":"tool","content":"x","tool_call_id":"nope"}]`, `has no matching tool call`},
		{"bad chat role", `[{"type":"chat","data":{"content":"x","role":"narrator"}}]`, `[0].data.role: langchain: malformed input: unsupported chat message role "narrator"`},
		{"bad image", `[{"type":"human","content":[{"type":"image_url","image_url":{"url":"ftp://x"}}]}]`, "[0].content[0].image_url"},
		{"no list", `{"values":{}}`, "messages: langchain: malformed input: missing"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadBytes([]byte(c.in), Options{Format: FormatLangChain, Name: "s.json"})
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error = %v; want it to contain %q", err, c.want)
			}
			tr, err := ReadBytes([]byte(c.in), Options{Format: FormatLangChain, Lenient: true})
			if c.name == "no list" {
				return
			}
			if err != nil || len(tr.Notes) == 0 {
				t.Errorf("lenient: %v, notes %v", err, tr)
			}
		})
	}
}

func TestDetectLangChain(t *testing.T) {
	cases := []struct {
		in   string
		want Format
	}{
		{`{"channel_values":{"messages":[{"lc":2,"type":"constructor","id":["langchain_core","messages","human","HumanMessage"],"kwargs":{"content":"hi"}}]}}`, FormatLangChain},
		{`{"messages":[{"type":"human","content":"hi"}],"info":{}}`, FormatLangChain},
		{`{"messages":[{"role":"user","content":"hi"}],"info":{}}`, FormatMiniSWEAgent},
		{`[{"role":"user","content":"hi"},{"type":"human","content":"x"}]`, FormatOpenAI},
		{`{"messages":[{"role":"user","content":"hi"}]}`, FormatOpenAI},
	}
	for _, c := range cases {
		if f, err := Detect([]byte(c.in)); f != c.want {
			t.Errorf("Detect(%s) = %q, %v; want %q", c.in, f, err, c.want)
		}
	}
	tr, err := ReadBytes([]byte(`[{"lc":2,"type":"constructor","id":["langchain_core","messages","ai","AIMessage"],"args":["from args"]}]`), Options{})
	if err != nil || tr.Request.Messages[0].TextContent() != "from args" {
		t.Errorf("positional content: %v, %+v", err, tr)
	}
}

func FuzzReadLangChain(f *testing.F) {
	for _, file := range []string{"langchain-dumpd.json", "langchain-dict.json", "langgraph-values.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`[{"lc":2,"type":"constructor","id":["AIMessage"],"args":[[{"type":"tool_call","id":"a","name":"b","args":null}]]},{"type":"tool","content":null,"tool_call_id":"a"}]`))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatLangChain) })
}

func TestRealLangGraph(t *testing.T) {
	tr := readSample(t, "real/langgraph-react-agent-tool-calling.values.json", Options{})
	if tr.Format != FormatLangChain || roles(tr.Request.Messages) != "uatta" || tr.Request.Model != "gpt-5-2025-08-07" {
		t.Fatalf("read as %s: %s, model %q", tr.Format, roles(tr.Request.Messages), tr.Request.Model)
	}
	wantParts(t, tr.Request.Messages, 1, "thinking tool_call tool_call")
	if !strings.HasPrefix(tr.Request.Messages[1].Parts[0].Text, "**Getting weather and time**") {
		t.Errorf("reasoning summary = %q", tr.Request.Messages[1].Parts[0].Text)
	}
	tr = readSample(t, "real/langgraph-sdk-chat-langchain.values.json", Options{})
	if tr.Format != FormatLangChain || roles(tr.Request.Messages) != "ua" || tr.Request.Model != "claude-3-5-haiku-20241022" {
		t.Fatalf("read as %s: %s, model %q", tr.Format, roles(tr.Request.Messages), tr.Request.Model)
	}
}
