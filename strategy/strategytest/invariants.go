package strategytest

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sort"
	"strings"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// checkResult checks one prepared request against the history it was
// prepared from. demotedBefore counts the ledger items earlier compactions
// of the same preflight demoted.
func checkResult(counter condense.Counter, history []condense.Message, res *condense.Result, demotedBefore int, cache *extractCache) error {
	checks := []func() error{
		func() error { return checkSourceMap(res) },
		func() error { return checkTurnSafety(res) },
		func() error { return checkFits(counter, res) },
	}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	verbatim, err := verbatimIndexes(history, res.Rendering)
	if err != nil {
		return err
	}
	if err := checkProtected(history, verbatim, res.Rejected); err != nil {
		return err
	}
	return checkLedger(history, res, verbatim, demotedBefore, cache)
}

// checkSourceMap checks that the rendering renders the request's messages.
func checkSourceMap(res *condense.Result) error {
	msgs := res.Request.Messages
	if len(res.Rendering) != len(msgs) {
		return fmt.Errorf("the rendering has %d items for %d messages", len(res.Rendering), len(msgs))
	}
	for i := range msgs {
		if condense.Fingerprint(&res.Rendering[i].Message) != condense.Fingerprint(&msgs[i]) {
			return fmt.Errorf("rendering item %d is not request message %d", i, i)
		}
	}
	return nil
}

// checkTurnSafety checks that every tool result follows its call, in the
// same batch, and that no call lacks its result unless it is in the newest
// step; and that the strategy made no candidate the preflight refused for
// breaking those rules.
func checkTurnSafety(res *condense.Result) error {
	if err := condense.Validate(res.Request.Messages); err != nil {
		return fmt.Errorf("turn safety: %w", err)
	}
	for _, r := range res.Rejected {
		if errors.Is(r, condense.ErrInvalidHistory) {
			return fmt.Errorf("turn safety: the preflight refused a candidate: %w", r)
		}
	}
	return nil
}

// checkFits checks that the request fits the input limit, by the
// preflight's estimate and by counting the request again.
func checkFits(counter condense.Counter, res *condense.Result) error {
	if !res.Budget.Known() {
		return nil
	}
	limit := res.Budget.InputLimit()
	if res.Tokens > limit {
		return fmt.Errorf("the request's %d tokens are over the input limit %d", res.Tokens, limit)
	}
	if n := condense.CountRequest(counter, &res.Request); n > limit {
		return fmt.Errorf("the request counts %d tokens, over the input limit %d (the preflight said %d)", n, limit, res.Tokens)
	}
	return nil
}

// verbatimIndexes returns the log indexes the rendering holds verbatim (or,
// for a tool result too big to fit at all, cut to its head and tail by the
// preflight), checking that every item claiming so equals its log message.
func verbatimIndexes(history []condense.Message, r condense.Rendering) (map[int]bool, error) {
	verbatim := map[int]bool{}
	for i, it := range r {
		if it.Index >= len(history) {
			return nil, fmt.Errorf("item %d renders log index %d beyond the history", i, it.Index)
		}
		if it.Index >= 0 && it.Edit == condense.EditNone {
			if !reflect.DeepEqual(it.Message, history[it.Index]) {
				return nil, fmt.Errorf("item %d claims to be log message %d verbatim but differs", i, it.Index)
			}
			verbatim[it.Index] = true
		}
		if it.Index >= 0 && it.Edit == condense.EditTruncated {
			// A tool result the preflight cut to its head and tail because
			// it could not fit even after compaction: the one change the
			// newest step may carry. It counts as kept when it is exactly
			// that.
			if !condense.IsTruncationOf(&history[it.Index], &it.Message, it.Index) {
				return nil, fmt.Errorf("item %d claims to be a truncation of log message %d but is not one", i, it.Index)
			}
			verbatim[it.Index] = true
		}
	}
	return verbatim, nil
}

// checkProtected checks that the first user message (the task), every
// pinned message, the newest user message and the newest step (the last
// assistant message and its tool results) are rendered verbatim, and that
// the strategy made no candidate the preflight refused for losing one.
func checkProtected(history []condense.Message, verbatim map[int]bool, rejected []error) error {
	for _, r := range rejected {
		if errors.Is(r, condense.ErrLostProtected) {
			return fmt.Errorf("the preflight refused a candidate: %w (the task and pinned messages must stay verbatim)", r)
		}
	}
	firstUser, lastUser := -1, -1
	for i, m := range history {
		if m.Role == condense.RoleUser {
			if firstUser < 0 {
				firstUser = i
			}
			lastUser = i
		}
	}
	if firstUser >= 0 && !verbatim[firstUser] {
		return fmt.Errorf("the task (message %d) is not verbatim", firstUser)
	}
	for i, m := range history {
		if m.Pinned && !verbatim[i] {
			return fmt.Errorf("pinned message %d is not verbatim", i)
		}
	}
	if lastUser >= 0 && !verbatim[lastUser] {
		return fmt.Errorf("the newest user message %d is not verbatim", lastUser)
	}
	if s, ok := condense.LastStep(history); ok {
		for i := s.Start; i < s.End; i++ {
			if !verbatim[i] {
				return fmt.Errorf("message %d of the newest step is not verbatim", i)
			}
		}
	}
	return nil
}

// checkLedger checks that every ledger item of what was compacted (a span a
// summary or a drop marker covers, a masked or cleared tool result) appears
// in the request's text, or is counted as demoted.
func checkLedger(history []condense.Message, res *condense.Result, verbatim map[int]bool, demotedBefore int, cache *extractCache) error {
	demoted := demotedBefore
	for _, r := range res.Records {
		demoted += r.Demoted
	}
	text := requestText(res.Request.Messages)
	// A summary's span may hold messages that stay in the rendering with
	// their tool output masked (the segments strategy keeps dense segments
	// so, inside the span it summarizes): their items are the
	// placeholder's to keep, checked with the placeholder below, not the
	// summary's.
	elsewhere := maps.Clone(verbatim)
	for _, it := range res.Rendering {
		if it.Index >= 0 && (it.Edit == condense.EditMasked || it.Edit == condense.EditCleared) {
			elsewhere[it.Index] = true
		}
	}
	missing := map[string]string{} // item key → what compacted it
	note := func(items []ledger.Item, where string) {
		for _, li := range items {
			if li.Kind != ledger.KindTask && !strings.Contains(text, li.Value) {
				missing[li.Key()] = where
			}
		}
	}
	for i, it := range res.Rendering {
		switch {
		case it.Edit == condense.EditSummary && it.Covers.End <= len(history) && it.Covers.Len() > 0:
			note(cache.span(history, it.Covers, elsewhere),
				fmt.Sprintf("the summary at %d, covering %d-%d", i, it.Covers.Start, it.Covers.End-1))
		case it.Edit == condense.EditDropped && it.Covers.End <= len(history) && it.Covers.Len() > 0:
			for k := it.Covers.Start; k < it.Covers.End; k++ {
				if !verbatim[k] {
					note(cache.message(history, k), fmt.Sprintf("the drop marker at %d, covering %d-%d", i, it.Covers.Start, it.Covers.End-1))
				}
			}
		case (it.Edit == condense.EditMasked || it.Edit == condense.EditCleared) && it.Index >= 0:
			note(cache.replaced(history, it), fmt.Sprintf("the %s results of log message %d", it.Edit, it.Index))
		}
	}
	if len(missing) > demoted {
		lines := make([]string, 0, len(missing))
		for k, where := range missing {
			lines = append(lines, k+" (in "+where+")")
		}
		sort.Strings(lines)
		return fmt.Errorf("%d ledger items of what was compacted are missing from the request, %d demoted:\n%s",
			len(missing), demoted, strings.Join(lines, "\n"))
	}
	return nil
}

// requestText is the text of a request's messages and tool results.
func requestText(msgs []condense.Message) string {
	var text strings.Builder
	for _, m := range msgs {
		text.WriteString(m.TextContent())
		for _, p := range m.Parts {
			for _, c := range p.Content {
				text.WriteString(c.Text)
			}
		}
	}
	return text.String()
}

// spanOf returns the log messages of span, those rendered elsewhere
// (verbatim, or with a placeholder of their own) left empty (their index
// kept).
func spanOf(history []condense.Message, span condense.Span, verbatim map[int]bool) []condense.Message {
	out := make([]condense.Message, 0, span.Len())
	for i := span.Start; i < span.End; i++ {
		if verbatim[i] {
			out = append(out, condense.Message{Role: history[i].Role})
			continue
		}
		out = append(out, history[i])
	}
	return out
}

// replacedResultItems returns the ledger items of the tool results of orig
// that the item renders as a placeholder.
//
// Each result is read with its call, as the strategies read it: a result
// of a call that reads a source file holds code, not figures.
func replacedResultItems(history []condense.Message, it condense.Item) []ledger.Item {
	orig := history[it.Index]
	var items []ledger.Item
	for k := range orig.Parts {
		p := &orig.Parts[k]
		if p.Type != condense.PartToolResult {
			continue
		}
		if k >= len(it.Message.Parts) || isPlaceholder(&it.Message.Parts[k]) {
			items = append(items, ledger.ExtractResult(callOf(history[:it.Index], p.CallID), p, it.Index)...)
		}
	}
	return items
}

// callOf returns the latest tool call with the given id, or nil.
func callOf(history []condense.Message, id string) *condense.Part {
	for i := len(history) - 1; i >= 0; i-- {
		for k := range history[i].Parts {
			if p := &history[i].Parts[k]; p.Type == condense.PartToolCall && p.ID == id {
				return p
			}
		}
	}
	return nil
}

// isPlaceholder reports whether a rendered tool result is a condense
// placeholder.
func isPlaceholder(p *condense.Part) bool {
	return len(p.Content) == 1 && strings.HasPrefix(p.Content[0].Text, "[condense: tool output")
}

// extractCache remembers the ledger items checkLedger extracted from a
// history, for an incremental check: every request it prepares is from a
// prefix of one history, so a span, a message or a replaced result reads
// the same at every request, and a long history is not read again at each
// of its hundreds of requests. A nil cache extracts every time.
type extractCache struct {
	items map[string][]ledger.Item
}

func newExtractCache() *extractCache { return &extractCache{items: map[string][]ledger.Item{}} }

func (c *extractCache) get(key string, extract func() []ledger.Item) []ledger.Item {
	if c == nil {
		return extract()
	}
	items, ok := c.items[key]
	if !ok {
		items = extract()
		c.items[key] = items
	}
	return items
}

// span returns the items of the log messages of span, those rendered
// elsewhere left out.
func (c *extractCache) span(history []condense.Message, span condense.Span, elsewhere map[int]bool) []ledger.Item {
	var key strings.Builder
	fmt.Fprintf(&key, "span %d-%d", span.Start, span.End)
	for i := span.Start; i < span.End; i++ {
		if elsewhere[i] {
			fmt.Fprintf(&key, " %d", i)
		}
	}
	return c.get(key.String(), func() []ledger.Item {
		return ledger.Extract(spanOf(history, span, elsewhere), span.Start)
	})
}

// message returns the items of log message k.
func (c *extractCache) message(history []condense.Message, k int) []ledger.Item {
	return c.get(fmt.Sprintf("message %d", k), func() []ledger.Item { return ledger.ExtractMessage(&history[k], k) })
}

// replaced returns the items of the tool results item it renders as
// placeholders (see replacedResultItems).
func (c *extractCache) replaced(history []condense.Message, it condense.Item) []ledger.Item {
	var key strings.Builder
	fmt.Fprintf(&key, "results %d", it.Index)
	for k := range it.Message.Parts {
		if isPlaceholder(&it.Message.Parts[k]) {
			fmt.Fprintf(&key, " %d", k)
		}
	}
	fmt.Fprintf(&key, " of %d", len(it.Message.Parts))
	return c.get(key.String(), func() []ledger.Item { return replacedResultItems(history, it) })
}
