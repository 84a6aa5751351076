package proxy

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	openaisdk "github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense"
)

var reRef = regexp.MustCompile(`recall (r\d+-[0-9a-f]{8})|covers=\\"(\d+-\d+)\\"`)

// recallUpstream answers the first call of each request with a call of the
// recall tool for the first reference in the body, and the second with
// "done" after checking the recalled content came back.
func recallUpstream(t *testing.T, h *harness, api string) {
	h.up.answer(func(w http.ResponseWriter, r *http.Request) {
		b := h.up.body(-1)
		w.Header().Set("Content-Type", "application/json")
		if !strings.Contains(string(b), `"`+RecallToolName+`"`) {
			t.Errorf("the request upstream lacks the recall tool")
		}
		if !strings.Contains(string(b), "call_recall_1") {
			if strings.Contains(string(b), `step 0 line 1: internal/parse/file1.go:3`) {
				t.Errorf("the compacted request still holds the content to recall")
			}
			m := reRef.FindStringSubmatch(string(b))
			if m == nil {
				t.Errorf("no recall reference in %s", b)
				return
			}
			ref := m[1] + m[2]
			args := fmt.Sprintf(`{\"ref\":\"%s\"}`, ref)
			switch api {
			case "chat":
				fmt.Fprintf(w, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_recall_1","type":"function","function":{"name":"condense_recall","arguments":"%s"}}]},"finish_reason":"tool_calls"}]}`, args)
			case "responses":
				fmt.Fprintf(w, `{"id":"resp_1","object":"response","created_at":1,"status":"completed","model":"gpt-4o","output":[{"type":"function_call","id":"fc_1","call_id":"call_recall_1","name":"condense_recall","arguments":"%s","status":"completed"}]}`, args)
			default:
				fmt.Fprintf(w, `{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"call_recall_1","name":"condense_recall","input":{"ref":"%s"}}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, ref)
			}
			return
		}
		// The continuation: the recall call, then its result holding the
		// original tool output.
		if !strings.Contains(string(b), `step 0 line 1: internal/parse/file1.go:3`) {
			t.Errorf("the recalled content did not reach the model")
		}
		io.WriteString(w, cannedReply(r.URL.Path))
	})
}

// With recall on, the model can ask for what compaction hid: the proxy
// answers its recall call from the history and continues upstream, and the
// client sees only the final answer and the count of extra calls.
func TestRecall(t *testing.T) {
	for _, tc := range apiCases {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{Settings: smallWindow, Recall: true})
			recallUpstream(t, h, tc.name)
			resp := h.post(t, tc.path, []byte(body(t, tc.head, tc.array, tc.history(12, 4000))))
			got, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || strings.Contains(string(got), RecallToolName) {
				t.Fatalf("status %d: %s", resp.StatusCode, got)
			}
			if n := resp.Header.Get(HeaderRecallCalls); n != "1" || h.up.calls() != 2 {
				t.Errorf("%s = %q, upstream calls %d; want 1 and 2", HeaderRecallCalls, n, h.up.calls())
			}
			// The continuation is valid history in the API's format.
			msgs, err := tc.decode(h.up.body(1))
			if err != nil {
				t.Fatal(err)
			}
			if err := condense.Validate(msgs); err != nil {
				t.Errorf("continuation breaks turn safety: %v", err)
			}
		})
	}
}

// The official client never sees the tool; a request under the threshold
// gets no tool at all, and a streaming one is relayed as it is.
func TestRecallWithGoClient(t *testing.T) {
	h := newHarness(t, Options{Settings: smallWindow, Recall: true})
	recallUpstream(t, h, "chat")
	var hr *http.Response
	oc := openaiClient(h)
	comp, err := oc.Chat.Completions.New(context.Background(), openaisdk.ChatCompletionNewParams{},
		ooption.WithRequestBody("application/json", body(t, `{"model":"gpt-4o"}`, "messages", chatHistory(12, 4000))),
		ooption.WithResponseInto(&hr))
	if err != nil {
		t.Fatal(err)
	}
	if comp.Choices[0].Message.Content != "done" || len(comp.Choices[0].Message.ToolCalls) != 0 || hr.Header.Get(HeaderRecallCalls) != "1" {
		t.Errorf("answer %+v, headers %v", comp.Choices[0].Message, hr.Header)
	}

	h2 := newHarness(t, Options{Settings: smallWindow, Recall: true})
	in := body(t, `{"model":"gpt-4o"}`, "messages", chatHistory(2, 300))
	h2.post(t, "/v1/chat/completions", in)
	if gjson.GetBytes(h2.up.body(0), "tools").Exists() {
		t.Errorf("a request under the threshold got the recall tool")
	}
}
