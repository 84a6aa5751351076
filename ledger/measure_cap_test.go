package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestJSONLogOutlierPastTheCap: in a JSON log with more timings than the
// per-kind cap, the one slow request replaces a fast one, as it does in a
// plain log ("took=3472.1ms").
func TestJSONLogOutlierPastTheCap(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `{"level":"info","msg":"hydrate ok","took":"%dms"}`+"\n", 50+i)
	}
	b.WriteString(`{"level":"warn","msg":"slow hydrate","took":"4182.3ms"}` + "\n")
	for i := range 10 {
		fmt.Fprintf(&b, `{"level":"debug","msg":"retry","took":"%dms"}`+"\n", 20+i)
	}
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	got := Strings(ExtractResult(nil, &res, 3))
	if !slices.Contains(got, `measurement "took: 4182.3ms"`) {
		t.Errorf("the slow request is lost: %q", got)
	}
}
