package ledger

import (
	"fmt"
	"strings"
	"testing"
)

func TestMaskDigitRuns(t *testing.T) {
	for _, tc := range []struct {
		in        string
		magnitude bool
		want      string
	}{
		{"invoicely-web-f70cad0d3-g9uh1", false, "invoicely-web-#-#"},
		{"took=75ms", false, "took=#"},
		{"[arg-type]", false, "[arg-type]"},
		{"1/1", false, "#/#"},
		{"took=75ms", true, "took=#2ms"},
		{"took=4124.0ms", true, "took=#4.#ms"},
		{"(68965", true, "(#5"},
		{"p(95)=293.27ms", true, "p(#2)=#3.#ms"},
		{"sha256:9f86d081", true, "#:#"},
	} {
		if got := maskDigitRuns(tc.in, tc.magnitude); got != tc.want {
			t.Errorf("maskDigitRuns(%q, %v) = %q, want %q", tc.in, tc.magnitude, got, tc.want)
		}
	}
}

func TestTemplates(t *testing.T) {
	same := func(k Kind, a, b string) bool {
		var ts templates
		return ts.assign(k, a, true) == ts.assign(k, b, true)
	}
	for _, tc := range []struct {
		kind Kind
		a, b string
		want bool
	}{
		// Rows of one listing differ only in names, hashes and counts.
		{KindError, "web-f70cad0d3-g9uh1 1/1 CrashLoopBackOff 3 21d", "web-5e6fc751a-zggj2 1/1 CrashLoopBackOff 15 13d", true},
		// Log lines of one template: another logger, another key.
		{KindError, "[2026-04-25 12:27:12,822] ERROR app.api: apply payment: timeout after 5s tenant=363",
			"[2026-04-25 12:28:36,668] ERROR app.tasks: reconcile refund: timeout after 5s currency=44", true},
		// Different messages of the same length are not one template.
		{KindError, "pq: duplicate key value violates unique constraint orders_pkey",
			"panic: runtime error: index out of range [7] with length", false},
		// Commands are one template only when equal but for numbers.
		{KindCommand, "npx tsx scripts/a.ts --dry-run --batch 3138", "npx tsx scripts/a.ts --dry-run --batch 21704", true},
		{KindCommand, "npx tsx scripts/a.ts --dry-run --batch 3138", "npx tsx scripts/b.ts --dry-run --batch 3138", false},
		// A figure keeps its order of magnitude.
		{KindMeasurement, "took=75ms", "took=86ms", true},
		{KindMeasurement, "took=75ms", "took=4124.0ms", false},
		{KindMeasurement, "3 rows", "68965 rows", false},
		// Short lines join only when equal.
		{KindError, "FAIL pkg/a", "FAIL pkg/b", false},
		{KindError, "FAIL pkg/a 0.41s", "FAIL pkg/b 0.42s", true},
	} {
		if got := same(tc.kind, tc.a, tc.b); got != tc.want {
			t.Errorf("%s %q and %q: one template = %v, want %v", tc.kind, tc.a, tc.b, got, tc.want)
		}
	}
}

// TestTemplateWildcardsBounded checks that a template does not turn into
// wildcards that match any line of its length.
func TestTemplateWildcardsBounded(t *testing.T) {
	var ts templates
	first := ts.assign(KindError, "alpha beta gamma delta epsilon", true)
	ts.assign(KindError, "alpha beta gamma delta zeta", true)
	ts.assign(KindError, "alpha beta gamma eta theta", true)
	if id := ts.assign(KindError, "alpha beta iota kappa lambda", true); id == first {
		t.Error("a line sharing 2 of 5 words joined the template")
	}
	if id := ts.assign(KindError, "one two three four five", false); id >= 0 {
		t.Errorf("an unrelated line matched template %d", id)
	}
}

// TestSalienceTemplateRepeats checks that lines of a template repeated all
// over the log rank as routine, below a figure printed once, while an error
// line of a template seen once still outranks it.
func TestSalienceTemplateRepeats(t *testing.T) {
	var tl Tally
	var routine Item
	for i := range 24 {
		routine = Item{Kind: KindError, Value: fmt.Sprintf("[2026-04-25 12:%02d:12,822] ERROR app.api: apply payment: timeout after 5s tenant=%d", i, 100+i), Source: i}
		tl.Add([]Item{routine, {Kind: KindMeasurement, Value: fmt.Sprintf("took=%dms", 70+i), Source: i}})
	}
	rare := Item{Kind: KindError, Value: `pq: duplicate key value violates unique constraint "orders_pkey"`, Source: 30}
	figure := Item{Kind: KindMeasurement, Value: "Execution Time: 6985.326 ms", Source: 31}
	slow := Item{Kind: KindMeasurement, Value: "took=4124.0ms", Source: 32}
	tl.Add([]Item{rare})
	tl.Add([]Item{figure})
	tl.Add([]Item{slow})
	fast := Item{Kind: KindMeasurement, Value: "took=75ms", Source: 5}
	if r, f := tl.Salience(routine), tl.Salience(figure); r >= f {
		t.Errorf("a log line of a template seen 24 times (%d) outranks a figure seen once (%d)", r, f)
	}
	if r, f := tl.Salience(rare), tl.Salience(figure); r <= f {
		t.Errorf("an error seen once (%d) does not outrank a figure seen once (%d)", r, f)
	}
	if s, f := tl.Salience(slow), tl.Salience(fast); s <= f {
		t.Errorf("the one slow timing (%d) does not outrank the routine ones (%d)", s, f)
	}
}

// TestSalienceShortNotes checks that a short remark ranks below a command
// while a short note naming a figure does not.
func TestSalienceShortNotes(t *testing.T) {
	var tl Tally
	remark := Item{Kind: KindNote, Value: "Quick look at the deploy script."}
	figure := Item{Kind: KindNote, Value: "Round 0 is fixed: p99 latency: 40.2ms."}
	cmd := Item{Kind: KindCommand, Value: "make migrate ENV=staging"}
	if r, c := tl.Salience(remark), tl.Salience(cmd); r >= c {
		t.Errorf("short remark %d >= command %d", r, c)
	}
	if f, c := tl.Salience(figure), tl.Salience(cmd); f <= c {
		t.Errorf("short note with a figure %d <= command %d", f, c)
	}
	long := Item{Kind: KindNote, Value: strings.Repeat("word ", shortNote) + "done."}
	if l, c := tl.Salience(long), tl.Salience(cmd); l <= c {
		t.Errorf("a sentence of %d words %d <= command %d", shortNote+1, l, c)
	}
}
