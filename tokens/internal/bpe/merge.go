package bpe

// part is a boundary of byte-pair encoding: a part starts at start, ends
// where the next part starts, and rank is the rank of the token it would
// form with the next part (noRank if none).
type part struct {
	start uint32
	rank  uint32
}

// largePiece is the length, in bytes, from which a piece is merged with a
// heap instead of by scanning for the lowest rank after every merge.
const largePiece = 128

// merge applies byte-pair encoding to s[i:j], a piece of at least two bytes
// that is not a token itself: it merges the adjacent pair of parts that
// forms the lowest-ranked token, the leftmost of equals, until no pair forms
// a token, as tiktoken does. It returns the boundaries of the tokens, the
// last one marking the end, reusing buf.
func (t *ranks) merge(s string, i, j int, buf []part) []part {
	if j-i >= largePiece {
		return t.mergeLarge(s, i, j, buf)
	}
	return t.mergeSmall(s, i, j, buf)
}

// mergeSmall is merge by scanning the parts for the lowest rank after every
// merge, as tiktoken does for all but long pieces: quadratic, but with no
// allocation and little work for the short pieces most text is made of.
func (t *ranks) mergeSmall(s string, i, j int, buf []part) []part {
	parts := buf[:0]
	minRank, minAt := noRank, 0
	for p := i; p < j-1; p++ {
		r := t.pair[int(s[p])<<8|int(s[p+1])]
		if r < minRank {
			minRank, minAt = r, len(parts)
		}
		parts = append(parts, part{uint32(p), r})
	}
	parts = append(parts, part{uint32(j - 1), noRank}, part{uint32(j), noRank})

	for minRank != noRank {
		k := minAt
		// Part k absorbs part k+1; the new part's pairs with its
		// neighbours are looked up again.
		if k > 0 {
			parts[k-1].rank = t.lookup(s, int(parts[k-1].start), int(parts[k+2].start))
		}
		if k+3 < len(parts) {
			parts[k].rank = t.lookup(s, int(parts[k].start), int(parts[k+3].start))
		} else {
			parts[k].rank = noRank
		}
		// Remove part k+1 and find the next pair to merge in one pass.
		minRank = noRank
		for x := 0; x < k; x++ {
			if parts[x].rank < minRank {
				minRank, minAt = parts[x].rank, x
			}
		}
		for x := k; x < len(parts)-2; x++ {
			if x > k {
				parts[x] = parts[x+1]
			}
			if parts[x].rank < minRank {
				minRank, minAt = parts[x].rank, x
			}
		}
		parts[len(parts)-2] = parts[len(parts)-1]
		parts = parts[:len(parts)-1]
	}
	return parts
}

// mergeLarge gives the same result as merge, in O(n log n): the candidate
// pairs wait in a heap ordered by rank, then position; the parts form a
// linked list over the piece's bytes.
func (t *ranks) mergeLarge(s string, i, j int, buf []part) []part {
	n := j - i
	next := make([]int32, n+1) // next[p]: the start of the part after the one at p, -1 if removed
	prev := make([]int32, n+1)
	rank := make([]uint32, n+1) // rank[p]: the rank of the part at p with its successor
	for p := 0; p <= n; p++ {
		next[p], prev[p], rank[p] = int32(p+1), int32(p-1), noRank
	}
	h := make(mergeHeap, 0, n)
	for p := 0; p+1 < n; p++ {
		if r := t.pair[int(s[i+p])<<8|int(s[i+p+1])]; r != noRank {
			rank[p] = r
			h = append(h, candidate{r, int32(p)})
		}
	}
	h.init()
	rankAt := func(p int32) uint32 {
		q := next[p]
		if q >= int32(n) {
			return noRank
		}
		return t.lookup(s, i+int(p), i+int(next[q]))
	}
	for len(h) > 0 {
		c := h.pop()
		p := c.at
		if next[p] < 0 || rank[p] != c.rank {
			continue // stale: the part was merged away or changed
		}
		q := next[p]
		next[p] = next[q]
		next[q], rank[q] = -1, noRank
		if int(next[p]) <= n {
			prev[next[p]] = p
		}
		for _, x := range [2]int32{p, prev[p]} {
			if x < 0 {
				continue
			}
			rank[x] = rankAt(x)
			if rank[x] != noRank {
				h.push(candidate{rank[x], x})
			}
		}
	}
	parts := buf[:0]
	for p := int32(0); p < int32(n); p = next[p] {
		parts = append(parts, part{uint32(i) + uint32(p), rank[p]})
	}
	return append(parts, part{uint32(j), noRank})
}

type candidate struct {
	rank uint32
	at   int32
}

// mergeHeap is a binary min-heap of candidates, by rank, then position.
type mergeHeap []candidate

func (h mergeHeap) less(a, b int) bool {
	return h[a].rank < h[b].rank || h[a].rank == h[b].rank && h[a].at < h[b].at
}

func (h mergeHeap) init() {
	for k := len(h)/2 - 1; k >= 0; k-- {
		h.down(k)
	}
}

func (h *mergeHeap) push(c candidate) {
	*h = append(*h, c)
	q := *h
	for k := len(q) - 1; k > 0; {
		parent := (k - 1) / 2
		if !q.less(k, parent) {
			break
		}
		q[k], q[parent] = q[parent], q[k]
		k = parent
	}
}

func (h *mergeHeap) pop() candidate {
	q := *h
	top := q[0]
	last := len(q) - 1
	q[0] = q[last]
	*h = q[:last]
	h.down(0)
	return top
}

func (h mergeHeap) down(k int) {
	for {
		l := 2*k + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && h.less(r, l) {
			m = r
		}
		if !h.less(m, k) {
			return
		}
		h[k], h[m] = h[m], h[k]
		k = m
	}
}
