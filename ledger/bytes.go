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
