// Package bpe tokenizes text with OpenAI's byte-pair encodings o200k_base
// and cl100k_base, exactly as tiktoken does, without a regex engine.
//
// Tokenizing is two steps. A hand-written scanner splits the text into
// pieces by the encoding's split pattern (O200kPattern, Cl100kPattern);
// then each piece that is not a token itself is merged byte pair by byte
// pair, lowest rank first. The vocabularies come from the
// github.com/tiktoken-go/tokenizer module, which embeds them; they are
// loaded on first use and shared.
package bpe

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Encoding is a loaded byte-pair encoding. It is safe for concurrent use.
type Encoding struct {
	name  string
	ranks *ranks
	next  func(s string, i int) int // the end of the piece at s[i]
	cache countCache
}

// Names of the encodings Get knows.
const (
	O200kBase  = "o200k_base"
	Cl100kBase = "cl100k_base"
)

var encodings = map[string]func() (*Encoding, error){
	O200kBase: sync.OnceValues(func() (*Encoding, error) {
		return load(O200kBase, tokenizer.O200kBase, nextO200k)
	}),
	Cl100kBase: sync.OnceValues(func() (*Encoding, error) {
		return load(Cl100kBase, tokenizer.Cl100kBase, nextCl100k)
	}),
}

func load(name string, enc tokenizer.Encoding, next func(string, int) int) (*Encoding, error) {
	loadClasses()
	r, err := loadRanks(enc)
	if err != nil {
		return nil, fmt.Errorf("bpe: loading %s: %w", name, err)
	}
	return &Encoding{name: name, ranks: r, next: next}, nil
}

// Known reports whether Get knows the encoding name.
func Known(name string) bool {
	_, ok := encodings[name]
	return ok
}

// Get returns the encoding name ("o200k_base" or "cl100k_base"), loading
// its vocabulary on first use.
func Get(name string) (*Encoding, error) {
	get, ok := encodings[name]
	if !ok {
		return nil, fmt.Errorf("bpe: unknown encoding %q", name)
	}
	return get()
}

// Name returns the encoding's name.
func (e *Encoding) Name() string { return e.name }

// Split calls yield with each piece of s in order; the pieces concatenate
// to s. Split does not replace invalid UTF-8 (Count and Encode do): a byte
// that is not valid UTF-8 is split as U+FFFD would be.
func (e *Encoding) Split(s string, yield func(piece string) bool) {
	for i := 0; i < len(s); {
		j := e.next(s, i)
		if !yield(s[i:j]) {
			return
		}
		i = j
	}
}

// Count returns the number of tokens of s. Each byte of s that is not valid
// UTF-8 is read as U+FFFD, as encoding/json writes it.
func (e *Encoding) Count(s string) int {
	s = validUTF8(s)
	var buf [64]part
	parts := buf[:0]
	count := 0
	for i := 0; i < len(s); {
		j := e.next(s, i)
		switch n := j - i; {
		case n == 1:
			count++ // every byte is a token
		case n <= shortMax:
			key, at := shortKeyOf(s, i, j)
			c := e.cache.getShort(key, at)
			if c == 0 {
				c, parts = e.countPiece(s, i, j, parts)
				e.cache.putShort(key, at, c)
			}
			count += c
		case n <= longMax:
			key, at := longKeyOf(s, i, j)
			c := e.cache.getLong(&key, n, at)
			if c == 0 {
				c, parts = e.countPiece(s, i, j, parts)
				e.cache.putLong(&key, n, at, c)
			}
			count += c
		default:
			var c int
			c, parts = e.countPiece(s, i, j, parts)
			count += c
		}
		i = j
	}
	return count
}

// countPiece returns the number of tokens of the piece s[i:j], and buf
// for reuse.
func (e *Encoding) countPiece(s string, i, j int, buf []part) (int, []part) {
	if e.ranks.lookup(s, i, j) != noRank {
		return 1, buf
	}
	buf = e.ranks.merge(s, i, j, buf)
	return len(buf) - 1, buf
}

// Encode returns the token ids of s, read as Count reads it.
func (e *Encoding) Encode(s string) []uint32 {
	s = validUTF8(s)
	var ids []uint32
	var parts []part
	for i := 0; i < len(s); {
		j := e.next(s, i)
		if r := e.ranks.lookup(s, i, j); r != noRank {
			ids = append(ids, r)
		} else {
			parts = e.ranks.merge(s, i, j, parts)
			for k := 0; k+1 < len(parts); k++ {
				ids = append(ids, e.ranks.lookup(s, int(parts[k].start), int(parts[k+1].start)))
			}
		}
		i = j
	}
	return ids
}

// Decode returns the bytes of the tokens ids.
func (e *Encoding) Decode(ids []uint32) (string, error) {
	var b []byte
	for _, id := range ids {
		if int(id) >= len(e.ranks.off)-1 {
			return "", fmt.Errorf("bpe: %s has no token %d", e.name, id)
		}
		b = append(b, e.ranks.token(id)...)
	}
	return string(b), nil
}

// validUTF8 returns s with every byte that is not part of valid UTF-8
// replaced by U+FFFD.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, w := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && w == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+w]...)
		}
		i += w
	}
	return string(b)
}
