package transcript

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestRepairRandom feeds random Anthropic histories with calls, results,
// thinking and text in random order (ids from a small pool, so results
// arrive late, early, twice or never) and checks the reader's contract:
// an error wrapping ErrMalformed, or messages that pass Validate.
func TestRepairRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	ids := []string{"a", "b", "c", "d", "e", "f"}
	for iter := 0; iter < 3000; iter++ {
		var msgs []string
		for n := r.IntN(10); n >= 0; n-- {
			var blocks []string
			if r.IntN(2) == 0 {
				for k := r.IntN(4); k >= 0; k-- {
					switch r.IntN(4) {
					case 0:
						blocks = append(blocks, `{"type":"thinking","thinking":"hm","signature":"s"}`)
					case 1:
						blocks = append(blocks, `{"type":"text","text":"ok"}`)
					default:
						blocks = append(blocks, fmt.Sprintf(`{"type":"tool_use","id":%q,"name":"x","input":{}}`, ids[r.IntN(len(ids))]))
					}
				}
				msgs = append(msgs, `{"role":"assistant","content":[`+strings.Join(blocks, ",")+`]}`)
				continue
			}
			for k := r.IntN(3); k >= 0; k-- {
				if r.IntN(3) == 0 {
					blocks = append(blocks, `{"type":"text","text":"go on"}`)
				} else {
					blocks = append(blocks, fmt.Sprintf(`{"type":"tool_result","tool_use_id":%q,"content":"r"}`, ids[r.IntN(len(ids))]))
				}
			}
			msgs = append(msgs, `{"role":"user","content":[`+strings.Join(blocks, ",")+`]}`)
		}
		doc := `{"messages":[` + strings.Join(msgs, ",") + `]}`
		for _, lenient := range []bool{false, true} {
			tr, err := ReadBytes([]byte(doc), Options{Format: FormatAnthropic, Lenient: lenient})
			if err != nil {
				if !errors.Is(err, condense.ErrMalformed) {
					t.Fatalf("%s\nlenient=%v: %v", doc, lenient, err)
				}
				if lenient {
					t.Fatalf("%s\nlenient read failed: %v", doc, err)
				}
				continue
			}
			if err := condense.Validate(tr.Request.Messages); err != nil {
				t.Fatalf("%s\nlenient=%v: %v", doc, lenient, err)
			}
		}
	}
}
