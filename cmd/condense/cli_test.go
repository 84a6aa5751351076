package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/dustin/go-humanize"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/testmode"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
	"github.com/condense-dev/condense/transcript"
)

// ttyBuffer collects output, safe for the progress bar's goroutine, and
// says it is a terminal when tty is set.
type ttyBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	tty bool
}

func (b *ttyBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *ttyBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func (b *ttyBuffer) IsTerminal() bool { return b.tty }

// ttyReader is standard input that may say it is a terminal.
type ttyReader struct {
	io.Reader
	tty bool
}

func (r ttyReader) IsTerminal() bool { return r.tty }

// runTTY runs the CLI with stdin as standard input and a standard error
// that is a terminal when stderrTTY is set.
func runTTY(t *testing.T, stdin io.Reader, stderrTTY bool, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out bytes.Buffer
	errb := &ttyBuffer{tty: stderrTTY}
	if stdin == nil {
		stdin = strings.NewReader("")
	}
	err := runEnv(context.Background(), args, &env{stdin: stdin, stdout: &out, stderr: errb})
	return out.String(), errb.String(), ExitCode(err)
}

// noDelay shows progress bars at once for the rest of the test.
func noDelay(t *testing.T) {
	old := progressDelay
	progressDelay = 0
	t.Cleanup(func() { progressDelay = old })
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "-v"} {
		out, errOut, code := runCLI(t, arg)
		if code != 0 || !strings.HasPrefix(out, "condense ") || errOut != "" {
			t.Errorf("%s: exit %d, %q %q", arg, code, out, errOut)
		}
	}
	for _, tt := range []struct {
		info debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "(devel)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}, "(devel) 0123456789ab+dirty"},
		{debug.BuildInfo{Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc"}}}, "(devel) abc"},
	} {
		if got := versionOf(&tt.info); got != tt.want {
			t.Errorf("versionOf(%+v) = %q, want %q", tt.info, got, tt.want)
		}
	}
}

func TestStandardInput(t *testing.T) {
	data, err := os.ReadFile(testdata + "openai-chat.json")
	if err != nil {
		t.Fatal(err)
	}
	want, _, code := runCLI(t, "compact", "--to", "condense", "--window", "1m", testdata+"openai-chat.json")
	if code != 0 {
		t.Fatal(code)
	}
	for _, args := range [][]string{{"compact", "--to", "condense", "--window", "1m", "-"}, {"compact", "--to", "condense", "--window", "1m"}} {
		out, errOut, code := runTTY(t, ttyReader{Reader: bytes.NewReader(data)}, false, args...)
		if code != 0 || out != want {
			t.Errorf("%v: exit %d, %s\n%.200s", args, code, errOut, out)
		}
	}
	// A terminal on standard input and no FILE is a usage error, not a
	// wait for typing.
	_, errOut, code := runTTY(t, ttyReader{Reader: failingReader{t}, tty: true}, false, "compact", "--window", "1m")
	if code != 2 || !strings.Contains(errOut, "one FILE (or - for standard input)") || !strings.Contains(errOut, "condense compact --help") {
		t.Errorf("no FILE on a terminal: exit %d, %s", code, errOut)
	}
	// count, inspect and eval read it too, named <stdin>.
	for _, cmd := range []string{"count", "inspect", "eval"} {
		out, errOut, code := runTTY(t, ttyReader{Reader: bytes.NewReader(data)}, false, cmd, "-")
		if code != 0 || !strings.Contains(out, "<stdin>") {
			t.Errorf("%s -: exit %d, %s\n%.300s", cmd, code, errOut, out)
		}
	}
	if _, errOut, code := runTTY(t, ttyReader{Reader: bytes.NewReader(data)}, false, "eval", "-", "-"); code != 2 || !strings.Contains(errOut, "once") {
		t.Errorf("eval - -: exit %d, %s", code, errOut)
	}
}

// failingReader fails the test when read: the command had no reason to.
type failingReader struct{ t *testing.T }

func (r failingReader) Read([]byte) (int, error) {
	r.t.Error("standard input was read")
	return 0, io.EOF
}

func TestCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		out, errOut, code := runCLI(t, "completion", shell)
		if code != 0 || !strings.Contains(out, "condense") {
			t.Errorf("completion %s: exit %d, %s", shell, code, errOut)
		}
	}
	// Flag values complete from the lists the commands accept.
	out, _, code := runCLI(t, "__complete", "compact", "--format", "")
	if code != 0 || !strings.Contains(out, "claude-code") || !strings.Contains(out, "auto") {
		t.Errorf("--format completion: exit %d\n%s", code, out)
	}
	out, _, _ = runCLI(t, "__complete", "compact", "--to", "")
	if !strings.Contains(out, "anthropic") || strings.Contains(out, "codex") {
		t.Errorf("--to completion:\n%s", out)
	}
	out, _, _ = runCLI(t, "__complete", "comp")
	if !strings.Contains(out, "compact") || !strings.Contains(out, "completion") {
		t.Errorf("command completion:\n%s", out)
	}
}

func TestFlagErrorsAreOneLineWithAHint(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
		hint string
	}{
		{[]string{"compact", "--windw", "3k", "x.json"}, "condense: unknown flag --windw", "Run 'condense compact --help' for usage."},
		{[]string{"count", "--window", "12q", "x.json"}, `invalid size "12q"`, "Run 'condense count --help' for usage."},
		{[]string{"eval", "--fraction"}, "flag needs an argument", "Run 'condense eval --help' for usage."},
		{[]string{"inspect", "--top", "-1", "x.json"}, "--top must not be negative", "Run 'condense inspect --help' for usage."},
		{[]string{"replay", "a", "b"}, "replay takes one journal file, got 2", "Run 'condense replay --help' for usage."},
		{[]string{"squash"}, `unknown command "squash"`, "Run 'condense --help' for usage."},
	} {
		_, errOut, code := runCLI(t, tt.args...)
		lines := strings.Split(strings.TrimSpace(errOut), "\n")
		if code != 2 || !strings.Contains(lines[0], tt.want) || lines[len(lines)-1] != tt.hint || strings.Contains(errOut, "Flags:") {
			t.Errorf("%v: exit %d\n%s", tt.args, code, errOut)
		}
		if tt.args[0] != "squash" && len(lines) != 2 {
			t.Errorf("%v: %d lines, want the error and the hint:\n%s", tt.args, len(lines), errOut)
		}
	}
}

func TestSingleDashLongFlags(t *testing.T) {
	dir := t.TempDir()
	stats := filepath.Join(dir, "stats.json")
	out, errOut, code := runCLI(t, "compact", "-window", "1m", "-to=condense", "-stats", stats, testdata+"openai-chat.json")
	if code != 0 || !strings.Contains(out, `"version"`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(stats); err != nil {
		t.Fatal(err)
	}
	// A single-dash word that is no flag of the command stays an error;
	// single-letter shorthands and everything after -- are left alone.
	if _, errOut, code := runCLI(t, "compact", "-windw", "1m", testdata+"openai-chat.json"); code != 2 || !strings.Contains(errOut, "unknown shorthand") {
		t.Errorf("-windw: exit %d, %s", code, errOut)
	}
	got := singleDashLong(newRoot(&env{}), []string{"compact", "-o", "x", "-json", "-window", "3k", "--", "-window"})
	if strings.Join(got, " ") != "compact -o x -json --window 3k -- -window" {
		t.Errorf("rewritten to %q", got)
	}
}

func TestFlagsCheckedBeforeInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.json")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"compact", "--to", "codex", missing}, "output formats are " + formatList(transcript.WriteFormats)},
		{[]string{"compact", "--fraction", "1.5", missing}, "--fraction"},
		{[]string{"compact", "--low-water", "2", missing}, "--low-water"},
		{[]string{"compact", "--window", "0", missing}, "--window must be positive"},
		{[]string{"compact", "--window", "4k", "--reserve", "8k", missing}, "no room for input"},
		{[]string{"compact", "--strategy", "magic", missing}, "unknown --strategy"},
		{[]string{"compact", "--summarizer", "nope", missing}, "--summarizer"},
		{[]string{"compact", "--format", "word", missing}, "--format"},
		{[]string{"inspect", "--fraction", "0", missing}, "--fraction"},
		{[]string{"eval", "--fraction", "NaN", missing}, "--fraction"},
		{[]string{"count", "--format", "nope", missing}, "--format"},
		{[]string{"compact", "--to", "codex"}, "output formats"},
	} {
		_, errOut, code := runTTY(t, ttyReader{Reader: failingReader{t}}, false, tt.args...)
		if code != 2 || !strings.Contains(errOut, tt.want) || strings.Contains(errOut, "missing.json") {
			t.Errorf("%v: exit %d, want %q before any read:\n%s", tt.args, code, tt.want, errOut)
		}
	}
}

func TestPlainTextInput(t *testing.T) {
	console := "$ go test ./...\nok  \tgithub.com/acme/x\t0.2s\nFAIL: TestY\n"
	_, errOut, code := runTTY(t, ttyReader{Reader: strings.NewReader(console)}, false, "compact", "--window", "32k", "-")
	if code != 2 || !strings.Contains(errOut, "unsupported format") || !strings.Contains(errOut, "plain text") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, f := range transcript.Formats {
		if !strings.Contains(errOut, string(f)) {
			t.Errorf("the error does not list %s: %s", f, errOut)
		}
	}
	// JSON that is no known transcript keeps the reader's own message.
	_, errOut, _ = runTTY(t, ttyReader{Reader: strings.NewReader(`{"hello": 1}`)}, false, "compact", "--window", "32k", "-")
	if strings.Contains(errOut, "plain text") || !strings.Contains(errOut, "cannot detect") {
		t.Errorf("JSON input: %s", errOut)
	}
}

func TestCompactSummaryOnTerminal(t *testing.T) {
	path, window, _ := largeRun(t)
	args := []string{"compact", "--window", window, path}
	_, errOut, code := runTTY(t, nil, true, args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st Stats
	stdout, _, _ := runCLI(t, append(args, "-o", filepath.Join(t.TempDir(), "x.json"), "--stats", "-")...)
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("compacted %s → %s tokens (%d compaction", humanize.Comma(int64(st.Input.Tokens)), humanize.Comma(int64(st.Output.Tokens)), len(st.Compactions))
	if !strings.Contains(errOut, want) || !strings.Contains(errOut, "pipeline), valid") {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
	small := []string{"compact", "--window", "1m", testdata + "openai-chat.json"}
	_, errOut, _ = runTTY(t, nil, true, small...)
	if !strings.Contains(errOut, "nothing to compact: ") || !strings.Contains(errOut, "window 1,000,000") {
		t.Errorf("nothing to compact: %s", errOut)
	}
	// Not on a terminal, or with --stats: no summary.
	if _, errOut, _ := runTTY(t, nil, false, small...); strings.Contains(errOut, "nothing to compact") {
		t.Errorf("summary on a non-terminal: %s", errOut)
	}
	if _, errOut, _ := runTTY(t, nil, true, append(small, "--stats", filepath.Join(t.TempDir(), "s.json"))...); strings.Contains(errOut, "nothing to compact") {
		t.Errorf("summary with --stats: %s", errOut)
	}
}

// writeLenient writes a Claude Code session with bad malformed lines after
// a good exchange.
func writeLenient(t *testing.T, bad int) string {
	t.Helper()
	var b strings.Builder
	b.WriteString(`{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"Fix the build."}}` + "\n")
	for i := range bad {
		fmt.Fprintf(&b, "{not json %d\n", i)
	}
	b.WriteString(`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Done."}]}}` + "\n")
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLenientNotes(t *testing.T) {
	path := writeLenient(t, 2)
	out, errOut, code := runCLI(t, "compact", "--lenient", "-o", filepath.Join(t.TempDir(), "x.json"), "--stats", "-", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "2 malformed records skipped") || !strings.Contains(errOut, "  line 2 column 2: skipped: ") || !strings.Contains(errOut, "  line 3 column 2: skipped: ") {
		t.Errorf("stderr lacks the notes:\n%s", errOut)
	}
	var raw map[string]any
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	notes, _ := raw["notes"].([]any)
	if raw["skipped"] != float64(2) || len(notes) != 2 {
		t.Fatalf("stats: skipped %v, notes %v", raw["skipped"], raw["notes"])
	}
	n := notes[0].(map[string]any)
	if n["action"] != "skipped" || n["line"] != float64(2) || n["reason"] == "" {
		t.Errorf("note %v", n)
	}
	// Notes are always a list, [] when there are none.
	out, _, _ = runCLI(t, "compact", "--window", "1m", "-o", filepath.Join(t.TempDir(), "y.json"), "--stats", "-", testdata+"anthropic-messages.json")
	if !strings.Contains(out, `"notes": []`) {
		t.Errorf("no empty notes list:\n%s", out)
	}
	// Past maxNotes the line says how many more and where to read them.
	_, errOut, _ = runCLI(t, "compact", "--lenient", "-o", filepath.Join(t.TempDir(), "z.json"), writeLenient(t, maxNotes+5))
	if strings.Count(errOut, ": skipped: ") != maxNotes || !strings.Contains(errOut, "  and 5 more; see --stats") {
		t.Errorf("long notes:\n%s", errOut)
	}
	// count has no --stats to point to.
	_, errOut, _ = runCLI(t, "count", "--lenient", writeLenient(t, maxNotes+1))
	if !strings.Contains(errOut, "  and 1 more\n") {
		t.Errorf("count's notes:\n%s", errOut)
	}
}

func TestCountWindow(t *testing.T) {
	out, errOut, code := runCLI(t, "count", "--window", "10k", "--json", testdata+"openai-chat.json")
	var rep CountReport
	if code != 0 || json.Unmarshal([]byte(out), &rep) != nil || rep.Window != 10_000 {
		t.Fatalf("exit %d, window %d: %s", code, rep.Window, errOut)
	}
	out, _, _ = runCLI(t, "count", "--window", "10k", testdata+"openai-chat.json")
	if !strings.Contains(out, "the window is 10,000 tokens") {
		t.Errorf("text:\n%s", out)
	}
	// A model the registry does not know needs no window to be counted.
	if _, errOut, code := runCLI(t, "count", "--model", "mystery-1", testdata+"openai-chat.json"); code != 0 {
		t.Errorf("unknown model: exit %d: %s", code, errOut)
	}
}

func TestCompactInstructions(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out.json")
	focus := "focus on the flaky scheduler test"
	large := testmode.Part(t, testdata+"claude-code-large.jsonl", 3)
	stdout, errOut, code := runCLI(t, "compact", "--instructions", focus, "--strategy", "summarize", "--to", "condense",
		"--window", "1m", "-o", out, "--stats", "-", large)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var st Stats
	if err := json.Unmarshal([]byte(stdout), &st); err != nil {
		t.Fatal(err)
	}
	// The window is far from full, yet the manual compaction ran, with the
	// instructions.
	if st.NothingToCompact || len(st.Compactions) == 0 || st.Instructions != focus || !st.Valid {
		t.Fatalf("stats %+v", st)
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), focus) {
		t.Errorf("the summary does not carry the instructions")
	}
	// Without them nothing is compacted.
	stdout, _, _ = runCLI(t, "compact", "--strategy", "summarize", "--window", "1m", "-o", out, "--stats", "-", large)
	if !strings.Contains(stdout, `"nothing_to_compact": true`) {
		t.Errorf("without --instructions:\n%s", stdout)
	}
	// On a transcript holding the agent's own compaction (restored as the
	// current rendering), a manual compaction builds on it: the task that
	// compaction already summarized is not asked back.
	stdout, errOut, code = runCLI(t, "compact", "--instructions", focus, "--window", "1m", "-o", out, "--stats", "-", testdata+"codex-rollout.jsonl")
	if code != 0 || strings.Contains(errOut, "refused") {
		t.Errorf("manual compaction over the file's own: exit %d: %s", code, errOut)
	}
	if err := json.Unmarshal([]byte(stdout), &st); err != nil || st.NothingToCompact || len(st.Compactions) == 0 || !st.Valid {
		t.Errorf("manual compaction over the file's own: %v, stats\n%s", err, stdout)
	}
}

func TestEvalSkipsBadFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "console.log")
	if err := os.WriteFile(bad, []byte("$ make\nerror: no rule\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "eval", "--json", "--window", "2k", "--reserve", "500", samples+"claude-code.jsonl", bad)
	if code != 0 || !strings.Contains(errOut, "skipping "+bad) || !strings.Contains(errOut, "plain text") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res EvalOutput
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if len(res.Transcripts) != 1 || len(res.Errors) != 1 || res.Errors[0].File != bad || !strings.Contains(res.Errors[0].Message, "unsupported format") {
		t.Errorf("transcripts %d, errors %+v", len(res.Transcripts), res.Errors)
	}
	// Text output too; the file is named on standard error.
	if _, _, code := runCLI(t, "eval", "--window", "2k", "--reserve", "500", samples+"claude-code.jsonl", bad); code != 0 {
		t.Errorf("text: exit %d", code)
	}
	// No file evaluated: exit 2.
	_, errOut, code = runCLI(t, "eval", bad, filepath.Join(dir, "missing.jsonl"))
	if code != 2 || !strings.Contains(errOut, "none of the 2 files") {
		t.Errorf("all bad: exit %d: %s", code, errOut)
	}
}

func TestEvalChartSummaryAndHint(t *testing.T) {
	dir := t.TempDir()
	// A transcript with no assistant step: nothing to replay, no panel.
	empty := filepath.Join(dir, "question.json")
	if err := os.WriteFile(empty, []byte(`{"model": "gpt-4o", "messages": [{"role": "user", "content": "What is 2 + 2?"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	chart := filepath.Join(dir, "chart.svg")
	_, errOut, code := runCLI(t, "eval", "--chart", chart, samples+"claude-code.jsonl", empty)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	// The window (the model's) is far larger than either transcript.
	if !strings.Contains(errOut, "the window is larger than needed") || !strings.Contains(errOut, "--window") {
		t.Errorf("no hint:\n%s", errOut)
	}
	data, err := os.ReadFile(chart)
	if err != nil {
		t.Fatal(err)
	}
	counts, _ := svgCounts(t, data)
	s := string(data)
	if strings.Count(s, `class="panel"`) != 1 || strings.Count(s, `class="summary"`) != 1 {
		t.Errorf("want one summary and one panel (the empty transcript has none): %d panels", strings.Count(s, `class="panel"`))
	}
	if counts["polyline"] != len(policyNames) || strings.Count(s, `class="retention"`) != len(policyNames) || strings.Count(s, `class="cost"`) != len(policyNames) {
		t.Errorf("%d polylines, %d retention bars, %d cost bars", counts["polyline"], strings.Count(s, `class="retention"`), strings.Count(s, `class="cost"`))
	}
	if !strings.Contains(s, "All 2 transcripts") || !strings.Contains(s, "larger than needed") {
		t.Errorf("summary title or note missing")
	}
	// Under pressure there is no hint.
	_, errOut, _ = runCLI(t, "eval", "--window", "2k", "--reserve", "500", samples+"claude-code.jsonl")
	if strings.Contains(errOut, "larger than needed") {
		t.Errorf("hint under pressure: %s", errOut)
	}
}

func TestReplayProgressBar(t *testing.T) {
	noDelay(t)
	path := recordRun(t, t.TempDir(), strategy.DropOldest{}, 0)
	out, errOut, code := runTTY(t, nil, true, "replay", path)
	if code != 0 || !strings.Contains(out, "events match") {
		t.Fatalf("exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "replay") || !strings.Contains(errOut, "calls") {
		t.Errorf("no bar on a terminal: %q", errOut)
	}
	_, errOut, _ = runTTY(t, nil, false, "replay", path)
	if errOut != "" {
		t.Errorf("a bar on a non-terminal: %q", errOut)
	}
}

// The replay's bar counts the assistant messages the run's counter is
// asked to count, up to the recorded model calls, and leaves the counts
// themselves to the counter beneath.
func TestProgressCounter(t *testing.T) {
	base := tokens.ForModel("gpt-4o", tokens.Models)
	bar := startProgress(io.Discard, "replay", "calls", 3)
	c := &progressCounter{Counter: base, bar: bar}
	user, reply := condense.UserText("Run the tests."), condense.AssistantText("They pass.")
	if c.CountMessage(&user) != base.CountMessage(&user) || bar.done.Load() != 0 {
		t.Fatalf("a user message moved the bar to %d", bar.done.Load())
	}
	for range 5 {
		if c.CountMessage(&reply) != base.CountMessage(&reply) {
			t.Fatal("the count changed")
		}
	}
	if bar.done.Load() != 3 {
		t.Errorf("bar at %d of 3", bar.done.Load())
	}
	if cr, ok := base.(condense.Corrector); ok && cr.Correction() != c.Correction() {
		t.Errorf("correction %v, want %v", c.Correction(), cr.Correction())
	}
	bar.finish()
}

// An input over --max-input is refused with exit 2 and a message naming
// the sizes, from a file or from standard input; --max-input 0 lifts the cap.
func TestMaxInput(t *testing.T) {
	_, errOut, code := runCLI(t, "count", "--window", "8k", "--max-input", "1k", testdata+"claude-code.jsonl")
	if code != 2 || !strings.Contains(errOut, "over the limit of 1000 bytes") {
		t.Errorf("file: exit %d: %s", code, errOut)
	}
	data, _ := os.ReadFile(testdata + "openai-chat.json")
	var out, errb bytes.Buffer
	err := runEnv(context.Background(), []string{"count", "--window", "8k", "--max-input", "100", "-"}, &env{stdin: bytes.NewReader(data), stdout: &out, stderr: &errb})
	if ExitCode(err) != 2 || !strings.Contains(errb.String(), "more than 100 bytes") {
		t.Errorf("stdin: exit %d: %s", ExitCode(err), errb.String())
	}
	if _, errOut, code := runCLI(t, "count", "--window", "8k", "--max-input", "0", testdata+"claude-code.jsonl"); code != 0 {
		t.Errorf("--max-input 0: exit %d: %s", code, errOut)
	}
}

// Invalid UTF-8 in the input is read as U+FFFD and said: on standard error
// and in the --stats notes, with its line, column and byte count.
func TestInvalidUTF8Notes(t *testing.T) {
	in := `{"type":"user","uuid":"u1","parentUuid":null,"sessionId":"s","message":{"role":"user","content":"fix caf` + "\xe9\xff" + `"}}` + "\n" +
		`{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s","message":{"role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"Done."}]}}` + "\n"
	path := filepath.Join(t.TempDir(), "session.jsonl")
	if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errOut, code := runCLI(t, "compact", "-o", filepath.Join(t.TempDir(), "x.json"), "--stats", "-", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "1 lines with invalid UTF-8 read as U+FFFD") ||
		!strings.Contains(errOut, "  line 1 column 105: replaced: 2 bytes of invalid UTF-8 read as U+FFFD") {
		t.Errorf("stderr lacks the note:\n%s", errOut)
	}
	var st Stats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Notes) != 1 || st.Notes[0].Action != transcript.NoteReplaced || st.Notes[0].Line != 1 || st.Notes[0].Column != 105 {
		t.Errorf("stats notes %+v", st.Notes)
	}
}

// A long piped input is copied to a temporary file and read with its size
// known: the memory limit is set again from its real size, the counts are
// those of the same file, the cap still holds, a malformed document is
// named as standard input, and no temporary file is left behind.
func TestPipedInputSpooled(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	text := strings.Repeat("the parser fails on nested arrays in internal/parse/array.go; ", spoolFrom/60+1000)
	doc := `{"model":"gpt-4o","messages":[{"role":"user","content":` + strconv.Quote(text) + `}]}`
	path := filepath.Join(t.TempDir(), "doc.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, errOut, code := runCLI(t, "count", "--window", "1m", path)
	if code != 0 {
		t.Fatalf("file: exit %d: %s", code, errOut)
	}
	pipe := func(input string, args ...string) (string, string, int, []int64) {
		var out, errb bytes.Buffer
		var hints []int64
		err := runEnv(context.Background(), args, &env{stdin: strings.NewReader(input), stdout: &out, stderr: &errb,
			sizeHint: func(n int64) { hints = append(hints, n) }})
		return out.String(), errb.String(), ExitCode(err), hints
	}
	out, errOut, code, hints := pipe(doc, "count", "--window", "1m", "-")
	if code != 0 {
		t.Fatalf("pipe: exit %d: %s", code, errOut)
	}
	if out != strings.ReplaceAll(fromFile, path, stdinName) {
		t.Errorf("piped counts differ from the file's:\n%s\n%s", out, fromFile)
	}
	if len(hints) != 2 || hints[1] != int64(len(doc)) {
		t.Errorf("size hints %v, want the cap then %d", hints, len(doc))
	}
	_, errOut, code, _ = pipe(doc, "count", "--window", "1m", "--max-input", strconv.Itoa(spoolFrom+10), "-")
	if code != 2 || !strings.Contains(errOut, fmt.Sprintf("more than %d bytes", spoolFrom+10)) {
		t.Errorf("over the cap: exit %d: %s", code, errOut)
	}
	_, errOut, code, _ = pipe(doc[:len(doc)-3], "count", "--window", "1m", "-")
	if code != 2 || !strings.Contains(errOut, stdinName) || strings.Contains(errOut, tmp) {
		t.Errorf("truncated: exit %d: %s", code, errOut)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in the temporary directory: %v", left)
	}
}
