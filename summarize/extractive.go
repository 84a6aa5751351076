package summarize

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// Section headings of a summary, in order (docs/formats.md): the state of
// the work first. The summarize strategy adds two last ones, ## Ledger and
// ## In the agent's words.
var Sections = []string{"Task", "Constraints", "Decisions", "Done", "Failed / open", "Next steps"}

// The defaults of Extractive.
const (
	// DefaultMaxBullets caps each section's bullets.
	DefaultMaxBullets = 8
	// DefaultMaxBulletLen caps one bullet, in bytes.
	DefaultMaxBulletLen = 200
	// DefaultStateTokens bounds the sections of an extractive summary, in
	// ledger.ApproxTokens (which over-counts: 1,400 is about 3,500 bytes,
	// some 900 tokens of a real tokenizer).
	DefaultStateTokens = 1400
	// DefaultTaskTokens bounds ## Task, apart from the other sections: the
	// user's requests are their own words, where rules, errors seen in
	// production and ids are said once, so they get a bound of their own
	// (some 1,300 tokens of a real tokenizer) instead of competing with
	// the summary's lists.
	DefaultTaskTokens = 2000
	// maxTaskBytes caps the quoted task, maxRequestBytes a later request
	// (both are the user's own words, where rules and specifics are said
	// once: they are kept whole up to these caps, a longer request keeps
	// its start and its end).
	maxTaskBytes    = 600
	maxRequestBytes = 1200
	// maxRequests caps the later requests listed (the newest).
	maxRequests = 40
)

// Extractive is the embedded summarizer, the default: no model, no network,
// deterministic. It writes the state of the work from the span itself:
//
//   - ## Task: the first request of the span quoted (capped), then the
//     later requests, each whole on one line (up to 1,200 bytes, a longer
//     one keeps its start and its end), the oldest left out first;
//   - ## Constraints: the user's rules (the ledger's constraints);
//   - ## Decisions: the ledger's decisions that choose a course, not those
//     that only announce the next step;
//   - ## Done: a few lines: commands that succeed now after failing, the
//     latest passing test runs, the files written, and routine repeated
//     actions as counts ("ran `go test ./...` 14 times (last: exit 0)",
//     "read 87 files under internal/: …");
//   - ## Failed / open: each action whose latest run failed, with its error
//     lines; failures fixed later are not listed;
//   - ## Next steps: the ledger's plan items when there are any, else the
//     intentions the newest assistant text states.
//
// A command is rendered as its ledger item (command "go test ./..." (exit
// 1)) so the summary holds it verbatim. The specifics themselves are the
// ledger's: the summarize strategy adds those the summary lacks in
// ## Ledger. ## Task has a bound of its own (MaxTaskTokens), the other
// sections are bounded together (MaxTokens), so the state of the work stays
// a page or two however long the span.
type Extractive struct {
	// MaxBullets caps each section's bullets; 0 means DefaultMaxBullets.
	MaxBullets int
	// MaxBulletLen caps one bullet in bytes; 0 means DefaultMaxBulletLen.
	// A decision or a constraint may take twice as much, as the ledger
	// keeps them: cut short, they lose their reason.
	MaxBulletLen int
	// MaxTokens bounds the sections after ## Task together, in
	// ledger.ApproxTokens; 0 means DefaultStateTokens. A request's
	// MaxOutputTokens lowers it.
	MaxTokens int
	// MaxTaskTokens bounds ## Task, in ledger.ApproxTokens; 0 means
	// DefaultTaskTokens. A request's MaxOutputTokens lowers it to half.
	MaxTaskTokens int
}

var _ condense.Summarizer = Extractive{}

// Summarize builds the summary of in. It never fails on valid input; it
// honours cancellation.
func (e Extractive) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.MaxBullets < 0 || e.MaxBulletLen < 0 || e.MaxTokens < 0 || e.MaxTaskTokens < 0 || in.MaxOutputTokens < 0 {
		return nil, fmt.Errorf("summarize: negative bound (MaxBullets %d, MaxBulletLen %d, MaxTokens %d, MaxTaskTokens %d, MaxOutputTokens %d)",
			e.MaxBullets, e.MaxBulletLen, e.MaxTokens, e.MaxTaskTokens, in.MaxOutputTokens)
	}
	w := writer{maxB: orDefaultInt(e.MaxBullets, DefaultMaxBullets), maxLen: orDefaultInt(e.MaxBulletLen, DefaultMaxBulletLen)}
	budget := orDefaultInt(e.MaxTokens, DefaultStateTokens)
	taskBudget := orDefaultInt(e.MaxTaskTokens, DefaultTaskTokens)
	if in.MaxOutputTokens > 0 {
		taskBudget = min(taskBudget, in.MaxOutputTokens/2)
	}
	prev := ParseSections(in.Previous)
	act := readActivity(in.Messages, in.Base)
	items := ledger.Extract(in.Messages, in.Base)
	stats := tally(act.runs)

	secs := []*section{
		w.task(prev, act, in.Base, in.Instructions),
		w.constraints(prev, items, act.observations),
		w.decisions(prev, items),
		w.done(prev, act, stats),
		w.open(prev, stats),
		w.next(prev, act, items),
	}
	fit(secs[:1], taskBudget)
	if in.MaxOutputTokens > 0 {
		budget = max(1, min(budget, in.MaxOutputTokens-secs[0].cost()))
	}
	fit(secs[1:], budget)
	var b strings.Builder
	for i, s := range secs {
		if i > 0 {
			b.WriteByte('\n')
		}
		s.write(&b)
	}
	return &condense.Summary{Text: b.String(), Usage: condense.Usage{Provider: "condense", Model: "extractive"}}, nil
}

func orDefaultInt(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// section is one section being written: a head of whole lines (the quoted
// task and its label) and bullets, trimmed to fit from the least important
// end.
type section struct {
	name string
	// quote is a text quoted at the head, capped at quoteCap bytes.
	quote    string
	quoteCap int
	head     []string
	// bullets in display order; oldestFirst says the first ones are the
	// least important (they are trimmed first), else the last ones are.
	bullets     []string
	oldestFirst bool
	// left counts bullets left out; leftNote says what they were.
	left     int
	leftNote string
	// share is the part of the budget the section may hold when the
	// sections are over it together; keep is the fewest bullets trimming
	// leaves (0 means 1).
	share float64
	keep  int
	// tail are whole lines after the bullets.
	tail []string
}

func (s *section) write(b *strings.Builder) {
	fmt.Fprintf(b, "## %s\n", s.name)
	for _, l := range quoteLines(s.quote, s.quoteCap) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	for _, l := range s.head {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if s.left > 0 && s.oldestFirst {
		fmt.Fprintf(b, "- (%d %s left out)\n", s.left, s.leftNote)
	}
	for _, l := range s.bullets {
		b.WriteString("- ")
		b.WriteString(l)
		b.WriteByte('\n')
	}
	if s.left > 0 && !s.oldestFirst {
		fmt.Fprintf(b, "- (%d %s left out)\n", s.left, s.leftNote)
	}
	if s.quote == "" && len(s.head) == 0 && len(s.bullets) == 0 && s.left == 0 {
		b.WriteString("- none\n")
	}
	for _, l := range s.tail {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

func (s *section) cost() int {
	var b strings.Builder
	s.write(&b)
	return ledger.ApproxTokens(b.String())
}

// capBullets keeps at most n bullets, trimming the least important end.
func (s *section) capBullets(n int) {
	if len(s.bullets) <= n {
		return
	}
	s.left += len(s.bullets) - n
	if s.oldestFirst {
		s.bullets = s.bullets[len(s.bullets)-n:]
	} else {
		s.bullets = s.bullets[:n]
	}
}

// fit trims the sections until they cost at most budget tokens together:
// one bullet at a time from the section most over its share of the budget
// (down to the bullets it keeps), then the quoted task, halving it down to
// a line.
func fit(secs []*section, budget int) {
	total := func() int {
		n := 0
		for _, s := range secs {
			n += s.cost() + 1
		}
		return n
	}
	for total() > budget {
		var worst *section
		over := 0.0
		for _, s := range secs {
			if o := float64(s.cost()) / s.share; len(s.bullets) > max(1, s.keep) && (worst == nil || o > over) {
				worst, over = s, o
			}
		}
		if worst == nil {
			break
		}
		worst.capBullets(len(worst.bullets) - 1)
	}
	for _, s := range secs {
		for s.quote != "" && s.quoteCap > 80 && total() > budget {
			s.quoteCap /= 2
		}
	}
}

// writer renders the sections with the bullet caps.
type writer struct {
	maxB, maxLen int
}

// task quotes the task (the previous summary's, else the span's first
// request) and lists the newest later requests.
func (w writer) task(prev map[string][]string, act activity, base int, instructions string) *section {
	s := &section{name: "Task", oldestFirst: true, leftNote: "earlier requests", share: 0.45}
	var later []string
	reqs := act.requests
	for _, l := range prev["Task"] {
		switch {
		case strings.HasPrefix(l, ">"):
			s.head = append(s.head, l)
		case strings.HasPrefix(l, "- ") && !strings.HasPrefix(l, "- ("):
			later = append(later, strings.TrimPrefix(l, "- "))
		}
	}
	// The span holds the task when it starts the log; otherwise the task
	// stays verbatim before the summary and the span's requests are later
	// ones.
	label := "Later requests, newest last:"
	if len(s.head) == 0 && len(reqs) > 0 && base == 0 {
		s.quote, s.quoteCap = reqs[0].text, maxTaskBytes
		reqs = reqs[1:]
	}
	if len(s.head) == 0 && s.quote == "" {
		label = "The task message stays verbatim before this summary. Requests since, newest last:"
	}
	for _, r := range reqs {
		later = append(later, oneLine(r.text, maxRequestBytes))
	}
	s.bullets = dedup(later)
	s.capBullets(maxRequests)
	if len(s.bullets) > 0 || s.left > 0 || len(s.head) == 0 && s.quote == "" {
		s.head = append(s.head, label)
	}
	if instructions != "" {
		s.tail = append(s.tail, "Compacted as instructed: "+firstLine(instructions, w.maxLen))
	}
	return s
}

// quoteLines renders a text as Markdown quote lines, redacted and capped
// at max bytes, so that no line of it can pass for a heading.
func quoteLines(text string, max int) []string {
	if text == "" {
		return nil
	}
	text = ledger.Redact(strings.TrimSpace(text))
	capped := capString(text, max)
	var out []string
	for _, l := range strings.Split(capped, "\n") {
		if l = strings.TrimRight(l, " \t\r"); strings.TrimSpace(l) != "" {
			out = append(out, "> "+l)
		}
	}
	return out
}

// constraints are the previous summary's (or its Facts, in the older
// layout) and the span's ledger constraints, but for those found in the
// output of a text-protocol step (a user message only in form).
func (w writer) constraints(prev map[string][]string, items []ledger.Item, observations map[int]bool) *section {
	s := &section{name: "Constraints", oldestFirst: true, leftNote: "earlier constraints", share: 0.12}
	all := merge(prev["Constraints"], prev["Facts"])
	for _, it := range items {
		if it.Kind == ledger.KindConstraint && !observations[it.Source] {
			all = append(all, capString(it.Value, 2*w.maxLen))
		}
	}
	s.bullets = dedup(all)
	s.capBullets(w.maxB)
	return s
}

// decisions are the previous summary's and the span's ledger decisions
// that choose a course; a "decision" that only announces the next step
// ("I will read x.go next") is a plan and left to ## Next steps.
func (w writer) decisions(prev map[string][]string, items []ledger.Item) *section {
	s := &section{name: "Decisions", oldestFirst: true, leftNote: "earlier decisions", share: 0.1}
	all := merge(prev["Decisions"], nil)
	for _, it := range items {
		if it.Kind == ledger.KindDecision && !isPlan(it.Value) {
			all = append(all, capString(it.Value, 2*w.maxLen))
		}
	}
	s.bullets = dedup(all)
	s.capBullets(w.maxB)
	return s
}

// isPlan reports whether a decision sentence only announces a next step.
func isPlan(v string) bool {
	for _, s := range sentences(v) {
		if !isIntention(s) {
			return false
		}
	}
	return true
}

// next lists the next steps: the ledger's plan items (the newest), else
// the intentions of the newest assistant text that states any, else the
// previous summary's. A request newer than the last assistant text is
// answered first.
func (w writer) next(prev map[string][]string, act activity, items []ledger.Item) *section {
	s := &section{name: "Next steps", leftNote: "more", share: 0.06}
	var plans []string
	for _, it := range items {
		if it.Kind == ledger.KindPlan {
			plans = append(plans, capString(it.Value, w.maxLen))
		}
	}
	plans = dedup(plans)
	if len(plans) > 3 {
		plans = plans[len(plans)-3:]
	}
	if len(plans) == 0 {
		for _, t := range act.intents {
			plans = append(plans, capString(ledger.Redact(t), w.maxLen))
		}
	}
	if n := len(act.requests); n > 0 && act.requests[n-1].index > act.lastTextIndex {
		plans = append([]string{"answer the latest request: " + firstLine(act.requests[n-1].text, w.maxLen)}, plans...)
	}
	if len(plans) == 0 {
		plans = merge(prev["Next steps"], prev["Pending"])
	}
	s.bullets = dedup(plans)
	s.capBullets(w.maxB)
	return s
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

// firstLine returns the first non-empty line of s, trimmed, redacted and
// capped.
func firstLine(s string, max int) string {
	for _, line := range strings.Split(s, "\n") {
		if line = strings.TrimSpace(line); line != "" {
			return capString(ledger.Redact(line), max)
		}
	}
	return ""
}

// oneLine returns s redacted, its runs of white space (new lines
// included) as single spaces; over max bytes it keeps the start and the
// end, where a request's task and its rules are usually said, joined by
// " … ".
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(ledger.Redact(s)), " ")
	if len(s) <= max {
		return s
	}
	head, tail := max*2/3, max/3
	for head > 0 && s[head]&0xC0 == 0x80 {
		head--
	}
	from := len(s) - tail
	for from < len(s) && s[from]&0xC0 == 0x80 {
		from++
	}
	return s[:head] + " … " + s[from:]
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

// ParseSections splits a summary's Markdown into its sections' lines,
// keyed by heading ("Task", "Failed / open", "Ledger", …). Lines of
// ## Task (and of ## Summary, in the older layout) are kept whole; other
// sections keep their bullets without the "- ", and a bullet of ## Decisions
// or ## Constraints keeps the lines that go on with it.
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
		if cur == "Task" || cur == "Summary" {
			out[cur] = append(out[cur], line)
			continue
		}
		if b, ok := strings.CutPrefix(line, "- "); ok {
			out[cur] = append(out[cur], b)
			continue
		}
		if n := len(out[cur]); n > 0 && multiLine[cur] {
			// A decision kept with the lines that go on with it
			// ("**Decision:** X.\n**Rejected:** Y."): one bullet.
			out[cur][n-1] += "\n" + line
		}
	}
	return out
}

// multiLine names the sections whose bullets may go on over several
// lines, as the decision they quote was written.
var multiLine = map[string]bool{"Decisions": true, "Constraints": true}

// sortedCounts renders counts as "name n" pairs, most first (ties by
// name), at most max of them.
func sortedCounts(counts map[string]int, max int) string {
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if counts[names[i]] != counts[names[j]] {
			return counts[names[i]] > counts[names[j]]
		}
		return names[i] < names[j]
	})
	var parts []string
	for i, n := range names {
		if i == max {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", n, counts[n]))
	}
	return strings.Join(parts, ", ")
}
