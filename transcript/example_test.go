package transcript_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/condense-dev/condense/transcript"
)

func ExampleRead() {
	session := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"Run the tests."}}
{"type":"assistant","uuid":"u2","parentUuid":"u1","sessionId":"s","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"go test ./..."}}]}}
{"type":"user","uuid":"u3","parentUuid":"u2","sessionId":"s","message":{"role":"user","content":"Never mind, stop."}}
`
	tr, err := transcript.Read(strings.NewReader(session), transcript.Options{Name: "session.jsonl"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(tr.Format, tr.Request.Model, len(tr.Request.Messages), "messages,", tr.Repaired, "repaired")
	for _, m := range tr.Request.Messages {
		fmt.Println(m.Role, m.ID)
	}
	// Output:
	// claude-code claude-sonnet-4-5 4 messages, 1 repaired
	// user u1
	// assistant u2
	// tool u2/no-result
	// user u3
}

func ExampleWrite() {
	chat := `[{"role":"system","content":"Be brief."},{"role":"user","content":"Hi"},{"role":"assistant","content":"Hello."}]`
	tr, err := transcript.Read(strings.NewReader(chat), transcript.Options{})
	if err != nil {
		log.Fatal(err)
	}
	tr.Request.Model = "claude-sonnet-4-5"
	tr.Request.MaxOutputTokens = 1024
	if err := transcript.Write(os.Stdout, transcript.FormatAnthropic, tr.Request); err != nil {
		log.Fatal(err)
	}
	// Output:
	// {"model":"claude-sonnet-4-5","max_tokens":1024,"system":"Be brief.","messages":[{"role":"user","content":[{"type":"text","text":"Hi"}]},{"role":"assistant","content":[{"type":"text","text":"Hello."}]}]}
}

func ExampleReadError() {
	_, err := transcript.Read(strings.NewReader(`[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"call_7","content":"ok"}]`),
		transcript.Options{Name: "chat.json"})
	fmt.Println(err)
	// Output:
	// chat.json: messages[1]: openai: malformed input: tool result for call "call_7" has no matching tool call
}
