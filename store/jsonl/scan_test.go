package jsonl

import (
	"testing"

	"github.com/condense-dev/condense"
)

// FuzzScan feeds arbitrary bytes to the reader: it never panics, and what
// it accepts indexes messages inside the data, in order.
func FuzzScan(f *testing.F) {
	var good []byte
	good = append(good, `{"condense":"session","version":1,"id":"s"}`+"\n"...)
	m := condense.UserText("hello")
	raw, _ := m.MarshalJSON()
	good = appendRecord(good, messagePrefix(0, false), raw)
	good = appendRecord(good, messagePrefix(1, true), raw)
	good = appendRecord(good, otherPrefix('u', true), []byte(`{"checkpoints":["c1"],"time":"2026-11-30T12:00:00Z"}`))
	f.Add(good)
	f.Add(good[:len(good)-5])
	f.Add([]byte{})
	f.Add([]byte("{}\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ix, err := scan(data, "s")
		if err != nil {
			return
		}
		if ix.size > int64(len(data)) || len(ix.offs) != len(ix.lens) {
			t.Fatalf("index beyond the data: size %d of %d", ix.size, len(data))
		}
		prev := int64(-1)
		for i := range ix.offs {
			if ix.offs[i] <= prev || ix.offs[i]+int64(ix.lens[i]) > ix.size {
				t.Fatalf("message %d at %d+%d outside the data or out of order", i, ix.offs[i], ix.lens[i])
			}
			prev = ix.offs[i]
			var m condense.Message
			_ = m.UnmarshalJSON(data[ix.offs[i] : ix.offs[i]+int64(ix.lens[i])])
		}
	})
}

// trimZeros strips exactly the trailing zero bytes, across page
// boundaries and inside a page.
func TestTrimZeros(t *testing.T) {
	for _, tt := range []struct{ data, zeros int }{{0, 0}, {0, 5}, {1, 0}, {10, 4095}, {10, 4096}, {10, 4097}, {5000, 3 * 4096}, {1, 1 << 22}} {
		b := make([]byte, tt.data+tt.zeros)
		for i := range tt.data {
			b[i] = 'x'
		}
		if got := trimZeros(b); got != tt.data {
			t.Errorf("%d bytes then %d zeros: trimmed to %d", tt.data, tt.zeros, got)
		}
	}
}
