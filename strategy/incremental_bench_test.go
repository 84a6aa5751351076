package strategy

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// BenchmarkMaskIncremental feeds a 300-step session to one preflight a
// step at a time, as an agent loop does, with mask in a window the session
// overflows many times over and automatic compaction never suppressed: the
// cost of compacting at nearly every call of a long loop. Each compaction
// masks only the results that left the recent steps since the last one;
// what it reads of a result is remembered (CompactionContext.Remember), so
// a compaction refused and tried again does not read it twice.
func BenchmarkMaskIncremental(b *testing.B) {
	var msgs []condense.Message
	msgs = append(msgs, condense.UserText("Find why the nightly export is slow and fix it."))
	for i := range 300 {
		id := fmt.Sprintf("call_%d", i)
		in, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("grep -rn export_batch internal/export/part%d.go", i)})
		var out strings.Builder
		for k := range 12 {
			fmt.Fprintf(&out, "internal/export/part%d.go:%d: rows, err := q.ExportBatch(ctx, cursor%d, 500) // took %dms\n", i, 10+k, k, 20+(i*k)%70)
		}
		if i%25 == 0 {
			fmt.Fprintf(&out, "ERROR: pq: canceling statement due to statement timeout (batch %d)\n", i)
		}
		msgs = append(msgs,
			condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.ToolCall(id, "bash", in)}},
			condense.Message{Role: condense.RoleTool, Parts: []condense.Part{condense.ToolResult(id, false, condense.Text(out.String()))}})
	}
	counter := tokens.Heuristic("anthropic")
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	b.ReportAllocs()
	for b.Loop() {
		pf := condense.NewPreflight(counter, Mask{}, &condense.Options{
			Settings: condense.Settings{Window: 12_000, ReservedOutput: 200}, MaxPressured: 1 << 20, Logger: quiet})
		for n := 3; n <= len(msgs); n += 2 {
			if _, err := pf.Prepare(context.Background(), condense.Request{Messages: msgs[:n]}); err != nil {
				if we := (*condense.WindowError)(nil); !errors.As(err, &we) {
					b.Fatal(err)
				}
			}
		}
	}
}
