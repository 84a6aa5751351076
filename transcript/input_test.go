package transcript

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/condense-dev/condense"
)

// Streaming changes nothing: ReadFile and Read (a byte at a time, with a
// buffer smaller than most lines, so long lines are put together) give
// what ReadBytes gives, for every sample, strict and lenient. Nor does
// keeping a document's texts in the input's own buffer, which ReadFile and
// Read do and ReadBytes does not.
func TestStreamedSameAsBytes(t *testing.T) {
	defer func(n int) { readerBufSize = n }(readerBufSize)
	readerBufSize = 16
	for _, path := range testdataFiles(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, lenient := range []bool{false, true} {
			opts := Options{Name: path, Lenient: lenient}
			want, wantErr := ReadBytes(data, opts)
			fromFile, fileErr := ReadFile(path, opts)
			fromReader, readerErr := Read(iotest.OneByteReader(bytes.NewReader(data)), opts)
			for name, got := range map[string]struct {
				tr  *Transcript
				err error
			}{"ReadFile": {fromFile, fileErr}, "Read": {fromReader, readerErr}} {
				if (got.err == nil) != (wantErr == nil) || got.err != nil && got.err.Error() != wantErr.Error() {
					t.Errorf("%s %s lenient=%v: error %v, ReadBytes: %v", name, path, lenient, got.err, wantErr)
					continue
				}
				if !reflect.DeepEqual(got.tr, want) {
					t.Errorf("%s %s lenient=%v: transcript differs from ReadBytes's", name, path, lenient)
				}
			}
		}
	}
}

// A streamed input over the cap is refused once the cap is passed.
func TestMaxBytesStreamed(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "claude-code.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	max := int64(len(data) / 2)
	_, err = Read(bytes.NewReader(data), Options{MaxBytes: max, Name: "s.jsonl"})
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "more than") {
		t.Fatalf("err = %v", err)
	}
	if _, err := Read(bytes.NewReader(data), Options{MaxBytes: int64(len(data))}); err != nil {
		t.Fatalf("at the cap: %v", err)
	}
}

// JSON cut short or nested too deeply is named by file, line and column, in
// JSON documents and JSONL lines alike, whether the format was given or
// detected; the error never suggests passing the format.
func TestJSONSyntaxPositions(t *testing.T) {
	deep := strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1)
	ccLine := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"hi"}}`
	cxLine := `{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}`
	cases := []struct {
		name    string
		format  Format
		in      string
		want    string // the start of the error: file, line, column
		problem string
	}{
		{"openai truncated", FormatAuto, "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"h", "x.json:2:33: ", "the JSON ends early"},
		{"openai truncated, format given", FormatOpenAI, "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"h", "x.json:2:33: openai: ", "the JSON ends early"},
		{"openai array truncated", FormatAuto, `[{"role":"user","content":"hi"},`, "x.json:1:33: ", "the JSON ends early"},
		{"openai too deep", FormatAuto, `{"messages":` + deep + `}`, "x.json:1:10012: ", "nested deeper than 10000 levels"},
		{"openai too deep, format given", FormatOpenAI, `{"messages":` + deep + `}`, "x.json:1:10012: openai: ", "nested deeper than 10000 levels"},
		{"anthropic truncated", FormatAuto, `{"system":"s","messages":[{"role":"user","content":"hi"}`, "x.json:1:57: ", "the JSON ends early"},
		{"anthropic truncated, format given", FormatAnthropic, `{"model":"m","messages":[{"role":"user","content":"hi"}`, "x.json:1:56: messages: anthropic: ", "the JSON ends early"},
		{"anthropic too deep, format given", FormatAnthropic, `{"messages":[{"role":"user","content":[{"type":"text","text":"x","extra":` + deep + `}]}]}`, "x.json:1:", "nested deeper than 10000 levels"},
		{"condense truncated", FormatAuto, `{"version":1,"messages":[`, "x.json:1:26: ", "the JSON ends early"},
		{"claude-code truncated line", FormatAuto, ccLine + "\n" + ccLine[:40] + "\n", "x.json:2:41: claude-code: ", "the JSON ends early"},
		{"claude-code too deep line", FormatAuto, ccLine + "\n" + `{"type":"user","uuid":"u2","message":` + deep + "}\n", "x.json:2:10037: claude-code: ", "nested deeper than 10000 levels"},
		{"claude-code truncated first line", FormatAuto, ccLine[:40], "x.json:1:41: ", "the JSON ends early"},
		{"codex truncated line", FormatAuto, cxLine + "\n" + cxLine[:30], "x.json:2:31: codex: ", "the JSON ends early"},
		{"codex truncated line, format given", FormatCodex, cxLine + "\n" + cxLine[:30], "x.json:2:31: codex: ", "the JSON ends early"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for entry, read := range map[string]func() error{
				"ReadBytes": func() error { _, err := ReadBytes([]byte(c.in), Options{Format: c.format, Name: "x.json"}); return err },
				"Read": func() error {
					_, err := Read(strings.NewReader(c.in), Options{Format: c.format, Name: "x.json"})
					return err
				},
			} {
				err := read()
				if err == nil {
					t.Fatalf("%s: no error", entry)
				}
				msg := err.Error()
				if !strings.HasPrefix(msg, c.want) || !strings.Contains(msg, c.problem) {
					t.Errorf("%s: error %q\nwant it to start with %q and say %q", entry, msg, c.want, c.problem)
				}
				if strings.Contains(msg, "pass the format") {
					t.Errorf("%s: error suggests passing the format: %s", entry, msg)
				}
				var re *ReadError
				if !errors.As(err, &re) || re.Line == 0 || re.Column == 0 || !errors.Is(err, condense.ErrMalformed) {
					t.Errorf("%s: %#v is not a *ReadError with a line and column wrapping ErrMalformed", entry, err)
				}
			}
		})
	}
}

// Invalid UTF-8 is read as U+FFFD and noted: the line, the column of the
// first bad byte and how many bytes, in JSONL (read whole or streamed) and
// JSON documents.
func TestInvalidUTF8Noted(t *testing.T) {
	ccLine := func(uuid, parent, text string) string {
		p := "null"
		if parent != "" {
			p = `"` + parent + `"`
		}
		return `{"type":"user","uuid":"` + uuid + `","parentUuid":` + p + `,"sessionId":"s","message":{"role":"user","content":"` + text + `"}}`
	}
	jsonl := ccLine("u1", "", "fine") + "\n" + ccLine("u2", "u1", "bad \xff\xfe here \xc3") + "\n"
	doc := "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"caf\xe9\"}\n]}\n"
	cases := []struct {
		name      string
		in        string
		line, col int
		reason    string
		text      string // the text read, U+FFFD in place of each bad byte
	}{
		{"claude-code", jsonl, 2, 102, "3 bytes of invalid UTF-8 read as U+FFFD", "bad \uFFFD\uFFFD here \uFFFD"},
		{"openai", doc, 2, 35, "1 byte of invalid UTF-8 read as U+FFFD", "caf\uFFFD"},
	}
	for _, c := range cases {
		for entry, read := range map[string]func() (*Transcript, error){
			"ReadBytes": func() (*Transcript, error) { return ReadBytes([]byte(c.in), Options{}) },
			"Read":      func() (*Transcript, error) { return Read(strings.NewReader(c.in), Options{}) },
		} {
			tr, err := read()
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, entry, err)
			}
			want := Note{Action: NoteReplaced, Line: c.line, Column: c.col, Reason: c.reason}
			if len(tr.Notes) != 1 || tr.Notes[0] != want {
				t.Errorf("%s %s: notes %+v, want %+v", c.name, entry, tr.Notes, want)
			}
			msgs := tr.Request.Messages
			if got := msgs[len(msgs)-1].TextContent(); got != c.text {
				t.Errorf("%s %s: text %q, want %q", c.name, entry, got, c.text)
			}
		}
	}
	if s := (Note{Action: NoteReplaced, Line: 2, Column: 79, Reason: "x"}).String(); s != "line 2 column 79: replaced: x" {
		t.Errorf("String() = %q", s)
	}
}
