package bpe

import "sync/atomic"

// countCache remembers the token counts of pieces of up to longMax bytes,
// so that the pieces text repeats (words, identifiers, indentation,
// punctuation) are counted without looking them up in the vocabulary or
// merging them again. Each piece has one place in the cache, chosen by a
// hash of its bytes; a piece that lands on another's place replaces it, so
// the cache has a fixed size (about 400 KB).
//
// It is safe for concurrent use without a lock. A short piece (up to
// shortMax bytes) fits with its length and count in one word, read and
// written atomically. A long one takes four words and a sequence number
// that a writer makes odd while it writes: a reader that sees the same even
// number before and after reading the words has read one writer's entry.
// A hit is always the count of exactly that piece.
type countCache struct {
	short [shortSize]atomic.Uint64
	long  [longSize]longEntry
}

const (
	shortBits = 14
	shortSize = 1 << shortBits
	shortMax  = 7 // bytes
	longBits  = 12
	longSize  = 1 << longBits
	longMax   = 24 // bytes

	// A short entry: the piece's bytes (little-endian, 56 bits), its
	// length (3 bits) and its count (3 bits: a piece of at most seven
	// bytes has at most seven tokens). Zero is empty: no piece has length
	// zero.
	shortKey   = 1<<59 - 1
	countShift = 59
)

type longEntry struct {
	seq  atomic.Uint32
	meta atomic.Uint32 // length | count<<8
	key  [longMax / 8]atomic.Uint64
}

// shortKeyOf returns the key of s[i:j], of 2 to shortMax bytes, and its
// place.
func shortKeyOf(s string, i, j int) (key uint64, at uint32) {
	n := j - i
	if i+8 <= len(s) {
		key = load64(s, i) & (1<<(8*n) - 1)
	} else {
		for k := j - 1; k >= i; k-- {
			key = key<<8 | uint64(s[k])
		}
	}
	key |= uint64(n) << 56
	return key, uint32((key * 0x9e3779b97f4a7c15) >> (64 - shortBits))
}

// getShort returns the count of the piece with key, or 0.
func (c *countCache) getShort(key uint64, at uint32) int {
	e := c.short[at].Load()
	if e&shortKey != key {
		return 0
	}
	return int(e >> countShift)
}

func (c *countCache) putShort(key uint64, at uint32, n int) {
	c.short[at].Store(key | uint64(n)<<countShift)
}

// longKeyOf returns the words of s[i:j], of shortMax+1 to longMax bytes,
// zero-padded, and its place.
func longKeyOf(s string, i, j int) (key [longMax / 8]uint64, at uint32) {
	h := uint64(j - i)
	for w := range key {
		p := i + 8*w
		switch {
		case p+8 <= j:
			key[w] = load64(s, p)
		case p < j:
			for k := j - 1; k >= p; k-- {
				key[w] = key[w]<<8 | uint64(s[k])
			}
		}
		h = (h ^ key[w]) * 0x9e3779b97f4a7c15
	}
	return key, uint32(h >> (64 - longBits))
}

// getLong returns the count of the piece of n bytes with key, or 0.
func (c *countCache) getLong(key *[longMax / 8]uint64, n int, at uint32) int {
	e := &c.long[at]
	seq := e.seq.Load()
	if seq&1 != 0 {
		return 0 // being written
	}
	meta := e.meta.Load()
	if int(meta&0xff) != n || e.key[0].Load() != key[0] || e.key[1].Load() != key[1] || e.key[2].Load() != key[2] {
		return 0
	}
	if e.seq.Load() != seq {
		return 0 // rewritten while read
	}
	return int(meta >> 8)
}

func (c *countCache) putLong(key *[longMax / 8]uint64, n int, at uint32, count int) {
	e := &c.long[at]
	seq := e.seq.Load()
	if seq&1 != 0 || !e.seq.CompareAndSwap(seq, seq+1) {
		return // another writer has it; leave the place to it
	}
	e.meta.Store(uint32(n) | uint32(count)<<8)
	for w := range key {
		e.key[w].Store(key[w])
	}
	e.seq.Store(seq + 2)
}
