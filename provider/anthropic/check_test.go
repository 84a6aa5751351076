package anthropic

import (
	"strings"
	"testing"
)

// A valid body: tool use answered, results first, a defined tool, signed
// thinking, and a prefill without trailing whitespace.
const checkValid = `{"model":"claude-sonnet-4-5","max_tokens":2048,"system":"Be brief.",
"thinking":{"type":"enabled","budget_tokens":1024},
"tools":[{"name":"bash","input_schema":{"type":"object"}},{"type":"web_search_20250305","name":"web_search"}],
"messages":[
 {"role":"user","content":"Run ls."},
 {"role":"assistant","content":[{"type":"thinking","thinking":"ls it","signature":"c2ln"},{"type":"text","text":"Listing."},{"type":"tool_use","id":"toolu_01","name":"bash","input":{"command":"ls"}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01","content":"a.go"},{"type":"text","text":"Now read it."}]},
 {"role":"assistant","content":[{"type":"tool_use","id":"toolu_02","name":"bash","input":{}}]},
 {"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_02","content":[{"type":"text","text":"package a"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}],"is_error":true}]},
 {"role":"user","content":"And then?"},
 {"role":"assistant","content":"The file"}
]}`

func TestCheckRequestValid(t *testing.T) {
	for name, body := range map[string]string{
		"full":          checkValid,
		"minimal":       `{"max_tokens":1,"messages":[{"role":"user","content":"hi"}]}`,
		"empty prefill": `{"max_tokens":1,"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":[]}]}`,
		"merged turns": `{"max_tokens":1,"tools":[{"name":"t","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"a"},
			{"role":"assistant","content":[{"type":"tool_use","id":"x","name":"t","input":{}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"x"}]},{"role":"user","content":"b"}]}`,
	} {
		if v := CheckRequest([]byte(body)); len(v) > 0 {
			t.Errorf("%s: %v", name, v)
		}
	}
}

// TestCheckRequestRules: one body per rule, each breaking it once.
func TestCheckRequestRules(t *testing.T) {
	const tools = `"tools":[{"name":"t","input_schema":{"type":"object"}}],`
	use := func(id string) string {
		return `{"role":"assistant","content":[{"type":"tool_use","id":"` + id + `","name":"t","input":{}}]}`
	}
	res := func(id string) string {
		return `{"role":"user","content":[{"type":"tool_result","tool_use_id":"` + id + `","content":"ok"}]}`
	}
	msgs := func(m ...string) string {
		return `{"max_tokens":8,` + tools + `"messages":[{"role":"user","content":"go"},` + strings.Join(m, ",") + `]}`
	}
	for _, c := range []struct {
		rule, path, body string
	}{
		{"json", "", `[1]`},
		{"max-tokens", "max_tokens", `{"messages":[{"role":"user","content":"hi"}]}`},
		{"max-tokens", "max_tokens", `{"max_tokens":0,"messages":[{"role":"user","content":"hi"}]}`},
		{"messages-present", "messages", `{"max_tokens":8,"messages":[]}`},
		{"role", "messages[1].role", msgs(`{"role":"system","content":"x"}`)},
		{"first-message-user", "messages[0].role", `{"max_tokens":8,"messages":[{"role":"assistant","content":"hi"}]}`},
		{"content-empty", "messages[1].content", msgs(`{"role":"assistant","content":[]}`, `{"role":"user","content":"x"}`)},
		{"content-empty", "messages[0].content", `{"max_tokens":8,"messages":[{"role":"user","content":""}]}`},
		{"text-empty", "messages[1].content[0].text", msgs(`{"role":"assistant","content":[{"type":"text","text":" \n"}]}`, `{"role":"user","content":"x"}`)},
		{"text-empty", "messages[0].content", `{"max_tokens":8,"messages":[{"role":"user","content":"  "}]}`},
		{"block-role", "messages[1].content[0].type", msgs(`{"role":"assistant","content":[{"type":"tool_result","tool_use_id":"a"}]}`, `{"role":"user","content":"x"}`)},
		{"tool-use-id", "messages[1].content[0].id", msgs(use("a~1"), res("a~1"))},
		{"tool-use-id-unique", "messages[3].content[0].id", msgs(use("a"), res("a"), use("a"), res("a"))},
		{"tool-use-block", "messages[1].content[0].input", msgs(`{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"t","input":"x"}]}`, res("a"))},
		{"tool-use-answered", "messages[1].content[0]", msgs(use("a"), `{"role":"user","content":"x"}`)},
		{"tool-use-answered", "messages[1].content[0]", msgs(use("a"))},
		{"tool-result-orphan", "messages[0].content[0].tool_use_id", `{"max_tokens":8,"messages":[` + res("zz") + `]}`},
		{"tool-result-first", "messages[2].content[1]", msgs(use("a"), `{"role":"user","content":[{"type":"text","text":"x"},{"type":"tool_result","tool_use_id":"a"}]}`)},
		{"tools-defined", "messages[1].content[0].name", `{"max_tokens":8,"messages":[{"role":"user","content":"go"},` + use("a") + `,` + res("a") + `]}`},
		{"tool-definition", "tools[0].input_schema", `{"max_tokens":8,"tools":[{"name":"t"}],"messages":[{"role":"user","content":"go"}]}`},
		{"tool-definition", "tools[0].name", `{"max_tokens":8,"tools":[{"name":"a.b","input_schema":{"type":"object"}}],"messages":[{"role":"user","content":"go"}]}`},
		{"thinking-block", "messages[1].content[0].signature", msgs(`{"role":"assistant","content":[{"type":"thinking","thinking":"hm"},{"type":"text","text":"x"}]}`)},
		{"thinking-budget", "thinking.budget_tokens", `{"max_tokens":2000,"thinking":{"type":"enabled","budget_tokens":2000},"messages":[{"role":"user","content":"go"}]}`},
		{"thinking-budget", "thinking.budget_tokens", `{"max_tokens":8000,"thinking":{"type":"enabled","budget_tokens":100},"messages":[{"role":"user","content":"go"}]}`},
		{"thinking-loop", "messages[1].content[0]", `{"max_tokens":4000,"thinking":{"type":"enabled","budget_tokens":1024},` + tools + `"messages":[{"role":"user","content":"go"},` + use("a") + `,` + res("a") + `]}`},
		{"image-source", "messages[0].content[0].source.media_type", `{"max_tokens":8,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/bmp","data":"AA"}}]}]}`},
		{"prefill-whitespace", "messages[1].content[0].text", msgs(`{"role":"assistant","content":[{"type":"text","text":"so \n"}]}`)},
		{"system", "system", `{"max_tokens":8,"system":3,"messages":[{"role":"user","content":"go"}]}`},
	} {
		got := CheckRequest([]byte(c.body))
		if !onlyRule(got, c.rule, c.path) {
			t.Errorf("%s: got %v, want only %s, at %q", c.rule, got, c.rule, c.path)
		}
	}
}

func TestValidToolUseID(t *testing.T) {
	for id, want := range map[string]bool{"toolu_01A": true, "call-1_x": true, "": false, "a~1": false, "a.b": false, "é": false} {
		if ValidToolUseID(id) != want {
			t.Errorf("ValidToolUseID(%q) = %v", id, !want)
		}
	}
}

// onlyRule reports whether vs holds rule at path and no other rule.
func onlyRule(vs []Violation, rule, path string) bool {
	at := false
	for _, v := range vs {
		if v.Rule != rule {
			return false
		}
		at = at || v.Path == path
	}
	return at
}

func TestCheckBlock(t *testing.T) {
	for _, c := range []struct {
		raw, role, want string
	}{
		{`{"type":"compaction","content":"x"}`, "assistant", ""},
		{`{"type":"text","text":"hi"}`, "user", ""},
		{`{"type":"thinking","thinking":"t"}`, "assistant", "thinking-block .signature"},
		{`{"type":"thinking","thinking":"t","signature":"s"}`, "user", "block-role .type"},
		{`{"type":"text","text":" "}`, "user", "text-empty .text"},
		{`3`, "user", "block-role "},
	} {
		var got []string
		for _, v := range CheckBlock([]byte(c.raw), c.role) {
			got = append(got, v.Rule+" "+v.Path)
		}
		if strings.Join(got, ";") != c.want {
			t.Errorf("%s in %s: got %q, want %q", c.raw, c.role, got, c.want)
		}
	}
}

// FuzzCheckRequest: the checker never panics, and names every violation
// by one of its rules.
func FuzzCheckRequest(f *testing.F) {
	f.Add([]byte(checkValid))
	f.Add([]byte(`{"max_tokens":1,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"a~1","name":"","input":3}]}]}`))
	rules := map[string]bool{}
	for _, r := range strings.Fields(`json max-tokens messages-present role first-message-user content-empty text-empty block-role
		tool-use-id tool-use-id-unique tool-use-block tool-use-answered tool-result-orphan tool-result-first tools-defined
		tool-definition thinking-block thinking-budget thinking-loop image-source prefill-whitespace system`) {
		rules[r] = true
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, v := range CheckRequest(body) {
			if !rules[v.Rule] {
				t.Fatalf("unknown rule %q", v.Rule)
			}
		}
	})
}
