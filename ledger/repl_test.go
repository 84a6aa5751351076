package ledger

import (
	"slices"
	"strings"
	"testing"
)

// TestTypedAtPrompts: what was typed at the prompt of an interactive
// program's session is kept as a command, whatever the program, told by
// its prompt opening several lines.
func TestTypedAtPrompts(t *testing.T) {
	for _, c := range []struct {
		out  string
		want []string
	}{
		{"10.0.4.2:6380> INFO keyspace\n# Keyspace\ndb0:keys=4120,expires=12\n10.0.4.2:6380> CONFIG SET appendfsync everysec\nOK\n10.0.4.2:6380> quit\n",
			[]string{"INFO keyspace", "CONFIG SET appendfsync everysec"}},
		{"irb(main):001:0> Order.pending.count\n=> 412\nirb(main):002:0> Order.pending.where(region: \"eu\").update_all(state: \"held\")\n=> 37\n",
			[]string{`Order.pending.where(region: "eu").update_all(state: "held")`}},
		{"orders=# SELECT count(*) FROM refunds;\n count\n-------\n    12\n(1 row)\n\norders=# VACUUM (VERBOSE, ANALYZE) refunds;\nVACUUM\n",
			[]string{"VACUUM (VERBOSE, ANALYZE) refunds;", "SELECT count(*) FROM refunds;"}},
		{"In [1]: import pandas as pd\n\nIn [2]: df = pd.read_csv(\"q3.csv\")\n\nIn [3]: df.groupby(\"sku\").qty.sum().nlargest(5)\nOut[3]:\nA-1    412\n",
			[]string{`df.groupby("sku").qty.sum().nlargest(5)`}},
		{"SQL> SELECT count(*) FROM invoices;\n  COUNT(*)\n----------\n       412\nSQL> ALTER INDEX inv_due_ix REBUILD ONLINE;\nIndex altered.\n",
			[]string{"ALTER INDEX inv_due_ix REBUILD ONLINE;"}},
		{"(gdb) break ledger.c:212\nBreakpoint 1 at 0x4011d6: file ledger.c, line 212.\n(gdb) run --replay fixtures/bad.bin\nStarting program\n",
			[]string{"run --replay fixtures/bad.bin", "break ledger.c:212"}},
	} {
		var got []string
		for _, it := range outputItems(c.out) {
			if it.Kind == KindCommand {
				got = append(got, it.Value)
			}
		}
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q not kept from\n%s\ngot %q", w, c.out, got)
			}
		}
	}
}

// TestNoPrompts: lines that open with a quote, a heading, a chat's nick,
// a build tool's marker or a compiler's arrow are not prompts.
func TestNoPrompts(t *testing.T) {
	for _, out := range []string{
		"> Task :app:compileJava\n> Task :app:processResources\n> Task :app:test FAILED\n",
		"> I think we should keep it\n> as it is for now\nOK by me\n",
		"<maria> did the deploy finish\n<tom> yes, rolled out at 10:40\n<maria> thanks will check metrics now\n",
		"# Build\n# Deploy steps here\n## Notes and more\n",
		"error[E0308]: mismatched types\n  --> src/main.rs:5:3\n  --> src/lib.rs:9:1\n",
		"@@ -1,3 +1,5 @@\n+# Install the library first\n+# Configure your budget here\n pip install x\n",
		"app/config.py:14:# Read the timeout from the environment\napp/config.py:31:# Retry twice before giving up\n",
		"List<String> names = load(path);\nList<String> other = names.subList(0, 3);\nreturn other;\n",
		"app -> core utils\nweb -> core http\ncli -> core flags\n",
		"INFO> starting worker pool of 4\nINFO> worker 1 ready for jobs\nINFO> worker 2 ready for jobs\n",
		"C# interop uses the generated bindings\nC# callers get a Task back\n",
	} {
		if p := replPrompts(out); len(p) > 0 {
			t.Errorf("prompts %q in\n%s", p, out)
		}
		for _, it := range outputItems(out) {
			if it.Kind == KindCommand && !strings.Contains(out, "$ ") {
				t.Errorf("command %q from\n%s", it.Value, out)
			}
		}
	}
}
