package ledger

import (
	"strings"
)

// This file holds the recognisers of addresses.

// urls finds addresses and returns their spans in t.
func (s *scanner) urls(t string) [][2]int {
	var spans [][2]int
	for off := 0; ; {
		k := strings.Index(t[off:], "://")
		if k < 0 {
			break
		}
		k += off
		start := k
		for start > 0 && (isAlnum(t[start-1]) || t[start-1] == '+' || t[start-1] == '.' || t[start-1] == '-') {
			start--
		}
		for start < k && !isAlpha(t[start]) {
			start++
		}
		end := k + 3
		for end < len(t) && !isURLStop(t[end]) {
			end++
		}
		off = end
		if k-start < 2 || end == k+3 {
			continue
		}
		u := trimURL(t[start:end])
		if len(u) <= k-start+3 {
			continue
		}
		spans = append(spans, [2]int{start, start + len(u)})
		s.add(KindURL, u)
	}
	return spans
}

func isURLStop(c byte) bool {
	return c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' || c == '\\' || c == '|' || c == '{' || c == '}'
}

// trimURL drops trailing punctuation and unbalanced closing brackets.
func trimURL(u string) string {
	for len(u) > 0 {
		c := u[len(u)-1]
		switch {
		case strings.IndexByte(".,;:!?*", c) >= 0:
			u = u[:len(u)-1]
			continue
		case c == ')' && strings.Count(u, "(") < strings.Count(u, ")"):
			u = u[:len(u)-1]
			continue
		case c == ']' && strings.Count(u, "[") < strings.Count(u, "]"):
			u = u[:len(u)-1]
			continue
		}
		break
	}
	return u
}
