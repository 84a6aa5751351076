package ledger

// This file holds the recognisers of byte classes.

func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isUpper(c byte) bool    { return c >= 'A' && c <= 'Z' }
func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }
func isAlpha(c byte) bool    { return isUpper(c) || isLower(c) }
func isAlnum(c byte) bool    { return isAlpha(c) || isDigit(c) }
func isWordByte(c byte) bool { return isAlnum(c) || c == '_' || c >= 0x80 }
func isHex(c byte) bool      { return isDigit(c) || c >= 'a' && c <= 'f' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// nextField returns the bounds of the first word of t at or after i,
// words being separated by spaces and tabs; start == end == len(t) when
// there is none.
func nextField(t string, i int) (start, end int) {
	for i < len(t) && (t[i] == ' ' || t[i] == '\t') {
		i++
	}
	j := i
	for j < len(t) && t[j] != ' ' && t[j] != '\t' {
		j++
	}
	return i, j
}

// every reports whether f holds for every byte of s (true for "").
func every(s string, f func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !f(s[i]) {
			return false
		}
	}
	return true
}
