package ledger

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func readTestdata(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func resultOf(text string, isError bool) condense.Part {
	return condense.ToolResult("call_1", isError, condense.Text(text))
}

// TestExtractResultOutputs reads realistic tool outputs without their call
// and checks every item, in order.
func TestExtractResultOutputs(t *testing.T) {
	cases := []struct {
		file string
		want []string
	}{
		{"bench.txt", []string{
			"measurement \"BenchmarkParse-8          1000000              1043 ns/op             512 B/op          8 allocs/op\"",
			"measurement \"BenchmarkEncode/small-8   3210765               373.2 ns/op           128 B/op          2 allocs/op\"",
			"measurement \"BenchmarkEncode/large-8      4521            264911 ns/op         1048576 B/op         12 allocs/op\"",
			"measurement \"ok      github.com/acme/wire/internal/codec     4.113s\"",
		}},
		{"build.txt", []string{
			"error \"internal/x/decode.go:41:9: undefined: readVarint\"",
			"file internal/x/decode.go",
			"error \"internal/x/decode.go:57:2: declared and not used: n\"",
		}},
		{"cargo.txt", []string{
			"file /home/dev/ledgerd",
			"error \"error[E0382]: borrow of moved value: `entries`\"",
			"file src/store.rs",
			"command \"For more information about this error, try `rustc --explain E0382`.\"", // the command the hint names, with the hint
			"error \"error: could not compile `ledgerd` (lib) due to 1 previous error\"",
		}},
		{"cargo_test.txt", []string{
			"file src/lib.rs",
			"error \"test store::tests::replays_journal ... FAILED\"",
			"file src/store.rs",
			"error \"thread 'store::tests::replays_journal' panicked at src/store.rs:118:9: assertion `left == right` failed\"",
			"measurement \"test result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\"",
			"error \"error: test failed, to rerun pass `--lib`\"",
		}},
		{"git.txt", []string{
			"id ENG-4821", // in the branch's name, first
			"id 3fa9c2d",
			"id 9b1e5c07d2a4f8e6b3c1a0d9e8f7a6b5c4d3e2f1",
			"id #1287",
			"url https://github.com/acme/orders.git",
			"id 8c3c13d", // the remote's previous head, in the pushed range
		}},
		{"gotest.txt", []string{
			"error \"parse_test.go:48: body length: got 12, want 14\"",
			"error \"--- FAIL: TestParseBody (0.01s)\"",
			"error \"--- FAIL: TestIndex (0.00s)\"",
			"error \"panic: runtime error: index out of range [3] with length 3 [recovered]\"",
			"error \"panic: runtime error: index out of range [3] with length 3\"",
			"file /home/dev/wire/internal/x/index.go",
			"file /home/dev/wire/internal/x/index_test.go",
			`error "github.com/acme/wire/internal/x.Index(…) at /home/dev/wire/internal/x/index.go:27 ← x.TestIndex"`,
			"error `FAIL\tgithub.com/acme/wire/internal/x\t0.012s`",
			"measurement `ok  \tgithub.com/acme/wire/internal/codec\t0.532s\tcoverage: 81.3% of statements`",
		}},
		{"jsonlog.txt", []string{
			"error \"payment capture failed: upstream timeout after 5000ms\"",
			"id request_id=req_8f2a91c4",
			"id order_id=ORD-2024-0042",
			"measurement \"upstream timeout after 5000ms\"",
			"error `time=2026-11-30T10:14:06Z level=error msg=\"db ping failed\" err=\"dial tcp 10.0.4.12:5432: connect: connection refused\"`",
			"measurement `\"latency\":\"703.1ms\"`",
		}},
		{"kubectl.txt", []string{
			"error \"api-7d9f8b6c5-x2k4q           0/1     CrashLoopBackOff   5 (2m ago)     10m\"",
			"error \"worker-5c4b9f7d8-qq2rt        0/1     Error              2 (30s ago)    4m\"",
		}},
		{"node_trace.txt", []string{
			"file /app/server/routes/orders.js",
			"error \"TypeError: Cannot read properties of undefined (reading 'reduce')\"",
			"error \"at computeTotal (/app/server/routes/orders.js:88:31)\"",
		}},
		{"npm.txt", []string{
			"error \"npm ERR! code ERESOLVE\"",
			"error \"npm ERR! ERESOLVE unable to resolve dependency tree\"",
			"error \"npm ERR! While resolving: web-console@2.4.0\"",
			"error \"npm ERR! Found: react@18.3.1\"",
			"error \"npm ERR! Could not resolve dependency:\"",
			"error `npm ERR! peer react@\"^17.0.0\" from react-table@7.8.0`",
			"file /home/dev/.npm/_logs/2026-11-30T10_02_11_482Z-debug-0.log",
		}},
		{"criterion.txt", []string{
			"file /home/dev/tern/tern-fmt",
			"file benches/lower.rs",
			"measurement \"lower/1k                time:   [44.102 µs 44.710 µs 45.391 µs]\"",
			"measurement \"lower/nested_generic_bounds_10k time: [512.44 µs 519.07 µs 526.31 µs]\"",
			"measurement \"lower/nested_generic_bounds_10k thrpt: [18.553 MiB/s 18.812 MiB/s 19.054 MiB/s]\"",
			// the significant change; the one within noise (p > 0.05) is not kept
			"measurement \"lower/nested_generic_bounds_10k change: [+11.4% +12.9% +14.3%] (p = 0.00 < 0.05)\"",
		}},
		{"jmh.txt", []string{
			"measurement \"ShiftCalendarBench.assign              avgt   25  499.247 ±  2.868   us/op\"",
			"measurement \"ShiftCalendarBench.cancel              avgt   25   52.784 ±  3.316   us/op\"",
			"measurement \"RoutePlannerBench.plan                thrpt   25  1841.2 ± 12.5    ops/s\"",
		}},
		{"perf.txt", []string{
			"url https://staging.acme.dev/api/v2/orders",
			"id 6f1c3b2e-8d4a-4c1b-9e2f-7a6b5c4d3e2f",
			"measurement \"Requests:      12000 total, 200.0 req/s\"",
			"measurement \"p50 latency: 41.7ms\"",
			"measurement \"p99 latency: 703.1ms\"",
			"measurement \"Peak RSS: 1.2 GiB\"",
			"measurement \"Memory: 512 MiB\"",
			"measurement \"Downloaded 12.5 MB in 3.2s\"",
			"measurement \"the whole run took 61.4s\"",
		}},
		{"pytest.txt", []string{
			"file /work/orders",
			"file tests/test_orders.py",
			"id order_id=ORD-2024-0042",
			"error \"test_total_with_tax: E       AssertionError: assert 23.976 == 23.98\"",
			"error \"tests/test_orders.py:31: AssertionError\"",
			"error \"test_refund_window: E           orders.errors.RefundError: refund window of 30 days exceeded\"",
			"error \"orders/refunds.py:18: RefundError\"",
			"file orders/refunds.py",
			"error \"FAILED tests/test_orders.py::test_total_with_tax - AssertionError: assert 23.976 == 23.98\"",
			"error \"FAILED tests/test_orders.py::test_refund_window - orders.errors.RefundError: refund window of 30 days exceeded\"",
			"measurement \"2 failed, 5 passed in 0.87s\"",
		}},
		{"python_trace.txt", []string{
			"file /work/etl/run.py",
			"file /work/etl/loader.py",
			"error \"FileNotFoundError: [Errno 2] No such file or directory: 'data/2026-11/orders.csv'\"",
			"error `File \"/work/etl/loader.py\", line 21, in load_rows`",
			"error `File \"/work/etl/run.py\", line 58, in main`",
			"file data/2026-11/orders.csv",
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			res := resultOf(readTestdata(t, tc.file), false)
			got := Strings(ExtractResult(nil, &res, 7))
			if !slices.Equal(got, tc.want) {
				t.Errorf("items:\n got  %q\n want %q", got, tc.want)
			}
			for _, it := range ExtractResult(nil, &res, 7) {
				if it.Source != 7 {
					t.Errorf("%v: source %d, want 7", it, it.Source)
				}
			}
		})
	}
}

// TestDiffHeaders: a git diff's header names its file once, without the
// a/ and b/ prefixes, and its index line's blob hashes are not ids.
func TestDiffHeaders(t *testing.T) {
	itemsHeld(t, "diff --git a/crates/core/src/fold.rs b/crates/core/src/fold.rs\nindex 25bb0f0..67d88ad 100644\n--- a/crates/core/src/fold.rs\n+++ b/crates/core/src/fold.rs",
		[]string{"file crates/core/src/fold.rs"},
		[]string{"file a/crates/core/src/fold.rs", "file b/crates/core/src/fold.rs", "id 25bb0f0", "id 67d88ad"})
}

// TestCommandFiguresAreArguments: the figures of a command line are its
// arguments, not measurements; a test runner's section rule is no command.
func TestCommandFiguresAreArguments(t *testing.T) {
	m := condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text("Checking the logs.\n\n```bash\nkubectl logs deploy/api --since=2h --tail=400\n```")}}
	got := Strings(ExtractMessage(&m, 1))
	if !slices.Contains(got, `command "kubectl logs deploy/api --since=2h --tail=400"`) {
		t.Errorf("command missing from %q", got)
	}
	for _, g := range got {
		if strings.HasPrefix(g, "measurement") {
			t.Errorf("%s taken from a command line", g)
		}
	}
	itemsHeld(t, "        FAIL [  0.583s] core prec::tests::intern_node\n--- STDERR:              core prec::tests::intern_node ---", nil,
		[]string{`command "core prec::tests::intern_node ---"`})
}
