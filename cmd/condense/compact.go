package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/transcript"
)

func init() {
	register(command{name: "compact", summary: "render a transcript as the next request, compacted to fit", run: runCompact})
}

// Stats is the --stats JSON of compact, version 1 (docs/formats.md): keys
// may be added, none renamed or removed.
type Stats struct {
	Version          int               `json:"version"`
	Input            StatsSide         `json:"input"`
	Output           StatsSide         `json:"output"`
	Model            string            `json:"model"`
	Window           int               `json:"window"`
	InputLimit       int               `json:"input_limit"`
	Threshold        int               `json:"threshold"`
	Target           int               `json:"target"`
	Counter          StatsCounter      `json:"counter"`
	Strategy         string            `json:"strategy"`
	Compactions      []StatsCompaction `json:"compactions"`
	Repaired         int               `json:"repaired"`
	Skipped          int               `json:"skipped,omitempty"`
	Dropped          int               `json:"dropped,omitempty"`
	NothingToCompact bool              `json:"nothing_to_compact"`
	Valid            bool              `json:"valid"`
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
}

const compactExample = `condense compact -o compacted.json --stats - transcript/testdata/claude-code-large.jsonl
condense compact --window 128k --to condense --strategy mask session.jsonl > next-request.json`

func runCompact(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("compact", "compact [flags] FILE", compactExample, stderr)
	var bf budgetFlags
	bf.register(fs)
	bf.notes = stderr
	strat := fs.String("strategy", "pipeline", "strategy: pipeline, mask, drop-oldest, clear-tool-uses, summarize, segments")
	sumName := fs.String("summarizer", "extractive", "summarizer: extractive (no model, no network), anthropic, openai (key from ANTHROPIC_API_KEY / OPENAI_API_KEY)")
	fs.StringVar(&summarizerModel, "summarizer-model", "", "the model that writes summaries (default: a cheap one of the provider)")
	to := fs.String("to", "", "output format: openai, anthropic, condense (default: anthropic for Claude Code and Anthropic input, else openai)")
	out := fs.String("out", "", "write the request here instead of stdout")
	fs.StringVar(out, "o", "", "shorthand for --out")
	statsPath := fs.String("stats", "", "write the stats JSON here (\"-\": standard output, when --out names a file)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("compact takes one FILE, got %d", len(pos))
	}
	if *statsPath == "-" && (*out == "" || *out == "-") {
		return usagef("--stats - needs --out FILE: the request already goes to standard output")
	}
	if *statsPath != "" && *statsPath != "-" && *statsPath == *out {
		return usagef("--stats and --out name the same file %s", *out)
	}
	l, err := bf.load(pos[0])
	if err != nil {
		return err
	}
	toFormat, err := outputFormat(*to, l.tr.Format)
	if err != nil {
		return err
	}
	sum, err := newSummarizer(*sumName, l)
	if err != nil {
		return err
	}
	s, err := newStrategy(*strat)
	if err != nil {
		return err
	}
	log := logger(stderr)
	pf := l.preflight(s, sum, log)
	req := l.request()
	inputTokens := condense.CountRequest(l.counter, &req)
	res, err := pf.Prepare(ctx, req)
	var we *condense.WindowError
	if errors.As(err, &we) {
		fmt.Fprintf(stderr, "condense: context_window_exceeded: %d tokens do not fit the input limit of %d (window %d)\n", we.Tokens, we.InputLimit, we.Window)
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
	w, closeOut, err := openOut(*out, stdout)
	if err != nil {
		return err
	}
	if err := transcript.Write(w, toFormat, outReq); err != nil {
		closeOut()
		return err
	}
	if err := closeOut(); err != nil {
		return err
	}
	if *statsPath != "" {
		st := buildStats(l, s, res, inputTokens, toFormat)
		raw, err := json.MarshalIndent(st, "", "  ")
		if err != nil {
			return err
		}
		raw = append(raw, '\n')
		if *statsPath == "-" {
			_, err = stdout.Write(raw)
			return err
		}
		if err := os.WriteFile(*statsPath, raw, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func buildStats(l *loaded, s condense.Strategy, res *condense.Result, inputTokens int, to transcript.Format) Stats {
	st := Stats{
		Version:          1,
		Input:            StatsSide{Format: string(l.tr.Format), Messages: len(l.tr.Request.Messages), Tokens: inputTokens},
		Output:           StatsSide{Format: string(to), Messages: len(res.Request.Messages), Tokens: res.Tokens},
		Model:            l.model,
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
			Gate:  StatsGate{KeptBySummary: r.Gate.KeptBySummary, AddedBack: r.Gate.AddedBack},
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
	f, err := transcript.ParseFormat(to)
	if err != nil {
		return "", &usageError{err}
	}
	switch f {
	case transcript.FormatOpenAI, transcript.FormatAnthropic, transcript.FormatCondense:
		return f, nil
	}
	return "", usagef("--to %q: output formats are openai, anthropic, condense", to)
}
