package ledger

import (
	"slices"
	"testing"
)

// TestUnlabelledMeasurements: a number with a unit of time, size or rate is
// a measurement although nothing names it — a query's "(63.23 sec)" — and
// a benchmark harness's result row is labelled with its benchmark's name: a
// Criterion interval "[142.63 µs 224.97 µs 402.11 µs]", a JMH score with its
// margin of error "258.520 ± 16.569  us/op" (its two-space column gap kept
// as printed) — while a bare percentage or a count with a one-letter unit is
// not. A key written as a call ("p(95)=", "quantile(0.99)=") or spelling a
// unit ("min=") labels its figure, and a signed figure is never another's
// label.
func TestUnlabelledMeasurements(t *testing.T) {
	for _, tc := range []struct {
		text string
		want []string
		not  []string
	}{
		{"1 row in set, 1 warning (63.23 sec)", []string{`measurement "63.23 sec"`}, nil},
		{"parse/1k                  time:   [142.63 µs 224.97 µs 402.11 µs]", []string{`measurement "parse/1k time: [142.63 µs 224.97 µs 402.11 µs]"`}, nil},
		{"Benchmark        Mode  Cnt     Score     Error  Units\nRouteBench.drive  avgt   25  258.520 ± 16.569  us/op", []string{`measurement "RouteBench.drive avgt: 258.520 ± 16.569  us/op"`}, nil},
		{"(40 x)", nil, []string{`measurement "40 x"`}},
		{"http_req_duration..: avg=120.5ms min=10.2ms p(90)=250.3ms p(95)=293.27ms",
			[]string{"measurement avg=120.5ms", "measurement min=10.2ms", "measurement p(90)=250.3ms", "measurement p(95)=293.27ms"},
			[]string{`measurement "250.3ms p"`, "measurement 293.27ms"}},
		{"quantile(0.99)=812ms", []string{"measurement quantile(0.99)=812ms"}, nil},
		{"latency: 3.2ms +1.0ms", []string{`measurement "latency: 3.2ms"`, "measurement +1.0ms"}, []string{`measurement "3.2ms +1.0ms"`}},
		{"change: [-4.0% +0.4% +2.1%]", nil, []string{`measurement "-4.0% +0.4%"`, `measurement "-4.0% +0.4% +2.1%"`}},
	} {
		got := Strings(outputItems(tc.text))
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%q: %s missing from %q", tc.text, w, got)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%q: %s is no measurement", tc.text, n)
			}
		}
	}
}
