package bpe

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// TestMergeLargeMatchesSmall checks that the heap merge, used for long
// pieces, splits pieces exactly as the quadratic merge does.
func TestMergeLargeMatchesSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var pieces []string
	for _, alphabet := range []string{"ab", "abcdefghijklmnopqrstuvwxyz", " \n\t", "0123456789abcdef", "中文文本", "é😀\u0301x"} {
		a := []rune(alphabet)
		for range 40 {
			var b strings.Builder
			for range 2 + rng.IntN(300) {
				b.WriteRune(a[rng.IntN(len(a))])
			}
			pieces = append(pieces, b.String())
		}
	}
	for range 40 {
		b := make([]byte, 2+rng.IntN(200))
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		pieces = append(pieces, string(b))
	}
	pieces = append(pieces, strings.Repeat("a", 1000), strings.Repeat("ab", 300), strings.Repeat(" ", 500))
	for _, name := range []string{O200kBase, Cl100kBase} {
		r := mustGet(t, name).ranks
		for _, p := range pieces {
			// Merge the piece inside a longer text, as Count does.
			text := "<<" + p + ">>"
			small := r.mergeSmall(text, 2, 2+len(p), nil)
			large := r.mergeLarge(text, 2, 2+len(p), nil)
			if !slices.EqualFunc(small, large, func(a, b part) bool { return a.start == b.start }) {
				t.Errorf("%s %q: the merges differ:\n small %v\n large %v", name, p, small, large)
			}
		}
	}
}

// TestCountConcurrent counts the reference corpus from several goroutines
// at once (run with -race): the shared cache of piece counts must give
// every goroutine the counts Encode gives.
func TestCountConcurrent(t *testing.T) {
	entries := loadReference(t)
	if testing.Short() {
		entries = entries[:2000]
	}
	for _, name := range []string{O200kBase, Cl100kBase} {
		enc := mustGet(t, name)
		want := make([]int, len(entries))
		for i, e := range entries {
			want[i] = len(enc.Encode(e.Text))
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Go(func() {
				// Each goroutine goes through the corpus in its own order.
				for k := range entries {
					i := (k*(2*g+1) + g*997) % len(entries)
					if n := enc.Count(entries[i].Text); n != want[i] {
						t.Errorf("%s: Count(%q) = %d, want %d", name, entries[i].Text, n, want[i])
						return
					}
				}
			})
		}
		wg.Wait()
	}
}

// TestCountCache checks that the cache returns a count only for the piece
// it was stored for, short or long.
func TestCountCache(t *testing.T) {
	var c countCache
	s := "xx" + strings.Repeat("abcdefghijklmnopqrstuvwxyz", 2)
	for n := 2; n <= longMax; n++ {
		i, j := 2, 2+n
		if n <= shortMax {
			key, at := shortKeyOf(s, i, j)
			if c.getShort(key, at) != 0 {
				t.Fatalf("empty cache has %q", s[i:j])
			}
			c.putShort(key, at, n/2+1)
			if got := c.getShort(key, at); got != n/2+1 {
				t.Errorf("short %q: got %d, want %d", s[i:j], got, n/2+1)
			}
			other, _ := shortKeyOf(s, i+1, j+1)
			if c.getShort(other, at) != 0 {
				t.Errorf("short %q found for %q", s[i:j], s[i+1:j+1])
			}
			continue
		}
		key, at := longKeyOf(s, i, j)
		if c.getLong(&key, n, at) != 0 {
			t.Fatalf("empty cache has %q", s[i:j])
		}
		c.putLong(&key, n, at, n/2+1)
		if got := c.getLong(&key, n, at); got != n/2+1 {
			t.Errorf("long %q: got %d, want %d", s[i:j], got, n/2+1)
		}
		other, _ := longKeyOf(s, i+1, j+1)
		if c.getLong(&other, n, at) != 0 {
			t.Errorf("long %q found for %q", s[i:j], s[i+1:j+1])
		}
		if c.getLong(&key, n-1, at) != 0 {
			t.Errorf("long %q found for a length of %d", s[i:j], n-1)
		}
	}
}
