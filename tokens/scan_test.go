package tokens

import (
	"math"
	"strings"
	"testing"
)

// scanSimple is the reference scanner: one table, one byte at a time.
func scanSimple(s string) stats {
	var st stats
	prev := cNewline
	for i := 0; i < len(s); i++ {
		c := int(byteClass[s[i]])
		st.trans[prev<<4|c]++
		prev = c
	}
	return st
}

func TestScanMatchesReference(t *testing.T) {
	texts := []string{"", "a", "ab", "Hello, World!", strings.Repeat("x", 63), strings.Repeat("xY1 ", 16),
		strings.Repeat("func main() {\n\tfmt.Println(\"数据\")\n}\n", 9) + "🎉", corpusText(t)}
	for _, s := range texts {
		var st stats
		st.add(s)
		if want := scanSimple(s); st != want {
			t.Errorf("scan of %d bytes differs from the reference", len(s))
		}
	}
}

func TestByteClasses(t *testing.T) {
	var st stats
	st.add("aZ9.  \t\n\u00e9\u4e2d\U0001F600\x00")
	n := st.counts()
	want := [numClasses]int{cLower: 1, cUpper: 1, cDigit: 1, cPunct: 1, cSpace: 2, cTab: 1, cNewline: 1,
		cLead2: 1, cLead3: 1, cLead4: 1, cCont: 1 + 2 + 3, cOther: 1}
	if n != want {
		t.Errorf("counts = %v, want %v", n, want)
	}
	if got := st.t(cSpace, cSpace); got != 1 {
		t.Errorf("space after space = %d, want 1", got)
	}
}

func TestClaudeTextMatchesClassCounts(t *testing.T) {
	for _, s := range []string{"", "plain ascii text", "naïve café — 数据库 🎉 Ωμέγα", strings.Repeat("ab数🎉\xff", 37), corpusText(t)} {
		var st stats
		st.add(s)
		n := st.counts()
		ascii := n[cLower] + n[cUpper] + n[cDigit] + n[cPunct] + n[cSpace] + n[cTab] + n[cNewline]
		want := float64(ascii)/claudeCharsToolOut + claudeLead2*float64(n[cLead2]+n[cOther]) +
			claudeLead3*float64(n[cLead3]) + claudeLead4*float64(n[cLead4])
		// cOther holds ASCII control bytes too: those are charged as ASCII.
		var ctl int
		for i := 0; i < len(s); i++ {
			if s[i] < 0x80 && byteClass[s[i]] == cOther {
				ctl++
			}
		}
		want += float64(ctl)/claudeCharsToolOut - claudeLead2*float64(ctl)
		if got := claudeText(kindToolOutput, s); math.Abs(got-want) > 1e-6 {
			t.Errorf("claudeText of %d bytes = %v, want %v", len(s), got, want)
		}
	}
}
