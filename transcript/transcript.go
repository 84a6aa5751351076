package transcript

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/condense-dev/condense"
)

// Format names a transcript format, as the CLI's -format flag and
// ParseFormat spell it.
type Format string

// The formats Read understands. FormatAuto asks Read to Detect the format.
const (
	FormatAuto         Format = "auto"
	FormatClaudeCode   Format = "claude-code"
	FormatCodex        Format = "codex"
	FormatGeminiCLI    Format = "gemini-cli"
	FormatOpenAI       Format = "openai"
	FormatAnthropic    Format = "anthropic"
	FormatMiniSWEAgent Format = "mini-swe-agent"
	FormatSWEAgent     Format = "swe-agent"
	FormatOpenHands    Format = "openhands"
	FormatCondense     Format = "condense"
	FormatCline        Format = "cline"
	FormatLangChain    Format = "langchain"
)

// Formats lists every concrete format Read understands (FormatAuto aside).
var Formats = []Format{FormatClaudeCode, FormatCodex, FormatGeminiCLI, FormatOpenAI, FormatAnthropic,
	FormatMiniSWEAgent, FormatSWEAgent, FormatOpenHands, FormatCondense, FormatCline, FormatLangChain}

// WriteFormats lists the formats Write can produce.
var WriteFormats = []Format{FormatOpenAI, FormatAnthropic, FormatCondense}

func formatList(fs []Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// ErrUnknownFormat is wrapped by errors about a format name ParseFormat does
// not know and by Detect when no format matches.
var ErrUnknownFormat = errors.New("unknown transcript format")

// ParseFormat returns the Format named s. The empty string means FormatAuto.
func ParseFormat(s string) (Format, error) {
	if s == "" || s == string(FormatAuto) {
		return FormatAuto, nil
	}
	for _, f := range Formats {
		if s == string(f) {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w %q (want auto, %s)", ErrUnknownFormat, s, formatList(Formats))
}

// Options says how Read reads. The zero value detects the format and
// rejects malformed records.
type Options struct {
	// Format is the input's format; "" or FormatAuto detects it.
	Format Format
	// Lenient skips malformed records (counted in Transcript.Skipped) and
	// drops tool results whose call is nowhere (counted in Dropped) instead
	// of failing.
	Lenient bool
	// Name is the input's file name, used in errors.
	Name string
	// MaxBytes caps the input's size: a larger input is an error wrapping
	// ErrTooLarge, returned before it is read whole (a file by its size, a
	// reader once more than MaxBytes bytes came). Read and ReadFile hold
	// a JSON document whole while they read it and keep the transcript's
	// texts in the document's own memory, so the transcript is about the
	// input's size and reading peaks at a little over twice it; ReadBytes
	// keeps its caller's input apart from the transcript. 0 means
	// DefaultMaxBytes; a negative value means no cap.
	MaxBytes int64
}

// DefaultMaxBytes is the input cap when Options.MaxBytes is 0: 256 MiB,
// several times the largest agent sessions seen in the wild.
const DefaultMaxBytes int64 = 256 << 20

// ErrTooLarge is wrapped by the error about an input over Options.MaxBytes.
var ErrTooLarge = errors.New("transcript: input too large")

// limit returns the input cap of opts, or -1 for none.
func (o *Options) limit() int64 {
	switch {
	case o.MaxBytes == 0:
		return DefaultMaxBytes
	case o.MaxBytes < 0:
		return -1
	}
	return o.MaxBytes
}

// tooLarge returns the error about an input of n bytes (at least n, when
// more) over the cap.
func (o *Options) tooLarge(n int64, atLeast bool) error {
	more := ""
	if atLeast {
		more = "more than "
	}
	return &ReadError{File: o.Name, Err: fmt.Errorf("%w: the input is %s%d bytes, over the limit of %d bytes (Options.MaxBytes; the CLI's --max-input)",
		ErrTooLarge, more, n, o.limit())}
}

// Transcript is what Read found in a file.
type Transcript struct {
	// Format is the format that was read (never FormatAuto).
	Format Format
	// Request holds the model, system text, tool definitions and the
	// messages of the transcript. Messages is the whole log: when the file
	// records an earlier compaction, the messages it replaced are still
	// here and Checkpoint says how the agent rendered them.
	Request condense.Request
	// Checkpoint is an existing compaction imported from the file (a Claude
	// Code compact boundary, a Codex compacted item), or nil.
	Checkpoint *Checkpoint
	// Skipped counts malformed records skipped under Options.Lenient.
	Skipped int
	// Repaired counts tool calls given the stand-in result
	// "[no result recorded]" because the run was interrupted before their
	// result was recorded.
	Repaired int
	// Dropped counts tool results whose call is nowhere, dropped under
	// Options.Lenient.
	Dropped int
	// Notes lists, in reading order, every record that was not read as it
	// stands: each one skipped, dropped or repaired, and each documented
	// variant the reader normalized (a reused tool call id given a new one,
	// records put back in order), with its line or JSON path and why. A
	// lenient read never loses a record without a note saying so.
	Notes []Note
	// OriginalIDs maps each tool call id the reader gave a call whose id the
	// file reuses (see NoteRekeyed) to the id in the file. Provider APIs
	// reject reused ids, so only the condense form writes these back.
	OriginalIDs map[string]string
}

// NoteAction says what the reader did to a record.
type NoteAction string

// The actions a Note reports.
const (
	// NoteSkipped: a malformed record left out under Options.Lenient.
	NoteSkipped NoteAction = "skipped"
	// NoteDropped: a tool result whose call is nowhere, left out under
	// Options.Lenient.
	NoteDropped NoteAction = "dropped"
	// NoteRepaired: a tool call given StandInResult.
	NoteRepaired NoteAction = "repaired"
	// NoteRekeyed: a tool call id the file reuses, given a new unique id
	// (the file's id is kept in Transcript.OriginalIDs).
	NoteRekeyed NoteAction = "rekeyed"
	// NoteReordered: records the file holds out of order, put back in the
	// order the format's own links give.
	NoteReordered NoteAction = "reordered"
	// NoteConverted: a record of a kind no provider API has, read as the
	// nearest message (mini-swe-agent's exit message as text, an OpenHands
	// event without a place of its own), or a value read in another shape
	// (tool call arguments that are not JSON, kept as a string).
	NoteConverted NoteAction = "converted"
	// NoteReplaced: bytes that are not valid UTF-8, read as U+FFFD (the
	// Unicode replacement character) as encoding/json reads them; the
	// note gives their line, the column of the first and how many.
	NoteReplaced NoteAction = "replaced"
)

// Note is one record the reader did not read as it stands.
type Note struct {
	Action NoteAction `json:"action"`
	// Line is the 1-based line of a JSONL record (0 for JSON documents),
	// or of a problem in the text itself (invalid UTF-8, a JSON syntax
	// error), which Column then places in the line.
	Line int `json:"line,omitempty"`
	// Column is the 1-based column, in bytes, of a problem in the text
	// itself; 0 when the note is about a whole record.
	Column int `json:"column,omitempty"`
	// Path is the JSON path of the record, when known.
	Path   string `json:"path,omitempty"`
	Reason string `json:"reason"`
}

func (n Note) String() string {
	var b strings.Builder
	if n.Line > 0 {
		b.WriteString("line ")
		b.WriteString(strconv.Itoa(n.Line))
		if n.Column > 0 {
			b.WriteString(" column ")
			b.WriteString(strconv.Itoa(n.Column))
		}
	}
	if n.Path != "" {
		if b.Len() > 0 {
			b.WriteString(" ")
		}
		b.WriteString(n.Path)
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(string(n.Action))
	b.WriteString(": ")
	b.WriteString(n.Reason)
	return b.String()
}

// Checkpoint is a compaction the agent already made, imported from the file.
type Checkpoint struct {
	// Summary is the summary text the agent rendered in place of
	// Messages[:FirstKept].
	Summary string
	// FirstKept is the index in Request.Messages of the first message after
	// the summary (len(Messages) when none follows). When the file puts the
	// boundary between a tool call and its results, FirstKept is the calling
	// assistant message, so a step is never split.
	FirstKept int
	// Source says which record the checkpoint comes from, e.g.
	// "claude-code compact_boundary at line 42".
	Source string
}

// StandInResult is the text of the result given to a tool call whose result
// was never recorded (a run interrupted before the call returned), so that
// every call before the newest step has a result.
const StandInResult = "[no result recorded]"

// Rendered returns the messages the agent itself would have sent: when t has
// a Checkpoint, one user message holding the summary followed by
// Messages[FirstKept:]; otherwise the messages unchanged. The slice is new;
// the messages are shared.
func (t *Transcript) Rendered() []condense.Message {
	msgs := t.Request.Messages
	if t.Checkpoint == nil {
		return append([]condense.Message(nil), msgs...)
	}
	out := make([]condense.Message, 0, len(msgs)-t.Checkpoint.FirstKept+1)
	out = append(out, condense.UserText(t.Checkpoint.Summary))
	return append(out, msgs[t.Checkpoint.FirstKept:]...)
}

// ReadError is a malformed record: it names the file, the line (JSONL
// formats) or the JSON path (JSON formats), and the problem. A JSON syntax
// error (a value cut short, nested deeper than MaxDepth, trailing data) is
// named by its line and column, in JSONL and JSON documents alike. It
// unwraps to an error wrapping condense.ErrMalformed.
type ReadError struct {
	File string
	// Line is the 1-based line of a JSONL record, 0 for JSON documents
	// unless the problem is in the JSON text itself.
	Line int
	// Column is the 1-based column, in bytes, of a JSON syntax error in
	// Line; 0 when the whole line or record is at fault.
	Column int
	// Path is the JSON path of the problem ("messages[3].content[1]"),
	// empty when the whole line or file is at fault.
	Path string
	Err  error
}

func (e *ReadError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
	} else {
		b.WriteString("<input>")
	}
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
		if e.Column > 0 {
			b.WriteString(":")
			b.WriteString(strconv.Itoa(e.Column))
		}
	}
	if e.Path != "" {
		b.WriteString(": ")
		b.WriteString(e.Path)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *ReadError) Unwrap() error { return e.Err }

// ReadFile reads the transcript in the file at path, as Read does.
// Options.Name defaults to path; a file over Options.MaxBytes is refused by
// its size before any of it is read.
func ReadFile(path string, opts Options) (*Transcript, error) {
	if opts.Name == "" {
		opts.Name = path
	}
	f, size, err := openSized(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if max := opts.limit(); max >= 0 && size > max {
		return nil, opts.tooLarge(size, false)
	}
	return readStream(f, size, opts)
}

// Read reads a whole transcript from r. JSONL formats read line by line
// (claude-code, codex) are streamed: what is in memory is the transcript
// read so far and the line being read. Other formats are read whole first.
// An input over Options.MaxBytes is refused once that many bytes are read.
//
// The messages of the result always pass condense.Validate: a tool call left
// without a result before the newest step gets the stand-in result
// StandInResult (IsError set) right after its message's other results, and a
// result separated from its call is moved back next to it. Every malformed
// record is a *ReadError wrapping condense.ErrMalformed, unless
// Options.Lenient skips it. Invalid UTF-8 is read as U+FFFD, as
// encoding/json reads it, and noted (NoteReplaced) with its line and
// column.
func Read(r io.Reader, opts Options) (*Transcript, error) {
	return readStream(r, 0, opts)
}

// ReadBytes is Read on a byte slice. data is not retained: the transcript
// shares none of its memory.
func ReadBytes(data []byte, opts Options) (*Transcript, error) {
	return readBytes(data, opts, false)
}

// readBytes is ReadBytes; owned says data is the reader's own, which a
// document reader may then keep its texts in (see docArena).
func readBytes(data []byte, opts Options, owned bool) (*Transcript, error) {
	if max := opts.limit(); max >= 0 && int64(len(data)) > max {
		return nil, opts.tooLarge(int64(len(data)), false)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	f := opts.Format
	if f == "" || f == FormatAuto {
		var err error
		if f, err = Detect(data); err != nil {
			return nil, withName(err, opts.Name)
		}
	}
	b := &builder{opts: opts, format: f, src: &source{data: data}}
	if !streamed(f) {
		b.arena = &docArena{buf: data, owned: owned}
	}
	return b.read()
}

// read runs the reader of b.format on b.src and finishes the transcript.
func (b *builder) read() (*Transcript, error) {
	var data []byte
	if !streamed(b.format) {
		data = b.src.data
		b.checkUTF8(data)
	}
	var err error
	switch b.format {
	case FormatClaudeCode:
		err = readClaudeCode(b)
	case FormatCodex:
		err = readCodex(b)
	case FormatGeminiCLI:
		err = readGeminiCLI(b, data)
	case FormatOpenAI:
		err = readOpenAI(b, data)
	case FormatAnthropic:
		err = readAnthropic(b, data)
	case FormatMiniSWEAgent:
		err = readMiniSWEAgent(b, data)
	case FormatSWEAgent:
		err = readSWEAgent(b, data)
	case FormatOpenHands:
		err = readOpenHands(b, data)
	case FormatCondense:
		err = readCondense(b, data)
	case FormatCline:
		err = readCline(b, data)
	case FormatLangChain:
		err = readLangChain(b, data)
	default:
		return nil, fmt.Errorf("%w %q (want auto, %s)", ErrUnknownFormat, b.format, formatList(Formats))
	}
	if err != nil {
		return nil, err
	}
	return b.finish()
}
