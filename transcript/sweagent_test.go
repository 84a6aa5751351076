package transcript

import (
	"strings"
	"testing"
)

// The SWE-agent and mini-swe-agent samples join TestSamples and the fuzz
// seeds.
func init() {
	sampleCases = append(sampleCases,
		sampleCase{file: "mini-swe-agent-2-toolcall.traj.json", format: FormatMiniSWEAgent, roles: "uatattuat",
			model: "anthropic/claude-sonnet-4-5-20250929", system: "You are a helpful assistant",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				wantParts(t, msgs, 1, "thinking text tool_call")
				if p := msgs[1].Parts[0]; p.Signature != "EqQBCkYIBxgCKkBsig" {
					t.Errorf("thinking block signature lost: %+v", p)
				}
				wantParts(t, msgs, 3, "tool_call tool_call")
				// The exit message answers the submitting call.
				last := msgs[len(msgs)-1]
				if r := last.Parts[0]; r.CallID != "toolu_04" || !strings.HasPrefix(r.Content[0].Text, "[mini-swe-agent exit: Submitted]\n\ndiff --git") {
					t.Errorf("exit = %+v", last)
				}
				if len(tr.Notes) != 1 || tr.Notes[0].Action != NoteConverted || tr.Notes[0].Path != "messages[9]" {
					t.Errorf("notes = %v", tr.Notes)
				}
			}},
		sampleCase{file: "mini-swe-agent-2-response.traj.json", format: FormatMiniSWEAgent, roles: "uatat",
			model: "openai/gpt-5-mini", system: "You are a helpful assistant",
			check: func(t *testing.T, tr *Transcript) {
				msgs := tr.Request.Messages
				wantParts(t, msgs, 1, "thinking provider tool_call")
				if p := msgs[1].Parts[1]; p.Provider != "openai" || !strings.Contains(string(p.Raw), "gAAAAB-opaque") {
					t.Errorf("encrypted reasoning not carried: %+v", p)
				}
				wantParts(t, msgs, 3, "text tool_call")
				if got := msgs[4].Parts[0]; got.CallID != "call_b" || !strings.Contains(got.Content[0].Text, "exit: Submitted") {
					t.Errorf("exit = %+v", got)
				}
			}},
		sampleCase{file: "mini-swe-agent-2-text.messages.json", format: FormatMiniSWEAgent, roles: "uauu",
			system: "You are a helpful assistant.",
			check: func(t *testing.T, tr *Transcript) {
				if got := tr.Request.Messages[3].TextContent(); got != "[mini-swe-agent exit: LimitsExceeded]" {
					t.Errorf("exit = %q", got)
				}
			}},
		sampleCase{file: "real/mini-swe-agent-github-issue.traj.json", format: FormatOpenAI, roles: "uauauauauauauauauauau",
			system: "You are a helpful assistant"},
		sampleCase{file: "real/swe-agent-test-repo-i1.traj", format: FormatSWEAgent, roles: "uuauauauaua",
			system: "SETTING: You are an autonomous programmer"},
		sampleCase{file: "real/swe-agent-marshmallow-1867-function-calling.traj", format: FormatSWEAgent,
			roles: "uatatatatatatatatatatat", model: "gpt-4o", system: "SETTING: You are an autonomous programmer",
			check: func(t *testing.T, tr *Transcript) {
				// The replayed demonstration reuses call ids: each reuse
				// gets a new id, and the results after it answer it.
				if len(tr.OriginalIDs) == 0 || tr.Skipped != 0 || tr.Dropped != 0 {
					t.Fatalf("OriginalIDs %v, skipped %d, dropped %d", tr.OriginalIDs, tr.Skipped, tr.Dropped)
				}
				n := 0
				for _, note := range tr.Notes {
					if note.Action != NoteRekeyed {
						t.Errorf("note %v", note)
					}
					n++
				}
				if n != len(tr.OriginalIDs) {
					t.Errorf("%d notes for %d re-keyed ids", n, len(tr.OriginalIDs))
				}
			}},
	)
}

func TestMiniSWEAgentExitVariants(t *testing.T) {
	cases := []struct {
		name, in, roles, last string
	}{
		{"exception", `{"trajectory_format":"mini-swe-agent-1.1","info":{},"messages":[{"role":"user","content":"fix"},{"role":"exit","content":"boom","extra":{"exit_status":"RuntimeError","submission":"","traceback":"..."}}]}`,
			"uu", "[mini-swe-agent exit: RuntimeError]\n\nboom"},
		{"no extra", `{"trajectory_format":"mini-swe-agent-1.1","messages":[{"role":"user","content":"fix"},{"role":"exit","content":null}]}`,
			"uu", "[mini-swe-agent exit: exit]"},
		{"submission only in extra", `{"trajectory_format":"mini-swe-agent-1.1","messages":[{"role":"user","content":"fix"},{"role":"exit","content":"","extra":{"exit_status":"Submitted","submission":"patch"}}]}`,
			"uu", "[mini-swe-agent exit: Submitted]\n\npatch"},
		{"format errors", `[{"role":"user","content":"fix"},{"role":"assistant","content":"hm","extra":{}},{"role":"user","content":"No tool calls found","extra":{"interrupt_type":"FormatError"}},{"role":"exit","content":"RepeatedFormatError","extra":{"exit_status":"RepeatedFormatError","submission":""}}]`,
			"uauu", "[mini-swe-agent exit: RepeatedFormatError]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tr, err := ReadBytes([]byte(c.in), Options{Name: "t.json"})
			if err != nil {
				t.Fatal(err)
			}
			msgs := tr.Request.Messages
			if tr.Format != FormatMiniSWEAgent || roles(msgs) != c.roles {
				t.Fatalf("format %s roles %s", tr.Format, roles(msgs))
			}
			if got := msgs[len(msgs)-1].TextContent(); got != c.last {
				t.Errorf("last = %q, want %q", got, c.last)
			}
			if len(tr.Notes) != 1 || tr.Notes[0].Action != NoteConverted {
				t.Errorf("notes = %v", tr.Notes)
			}
		})
	}
}

func TestSWEAgentHistoryOnly(t *testing.T) {
	in := `{"history":[{"role":"system","content":"sys","agent":"main","message_type":"system_prompt"},{"role":"user","content":"fix","agent":"main","message_type":"observation"}]}`
	f, err := Detect([]byte(in))
	if err != nil || f != FormatSWEAgent {
		t.Fatalf("Detect = %q, %v", f, err)
	}
	if _, err := Detect([]byte(`{"history":[{"role":"user","content":"x"}]}`)); err == nil {
		t.Errorf("a bare history without SWE-agent members detected")
	}
}
