package ledger

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// How a command ended, for the tests.
const (
	endFailed  = "failed"  // the result is marked as an error
	endExit1   = "exit 1"  // the output reports exit status 1
	endPassed  = "passed"  // the output reports exit status 0
	endUnknown = "unknown" // no call: nothing is known
)

// errorsOf runs out through ExtractResult as the output of a shell command
// that ended as end says, and returns the values of its error items.
func errorsOf(t *testing.T, out, end string) []string {
	t.Helper()
	in, _ := json.Marshal(map[string]string{"command": "./run.sh"})
	call := condense.ToolCall("call_1", "Bash", in)
	var res condense.Part
	switch end {
	case endFailed:
		res = resultOf(out, true)
	case endExit1:
		res = resultOf(out+"\nProcess exited with code 1", false)
	case endPassed:
		res = resultOf(out+"\nProcess exited with code 0", false)
	case endUnknown:
		res = resultOf(out, false)
		return errorValues(ExtractResult(nil, &res, 3))
	default:
		t.Fatalf("unknown end %q", end)
	}
	items := ExtractResult(&call, &res, 3)
	var cmd *Item
	for i := range items {
		if items[i].Kind == KindCommand {
			cmd = &items[i]
		}
	}
	if cmd == nil {
		t.Fatalf("no command item in %v", Strings(items))
	}
	return errorValues(items)
}

func errorValues(items []Item) []string { return values(items, KindError) }

// TestErrorLinesByEcosystem reads the output of failing commands of many
// ecosystems: the decisive line of each failure is kept, the lines around
// it (progress, passing tests, frames) are not. failed is what a failing
// command keeps; passed what the same output keeps when the command
// exited 0 (the lines with an error's shape only).
func TestErrorLinesByEcosystem(t *testing.T) {
	cases := []struct {
		name   string
		out    string
		failed []string
		passed []string
		// unknown, when set, is what is read without a call (no exit
		// status known); else it is passed.
		unknown []string
	}{
		{
			name: "go driver error among other lines",
			out: `2026/04/02 10:00:01 migrating orders
2026/04/02 10:00:01 applying 0007_backfill.sql
pq: duplicate key value violates unique constraint "orders_pkey"
exit status 1`,
			failed: []string{`pq: duplicate key value violates unique constraint "orders_pkey"`},
			passed: []string{`pq: duplicate key value violates unique constraint "orders_pkey"`},
		},
		{
			name: "go runtime messages without a prefix",
			out: `waiting for the leader election
context deadline exceeded while waiting for lease "sched-leader"
handler crashed: index out of range [7] with length 1 in ParseHeader
read tcp 10.0.3.2:51234->10.0.9.7:5432: i/o timeout`,
			failed: []string{
				`context deadline exceeded while waiting for lease "sched-leader"`,
				"handler crashed: index out of range [7] with length 1 in ParseHeader",
				"read tcp 10.0.3.2:51234->10.0.9.7:5432: i/o timeout",
			},
			passed: []string{
				`context deadline exceeded while waiting for lease "sched-leader"`,
				"handler crashed: index out of range [7] with length 1 in ParseHeader",
			},
		},
		{
			name: "go fatal error and signal",
			out: `fatal error: all goroutines are asleep - deadlock!

goroutine 1 [chan receive]:
main.main()
	/home/dev/app/main.go:14 +0x2c
exit status 2`,
			failed: []string{"fatal error: all goroutines are asleep - deadlock!"},
			passed: []string{"fatal error: all goroutines are asleep - deadlock!"},
		},
		{
			name: "python traceback in a log tail",
			out: `2026-04-02 10:00:00,101 INFO worker started
2026-04-02 10:00:01,552 ERROR celery.worker Task orders.sync raised: Traceback (most recent call last):
  File "/app/orders/tasks.py", line 41, in sync
    db.save(order)
  File "/app/orders/db.py", line 12, in save
    cur.execute(INSERT, row)
psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "orders_pkey"
DETAIL:  Key (id)=(42) already exists.
2026-04-02 10:00:02,003 INFO worker stopping`,
			failed: []string{
				`psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "orders_pkey"`,
				`File "/app/orders/db.py", line 12, in save`,
				`File "/app/orders/tasks.py", line 41, in sync`,
				"DETAIL:  Key (id)=(42) already exists.",
			},
			passed: []string{
				`psycopg2.errors.UniqueViolation: duplicate key value violates unique constraint "orders_pkey"`,
				`File "/app/orders/db.py", line 12, in save`,
				`File "/app/orders/tasks.py", line 41, in sync`,
				"DETAIL:  Key (id)=(42) already exists.",
			},
		},
		{
			name: "python logging default format",
			out: `INFO:root:loading config
ERROR:root:could not connect to broker at amqp://rabbit:5672
WARNING:urllib3.connectionpool:Retrying (Retry(total=2)) after connection broken`,
			failed: []string{
				"ERROR:root:could not connect to broker at amqp://rabbit:5672",
				"WARNING:urllib3.connectionpool:Retrying (Retry(total=2)) after connection broken",
			},
			// A warning with no time stamp is a tool's, not a log's: kept
			// only when the command failed.
			passed: []string{"ERROR:root:could not connect to broker at amqp://rabbit:5672"},
		},
		{
			name: "node errno and unhandled rejection",
			out: `> api@1.0.0 start
> node server.js

listening on :3000
Error: connect ECONNREFUSED 127.0.0.1:5432
    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {
  errno: -111,
  code: 'ECONNREFUSED',
  syscall: 'connect'
}`,
			failed: []string{
				"Error: connect ECONNREFUSED 127.0.0.1:5432",
				"at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {",
			},
			passed: []string{
				"Error: connect ECONNREFUSED 127.0.0.1:5432",
				"at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16) {",
			},
		},
		{
			name: "bare errno in a line",
			out: `retrying database (attempt 3/5)
ECONNREFUSED 127.0.0.1:5432
giving up`,
			failed: []string{"ECONNREFUSED 127.0.0.1:5432"},
			passed: []string{"ECONNREFUSED 127.0.0.1:5432"},
		},
		{
			name: "rust panic and overflow",
			out: `   Compiling tern v0.3.1 (/work/tern)
    Finished dev [unoptimized + debuginfo] target(s) in 2.1s
     Running target/debug/tern
thread 'main' panicked at src/lex.rs:88:17:
attempt to subtract with overflow
note: run with ` + "`RUST_BACKTRACE=1`" + ` environment variable to display a backtrace`,
			failed: []string{"thread 'main' panicked at src/lex.rs:88:17: attempt to subtract with overflow"},
			passed: []string{"thread 'main' panicked at src/lex.rs:88:17: attempt to subtract with overflow"},
		},
		{
			name: "rust unwrap in a log",
			out: `[2026-04-04T08:28:44Z INFO  tern::db] pool ready
[2026-04-04T08:28:51Z ERROR tern::expr] called ` + "`Option::unwrap()` on a `None` value" + ` (looking up prec 34708)
[2026-04-04T08:28:58Z WARN  tern::db] slow query took=812ms`,
			failed: []string{
				"[2026-04-04T08:28:51Z ERROR tern::expr] called `Option::unwrap()` on a `None` value (looking up prec 34708)",
				"[2026-04-04T08:28:58Z WARN  tern::db] slow query took=812ms",
			},
			passed: []string{
				"[2026-04-04T08:28:51Z ERROR tern::expr] called `Option::unwrap()` on a `None` value (looking up prec 34708)",
				"[2026-04-04T08:28:58Z WARN  tern::db] slow query took=812ms",
			},
		},
		{
			name: "java caused by chain",
			out: `[INFO] Running com.acme.fleet.RepoTest
org.springframework.dao.DataIntegrityViolationException: could not execute statement
	at org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:276)
	at com.acme.fleet.Repo.save(Repo.java:40)
Caused by: java.sql.SQLException: Duplicate entry '42' for key 'PRIMARY'
	at com.mysql.cj.jdbc.ClientPreparedStatement.execute(ClientPreparedStatement.java:370)
	... 12 more`,
			failed: []string{
				"org.springframework.dao.DataIntegrityViolationException: could not execute statement",
				"at org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:276) ← Repo.save",
				"Caused by: java.sql.SQLException: Duplicate entry '42' for key 'PRIMARY'",
				"at com.mysql.cj.jdbc.ClientPreparedStatement.execute(ClientPreparedStatement.java:370)",
			},
			passed: []string{
				"org.springframework.dao.DataIntegrityViolationException: could not execute statement",
				"at org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:276) ← Repo.save",
				"Caused by: java.sql.SQLException: Duplicate entry '42' for key 'PRIMARY'",
				"at com.mysql.cj.jdbc.ClientPreparedStatement.execute(ClientPreparedStatement.java:370)",
			},
		},
		{
			name: "spring boot log line too long to keep whole",
			out: `2026-04-09 08:17:39.668  INFO 1 --- [main] c.a.f.Application : Started Application in 3.2 seconds
2026-04-09 08:17:40.102 ERROR 1 --- [nio-8080-exec-7] c.a.f.EtaEstimator : java.util.concurrent.RejectedExecutionException: Task 27916 rejected from java.util.concurrent.ThreadPoolExecutor[Running, pool size = 190], dispatch=221`,
			failed: []string{"java.util.concurrent.RejectedExecutionException: Task 27916 rejected from java.util.concurrent.ThreadPoolExecutor[Running, pool size = 190], dispatch=221"},
			passed: []string{"java.util.concurrent.RejectedExecutionException: Task 27916 rejected from java.util.concurrent.ThreadPoolExecutor[Running, pool size = 190], dispatch=221"},
		},
		{
			name: "mysql client",
			out: `mysql: [Warning] Using a password on the command line interface can be insecure.
ERROR 1062 (23000) at line 12: Duplicate entry 'ORD-42' for key 'orders.PRIMARY'`,
			failed: []string{
				"ERROR 1062 (23000) at line 12: Duplicate entry 'ORD-42' for key 'orders.PRIMARY'",
				// A warning fills the room left, after the errors.
				"mysql: [Warning] Using a password on the command line interface can be insecure.",
			},
			passed: []string{"ERROR 1062 (23000) at line 12: Duplicate entry 'ORD-42' for key 'orders.PRIMARY'"},
		},
		{
			name: "postgres server and psql",
			out: `psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"
2026-04-02 10:00:00.123 UTC [61] FATAL:  password authentication failed for user "app"
2026-04-02 10:00:00.123 UTC [61] DETAIL:  Connection matched pg_hba.conf line 99
ERROR:  relation "orders" does not exist at character 15`,
			failed: []string{
				`psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"`,
				`2026-04-02 10:00:00.123 UTC [61] FATAL:  password authentication failed for user "app"`,
				`ERROR:  relation "orders" does not exist at character 15`,
				"2026-04-02 10:00:00.123 UTC [61] DETAIL:  Connection matched pg_hba.conf line 99",
			},
			passed: []string{
				`psql: error: connection to server at "db" (10.0.0.5), port 5432 failed: FATAL:  password authentication failed for user "app"`,
				`2026-04-02 10:00:00.123 UTC [61] FATAL:  password authentication failed for user "app"`,
				`ERROR:  relation "orders" does not exist at character 15`,
				"2026-04-02 10:00:00.123 UTC [61] DETAIL:  Connection matched pg_hba.conf line 99",
			},
		},
		{
			name: "sqlite",
			out: `sqlite> INSERT INTO users VALUES (1, 'a');
Runtime error near line 3: UNIQUE constraint failed: users.id (19)
Parse error near line 4: no such table: user`,
			failed: []string{
				"Runtime error near line 3: UNIQUE constraint failed: users.id (19)",
				"Parse error near line 4: no such table: user",
			},
			passed: []string{
				"Runtime error near line 3: UNIQUE constraint failed: users.id (19)",
			},
		},
		{
			name: "redis",
			out: `127.0.0.1:6379> SET k v EX
(error) ERR syntax error
127.0.0.1:6379> GET session:1
(error) WRONGTYPE Operation against a key holding the wrong kind of value
Could not connect to Redis at 127.0.0.1:6380: Connection refused`,
			failed: []string{
				"(error) ERR syntax error",
				"(error) WRONGTYPE Operation against a key holding the wrong kind of value",
				"Could not connect to Redis at 127.0.0.1:6380: Connection refused",
			},
			// redis-cli exits 0 after an error reply: its "(error)" level says it.
			passed: []string{
				"(error) ERR syntax error",
				"(error) WRONGTYPE Operation against a key holding the wrong kind of value",
				"Could not connect to Redis at 127.0.0.1:6380: Connection refused",
			},
		},
		{
			name: "shell",
			out: `+ ./scripts/deploy.sh staging
./scripts/deploy.sh: line 12: kubectx: command not found
cat: /etc/app/config.yaml: No such file or directory
mkdir: cannot create directory '/var/lib/app': Permission denied
Segmentation fault (core dumped)
Killed`,
			failed: []string{
				"./scripts/deploy.sh: line 12: kubectx: command not found",
				"cat: /etc/app/config.yaml: No such file or directory",
				"mkdir: cannot create directory '/var/lib/app': Permission denied",
				"Segmentation fault (core dumped)",
				"Killed",
			},
			passed: []string{
				"./scripts/deploy.sh: line 12: kubectx: command not found",
				"cat: /etc/app/config.yaml: No such file or directory",
				"mkdir: cannot create directory '/var/lib/app': Permission denied",
				"Segmentation fault (core dumped)",
			},
			// a bare "Killed" is the shell's report of a signal unless the
			// command is known to have passed
			unknown: []string{
				"./scripts/deploy.sh: line 12: kubectx: command not found",
				"cat: /etc/app/config.yaml: No such file or directory",
				"mkdir: cannot create directory '/var/lib/app': Permission denied",
				"Segmentation fault (core dumped)",
				"Killed",
			},
		},
		{
			name: "a C program's message",
			out: `nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)
bind() failed: Address already in use`,
			failed: []string{
				"nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)",
				"bind() failed: Address already in use",
			},
			passed: []string{
				"nginx: [emerg] bind() to 0.0.0.0:80 failed (98: Address already in use)",
				"bind() failed: Address already in use",
			},
		},
		{
			name: "containers and kubernetes",
			out: `NAME                     READY   STATUS      RESTARTS   AGE
api-7d9f8b6c5-x2k4q      0/1     OOMKilled   3          5m
Error from server (NotFound): deployments.apps "worker" not found
  Warning  BackOff    2m (x12 over 5m)  kubelet  Back-off restarting failed container api in pod api-7d9f8b6c5-x2k4q
docker: Error response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:8080 failed: port is already allocated.`,
			failed: []string{
				"api-7d9f8b6c5-x2k4q      0/1     OOMKilled   3          5m",
				`Error from server (NotFound): deployments.apps "worker" not found`,
				"Warning  BackOff    2m (x12 over 5m)  kubelet  Back-off restarting failed container api in pod api-7d9f8b6c5-x2k4q",
				"docker: Error response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:8080 failed: port is already allocated.",
			},
			passed: []string{
				"api-7d9f8b6c5-x2k4q      0/1     OOMKilled   3          5m",
				`Error from server (NotFound): deployments.apps "worker" not found`,
				"Warning  BackOff    2m (x12 over 5m)  kubelet  Back-off restarting failed container api in pod api-7d9f8b6c5-x2k4q",
				"docker: Error response from daemon: driver failed programming external connectivity: Bind for 0.0.0.0:8080 failed: port is already allocated.",
			},
		},
		{
			name: "http failures",
			out: `HTTP/1.1 503 Service Unavailable
Content-Type: text/plain
upstream connect error or disconnect/reset before headers
10.0.0.1 - - [02/Apr/2026:10:00:00 +0000] "GET /health HTTP/1.1" 200 2
10.0.0.1 - - [02/Apr/2026:10:00:01 +0000] "POST /orders HTTP/1.1" 500 61
request failed status=502 path=/orders`,
			failed: []string{
				"HTTP/1.1 503 Service Unavailable",
				`10.0.0.1 - - [02/Apr/2026:10:00:01 +0000] "POST /orders HTTP/1.1" 500 61`,
				"request failed status=502 path=/orders",
				// Failure words alone: in the room left, after the rest.
				"upstream connect error or disconnect/reset before headers",
			},
			passed: []string{
				"HTTP/1.1 503 Service Unavailable",
				`10.0.0.1 - - [02/Apr/2026:10:00:01 +0000] "POST /orders HTTP/1.1" 500 61`,
				"request failed status=502 path=/orders",
			},
		},
		{
			name: "structured logs of every flavour",
			out: `{"level":"info","msg":"request served","status":200}
{"level":"error","msg":"charge failed","error":"card_declined"}
{"level":"ERROR","message":"ledger write failed"}
{"level":"warn","msg":"retrying publish","attempt":3}
{"severity":"ERROR","message":"Cloud SQL connection lost"}
{"level":50,"msg":"pino says no"}
{"level":"error","msg":"refund rejected","error":{"code":"card_expired"},"err":"issuer said no"}
t=2026-04-02T10:00:00Z lvl=eror msg="sync aborted" err="lease lost"
time=2026-04-02T10:00:01Z level=error msg="upload failed" err="EOF"
time=2026-04-02T10:00:02Z level=warn msg="queue depth high" depth=9000
time=2026-04-02T10:00:03Z level=info msg="shutdown complete"`,
			failed: []string{
				"charge failed: card_declined",
				"ledger write failed",
				"Cloud SQL connection lost",
				"pino says no",
				"refund rejected: issuer said no",
				`t=2026-04-02T10:00:00Z lvl=eror msg="sync aborted" err="lease lost"`,
				`time=2026-04-02T10:00:01Z level=error msg="upload failed" err="EOF"`,
				"retrying publish",
				"queue depth high",
			},
			passed: []string{
				"charge failed: card_declined",
				"ledger write failed",
				"Cloud SQL connection lost",
				"pino says no",
				"refund rejected: issuer said no",
				`t=2026-04-02T10:00:00Z lvl=eror msg="sync aborted" err="lease lost"`,
				`time=2026-04-02T10:00:01Z level=error msg="upload failed" err="EOF"`,
				"retrying publish",
				"queue depth high",
			},
		},
		{
			name: "failure words only count when the command failed",
			out: `==> building assets
unable to resolve optional peer "canvas", skipping
Build step 'publish' marked build as failure`,
			failed: []string{
				`unable to resolve optional peer "canvas", skipping`,
				"Build step 'publish' marked build as failure",
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, end := range []string{endFailed, endExit1} {
				if got := errorsOf(t, tc.out, end); !slices.Equal(got, tc.failed) {
					t.Errorf("%s:\n got  %q\n want %q", end, got, tc.failed)
				}
			}
			if got := errorsOf(t, tc.out, endPassed); !slices.Equal(got, tc.passed) {
				t.Errorf("exit 0:\n got  %q\n want %q", got, tc.passed)
			}
			// Without a call nothing is known of the status: the output is
			// read as a passing command's, but for a signal's report.
			want := tc.passed
			if tc.unknown != nil {
				want = tc.unknown
			}
			if got := errorsOf(t, tc.out, endUnknown); !slices.Equal(got, want) {
				t.Errorf("no call:\n got  %q\n want %q", got, want)
			}
		})
	}
}

// TestErrorLinesNotErrors holds lines that use failure words without
// reporting a failure: they are no errors whether the command failed or
// not.
func TestErrorLinesNotErrors(t *testing.T) {
	lines := []string{
		"ok  \tgithub.com/acme/app/pkg/errors\t0.1s",
		"tests/test_api.py::test_error_handling PASSED                     [ 40%]",
		"test store::tests::rejects_invalid_input ... ok",
		"  ✓ returns 404 when the order is not found (3 ms)",
		"--- PASS: TestTimeoutIsRetried (0.00s)",
		"Found 0 errors in 12 files",
		"0 errors, 2 warnings",
		"errors: 0",
		"failures=0 skipped=1",
		"no errors found",
		"eslint --no-error-on-unmatched-pattern src/",
		"Compiling thiserror v1.0.58",
		"Compiling error-chain v0.12.4",
		"Downloaded anyhow-1.0.81 (failure-compat)",
		"Tests: 3 failed, 120 passed, 123 total",
		"2026-04-02 10:00:00 INFO retried after timeout, request ok",
		`{"level":"debug","msg":"cache miss, fetching","error":null}`,
		"33\treturn false, errors.New(\"worker: deadline exceeded\")",
		"  12→        raise ValueError(\"invalid order\")",
		"src/retry.go:41:\treturn ctx.Err() // deadline exceeded",
		"-    if err != nil { panic(err) }",
		"+    raise TimeoutError(\"upstream timed out\")",
		"    at Object.<anonymous> (/app/test/errors.test.js:12:5)",
		`  File "/app/orders/errors.py", line 3, in <module>`,
		"FAIL",
		`+    log.Printf("ERROR: %v", err)`,
		`-	logger.error("failed to connect")`,
		`fmt.Fprintln(os.Stderr, "FATAL: cannot start")`,
		`41:            throw new IllegalStateException("lease: connection reset by peer");`,
		"⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯",
		"note: the error handling was rewritten in 2.0",
		"help: consider borrowing here: `&x`",
	}
	for _, l := range lines {
		for _, end := range []string{endFailed, endPassed, endUnknown} {
			if got := errorsOf(t, l, end); len(got) != 0 {
				t.Errorf("%s, %s: got errors %q", l, end, got)
			}
		}
	}
}

// TestErrorLinesCap checks that the broad recogniser keeps the per-result
// cap: a failing command's flood of lines with failure words fills only
// the room the decisive lines leave.
func TestErrorLinesCap(t *testing.T) {
	var b strings.Builder
	for i := range 200 {
		fmt.Fprintf(&b, "retrying request %d after timeout\n", i)
		if i == 120 {
			b.WriteString("pq: duplicate key value violates unique constraint \"orders_pkey\"\n")
		}
	}
	got := errorsOf(t, b.String(), endFailed)
	if len(got) != DefaultMaxPerKind {
		t.Errorf("%d errors, want the cap, %d: %q", len(got), DefaultMaxPerKind, got)
	}
	if !slices.Contains(got, `pq: duplicate key value violates unique constraint "orders_pkey"`) {
		t.Errorf("the decisive line was crowded out: %q", got)
	}
	if got := errorsOf(t, b.String(), endPassed); !slices.Equal(got, []string{`pq: duplicate key value violates unique constraint "orders_pkey"`}) {
		t.Errorf("exit 0: got %q", got)
	}
}

// TestCodexWrappedOutput reads a shell result as Codex records it, a JSON
// object holding the output and its metadata: the lines inside are read,
// with the exit code the metadata gives.
func TestCodexWrappedOutput(t *testing.T) {
	inner := "running migrations\npq: could not serialize access due to concurrent update\nretrying after timeout\n"
	wrapped, _ := json.Marshal(map[string]any{"output": inner, "metadata": map[string]any{"exit_code": 1, "duration_seconds": 0.8}})
	in, _ := json.Marshal(map[string]string{"command": "make migrate"})
	call := condense.ToolCall("call_1", "shell", in)
	res := resultOf(string(wrapped), false)
	got := Strings(ExtractResult(&call, &res, 0))
	want := []string{
		`command "make migrate" (exit 1)`,
		`error "pq: could not serialize access due to concurrent update"`,
		`error "retrying after timeout"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// An object with other fields is left as it is: it is data, not a
	// wrapper.
	data := `{"output": "x failed: timeout", "items": [1, 2]}`
	if got, exit := unwrapOutput(data); got != data || exit != nil {
		t.Errorf("unwrapOutput(%s) = %q, %v", data, got, exit)
	}
}

// TestErrorLookalikes: lines shaped like the new error forms that report
// nothing failing are not errors.
func TestErrorLookalikes(t *testing.T) {
	for _, out := range []string{
		"Killed 3 stale processes",
		"Hangup handler installed",
		"Terminated workers: 4",
		"Checks failed: none, all green",
		"warning: x.c:12: unused variable",
		"Build failed: 0 errors",
		`{"errors": 0, "ok": true}`,
		`{"error": "none", "status": 200}`,
		"worker 1 done\nAll jobs finished successfully.\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:10 +0x1d\n\ngoroutine 7 [chan receive]:\nmain.worker()\n\t/app/main.go:22 +0x65",
	} {
		if got := errorsOf(t, out, endUnknown); len(got) > 0 {
			t.Errorf("%q: errors %q, want none", out, got)
		}
	}
	m := condense.AssistantText("I'll add a KeyError handler and catch ValueError, then raise NotImplementedError for the rest.")
	for _, it := range ExtractMessage(&m, 1) {
		if it.Kind == KindError {
			t.Errorf("error %q from code being written", it.Value)
		}
	}
}

// TestFailedCommandsLastWords: a command that failed saying nothing any
// recogniser knows keeps its last line (before the exit status), unless
// it said more than one line of nothing: a passing command's last line,
// a one-line output and code are left alone.
func TestFailedCommandsLastWords(t *testing.T) {
	out := "Loading shards...\nshard 1 ok\nshard 7 went sideways at page 4411"
	want := []string{"shard 7 went sideways at page 4411"}
	for _, end := range []string{endFailed, endExit1} {
		if got := errorsOf(t, out, end); !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", end, got, want)
		}
	}
	for _, end := range []string{endPassed, endUnknown} {
		if got := errorsOf(t, out, end); len(got) != 0 {
			t.Errorf("%s: got %q, want none", end, got)
		}
	}
	for _, out := range []string{
		"Refusing to start twice",                    // one line
		"building\n+    return shard.Sideways(page)", // a diff's line
		"building\ndone",                             // too short to say anything
	} {
		if got := errorsOf(t, out, endFailed); len(got) != 0 {
			t.Errorf("%q: got %q, want none", out, got)
		}
	}
	// A recognised error is the failure's own line: no last line is added.
	if got := errorsOf(t, "connecting\nError: connect ECONNREFUSED 127.0.0.1:5432\nretry later please", endFailed); !slices.Equal(got, []string{"Error: connect ECONNREFUSED 127.0.0.1:5432"}) {
		t.Errorf("got %q", got)
	}
}

// TestFewWarningsKept: in a passing command's log, the one warning among
// routine lines is kept; when warnings are many, only those that read as
// failures are.
func TestFewWarningsKept(t *testing.T) {
	few := "2026-11-30 10:02:11 INFO consumer started\n2026-11-30 10:02:12 WARN lag on partition settle-events-7 above 5000\n2026-11-30 10:02:13 INFO consumer caught up"
	if got := errorsOf(t, few, endPassed); !slices.Equal(got, []string{"2026-11-30 10:02:12 WARN lag on partition settle-events-7 above 5000"}) {
		t.Errorf("few: got %q", got)
	}
	var many strings.Builder
	for i := range 8 {
		fmt.Fprintf(&many, "2026-11-30 10:02:%02d WARN deprecated option --legacy-%d used\n", i, i)
	}
	many.WriteString("2026-11-30 10:02:59 WARN connection refused by replica-2")
	if got := errorsOf(t, many.String(), endPassed); !slices.Equal(got, []string{"2026-11-30 10:02:59 WARN connection refused by replica-2"}) {
		t.Errorf("many: got %q", got)
	}
}

// TestRoutineLinesStayRoutine: a reviewer's cases. A tool's own warnings
// after a passing run, the last row of a failed command's listing, a
// summary line and a DETAIL after a NOTICE are not errors.
func TestRoutineLinesStayRoutine(t *testing.T) {
	for _, out := range []string{
		"npm WARN deprecated inflight@1.0.6: This module is not supported, and leaks memory.\nadded 312 packages in 9s",
		"WARNING: Running pip as the 'root' user can result in broken permissions.\nSuccessfully installed requests-2.32.3",
		"Warning: Argument is deprecated\n\nApply complete! Resources: 0 added, 1 changed, 0 destroyed.",
		"warning: unused variable: `x`\nwarning: `app` (bin \"app\") generated 1 warning\n    Finished dev [unoptimized] target(s) in 2.1s",
		"psql:migrate.sql:3: NOTICE:  drop cascades to 2 other objects\nDETAIL:  drop cascades to view order_totals\nDROP TABLE",
	} {
		if got := errorsOf(t, out, endPassed); len(got) != 0 {
			t.Errorf("passed %q: got %q", out, got)
		}
	}
	for _, out := range []string{
		"Package  Current  Wanted  Latest  Location\nlodash   4.17.20  4.17.21 4.17.21 node_modules/lodash\nexpress  4.18.1   4.19.2  4.19.2  node_modules/express",
		"Refreshing state...\n\nPlan: 0 to add, 1 to change, 0 to destroy.",
		"listening on :8080\n10:02:11 GET /healthz 200 1.2ms\n10:02:12 GET /healthz 200 1.1ms",
		"=== RUN   TestRoundTrip\n--- PASS: TestRoundTrip (0.00s)\nok  \tgithub.com/acme/wire/internal/codec\t4.113s",
	} {
		if got := errorsOf(t, out, endFailed); len(got) != 0 {
			t.Errorf("failed %q: got %q", out, got)
		}
	}
}

// TestOwnFrameWhereverPrinted checks that the frame naming the program's
// own function is kept, with the program's functions that called it,
// wherever the stack is printed: under a Go module path, after an error
// line no recogniser starts frames for, under a warning, inside a JSON or
// logfmt log record, as logging's stack_info, and in a Python traceback
// whose header a log's tail cut off. Library and runtime frames are passed
// over.
func TestOwnFrameWhereverPrinted(t *testing.T) {
	cases := []struct {
		name, out, end, want string
	}{
		{"go module path", "panic: runtime error: invalid memory address or nil pointer dereference\n\ngoroutine 1 [running]:\n" +
			"github.com/acme/billing/internal/ledger.(*Book).settleInvoice(0x0, {0xc0001a2000, 0x12})\n\t/src/internal/ledger/book.go:142 +0x3c\nmain.main()\n\t/src/cmd/billing/main.go:21 +0x25\nexit status 2",
			endFailed, "github.com/acme/billing/internal/ledger.(*Book).settleInvoice(…) at /src/internal/ledger/book.go:142"},
		{"logged JS error", "[server] listening on :8080\n[server] Error: backlog overflow\n    at Array.forEach (<anonymous>)\n    at encodeBacklog (/app/src/server/encode.ts:88:11)\n    at Socket.onData (/app/src/server/socket.ts:41:7)\n[server] client disconnected",
			endPassed, "at encodeBacklog (/app/src/server/encode.ts:88:11) ← Socket.onData"},
		{"JSON record", `{"level":"error","time":"2026-11-30T10:02:11Z","msg":"backlog overflow","stack":"Error: backlog overflow\n    at Object.next (/app/node_modules/rxjs/dist/cjs/internal/Subscriber.js:75:12)\n    at encodeBacklog (/app/src/server/encode.ts:88:11)"}`,
			endPassed, "at encodeBacklog (/app/src/server/encode.ts:88:11)"},
		{"JSON record, Python", `{"levelname":"ERROR","message":"settle failed","exc_info":"Traceback (most recent call last):\n  File \"/app/billing/settle.py\", line 71, in settle_batch\n    rows = fetch(batch)\n  File \"/usr/lib/python3.12/site-packages/psycopg/cursor.py\", line 732, in execute\n    raise ex\npsycopg.errors.QueryCanceled: canceling statement due to statement timeout"}`,
			endPassed, `File "/app/billing/settle.py", line 71, in settle_batch`},
		{"logfmt record, Go", `level=error msg="lease reaper crashed" err="nil map" stack="goroutine 7 [running]:\nruntime/debug.Stack()\n\t/usr/local/go/src/runtime/debug/stack.go:26 +0x5e\nmain.reapLeases(...)\n\t/src/lease/reap.go:44"`,
			endPassed, "main.reapLeases(…) at /src/lease/reap.go:44"},
		{"Python callers", "Traceback (most recent call last):\n  File \"/app/run.py\", line 9, in <module>\n    main()\n  File \"/app/run.py\", line 5, in main\n    sync_all()\n  File \"/app/sync.py\", line 40, in sync_all\n    sync_tenant(t)\n  File \"/app/sync.py\", line 61, in sync_tenant\n    write_rows(rows)\n  File \"/app/store.py\", line 12, in write_rows\n    cur.execute(q)\nValueError: bad row",
			endFailed, `File "/app/sync.py", line 61, in sync_tenant ← sync_all`},
		{"Go callers", "panic: boom\n\ngoroutine 9 [running]:\ngithub.com/acme/app/ledger.(*Book).settle(0x0)\n\t/src/ledger/book.go:42 +0x3c\ngithub.com/acme/app/ledger.Run(...)\n\t/src/ledger/run.go:58\ngithub.com/acme/app/worker.loop(0xc0001)\n\t/src/worker/loop.go:20 +0x25\ncreated by github.com/acme/app/worker.Start in goroutine 1\n\t/src/worker/start.go:11 +0x4f\nexit status 2",
			endFailed, "github.com/acme/app/ledger.(*Book).settle(…) at /src/ledger/book.go:42 ← ledger.Run ← worker.loop ← worker.Start"},
		{"warning's stack", "(node:4812) Warning: Possible EventEmitter memory leak detected.\n    at _addListener (node:events:587:17)\n    at encodeBacklog (/app/src/server/encode.ts:88:11)\n    at Server.<anonymous> (/app/src/server/index.ts:20:5)",
			endPassed, "at encodeBacklog (/app/src/server/encode.ts:88:11)"},
		{"Java stack under a warning", "WARN  c.a.l.Reconciler - slow reconcile\n\tat com.acme.ledger.Reconciler.reconcileBatch(Reconciler.java:214)\n\tat com.acme.ledger.Batch.run(Batch.java:40)\n\tat com.acme.ledger.Main.main(Main.java:12)",
			endPassed, "at com.acme.ledger.Reconciler.reconcileBatch(Reconciler.java:214) ← Batch.run"},
		{"DeprecationWarning's frame", "/app/billing/settle.py:71: DeprecationWarning: datetime.utcnow() is deprecated\n  File \"/app/billing/settle.py\", line 71, in settle_batch\n    now = datetime.utcnow()",
			endPassed, `File "/app/billing/settle.py", line 71, in settle_batch`},
		{"logging's stack_info", "WARNING:root:retrying\nStack (most recent call last):\n  File \"/app/run.py\", line 5, in <module>\n    main()\n  File \"/app/run.py\", line 3, in main\n    run_billing()\n  File \"/app/billing/run.py\", line 9, in run_billing\n    settle_batch()\n  File \"/app/billing/settle.py\", line 71, in settle_batch\n    log.warning(\"retrying\", stack_info=True)",
			endPassed, `File "/app/billing/settle.py", line 71, in settle_batch ← run_billing`},
		{"traceback without its header", "  File \"/srv/app/hooks/views.py\", line 133, in handle_webhook\n    payload = json.loads(request.body)\njson.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)",
			endFailed, `File "/srv/app/hooks/views.py", line 133, in handle_webhook`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := errorsOf(t, c.out, c.end); !slices.Contains(got, c.want) {
				t.Errorf("errors %q\nwant %q among them", got, c.want)
			}
		})
	}
	// A sentence starting with "at" is no frame.
	if got := errorsOf(t, "WARN config reloaded\n  at least three retries (see docs: retry.md)", endPassed); len(got) != 0 {
		t.Errorf("errors %q from a sentence, want none", got)
	}
	// A stack of library frames only names no frame of the program's.
	if f := ownFrame("Error: x\n    at Array.forEach (<anonymous>)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"); f != "" {
		t.Errorf("ownFrame of library frames = %q, want none", f)
	}
}

// TestUnknownStatusFewFailures: when no exit status was recorded (a
// text-protocol agent's output) or the one recorded is a filter's (a
// pipeline into tail without pipefail, "|| true"), the few lines of a program's run that name
// a failure are kept; a document or a listing full of such words is not
// read as failures, nor is the output of a command that only reads files.
func TestUnknownStatusFewFailures(t *testing.T) {
	run := func(cmd, out string) []string {
		in, _ := json.Marshal(map[string]string{"command": cmd})
		call := condense.ToolCall("call_1", "Bash", in)
		res := resultOf(out, false)
		return errorValues(ExtractResult(&call, &res, 3))
	}
	got := run("./bin/ledger replay data/wal", "replaying wal\nchecksum mismatch on segment 000042.wal\nreplay stopped at offset 1847261")
	if !slices.Contains(got, "checksum mismatch on segment 000042.wal") {
		t.Errorf("a run's failure line: errors %q", got)
	}
	if got := run("./bin/ledger replay data/wal", "replaying wal\nreplay finished successfully, no checksum mismatch found"); len(got) != 0 {
		t.Errorf("a success line: errors %q, want none", got)
	}
	doc := "A request that failed is retried.\nA lease that expired is renewed.\nA lock that could not be taken is skipped.\nA refund rejected by the bank is logged."
	if got := run("./bin/ledger help", doc); len(got) != 0 {
		t.Errorf("a document about failures: errors %q, want none", got)
	}
	if got := run("cat NOTES.txt", "checksum mismatch on segment 000042.wal"); len(got) != 0 {
		t.Errorf("a file's text: errors %q, want none", got)
	}
	// A pipeline into a filter exits with the filter's status: a 0 says
	// nothing of the program's run.
	if got := run("./bin/ledger replay data/wal 2>&1 | tail -5", "replaying wal\nchecksum mismatch on segment 000042.wal\nProcess exited with code 0"); !slices.Contains(got, "checksum mismatch on segment 000042.wal") {
		t.Errorf("a pipeline's failure line: errors %q", got)
	}
	if got := run("set -o pipefail; ./bin/ledger replay data/wal 2>&1 | tail -5", "replaying wal\nchecksum mismatch on segment 000042.wal\nProcess exited with code 0"); len(got) != 0 {
		t.Errorf("a pipeline with pipefail that passed: errors %q, want none", got)
	}
	// Another tool's call that ran something counts as a program's run;
	// one that read a file does not.
	tool := func(name, args, out string) []string {
		call := condense.ToolCall("call_1", name, []byte(args))
		res := resultOf(out, false)
		return errorValues(ExtractResult(&call, &res, 3))
	}
	if got := tool("query_db", `{"sql":"UPDATE orders SET state = 'paid' WHERE id = 4821"}`, "could not serialize access due to concurrent update"); len(got) != 1 {
		t.Errorf("a database tool's failure line: errors %q", got)
	}
	if got := tool("query_db", `{"sql":"SELECT 1"}`, "checksum mismatch on segment /data/wal/000042.wal"); len(got) != 1 {
		t.Errorf("a path in a database tool's output does not make it a file's: errors %q", got)
	}
	if got := tool("read_file", `{"path":"docs/NOTES.txt"}`, "checksum mismatch on segment 000042.wal"); len(got) != 0 {
		t.Errorf("a file read by a tool: errors %q, want none", got)
	}
	// With a status, the same lines follow the status's rules.
	in, _ := json.Marshal(map[string]string{"command": "./bin/ledger help"})
	call := condense.ToolCall("call_1", "Bash", in)
	res := resultOf(doc, true)
	if got := errorValues(ExtractResult(&call, &res, 3)); len(got) == 0 {
		t.Errorf("a failed run keeps its failure lines, got none")
	}
}

// TestCountOrName: a number before a failure word is a count ("3 failed"),
// which says nothing failed when it is 0 and is a summary otherwise, unless
// a noun before it makes it a name ("refund 4821 rejected").
func TestCountOrName(t *testing.T) {
	for text, want := range map[string]int{
		"7 failed, 12 passed":               0,
		"0 rejected":                        0,
		"refund 4821 rejected by processor": 1,
		"job #7 failed after 3 retries":     1,
	} {
		if got := signalsOf(text).vocab; got != want {
			t.Errorf("%q: %d failure words, want %d", text, got, want)
		}
	}
}

// TestStackEdges pins what the review of the stack reading found: a frame
// is kept when the stack runs to the end of an output that already holds
// many errors; a warning's loose frames do not change how a later error's
// frames are read; the line after a stack is not an error because of the
// stack's frame; a constructor frame is named by its class.
func TestStackEdges(t *testing.T) {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "Error: thing %d broke\n", i)
	}
	b.WriteString("TypeError: boom\n    at resolveTenant (/app/src/tenancy.ts:31:22)")
	if got := errorsOf(t, b.String(), endFailed); !slices.Contains(got, "at resolveTenant (/app/src/tenancy.ts:31:22)") {
		t.Errorf("a stack at the end of a long failure: errors %q", got)
	}
	for _, c := range []struct {
		name, out, end string
		want           string // an error that must be kept, or
		not            string // a text no error may hold
	}{
		{"an error's runtime frame after a warning's", "Warning: x\n    at node:internal/foo:1:2\nline\nTypeError: y\n    at node:internal/modules/cjs/loader:1:2",
			endFailed, "at node:internal/modules/cjs/loader:1:2", ""},
		{"a bare Python frame after a stack", "Warning: x\n    at foo (/app/x.js:1:2)\nok\n  File \"/app/y.py\", line 3, in g",
			endPassed, "", "y.py"},
		{"constructor frames", "TypeError: x is undefined\n    at new Store (/app/src/store.ts:12:5)\n    at new Cache (/app/src/cache.ts:8:3)\n    at boot (/app/src/boot.ts:3:1)",
			endFailed, "at new Store (/app/src/store.ts:12:5) ← Cache ← boot", ""},
		{"recursion, named once", "Error: deep\n    at walk (/app/src/tree.ts:9:3)\n    at walk (/app/src/tree.ts:11:5)\n    at walk (/app/src/tree.ts:11:5)\n    at render (/app/src/view.ts:4:1)",
			endFailed, "at walk (/app/src/tree.ts:9:3) ← walk ← render", ""},
		{"a Rust backtrace's locations are no JS frames", "   1: billing::settle::settle_batch\n             at ./src/settle.rs:71:9\n   2: billing::main\n             at ./src/main.rs:5:5",
			endPassed, "", "at ./src"},
		{"a rule of underscores around a word heads no pytest failure", "____ section ____\nsome text\nE = mc^2 is a formula",
			endFailed, "", "section:"},
	} {
		got := errorsOf(t, c.out, c.end)
		if c.want != "" && !slices.Contains(got, c.want) || c.not != "" && slices.ContainsFunc(got, func(e string) bool { return strings.Contains(e, c.not) }) {
			t.Errorf("%s: errors %q", c.name, got)
		}
	}
}

// TestStatusMasked: which commands' exit status says nothing of how their
// program ran.
func TestStatusMasked(t *testing.T) {
	for cmd, want := range map[string]bool{
		"go test ./... 2>&1 | tail -40":                true,
		"make test || true":                            true,
		"set -o pipefail; make test || true":           true,
		"set -o pipefail; go test ./... | tail -40":    false,
		`go test ./... | grep -E "FAIL|ok"`:            true,
		"make |& tail -5":                              true,
		"go test ./...":                                false,
		"cat go.mod | go run ./cmd/check":              false,
		"test -f x || exit 1":                          false,
		"ps aux | grep '[l]edgerd' | awk '{print $2}'": true,
	} {
		if got := statusMasked(cmd); got != want {
			t.Errorf("statusMasked(%q) = %v, want %v", cmd, got, want)
		}
	}
}

// TestFailuresInStatusReports: a command that succeeded may report what
// failed elsewhere: kubectl describe's last state ("Reason: Error" then
// "Message: …") and gh run view's annotations ("X …") are errors even
// when the command exited 0; a healthy container's state and the run's
// generic exit line are not.
func TestFailuresInStatusReports(t *testing.T) {
	for _, tc := range []struct {
		out       string
		want, not []string
	}{
		{"Containers:\n  api:\n    State:          Running\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Message:      runtime: out of memory: cannot allocate 4194304-byte block (1073741824 in use)\n      Exit Code:    137\n    Ready:          True\n[The command completed with exit code 0.]",
			[]string{"runtime: out of memory: cannot allocate 4194304-byte block (1073741824 in use)"}, nil},
		{"    State:          Terminated\n      Reason:       Completed\n      Message:      migrations applied: 14\n      Exit Code:    0\n",
			nil, []string{"migrations applied: 14"}},
		{"X main CI · 9258858035\n\nJOBS\nX test in 7m55s (ID 25998914278)\n\nANNOTATIONS\nX ledger_test.go:88: balance drifted by 3 cents after replay\ntest: internal/ledger/ledger_test.go#88\n\nX Process completed with exit code 1.\ntest: .github#25\n",
			[]string{"ledger_test.go:88: balance drifted by 3 cents after replay"}, []string{"Process completed with exit code 1."}},
	} {
		c := condense.ToolCall("c1", "bash", []byte(`{"command":"./run.sh"}`))
		r := condense.ToolResult("c1", false, condense.Text(tc.out))
		items := ExtractResult(&c, &r, 1)
		has := func(v string) bool {
			return slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindError && strings.Contains(it.Value, v) })
		}
		for _, w := range tc.want {
			if !has(w) {
				t.Errorf("no error %q in %q", w, Strings(items))
			}
		}
		for _, w := range tc.not {
			if has(w) {
				t.Errorf("error %q taken from %q", w, tc.out)
			}
		}
	}
}

// TestFailureWithClassInPassingRun: a line that says a failure and names
// its error class, printed with its fields as Rust's Debug prints it, is
// kept even when the harness reported the run as passing.
func TestFailureWithClassInPassingRun(t *testing.T) {
	line := `[09:23:34]W:	 [Step 2/2] failed to set global default subscriber: SetGlobalDefaultError("a global default trace dispatcher has already been set") (init 98584)`
	out := "[09:23:20] :\t [Step 2/2] 2026-04-11T09:23:27Z  INFO core::reverse: cache refreshed\n" + line +
		"\n[09:23:41]W:\t [Step 2/2] Process exited with code 1\n[The command completed with exit code 0.]"
	c := unseenCase{Category: "error", Source: "tool", Command: "./run.sh", Output: out, Probe: "SetGlobalDefaultError(\"a global default"}
	if !unseenKept(c) {
		t.Errorf("the failure was not kept: %q", Strings(unseenItems(c)))
	}
	ok := unseenCase{Category: "error", Source: "tool", Command: "./run.sh", Output: "retrying the upload: TimeoutError(30s) was handled\n[The command completed with exit code 0.]", Probe: "TimeoutError"}
	if unseenKept(ok) {
		t.Errorf("a line naming no failure was kept: %q", Strings(unseenItems(ok)))
	}
}
