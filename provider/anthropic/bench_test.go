package anthropic

import (
	"encoding/json"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// benchBody is a realistic request body of about 500 KB: a long Claude Code
// session (whole files as tool output, thinking, parallel tool calls).
func benchBody(b *testing.B) []byte { return largeBody(b, 580_000) }

// The codec on benchBody:
//
//	go test -run '^$' -bench Codec -benchmem ./provider/anthropic
func BenchmarkCodecDecode(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DecodeRequest(body); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCodecEncode(b *testing.B) {
	body := benchBody(b)
	req, err := DecodeRequest(body)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := EncodeRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCodecRoundTrip(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		req, err := DecodeRequest(body)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := EncodeRequest(req); err != nil {
			b.Fatal(err)
		}
	}
}

// For comparison: the same body decoded into the SDK's parameter types with
// encoding/json, which also drops the members the SDK does not know.
func BenchmarkCodecSDKParamsDecode(b *testing.B) {
	body := benchBody(b)
	b.SetBytes(int64(len(body)))
	b.ReportAllocs()
	for b.Loop() {
		var p sdk.MessageNewParams
		if err := json.Unmarshal(body, &p); err != nil {
			b.Fatal(err)
		}
	}
}
