package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestErrorsOfReports: error lines of reports whose layouts no generic
// reader knows, each kept as printed: Valgrind's error before its frames
// (not the block's), Gradle's deepest cause, a warnings table's row, a
// numbered failure of a failed run, and a JSON record's error message
// field; and what is not one of them.
func TestErrorsOfReports(t *testing.T) {
	for _, tc := range []struct {
		name, cmd, out string
		failed         bool
		want, not      []string
	}{
		{
			name: "valgrind", cmd: "valgrind ./bin/parse in.txt", failed: true,
			out: "==812== Memcheck, a memory error detector\n==812== Conditional jump or move depends on uninitialised value(s)\n" +
				"==812==    at 0x10A1B2: scan_token (lexer.c:201)\n==812==    by 0x109E04: main (main.c:33)\n==812==  Block was alloc'd at\n" +
				"==812==    at 0x4840808: malloc (vg_replace_malloc.c:442)\n",
			want: []string{"==812== Conditional jump or move depends on uninitialised value(s)"},
			not:  []string{"==812==  Block was alloc'd at"},
		},
		{
			name: "gradle", cmd: "./gradlew build", failed: true,
			out: "> Task :core:compileJava FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\n" +
				"Execution failed for task ':core:compileJava'.\n> Could not resolve all files for configuration ':core:compileClasspath'.\n" +
				"   > Could not find org.acme:ledger-api:4.1.0.\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n",
			want: []string{"> Could not find org.acme:ledger-api:4.1.0."},
			not:  []string{"> Run with --stacktrace option to get the stack trace."},
		},
		{
			name: "warnings table", cmd: `mysql -e "INSERT …; SHOW WARNINGS"`,
			out: "+---------+------+----------------------------------------+\n| Level   | Code | Message                                |\n" +
				"+---------+------+----------------------------------------+\n| Warning | 1366 | Incorrect integer value: 'x' for column 'qty' at row 1 |\n",
			want: []string{"| Warning | 1366 | Incorrect integer value: 'x' for column 'qty' at row 1 |"},
			not:  []string{"| Level   | Code | Message                                |"},
		},
		{
			name: "numbered failure", cmd: "mix test", failed: true,
			out:  "....\n\n  1) test refund/1 rejects a closed order (Shop.RefundTest)\n     test/shop/refund_test.exs:14\n     Assertion with == failed\n\n9 tests, 1 failure\n",
			want: []string{"1) test refund/1 rejects a closed order (Shop.RefundTest)"},
		},
		{
			name: "error message field", cmd: "newrelic nrql query --query 'SELECT count(*) FROM TransactionError FACET error.message'",
			out:  `{"count":812,"error.message":"timeout after 5s"}` + "\n" + `{"count":3,"error.message":"Dirty database version 42. Fix and force version."}` + "\n",
			want: []string{`{"count":3,"error.message":"Dirty database version 42. Fix and force version."}`},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := values(result(tc.cmd, tc.out, tc.failed), KindError)
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("%q missing from %q", w, got)
				}
			}
			for _, n := range tc.not {
				if slices.Contains(got, n) {
					t.Errorf("%q kept as an error", n)
				}
			}
		})
	}
	// a passing run's numbered list is no failure
	if got := values(result("mix test", "  1) see the docs for more\n", false), KindError); len(got) > 0 {
		t.Errorf("errors %q from a passing run", got)
	}
}

// TestErrorSearchHits: each line a search of logs for errors printed is an
// error, in whatever words; the one unlike line among a log's repeats
// stays past the cap; a search of source code is not a log.
func TestErrorSearchHits(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		if i == 21 {
			b.WriteString("Apr 11 08:12:21 api-2 api: http2: server sent GOAWAY and closed the connection; LastStreamID=99\n")
			continue
		}
		fmt.Fprintf(&b, "Apr 11 08:%02d:%02d api-%d api: settle meter: connection reset by peer\n", 10+i/60, i%60, i%3)
	}
	got := values(result("papertrail -g Production 'error OR fatal'", b.String(), false), KindError)
	if !slices.Contains(got, "Apr 11 08:12:21 api-2 api: http2: server sent GOAWAY and closed the connection; LastStreamID=99") {
		t.Errorf("the unlike hit is missing from %q", got)
	}
	if len(got) > DefaultMaxPerKind {
		t.Errorf("%d errors kept, over the cap of %d", len(got), DefaultMaxPerKind)
	}
	// without a search for errors, the unknown words are not an error
	got = values(result("papertrail -g Production 'checkout'", b.String(), false), KindError)
	if slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, "GOAWAY") }) {
		t.Errorf("a line in unknown words kept as an error of a search for anything: %q", got)
	}
	// source code found by a search for "error" holds no log's hits
	got = values(result("grep -rn error internal/", "internal/x.go:12:\tif error := run(); error != nil {\ninternal/y.go:40:\treturn wrapError(x)\n", false), KindError)
	if len(got) > 0 {
		t.Errorf("errors %q from a search of source code", got)
	}
}
