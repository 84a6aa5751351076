package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func readTestdata(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// partKinds lists the kinds of m's parts: text, image, tool_call, …, and
// for openai blocks "raw:<type>" or the condense kind.
func partKinds(m condense.Message) string {
	var ks []string
	for i := range m.Parts {
		p := &m.Parts[i]
		k := string(p.Type)
		if p.Type == condense.PartProvider {
			if b, ok := blockOf(p); ok {
				if b.kind != "" {
					k = b.kind
				} else {
					k = "raw:" + b.typ
				}
			}
		}
		if p.Type == condense.PartThinking && p.Redacted != "" {
			k = "redacted"
		}
		ks = append(ks, k)
	}
	return strings.Join(ks, " ")
}

// checkExtra checks that every extra member is in out byte for byte, in
// order.
func checkExtra(t *testing.T, out []byte, extra Fields) {
	t.Helper()
	at := 0
	for _, f := range extra {
		want := append([]byte(`"`+f.Name+`":`), f.Value...)
		i := bytes.Index(out[at:], want)
		if i < 0 {
			t.Errorf("output lacks %s byte for byte (or out of order)", want)
			continue
		}
		at += i + len(want)
	}
}

func TestChatRoundTripFull(t *testing.T) {
	in := readTestdata(t, "testdata/chat_request_full.json")
	r, err := DecodeChatRequest(in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "gpt-4.1" || r.System != "You are a careful coding agent." || r.MaxOutputTokens != 2048 || r.LegacyMaxTokens {
		t.Errorf("model %q system %q cap %d legacy %v", r.Model, r.System, r.MaxOutputTokens, r.LegacyMaxTokens)
	}
	var names []string
	for _, f := range r.Extra {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "temperature tool_choice response_format stream stream_options x_future_option parallel_tool_calls" {
		t.Errorf("extra = %s", got)
	}
	if len(r.Tools) != 3 || len(r.RawTools) != 4 || r.Tools[2].Name != "status" || r.Tools[2].Description != "" {
		t.Errorf("tools %+v, %d raw", r.Tools, len(r.RawTools))
	}
	want := []struct {
		role  condense.Role
		kinds string
	}{
		{condense.RoleSystem, "chat.message_fields text"},
		{condense.RoleUser, "chat.message_fields text chat.part_fields image chat.part_fields image raw:input_audio raw:file"},
		{condense.RoleAssistant, "chat.message_fields text tool_call tool_call tool_call tool_call chat.part_fields"},
		{condense.RoleTool, "tool_result"},
		{condense.RoleTool, "chat.message_fields tool_result"},
		{condense.RoleTool, "tool_result"},
		{condense.RoleTool, "tool_result"},
		{condense.RoleUser, "chat.message"},
		{condense.RoleAssistant, "text raw:refusal"},
		{condense.RoleUser, "text"},
	}
	if len(r.Messages) != len(want) {
		t.Fatalf("%d messages, want %d", len(r.Messages), len(want))
	}
	for i, w := range want {
		m := r.Messages[i]
		if m.Role != w.role || partKinds(m) != w.kinds {
			t.Errorf("messages[%d] = %s: %s, want %s: %s", i, m.Role, partKinds(m), w.role, w.kinds)
		}
	}
	calls := r.Messages[2].ToolCalls()
	if string(calls[0].Input) != `{"path": "build.sh"}` ||
		string(calls[1].Input) != `{"_raw_arguments":"{\"cmd\": \"make"}` ||
		string(calls[2].Input) != `{"_raw_arguments":""}` ||
		string(calls[3].Input) != `{"_raw_arguments":"*** Begin Patch\n*** End Patch"}` || calls[3].Name != "apply_patch" {
		t.Errorf("tool call inputs: %s | %s | %s | %s", calls[0].Input, calls[1].Input, calls[2].Input, calls[3].Input)
	}
	if img := r.Messages[1].Parts[3]; img.MediaType != "image/png" || len(img.Data) != 70 {
		t.Errorf("image = %+v", img)
	}

	out, err := EncodeChatRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(out, in) {
		t.Errorf("decode → encode changed the body:\n%s", out)
	}
	checkExtra(t, out, r.Extra)
	for _, s := range []string{`"cache_control":{"type": "ephemeral"}`, `"reasoning_content":"The user wants…"`,
		`"name":"dana"`, `{"type": "file", "file": {"file_id": "file-abc123"}}`,
		`{"role": "function", "name": "legacy", "content": "{\"ok\": true}"}`,
		`{"type": "function", "function": {"name": "run", "description": "Run a command.", "parameters": {"type": "object", "properties": {"cmd": {"type": "string"}}}, "strict": false}}`} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("output lacks %s byte for byte", s)
		}
	}
	back, err := DecodeChatRequest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("decode(encode(decode(body))) differs from decode(body)")
	}
}

func TestResponsesRoundTripFull(t *testing.T) {
	in := readTestdata(t, "testdata/responses_request_full.json")
	r, err := DecodeResponsesRequest(in)
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "o4-mini" || r.System != "You are a careful coding agent." || r.MaxOutputTokens != 4096 {
		t.Errorf("model %q system %q cap %d", r.Model, r.System, r.MaxOutputTokens)
	}
	var names []string
	for _, f := range r.Extra {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "store include reasoning previous_response_id tool_choice parallel_tool_calls text x_future_option" {
		t.Errorf("extra = %s", got)
	}
	if len(r.Tools) != 2 || len(r.RawTools) != 4 {
		t.Errorf("%d tools, %d raw", len(r.Tools), len(r.RawTools))
	}
	want := []struct {
		role  condense.Role
		kinds string
	}{
		{condense.RoleSystem, "responses.item_fields text"},
		{condense.RoleUser, "text image image responses.part_fields raw:input_file responses.content"},
		{condense.RoleAssistant, "thinking responses.item_fields tool_call"},
		{condense.RoleTool, "tool_result"},
		{condense.RoleAssistant, "redacted tool_call"},
		{condense.RoleTool, "tool_result"},
		{condense.RoleAssistant, "raw:web_search_call responses.item_fields tool_call"},
		{condense.RoleTool, "responses.item_fields tool_result"},
		{condense.RoleAssistant, "responses.item_fields text responses.part_fields raw:compaction"},
		{condense.RoleTool, "raw:local_shell_call_output"},
		{condense.RoleAssistant, "raw:item_reference text"},
		{condense.RoleUser, "text"},
	}
	if len(r.Messages) != len(want) {
		t.Fatalf("%d messages, want %d", len(r.Messages), len(want))
	}
	for i, w := range want {
		m := r.Messages[i]
		if m.Role != w.role || partKinds(m) != w.kinds {
			t.Errorf("messages[%d] = %s: %s, want %s: %s", i, m.Role, partKinds(m), w.role, w.kinds)
		}
	}
	// Encrypted reasoning is carried whole, byte for byte.
	item1 := `{"type": "reasoning", "id": "rs_01", "summary": [{"type": "summary_text", "text": "**Reading the script**\n\nThe failure is in the build script."}], "encrypted_content": "gAAAAABo-Zx3k1Qm9r0_enc_reasoning_blob_01=="}`
	if th := r.Messages[2].Parts[0]; th.Signature != item1 || th.Text != "**Reading the script**\n\nThe failure is in the build script." {
		t.Errorf("reasoning = %+v", th)
	}
	item2 := `{"type": "reasoning", "id": "rs_02", "summary": [], "encrypted_content": "gAAAAABo-Zx3k1Qm9r0_enc_reasoning_blob_02=="}`
	if th := r.Messages[4].Parts[0]; th.Redacted != item2 || th.Text != "" || th.Signature != "" {
		t.Errorf("reasoning without summary = %+v", th)
	}

	out, err := EncodeResponsesRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(out, in) {
		t.Errorf("decode → encode changed the body:\n%s", out)
	}
	checkExtra(t, out, r.Extra)
	for _, s := range []string{item1, item2, `"annotations":[]`,
		`{"type": "input_video", "video_url": "https://example.com/run.mp4"}`,
		`{"type": "compaction", "id": "cmp_01", "encrypted_content": "Z2lnYW50aWMtYmxvYi1vZi1lbmNyeXB0ZWQtc3R1ZmY="}`} {
		if !bytes.Contains(out, []byte(s)) {
			t.Errorf("output lacks %s byte for byte", s)
		}
	}
	back, err := DecodeResponsesRequest(out)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("decode(encode(decode(body))) differs from decode(body)")
	}
}

// normChat rewrites the forms that decode alike into one: a content of
// "", null or nothing; a content array of one plain text part; a model
// of "".
func normChat(t *testing.T, body []byte) any {
	t.Helper()
	v, err := decodeAny(body)
	if err != nil {
		t.Fatal(err)
	}
	doc := v.(map[string]any)
	if doc["model"] == "" {
		delete(doc, "model")
	}
	for _, m := range doc["messages"].([]any) {
		m := m.(map[string]any)
		switch c := m["content"].(type) {
		case nil:
			delete(m, "content")
		case string:
			if c == "" {
				delete(m, "content")
			}
		case []any:
			if len(c) == 1 {
				if p := c[0].(map[string]any); len(p) == 2 && p["type"] == "text" {
					m["content"] = p["text"]
				}
			}
		}
	}
	return doc
}

// The OpenAI samples of package transcript go back as they came.
func TestChatRoundTripTranscriptSamples(t *testing.T) {
	for _, name := range []string{"openai-chat.json", "openai-array.json"} {
		t.Run(name, func(t *testing.T) {
			in := readTestdata(t, filepath.Join("..", "..", "transcript", "testdata", name))
			if bytes.HasPrefix(bytes.TrimSpace(in), []byte("[")) {
				in = append(append([]byte(`{"messages":`), in...), '}')
			}
			r, err := DecodeChatRequest(in)
			if err != nil {
				t.Fatal(err)
			}
			out, err := EncodeChatRequest(r)
			if err != nil {
				t.Fatal(err)
			}
			if a, b := normChat(t, out), normChat(t, in); !reflect.DeepEqual(a, b) {
				t.Errorf("round trip changed the body:\n%s", out)
			}
			back, err := DecodeChatRequest(out)
			if err != nil || !reflect.DeepEqual(back, r) {
				t.Errorf("not a fixed point: %v", err)
			}
		})
	}
}

func TestArgumentsMapping(t *testing.T) {
	for _, tt := range []struct{ args, input string }{
		{`{"path":"a.go"}`, `{"path":"a.go"}`},
		{" {\"path\": \"a.go\"}\n", " {\"path\": \"a.go\"}\n"},
		{`{}`, `{}`},
		{``, `{"_raw_arguments":""}`},
		{`{"path":"a.go"`, `{"_raw_arguments":"{\"path\":\"a.go\""}`},
		{`[1,2]`, `{"_raw_arguments":"[1,2]"}`},
		{`null`, `{"_raw_arguments":"null"}`},
		{`"x"`, `{"_raw_arguments":"\"x\""}`},
		{`not json <&>`, `{"_raw_arguments":"not json <&>"}`},
		{`{"_raw_arguments":"x"}`, `{"_raw_arguments":"{\"_raw_arguments\":\"x\"}"}`},
		{`{"_raw_arguments":"x","y":1}`, `{"_raw_arguments":"x","y":1}`},
		{`{"_raw_arguments":1}`, `{"_raw_arguments":1}`},
	} {
		in := ArgumentsInput(tt.args)
		if string(in) != tt.input {
			t.Errorf("ArgumentsInput(%q) = %s, want %s", tt.args, in, tt.input)
		}
		if !json.Valid(in) || kindOf(in) != '{' {
			t.Errorf("ArgumentsInput(%q) = %s is not a JSON object", tt.args, in)
		}
		if back := InputArguments(in); back != tt.args {
			t.Errorf("InputArguments(%s) = %q, want %q", in, back, tt.args)
		}
	}
	if got := InputArguments(nil); got != "{}" {
		t.Errorf("InputArguments(nil) = %q", got)
	}
	if got := InputArguments(json.RawMessage(`[1]`)); got != "[1]" {
		t.Errorf("InputArguments([1]) = %q", got)
	}
	// Arguments given as an object (some servers) read as the input.
	r, err := DecodeChatRequest([]byte(`{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":{"a":1}}}]}]}`))
	if err != nil || string(r.Messages[0].Parts[0].Input) != `{"a":1}` {
		t.Fatalf("object arguments: %v %+v", err, r)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct {
		name, body, want string
		responses        bool
	}{
		{"no messages", `{"model":"m"}`, "openai: messages: missing", false},
		{"not an object", `[1]`, "openai: want a JSON object", false},
		{"syntax", `{"messages":[`, "openai: unexpected end of JSON input at offset 13", false},
		{"trailing", `{"messages":[]} x`, "openai: invalid character 'x' after top-level value at offset 16", false},
		{"messages not array", `{"messages":{}}`, "openai: messages: want an array of messages", false},
		{"no role", `{"messages":[{"content":"x"}]}`, "openai: messages[0].role: missing", false},
		{"role number", `{"messages":[{"role":1}]}`, "openai: messages[0].role: want a string", false},
		{"tool without id", `{"messages":[{"role":"tool","content":"x"}]}`, "openai: messages[0].tool_call_id: missing", false},
		{"content number", `{"messages":[{"role":"user","content":5}]}`, "openai: messages[0].content: want a string, null or an array of parts", false},
		{"part type", `{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"text":"b"}]}]}`, "openai: messages[0].content[1].type: missing", false},
		{"part text", `{"messages":[{"role":"user","content":[{"type":"text"}]}]}`, "openai: messages[0].content[0].text: missing", false},
		{"item as part", `{"messages":[{"role":"user","content":[{"type":"reasoning"}]}]}`, `openai: messages[0].content[0].type: "reasoning" is a Responses API item, not a chat content part`, false},
		{"call id", `{"messages":[{"role":"user","content":"go"},{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"f","arguments":"{}"}}]}]}`, "openai: messages[1].tool_calls[0].id: missing", false},
		{"call name", `{"messages":[{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"arguments":"{}"}}]}]}`, "openai: messages[0].tool_calls[0].function.name: missing", false},
		{"arguments", `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":"a"},{"role":"user","content":"b"},{"role":"assistant","tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":5}}]}]}`, "openai: messages[3].tool_calls[0].function.arguments: want a string", false},
		{"input", `{"input":5}`, "openai: input: want a string or an array of items", true},
		{"item type", `{"input":[{"content":"x"}]}`, "openai: input[0].type: missing", true},
		{"call_id", `{"input":["x"]}`, "openai: input[0]: want an item object", true},
		{"function call id", `{"input":[{"type":"message","role":"user","content":"go"},{"type":"function_call","name":"f","arguments":"{}"}]}`, "openai: input[1].call_id: missing", true},
		{"output", `{"input":[{"type":"function_call_output","call_id":"c","output":5}]}`, "openai: input[0].output: want a string or an array of parts", true},
		{"part as item", `{"input":[{"type":"input_text","text":"x"}]}`, `openai: input[0].type: "input_text" is a content part, not an item`, true},
		{"content part", `{"input":[{"role":"user","content":[{"type":"input_text"}]}]}`, "openai: input[0].content[0].text: missing", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.responses {
				_, err = DecodeResponsesRequest([]byte(tt.body))
			} else {
				_, err = DecodeChatRequest([]byte(tt.body))
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("err = %v, want %s", err, tt.want)
			}
			var de *DecodeError
			if !errors.Is(err, condense.ErrMalformed) || !errors.As(err, &de) {
				t.Errorf("%v does not wrap condense.ErrMalformed as a *DecodeError", err)
			}
		})
	}
}

// A request built in condense (by an agent, or read from another
// provider's transcript) encodes with what each API has room for.
func TestEncodeForeignParts(t *testing.T) {
	req := condense.Request{
		Model:  "gpt-4.1",
		System: "sys",
		Tools:  []condense.Tool{{Name: "f", Description: "d"}},
		Messages: []condense.Message{
			{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("a"), condense.Text("b"),
				condense.ProviderBlock("anthropic", json.RawMessage(`{"cache_control":{"type":"ephemeral"}}`))}},
			{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Thinking("hmm", "sig-anthropic"),
				condense.Text("ok"), condense.ImageURL("image/png", "https://x/y.png"), condense.ToolCall("c1", "f", nil)}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", true, condense.Text("out"),
				condense.ImageData("image/png", []byte{1, 2, 3}))}},
		},
		MaxOutputTokens: 100,
		ThinkingBudget:  50,
	}
	chat, err := EncodeChatRequest(&ChatRequest{Request: req})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"gpt-4.1","messages":[{"role":"system","content":"sys"},` +
		`{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]},` +
		`{"role":"assistant","content":"ok","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"out"},{"type":"text","text":"[image]"}]}],` +
		`"tools":[{"type":"function","function":{"name":"f","description":"d","parameters":{"type":"object","properties":{}}}}],` +
		`"max_completion_tokens":100}`
	if string(chat) != want {
		t.Errorf("chat:\n%s\nwant\n%s", chat, want)
	}
	resp, err := EncodeResponsesRequest(&ResponsesRequest{Request: req})
	if err != nil {
		t.Fatal(err)
	}
	want = `{"model":"gpt-4.1","instructions":"sys","input":[` +
		`{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]},` +
		`{"type":"message","role":"assistant","content":[{"type":"output_text","text":"ok"}]},` +
		`{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},` +
		`{"type":"function_call_output","call_id":"c1","output":[{"type":"input_text","text":"out"},{"type":"input_image","image_url":"data:image/png;base64,AQID","detail":"auto"}]}],` +
		`"tools":[{"type":"function","name":"f","description":"d","parameters":{"type":"object","properties":{}},"strict":false}],` +
		`"max_output_tokens":100}`
	if string(resp) != want {
		t.Errorf("responses:\n%s\nwant\n%s", resp, want)
	}
}

// A tool changed after decoding is written from condense; the others stay
// as given.
func TestRawToolsFollowChanges(t *testing.T) {
	r, err := DecodeChatRequest(readTestdata(t, "testdata/chat_request_full.json"))
	if err != nil {
		t.Fatal(err)
	}
	r.Tools[0].Description = "Read one file."
	r.Tools = append(r.Tools[:1], r.Tools[2:]...) // drop run
	r.Tools = append(r.Tools, condense.Tool{Name: "new", InputSchema: json.RawMessage(`{"type":"object"}`)})
	out, err := EncodeChatRequest(r)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := decodeAny(out)
	var got []string
	for _, tl := range v.(map[string]any)["tools"].([]any) {
		tl := tl.(map[string]any)
		switch tl["type"] {
		case "function":
			f := tl["function"].(map[string]any)
			got = append(got, f["name"].(string)+":"+asString(f["description"]))
		default:
			got = append(got, tl["type"].(string))
		}
	}
	if s := strings.Join(got, " "); s != "read_file:Read one file. status: custom new:" {
		t.Errorf("tools = %s", s)
	}
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}

func TestFieldsSet(t *testing.T) {
	var f Fields
	f.Set("temperature", json.RawMessage(`0.1`))
	f.Set("stream", json.RawMessage(`true`))
	f.Set("temperature", json.RawMessage(`0.3`))
	if v, ok := f.Get("temperature"); !ok || string(v) != "0.3" || len(f) != 2 {
		t.Errorf("fields %v", f)
	}
	if _, ok := f.Get("nope"); ok {
		t.Error("found a missing field")
	}
}

func TestIsFieldsPart(t *testing.T) {
	r, err := DecodeChatRequest([]byte(`{"messages":[{"role":"user","name":"x","content":[{"type":"input_audio","input_audio":{}}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := r.Messages[0].Parts
	if len(p) != 2 || !IsFieldsPart(&p[0]) || IsFieldsPart(&p[1]) {
		t.Errorf("parts %+v", p)
	}
}

// roundTrip checks the fuzz property: a decoded body re-encodes to valid
// JSON that decodes to the same value.
func roundTrip[R any](t *testing.T, body []byte, decode func([]byte) (*R, error), encode func(*R) ([]byte, error)) {
	r, err := decode(body)
	if err != nil {
		var de *DecodeError
		if !errors.As(err, &de) || !errors.Is(err, condense.ErrMalformed) {
			t.Fatalf("error %v is not a *DecodeError", err)
		}
		return
	}
	out, err := encode(r)
	if err != nil {
		t.Fatalf("encode: %v", err)
	}
	if !json.Valid(out) {
		t.Fatalf("encoded body is not JSON: %s", out)
	}
	back, err := decode(out)
	if err != nil {
		t.Fatalf("decode of encoded body: %v\n%s", err, out)
	}
	if !reflect.DeepEqual(back, r) {
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(back)
		t.Fatalf("round trip changed the request:\n%s\n%s\nbody %s", a, b, out)
	}
}

func FuzzDecodeChatRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"system","content":"s"},{"role":"user","content":"hi","name":"n"}],"temperature":1}`,
		`{"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"f","arguments":"{x"}}]},{"role":"tool","tool_call_id":"c","content":[{"type":"text","text":"a"}]}]}`,
		`{"messages":[{"role":"developer","content":[{"type":"text","text":"d","x":1},{"type":"image_url","image_url":{"url":"data:image/png;base64,AQID","detail":"low"}}]}],"max_tokens":5}`,
		`{"messages":[{"role":"function","content":"x"},{"role":"assistant","tool_calls":[{"id":"c","type":"custom","custom":{"name":"p","input":"t"}}]}],"tools":[{"type":"function","function":{"name":"f","parameters":{}}}]}`,
		`{"messages":[],"max_completion_tokens":1,"max_tokens":2,"stream":true}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		roundTrip(t, body, DecodeChatRequest, EncodeChatRequest)
	})
}

func FuzzDecodeResponsesRequest(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","instructions":"s","input":"hi","store":false}`,
		`{"input":[{"role":"developer","content":"d"},{"type":"reasoning","id":"r","summary":[{"type":"summary_text","text":"t"}],"encrypted_content":"e"},{"type":"function_call","call_id":"c","name":"f","arguments":"{"}]}`,
		`{"input":[{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"a"},{"type":"input_image","image_url":"https://x","detail":"low"}]},{"type":"web_search_call","id":"w"}]}`,
		`{"input":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"a","annotations":[]}]},{"type":"x_output"}],"tools":[{"type":"function","name":"f","parameters":{},"strict":false},{"type":"web_search"}],"max_output_tokens":7}`,
		`{"input":[{"type":"custom_tool_call","call_id":"c","name":"p","input":"x"},{"type":"reasoning","id":"r2","summary":[]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		roundTrip(t, body, DecodeResponsesRequest, EncodeResponsesRequest)
	})
}
