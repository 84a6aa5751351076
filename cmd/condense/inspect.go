package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/dustin/go-humanize"
	"github.com/spf13/cobra"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// InspectReport is the --json output of inspect.
type InspectReport struct {
	File               string              `json:"file"`
	Format             string              `json:"format"`
	Model              string              `json:"model"`
	Counter            StatsCounter        `json:"counter"`
	Window             int                 `json:"window"`
	InputLimit         int                 `json:"input_limit"`
	Threshold          int                 `json:"threshold"`
	Messages           int                 `json:"messages"`
	Tokens             int                 `json:"tokens"`
	Overhead           int                 `json:"overhead"`
	Turns              []InspectTurn       `json:"turns"`
	Largest            []InspectMessage    `json:"largest"`
	FirstOverThreshold *InspectCrossing    `json:"first_over_threshold"`
	Overflow           *InspectCrossing    `json:"first_overflow"`
	Strategies         []InspectStrategy   `json:"strategies"`
	Checkpoint         *InspectCheckpoints `json:"checkpoint,omitempty"`
}

// InspectTurn is one turn: a user message and what follows it.
type InspectTurn struct {
	Turn       int `json:"turn"`
	Start      int `json:"start"`
	End        int `json:"end"`
	Steps      int `json:"steps"`
	Tokens     int `json:"tokens"`
	Cumulative int `json:"cumulative"`
}

// InspectMessage is one of the largest messages.
type InspectMessage struct {
	Index   int    `json:"index"`
	Role    string `json:"role"`
	Kind    string `json:"kind"`
	Tokens  int    `json:"tokens"`
	Preview string `json:"preview"`
}

// InspectCrossing is where the cumulative request first passes a limit.
type InspectCrossing struct {
	Index  int `json:"index"`
	Turn   int `json:"turn"`
	Tokens int `json:"tokens"`
	Limit  int `json:"limit"`
}

// InspectStrategy is what one built-in strategy would do with the whole
// transcript.
type InspectStrategy struct {
	Name string `json:"name"`
	// Outcome is "compacted", "nothing to compact" or "cannot fit" (or
	// "error", with Error).
	Outcome        string `json:"outcome"`
	TokensBefore   int    `json:"tokens_before"`
	TokensAfter    int    `json:"tokens_after"`
	MessagesBefore int    `json:"messages_before"`
	MessagesAfter  int    `json:"messages_after"`
	Steps          string `json:"steps,omitempty"`
	// UnderThreshold: the preflight had no reason to compact; Manual is
	// then what a manual compaction ("condense compact" of a session,
	// which compacts whatever the pressure) would do, when it does
	// anything.
	UnderThreshold bool           `json:"under_threshold,omitempty"`
	Manual         *InspectManual `json:"manual,omitempty"`
	Error          string         `json:"error,omitempty"`
}

// InspectManual is the result of a manual compaction.
type InspectManual struct {
	TokensAfter   int    `json:"tokens_after"`
	MessagesAfter int    `json:"messages_after"`
	Steps         string `json:"steps,omitempty"`
}

// InspectCheckpoints describes a compaction the agent already made.
type InspectCheckpoints struct {
	Source    string `json:"source"`
	FirstKept int    `json:"first_kept"`
}

const inspectExample = `  condense inspect transcript/testdata/claude-code-large.jsonl --window 128k`

// inspectStrategies are the strategies inspect tries, in order.
var inspectStrategies = []string{"minify", "mask", "clear-tool-uses", "drop-oldest", "summarize", "segments", "pipeline"}

// inspectOptions are inspect's flags.
type inspectOptions struct {
	budget     budgetFlags
	summarizer string
	top        int
	asJSON     bool
}

func newInspectCmd(e *env) *cobra.Command {
	o := &inspectOptions{}
	cmd := &cobra.Command{
		Use:   "inspect [flags] [FILE | -]",
		Short: "show where a transcript's tokens are and what each strategy would do",
		Long: `Show a transcript's tokens turn by turn, its largest messages, where it passes the
compaction threshold and overflows the window, and what each built-in strategy
would do with it. With no FILE, or "-", the transcript is read from standard input.`,
		Example: inspectExample,
		Args:    cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInspect(cmd, e, o, args)
		},
	}
	o.budget.register(cmd)
	fs := cmd.Flags()
	fs.StringVar(&o.summarizer, "summarizer", "extractive", "summarizer for summarize, segments and pipeline: extractive (no model, no network)")
	fs.IntVar(&o.top, "top", 10, "how many of the largest messages to list")
	fs.BoolVar(&o.asJSON, "json", false, "print JSON")
	_ = cmd.RegisterFlagCompletionFunc("summarizer", fixedCompletion(summarizerNames...))
	o.budget.notes = e.stderr
	return cmd
}

func runInspect(cmd *cobra.Command, e *env, o *inspectOptions, args []string) error {
	if err := o.budget.check(cmd); err != nil {
		return err
	}
	if o.top < 0 {
		return flagErrorf(cmd, "--top must not be negative")
	}
	sum, err := newSummarizer(o.summarizer, "")
	if err != nil {
		return err
	}
	path, err := inputArg(cmd, e, args)
	if err != nil {
		return err
	}
	l, err := o.budget.load(e, path)
	if err != nil {
		return err
	}
	rep, err := inspect(cmd.Context(), l, sum, o.top)
	if err != nil {
		return err
	}
	if o.asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printInspect(e.stdout, rep)
}

func inspect(ctx context.Context, l *loaded, sum condense.Summarizer, top int) (*InspectReport, error) {
	req := l.request()
	msgs := req.Messages
	rep := &InspectReport{
		File: l.path, Format: string(l.tr.Format), Model: l.model,
		Counter: StatsCounter{Name: l.counter.Name(), Exact: l.counter.Exact()},
		Window:  l.budget.Window, InputLimit: l.budget.InputLimit(), Threshold: l.budget.Threshold(),
		Messages: len(msgs), Turns: []InspectTurn{}, Largest: []InspectMessage{}, Strategies: []InspectStrategy{},
	}
	if cp := l.tr.Checkpoint; cp != nil {
		rep.Checkpoint = &InspectCheckpoints{Source: cp.Source, FirstKept: cp.FirstKept}
	}
	rep.Overhead = l.counter.CountOverhead(req.System, req.Tools)
	counts := make([]int, len(msgs))
	for i := range msgs {
		counts[i] = l.counter.CountMessage(&msgs[i])
	}

	// Cumulative request size message by message: where it first passes the
	// threshold and the input limit.
	turnOf := make([]int, len(msgs))
	turns := condense.Turns(msgs)
	for t, s := range turns {
		for i := s.Start; i < s.End; i++ {
			turnOf[i] = t + 1
		}
	}
	cum := rep.Overhead
	for i := range msgs {
		cum += counts[i]
		if rep.FirstOverThreshold == nil && cum > rep.Threshold {
			rep.FirstOverThreshold = &InspectCrossing{Index: i, Turn: turnOf[i], Tokens: cum, Limit: rep.Threshold}
		}
		if rep.Overflow == nil && cum > rep.InputLimit {
			rep.Overflow = &InspectCrossing{Index: i, Turn: turnOf[i], Tokens: cum, Limit: rep.InputLimit}
		}
	}
	rep.Tokens = condense.CountRequest(l.counter, &req)

	cum = rep.Overhead
	if len(turns) > 0 {
		for i := 0; i < turns[0].Start; i++ {
			cum += counts[i]
		}
	}
	for t, s := range turns {
		it := InspectTurn{Turn: t + 1, Start: s.Start, End: s.End, Steps: len(condense.Steps(msgs[s.Start:s.End]))}
		for i := s.Start; i < s.End; i++ {
			it.Tokens += counts[i]
		}
		cum += it.Tokens
		it.Cumulative = cum
		rep.Turns = append(rep.Turns, it)
	}

	order := make([]int, len(msgs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return counts[order[a]] > counts[order[b]] })
	for _, i := range order[:min(top, len(order))] {
		rep.Largest = append(rep.Largest, InspectMessage{Index: i, Role: string(msgs[i].Role),
			Kind: messageKind(&msgs[i]), Tokens: counts[i], Preview: preview(&msgs[i], 60)})
	}

	for _, name := range inspectStrategies {
		s, err := newStrategy(name)
		if err != nil {
			return nil, err
		}
		is := InspectStrategy{Name: name}
		pf := l.preflight(s, sum, logger(io.Discard))
		res, err := pf.Prepare(ctx, req)
		var we *condense.WindowError
		switch {
		case errors.As(err, &we):
			is.Outcome = "cannot fit"
			is.TokensBefore, is.TokensAfter = rep.Tokens, we.Tokens
			is.MessagesBefore = len(msgs)
			is.MessagesAfter = len(pf.Rendering())
			rep.Strategies = append(rep.Strategies, is)
			continue
		case err != nil:
			if ctx.Err() != nil {
				return nil, err
			}
			is.Outcome, is.Error = "error", ledger.Redact(err.Error())
			rep.Strategies = append(rep.Strategies, is)
			continue
		}
		is.TokensBefore, is.TokensAfter = res.TokensBefore, res.Tokens
		is.MessagesBefore, is.MessagesAfter = len(pf.Rendering()), len(res.Request.Messages)
		if len(res.Records) > 0 {
			is.Outcome = "compacted"
			is.MessagesBefore = res.Records[0].MessagesBefore
			is.Steps = strings.Join(res.Records[len(res.Records)-1].Steps, ",")
			rep.Strategies = append(rep.Strategies, is)
			continue
		}
		if res.Pressured {
			is.Outcome = "nothing to compact"
			rep.Strategies = append(rep.Strategies, is)
			continue
		}
		// Under the threshold the preflight leaves the request alone; say
		// what a manual compaction would do.
		is.Outcome, is.UnderThreshold = "nothing to compact", true
		mres, err := pf.Compact(ctx, req)
		switch {
		case err == nil:
			m := &InspectManual{TokensAfter: mres.Tokens, MessagesAfter: len(mres.Request.Messages)}
			if len(mres.Records) > 0 {
				m.Steps = strings.Join(mres.Records[len(mres.Records)-1].Steps, ",")
			}
			is.Manual = m
		case ctx.Err() != nil:
			return nil, err
		}
		rep.Strategies = append(rep.Strategies, is)
	}
	return rep, nil
}

// messageKind says what a message mostly holds: "text", "tool_call <name>",
// "tool_result <name>", "thinking", "image".
func messageKind(m *condense.Message) string {
	var kinds []string
	seen := map[string]bool{}
	for i := range m.Parts {
		p := &m.Parts[i]
		k := partKind(p)
		switch p.Type {
		case condense.PartToolCall:
			k = "call " + p.Name
		case condense.PartToolResult:
			k = "result"
			if p.IsError {
				k = "error result"
			}
		}
		if !seen[k] {
			seen[k] = true
			kinds = append(kinds, k)
		}
	}
	if len(kinds) > 3 {
		kinds = append(kinds[:3], "…")
	}
	return strings.Join(kinds, ", ")
}

// preview returns the first n characters of a message's text, tool input or
// result, on one line, secrets redacted.
func preview(m *condense.Message, n int) string {
	var b strings.Builder
	var walk func(parts []condense.Part)
	walk = func(parts []condense.Part) {
		for i := range parts {
			if b.Len() > 4*n {
				return
			}
			p := &parts[i]
			switch p.Type {
			case condense.PartText, condense.PartThinking:
				b.WriteString(p.Text)
			case condense.PartToolCall:
				b.WriteString(p.Name)
				b.WriteByte(' ')
				b.Write(p.Input)
			case condense.PartToolResult:
				walk(p.Content)
			case condense.PartImage:
				b.WriteString("[image]")
			}
			b.WriteByte(' ')
		}
	}
	walk(m.Parts)
	// A preview is text condense shows, so secrets are redacted first.
	s := strings.Join(strings.Fields(ledger.Redact(b.String())), " ")
	if utf8.RuneCountInString(s) > n {
		r := []rune(s)
		s = string(r[:n-1]) + "…"
	}
	return s
}

func printInspect(w io.Writer, rep *InspectReport) error {
	exact := "estimate"
	if rep.Counter.Exact {
		exact = "exact"
	}
	fmt.Fprintf(w, "%s: %s, %d messages, %s tokens (%s, %s)\n", rep.File, rep.Format, rep.Messages,
		humanize.Comma(int64(rep.Tokens)), rep.Counter.Name, exact)
	fmt.Fprintf(w, "model %s: window %s, input limit %s, compaction threshold %s\n", rep.Model,
		humanize.Comma(int64(rep.Window)), humanize.Comma(int64(rep.InputLimit)), humanize.Comma(int64(rep.Threshold)))
	if rep.Checkpoint != nil {
		fmt.Fprintf(w, "the transcript holds a compaction (%s); messages from %d on were kept\n", rep.Checkpoint.Source, rep.Checkpoint.FirstKept)
	}

	fmt.Fprintf(w, "\nTurns (system, tools and framing: %s tokens)\n", humanize.Comma(int64(rep.Overhead)))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "turn\tmessages\tsteps\ttokens\tcumulative\t\t")
	for _, t := range rep.Turns {
		mark := ""
		switch {
		case t.Cumulative > rep.InputLimit:
			mark = "over the input limit"
		case t.Cumulative > rep.Threshold:
			mark = "over the threshold"
		}
		fmt.Fprintf(tw, "%d\t%d-%d\t%d\t%s\t%s\t\t%s\n", t.Turn, t.Start, t.End-1, t.Steps,
			humanize.Comma(int64(t.Tokens)), humanize.Comma(int64(t.Cumulative)), mark)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nLargest messages\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "index\trole\tkind\ttokens\tpreview")
	for _, m := range rep.Largest {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", m.Index, m.Role, m.Kind, humanize.Comma(int64(m.Tokens)), m.Preview)
	}
	if err := tw.Flush(); err != nil {
		return err
	}

	fmt.Fprintf(w, "\nOverflow\n")
	if c := rep.FirstOverThreshold; c != nil {
		fmt.Fprintf(w, "  passes the threshold at message %d (turn %d): %s > %s tokens\n", c.Index, c.Turn,
			humanize.Comma(int64(c.Tokens)), humanize.Comma(int64(c.Limit)))
	}
	if c := rep.Overflow; c != nil {
		fmt.Fprintf(w, "  first overflows the window at message %d (turn %d): %s > input limit %s\n", c.Index, c.Turn,
			humanize.Comma(int64(c.Tokens)), humanize.Comma(int64(c.Limit)))
	} else {
		fmt.Fprintf(w, "  never overflows: %s of %s input tokens (%d%%)\n", humanize.Comma(int64(rep.Tokens)),
			humanize.Comma(int64(rep.InputLimit)), rep.Tokens*100/max(1, rep.InputLimit))
	}

	fmt.Fprintf(w, "\nStrategies (each run once on the whole transcript)\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "strategy\toutcome\ttokens\tmessages\tsteps")
	for _, s := range rep.Strategies {
		switch s.Outcome {
		case "nothing to compact", "error":
			note := s.Outcome
			if s.Error != "" {
				note += ": " + s.Error
			}
			if s.UnderThreshold {
				note += " (under the threshold"
				if m := s.Manual; m != nil {
					note += fmt.Sprintf("; manually %s → %s tokens, %d → %d messages", humanize.Comma(int64(s.TokensBefore)),
						humanize.Comma(int64(m.TokensAfter)), s.MessagesBefore, m.MessagesAfter)
				}
				note += ")"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t\n", s.Name, note, humanize.Comma(int64(s.TokensBefore)), s.MessagesBefore)
		default:
			fmt.Fprintf(tw, "%s\t%s\t%s → %s\t%d → %d\t%s\n", s.Name, s.Outcome,
				humanize.Comma(int64(s.TokensBefore)), humanize.Comma(int64(s.TokensAfter)), s.MessagesBefore, s.MessagesAfter, s.Steps)
		}
	}
	return tw.Flush()
}
