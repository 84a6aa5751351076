package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestTracebackKeepsProjectFrame: when a Python traceback ends in the
// standard library or an installed package, the project's own deepest
// frame is kept besides the deepest one: that is where its code went wrong.
func TestTracebackKeepsProjectFrame(t *testing.T) {
	out := `Traceback (most recent call last):
  File "/srv/app/invoicely/tasks/export.py", line 88, in settle_pending_rows
    total = compute(rows)
  File "/srv/app/.venv/lib/python3.12/site-packages/money/core.py", line 10, in compute
    raise KeyError(key)
KeyError: 'payment_number_80438'`
	got := Strings(outputItems(out))
	for _, want := range []string{
		`error "KeyError: 'payment_number_80438'"`,
		"error `File \"/srv/app/.venv/lib/python3.12/site-packages/money/core.py\", line 10, in compute`",
		"error `File \"/srv/app/invoicely/tasks/export.py\", line 88, in settle_pending_rows`",
	} {
		if !slices.Contains(got, want) {
			t.Errorf("%s missing from %q", want, got)
		}
	}
	// A traceback that ends in the project's code keeps that frame once.
	own := "Traceback (most recent call last):\n  File \"app/main.py\", line 3, in <module>\n    run()\nValueError: bad"
	n := 0
	for _, s := range Strings(outputItems(own)) {
		if s == "error `File \"app/main.py\", line 3, in <module>`" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the project's frame is listed %d times, want 1", n)
	}
}

// TestCICommands: the commands a CI or build log says it runs are commands.
func TestCICommands(t *testing.T) {
	for text, want := range map[string]string{
		"2026-04-19T13:27:31.4260000Z ##[group]Run mvn -B -pl . test": "mvn -B -pl . test",
		"##[group]Run ./scripts/ci.sh --fast":                         "./scripts/ci.sh --fast",
		"[command]/usr/bin/git fetch --depth=1 origin":                "/usr/bin/git fetch --depth=1 origin",
		"py312: commands[0]> pytest -x tests/billing":                 "pytest -x tests/billing",
		"Run go test -race ./...":                                     "go test -race ./...",
		"Executing: cargo build --release":                            "cargo build --release",
		"##[command]/usr/bin/bash --noprofile --norc /tmp/x.sh":       "/usr/bin/bash --noprofile --norc /tmp/x.sh",
		"py311 run-test: commands[0] | pytest -q tests/api":           "pytest -q tests/api",
		"nox > python -m pytest --cov=app":                            "python -m pytest --cov=app",
		"task: [test] go test -count=1 ./store/...":                   "go test -count=1 ./store/...",
		"> vitest run src/cart.test.ts":                               "vitest run src/cart.test.ts",
		"Step 5/9 : RUN go build -o /out/app ./cmd/app":               "go build -o /out/app ./cmd/app",
		"#8 [build 4/6] RUN npm ci --omit=dev":                        "npm ci --omit=dev",
		"[CI/test] ⭐ Run Main make lint":                              "make lint",
		"[12:01:07] ==> pytest -x tests/api":                          "pytest -x tests/api",
		"build | 2026-04-19 13:27:31 ▶ cargo test -p tern-core":       "cargo test -p tern-core",
		"ci> go vet ./...":                                            "go vet ./...",
		// gh run view --log: job and step names, then the runner's line.
		"unit tests\tRun tests\t2026-04-19T13:27:31.4260000Z ##[group]Run make test-race":   "make test-race",
		"lint\tSet up job\t2026-04-19T13:27:31.4260000Z [command]/usr/bin/git fetch origin": "/usr/bin/git fetch origin",
	} {
		got := Strings(outputItems("log start\n" + text + "\nlog end"))
		it := Item{Kind: KindCommand, Value: want}
		if !slices.Contains(got, it.String()) {
			t.Errorf("%q: %s missing from %q", text, it.String(), got)
		}
	}
	// Prose that starts like one is not a command.
	for _, text := range []string{"Run the tests again after the fix.", "Running: all good", "Executing: step 3 of 5",
		"> shopfront@1.2.0 build", "> Task :app:test", "Step 2/9 : COPY go.mod ./", "task: [lint] all good",
		"INFO go test passed in ./store", "[12:01:07] make sure the tests pass", "12:01:07 the go build finished",
		"test\tRun tests\t2026-04-19T13:27:31.4260000Z ok internal/api/handler.go"} {
		for _, it := range outputItems(text) {
			if it.Kind == KindCommand {
				t.Errorf("%q: read as command %s", text, it.String())
			}
		}
	}
}

// TestRunWithInputIsNotSource: a command that feeds a file to a program
// (mysql < q.sql) prints what the program does, so its figures are kept;
// printing a source file (cat q.sql) still reads as code.
func TestRunWithInputIsNotSource(t *testing.T) {
	out := "(120160 rows affected)\nExecution Time: 6985.326 ms"
	for cmd, want := range map[string]bool{"mysql -e 'source x' < q.sql": true, "psql app < migrate.sql": true, "cat q.sql": false} {
		call := condense.ToolCall("c1", "bash", []byte(`{"command":"`+strings.ReplaceAll(cmd, `"`, `\"`)+`"}`))
		res := condense.ToolResult("c1", false, condense.Text(out))
		got := slices.Contains(Strings(ExtractResult(&call, &res, 3)), `measurement "(120160 rows affected)"`)
		if got != want {
			t.Errorf("%s: figure kept = %v, want %v", cmd, got, want)
		}
	}
}

// TestSentencesKeepEllipsesAndAbbreviations: an ellipsis inside a sentence
// or an abbreviation does not end it, so a decision that names an
// alternative ("SELECT ... FOR UPDATE", "e.g. Redis") stays one item.
func TestSentencesKeepEllipsesAndAbbreviations(t *testing.T) {
	for text, want := range map[string][]string{
		"I'm going with optimistic locking; SELECT ... FOR UPDATE would serialize every claim. Next I test it.": {
			"I'm going with optimistic locking; SELECT ... FOR UPDATE would serialize every claim.", "Next I test it."},
		"Use a cache, e.g. Redis for the sessions. Done.":         {"Use a cache, e.g. Redis for the sessions.", "Done."},
		"Postgres vs. MySQL was the question. We chose Postgres.": {"Postgres vs. MySQL was the question.", "We chose Postgres."},
		"It works. Then it stops.":                                {"It works.", "Then it stops."},
	} {
		if got := sentences(text); !slices.Equal(got, want) {
			t.Errorf("sentences(%q) = %q, want %q", text, got, want)
		}
	}
}

// outputItems extracts the items of a tool result holding text, read
// without its call.
func outputItems(text string) []Item {
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(text)}}
	return ExtractResult(nil, &res, 3)
}

// TestStackFrames: a crash keeps the program's frames it went through, with
// the function named, in Python, Go, Rust, Java and JavaScript; the
// runtime's and frameworks' frames are passed over.
func TestStackFrames(t *testing.T) {
	for out, want := range map[string][]string{
		"Traceback (most recent call last):\n  File \"/usr/lib/python3.12/runpy.py\", line 198, in _run_module_as_main\n  File \"/repo/app/settle.py\", line 88, in settle_orphaned_leases\n    total = compute(x)\n  File \"/repo/app/compute.py\", line 12, in compute\n    return a / b\nZeroDivisionError: division by zero": {
			`File "/repo/app/compute.py", line 12, in compute`, `File "/repo/app/settle.py", line 88, in settle_orphaned_leases`},
		"panic: runtime error: index out of range [7] with length 1\n\ngoroutine 1 [running]:\nmain.(*Store).reapDanglingSlots(0xc000010000)\n\t/repo/internal/store/reap.go:42 +0x1d\nmain.main()\n\t/repo/cmd/app/main.go:10 +0x25\nexit status 2": {
			"main.(*Store).reapDanglingSlots(…) at /repo/internal/store/reap.go:42"},
		"thread 'main' panicked at src/lease.rs:77:9:\ncalled `Option::unwrap()` on a `None` value\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::panicking::panic\n   2: tern_core::lease::drop_legacy_holds\n             at ./src/lease.rs:77:9\n   3: tern::main\n             at ./src/main.rs:5:5": {
			"tern_core::lease::drop_legacy_holds at ./src/lease.rs:77:9"},
		"Exception in thread \"main\" java.lang.IllegalStateException: lease expired\n\tat java.base/java.util.Objects.requireNonNull(Objects.java:233)\n\tat com.fleet.lease.LeaseManager.renewStaleTokens(LeaseManager.java:118)": {
			"at com.fleet.lease.LeaseManager.renewStaleTokens(LeaseManager.java:118)"},
		"TypeError: Cannot read properties of undefined (reading 'x')\n    at Array.map (<anonymous>)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at hydrateShadowEntries (/repo/src/cart.ts:41:13)": {
			"at hydrateShadowEntries (/repo/src/cart.ts:41:13)"},
	} {
		got := Strings(outputItems(out))
		for _, w := range want {
			if it := (Item{Kind: KindError, Value: w}); !slices.Contains(got, it.String()) {
				t.Errorf("%s missing from %q", it.String(), got)
			}
		}
	}
}

// TestTimeoutLines: a timeout is an error line in any log shape, with or
// without a level: syslog, klog, docker compose, ping, an exception named
// for it.
func TestTimeoutLines(t *testing.T) {
	for _, line := range []string{
		"Dec 02 10:00:01 host app[123]: Timeout waiting for lock on table orders (waited 50s)",
		"W1202 10:00:01.552 lease.go:88] renew took too long: 12.3s > 10s",
		"worker-2  | Lock wait timeout exceeded; try restarting transaction",
		"Request timeout for icmp_seq 4",
		"requests.exceptions.ReadTimeout: HTTPSConnectionPool(host='api', port=443): Read timed out.",
		"  • upstream connect error or disconnect/reset before headers. reset reason: connection timeout",
	} {
		found := false
		for _, it := range outputItems("INFO start\n" + line + "\nINFO done") {
			found = found || it.Kind == KindError
		}
		if !found {
			t.Errorf("%q: no error read", line)
		}
	}
}

// TestJestFailure: Jest's "● suite › test" header and what the matcher
// expected and received are errors; systemctl's "● unit.service" header
// and Jest's console blocks are not.
func TestJestFailure(t *testing.T) {
	out := " FAIL  src/refund.test.ts\n  ● RefundService › settles once\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: 1\n    Received: 3\n\n  ● Console\n\n    console.log\n      Expected: nothing\n\nTests:       1 failed, 4 passed, 5 total"
	got := Strings(outputItems(out))
	for _, want := range []string{`error "● RefundService › settles once"`, `error "Expected: 1"`, `error "Received: 3"`} {
		if !slices.Contains(got, want) {
			t.Errorf("%s missing from %q", want, got)
		}
	}
	if slices.Contains(got, `error "● Console"`) || slices.Contains(got, `error "Expected: nothing"`) {
		t.Errorf("a console block is no failure: %q", got)
	}
	unit := "● billing.service - Billing API\n     Loaded: loaded (/etc/systemd/system/billing.service; enabled)\n     Active: active (running) since Mon 2026-11-30 10:02:11 UTC; 2h ago"
	for _, s := range Strings(outputItems(unit)) {
		if strings.HasPrefix(s, "error") {
			t.Errorf("systemctl status of a running unit gave %s", s)
		}
	}
}

// TestLogRecordMessages: a JSON log record's message fields given as an
// object (pino's err, MongoDB's attr) are read; MongoDB's one-letter
// severity is a level; a long error line keeps its message from its
// bracketed level on, and nginx's request context is left out of it, but
// for the request, only when the message is longer than an error's cap.
func TestLogRecordMessages(t *testing.T) {
	ctx := strings.Repeat(", upstream: \"http://10.0.3.8:8000/refunds\"", 20)
	for _, tc := range []struct{ text, want string }{
		{`{"t":{"$date":"2026-11-30T10:02:11.204+00:00"},"s":"E","c":"STORAGE","id":22435,"ctx":"conn12","msg":"WiredTiger error","attr":{"error":28,"message":"No space left on device"}}`,
			`error "WiredTiger error: No space left on device"`},
		{`{"level":50,"time":1701338531104,"msg":"refund failed","err":{"type":"Error","message":"insufficient funds","stack":"Error: insufficient funds"}}`,
			`error "refund failed: insufficient funds"`},
		{`2026/11/30 10:02:11 [error] 31#31: *4821 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.3.7, server: api.acme.io, request: "POST /refunds HTTP/1.1", upstream: "http://10.0.3.8:8000/refunds", host: "api.acme.io"`,
			"error `[error] 31#31: *4821 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.3.7, server: api.acme.io, request: \"POST /refunds HTTP/1.1\", upstream: \"http://10.0.3.8:8000/refunds\", host: \"api.acme.io\"`"},
		{`2026/11/30 10:02:11 [error] 31#31: *4821 upstream timed out (110: Connection timed out) while reading response header from upstream, client: 10.0.3.7, server: api.acme.io, request: "POST /refunds HTTP/1.1"` + ctx,
			"error `[error] 31#31: *4821 upstream timed out (110: Connection timed out) while reading response header from upstream, request: \"POST /refunds HTTP/1.1\"`"},
	} {
		got := Strings(outputItems(tc.text))
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s missing from %q", tc.want, got)
		}
	}
	// an informational MongoDB record is not an error
	for _, s := range Strings(outputItems(`{"t":{"$date":"2026-11-30T10:02:11.104+00:00"},"s":"I","c":"NETWORK","id":22943,"ctx":"listener","msg":"Connection accepted"}`)) {
		if strings.HasPrefix(s, "error") {
			t.Errorf("an I record gave %s", s)
		}
	}
}

// TestStacksOfMoreLanguages: the program's first frame with the functions
// that called it, for Rust backtraces, PHP, Elixir, Dart, Lua and Ruby; the
// runtime's frames are left out.
func TestStacksOfMoreLanguages(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"thread 'main' panicked at src/ledger.rs:88:14:\nboom\nstack backtrace:\n   0: rust_begin_unwind\n   1: core::result::unwrap_failed\n   2: ledger::post_entry\n             at ./src/ledger.rs:88:14\n   3: ledger::run_batch\n             at ./src/ledger.rs:40:9\n   4: billing::main\n             at ./src/main.rs:12:5\n   5: core::ops::function::FnOnce::call_once",
			`error "ledger::post_entry at ./src/ledger.rs:88:14 ← ledger::run_batch"`},
		{"PHP Fatal error:  Uncaught Exception: closed in /app/src/Refund.php:42\nStack trace:\n#0 /app/vendor/acme/lib/Db.php(9): Db->q()\n#1 /app/src/Api.php(17): Refund->settle(4821)\n#2 /app/public/index.php(8): Api->handle()\n#3 {main}",
			`error "#1 /app/src/Api.php(17): Refund->settle(4821) ← Api->handle"`},
		{"** (RuntimeError) closed\n    (billing 0.4.0) lib/billing/refund.ex:42: Billing.Refund.settle/1\n    (billing 0.4.0) lib/billing/worker.ex:12: Billing.Worker.run/0\n    (elixir 1.16.0) lib/enum.ex:987: Enum.each/2",
			`error "(billing 0.4.0) lib/billing/refund.ex:42: Billing.Refund.settle/1 ← Billing.Worker.run/0"`},
		{"Unhandled exception:\nBad state: closed\n#0      Refund.settle (package:billing/refund.dart:42:7)\n#1      Ledger.close (package:billing/ledger.dart:9:3)\n#2      main (file:///src/bin/billing.dart:12:3)",
			`error "#0      Refund.settle (package:billing/refund.dart:42:7) ← Ledger.close"`},
		{"lua: app.lua:42: closed\nstack traceback:\n        [C]: in function 'error'\n        app.lua:42: in function 'settle_refund'\n        app.lua:60: in function 'run'\n        app.lua:70: in main chunk\n        [C]: in ?",
			`error "app.lua:42: in function 'settle_refund' ← run"`},
		{"app/models/refund.rb:42:in `settle_window': closed (RuntimeError)\n\tfrom app/models/refund.rb:12:in `block in settle_all'\n\tfrom /usr/lib/ruby/3.2.0/set.rb:511:in `each'\n\tfrom bin/rails:4:in `<main>'",
			"error \"from app/models/refund.rb:12:in `block in settle_all'\""},
	} {
		got := Strings(outputItems(tc.text))
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s missing from %q", tc.want, got)
		}
	}
	// A line that only mentions "in" after an error is no frame.
	got := Strings(outputItems("Error: lookup failed\nnot found: in cache"))
	for _, s := range got {
		if strings.Contains(s, "←") {
			t.Errorf("a frame was read from %q", got)
		}
	}
}

// TestInfoLinesThatFail: an info line of a log that reports a failure by an
// exception's name or "error:" is an error; one that merely names a
// failure is kept if it is one of the few; a count of failures or a
// success is not.
func TestInfoLinesThatFail(t *testing.T) {
	log := func(msgs ...string) string {
		var b strings.Builder
		for i, m := range msgs {
			fmt.Fprintf(&b, "2026-11-30 10:02:%02d INFO  %s\n", 10+i, m)
		}
		return b.String()
	}
	got := Strings(outputItems(log("starting", "RangeError: Maximum call stack size exceeded", "tick", "checksum mismatch for chunk 7", "tick")))
	for _, want := range []string{"RangeError: Maximum call stack size exceeded", "checksum mismatch for chunk 7"} {
		if !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "error") && strings.Contains(s, want) }) {
			t.Errorf("%s missing from %q", want, got)
		}
	}
	got = Strings(outputItems(log("0 errors, 12 checks passed", "retry succeeded after timeout", "tick")))
	for _, s := range got {
		if strings.HasPrefix(s, "error") {
			t.Errorf("a success or a count gave %s", s)
		}
	}
	// many info lines naming failures are a report, not a failure: only
	// the first few are kept
	var many []string
	for i := range 8 {
		many = append(many, fmt.Sprintf("checksum mismatch for chunk %d", i))
	}
	n := 0
	for _, s := range Strings(outputItems(log(many...))) {
		if strings.HasPrefix(s, "error") {
			n++
		}
	}
	if n > maxFewWarnings {
		t.Errorf("%d info lines kept, want at most %d", n, maxFewWarnings)
	}
}

// TestErrorsNotClaimed: the recognisers of complaints, statuses and
// assertion messages hold back where the line says nothing failed.
func TestErrorsNotClaimed(t *testing.T) {
	for _, tc := range []struct {
		text   string
		failed bool
		want   []string
		not    []string
	}{
		{"sed: -e expression #1, char 38: unterminated `s' command", true, []string{"sed: -e expression #1, char 38: unterminated `s' command"}, nil},
		{"< HTTP/1.1 502 Bad Gateway\n< Server: nginx", false, []string{"< HTTP/1.1 502 Bad Gateway"}, nil},
		{"< HTTP/1.1 200 OK\n< Server: nginx", false, nil, []string{"< HTTP/1.1 200 OK"}},
		{"HTTP/2 404 \ncontent-type: text/html", false, []string{"HTTP/2 404"}, nil},
		{"Expected response status code [201] but received 422.", true, []string{"Expected response status code [201] but received 422."}, nil},
		{"Expected response status code [201] but received 422.", false, nil, []string{"Expected response status code [201] but received 422."}},
		{"expected to see the banner", true, nil, []string{"expected to see the banner"}},
		{"SUMMARY: AddressSanitizer: heap-use-after-free /src/lru.c:64 in lru_get", true, []string{"SUMMARY: AddressSanitizer: heap-use-after-free /src/lru.c:64 in lru_get"}, nil},
		{"SUMMARY: 3 files changed", true, nil, []string{"SUMMARY: 3 files changed"}},
		{"e: file:///app/src/Repo.kt:34:18 Unresolved reference: findByMrn", true, []string{"e: file:///app/src/Repo.kt:34:18 Unresolved reference: findByMrn"}, nil},
		{"e: 2.718", true, nil, []string{"e: 2.718"}},
		{"ActiveRecord::PendingMigrationError", true, []string{"ActiveRecord::PendingMigrationError"}, nil},
		{"ERROR:\n  Code: FailedPrecondition\n  Message: insufficient stock\nnext step", true, []string{"ERROR: Code: FailedPrecondition Message: insufficient stock"}, []string{"next step"}},
		{"Error: Received unexpected error:\n\nsomething else", true, []string{"Error: Received unexpected error:"}, []string{"something else"}},
	} {
		c := call("bash", `{"command":"./run.sh"}`)
		r := resultOf(tc.text, tc.failed)
		var got []string
		for _, it := range ExtractResult(&c, &r, 1) {
			if it.Kind == KindError {
				got = append(got, it.Value)
			}
		}
		holds(t, tc.text, got, tc.want, tc.not)
	}
}

// TestShortenError: a long error loses its location and its advice
// before its middle.
func TestShortenError(t *testing.T) {
	msg := "error: No profiles for 'app.rides.driver' were found: Xcode couldn't find any iOS App Development provisioning profiles matching 'app.rides.driver'."
	long := "/Users/runner/work/rides/Rides.xcodeproj: " + msg + " Automatic signing is disabled and unable to generate a profile. To enable automatic signing, pass -allowProvisioningUpdates to xcodebuild. (in target 'Driver' from project 'Rides')"
	got := shortenError(long, 200)
	if !strings.HasPrefix(got, msg) || len(got) > 200 || !strings.HasSuffix(got, " …") {
		t.Errorf("got %q (%d bytes)", got, len(got))
	}
	one := strings.Repeat("word ", 60) + "(Caused by SSLError('certificate verify failed'))"
	if got := shortenError(one, 200); !strings.HasSuffix(got, "certificate verify failed'))") || len(got) > 200 {
		t.Errorf("one sentence: got %q", got)
	}
}

// TestHCLDiagnosticDetail: Terraform's diagnostic says what is wrong after
// its summary and the code it quotes; that sentence is kept.
func TestHCLDiagnosticDetail(t *testing.T) {
	for _, out := range []string{
		"Initializing modules...\n\nError: Unsupported argument\n\n  on ../../modules/vpc/main.tf line 23, in resource \"aws_subnet\" \"private\":\n  23:   enable_dns64 = true\n\nAn argument named \"enable_dns64\" is not expected here.\n",
		"╷\n│ Error: Unsupported argument\n│\n│   on ../../modules/vpc/main.tf line 23, in resource \"aws_subnet\" \"private\":\n│   23:   enable_dns64 = true\n│\n│ An argument named \"enable_dns64\" is not expected here.\n╵\n",
	} {
		got := Strings(outputItems(out))
		if want := "error `An argument named \"enable_dns64\" is not expected here.`"; !slices.Contains(got, want) {
			t.Errorf("%s missing from %q", want, got)
		}
	}
	// a summary with no location: the next line is not its detail
	if got := Strings(outputItems("Error: Unsupported argument\n\nSee the docs for more.\n")); slices.Contains(got, `error "See the docs for more."`) {
		t.Errorf("a line after a summary without location kept: %q", got)
	}
}

// TestDetailAndErrorViewMessages: a PostgreSQL client tool's "detail:"
// line after its error says what was wrong; PowerShell's error view puts
// the message under the carets, after "| ".
func TestDetailAndErrorViewMessages(t *testing.T) {
	pg := "[01:00:01] backup: dumping app\npg_dump: error: aborting because of server version mismatch\n" +
		"pg_dump: detail: server version: 16.1; pg_dump version: 14.10\n[01:00:01] backup: dump FAILED (exit 1)"
	ps := "VERBOSE: Publishing 14 reports\nCopy-Item: C:\\deploy\\Publish-Reports.ps1:58\nLine |\n" +
		"  58 |      Copy-Item -Path $report.FullName -Destination $Target -Force\n" +
		"     |                                                    ~~~~~~~\n" +
		"     | Cannot bind argument to parameter 'Destination' because it is null.\nVERBOSE: Published Inventory.rdl"
	for out, want := range map[string]string{
		pg: `error "pg_dump: detail: server version: 16.1; pg_dump version: 14.10"`,
		ps: `error "| Cannot bind argument to parameter 'Destination' because it is null."`,
	} {
		if got := Strings(outputItems(out)); !slices.Contains(got, want) {
			t.Errorf("%s missing from %q", want, got)
		}
	}
	if got := Strings(outputItems("NOTICE:  table created\npg_restore: detail: 3 objects restored")); slices.Contains(got, `error "pg_restore: detail: 3 objects restored"`) {
		t.Errorf("a detail after no error was kept: %q", got)
	}
}

// TestPodStatusReason: a container status printed as JSON says why it
// died in its "reason" member.
func TestPodStatusReason(t *testing.T) {
	out := "{\n  \"lastState\": {\n    \"terminated\": {\n      \"exitCode\": 137,\n      \"reason\": \"OOMKilled\",\n      \"startedAt\": \"2024-03-14T06:11:02Z\"\n    }\n  },\n  \"name\": \"indexer\",\n  \"ready\": false\n}"
	c := unseenCase{Category: "error", Source: "tool", Command: "kubectl get pod x -o jsonpath='{.status.containerStatuses[0]}' | jq", Output: out, Probe: `"reason": "OOMKilled"`}
	if !unseenKept(c) {
		t.Errorf("the reason was not kept: %q", Strings(unseenItems(c)))
	}
	if got := Strings(outputItems("{\n  \"reason\": \"Completed\",\n  \"message\": \"\"\n}")); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "error") }) {
		t.Errorf("a completed container gave an error: %q", got)
	}
}

// TestIndentedTraceback: a traceback printed indented (pytest's warnings
// summary, a log) ends at its exception line indented as its header is.
func TestIndentedTraceback(t *testing.T) {
	out := "tests/test_feed.py::test_reconnect\n  /venv/_pytest/threadexception.py:82: PytestUnhandledThreadExceptionWarning: Exception in thread hb\n  \n" +
		"  Traceback (most recent call last):\n    File \"/usr/lib/python3.11/threading.py\", line 1045, in _bootstrap_inner\n      self.run()\n" +
		"    File \"/home/dev/ticker/feed.py\", line 143, in _heartbeat_loop\n      self._sock.send(PING)\n  BrokenPipeError: [Errno 32] Broken pipe\n  \n" +
		"8 passed, 3 warnings in 6.12s"
	if got := Strings(outputItems(out)); !slices.Contains(got, `error "BrokenPipeError: [Errno 32] Broken pipe"`) {
		t.Errorf("the exception line is missing from %q", got)
	}
}

// TestNodeGypInsideNpm: node-gyp's own failure, printed inside npm's, is
// the error; its stack frames and "not ok" are not.
func TestNodeGypInsideNpm(t *testing.T) {
	out := "npm ERR! gyp ERR! find Python - \"python3\" is not in PATH or produced an error\n" +
		"npm ERR! gyp ERR! configure error \nnpm ERR! gyp ERR! stack Error: Could not find any Python installation to use\n" +
		"npm ERR! gyp ERR! stack     at PythonFinder.fail (/usr/lib/node-gyp/lib/find-python.js:306:11)\nnpm ERR! gyp ERR! not ok "
	got := Strings(outputItems(out))
	if !slices.Contains(got, `error "npm ERR! gyp ERR! stack Error: Could not find any Python installation to use"`) {
		t.Errorf("node-gyp's error is missing from %q", got)
	}
	if slices.Contains(got, `error "npm ERR! gyp ERR! not ok"`) {
		t.Errorf("\"not ok\" was kept: %q", got)
	}
}

// TestAnnouncedErrors: the line that gives the message of an error the
// line before only announced is kept: a .NET inner exception after its
// HRESULT, an uncaught C++ exception's what(), GHC's first point under a
// diagnostic that ends with its code.
func TestAnnouncedErrors(t *testing.T) {
	for _, tc := range []struct{ out, want string }{
		{"      System.InvalidOperationException: An exception has been raised that is likely due to a transient failure.\n" +
			"       ---> Npgsql.PostgresException (0x80004005): 28P01: password authentication failed for user \"billing\"\n" +
			"         at Npgsql.Internal.NpgsqlConnector.Open()\n",
			"error `---> Npgsql.PostgresException (0x80004005): 28P01: password authentication failed for user \"billing\"`"},
		{"[router] rebuilding tables\nterminate called after throwing an instance of 'std::out_of_range'\n" +
			"  what():  vector::_M_range_check: __n (which is 8) >= this->size() (which is 8)\nAborted (core dumped)\n",
			`error "what():  vector::_M_range_check: __n (which is 8) >= this->size() (which is 8)"`},
		{"src/Shop/Cart.hs:41:9: error: [GHC-39999]\n    • No instance for ‘Ord ItemId’ arising from a use of ‘Map.insert’\n    • In the expression: Map.insert k v m\n",
			`error "• No instance for ‘Ord ItemId’ arising from a use of ‘Map.insert’"`},
	} {
		res := condense.Part{Type: condense.PartToolResult, CallID: "a", IsError: true, Content: []condense.Part{condense.Text(tc.out)}}
		if got := Strings(ExtractResult(nil, &res, 3)); !slices.Contains(got, tc.want) {
			t.Errorf("%s missing from %q", tc.want, got)
		}
	}
}
