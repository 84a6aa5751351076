package openai

import (
	"strings"
	"testing"
)

const chatCheckValid = `{"model":"gpt-5","max_completion_tokens":100,
"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object"}}},{"type":"custom","custom":{"name":"patch"}}],
"messages":[
 {"role":"system","content":"Be brief."},
 {"role":"user","content":[{"type":"text","text":"Run ls."},{"type":"image_url","image_url":{"url":"data:image/png;base64,AA"}}]},
 {"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"bash","arguments":"{}"}},{"id":"c2","type":"function","function":{"name":"bash","arguments":""}}]},
 {"role":"tool","tool_call_id":"c2","content":"b"},
 {"role":"tool","tool_call_id":"c1","content":[{"type":"text","text":"a"}]},
 {"role":"developer","content":[{"type":"text","text":"note"}]},
 {"role":"assistant","content":[{"type":"text","text":"Done"},{"type":"refusal","refusal":"no"}]},
 {"role":"assistant","tool_calls":[{"id":"c3","type":"custom","custom":{"name":"patch","input":"x"}}]},
 {"role":"tool","tool_call_id":"c3","content":""}
]}`

func TestCheckChatRequestValid(t *testing.T) {
	for name, body := range map[string]string{
		"full":    chatCheckValid,
		"minimal": `{"messages":[{"role":"user","content":"hi"}]}`,
		"refusal": `{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":null,"refusal":"no"}]}`,
	} {
		if v := CheckChatRequest([]byte(body)); len(v) > 0 {
			t.Errorf("%s: %v", name, v)
		}
	}
}

// TestCheckChatRequestRules: one body per rule, each breaking it.
func TestCheckChatRequestRules(t *testing.T) {
	const tools = `"tools":[{"type":"function","function":{"name":"t"}}],`
	call := func(id string) string {
		return `{"role":"assistant","tool_calls":[{"id":"` + id + `","type":"function","function":{"name":"t","arguments":"{}"}}]}`
	}
	res := func(id string) string { return `{"role":"tool","tool_call_id":"` + id + `","content":"ok"}` }
	msgs := func(m ...string) string {
		return `{` + tools + `"messages":[{"role":"user","content":"go"},` + strings.Join(m, ",") + `]}`
	}
	for _, c := range []struct {
		rule, path, body string
	}{
		{"json", "", `"x"`},
		{"messages-present", "messages", `{"messages":[]}`},
		{"role", "messages[1].role", msgs(`{"role":"function","content":"x"}`)},
		{"content", "messages[0].content", `{"messages":[{"role":"user"}]}`},
		{"content", "messages[1].content", msgs(`{"role":"assistant"}`)},
		{"content", "messages[0].content[0]", `{"messages":[{"role":"system","content":[{"type":"image_url","image_url":{"url":"x"}}]}]}`},
		{"content", "messages[1].content[0]", msgs(`{"role":"assistant","content":[{"type":"image_url","image_url":{"url":"x"}}]}`)},
		{"content", "messages[0].content[0].text", `{"messages":[{"role":"user","content":[{"type":"text"}]}]}`},
		{"tool-calls-role", "messages[0].tool_calls", `{"messages":[{"role":"user","content":"x","tool_calls":[]}]}`},
		{"tool-call-id", "messages[1].tool_calls[0].id", msgs(`{"role":"assistant","tool_calls":[{"type":"function","function":{"name":"t","arguments":"{}"}}]}`)},
		{"tool-call-id", "messages[1].tool_calls[0].id", msgs(call("toolu_0123456789012345678901234567890123456789"), res("toolu_0123456789012345678901234567890123456789"))},
		{"tool-call-id-unique", "messages[3].tool_calls[0].id", msgs(call("a"), res("a"), call("a"), res("a"))},
		{"function-name", "messages[1].tool_calls[0].function.name", msgs(`{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"a.b","arguments":"{}"}}]}`, res("a"))},
		{"tool-call-arguments", "messages[1].tool_calls[0].function.arguments", msgs(`{"role":"assistant","tool_calls":[{"id":"a","type":"function","function":{"name":"t","arguments":{}}}]}`, res("a"))},
		{"tool-message-orphan", "messages[1].tool_call_id", msgs(res("a"))},
		{"tool-message-orphan", "messages[3].tool_call_id", msgs(call("a"), res("a"), res("a"))},
		{"tool-call-answered", "messages[1].tool_calls[0]", msgs(call("a"), `{"role":"user","content":"x"}`)},
		{"tool-call-answered", "messages[1].tool_calls[0]", msgs(call("a"))},
		{"tools-defined", "messages[1].tool_calls[0].function.name", `{"messages":[{"role":"user","content":"go"},` + call("a") + `,` + res("a") + `]}`},
		{"tool-definition", "tools[0].function.name", `{"tools":[{"type":"function","function":{"name":"a b"}}],"messages":[{"role":"user","content":"x"}]}`},
		{"tool-definition", "tools[1].function.name", `{"tools":[{"type":"function","function":{"name":"a"}},{"type":"function","function":{"name":"a"}}],"messages":[{"role":"user","content":"x"}]}`},
		{"max-tokens", "max_completion_tokens", `{"max_completion_tokens":-1,"messages":[{"role":"user","content":"x"}]}`},
	} {
		got := CheckChatRequest([]byte(c.body))
		if !onlyChatRule(got, c.rule, c.path) {
			t.Errorf("%s: got %v, want only %s, at %q", c.rule, got, c.rule, c.path)
		}
	}
}

// onlyChatRule reports whether vs holds rule at path and no other rule.
func onlyChatRule(vs []Violation, rule, path string) bool {
	at := false
	for _, v := range vs {
		if v.Rule != rule {
			return false
		}
		at = at || v.Path == path
	}
	return at
}

// FuzzCheckChatRequest: the checker never panics, and names every
// violation by one of its rules.
func FuzzCheckChatRequest(f *testing.F) {
	f.Add([]byte(chatCheckValid))
	f.Add([]byte(`{"messages":[{"role":"tool","tool_call_id":3},{"role":"assistant","tool_calls":[{"id":"","type":"x"}]}],"tools":[1]}`))
	rules := map[string]bool{}
	for _, r := range strings.Fields(`json messages-present role content tool-calls-role tool-call-id tool-call-id-unique function-name
		tool-call-arguments tool-message-orphan tool-call-answered tools-defined tool-definition max-tokens`) {
		rules[r] = true
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, v := range CheckChatRequest(body) {
			if !rules[v.Rule] {
				t.Fatalf("unknown rule %q", v.Rule)
			}
		}
	})
}
