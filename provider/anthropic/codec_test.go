package anthropic

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// sameJSON reports whether a and b hold the same JSON value (numbers
// compared as written, object members in any order).
func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	var va, vb any
	for _, x := range []struct {
		data []byte
		v    *any
	}{{a, &va}, {b, &vb}} {
		dec := json.NewDecoder(bytes.NewReader(x.data))
		dec.UseNumber()
		if err := dec.Decode(x.v); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, x.data)
		}
	}
	return reflect.DeepEqual(va, vb)
}

// roundTrip decodes body, encodes it again and checks that nothing was
// lost: the same JSON value, and decoding the output gives the same
// Request.
func roundTrip(t *testing.T, body []byte) (*Request, []byte) {
	t.Helper()
	req, err := DecodeRequest(body)
	if err != nil {
		t.Fatal(err)
	}
	out, err := EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(t, body, out) {
		t.Fatalf("round trip changed the body: %s", firstDiff(t, body, out))
	}
	again, err := DecodeRequest(out)
	if err != nil {
		t.Fatalf("re-decode: %v", err)
	}
	if !reflect.DeepEqual(req, again) {
		t.Fatalf("re-decoded request differs")
	}
	return req, out
}

func readFile(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRoundTripEveryBlock: a body with every block kind, unknown members at
// every level and odd whitespace goes back as the same JSON value, the
// members the codec does not model byte for byte and in their order.
func TestRoundTripEveryBlock(t *testing.T) {
	body := readFile(t, "testdata/request_every_block.json")
	req, out := roundTrip(t, body)

	var names []string
	for _, f := range req.Extra {
		names = append(names, f.Name)
	}
	if got := strings.Join(names, " "); got != "temperature metadata thinking tool_choice stop_sequences stream future_member" {
		t.Errorf("extra members %s", got)
	}
	if req.Model != "claude-sonnet-4-5" || req.MaxOutputTokens != 16000 || req.ThinkingBudget != 4096 {
		t.Errorf("model %q max %d thinking %d", req.Model, req.MaxOutputTokens, req.ThinkingBudget)
	}
	if req.System != "You are a coding agent.\n\nBe brief." || len(req.SystemBlocks) != 2 || req.SystemBlocks[1].Fields[0].Name != "cache_control" {
		t.Errorf("system %q %+v", req.System, req.SystemBlocks)
	}
	if len(req.Tools) != 3 || req.Tools[1].Name != "web_search" || len(req.ToolFields["web_search"]) != 2 || len(req.ToolFields["bash"]) != 1 {
		t.Errorf("tools %+v %v", req.Tools, req.ToolFields)
	}
	wantRoles := "user assistant tool user assistant tool user assistant"
	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != wantRoles {
		t.Errorf("roles %s, want %s", got, wantRoles)
	}
	a := req.Messages[1].Parts
	if a[0].Signature == "" || a[1].Redacted == "" || a[3].Type != condense.PartToolCall || a[5].Type != condense.PartProvider {
		t.Errorf("assistant parts %+v", a)
	}
	if f, ok := PartFields(&a[4]); !ok || f[0].Name != "caller" {
		t.Errorf("tool_use caller not carried: %+v", a[4])
	}
	res := req.Messages[2].Parts[0]
	if !res.IsError || len(res.Content) != 4 || res.Content[1].Type != condense.PartProvider || res.Content[2].Type != condense.PartImage {
		t.Errorf("tool result %+v", res)
	}

	// Byte for byte, in order.
	last := -1
	for _, want := range []string{
		`"temperature":0.2`,
		`"metadata":{"user_id" : "u-1",   "tags": ["a", "b"]}`,
		`"thinking":{"type": "enabled", "budget_tokens": 4096, "display": "summarized"}`,
		`"tool_choice":{"type": "auto", "disable_parallel_tool_use": true}`,
		`"stop_sequences":["\n\nHuman:"]`,
		`"stream":false`,
		`"future_member":{"nested": [1, 2.50, -3e2, null, true]}`,
	} {
		i := bytes.Index(out, []byte(want))
		if i < 0 {
			t.Errorf("output lacks %s", want)
			continue
		}
		if i < last {
			t.Errorf("%s is out of order", want)
		}
		last = i
	}
	for _, want := range []string{
		`{"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "go build cache"}}`,
		`{"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [{"type": "web_search_result", "url": "https://go.dev/doc", "title": "Go", "encrypted_content": "ZW5j", "page_age": null}]}`,
		`{"type": "image", "source": {"type": "file", "file_id": "file_01"}}`,
		`"citations": [{"type": "char_location", "cited_text": "x", "document_index": 0, "start_char_index": 0, "end_char_index": 1}]}`,
		`{"type": "thinking", "thinking": "", "signature": "c2ln"}`,
		`"input":{"cmd": "go build ./..."},"caller":{"type": "direct"}}`,
		`{"type":"text","text":"Be brief.","cache_control":{"type": "ephemeral", "ttl": "1h"}}`,
		`"cache_control":{"type": "ephemeral"}},{"type":"text","text":"Here is a screenshot."}`,
		`{"name":"web_search","type":"web_search_20250305","max_uses":3}`,
		`{"type":"tool_result","tool_use_id":"toolu_02","content":"ok"}`,
		`{"role":"assistant","content":"Done."}`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
}

// TestRoundTripTranscriptSample: the Anthropic sample of package transcript.
func TestRoundTripTranscriptSample(t *testing.T) {
	body := readFile(t, filepath.Join("..", "..", "transcript", "testdata", "anthropic-messages.json"))
	req, out := roundTrip(t, body)
	if len(req.Messages) != 11 {
		t.Errorf("%d messages", len(req.Messages))
	}
	for _, want := range []string{
		`{"type": "compaction", "content": "Earlier turns: reproduced TestBurst failure; clamped tokens to cap in bucket.go.", "encrypted_content": "Z2lnYW50aWMtYmxvYi1vZi1lbmNyeXB0ZWQtc3R1ZmY="}`,
		`{"type": "text", "text": "Running the whole suite now.", "citations": null}`,
		`"is_error":true,"cache_control":{"type": "ephemeral"}}`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
}

// largeBody builds a request body of about size bytes from the API
// messages recorded in the large Claude Code sample of package transcript:
// long tool outputs, thinking with signatures, parallel tool calls. Lines of
// one role in a row are one turn, as Claude Code sends them.
func largeBody(tb testing.TB, size int) []byte {
	tb.Helper()
	f, err := os.Open(filepath.Join("..", "..", "transcript", "testdata", "claude-code-large.jsonl"))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	type msg struct {
		Role    string            `json:"role"`
		Content []json.RawMessage `json:"content"`
	}
	var msgs []msg
	n := 0
	for sc.Scan() && n < size {
		var line struct {
			Message struct {
				Role    string          `json:"role"`
				Content json.RawMessage `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal(sc.Bytes(), &line) != nil || line.Message.Role == "" || len(line.Message.Content) == 0 {
			continue
		}
		var blocks []json.RawMessage
		if json.Unmarshal(line.Message.Content, &blocks) != nil {
			var s string
			json.Unmarshal(line.Message.Content, &s)
			b, _ := json.Marshal(map[string]string{"type": "text", "text": s})
			blocks = []json.RawMessage{b}
		}
		n += len(sc.Bytes())
		if k := len(msgs); k > 0 && msgs[k-1].Role == line.Message.Role {
			msgs[k-1].Content = append(msgs[k-1].Content, blocks...)
			continue
		}
		msgs = append(msgs, msg{line.Message.Role, blocks})
	}
	m, err := json.Marshal(msgs)
	if err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(`{"model":"claude-opus-4-5","max_tokens":32000,"thinking":{"type":"enabled","budget_tokens":16000},` +
		`"system":[{"type":"text","text":"You are Claude Code.","cache_control":{"type":"ephemeral"}}],"messages":`)
	b.Write(m)
	b.WriteString(`,"tools":[{"name":"Bash","description":"Run a command","input_schema":{"type":"object"}}],"metadata":{"user_id":"u"}}`)
	return b.Bytes()
}

// TestRoundTripLargeBody: a long real session round-trips.
func TestRoundTripLargeBody(t *testing.T) {
	body := largeBody(t, 580_000)
	req, _ := roundTrip(t, body)
	if err := condense.Validate(req.Messages); err != nil {
		t.Error(err)
	}
	if len(req.Messages) < 50 {
		t.Errorf("%d messages", len(req.Messages))
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ body, want string }{
		{`[]`, `anthropic: malformed input: want an object with "messages", not an array`},
		{`{"model":"m"}`, `anthropic: messages: malformed input: missing`},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":"a"},{"type":"tool_use","id":"t","name":"x","input":{}}]}]}`,
			`anthropic: messages[0].content[1]: malformed input: tool_use block outside an assistant message`},
		{`{"messages":[{"role":"user","content":"a"},{"role":"assistant","content":[{"type":"tool_use","name":"x"}]}]}`,
			`anthropic: messages[1].content[0].id: malformed input: missing`},
		{`{"messages":[{"role":"robot","content":"a"}]}`, `anthropic: messages[0].role: malformed input: unknown role "robot" (want user or assistant)`},
		{`{"messages":[{"role":"user","content":"a","id":m1}]}`, `anthropic: messages[0]: malformed input: invalid character 'm' looking for beginning of value`},
		{`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"thinking","thinking":"x","signature":"s"}]}]}]}`,
			`anthropic: messages[0].content[0].content[0]: malformed input: thinking block outside an assistant message`},
		{`{"max_tokens":-1,"messages":[]}`, `anthropic: max_tokens: malformed input: want a non-negative integer`},
		{`{"messages":[{"role":"user","content":"a"}`, `anthropic: messages: malformed input: unexpected end of JSON input`},
		{`{"messages":[{"role":"user","content":[{"type":"text","text":"a"} {}]}]}`,
			`anthropic: messages[0].content: malformed input: invalid character '{' after array element`},
		{`{"system":[{"type":"image"}],"messages":[]}`, `anthropic: system[0]: malformed input: want a text block`},
		{`{"tools":[{"name":"a"},{"name":"a"}],"messages":[]}`, `anthropic: tools[1].name: malformed input: duplicate tool name "a"`},
	} {
		_, err := DecodeRequest([]byte(c.body))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.body, err, c.want)
			continue
		}
		var de *DecodeError
		if !errors.Is(err, condense.ErrMalformed) || !errors.As(err, &de) {
			t.Errorf("%v: not a *DecodeError wrapping ErrMalformed", err)
		}
	}
}

// TestEncodeFromCondense: what a condense history looks like on the wire.
func TestEncodeFromCondense(t *testing.T) {
	cc := FieldsPart(Field{Name: "cache_control", Value: json.RawMessage(`{"type":"ephemeral"}`)})
	req := &Request{Request: condense.Request{
		Model: "m", MaxOutputTokens: 100, ThinkingBudget: 50, System: "sys",
		Messages: []condense.Message{
			{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("a"), cc}},
			{Role: condense.RoleAssistant, Parts: []condense.Part{
				condense.Thinking("unsigned", ""), cc, // left out, and so is its marker
				condense.Thinking("t", "sig"),
				condense.ToolCall("c1", "f", nil),
				condense.ToolCall("c2", "f", json.RawMessage(` {"x": 1} `)),
				condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning"}`)),
			}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c1", false, condense.Text("r1"))}},
			{Role: condense.RoleSystem, Parts: []condense.Part{condense.Text("note")}},
			{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("c2", true), cc}},
			{Role: condense.RoleAssistant, Status: condense.StatusFailed, Parts: []condense.Part{condense.Text("API Error")}},
			{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ProviderBlock(Provider, json.RawMessage(`{"type":"document" } `)), cc}},
		},
	}}
	out, err := EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","max_tokens":100,"system":"sys","thinking":{"type":"enabled","budget_tokens":50},"messages":[` +
		`{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}]},` +
		`{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"sig"},{"type":"tool_use","id":"c1","name":"f","input":{}},{"type":"tool_use","id":"c2","name":"f","input":{"x": 1}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":[{"type":"text","text":"r1"}]},` +
		`{"type":"tool_result","tool_use_id":"c2","is_error":true,"cache_control":{"type":"ephemeral"}},{"type":"text","text":"note"}]},` +
		`{"role":"assistant","content":[{"type":"document" ,"cache_control":{"type":"ephemeral"}}]}]}`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}

	// Bad JSON never reaches the wire.
	bad := &Request{Request: condense.Request{Messages: []condense.Message{{Role: condense.RoleAssistant,
		Parts: []condense.Part{condense.ToolCall("c", "f", json.RawMessage(`{oops`))}}}}}
	if _, err := EncodeRequest(bad); err == nil || !strings.Contains(err.Error(), "messages[0].parts[0]") {
		t.Errorf("bad input: %v", err)
	}
}

// TestExtraAndSystemConsistency: kept forms apply while the modeled value
// still says the same.
func TestExtraAndSystemConsistency(t *testing.T) {
	req, err := DecodeRequest([]byte(`{"system":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}],` +
		`"thinking":{"type":"adaptive"},"messages":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	out, _ := EncodeRequest(req)
	if want := `{"system":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}],"messages":[],"thinking":{"type":"adaptive"}}`; string(out) != want {
		t.Errorf("got %s", out)
	}
	req.System = "b"
	req.ThinkingBudget = 10
	out, _ = EncodeRequest(req)
	if want := `{"system":"b","thinking":{"type":"enabled","budget_tokens":10},"messages":[]}`; string(out) != want {
		t.Errorf("got %s", out)
	}
	req.ThinkingBudget = 0
	out, _ = EncodeRequest(req)
	if want := `{"system":"b","messages":[],"thinking":{"type":"adaptive"}}`; string(out) != want {
		t.Errorf("got %s", out)
	}
	r := &Request{}
	r.SetField("stream", json.RawMessage(`true`))
	r.SetField("stream", json.RawMessage(`false`))
	if len(r.Extra) != 1 || string(r.Field("stream")) != "false" {
		t.Errorf("extra %+v", r.Extra)
	}
}

func TestDecodeResponse(t *testing.T) {
	resp, err := DecodeResponse(readFile(t, "testdata/messages_success.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := condense.Usage{Provider: "anthropic", Model: "claude-haiku-4-5-20251001", InputTokens: 1600, OutputTokens: 80, CacheReadTokens: 300, CacheWriteTokens: 100}
	if resp.Usage != want || resp.StopReason != "end_turn" || resp.ID != "msg_01XFDUDYJgAACzvnptvVoYEL" || !strings.HasPrefix(resp.Text(), "## Summary") {
		t.Errorf("%+v", resp)
	}
	// Citations stay with the text; a server tool use is carried whole.
	resp, err = DecodeResponse([]byte(`{"model":"m","content":[{"type":"text","text":"x","citations":[{"type":"web_search_result_location"}]},` +
		`{"type":"text","text":"y","citations":null},{"type":"server_tool_use","id":"s","name":"web_search","input":{}}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	p := resp.Message.Parts
	if len(p) != 4 || p[0].Text != "x" || p[2].Text != "y" || p[3].Type != condense.PartProvider || resp.Text() != "x\ny" || !resp.ToolUse() {
		t.Errorf("parts %+v", p)
	}
	if f, ok := PartFields(&p[1]); !ok || f[0].Name != "citations" {
		t.Errorf("citations %+v", p[1])
	}
}

// TestRoundTripMessageFields: members of a message object besides role and
// content (as saved conversations carry them) travel in a message fields
// part at the front of the message's parts and go back onto their own wire
// message, byte for byte, even where decoding merged or split turns.
func TestRoundTripMessageFields(t *testing.T) {
	body := []byte(`{"model":"m","messages":[` +
		`{"role":"user","content":"Fix the build.","id":"u1","timestamp":"2026-01-02T03:04:05Z"},` +
		`{"content":[{"type":"text","text":"Running it."},{"type":"tool_use","id":"t1","name":"bash","input":{"cmd":"go build"}}],` +
		`"role":"assistant","id":"msg_01","model":"claude-sonnet-4-5","stop_reason":"tool_use","usage":{"input_tokens":12, "output_tokens":3}},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"},{"type":"text","text":"and?"}],"id":"u2"},` +
		`{"role":"user","content":"Also run the tests.","id":"u3"},` +
		`{"role":"assistant","content":"Done."},` +
		`{"role":"assistant","content":[{"type":"text","text":"All green."}],"id":"msg_02","future":[1, {"x": null}]}]}`)
	req, out := roundTrip(t, body)

	var roles []string
	for _, m := range req.Messages {
		roles = append(roles, string(m.Role))
	}
	if got := strings.Join(roles, " "); got != "user assistant tool user assistant" {
		t.Fatalf("roles %s", got)
	}
	fieldNames := func(p *condense.Part) string {
		f, ok := MessageFields(p)
		if !ok {
			return "-"
		}
		var names []string
		for _, x := range f {
			names = append(names, x.Name)
		}
		return strings.Join(names, ",")
	}
	msgs := req.Messages
	for _, c := range []struct {
		msg, part int
		want      string
	}{
		{0, 0, "id,timestamp"},
		{1, 0, "id,model,stop_reason,usage"},
		{2, 0, "id"}, // the tool message: the wire message held a result
		{3, 0, "-"},  // "and?", of the wire message of the tool result
		{3, 1, "id"}, // "Also run the tests.", a wire message of its own
		{3, 2, "-"},
		{4, 0, "-"}, // "Done."
		{4, 1, "id,future"},
	} {
		if got := fieldNames(&msgs[c.msg].Parts[c.part]); got != c.want {
			t.Errorf("messages[%d].parts[%d] fields %s, want %s", c.msg, c.part, got, c.want)
		}
	}
	if _, ok := PartFields(&msgs[0].Parts[0]); ok {
		t.Errorf("a message fields part is not a block's fields part")
	}
	for _, want := range []string{
		`{"role":"user","content":"Fix the build.","id":"u1","timestamp":"2026-01-02T03:04:05Z"}`,
		`"usage":{"input_tokens":12, "output_tokens":3}}`,
		`{"role":"user","content":"Also run the tests.","id":"u3"}`,
		`{"role":"assistant","content":"Done."},{"role":"assistant","content":[{"type":"text","text":"All green."}],"id":"msg_02","future":[1, {"x": null}]}`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s\n%s", want, out)
		}
	}

	// Where the wire order is not the API's (text before a tool result in
	// a user turn), decoding normalizes it once: encoding the result and
	// decoding again gives the same request.
	req2, err := DecodeRequest([]byte(`{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},` +
		`{"role":"user","content":"a","id":"u1"},{"role":"user","content":[{"type":"text","text":"b"},{"type":"tool_result","tool_use_id":"t"}],"id":"u2"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	out2, err := EncodeRequest(req2)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t"},{"type":"text","text":"b"}],"id":"u2"},{"role":"user","content":"a","id":"u1"}]}`; string(out2) != want {
		t.Errorf("normalized:\n got %s\nwant %s", out2, want)
	}
	if again, err := DecodeRequest(out2); err != nil || !reflect.DeepEqual(req2, again) {
		t.Errorf("re-decoded request differs: %v", err)
	}

	// DecodeMessage keeps them the same way.
	ms, err := DecodeMessage([]byte(`{"role":"user","content":[{"type":"text","text":"x"},{"type":"tool_result","tool_use_id":"t1"}],"id":"u9"}`))
	if err != nil || len(ms) != 2 || fieldNames(&ms[0].Parts[0]) != "id" || fieldNames(&ms[1].Parts[0]) != "-" {
		t.Errorf("DecodeMessage: %v %+v", err, ms)
	}
}

// TestEncodeMessageFields: a message fields part starts a wire message of
// its own wherever it is; inside a tool result it is left out.
func TestEncodeMessageFields(t *testing.T) {
	mf := MessageFieldsPart(Field{"id", json.RawMessage(`"x"`)})
	if string(mf.Raw) != `{"condense":"message_fields","value":{"id":"x"}}` {
		t.Errorf("raw %s", mf.Raw)
	}
	req := &Request{Request: condense.Request{Messages: []condense.Message{
		{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("a"), mf, condense.Text("b")}},
		{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("c")}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall("t", "f", nil)}},
		{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult("t", false, mf, condense.Text("r"))}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{mf}},
	}}}
	out, err := EncodeRequest(req)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"messages":[{"role":"user","content":[{"type":"text","text":"a"}]},` +
		`{"role":"user","content":[{"type":"text","text":"b"},{"type":"text","text":"c"}],"id":"x"},` +
		`{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"f","input":{}}]},` +
		`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"}]}]}]}`
	if string(out) != want {
		t.Errorf("got\n%s\nwant\n%s", out, want)
	}
	bad := &Request{Request: condense.Request{Messages: []condense.Message{{Role: condense.RoleAssistant,
		Parts: []condense.Part{condense.Text("a"), mf, condense.ToolCall("c", "f", json.RawMessage(`{oops`))}}}}}
	if _, err := EncodeRequest(bad); err == nil || !strings.Contains(err.Error(), "messages[0].parts[2]") {
		t.Errorf("bad input: %v", err)
	}
}

func TestPartFields(t *testing.T) {
	p := FieldsPart(Field{"cache_control", json.RawMessage(`{"type": "ephemeral"}`)}, Field{"x", json.RawMessage(`1`)})
	if string(p.Raw) != `{"cache_control":{"type": "ephemeral"},"x":1}` {
		t.Errorf("raw %s", p.Raw)
	}
	f, ok := PartFields(&p)
	if !ok || len(f) != 2 || string(f[0].Value) != `{"type": "ephemeral"}` {
		t.Errorf("fields %+v", f)
	}
	block := condense.ProviderBlock(Provider, json.RawMessage(`{"type":"document"}`))
	if _, ok := PartFields(&block); ok {
		t.Errorf("a block with a type is not a fields part")
	}
}

// firstDiff names the first message that differs between two bodies.
func firstDiff(t testing.TB, a, b []byte) string {
	var va, vb struct{ Messages []json.RawMessage }
	json.Unmarshal(a, &va)
	json.Unmarshal(b, &vb)
	for i := range min(len(va.Messages), len(vb.Messages)) {
		if !sameJSON(t, va.Messages[i], vb.Messages[i]) {
			return fmt.Sprintf("messages[%d]:\n%.2000s\n%.2000s", i, va.Messages[i], vb.Messages[i])
		}
	}
	if len(va.Messages) != len(vb.Messages) {
		return fmt.Sprintf("%d messages, then %d", len(va.Messages), len(vb.Messages))
	}
	return fmt.Sprintf("%.3000s", b)
}
