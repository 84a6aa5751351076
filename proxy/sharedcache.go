package proxy

import (
	"container/list"
	"context"
	"sync"
)

// sharedCache holds the conversations of a shared store this proxy
// served recently, by id, least recently used first out; a conversation
// is dropped (its session closed) once no request uses it.
type sharedCache struct {
	mu   sync.Mutex
	max  int
	byID map[string]*list.Element // of *conversation
	lru  list.List
	// tips holds the conversations by the last link this proxy saw them
	// claim: a request that extends one is placed by claiming its new
	// links at once, without looking the conversation up.
	tips map[Link]*conversation
}

// extend returns the cached conversation a request continues from its
// end, when it claims the request's new links: then they were free and
// the conversation held nothing after its tip, so the request continues
// it, as locate would find. nil otherwise (a request that adds nothing,
// one other proxies extended meanwhile): locate decides.
func (s *sharedCache) extend(ctx context.Context, p *Proxy, links []Link) (*conversation, func()) {
	s.mu.Lock()
	var c *conversation
	from := 0
	for j := len(links) - 2; j >= 0 && c == nil; j-- {
		c, from = s.tips[links[j]], j+1
	}
	if c == nil {
		s.mu.Unlock()
		return nil, nil
	}
	s.lru.MoveToFront(s.byID[c.id])
	c.users++
	s.mu.Unlock()
	if err := p.shared.Claim(ctx, c.id, from, links); err != nil {
		s.done(c)
		return nil, nil
	}
	s.setTip(c, links[len(links)-1])
	return c, func() { s.done(c) }
}

// setTip records the last link c is known to hold.
func (s *sharedCache) setTip(c *conversation, tip Link) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.evicted {
		return
	}
	if s.tips[c.tip] == c {
		delete(s.tips, c.tip)
	}
	c.tip = tip
	s.tips[tip] = c
}

// get returns conversation id, opening its session on first use.
func (s *sharedCache) get(ctx context.Context, p *Proxy, id, model string, start int) (*conversation, func(), error) {
	s.mu.Lock()
	if e, ok := s.byID[id]; ok {
		c := e.Value.(*conversation)
		s.lru.MoveToFront(e)
		c.users++
		s.mu.Unlock()
		return c, func() { s.done(c) }, nil
	}
	s.mu.Unlock()
	log, err := p.shared.Open(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	c := &conversation{id: id, model: model, log: log, version: -1, start: start}
	c.pf = p.newPreflight(model, gatedStrategy{p.strategy, c, p})
	s.mu.Lock()
	defer s.mu.Unlock()
	if e, ok := s.byID[id]; ok { // opened meanwhile by another request
		log.Close()
		c = e.Value.(*conversation)
		s.lru.MoveToFront(e)
		c.users++
		return c, func() { s.done(c) }, nil
	}
	c.users = 1
	s.byID[id] = s.lru.PushFront(c)
	for s.lru.Len() > s.max {
		old := s.lru.Remove(s.lru.Back()).(*conversation)
		delete(s.byID, old.id)
		if s.tips[old.tip] == old {
			delete(s.tips, old.tip)
		}
		old.evicted = true
		if old.users == 0 {
			old.log.Close()
		}
	}
	return c, func() { s.done(c) }, nil
}

// done ends a request's use of c.
func (s *sharedCache) done(c *conversation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.users--; c.users == 0 && c.evicted {
		c.log.Close()
	}
}

func (s *sharedCache) len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lru.Len()
}
