package proxy

import (
	"io"
	"strings"
	"testing"

	"github.com/tidwall/gjson"
)

func TestWithoutMarkers(t *testing.T) {
	for in, want := range map[string]string{
		`{"type":"text","text":"x"}`:                                                                                             `{"type":"text","text":"x"}`,
		`{"type":"text","text":"x","cache_control":{"type":"ephemeral"}}`:                                                        `{"type":"text","text":"x"}`,
		`{"cache_control":{"type":"ephemeral"}, "type":"text"}`:                                                                  `{"type":"text"}`,
		`{"cache_control" : {"type":"ephemeral","ttl":"1h"}}`:                                                                    `{}`,
		`[{"a":1,"cache_control":{}},{"b":"\"cache_control\": no"}]`:                                                             `[{"a":1},{"b":"\"cache_control\": no"}]`,
		`{"text":"say \"cache_control\":{} here","cache_control":{"t":"e"}}`:                                                     `{"text":"say \"cache_control\":{} here"}`,
		`{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"type":"text","text":"b"}]}`: `{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}`,
	} {
		if got := string(withoutMarkers([]byte(in))); got != want {
			t.Errorf("withoutMarkers(%s)\n got %s\nwant %s", in, got, want)
		}
	}
}

// Agents move their cache breakpoints to the newest message on every
// call. The proxy still recognises the conversation and keeps its
// checkpoint, the upstream history still grows only at its end (markers
// aside), and no request holds more markers than the client sent.
func TestMovingCacheMarkers(t *testing.T) {
	h := newHarness(t, Options{Settings: smallWindow})
	history := anthropicHistory(4, 3000)
	head := `{"model":"claude-sonnet-4-5","max_tokens":1000}`
	var prev []string
	kept, compactions := 0, 0
	for call := range 10 {
		history = append(history, anthropicStep(4+call, 3000)...)
		// The marker goes on the newest message only.
		for i, m := range history {
			if blocks, ok := m["content"].([]any); ok {
				b := blocks[len(blocks)-1].(map[string]any)
				if i == len(history)-1 {
					b["cache_control"] = map[string]any{"type": "ephemeral"}
				} else {
					delete(b, "cache_control")
				}
			}
		}
		in := body(t, head, "messages", history)
		logsBefore := strings.Count(h.logs.String(), "condense proxy: compacted")
		resp := h.post(t, "/v1/messages", in)
		if resp.StatusCode != 200 {
			b, _ := io.ReadAll(resp.Body)
			t.Fatalf("call %d: %d %s", call, resp.StatusCode, b)
		}
		if strings.Count(h.logs.String(), "condense proxy: compacted") > logsBefore {
			compactions++
		}
		got := h.up.body(-1)
		if n := strings.Count(string(got), `"cache_control"`); n != 1 {
			t.Errorf("call %d: %d markers upstream, the client sent 1", call, n)
		}
		if !gjson.GetBytes(got, "messages.@reverse.0.content.0.cache_control").Exists() {
			t.Errorf("call %d: the newest message lost its marker", call)
		}
		var cur []string
		for _, e := range elements(got, "messages") {
			cur = append(cur, string(withoutMarkers([]byte(e))))
		}
		if call > 0 && isPrefix(prev, cur) {
			kept++
		}
		prev = cur
	}
	t.Logf("%d compactions, %d of 9 calls kept the prefix", compactions, kept)
	// As many compactions as the same conversation without moving markers
	// makes (TestCheckpointReuseAcrossCalls): two.
	if compactions == 0 || compactions > 2 || kept != 9-compactions {
		t.Errorf("%d compactions, %d of 9 calls kept the previous history as their prefix; want all but the compacting ones", compactions, kept)
	}
	if h.p.Conversations() != 1 {
		t.Errorf("%d conversations, want 1", h.p.Conversations())
	}
}
