package transcript

import (
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// The OpenHands samples join TestSamples and the fuzz seeds.
func init() {
	sampleCases = append(sampleCases,
		sampleCase{file: "real/openhands-cli-simple-echo.events.jsonl", format: FormatOpenHands, roles: "uata",
			system: "You are OpenHands agent",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				wantParts(t, msgs, 1, "thinking tool_call")
				if p := msgs[1].Parts[0]; p.Signature == "" {
					t.Errorf("thinking block signature lost")
				}
				if c := msgs[1].Parts[1]; c.Name != "terminal" || !strings.Contains(string(c.Input), `"echo hello world"`) {
					t.Errorf("call = %+v", c)
				}
				if r := msgs[2].Parts[0]; r.CallID != msgs[1].Parts[1].ID || !strings.Contains(r.Content[0].Text, "hello world") {
					t.Errorf("result = %+v", r)
				}
			}},
		sampleCase{file: "real/openhands-v0-wrong-initial-state.json", format: FormatOpenHands, roles: "uatatata",
			model: "claude-3-5-sonnet-20241022",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				if c := msgs[3].Parts[1]; c.ID != "toolu_01PuY3mXrE6fm3j52GscR4rj" || c.Name != "execute_bash" {
					t.Errorf("call from the model response = %+v", c)
				}
				if got := msgs[7].TextContent(); !strings.HasPrefix(got, "The file has been successfully renamed") {
					t.Errorf("finish = %q", got)
				}
			}},
		sampleCase{file: "real/openhands-v0-resolver-output.json", format: FormatOpenHands, roles: "uatatata",
			check: func(t *testing.T, tr *Transcript) {
				// The oldest histories have no ids and no tool call
				// metadata: calls get deterministic ids, results follow.
				msgs := tr.Request.Messages
				if c := msgs[1].Parts[1]; c.ID != "openhands-e1" || c.Name != "run" || !strings.Contains(string(c.Input), `"touch LICENSE"`) {
					t.Errorf("call = %+v", c)
				}
				if r := msgs[2].Parts[0]; r.CallID != "openhands-e1" {
					t.Errorf("result = %+v", r)
				}
			}},
	)
}

func TestOpenHandsV1(t *testing.T) {
	ev := func(s string) string { return s + "\n" }
	in := ev(`{"id":"s","source":"agent","kind":"SystemPromptEvent","system_prompt":{"type":"text","text":"You are OpenHands."},"dynamic_context":{"type":"text","text":"Repo: x"},"tools":[]}`) +
		ev(`{"id":"u1","source":"user","kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"text","text":"fix the bug"},{"type":"image","image_urls":["https://example.com/a.png"]}]},"extended_content":[{"type":"text","text":"<skill>"}]}`) +
		ev(`{"id":"a1","source":"agent","kind":"ActionEvent","thought":[{"type":"text","text":"Two things at once."}],"reasoning_content":"r","thinking_blocks":[],"tool_name":"terminal","tool_call_id":"c1","tool_call":{"id":"c1","name":"terminal","arguments":"{\"command\":\"ls\"}","origin":"completion"},"llm_response_id":"resp1","action":{"command":"ls","kind":"TerminalAction"}}`) +
		ev(`{"id":"a2","source":"agent","kind":"ActionEvent","thought":[],"tool_name":"file_editor","tool_call_id":"c2","tool_call":{"id":"c2","name":"file_editor","arguments":"{\"path\":\"/x\"}"},"llm_response_id":"resp1"}`) +
		ev(`{"id":"o1","source":"environment","kind":"ObservationEvent","tool_name":"terminal","tool_call_id":"c1","action_id":"a1","observation":{"kind":"TerminalObservation","content":[{"type":"text","text":"a.go"}],"is_error":false}}`) +
		ev(`{"id":"o2","source":"user","kind":"UserRejectObservation","tool_name":"file_editor","tool_call_id":"c2","action_id":"a2","rejection_reason":"no"}`) +
		ev(`{"id":"st","source":"environment","kind":"ConversationStateUpdateEvent","key":"stats","value":{"usage_to_metrics":{"default":{"model_name":"gpt-5"}}}}`) +
		ev(`{"id":"a3","source":"agent","kind":"ActionEvent","thought":[],"tool_name":"terminal","tool_call_id":"c3","tool_call":{"id":"c3","name":"terminal","arguments":"{}"},"llm_response_id":"resp2"}`) +
		ev(`{"id":"e3","source":"agent","kind":"AgentErrorEvent","tool_name":"terminal","tool_call_id":"c3","error":"bad args"}`) +
		ev(`{"id":"p","source":"user","kind":"PauseEvent"}`)
	tr, err := ReadBytes([]byte(in), Options{Name: "events.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Request.Messages
	if tr.Format != FormatOpenHands || roles(msgs) != "uattat" {
		t.Fatalf("format %s roles %s", tr.Format, roles(msgs))
	}
	if tr.Request.System != "You are OpenHands.\n\nRepo: x" || tr.Request.Model != "gpt-5" {
		t.Errorf("system %q model %q", tr.Request.System, tr.Request.Model)
	}
	wantParts(t, msgs, 0, "text image text")
	wantParts(t, msgs, 1, "thinking text tool_call tool_call")
	if r0, r1 := msgs[2].Parts[0], msgs[3].Parts[0]; r0.IsError || !r1.IsError || r1.Content[0].Text != "Action rejected: no" {
		t.Errorf("results = %+v %+v", r0, r1)
	}
	if r := msgs[5].Parts[0]; !r.IsError || r.Content[0].Text != "bad args" {
		t.Errorf("error result = %+v", r)
	}
}

func TestOpenHandsCondensation(t *testing.T) {
	head := `{"id":"s","source":"agent","kind":"SystemPromptEvent","system_prompt":{"type":"text","text":"sys"},"tools":[]}
{"id":"u1","source":"user","kind":"MessageEvent","llm_message":{"role":"user","content":[{"type":"text","text":"the task"}]}}
{"id":"a1","source":"agent","kind":"ActionEvent","thought":[],"tool_name":"t","tool_call_id":"c1","tool_call":{"id":"c1","name":"t","arguments":"{}"},"llm_response_id":"r1"}
{"id":"o1","source":"environment","kind":"ObservationEvent","tool_name":"t","tool_call_id":"c1","action_id":"a1","observation":{"content":[{"type":"text","text":"one"}]}}
{"id":"a2","source":"agent","kind":"ActionEvent","thought":[],"tool_name":"t","tool_call_id":"c2","tool_call":{"id":"c2","name":"t","arguments":"{}"},"llm_response_id":"r2"}
{"id":"o2","source":"environment","kind":"ObservationEvent","tool_name":"t","tool_call_id":"c2","action_id":"a2","observation":{"content":[{"type":"text","text":"two"}]}}
`
	t.Run("fits", func(t *testing.T) {
		in := head + `{"id":"k","source":"environment","kind":"Condensation","forgotten_event_ids":["a1","o1"],"summary":"did one","summary_offset":2,"llm_response_id":"x"}
{"id":"a3","source":"agent","kind":"ActionEvent","thought":[],"tool_name":"t","tool_call_id":"c3","tool_call":{"id":"c3","name":"t","arguments":"{}"},"llm_response_id":"r3"}
`
		tr, err := ReadBytes([]byte(in), Options{Name: "e.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		cp := tr.Checkpoint
		if cp == nil || cp.FirstKept != 3 || cp.Summary != "the task\n\ndid one" || !strings.Contains(cp.Source, "line 7") {
			t.Fatalf("checkpoint = %+v", cp)
		}
		if err := condense.Validate(tr.Rendered()); err != nil || roles(tr.Rendered()) != "uata" {
			t.Errorf("rendered %s: %v", roles(tr.Rendered()), err)
		}
	})
	t.Run("does not fit", func(t *testing.T) {
		in := head + `{"id":"k","source":"environment","kind":"Condensation","forgotten_event_ids":["a2","o2"],"summary":"did two","llm_response_id":"x"}
`
		tr, err := ReadBytes([]byte(in), Options{Name: "e.jsonl"})
		if err != nil {
			t.Fatal(err)
		}
		if tr.Checkpoint != nil || len(tr.Notes) != 1 || tr.Notes[0].Action != NoteConverted {
			t.Errorf("checkpoint %+v notes %v", tr.Checkpoint, tr.Notes)
		}
	})
	t.Run("v0 range", func(t *testing.T) {
		in := `[{"id":0,"source":"agent","action":"system","args":{"content":"sys","tools":[{"type":"function","function":{"name":"execute_bash","parameters":{"type":"object"}}}]}},
{"id":1,"source":"user","action":"message","args":{"content":"task"}},
{"id":2,"source":"agent","action":"run","args":{"command":"ls","thought":"look"}},
{"id":3,"source":"agent","observation":"run","cause":2,"content":"a.go"},
{"id":4,"source":"agent","action":"condensation","args":{"forgotten_events_start_id":2,"forgotten_events_end_id":3,"summary":"listed files"}},
{"id":5,"source":"agent","action":"run","args":{"command":"cat a.go"}},
{"id":6,"source":"agent","observation":"error","cause":5,"content":"no such file"}]`
		tr, err := ReadBytes([]byte(in), Options{Name: "t.json"})
		if err != nil {
			t.Fatal(err)
		}
		msgs := tr.Request.Messages
		if tr.Format != FormatOpenHands || roles(msgs) != "uatat" || len(tr.Request.Tools) != 1 {
			t.Fatalf("format %s roles %s tools %d", tr.Format, roles(msgs), len(tr.Request.Tools))
		}
		if c := msgs[1].Parts[1]; c.ID != "openhands-2" || c.Name != "run" || string(c.Input) != `{"command":"ls"}` {
			t.Errorf("call = %+v", c)
		}
		if r := msgs[4].Parts[0]; r.CallID != "openhands-5" || !r.IsError {
			t.Errorf("error result = %+v", r)
		}
		if cp := tr.Checkpoint; cp == nil || cp.FirstKept != 3 || cp.Summary != "task\n\nlisted files" {
			t.Errorf("checkpoint = %+v", cp)
		}
	})
}

func TestOpenHandsV0ParallelCalls(t *testing.T) {
	meta := func(call string) string {
		return `{"function_name":"execute_bash","tool_call_id":"` + call + `","model_response":{"id":"R","model":"m","choices":[{"message":{"role":"assistant","content":"both","tool_calls":[` +
			`{"id":"c1","type":"function","function":{"name":"execute_bash","arguments":"{\"command\":\"a\"}"}},` +
			`{"id":"c2","type":"function","function":{"name":"execute_bash","arguments":"{\"command\":\"b\"}"}}]}}]}}`
	}
	in := `[{"id":1,"source":"user","action":"message","args":{"content":"go"}},
{"id":2,"source":"agent","action":"run","args":{"command":"a"},"tool_call_metadata":` + meta("c1") + `},
{"id":3,"source":"agent","observation":"run","cause":2,"content":"A","tool_call_metadata":` + meta("c1") + `},
{"id":4,"source":"agent","action":"run","args":{"command":"b"},"tool_call_metadata":` + meta("c2") + `},
{"id":5,"source":"agent","observation":"run","cause":4,"content":"B","tool_call_metadata":` + meta("c2") + `}]`
	tr, err := ReadBytes([]byte(in), Options{Name: "t.json"})
	if err != nil {
		t.Fatal(err)
	}
	msgs := tr.Request.Messages
	if roles(msgs) != "uatt" || tr.Request.Model != "m" {
		t.Fatalf("roles %s model %q", roles(msgs), tr.Request.Model)
	}
	wantParts(t, msgs, 1, "text tool_call tool_call")
}

func TestOpenHandsCondensationRangeBounds(t *testing.T) {
	// A range whose width overflows int64 must not be walked.
	in := `[{"id":1,"source":"user","action":"message","args":{"content":"x"}},{"id":2,"source":"agent","action":"condensation","args":{"forgotten_events_start_id":-9000000000000000000,"forgotten_events_end_id":9000000000000000000,"summary":"s"}}]`
	tr, err := ReadBytes([]byte(in), Options{Name: "t.json"})
	if err != nil || tr.Checkpoint != nil {
		t.Fatalf("checkpoint %+v, err %v", tr.Checkpoint, err)
	}
}

func TestOpenHandsErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"no kind", `[{"id":1,"source":"user","action":"message","args":{"content":"x"}},{"id":2,"source":"agent"}]`,
			`t.json: [1]: openhands: malformed input: neither a "kind", an "action" nor an "observation"`},
		{"bad arguments", `{"id":"a","source":"agent","kind":"ActionEvent","tool_name":"t","tool_call":{"id":"c","name":"t","arguments":"{"}}`,
			`t.json:1: tool_call.arguments: openhands: malformed input: not valid JSON`},
		{"orphan", `{"history":[{"id":1,"source":"user","action":"message","args":{"content":"x"}},{"id":2,"source":"agent","observation":"run","content":"x","tool_call_metadata":{"function_name":"f","tool_call_id":"zz"}}]}`,
			`t.json: history[1]: openhands: malformed input: tool result for call "zz" has no matching tool call`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadBytes([]byte(c.in), Options{Format: FormatOpenHands, Name: "t.json"})
			if err == nil || err.Error() != c.want {
				t.Errorf("err = %v\nwant %s", err, c.want)
			}
			if _, err := ReadBytes([]byte(c.in), Options{Format: FormatOpenHands, Name: "t.json", Lenient: true}); err != nil {
				t.Errorf("lenient: %v", err)
			}
		})
	}
}
