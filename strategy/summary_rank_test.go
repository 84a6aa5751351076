package strategy

import (
	"fmt"
	"strings"
	"testing"

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
		if !strings.Contains(text, "- "+l+"\n") {
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
