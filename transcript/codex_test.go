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

// TestCodexVersions reads the shapes of Codex CLI rollouts across versions:
// the legacy first line and bare items, custom and local shell calls,
// server-side tool search, web search and image generation items, ghost
// snapshots, and compacted lines with a message, with an empty message and
// a replacement history, or with a replacement history alone.
func TestCodexVersions(t *testing.T) {
	ri := func(payload string) string {
		return `{"timestamp":"t","type":"response_item","payload":` + payload + `}`
	}
	user := ri(`{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}`)
	cases := []struct {
		name, in, roles string
		parts           map[int]string
		summary         string // checkpoint summary, "" for none
		firstKept       int
	}{{
		name: "legacy",
		in: `{"id":"s","timestamp":"2025-05-01T00:00:00Z","instructions":"Be brief.","git":{"commit_hash":"abc"}}
{"record_type":"state"}
{"type":"message","role":"user","content":[{"type":"input_text","text":"ls"}]}
{"type":"local_shell_call","id":"lc","call_id":"c1","status":"completed","action":{"type":"exec","command":["ls"],"timeout_ms":null,"working_directory":null,"env":null,"user":null}}
{"type":"function_call_output","call_id":"c1","output":"{\"output\":\"a.go\",\"metadata\":{\"exit_code\":0}}"}`,
		roles: "uat", parts: map[int]string{1: "tool_call", 2: "tool_result"},
	}, {
		name: "custom tool and tool search",
		in: strings.Join([]string{
			`{"timestamp":"t","type":"session_meta","payload":{"id":"s","cwd":"/w","cli_version":"0.150.0","base_instructions":{"text":"sys"}}}`,
			`{"timestamp":"t","type":"turn_context","payload":{"model":"gpt-5.3-codex","cwd":"/w"}}`,
			user,
			ri(`{"type":"tool_search_call","call_id":"ts1","status":"completed","execution":"server","arguments":{"query":"github"}}`),
			ri(`{"type":"tool_search_output","call_id":"ts1","status":"completed","execution":"server","tools":[]}`),
			ri(`{"type":"custom_tool_call","status":"completed","call_id":"c2","name":"apply_patch","input":"*** Begin Patch\n*** End Patch"}`),
			ri(`{"type":"custom_tool_call_output","call_id":"c2","output":"Success."}`),
			ri(`{"type":"ghost_snapshot","ghost_commit":{"id":"abc","parent":null,"preexisting_untracked_files":[],"preexisting_untracked_dirs":[]}}`),
			ri(`{"type":"web_search_call","status":"completed","action":{"type":"search","query":"go fuzz"}}`),
			ri(`{"type":"image_generation_call","id":"ig","status":"completed","revised_prompt":"a cat","result":"AAAA"}`),
			ri(`{"type":"message","role":"assistant","phase":"final_answer","content":[{"type":"output_text","text":"Patched."}]}`),
		}, "\n"),
		roles: "uata", parts: map[int]string{1: "provider provider tool_call", 3: "provider provider text"},
	}, {
		name:    "compacted with a message",
		in:      user + "\n" + `{"timestamp":"t","type":"compacted","payload":{"message":"Summary so far."}}` + "\n" + user,
		roles:   "uu",
		summary: "Summary so far.", firstKept: 1,
	}, {
		name: "compacted remotely",
		in: user + "\n" + `{"timestamp":"t","type":"event_msg","payload":{"type":"context_compacted"}}` + "\n" +
			`{"timestamp":"t","type":"compacted","payload":{"message":"","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]},{"type":"compaction","id":"cmp","encrypted_content":"gAAA"}],"window_number":2}}` + "\n" + user,
		roles:   "uu",
		summary: "fix it", firstKept: 1,
	}, {
		name:    "compacted, replacement history only",
		in:      user + "\n" + `{"timestamp":"t","type":"compacted","payload":{"replacement_history":[{"role":"user","content":"kept"}],"window_number":3}}`,
		roles:   "u",
		summary: "kept", firstKept: 1,
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if f, err := Detect([]byte(c.in)); err != nil || f != FormatCodex {
				t.Fatalf("Detect = %q, %v", f, err)
			}
			tr, err := ReadBytes([]byte(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			msgs := tr.Request.Messages
			if got := roles(msgs); got != c.roles {
				t.Fatalf("roles = %s, want %s", got, c.roles)
			}
			for i, w := range c.parts {
				wantParts(t, msgs, i, w)
			}
			switch {
			case c.summary == "" && tr.Checkpoint != nil:
				t.Errorf("checkpoint %+v", tr.Checkpoint)
			case c.summary != "" && (tr.Checkpoint == nil || tr.Checkpoint.Summary != c.summary || tr.Checkpoint.FirstKept != c.firstKept):
				t.Errorf("checkpoint %+v, want summary %q first kept %d", tr.Checkpoint, c.summary, c.firstKept)
			}
			if tr.Skipped+tr.Dropped+tr.Repaired != 0 || len(tr.Notes) != 0 {
				t.Errorf("notes %v", tr.Notes)
			}
		})
	}
}

// Arguments that are not JSON (a model's malformed output, or text a file's
// author redacted them into) are read as a string, with a note.
func TestCodexArgumentsNotJSON(t *testing.T) {
	in := "{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"message\",\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"go\"}]}}\n" +
		"{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call\",\"name\":\"shell\",\"arguments\":\"{\\\"command\\\":\",\"call_id\":\"c1\"}}\n" +
		"{\"timestamp\":\"t\",\"type\":\"response_item\",\"payload\":{\"type\":\"function_call_output\",\"call_id\":\"c1\",\"output\":\"x\"}}\n"
	tr, err := ReadBytes([]byte(in), Options{Name: "r.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	call := tr.Request.Messages[1].Parts[0]
	if call.Type != condense.PartToolCall || string(call.Input) != `{"arguments":"{\"command\":"}` {
		t.Fatalf("call = %+v", call)
	}
	if len(tr.Notes) != 1 || tr.Notes[0].Action != NoteConverted || tr.Notes[0].Line != 2 {
		t.Errorf("notes = %v", tr.Notes)
	}
}
