package main

import (
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"text/tabwriter"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
)

// CountReport is the --json output of count.
type CountReport struct {
	File     string         `json:"file"`
	Format   string         `json:"format"`
	Model    string         `json:"model"`
	Counter  StatsCounter   `json:"counter"`
	Messages int            `json:"messages"`
	Total    int            `json:"total"`
	Overhead int            `json:"overhead"`
	ByRole   map[string]int `json:"by_role"`
	ByKind   map[string]int `json:"by_kind"`
	Window   int            `json:"window,omitempty"`
}

// partKind names the kinds count reports.
func partKind(p *condense.Part) string {
	switch p.Type {
	case condense.PartText:
		return "text"
	case condense.PartToolCall:
		return "tool_input"
	case condense.PartToolResult:
		return "tool_output"
	case condense.PartThinking:
		return "thinking"
	case condense.PartImage:
		return "images"
	}
	return "other"
}

// countOptions are count's flags.
type countOptions struct {
	budget budgetFlags
	asJSON bool
}

func newCountCmd(e *env) *cobra.Command {
	o := &countOptions{}
	cmd := &cobra.Command{
		Use:   "count [flags] [FILE | -]",
		Short: "count a transcript's tokens by role and part kind",
		Long: `Count a transcript's tokens by role and part kind, with the counter used, and the
share of the window they take (the model's, or --window). With no FILE, or "-",
the transcript is read from standard input.`,
		Example: "  condense count --json transcript/testdata/codex-rollout.jsonl\n  condense count --window 32k session.jsonl",
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCount(cmd, e, o, args)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.budget.model, "model", "", "count for this model (default: the transcript's; models without a known tokenizer are estimated with o200k_base and a margin)")
	fs.Var(&o.budget.window, "window", "context window to report the share of, e.g. 200k (default: the model's)")
	o.budget.registerRead(cmd)
	fs.BoolVar(&o.asJSON, "json", false, "print JSON")
	o.budget.fraction = condense.DefaultFraction
	o.budget.notes = e.stderr
	return cmd
}

func runCount(cmd *cobra.Command, e *env, o *countOptions, args []string) error {
	bf := o.budget
	if err := bf.check(cmd); err != nil {
		return err
	}
	path, err := inputArg(cmd, e, args)
	if err != nil {
		return err
	}
	// count needs no window: any model will do.
	window := bf.window
	bf.window = sizeFlag{n: 1 << 30, set: true}
	l, err := bf.load(e, path)
	if err != nil {
		return err
	}
	rep := countTranscript(l)
	if window.set {
		rep.Window = window.n
	} else if info, ok := modelWindow(l.model); ok {
		rep.Window = info
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	stdout := e.stdout
	kind := "estimate"
	if rep.Counter.Exact {
		kind = "exact"
	}
	fmt.Fprintf(stdout, "%s: %s, %d messages, %s tokens (%s, %s)\n", rep.File, rep.Format, rep.Messages,
		humanize.Comma(int64(rep.Total)), rep.Counter.Name, kind)
	if rep.Window > 0 {
		whose := rep.Model + "'s window"
		if window.set {
			whose = "the window"
		}
		fmt.Fprintf(stdout, "%s is %s tokens: %d%% used\n", whose, humanize.Comma(int64(rep.Window)), rep.Total*100/rep.Window)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tby role\ttokens\t")
	for _, k := range sortedKeys(rep.ByRole) {
		fmt.Fprintf(tw, "\t%s\t%s\t\n", k, humanize.Comma(int64(rep.ByRole[k])))
	}
	fmt.Fprintf(tw, "\t%s\t%s\t\n", "(system, tools, framing)", humanize.Comma(int64(rep.Overhead)))
	fmt.Fprintln(tw, "\tby kind\ttokens\t")
	for _, k := range sortedKeys(rep.ByKind) {
		fmt.Fprintf(tw, "\t%s\t%s\t\n", k, humanize.Comma(int64(rep.ByKind[k])))
	}
	return tw.Flush()
}

// countTranscript counts l's request by role and by part kind. A message's
// framing is charged to its role; kinds are counted part by part. Each
// message is counted once (a message of one part gives its kind's count
// too), on every core.
func countTranscript(l *loaded) CountReport {
	req := l.request()
	rep := CountReport{File: l.path, Format: string(l.tr.Format), Model: l.model,
		Counter: StatsCounter{Name: l.counter.Name(), Exact: l.counter.Exact()}, Messages: len(req.Messages),
		ByRole: map[string]int{}, ByKind: map[string]int{}}
	rep.Overhead = l.counter.CountOverhead(req.System, req.Tools)
	framing := map[condense.Role]int{}
	for _, r := range []condense.Role{condense.RoleSystem, condense.RoleUser, condense.RoleAssistant, condense.RoleTool} {
		framing[r] = l.counter.CountMessage(&condense.Message{Role: r})
	}
	counts := make([]messageCount, len(req.Messages))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(req.Messages); i = int(next.Add(1)) - 1 {
				counts[i] = countMessage(l.counter, &req.Messages[i], framing)
			}
		})
	}
	wg.Wait()
	total := rep.Overhead
	for i, c := range counts {
		m := &req.Messages[i]
		rep.ByRole[string(m.Role)] += c.tokens
		total += c.tokens
		for k, n := range c.parts {
			rep.ByKind[partKind(&m.Parts[k])] += n
		}
	}
	rep.Total = total
	if cr, ok := l.counter.(condense.Corrector); ok && cr.Correction() > 1 {
		rep.Total = int(math.Ceil(float64(total) * cr.Correction()))
	}
	return rep
}

// messageCount is the count of one message and of each of its parts
// (without the message's framing).
type messageCount struct {
	tokens int
	parts  []int
}

func countMessage(c condense.Counter, m *condense.Message, framing map[condense.Role]int) messageCount {
	mc := messageCount{tokens: c.CountMessage(m), parts: make([]int, len(m.Parts))}
	f, ok := framing[m.Role]
	if !ok {
		f = c.CountMessage(&condense.Message{Role: m.Role})
	}
	if len(m.Parts) == 1 {
		mc.parts[0] = max(0, mc.tokens-f)
		return mc
	}
	for k := range m.Parts {
		mc.parts[k] = max(0, c.CountMessage(&condense.Message{Role: m.Role, Parts: m.Parts[k : k+1]})-f)
	}
	return mc
}

func modelWindow(model string) (int, bool) {
	info, ok := registryLookup(model)
	return info.Window, ok && info.Window > 0
}

func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
