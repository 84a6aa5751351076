package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/eval"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/tokens"
)

// EvalOutput is the --json output of eval, version 1.
type EvalOutput struct {
	Version      int                 `json:"version"`
	PricesSource string              `json:"prices_source"`
	Transcripts  []*eval.Report      `json:"transcripts"`
	Total        []eval.PolicyReport `json:"total"`
	Judge        []JudgedFile        `json:"judge,omitempty"`
	// Errors lists the files that could not be evaluated, each with why;
	// the others were.
	Errors []EvalError `json:"errors,omitempty"`
}

// EvalError is a file eval could not evaluate.
type EvalError struct {
	File    string `json:"file"`
	Message string `json:"message"`
}

// JudgedFile holds a judge's verdicts on one transcript's probes.
type JudgedFile struct {
	File     string         `json:"file"`
	Policy   string         `json:"policy"`
	Verdicts []eval.Verdict `json:"verdicts"`
	Summary  map[string]int `json:"summary"`
}

const evalExample = `  condense eval --window 128k --chart tokens.svg transcript/testdata/claude-code-large.jsonl
  condense eval --json --probes probes.json --prices prices.json a.jsonl b.jsonl`

// evalOptions are eval's flags.
type evalOptions struct {
	budget      budgetFlags
	summarizer  string
	probes      string
	prices      string
	chart       string
	asJSON      bool
	judge       string
	judgeModel  string
	judgePolicy string
}

func newEvalCmd(e *env) *cobra.Command {
	o := &evalOptions{}
	cmd := &cobra.Command{
		Use:   "eval [flags] FILE...",
		Short: "measure retention, compression, validity and cost of compaction policies",
		Long: `Measure retention of specifics, compression, validity and a turn-by-turn replay of
five compaction policies, with cost, on each FILE ("-": standard input) and over
all of them. A file that cannot be read or evaluated is reported on standard error
(and in --json's "errors") and skipped; the exit code is 2 only when no file could
be evaluated.`,
		Example: evalExample,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEval(cmd, e, o, args)
		},
	}
	o.budget.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&o.summarizer, "summarizer", "extractive", "summarizer of the summarizing policies: extractive (no model, no network)")
	fs.StringVar(&o.probes, "probes", "", `JSON array of {"category", "text"} or {"category", "regex"}: specifics that must survive; `+
		`"auto": each FILE's own NAME.probes.json beside it (as gencorpus writes them)`)
	fs.StringVar(&o.prices, "prices", "", `JSON object of model → {"input", "cached_input", "output"} in USD per million tokens, over the built-in table`)
	fs.StringVar(&o.chart, "chart", "", "write an SVG chart to `FILE`: a summary panel (retention and cost per policy over all files) and tokens per step per policy for each file")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON")
	fs.StringVar(&o.judge, "judge", "", "ask a model the probes against the full and the compacted context: anthropic or openai")
	fs.StringVar(&o.judgeModel, "judge-model", "", "the judge's model (default: claude-sonnet-4-5 or gpt-4.1)")
	fs.StringVar(&o.judgePolicy, "judge-policy", "default", "the policy whose compacted context the judge is asked against: "+strings.Join(policyList(), ", "))
	_ = cmd.RegisterFlagCompletionFunc("judge", fixedCompletion("anthropic", "openai"))
	_ = cmd.RegisterFlagCompletionFunc("judge-policy", fixedCompletion(policyList()...))
	_ = cmd.RegisterFlagCompletionFunc("summarizer", fixedCompletion(summarizerNames...))
	o.budget.notes = e.stderr
	return cmd
}

func runEval(cmd *cobra.Command, e *env, o *evalOptions, args []string) error {
	ctx := cmd.Context()
	stdout, stderr := e.stdout, e.stderr
	if err := o.budget.check(cmd); err != nil {
		return err
	}
	pos := args
	if len(pos) == 0 {
		if isTerminal(e.stdin) {
			return flagErrorf(cmd, "eval takes one or more FILEs (- for standard input)")
		}
		pos = []string{"-"}
	}
	if i := slices.Index(pos, "-"); i >= 0 && slices.Contains(pos[i+1:], "-") {
		return flagErrorf(cmd, "standard input (-) can be read once")
	}
	var probes []eval.Probe
	var err error
	autoProbes := o.probes == probesAuto
	if o.probes != "" && !autoProbes {
		if probes, err = eval.LoadProbes(o.probes); err != nil {
			return &usageError{err: err}
		}
	}
	hasProbes := len(probes) > 0 || autoProbes
	prices := tokens.DefaultPrices()
	if o.prices != "" {
		if prices, err = tokens.LoadPrices(o.prices); err != nil {
			return &usageError{err: err}
		}
	}
	if o.judge != "" {
		if !hasProbes {
			return flagErrorf(cmd, "--judge asks the probes: pass --probes")
		}
		if _, err := newJudge(o.judge, o.judgeModel, nil); err != nil {
			return err
		}
		if !slices.Contains(policyList(), o.judgePolicy) {
			return flagErrorf(cmd, "unknown --judge-policy %q (one of %s)", o.judgePolicy, strings.Join(policyList(), ", "))
		}
	}
	sum, err := newSummarizer(o.summarizer, "")
	if err != nil {
		return err
	}
	// A file that cannot be read is reported and skipped; the rest are
	// evaluated.
	var failed []EvalError
	var lastErr error
	skip := func(path string, err error) {
		// Most errors name the file already; some quote it.
		msg := ledger.Redact(strings.TrimPrefix(err.Error(), path+": "))
		if len(pos) > 1 {
			fmt.Fprintf(stderr, "condense: eval: skipping %s: %s\n", path, msg)
		}
		failed = append(failed, EvalError{File: path, Message: msg})
		lastErr = err
	}
	ts := make([]eval.Transcript, 0, len(pos))
	for _, path := range pos {
		if err := ctx.Err(); err != nil {
			return err
		}
		l, err := o.budget.load(e, path)
		if err != nil {
			skip(path, err)
			continue
		}
		t := eval.Transcript{Name: l.path, Format: string(l.tr.Format), Request: l.request(),
			Counter: l.counter, Budget: l.budget}
		if autoProbes {
			if path == "-" {
				skip(l.path, usagef("--probes auto: standard input has no probes file beside it"))
				continue
			}
			if t.Probes, err = probesBeside(path); err != nil {
				skip(path, err)
				continue
			}
		}
		ts = append(ts, t)
	}
	switch {
	case len(ts) == 0 && len(pos) == 1:
		return lastErr
	case len(ts) == 0:
		fmt.Fprintf(stderr, "condense: eval: none of the %d files could be evaluated\n", len(pos))
		return &exitError{code: exitUsage}
	}
	cfg := eval.Config{Summarizer: sum, Probes: probes, Prices: prices}
	total := 0
	for i := range ts {
		total += eval.CountSteps(ts[i].Request.Messages) * len(eval.DefaultPolicies())
	}
	bar := startProgress(stderr, "eval", "steps", int64(total))
	cfg.Progress = bar.add
	reports, err := eval.Evaluate(ctx, ts, cfg)
	bar.finish()
	if err != nil {
		return err
	}
	out := EvalOutput{Version: 1, PricesSource: tokens.PricesSource, Transcripts: reports, Total: eval.Aggregate(reports), Errors: failed}
	if hint := underPressureHint(reports); hint != "" {
		fmt.Fprintf(stderr, "condense: eval: %s\n", hint)
	}

	if o.judge != "" {
		for i, rep := range reports {
			jf, err := judgeReport(ctx, o.judge, o.judgeModel, &ts[i], rep, o.judgePolicy)
			if err != nil {
				return err
			}
			out.Judge = append(out.Judge, jf)
		}
	}
	if o.chart != "" {
		var buf bytes.Buffer
		if err := writeChart(&buf, &out); err != nil {
			return err
		}
		if err := os.WriteFile(o.chart, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if o.asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return printEval(stdout, &out, hasProbes)
}

// underPressureHint says, when no transcript reaches its compaction
// threshold, that the policies had nothing to do, and suggests a --window
// that makes them work; "" otherwise.
func underPressureHint(reports []*eval.Report) string {
	largest, threshold := 0, 0
	for _, r := range reports {
		if r.Tokens > r.Threshold {
			return ""
		}
		if r.Tokens >= largest {
			largest, threshold = r.Tokens, r.Threshold
		}
	}
	if len(reports) == 0 {
		return ""
	}
	what := "the transcript is"
	if len(reports) > 1 {
		what = "every transcript is"
	}
	return fmt.Sprintf("the window is larger than needed: %s under its compaction threshold (largest %s tokens, threshold %s), "+
		"so no policy compacts anything; pass a smaller --window to compare them under pressure (e.g. --window %s)",
		what, humanize.Comma(int64(largest)), humanize.Comma(int64(threshold)), suggestWindow(largest))
}

// suggestWindow proposes a window about half the size of a transcript of
// tokens, as a size flag value ("2k", "64k"), at least 1k.
func suggestWindow(tokens int) string {
	k := max(1, tokens/2/1000)
	return fmt.Sprintf("%dk", k)
}

// probesAuto is the --probes value that reads each transcript's own probes.
const probesAuto = "auto"

// probesBeside loads the probes of the transcript at path from the file
// beside it named as the transcript with its extensions replaced by
// ".probes.json": a.jsonl, a.traj and a.traj.json all look for a.probes.json
// (a.traj.probes.json first).
func probesBeside(path string) ([]eval.Probe, error) {
	dir, base := filepath.Split(path)
	var tried []string
	for {
		ext := filepath.Ext(base)
		if ext == "" || ext == base {
			break
		}
		base = strings.TrimSuffix(base, ext)
		cand := filepath.Join(dir, base+".probes.json")
		if cand == path {
			return nil, usagef("--probes auto: %s is itself a probes file, not a transcript", path)
		}
		tried = append(tried, cand)
		if _, err := os.Stat(cand); err == nil {
			probes, err := eval.LoadProbes(cand)
			if err != nil {
				return nil, &usageError{err: err}
			}
			return probes, nil
		}
	}
	if len(tried) == 0 {
		return nil, usagef("--probes auto: %s has no extension to put .probes.json in place of", path)
	}
	return nil, usagef("--probes auto: no probes file beside %s (looked for %s)", path, strings.Join(tried, ", "))
}

func printEval(w io.Writer, out *EvalOutput, probes bool) error {
	for i, rep := range out.Transcripts {
		if i > 0 {
			fmt.Fprintln(w)
		}
		exact := "estimate"
		if rep.Exact {
			exact = "exact"
		}
		fmt.Fprintf(w, "%s: %s, %d messages, %d steps, %s tokens (%s, %s)\n", rep.File, rep.Format, rep.Messages, rep.Steps,
			humanize.Comma(int64(rep.Tokens)), rep.Counter, exact)
		model := rep.Model
		if model == "" {
			model = "(unnamed)"
		}
		fmt.Fprintf(w, "model %s: window %s, input limit %s, threshold %s", model, humanize.Comma(int64(rep.Window)),
			humanize.Comma(int64(rep.InputLimit)), humanize.Comma(int64(rep.Threshold)))
		if rep.Price != nil {
			fmt.Fprintf(w, "; $%g in, $%g cache read, $%g cache write, $%g out per million tokens",
				rep.Price.Input, rep.Price.CacheRead, rep.Price.CacheWriteOrInput(), rep.Price.Output)
		} else {
			fmt.Fprintf(w, "; no price (pass --prices)")
		}
		fmt.Fprintln(w)
		var found []string
		for _, c := range eval.Categories {
			found = append(found, fmt.Sprintf("%s %d", c, rep.Specifics[string(c)]))
		}
		fmt.Fprintf(w, "specifics in the original: %s\n", strings.Join(found, ", "))
		if err := printPolicies(w, rep.Policies, probes, rep.Price != nil, 1); err != nil {
			return err
		}
	}
	if len(out.Transcripts) > 1 {
		fmt.Fprintf(w, "\nAll %d transcripts\n", len(out.Transcripts))
		if err := printPolicies(w, out.Total, probes, allPriced(out.Total), len(out.Transcripts)); err != nil {
			return err
		}
	}
	for _, jf := range out.Judge {
		fmt.Fprintf(w, "\nJudge on %s (full context vs %s): %s\n", jf.File, jf.Policy, judgeSummary(jf.Summary))
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  category\tprobe\tverdict\t")
		for _, v := range jf.Verdicts {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t\n", v.Category, clip(v.Expect, 50), v.Verdict)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

func allPriced(ps []eval.PolicyReport) bool {
	for _, p := range ps {
		if !p.Replay.Priced {
			return false
		}
	}
	return len(ps) > 0
}

func printPolicies(w io.Writer, ps []eval.PolicyReport, probes, priced bool, transcripts int) error {
	fmt.Fprintln(w, "\nCompaction of the whole transcript (final rendering)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "policy\ttokens\tsaved\tfits\tvalid\tretained"
	for _, c := range eval.Categories {
		head += "\t" + string(c)
	}
	if probes {
		head += "\tprobes\tprobe mean"
	}
	fmt.Fprintln(tw, head+"\t")
	unsent := false
	for _, p := range ps {
		valid := "yes"
		if !p.Validity.Valid() {
			valid = fmt.Sprintf("%d bad", p.Validity.Invalid)
		}
		unsent = unsent || p.Retention.Unsent > 0
		row := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", p.Name, humanize.Comma(int64(p.Final.Tokens)), pct(p.Final.Compression),
			fits(p, transcripts), valid, overall(&p.Retention))
		for _, c := range eval.Categories {
			row += "\t" + rate(p.Retention.ByCategory[string(c)])
		}
		if probes {
			if p.Probes != nil {
				t := p.Probes.Total
				row += fmt.Sprintf("\t%d/%d\t%s", t.Retained, t.Found, overall(&p.Probes.Retention))
			} else {
				row += "\t-\t-"
			}
		}
		fmt.Fprintln(tw, row+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "retained: the mean of the categories' rates, each category weighing the same however many items it has")
	if probes {
		fmt.Fprintln(w, "probes: kept of found, and the mean of the probe categories' rates")
	}
	if unsent {
		fmt.Fprintln(w, "a final rendering that does not fit the window cannot be sent: it retains nothing (0%)")
	}
	if probes {
		if err := printProbeCategories(w, ps); err != nil {
			return err
		}
	}

	fmt.Fprintln(w, "\nTurn-by-turn replay (one request per assistant step)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tsent\toverflows\tcompletes\tinput\tcached\toutput\tpeak\tcompactions\tsummaries\tcost\t")
	incomplete := false
	for _, p := range ps {
		r := &p.Replay
		cost := "-"
		if priced && r.Priced {
			cost = fmt.Sprintf("$%.2f", r.CostUSD)
			if !r.Complete {
				cost += "*"
				incomplete = true
			}
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t\n", p.Name, r.Sent, r.Overflows, completes(r, transcripts),
			humanize.Comma(r.InputTokens), humanize.Comma(r.CachedTokens), humanize.Comma(r.OutputTokens),
			humanize.Comma(int64(r.PeakTokens)), r.Compactions, r.SummarizerCalls, cost)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if incomplete {
		fmt.Fprintln(w, "* incomplete: a request did not fit the window. The provider refuses it (context_length_exceeded) without")
		fmt.Fprintln(w, "  charge, but the agent cannot go on: this is what a session that did not finish cost, not comparable")
		fmt.Fprintln(w, "  with the cost of one that did")
	}
	if priced {
		fmt.Fprintln(w, cheapest(ps))
	}
	return nil
}

// fits says whether the final rendering fits; over several transcripts,
// how many of them it does not fit.
func fits(p eval.PolicyReport, transcripts int) string {
	if p.Final.Fits {
		return "yes"
	}
	if transcripts > 1 && p.Retention.Unsent > 0 {
		return fmt.Sprintf("no (%d of %d)", p.Retention.Unsent, transcripts)
	}
	return "no"
}

// completes says whether the replay got through every step, and if not
// where it stopped (one transcript) or in how many it stopped (several).
func completes(r *eval.Replay, transcripts int) string {
	switch {
	case r.Complete:
		return "yes"
	case transcripts > 1:
		return fmt.Sprintf("no (%d of %d)", r.Incomplete, transcripts)
	default:
		return fmt.Sprintf("no, step %d of %d", r.CompletedSteps+1, r.Steps)
	}
}

// cheapest ranks by cost the policies whose replay completed every step;
// the others are named as not ranked.
func cheapest(ps []eval.PolicyReport) string {
	var ranked []eval.PolicyReport
	var left []string
	for _, p := range ps {
		if p.Replay.Complete && p.Replay.Priced {
			ranked = append(ranked, p)
		} else {
			left = append(left, p.Name)
		}
	}
	slices.SortStableFunc(ranked, func(a, b eval.PolicyReport) int { return cmp.Compare(a.Replay.CostUSD, b.Replay.CostUSD) })
	var b strings.Builder
	if len(ranked) == 0 {
		b.WriteString("cheapest: no policy completes every step")
	} else {
		fmt.Fprintf(&b, "cheapest policy that completes every step: %s $%.2f", ranked[0].Name, ranked[0].Replay.CostUSD)
		var rest []string
		for _, p := range ranked[1:] {
			rest = append(rest, fmt.Sprintf("%s $%.2f", p.Name, p.Replay.CostUSD))
		}
		if len(rest) > 0 {
			fmt.Fprintf(&b, " (then %s)", strings.Join(rest, ", "))
		}
	}
	if len(left) > 0 {
		fmt.Fprintf(&b, "; not ranked, incomplete: %s", strings.Join(left, ", "))
	}
	return b.String()
}

// printProbeCategories prints each policy's probe retention per probe
// category.
func printProbeCategories(w io.Writer, ps []eval.PolicyReport) error {
	seen := map[string]bool{}
	var cats []string
	for _, p := range ps {
		if p.Probes == nil {
			continue
		}
		for _, k := range p.Probes.Keys() {
			if !seen[k] {
				seen[k] = true
				cats = append(cats, k)
			}
		}
	}
	if len(cats) == 0 {
		return nil
	}
	slices.Sort(cats)
	fmt.Fprintln(w, "\nProbes kept by category (final rendering)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\t"+strings.Join(cats, "\t")+"\tmean\tall items\t")
	for _, p := range ps {
		row := p.Name
		if p.Probes == nil {
			continue
		}
		for _, c := range cats {
			t := p.Probes.ByCategory[c]
			if t.Found == 0 {
				row += "\t-"
				continue
			}
			row += fmt.Sprintf("\t%d/%d", t.Retained, t.Found)
		}
		row += "\t" + overall(&p.Probes.Retention) + "\t" + rate(p.Probes.Total)
		fmt.Fprintln(tw, row+"\t")
	}
	return tw.Flush()
}

// overall is the mean over categories, or "-" when nothing was looked for.
func overall(r *eval.Retention) string {
	if r.Total.Found == 0 {
		return "-"
	}
	return pct(r.Overall)
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

func rate(t eval.Tally) string {
	if t.Found == 0 {
		return "-"
	}
	return pct(t.Rate())
}

func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// policyList names the compared policies.
func policyList() []string {
	var names []string
	for _, p := range eval.DefaultPolicies() {
		names = append(names, p.Name)
	}
	return names
}

// judgeModels are the judges' default models.
var judgeModels = map[string]string{"anthropic": "claude-sonnet-4-5", "openai": "gpt-4.1"}

// newJudge builds the judge named by --judge, its key and base URL from
// the environment.
func newJudge(name, model string, tools []condense.Tool) (eval.Judge, error) {
	if model == "" {
		model = judgeModels[name]
	}
	switch name {
	case "anthropic":
		j, err := eval.NewAnthropicJudge(model)
		if err != nil {
			return nil, &usageError{err: err}
		}
		j.Tools = tools
		return j, nil
	case "openai":
		j, err := eval.NewOpenAIJudge(model)
		if err != nil {
			return nil, &usageError{err: err}
		}
		j.Tools = tools
		return j, nil
	}
	return nil, usagef("unknown --judge %q (anthropic or openai)", name)
}

// judgeReport asks the judge the probes of one transcript against the full
// history and the final rendering of policy. The full history is asked only
// when it fits the judge model's window.
func judgeReport(ctx context.Context, name, model string, t *eval.Transcript, rep *eval.Report, policy string) (JudgedFile, error) {
	if model == "" {
		model = judgeModels[name]
	}
	j, err := newJudge(name, model, t.Request.Tools)
	if err != nil {
		return JudgedFile{}, err
	}
	var compacted []condense.Message
	for i := range rep.Policies {
		if rep.Policies[i].Name == policy {
			compacted = rep.Policies[i].Rendered()
		}
	}
	askFull := true
	if info, ok := tokens.Models.Lookup(model); ok && info.Window > 0 {
		full := t.Request
		askFull = condense.CountRequest(tokens.ForModel(model, tokens.Models), &full) < info.Window-judgeReserve
	}
	vs, err := eval.JudgeProbes(ctx, j, rep.Original(), compacted, rep.ResolvedProbes(), askFull)
	if err != nil {
		return JudgedFile{}, err
	}
	jf := JudgedFile{File: rep.File, Policy: policy, Verdicts: vs, Summary: map[string]int{}}
	for _, v := range vs {
		jf.Summary[v.Verdict]++
	}
	return jf, nil
}

// judgeReserve is kept free in the judge's window for the question and
// the answer.
const judgeReserve = 2048

func judgeSummary(m map[string]int) string {
	var parts []string
	for _, k := range []string{"same", "lost", "kept", "missing", "gained", "differs"} {
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	if len(parts) == 0 {
		return "no probes present in the transcript"
	}
	return strings.Join(parts, ", ")
}
