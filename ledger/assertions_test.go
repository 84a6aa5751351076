package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// failedItems extracts the items of a failed test run's result holding
// text.
func failedItems(text string) []Item {
	call := condense.ToolCall("a", "bash", []byte(`{"command":"make test"}`))
	res := condense.ToolResult("a", true, condense.Text(text))
	return ExtractResult(&call, &res, 3)
}

// TestAssertionValues: the values a failed assertion compared are kept
// as errors, as each framework prints them: labelled, as a diff's changed
// lines under its legend, or in a matcher's sentence.
func TestAssertionValues(t *testing.T) {
	for _, c := range []struct{ out, want string }{
		{"  Failed Billing.Tests.RoundingTests.Rounds_HalfEven [4 ms]\n  Error Message:\n   Assert.Equal() Failure: Values differ\nExpected: 0.12\nActual:   0.13\n  Stack Trace:\n", "Actual:   0.13"},
		{"---- codec::tests::roundtrip stdout ----\nthread 'codec::tests::roundtrip' panicked at src/codec.rs:88:9:\nassertion `left == right` failed\n  left: Some(\"réseau\")\n right: Some(\"reseau\")\n", `left: Some("réseau")`},
		{"  1) Cart\n       applies the voucher:\n      AssertionError: expected 1 to equal 2\n      + expected - actual\n\n      -1\n      +2\n\n      at Context.<anonymous> (test/cart.test.js:31:20)\n", "-1"},
		{"1) Tests\\OrderTest::test_totals\nFailed asserting that two arrays are identical.\n--- Expected\n+++ Actual\n@@ @@\n Array &0 [\n-    'total' => 1200,\n+    'total' => 1199,\n ]\n", "+    'total' => 1199,"},
		{"E       AssertionError: assert {'a': 1, 'state': 'open'} == {'a': 1, 'state': 'closed'}\nE         \nE         Common items:\nE         {'a': 1}\nE         Differing items:\nE         {'state': 'open'} != {'state': 'closed'}\n", "{'state': 'open'} != {'state': 'closed'}"},
		{"[info] - should expire stale sessions *** FAILED ***\n[info]   7 was not equal to 4 (SessionSpec.scala:58)\n[info] - should renew\n", "7 was not equal to 4 (SessionSpec.scala:58)"},
		{"[  FAILED  ] UrlTest.ParsesIPv6\nurl_test.cc:41: Failure\nExpected equality of these values:\n  host\n    Which is: \"[fe80::1\"\n  \"fe80::1\"\n", `Which is: "[fe80::1"`},
	} {
		var got []string
		for _, it := range failedItems(c.out) {
			if it.Kind == KindError {
				got = append(got, it.Value)
			}
		}
		if !slices.ContainsFunc(got, func(v string) bool { return strings.Contains(v, c.want) }) {
			t.Errorf("%q is not kept from\n%s\ngot %q", c.want, c.out, got)
		}
	}
}

// TestNotAssertions: lines that only look like an assertion's are not
// read as one: a label with no value, one of another word, a diff with no
// legend.
func TestNotAssertions(t *testing.T) {
	for _, l := range []string{"Expected:", "Expectations: 4 met", "leftover: 3 files", "gotcha: none", "receivedAt: 2026-01-01"} {
		if assertionValue(l) {
			t.Errorf("assertionValue(%q)", l)
		}
	}
	for _, l := range []string{"Expected: 3", "Received string: \"a\"", "got: nil", "but was: <4>", "left: [1]"} {
		if !assertionValue(l) {
			t.Errorf("!assertionValue(%q)", l)
		}
	}
	for _, out := range []string{
		"Checking the cluster\nFound: 3 stale snapshots older than 30 days\nLeft: 2 workers still running\nerror: drain timed out\n",
		"Release notes\nDiff:\n- Added the export command\n- Fixed the retry loop\nerror: tag v2.1.0 already exists\n",
	} {
		for _, it := range failedItems(out) {
			if it.Kind == KindError && (strings.HasPrefix(it.Value, "Found:") || strings.HasPrefix(it.Value, "Left:") || strings.HasPrefix(it.Value, "- ")) {
				t.Errorf("read as an assertion's: %q", it.Value)
			}
		}
	}
	out := "Applying patch\n-old line here\n+new line here\nerror: patch failed: main.go:12\n"
	for _, it := range failedItems(out) {
		if it.Kind == KindError && (it.Value == "-old line here" || it.Value == "+new line here") {
			t.Errorf("a diff with no legend is read as an assertion's: %q", it.Value)
		}
	}
}

// TestDeniedStates: in a failed command's output, a line that denies a
// state ("is not writable", "is not in the sudoers file") is kept as an
// error with no failure word; in a command that succeeded it is not.
func TestDeniedStates(t *testing.T) {
	out := "==> Installing the certificate\n[sudo] password for ci:\nci is not in the sudoers file.  This incident will be reported.\n==> install step exited with 1\n"
	if !slices.ContainsFunc(failedItems(out), func(it Item) bool {
		return it.Kind == KindError && strings.Contains(it.Value, "ci is not in the sudoers file.")
	}) {
		t.Errorf("the denied state is lost: %q", Strings(failedItems(out)))
	}
	// A line that only denies a state does not stand for what the failed
	// command said last.
	last := "Checking formatting\nthe remote cache is not enabled for this run\nWould reformat: src/app.py\n"
	if !slices.ContainsFunc(failedItems(last), func(it Item) bool {
		return it.Kind == KindError && strings.Contains(it.Value, "Would reformat: src/app.py")
	}) {
		t.Errorf("the failed command's last words are lost: %q", Strings(failedItems(last)))
	}
	ok := "resolving dependencies\nthe mirror is not reachable, using the default registry\nadded 12 packages in 2s\n"
	for _, it := range outputItems(ok) {
		if it.Kind == KindError {
			t.Errorf("a passed run's line read as an error: %q", it.Value)
		}
	}
}
