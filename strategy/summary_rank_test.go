package strategy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
)

// TestCarriedLedgerRanksWithNewItems: the previous summary's ledger lines
// compete with the new span's items by salience. Before, the new items took
// the budget first and the carried ones got what was left, so every
// summary lost what the earlier spans had found.
func TestCarriedLedgerRanksWithNewItems(t *testing.T) {
	var tl ledgerTally
	var listing []ledger.Item
	for i := range 40 {
		listing = append(listing, ledger.Item{Kind: ledger.KindFile, Value: fmt.Sprintf("src/pkg%d/handler.py", i), Source: 90})
	}
	tl.salience.Add(listing) // one crowded grep listing in the new span
	tl.missing = listing
	carry := []string{
		`id OPS-4417`,
		`error "pq: duplicate key value violates unique constraint \"orders_pkey\""`,
		`measurement "p95 latency 812ms"`,
		`an opaque line that is not an item`,
	}
	budget := 0
	for _, l := range carry[:3] {
		budget += ledger.ApproxTokens(l) + 1
	}
	budget += 12 // room for a path or two besides
	text := tl.writeLedger("## Task\nFix it.\n", carry, budget)
	for _, l := range carry[:3] {
		// A carried line is read back as an item and rendered anew (a
		// value holding double quotes is backquoted now).
		it, ok := ledger.ParseItem(l)
		if !ok {
			t.Fatalf("ParseItem(%q) failed", l)
		}
		if !strings.Contains(text, "- "+it.String()+"\n") {
			t.Errorf("carried %q was demoted:\n%s", l, text)
		}
	}
	if tl.gate.AddedBack >= len(listing) || tl.gate.Demoted == 0 {
		t.Errorf("gate %+v: the listing should be mostly demoted", tl.gate)
	}
	if strings.Count(text, "src/pkg") > 3 {
		t.Errorf("the crowded listing outranked the carried specifics:\n%s", text)
	}
}

// TestCarriedLedgerKeepsItsHistory: a carried line is ranked with what the
// whole log says of it. An error line a noisy log printed in every step was
// kept by an early summary while its ledger had room; read back as a line
// seen once, it outranked, summary after summary, what later spans found
// once.
func TestCarriedLedgerKeepsItsHistory(t *testing.T) {
	history := []condense.Message{condense.UserText("Find why jobs are lost.")}
	step := func(i int, out string) { history = withStep(history, i, "./status", out) }
	for i := range 30 {
		step(i, "ERROR: lease lost for shard 7, retrying")
	}
	prevEnd := len(history)
	step(30, "claim lost ticket=PAY-3041")
	routine := `error "ERROR: lease lost for shard 7, retrying"`
	cc := &condense.CompactionContext{History: history, Budget: condense.Budget{Window: 64_000}}
	sp := summarySpan{covers: condense.Span{Start: 1, End: len(history)},
		prev: &condense.Item{Covers: condense.Span{Start: 1, End: prevEnd}, Ledger: []string{routine}}}
	fresh := ledger.Item{Kind: ledger.KindID, Value: "ticket=PAY-3041"}
	// Room for either line, not both.
	budget := max(ledger.ApproxTokens(fresh.String()), ledger.ApproxTokens(routine)) + 2
	text, _, _ := gateSummary(cc, &sp, "## Task\nFind why jobs are lost.\n", ledgerRules{budget: budget})
	if !strings.Contains(text, fresh.String()) {
		t.Errorf("the error line printed in every step outranked the id seen once:\n%s", text)
	}
}

// TestGrownLedger: a summary that replaces one with a ledger may keep that
// ledger and add to it, past the room below the target, while it stays
// within three quarters of the room below the threshold (half of it over a
// wide threshold).
func TestGrownLedger(t *testing.T) {
	cc := &condense.CompactionContext{Budget: condense.Budget{Window: 64_000, ReservedOutput: 4_000}}
	threshold := cc.Budget.Threshold()
	var lines []string
	for i := range 400 {
		lines = append(lines, fmt.Sprintf("id OPS-%d", 1000+i))
	}
	prevTokens := 0
	for _, l := range lines {
		prevTokens += ledger.ApproxTokens(l) + 1
	}
	sp := newSummarySpan()
	sp.covers = condense.Span{Start: 0, End: 90}
	if got := grownLedger(cc, &sp, 5_000); got != 0 {
		// No previous ledger: the room below the target decides alone.
		t.Errorf("a first summary grows nothing, got %d", got)
	}
	sp.prev = &condense.Item{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 0, End: 40}, Ledger: lines}
	after := cc.Budget.Target() - 1_000 // little room left below the target
	got := grownLedger(cc, &sp, after)
	if want := prevTokens + 2*ledger.DefaultBudget(cc.Budget.Window); got != want {
		t.Errorf("grown ledger %d, want the previous %d plus twice the default share: %d", got, prevTokens, want)
	}
	if room := roomBelowTarget(cc, after); got <= room {
		t.Errorf("grown ledger %d is not past the room below the target (%d)", got, room)
	}
	after = threshold - 2_000
	if got := grownLedger(cc, &sp, after); got > 2_000/2 {
		t.Errorf("near a wide threshold the grown ledger is %d, over half the %d left", got, 2_000)
	}
	narrow := &condense.CompactionContext{Budget: condense.Budget{Window: 32_000, ReservedOutput: 4_000}}
	after = narrow.Budget.Threshold() - 2_000
	if got := grownLedger(narrow, &sp, after); got != 2_000*3/4 {
		t.Errorf("near a narrow threshold the grown ledger is %d, want three quarters of the %d left", got, 2_000)
	}
}

// quarterCounter counts one token per four bytes of text, as BPE counters
// do on English and code, where ledger.ApproxTokens counts one per 2.5.
type quarterCounter struct{}

func (quarterCounter) Name() string { return "quarter" }
func (quarterCounter) Exact() bool  { return true }
func (quarterCounter) CountMessage(m *condense.Message) int {
	return (len(m.TextContent()) + 3) / 4
}
func (quarterCounter) CountOverhead(string, []condense.Tool) int { return 0 }

// TestLedgerFillsItsBudgetInCounterTokens: the ledger budget is room in the
// counter's tokens, and the ledger fills it. Before, it was spent in
// ApproxTokens, which over-count code and English by about half: the ledger
// left a third of its room empty while demoting specifics.
func TestLedgerFillsItsBudgetInCounterTokens(t *testing.T) {
	history := []condense.Message{condense.UserText("Find why the orders are lost.")}
	for i := range 120 {
		history = withStep(history, i, "./check", fmt.Sprintf("order ORD-%d lost at shard %d, ticket OPS-%d", 10_000+i, i%7, 2_000+i))
	}
	cc := &condense.CompactionContext{History: history, Counter: quarterCounter{}, Budget: condense.Budget{Window: 64_000}}
	sp := newSummarySpan()
	sp.covers = condense.Span{Start: 1, End: len(history)}
	const budget = 400
	text, gate, _ := gateSummary(cc, &sp, "## Task\nFind why the orders are lost.\n", ledgerRules{budget: budget})
	if gate.Demoted == 0 {
		t.Fatalf("the test needs more items than the budget holds: gate %+v", gate)
	}
	section := text[strings.Index(text, "## Ledger"):]
	used := cc.CountMessage(&condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text(section)}})
	if used < budget*85/100 || used > budget*105/100 {
		t.Errorf("the ledger uses %d of its %d tokens (counter's), want 85–105%%:\n%s", used, budget, section)
	}
}

// TestVerbatimRequestJoinsLaterLedger: a request a split-turn summary kept
// verbatim sits inside that summary's coverage; when the next summary takes
// it in, its specifics are extracted although the new extraction starts
// after the previous coverage.
func TestVerbatimRequestJoinsLaterLedger(t *testing.T) {
	history := []condense.Message{condense.UserText("Find why the orders are lost.")}
	step := func(i int, out string) { history = withStep(history, i, "./check", out) }
	step(0, "nothing yet")
	request := len(history)
	history = append(history, condense.UserText("Also check ticket OPS-7713 before you go on."))
	step(1, "still nothing")
	prevEnd := len(history)
	step(2, "one lost order")
	cur := make(condense.Rendering, 0, len(history))
	cur = append(cur, condense.Item{Index: 0, Message: history[0]}, condense.Item{Index: request, Message: history[request]})
	prev := condense.Item{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 1, End: prevEnd}, Ledger: []string{}}
	cc := &condense.CompactionContext{History: history, Budget: condense.Budget{Window: 64_000}}
	sp := newSummarySpan()
	sp.update(&prev)
	sp.add(&cur[1]) // the request kept verbatim, inside the previous coverage
	for i := prevEnd; i < len(history); i++ {
		sp.add(&condense.Item{Index: i, Message: history[i]})
	}
	text, _, _ := gateSummary(cc, &sp, "## Task\nFind why the orders are lost.\n", ledgerRules{budget: 500})
	if !strings.Contains(text, "OPS-7713") {
		t.Errorf("the request's ticket is lost from the ledger:\n%s", text)
	}
}

// TestCarriedLineHeldBySummaryText: a carried ledger line whose value the
// new summary states in its own sections (a decision under ## Decisions) is
// held by the summary, not written a second time into its ledger.
func TestCarriedLineHeldBySummaryText(t *testing.T) {
	var tl ledgerTally
	tl.seen = map[string]bool{}
	decision := "We will use optimistic locking instead of SELECT FOR UPDATE."
	carried := []string{ledger.Item{Kind: ledger.KindDecision, Value: decision}.String(), "id OPS-4417"}
	carry := tl.sortCarried(carried, "## Decisions\n- "+decision+"\n")
	if len(carry) != 1 || carry[0] != "id OPS-4417" || tl.gate.KeptBySummary != 1 {
		t.Errorf("carried %q, kept by the summary %d: want only the id carried", carry, tl.gate.KeptBySummary)
	}
}

// TestDemotedItemsCompeteAgain: an item an earlier summary demoted for want
// of room competes again when the next summary has room for it. Before,
// the next summary extracted only the span after the earlier one, and one
// crowded compaction lost the item for good.
func TestDemotedItemsCompeteAgain(t *testing.T) {
	history := []condense.Message{condense.UserText("Find why the orders are lost.")}
	step := func(i int, out string) { history = withStep(history, i, "./check", out) }
	step(0, "order lost, ticket OPS-7713")
	step(1, "order lost, ticket OPS-7714")
	prevEnd := len(history)
	step(2, "one more lost order, ticket OPS-7715")
	// The earlier summary kept OPS-7714 and demoted OPS-7713.
	prevText := "<summary>\n## Ledger\n- id OPS-7714\n- (1 more demoted to recall-only: 1 id)\n</summary>"
	prev := condense.Item{Index: -1, Edit: condense.EditSummary, Covers: condense.Span{Start: 1, End: prevEnd},
		Message: condense.UserText(prevText), Ledger: []string{"id OPS-7714"}}
	cc := &condense.CompactionContext{History: history, Budget: condense.Budget{Window: 64_000}}
	sp := newSummarySpan()
	sp.update(&prev)
	for i := prevEnd; i < len(history); i++ {
		sp.add(&condense.Item{Index: i, Message: history[i]})
	}
	text, gate, _ := gateSummary(cc, &sp, "## Task\nFind why the orders are lost.\n", ledgerRules{budget: 500})
	for _, id := range []string{"OPS-7713", "OPS-7714", "OPS-7715"} {
		if !strings.Contains(text, id) {
			t.Errorf("%s is missing from the ledger (gate %+v):\n%s", id, gate, text)
		}
	}
}

// withStep returns history with one bash step appended: the call of
// command (id call_i) and its result out.
func withStep(history []condense.Message, i int, command, out string) []condense.Message {
	id := fmt.Sprintf("call_%d", i)
	in := fmt.Sprintf(`{"command":%q}`, command)
	return append(history,
		condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", []byte(in))}},
		condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(out))}})
}
