package anthropic

import (
	"errors"
	"reflect"
	"testing"

	"github.com/condense-dev/condense"
)

// FuzzDecodeRequest: decoding never panics; it fails with a *DecodeError
// wrapping condense.ErrMalformed, or the request it returns encodes, and the
// encoded body decodes to the same request.
func FuzzDecodeRequest(f *testing.F) {
	for _, seed := range []string{
		`{"model":"m","max_tokens":10,"system":"s","messages":[{"role":"user","content":"hi"}]}`,
		`{"system":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}}],"thinking":{"type":"enabled","budget_tokens":5},"tools":[{"name":"t","input_schema":{}},{"type":"web_search_20250305","name":"w"}],"messages":[]}`,
		`{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"},{"type":"redacted_thinking","data":"d"},{"type":"tool_use","id":"a","name":"b","input":null,"caller":{}}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":"x","is_error":false},{"type":"text","text":"y","cache_control":{}}]},{"role":"user","content":"z"}]}`,
		`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"a","content":[{"type":"image","source":{"type":"url","url":"u"}},{"type":"search_result","x":1}]}]}]}`,
		`{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"aGk="}},{"type":"text","text":"\u00e9\ud800","citations":null}]}],"stream":true,"x":[1,2]}`,
		`{"messages":[{"role":"assistant","content":"a"},{"role":"user","content":""},{"role":"assistant","content":[{"type":"compaction","content":"c"}]}]}`,
		`{"messages":[{"role":"user","content":"a","id":"u1"},{"role":"user","content":[{"type":"text","text":"b"},{"type":"tool_result","tool_use_id":"t"}],"x":{}},{"id":2,"content":"c","role":"assistant","usage":{"input_tokens":1}},{"role":"assistant","content":[]}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := DecodeRequest(data)
		if err != nil {
			var de *DecodeError
			if !errors.As(err, &de) || !errors.Is(err, condense.ErrMalformed) {
				t.Fatalf("error %v is not a *DecodeError wrapping ErrMalformed", err)
			}
			return
		}
		out, err := EncodeRequest(req)
		if err != nil {
			t.Fatalf("encode: %v", err)
		}
		again, err := DecodeRequest(out)
		if err != nil {
			t.Fatalf("re-decode: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(req, again) {
			t.Fatalf("re-decoded request differs:\n%s\n%#v\n%#v", out, req, again)
		}
	})
}
