package ledger

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// spikeLog prints n log lines of a format, each with a routine figure from
// the generator, and the line of the spike at position at.
func spikeLog(n, at int, line func(i int, r *rand.Rand) string, spike string) string {
	r := rand.New(rand.NewPCG(7, uint64(n)))
	var b strings.Builder
	for i := range n {
		if i == at {
			b.WriteString(spike + "\n")
			continue
		}
		b.WriteString(line(i, r) + "\n")
	}
	return b.String()
}

// TestSpikes: in a log of many lines giving the same labelled figure (or
// of a few, when the figure is very far above), the line whose figure is
// far above the rest is kept as printed, in formats
// no reader knows by name: bracketed fields, JSON records, logfmt and a
// metric exposition.
func TestSpikes(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"short series", spikeLog(7, 3, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("step %d | loss %.4f | grad_norm %.3f | tok/s %d", 4100+100*i, 2.3+r.Float64()/10, 0.38+r.Float64()/20, 188000+r.IntN(900))
		}, "step 4320 | loss 7.9120 | grad_norm 812.044 | tok/s 187998"), "step 4320 | loss 7.9120 | grad_norm 812.044 | tok/s 187998"},
		{"bracketed", spikeLog(40, 27, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("[2026-03-02T11:%02d:07,412][INFO ][catalog.slowlog] [node-%d] [items][%d] took[%.1fs], took_millis[%d], hits[%d]", i, r.IntN(6), r.IntN(5), 0.4+r.Float64()*2.5, 400+r.IntN(2500), 1000+r.IntN(90000))
		}, "[2026-03-02T11:27:07,412][WARN ][catalog.slowlog] [node-3] [items][1] took[21.7s], took_millis[21702], hits[2207113]"),
			"[items][1] took[21.7s], took_millis[21702], hits[2207113]"},
		{"json", spikeLog(30, 11, func(i int, r *rand.Rand) string {
			return fmt.Sprintf(`{"job":"export_%d","state":"success","duration":%.3f,"attempt":1}`, i, 30+r.Float64()*90)
		}, `{"job":"rebuild_search","state":"success","duration":4410.372,"attempt":1}`),
			`"duration":4410.372`},
		{"logfmt", spikeLog(25, 20, func(i int, r *rand.Rand) string {
			return fmt.Sprintf(`ts=2026-03-02T10:00:%02dZ level=info route=/v2/cart latency_ms=%d bytes=%d`, i, 20+r.IntN(60), 900+r.IntN(400))
		}, `ts=2026-03-02T10:00:20Z level=info route=/v2/cart latency_ms=2841 bytes=1022`),
			`latency_ms=2841`},
		{"over zeros", spikeLog(20, 13, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("batch %d committed errors=0 rows=%d", i, 900+r.IntN(200))
		}, "batch 13 committed errors=412 rows=1004"),
			"batch 13 committed errors=412 rows=1004"},
		{"leading counts", "   9114 ESTABLISHED\n    312 TIME_WAIT\n     40 LISTEN\n     17 FIN_WAIT2\n      6 CLOSING\n      2 SYN_SENT\n" +
			"     88 LAST_ACK\n", "9114 ESTABLISHED"},
		{"a table's column", "query                  p99_ms    calls\norders.insert            18.2    41203\ncart.load                12.7    88120\n" +
			"inventory.reserve       884.1    40977\npayments.capture         61.9    40412\nusers.get                 3.4   120331\n", "inventory.reserve       884.1    40977"},
		{"exposition", spikeLog(12, 5, func(i int, r *rand.Rand) string {
			return fmt.Sprintf(`queue_backlog_messages{queue="q%d",vhost="/"} %d`, i, r.IntN(40))
		}, `queue_backlog_messages{queue="invoices",vhost="/"} 48113`),
			`queue_backlog_messages{queue="invoices",vhost="/"} 48113`},
	} {
		var found, odd bool
		for _, it := range outputItems(c.text) {
			if it.Kind == KindMeasurement && strings.Contains(it.Value, c.want) {
				found, odd = true, odd || it.Odd
			}
		}
		if !found || !odd {
			t.Errorf("%s: the spike %q is not kept, marked odd: %q", c.name, c.want, Strings(outputItems(c.text)))
		}
	}
}

// TestNoSpikes: a series without a value far above the rest, a spike in a
// label that names identifiers, too few lines, and a short series whose
// top is not far above the rest mark nothing.
func TestNoSpikes(t *testing.T) {
	for name, text := range map[string]string{
		"uniform": spikeLog(40, -1, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("[INFO] served took[%.1fs]", 0.5+r.Float64()*2)
		}, ""),
		"identifiers": spikeLog(20, 4, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("claimed task tenant_id=%d worker_id=%d", 10+r.IntN(20), r.IntN(8))
		}, "claimed task tenant_id=98412 worker_id=3"),
		"few": spikeLog(4, 2, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("step took=%dms", 10+r.IntN(5))
		}, "step took=9000ms"),
		// a short series spikes only by far: six times its median is not
		"short, not far": spikeLog(6, 2, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("step took=%dms", 10+r.IntN(5))
		}, "step took=72ms"),
		"one over zeros": spikeLog(20, 7, func(i int, r *rand.Rand) string {
			return fmt.Sprintf("job %d done retries=0", i)
		}, "job 7 done retries=1"),
		// a file's numbered lines rise one by one
		"numbered lines": "     1\tpackage main\n     2\t\n     3\timport \"fmt\"\n     4\t\n     5\tfunc main() {\n     6\t\tfmt.Println(1)\n     7\t}\n",
		// a column of whole numbers (links, sizes) is not read as a series
		"whole numbers": "drwxr-xr-x  2 dev dev  4096 a\ndrwxr-xr-x 31 dev dev  4096 b\n-rw-r--r--  1 dev dev   220 c\n-rw-r--r--  1 dev dev   310 d\n-rw-r--r--  1 dev dev   118 e\n-rw-r--r--  1 dev dev   512 f\n",
		// wc -l's total is near its largest count
		"counts with a total": "   120 a.go\n    80 b.go\n  4410 big.go\n    60 c.go\n    90 d.go\n  4760 total\n",
		"two near": spikeLog(30, 3, func(i int, r *rand.Rand) string {
			if i == 9 {
				return "batch rows=70211"
			}
			return fmt.Sprintf("batch rows=%d", 100+r.IntN(50))
		}, "batch rows=90112"),
	} {
		m := map[int]uint8{}
		markSpikes(text, m)
		for start, mark := range m {
			if mark&hotSpike != 0 {
				t.Errorf("%s: marked %q", name, text[start:lineEnd(text, start)])
			}
		}
	}
}

// TestSpikeLabel: the label of a figure is the word before it, past a
// bracket, quote, '=' or ':', or the name of a metric before its labels.
func TestSpikeLabel(t *testing.T) {
	for line, want := range map[string]string{
		"x took[18.2s]":         "took",
		`{"duration":12.5}`:     "duration",
		"latency_ms=41":         "latency_ms",
		"p99: 41ms":             "p99",
		`hits{pool="main"} 187`: "hits",
		"  41 files":            "",
		"[12] done":             "",
		"jvm.heap.used=4120":    "jvm.heap.used",
	} {
		i := strings.IndexFunc(line, func(r rune) bool { return r >= '0' && r <= '9' && !strings.ContainsRune("p", r) })
		if line == "p99: 41ms" {
			i = strings.Index(line, "41")
		}
		if got := spikeLabel(line, i); got != want {
			t.Errorf("spikeLabel(%q) = %q, want %q", line, got, want)
		}
	}
}

// TestMetricLines: of a training log's lines of metrics, the line with the
// best held-out figure is kept (the lowest loss, the highest score),
// whichever framework printed it.
func TestMetricLines(t *testing.T) {
	for _, c := range []struct {
		name  string
		vals  []float64
		line  func(i int, v float64) string
		best  int
		other string
	}{
		{"loss", []float64{3.41, 3.12, 2.97, 2.88, 2.93, 2.99, 3.05},
			func(i int, v float64) string {
				return fmt.Sprintf("step %d: train loss %.4f, val loss %.4f", 500*i, v-0.1, v)
			}, 3, ""},
		{"score", []float64{0.51, 0.58, 0.63, 0.66, 0.671, 0.668, 0.664, 0.661},
			func(i int, v float64) string {
				return fmt.Sprintf("[%d]\ttrain-auc@5:%.5f\tvalid-auc@5:%.5f", 25*i, v+0.1, v)
			}, 4, ""},
		{"keras", []float64{0.41, 0.35, 0.31, 0.29, 0.30, 0.32},
			func(i int, v float64) string {
				return fmt.Sprintf("118/118 ━━━━━━━━━━ 4s 31ms/step - accuracy: 0.%d - loss: %.4f - val_accuracy: 0.%d - val_loss: %.4f", 80+i, v-0.05, 79+i, v)
			}, 3, ""},
	} {
		var b strings.Builder
		b.WriteString("starting run\n")
		for i, v := range c.vals {
			b.WriteString(c.line(i, v) + "\n")
		}
		b.WriteString("done\n")
		want := c.line(c.best, c.vals[c.best])
		var kept bool
		for _, it := range outputItems(b.String()) {
			kept = kept || it.Kind == KindMeasurement && it.Value == want
		}
		if !kept {
			t.Errorf("%s: the best line %q is lost: %q", c.name, want, Strings(outputItems(b.String())))
		}
	}
	for _, line := range []string{"lost 3 packets", "loss of 12 rows", "step 3 of 9", "version 2.31.0"} {
		if _, _, ok := metricFigure(line); ok {
			t.Errorf("metricFigure(%q) reads a metric", line)
		}
	}
}

// TestCostRows: a cost report's rows rank by their cost, not by the
// quantity before it: the dearest row stays when the rows outnumber the
// group's cap.
func TestCostRows(t *testing.T) {
	out := "Project: shop/infra/prod\n\n Name                                            Monthly Qty  Unit         Monthly Cost\n\n" +
		" aws_instance.api\n ├─ Compute (on-demand, m7g.4xlarge)                     730  hours           $2,101.20\n" +
		" ├─ Storage (gp3)                                         200  GB                 $16.00\n" +
		" └─ Snapshots                                    Monthly cost depends on usage: $0.05 per GB\n\n" +
		" aws_lb.public\n └─ Load balancer                                         730  hours              $16.43\n\n" +
		" aws_nat_gateway.a\n ├─ NAT gateway                                           730  hours              $32.85\n" +
		" └─ Data processed                               Monthly cost depends on usage: $0.045 per GB\n\n" +
		" aws_elasticache_cluster.c\n └─ Cache node (cache.t4g.small)                      1,460  hours              $51.00\n\n" +
		" OVERALL TOTAL                                                                   $2,217.48\n"
	var kept bool
	for _, it := range outputItems(out) {
		kept = kept || it.Kind == KindMeasurement && strings.Contains(it.Value, "$2,101.20")
	}
	if !kept {
		t.Errorf("the dearest row is lost: %q", Strings(outputItems(out)))
	}
}
