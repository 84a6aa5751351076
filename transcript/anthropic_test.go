package transcript

import (
	"bytes"
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
