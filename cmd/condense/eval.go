package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/dustin/go-humanize"
	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/eval"
	"github.com/condense-dev/condense/tokens"
)

func init() {
	register(command{name: "eval", summary: "measure retention, compression, validity and cost of compaction policies", run: runEval})
}

// EvalOutput is the --json output of eval, version 1.
type EvalOutput struct {
	Version      int                 `json:"version"`
	PricesSource string              `json:"prices_source"`
	Transcripts  []*eval.Report      `json:"transcripts"`
	Total        []eval.PolicyReport `json:"total"`
	Judge        []JudgedFile        `json:"judge,omitempty"`
}

// JudgedFile holds a judge's verdicts on one transcript's probes.
type JudgedFile struct {
	File     string         `json:"file"`
	Policy   string         `json:"policy"`
	Verdicts []eval.Verdict `json:"verdicts"`
	Summary  map[string]int `json:"summary"`
}

const evalExample = `condense eval --window 128k --chart tokens.svg transcript/testdata/claude-code-large.jsonl
condense eval --json --probes probes.json --prices prices.json a.jsonl b.jsonl`

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("eval", "eval [flags] FILE...", evalExample, stderr)
	var bf budgetFlags
	bf.register(fs)
	bf.notes = stderr
	sumName := fs.String("summarizer", "extractive", "summarizer of the summarizing policies: extractive (no model, no network)")
	probesPath := fs.String("probes", "", `JSON array of {"category", "text"} or {"category", "regex"}: specifics that must survive`)
	pricesPath := fs.String("prices", "", `JSON object of model → {"input", "cached_input", "output"} in USD per million tokens, over the built-in table`)
	chartPath := fs.String("chart", "", "write an SVG chart of tokens per step per policy here")
	asJSON := fs.Bool("json", false, "print JSON")
	judgeName := fs.String("judge", "", "ask a model the probes against the full and the compacted context: anthropic or openai")
	judgeModel := fs.String("judge-model", "", "the judge's model (default: claude-sonnet-4-5 or gpt-4.1)")
	judgePolicy := fs.String("judge-policy", "default", "the policy whose compacted context the judge is asked against: "+strings.Join(policyList(), ", "))
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		fs.Usage()
		return usagef("eval takes one or more FILEs")
	}
	var probes []eval.Probe
	if *probesPath != "" {
		if probes, err = eval.LoadProbes(*probesPath); err != nil {
			return &usageError{err}
		}
	}
	prices := tokens.DefaultPrices()
	if *pricesPath != "" {
		if prices, err = tokens.LoadPrices(*pricesPath); err != nil {
			return &usageError{err}
		}
	}
	if *judgeName != "" {
		if len(probes) == 0 {
			return usagef("--judge asks the probes: pass --probes")
		}
		if _, err := newJudge(*judgeName, *judgeModel, nil); err != nil {
			return err
		}
		if !slices.Contains(policyList(), *judgePolicy) {
			return usagef("unknown --judge-policy %q (one of %s)", *judgePolicy, strings.Join(policyList(), ", "))
		}
	}
	ts := make([]eval.Transcript, 0, len(pos))
	var first *loaded
	for _, path := range pos {
		l, err := bf.load(path)
		if err != nil {
			return err
		}
		if first == nil {
			first = l
		}
		ts = append(ts, eval.Transcript{Name: path, Format: string(l.tr.Format), Request: l.request(),
			Counter: l.counter, Budget: l.budget})
	}
	sum, err := newSummarizer(*sumName, first)
	if err != nil {
		return err
	}
	cfg := eval.Config{Summarizer: sum, Probes: probes, Prices: prices}
	total := 0
	for i := range ts {
		total += eval.CountSteps(ts[i].Request.Messages) * len(cfg.Policies)
	}
	bar := startProgress(stderr, "eval", int64(total))
	cfg.Progress = bar.add
	reports, err := eval.Evaluate(ctx, ts, cfg)
	bar.finish()
	if err != nil {
		return err
	}
	out := EvalOutput{Version: 1, PricesSource: tokens.PricesSource, Transcripts: reports, Total: eval.Aggregate(reports)}

	if *judgeName != "" {
		for i, rep := range reports {
			jf, err := judgeReport(ctx, *judgeName, *judgeModel, &ts[i], rep, *judgePolicy)
			if err != nil {
				return err
			}
			out.Judge = append(out.Judge, jf)
		}
	}
	if *chartPath != "" {
		var buf bytes.Buffer
		if err := eval.WriteChart(&buf, reports); err != nil {
			return err
		}
		if err := os.WriteFile(*chartPath, buf.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return printEval(stdout, &out, len(probes) > 0)
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
		if err := printPolicies(w, rep.Policies, probes, rep.Price != nil); err != nil {
			return err
		}
	}
	if len(out.Transcripts) > 1 {
		fmt.Fprintf(w, "\nAll %d transcripts\n", len(out.Transcripts))
		if err := printPolicies(w, out.Total, probes, allPriced(out.Total)); err != nil {
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

func printPolicies(w io.Writer, ps []eval.PolicyReport, probes, priced bool) error {
	fmt.Fprintln(w, "\nCompaction of the whole transcript (final rendering)")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "policy\ttokens\tsaved\tfits\tvalid\tretained"
	for _, c := range eval.Categories {
		head += "\t" + string(c)
	}
	if probes {
		head += "\tprobes"
	}
	fmt.Fprintln(tw, head+"\t")
	for _, p := range ps {
		valid := "yes"
		if !p.Validity.Valid() {
			valid = fmt.Sprintf("%d bad", p.Validity.Invalid)
		}
		row := fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", p.Name, humanize.Comma(int64(p.Final.Tokens)), pct(p.Final.Compression),
			yesNo(p.Final.Fits), valid, rate(p.Retention.Total))
		for _, c := range eval.Categories {
			row += "\t" + rate(p.Retention.ByCategory[string(c)])
		}
		if probes {
			t := eval.Tally{}
			if p.Probes != nil {
				t = p.Probes.Total
			}
			row += "\t" + fmt.Sprintf("%d/%d", t.Retained, t.Found)
		}
		fmt.Fprintln(tw, row+"\t")
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintln(w, "\nTurn-by-turn replay (one request per assistant step)")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tsent\toverflows\tinput\tcached\toutput\tpeak\tcompactions\tsummaries\tcost\t")
	for _, p := range ps {
		r := &p.Replay
		cost := "-"
		if priced && r.Priced {
			cost = fmt.Sprintf("$%.2f", r.CostUSD)
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\t%d\t%s\t\n", p.Name, r.Sent, r.Overflows,
			humanize.Comma(int64(int(r.InputTokens))), humanize.Comma(int64(int(r.CachedTokens))), humanize.Comma(int64(int(r.OutputTokens))),
			humanize.Comma(int64(r.PeakTokens)), r.Compactions, r.SummarizerCalls, cost)
	}
	return tw.Flush()
}

func pct(f float64) string { return fmt.Sprintf("%.1f%%", 100*f) }

func rate(t eval.Tally) string {
	if t.Found == 0 {
		return "-"
	}
	return pct(t.Rate())
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
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
			return nil, &usageError{err}
		}
		j.Tools = tools
		return j, nil
	case "openai":
		j, err := eval.NewOpenAIJudge(model)
		if err != nil {
			return nil, &usageError{err}
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

// progress shows a progress bar (github.com/schollz/progressbar/v3) on
// stderr for work that takes over a second, only when stderr is a
// terminal.
type progress struct {
	total int64
	done  atomic.Int64
	stop  chan struct{}
	wg    sync.WaitGroup
}

// progressDelay is how long work runs before its bar appears.
const progressDelay = time.Second

func startProgress(stderr io.Writer, desc string, total int64) *progress {
	p := &progress{total: total, stop: make(chan struct{})}
	f, ok := stderr.(*os.File)
	if !ok || total <= 0 || !term.IsTerminal(int(f.Fd())) {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		select {
		case <-p.stop:
			return
		case <-time.After(progressDelay):
		}
		bar := progressbar.NewOptions64(total, progressbar.OptionSetWriter(f), progressbar.OptionSetDescription(desc),
			progressbar.OptionShowCount(), progressbar.OptionSetItsString("steps"), progressbar.OptionShowIts(),
			progressbar.OptionSetElapsedTime(true), progressbar.OptionSetPredictTime(true),
			progressbar.OptionThrottle(100*time.Millisecond), progressbar.OptionClearOnFinish())
		tick := time.NewTicker(100 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-p.stop:
				_ = bar.Finish()
				return
			case <-tick.C:
				_ = bar.Set64(p.done.Load())
			}
		}
	}()
	return p
}

func (p *progress) add(n int) { p.done.Add(int64(n)) }

func (p *progress) finish() {
	close(p.stop)
	p.wg.Wait()
}
