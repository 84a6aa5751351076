package transcript

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestReadAnthropicMessageMembers: a saved conversation whose messages
// carry members besides role and content (ids, timestamps, and the model,
// stop reason and usage of saved answers) reads; the members are left out
// of the messages, so writing the request again does not send them.
func TestReadAnthropicMessageMembers(t *testing.T) {
	doc := `{"model":"claude-sonnet-4-5","messages":[
  {"role":"user","content":"List the files.","id":"u1","timestamp":"2026-01-02T03:04:05Z"},
  {"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[
    {"type":"text","text":"Listing."},{"type":"tool_use","id":"toolu_1","name":"bash","input":{"cmd":"ls"}}],
   "stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":20,"output_tokens":9}},
  {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"a.go"},{"type":"text","text":"Now read it."}],"id":"u2"},
  {"role":"user","content":"And be quick.","id":"u3","timestamp":"2026-01-02T03:04:09Z"},
  {"id":"msg_02","role":"assistant","content":"Done.","stop_reason":"end_turn","usage":{"input_tokens":30,"output_tokens":2}}
]}`
	tr, err := ReadBytes([]byte(doc), Options{Name: "saved.json"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatAnthropic || tr.Skipped != 0 {
		t.Errorf("format %s skipped %d", tr.Format, tr.Skipped)
	}
	msgs := tr.Request.Messages
	if got := roles(msgs); got != "uatuua" {
		t.Fatalf("roles %s", got)
	}
	for i := range msgs {
		for _, p := range msgs[i].Parts {
			if p.Type == condense.PartProvider {
				t.Errorf("messages[%d] holds a provider part %s", i, p.Raw)
			}
		}
	}
	if msgs[3].TextContent() != "Now read it." || msgs[4].TextContent() != "And be quick." {
		t.Errorf("user texts %q, %q", msgs[3].TextContent(), msgs[4].TextContent())
	}
	var buf bytes.Buffer
	if err := Write(&buf, FormatAnthropic, tr.Request); err != nil {
		t.Fatal(err)
	}
	for _, member := range []string{`"id":"u1"`, `"timestamp"`, `"usage"`, `"stop_reason"`, `"msg_01"`} {
		if strings.Contains(buf.String(), member) {
			t.Errorf("written body holds %s:\n%s", member, buf.String())
		}
	}
}

// TestReadAnthropicBadTools: a malformed tool definition fails the read,
// naming the file and the JSON path; under Lenient it is skipped and
// counted, and the other definitions and the messages are read.
func TestReadAnthropicBadTools(t *testing.T) {
	doc := `{"model":"m","tools":[
  {"name":"bash","description":"Run a command","input_schema":{"type":"object"}},
  {"description":"no name"},
  5,
  {"name":"bash","input_schema":{}},
  {"name":"read","input_schema":{"type":"object"},"cache_control":{"type":"ephemeral"}}
],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]}`
	_, err := ReadBytes([]byte(doc), Options{Name: "tools.json"})
	var re *ReadError
	if err == nil || !errors.As(err, &re) || !errors.Is(err, condense.ErrMalformed) {
		t.Fatalf("err = %v", err)
	}
	if want := "tools.json: tools[1].name: anthropic: malformed input: missing"; err.Error() != want {
		t.Errorf("err = %q\nwant %q", err, want)
	}
	if re.File != "tools.json" || re.Path != "tools[1].name" {
		t.Errorf("ReadError %+v", re)
	}

	tr, err := ReadBytes([]byte(doc), Options{Name: "tools.json", Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Skipped != 3 {
		t.Errorf("skipped %d, want 3 (no name, not an object, a repeated name)", tr.Skipped)
	}
	var names []string
	for _, tool := range tr.Request.Tools {
		names = append(names, tool.Name)
	}
	if got := strings.Join(names, " "); got != "bash read" || tr.Request.Tools[0].Description != "Run a command" {
		t.Errorf("tools %s %+v", got, tr.Request.Tools)
	}
	if got := roles(tr.Request.Messages); got != "ua" || tr.Request.Model != "m" {
		t.Errorf("roles %s model %q", got, tr.Request.Model)
	}

	// Each problem is named in the default mode, one at a time.
	for _, c := range []struct{ tools, want string }{
		{`[5]`, "t.json: tools[0]: anthropic: malformed input: want a tool object"},
		{`[{"name":"a"},{"name":"a"}]`, `t.json: tools[1].name: anthropic: malformed input: duplicate tool name "a"`},
	} {
		_, err := ReadBytes([]byte(`{"tools":`+c.tools+`,"messages":[{"role":"user","content":"hi"}]}`), Options{Name: "t.json", Format: FormatAnthropic})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: err = %v\nwant %s", c.tools, err, c.want)
		}
		tr, err := ReadBytes([]byte(`{"tools":`+c.tools+`,"messages":[{"role":"user","content":"hi"}]}`), Options{Name: "t.json", Format: FormatAnthropic, Lenient: true})
		if err != nil || tr.Skipped != 1 {
			t.Errorf("%s: lenient: %v %+v", c.tools, err, tr)
		}
	}
}
