package tokens

import (
	"testing"
	"unicode/utf8"
)

// FuzzCountText checks every counter on arbitrary bytes: no panic, no
// negative count, the same count twice; the heuristics never count a text
// less than a prefix of it, and count valid UTF-8 at least a token per 8
// characters.
func FuzzCountText(f *testing.F) {
	for _, s := range []string{"", "a", "hello world", "{\"a\":[1,2,3]}", "数据库🎉", "\xff\xfe\x00", "   \n\t\t\r\n", "0123456789012345"} {
		f.Add(s, 3)
	}
	o200k, _ := BPE(O200kBase)
	heuristics := []*HeuristicCounter{Heuristic(FamilyOpenAI), Heuristic(FamilyAnthropic), Heuristic(FamilyGemini)}
	f.Fuzz(func(t *testing.T, s string, cut int) {
		n := o200k.CountText(s)
		if n < 0 || n != o200k.CountText(s) || (s != "" && n == 0) {
			t.Fatalf("o200k counts %q as %d", s, n)
		}
		if cut < 0 {
			cut = -cut
		}
		prefix := s[:min(len(s), cut%(len(s)+1))]
		for _, h := range heuristics {
			for kind := range numKinds {
				n := h.countText(kind, s)
				if n < 0 || n != h.countText(kind, s) {
					t.Fatalf("%s counts %q as %d", h.Name(), s, n)
				}
				if p := h.countText(kind, prefix); p > n {
					t.Fatalf("%s counts %q as %d, its prefix %q as %d", h.Name(), s, n, prefix, p)
				}
				if min := utf8.RuneCountInString(s) / 8; utf8.ValidString(s) && n < min {
					t.Fatalf("%s counts %d runes as %d tokens", h.Name(), utf8.RuneCountInString(s), n)
				}
			}
		}
	})
}
