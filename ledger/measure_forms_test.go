package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestUnlabelledMeasurements: a number with a unit of time, size or rate is
// a measurement although nothing names it — a query's "(63.23 sec)" — and
// so is a benchmark harness's result row: a Criterion interval "[142.63 µs
// 224.97 µs 402.11 µs]", a JMH score with its margin of error "258.520 ±
// 16.569  us/op"; each is kept with its line, as printed — while a bare
// percentage or a count with a one-letter unit is not. A key written as a call ("p(95)=", "quantile(0.99)=") or spelling a
// unit ("min=") labels its figure, and a signed figure is never another's
// label.
func TestUnlabelledMeasurements(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"1 row in set, 1 warning (63.23 sec)", []string{`measurement "1 row in set, 1 warning (63.23 sec)"`}, nil},
		{"parse/1k                  time:   [142.63 µs 224.97 µs 402.11 µs]", []string{`measurement "parse/1k                  time:   [142.63 µs 224.97 µs 402.11 µs]"`}, nil},
		{"Benchmark        Mode  Cnt     Score     Error  Units\nRouteBench.drive  avgt   25  258.520 ± 16.569  us/op", []string{`measurement "RouteBench.drive  avgt   25  258.520 ± 16.569  us/op"`}, nil},
		{"(40 x)", nil, []string{`measurement "40 x"`}},
		{`10.0.1.11 - - [11/Apr/2024:10:50:14 +0000] "GET /api/v2/search?q=* HTTP/1.1" 200 412331 "-" "okhttp/4.12.0" rt=12.884 uct="0.001" uht="12.883" urt="12.883"`,
			[]string{"measurement `10.0.1.11 - - [11/Apr/2024:10:50:14 +0000] \"GET /api/v2/search?q=* HTTP/1.1\" 200 412331 \"-\" \"okhttp/4.12.0\" rt=12.884 uct=\"0.001\" uht=\"12.883\" urt=\"12.883\"`"}, nil},
		{"POD                NAME      CPU(cores)   MEMORY(bytes)\nsearch-indexer-0   indexer   3981m        14211Mi",
			[]string{`measurement "search-indexer-0   indexer   3981m        14211Mi"`}, nil},
		{"Waiting for 2 jobs to finish", nil, []string{`measurement "Waiting for 2 jobs to finish"`, `measurement "2 jobs"`}},
		{"http_req_duration..: avg=120.5ms min=10.2ms p(90)=250.3ms p(95)=293.27ms",
			[]string{`measurement "http_req_duration..: avg=120.5ms min=10.2ms p(90)=250.3ms p(95)=293.27ms"`}, nil},
		{"quantile(0.99)=812ms", []string{"measurement quantile(0.99)=812ms"}, nil},
		// hyperfine's seconds, spaced from their figures
		{"Benchmark 1: ./old\n  Time (mean ± σ):     412.3 ms ±   8.1 ms    [User: 2.101 s, System: 0.912 s]\n\nBenchmark 2: ./new\n  Time (mean ± σ):      1.184 s ±  0.021 s    [User: 6.882 s, System: 1.020 s]",
			[]string{`measurement "Time (mean ± σ):      1.184 s ±  0.021 s    [User: 6.882 s, System: 1.020 s]"`}, nil},
		{"querystring.parse x 1,412,331 ops/sec ±0.84% (93 runs sampled)\nURLSearchParams x 48,913 ops/sec ±4.87% (81 runs sampled)",
			[]string{`measurement "URLSearchParams x 48,913 ops/sec ±4.87% (81 runs sampled)"`}, nil},
		// a throughput's worst is its lowest: past the cap the slowest stays
		{"consumer lag check: throughput 1412 msg/s\nconsumer lag check: throughput 1501 msg/s\nconsumer lag check: throughput 1398 msg/s\n" +
			"consumer lag check: throughput 211 msg/s\nconsumer lag check: throughput 1455 msg/s",
			[]string{`measurement "consumer lag check: throughput 211 msg/s"`}, []string{`measurement "consumer lag check: throughput 1501 msg/s"`}},
		{"05-14 16:20:06.019 I/Choreographer(11842): Skipped 187 frames!  The application may be doing too much work on its main thread.",
			[]string{`measurement "05-14 16:20:06.019 I/Choreographer(11842): Skipped 187 frames!  The application may be doing too much work on its main thread."`}, nil},
		{"latency: 3.2ms +1.0ms", []string{`measurement "latency: 3.2ms +1.0ms"`}, nil},
		{"change: [-4.0% +0.4% +2.1%]", nil, []string{`measurement "-4.0% +0.4%"`, `measurement "-4.0% +0.4% +2.1%"`}},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
}

// itemsHeld checks the items extracted from a tool's output: each of want
// is among them, none of not is.
func itemsHeld(t *testing.T, text string, want, not []string) {
	t.Helper()
	held(t, text, Strings(outputItems(text)), want, not)
}

// held checks items read from text: each of want is among got, none of
// not is.
func held(t *testing.T, text string, got, want, not []string) {
	t.Helper()
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("%q: %s missing from %q", text, w, got)
		}
	}
	for _, n := range not {
		if slices.Contains(got, n) {
			t.Errorf("%q: %s kept", text, n)
		}
	}
}

// TestProfileTopRows: a profiler's table (pprof, perf report, cProfile,
// async-profiler) keeps its first rows, where the time went, as
// measurements naming the function; cProfile's rows for the whole run are
// passed over, and the rows after the first few are not kept.
func TestProfileTopRows(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"Showing nodes accounting for 3.80s, 100% of 3.80s total\n      flat  flat%   sum%        cum   cum%\n     1.20s 31.58% 31.58%      1.50s 39.47%  main.flushLedger\n     0.80s 21.05% 52.63%      0.80s 21.05%  runtime.memmove\n     0.40s 10.53% 63.16%      0.40s 10.53%  runtime.mallocgc\n     0.30s  7.89% 71.05%      0.30s  7.89%  syscall.Syscall",
			[]string{`measurement "1.20s 31.58% 31.58%      1.50s 39.47%  main.flushLedger"`}, []string{`measurement "0.30s  7.89% 71.05%      0.30s  7.89%  syscall.Syscall"`}},
		{"# Overhead  Command  Shared Object      Symbol\n# ........  .......  .................  ..............................\n#\n    31.58%  ledgerd  ledgerd            [.] ledger::flush_pages\n    12.10%  ledgerd  libc.so.6          [.] __memmove_avx_unaligned_erms",
			[]string{`measurement "31.58%  ledgerd  ledgerd            [.] ledger::flush_pages"`}, nil},
		{"   ncalls  tottime  percall  cumtime  percall filename:lineno(function)\n        1    0.000    0.000   12.345   12.345 {built-in method builtins.exec}\n        1    0.010    0.010   12.345   12.345 run.py:1(<module>)\n      500    8.100    0.016   10.200    0.020 settle.py:71(settle_batch)",
			[]string{`measurement "500    8.100    0.016   10.200    0.020 settle.py:71(settle_batch)"`}, []string{`measurement "1    0.010    0.010   12.345   12.345 run.py:1(<module>)"`}},
		{"          ns  percent  samples  top\n  ----------  -------  -------  ---\n  1617000000   31.58%     1617  com.acme.Ledger.flush",
			[]string{`measurement "1617000000   31.58%     1617  com.acme.Ledger.flush"`}, nil},
		{"  %Own   %Total  OwnTime  TotalTime  Function (filename)\n 62.00%  62.00%    3.10s     3.10s   settle_batch (billing/settle.py)",
			[]string{`measurement "62.00%  62.00%    3.10s     3.10s   settle_batch (billing/settle.py)"`}, nil},
		{"Showing top 10 samples by percent\n2 retries failed on shard 7", nil, []string{`measurement "2 retries failed on shard 7"`}},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
}

// TestFigureLines: a label and its figure are kept whole; code, counts
// and lines of several fields are not one.
func TestFigureLines(t *testing.T) {
	for line, want := range map[string]bool{
		"Requests/sec:  18266.17": true, "tps = 4123.771204 (without initial connection time)": true,
		"Maximum resident set size (kbytes): 6219344": true, "real\t0m41.203s": true, "99%  212.40ms": true,
		"99% in 0.2874 secs": true, "Elapsed (wall clock) time (h:mm:ss or m:ss): 0:58.71": true,
		"Parallelism: 1": false, "Port: 8080": false, "totalSeconds = 25 * 60;": false, "main.go:42: starting server on :8080": false,
		"p99 latency: 703.1ms, p50 latency: 41ms": false, "heap=512MiB gc=12%": false, "tests/test_orders.py:31: AssertionError": false,
		"Weather in Tokyo: 20°C, Clear skies": false,
	} {
		if got := figureLine(line); got != want {
			t.Errorf("figureLine(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestComparisons: figures that compare two runs are measurements, whole:
// hyperfine's ratio with its margin, a benchstat row with its delta and
// p-value, Criterion's significant change under its benchmark's name, and
// a usage out of a limit. A retry count is not a comparison, and Criterion's
// change within noise is left out.
func TestComparisons(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"Summary\n  'rg -F foo' ran\n    3.41 ± 0.12 times faster than 'grep -F foo'",
			[]string{`measurement "3.41 ± 0.12 times faster than 'grep -F foo'"`}, nil},
		{"the new parser is 2.5 times slower on nested input", []string{`measurement "the new parser is 2.5 times slower on nested input"`}, nil},
		{"retried 3 times before giving up", nil, []string{`measurement "3 times"`, `measurement "retried 3 times"`}},
		{"name        old time/op    new time/op    delta\nEncode-8    1.20ms ± 2%    0.61ms ± 1%    -49.17%  (p=0.000 n=10+10)\nDecode-8    880µs ± 3%     884µs ± 2%     ~        (p=0.481 n=10+10)",
			[]string{`measurement "Encode-8    1.20ms ± 2%    0.61ms ± 1%    -49.17%  (p=0.000 n=10+10)"`},
			nil},
		{"tokenize/large          time:   [2.1044 ms 2.1132 ms 2.1227 ms]\n                        change: [+18.001% +18.842% +19.700%] (p = 0.00 < 0.05)\n                        Performance has regressed.\ntokenize/small          time:   [10.1 µs 10.2 µs 10.3 µs]\n                        change: [-0.5% +0.1% +0.8%] (p = 0.71 > 0.05)",
			[]string{`measurement "tokenize/large change: [+18.001% +18.842% +19.700%] (p = 0.00 < 0.05)"`},
			[]string{`measurement "tokenize/small change: [-0.5% +0.1% +0.8%] (p = 0.71 > 0.05)"`}},
		{"CONTAINER ID   NAME         CPU %     MEM USAGE / LIMIT     MEM %\n3f2a9c1d0b7e   api-worker   87.20%    1.712GiB / 2GiB       85.60%",
			[]string{`measurement "3f2a9c1d0b7e   api-worker   87.20%    1.712GiB / 2GiB       85.60%"`}, nil},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
}

// TestRowsAreNotFigures: a CSV row whose last field is a timestamp is not
// a label and its figure.
func TestRowsAreNotFigures(t *testing.T) {
	itemsHeld(t, "id,status,amount,currency,created_at\nORD-A5P2L5K0,paid,12220,EUR,2026-04-09 12:16:47+00\n", nil,
		[]string{`measurement "ORD-A5P2L5K0,paid,12220,EUR,2026-04-09 12:16:47+00"`})
}

// TestReportLines: the lines of size, memory and duration reports are kept
// whole, as printed; a test that took a few seconds is not singled out.
func TestReportLines(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"UPDATE 912\nTime: 18231.006 ms (00:18.231)", []string{`measurement "Time: 18231.006 ms (00:18.231)"`}, nil},
		{"   Main PID: 811 (worker)\n     Memory: 2.1G (peak: 3.9G)", []string{`measurement "Memory: 2.1G (peak: 3.9G)"`}, nil},
		{"dhat: Total:     88,112,400 bytes in 41,203 blocks", []string{`measurement "dhat: Total:     88,112,400 bytes in 41,203 blocks"`}, nil},
		{"8.0K\t./docs\n3.4G\t./data/cache", []string{"measurement `3.4G\t./data/cache`"}, nil},
		{"Showing nodes accounting for 512.3MB, 97.01% of 528.1MB total", []string{`measurement "Showing nodes accounting for 512.3MB, 97.01% of 528.1MB total"`}, nil},
		{"--- PASS: TestImportLarge (41.07s)\n--- PASS: TestImportSmall (0.02s)\n--- PASS: TestImportMedium (3.20s)", []string{`measurement "--- PASS: TestImportLarge (41.07s)"`}, []string{`measurement "--- PASS: TestImportSmall (0.02s)"`, `measurement "--- PASS: TestImportMedium (3.20s)"`}},
		{"test store::tests::compact_log ... ok <12.500s>", []string{`measurement "test store::tests::compact_log ... ok <12.500s>"`}, nil},
		{"    ✓ imports a large file (18312 ms)\n    ✓ parses (4 ms)\n    ✓ renders (2210 ms)", []string{`measurement "✓ imports a large file (18312 ms)"`}, nil},
		{"31.77s call     tests/test_import.py::test_large_file", []string{`measurement "31.77s call     tests/test_import.py::test_large_file"`}, nil},
		// a test run's summary in other runners' words
		{"  412 passing (4m)\n  3 pending", []string{`measurement "412 passing (4m)"`}, nil},
		{" 412 pass\n 0 fail\nRan 412 tests across 38 files. [8.41s]", []string{`measurement "Ran 412 tests across 38 files. [8.41s]"`}, nil},
		{"Executed 412 tests, with 0 failures (0 unexpected) in 398.412 (412.824) seconds",
			[]string{`measurement "Executed 412 tests, with 0 failures (0 unexpected) in 398.412 (412.824) seconds"`}, nil},
		// a figure before a unit's name with dashes and capitals
		{"38.412s cloud-init.service\n 2.884s NetworkManager-wait-online.service",
			[]string{`measurement "38.412s cloud-init.service"`, `measurement "2.884s NetworkManager-wait-online.service"`}, nil},

		{"[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 73.102 s -- in com.acme.ImportTest\n[INFO] Tests run: 9, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.412 s -- in com.acme.ParseTest",
			[]string{`measurement "[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 73.102 s -- in com.acme.ImportTest"`},
			nil},
		{"[info][gc] GC(88) Pause Full (System.gc()) 1900M->1210M(2048M) 812.003ms", []string{`measurement "[info][gc] GC(88) Pause Full (System.gc()) 1900M->1210M(2048M) 812.003ms"`}, nil},
		{"/srv/app/load.py:41: size=88.1 MiB, count=401233, average=230 B", []string{`measurement "/srv/app/load.py:41: size=88.1 MiB, count=401233, average=230 B"`}, nil},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
}

// TestBuiltFigures: units built the way units are (a prefixed size in any
// spelling, a count per unit of time), compound durations, keys that name
// the unit of their bare number, and a report behind a log line's prefix
// are measurements; a single "3m", a key that names no unit and a spaced
// one-letter word are not.
func TestBuiltFigures(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"published 1000000 messages, throughput 12,842 msg/sec, p99 41.2ms",
			[]string{`measurement "published 1000000 messages, throughput 12,842 msg/sec, p99 41.2ms"`}, nil},
		{"Transaction rate:	      803.28 trans/sec", []string{"measurement `Transaction rate:\t      803.28 trans/sec`"}, nil},
		{"[  5] local 10.0.0.5 sent 1.65 GBytes", []string{`measurement "[  5] local 10.0.0.5 sent 1.65 GBytes"`}, nil},
		{"NAME       CPU(cores)   MEMORY(bytes)\nweb-2b1d   12m          1893Mi", []string{`measurement "web-2b1d   12m          1893Mi"`}, nil},
		{"BUILD SUCCESSFUL in 4m 13s\n47 actionable tasks: 12 executed, 35 up-to-date", []string{`measurement "BUILD SUCCESSFUL in 4m 13s"`}, nil},
		{"Finished release [optimized] target(s) after 2m13.5s", []string{`measurement "Finished release [optimized] target(s) after 2m13.5s"`}, nil},
		{"batch done rows=5000 avg_latency_ms=812.4 max_latency_ms=2931 heapBytes=183226112",
			[]string{`measurement "batch done rows=5000 avg_latency_ms=812.4 max_latency_ms=2931 heapBytes=183226112"`}, nil},
		{"[INFO] Total time:  01:47 min\n[INFO] Finished at: 2026-12-01T10:12:44Z", []string{`measurement "[INFO] Total time:  01:47 min"`}, nil},
		{"Passed!  - Failed:     0, Passed:   412, Skipped:     0, Total:   412, Duration: 2 m 13 s - Api.Tests.dll (net8.0)",
			[]string{`measurement "Passed!  - Failed:     0, Passed:   412, Skipped:     0, Total:   412, Duration: 2 m 13 s - Api.Tests.dll (net8.0)"`}, nil},
		{`{"Time":"2026-12-01T10:00:01Z","Action":"pass","Package":"github.com/acme/x","Elapsed":12.345}`,
			[]string{"measurement `\"Elapsed\":12.345`"}, []string{"measurement 2026"}},
		{";; Query time: 41 msec", []string{`measurement ";; Query time: 41 msec"`}, nil},
		{"1000 loops, best of 5: 312 usec per loop", []string{`measurement "1000 loops, best of 5: 312 usec per loop"`}, nil},
		{"-rw-r--r-- 1 root root 1.2G Dec  1 10:00 dump.sql", []string{`measurement "-rw-r--r-- 1 root root 1.2G Dec  1 10:00 dump.sql"`}, nil},
		{`{"rss": 51234816, "heapUsed": 8765432, "pid": 4242, "p99_ms": 812}`,
			[]string{"measurement `{\"rss\": 51234816, \"heapUsed\": 8765432, \"pid\": 4242, \"p99_ms\": 812}`"}, nil},
		{"latency:\n  p50: 41\n  p99: 812", []string{`measurement "p50: 41"`, `measurement "p99: 812"`}, nil},
		{"ts=2026-12-01T10:00:00Z level=info path=/checkout latency=812 status=200 timeout_ms=5000",
			[]string{`measurement "ts=2026-12-01T10:00:00Z level=info path=/checkout latency=812 status=200 timeout_ms=5000"`}, nil},
		{"retrying in 3m\nuser_id=81234 order_id=5521 attempts=3\nwe saw 3 Mi and 2 m of it\nsee RFC 2616/sec 14", nil,
			[]string{"measurement 3m", "measurement user_id=81234", "measurement attempts=3", `measurement "3 Mi"`, `measurement "2616/sec"`}},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
}

// TestTableColumnsOfMeasures: a bare number under a table's header that
// names a measure (psql's mean_exec_time, an aligned table's P99(ms)) makes
// its row a measurement, kept as printed, and a long table keeps only the
// rows of the largest few of each column.
func TestTableColumnsOfMeasures(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"                 query                  | calls | mean_exec_time\n----------------------------------------+-------+---------------\n SELECT * FROM orders WHERE tenant_id=$1 | 41223 |         481.77",
			[]string{`measurement "SELECT * FROM orders WHERE tenant_id=$1 | 41223 |         481.77"`}, nil},
		{"Endpoint          Requests   Mean(ms)   P99(ms)\n/checkout         41223      12.34      481.77\n/health           99812      0.41       2.10",
			[]string{`measurement "/checkout         41223      12.34      481.77"`, `measurement "/health           99812      0.41       2.10"`}, nil},
	} {
		itemsHeld(t, tc.text, tc.want, tc.not)
	}
	var b strings.Builder
	b.WriteString("name        calls    p99(ms)\n")
	for i := range 12 {
		fmt.Fprintf(&b, "handler%-4d %-8d %d.5\n", i, 100+i, 10+i)
	}
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	var got []string
	for _, v := range Strings(ExtractResult(nil, &res, 3)) {
		if strings.HasPrefix(v, `measurement "handler`) {
			got = append(got, v)
		}
	}
	if len(got) != sameLabelCap || !slices.Contains(got, `measurement "handler11   111      21.5"`) {
		t.Errorf("p99 column kept %q, want the %d largest", got, sameLabelCap)
	}
}

// TestFigureLabels: read one by one (as in prose and in output lines too
// long to keep whole), each figure is labelled with its key or the words
// before it; a signed figure is never another's label, a key that names no
// measure gives no figure, and neither does a setting.
func TestFigureLabels(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"http_req_duration..: avg=120.5ms min=10.2ms p(90)=250.3ms p(95)=293.27ms",
			[]string{"measurement avg=120.5ms", "measurement min=10.2ms", "measurement p(90)=250.3ms", "measurement p(95)=293.27ms"},
			[]string{`measurement "250.3ms p"`, "measurement 293.27ms"}},
		{"latency: 3.2ms +1.0ms", []string{`measurement "latency: 3.2ms"`, "measurement +1.0ms"}, []string{`measurement "3.2ms +1.0ms"`}},
		{"published 1000000 messages, throughput 12,842 msg/sec, p99 41.2ms",
			[]string{`measurement "throughput 12,842 msg/sec"`, `measurement "p99 41.2ms"`}, nil},
		{"batch done rows=5000 avg_latency_ms=812.4 max_latency_ms=2931 heapBytes=183226112",
			[]string{"measurement avg_latency_ms=812.4", "measurement max_latency_ms=2931", "measurement heapBytes=183226112"},
			[]string{"measurement rows=5000"}},
		{`{"rss": 51234816, "heapUsed": 8765432, "pid": 4242, "p99_ms": 812}`,
			[]string{"measurement `\"rss\": 51234816`", "measurement `\"heapUsed\": 8765432`", "measurement `\"p99_ms\": 812`"}, []string{"measurement `\"pid\": 4242`"}},
		{"p99 latency: 703.1ms, p50 latency: 41ms", []string{`measurement "p99 latency: 703.1ms"`, `measurement "p50 latency: 41ms"`}, nil},
	} {
		s := newScanner(&defaultExtractor, 1, true)
		s.figures(tc.text, nil)
		held(t, tc.text, Strings(s.items), tc.want, tc.not)
	}
}

// TestFigureLinesKeptWhole: a short line of output with two figures or
// more is one item, the line as printed, which says what its figures are
// about; lines of one shape keep the few whose largest figure is largest
// (curl's timing of the one slow request among fast ones).
func TestFigureLinesKeptWhole(t *testing.T) {
	itemsHeld(t, "GET /checkout p50=41ms p95=233ms p99=812ms (n=41223)",
		[]string{`measurement "GET /checkout p50=41ms p95=233ms p99=812ms (n=41223)"`}, []string{"measurement p99=812ms"})
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, "dns=0.00%ds connect=0.01%ds ttfb=0.1%ds total=0.1%ds code=200\n", i, i, i, i)
	}
	b.WriteString("dns=0.005086s connect=0.023459s ttfb=4.417535s total=4.419385s code=200\n")
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	var kept []string
	for _, v := range Strings(ExtractResult(nil, &res, 3)) {
		if strings.Contains(v, "ttfb=") {
			kept = append(kept, v)
		}
	}
	if len(kept) != sameLabelCap || !slices.ContainsFunc(kept, func(v string) bool { return strings.Contains(v, "ttfb=4.417535s") }) {
		t.Errorf("kept %q, want %d lines, the slow request's among them", kept, sameLabelCap)
	}
}

// TestRowsThatStandOut: a benchmark table's rows, each a benchmark of its
// own, are kept whole however many share a unit; a coverage report's file
// covered far below the others is kept, the routine rows are not.
func TestRowsThatStandOut(t *testing.T) {
	jmh := "Benchmark                 (size)   Mode  Cnt       Score      Error  Units\n" +
		"JsonBench.customParse       1024  thrpt   10  702455.310 ± 5120.884  ops/s\n" +
		"JsonBench.customParse      65536  thrpt   10   11873.662 ±  101.209  ops/s\n" +
		"JsonBench.gsonParse         1024  thrpt   10  288140.057 ± 2210.432  ops/s\n" +
		"JsonBench.gsonParse        65536  thrpt   10    3904.118 ±   77.315  ops/s\n"
	itemsHeld(t, jmh, []string{
		`measurement "JsonBench.customParse      65536  thrpt   10   11873.662 ±  101.209  ops/s"`,
		`measurement "JsonBench.gsonParse        65536  thrpt   10    3904.118 ±   77.315  ops/s"`}, nil)
	cover := "Name                          Stmts   Miss  Cover\n-------------------------------------------------\n" +
		"app/__init__.py                   4      0   100%\napp/api.py                      212     31    85%\n" +
		"app/auth.py                     118      9    92%\napp/billing.py                  148     97    34%\n" +
		"app/db.py                        61      4    93%\napp/notifications.py             88     19    78%\n" +
		"-------------------------------------------------\nTOTAL                           631    160    75%\n"
	// numbers before words that are no plural are no tally
	itemsHeld(t, "step 0 line 1: internal/parse/file1.go:3: checked value 1 ok\nstep 0 line 2: internal/parse/file2.go:6: checked value 2 ok\n", nil,
		[]string{`measurement "step 0 line 1: internal/parse/file1.go:3: checked value 1 ok"`})
	itemsHeld(t, "Terraform will perform the following actions:\n\nPlan: 2 to add, 1 to change, 7 to destroy.\n",
		[]string{`measurement "Plan: 2 to add, 1 to change, 7 to destroy."`}, nil)
	itemsHeld(t, cover, []string{`measurement "app/billing.py                  148     97    34%"`},
		[]string{`measurement "app/auth.py                     118      9    92%"`})
}

// TestSaidFigures: a figure said in a message is kept with the sentence
// that says it, as said — what it measures, what it is compared with and
// since when are in the words on both sides of it. People who type in
// lower case end sentences too; a sentence longer than the cap gives its
// clauses, consecutive ones together; an amount of money is a figure in
// prose. A sentence the reply keeps as a note is not kept twice.
func TestSaidFigures(t *testing.T) {
	said := func(role, text string) []string {
		msgs := []condense.Message{condense.UserText("Please fix the service.")}
		if role == "user" {
			msgs = append(msgs, condense.UserText(text))
		} else {
			msgs = append(msgs, condense.AssistantText(text))
		}
		return Strings(Extract(msgs, 0))
	}
	for _, tc := range []struct {
		role, text string
		want, not  []string
	}{
		{"assistant", "Switched to a multi-stage build. The final image is now 1.9 GB, down from 3.4 GB — most of it is torch.",
			// kept once: the reply's sentence is a note already
			[]string{`note "The final image is now 1.9 GB, down from 3.4 GB — most of it is torch."`},
			[]string{`measurement "down from 3.4 GB"`, `measurement "The final image is now 1.9 GB, down from 3.4 GB — most of it is torch."`}},
		{"user", "checkout p99 is around 2.3s in grafana since tuesday's deploy (it was ~600ms before). p50 looks the same, like 90ms. can you look at what changed in PR 4412 and 4419? the dashboard is 'Checkout / Latency', panel 3",
			[]string{`measurement "checkout p99 is around 2.3s in grafana since tuesday's deploy (it was ~600ms before)."`}, nil},
		{"user", "finance flagged the invoice: log ingestion + indexing was $14,380 for april out of $19,900 total.",
			[]string{`measurement "finance flagged the invoice: log ingestion + indexing was $14,380 for april out of $19,900 total."`}, nil},
		{"assistant", "After switching the product-detail cache key from `pd:{id}:{locale}:{currency}:{abtest}` to `pd:{id}:{locale}`, and computing the currency conversion after the lookup, the hit ratio went from 0.62 to 0.94 over the last 24h (keyspace_hits 18.4M, keyspace_misses 1.17M).",
			[]string{`measurement "the hit ratio went from 0.62 to 0.94 over the last 24h (keyspace_hits 18.4M, keyspace_misses 1.17M)."`}, nil},
		{"assistant", "Let me check the logs next.", nil, []string{`measurement "Let me check the logs next."`}},
	} {
		held(t, tc.text, said(tc.role, tc.text), tc.want, tc.not)
	}
}
