package condense

import (
	"strings"
	"testing"
)

// textBytes counts a token per byte of text, in tool results too.
type textBytes struct{}

func (textBytes) Name() string                     { return "text-bytes" }
func (textBytes) Exact() bool                      { return false }
func (textBytes) CountOverhead(string, []Tool) int { return 1 }
func (textBytes) CountMessage(m *Message) int {
	n := 0
	var walk func([]Part)
	walk = func(ps []Part) {
		for i := range ps {
			n += len(ps[i].Text)
			walk(ps[i].Content)
		}
	}
	walk(m.Parts)
	return n
}

func TestTruncationMarkerParses(t *testing.T) {
	m := TruncationMarker(1_234_567, 1_260_000, "r42-3fa9c2d1")
	if m != "[condense: tool output truncated: 1,234,567 of 1,260,000 tokens cut · recall r42-3fa9c2d1]" {
		t.Fatalf("marker %q", m)
	}
	if ref, ok := parseTruncationMarker(m); !ok || ref != "r42-3fa9c2d1" {
		t.Fatalf("parse: %q %v", ref, ok)
	}
	for _, bad := range []string{
		"[condense: tool output truncated: 1234567 of 1,260,000 tokens cut · recall r42-3fa9c2d1]",   // no separators
		"[condense: tool output truncated: 12,34 of 1,260,000 tokens cut · recall r42-3fa9c2d1]",     // misplaced
		"[condense: tool output truncated: 2,000,000 of 1,260,000 tokens cut · recall r42-3fa9c2d1]", // more than all
		"[condense: tool output truncated: 5 of 9 tokens cut · recall r42-3fa9]",
		"[condense: tool output truncated: 5 of 9 tokens cut · recall r42-3fa9c2d1] and more",
		"[condense: tool output masked (5 tokens) · recall r42-3fa9c2d1]",
	} {
		if _, ok := parseTruncationMarker(bad); ok {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestLineBoundaryCuts(t *testing.T) {
	s := "alpha\nbravo\ncharlie\ndelta\n"
	if n := prefixCut(s, 14); s[:n] != "alpha\nbravo\n" {
		t.Errorf("head %q", s[:n])
	}
	if n := suffixCut(s, 9, 0); s[n:] != "charlie\ndelta\n" {
		t.Errorf("tail %q", s[n:])
	}
	// One long line: cut inside it, never inside a rune.
	long := strings.Repeat("é", 100)
	if n := prefixCut(long, 51); n != 50 {
		t.Errorf("head of a line of runes cut at %d", n)
	}
	if n := suffixCut(long, 51, 0); n != 52 {
		t.Errorf("tail of a line of runes starts at %d", n)
	}
	if n := suffixCut(s, 2, 9); n < 9 {
		t.Errorf("tail starts at %d, before the head's end", n)
	}
}

func TestWaterLevel(t *testing.T) {
	for _, tt := range []struct {
		sizes []int
		room  int
		want  int
	}{
		{[]int{1000, 10}, 510, 500},            // only the big one is cut
		{[]int{1000, 600, 10}, 810, 400},       // both big ones, to one level
		{[]int{100, 100}, 1000, 100},           // everything fits: nothing to cut
		{[]int{1000, 600}, -50, 0},             // not even the markers fit
		{[]int{900, 300, 300, 300}, 1200, 300}, // the level reaches the smaller ones
	} {
		if got := waterLevel(tt.sizes, tt.room); got != tt.want {
			t.Errorf("waterLevel(%v, %d) = %d, want %d", tt.sizes, tt.room, got, tt.want)
		}
	}
}

// cutResult keeps a head and a tail of about the tokens asked, and what it
// makes is what IsTruncationOf accepts; nothing is cut from a result that
// fits.
func TestCutResult(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		b.WriteString(strings.Repeat("x", i%50))
		b.WriteString("\n")
	}
	text := b.String()
	orig := ToolResult("c1", true, Text(text))
	msg := Message{ID: "t1", Role: RoleTool, Parts: []Part{orig}}
	c := textBytes{}
	tokens := resultTokens(c, &orig, orig.Content)
	sizes := contentSizes(c, &orig, tokens)
	ref := RecallRef(7, &orig)
	got, cut, ok := cutResult(c, &orig, tokens, sizes, 1000, ref)
	if !ok || len(got.Content) != 3 {
		t.Fatalf("ok %v, %d parts", ok, len(got.Content))
	}
	head, tail := got.Content[0].Text, got.Content[2].Text
	if len(head) < 750 || len(head) > 1000 || len(tail) < 750 || len(tail) > 1000 {
		t.Fatalf("head %d bytes, tail %d", len(head), len(tail))
	}
	if cut != len(text)-len(head)-len(tail) || got.Content[1].Text != TruncationMarker(cut, tokens, ref) {
		t.Fatalf("cut %d, marker %q", cut, got.Content[1].Text)
	}
	if !got.IsError || got.CallID != "c1" {
		t.Fatal("the result's call id or error flag changed")
	}
	cutMsg := Message{ID: "t1", Role: RoleTool, Parts: []Part{got}}
	if !IsTruncationOf(&msg, &cutMsg, 7) {
		t.Fatal("a truncation is not recognised")
	}
	if IsTruncationOf(&msg, &cutMsg, 8) {
		t.Fatal("a truncation is recognised at another log index")
	}
	if IsTruncationOf(&msg, &msg, 7) {
		t.Fatal("an unchanged message is taken for a truncation")
	}
	if _, _, ok := cutResult(c, &orig, tokens, sizes, len(text), ref); ok {
		t.Fatal("a result that fits was cut")
	}
}
