package ledger

import (
	"strings"
)

// This file reads decisions and constraints in prose.

var decisionCues = []string{"i'll use", "i will", "decided to", "decide to", "let's go with", "let's use",
	"instead of", "we'll use", "we will use", "i'm going with", "i am going with", "going to use",
	"i'll go with", "i'll switch", "i chose", "we chose", "the plan is"}

var constraintCues = []string{"must", "must not", "mustn't", "never", "always", "don't", "do not",
	"only", "make sure", "should not", "shouldn't", "avoid"}

// prose finds sentences holding one of cues (whole words, case-insensitive)
// and adds each as an item of kind k.
func (s *scanner) prose(text string, k Kind, cues []string) {
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") {
			inFence = !inFence
			continue
		}
		if inFence || t == "" {
			continue
		}
		for _, sent := range sentences(t) {
			if len(sent) < 8 {
				continue
			}
			low := strings.ToLower(strings.ReplaceAll(sent, "’", "'"))
			for _, c := range cues {
				if hasWord(low, c) {
					s.add(k, sent)
					break
				}
			}
		}
	}
}

// sentences splits a line at ". ", "! " and "? ".
func sentences(t string) []string {
	var out []string
	start := 0
	for i := 0; i+1 < len(t); i++ {
		if (t[i] == '.' || t[i] == '!' || t[i] == '?') && t[i+1] == ' ' {
			out = append(out, strings.TrimSpace(t[start:i+1]))
			start = i + 2
		}
	}
	if start < len(t) {
		out = append(out, strings.TrimSpace(t[start:]))
	}
	return out
}

// hasWord reports whether w occurs in s bounded by non-letters.
func hasWord(s, w string) bool {
	for off := 0; ; {
		k := strings.Index(s[off:], w)
		if k < 0 {
			return false
		}
		k += off
		e := k + len(w)
		if (k == 0 || !isAlpha(s[k-1])) && (e == len(s) || !isAlpha(s[e])) {
			return true
		}
		off = k + 1
	}
}
