package transcript

import (
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestCodexItemsThroughCodec: response items are read by provider/openai's
// codec with the reader's rules on top.
func TestCodexItemsThroughCodec(t *testing.T) {
	line := func(payload string) string {
		return `{"timestamp":"t","type":"response_item","payload":` + payload + `}`
	}
	doc := strings.Join([]string{
		line(`{"type":"message","role":"user","id":"m0","content":[{"type":"input_text","text":"go"}]}`),
		line(`{"type":"reasoning","id":"rs","summary":[{"type":"summary_text","text":"one"},{"type":"summary_text","text":"two"}],"encrypted_content":"enc"}`),
		line(`{"type":"function_call","id":"fc","status":"completed","name":"shell","arguments":"","call_id":"c1"}`),
		line(`{"type":"function_call_output","call_id":"c1","output":{"content_items":[{"type":"input_text","text":"x"}],"success":false}}`),
		line(`{"type":"message","role":"assistant","id":"m1","status":"completed","content":[{"type":"output_text","text":"done","annotations":[]}]}`),
	}, "\n")
	tr, err := ReadBytes([]byte(doc), Options{Format: FormatCodex})
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Request.Messages
	if got := roles(msgs); got != "uata" {
		t.Fatalf("roles %s", got)
	}
	wantParts(t, msgs, 1, "thinking provider tool_call")
	if th := msgs[1].Parts[0]; th.Text != "one\n\ntwo" || th.Signature != "" || th.Redacted != "" {
		t.Errorf("thinking %+v", th)
	}
	if c := msgs[1].Parts[2]; c.ID != "c1" || string(c.Input) != "{}" {
		t.Errorf("call %+v", c)
	}
	if r := msgs[2].Parts[0]; !r.IsError || len(r.Content) != 1 || r.Content[0].Text != "x" {
		t.Errorf("result %+v", r)
	}
	if msgs[3].ID != "m1" || len(msgs[3].Parts) != 1 || msgs[3].Parts[0].Type != condense.PartText {
		t.Errorf("assistant message %+v", msgs[3])
	}

	// Codec errors name the path under the payload.
	bad := line(`{"type":"message","role":"user","content":[{"type":"input_text"}]}`)
	if _, err := ReadBytes([]byte(bad), Options{Format: FormatCodex, Name: "r.jsonl"}); err == nil ||
		err.Error() != "r.jsonl:1: codex: malformed input: payload.content[0].text: missing" {
		t.Errorf("err = %v", err)
	}
}
