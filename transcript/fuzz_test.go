package transcript

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"testing/iotest"

	"github.com/condense-dev/condense"
)

// seeds adds the samples of format f (all small samples when f is auto) and
// a few hand-made records to the corpus.
func seeds(f *testing.F, format Format, extra ...string) {
	f.Helper()
	for _, c := range sampleCases {
		if format != FormatAuto && c.format != format {
			continue
		}
		data, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	for _, e := range extra {
		f.Add([]byte(e))
	}
}

// checkRead is the fuzz property: Read never panics, and either fails with
// an error wrapping condense.ErrMalformed or returns messages that pass
// condense.Validate (and that every writer can write).
func checkRead(t *testing.T, data []byte, format Format) {
	for _, lenient := range []bool{false, true} {
		tr, err := ReadBytes(data, Options{Format: format, Lenient: lenient, Name: "fuzz"})
		// Streaming (Read, fed in small pieces) reads exactly the same.
		str, serr := Read(iotest.HalfReader(bytes.NewReader(data)), Options{Format: format, Lenient: lenient, Name: "fuzz"})
		if (err == nil) != (serr == nil) || err != nil && err.Error() != serr.Error() {
			t.Fatalf("lenient=%v: ReadBytes error %v, Read error %v", lenient, err, serr)
		}
		if err == nil && !reflect.DeepEqual(tr, str) {
			t.Fatalf("lenient=%v: Read's transcript differs from ReadBytes's", lenient)
		}
		if err != nil {
			if !errors.Is(err, condense.ErrMalformed) {
				t.Fatalf("lenient=%v: error does not wrap ErrMalformed: %v", lenient, err)
			}
			var re *ReadError
			if !errors.As(err, &re) {
				t.Fatalf("lenient=%v: error is not a *ReadError: %v", lenient, err)
			}
			continue
		}
		if err := condense.Validate(tr.Request.Messages); err != nil {
			t.Fatalf("lenient=%v: %v", lenient, err)
		}
		if cp := tr.Checkpoint; cp != nil && (cp.FirstKept < 0 || cp.FirstKept > len(tr.Request.Messages)) {
			t.Fatalf("checkpoint first kept %d of %d messages", cp.FirstKept, len(tr.Request.Messages))
		}
		if tr.Checkpoint != nil {
			if err := condense.Validate(tr.Rendered()); err != nil {
				t.Fatalf("Rendered: %v", err)
			}
		}
		for _, wf := range WriteFormats {
			var buf bytes.Buffer
			if err := Write(&buf, wf, tr.Request); err != nil {
				// Tool inputs and provider blocks are carried as given; only
				// a reader that accepted invalid JSON would make this fail.
				t.Fatalf("Write %s: %v", wf, err)
			}
		}
	}
}

func FuzzReadClaudeCode(f *testing.F) {
	seeds(f, FormatClaudeCode,
		`{"type":"user","uuid":"a","parentUuid":"b","message":{"role":"user","content":"x"}}`+"\n"+`{"type":"user","uuid":"b","parentUuid":"a","message":{"role":"user","content":"y"}}`,
		`{"type":"system","subtype":"compact_boundary","uuid":"c","parentUuid":null,"logicalParentUuid":"c","content":"Conversation compacted"}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatClaudeCode) })
}

func FuzzReadCodex(f *testing.F) {
	seeds(f, FormatCodex, `{"type":"compacted","payload":{"message":"s"}}`+"\n"+`{"type":"response_item","payload":{"type":"function_call_output","call_id":"x","output":[]}}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatCodex) })
}

func FuzzReadGeminiCLI(f *testing.F) {
	seeds(f, FormatGeminiCLI,
		`{"type":"init","timestamp":"t","session_id":"s","model":"m"}`+"\n"+`{"type":"message","role":"user","content":"x"}`+"\n"+`{"type":"message","role":"assistant","content":"a","delta":true}`+"\n"+`{"type":"tool_use","tool_name":"f","tool_id":"1","parameters":{}}`+"\n"+`{"type":"tool_result","tool_id":"1","status":"error","error":{"message":"e"}}`,
		`{"sessionId":"s","projectHash":"h","messages":[{"id":"u","type":"user","content":[{"text":"x"}]},{"id":"g","type":"gemini","content":"y","thoughts":[{"subject":"s","description":"d"}],"toolCalls":[{"id":"c","name":"n","args":{},"result":[{"functionResponse":{"id":"c","name":"n","response":{"output":"o"}}}]},{"id":"d","name":"n","args":{},"result":"r"}]}]}`,
		`{"sessionId":"s","projectHash":"h"}`+"\n"+`{"id":"a","type":"user","content":"x"}`+"\n"+`{"$rewindTo":"a"}`+"\n"+`{"$set":{"messages":[{"id":"g","type":"gemini","content":[{"text":"t","thought":true},{"functionCall":{"name":"n"}}]}]}}`,
		`{"history":[{"role":"user","parts":[{"text":"x"},{"inlineData":{"mimeType":"image/png","data":"AA=="}}]},{"role":"model","parts":[{"functionCall":{"name":"n","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"name":"n","response":{"error":"e"}}},{"fileData":{"fileUri":"u"}}]}]}`,
		`[{"role":"user","parts":[{"text":"x"}]},{"role":"model","parts":[{"functionResponse":{"id":"q","response":null}}]}]`,
		`{"contents":[{"role":"user","parts":[{"text":"x"}]}],"systemInstruction":{"parts":[{"text":"s"}]},"tools":[{"functionDeclarations":[{"name":"f","parameters":{}}]}]}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatGeminiCLI) })
}

func FuzzReadOpenAI(f *testing.F) {
	seeds(f, FormatOpenAI, `[{"role":"assistant","tool_calls":[{"id":"a","function":{"name":"f","arguments":""}}]},{"role":"tool","tool_call_id":"a","content":null}]`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatOpenAI) })
}

func FuzzReadAnthropic(f *testing.F) {
	seeds(f, FormatAnthropic, `{"messages":[{"role":"assistant","content":[{"type":"thinking","thinking":"t","signature":"s"}]},{"role":"assistant","content":[{"type":"tool_use","id":"a","name":"b","input":null}]}]}`,
		`{"tools":[{"name":"a"},{},{"name":"a"}],"messages":[{"role":"user","content":"x","id":"u1"},{"id":"m","role":"assistant","content":[{"type":"tool_use","id":"a","name":"b","input":{}}],"usage":{}}]}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatAnthropic) })
}

func FuzzReadMiniSWEAgent(f *testing.F) {
	seeds(f, FormatMiniSWEAgent,
		`[{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"bash","arguments":"{}"}}],"thinking_blocks":[{"type":"thinking","thinking":"t","signature":"s"}]},{"role":"exit","content":[{"type":"input_text","text":"x"}],"extra":{"exit_status":"Submitted"}}]`,
		`{"trajectory_format":"mini-swe-agent-1.1","messages":[{"object":"response","output":[{"type":"function_call","call_id":"c","name":"bash","arguments":"{}"}]},{"type":"function_call_output","call_id":"c","output":"o"}]}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatMiniSWEAgent) })
}

func FuzzReadSWEAgent(f *testing.F) {
	seeds(f, FormatSWEAgent, `{"history":[{"role":"tool","content":"x","tool_call_ids":["a","a"]}],"info":{}}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatSWEAgent) })
}

func FuzzReadOpenHands(f *testing.F) {
	seeds(f, FormatOpenHands,
		`{"id":"a","source":"agent","kind":"ActionEvent","tool_name":"t","tool_call_id":"c","llm_response_id":"r"}`+"\n"+`{"id":"b","source":"agent","kind":"ActionEvent","tool_name":"t","tool_call_id":"c","llm_response_id":"r"}`+"\n"+`{"id":"k","source":"environment","kind":"Condensation","forgotten_event_ids":["a"],"summary":"s"}`,
		`[{"id":1,"source":"user","action":"message","args":{"content":"x"}},{"id":2,"source":"agent","action":"run","args":{}},{"id":3,"action":"condensation","source":"agent","args":{"forgotten_events_start_id":1,"forgotten_events_end_id":2,"summary":"s"}},{"id":4,"source":"agent","observation":"run","cause":2,"content":"y"}]`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatOpenHands) })
}

func FuzzReadCondense(f *testing.F) {
	seeds(f, FormatCondense)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatCondense) })
}

// FuzzReadAuto runs detection and whichever reader it picks.
func FuzzReadAuto(f *testing.F) {
	seeds(f, FormatAuto, `{"messages":[],"info":{}}`, `[]`, `{"version":1}`)
	f.Fuzz(func(t *testing.T, data []byte) { checkRead(t, data, FormatAuto) })
}
