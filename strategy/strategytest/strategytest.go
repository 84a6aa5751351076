package strategytest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// Default numbers of random histories, sized so that checking the eleven
// configurations of the built-in strategies takes well under a minute
// under the race detector on a two-core CI machine. An incremental case
// costs far more than a whole-history one: it prepares a request at every
// point an agent would call the model, tens to hundreds per history.
const (
	// DefaultCases is how many histories CheckPrepare draws.
	DefaultCases = 16
	// DefaultIncrementalCases is how many histories CheckIncremental
	// draws.
	DefaultIncrementalCases = 3
)

// LongFactor multiplies the number of cases when EnvLong is set.
const LongFactor = 10

// EnvLong, set to "1", makes the kit draw LongFactor times as many
// histories (and lets other tests run their long modes).
const EnvLong = "CONDENSE_TEST_LONG"

// Long reports whether CONDENSE_TEST_LONG=1 asks for the long test modes.
func Long() bool { return os.Getenv(EnvLong) == "1" }

// TB is where the kit reports: a *testing.T, or, in a test of a test, a
// recorder. It has the methods of rapid.TB.
type TB interface {
	Helper()
	Name() string
	Logf(format string, args ...any)
	Log(args ...any)
	Skipf(format string, args ...any)
	Skip(args ...any)
	SkipNow()
	Errorf(format string, args ...any)
	Error(args ...any)
	Fatalf(format string, args ...any)
	Fatal(args ...any)
	FailNow()
	Fail()
	Failed() bool
}

// An Option adjusts a run of the kit.
type Option func(*config)

type config struct {
	cases         int // whole-history cases
	incremental   int // incremental cases
	counter       condense.Counter
	newSummarizer func() condense.Summarizer
}

// Cases sets how many random histories CheckPrepare draws: n in a normal
// run, LongFactor times n under CONDENSE_TEST_LONG=1. A count given to rapid
// itself (-rapid.checks or RAPID_CHECKS) overrides both options; -short
// divides it by five, as rapid does.
func Cases(n int) Option { return func(c *config) { c.cases = n } }

// IncrementalCases sets how many random histories CheckIncremental draws,
// as Cases does for CheckPrepare.
func IncrementalCases(n int) Option { return func(c *config) { c.incremental = n } }

// Counter sets the token counter of the preflights the kit runs; the
// default is tokens.Heuristic("anthropic").
func Counter(counter condense.Counter) Option { return func(c *config) { c.counter = counter } }

// Summarizer gives every preflight the kit runs a summarizer made by
// newSummarizer (Options.Summarizer): a fresh one per preflight, so a
// summarizer with state still gives the same answers to the same input.
// Without it the built-in strategies use the extractive summarizer.
func Summarizer(newSummarizer func() condense.Summarizer) Option {
	return func(c *config) { c.newSummarizer = newSummarizer }
}

func newConfig(opts []Option) *config {
	c := &config{cases: DefaultCases, incremental: DefaultIncrementalCases}
	for _, o := range opts {
		o(c)
	}
	if c.counter == nil {
		c.counter = tokens.Heuristic("anthropic")
	}
	if Long() {
		c.cases *= LongFactor
		c.incremental *= LongFactor
	}
	return c
}

// preflight returns a fresh preflight of s with the given window.
func (c *config) preflight(s condense.Strategy, window int) *condense.Preflight {
	opts := &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 100}, Logger: quiet}
	if c.newSummarizer != nil {
		opts.Summarizer = c.newSummarizer()
	}
	return condense.NewPreflight(c.counter, s, opts)
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// Run checks the strategy newStrategy returns (a fresh one for every
// preflight) on random histories, in two subtests: Prepare renders a whole
// history at once, Incremental feeds a history message by message as an
// agent loop does. See the package documentation for what is checked.
func Run(t *testing.T, newStrategy func() condense.Strategy, opts ...Option) {
	t.Helper()
	t.Run("Prepare", func(t *testing.T) { CheckPrepare(t, newStrategy, opts...) })
	t.Run("Incremental", func(t *testing.T) { CheckIncremental(t, newStrategy, opts...) })
}

// Check is Run without subtests: it runs CheckPrepare, then
// CheckIncremental, reporting to t. It stops at the first failure (t's
// FailNow).
func Check(t TB, newStrategy func() condense.Strategy, opts ...Option) {
	t.Helper()
	CheckPrepare(t, newStrategy, opts...)
	CheckIncremental(t, newStrategy, opts...)
}

// CheckPrepare draws histories and a window for each, from a quarter of the
// history's tokens to twice them, and prepares the whole history with a
// fresh preflight: the request must keep every rule, and a second fresh
// preflight must render the same bytes.
func CheckPrepare(t TB, newStrategy func() condense.Strategy, opts ...Option) {
	t.Helper()
	c := newConfig(opts)
	withCases(c.cases, func() {
		rapid.Check(t, func(t *rapid.T) {
			history := History().Draw(t, "history")
			before := cloneMessages(history)
			full := condense.CountRequest(c.counter, &condense.Request{Messages: history})
			window := rapid.IntRange(max(300, full/4), full*2+400).Draw(t, "window")
			req := condense.Request{Model: "test", Messages: history}
			res, err := c.preflight(newStrategy(), window).Prepare(context.Background(), req)
			if err := c.checkPrepared(history, res, err, 0, nil); err != nil {
				t.Fatal(err)
			}
			res2, err2 := c.preflight(newStrategy(), window).Prepare(context.Background(), req)
			if a, b := outcome(res, err), outcome(res2, err2); a != b {
				t.Fatalf("not deterministic: two fresh preflights rendered different requests:\n%.2000s\n%.2000s", a, b)
			}
			if !reflect.DeepEqual(history, before) {
				t.Fatalf("the caller's history was modified")
			}
		})
	})
}

// CheckIncremental draws histories and a window for each, from a fifth of
// the history's tokens to all of them, and feeds each history to one
// preflight a message at a time, preparing a request wherever an agent
// would call the model (after a user message or a complete batch of tool
// results): every request must keep every rule, and none of the caller's
// messages may change.
func CheckIncremental(t TB, newStrategy func() condense.Strategy, opts ...Option) {
	t.Helper()
	c := newConfig(opts)
	withCases(c.incremental, func() {
		rapid.Check(t, func(t *rapid.T) {
			history := History().Draw(t, "history")
			before := cloneMessages(history)
			full := condense.CountRequest(c.counter, &condense.Request{Messages: history})
			window := rapid.IntRange(max(400, full/5), full+400).Draw(t, "window")
			pf := c.preflight(newStrategy(), window)
			demoted := 0 // demoted ledger items of the compactions so far
			cache := newExtractCache()
			for n := 1; n <= len(history); n++ {
				if !modelCall(history, n) {
					continue
				}
				prefix := history[:n]
				res, err := pf.Prepare(context.Background(), condense.Request{Messages: prefix})
				if err := c.checkPrepared(prefix, res, err, demoted, cache); err != nil {
					t.Fatalf("request %d: %v", n, err)
				}
				demoted += demotedBy(res, err)
			}
			if !reflect.DeepEqual(history, before) {
				t.Fatalf("the caller's history was modified")
			}
		})
	})
}

// modelCall reports whether an agent would call the model with the first
// n messages of history: after a user message or a complete batch of tool
// results.
func modelCall(history []condense.Message, n int) bool {
	if history[n-1].Role == condense.RoleAssistant {
		return false
	}
	return n == len(history) || history[n].Role != condense.RoleTool
}

// demotedBy returns the ledger items demoted by the compactions of one
// Prepare call, kept or refused for the window.
func demotedBy(res *condense.Result, err error) int {
	var records []condense.Record
	var we *condense.WindowError
	switch {
	case errors.As(err, &we):
		records = we.Records
	case res != nil:
		records = res.Records
	}
	n := 0
	for _, r := range records {
		n += r.Demoted
	}
	return n
}

// checkPrepared checks what one Prepare call returned: a request that keeps
// every rule, or a *condense.WindowError.
func (c *config) checkPrepared(history []condense.Message, res *condense.Result, err error, demotedBefore int, cache *extractCache) error {
	var we *condense.WindowError
	if errors.As(err, &we) {
		return nil // the request does not fit and was refused
	}
	if err != nil {
		return fmt.Errorf("preflight.Prepare: %w", err)
	}
	return checkResult(c.counter, history, res, demotedBefore, cache)
}

// outcome is what a determinism check compares: the condense JSON of the
// request, or the error.
func outcome(res *condense.Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	b, _ := json.Marshal(condense.DocumentOf(res.Request))
	return string(b)
}

// cloneMessages returns a deep copy of msgs.
func cloneMessages(msgs []condense.Message) []condense.Message {
	out := make([]condense.Message, len(msgs))
	for i, m := range msgs {
		m.Parts = cloneParts(m.Parts)
		out[i] = m
	}
	return out
}

func cloneParts(parts []condense.Part) []condense.Part {
	if parts == nil {
		return nil
	}
	out := make([]condense.Part, len(parts))
	for i, p := range parts {
		p.Input = cloneBytes(p.Input)
		p.Raw = cloneBytes(p.Raw)
		p.Data = cloneBytes(p.Data)
		p.Content = cloneParts(p.Content)
		out[i] = p
	}
	return out
}

func cloneBytes[B ~[]byte](b B) B {
	if b == nil {
		return nil
	}
	return append(B{}, b...)
}

// casesMu serializes the runs of the kit: rapid takes its number of cases
// from a command-line flag, which withCases sets for the length of one run.
var casesMu sync.Mutex

// withCases runs f with rapid's number of cases set to n, unless it was
// given to rapid itself (-rapid.checks or RAPID_CHECKS).
func withCases(n int, f func()) {
	casesMu.Lock()
	defer casesMu.Unlock()
	fl := flag.Lookup("rapid.checks")
	if fl == nil || rapidChecksGiven() {
		f()
		return
	}
	if short := flag.Lookup("test.short"); short != nil && short.Value.String() == "true" && n < 5 {
		n = 5 // rapid divides by five under -short: keep one case at least
	}
	old := fl.Value.String()
	if err := fl.Value.Set(strconv.Itoa(n)); err != nil {
		panic(err)
	}
	defer fl.Value.Set(old)
	f()
}

// rapidChecksGiven reports whether the number of rapid's cases was set on
// the command line or in the environment.
func rapidChecksGiven() bool {
	if _, ok := os.LookupEnv("RAPID_CHECKS"); ok {
		return true
	}
	given := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "rapid.checks" {
			given = true
		}
	})
	return given
}
