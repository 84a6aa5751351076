package openai_test

import (
	"encoding/json"
	"os"
	"sync"
	"testing"

	sdk "github.com/openai/openai-go/v3"

	"github.com/condense-dev/condense/provider/openai"
	"github.com/condense-dev/condense/transcript"
)

var (
	benchOnce sync.Once
	benchData []byte
)

// benchBody is a realistic Chat Completions body of about 500 KB: the
// generated long coding session of package transcript (text, tool calls,
// tool outputs of code and logs) written as chat, cut to size.
func benchBody(b *testing.B) []byte {
	benchOnce.Do(func() {
		data, err := os.ReadFile("../../transcript/testdata/claude-code-large.jsonl")
		if err != nil {
			b.Fatal(err)
		}
		tr, err := transcript.ReadBytes(data, transcript.Options{})
		if err != nil {
			b.Fatal(err)
		}
		req := &openai.ChatRequest{Request: tr.Request}
		req.Extra.Set("temperature", json.RawMessage("0.2"))
		req.Extra.Set("tool_choice", json.RawMessage(`"auto"`))
		full, err := openai.EncodeChatRequest(req)
		if err != nil {
			b.Fatal(err)
		}
		n := len(req.Messages) * (500 << 10) / len(full)
		req.Messages = req.Messages[:n]
		if benchData, err = openai.EncodeChatRequest(req); err != nil {
			b.Fatal(err)
		}
	})
	if benchData == nil {
		b.Fatal("no benchmark body")
	}
	return benchData
}

func BenchmarkDecodeChatRequest(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openai.DecodeChatRequest(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodeChatRequest(b *testing.B) {
	body := benchBody(b)
	r, err := openai.DecodeChatRequest(body)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := openai.EncodeChatRequest(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeEncodeChatRequest is what a proxy pays to read a body,
// and write it back.
func BenchmarkDecodeEncodeChatRequest(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		r, err := openai.DecodeChatRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := openai.EncodeChatRequest(r); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSDKUnmarshalChatParams reads the same body into the SDK's
// parameter types, for comparison.
func BenchmarkSDKUnmarshalChatParams(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var p sdk.ChatCompletionNewParams
		if err := json.Unmarshal(body, &p); err != nil {
			b.Fatal(err)
		}
	}
}
