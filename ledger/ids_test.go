package ledger

import (
	"iter"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestIdentifierForms: identifiers in the shapes tools print them: a short
// container id or an ObjectId after the word that names it, a typed id
// with a lower-case prefix, another repository's issue, an AWS ARN. A
// snake_case name, a word after '#' and a hex word in prose are not ids.
func TestIdentifierForms(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"container a1b2c3d4e5f6 exited with code 137", []string{"id a1b2c3d4e5f6"}, nil},
		{"E11000 duplicate key { _id: ObjectId('65a1f2c3d4e5f6a7b8c9d0e1') }", []string{"id 65a1f2c3d4e5f6a7b8c9d0e1"}, nil},
		{"customer cus_PaB3cD4eF5gH6i created", []string{"id cus_PaB3cD4eF5gH6i"}, nil},
		{"charge ch_3NqLkT2eZvKYlo2C1a2b3c4d failed", []string{"id ch_3NqLkT2eZvKYlo2C1a2b3c4d"}, nil},
		{"Fixes acme/billing#4821 and #4822.", []string{"id acme/billing#4821", "id #4822"}, nil},
		{"arn:aws:lambda:us-east-1:123456789012:function:invoice-reaper timed out", []string{"id arn:aws:lambda:us-east-1:123456789012:function:invoice-reaper"}, nil},
		{"   3fa9c2d..8b1e5c0  main -> main", []string{"id 3fa9c2d", "id 8b1e5c0"}, nil},
		{"v1.4.2-14-g5e6f7a8", []string{"id 5e6f7a8"}, nil},
		{"deployed 2c3d4e5 to production", []string{"id 2c3d4e5"}, nil},
		{"X-Request-Id: 5f2b9c1e-77aa-4c1b-9e2f-7a6b5c4d3e2f", []string{"id X-Request-Id=5f2b9c1e-77aa-4c1b-9e2f-7a6b5c4d3e2f"}, nil},
		{"x-amz-request-id: 8D2F1A9C3B7E4F60", []string{"id x-amz-request-id=8D2F1A9C3B7E4F60"}, nil},
		{"max_retries_per_host2 = 3, test_parse_unicode_v2 ok", nil, []string{"id max_retries_per_host2", "id test_parse_unicode_v2"}},
		{"content-length: 4821, see 1.2.3..1.3.0 and a-b-g1234567x", nil, []string{"id content-length=4821", "id 1234567"}},
		{"color: #ff00aa; see issue#12", nil, []string{"id issue#12"}},
		{"see !482 and acme/billing!483, not wow!12 or !!", []string{"id !482", "id acme/billing!483"}, []string{"id wow!12"}},
		{"restart_lsn 0/16B3748, size 1/123456, /var/0/ABCDEF12", []string{"id 0/16B3748"}, []string{"id 1/123456", "id 0/ABCDEF12"}},
		{`Parameters: {"refund"=>{"order_id"=>"48213"}}`, []string{"id order_id=48213"}, nil},
		{"Applying billing.0042_invoice_tenant_idx... OK", []string{"id 0042_invoice_tenant_idx"}, nil},
		{"GET /api/users/48213 200 and PUT orders/77120/items", []string{"id users/48213", "id orders/77120"}, nil},
		{"GET /api/v2/123456 and /var/log/42000 and /lines/12345", nil, []string{"id v2/123456", "id log/42000", "id lines/12345"}},
		{"the added facade was decaf", nil, []string{"id facade", "id decaf"}},
	} {
		var got []string
		for _, it := range outputItems(tc.text) {
			if it.Kind == KindID {
				got = append(got, it.String())
			}
		}
		holds(t, tc.text, got, tc.want, tc.not)
	}
}

// TestIDsInManyShapes reads testdata/ids.tsv: each id must be held by an
// item extracted from its text, in a tool's output or a user's or the
// assistant's message.
func TestIDsInManyShapes(t *testing.T) { specificsHeld(t, "testdata/ids.tsv") }

// TestMoreIDShapes reads testdata/ids_more.tsv the same way.
func TestMoreIDShapes(t *testing.T) { specificsHeld(t, "testdata/ids_more.tsv") }

// TestNotIDs reads testdata/not_ids.tsv: what only looks like an id is none.
func TestNotIDs(t *testing.T) { noneOfKind(t, "testdata/not_ids.tsv", KindID) }

// TestErrorsInManyEcosystems reads testdata/errors.tsv the same way.
func TestErrorsInManyEcosystems(t *testing.T) { specificsHeld(t, "testdata/errors.tsv") }

// TestErrorsPastedAnywhere reads testdata/errors_pasted.tsv the same way:
// output a user or the assistant pasted into a message is read for errors
// as a tool's output is.
func TestErrorsPastedAnywhere(t *testing.T) { specificsHeld(t, "testdata/errors_pasted.tsv") }

// TestNotErrors reads testdata/not_errors.tsv: output that names errors
// but reports none holds no error item.
func TestNotErrors(t *testing.T) { noneOfKind(t, "testdata/not_errors.tsv", KindError) }

// TestDecisionsInManyPhrasings reads testdata/decisions.tsv the same way.
func TestDecisionsInManyPhrasings(t *testing.T) { specificsHeld(t, "testdata/decisions.tsv") }

// TestPathsInManyEcosystems reads testdata/paths.tsv the same way: a path
// with a test's node id (tests/test_tax.py::test_rounding) or a line
// anchor (ci.yml#L12) is the file's.
func TestPathsInManyEcosystems(t *testing.T) { specificsHeld(t, "testdata/paths.tsv") }

// TestCommandsWhereverTheyShow reads testdata/commands.tsv: each command
// must be a command item, whole.
func TestCommandsWhereverTheyShow(t *testing.T) {
	specificsHeldAs(t, "testdata/commands.tsv", KindCommand)
}

// TestNotCommands reads testdata/not_commands.tsv: prose, code and output
// whose words name programs hold no command.
func TestNotCommands(t *testing.T) { noneOfKind(t, "testdata/not_commands.tsv", KindCommand) }

// TestDecisionsBySpeaker reads testdata/decisions_by_speaker.tsv: an
// assistant's decision is a decision item; a user's may be a constraint,
// a rule for the rest of the work.
func TestDecisionsBySpeaker(t *testing.T) {
	specificsHeldAs(t, "testdata/decisions_by_speaker.tsv", KindDecision, KindConstraint)
}

// TestPlansAreNotDecisions reads testdata/not_decisions.tsv: next steps,
// narration, questions and options left open are no decision.
func TestPlansAreNotDecisions(t *testing.T) {
	noneOfKind(t, "testdata/not_decisions.tsv", KindDecision)
}

// noneOfKind checks a file of site, text and note lines: no item of kind
// may come from the text (but the command of the call it is the output
// of).
func noneOfKind(t *testing.T, file string, kind Kind) {
	t.Helper()
	n := 0
	for line, f := range tsvCases(t, file) {
		n++
		for _, it := range siteItems(t, line, f[0], f[1]) {
			if it.Kind == kind && it.Value != "./run.sh" {
				t.Errorf("%s:%d: %s taken from %q (%s)", file, line, it, f[1], f[2])
			}
		}
	}
	if n < 25 {
		t.Fatalf("%s holds %d cases; the file was cut", file, n)
	}
}

// specificsHeld checks a file of site, specific and text lines: the
// specific must be in an item extracted from the text at the site.
func specificsHeld(t *testing.T, file string) { specificsHeldAs(t, file) }

// specificsHeldAs is specificsHeld with the item's kind required to be
// one of kinds, unless there are none.
func specificsHeldAs(t *testing.T, file string, kinds ...Kind) { heldAtLeast(t, file, 25, kinds...) }

// heldAtLeast is specificsHeldAs for a file of at least min cases.
func heldAtLeast(t *testing.T, file string, min int, kinds ...Kind) {
	t.Helper()
	n := 0
	for line, f := range tsvCases(t, file) {
		n++
		want := f[1]
		items := siteItems(t, line, f[0], f[2])
		if !slices.ContainsFunc(items, func(it Item) bool {
			return strings.Contains(it.Value, want) && (len(kinds) == 0 || slices.Contains(kinds, it.Kind))
		}) {
			t.Errorf("%s:%d: %v %s not in %q", file, line, kinds, want, Strings(items))
		}
	}
	if n < min {
		t.Fatalf("%s holds %d cases; the file was cut", file, n)
	}
}

// tsvCases yields the line number and the three fields of each case of a
// file of tab-separated lines, "#" lines being comments; "\n" and "\t" in
// the last field stand for a newline and a tab.
func tsvCases(t *testing.T, file string) iter.Seq2[int, [3]string] {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return func(yield func(int, [3]string) bool) {
		for i, line := range strings.Split(string(data), "\n") {
			f := strings.SplitN(line, "\t", 3)
			if strings.HasPrefix(line, "#") || len(f) < 3 {
				continue
			}
			unescape := strings.NewReplacer(`\n`, "\n", `\t`, "\t")
			if !yield(i+1, [3]string{f[0], unescape.Replace(f[1]), unescape.Replace(f[2])}) {
				return
			}
		}
	}
}

// siteItems extracts the items of text at a site: "out" or "fail", a
// tool's output (of a call running ./run.sh), "user" or "asst", a message.
func siteItems(t *testing.T, line int, site, text string) []Item {
	t.Helper()
	switch site {
	case "out", "fail":
		c := condense.ToolCall("c1", "bash", []byte(`{"command":"./run.sh"}`))
		r := condense.ToolResult("c1", site == "fail", condense.Text(text))
		return ExtractResult(&c, &r, 1)
	case "user":
		return ExtractMessage(&condense.Message{Role: condense.RoleUser, Parts: []condense.Part{condense.Text(text)}}, 3)
	case "asst":
		return ExtractMessage(&condense.Message{Role: condense.RoleAssistant, Parts: []condense.Part{condense.Text(text)}}, 3)
	}
	t.Fatalf("line %d: unknown site %q", line, site)
	return nil
}

// TestGeneratedIDShapes: what looks generated is an id; names, versions,
// sizes and words that merely hold digits are not.
func TestGeneratedIDShapes(t *testing.T) {
	for tok, want := range map[string]bool{
		"run-7f3e9a": true, "a3f9e2c1b7d4": true, "i-0a1b2c3d4e5f67890": true, "INC0012345": true,
		"pr-1184": true, "cs_live_a1B2c3D4e5F6g7H8": true, "20261130094512_add_orders_tenant_index": true,
		"gke-prod-pool-2-8f3a1c2d-9xkq": true, "a3f1c9e": true, "GHSA-9w8x-4h5c-2jqf": true,
		"user_48213": true, "ledger_email_93237": true, "inv-2026-0042": true,
		"api-00042-xiz": true, "billing-worker-00117-q7z": true, "1701234567890-0": true,
		"api-00042": false, "1701234567890-1234567": false, "2026-11-30": false,
		"iso-8859-1": false, "node-18-alpine": false, "ubuntu-22-04": false, "web-1-2": false, "utf-8": false,
		"http_500": false, "line-12-40": false,
		"abc1234": false, "1e10abc": false, "ipv4-ipv6-dual": false, "h264-x265": false,
		"cafe1234": false, "deadbeef": false, "utf8mb4": false, "x86_64": false, "sha-256": false,
		"line-120": false, "TestParse2": false, "python3": false, "20261130T100211Z": false,
		"linux-amd64": false, "0x7f3a9c2e1b40": false, "v1-30-2": false, "base64": false, "int64": false,
		"float64ToInt32": false, "uint8ToInt16": false, "parseV2Header1": false, "v1beta1": false,
		"v2alpha3": false, "a1b2c3": false, "3fa2bc": false, "windows-1252": false, "ubuntu-2204": false,
	} {
		if got := generatedID(tok); got != want {
			t.Errorf("generatedID(%q) = %v, want %v", tok, got, want)
		}
	}
}

// TestNumberedIDsLeavePositions: a number after a word names a thing only
// when the word is a thing's kind ("order 48213"), not a position, a size
// or a count ("port 8080", "line 120", "200 users").
func TestNumberedIDsLeavePositions(t *testing.T) {
	m := condense.AssistantText("The server listens on port 8080, line 120 sets it; step 100 copies 20000 rows for 200 users; " +
		"run 100 and case 404 of batch 256 took request 200 to user 250 ms; Build 2024-01-05 passed; see order 48213.")
	var ids []string
	for _, it := range ExtractMessage(&m, 1) {
		if it.Kind == KindID {
			ids = append(ids, it.Value)
		}
	}
	if !slices.Equal(ids, []string{"order 48213"}) {
		t.Errorf("ids = %q, want only the order", ids)
	}
}

// TestAllDigitShortHash: git log --oneline starts a line with the short
// hash and the subject, even when the hash is all digits.
func TestAllDigitShortHash(t *testing.T) {
	c := condense.ToolCall("c1", "bash", []byte(`{"command":"git log --oneline -3"}`))
	r := condense.ToolResult("c1", false, condense.Text("42cae98 Revert driver in api\n2637798 Route the route planner (#139)\n995f300 Add route in api\n1234567 rows copied"))
	var ids []string
	for _, it := range ExtractResult(&c, &r, 1) {
		if it.Kind == KindID {
			ids = append(ids, it.Value)
		}
	}
	if !slices.Contains(ids, "2637798") || slices.Contains(ids, "1234567") {
		t.Errorf("ids = %q, want 2637798 and not the row count", ids)
	}
	// Outside git's output a line's first number is a timestamp or a size.
	c = condense.ToolCall("c2", "bash", []byte(`{"command":"tail -n 2 server.log"}`))
	r = condense.ToolResult("c2", false, condense.Text("1717171717 INFO server started\n1048576 Documents"))
	for _, it := range ExtractResult(&c, &r, 1) {
		if it.Kind == KindID {
			t.Errorf("id %q in a log's timestamps", it.Value)
		}
	}
}

// TestColourIsNoID: a CSS colour after '#' is not an id; a long generated
// token after '#' is ("Order #B7F3A1C9D2E4").
func TestColourIsNoID(t *testing.T) {
	c := condense.ToolCall("c1", "bash", []byte(`{"command":"./check.sh"}`))
	r := condense.ToolResult("c1", false, condense.Text(".badge { color: #A1B2C3; }\nOrder #B7F3A1C9D2E4 could not be shipped"))
	var ids []string
	for _, it := range ExtractResult(&c, &r, 1) {
		if it.Kind == KindID {
			ids = append(ids, it.Value)
		}
	}
	if !slices.Equal(ids, []string{"B7F3A1C9D2E4"}) {
		t.Errorf("ids = %q, want only the order", ids)
	}
}

// TestIDLookalikes: a reviewer's cases. Counts, settings, lists of
// platform names, line numbers and the names in a benchmark's or a file
// listing's odd row are not ids.
func TestIDLookalikes(t *testing.T) {
	for _, tc := range []struct{ text, not string }{
		{"replayed event 1000 of 25000", "1000"},
		{"Run 1000000 iterations of the fuzzer", "1000000"},
		{"set batch_size_512 and exit_code_127 for case_001", "_"},
		{"wheels for amd64-arm64-s390x and cu118-cu121-cu124", "-"},
		{"see docs/RFC-0042 for the format, and ../ENG-4821, too", "-"},
		{"200\n200\n200\n200\n503", "503"},
		{"   101\tx := 1\n   102\ty := 2\n   103\tz := 3\n   104\tw = 4\n   105\tv := 5", "10"},
		{"BenchmarkSplit-8   1000   120 ns/op   0 B/op\nBenchmarkJoin-8   1000   130 ns/op   0 B/op\nBenchmarkTrim-8   1000   110 ns/op   0 B/op\nBenchmarkPad-8   1000   150 ns/op   48 B/op",
			"Benchmark"},
		{"file_001.parquet 128M\nfile_002.parquet 128M\nfile_003.parquet 128M\nfile_004.parquet 96M\nfile_005.parquet 128M", "parquet"},
		{"Applying orders.0001_initial... OK and 2026_report ready", "_"},
		{"level=info msg=synced tenant=105 rows=12\nlevel=info msg=synced tenant=107 rows=9", "tenant"},
		{"build for linux-amd64 and py-utf8s with x86-64v3", "-"},
	} {
		for _, it := range outputItems(tc.text) {
			if it.Kind == KindID && strings.Contains(it.Value, tc.not) {
				t.Errorf("%q: %s is no id", tc.text, it)
			}
		}
	}
	// The branch's key is still read.
	found := false
	for _, it := range outputItems("Switched to a new branch 'feature/ENG-4821'") {
		found = found || it.Kind == KindID && it.Value == "ENG-4821"
	}
	if !found {
		t.Error("no id ENG-4821 in a branch's name")
	}
}

// TestMeasurementsOfManyTools reads testdata/measurements.tsv the same way.
func TestMeasurementsOfManyTools(t *testing.T) { specificsHeld(t, "testdata/measurements.tsv") }

// TestAddressIDs: a Terraform resource address and a Kafka record's
// topic-partition@offset are ids; a module's source, an e-mail address and
// a package at a version are not.
func TestAddressIDs(t *testing.T) {
	itemsHeld(t, "│   with module.vpc.aws_subnet.private[2],\n  # data.aws_iam_policy.ci will be read\n"+`{"partitions":["orders-2@44810","orders-3@18234"]}`,
		[]string{`id "module.vpc.aws_subnet.private[2]"`, "id data.aws_iam_policy.ci", "id orders-2@44810", "id orders-3@18234"}, nil)
	itemsHeld(t, "source = terraform-aws-modules/vpc/aws, mail dev-2@example.com, lodash@4.17.21, python_version.major", nil,
		[]string{"id dev-2@example.com", "id lodash@4.17.21", "id python_version.major"})
}

// TestTraceHeaders: the trace id of a response's headers is an id,
// whichever header carries it.
func TestTraceHeaders(t *testing.T) {
	out := "HTTP/2 502 \nserver: envoy\nx-amzn-trace-id: Root=1-67891233-abcdef012345678912345678;Parent=53995c3f42cd8ad8;Sampled=1\n" +
		"x-cloud-trace-context: 105445aa7843bc8bf206b12000100000/1;o=1\ntraceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\n\n"
	c := condense.ToolCall("c1", "bash", []byte(`{"command":"curl -sS -D - -o /dev/null https://api.example.test/v1/orders/7"}`))
	r := condense.ToolResult("c1", false, condense.Text(out))
	items := ExtractResult(&c, &r, 1)
	for _, want := range []string{"1-67891233-abcdef012345678912345678", "105445aa7843bc8bf206b12000100000", "0af7651916cd43dd8448eb211c80319c"} {
		if !slices.ContainsFunc(items, func(it Item) bool { return it.Kind == KindID && strings.Contains(it.Value, want) }) {
			t.Errorf("no id %q in %q", want, Strings(items))
		}
	}
}

// TestShapesSeenMissing reads the *_seen.tsv files: shapes a tuning corpus
// showed missing, written anew, each held by an item of its kind.
func TestShapesSeenMissing(t *testing.T) {
	for file, kind := range map[string]Kind{"testdata/errors_seen.tsv": KindError, "testdata/ids_seen.tsv": KindID,
		"testdata/measurements_seen.tsv": KindMeasurement, "testdata/decisions_seen.tsv": KindDecision} {
		t.Run(file, func(t *testing.T) { heldAtLeast(t, file, 4, kind) })
	}
}

// TestShapesOfTools: lines as real tools print them, written from the
// tools' documented formats rather than from any corpus, and decisions as
// agents and users word them, each in an item of its kind; a figure with
// the line that says what it measures.
func TestShapesOfTools(t *testing.T) {
	for file, c := range map[string]struct {
		kind Kind
		min  int
	}{"testdata/measurements_tools.tsv": {KindMeasurement, 59}, "testdata/errors_tools.tsv": {KindError, 66},
		"testdata/ids_tools.tsv": {KindID, 20}, "testdata/decisions_styles.tsv": {KindDecision, 62}} {
		t.Run(file, func(t *testing.T) { heldAtLeast(t, file, c.min, c.kind) })
	}
}

// TestRowAndRecordIDs: the handle of a listing's failed row is kept
// whatever its shape; a ticket key in an indented JSON record is not a
// listing's routine row (the record's members are shaped alike but are no
// rows); an "id" holds a long cloud id whole.
func TestRowAndRecordIDs(t *testing.T) {
	trino := `"query_id","state","source","error_code","queued_time_ms"` + "\n" +
		`"20260422_085012_46710_dnofz","FINISHED","dbt","","317"` + "\n" +
		`"20260422_085019_46709_dnofz","FINISHED","dbt","","374"` + "\n" +
		`"20260422_085026_46708_dnofz","FINISHED","superset","","22"` + "\n" +
		`"20260422_085033_46707_dnofz","FINISHED","superset","","154"` + "\n" +
		`"20260422_085040_46706_dnofz","FAILED","superset","EXCEEDED_LOCAL_MEMORY_LIMIT","272"` + "\n"
	got := values(result("trino --execute 'SELECT query_id FROM system.runtime.queries'", trino, false), KindID)
	if !slices.Contains(got, "20260422_085040_46706_dnofz") || slices.Contains(got, "20260422_085012_46710_dnofz") {
		t.Errorf("trino rows: ids %q, want the failed query's only", got)
	}
	jira := "{\n  \"id\": \"41283\",\n  \"key\": \"PAY-4128\",\n  \"self\": \"https://acme.atlassian.net/rest/api/3/issue/41283\"\n}\n"
	if got := values(result("curl -s https://acme.atlassian.net/rest/api/3/issue -d @bug.json | jq .", jira, false), KindID); !slices.Contains(got, "PAY-4128") {
		t.Errorf("jira record: ids %q, want PAY-4128", got)
	}
	ocid := "{\n  \"id\": \"ocid1.instance.oc1.iad.anuwcljt4x2qk7mzc3d5efgh6ijk7lmn8opq9rst2uvw3xyz4abcdq\",\n  \"state\": \"RUNNING\"\n}\n"
	if got := values(result("oci compute instance launch --wait-for-state RUNNING", ocid, false), KindID); !slices.Contains(got, "id=ocid1.instance.oc1.iad.anuwcljt4x2qk7mzc3d5efgh6ijk7lmn8opq9rst2uvw3xyz4abcdq") {
		t.Errorf("oci record: ids %q, want the instance's ocid", got)
	}
}
