package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/condense-dev/condense"
	"github.com/dustin/go-humanize"
)

func init() {
	register(command{name: "count", summary: "count a transcript's tokens by role and part kind", run: runCount})
}

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

func runCount(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("count", "count [flags] FILE", "condense count --json transcript/testdata/codex-rollout.jsonl", stderr)
	model := fs.String("model", "", "count for this model (default: the transcript's; unknown models use the Claude heuristic)")
	format := fs.String("format", "auto", "input format")
	lenient := fs.Bool("lenient", false, "skip malformed records")
	asJSON := fs.Bool("json", false, "print JSON")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("count takes one FILE, got %d", len(pos))
	}
	// count needs no window: any model will do.
	bf := budgetFlags{model: *model, format: *format, lenient: *lenient, fraction: condense.DefaultFraction, notes: stderr}
	bf.window = sizeFlag{n: 1 << 30, set: true}
	l, err := bf.load(pos[0])
	if err != nil {
		return err
	}
	rep := countTranscript(l)
	if info, ok := modelWindow(l.model); ok {
		rep.Window = info
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	exact := "estimate"
	if rep.Counter.Exact {
		exact = "exact"
	}
	fmt.Fprintf(stdout, "%s: %s, %d messages, %s tokens (%s, %s)\n", rep.File, rep.Format, rep.Messages,
		humanize.Comma(int64(rep.Total)), rep.Counter.Name, exact)
	if rep.Window > 0 {
		fmt.Fprintf(stdout, "%s's window is %s tokens: %d%% used\n", rep.Model, humanize.Comma(int64(rep.Window)), rep.Total*100/rep.Window)
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
// framing is charged to its role; kinds are counted part by part.
func countTranscript(l *loaded) CountReport {
	req := l.request()
	rep := CountReport{File: l.path, Format: string(l.tr.Format), Model: l.model,
		Counter: StatsCounter{Name: l.counter.Name(), Exact: l.counter.Exact()}, Messages: len(req.Messages),
		ByRole: map[string]int{}, ByKind: map[string]int{}}
	rep.Overhead = l.counter.CountOverhead(req.System, req.Tools)
	for i := range req.Messages {
		m := &req.Messages[i]
		n := l.counter.CountMessage(m)
		rep.ByRole[string(m.Role)] += n
		framing := l.counter.CountMessage(&condense.Message{Role: m.Role})
		for k := range m.Parts {
			kind := partKind(&m.Parts[k])
			pn := l.counter.CountMessage(&condense.Message{Role: m.Role, Parts: m.Parts[k : k+1]}) - framing
			rep.ByKind[kind] += max(0, pn)
		}
	}
	rep.Total = condense.CountRequest(l.counter, &req)
	return rep
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
