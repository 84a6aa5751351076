package corpus

import (
	"fmt"
	"strings"
)

// rng is splitmix64: small, and the same on every platform and Go version,
// so a seed gives the same session everywhere.
type rng struct{ s uint64 }

func newRNG(seed uint64, stream string) *rng {
	r := &rng{s: seed}
	for i := 0; i < len(stream); i++ {
		r.s = r.s*0x100000001b3 ^ uint64(stream[i])
	}
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n ≤ 0 gives 0.
func (r *rng) intn(n int) int {
	if n <= 0 {
		return 0
	}
	return int(r.next() % uint64(n))
}

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance reports true with probability p.
func (r *rng) chance(p float64) bool { return float64(r.next()>>11)/float64(1<<53) < p }

func (r *rng) hex(n int) string {
	var b strings.Builder
	for b.Len() < n {
		fmt.Fprintf(&b, "%016x", r.next())
	}
	return b.String()[:n]
}

func (r *rng) uuid() string {
	h := r.hex(32)
	return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-" + string("89ab"[r.intn(4)]) + h[17:20] + "-" + h[20:32]
}

// alnum returns n characters of [a-z0-9].
func (r *rng) alnum(n int) string {
	const cs = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = cs[r.intn(len(cs))]
	}
	return string(b)
}

// b62 returns n characters of [A-Za-z0-9].
func (r *rng) b62(n int) string {
	const cs = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, n)
	for i := range b {
		b[i] = cs[r.intn(len(cs))]
	}
	return string(b)
}

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// pickN returns n distinct elements of xs (all of them when n ≥ len(xs)),
// in a random order.
func pickN[T any](r *rng, xs []T, n int) []T {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	shuffle(r, idx)
	if n > len(xs) {
		n = len(xs)
	}
	out := make([]T, n)
	for i := 0; i < n; i++ {
		out[i] = xs[idx[i]]
	}
	return out
}

func shuffle[T any](r *rng, xs []T) {
	for i := len(xs) - 1; i > 0; i-- {
		j := r.intn(i + 1)
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// fill replaces each {key} of tmpl with vars[key]. A key vars lacks is left
// as it is, which the tests catch.
func fill(tmpl string, vars map[string]string) string {
	if !strings.Contains(tmpl, "{") {
		return tmpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		key := tmpl[i+1 : i+j]
		b.WriteString(tmpl[:i])
		if v, ok := vars[key]; ok && isKey(key) {
			b.WriteString(v)
		} else {
			b.WriteString(tmpl[i : i+j+1])
		}
		tmpl = tmpl[i+j+1:]
	}
}

func isKey(s string) bool {
	if s == "" {
		return false
	}
	if !(s[0] >= 'a' && s[0] <= 'z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= '0' && s[i] <= '9' || s[i] == '_') {
			return false
		}
	}
	return true
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence capitalizes the first letter of s, for templates that open
// with a placeholder, unless the first word is a name that keeps its case
// (a path, a package, a version).
func sentence(s string) string {
	word, _, _ := strings.Cut(s, " ")
	if strings.ContainsAny(word, "/._-0123456789@") {
		return s
	}
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return strings.ToUpper(s[:1]) + s[1:]
	}
	return s
}

func camel(words ...string) string {
	var b strings.Builder
	for i, w := range words {
		if i == 0 {
			b.WriteString(w)
		} else {
			b.WriteString(title(w))
		}
	}
	return b.String()
}

func pascal(words ...string) string {
	var b strings.Builder
	for _, w := range words {
		b.WriteString(title(w))
	}
	return b.String()
}

func snake(words ...string) string { return strings.Join(words, "_") }
func kebab(words ...string) string { return strings.Join(words, "-") }
