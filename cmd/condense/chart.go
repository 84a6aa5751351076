package main

import (
	"bytes"
	"fmt"
	"html"
	"io"
	"regexp"
	"strconv"
	"strings"

	"github.com/condense-dev/condense/eval"
)

// Summary panel geometry, in SVG user units; the width is eval's chart's.
const (
	chartWidth     = 860
	summaryTop     = 56
	summaryRow     = 26
	summaryBottom  = 30
	summaryLabelX  = 150
	retentionX0    = 160
	retentionX1    = 470
	costX0         = 560
	costX1         = 770
	summaryBarSize = 14
)

// summaryColors are the policies' colours, in policy order, as eval's
// chart draws their lines.
var summaryColors = []string{"#7f7f7f", "#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2"}

// writeChart writes eval's SVG chart: first a summary panel (each
// policy's retention and replay cost over all files, and the note when no
// transcript reaches its threshold), then eval.WriteChart's panel of
// tokens per step for each transcript that has steps; a transcript with
// none would be an empty panel and is left out.
func writeChart(w io.Writer, out *EvalOutput) error {
	var panels []*eval.Report
	for _, r := range out.Transcripts {
		if r.Steps > 0 {
			panels = append(panels, r)
		}
	}
	hint := underPressureHint(out.Transcripts)
	top := summaryTop
	if hint != "" {
		top += 18
	}
	summaryHeight := top + summaryRow*len(out.Total) + summaryBottom + 14
	var body string
	height := summaryHeight
	if len(panels) > 0 {
		var buf bytes.Buffer
		if err := eval.WriteChart(&buf, panels); err != nil {
			return err
		}
		inner, h, err := svgBody(buf.String())
		if err != nil {
			return err
		}
		body, height = inner, summaryHeight+h
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n",
		chartWidth, height, chartWidth, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	summaryPanel(&b, out, hint, top)
	if body != "" {
		fmt.Fprintf(&b, `<g transform="translate(0 %d)">`+"\n%s</g>\n", summaryHeight, body)
	}
	b.WriteString("</svg>\n")
	_, err := io.WriteString(w, b.String())
	return err
}

var svgHeight = regexp.MustCompile(`\bheight="(\d+)"`)

// svgBody returns the elements inside an SVG document's root (its
// full-size background rectangle left out) and the document's height.
func svgBody(doc string) (string, int, error) {
	open := strings.Index(doc, "<svg")
	end := strings.LastIndex(doc, "</svg>")
	if open < 0 || end < 0 {
		return "", 0, fmt.Errorf("eval chart: not an SVG document")
	}
	tagEnd := strings.Index(doc[open:], ">")
	if tagEnd < 0 {
		return "", 0, fmt.Errorf("eval chart: unterminated svg element")
	}
	tag := doc[open : open+tagEnd]
	m := svgHeight.FindStringSubmatch(tag)
	if m == nil {
		return "", 0, fmt.Errorf("eval chart: the svg element has no height")
	}
	h, _ := strconv.Atoi(m[1])
	inner := doc[open+tagEnd+1 : end]
	inner = strings.Replace(inner, `<rect width="100%" height="100%" fill="white"/>`+"\n", "", 1)
	return strings.TrimLeft(inner, "\n"), h, nil
}

// summaryPanel draws one row per policy: its retention over all files (the
// mean of the categories' rates) and the cost of its replay, each as a bar.
func summaryPanel(b *strings.Builder, out *EvalOutput, hint string, top int) {
	n := len(out.Transcripts)
	title := fmt.Sprintf("All %d transcripts", n)
	if n == 1 {
		title = out.Transcripts[0].File
	}
	b.WriteString(`<g class="summary">` + "\n")
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="14" font-weight="bold">%s</text>`+"\n", marginLeftSummary, 22,
		html.EscapeString(title+" — retention and cost per policy"))
	if hint != "" {
		fmt.Fprintf(b, `<text class="note" x="%d" y="%d" font-size="11">%s</text>`+"\n", marginLeftSummary, 40, html.EscapeString(clip(hint, 150)))
	}
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11">retained (mean of the categories' rates)</text>`+"\n", retentionX0, top-8)
	fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11">cost of the turn-by-turn replay</text>`+"\n", costX0, top-8)
	// Files whose model has no price add nothing to a cost: the costs are
	// those of the priced files, and the footnote says so.
	priced := 0
	for _, r := range out.Transcripts {
		if r.Price != nil {
			priced++
		}
	}
	maxCost := 0.0
	for _, p := range out.Total {
		maxCost = max(maxCost, p.Replay.CostUSD)
	}
	incomplete := false
	for i, p := range out.Total {
		color := summaryColors[i%len(summaryColors)]
		y := top + i*summaryRow
		name := html.EscapeString(p.Name)
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end">%s</text>`+"\n", summaryLabelX, y+summaryBarSize-3, name)
		// Retention, 0 to 100%.
		fmt.Fprintf(b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#eee"/>`+"\n", retentionX0, y, retentionX1-retentionX0, summaryBarSize)
		label := "-"
		if p.Retention.Total.Found > 0 {
			wd := float64(retentionX1-retentionX0) * p.Retention.Overall
			fmt.Fprintf(b, `<rect class="retention" data-policy="%s" x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n",
				name, retentionX0, y, wd, summaryBarSize, color)
			label = pct(p.Retention.Overall)
		}
		if !p.Final.Fits {
			label += " (does not fit)"
		}
		fmt.Fprintf(b, `<text x="%d" y="%d">%s</text>`+"\n", retentionX1+6, y+summaryBarSize-3, html.EscapeString(label))
		// Cost, scaled to the dearest policy.
		cost := "no price (--prices)"
		if priced > 0 {
			wd := 0.0
			if maxCost > 0 {
				wd = float64(costX1-costX0) * p.Replay.CostUSD / maxCost
			}
			fmt.Fprintf(b, `<rect class="cost" data-policy="%s" x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>`+"\n",
				name, costX0, y, wd, summaryBarSize, color)
			cost = fmt.Sprintf("$%.2f", p.Replay.CostUSD)
			if !p.Replay.Complete {
				cost += "*"
				incomplete = true
			}
			if priced < n {
				cost += "†"
			}
		}
		fmt.Fprintf(b, `<text x="%d" y="%d" text-anchor="end" font-size="11">%s</text>`+"\n", costX1+60, y+summaryBarSize-3, html.EscapeString(cost))
	}
	var notes []string
	if incomplete {
		notes = append(notes, "* incomplete: a request did not fit, so the session stopped there")
	}
	if priced > 0 && priced < n {
		notes = append(notes, fmt.Sprintf("† the %d of %d files whose model has a price (--prices adds others)", priced, n))
	}
	for i, note := range notes {
		fmt.Fprintf(b, `<text x="%d" y="%d" font-size="11">%s</text>`+"\n", retentionX0, top+len(out.Total)*summaryRow+6+14*i, html.EscapeString(note))
	}
	b.WriteString("</g>\n")
}

// marginLeftSummary is where the summary's title starts.
const marginLeftSummary = 20
