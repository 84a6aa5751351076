package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
	"github.com/condense-dev/condense/transcript"
)

// parseSize reads a token count: "32k" = 32,000; "1m" = 1,000,000; plain
// integers as given.
func parseSize(s string) (int, error) {
	t := strings.ToLower(strings.TrimSpace(strings.ReplaceAll(s, "_", "")))
	mult := 1
	switch {
	case strings.HasSuffix(t, "k"):
		mult, t = 1_000, t[:len(t)-1]
	case strings.HasSuffix(t, "m"):
		mult, t = 1_000_000, t[:len(t)-1]
	}
	if t == "" {
		return 0, fmt.Errorf("invalid size %q", s)
	}
	if f, err := strconv.ParseFloat(t, 64); err == nil && mult > 1 {
		v := f * float64(mult)
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0) || v >= math.MaxInt32*1000.0:
			return 0, fmt.Errorf("invalid size %q", s)
		case v < 0:
			return 0, fmt.Errorf("invalid size %q: negative", s)
		case v != math.Trunc(v):
			return 0, fmt.Errorf("invalid size %q: not a whole number of tokens", s)
		}
		return int(v), nil
	}
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("invalid size %q (use an integer, or 32k, 1m)", s)
	}
	return n, nil
}

// sizeFlag is a pflag.Value holding a size.
type sizeFlag struct {
	n   int
	set bool
}

func (f *sizeFlag) String() string { return strconv.Itoa(f.n) }

// Type names the value in help ("--window size").
func (f *sizeFlag) Type() string { return "size" }

func (f *sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	f.n, f.set = n, true
	return nil
}

// formatHelp is the --format flag's help, listing every format the
// transcript package reads.
func formatHelp() string {
	names := make([]string, len(transcript.Formats))
	for i, f := range transcript.Formats {
		names[i] = string(f)
	}
	return "input format: auto, " + strings.Join(names, ", ")
}

// formatNames lists the --format values, for completion.
func formatNames() []string {
	names := []string{string(transcript.FormatAuto)}
	for _, f := range transcript.Formats {
		names = append(names, string(f))
	}
	return names
}

// budgetFlags are the flags every command that renders shares.
type budgetFlags struct {
	model    string
	window   sizeFlag
	reserve  sizeFlag
	fraction float64
	lowWater float64
	format   string
	lenient  bool
	exact    bool
	// notes, when set, receives the notes of the records skipped, dropped,
	// repaired or normalized while reading.
	notes io.Writer
	// statsHint: the command has --stats, where the notes a line on
	// standard error leaves out can be read.
	statsHint bool
	// parsedFormat is format, checked.
	parsedFormat transcript.Format
	// maxInput caps the input's size in bytes (--max-input).
	maxInput sizeFlag
}

// maxBytes is the transcript.Options.MaxBytes of --max-input: the default
// cap when the flag is not given, none for --max-input 0.
func (b *budgetFlags) maxBytes() int64 {
	switch {
	case !b.maxInput.set:
		return 0
	case b.maxInput.n == 0:
		return -1
	}
	return int64(b.maxInput.n)
}

func (b *budgetFlags) register(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&b.model, "model", "", "`MODEL` the request is for (default: the transcript's model); sets the window and the counter")
	fs.Var(&b.window, "window", "context window in tokens, e.g. 200k (default: the model's)")
	fs.Var(&b.reserve, "reserve", "tokens reserved for the answer (default: the request's output cap, else 4096)")
	fs.Float64Var(&b.fraction, "fraction", condense.DefaultFraction, "share of the input limit at which compaction starts")
	fs.Float64Var(&b.lowWater, "low-water", condense.DefaultLowWater, "share of the threshold a compaction brings the request down to (1: just under the threshold)")
	b.registerRead(cmd)
}

// registerRead registers the flags that say how a transcript is read and
// counted: --format, --lenient, --exact.
func (b *budgetFlags) registerRead(cmd *cobra.Command) {
	fs := cmd.Flags()
	fs.StringVar(&b.format, "format", "auto", formatHelp())
	fs.BoolVar(&b.lenient, "lenient", false, "skip malformed records and orphan results instead of failing (each is noted on standard error)")
	fs.Var(&b.maxInput, "max-input", "largest input read, in bytes, e.g. 512m (default 256 MiB; 0: no limit); compacting takes up to about 3 times the input's size in memory")
	fs.BoolVar(&b.exact, "exact", false, "count Claude models exactly with Anthropic's count_tokens endpoint, one request per new message "+
		"(needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL sets the address); OpenAI models are always counted exactly")
	_ = cmd.RegisterFlagCompletionFunc("format", fixedCompletion(formatNames()...))
}

// fixedCompletion completes a flag's value from a fixed list.
func fixedCompletion(values ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return values, cobra.ShellCompDirectiveNoFileComp
	}
}

// check validates the flag values. Commands call it before reading any
// input, so a bad value fails at once, however large (or missing) the input.
func (b *budgetFlags) check(cmd *cobra.Command) error {
	format, err := transcript.ParseFormat(b.format)
	if err != nil {
		return &usageError{err: fmt.Errorf("--format: %w", err), cmd: cmd.CommandPath()}
	}
	b.parsedFormat = format
	if !(b.fraction > 0 && b.fraction <= 1) { // NaN fails too
		return flagErrorf(cmd, "--fraction must be in (0, 1], got %v", b.fraction)
	}
	if b.lowWater == 0 {
		b.lowWater = condense.DefaultLowWater
	}
	if !(b.lowWater > 0 && b.lowWater <= 1) {
		return flagErrorf(cmd, "--low-water must be in (0, 1], got %v", b.lowWater)
	}
	if b.window.set && b.window.n <= 0 {
		return flagErrorf(cmd, "--window must be positive")
	}
	if b.window.set && b.reserve.set && b.reserve.n >= b.window.n {
		return flagErrorf(cmd, "--reserve %s leaves no room for input in --window %s", humanize.Comma(int64(b.reserve.n)), humanize.Comma(int64(b.window.n)))
	}
	return nil
}

// counterFor returns the counter of model: the offline one of tokens, or
// with --exact Anthropic's count_tokens endpoint for a Claude model.
func (b *budgetFlags) counterFor(model string) (condense.Counter, error) {
	c := tokens.ForModel(model, tokens.Models)
	if !b.exact || c.Exact() {
		return c, nil
	}
	info, _ := tokens.Models.Lookup(model)
	if info.Family != tokens.FamilyAnthropic && !strings.HasPrefix(tokens.Normalize(model), "claude") {
		return nil, usagef("--exact: no exact counter for %q: Claude models are counted with Anthropic's count_tokens endpoint, OpenAI models with their own tokenizer; others have an estimate only", model)
	}
	exact, err := anthropic.NewCounter(anthropic.Options{Model: model})
	if err != nil {
		return nil, usagef("--exact: %v", err)
	}
	return exact, nil
}

// loaded is a transcript with everything needed to render it.
type loaded struct {
	path    string
	tr      *transcript.Transcript
	model   string
	info    condense.ModelInfo
	budget  condense.Budget
	counter condense.Counter
}

// stdinName is how errors and reports name standard input.
const stdinName = "<stdin>"

// headSize is how much of the input readTranscript keeps aside to explain
// an input that is not JSON at all.
const headSize = 4096

// readTranscript reads the transcript at path (standard input for "-")
// with transcript.ReadFile or transcript.Read, which stream JSONL formats
// and refuse an input over --max-input before it is all in memory. It
// returns the name the input is reported under.
func (b *budgetFlags) readTranscript(e *env, path string) (*transcript.Transcript, string, error) {
	opts := transcript.Options{Format: b.parsedFormat, Lenient: b.lenient, MaxBytes: b.maxBytes(), Name: path}
	if e.sizeHint != nil {
		if n := b.inputSize(e, path); n > 0 {
			e.sizeHint(n)
		}
	}
	var (
		tr   *transcript.Transcript
		err  error
		head []byte
	)
	if path == "-" {
		opts.Name = stdinName
		br := bufio.NewReaderSize(e.stdin, headSize)
		peek, perr := br.Peek(headSize)
		if perr != nil && perr != io.EOF && perr != bufio.ErrBufferFull {
			return nil, stdinName, &usageError{err: fmt.Errorf("reading standard input: %w", perr)}
		}
		if perr != nil && len(bytes.TrimSpace(peek)) == 0 {
			return nil, stdinName, usagef("no FILE given and standard input is empty: pass one FILE, or pipe the transcript in")
		}
		head = bytes.Clone(peek)
		tr, err = b.readPipe(e, br, opts)
	} else {
		tr, err = transcript.ReadFile(path, opts)
		if err != nil && errors.Is(err, transcript.ErrUnknownFormat) {
			head = fileHead(path)
		}
	}
	if err != nil {
		if b.parsedFormat == transcript.FormatAuto && errors.Is(err, transcript.ErrUnknownFormat) && looksPlainText(head) {
			return nil, opts.Name, usagef("%s: unsupported format: the input looks like plain text (console output?), not a JSON or JSONL transcript; "+
				"condense reads %s (--format names one; auto detects it)", opts.Name, formatList(transcript.Formats))
		}
		return nil, opts.Name, &usageError{err: err}
	}
	return tr, opts.Name, nil
}

// spoolFrom is the size from which standard input that is not a regular
// file (a pipe) is copied to a temporary file before it is read: read from
// a reader of unknown size, a JSON document grows its buffer step by step
// and the memory limit can only guess its size (see setMemoryLimit), which
// took a piped 170 MB document to 3.6 times its size in resident memory
// against 2.7 times from the file.
const spoolFrom = 1 << 20

// readPipe reads the transcript on standard input, through br. A regular
// file (a redirect) and a pipe that ends within spoolFrom bytes are read as
// they are; a longer pipe is copied to a temporary file (at most the cap
// and one byte more) and read from there with its size known, as
// transcript.ReadFile reads files. When no temporary file can be made, the
// pipe is read as it is.
func (b *budgetFlags) readPipe(e *env, br *bufio.Reader, opts transcript.Options) (*transcript.Transcript, error) {
	if f, ok := e.stdin.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return transcript.Read(br, opts)
		}
	}
	first := make([]byte, spoolFrom)
	n, err := io.ReadFull(br, first)
	first = first[:n]
	switch {
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return transcript.Read(bytes.NewReader(first), opts)
	case err != nil:
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	rest := io.MultiReader(bytes.NewReader(first), br)
	tmp, err := os.CreateTemp("", "condense-stdin-*")
	if err != nil {
		return transcript.Read(rest, opts)
	}
	defer os.Remove(tmp.Name())
	defer tmp.Close()
	limit := opts.MaxBytes
	if limit == 0 {
		limit = transcript.DefaultMaxBytes
	}
	src := rest
	if limit > 0 {
		src = io.LimitReader(rest, limit+1)
	}
	size, err := io.Copy(tmp, src)
	if err != nil {
		return nil, fmt.Errorf("reading standard input into %s: %w", tmp.Name(), err)
	}
	if limit > 0 && size > limit {
		return nil, &transcript.ReadError{File: opts.Name, Err: fmt.Errorf("%w: the input is more than %d bytes, over the limit of %d bytes (--max-input)",
			transcript.ErrTooLarge, limit, limit)}
	}
	if err := tmp.Close(); err != nil {
		return nil, fmt.Errorf("reading standard input into %s: %w", tmp.Name(), err)
	}
	if e.sizeHint != nil {
		e.sizeHint(size)
	}
	return transcript.ReadFile(tmp.Name(), opts)
}

// inputSize returns how large the input at path (standard input for "-")
// can be read: a regular file's size, else the --max-input cap; 0 when
// neither is known (a pipe with the cap lifted). A file over the cap is
// refused after reading at most the cap.
func (b *budgetFlags) inputSize(e *env, path string) int64 {
	limit := b.maxBytes()
	if limit == 0 {
		limit = transcript.DefaultMaxBytes
	}
	var fi os.FileInfo
	var err error
	if path == "-" {
		f, ok := e.stdin.(*os.File)
		if !ok {
			return max(0, limit)
		}
		fi, err = f.Stat()
	} else {
		fi, err = os.Stat(path)
	}
	if err != nil || !fi.Mode().IsRegular() {
		return max(0, limit)
	}
	if limit > 0 {
		return min(fi.Size(), limit)
	}
	return fi.Size()
}

// fileHead returns the first bytes of the file at path (nil if it cannot
// be read).
func fileHead(path string) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	buf := make([]byte, headSize)
	n, _ := io.ReadFull(f, buf)
	return buf[:n]
}

// inputArg resolves a command's one input argument: the FILE given, or "-"
// (standard input) when none is and standard input is not a terminal.
func inputArg(cmd *cobra.Command, e *env, args []string) (string, error) {
	switch {
	case len(args) == 1:
		return args[0], nil
	case len(args) == 0 && !isTerminal(e.stdin):
		return "-", nil
	case len(args) == 0:
		return "", flagErrorf(cmd, "%s takes one FILE (or - for standard input)", cmd.Name())
	}
	return "", flagErrorf(cmd, "%s takes one FILE, got %d", cmd.Name(), len(args))
}

// load reads a transcript (path "-": standard input) and resolves its
// model, window and counter. check must have passed.
func (b *budgetFlags) load(e *env, path string) (*loaded, error) {
	tr, name, err := b.readTranscript(e, path)
	if err != nil {
		return nil, err
	}
	// Notes may quote the transcript (a call id, a value a reader could
	// not take): they leave condense, on standard error and in --stats,
	// with its secrets redacted.
	for i := range tr.Notes {
		tr.Notes[i].Reason, tr.Notes[i].Path = ledger.Redact(tr.Notes[i].Reason), ledger.Redact(tr.Notes[i].Path)
	}
	if b.notes != nil {
		printNotes(b.notes, name, tr, b.statsHint)
	}
	l := &loaded{path: name, tr: tr, model: b.model}
	if l.model == "" {
		l.model = tr.Request.Model
	}
	info, known := tokens.Models.Lookup(l.model)
	if !b.window.set && (!known || info.Window == 0) {
		if l.model == "" {
			return nil, usagef("%s: the transcript names no model: pass --model or --window", name)
		}
		return nil, usagef("unknown model %q: pass --window (e.g. --window 128k)", l.model)
	}
	l.info = info
	// One memo per transcript: inspect and eval render it several ways, and
	// each message is tokenized once whatever the number of previews.
	counter, err := b.counterFor(l.model)
	if err != nil {
		return nil, err
	}
	l.counter = tokens.Memo(counter)
	req := tr.Request
	req.Model = l.model
	settings := condense.Settings{Fraction: b.fraction, LowWater: b.lowWater}
	if b.window.set {
		settings.Window = b.window.n
	}
	if b.reserve.set {
		settings.ReservedOutput = b.reserve.n
	}
	l.budget = condense.ResolveBudget(&req, info, settings)
	if b.reserve.set && b.reserve.n == 0 {
		l.budget.ReservedOutput = 0
	}
	if l.budget.InputLimit() == 0 {
		return nil, usagef("window %s leaves no room for input after reserving %s tokens",
			humanize.Comma(int64(l.budget.Window)), humanize.Comma(int64(l.budget.ReservedOutput)))
	}
	return l, nil
}

// looksPlainText reports whether data does not even start like JSON: its
// first non-blank byte opens neither an object nor an array.
func looksPlainText(data []byte) bool {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	t := bytes.TrimSpace(data)
	return len(t) > 0 && t[0] != '{' && t[0] != '['
}

func formatList(fs []transcript.Format) string {
	s := make([]string, len(fs))
	for i, f := range fs {
		s[i] = string(f)
	}
	return strings.Join(s, ", ")
}

// maxNotes is how many notes the line on standard error lists.
const maxNotes = 20

// printNotes writes what reading did to records that were not read as they
// stand: one line of counts, then each note (up to maxNotes).
func printNotes(w io.Writer, name string, tr *transcript.Transcript, statsHint bool) {
	counts := map[transcript.NoteAction]int{}
	for _, n := range tr.Notes {
		counts[n.Action]++
	}
	// Readers count what they do; a note may be missing for a count.
	counts[transcript.NoteSkipped] = max(counts[transcript.NoteSkipped], tr.Skipped)
	counts[transcript.NoteDropped] = max(counts[transcript.NoteDropped], tr.Dropped)
	counts[transcript.NoteRepaired] = max(counts[transcript.NoteRepaired], tr.Repaired)
	var said []string
	for _, a := range []struct {
		action transcript.NoteAction
		what   string
	}{
		{transcript.NoteSkipped, "malformed records skipped"},
		{transcript.NoteDropped, "orphan tool results dropped"},
		{transcript.NoteRepaired, "interrupted tool calls given the result " + transcript.StandInResult},
		{transcript.NoteRekeyed, "reused tool call ids given new ones"},
		{transcript.NoteReordered, "records put back in order"},
		{transcript.NoteReplaced, "lines with invalid UTF-8 read as U+FFFD"},
	} {
		if n := counts[a.action]; n > 0 {
			said = append(said, fmt.Sprintf("%s %s", humanize.Comma(int64(n)), a.what))
		}
	}
	if len(said) == 0 {
		return
	}
	fmt.Fprintf(w, "condense: %s: %s\n", name, strings.Join(said, ", "))
	for i, n := range tr.Notes {
		if i == maxNotes {
			more := fmt.Sprintf("  and %s more", humanize.Comma(int64(len(tr.Notes)-maxNotes)))
			if statsHint {
				more += "; see --stats"
			}
			fmt.Fprintln(w, more)
			break
		}
		fmt.Fprintf(w, "  %s\n", n)
	}
}

// request returns the transcript's request with the resolved model.
func (l *loaded) request() condense.Request {
	req := l.tr.Request
	req.Model = l.model
	return req
}

// settings returns the preflight settings of l's budget.
func (l *loaded) settings() condense.Settings {
	req := l.request()
	return l.budget.Settings(&req)
}

// preflight returns a preflight for l with strategy s summarizing with sum,
// the transcript's own checkpoint (if any) restored as the current
// rendering.
func (l *loaded) preflight(s condense.Strategy, sum condense.Summarizer, log *slog.Logger) *condense.Preflight {
	pf := condense.NewPreflight(l.counter, s, &condense.Options{Registry: tokens.Models, Settings: l.settings(),
		Summarizer: sum, Logger: log})
	if cp := l.tr.Checkpoint; cp != nil {
		msgs := l.tr.Request.Messages
		r := condense.Rendering{{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 0, End: cp.FirstKept},
			Message: condense.UserText(cp.Summary)}}
		for i := cp.FirstKept; i < len(msgs); i++ {
			r = append(r, condense.Item{Index: i, Message: msgs[i]})
		}
		if err := pf.Restore(msgs, r, 1); err != nil {
			log.Warn("the transcript's own compaction cannot be restored; rendering the whole history", "source", cp.Source, "err", err)
		}
	}
	return pf
}

// strategyNames lists the --strategy values.
var strategyNames = []string{"pipeline", "mask", "drop-oldest", "clear-tool-uses", "summarize", "segments"}

// newStrategy builds a strategy by its CLI name.
func newStrategy(name string) (condense.Strategy, error) {
	st, err := strategy.ByName(name)
	if err != nil {
		return nil, usagef("unknown --strategy %q (one of %s)", name, strings.Join(strategyNames, ", "))
	}
	return st, nil
}

// logger returns the CLI's logger: warnings and errors to stderr, with the
// secrets of their string and error values redacted (an error may quote
// the transcript).
func logger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn, ReplaceAttr: redactAttr}))
}

// redactAttr passes a log attribute's text through ledger.Redact.
func redactAttr(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value.Resolve(); {
	case v.Kind() == slog.KindString:
		a.Value = slog.StringValue(ledger.Redact(v.String()))
	case v.Kind() == slog.KindAny:
		if err, ok := v.Any().(error); ok {
			a.Value = slog.StringValue(ledger.Redact(err.Error()))
		} else if s, ok := v.Any().(fmt.Stringer); ok {
			a.Value = slog.StringValue(ledger.Redact(s.String()))
		}
	}
	return a
}

// openOut opens the output file, or returns stdout for "" and "-".
func openOut(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "" || path == "-" {
		return stdout, func() error { return nil }, nil
	}
	f, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f.Close, nil
}

func registryLookup(model string) (condense.ModelInfo, bool) { return tokens.Models.Lookup(model) }
