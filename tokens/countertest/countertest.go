// Package countertest is the conformance suite every condense.Counter should
// pass, the way testing/slogtest checks a slog.Handler:
//
//	func TestMyCounter(t *testing.T) { countertest.Run(t, NewMyCounter()) }
//
// It checks that counts are deterministic, positive and monotonic (more
// text never counts fewer tokens), that every part type is handled, and that
// the counter is safe for concurrent use (run the tests with -race).
package countertest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"strings"
	"sync"
	"testing"

	"github.com/condense-dev/condense"
)

// MaxEmptyMessage is the most tokens an empty message may count: framing
// only.
const MaxEmptyMessage = 300

// Run runs the conformance suite on c.
func Run(t *testing.T, c condense.Counter) {
	t.Helper()
	t.Run("Identity", func(t *testing.T) { testIdentity(t, c) })
	t.Run("Deterministic", func(t *testing.T) { testDeterministic(t, c) })
	t.Run("EmptyMessage", func(t *testing.T) { testEmpty(t, c) })
	t.Run("Monotonic", func(t *testing.T) { testMonotonic(t, c) })
	t.Run("Additive", func(t *testing.T) { testAdditive(t, c) })
	t.Run("PartTypes", func(t *testing.T) { testPartTypes(t, c) })
	t.Run("Overhead", func(t *testing.T) { testOverhead(t, c) })
	t.Run("DoesNotModify", func(t *testing.T) { testDoesNotModify(t, c) })
	t.Run("Concurrent", func(t *testing.T) { testConcurrent(t, c) })
}

func testIdentity(t *testing.T, c condense.Counter) {
	if c.Name() == "" {
		t.Error("Name() is empty")
	}
	if c.Name() != c.Name() || c.Exact() != c.Exact() {
		t.Error("Name or Exact changes between calls")
	}
}

func testDeterministic(t *testing.T, c condense.Counter) {
	for _, m := range sampleMessages() {
		a, b := c.CountMessage(&m), c.CountMessage(&m)
		if a != b {
			t.Errorf("%s: counted %d then %d", describe(&m), a, b)
		}
		cp := cloneMessage(m)
		if n := c.CountMessage(&cp); n != a {
			t.Errorf("%s: a copy counts %d, the original %d", describe(&m), n, a)
		}
	}
}

func testEmpty(t *testing.T, c condense.Counter) {
	for _, role := range []condense.Role{condense.RoleUser, condense.RoleAssistant, condense.RoleTool, condense.RoleSystem} {
		m := condense.Message{Role: role}
		n := c.CountMessage(&m)
		if n < 1 || n > MaxEmptyMessage {
			t.Errorf("empty %s message counts %d, want framing in [1, %d]", role, n, MaxEmptyMessage)
		}
		e := condense.Message{Role: role, Parts: []condense.Part{condense.Text("")}}
		if got := c.CountMessage(&e); got < n || got > n+2 {
			t.Errorf("%s message with one empty text part counts %d, an empty one %d", role, got, n)
		}
	}
}

func testMonotonic(t *testing.T, c condense.Counter) {
	texts := []string{"", "a", "hello", "hello world", "The quick brown fox jumps over the lazy dog.",
		"func main() {\n\tfmt.Println(\"hi\")\n}\n", `{"path":"a/b.go","line":12}`, "数据库迁移已经完成。", "🎉🎉", "   \n\n\t\t", "0123456789abcdef"}
	for _, s := range texts {
		prev := -1
		for i := 1; i <= 6; i++ {
			m := condense.UserText(strings.Repeat(s, i))
			n := c.CountMessage(&m)
			if n < prev {
				t.Errorf("%q repeated %d times counts %d, fewer than %d for %d times", s, i, n, prev, i-1)
			}
			prev = n
		}
	}
	// Appending text to a message never lowers its count.
	base := "Compaction keeps agents inside their window."
	for _, tail := range []string{" more", "\n\nAnd a second paragraph.", " 1234567", " 🚀", " 配置"} {
		a, b := condense.UserText(base), condense.UserText(base+tail)
		if na, nb := c.CountMessage(&a), c.CountMessage(&b); nb < na {
			t.Errorf("appending %q lowered the count from %d to %d", tail, na, nb)
		}
	}
	// A longer text is worth at least a token more.
	short, long := condense.UserText("word"), condense.UserText(strings.Repeat("word ", 200))
	if ns, nl := c.CountMessage(&short), c.CountMessage(&long); nl <= ns+100 {
		t.Errorf("200 words count %d, one word %d: want at least 100 more", nl, ns)
	}
}

func testAdditive(t *testing.T, c condense.Counter) {
	// Splitting content over parts or messages never makes it count less
	// than about what it counts whole: counts are summed per message by the
	// preflight.
	a := "First part of the answer, with a path internal/x.go and a number 42."
	b := "Second part: the command `go test ./...` exited with status 1."
	whole := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(a + " " + b)}}
	split := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(a), condense.Text(b)}}
	nw, ns := c.CountMessage(&whole), c.CountMessage(&split)
	if ns < nw-2 {
		t.Errorf("two parts count %d, the same text in one part %d", ns, nw)
	}
	m1, m2 := condense.UserText(a), condense.UserText(b)
	if n := c.CountMessage(&m1) + c.CountMessage(&m2); n <= nw {
		t.Errorf("two messages count %d together, want more than one message with both texts (%d): framing is per message", n, nw)
	}
}

func testPartTypes(t *testing.T, c condense.Counter) {
	empty := condense.Message{Role: condense.RoleAssistant}
	framing := c.CountMessage(&empty)
	for _, m := range sampleMessages() {
		n := c.CountMessage(&m)
		if n <= framing {
			t.Errorf("%s counts %d, no more than an empty message (%d)", describe(&m), n, framing)
		}
	}
	// Each kind of content is counted: more of it, more tokens.
	grow := []struct {
		name        string
		small, more condense.Part
	}{
		{"tool call input", condense.ToolCall("c1", "read_file", json.RawMessage(`{"path":"a.go"}`)),
			condense.ToolCall("c1", "read_file", json.RawMessage(`{"path":"a.go","offset":120,"limit":400,"follow_symlinks":true}`))},
		{"tool call name", condense.ToolCall("c1", "ls", json.RawMessage(`{}`)),
			condense.ToolCall("c1", "list_directory_recursively_with_sizes", json.RawMessage(`{}`))},
		{"tool result", condense.ToolResult("c1", false, condense.Text("ok")),
			condense.ToolResult("c1", false, condense.Text(strings.Repeat("line of output\n", 50)))},
		{"tool result error", condense.ToolResult("c1", true, condense.Text("error")),
			condense.ToolResult("c1", true, condense.Text("error: "+strings.Repeat("stack frame\n", 30)))},
		{"tool result image", condense.ToolResult("c1", false, condense.Text("screenshot")),
			condense.ToolResult("c1", false, condense.Text("screenshot"), pngPart(64, 64))},
		{"thinking", condense.Thinking("hm", "sig"),
			condense.Thinking(strings.Repeat("Let me consider the options. ", 30), "sig")},
		{"redacted thinking", condense.RedactedThinking("EqQBCkYIAxgCIkA"),
			condense.RedactedThinking(strings.Repeat("EqQBCkYIAxgCIkA", 40))},
		{"provider block", condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning"}`)),
			condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning","encrypted_content":"`+strings.Repeat("gAAAAB", 100)+`"}`))},
	}
	for _, g := range grow {
		a := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{g.small}}
		b := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{g.more}}
		if na, nb := c.CountMessage(&a), c.CountMessage(&b); nb <= na {
			t.Errorf("%s: more content counts %d, less %d", g.name, nb, na)
		}
	}
	// Images cost something whether given by bytes, by URL or by size.
	for _, p := range []condense.Part{
		pngPart(800, 600),
		condense.ImageURL("image/png", "https://example.com/shot.png"),
		condense.ImageData("image/webp", []byte("RIFF....WEBPVP8 not really an image")),
		{Type: condense.PartImage, MediaType: "image/jpeg", URL: "https://example.com/a.jpg", Width: 1024, Height: 768},
	} {
		m := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{p}}
		if n := c.CountMessage(&m); n < framing+50 {
			t.Errorf("image %s%s (%dx%d) counts %d, want at least %d", p.MediaType, p.URL, p.Width, p.Height, n, framing+50)
		}
	}
	small := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{{Type: condense.PartImage, MediaType: "image/png", URL: "u", Width: 100, Height: 100}}}
	large := condense.Message{Role: condense.RoleUser, Parts: []condense.Part{{Type: condense.PartImage, MediaType: "image/png", URL: "u", Width: 2000, Height: 1500}}}
	if ns, nl := c.CountMessage(&small), c.CountMessage(&large); nl < ns {
		t.Errorf("a 2000x1500 image counts %d, a 100x100 one %d", nl, ns)
	}
}

func testOverhead(t *testing.T, c condense.Counter) {
	none := c.CountOverhead("", nil)
	if none < 0 {
		t.Errorf("overhead of nothing is %d", none)
	}
	sys := c.CountOverhead("You are a careful coding agent. Keep changes small.", nil)
	if sys <= none {
		t.Errorf("a system text adds nothing: %d vs %d", sys, none)
	}
	if again := c.CountOverhead("You are a careful coding agent. Keep changes small.", nil); again != sys {
		t.Errorf("overhead counted %d then %d", sys, again)
	}
	tool := condense.Tool{Name: "read_file", Description: "Read a file of the workspace.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","description":"Path relative to the workspace root."}},"required":["path"]}`)}
	one := c.CountOverhead("", []condense.Tool{tool})
	if one <= none+10 {
		t.Errorf("one tool definition adds %d tokens, want more than 10", one-none)
	}
	tool2 := tool
	tool2.Name = "write_file"
	two := c.CountOverhead("", []condense.Tool{tool, tool2})
	if two <= one {
		t.Errorf("two tools count %d, one %d", two, one)
	}
	long := tool
	long.Description += strings.Repeat(" Use it before editing.", 20)
	if n := c.CountOverhead("", []condense.Tool{long}); n <= one {
		t.Errorf("a longer description counts %d, the short one %d", n, one)
	}
}

func testDoesNotModify(t *testing.T, c condense.Counter) {
	for _, m := range sampleMessages() {
		before, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		c.CountMessage(&m)
		after, _ := json.Marshal(m)
		if !bytes.Equal(before, after) {
			t.Errorf("CountMessage modified %s", describe(&m))
		}
	}
	tools := []condense.Tool{{Name: "t", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	before, _ := json.Marshal(tools)
	c.CountOverhead("sys", tools)
	if after, _ := json.Marshal(tools); !bytes.Equal(before, after) {
		t.Error("CountOverhead modified the tools")
	}
}

func testConcurrent(t *testing.T, c condense.Counter) {
	msgs := sampleMessages()
	want := make([]int, len(msgs))
	for i := range msgs {
		want[i] = c.CountMessage(&msgs[i])
	}
	wantOverhead := c.CountOverhead("system", nil)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 {
				i := (g + k) % len(msgs)
				if n := c.CountMessage(&msgs[i]); n != want[i] {
					errs <- fmt.Sprintf("goroutine %d: %s counted %d, want %d", g, describe(&msgs[i]), n, want[i])
					return
				}
				if n := c.CountOverhead("system", nil); n != wantOverhead {
					errs <- fmt.Sprintf("goroutine %d: overhead %d, want %d", g, n, wantOverhead)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// sampleMessages returns one message for each part type and role.
func sampleMessages() []condense.Message {
	return []condense.Message{
		condense.UserText("Fix the failing test in internal/store/store_test.go, please."),
		condense.AssistantText("I'll look at the test first."),
		{Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.Thinking("The test fails on the trailing newline; check the writer.", "EuYBCkQYAiJA"),
			condense.Text("Reading the file."),
			condense.ToolCall("toolu_01", "read_file", json.RawMessage(`{"path":"internal/store/store_test.go"}`)),
			condense.ToolCall("toolu_02", "grep", json.RawMessage(`{"pattern":"WriteString","path":"internal/store"}`)),
		}},
		{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("toolu_01", false, condense.Text("package store\n\nfunc TestWrite(t *testing.T) {\n\t// …\n}\n")),
			condense.ToolResult("toolu_02", true, condense.Text("grep: internal/store: No such file or directory")),
		}},
		{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("toolu_03", false, condense.Text("screenshot attached"), pngPart(320, 200)),
		}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.RedactedThinking("EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP")}},
		{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("What is in this picture?"), pngPart(1024, 1024)}},
		{Role: condense.RoleUser, Parts: []condense.Part{condense.ImageURL("image/jpeg", "https://example.com/photo.jpg")}},
		{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ProviderBlock("openai", json.RawMessage(`{"type":"reasoning","id":"rs_1","encrypted_content":"gAAAAABo"}`))}},
		{Role: condense.RoleUser, Parts: []condense.Part{condense.Text("数据库迁移已经完成，请检查日志。🚀")}},
		{Role: condense.RoleAssistant, Status: condense.StatusAborted, Parts: []condense.Part{condense.Text("Partial ans")}},
	}
}

// pngPart returns a PNG image part of w x h pixels whose size is known only
// from its bytes.
func pngPart(w, h int) condense.Part {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		panic(err)
	}
	return condense.ImageData("image/png", b.Bytes())
}

func describe(m *condense.Message) string {
	var kinds []string
	for _, p := range m.Parts {
		kinds = append(kinds, string(p.Type))
	}
	return fmt.Sprintf("%s message [%s]", m.Role, strings.Join(kinds, " "))
}

func cloneMessage(m condense.Message) condense.Message {
	b, err := json.Marshal(m)
	if err != nil {
		panic(err)
	}
	var out condense.Message
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return out
}
