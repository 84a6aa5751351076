package condense

import (
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dustin/go-humanize"

	"github.com/condense-dev/condense/internal/redact"
)

// Truncation says which tool results of the newest step a preflight cut to
// their head and tail because the request could not fit its input limit
// otherwise (the one exception to keeping the newest step verbatim).
type Truncation struct {
	// Results counts the tool results cut.
	Results int `json:"results"`
	// TokensCut is how many tokens were cut from them, by the request's
	// counter.
	TokensCut int `json:"tokens_cut"`
	// Refs are the recall references of the results cut, in request
	// order: the originals stay in the log and are recalled through them.
	Refs []string `json:"refs,omitempty"`
}

// TruncateStrategy is the strategy name of the record a preflight makes
// when it truncates tool results of the newest step.
const TruncateStrategy = "truncate"

const truncatePrefix = "[condense: tool output truncated: "

// TruncationMarker returns the text that stands between the head and the
// tail kept of a truncated tool result (docs/formats.md):
//
//	[condense: tool output truncated: 1,234,567 of 1,260,000 tokens cut · recall r42-3fa9c2d1]
//
// cut and total are token counts of the result's content; ref is the
// result's recall reference (RecallRef), through which the original, which
// stays in the log, can be recalled.
func TruncationMarker(cut, total int, ref string) string {
	return truncatePrefix + humanize.Comma(int64(cut)) + " of " + humanize.Comma(int64(total)) +
		" tokens cut · recall " + ref + "]"
}

// parseTruncationMarker returns the recall reference a truncation marker
// carries; ok is false when s is not exactly one.
func parseTruncationMarker(s string) (ref string, ok bool) {
	rest, ok := strings.CutPrefix(s, truncatePrefix)
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, "]")
	if !ok {
		return "", false
	}
	counts, ref, ok := strings.Cut(rest, " tokens cut · recall ")
	if !ok {
		return "", false
	}
	cutText, totalText, ok := strings.Cut(counts, " of ")
	if !ok {
		return "", false
	}
	cut, ok1 := commaNumber(cutText)
	total, ok2 := commaNumber(totalText)
	if !ok1 || !ok2 || cut > total {
		return "", false
	}
	if _, _, err := ParseRecallRef(ref); err != nil {
		return "", false
	}
	return ref, true
}

// commaNumber parses a non-negative number written with thousands
// separators, as humanize.Comma writes it.
func commaNumber(s string) (int, bool) {
	if s == "" || strings.Trim(s, "0123456789,") != "" {
		return 0, false
	}
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil || humanize.Comma(int64(n)) != s {
		return 0, false
	}
	return n, true
}

// The head and the tail of a truncated result each keep headShare of the
// result's token allowance; the rest of the allowance is room for the
// marker and for the error of guessing how many bytes make a token.
const (
	headShareNum = 2
	headShareDen = 5
)

// pos is a place in a tool result's content: before byte off of content
// part part (off 0: the start of the part).
type pos struct{ part, off int }

func (a pos) before(b pos) bool { return a.part < b.part || a.part == b.part && a.off < b.off }

// resultTokens returns the tokens of a tool message holding only result r
// with its content replaced by content.
func resultTokens(c Counter, r *Part, content []Part) int {
	q := *r
	q.Content = content
	return max(1, c.CountMessage(&Message{Role: RoleTool, Parts: []Part{q}}))
}

// contentSizes returns the tokens of each content part of result r, which
// weighs tokens in all, without the framing of the message and the result.
func contentSizes(c Counter, r *Part, tokens int) []int {
	empty := resultTokens(c, r, nil)
	if len(r.Content) == 1 {
		return []int{max(0, tokens-empty)}
	}
	sizes := make([]int, len(r.Content))
	for i := range r.Content {
		sizes[i] = max(0, resultTokens(c, r, r.Content[i:i+1])-empty)
	}
	return sizes
}

// bytesFor returns how many bytes of s, a text of size tokens, make about
// budget tokens.
func bytesFor(budget int, s string, size int) int {
	if size <= 0 {
		return len(s)
	}
	return int(min(int64(len(s)), int64(max(budget, 0))*int64(len(s))/int64(size)))
}

// prefixCut returns where a head of about n bytes of s ends: after a
// newline when one lies in the last quarter of it, else at a rune
// boundary.
func prefixCut(s string, n int) int {
	n = min(max(n, 0), len(s))
	if n == len(s) {
		return n
	}
	if i := strings.LastIndexByte(s[:n], '\n'); i >= 0 && i+1 >= n-n/4 {
		return i + 1
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return n
}

// suffixCut returns where a tail of s starting about at start begins:
// after a newline when one lies in the first quarter of it, else at a rune
// boundary; never before lo.
func suffixCut(s string, start, lo int) int {
	start = min(max(start, lo, 0), len(s))
	if start == 0 || start == len(s) || s[start-1] == '\n' {
		return start
	}
	if i := strings.IndexByte(s[start:], '\n'); i >= 0 && i < (len(s)-start)/4 {
		return start + i + 1
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return start
}

// headEnd returns where a head of about budget tokens of content ends.
// Whole parts are kept while they fit; a text part that does not is cut,
// any other part (an image) ends the head.
func headEnd(content []Part, sizes []int, budget int) pos {
	for i := range content {
		if sizes[i] <= budget {
			budget -= sizes[i]
			continue
		}
		if content[i].Type == PartText {
			s := content[i].Text
			if n := prefixCut(s, bytesFor(budget, s, sizes[i])); n < len(s) {
				return pos{i, n}
			}
			return pos{i + 1, 0}
		}
		return pos{i, 0}
	}
	return pos{len(content), 0}
}

// tailStart returns where a tail of about budget tokens of content starts,
// never before from (the head's end).
func tailStart(content []Part, sizes []int, budget int, from pos) pos {
	for i := len(content) - 1; i >= from.part; i-- {
		lo := 0
		if i == from.part {
			lo = from.off
		}
		if lo == 0 && sizes[i] <= budget {
			budget -= sizes[i]
			continue
		}
		if content[i].Type != PartText {
			return pos{i + 1, 0}
		}
		s := content[i].Text
		n := bytesFor(budget, s, sizes[i])
		if n >= len(s)-lo {
			return pos{i, lo}
		}
		start := suffixCut(s, len(s)-n, lo)
		if start == len(s) {
			return pos{i + 1, 0}
		}
		return pos{i, start}
	}
	return from
}

// cutResult returns result r (of tokens tokens, content parts of sizes)
// with its content cut to a head and a tail of about keep tokens each,
// around a truncation marker carrying ref, and how many tokens were cut.
// ok is false when head and tail would keep the whole content.
func cutResult(c Counter, r *Part, tokens int, sizes []int, keep int, ref string) (out Part, cut int, ok bool) {
	content := r.Content
	h := headEnd(content, sizes, keep)
	t := tailStart(content, sizes, keep, h)
	if !h.before(t) {
		return Part{}, 0, false
	}
	kept := slices.Clone(content[:h.part])
	if h.off > 0 {
		q := content[h.part]
		q.Text = q.Text[:h.off]
		kept = append(kept, q)
	}
	nHead := len(kept)
	if t.part < len(content) {
		q := content[t.part]
		q.Text = q.Text[t.off:]
		kept = append(kept, q)
		kept = append(kept, content[t.part+1:]...)
	}
	cut = max(0, tokens-resultTokens(c, r, kept))
	out = *r
	out.Content = slices.Concat(kept[:nHead], []Part{Text(TruncationMarker(cut, tokens, ref))}, kept[nHead:])
	return out, cut, true
}

// samePart reports whether a and b are equal in everything.
func samePart(a, b *Part) bool {
	if a.Type != b.Type || len(a.Text) != len(b.Text) || len(a.Content) != len(b.Content) {
		return false
	}
	return Fingerprint(&Message{Parts: []Part{*a}}) == Fingerprint(&Message{Parts: []Part{*b}})
}

// sameButText reports whether text parts a and b are equal but for their
// text.
func sameButText(a, b *Part) bool {
	if a.Type != PartText || b.Type != PartText {
		return false
	}
	x, y := *a, *b
	x.Text, y.Text = "", ""
	return samePart(&x, &y)
}

// matchHead reports whether head is a head of content: its first parts
// and, last, possibly a non-empty proper prefix of a text part. It returns
// where the head ends.
func matchHead(content, head []Part) (pos, bool) {
	if len(head) > len(content) {
		return pos{}, false
	}
	for j := range head {
		if samePart(&head[j], &content[j]) {
			continue
		}
		o, g := &content[j], &head[j]
		if j == len(head)-1 && sameButText(o, g) && g.Text != "" && len(g.Text) < len(o.Text) && strings.HasPrefix(o.Text, g.Text) {
			return pos{j, len(g.Text)}, true
		}
		return pos{}, false
	}
	return pos{len(head), 0}, true
}

// matchTail reports whether tail is a tail of content: its last parts and,
// first, possibly a non-empty proper suffix of a text part. It returns
// where the tail starts.
func matchTail(content, tail []Part) (pos, bool) {
	if len(tail) > len(content) {
		return pos{}, false
	}
	start := len(content) - len(tail)
	for j := len(tail) - 1; j >= 0; j-- {
		o, g := &content[start+j], &tail[j]
		if samePart(g, o) {
			continue
		}
		if j == 0 && sameButText(o, g) && g.Text != "" && len(g.Text) < len(o.Text) && strings.HasSuffix(o.Text, g.Text) {
			return pos{start, len(o.Text) - len(g.Text)}, true
		}
		return pos{}, false
	}
	return pos{start, 0}, true
}

// truncatedFrom reports whether got is orig as cutResult cuts it: the same
// tool result, its content a head of the original, a truncation marker
// carrying ref and a tail of the original, with something cut between.
func truncatedFrom(orig, got *Part, ref string) bool {
	if orig.Type != PartToolResult || got.Type != PartToolResult {
		return false
	}
	a, b := *orig, *got
	a.Content, b.Content = nil, nil
	if !samePart(&a, &b) {
		return false
	}
	for m := range got.Content {
		mk := &got.Content[m]
		if mk.Type != PartText || !strings.HasPrefix(mk.Text, truncatePrefix) {
			continue
		}
		if r, ok := parseTruncationMarker(mk.Text); !ok || r != ref || !sameButText(mk, &Part{Type: PartText}) {
			continue
		}
		h, ok := matchHead(orig.Content, got.Content[:m])
		if !ok {
			continue
		}
		if t, ok := matchTail(orig.Content, got.Content[m+1:]); ok && h.before(t) {
			return true
		}
	}
	return false
}

// IsTruncationOf reports whether got is log message orig, at log index,
// with one or more of its tool results truncated and nothing else changed:
// each such result keeps its call id and error flag, and its content is a
// head of the original, a truncation marker carrying the result's recall
// reference and a tail of the original, with something cut between. This
// is the edit a preflight makes to the newest step when the step alone
// cannot fit (EditTruncated), and the only change to the newest step it
// accepts from a candidate. A pinned message is never truncated.
func IsTruncationOf(orig, got *Message, index int) bool {
	if orig.Role != RoleTool || orig.Pinned || got.Pinned || orig.ID != got.ID || orig.Role != got.Role ||
		orig.Status != got.Status || len(orig.Parts) != len(got.Parts) {
		return false
	}
	cut := false
	for k := range orig.Parts {
		o, g := &orig.Parts[k], &got.Parts[k]
		if samePart(o, g) {
			continue
		}
		if o.Type != PartToolResult || !truncatedFrom(o, g, RecallRef(index, o)) {
			return false
		}
		cut = true
	}
	return cut
}

// resultCut is a tool result of the newest step the preflight may cut.
type resultCut struct {
	item   int // in the rendering
	part   int // in the log message's parts
	orig   *Part
	tokens int   // the result alone in a tool message
	sizes  []int // of its content parts; nil until needed
	ref    string
}

// truncateNewest is Prepare's last resort when the strategy's passes left
// the request over its input limit: it cuts the biggest tool results of
// the newest step to their head and tail, as few and as little as makes
// the request fit, and adopts that rendering with a record. It returns the
// estimate afterwards. When even that cannot fit (the task or the system
// text alone is too big, or the newest step's size is not in its results)
// everything stays as it was.
func (p *Preflight) truncateNewest(req *Request, budget Budget, res *Result, tokens int) int {
	limit := budget.InputLimit()
	step, ok := LastStep(p.st.history)
	if !ok || tokens <= limit {
		return tokens
	}
	start := time.Now()
	cur := p.st.rendering
	cc := p.compactionContext(req, budget, tokens, pass{})
	raw := cc.overheadTokens()
	stepNow, stepLog := 0, 0 // the step's tool items as rendered, and as logged
	var rs []resultCut
	for i := range cur {
		it := &cur[i]
		n := cc.CountItem(it)
		raw += n
		if it.Index < 0 || !step.Contains(it.Index) {
			continue
		}
		h := &p.st.history[it.Index]
		if h.Role != RoleTool || h.Pinned || (it.Edit != EditNone && it.Edit != EditTruncated) {
			continue
		}
		stepNow += n
		stepLog += p.st.counts[it.Index]
		for k := range h.Parts {
			r := &h.Parts[k]
			if r.Type != PartToolResult || len(r.Content) == 0 {
				continue
			}
			t := p.st.counts[it.Index]
			if len(h.Parts) > 1 {
				t = resultTokens(p.counter, r, r.Content)
			}
			rs = append(rs, resultCut{item: i, part: k, orig: r, tokens: t, ref: RecallRef(it.Index, r)})
		}
	}
	if len(rs) == 0 {
		return tokens
	}
	// Work in the counter's own units: the estimate is the raw sum times
	// the counter's correction.
	f := float64(tokens) / float64(max(raw, 1))
	rawLimit := int(float64(limit) / max(f, 1))
	base := raw - stepNow + stepLog
	sizes := make([]int, len(rs))
	for i := range rs {
		base -= rs[i].tokens
		sizes[i] = rs[i].tokens
	}
	allowance := waterLevel(sizes, rawLimit-base)
	const tries = 8
	for try := 0; try < tries; try++ {
		cand, tr := p.truncatedRendering(cur, rs, allowance)
		switch {
		case tr.Results > 0:
			after := cc.Count(cand)
			if after <= limit {
				return p.adoptTruncation(cc, res, cand, tr, tokens, after, start)
			}
			if allowance == 0 {
				try = tries // every result is down to its marker
				continue
			}
			over := int(float64(after-limit)/max(f, 1)) + 1
			allowance = min(allowance*9/10, allowance-over/tr.Results)
		default: // nothing was cut at this allowance
			allowance = min(allowance, slices.Max(sizes)) * 9 / 10
		}
		if try == tries-2 {
			allowance = 0 // the last try keeps only the markers
		}
		allowance = max(allowance, 0)
	}
	p.log.Warn("condense: the request does not fit even with the newest step's tool output truncated",
		"tokens", tokens, "input_limit", limit, "results", len(rs))
	return tokens
}

// waterLevel returns the allowance a such that results of sizes, each cut
// to at most a, add up to about room: the biggest are cut first and the
// smaller ones stay whole.
func waterLevel(sizes []int, room int) int {
	s := slices.Clone(sizes)
	slices.SortFunc(s, func(a, b int) int { return b - a })
	rest := 0
	for _, n := range s {
		rest += n
	}
	for k := 1; k <= len(s); k++ {
		rest -= s[k-1] // the k biggest are cut to the allowance
		a := (room - rest) / k
		if k == len(s) || a >= s[k] {
			return max(0, min(a, s[k-1]))
		}
	}
	return 0
}

// truncatedRendering returns cur with the newest step's tool items
// rendered from the log, every result in rs bigger than allowance cut to
// its head and tail, and what was cut.
func (p *Preflight) truncatedRendering(cur Rendering, rs []resultCut, allowance int) (Rendering, Truncation) {
	out := cur.Clone()
	for _, r := range rs {
		if it := &out[r.item]; it.Edit != EditNone {
			*it = Item{Index: it.Index, Message: p.st.history[it.Index]}
		}
	}
	var tr Truncation
	edited := map[int]bool{}
	keep := allowance * headShareNum / headShareDen
	for i := range rs {
		r := &rs[i]
		if r.tokens <= allowance {
			continue
		}
		if r.sizes == nil {
			r.sizes = contentSizes(p.counter, r.orig, r.tokens)
		}
		part, cut, ok := cutResult(p.counter, r.orig, r.tokens, r.sizes, keep, r.ref)
		if !ok {
			continue
		}
		it := &out[r.item]
		if !edited[r.item] {
			*it = Item{Index: it.Index, Message: it.Message, Edit: EditTruncated}
			it.Message.Parts = slices.Clone(it.Message.Parts)
			edited[r.item] = true
		}
		it.Message.Parts[r.part] = part
		tr.Results++
		tr.TokensCut += cut
		tr.Refs = append(tr.Refs, r.ref)
	}
	return out, tr
}

// adoptTruncation vets and adopts a truncated rendering with its record.
func (p *Preflight) adoptTruncation(cc *CompactionContext, res *Result, cand Rendering, tr Truncation, before, after int, start time.Time) int {
	v, err := p.vet(&Candidate{Rendering: cand})
	if err != nil {
		err = &StrategyError{Strategy: TruncateStrategy, Err: err}
		res.Rejected = append(res.Rejected, err)
		p.log.Warn("condense: truncated rendering refused", "err", redact.Err(err))
		return before
	}
	p.st.checkpoints++
	rec := Record{
		Checkpoint:     cc.Checkpoint,
		Strategy:       TruncateStrategy,
		TokensBefore:   before,
		TokensAfter:    after,
		MessagesBefore: len(p.st.rendering),
		MessagesAfter:  len(cand),
		Window:         cc.Budget.Window,
		Threshold:      cc.Budget.Threshold(),
		Target:         cc.Budget.Target(),
		Truncated:      tr,
		Duration:       time.Since(start),
	}
	p.adopt(cand, v)
	res.Records = append(res.Records, rec)
	p.log.Warn("condense: newest tool output truncated to fit the input limit",
		"checkpoint", rec.Checkpoint, "results", tr.Results, "tokens_cut", tr.TokensCut, "recall", tr.Refs,
		"tokens_before", before, "tokens_after", after, "input_limit", cc.Budget.InputLimit())
	return after
}
