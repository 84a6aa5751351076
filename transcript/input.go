package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"unicode/utf8"
)

// How input is read. JSON document formats are read whole, into one
// buffer of the input's size when it is known, and decoded record by
// record; the transcript's texts are then kept in that buffer (see
// docArena). JSONL formats whose reader takes one line at
// a time (claude-code, codex) are streamed when Read or ReadFile reads
// them: only the line being decoded is in memory besides what the reader
// keeps, so reading costs little more than the transcript it returns.
// ReadBytes has the input in memory already and hands out its lines.
//
// Detection needs only the first JSON value. Read takes the first non-blank
// line: when it is a whole JSON value, it is the first value and Detect
// names the format from it; otherwise (a pretty-printed document starts
// with a line "{") the rest is read and Detect looks at the whole input.

// streamed reports whether the reader of f takes its input line by line.
func streamed(f Format) bool { return f == FormatClaudeCode || f == FormatCodex }

// source is the input of a reader: all of it in memory (data), or the
// first non-blank line (first, line firstN) and a reader of the rest.
type source struct {
	data   []byte
	first  []byte
	firstN int
	r      *bufio.Reader
}

// errCapped is returned by a capReader past its cap.
var errCapped = errors.New("input over the cap")

// capReader reads from r and fails with errCapped once it has read more
// than max bytes (max < 0: no cap), so an input over Options.MaxBytes is
// refused before it is all in memory.
type capReader struct {
	r   io.Reader
	n   int64
	max int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.max >= 0 {
		if c.n > c.max {
			return 0, errCapped
		}
		if room := c.max - c.n + 1; int64(len(p)) > room {
			p = p[:room]
		}
	}
	k, err := c.r.Read(p)
	c.n += int64(k)
	if c.max >= 0 && c.n > c.max {
		return k, errCapped
	}
	return k, err
}

// readerBufSize is the buffer of a streamed input: lines longer than this
// are put together in a buffer of their own.
var readerBufSize = 64 << 10

// readStream reads a transcript from r, streaming JSONL formats (see the
// comment at the top of the file). size, when known (> 0), is the input's
// size, so that an input read whole is read into one buffer of that size.
func readStream(r io.Reader, size int64, opts Options) (*Transcript, error) {
	max := opts.limit()
	cr := &capReader{r: r, max: max}
	br := bufio.NewReaderSize(cr, readerBufSize)
	var head []byte // everything read up to and including the first non-blank line
	var first []byte
	n := 0
	for {
		start := len(head)
		var err error
		head, err = appendHead(head, br, size)
		if err != nil && err != io.EOF {
			return nil, readErr(err, &opts)
		}
		if len(head) > start {
			n++
		}
		line := head[start:]
		if n == 1 {
			line = bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))
		}
		// JSON's blanks decide, as they do for Detect; the line handed to
		// the reader is trimmed as eachLineIn trims (the same bytes, for a
		// line that is a JSON value).
		if t := bytes.Trim(line, " \t\r\n"); len(t) > 0 {
			first = bytes.TrimSpace(t)
			break
		}
		if err == io.EOF {
			break
		}
	}
	f := opts.Format
	if (f == "" || f == FormatAuto) && first != nil && json.Valid(first) {
		var err error
		if f, err = Detect(first); err != nil {
			return nil, withName(err, opts.Name)
		}
	}
	if streamed(f) {
		// The line gets its own copy: head may have the room of the
		// whole input (see appendHead).
		first = bytes.Clone(first)
		b := &builder{opts: opts, format: f, src: &source{first: first, firstN: n, r: br}}
		t, err := b.read()
		if err != nil {
			return nil, readErr(err, &opts)
		}
		return t, nil
	}
	// A document: read it whole, into one buffer of its size when known.
	data := head
	if size >= int64(cap(head)) {
		data = append(make([]byte, 0, size+1), head...)
	}
	data, err := readAll(data, br)
	if err != nil {
		return nil, readErr(err, &opts)
	}
	if f != "" {
		opts.Format = f
	}
	return readBytes(data, opts, true)
}

// bigLine is the length from which appendHead gives a first line known to
// be in a sized input the room of the whole input at once: a line this
// long is nearly always a document on one line, which is read whole
// anyway, and growing it step by step would hold it twice while it is
// copied into a larger buffer.
const bigLine = 1 << 20

// appendHead is appendLine for the first lines of an input of size bytes
// (0 when unknown), which may be all of it (see bigLine).
func appendHead(buf []byte, br *bufio.Reader, size int64) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if need := len(buf) + len(chunk); need > cap(buf) && need >= bigLine && size >= int64(need) {
			buf = append(make([]byte, 0, size+1), buf...)
		}
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// readAll appends what r holds to data.
func readAll(data []byte, r io.Reader) ([]byte, error) {
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		k, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+k]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
	}
}

// readErr turns an error of the underlying reader into the error Read
// returns: errCapped into the error about an input over the cap.
func readErr(err error, opts *Options) error {
	if errors.Is(err, errCapped) {
		return opts.tooLarge(opts.limit(), true)
	}
	return err
}

// appendLine appends the next line of br, with its newline, to buf.
func appendLine(buf []byte, br *bufio.Reader) ([]byte, error) {
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if err != bufio.ErrBufferFull {
			return buf, err
		}
	}
}

// eachLine calls fn with every non-blank line of the input, without the
// blanks around it, and its 1-based number. A line holding invalid UTF-8
// gets a NoteReplaced first. The slice fn gets is its own: a reader may
// keep it.
func (b *builder) eachLine(fn func(n int, line []byte) error) error {
	each := func(n int, line []byte) error {
		if !utf8.Valid(line) {
			b.noteInvalidUTF8(n, line)
		}
		return fn(n, line)
	}
	s := b.src
	if s.r == nil {
		return eachLineIn(s.data, each)
	}
	n := s.firstN
	if s.first != nil {
		if err := each(n, s.first); err != nil { // readStream's own copy
			return err
		}
	}
	var buf []byte
	for {
		var err error
		buf, err = appendLine(buf[:0], s.r)
		if err != nil && err != io.EOF {
			return err
		}
		if len(buf) == 0 && err == io.EOF {
			return nil
		}
		n++
		if t := bytes.TrimSpace(buf); len(t) > 0 {
			if err := each(n, bytes.Clone(t)); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// eachLineIn calls fn with every non-blank line of data and its 1-based
// number.
func eachLineIn(data []byte, fn func(n int, line []byte) error) error {
	n := 0
	for len(data) > 0 {
		n++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		if err := fn(n, line); err != nil {
			return err
		}
	}
	return nil
}

// checkUTF8 notes each line of data holding invalid UTF-8 (NoteReplaced).
func (b *builder) checkUTF8(data []byte) {
	if utf8.Valid(data) {
		return
	}
	n := 0
	for len(data) > 0 {
		n++
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if !utf8.Valid(line) {
			b.noteInvalidUTF8(n, line)
		}
	}
}

// noteInvalidUTF8 notes the invalid UTF-8 in line n: how many bytes, and
// the column of the first. encoding/json reads each such byte in a string
// as U+FFFD; a byte outside a string is a syntax error reported anyway.
func (b *builder) noteInvalidUTF8(n int, line []byte) {
	bad, first := 0, 0
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRune(line[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
			if first == 0 {
				first = i + 1
			}
		}
		i += size
	}
	what := "bytes"
	if bad == 1 {
		what = "byte"
	}
	b.note(NoteReplaced, loc{line: n, col: first}, "%d %s of invalid UTF-8 read as U+FFFD", bad, what)
}

// withName sets the file name of a *ReadError without one, or wraps err in
// one naming the file.
func withName(err error, name string) error {
	var re *ReadError
	if errors.As(err, &re) {
		if re.File == "" {
			re.File = name
		}
		return err
	}
	return &ReadError{File: name, Err: err}
}

// openSized opens the file at path and returns it with its size (0 when
// it is not a regular file).
func openSized(path string) (*os.File, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return f, 0, nil
	}
	return f, fi.Size(), nil
}
