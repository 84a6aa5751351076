package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// roles returns one letter per message: u(ser), a(ssistant), t(ool), s(ystem).
func roles(msgs []condense.Message) string {
	var b strings.Builder
	for _, m := range msgs {
		switch m.Role {
		case condense.RoleUser:
			b.WriteByte('u')
		case condense.RoleAssistant:
			b.WriteByte('a')
		case condense.RoleTool:
			b.WriteByte('t')
		case condense.RoleSystem:
			b.WriteByte('s')
		default:
			b.WriteByte('?')
		}
	}
	return b.String()
}

type sampleCase struct {
	file   string
	format Format
	roles  string
	model  string
	system string // prefix of the system text
	tools  int
	// counts
	repaired, dropped, skipped int
	// checkpoint, when the sample has one
	cpFirstKept int
	cpSummary   string // prefix
	check       func(t *testing.T, tr *Transcript)
}

func readSample(t testing.TB, file string, opts Options) *Transcript {
	t.Helper()
	tr, err := ReadFile(filepath.Join("testdata", file), opts)
	if err != nil {
		t.Fatalf("read %s: %v", file, err)
	}
	return tr
}

func TestSamples(t *testing.T) {
	for _, c := range sampleCases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			f, err := Detect(data)
			if err != nil || f != c.format {
				t.Fatalf("Detect = %q, %v; want %q", f, err, c.format)
			}
			tr := readSample(t, c.file, Options{})
			explicit := readSample(t, c.file, Options{Format: c.format})
			if !sameJSON(t, tr.Request, explicit.Request) {
				t.Errorf("auto and explicit format read differently")
			}
			if tr.Format != c.format {
				t.Errorf("Format = %q, want %q", tr.Format, c.format)
			}
			msgs := tr.Request.Messages
			if err := condense.Validate(msgs); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if got := roles(msgs); got != c.roles {
				t.Errorf("roles = %s (%d messages)\n want %s (%d)", got, len(got), c.roles, len(c.roles))
			}
			if tr.Request.Model != c.model {
				t.Errorf("Model = %q, want %q", tr.Request.Model, c.model)
			}
			if !strings.HasPrefix(tr.Request.System, c.system) || (c.system == "") != (tr.Request.System == "") {
				t.Errorf("System = %q, want prefix %q", tr.Request.System, c.system)
			}
			if len(tr.Request.Tools) != c.tools {
				t.Errorf("%d tools, want %d", len(tr.Request.Tools), c.tools)
			}
			if tr.Repaired != c.repaired || tr.Dropped != c.dropped || tr.Skipped != c.skipped {
				t.Errorf("repaired, dropped, skipped = %d, %d, %d; want %d, %d, %d",
					tr.Repaired, tr.Dropped, tr.Skipped, c.repaired, c.dropped, c.skipped)
			}
			switch {
			case c.cpSummary == "" && tr.Checkpoint != nil:
				t.Errorf("unexpected checkpoint %+v", tr.Checkpoint)
			case c.cpSummary != "" && tr.Checkpoint == nil:
				t.Errorf("no checkpoint")
			case c.cpSummary != "":
				cp := tr.Checkpoint
				if cp.FirstKept != c.cpFirstKept || !strings.HasPrefix(cp.Summary, c.cpSummary) || cp.Source == "" {
					t.Errorf("checkpoint = %+v; want first kept %d, summary %q…", cp, c.cpFirstKept, c.cpSummary)
				}
				if r := tr.Rendered(); condense.Validate(r) != nil {
					t.Errorf("rendered checkpoint invalid: %v", condense.Validate(r))
				}
			}
			if c.check != nil {
				c.check(t, tr)
			}
		})
	}
}

func sameJSON(t testing.TB, a, b condense.Request) bool {
	t.Helper()
	ja, err := condense.DocumentOf(a).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	jb, err := condense.DocumentOf(b).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(ja, jb)
}

// standIns returns the call ids that got the stand-in result.
func standIns(msgs []condense.Message) []string {
	var ids []string
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type == condense.PartToolResult && p.IsError && len(p.Content) == 1 && p.Content[0].Text == StandInResult {
				ids = append(ids, p.CallID)
			}
		}
	}
	return ids
}

// parts returns the part types of a message, space separated.
func partTypes(m condense.Message) string {
	s := make([]string, len(m.Parts))
	for i, p := range m.Parts {
		s[i] = string(p.Type)
	}
	return strings.Join(s, " ")
}

func wantParts(t *testing.T, msgs []condense.Message, i int, want string) {
	t.Helper()
	if i >= len(msgs) {
		t.Errorf("message %d missing", i)
		return
	}
	if got := partTypes(msgs[i]); got != want {
		t.Errorf("message %d parts = %s; want %s", i, got, want)
	}
}

func wantStandIns(t *testing.T, msgs []condense.Message, ids ...string) {
	t.Helper()
	if got := standIns(msgs); fmt.Sprint(got) != fmt.Sprint(ids) {
		t.Errorf("stand-in results for %v; want %v", got, ids)
	}
}

// callIDs returns every tool call id of msgs.
func callIDs(msgs []condense.Message) map[string]bool {
	ids := map[string]bool{}
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type == condense.PartToolCall {
				ids[p.ID] = true
			}
		}
	}
	return ids
}

func ccUUID(n int) string { return fmt.Sprintf("a1b2c3d4-%04d-4e5f-8a9b-%012d", n, n) }

var sampleCases = []sampleCase{
	{file: "codex-legacy.jsonl", format: FormatCodex, roles: "uata", system: "Keep diffs minimal.",
		check: func(t *testing.T, tr *Transcript) {
			wantParts(t, tr.Request.Messages, 1, "thinking tool_call")
		}},
	{file: "mini-swe-agent.traj.json", format: FormatMiniSWEAgent, roles: "uauauauauau",
		model: "anthropic/claude-sonnet-4-5-20250929", system: "You are a helpful assistant",
		check: func(t *testing.T, tr *Transcript) {
			if !strings.Contains(tr.Request.Messages[1].TextContent(), "```bash\ngrep -rn") {
				t.Errorf("action text lost")
			}
			if !strings.Contains(tr.Request.Messages[6].TextContent(), "<returncode>1</returncode>") {
				t.Errorf("observation parts lost")
			}
		}},
	{file: "swe-agent-fc.traj", format: FormatSWEAgent, roles: "uattatata", model: "gpt-4o", system: "SETTING: You are an autonomous programmer",
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			wantParts(t, msgs, 1, "text tool_call tool_call")
			if msgs[2].Parts[0].CallID != "call_k1" || msgs[3].Parts[0].CallID != "call_k2" {
				t.Errorf("tool_call_ids not paired")
			}
			wantParts(t, msgs, 6, "tool_call")
			if last := msgs[len(msgs)-1]; !last.HasToolCalls() {
				t.Errorf("newest call lost")
			}
		}},
	{file: "swe-agent-text.traj", format: FormatSWEAgent, roles: "auauauaua",
		check: func(t *testing.T, tr *Transcript) {
			if got := tr.Request.Messages[2].TextContent(); !strings.HasPrefix(got, "DISCUSSION\nThe slugger") || !strings.Contains(got, "```\nopen slug/slug.go\n```") {
				t.Errorf("thought+action = %q", got)
			}
		}},
	{file: "codex-rollout.jsonl", format: FormatCodex, roles: "uuattatatatauatuatatatata", model: "gpt-5-codex",
		system: "Follow the repository's AGENTS.md", repaired: 1,
		cpFirstKept: 16, cpSummary: "Summary of the session so far:",
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			if !strings.Contains(tr.Request.System, "<permissions instructions>") {
				t.Errorf("leading developer message not in System: %q", tr.Request.System)
			}
			wantParts(t, msgs, 1, "text image")
			// reasoning + parallel calls form one assistant message.
			wantParts(t, msgs, 2, "thinking provider tool_call tool_call")
			if p := msgs[2].Parts[1]; p.Provider != "openai" || !strings.Contains(string(p.Raw), `"encrypted_content":"gAAAAABo-Zx3k1Qm9r0_enc_reasoning_blob_01=="`) {
				t.Errorf("reasoning not carried: %+v", p)
			}
			wantParts(t, msgs, 7, "text tool_call")
			if in := string(msgs[7].Parts[1].Input); !strings.HasPrefix(in, `{"input":"*** Begin Patch`) {
				t.Errorf("custom tool input = %s", in)
			}
			wantStandIns(t, msgs, "call_a5")
			if c := msgs[18].Parts[0]; c.Name != "local_shell" || !strings.Contains(string(c.Input), `"go","test"`) {
				t.Errorf("local shell call = %+v", c)
			}
			if !msgs[19].Parts[0].IsError {
				t.Errorf("success:false output is not an error")
			}
			wantParts(t, msgs, 16, "provider tool_call")
		}},
	{file: "claude-code.jsonl", format: FormatClaudeCode, roles: "uattatatatauatuuatatatatata",
		model: "claude-sonnet-4-5-20250929", repaired: 1,
		cpFirstKept: 18, cpSummary: "This session is being continued from a previous conversation",
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			// Four assistant lines of one API message, merged.
			wantParts(t, msgs, 1, "thinking text tool_call tool_call")
			if msgs[1].ID != ccUUID(2) || msgs[0].ID != ccUUID(1) {
				t.Errorf("ids = %q, %q", msgs[0].ID, msgs[1].ID)
			}
			// A parallel batch answered by two tool lines.
			if msgs[2].Parts[0].CallID != "toolu_01Run" || !msgs[2].Parts[0].IsError || msgs[3].Parts[0].CallID != "toolu_01Read" {
				t.Errorf("batch results: %+v %+v", msgs[2].Parts[0], msgs[3].Parts[0])
			}
			// toolUseResult is never content.
			for _, m := range msgs {
				for _, p := range m.Parts {
					for _, c := range p.Content {
						if strings.Contains(c.Text, "(omitted)") {
							t.Errorf("toolUseResult read as content")
						}
					}
				}
			}
			ids := callIDs(msgs)
			if ids["toolu_01Grep"] {
				t.Errorf("sidechain call included")
			}
			if ids["toolu_01Old"] {
				t.Errorf("abandoned branch included")
			}
			if !ids["toolu_01Task"] || !ids["toolu_01Edit4"] {
				t.Errorf("active branch calls missing")
			}
			wantParts(t, msgs, 11, "text image")
			if !strings.Contains(msgs[11].TextContent(), "line and column") {
				t.Errorf("branch did not take the edited prompt: %q", msgs[11].TextContent())
			}
			wantStandIns(t, msgs, "toolu_01Race")
			if msgs[13].ID != ccUUID(20)+"/no-result" {
				t.Errorf("stand-in id %q", msgs[13].ID)
			}
			if !strings.Contains(tr.Checkpoint.Source, "line") {
				t.Errorf("checkpoint source %q", tr.Checkpoint.Source)
			}
			if r := tr.Rendered(); len(r) != len(msgs)-18+1 || r[0].Role != condense.RoleUser || condense.Validate(r) != nil {
				t.Errorf("Rendered: %s", roles(r))
			}
		}},
	{file: "claude-code-agent.jsonl", format: FormatClaudeCode, roles: "uata", model: "claude-sonnet-4-5-20250929",
		check: func(t *testing.T, tr *Transcript) {
			if !callIDs(tr.Request.Messages)["toolu_01AGrep"] {
				t.Errorf("a whole-sidechain file must be read")
			}
		}},
	{file: "openai-chat.json", format: FormatOpenAI, roles: "uattatatuatatta", model: "gpt-4o",
		system: "You are a careful Go engineer", tools: 3, repaired: 1,
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			if want := "You are a careful Go engineer working in the kvstore repository.\n\nRun the tests before you say you are done."; tr.Request.System != want {
				t.Errorf("System = %q", tr.Request.System)
			}
			if tr.Request.MaxOutputTokens != 4096 {
				t.Errorf("MaxOutputTokens = %d", tr.Request.MaxOutputTokens)
			}
			wantParts(t, msgs, 0, "text image")
			if img := msgs[0].Parts[1]; img.MediaType != "image/png" || len(img.Data) == 0 {
				t.Errorf("image = %+v", img)
			}
			wantParts(t, msgs, 1, "text tool_call tool_call")
			wantStandIns(t, msgs, "call_e1")
			if msgs[7].Parts[0].CallID != "call_e1" || msgs[8].Role != condense.RoleUser {
				t.Errorf("stand-in not right after its call")
			}
		}},
	{file: "openai-array.json", format: FormatOpenAI, roles: "uataua",
		check: func(t *testing.T, tr *Transcript) {
			// The newest step's call stays open.
			wantStandIns(t, tr.Request.Messages)
			last := tr.Request.Messages[len(tr.Request.Messages)-1]
			if !last.HasToolCalls() {
				t.Errorf("last message lost its open call")
			}
		}},
	{file: "anthropic-messages.json", format: FormatAnthropic, roles: "uatatuataua",
		model: "claude-sonnet-4-5", system: "You are a coding agent working in /home/dev/ratelimit", tools: 2,
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			if tr.Request.MaxOutputTokens != 8192 || tr.Request.ThinkingBudget != 2048 {
				t.Errorf("max tokens %d, thinking budget %d", tr.Request.MaxOutputTokens, tr.Request.ThinkingBudget)
			}
			wantParts(t, msgs, 0, "text image text provider")
			if got := string(msgs[0].Parts[3].Raw); got != `{"cache_control":{"type": "ephemeral", "ttl": "1h"}}` {
				t.Errorf("cache marker = %s", got)
			}
			wantParts(t, msgs, 1, "thinking text tool_call tool_call")
			if th := msgs[1].Parts[0]; th.Signature == "" || th.Text == "" {
				t.Errorf("thinking = %+v", th)
			}
			wantParts(t, msgs, 2, "tool_result tool_result provider")
			if !msgs[2].Parts[1].IsError {
				t.Errorf("is_error lost")
			}
			wantParts(t, msgs, 3, "thinking text tool_call")
			if msgs[3].Parts[0].Redacted == "" {
				t.Errorf("redacted thinking lost")
			}
			wantParts(t, msgs, 4, "tool_result")
			wantParts(t, msgs, 5, "text")
			wantParts(t, msgs, 6, "provider provider tool_call")
			if !strings.Contains(string(msgs[6].Parts[0].Raw), `"encrypted_content": "Z2ln`) {
				t.Errorf("compaction block not carried byte for byte: %s", msgs[6].Parts[0].Raw)
			}
			wantParts(t, msgs, 10, "provider tool_call")
		}},
	{file: "condense.json", format: FormatCondense, roles: "uataatata", model: "gpt-4.1",
		system: "You are a coding agent.", tools: 1,
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			if !msgs[0].Pinned || msgs[3].Status != condense.StatusFailed || msgs[0].ID != "m1" {
				t.Errorf("pinned/status/id lost")
			}
		}},
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		name, in string
		format   Format
		want     string // substring of the error
		lenient  string // roles read under Lenient, "" when Lenient fails too
		skipped  int
		dropped  int
	}{
		{"openai bad arguments", `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"{oops"}}]}]}`,
			FormatOpenAI, "chat.json: messages[1].tool_calls[0].function.arguments: openai: malformed input: not valid JSON", "u", 1, 0},
		{"openai orphan", `[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_9","content":"x"},{"role":"assistant","content":"ok"}]`,
			FormatOpenAI, `chat.json: messages[1]: openai: malformed input: tool result for call "call_9" has no matching tool call`, "ua", 0, 1},
		{"openai legacy", `[{"role":"user","content":"hi"},{"role":"assistant","function_call":{"name":"f","arguments":"{}"}}]`,
			FormatOpenAI, "messages[1]: openai: malformed input: legacy function_call", "u", 1, 0},
		{"openai role", `[{"role":"robot","content":"hi"}]`, FormatOpenAI, `messages[0].role: openai: malformed input: unknown role "robot"`, "", 1, 0},
		{"openai not json", `[{"role":`, FormatOpenAI, "chat.json:1:10: openai: malformed input: the JSON ends early", "", 0, 0},
		{"openai syntax error line", "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"hi\"},\n  {\"role\": \"assistant\" \"content\": \"x\"}\n]}\n",
			FormatOpenAI, "chat.json:3:24: openai: malformed input: invalid character", "", 0, 0},
		{"anthropic tool_use in user", `{"messages":[{"role":"user","content":[{"type":"tool_use","id":"t","name":"x","input":{}}]}]}`,
			FormatAnthropic, "chat.json: messages[0].content[0]: anthropic: malformed input: tool_use block outside an assistant message", "", 1, 0},
		{"anthropic missing id", `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","name":"x","input":{}}]}]}`,
			FormatAnthropic, "messages[1].content[0].id: anthropic: malformed input: missing", "u", 1, 0},
		{"anthropic result before call", `{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}}]}]}`,
			FormatAnthropic, `messages[0]: anthropic: malformed input: tool result for call "t1" comes before its call`, "a", 0, 1},
		{"anthropic duplicate call", `{"messages":[{"role":"user","content":"go"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"x","input":{}},{"type":"tool_use","id":"t1","name":"x","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}]}`,
			FormatAnthropic, `messages[1]: anthropic: malformed input: duplicate tool call id "t1"`, "uat", 1, 0},
		{"condense bad part", `{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"a"}]},{"role":"user","parts":[{"type":"bogus"}]}]}`,
			FormatCondense, `chat.json: messages[1].parts[0].type: malformed input: unknown part type "bogus"`, "u", 1, 0},
		{"claude-code bad line", "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"assistant\",\"uuid\":\"u2\"\n{\"type\":\"assistant\",\"uuid\":\"u3\",\"parentUuid\":\"u1\",\"message\":{\"id\":\"m\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"yo\"}]}}\n",
			FormatClaudeCode, "chat.json:2:32: claude-code: malformed input: the JSON ends early (a truncated file or line?)", "ua", 1, 0},
		{"claude-code orphan", "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"toolu_9\",\"content\":\"x\"}]}}\n",
			FormatAuto, `chat.json:2: claude-code: malformed input: tool result for call "toolu_9" has no matching tool call`, "u", 0, 1},
		{"claude-code bad line in chain", "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"assistant\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"message\":{\"id\":\n{\"type\":\"user\",\"uuid\":\"u3\",\"parentUuid\":\"u2\",\"message\":{\"role\":\"user\",\"content\":\"again\"}}\n",
			FormatClaudeCode, "chat.json:2:67: claude-code: malformed input: the JSON ends early", "uu", 1, 0},
		{"claude-code bad message kept in chain", "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":null,\"message\":{\"role\":\"user\",\"content\":\"hi\"}}\n{\"type\":\"assistant\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"message\":{\"id\":5}}\n{\"type\":\"user\",\"uuid\":\"u3\",\"parentUuid\":\"u2\",\"message\":{\"role\":\"user\",\"content\":\"again\"}}\n",
			FormatClaudeCode, "chat.json:2: claude-code: malformed input: message: id: unexpected JSON number", "uu", 1, 0},
		{"claude-code loop", "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":\"u2\",\"message\":{\"role\":\"user\",\"content\":\"a\"}}\n{\"type\":\"user\",\"uuid\":\"u2\",\"parentUuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"b\"}}\n",
			FormatClaudeCode, "chat.json:2: claude-code: malformed input: parentUuid chain loops back to line 2", "uu", 1, 0},
		{"claude-code no message", "{\"type\":\"user\",\"uuid\":\"u1\",\"sessionId\":\"s\"}\n",
			FormatAuto, "chat.json:1: claude-code: malformed input: user line has no message", "", 1, 0},
		{"swe-agent bad tool call", `{"trajectory":[],"history":[{"role":"user","content":"fix"},{"role":"assistant","content":"x","tool_calls":[{"type":"function","function":{"name":"bash","arguments":"{}"}}]}]}`,
			FormatAuto, "chat.json: history[1].tool_calls[0].id: swe-agent: malformed input: missing", "u", 1, 0},
		{"mini-swe-agent bad role", `{"trajectory_format":"mini-swe-agent-1","messages":[{"role":"user","content":"fix"},{"role":"quit","content":"x"}]}`,
			FormatAuto, `chat.json: messages[1].role: mini-swe-agent: malformed input: unknown role "quit"`, "u", 1, 0},
		{"undetectable", `{"hello":"world"}`, FormatAuto, "chat.json: cannot detect the transcript format: no known keys in the first JSON value; pass the format explicitly (one of " + formatList(Formats) + ")", "", 0, 0},
		{"ambiguous", `[{"role":"tool","tool_call_id":"a","content":"x"},{"role":"user","content":[{"type":"tool_result","tool_use_id":"a"}]}]`, FormatAuto, "mix OpenAI markers", "", 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadBytes([]byte(c.in), Options{Format: c.format, Name: "chat.json"})
			if err == nil {
				t.Fatalf("no error")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("error = %q\nwant it to contain %q", err, c.want)
			}
			if !errors.Is(err, condense.ErrMalformed) {
				t.Errorf("error does not wrap ErrMalformed")
			}
			var re *ReadError
			if !errors.As(err, &re) || re.File != "chat.json" {
				t.Errorf("error is not a *ReadError naming the file: %#v", err)
			}
			tr, err := ReadBytes([]byte(c.in), Options{Format: c.format, Name: "chat.json", Lenient: true})
			if c.lenient == "" {
				if err == nil && len(tr.Request.Messages) > 0 {
					t.Errorf("lenient read gave %s", roles(tr.Request.Messages))
				}
				return
			}
			if err != nil {
				t.Fatalf("lenient: %v", err)
			}
			if got := roles(tr.Request.Messages); got != c.lenient || tr.Skipped != c.skipped || tr.Dropped != c.dropped {
				t.Errorf("lenient: roles %s skipped %d dropped %d; want %s, %d, %d", got, tr.Skipped, tr.Dropped, c.lenient, c.skipped, c.dropped)
			}
		})
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range append([]Format{FormatAuto}, Formats...) {
		got, err := ParseFormat(string(f))
		if err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	if f, err := ParseFormat(""); err != nil || f != FormatAuto {
		t.Errorf(`ParseFormat("") = %q, %v`, f, err)
	}
	if _, err := ParseFormat("gemini"); !errors.Is(err, ErrUnknownFormat) || !strings.Contains(err.Error(), "claude-code") {
		t.Errorf("ParseFormat(gemini) = %v", err)
	}
}

// TestRoundTripCondense: read → write condense → read gives the same request.
func TestRoundTripCondense(t *testing.T) {
	for _, c := range sampleCases {
		t.Run(c.file, func(t *testing.T) {
			tr := readSample(t, c.file, Options{})
			var buf bytes.Buffer
			if err := Write(&buf, FormatCondense, tr.Request); err != nil {
				t.Fatal(err)
			}
			back, err := ReadBytes(buf.Bytes(), Options{})
			if err != nil {
				t.Fatalf("re-read: %v", err)
			}
			if back.Format != FormatCondense || back.Repaired != 0 || back.Dropped != 0 {
				t.Errorf("re-read: %+v", back)
			}
			if !sameJSON(t, tr.Request, back.Request) {
				t.Errorf("round trip changed the request")
			}
		})
	}
}

// project flattens messages into comparable lines, leaving out what the
// target format cannot carry.
func project(msgs []condense.Message, target Format) []string {
	var out []string
	for _, m := range msgs {
		if failedReply(&m) {
			continue // provider formats leave failed replies out
		}
		role := m.Role
		if role == condense.RoleSystem && target == FormatAnthropic {
			role = condense.RoleUser
		}
		for _, p := range m.Parts {
			var s string
			switch p.Type {
			case condense.PartText:
				if p.Text == "" {
					continue
				}
				s = "text " + p.Text
			case condense.PartImage:
				if target == FormatOpenAI && role == condense.RoleAssistant {
					continue
				}
				s = fmt.Sprintf("image %s %d %s", p.MediaType, len(p.Data), p.URL)
			case condense.PartToolCall:
				var v any
				_ = json.Unmarshal(p.Input, &v)
				in, _ := json.Marshal(v)
				s = fmt.Sprintf("call %s %s %s", p.ID, p.Name, in)
			case condense.PartToolResult:
				var texts []string
				for _, c := range p.Content {
					switch c.Type {
					case condense.PartText:
						texts = append(texts, c.Text)
					case condense.PartImage:
						texts = append(texts, "[image]")
					}
				}
				isErr := p.IsError
				if target == FormatOpenAI {
					isErr = false
				}
				s = fmt.Sprintf("result %s %v %q", p.CallID, isErr, strings.Join(texts, "\n"))
			case condense.PartThinking:
				if target == FormatOpenAI || p.Signature == "" && p.Redacted == "" {
					continue
				}
				s = fmt.Sprintf("thinking %q %s %s", p.Text, p.Signature, p.Redacted)
			case condense.PartProvider:
				if target == FormatOpenAI || p.Provider != "anthropic" {
					continue
				}
				s = "provider " + string(p.Raw)
			}
			out = append(out, string(role)+" "+s)
		}
	}
	return out
}

// TestRoundTripProviders: what the openai and anthropic writers produce
// reads back, with the matching reader, as equivalent messages.
func TestRoundTripProviders(t *testing.T) {
	for _, target := range []Format{FormatOpenAI, FormatAnthropic} {
		for _, c := range sampleCases {
			t.Run(string(target)+"/"+c.file, func(t *testing.T) {
				tr := readSample(t, c.file, Options{})
				var buf bytes.Buffer
				if err := Write(&buf, target, tr.Request); err != nil {
					t.Fatal(err)
				}
				if f, err := Detect(buf.Bytes()); err != nil || (f != target && !(target == FormatAnthropic && f == FormatOpenAI)) {
					t.Errorf("Detect(written) = %q, %v", f, err)
				}
				back, err := ReadBytes(buf.Bytes(), Options{Format: target})
				if err != nil {
					t.Fatalf("re-read: %v\n%s", err, buf.Bytes())
				}
				if back.Repaired != 0 || back.Dropped != 0 {
					t.Errorf("re-read repaired %d, dropped %d", back.Repaired, back.Dropped)
				}
				// The writer first makes the request acceptable to the
				// API (forProvider, tested on its own).
				sent := forProvider(tr.Request, target)
				want, got := project(sent.Messages, target), project(back.Request.Messages, target)
				if strings.Join(want, "\n") != strings.Join(got, "\n") {
					t.Errorf("messages differ after %s round trip:\n%s", target, diffLines(want, got))
				}
				if back.Request.System != tr.Request.System || back.Request.Model != tr.Request.Model || len(back.Request.Tools) != len(sent.Tools) {
					t.Errorf("system/model/tools differ")
				}
			})
		}
	}
}

func diffLines(want, got []string) string {
	var b strings.Builder
	for i := 0; i < max(len(want), len(got)); i++ {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			fmt.Fprintf(&b, "%d:\n want %.200s\n got  %.200s\n", i, w, g)
		}
	}
	return b.String()
}

func TestReadCondenseMisplaced(t *testing.T) {
	doc := `{"version":1,"messages":[{"role":"user","parts":[{"type":"text","text":"a"},{"type":"tool_call","id":"c","name":"x","input":{}}]}]}`
	_, err := ReadBytes([]byte(doc), Options{Name: "d.json"})
	if err == nil || !strings.Contains(err.Error(), "d.json: messages[0]: condense: malformed input: tool_call part in a user message") {
		t.Errorf("err = %v", err)
	}
	tr, err := ReadBytes([]byte(doc), Options{Name: "d.json", Lenient: true})
	if err != nil || tr.Skipped != 1 || partTypes(tr.Request.Messages[0]) != "text" {
		t.Errorf("lenient: %v %+v", err, tr)
	}
}

func TestClaudeCodeRepeatedLine(t *testing.T) {
	l1 := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"ls"}}`
	l2 := `{"type":"assistant","uuid":"u2","parentUuid":"u1","sessionId":"s","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}]}}`
	l3 := `{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"a.go"}]}}`
	tr, err := ReadBytes([]byte(strings.Join([]string{l1, l2, l2, l3}, "\n")), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := roles(tr.Request.Messages); got != "uat" {
		t.Errorf("roles = %s", got)
	}
}

// TestClaudeCodeParallelShapes: the two ways a parallel batch's lines can
// be chained both read as one assistant message and its results.
func TestClaudeCodeParallelShapes(t *testing.T) {
	u := func(id, parent, content string) string {
		return `{"type":"user","uuid":"` + id + `","parentUuid":` + parent + `,"sessionId":"s","message":{"role":"user","content":` + content + `}}`
	}
	a := func(id, parent, block string) string {
		return `{"type":"assistant","uuid":"` + id + `","parentUuid":"` + parent + `","sessionId":"s","message":{"id":"m1","role":"assistant","content":[` + block + `]}}`
	}
	tu := func(id string) string { return `{"type":"tool_use","id":"` + id + `","name":"Read","input":{}}` }
	res := func(id string) string { return `[{"type":"tool_result","tool_use_id":"` + id + `","content":"x"}]` }
	end := `{"type":"assistant","uuid":"z","parentUuid":"r2","sessionId":"s","message":{"id":"m2","role":"assistant","content":[{"type":"text","text":"done"}]}}`
	for name, lines := range map[string][]string{
		// Results interleaved with the assistant lines of one message.
		"interleaved": {u("u0", "null", `"go"`), a("a1", "u0", tu("t1")), u("r1", `"a1"`, res("t1")), a("a2", "r1", tu("t2")), u("r2", `"a2"`, res("t2")), end},
		// Each result parented to its own tool_use line: r1 is off the
		// branch walked back from the end.
		"forked": {u("u0", "null", `"go"`), a("a1", "u0", tu("t1")), a("a2", "a1", tu("t2")), u("r1", `"a1"`, res("t1")), u("r2", `"a2"`, res("t2")), end},
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := ReadBytes([]byte(strings.Join(lines, "\n")), Options{})
			if err != nil {
				t.Fatal(err)
			}
			msgs := tr.Request.Messages
			if got := roles(msgs); got != "uatta" || tr.Repaired != 0 {
				t.Fatalf("roles = %s, repaired %d", got, tr.Repaired)
			}
			wantParts(t, msgs, 1, "tool_call tool_call")
		})
	}
}

// TestClaudeCodeSummaryLines: summary lines are titles, never checkpoints,
// whether their leaf is in the file or not.
func TestClaudeCodeSummaryLines(t *testing.T) {
	in := `{"type":"summary","summary":"Refactor the lexer","leafUuid":"elsewhere"}
{"type":"summary","summary":"Fix tests","leafUuid":"u1"}
{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"fix the tests"}}`
	tr, err := ReadBytes([]byte(in), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Format != FormatClaudeCode || tr.Checkpoint != nil || roles(tr.Request.Messages) != "u" {
		t.Errorf("format %s, checkpoint %+v, roles %s", tr.Format, tr.Checkpoint, roles(tr.Request.Messages))
	}
}

func TestWritersLeaveFailedRepliesOut(t *testing.T) {
	req := condense.Request{Model: "m", Messages: []condense.Message{
		condense.UserText("hi"),
		{Role: condense.RoleAssistant, Status: condense.StatusFailed, Parts: []condense.Part{condense.Text("API Error: overloaded")}},
		{Role: condense.RoleAssistant, Status: condense.StatusAborted, Parts: []condense.Part{condense.Text("Let me look")}},
		condense.UserText("go on"),
	}}
	for _, f := range []Format{FormatOpenAI, FormatAnthropic, FormatCondense} {
		var buf bytes.Buffer
		if err := Write(&buf, f, req); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Contains(out, "API Error") != (f == FormatCondense) {
			t.Errorf("%s: failed reply written = %v", f, strings.Contains(out, "API Error"))
		}
		if !strings.Contains(out, "Let me look") {
			t.Errorf("%s: the aborted reply is missing", f)
		}
	}
}
