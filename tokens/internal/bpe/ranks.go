package bpe

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"unsafe"

	"github.com/tiktoken-go/tokenizer"
)

// noRank marks a byte sequence that is not a token.
const noRank = ^uint32(0)

// ranks maps the tokens of an encoding, byte strings, to their ranks. For
// OpenAI's encodings a token's rank is also its id, and the lower of two
// ranks is the pair that byte-pair encoding merges first.
//
// It is an open-addressing hash table with linear probing. A slot keeps the
// first eight bytes of its token and the token's length, so most probes
// compare one word; the bytes past the eighth are compared in arena.
type ranks struct {
	slots []slot
	shift uint // 64 - log2(len(slots))
	mask  uint64
	arena string   // the tokens' bytes, in rank order
	off   []uint32 // token r is arena[off[r]:off[r+1]]
	max   int      // the longest token, in bytes

	pair   [1 << 16]uint32 // the rank of every two-byte string, or noRank
	single [256]uint32     // the rank of every single byte
}

type slot struct {
	head uint64 // the first eight bytes, little-endian, zero-padded
	rank uint32
	n    uint32 // length in bytes; 0 for an empty slot
}

// loadRanks reads the vocabulary of enc from the tokenizer module, which
// embeds it: token ids are dense from 0, and decoding each id alone gives
// its bytes.
func loadRanks(enc tokenizer.Encoding) (*ranks, error) {
	codec, err := tokenizer.Get(enc)
	if err != nil {
		return nil, err
	}
	tokens := make([]string, 0, 200_000)
	id := []uint{0}
	for ; ; id[0]++ {
		s, err := codec.Decode(id)
		if err != nil || s == "" {
			break
		}
		tokens = append(tokens, s)
	}
	if len(tokens) < 256 {
		return nil, fmt.Errorf("%s: the vocabulary has %d tokens", enc, len(tokens))
	}
	return newRanks(tokens)
}

// newRanks builds the table of tokens, where tokens[r] has rank r.
func newRanks(tokens []string) (*ranks, error) {
	size := 1
	for size < 2*len(tokens)+len(tokens)/2 {
		size <<= 1
	}
	t := &ranks{
		slots: make([]slot, size),
		shift: uint(64 - bits.TrailingZeros(uint(size))),
		mask:  uint64(size - 1),
		off:   make([]uint32, 1, len(tokens)+1),
	}
	total := 0
	for _, tok := range tokens {
		total += len(tok)
	}
	arena := make([]byte, 0, total)
	for _, tok := range tokens {
		arena = append(arena, tok...)
		t.off = append(t.off, uint32(len(arena)))
	}
	t.arena = string(arena)
	for i := range t.pair {
		t.pair[i] = noRank
	}
	for i := range t.single {
		t.single[i] = noRank
	}
	for r, tok := range tokens {
		if tok == "" {
			return nil, fmt.Errorf("token %d is empty", r)
		}
		start := int(t.off[r])
		head, h := t.hash(t.arena, start, start+len(tok))
		for ; t.slots[h].n != 0; h = (h + 1) & t.mask {
			if sl := &t.slots[h]; sl.head == head && t.token(sl.rank) == tok {
				return nil, fmt.Errorf("token %d (%q) is not unique", r, tok)
			}
		}
		t.slots[h] = slot{head: head, rank: uint32(r), n: uint32(len(tok))}
		t.max = max(t.max, len(tok))
		switch len(tok) {
		case 1:
			t.single[tok[0]] = uint32(r)
		case 2:
			t.pair[int(tok[0])<<8|int(tok[1])] = uint32(r)
		}
	}
	for b, r := range t.single {
		if r == noRank {
			return nil, fmt.Errorf("byte %#x is not a token", b)
		}
	}
	return t, nil
}

// hash returns the head of s[i:j] (its first eight bytes) and its slot.
func (t *ranks) hash(s string, i, j int) (head uint64, h uint64) {
	n := j - i
	if i+8 <= len(s) {
		head = load64(s, i)
		if n < 8 {
			head &= 1<<(8*n) - 1
		}
	} else {
		for k := j - 1; k >= i; k-- {
			head = head<<8 | uint64(s[k])
		}
	}
	h = (head ^ uint64(n)<<58) * 0x9e3779b97f4a7c15
	for p := i + 8; p < j; p += 8 {
		var w uint64
		if p+8 <= j {
			w = load64(s, p)
		} else {
			for k := j - 1; k >= p; k-- {
				w = w<<8 | uint64(s[k])
			}
		}
		h = (bits.RotateLeft64(h, 29) ^ w) * 0xbf58476d1ce4e5b9
	}
	return head, h >> t.shift
}

// load64 returns the eight bytes at s[i:], little-endian.
func load64(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:i+8]), 8))
}

// lookup returns the rank of s[i:j], or noRank if it is not a token.
func (t *ranks) lookup(s string, i, j int) uint32 {
	n := j - i
	if n > t.max {
		return noRank
	}
	head, h := t.hash(s, i, j)
	for {
		sl := &t.slots[h]
		if sl.n == 0 {
			return noRank
		}
		if sl.head == head && int(sl.n) == n && (n <= 8 || t.arena[t.off[sl.rank]+8:t.off[sl.rank+1]] == s[i+8:j]) {
			return sl.rank
		}
		h = (h + 1) & t.mask
	}
}

// token returns the bytes of the token of rank r.
func (t *ranks) token(r uint32) string {
	return t.arena[t.off[r]:t.off[r+1]]
}
