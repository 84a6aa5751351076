package proxy

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/store"
)

// Conversations in a SharedStore (Options.Shared) are found and
// continued by every proxy that uses the store, so that replicas behind a
// load balancer serve one conversation alike:
//
//   - Every link of a conversation's chain is claimed once, by one
//     conversation, at its position. A request continues the conversation
//     holding the longest prefix of its chain and claims the links it adds;
//     a request that diverges from what that conversation holds (an edited
//     history) claims its own links for a new conversation, which
//     starts from the checkpoints of the one it left that render only
//     what they share; one that resends an earlier, shorter state of it
//     (a rewind) is compacted on its own and saves nothing. So a
//     conversation's history is linear, and each of its checkpoints
//     renders a prefix of every later request of it.
//   - A conversation's checkpoints are a session of the store: its
//     checkpoints, and a log of stubs (each message's role, no content) as
//     long as the longest checkpoint counts, since a checkpoint may only
//     count messages the log holds. The client resends the history on
//     every call, so its content is never stored; summaries and
//     placeholders are, in the checkpoints.
//   - A proxy renders every request of a conversation from the stored
//     checkpoint with the most messages (that is, the latest), restored
//     over the request's history whenever another proxy changed the
//     session since it last looked; the proxy that saved a checkpoint
//     keeps the preflight that made it, which renders as its restore
//     does. Every replica renders the same history the same way.
//   - A compaction runs under the session's lease. A proxy whose request
//     needs one takes the lease first (waiting while another replica holds
//     it); when the session changed meanwhile it drops its work, restores
//     the checkpoint made meanwhile and prepares again, so a compaction
//     runs once however many replicas see the conversation's requests.

// Link is one link of a conversation's chain: SHA-256 over the previous
// link and one element of the history array, the first seeded with a
// hash of the caller's credentials, the API and the model. Credentials
// never reach a SharedStore, only these hashes.
type Link = digest

// Found is where the longest known prefix of a chain belongs.
type Found struct {
	// Conversation holds the prefix; "" when no link of the chain is
	// known.
	Conversation string
	// N is the prefix's length, in elements; Length the number of
	// elements Conversation holds; Start the position of its first own
	// element: 1, or, for a conversation that diverged from another, the
	// position where it did.
	N, Length, Start int
}

// ErrClaimed is the error of a Claim of a link, or of a position in a
// conversation, that is already claimed.
var ErrClaimed = errors.New("proxy: conversation link already claimed")

// A SharedStore keeps conversations where several proxies find them: the
// links of their chains and, per conversation, a session in shared mode
// holding its checkpoints (package store/postgres). NewPostgresStore
// returns the PostgreSQL one.
type SharedStore interface {
	// Find returns where the longest prefix of links that is claimed
	// belongs.
	Find(ctx context.Context, links []Link) (Found, error)
	// Claim claims links[from:] for conversation at positions from+1 to
	// len(links) (counted in elements), all or none: ErrClaimed when one
	// of the links or one of the positions is taken.
	Claim(ctx context.Context, conversation string, from int, links []Link) error
	// Open opens a conversation's session, creating it.
	Open(ctx context.Context, conversation string) (SharedLog, error)
}

// SharedLog is a conversation's session, open in any number of proxies at
// once; *postgres.SharedLog is one.
type SharedLog interface {
	// Refresh reads what changed since the last refresh.
	Refresh(ctx context.Context) (bool, error)
	// Version grows with every commit to the session, from any proxy.
	Version() int64
	// Checkpoints returns the checkpoints saved, in order.
	Checkpoints() []store.Checkpoint
	// Lock waits for the session's lease and returns the session, up to
	// date, holding it until its Close. The log returned has a
	// Version() int64 method too.
	Lock(ctx context.Context) (store.Log, error)
	Close() error
}

// errStale is what a compaction returns, without compacting, when the
// session changed between the last restore and the lease.
var errStale = errors.New("proxy: the conversation was checkpointed by another proxy")

// maxClaims bounds the attempts to place a request whose conversation
// other proxies keep extending meanwhile.
const maxClaims = 8

// locate returns the stored conversation a chain continues, claiming the
// links it adds, and the position of its first own element; "" for a
// chain that claims nothing: an empty history, or a strict prefix of a
// conversation's history.
func (p *Proxy) locate(ctx context.Context, links []Link) (string, int, error) {
	for range maxClaims {
		f, err := p.shared.Find(ctx, links)
		if err != nil {
			return "", 0, err
		}
		if f.N == len(links) {
			if f.N < f.Length || f.N == 0 {
				return "", 0, nil
			}
			return f.Conversation, f.Start, nil
		}
		id, start := f.Conversation, f.Start
		if id == "" || f.N < f.Length {
			// A new conversation, or one diverging from what the found one
			// holds: it is named after its first link, which no other
			// conversation can claim.
			id, start = "px-"+hex.EncodeToString(links[f.N][:]), f.N+1
		}
		err = p.shared.Claim(ctx, id, f.N, links)
		if err == nil {
			return id, start, nil
		}
		if !errors.Is(err, ErrClaimed) {
			return "", 0, err
		}
	}
	return "", 0, errors.New("proxy: the conversation kept changing under other proxies' requests")
}

// sharedConversation returns the conversation of a request in shared
// mode, and a function to call when the request is done with it.
func (p *Proxy) sharedConversation(ctx context.Context, links []Link, model string) (*conversation, func(), error) {
	if c, done := p.cache.extend(ctx, p, links); c != nil {
		return c, done, nil
	}
	id, start, err := p.locate(ctx, links)
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		// Compacted on its own, nothing saved: a rewind renders alike on
		// every replica, from nothing.
		c := &conversation{id: "rewind", model: model}
		c.pf = p.newPreflight(model, p.strategy)
		return c, func() {}, nil
	}
	c, done, err := p.cache.get(ctx, p, id, model, start)
	if err == nil {
		p.cache.setTip(c, links[len(links)-1])
	}
	return c, done, err
}

// run prepares req, in shared mode with the conversation's stored
// checkpoints and its lease for a compaction; c.mu held.
func (p *Proxy) run(ctx context.Context, c *conversation, req condense.Request) (*condense.Result, error) {
	if c.log == nil {
		return c.pf.Prepare(ctx, req)
	}
	if _, err := c.log.Refresh(ctx); err != nil {
		return nil, err
	}
	if v := c.log.Version(); v != c.version {
		p.restore(ctx, c, c.log.Checkpoints(), v)
	}
	c.stale, c.gateErr = false, nil
	res, err := c.pf.Prepare(ctx, req)
	if c.lease == nil {
		if c.gateErr != nil {
			// The preflight may have cut the newest tool output without the
			// lease: start from the store next time.
			c.version = -1
		}
		return res, errors.Join(err, c.gateErr)
	}
	defer c.release(p)
	if c.stale {
		// Another proxy compacted meanwhile: start from its checkpoint.
		p.restore(ctx, c, c.lease.Checkpoints(), c.lease.(versioned).Version())
		c.stale = false
		res, err = c.pf.Prepare(ctx, req)
	}
	var recs []condense.Record
	var we *condense.WindowError
	switch {
	case err == nil:
		recs = res.Records
	case errors.As(err, &we):
		recs = we.Records // the rendering keeps them: saved too
	}
	if len(recs) > 0 {
		p.save(ctx, c, recs)
	}
	return res, err
}

type versioned interface{ Version() int64 }

// gate is called before every compaction of a conversation in shared
// mode: it takes the session's lease, and fails with errStale when the
// session changed since the preflight was restored.
func (c *conversation) gate(ctx context.Context, p *Proxy) error {
	if c.log == nil || c.lease != nil {
		if c.stale {
			return errStale
		}
		return nil
	}
	if p.beforeLease != nil {
		p.beforeLease(c.id)
	}
	lk, err := c.log.Lock(ctx)
	if err != nil {
		c.gateErr = fmt.Errorf("proxy: taking the conversation's lease: %w", err)
		return c.gateErr
	}
	v, ok := lk.(versioned)
	if !ok {
		lk.Close()
		c.gateErr = errors.New("proxy: the shared log's Lock returned a log without a Version")
		return c.gateErr
	}
	c.lease = lk
	if v.Version() != c.version {
		c.stale = true
		return errStale
	}
	return nil
}

// release gives the lease back.
func (c *conversation) release(p *Proxy) {
	if err := c.lease.Close(); err != nil {
		p.log.Warn("condense proxy: releasing a conversation's lease", "conversation", c.id, "err", err)
	}
	c.lease = nil
}

// gatedStrategy is the strategy of a conversation in shared mode: each
// compaction passes the conversation's gate first.
type gatedStrategy struct {
	condense.Strategy
	c *conversation
	p *Proxy
}

func (g gatedStrategy) Compact(ctx context.Context, cc *condense.CompactionContext) (*condense.Candidate, error) {
	if err := g.c.gate(ctx, g.p); err != nil {
		return nil, err
	}
	return g.Strategy.Compact(ctx, cc)
}

// restore rebuilds c's preflight at the session's version v from the
// checkpoint with the most messages that c's history holds: one of cps,
// c's own, or, for a conversation that diverged from another, one of the
// other's that renders only what they share. A checkpoint that does not
// render the history (an element that decodes otherwise now) leaves the
// preflight empty, as a new conversation's.
func (p *Proxy) restore(ctx context.Context, c *conversation, cps []store.Checkpoint, v int64) {
	if c.start > 1 {
		cps = append(p.inherited(ctx, c, c.start, maxForks), cps...)
	}
	last, best := 0, -1
	for k := range cps {
		if n, ok := strings.CutPrefix(cps[k].ID, "c"); ok {
			if n, err := strconv.Atoi(n); err == nil {
				last = max(last, n)
			}
		}
		if h := cps[k].HistoryCount; h <= len(c.msgs) && (best < 0 || h >= cps[best].HistoryCount) {
			best = k
		}
	}
	c.pf = p.newPreflight(c.model, gatedStrategy{p.strategy, c, p})
	c.version = v
	if best >= 0 {
		cp := &cps[best]
		hist := c.msgs[:cp.HistoryCount:cp.HistoryCount]
		r, err := cp.Rendering.Rendering(hist)
		if err == nil {
			err = c.pf.Restore(hist, r, last)
		}
		if err == nil {
			return
		}
		p.log.Warn("condense proxy: a stored checkpoint does not render this history; compacting afresh",
			"conversation", c.id, "checkpoint", cp.ID, "err", err)
		c.pf = p.newPreflight(c.model, gatedStrategy{p.strategy, c, p})
	}
	if err := c.pf.Restore(nil, nil, last); err != nil {
		p.log.Warn("condense proxy: restoring a conversation", "conversation", c.id, "err", err)
	}
}

// maxForks bounds how far back restore looks through conversations that
// diverged from others for a checkpoint to start from.
const maxForks = 4

// inherited returns the checkpoints a conversation of c's history whose
// first own element is at position start may start from: those of the
// conversation holding the element before it that count only messages the
// two share (sharedMessages), and theirs, up to depth conversations back.
func (p *Proxy) inherited(ctx context.Context, c *conversation, start, depth int) []store.Checkpoint {
	if start <= 1 || depth == 0 || start-1 > len(c.elems) {
		return nil
	}
	limit := c.sharedMessages(start - 1)
	links := make([]Link, start-1)
	for j := range links {
		links[j] = c.elems[j].link
	}
	f, err := p.shared.Find(ctx, links)
	if err == nil && f.Conversation == "" {
		return nil
	}
	var log SharedLog
	if err == nil {
		log, err = p.shared.Open(ctx, f.Conversation)
	}
	if err != nil {
		p.log.Warn("condense proxy: reading the checkpoints of the conversation this one left", "conversation", c.id, "err", err)
		return nil
	}
	defer log.Close()
	var out []store.Checkpoint
	if f.Start > 1 {
		out = p.inherited(ctx, c, f.Start, depth-1)
	}
	for _, cp := range log.Checkpoints() {
		if cp.HistoryCount <= limit {
			out = append(out, cp)
		}
	}
	return out
}

// sharedMessages returns how many messages of c's history are made of its
// first k elements alone, and made alike in any history that shares those
// elements: up to the end of the group holding element k-1, unless element
// k joined that group or the group ends with an assistant message, which
// a next element may join (Responses API items), in any other history.
func (c *conversation) sharedMessages(k int) int {
	for _, g := range c.groups {
		if g.lastElem < k-1 {
			continue
		}
		if g.firstElem > k-1 {
			return g.msgStart // element k-1 is not history (a system prompt)
		}
		if g.lastElem >= k || g.msgEnd == g.msgStart || c.msgs[g.msgEnd-1].Role == condense.RoleAssistant {
			return g.msgStart
		}
		return g.msgEnd
	}
	return len(c.msgs)
}

// save stores the preflight's rendering as the conversation's checkpoint
// under the lease, the log's stubs extended to the messages it counts.
// A save that fails is logged: the request goes on with its rendering,
// and the next restores from the store.
func (p *Proxy) save(ctx context.Context, c *conversation, recs []condense.Record) {
	last := recs[len(recs)-1]
	cp := store.Checkpoint{
		ID:           last.Checkpoint,
		Strategy:     last.Strategy,
		HistoryCount: len(c.msgs),
		Time:         time.Now().UTC(),
		Records:      recs,
		Rendering:    store.EncodeOverlay(c.pf.Rendering()),
	}
	for _, r := range recs {
		if r.Summary != "" {
			cp.Summary = r.Summary
		}
		cp.Usage = append(cp.Usage, r.Usage...)
	}
	cp.FirstKept = firstKept(cp.Rendering)
	var stubs []condense.Message
	for i := c.lease.Len(); i < cp.HistoryCount; i++ {
		stubs = append(stubs, condense.Message{Role: c.msgs[i].Role})
	}
	if _, err := c.lease.Append(context.WithoutCancel(ctx), store.Batch{Messages: stubs, Checkpoint: &cp}); err != nil {
		p.log.Warn("condense proxy: saving a checkpoint", "conversation", c.id, "checkpoint", cp.ID, "err", err)
		c.version = -1
		return
	}
	// The preflight is what a restore of the checkpoint makes, and knows
	// more: how many calls in a row were over the threshold.
	c.version = c.lease.(versioned).Version()
}

// firstKept returns the lowest log index o renders after its last summary
// or drop marker, 0 when it has none.
func firstKept(o store.Overlay) int {
	kept := 0
	for k, e := range o {
		if e.Edit != condense.EditSummary && e.Edit != condense.EditDropped {
			continue
		}
		for _, f := range o[k+1:] {
			if f.Run != nil {
				kept = f.Run[0]
				break
			}
			if f.Index >= 0 {
				kept = f.Index
				break
			}
		}
	}
	return kept
}
