package transcript

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestReadCline(t *testing.T) {
	cases := []struct {
		file     string
		roles    string
		model    string
		repaired int
		check    func(t *testing.T, tr *Transcript)
	}{
		{file: "cline-xml.json", roles: "uatuatuatuaua", check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			wantParts(t, msgs, 1, "text tool_call")
			if c := msgs[1].Parts[1]; c.ID != "cline-xml-1-0" || c.Name != "read_file" || string(c.Input) != `{"path":"calc.go"}` {
				t.Errorf("read_file call = %+v (input %s)", c, c.Input)
			}
			if r := msgs[2].Parts[0]; r.CallID != "cline-xml-1-0" || len(r.Content) != 1 || !strings.HasPrefix(r.Content[0].Text, "package calc") {
				t.Errorf("read_file result = %+v", r)
			}
			if !strings.HasPrefix(msgs[3].TextContent(), "<environment_details>") {
				t.Errorf("environment details not left as user text: %q", msgs[3].TextContent())
			}
			// A value holding its own closing tag.
			if in := string(msgs[4].Parts[1].Input); !strings.Contains(in, `The closing tag </content> may appear`) || !strings.HasSuffix(in, `return a + b }"}`) {
				t.Errorf("write_to_file input = %s", in)
			}
			if r := msgs[5].Parts[0]; r.Content[0].Text != "The content was successfully saved to calc.go." {
				t.Errorf("one-block result = %q", r.Content[0].Text)
			}
			// The result runs up to Cline's environment details.
			if r := msgs[8].Parts[0]; !r.IsError || r.Content[0].Text != "The user denied this operation." || len(r.Content) != 2 || !strings.Contains(r.Content[1].Text, "<feedback>") {
				t.Errorf("denied result = %+v", r)
			}
			// No complete block: the pair is text.
			wantParts(t, msgs, 10, "text")
			if !strings.HasPrefix(msgs[11].TextContent(), "[execute_command for 'go test ./calc'] Result:") {
				t.Errorf("unpaired result changed: %q", msgs[11].TextContent())
			}
			// The newest call stays open.
			wantParts(t, msgs, 12, "text")
		}},
		{file: "cline-native.json", roles: "uatatua", model: "claude-opus-4-1", check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			wantParts(t, msgs, 1, "thinking text tool_call")
			if p := msgs[1].Parts[0]; p.Text != "Use list_files." || p.Signature != "" {
				t.Errorf("unsigned thinking = %+v", p)
			}
			for _, m := range msgs {
				for _, p := range m.Parts {
					if p.Type == condense.PartProvider {
						t.Errorf("Cline block fields made a provider part: %s", p.Raw)
					}
				}
			}
			if r := msgs[2].Parts[0]; !strings.HasPrefix(r.Content[0].Text, "[list_files for '.'] Result:") {
				t.Errorf("native result = %+v", r)
			}
			wantParts(t, msgs, 4, "tool_result tool_result")
			if a, b := msgs[4].Parts[0], msgs[4].Parts[1]; a.CallID != "toolu_02" || b.CallID != "toolu_03" || a.Content[0].Text != "package main" {
				t.Errorf("text results = %+v, %+v", a, b)
			}
			if !strings.HasPrefix(msgs[5].TextContent(), "<environment_details>") {
				t.Errorf("rest = %q", msgs[5].TextContent())
			}
		}},
		{file: "roo-condense.json", roles: "uatatauu", check: func(t *testing.T, tr *Transcript) {
			msgs := tr.Request.Messages
			cp := tr.Checkpoint
			if cp == nil || cp.FirstKept != 3 || !strings.HasPrefix(cp.Summary, "## Conversation Summary\nRenaming") || !strings.Contains(cp.Summary, "\n\n<system-reminder>") {
				t.Fatalf("checkpoint = %+v", cp)
			}
			if err := condense.Validate(tr.Rendered()); err != nil {
				t.Errorf("Rendered: %v", err)
			}
			wantParts(t, msgs, 1, "thinking tool_call")
			wantParts(t, msgs, 3, "thinking tool_call")
			if msgs[3].Parts[0].Text != "Edit a.go." {
				t.Errorf("reasoning_content = %q", msgs[3].Parts[0].Text)
			}
			wantParts(t, msgs, 5, "provider text")
			if p := msgs[5].Parts[0]; p.Provider != "openai" || !strings.Contains(string(p.Raw), "gAAAAB-enc") {
				t.Errorf("encrypted reasoning = %+v", p)
			}
			if !strings.HasPrefix(msgs[6].TextContent(), "[Sliding window truncation") {
				t.Errorf("truncation marker = %q", msgs[6].TextContent())
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			if f, err := Detect(data); f != FormatCline || err != nil {
				t.Fatalf("Detect = %q, %v", f, err)
			}
			tr := readSample(t, c.file, Options{})
			if err := condense.Validate(tr.Request.Messages); err != nil {
				t.Fatal(err)
			}
			if got := roles(tr.Request.Messages); got != c.roles {
				t.Errorf("roles = %s, want %s", got, c.roles)
			}
			if tr.Request.Model != c.model {
				t.Errorf("model = %q, want %q", tr.Request.Model, c.model)
			}
			if tr.Repaired != c.repaired || tr.Skipped != 0 || tr.Dropped != 0 {
				t.Errorf("repaired, skipped, dropped = %d, %d, %d", tr.Repaired, tr.Skipped, tr.Dropped)
			}
			c.check(t, tr)
		})
	}
}

func TestClineUIMessages(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "cline-ui-messages.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatAuto, FormatCline} {
		_, err := ReadBytes(data, Options{Format: f, Name: "ui_messages.json"})
		if err == nil || !strings.Contains(err.Error(), "read api_conversation_history.json") || !errors.Is(err, condense.ErrMalformed) {
			t.Errorf("format %s: error = %v", f, err)
		}
	}
}

func TestResultHeader(t *testing.T) {
	cases := []struct{ in, name, rest string }{
		{"[read_file for 'a.go'] Result:", "read_file", ""},
		{"[attempt_completion] Result:\ndone", "attempt_completion", "done"},
		{"[attempt_completion] Result: Done", "attempt_completion", "Done"},
		{"[switch_mode to 'code' because: x] Result:\nok", "switch_mode", "ok"},
		{"[read_file] Results:", "", ""},
		{"[x]] Result:", "", ""},
		{"read_file] Result:", "", ""},
	}
	for _, c := range cases {
		name, rest, ok := resultHeader(c.in)
		if name != c.name || rest != c.rest || ok != (c.name != "") {
			t.Errorf("resultHeader(%q) = %q, %q, %v", c.in, name, rest, ok)
		}
	}
}

func TestFindToolBlock(t *testing.T) {
	cases := []struct {
		text, name, input string
	}{
		{"<read_file>\n<path> a.go </path>\n</read_file>", "read_file", `{"path":"a.go"}`},
		{"x <list_files><path>.</path><recursive>true</recursive></list_files> y", "list_files", `{"path":".","recursive":"true"}`},
		{"<read_file><args><file><path>a&b</path></file></args></read_file>", "read_file", `{"args":"<file><path>a&b</path></file>"}`},
		{"<read_file>\n<path>a.go</path>", "read_file", ""},                                  // not closed
		{"<read_file>prose <path>a</path></read_file>", "read_file", ""},                     // text between params
		{"<read_file><path>a</path><path>b</path></read_file>", "read_file", `{"path":"b"}`}, // the last wins
		{"<attempt_completion></attempt_completion>", "attempt_completion", `{}`},
	}
	for _, c := range cases {
		budget := 512
		_, _, in, ok := findToolBlock(c.text, 0, c.name, &budget)
		if ok != (c.input != "") || string(in) != c.input {
			t.Errorf("findToolBlock(%q) = %s, %v; want %s", c.text, in, ok, c.input)
		}
	}
}

func TestDetectClineKeepsOtherArrays(t *testing.T) {
	for _, s := range []string{
		`[{"role":"user","content":"hi"},{"role":"assistant","content":"<task>x</task>"}]`,
		`[{"role":"user","content":[{"type":"text","text":"x"}]},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"b","input":{}}]}]`,
	} {
		if f, _ := Detect([]byte(s)); f == FormatCline {
			t.Errorf("Detect(%s) = cline", s)
		}
	}
}

func FuzzReadCline(f *testing.F) {
	for _, file := range []string{"cline-xml.json", "cline-native.json", "roo-condense.json", "cline-ui-messages.json"} {
		data, err := os.ReadFile(filepath.Join("testdata", file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`[{"role":"assistant","content":"<a><b>x</b></a><a></a>"},{"role":"user","content":[{"type":"text","text":"[a] Result:"},{"type":"text","text":"[a] Result:\nz"}]}]`))
	f.Add([]byte(`[{"role":"user","isSummary":true,"condenseId":"c","content":"s"},{"type":"reasoning","text":"t"}]`))
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatCline) })
}
