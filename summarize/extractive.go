package summarize

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// Section headings of a summary, in order (docs/formats.md). The summarize
// strategy adds a last one, ## Ledger.
var Sections = []string{"Summary", "Decisions", "Facts", "Completed", "Pending"}

// Extractive is the embedded summarizer, the default: no model, no network,
// deterministic. It builds the sections from the span itself: the user's
// requests and the assistant's stated conclusions for ## Summary, decision
// sentences for ## Decisions, the user's constraints (plus the facts of the
// previous summary) for ## Facts, the tool steps that succeeded for
// ## Completed and those that failed and were not later redone for
// ## Pending. The specifics themselves are the ledger's: the summarize
// strategy adds them in ## Ledger.
type Extractive struct {
	// MaxBullets caps each section's bullets (the newest are kept); 0 means
	// 24.
	MaxBullets int
	// MaxBulletLen caps one bullet in bytes; 0 means 200.
	MaxBulletLen int
}

var _ condense.Summarizer = Extractive{}

// Summarize builds the summary of in. It never fails on valid input; it
// honours cancellation.
func (e Extractive) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	maxB, maxLen := e.MaxBullets, e.MaxBulletLen
	if maxB <= 0 {
		maxB = 24
	}
	if maxLen <= 0 {
		maxLen = 200
	}
	prev := ParseSections(in.Previous)
	var (
		requests, conclusions     []string
		plans                     []string
		decisions, facts          []string
		completed, pending        []string
		steps, failedSteps, users int
	)
	calls := map[string]*condense.Part{}
	type outcome struct {
		desc string
		ok   bool
	}
	var outcomes []outcome
	for i := range in.Messages {
		m := &in.Messages[i]
		if m.Role == condense.RoleAssistant && m.Status != condense.StatusComplete {
			continue
		}
		switch m.Role {
		case condense.RoleUser:
			if t := firstLine(m.TextContent(), maxLen); t != "" {
				users++
				requests = append(requests, t)
			}
		case condense.RoleAssistant:
			if m.HasToolCalls() {
				steps++
			}
			if t := lastSentence(m.TextContent(), maxLen); t != "" {
				if m.HasToolCalls() {
					plans = append(plans, t)
				} else {
					conclusions = append(conclusions, t)
				}
			}
			for k := range m.Parts {
				if m.Parts[k].Type == condense.PartToolCall {
					calls[m.Parts[k].ID] = &m.Parts[k]
				}
			}
		case condense.RoleTool:
			for k := range m.Parts {
				p := &m.Parts[k]
				if p.Type != condense.PartToolResult {
					continue
				}
				desc := describeCall(calls[p.CallID], maxLen)
				ok := !p.IsError && !looksFailed(p)
				if !ok {
					failedSteps++
				}
				outcomes = append(outcomes, outcome{desc, ok})
			}
		}
	}
	for _, it := range ledger.Extract(in.Messages, in.Base) {
		switch it.Kind {
		case ledger.KindDecision:
			decisions = append(decisions, it.Value)
		case ledger.KindConstraint:
			facts = append(facts, it.Value)
		}
	}
	// A step that failed and later succeeded with the same description is
	// done; one whose last outcome failed is pending.
	last := map[string]bool{}
	var order []string
	for _, o := range outcomes {
		if _, seen := last[o.desc]; !seen {
			order = append(order, o.desc)
		}
		last[o.desc] = o.ok
	}
	for _, d := range order {
		if last[d] {
			completed = append(completed, d)
		} else {
			pending = append(pending, d+" (failed)")
		}
	}
	if len(requests) > 0 && len(conclusions) == 0 && len(plans) == 0 {
		pending = append(pending, "answer: "+requests[len(requests)-1])
	}

	var b strings.Builder
	b.WriteString("## Summary\n")
	fmt.Fprintf(&b, "%d earlier messages were compacted: %d user messages, %d tool steps (%d failed results).\n",
		len(in.Messages), users, steps, failedSteps)
	if prevSummary := strings.TrimSpace(strings.Join(prev["Summary"], "\n")); prevSummary != "" {
		b.WriteString("Before that: ")
		b.WriteString(firstLine(strings.ReplaceAll(prevSummary, "\n", " "), 2*maxLen))
		b.WriteByte('\n')
	}
	writeBullets(&b, "Requests", requests, maxB/2)
	writeBullets(&b, "Conclusions", conclusions, maxB/2)
	writeBullets(&b, "Latest plans", plans, 3)
	section(&b, "Decisions", merge(prev["Decisions"], decisions), maxB)
	section(&b, "Facts", merge(prev["Facts"], facts), maxB)
	section(&b, "Completed", merge(prev["Completed"], completed), maxB)
	section(&b, "Pending", pendingAfter(prev["Pending"], pending, completed), maxB)
	if in.Instructions != "" {
		fmt.Fprintf(&b, "\nCompacted as instructed: %s\n", firstLine(in.Instructions, maxLen))
	}
	return &condense.Summary{Text: b.String(), Usage: condense.Usage{Provider: "condense", Model: "extractive"}}, nil
}

func writeBullets(b *strings.Builder, label string, items []string, max int) {
	if len(items) == 0 {
		return
	}
	items = newest(dedup(items), max)
	fmt.Fprintf(b, "%s:\n", label)
	for _, it := range items {
		b.WriteString("- ")
		b.WriteString(it)
		b.WriteByte('\n')
	}
}

func section(b *strings.Builder, name string, items []string, max int) {
	fmt.Fprintf(b, "\n## %s\n", name)
	items = dedup(items)
	if len(items) > max {
		fmt.Fprintf(b, "- (%d earlier items left out)\n", len(items)-max)
		items = items[len(items)-max:]
	}
	if len(items) == 0 {
		b.WriteString("- none\n")
		return
	}
	for _, it := range items {
		b.WriteString("- ")
		b.WriteString(it)
		b.WriteByte('\n')
	}
}

// pendingAfter drops from the earlier pending items those completed since.
func pendingAfter(prev, pending, completed []string) []string {
	done := map[string]bool{}
	for _, c := range completed {
		done[c] = true
	}
	var out []string
	for _, p := range prev {
		if !done[strings.TrimSuffix(p, " (failed)")] {
			out = append(out, p)
		}
	}
	return append(out, pending...)
}

func merge(prev, cur []string) []string {
	var out []string
	for _, p := range prev {
		if p != "none" && !strings.HasPrefix(p, "(") {
			out = append(out, p)
		}
	}
	return append(out, cur...)
}

func dedup(items []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	return out
}

func newest(items []string, n int) []string {
	if n > 0 && len(items) > n {
		return items[len(items)-n:]
	}
	return items
}

// describeCall renders a tool call as a short one-line step: the command it
// ran, or the path it touched, or its name and input.
func describeCall(call *condense.Part, maxLen int) string {
	if call == nil {
		return "a tool call"
	}
	var in map[string]any
	_ = json.Unmarshal(call.Input, &in)
	for _, k := range []string{"command", "cmd", "script"} {
		if s, ok := in[k].(string); ok && s != "" {
			return call.Name + ": " + firstLine(ledger.Redact(s), maxLen)
		}
	}
	for _, k := range []string{"path", "file_path", "filename", "file", "target"} {
		if s, ok := in[k].(string); ok && s != "" {
			return call.Name + " " + firstLine(s, maxLen)
		}
	}
	return firstLine(call.Name+" "+ledger.Redact(string(call.Input)), maxLen)
}

// looksFailed spots failures a tool reported in its text but not its flag.
func looksFailed(p *condense.Part) bool {
	for _, c := range p.Content {
		if c.Type != condense.PartText {
			continue
		}
		t := c.Text
		if strings.Contains(t, "--- FAIL") || strings.Contains(t, "\nFAIL") || strings.HasPrefix(t, "FAIL") ||
			strings.Contains(t, "panic: ") || strings.Contains(t, "Traceback (most recent call last)") ||
			strings.Contains(t, "exit status 1") || strings.Contains(t, "npm ERR!") || strings.Contains(t, "error[E") {
			return true
		}
	}
	return false
}

// firstLine returns the first non-empty line of s, trimmed and capped.
func firstLine(s string, max int) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return capString(ledger.Redact(line), max)
		}
	}
	return ""
}

// lastSentence returns the last sentence of s's last non-empty paragraph.
func lastSentence(s string, max int) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	line := ""
	for i := len(lines) - 1; i >= 0; i-- {
		if t := strings.TrimSpace(lines[i]); t != "" {
			line = t
			break
		}
	}
	// The last sentence starts after the last ". ", "! " or "? ".
	cut := -1
	for _, sep := range []string{". ", "! ", "? "} {
		if i := strings.LastIndex(strings.TrimRight(line, " "), sep); i > cut {
			cut = i
		}
	}
	if cut >= 0 {
		line = strings.TrimSpace(line[cut+2:])
	}
	return capString(ledger.Redact(line), max)
}

func capString(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}

// ParseSections splits a summary's Markdown into its sections' bullet
// lines, keyed by heading ("Summary", "Ledger", …). Lines of ## Summary are
// kept whole; other sections keep their bullets without the "- ".
func ParseSections(text string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(text, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			cur = strings.TrimSpace(h)
			continue
		}
		if cur == "" || strings.TrimSpace(line) == "" {
			continue
		}
		if cur == "Summary" {
			out[cur] = append(out[cur], line)
			continue
		}
		if b, ok := strings.CutPrefix(line, "- "); ok {
			out[cur] = append(out[cur], b)
		}
	}
	return out
}
