package ledger

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/condense-dev/condense"
)

// TestJSONLogOutlierPastTheCap: in a JSON log with more timings than the
// per-kind cap, the one slow request replaces a fast one, as it does in a
// plain log ("took=3472.1ms").
func TestJSONLogOutlierPastTheCap(t *testing.T) {
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, `{"level":"info","msg":"hydrate ok","took":"%dms"}`+"\n", 50+i)
	}
	b.WriteString(`{"level":"warn","msg":"slow hydrate","took":"4182.3ms"}` + "\n")
	for i := range 10 {
		fmt.Fprintf(&b, `{"level":"debug","msg":"retry","took":"%dms"}`+"\n", 20+i)
	}
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	got := Strings(ExtractResult(nil, &res, 3))
	if !slices.Contains(got, "measurement `\"took\":\"4182.3ms\"`") {
		t.Errorf("the slow request is lost: %q", got)
	}
}

// TestLoudLines: items on a log line at warning level or above are marked
// loud, in every common log shape, and outrank the same kind on routine
// lines; a word like "warning" in prose or a path does not make a line
// loud.
func TestLoudLines(t *testing.T) {
	for _, l := range []string{
		`{"level":"warn","msg":"slow hydrate","took":"4182.3ms"}`,
		`time=2026-04-19T08:23:50Z level=error msg="payment failed" order=ORD-7731`,
		`[2026-04-25 08:12:24,841] WARNING invoicely.api: retry budget low`,
		`2026-04-25T08:12:24Z WARN  cache: eviction storm`,
		`severity: ERROR message: disk full`,
	} {
		if !loudLine(l) {
			t.Errorf("not loud: %s", l)
		}
	}
	for _, l := range []string{
		`INFO request served took=12ms`,
		`see docs/warnings.md for the list of ERRORS_OK flags`,
		`{"level":"info","msg":"ok"}`,
	} {
		if loudLine(l) {
			t.Errorf("loud: %s", l)
		}
	}
	var b strings.Builder
	for i := range 30 {
		fmt.Fprintf(&b, "level=info msg=\"served\" took=%dms\n", 10+i)
	}
	b.WriteString("level=warn msg=\"slow request\" took=612ms\n")
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	var tl Tally
	items := ExtractResult(nil, &res, 3)
	tl.Add(items)
	var loud, quiet *Item
	for i := range items {
		switch {
		case strings.Contains(items[i].Value, "took=612ms"):
			loud = &items[i]
		case quiet == nil && items[i].Kind == KindMeasurement:
			quiet = &items[i]
		}
	}
	if loud == nil || quiet == nil {
		t.Fatalf("items %q", Strings(items))
	}
	if !loud.Loud || quiet.Loud {
		t.Errorf("loud marks: warn line %v, info line %v", loud.Loud, quiet.Loud)
	}
	if tl.Salience(*loud) <= tl.Salience(*quiet) {
		t.Errorf("the warning's measurement does not outrank a routine one: %d <= %d", tl.Salience(*loud), tl.Salience(*quiet))
	}
}

// TestRoutineFiguresCollapse: figures that repeat under one label in a
// piece of the log keep only the largest few, whatever the per-kind cap:
// eight "took=8xms" lines and one slow one leave the slow one and two
// others, and figures under other labels are not touched.
func TestRoutineFiguresCollapse(t *testing.T) {
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, "level=info msg=\"hydrate ok\" took=%dms\n", 80+i)
	}
	b.WriteString("level=warn msg=\"slow hydrate\" took=3472.1ms\nqueue depth: 41.2ms lag\np99 latency: 812ms\n")
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", Content: []condense.Part{condense.Text(b.String())}}
	var took []string
	got := Strings(ExtractResult(nil, &res, 3))
	for _, v := range got {
		if strings.HasPrefix(v, "measurement ") && strings.Contains(v, "took=") {
			took = append(took, v)
		}
	}
	if len(took) != sameLabelCap || !slices.ContainsFunc(took, func(v string) bool { return strings.Contains(v, "took=3472.1ms") }) {
		t.Errorf("took figures = %q, want the %d largest, the slow one among them", took, sameLabelCap)
	}
	if !slices.Contains(got, `measurement "p99 latency: 812ms"`) {
		t.Errorf("another label's figure is lost: %q", got)
	}
}

// TestLongReportsKeepTheirFigures: a report with more figures than the
// per-kind cap for other kinds keeps a figure past the twentieth (the last
// of four wrk runs, the slow one), and a listing of counters (netstat -s,
// vmstat -s) is read line by line.
func TestLongReportsKeepTheirFigures(t *testing.T) {
	var b strings.Builder
	for i, rate := range []string{"48211.90", "6112.40", "39120.55", "41.07"} {
		fmt.Fprintf(&b, "Running 30s test @ http://10.0.0.%d:8080/\n  Thread Stats   Avg      Stdev     Max   +/- Stdev\n", i+1)
		fmt.Fprintf(&b, "    Latency    %d.31ms    3.19ms   31.86ms   78.71%%\n    Req/Sec    %d.49    723.18   9039.73    74.85%%\n", 5+i*11, 6026-i*900)
		fmt.Fprintf(&b, "  Latency Distribution\n     50%%    %d.51ms\n     75%%    %d.37ms\n     90%%    %d.56ms\n     99%%   %d.77ms\n", 4+i, 6+i, 9+i, 21+i)
		fmt.Fprintf(&b, "  %d requests in 30.02s, %d.90MB read\nRequests/sec:   %s\nTransfer/sec:    %d.46MB\n\n", 1447321-i*1000, 3317-i*10, rate, 238-i)
	}
	itemsHeld(t, b.String(), []string{`measurement "Requests/sec:   41.07"`}, nil)

	netstat := "Tcp:\n    8123441 active connection openings\n    2211904 passive connection openings\n" +
		"    1184302221 segments received\n    1312094415 segments sent out\n    48211339 segments retransmitted\n" +
		"    212 bad segments received\nUdp:\n    55514471 packets received\n    3745 packets to unknown port received\n"
	itemsHeld(t, netstat, []string{`measurement "48211339 segments retransmitted"`, `measurement "3745 packets to unknown port received"`}, nil)
	vmstat := "     16318080 K total memory\n      9811220 K used memory\n      8388604 K total swap\n      7340412 K used swap\n"
	itemsHeld(t, vmstat, []string{`measurement "7340412 K used swap"`}, nil)
	// a number before words on a line of its own is not a counter
	itemsHeld(t, "Building the site\n404 Not Found\n", nil, []string{`measurement "404 Not Found"`})
}

// TestWarningsGiveWay: past half the cap, a build's warnings give way to
// its one fatal error, however many of them follow it.
func TestWarningsGiveWay(t *testing.T) {
	var b strings.Builder
	names := []string{"rc", "buf", "ctx", "nread", "flags", "peer", "sock", "hdr", "opts", "len"}
	warn := func(i int) {
		fmt.Fprintf(&b, "src/mod%d.c:%d:7: warning: '%s' %s [-W%s]\n", i, 10+i*7, names[i%len(names)],
			[]string{"may be used uninitialized", "defined but not used", "shadows a previous local"}[i%3], []string{"maybe-uninitialized", "unused-function", "shadow"}[i%3])
	}
	for i := range 18 {
		warn(i)
	}
	b.WriteString("src/tls/session.c:14:10: fatal error: openssl/evp.h: No such file or directory\ncompilation terminated.\n")
	for i := 18; i < 40; i++ {
		warn(i)
	}
	b.WriteString("make: *** [Makefile:41: all] Error 2\n")
	res := condense.Part{Type: condense.PartToolResult, CallID: "a", IsError: true, Content: []condense.Part{condense.Text(b.String())}}
	got := Strings(ExtractResult(nil, &res, 3))
	if !slices.Contains(got, `error "src/tls/session.c:14:10: fatal error: openssl/evp.h: No such file or directory"`) {
		t.Errorf("the fatal error is lost among the warnings: %q", got)
	}
}

// TestLongestPausePastTheCap: past the cap, in a log whose figures are
// durations, a longer one takes the place of the shortest kept: the one
// long GC pause among sixty short ones stays, behind its line's stamp.
func TestLongestPausePastTheCap(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		ms := fmt.Sprintf("%d.%03dms", 20+(i*37)%60, i)
		if i == 50 {
			ms = "11843.221ms"
		}
		fmt.Fprintf(&b, "[2026-05-14T10:%02d:%02d.359+0000][%d.151s][info][gc] GC(%d) Pause Young (Normal) (G1 Evacuation Pause) %dM->%dM(8192M) %s\n",
			i/60, i%60, 81240+i, 41200+i, 7000+i, 5900+i, ms)
	}
	got := Strings(outputItems(b.String()))
	if !slices.ContainsFunc(got, func(g string) bool { return strings.Contains(g, "11843.221ms") }) {
		t.Errorf("the long pause is lost: %q", got)
	}
}

// TestLeaderLines: a figure after a leader of dots (Maven's reactor
// summary) is a measurement, kept with its line; a leader with no figure
// after it is not.
func TestLeaderLines(t *testing.T) {
	out := "[INFO] Reactor Summary for Shop 2.1.0:\n[INFO]\n" +
		"[INFO] Shop :: Core ...................................... SUCCESS [01:12 min]\n" +
		"[INFO] Shop :: Integration Tests ......................... SUCCESS [21:18 min]\n" +
		"[INFO] Shop :: Docs ...................................... SKIPPED\n[INFO] BUILD SUCCESS\n"
	itemsHeld(t, out, []string{`measurement "[INFO] Shop :: Integration Tests ......................... SUCCESS [21:18 min]"`},
		[]string{`measurement "[INFO] Shop :: Docs ...................................... SKIPPED"`})
}

// TestLargestSizesPastTheCap: past the cap, du's listing keeps its
// largest directories, whatever their place in the sorted listing; and a
// reactor summary printed with a gap rather than dots is read too.
func TestLargestSizesPastTheCap(t *testing.T) {
	var b strings.Builder
	for i := range 70 {
		size := fmt.Sprintf("%dK", 100+i*7)
		if i == 60 {
			size = "71G"
		}
		fmt.Fprintf(&b, "%s\t/var/lib/pkg-%02d\n", size, i)
	}
	itemsHeld(t, b.String(), []string{"measurement `71G\t/var/lib/pkg-60`"}, nil)
	itemsHeld(t, "[INFO] Shop :: Integration Tests                        SUCCESS [21:18 min]\n", []string{`measurement "[INFO] Shop :: Integration Tests                        SUCCESS [21:18 min]"`}, nil)
}
