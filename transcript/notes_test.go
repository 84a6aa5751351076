package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestRekeyReusedIDs(t *testing.T) {
	call := func(id string) condense.Message {
		return condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{
			{Type: condense.PartToolCall, ID: id, Name: "bash", Input: json.RawMessage(`{}`)}}}
	}
	result := func(id, text string) condense.Message {
		return condense.Message{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult(id, false, condense.Text(text))}}
	}
	b := &builder{opts: Options{Name: "demo.traj"}, format: FormatSWEAgent, rekey: true}
	for i, m := range []condense.Message{condense.UserText("fix it"),
		call("c1"), result("c1", "first"), call("c1"), result("c1", "second"), call("c1~2"), result("c1~2", "third")} {
		b.add(m, loc{path: "history[" + string(rune('0'+i)) + "]"})
	}
	tr, err := b.finish()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range tr.Request.Messages {
		for _, p := range m.Parts {
			switch p.Type {
			case condense.PartToolCall:
				ids = append(ids, p.ID)
			case condense.PartToolResult:
				ids = append(ids, p.CallID+"="+p.Content[0].Text)
			}
		}
	}
	if got, want := strings.Join(ids, " "), "c1 c1=first c1~3 c1~3=second c1~2 c1~2=third"; got != want {
		t.Errorf("ids %s, want %s", got, want)
	}
	if tr.OriginalIDs["c1~3"] != "c1" || len(tr.OriginalIDs) != 1 {
		t.Errorf("OriginalIDs = %v", tr.OriginalIDs)
	}
	if len(tr.Notes) != 1 || tr.Notes[0].Action != NoteRekeyed || tr.Notes[0].Path != "history[3]" {
		t.Errorf("notes = %v", tr.Notes)
	}

	// Without rekey the same input is malformed.
	b2 := &builder{opts: Options{Name: "demo.traj"}, format: FormatSWEAgent}
	b2.add(call("c1"), loc{})
	b2.add(result("c1", "a"), loc{})
	b2.add(call("c1"), loc{path: "history[2]"})
	if _, err := b2.finish(); err == nil || !strings.Contains(err.Error(), `duplicate tool call id "c1"`) {
		t.Errorf("err = %v", err)
	}
}

func TestLenientNotesEverySkip(t *testing.T) {
	in := `{"messages":[{"role":"user","content":"hi"},{"role":"tool","tool_call_id":"nope","content":"x"},{"role":"assistant","content":"ok"}]}`
	tr, err := ReadBytes([]byte(in), Options{Lenient: true, Name: "chat.json"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Dropped != 1 || len(tr.Notes) != 1 {
		t.Fatalf("dropped %d notes %v", tr.Dropped, tr.Notes)
	}
	n := tr.Notes[0]
	if n.Action != NoteDropped || n.Path != "messages[1]" || !strings.Contains(n.Reason, `"nope"`) {
		t.Errorf("note = %+v", n)
	}
	if s := n.String(); s != `messages[1]: dropped: tool result for call "nope" has no matching tool call` {
		t.Errorf("String() = %s", s)
	}
}

// An input over Options.MaxBytes is refused before it is read whole, by
// every entry point, with an error naming the sizes.
func TestMaxBytes(t *testing.T) {
	in := []byte(`{"messages":[{"role":"user","content":"` + strings.Repeat("x", 2000) + `"}]}`)
	path := t.TempDir() + "/big.json"
	if err := os.WriteFile(path, in, 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{MaxBytes: 1000, Name: "big.json"}
	_, err1 := ReadBytes(in, opts)
	_, err2 := Read(bytes.NewReader(in), opts)
	_, err3 := ReadFile(path, opts)
	for i, err := range []error{err1, err2, err3} {
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "over the limit of 1000 bytes") {
			t.Errorf("entry %d: %v", i, err)
		}
	}
	if !strings.Contains(err1.Error(), fmt.Sprintf("is %d bytes", len(in))) || !strings.Contains(err2.Error(), "more than 1000 bytes") {
		t.Errorf("sizes: %v / %v", err1, err2)
	}
	for _, max := range []int64{0, -1, int64(len(in))} {
		if _, err := ReadBytes(in, Options{MaxBytes: max}); err != nil {
			t.Errorf("MaxBytes %d: %v", max, err)
		}
	}
}
