package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/transcript"
)

// Stats is the --stats JSON of compact, version 1 (docs/formats.md): keys
// may be added, none renamed or removed.
type Stats struct {
	Version     int               `json:"version"`
	Input       StatsSide         `json:"input"`
	Output      StatsSide         `json:"output"`
	Model       string            `json:"model"`
	Window      int               `json:"window"`
	InputLimit  int               `json:"input_limit"`
	Threshold   int               `json:"threshold"`
	Target      int               `json:"target"`
	Counter     StatsCounter      `json:"counter"`
	Strategy    string            `json:"strategy"`
	Compactions []StatsCompaction `json:"compactions"`
	Repaired    int               `json:"repaired"`
	Skipped     int               `json:"skipped,omitempty"`
	Dropped     int               `json:"dropped,omitempty"`
	// Notes lists every record reading did not take as it stands
	// (skipped, dropped, repaired, rekeyed, reordered), with its line or
	// JSON path and why; [] when none.
	Notes []transcript.Note `json:"notes"`
	// Instructions are the --instructions of a manual compaction.
	Instructions     string `json:"instructions,omitempty"`
	NothingToCompact bool   `json:"nothing_to_compact"`
	// Valid: the history is turn safe and the written body breaks none of
	// its format's rules (for openai and anthropic, the provider API's:
	// the body is accepted as it is).
	Valid bool `json:"valid"`
	// Violations lists the rules the written body breaks, each by its
	// short name and JSON path; absent when Valid.
	Violations []transcript.Violation `json:"violations,omitempty"`
}

// StatsSide describes the input or the output.
type StatsSide struct {
	Format   string `json:"format"`
	Messages int    `json:"messages"`
	Tokens   int    `json:"tokens"`
}

// StatsCounter names the counter.
type StatsCounter struct {
	Name  string `json:"name"`
	Exact bool   `json:"exact"`
}

// StatsCompaction is one compaction.
type StatsCompaction struct {
	Strategy       string           `json:"strategy"`
	TokensBefore   int              `json:"tokens_before"`
	TokensAfter    int              `json:"tokens_after"`
	MessagesBefore int              `json:"messages_before"`
	MessagesAfter  int              `json:"messages_after"`
	LedgerItems    int              `json:"ledger_items"`
	Demoted        int              `json:"demoted"`
	LedgerBudget   int              `json:"ledger_budget"`
	Gate           StatsGate        `json:"gate"`
	Steps          []string         `json:"steps,omitempty"`
	Emergency      bool             `json:"emergency,omitempty"`
	Usage          []condense.Usage `json:"usage,omitempty"`
	SummaryTrim    *condense.Trim   `json:"summary_trim,omitempty"`
	// Truncated: tool results of the newest step cut to head and tail
	// because even a compacted request could not hold them.
	Truncated  *condense.Truncation `json:"truncated,omitempty"`
	DurationMS float64              `json:"duration_ms"`
}

// StatsGate is the quality gate's result.
type StatsGate struct {
	KeptBySummary int `json:"kept_by_summary"`
	AddedBack     int `json:"added_back"`
	// Notes: passages of the agent's own words the summary keeps
	// verbatim ("## In the agent's words").
	Notes int `json:"notes,omitempty"`
}

const compactExample = `  condense compact -o compacted.json --stats - transcript/testdata/claude-code-large.jsonl
  condense compact --window 128k --to condense --strategy mask session.jsonl > next-request.json
  cat session.jsonl | condense compact --instructions "focus on the failing test" -o compacted.json`

// compactOptions are compact's own flags.
type compactOptions struct {
	budget          budgetFlags
	strategy        string
	summarizer      string
	summarizerModel string
	instructions    string
	to              string
	out             string
	stats           string
}

func newCompactCmd(e *env) *cobra.Command {
	o := &compactOptions{}
	cmd := &cobra.Command{
		Use:   "compact [flags] [FILE | -]",
		Short: "render a transcript as the next request, compacted to fit",
		Long: `Render a transcript as the next request, compacted to fit the window: written to
standard output (or --out) as OpenAI or Anthropic messages or condense JSON (--to).
With no FILE, or "-", the transcript is read from standard input. On a terminal a
one-line summary goes to standard error; --stats writes the full figures as JSON.`,
		Example: compactExample,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCompact(cmd, e, o, args)
		},
	}
	o.budget.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&o.strategy, "strategy", "pipeline", "strategy: "+strings.Join(strategyNames, ", "))
	fs.StringVar(&o.summarizer, "summarizer", "extractive", "summarizer: extractive (no model, no network), anthropic, openai (key from ANTHROPIC_API_KEY / OPENAI_API_KEY)")
	fs.StringVar(&o.summarizerModel, "summarizer-model", "", "the model that writes summaries (default: a cheap one of the provider)")
	fs.StringVar(&o.instructions, "instructions", "", "compact now, whatever the pressure, with `TEXT` as the focus of the summary (\"focus on the failing test\"), as /compact does in Claude Code")
	fs.StringVar(&o.to, "to", "", "output format: "+formatList(transcript.WriteFormats)+" (default: anthropic for Claude Code and Anthropic input, else openai)")
	fs.StringVarP(&o.out, "out", "o", "", "write the request to `FILE` instead of standard output")
	fs.StringVar(&o.stats, "stats", "", "write the stats JSON to `FILE` (\"-\": standard output, when --out names a file)")
	_ = cmd.RegisterFlagCompletionFunc("strategy", fixedCompletion(strategyNames...))
	_ = cmd.RegisterFlagCompletionFunc("summarizer", fixedCompletion(summarizerNames...))
	_ = cmd.RegisterFlagCompletionFunc("to", fixedCompletion(strings.Split(formatList(transcript.WriteFormats), ", ")...))
	o.budget.notes = e.stderr
	o.budget.statsHint = true
	return cmd
}

func runCompact(cmd *cobra.Command, e *env, o *compactOptions, args []string) error {
	ctx := cmd.Context()
	// Every flag is checked before the input is read.
	if err := o.budget.check(cmd); err != nil {
		return err
	}
	if o.to != "" {
		if _, err := outputFormat(o.to, ""); err != nil {
			return &usageError{err: err, cmd: cmd.CommandPath()}
		}
	}
	s, err := newStrategy(o.strategy)
	if err != nil {
		return &usageError{err: err, cmd: cmd.CommandPath()}
	}
	sum, err := newSummarizer(o.summarizer, o.summarizerModel)
	if err != nil {
		return err
	}
	if o.stats == "-" && (o.out == "" || o.out == "-") {
		return flagErrorf(cmd, "--stats - needs --out FILE: the request already goes to standard output")
	}
	if o.stats != "" && o.stats != "-" && o.stats == o.out {
		return flagErrorf(cmd, "--stats and --out name the same file %s", o.out)
	}
	path, err := inputArg(cmd, e, args)
	if err != nil {
		return err
	}
	l, err := o.budget.load(e, path)
	if err != nil {
		return err
	}
	toFormat, err := outputFormat(o.to, l.tr.Format)
	if err != nil {
		return err
	}
	log := logger(e.stderr)
	pf := l.preflight(s, sum, log)
	req := l.request()
	inputTokens := condense.CountRequest(l.counter, &req)
	res, err := prepare(ctx, pf, req, o.instructions)
	var we *condense.WindowError
	if errors.As(err, &we) {
		fmt.Fprintf(e.stderr, "condense: context_window_exceeded: %s tokens do not fit the input limit of %s (window %s)\n",
			humanize.Comma(int64(we.Tokens)), humanize.Comma(int64(we.InputLimit)), humanize.Comma(int64(we.Window)))
		return &exitError{code: exitCannotFit}
	}
	if err != nil {
		return err
	}
	outReq := res.Request
	// The reserve holds the output cap plus the thinking budget; the
	// request's max_tokens is the cap alone, so a second pass writes the
	// same value back.
	outReq.MaxOutputTokens = l.budget.ReservedOutput - max(0, req.ThinkingBudget)
	if outReq.MaxOutputTokens <= 0 {
		outReq.MaxOutputTokens = l.budget.ReservedOutput
	}
	// Encode first, so a failed encoding leaves no partial file; the stats
	// then say whether the provider accepts the body as it is, by its
	// API's own rules.
	body, err := transcript.Encode(toFormat, outReq, transcript.WriteOptions{OriginalIDs: l.tr.OriginalIDs})
	if err != nil {
		return err
	}
	w, closeOut, err := openOut(o.out, e.stdout)
	if err != nil {
		return err
	}
	if _, err := w.Write(body); err != nil {
		closeOut()
		return err
	}
	if err := closeOut(); err != nil {
		return err
	}
	st := buildStats(l, s, res, inputTokens, toFormat)
	// From here on the transcript and the compacted request are garbage:
	// the check holds the body and what it parses of it, not those too.
	st.Violations = transcript.CheckWritten(toFormat, body)
	for i := range st.Violations { // a message may quote the body
		st.Violations[i].Message = ledger.Redact(st.Violations[i].Message)
	}
	st.Valid = st.Valid && len(st.Violations) == 0
	st.Instructions = o.instructions
	if o.stats == "" {
		if isTerminal(e.stderr) {
			fmt.Fprintln(e.stderr, summaryLine(&st, o.strategy))
		}
		return nil
	}
	raw, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	raw = append(raw, '\n')
	if o.stats == "-" {
		_, err = e.stdout.Write(raw)
		return err
	}
	return os.WriteFile(o.stats, raw, 0o644)
}

// prepare renders req: with instructions a manual compaction first (the
// user asked for one, whatever the pressure; nothing to compact is no
// error), then the usual preflight, which compacts further if the request
// is still over the threshold and refuses it if it cannot fit. The
// records of both are returned together.
func prepare(ctx context.Context, pf *condense.Preflight, req condense.Request, instructions string) (*condense.Result, error) {
	if instructions == "" {
		return pf.Prepare(ctx, req)
	}
	manual, err := pf.Compact(ctx, req, condense.WithInstructions(instructions))
	var se *condense.StrategyError
	switch {
	case err == nil, errors.Is(err, condense.ErrNothingToCompact):
	case ctx.Err() != nil:
		return nil, err
	case errors.As(err, &se):
		// A refused candidate (already logged): render as usual.
		manual = nil
	default:
		return nil, err
	}
	res, err := pf.Prepare(ctx, req)
	if err != nil || manual == nil {
		return res, err
	}
	res.Records = append(append([]condense.Record(nil), manual.Records...), res.Records...)
	res.TokensBefore = manual.TokensBefore
	return res, nil
}

// summaryLine is the one line compact prints on a terminal when no
// --stats is asked for.
func summaryLine(st *Stats, strategyName string) string {
	valid := "valid"
	if !st.Valid {
		valid = "NOT valid"
	}
	if st.NothingToCompact {
		return fmt.Sprintf("nothing to compact: %s tokens, under the threshold of %s (window %s), %s",
			humanize.Comma(int64(st.Output.Tokens)), humanize.Comma(int64(st.Threshold)), humanize.Comma(int64(st.Window)), valid)
	}
	n := "1 compaction"
	if len(st.Compactions) != 1 {
		n = fmt.Sprintf("%d compactions", len(st.Compactions))
	}
	return fmt.Sprintf("compacted %s → %s tokens (%s, %s), %s", humanize.Comma(int64(st.Input.Tokens)),
		humanize.Comma(int64(st.Output.Tokens)), n, strategyName, valid)
}

func buildStats(l *loaded, s condense.Strategy, res *condense.Result, inputTokens int, to transcript.Format) Stats {
	st := Stats{
		Version:          1,
		Input:            StatsSide{Format: string(l.tr.Format), Messages: len(l.tr.Request.Messages), Tokens: inputTokens},
		Output:           StatsSide{Format: string(to), Messages: len(res.Request.Messages), Tokens: res.Tokens},
		Model:            strings.Clone(l.model), // not a window on the input's buffer, which it would keep
		Window:           res.Budget.Window,
		InputLimit:       res.Budget.InputLimit(),
		Threshold:        res.Budget.Threshold(),
		Target:           res.Budget.Target(),
		Counter:          StatsCounter{Name: res.Counter, Exact: res.Exact},
		Strategy:         s.Name(),
		Compactions:      []StatsCompaction{},
		Repaired:         l.tr.Repaired,
		Skipped:          l.tr.Skipped,
		Dropped:          l.tr.Dropped,
		Notes:            append([]transcript.Note{}, l.tr.Notes...),
		NothingToCompact: len(res.Records) == 0,
		Valid:            condense.Validate(res.Request.Messages) == nil,
	}
	for _, r := range res.Records {
		var trim *condense.Trim
		if r.Trim != (condense.Trim{}) {
			t := r.Trim
			trim = &t
		}
		var cut *condense.Truncation
		if r.Truncated.Results > 0 {
			t := r.Truncated
			cut = &t
		}
		st.Compactions = append(st.Compactions, StatsCompaction{
			SummaryTrim: trim, Truncated: cut,
			Strategy: r.Strategy, TokensBefore: r.TokensBefore, TokensAfter: r.TokensAfter,
			MessagesBefore: r.MessagesBefore, MessagesAfter: r.MessagesAfter,
			LedgerItems: r.LedgerItems, Demoted: r.Demoted, LedgerBudget: r.LedgerBudget,
			Gate:  StatsGate{KeptBySummary: r.Gate.KeptBySummary, AddedBack: r.Gate.AddedBack, Notes: r.Gate.Notes},
			Steps: r.Steps, Emergency: r.Emergency, Usage: r.Usage,
			DurationMS: float64(r.Duration.Microseconds()) / 1000,
		})
	}
	return st
}

// outputFormat resolves --to: anthropic for Claude Code and Anthropic input,
// else openai: the input's own API family when it has one.
func outputFormat(to string, in transcript.Format) (transcript.Format, error) {
	if to == "" {
		if in == transcript.FormatClaudeCode || in == transcript.FormatAnthropic {
			return transcript.FormatAnthropic, nil
		}
		return transcript.FormatOpenAI, nil
	}
	if slices.Contains(transcript.WriteFormats, transcript.Format(to)) {
		return transcript.Format(to), nil
	}
	return "", usagef("--to %q: output formats are %s", to, formatList(transcript.WriteFormats))
}
