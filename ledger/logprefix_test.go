package ledger

import (
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

func TestLogSource(t *testing.T) {
	for _, c := range []struct{ line, rest string }{
		{"web-1      | Traceback (most recent call last):", "Traceback (most recent call last):"},
		{"shop_api.2.p0k3n8c1@worker-3    | 2026-05-02 10:00:01 ERROR boom here", "2026-05-02 10:00:01 ERROR boom here"},
		{"+unit | --> RUN go test ./...", "--> RUN go test ./..."},
		{"2026-05-02T10:00:01.123456+00:00 app[web.1]: Error R14 (Memory quota exceeded)", "Error R14 (Memory quota exceeded)"},
		{"2026-05-02T10:00:01.1234567Z go vet ./...", "go vet ./..."},
		{"[10:13:02]W:\t [Step 1/3] something went wrong here", "something went wrong here"},
		{"[fetch-source : clone] + git fetch origin main", "+ git fetch origin main"},
		{"[pod/api-7d9f5/app] panic: runtime error", "panic: runtime error"},
		{"+repro | --> RUN ps aux | grep worker", "--> RUN ps aux | grep worker"},
		{`1|harvest-worker | {"levelname": "ERROR", "message": "boom"}`, `{"levelname": "ERROR", "message": "boom"}`},
	} {
		got, ok := logSource(c.line)
		if !ok || got != c.rest {
			t.Errorf("logSource(%q) = %q, %v; want %q", c.line, got, ok, c.rest)
		}
	}
	for _, line := range []string{
		"avg_wait_time     | 421482",           // a table's row
		"   48213 | 9f3c2e1a | 1",              // a row of cells
		"api-1 | ok",                           // one word behind the bar
		"total | 12 | 13",                      // cells
		"name  | value with words | more here", // cells
		"2026-05-02 10:00:01 ERROR no T in the stamp",
		"README.md | 2 +-",
		"[INFO] Building the module now",
		"[warn] disk is nearly full",
		"[a b/c] two words",
	} {
		if got, ok := logSource(line); ok {
			t.Errorf("logSource(%q) = %q: read as a log source's prefix", line, got)
		}
	}
}

// A log line behind a multiplexer's prefix is read for its level and its
// JSON record as the program printed it; a line too long to keep whole keeps
// its message.
func TestLevelBehindLogSource(t *testing.T) {
	long := "billing_worker.3.x8c1k0m2q9z7v5b3n1@node-7    | 2026-05-02 10:00:01.123 UTC [4412] ERROR:  " +
		"could not serialize access due to concurrent update while settling invoice batch 7781 for tenant acme-eu (retry 3 of 3)"
	record := `edge.1.q2w3e4r5@node-1    | {"level":50,"time":1775119002062,"msg":"upstream reset before headers while proxying /v2/quotes"}`
	stamped := "2026-05-02T10:00:01.123456+00:00 app[worker.2]: 2026-05-02 10:00:02.001 UTC [88] ERROR:  DBI::st execute failed: deadlock detected"
	step := "  + add_index_7 ...................... psql:deploy/add_index_7.sql:12: ERROR:  relation \"ledger_entries\" does not exist"
	for _, c := range []struct{ out, want string }{
		{long, "could not serialize access due to concurrent update while settling invoice batch 7781"},
		{record, "upstream reset before headers while proxying /v2/quotes"},
		{stamped, "DBI::st execute failed: deadlock detected"},
		{step, `relation "ledger_entries" does not exist`},
	} {
		call := condense.ToolCall("c1", "bash", []byte(`{"command":"./logs.sh"}`))
		res := condense.ToolResult("c1", false, condense.Text(c.out+"\n"))
		items := ExtractResult(&call, &res, 1)
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindError && strings.Contains(it.Value, c.want) }) {
			t.Errorf("%q: no error holding %q in %q", c.out, c.want, Strings(items))
		}
	}
}

func TestDescribedIDs(t *testing.T) {
	for _, c := range []struct {
		line string
		want []string
	}{
		{`api-1 {"version":"v2.3.1-14-g9ab31c0","commit":"9ab31c0"}`, []string{"v2.3.1-14-g9ab31c0"}},
		{"built from release-7-3-g5137c25a on node-2", []string{"release-7-3-g5137c25a"}},
		{"Version: 0.9.0-1-gdeadbeef1234", []string{"0.9.0-1-gdeadbeef1234"}},
	} {
		s := newScanner(&defaultExtractor, 0, true)
		s.describedIDs(c.line)
		if got := Strings(s.items); !slices.Equal(got, func() []string {
			var w []string
			for _, v := range c.want {
				w = append(w, "id "+v)
			}
			return w
		}()) {
			t.Errorf("%q: %q, want %q", c.line, got, c.want)
		}
	}
	for _, line := range []string{
		"--log-level=debug -gcflags=all", // flags
		"my-service-12-gateway",          // no hash
		"feature-12-gabcdefz",            // not hex to the end
		"build-7-g12345",                 // a hash under 7 digits
	} {
		s := newScanner(&defaultExtractor, 0, true)
		s.describedIDs(line)
		if len(s.items) > 0 {
			t.Errorf("%q: read %q", line, Strings(s.items))
		}
	}
}

func TestSourcedStep(t *testing.T) {
	call := condense.ToolCall("c1", "bash", []byte(`{"command":"earthly +unit"}`))
	res := condense.ToolResult("c1", false, condense.Text("              +unit | --> RUN go test -run TestQuota -count=3 ./pkg/quota/\n              +unit | ok  \texample.com/pkg/quota\t0.41s\n"))
	got := Strings(ExtractResult(&call, &res, 1))
	if !slices.Contains(got, `command "go test -run TestQuota -count=3 ./pkg/quota/"`) {
		t.Errorf("the step's command is not in %q", got)
	}
	for _, c := range []struct{ cmd, out, want string }{
		{"earthly +repro", "              +repro | --> RUN chronyc -n tracking && chronyc -n sources -v | head -n 40\n",
			"chronyc -n tracking && chronyc -n sources -v | head -n 40"},
		{"tkn pipelinerun logs run-x2k -n ci", "[repro : run] + cd /workspace/source\n[repro : run] + sudo tc -s qdisc show dev ens7\n[repro : run] qdisc fq_codel 0: root\n",
			"sudo tc -s qdisc show dev ens7"},
		{"az pipelines runs show --id 812", "2026-04-04T10:39:46.2139726Z Generating script.\n2026-04-04T10:39:47.4572319Z Script contents:\n" +
			"2026-04-04T10:39:50.2757451Z pmd check -d src -R rules.xml -f text | grep Export\n2026-04-04T10:39:51.7137741Z ===== Starting Command Output =====\n",
			"pmd check -d src -R rules.xml -f text | grep Export"},
	} {
		call := condense.ToolCall("c1", "bash", []byte(`{"command":"`+c.cmd+`"}`))
		res := condense.ToolResult("c1", false, condense.Text(c.out))
		if got := Strings(ExtractResult(&call, &res, 1)); !slices.Contains(got, `command "`+c.want+`"`) {
			t.Errorf("%s: the step's command %q is not in %q", c.cmd, c.want, got)
		}
	}
}
