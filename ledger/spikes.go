package ledger

import (
	"slices"
	"strconv"
	"strings"
	"sync"
)

// This file finds the figure that spikes in a log: among forty slow-query
// lines that each say took[0.5s] to took[2.9s], the one that says
// took[18.2s]; among a job log's "duration":12.4 to "duration":98.1, the
// "duration":6073.2. No reader needs to know the log's format: a figure is
// told by the word it follows (its label: took, duration, latency_ms,
// total_hits, a metric's name) and the unit after it, and a label that
// many lines give is a series whose one far larger value stands out.
//
// A series is read when at least minSpikeSeries lines give a figure under
// one label and unit; its largest value spikes when it is at least
// spikeOverMedian times the series' median and spikeOverNext times the
// next largest. An output whose series spike on more than maxSpikeLines
// lines has nothing that stands out. Labels that name identifiers, ports,
// process numbers and line numbers are not series: their values are
// labels themselves.

const (
	minSpikeSeries  = 8
	spikeOverMedian = 4
	spikeOverNext   = 2
	maxSpikeLines   = 3
	// A shorter series, of minShortSeries figures or more (a training
	// log sampled every few hundred steps), spikes only by far: ten
	// times its median and five times the next largest.
	minShortSeries       = 5
	shortSpikeOverMedian = 10
	shortSpikeOverNext   = 5
	// minSpikeOverZero is the least a spike among figures mostly zero
	// must be: errors=412 among errors=0 stands out, retries=1 does not.
	minSpikeOverZero = 10
)

// leadCount labels the series of figures that open their lines ("  27113
// CLOSE_WAIT" of uniq -c).
const leadCount = "\x00lead"

// spikeKey names a series: a figure's label and its unit's family (or its
// unit, when it has no family).
type spikeKey struct{ label, unit string }

// spikePoint is one figure of a series: its value (in seconds or bytes
// for times and sizes) and the start of its line.
type spikePoint struct {
	v     float64
	start int
}

type spikeBuf struct {
	series map[spikeKey][]spikePoint
	vals   []float64
	lines  []int
}

var spikeBufs = sync.Pool{New: func() any { return &spikeBuf{series: make(map[spikeKey][]spikePoint)} }}

// markSpikes adds hotSpike to the lines of text holding the figure that
// spikes in a series (see above).
func markSpikes(text string, m map[int]uint8) {
	if strings.Count(text, "\n") < minShortSeries-1 {
		return
	}
	b := spikeBufs.Get().(*spikeBuf)
	defer spikeBufs.Put(b)
	// The labels are pieces of text: none is kept past this call, so
	// that the pool holds no output alive.
	defer clear(b.series)
	for start := 0; start < len(text); {
		end := lineEnd(text, start)
		b.readLine(text[start:end], start)
		start = end + 1
	}
	b.lines = b.lines[:0]
	for _, pts := range b.series {
		if len(pts) < minShortSeries {
			continue
		}
		if at, ok := b.spike(pts); ok && !slices.Contains(b.lines, at) {
			b.lines = append(b.lines, at)
		}
	}
	if len(b.lines) > maxSpikeLines {
		return
	}
	for _, at := range b.lines {
		m[at] |= hotSpike
	}
}

// readLine adds the labelled figures of line t, which starts at start in
// its text, to their series: one figure a label and unit on a line.
func (b *spikeBuf) readLine(t string, start int) {
	if len(t) > 4096 {
		t = t[:4096]
	}
	b.readColumns(t, start)
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) || i > 0 && (isDigit(t[i-1]) || t[i-1] == '.' || t[i-1] == ',') {
			continue
		}
		end, ok := numberEnd(t, i)
		if !ok {
			continue
		}
		if end < len(t) && (t[end] == ':' || t[end] == '-' || t[end] == '.' || t[end] == 'x') && end+1 < len(t) && isAlnum(t[end+1]) {
			i = end // a time of day, a date, a version, a hexadecimal
			continue
		}
		label := spikeLabel(t, i)
		if label == "" && strings.TrimLeft(t[:i], " \t") == "" && end+1 < len(t) && (t[end] == ' ' || t[end] == '\t') {
			// a count that opens its line, its label after it: the
			// lines of uniq -c, wc -l, du are one series by their shape
			label = leadCount
		}
		if label == "" || idLabel(label) {
			i = end
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(t[i:end], ",", ""), 64)
		if err != nil || v < 0 {
			i = end
			continue
		}
		_, unit := unitAfter(t, end)
		if fam, scale := unitFamily(unit); fam != "" {
			unit, v = fam, v*scale
		}
		k := spikeKey{label, unit}
		pts := b.series[k]
		if n := len(pts); n > 0 && pts[n-1].start == start {
			i = end
			continue // the label's first figure on the line
		}
		b.series[k] = append(pts, spikePoint{v, start})
		i = end
	}
}

// readColumns adds the decimal figures of line t that are whole fields to
// the series of their column: the column of a table, told by the line's
// number of fields and the figure's place among them ("inventory.reserve
// 884.1 40977" among rows of "orders.insert 18.2 41203"), whatever labels
// its rows. Only figures with a decimal point count: a column of whole
// numbers is as often a count of links or a size as a measurement.
func (b *spikeBuf) readColumns(t string, start int) {
	if strings.IndexByte(t, '.') < 0 {
		return
	}
	n := 0
	for range fieldSpans(t) {
		n++
	}
	if n < 2 || n > 16 {
		return
	}
	k := -1
	for f := range fieldSpans(t) {
		k++
		if strings.Count(f, ".") != 1 || !isDigit(f[0]) || !isDigit(f[len(f)-1]) {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil || v < 0 {
			continue
		}
		key := spikeKey{label: columnLabel(n, k)}
		if pts := b.series[key]; len(pts) > 0 && pts[len(pts)-1].start == start {
			continue
		}
		b.series[key] = append(b.series[key], spikePoint{v, start})
	}
}

// fieldSpans yields the fields of t split at spaces, tabs and carriage
// returns, as
// strings.Fields does, without making a slice of them.
func fieldSpans(t string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for i := 0; i < len(t); {
			for i < len(t) && (t[i] == ' ' || t[i] == '\t' || t[i] == '\r') {
				i++
			}
			j := i
			for j < len(t) && t[j] != ' ' && t[j] != '\t' && t[j] != '\r' {
				j++
			}
			if j > i && !yield(t[i:j]) {
				return
			}
			i = j
		}
	}
}

// columnLabels name the columns of tables (see readColumns), made once.
var columnLabels = func() [17][16]string {
	var l [17][16]string
	for n := range l {
		for k := range l[n] {
			l[n][k] = "\x00col" + strconv.Itoa(n) + "." + strconv.Itoa(k)
		}
	}
	return l
}()

func columnLabel(n, k int) string { return columnLabels[n][k] }

// spike returns the start of the line of the series' spike, if it has one.
func (b *spikeBuf) spike(pts []spikePoint) (int, bool) {
	top, next, at := -1.0, -1.0, -1
	b.vals = b.vals[:0]
	for _, p := range pts {
		b.vals = append(b.vals, p.v)
		switch {
		case p.v > top:
			top, next, at = p.v, top, p.start
		case p.v > next:
			next = p.v
		}
	}
	slices.Sort(b.vals)
	median := b.vals[len(b.vals)/2]
	overNext, overMedian := float64(spikeOverNext), float64(spikeOverMedian)
	if len(pts) < minSpikeSeries {
		overNext, overMedian = shortSpikeOverNext, shortSpikeOverMedian
	}
	if top < overNext*next || top < overMedian*median || median <= 0 && top < minSpikeOverZero {
		return 0, false
	}
	return at, true
}

// spikeLabel returns the label of the number at t[i]: the word just
// before it, past spaces and at most four bytes of brackets, quotes, '='
// or ':' ("took[", `"duration":`, `"Amount": "`, "latency_ms=", "p99: ");
// or the
// name of a metric whose labels in braces come before its value
// (`requests_pending{pool="main"} 187`). "" when there is none.
func spikeLabel(t string, i int) string {
	j := i
	for n := 0; j > 0; j-- {
		if t[j-1] == ' ' || t[j-1] == '\t' {
			continue // the gap of an aligned report: "Elapsed time:   6h28m12.1s"
		}
		if n++; n > 4 || strings.IndexByte(`[=:"'(`, t[j-1]) < 0 {
			break
		}
	}
	if j > 0 && t[j-1] == '}' && j < i {
		if k := strings.IndexByte(t, '{'); k > 0 && k < j && strings.IndexByte(t[:k], ' ') < 0 {
			return t[:k]
		}
		return ""
	}
	e := j
	for j > 0 && (isWordByte(t[j-1]) || t[j-1] == '.' || t[j-1] == '-') {
		j--
	}
	w := strings.Trim(t[j:e], ".-")
	if len(w) < 2 || !strings.ContainsFunc(w, func(r rune) bool { return r < 0x80 && isAlpha(byte(r)) }) {
		return ""
	}
	return w
}

// idLabel reports whether a label names values that are themselves
// labels: identifiers, ports, process and line numbers, versions.
func idLabel(l string) bool {
	if strings.HasSuffix(l, "Id") || strings.HasSuffix(l, "ID") {
		return true // userId, requestID
	}
	for _, w := range idWords {
		if len(l) < len(w) || !strings.EqualFold(l[len(l)-len(w):], w) {
			continue
		}
		if len(l) == len(w) || strings.IndexByte("_-.", l[len(l)-len(w)-1]) >= 0 {
			return true // "pid", "tenant_id", "http.port"
		}
	}
	return false
}

// idWords are the words that make a label name identifiers (idLabel).
var idWords = []string{"id", "ids", "pid", "port", "line", "lineno", "seq", "version", "build", "tenant", "user",
	"uid", "gid", "shard", "partition", "node", "thread", "tid", "worker", "index", "idx", "no", "num", "number",
	"row", "col", "column", "code", "status", "epoch", "step", "iter", "iteration", "ts", "timestamp"}

// metricFigure returns where the last figure of a model's quality metric
// starts on line t, as training and evaluation logs print them ("step
// 4250: train loss 2.8962, val loss 2.9271", "valid-ndcg@10:0.69947",
// "- val_accuracy: 0.9012", "'eval_f1': 0.8731"), and whether less of
// it is better (a loss, an error rate). The last is read: a log prints
// the training figure first and the held-out one after it. A metric's
// figure has decimals.
func metricFigure(t string) (at int, lower, ok bool) {
	for i := 0; i < len(t); i++ {
		if !isDigit(t[i]) || i > 0 && (isDigit(t[i-1]) || t[i-1] == '.') {
			continue
		}
		end := i
		for end < len(t) && isDigit(t[end]) {
			end++
		}
		if end+1 >= len(t) || t[end] != '.' || !isDigit(t[end+1]) {
			i = end
			continue
		}
		if l, known := metricLabel(t, i); known {
			at, lower, ok = i, l, true
		}
		for end++; end < len(t) && isDigit(t[end]); end++ {
		}
		i = end
	}
	return at, lower, ok
}

// metricLabel reports whether the figure at t[i] is named by one of
// metricWords, and whether less of it is better: the last part of the name
// before it ("val_loss", "train-ndcg@10", 'eval_f1'), past a ':' or '=',
// quotes and spaces, in any case.
func metricLabel(t string, i int) (lower, known bool) {
	j := i
	for n := 0; j > 0 && n < 4 && strings.IndexByte(`:=' "`, t[j-1]) >= 0; n++ {
		j--
	}
	e := j
	if k := strings.LastIndexByte(t[max(0, e-6):e], '@'); k >= 0 && allDigits(t[max(0, e-6)+k+1:e]) {
		e = max(0, e-6) + k // "ndcg@10"
	}
	s := e
	for s > 0 && isAlnum(t[s-1]) {
		s--
	}
	if s == e || e-s > 12 {
		return false, false
	}
	var b [12]byte
	w := b[:0]
	for k := s; k < e; k++ {
		c := t[k]
		if isUpper(c) {
			c += 'a' - 'A'
		}
		w = append(w, c)
	}
	lower, known = metricWords[string(w)] // no allocation for the lookup
	return lower, known
}

// metricWords are the names of models' quality metrics, each with whether
// less of it is better.
var metricWords = map[string]bool{
	"loss": true, "perplexity": true, "ppl": true, "mae": true, "mse": true, "rmse": true, "wer": true, "cer": true,
	"logloss": true, "fid": true,
	"acc": false, "accuracy": false, "f1": false, "auc": false, "precision": false, "recall": false, "bleu": false,
	"rouge": false, "rougel": false, "ndcg": false, "mrr": false, "map": false, "r2": false, "top1": false, "top5": false,
	"iou": false, "miou": false, "dice": false, "psnr": false, "ssim": false,
}
