package ledger

import (
	"fmt"
	"strings"
	"testing"
)

// TestOddLineOutranksItsListing: in a listing of commits that all look
// alike, the ids on the one line shaped unlike the others rank above the
// routine ones; in output of many shapes nothing is marked.
func TestOddLineOutranksItsListing(t *testing.T) {
	words := []string{"Fix", "Bump", "Refactor", "Remove", "Add"}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "%07x %s payment in billing\n", 0x1a2b3c4+i*7919, words[i%len(words)])
		if i == 17 {
			b.WriteString("0b92945 Reconcile the payment webhook (#483)\n")
		}
	}
	items := outputItems(b.String())
	var tally Tally
	tally.Add(items)
	odd, routine := -1, -1
	for _, it := range items {
		if it.Kind != KindID {
			continue
		}
		switch s := tally.Salience(it); {
		case it.Value == "0b92945" || it.Value == "#483":
			odd = s
			if !it.Odd {
				t.Errorf("%s not marked odd", it)
			}
		case it.Odd:
			t.Errorf("%s marked odd: its line is routine", it)
		default:
			routine = max(routine, s)
		}
	}
	if odd < 0 || routine < 0 {
		t.Fatalf("ids missing: %q", Strings(items))
	}
	if odd <= routine {
		t.Errorf("odd line's id ranks %d, not above the routine ids' %d", odd, routine)
	}

	// Many shapes: nothing stands out.
	b.Reset()
	for i := range 30 {
		fmt.Fprintf(&b, "%07x %s\n", 0x1a2b3c4+i*7919, strings.Repeat("word ", i%7))
	}
	for _, it := range outputItems(b.String()) {
		if it.Odd {
			t.Errorf("%s marked odd in output of many shapes", it)
		}
	}
}
