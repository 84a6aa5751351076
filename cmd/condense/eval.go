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
	probesPath := fs.String("probes", "", `JSON array of {"category", "text"} or {"category", "regex"}: specifics that must survive; `+
		`"auto": each FILE's own NAME.probes.json beside it (as gencorpus writes them)`)
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
	autoProbes := *probesPath == probesAuto
	if *probesPath != "" && !autoProbes {
		if probes, err = eval.LoadProbes(*probesPath); err != nil {
			return &usageError{err}
		}
	}
	hasProbes := len(probes) > 0 || autoProbes
	prices := tokens.DefaultPrices()
	if *pricesPath != "" {
		if prices, err = tokens.LoadPrices(*pricesPath); err != nil {
			return &usageError{err}
		}
	}
	if *judgeName != "" {
		if !hasProbes {
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
		t := eval.Transcript{Name: path, Format: string(l.tr.Format), Request: l.request(),
			Counter: l.counter, Budget: l.budget}
		if autoProbes {
			if t.Probes, err = probesBeside(path); err != nil {
				return err
			}
		}
		ts = append(ts, t)
	}
	sum, err := newSummarizer(*sumName, first)
	if err != nil {
		return err
	}
	cfg := eval.Config{Summarizer: sum, Probes: probes, Prices: prices}
	total := 0
	for i := range ts {
		total += eval.CountSteps(ts[i].Request.Messages) * len(eval.DefaultPolicies())
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
	return printEval(stdout, &out, hasProbes)
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
				return nil, &usageError{err}
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
