package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
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
	model := fs.String("model", "", "count for this model (default: the transcript's; models without a known tokenizer are estimated with o200k_base and a margin)")
	format := fs.String("format", "auto", "input format")
	lenient := fs.Bool("lenient", false, "skip malformed records")
	asJSON := fs.Bool("json", false, "print JSON")
	exact := fs.Bool("exact", false, "count a Claude model exactly with Anthropic's count_tokens endpoint, one request per message (needs ANTHROPIC_API_KEY)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fs.Usage()
		return usagef("count takes one FILE, got %d", len(pos))
	}
	// count needs no window: any model will do.
	bf := budgetFlags{model: *model, format: *format, lenient: *lenient, exact: *exact, fraction: condense.DefaultFraction, notes: stderr}
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
	kind := "estimate"
	if rep.Counter.Exact {
		kind = "exact"
	}
	fmt.Fprintf(stdout, "%s: %s, %d messages, %s tokens (%s, %s)\n", rep.File, rep.Format, rep.Messages,
		humanize.Comma(int64(rep.Total)), rep.Counter.Name, kind)
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
