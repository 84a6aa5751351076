package eval

import (
	"fmt"
	"html"
	"io"
	"path/filepath"
	"strings"
)

// chart geometry, in SVG user units.
const (
	chartWidth   = 860
	panelHeight  = 320
	marginLeft   = 80
	marginRight  = 190
	marginTop    = 40
	marginBottom = 50
)

// chartColors are the policies' line colours, in policy order.
var chartColors = []string{"#7f7f7f", "#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"}

// WriteChart writes an SVG line chart of the tokens of every replayed
// request, one panel per report and one polyline per policy, with the input
// limit as a dashed line and the requests that did not fit marked with
// crosses. It needs no dependency: the SVG is written by hand.
func WriteChart(w io.Writer, reports []*Report) error {
	var b strings.Builder
	height := max(1, len(reports)) * panelHeight
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		chartWidth, height, chartWidth, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	for i, rep := range reports {
		panel(&b, rep, i*panelHeight)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func panel(b *strings.Builder, rep *Report, top int) {
	x0, x1 := float64(marginLeft), float64(chartWidth-marginRight)
	y0, y1 := float64(top+panelHeight-marginBottom), float64(top+marginTop)
	steps, peak := 1, rep.InputLimit
	for _, p := range rep.Policies {
		steps = max(steps, len(p.Replay.TokensPerStep))
		for _, t := range p.Replay.TokensPerStep {
			peak = max(peak, t)
		}
	}
	// Requests far over the limit (no compaction) would squash the lines
	// that matter: the axis stops at twice the input limit and higher
	// points are drawn on its top edge.
	if rep.InputLimit > 0 {
		peak = min(peak, 2*rep.InputLimit)
	}
	ymax := niceCeil(float64(peak) * 1.05)
	xOf := func(step int) float64 {
		if steps <= 1 {
			return x0
		}
		return x0 + (x1-x0)*float64(step)/float64(steps-1)
	}
	yOf := func(tokens float64) float64 { return y0 - (y0-y1)*min(tokens, ymax)/ymax }

	fmt.Fprintf(b, `<g class="panel">`+"\n")
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", marginLeft, top+22,
		html.EscapeString(fmt.Sprintf("%s — tokens per request (%s, window %s)", filepath.Base(rep.File), rep.Model, shortTokens(float64(rep.Window)))))
	// Axes with ticks.
	fmt.Fprintf(b, `<line class="axis" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x0, y0, x1, y0)
	fmt.Fprintf(b, `<line class="axis" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x0, y0, x0, y1)
	for k := 0; k <= 5; k++ {
		v := ymax * float64(k) / 5
		y := yOf(v)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/>`+"\n", x0, y, x1, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n", x0-6, y+4, shortTokens(v))
	}
	for k := 0; k <= 5; k++ {
		s := (steps - 1) * k / 5
		x := xOf(s)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", x, y0, x, y0+4)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">%d</text>`+"\n", x, y0+18, s+1)
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle">assistant step</text>`+"\n", (x0+x1)/2, y0+38)
	fmt.Fprintf(b, `<text transform="translate(%d %.1f) rotate(-90)" text-anchor="middle">input tokens</text>`+"\n", 16, (y0+y1)/2)
	// The input limit.
	ly := yOf(float64(rep.InputLimit))
	fmt.Fprintf(b, `<line class="limit" x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black" stroke-dasharray="6 4"/>`+"\n", x0, ly, x1, ly)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end" font-size="11">input limit %s</text>`+"\n", x1, ly-4, shortTokens(float64(rep.InputLimit)))
	// One polyline per policy, crosses where a request did not fit.
	for i, p := range rep.Policies {
		color := chartColors[i%len(chartColors)]
		var pts strings.Builder
		for s, t := range p.Replay.TokensPerStep {
			if s > 0 {
				pts.WriteByte(' ')
			}
			fmt.Fprintf(&pts, "%.1f,%.1f", xOf(s), yOf(float64(t)))
		}
		fmt.Fprintf(b, `<polyline class="policy" data-policy="%s" fill="none" stroke="%s" stroke-width="1.5" points="%s"/>`+"\n",
			html.EscapeString(p.Name), color, pts.String())
		for _, s := range p.Replay.OverflowSteps {
			if s >= len(p.Replay.TokensPerStep) {
				continue
			}
			x, y := xOf(s), yOf(float64(p.Replay.TokensPerStep[s]))
			fmt.Fprintf(b, `<path class="overflow" d="M%.1f %.1fL%.1f %.1fM%.1f %.1fL%.1f %.1f" stroke="%s"/>`+"\n",
				x-3, y-3, x+3, y+3, x-3, y+3, x+3, y-3, color)
		}
		// Legend.
		lx, lyy := x1+16, y1+float64(i)*18
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"/>`+"\n", lx, lyy, lx+20, lyy, color)
		label := p.Name
		if float64(p.Replay.PeakTokens) > ymax {
			label += " (to " + shortTokens(float64(p.Replay.PeakTokens)) + ")"
		}
		fmt.Fprintf(b, `<text class="legend" x="%.1f" y="%.1f">%s</text>`+"\n", lx+26, lyy+4, html.EscapeString(label))
	}
	lyy := y1 + float64(len(rep.Policies))*18
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black" stroke-dasharray="6 4"/>`+"\n", x1+16, lyy, x1+36, lyy)
	fmt.Fprintf(b, `<text class="legend" x="%.1f" y="%.1f">input limit</text>`+"\n", x1+42, lyy+4)
	fmt.Fprintf(b, `<text class="legend" x="%.1f" y="%.1f">× did not fit</text>`+"\n", x1+16, lyy+22)
	b.WriteString("</g>\n")
}

// niceCeil rounds v up to a round multiple of a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := 1.0
	for p*10 <= v {
		p *= 10
	}
	for _, m := range []float64{1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func shortTokens(v float64) string {
	switch {
	case v >= 1e6:
		return trimZero(fmt.Sprintf("%.2f", v/1e6)) + "M"
	case v >= 1e3:
		return trimZero(fmt.Sprintf("%.1f", v/1e3)) + "k"
	}
	return fmt.Sprintf("%.0f", v)
}

func trimZero(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
