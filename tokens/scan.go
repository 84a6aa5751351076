package tokens

// Byte classes of the character-class scanner. The scanner works on bytes,
// not runes: UTF-8 lead bytes say how long a character is, continuation
// bytes are counted with their lead.
const (
	cLower   = iota // a-z
	cUpper          // A-Z
	cDigit          // 0-9
	cPunct          // other printable ASCII
	cSpace          // ' '
	cTab            // \t \r \v \f
	cNewline        // \n
	cLead2          // first byte of a 2-byte character (Latin, Greek, Cyrillic…)
	cLead3          // first byte of a 3-byte character (CJK, most symbols)
	cLead4          // first byte of a 4-byte character (emoji, rare CJK)
	cCont           // UTF-8 continuation byte
	cOther          // control bytes and invalid UTF-8
	numClasses
)

var byteClass = func() (t [256]uint8) {
	for i := range t {
		c := byte(i)
		switch {
		case c >= 'a' && c <= 'z':
			t[i] = cLower
		case c >= 'A' && c <= 'Z':
			t[i] = cUpper
		case c >= '0' && c <= '9':
			t[i] = cDigit
		case c == ' ':
			t[i] = cSpace
		case c == '\n':
			t[i] = cNewline
		case c == '\t' || c == '\r' || c == '\v' || c == '\f':
			t[i] = cTab
		case c > ' ' && c < 0x7f:
			t[i] = cPunct
		case c >= 0x80 && c <= 0xbf:
			t[i] = cCont
		case c >= 0xc2 && c <= 0xdf:
			t[i] = cLead2
		case c >= 0xe0 && c <= 0xef:
			t[i] = cLead3
		case c >= 0xf0 && c <= 0xf4:
			t[i] = cLead4
		default:
			t[i] = cOther
		}
	}
	return t
}()

// stats are the character-class counts of a text: trans[p<<4|c] counts the
// bytes of class c that follow a byte of class p. The first byte of a text
// follows a virtual newline.
type stats struct {
	trans [16 * 16]uint32
}

// add scans s into st. It is the hot loop of the heuristic counters: one
// table lookup and one increment per byte. Long texts alternate between two
// tables so that consecutive bytes of one class do not wait on each other's
// increment of the same counter.
func (st *stats) add(s string) {
	for len(s) > maxScan {
		st.add(s[:maxScan])
		s = s[maxScan:]
	}
	t0 := &st.trans
	prev := uint(cNewline)
	if len(s) < 64 {
		for i := 0; i < len(s); i++ {
			c := uint(byteClass[s[i]])
			t0[(prev<<4|c)&0xff]++
			prev = c
		}
		return
	}
	var t1 [16 * 16]uint32
	i := 0
	for ; i+1 < len(s); i += 2 {
		c0 := uint(byteClass[s[i]])
		c1 := uint(byteClass[s[i+1]])
		t0[(prev<<4|c0)&0xff]++
		t1[(c0<<4|c1)&0xff]++
		prev = c1
	}
	if i < len(s) {
		t0[(prev<<4|uint(byteClass[s[i]]))&0xff]++
	}
	for k := range t0 {
		t0[k] += t1[k]
	}
}

// maxScan bounds the bytes scanned in one pass so that no count overflows
// its uint32; longer texts are scanned in pieces.
const maxScan = 1 << 30

// t returns the count of bytes of class c following a byte of class p.
func (st *stats) t(p, c int) int { return int(st.trans[p<<4|c]) }

// counts returns the bytes of each class.
func (st *stats) counts() (n [numClasses]int) {
	for p := range numClasses {
		for c := range numClasses {
			n[c] += int(st.trans[p<<4|c])
		}
	}
	return n
}
