package main

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/condense-dev/condense"
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

// sizeFlag is a flag.Value holding a size.
type sizeFlag struct {
	n   int
	set bool
}

func (f *sizeFlag) String() string { return strconv.Itoa(f.n) }
func (f *sizeFlag) Set(s string) error {
	n, err := parseSize(s)
	if err != nil {
		return err
	}
	f.n, f.set = n, true
	return nil
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
	// notes, when set, receives a line about records skipped, dropped or
	// repaired while reading.
	notes io.Writer
}

func (b *budgetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&b.model, "model", "", "model the request is for (default: the transcript's model); sets the window and the counter")
	fs.Var(&b.window, "window", "context window in tokens, e.g. 200k (default: the model's)")
	fs.Var(&b.reserve, "reserve", "tokens reserved for the answer (default: the request's output cap, else 4096)")
	fs.Float64Var(&b.fraction, "fraction", condense.DefaultFraction, "share of the input limit at which compaction starts")
	fs.Float64Var(&b.lowWater, "low-water", condense.DefaultLowWater, "share of the threshold a compaction brings the request down to (1: just under the threshold)")
	fs.StringVar(&b.format, "format", "auto", "input format: auto, claude-code, codex, openai, anthropic, mini-swe-agent, swe-agent, openhands, condense")
	fs.BoolVar(&b.lenient, "lenient", false, "skip malformed records and orphan results instead of failing")
	fs.BoolVar(&b.exact, "exact", false, "count Claude models exactly with Anthropic's count_tokens endpoint, one request per new message "+
		"(needs ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL sets the address); OpenAI models are always counted exactly")
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

// load reads a transcript and resolves its model, window and counter.
func (b *budgetFlags) load(path string) (*loaded, error) {
	format, err := transcript.ParseFormat(b.format)
	if err != nil {
		return nil, &usageError{err}
	}
	if !(b.fraction > 0 && b.fraction <= 1) { // NaN fails too
		return nil, usagef("--fraction must be in (0, 1], got %v", b.fraction)
	}
	if b.lowWater == 0 {
		b.lowWater = condense.DefaultLowWater
	}
	if !(b.lowWater > 0 && b.lowWater <= 1) {
		return nil, usagef("--low-water must be in (0, 1], got %v", b.lowWater)
	}
	tr, err := transcript.ReadFile(path, transcript.Options{Format: format, Lenient: b.lenient, Name: path})
	if err != nil {
		return nil, &usageError{err}
	}
	if b.notes != nil {
		var said []string
		for _, n := range []struct {
			n    int
			what string
		}{{tr.Skipped, "malformed records skipped"}, {tr.Dropped, "orphan tool results dropped"},
			{tr.Repaired, "interrupted tool calls given the result " + transcript.StandInResult}} {
			if n.n > 0 {
				said = append(said, fmt.Sprintf("%d %s", n.n, n.what))
			}
		}
		if len(said) > 0 {
			fmt.Fprintf(b.notes, "condense: %s: %s\n", path, strings.Join(said, ", "))
		}
	}
	l := &loaded{path: path, tr: tr, model: b.model}
	if l.model == "" {
		l.model = tr.Request.Model
	}
	info, known := tokens.Models.Lookup(l.model)
	if !b.window.set && (!known || info.Window == 0) {
		if l.model == "" {
			return nil, usagef("%s: the transcript names no model: pass --model or --window", path)
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
		if b.window.n <= 0 {
			return nil, usagef("--window must be positive")
		}
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
		return nil, usagef("window %d leaves no room for input after reserving %d tokens", l.budget.Window, l.budget.ReservedOutput)
	}
	return l, nil
}

// request returns the transcript's request with the resolved model.
func (l *loaded) request() condense.Request {
	req := l.tr.Request
	req.Model = l.model
	return req
}

// settings returns the preflight settings of l's budget.
func (l *loaded) settings() condense.Settings {
	return condense.Settings{Window: l.budget.Window, ReservedOutput: max(1, l.budget.ReservedOutput),
		Safety: l.budget.Safety, Fraction: l.budget.Fraction, LowWater: l.budget.LowWater}
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
	switch name {
	case "pipeline", "":
		return strategy.Default(), nil
	case "mask":
		return strategy.Mask{}, nil
	case "drop-oldest":
		return strategy.DropOldest{}, nil
	case "clear-tool-uses":
		return strategy.ClearToolUses{}, nil
	case "summarize":
		return strategy.Summarize{}, nil
	case "segments":
		return strategy.Segments{}, nil
	case "minify":
		return strategy.Minify{}, nil
	}
	return nil, usagef("unknown --strategy %q (one of %s)", name, strings.Join(strategyNames, ", "))
}

// logger returns the CLI's logger: warnings and errors to stderr.
func logger(stderr io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
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
