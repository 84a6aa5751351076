package ledger

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// commandOutputs builds about size bytes of shell results: the testdata
// outputs (test runs, builds, traces, logs) and a long service log of
// mixed levels with failures among routine lines, half of them from
// failing commands, half from commands that exited 0. It returns the call
// and result pairs and the number of bytes of output.
func commandOutputs(tb testing.TB, size int) ([][2]condense.Part, int) {
	tb.Helper()
	files, _ := filepath.Glob("testdata/*.txt")
	sort.Strings(files)
	var texts []string
	for _, f := range files {
		texts = append(texts, readTestdata(tb, filepath.Base(f)))
	}
	var log strings.Builder
	routine := []string{"request served", "cache refreshed", "lease renewed", "batch flushed", "worker started"}
	for i := range 4000 {
		switch {
		case i%97 == 0:
			fmt.Fprintf(&log, "2026-04-02T10:%02d:%02dZ ERROR orders.sync: pq: duplicate key value violates unique constraint \"orders_pkey\" id=%d\n", i/60%60, i%60, i)
		case i%53 == 0:
			fmt.Fprintf(&log, "{\"level\":\"warn\",\"msg\":\"retrying after timeout\",\"attempt\":%d}\n", i%5)
		case i%31 == 0:
			fmt.Fprintf(&log, "dial tcp 10.0.%d.7:5432: connect: connection refused\n", i%255)
		case i%2 == 0:
			fmt.Fprintf(&log, "2026-04-02T10:%02d:%02dZ INFO  %s took=%dms\n", i/60%60, i%60, routine[i%len(routine)], i%90)
		default:
			fmt.Fprintf(&log, "    applied src/orders/handler_%d.go in %dms\n", i%40, i%900)
		}
	}
	texts = append(texts, log.String())
	var pairs [][2]condense.Part
	total := 0
	for i := 0; total < size; i++ {
		id := fmt.Sprintf("call_%d", i)
		in, _ := json.Marshal(map[string]string{"command": fmt.Sprintf("make check STEP=%d", i)})
		out := texts[i%len(texts)] + fmt.Sprintf("\nProcess exited with code %d\n", i%2)
		pairs = append(pairs, [2]condense.Part{condense.ToolCall(id, "Bash", in), condense.ToolResult(id, i%2 == 1, condense.Text(out))})
		total += len(out)
	}
	return pairs, total
}

// BenchmarkExtractCommandOutput extracts the items of 2.5 MB of shell
// output result by result, as masking does: the path error lines take.
func BenchmarkExtractCommandOutput(b *testing.B) {
	pairs, n := commandOutputs(b, 2_500_000)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range pairs {
			ExtractResult(&pairs[i][0], &pairs[i][1], i)
		}
	}
}
