package ledger

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/condense-dev/condense"
	"pgregory.net/rapid"
)

// checkItems checks the invariants every item must keep: a clean,
// capped, single-line value, and a rendering with no newline and no ']'
// outside a quoted value.
func checkItems(t interface {
	Helper()
	Errorf(string, ...any)
}, items []Item, maxLen int) {
	t.Helper()
	seen := map[string]bool{}
	for _, it := range items {
		s := it.String()
		if it.Value == "" {
			t.Errorf("empty value: %s", s)
		}
		capLen := maxLen
		switch it.Kind {
		case KindDecision, KindConstraint, KindMeasurement, KindCommand:
			// a measurement's line of figures is kept whole, its gaps as
			// printed, up to a decision's cap; a command line's flags
			// run as long
			capLen = 2 * maxLen
		case KindError:
			capLen = maxLen * 4
		}
		if len(it.Value) > capLen {
			t.Errorf("value of %d bytes over cap %d: %s", len(it.Value), maxLen, s)
		}
		// a gap of spaces and tabs is kept as printed; a line break never,
		// but between the lines of a decision written over a few
		v := it.Value
		if it.Kind == KindDecision {
			for _, l := range strings.Split(v, "\n") {
				if l == "" || strings.TrimSpace(l) != l {
					t.Errorf("decision has an empty or untrimmed line: %q", v)
				}
			}
			v = strings.ReplaceAll(v, "\n", " ")
		}
		if !utf8.ValidString(v) || strings.ContainsAny(v, "\n\r\v\f") || strings.TrimSpace(v) != v {
			t.Errorf("value not one clean line: %q", it.Value)
		}
		if strings.ContainsAny(s, "\n\r") {
			t.Errorf("rendered item has a newline: %q", s)
		}
		if unquotedBracket(s) {
			t.Errorf("rendered item has an unquoted bracket: %s", s)
		}
		if seen[it.Key()] {
			t.Errorf("duplicate item %s", s)
		}
		seen[it.Key()] = true
	}
}

// unquotedBracket reports whether s holds a ']' outside a Go string
// literal (double-quoted or backquoted).
func unquotedBracket(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ']':
			return true
		case '"', '`':
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return true
			}
			i += len(q) - 1
		}
	}
	return false
}

// genText draws text made of fragments of realistic output and noise.
func genText() *rapid.Generator[string] {
	frag := rapid.SampledFrom([]string{
		"panic: runtime error: index out of range [3] with length 3", "--- FAIL: TestX (0.00s)",
		"FAIL\tgithub.com/a/b\t0.01s", "ok  \tgithub.com/a/b\t0.5s\tcoverage: 81.3% of statements",
		"Traceback (most recent call last):", `  File "/a/b.py", line 3, in f`, "ValueError: bad ]",
		"error[E0382]: borrow of moved value", "thread 'main' panicked at src/main.rs:2:5:",
		"npm ERR! code E404", "TypeError: x is not a function", "    at f (/app/x.js:1:2)",
		`{"level":"error","msg":"boom]","error":"x"}`, "level=error msg=\"a\" err=\"b\"",
		"BenchmarkX-8  100  1043 ns/op  5 B/op  1 allocs/op", "p99 latency: 703.1ms", "took 3.2s",
		"commit 3fa9c2d", "ENG-4821", "#1234", "order_id=ORD-2024-0042", "https://u:p@h.dev/x?token=abc]",
		"6f1c3b2e-8d4a-4c1b-9e2f-7a6b5c4d3e2f", "internal/x.go:12:5: undefined: foo", "$ go test ./...",
		"sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "-----BEGIN PRIVATE KEY-----", "Exit code: 1",
		"api-1 0/1 CrashLoopBackOff 5 10m", "E1130 12:00:01.123 1 x.go:1] fail", "I'll use x instead of y.",
		"You must never do that.", "\n", "\n\n", " ", "\t", "]", "[", `"`, ";", "·", "…", "\x00", "\xff", "é",
	})
	noise := rapid.StringN(0, 40, -1)
	return rapid.Custom(func(t *rapid.T) string {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		var b strings.Builder
		for i := 0; i < n; i++ {
			if rapid.Bool().Draw(t, "noise") {
				b.WriteString(noise.Draw(t, "s"))
			} else {
				b.WriteString(frag.Draw(t, "f"))
			}
			if rapid.Bool().Draw(t, "nl") {
				b.WriteByte('\n')
			}
		}
		return b.String()
	})
}

func messagesOf(text string, split int) []condense.Message {
	if split > len(text) {
		split = len(text)
	}
	input, _ := json.Marshal(map[string]string{"command": text[:split], "path": text[split:]})
	return []condense.Message{
		condense.UserText(text),
		{Role: condense.RoleAssistant, Parts: []condense.Part{
			condense.Text(text[split:]),
			condense.ToolCall("c1", "bash", input),
			condense.ToolCall("c2", "Write", input),
		}},
		{Role: condense.RoleTool, Parts: []condense.Part{
			condense.ToolResult("c1", true, condense.Text(text)),
			condense.ToolResult("c2", false, condense.Text(text[:split])),
		}},
		{Role: condense.RoleUser, Pinned: true, Parts: []condense.Part{condense.Text(text[split:])}},
	}
}

func TestPropertyExtract(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		text := genText().Draw(rt, "text")
		split := rapid.IntRange(0, len(text)).Draw(rt, "split")
		maxLen := rapid.SampledFrom([]int{0, 1, 8, 40, 200}).Draw(rt, "max")
		e := Extractor{MaxValueLen: maxLen}
		msgs := messagesOf(text, split)
		a := e.Extract(msgs, 0)
		b := e.Extract(msgs, 0)
		if !reflect.DeepEqual(a, b) {
			rt.Fatalf("not deterministic:\n%v\n%v", a, b)
		}
		capLen := e.maxValueLen()
		if capLen < len(ellipsis)+1 {
			capLen = len(ellipsis) + 1
		}
		checkItems(rt, a, capLen)
		for _, it := range a {
			if strings.Contains(it.Value, "sk-ant-api03-abcdefghijklmnopqrstuvwxyz") {
				rt.Errorf("secret in %s", it)
			}
		}
		kept, demoted := Bound(a, rapid.IntRange(0, 400).Draw(rt, "budget"), nil)
		if len(kept)+len(demoted) != len(a) {
			rt.Errorf("bound lost items: %d + %d != %d", len(kept), len(demoted), len(a))
		}
	})
}

func TestDeterministicOnTestdata(t *testing.T) {
	var msgs []condense.Message
	for _, f := range []string{"gotest.txt", "pytest.txt", "cargo_test.txt", "jsonlog.txt", "perf.txt", "git.txt"} {
		msgs = append(msgs, messagesOf(readTestdata(t, f), 40)...)
	}
	first := Extract(msgs, 0)
	for i := 0; i < 5; i++ {
		if again := Extract(msgs, 0); !reflect.DeepEqual(first, again) {
			t.Fatalf("run %d differs", i)
		}
	}
	checkItems(t, first, DefaultMaxValueLen)
}

func FuzzExtract(f *testing.F) {
	for _, name := range []string{"gotest.txt", "pytest.txt", "cargo.txt", "npm.txt", "node_trace.txt", "kubectl.txt", "jsonlog.txt"} {
		f.Add(readTestdata(f, name), 30)
	}
	f.Add("postgres://u:p@h/db ]] \"; sk-ant-xxxxxxxxxxxxxxxxxxxxxxx", 3)
	f.Add("[condense: 2 messages dropped (90 tokens) · recall covers 3-4 · kept: error `a \"b\"`; command \"go test\" (exit 1); file x.go (written)]", 0)
	f.Fuzz(func(t *testing.T, text string, split int) {
		// A marker's kept list, however mangled, reads back as items that
		// render and parse again unchanged.
		for _, it := range KeptItems(text) {
			back, ok := ParseItem(it.String())
			if !ok || back.String() != it.String() {
				t.Errorf("kept item %s does not read back (%v, %s)", it, ok, back)
			}
		}
		if split < 0 {
			split = -split
		}
		items := Extract(messagesOf(text, split%(len(text)+1)), 0)
		checkItems(t, items, DefaultMaxValueLen)
		res := resultOf(text, true)
		checkItems(t, ExtractResult(nil, &res, 0), DefaultMaxValueLen)
		if r := Redact(text); Redact(r) != r {
			t.Errorf("Redact not idempotent on %q", text)
		}
	})
}
