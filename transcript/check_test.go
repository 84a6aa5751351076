package transcript

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/testmode"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// testdataFiles lists every transcript under testdata and testdata/real.
func testdataFiles(t testing.TB) []string {
	t.Helper()
	var files []string
	for _, dir := range []string{"testdata", filepath.Join("testdata", "real")} {
		ents, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			// Not transcripts: notes, a Vitest snapshot holding logs
			// (read by its own test), a ui_messages.json that is refused.
			if e.IsDir() || strings.HasSuffix(e.Name(), ".md") || strings.HasSuffix(e.Name(), ".snap") ||
				e.Name() == "cline-ui-messages.json" {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if e.Name() == largeSample {
				// Under the race detector (outside CONDENSE_TEST_LONG=1),
				// its first third: the sweeps check no concurrency.
				path = testmode.Part(t, path, 3)
			}
			files = append(files, path)
		}
	}
	return files
}

// writeVariants returns the requests of tr the writers are checked on: the
// whole request, the agent's own rendering when it has a checkpoint, the
// request from a few assistant messages on (a compacted sub-agent transcript
// starts so), and the request compacted into two small windows.
func writeVariants(t testing.TB, tr *Transcript) map[string]condense.Request {
	t.Helper()
	out := map[string]condense.Request{"read": tr.Request}
	if tr.Checkpoint != nil {
		r := tr.Request
		r.Messages = tr.Rendered()
		out["rendered"] = r
	}
	msgs := tr.Request.Messages
	var starts []int
	for i := range msgs {
		if i > 0 && msgs[i].Role == condense.RoleAssistant {
			starts = append(starts, i)
		}
	}
	if len(starts) > 4 {
		starts = append(starts[:3], starts[len(starts)-1])
	}
	for _, i := range starts {
		if condense.Validate(msgs[i:]) == nil {
			r := tr.Request
			r.Messages = msgs[i:]
			out[fmt.Sprintf("from-%d", i)] = r
		}
	}
	counter := tokens.Heuristic("anthropic")
	total := condense.CountRequest(counter, &tr.Request)
	for _, window := range []int{total / 2, total / 4} {
		window += 1024
		pf := condense.NewPreflight(counter, strategy.Default(), &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 512}})
		res, err := pf.Prepare(context.Background(), tr.Request)
		var we *condense.WindowError
		if errors.As(err, &we) {
			continue
		}
		if err != nil {
			t.Fatalf("compact to %d: %v", window, err)
		}
		out[fmt.Sprintf("compact-%d", window)] = res.Request
	}
	return out
}

// TestWrittenPassesChecker: every writer's output of every testdata
// transcript, compacted and not, passes its format's checker.
func TestWrittenPassesChecker(t *testing.T) {
	for _, file := range testdataFiles(t) {
		tr, err := ReadFile(file, Options{})
		if err != nil {
			if tr, err = ReadFile(file, Options{Lenient: true}); err != nil {
				t.Errorf("%s: %v", file, err)
				continue
			}
		}
		for name, req := range writeVariants(t, tr) {
			for _, f := range WriteFormats {
				var buf bytes.Buffer
				if err := Write(&buf, f, req); err != nil {
					t.Errorf("%s %s --to %s: %v", file, name, f, err)
					continue
				}
				for _, v := range CheckWritten(f, buf.Bytes()) {
					t.Errorf("%s %s --to %s: %v", file, name, f, v)
				}
			}
		}
	}
}
