package proxy

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// digest is a SHA-256 sum.
type digest = [sha256.Size]byte

// credentialHeaders are the request headers that identify a caller. Their
// values are hashed and never kept.
var credentialHeaders = []string{"Authorization", "X-Api-Key", "Api-Key"}

// clientOf returns the hash of the caller's credentials: the scope of its
// conversations and of its limits. A caller without credentials (a local
// server that needs none) shares the scope of every other such caller.
func clientOf(r *http.Request) digest {
	h := sha256.New()
	h.Write([]byte("condense-proxy client\x00"))
	for _, name := range credentialHeaders {
		for _, v := range r.Header.Values(name) {
			h.Write([]byte(name))
			h.Write([]byte{0})
			h.Write([]byte(v))
			h.Write([]byte{0})
		}
	}
	var d digest
	h.Sum(d[:0])
	return d
}

// chainOf returns the hash chain of a history: element j's link is
// SHA-256(link j-1 ‖ element j's bytes, cache markers left out), starting from a seed that holds
// the client, the API and the model. Two requests share link j exactly
// when they come from the same client for the same API and model and
// their first j+1 elements are the same bytes but for cache markers (see
// withoutMarkers).
func chainOf(client digest, api *wireAPI, model string, elems [][]byte) []digest {
	h := sha256.New()
	h.Write(client[:])
	h.Write([]byte(api.name + "\x00" + model))
	var prev digest
	h.Sum(prev[:0])
	out := make([]digest, len(elems))
	for j, e := range elems {
		h.Reset()
		h.Write(prev[:])
		h.Write(withoutMarkers(e))
		h.Sum(out[j][:0])
		prev = out[j]
	}
	return out
}

// conversation is what the proxy remembers of one conversation: the
// history it has read (each element of the array decoded once, from its
// own copy of the bytes) and the preflight that holds its checkpoints.
type conversation struct {
	id    string
	model string

	// links is the chain this conversation is indexed under; it belongs to
	// the memory (under memory.mu).
	links []digest
	lru   *list.Element

	mu sync.Mutex // serializes the requests of one conversation
	pf *condense.Preflight
	// skip is the number of leading elements that are not history (a
	// Chat Completions system message the codec reads as the system
	// prompt).
	skip   int
	elems  []element
	msgs   []condense.Message // the history the preflight sees
	groups []group
	// groupOf is the group of each message of msgs.
	groupOf []int
	// counts, and overhead for system and tools, measure the history as
	// the client sent it (see estimate).
	counts       []int
	system       string
	tools        []condense.Tool
	overhead     int
	haveOverhead bool

	// In shared mode (Options.Shared): the conversation's session, the
	// version of it the preflight was restored at (-1: restore before the
	// next use), and, during a compaction, the lease.
	log     SharedLog
	start   int // the position of its first own element
	version int64
	lease   store.Log
	stale   bool  // the session changed between the restore and the lease
	gateErr error // taking the lease failed
	// users counts the requests using the conversation, evicted is set
	// when the cache dropped it, tip is its last link this proxy saw (under
	// sharedCache.mu).
	users   int
	evicted bool
	tip     Link
}

// element is one element of the history array.
type element struct {
	link digest
	msgs []condense.Message // decoded from a copy of the element's bytes
}

// group is a run of elements whose messages belong together: elements
// firstElem to lastElem give messages msgStart to msgEnd. Usually one
// element is one group; the codec reads consecutive assistant elements of
// the Responses API (a message, then its function calls) as one message,
// and those elements are one group. A group goes upstream as its original
// bytes when the rendering keeps all its messages verbatim, in order.
type group struct {
	firstElem, lastElem int
	msgStart, msgEnd    int
}

// sync brings the conversation up to date with the elements of a request
// whose links are links. Only elements it has not seen are decoded; on an
// error nothing changes. It returns the number of new messages.
func (c *conversation) sync(api *wireAPI, elems [][]byte, links []digest, skip int) error {
	k := 0
	if skip == c.skip {
		for k < len(c.elems) && k < len(links) && c.elems[k].link == links[k] {
			k++
		}
	}
	fresh := make([]element, len(links)-k)
	for j := k; j < len(links); j++ {
		fresh[j-k].link = links[j]
		if j < skip {
			continue
		}
		msgs, err := api.element(bytes.Clone(withoutMarkers(elems[j])))
		if err != nil {
			return fmt.Errorf("%s[%d]: %w", api.array, j, err)
		}
		fresh[j-k].msgs = msgs
	}
	c.elems = append(c.elems[:k:k], fresh...)
	c.skip = skip
	c.regroup(api, k)
	return nil
}

// regroup rebuilds the groups and messages from the group holding element
// k on.
func (c *conversation) regroup(api *wireAPI, k int) {
	gi := len(c.groups)
	for gi > 0 && c.groups[gi-1].lastElem >= k {
		gi--
	}
	from, m0 := c.skip, 0
	if gi > 0 {
		from, m0 = c.groups[gi-1].lastElem+1, c.groups[gi-1].msgEnd
	}
	c.groups = c.groups[:gi]
	c.msgs = c.msgs[:m0:m0]
	c.groupOf = c.groupOf[:m0:m0]
	c.counts = c.counts[:min(m0, len(c.counts)):min(m0, len(c.counts))]
	for e := max(from, c.skip); e < len(c.elems); e++ {
		ms := c.elems[e].msgs
		n := len(c.groups)
		joins := n > 0 && c.groups[n-1].lastElem == e-1 && (len(ms) == 0 ||
			api.merge && len(c.msgs) > c.groups[n-1].msgStart &&
				c.msgs[len(c.msgs)-1].Role == condense.RoleAssistant && ms[0].Role == condense.RoleAssistant)
		if !joins {
			c.groups = append(c.groups, group{firstElem: e, lastElem: e, msgStart: len(c.msgs), msgEnd: len(c.msgs)})
			n++
		}
		g := &c.groups[n-1]
		g.lastElem = e
		if joins && len(ms) > 0 {
			last := &c.msgs[len(c.msgs)-1]
			merged := *last
			merged.Parts = slices.Concat(last.Parts, ms[0].Parts)
			*last = merged
			ms = ms[1:]
		}
		c.msgs = append(c.msgs, ms...)
		for range ms {
			c.groupOf = append(c.groupOf, n-1)
		}
		g.msgEnd = len(c.msgs)
	}
}

// estimate returns the estimate of req, the history as the client sent
// it. regroup dropped the counts of the messages it rebuilt, so only those
// and the new ones are counted; the system prompt and tools are counted
// again only when they change.
func (c *conversation) estimate(counter condense.Counter, req *condense.Request) int {
	for i := len(c.counts); i < len(c.msgs); i++ {
		c.counts = append(c.counts, max(1, counter.CountMessage(&c.msgs[i])))
	}
	total := 0
	for _, v := range c.counts {
		total += v
	}
	if !c.haveOverhead || req.System != c.system || !slices.EqualFunc(req.Tools, c.tools, sameTool) {
		c.system, c.tools = req.System, req.Tools
		c.overhead = counter.CountOverhead(req.System, req.Tools)
		c.haveOverhead = true
	}
	return total + c.overhead
}

func sameTool(a, b condense.Tool) bool {
	return a.Name == b.Name && a.Description == b.Description && bytes.Equal(a.InputSchema, b.InputSchema)
}

// memory holds the recent conversations, least recently used first out,
// indexed by every link of their chains, so that a request finds the
// conversation it continues by the longest prefix of its history the proxy
// has seen.
type memory struct {
	mu     sync.Mutex
	max    int
	byLink map[digest]*conversation
	lru    list.List // of *conversation, most recent at the front
	next   int
}

func newMemory(max int) *memory {
	return &memory{max: max, byLink: map[digest]*conversation{}}
}

// find returns the conversation the history with these links continues,
// or a new one (made by fresh), and indexes it under links.
func (s *memory) find(links []digest, fresh func() *conversation) (c *conversation, known int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for j := len(links) - 1; j >= 0; j-- {
		if c = s.byLink[links[j]]; c != nil {
			known = j + 1
			break
		}
	}
	if c == nil {
		c = fresh()
		s.next++
		c.id = "p" + strconv.Itoa(s.next)
		c.lru = s.lru.PushFront(c)
	} else {
		s.lru.MoveToFront(c.lru)
	}
	s.index(c, links)
	for s.lru.Len() > s.max {
		old := s.lru.Remove(s.lru.Back()).(*conversation)
		s.index(old, nil)
	}
	return c, known
}

// index makes links the chain c is found under.
func (s *memory) index(c *conversation, links []digest) {
	k := 0
	for k < len(c.links) && k < len(links) && c.links[k] == links[k] {
		k++
	}
	for _, l := range c.links[k:] {
		if s.byLink[l] == c {
			delete(s.byLink, l)
		}
	}
	for _, l := range links[k:] {
		s.byLink[l] = c
	}
	c.links = append(c.links[:k:k], links[k:]...)
}

// len returns the number of conversations held.
func (s *memory) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}
