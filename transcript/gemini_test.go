package transcript

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestGeminiCLI reads the kinds of Gemini CLI files: stream-json logs,
// session records (one JSON document or a JSONL log) and saved chats.
func TestGeminiCLI(t *testing.T) {
	cases := []struct {
		name   string
		in     string
		roles  string
		model  string
		parts  map[int]string // message index -> part types
		texts  map[int]string // message index -> TextContent
		errors map[string]bool
		check  func(t *testing.T, tr *Transcript)
	}{{
		name: "stream-json",
		in: `{"type":"init","timestamp":"2026-01-19T21:26:44.030Z","session_id":"s","model":"gemini-2.5-pro"}
{"type":"message","timestamp":"t","role":"user","content":"list the files"}
{"type":"message","timestamp":"t","role":"assistant","content":"Let me","delta":true}
{"type":"message","timestamp":"t","role":"assistant","content":" look.","delta":true}
{"type":"tool_use","timestamp":"t","tool_name":"list_directory","tool_id":"ls-1","parameters":{"path":"."}}
{"type":"tool_use","timestamp":"t","tool_name":"read_file","tool_id":"rf-1","parameters":{"path":"x"}}
{"type":"tool_result","timestamp":"t","tool_id":"ls-1","status":"success","output":"a.go"}
{"type":"tool_result","timestamp":"t","tool_id":"rf-1","status":"error","error":{"type":"FILE_NOT_FOUND","message":"no such file"}}
{"type":"error","timestamp":"t","severity":"warning","message":"Loop detected"}
{"type":"message","timestamp":"t","role":"assistant","content":"Done.","delta":true}
{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":1}}`,
		roles: "uata", model: "gemini-2.5-pro",
		parts: map[int]string{1: "text tool_call tool_call", 2: "tool_result tool_result"},
		texts: map[int]string{1: "Let me look.", 3: "Done."},
		check: func(t *testing.T, tr *Transcript) {
			r := tr.Request.Messages[2].Parts[1]
			if !r.IsError || r.Content[0].Text != "no such file" {
				t.Errorf("error result = %+v", r)
			}
		},
	}, {
		name: "session record, older shape",
		in: `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","messages":[
 {"id":"u1","timestamp":"t","type":"user","content":"/model"},
 {"id":"i1","timestamp":"t","type":"info","content":"Model set"},
 {"id":"u2","timestamp":"t","type":"user","content":[{"text":"create a file"}]},
 {"id":"g1","timestamp":"t","type":"gemini","content":"I will write it.","model":"gemini-3-flash-preview",
  "thoughts":[{"subject":"Planning","description":"write hello.txt","timestamp":"t"}],
  "toolCalls":[{"id":"c1","name":"write_file","args":{"file_path":"hello.txt"},"status":"error",
   "result":[{"functionResponse":{"id":"c1","name":"write_file","response":{"error":"Tool not found"}}}]},
   {"id":"c2","name":"run_shell_command","args":{"command":"ls"},"status":"success","result":"hello.txt"}]},
 {"id":"e1","timestamp":"t","type":"error","content":"quota"},
 {"id":"g2","timestamp":"t","type":"gemini","content":"Done.","model":"gemini-3-flash-preview"}],"kind":"main"}`,
		roles: "uata", model: "gemini-3-flash-preview",
		parts: map[int]string{1: "thinking text tool_call tool_call", 2: "tool_result tool_result"},
		texts: map[int]string{0: "create a file"},
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			if th := msgs[1].Parts[0].Text; th != "**Planning** write hello.txt" {
				t.Errorf("thinking = %q", th)
			}
			res := msgs[2].Parts
			if !res[0].IsError || res[0].Content[0].Text != "Tool not found" || res[1].IsError || res[1].Content[0].Text != "hello.txt" {
				t.Errorf("results = %+v", res)
			}
			if msgs[2].ID != "g1_response" {
				t.Errorf("tool message id %q", msgs[2].ID)
			}
		},
	}, {
		name: "session log, newer shape",
		in: `{"sessionId":"s","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}
{"id":"u1","timestamp":"t","type":"user","content":[{"text":"first try"}]}
{"id":"g0","timestamp":"t","type":"gemini","content":"wrong way"}
{"$rewindTo":"u1"}
{"id":"u2","timestamp":"t","type":"user","content":[{"text":"read it"}]}
{"$set":{"lastUpdated":"t2"}}
{"id":"g1","timestamp":"t","type":"gemini","content":[{"text":"plan","thought":true},{"functionCall":{"id":"f1","name":"read_file","args":{"path":"a"}}}],"model":"gemini-2.5-pro"}
{"id":"g1","timestamp":"t","type":"gemini","content":[{"text":"plan","thought":true},{"functionCall":{"id":"f1","name":"read_file","args":{"path":"a"}}}],"model":"gemini-2.5-pro","toolCalls":[{"id":"f1","name":"read_file","args":{"path":"a"},"status":"success","result":[{"functionResponse":{"id":"f1","name":"read_file","response":{"output":"contents"}}}]}]}
{"id":"g2","timestamp":"t","type":"gemini","content":[{"text":"It says contents."}],"model":"gemini-2.5-pro"}`,
		roles: "uata", model: "gemini-2.5-pro",
		parts: map[int]string{1: "thinking tool_call", 2: "tool_result"},
		texts: map[int]string{0: "read it", 3: "It says contents."},
	}, {
		name: "session log, $set messages replaces the list",
		in: `{"sessionId":"s","projectHash":"h"}
{"id":"u1","type":"user","content":"old"}
{"$set":{"messages":[{"id":"u9","type":"user","content":"kept"},{"id":"g9","type":"gemini","content":"yes"}]}}`,
		roles: "ua", texts: map[int]string{0: "kept"},
	}, {
		name: "saved chat",
		in: `{"history":[{"role":"user","parts":[{"text":"This is the Gemini CLI. We are setting up the context for our chat."}]},
 {"role":"model","parts":[{"text":"Got it. Thanks for the context!"}]},
 {"role":"user","parts":[{"text":"what is in a?"}]},
 {"role":"model","parts":[{"functionCall":{"name":"read_file","args":{"path":"a"}}},{"functionCall":{"name":"read_file","args":{"path":"b"}}}]},
 {"role":"user","parts":[{"functionResponse":{"name":"read_file","response":{"output":"A"}}},{"functionResponse":{"name":"read_file","response":{"output":"B"}}}]},
 {"role":"model","parts":[{"text":"a holds A"},{"executableCode":{"language":"PYTHON","code":"print(1)"}}]}],"authType":"oauth-personal"}`,
		roles: "uauata",
		parts: map[int]string{3: "tool_call tool_call", 4: "tool_result tool_result", 5: "text provider"},
		check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			if msgs[3].Parts[0].ID != "gemini-call-1" || msgs[4].Parts[0].CallID != "gemini-call-1" || msgs[4].Parts[1].Content[0].Text != "B" {
				t.Errorf("unnamed calls paired as %+v / %+v", msgs[3].Parts, msgs[4].Parts)
			}
		},
	}, {
		name: "api request (/chat debug)",
		in: `{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"hello"}]}],
 "generationConfig":{"temperature":0},"systemInstruction":{"parts":[{"text":"You are Gemini CLI."}]},
 "tools":[{"functionDeclarations":[{"name":"read_file","description":"Reads a file","parametersJsonSchema":{"type":"object"}},{"name":"ls","parameters":{"type":"OBJECT"}}]}]}`,
		roles: "ua",
		check: func(t *testing.T, tr *Transcript) {
			r := tr.Request
			if r.System != "You are Gemini CLI." || len(r.Tools) != 2 || r.Tools[0].Name != "read_file" || string(r.Tools[1].InputSchema) != `{"type":"OBJECT"}` {
				t.Errorf("system %q, tools %+v", r.System, r.Tools)
			}
		},
	}, {
		name:  "saved chat, bare array",
		in:    `[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"hello"}]}]`,
		roles: "ua",
	}, {
		name:  "restore checkpoint",
		in:    `{"history":[{"type":"user","text":"hi"}],"clientHistory":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"text":"hello"}]}],"commitHash":"abc","toolCall":{"name":"replace"}}`,
		roles: "ua",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if f, err := Detect([]byte(c.in)); err != nil || f != FormatGeminiCLI {
				t.Fatalf("Detect = %q, %v", f, err)
			}
			tr, err := ReadBytes([]byte(c.in), Options{})
			if err != nil {
				t.Fatal(err)
			}
			msgs := tr.Request.Messages
			if err := condense.Validate(msgs); err != nil {
				t.Fatal(err)
			}
			if got := roles(msgs); got != c.roles {
				t.Fatalf("roles = %s, want %s", got, c.roles)
			}
			if tr.Request.Model != c.model {
				t.Errorf("model = %q, want %q", tr.Request.Model, c.model)
			}
			for i, w := range c.parts {
				wantParts(t, msgs, i, w)
			}
			for i, w := range c.texts {
				if got := msgs[i].TextContent(); got != w {
					t.Errorf("message %d text = %q, want %q", i, got, w)
				}
			}
			if tr.Skipped+tr.Dropped+tr.Repaired != 0 || len(tr.Notes) != 0 {
				t.Errorf("notes %v", tr.Notes)
			}
			if c.check != nil {
				c.check(t, tr)
			}
		})
	}
}

// TestGeminiCLIErrors: malformed Gemini CLI records name their line or
// JSON path, and Lenient skips them with a note.
func TestGeminiCLIErrors(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"stream event type", `{"type":"init","session_id":"s","model":"m"}` + "\n" + `{"type":"bogus","timestamp":"t"}`,
			`x:2: gemini-cli: malformed input: unknown event type "bogus"`},
		{"stream parameters", `{"type":"init","session_id":"s","model":"m"}` + "\n" + `{"type":"tool_use","tool_name":"a","tool_id":"b","parameters":[1]}`,
			`x:2: gemini-cli: malformed input: parameters: want an object`},
		{"session message type", `{"sessionId":"s","projectHash":"h","messages":[{"id":"a","type":"robot","content":"x"}]}`,
			`x: messages[0]: gemini-cli: malformed input: message type "robot"`},
		{"session call args", `{"sessionId":"s","projectHash":"h","messages":[{"id":"a","type":"gemini","content":"x","toolCalls":[{"id":"c","name":"n","args":"no"}]}]}`,
			`x: messages[0]: gemini-cli: malformed input: toolCalls[0].args: want an object`},
		{"session log line", `{"sessionId":"s","projectHash":"h"}` + "\n" + `{"id":"u","type":"user","content":"hi"}` + "\nnot json",
			`x:3: gemini-cli: malformed input: not a JSON object`},
		{"chat role", `{"history":[{"role":"user","parts":[{"text":"hi"}]},{"role":"system","parts":[]}]}`,
			`x: history[1]: gemini-cli: malformed input: role "system": want user or model`},
		{"chat part", `{"history":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"args":{}}}]}]}`,
			`x: history[1]: gemini-cli: malformed input: parts[0].functionCall.name: missing`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadBytes([]byte(c.in), Options{Format: FormatGeminiCLI, Name: "x"})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("err = %v\n want %s", err, c.want)
			}
			tr, err := ReadBytes([]byte(c.in), Options{Format: FormatGeminiCLI, Name: "x", Lenient: true})
			if err != nil {
				t.Fatalf("lenient: %v", err)
			}
			if tr.Skipped != 1 || len(tr.Notes) != 1 || tr.Notes[0].Action != NoteSkipped {
				t.Errorf("lenient: skipped %d, notes %v", tr.Skipped, tr.Notes)
			}
		})
	}
}

// TestGeminiCLIRealStream reads the stream-json logs Gemini CLI's own tests
// record (testdata/real): the snapshot file holds them as template
// literals with the run's timestamps and durations replaced by
// placeholders; a duration placeholder is put back as a number.
func TestGeminiCLIRealStream(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "real", "gemini-cli-nonInteractiveCli.test.ts.snap"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)= `\n\"(\\{\"type\":\"init\".*?)\n\"\n`;").FindAllSubmatch(data, -1)
	want := []string{"u", "u", "uata"}
	if len(blocks) != len(want) {
		t.Fatalf("%d stream logs in the snapshot, want %d", len(blocks), len(want))
	}
	for i, m := range blocks {
		log := strings.ReplaceAll(string(m[1]), "<DURATION>", "0")
		tr, err := ReadBytes([]byte(log), Options{Name: "snapshot"})
		if err != nil {
			t.Fatalf("log %d: %v", i, err)
		}
		if tr.Format != FormatGeminiCLI || roles(tr.Request.Messages) != want[i] || tr.Request.Model != "test-model" {
			t.Errorf("log %d: format %s, roles %s, model %q", i, tr.Format, roles(tr.Request.Messages), tr.Request.Model)
		}
	}
}

// TestGeminiCLIRealSession reads a session file Gemini CLI wrote
// (testdata/real): string user content, gemini messages with thoughts and
// tool calls whose results are lists of functionResponse parts.
func TestGeminiCLIRealSession(t *testing.T) {
	tr := readSample(t, "real/gemini-cli-pomodoro-timer.json", Options{})
	msgs := tr.Request.Messages
	if tr.Format != FormatGeminiCLI || tr.Request.Model != "gemini-2.5-pro" {
		t.Fatalf("format %s, model %q", tr.Format, tr.Request.Model)
	}
	if got := roles(msgs); got != "uatauatauatatauauatatatatata" {
		t.Errorf("roles = %s", got)
	}
	if !strings.HasPrefix(msgs[0].TextContent(), "Build a simple Pomodoro timer") {
		t.Errorf("first message %.60q", msgs[0].TextContent())
	}
	wantParts(t, msgs, 1, "thinking thinking text tool_call tool_call tool_call")
	wantParts(t, msgs, 2, "tool_result tool_result tool_result")
	if tr.Skipped+tr.Dropped+tr.Repaired != 0 || len(tr.Notes) != 0 {
		t.Errorf("notes %v", tr.Notes)
	}
}
