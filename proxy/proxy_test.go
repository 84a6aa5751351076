package proxy

import (
	"bytes"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
)

// apiCase is one compacted endpoint with its history shape.
type apiCase struct {
	name    string
	path    string
	array   string
	head    string
	history func(steps, outChars int) []map[string]any
	// decode reads an upstream body back into messages, to check turn
	// safety.
	decode func([]byte) ([]condense.Message, error)
}

var apiCases = []apiCase{
	{name: "chat", path: "/v1/chat/completions", array: "messages",
		head:    `{"model":"gpt-4o","temperature":0.2,"x_unknown":{"keep":[1,2,3]},"stream_options":null}`,
		history: chatHistory,
		decode: func(b []byte) ([]condense.Message, error) {
			r, err := openai.DecodeChatRequest(b)
			if err != nil {
				return nil, err
			}
			return r.Messages, nil
		}},
	{name: "responses", path: "/v1/responses", array: "input",
		head:    `{"model":"gpt-4o","instructions":"You are a coding agent.","store":false,"include":["reasoning.encrypted_content"],"x_unknown":true}`,
		history: responsesHistory,
		decode: func(b []byte) ([]condense.Message, error) {
			r, err := openai.DecodeResponsesRequest(b)
			if err != nil {
				return nil, err
			}
			return r.Messages, nil
		}},
	{name: "messages", path: "/v1/messages", array: "messages",
		head:    `{"model":"claude-sonnet-4-5","max_tokens":1000,"system":[{"type":"text","text":"You are a coding agent.","cache_control":{"type":"ephemeral"}}],"metadata":{"user_id":"u1"},"x_unknown":"kept"}`,
		history: anthropicHistory,
		decode: func(b []byte) ([]condense.Message, error) {
			r, err := anthropic.DecodeRequest(b)
			if err != nil {
				return nil, err
			}
			return r.Messages, nil
		}},
}

// A request under the threshold reaches the upstream byte for byte, and
// the answer says nothing was compacted.
func TestUnderThresholdByteIdentical(t *testing.T) {
	for _, tc := range apiCases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Settings: smallWindow})
			in := body(t, tc.head, tc.array, tc.history(2, 400))
			// Odd spacing the proxy must not normalize.
			in = bytes.Replace(in, []byte(`,"`), []byte(`, "`), 3)
			resp := h.post(t, tc.path, in)
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("status %d: %s", resp.StatusCode, b)
			}
			if got := h.up.body(0); !bytes.Equal(got, in) {
				t.Fatalf("upstream got a different body:\n got %s\nwant %s", got, in)
			}
			if resp.Header.Get(HeaderCompacted) != "false" {
				t.Errorf("%s = %q, want false", HeaderCompacted, resp.Header.Get(HeaderCompacted))
			}
			before, _ := strconv.Atoi(resp.Header.Get(HeaderTokensBefore))
			after, _ := strconv.Atoi(resp.Header.Get(HeaderTokensAfter))
			if before <= 0 || before != after {
				t.Errorf("tokens before %d after %d, want equal and positive", before, after)
			}
		})
	}
}

// A request over the threshold is compacted: smaller, turn-safe, with the
// members the proxy does not model and the newest step byte for byte.
func TestOverThresholdCompacts(t *testing.T) {
	for _, tc := range apiCases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Settings: smallWindow})
			in := body(t, tc.head, tc.array, tc.history(12, 4000))
			resp := h.post(t, tc.path, in)
			if resp.StatusCode != 200 {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("status %d: %s", resp.StatusCode, b)
			}
			got := h.up.body(0)
			if len(got) >= len(in) {
				t.Fatalf("upstream body is %d bytes, sent %d: not compacted", len(got), len(in))
			}
			if resp.Header.Get(HeaderCompacted) != "true" {
				t.Errorf("%s = %q, want true", HeaderCompacted, resp.Header.Get(HeaderCompacted))
			}
			before, _ := strconv.Atoi(resp.Header.Get(HeaderTokensBefore))
			after, _ := strconv.Atoi(resp.Header.Get(HeaderTokensAfter))
			if after >= before || after > smallWindow.Window {
				t.Errorf("tokens before %d after %d", before, after)
			}
			// Everything outside the history array is as sent.
			if gs, ws := outside(got, tc.array), outside(in, tc.array); gs != ws {
				t.Errorf("body outside the history changed:\n got %s\nwant %s", gs, ws)
			}
			msgs, err := tc.decode(got)
			if err != nil {
				t.Fatalf("upstream body does not decode: %v", err)
			}
			if err := condense.Validate(msgs); err != nil {
				t.Errorf("upstream history breaks turn safety: %v", err)
			}
			// The task and the newest step are the client's bytes.
			ge, we := elements(got, tc.array), elements(in, tc.array)
			if ge[0] != we[0] {
				t.Errorf("first element changed: %s", ge[0])
			}
			if g, w := ge[len(ge)-2:], we[len(we)-2:]; g[0] != w[0] || g[1] != w[1] {
				t.Errorf("newest step changed:\n got %s\nwant %s", g, w)
			}
			if !strings.Contains(h.logs.String(), `"msg":"condense proxy: compacted"`) {
				t.Errorf("no compaction log line: %s", h.logs.String())
			}
		})
	}
}

// outside returns body without the value of its member name.
func outside(body []byte, name string) string {
	pb, err := splitBody(body, &wireAPI{array: name})
	if err != nil {
		return err.Error()
	}
	return string(pb.body[:pb.start]) + string(pb.body[pb.end:])
}
