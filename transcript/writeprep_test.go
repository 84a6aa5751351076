package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func call(id, name string) condense.Part { return condense.ToolCall(id, name, json.RawMessage(`{}`)) }

func result(id string) condense.Part { return condense.ToolResult(id, false, condense.Text("ok")) }

func asst(parts ...condense.Part) condense.Message {
	return condense.Message{Role: condense.RoleAssistant, Parts: parts}
}

func toolMsg(parts ...condense.Part) condense.Message {
	return condense.Message{Role: condense.RoleTool, Parts: parts}
}

// summary renders messages as "role:part part | …" for comparisons: a
// call as call(id,name), a result as result(id), text as its text.
func summary(msgs []condense.Message) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteString(" | ")
		}
		b.WriteString(string(m.Role[0]) + ":")
		for j, p := range m.Parts {
			if j > 0 {
				b.WriteString(" ")
			}
			switch p.Type {
			case condense.PartText:
				b.WriteString(strings.ReplaceAll(p.Text, " ", "_"))
			case condense.PartToolCall:
				b.WriteString("call(" + p.ID + "," + p.Name + ")")
			case condense.PartToolResult:
				b.WriteString("result(" + p.CallID + ")")
			default:
				b.WriteString(string(p.Type))
			}
		}
	}
	return b.String()
}

func TestForProvider(t *testing.T) {
	for _, c := range []struct {
		name string
		f    Format
		msgs []condense.Message
		want string
	}{
		{"leading user", FormatAnthropic,
			[]condense.Message{condense.AssistantText("on it"), condense.UserText("go on")},
			"u:" + strings.ReplaceAll(LeadingUserText, " ", "_") + " | a:on_it | u:go_on"},
		{"no leading user for openai", FormatOpenAI,
			[]condense.Message{condense.AssistantText("on it")}, "a:on_it"},
		{"open calls answered", FormatOpenAI,
			[]condense.Message{condense.UserText("go"), asst(call("a", "t"), call("b", "t")), toolMsg(result("b"))},
			"u:go | a:call(a,t) call(b,t) | t:result(b) | t:result(a)"},
		{"ids rewritten for anthropic", FormatAnthropic,
			[]condense.Message{condense.UserText("go"), asst(call("a~1", "t")), toolMsg(result("a~1")), asst(call("a_1", "t")), toolMsg(result("a_1"))},
			"u:go | a:call(a_1_2,t) | t:result(a_1_2) | a:call(a_1,t) | t:result(a_1)"},
		{"ids kept for openai", FormatOpenAI,
			[]condense.Message{condense.UserText("go"), asst(call("a~1", "t")), toolMsg(result("a~1"))},
			"u:go | a:call(a~1,t) | t:result(a~1)"},
		{"reused ids made unique", FormatOpenAI,
			[]condense.Message{condense.UserText("go"), asst(call("a", "t")), toolMsg(result("a")), asst(call("a", "t")), toolMsg(result("a"))},
			"u:go | a:call(a,t) | t:result(a) | a:call(a_2,t) | t:result(a_2)"},
		{"long ids shortened for openai", FormatOpenAI,
			[]condense.Message{condense.UserText("go"), asst(call("call_0123456789012345678901234567890123456789", "t")), toolMsg(result("call_0123456789012345678901234567890123456789"))},
			"u:go | a:call(call_01234567890123456789012345_8b1e0912,t) | t:result(call_01234567890123456789012345_8b1e0912)"},
		{"names rewritten", FormatOpenAI,
			[]condense.Message{condense.UserText("go"), asst(call("a", "mcp.fs/read")), toolMsg(result("a"))},
			"u:go | a:call(a,mcp_fs_read) | t:result(a)"},
		{"orphan result left out", FormatAnthropic,
			[]condense.Message{condense.UserText("go"), toolMsg(result("zz")), condense.UserText("more")},
			"u:go | u:more"},
		{"prefill trimmed", FormatAnthropic,
			[]condense.Message{condense.UserText("go"), condense.AssistantText("so \n"), asst(condense.Text("  "))},
			"u:go | a:so"},
		{"blank text left out", FormatAnthropic,
			[]condense.Message{condense.UserText(" "), condense.UserText("go"), asst(condense.Text(""), call("a", "t")), toolMsg(condense.ToolResult("a", false, condense.Text("\n")))},
			"u:go | a:call(a,t) | t:result(a)"},
		{"failed reply left out", FormatOpenAI,
			[]condense.Message{condense.UserText("go"), {Role: condense.RoleAssistant, Status: condense.StatusFailed, Parts: []condense.Part{condense.Text("API Error")}}},
			"u:go"},
	} {
		got := forProvider(condense.Request{Messages: c.msgs}, c.f)
		if s := summary(got.Messages); s != c.want {
			t.Errorf("%s:\n got  %s\n want %s", c.name, s, c.want)
		}
		var buf bytes.Buffer
		if err := Write(&buf, c.f, condense.Request{Messages: c.msgs}); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if v := CheckWritten(c.f, buf.Bytes()); len(v) > 0 {
			t.Errorf("%s: %v\n%s", c.name, v, buf.Bytes())
		}
	}
}

func TestForProviderTools(t *testing.T) {
	req := condense.Request{
		Tools: []condense.Tool{
			{Name: "read", InputSchema: json.RawMessage(`{"properties":{"path":{"type":"string"}}}`)},
			{Name: "read", Description: "again"},
			{Name: "list", InputSchema: json.RawMessage(`[]`)},
			{Name: "bad name"},
		},
		Messages: []condense.Message{condense.UserText("go"), asst(call("a", "read"), call("b", "grep"), call("c", "bad name")),
			toolMsg(result("a"), result("b"), result("c"))},
	}
	got := forProvider(req, FormatAnthropic)
	var tools []string
	for _, tl := range got.Tools {
		tools = append(tools, tl.Name+" "+string(tl.InputSchema))
	}
	want := []string{
		`read {"type":"object","properties":{"path":{"type":"string"}}}`,
		`list {"type":"object"}`,
		`bad_name {"type":"object"}`,
		`grep {"type":"object"}`,
	}
	if strings.Join(tools, "\n") != strings.Join(want, "\n") {
		t.Errorf("tools:\n%s\nwant\n%s", strings.Join(tools, "\n"), strings.Join(want, "\n"))
	}
	if s := summary(got.Messages); !strings.Contains(s, "call(c,bad_name)") {
		t.Errorf("call not renamed: %s", s)
	}
}

func TestForProviderThinkingBudget(t *testing.T) {
	for _, c := range []struct{ max, budget, wantMax, wantBudget int }{
		{0, 0, 4096, 0},
		{8000, 2000, 8000, 2000},
		{1000, 2000, 3000, 2000},
		{0, 100, 4096, 1024},
		{1024, 1024, 2048, 1024},
	} {
		r := forProvider(condense.Request{MaxOutputTokens: c.max, ThinkingBudget: c.budget, Messages: []condense.Message{condense.UserText("x")}}, FormatAnthropic)
		if r.MaxOutputTokens != c.wantMax || r.ThinkingBudget != c.wantBudget {
			t.Errorf("max %d budget %d: got %d %d, want %d %d", c.max, c.budget, r.MaxOutputTokens, r.ThinkingBudget, c.wantMax, c.wantBudget)
		}
	}
	// A request ending with results for calls made without (signed)
	// thinking goes without thinking; with it, thinking stays.
	loop := func(first condense.Part) condense.Request {
		return condense.Request{MaxOutputTokens: 8000, ThinkingBudget: 2048, Messages: []condense.Message{
			condense.UserText("go"), asst(first, call("a", "t")), toolMsg(result("a"))}}
	}
	if r := forProvider(loop(condense.Thinking("hm", "")), FormatAnthropic); r.ThinkingBudget != 0 {
		t.Errorf("unsigned thinking: budget %d", r.ThinkingBudget)
	}
	if r := forProvider(loop(condense.Thinking("hm", "sig")), FormatAnthropic); r.ThinkingBudget != 2048 {
		t.Errorf("signed thinking: budget %d", r.ThinkingBudget)
	}
}

// TestOriginalIDsRoundTrip: the condense form keeps the ids a reader
// re-keyed beside the new ones, and reads both back; provider formats
// write neither the original ids nor ids their API refuses.
func TestOriginalIDsRoundTrip(t *testing.T) {
	b := &builder{opts: Options{Name: "demo.traj"}, format: FormatSWEAgent, rekey: true}
	for _, m := range []condense.Message{condense.UserText("fix it"),
		asst(call("c1", "bash")), toolMsg(result("c1")), asst(call("c1", "bash")), toolMsg(result("c1"))} {
		b.add(m, loc{})
	}
	tr, err := b.finish()
	if err != nil {
		t.Fatal(err)
	}
	if tr.OriginalIDs["c1~2"] != "c1" {
		t.Fatalf("OriginalIDs = %v", tr.OriginalIDs)
	}
	var buf bytes.Buffer
	if err := WriteWith(&buf, FormatCondense, tr.Request, WriteOptions{OriginalIDs: tr.OriginalIDs}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `{"type":"tool_call","id":"c1~2","original_id":"c1","name":"bash"`) {
		t.Errorf("no original_id written:\n%s", buf.String())
	}
	for _, lenient := range []bool{false, true} {
		back, err := ReadBytes(buf.Bytes(), Options{Lenient: lenient})
		if err != nil {
			t.Fatal(err)
		}
		if len(back.OriginalIDs) != 1 || back.OriginalIDs["c1~2"] != "c1" {
			t.Errorf("lenient=%v: read back OriginalIDs = %v", lenient, back.OriginalIDs)
		}
		if summary(back.Request.Messages) != summary(tr.Request.Messages) {
			t.Errorf("lenient=%v: messages differ: %s", lenient, summary(back.Request.Messages))
		}
	}
	if v := CheckWritten(FormatCondense, buf.Bytes()); len(v) > 0 {
		t.Errorf("condense: %v", v)
	}
	for _, f := range []Format{FormatOpenAI, FormatAnthropic} {
		var out bytes.Buffer
		if err := WriteWith(&out, f, tr.Request, WriteOptions{OriginalIDs: tr.OriginalIDs}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), "original_id") {
			t.Errorf("%s writes original ids", f)
		}
		if v := CheckWritten(f, out.Bytes()); len(v) > 0 {
			t.Errorf("%s: %v", f, v)
		}
	}
	// A lenient read keeps the original ids of the messages it keeps.
	bad := strings.Replace(buf.String(), `"role":"user"`, `"role":"nobody"`, 1)
	back, err := ReadBytes([]byte(bad), Options{Lenient: true})
	if err != nil || back.Skipped != 1 || back.OriginalIDs["c1~2"] != "c1" {
		t.Errorf("lenient with a bad message: %v %+v", err, back)
	}
}

func TestOriginalIDOnlyOnCalls(t *testing.T) {
	doc := `{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"a","original_id":"x"}]}]}`
	if _, err := ReadBytes([]byte(doc), Options{}); err == nil || !strings.Contains(err.Error(), "original_id") {
		t.Errorf("err = %v", err)
	}
}

// An image whose address is no URL (a file's author redacted it) goes out
// as the text "[image]", which both APIs take.
func TestWriteUnusableImageURL(t *testing.T) {
	req := condense.Request{Model: "m", Messages: []condense.Message{{Role: condense.RoleUser, Parts: []condense.Part{
		condense.Text("look"), {Type: condense.PartImage, URL: "[REDACTED_IMAGE_URL len=6832270]"}}}}}
	for _, f := range []Format{FormatOpenAI, FormatAnthropic} {
		var b bytes.Buffer
		if err := Write(&b, f, req); err != nil {
			t.Fatal(err)
		}
		if v := CheckWritten(f, b.Bytes()); len(v) > 0 || strings.Contains(b.String(), "REDACTED_IMAGE") || !strings.Contains(b.String(), "[image]") {
			t.Errorf("%s: %v\n%s", f, v, b.String())
		}
		if _, err := ReadBytes(b.Bytes(), Options{Format: f}); err != nil {
			t.Errorf("%s: does not read back: %v", f, err)
		}
	}
}
