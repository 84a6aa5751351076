package proxy

import (
	"context"
	"errors"
	"fmt"

	"github.com/tidwall/gjson"

	"github.com/condense-dev/condense"
)

// outcome is what the preflight made of one request.
type outcome struct {
	body []byte // what goes upstream
	// compacted: body differs from what the client sent (a compaction in
	// this call, or a checkpoint of an earlier one).
	compacted bool
	// before is the estimate of the request as the client sent it, after
	// the estimate of body.
	before, after int
	records       []condense.Record
	conv          *conversation
	req           condense.Request
	rendering     condense.Rendering
	// masked: the rendering holds content recall can bring back.
	masked bool
	// limit is the request's input limit, 0 when its model is unknown.
	limit int
}

// prepare runs one request body through the preflight of its conversation
// and returns what to send upstream. A body the proxy cannot compact (no
// history array) comes back unchanged; a *condense.WindowError means the
// request cannot fit and must not be sent.
func (p *Proxy) prepare(ctx context.Context, client digest, api *wireAPI, body []byte) (*outcome, error) {
	pb, err := splitBody(body, api)
	if errors.Is(err, errNoArray) {
		return &outcome{body: body}, nil
	}
	head, skip, err := p.readHead(api, &pb)
	if err != nil {
		return nil, err
	}
	links := chainOf(client, api, head.Model, pb.elems)
	conv, done, err := p.conversationOf(ctx, links, head.Model)
	if err != nil {
		return nil, err
	}
	defer done()
	conv.mu.Lock()
	defer conv.mu.Unlock()
	if err := conv.sync(api, pb.elems, links, skip); err != nil {
		return nil, err
	}
	req := head
	req.Messages = conv.msgs
	res, err := p.run(ctx, conv, req)
	if err != nil {
		return nil, err
	}
	out := &outcome{body: body, before: res.Tokens, after: res.Tokens, records: res.Records, conv: conv,
		req: req, rendering: res.Rendering}
	if res.Budget.Known() {
		out.limit = res.Budget.InputLimit()
	}
	if verbatim(res.Rendering, len(conv.msgs)) {
		return out, nil
	}
	out.compacted = true
	if out.body, err = conv.render(api, head.Model, &pb, res.Rendering); err != nil {
		return nil, err
	}
	out.before = conv.estimate(p.counterFor(head.Model), &req)
	out.masked = hasMasked(res.Rendering)
	return out, nil
}

// conversationOf returns the conversation a request with these links
// continues, or a new one, and a function to call when the request is done
// with it.
func (p *Proxy) conversationOf(ctx context.Context, links []digest, model string) (*conversation, func(), error) {
	if p.shared != nil {
		return p.sharedConversation(ctx, links, model)
	}
	conv, _ := p.convs.find(links, func() *conversation {
		return &conversation{model: model, pf: p.newPreflight(model, p.strategy)}
	})
	return conv, func() {}, nil
}

// newPreflight returns a preflight for a conversation with model.
func (p *Proxy) newPreflight(model string, st condense.Strategy) *condense.Preflight {
	return condense.NewPreflight(p.counterFor(model), st, &condense.Options{
		Registry: p.registry, Settings: p.opts.Settings, Summarizer: p.opts.Summarizer, Logger: p.log})
}

// readHead decodes everything in the body but the history with the codec:
// the body with an empty array, or, for Chat Completions, with the first
// element alone when it is a system message (the codec makes a plain one
// the system prompt). skip is the number of elements read as the system
// prompt.
func (p *Proxy) readHead(api *wireAPI, pb *parsedBody) (condense.Request, int, error) {
	if api == chatAPI && len(pb.elems) > 0 {
		if role := gjson.GetBytes(pb.elems[0], "role").Str; role == "system" || role == "developer" {
			req, sys, err := api.head(pb.withArray(pb.elems[0]))
			if err != nil {
				return req, 0, err
			}
			if sys {
				return req, 1, nil
			}
		}
	}
	req, _, err := api.head(pb.withArray())
	return req, 0, err
}

// verbatim reports whether r renders a history of n messages unchanged.
func verbatim(r condense.Rendering, n int) bool {
	if len(r) != n {
		return false
	}
	for i := range r {
		if r[i].Index != i || r[i].Edit != condense.EditNone {
			return false
		}
	}
	return true
}

// hasMasked reports whether r replaces content that recall can bring
// back.
func hasMasked(r condense.Rendering) bool {
	for i := range r {
		switch r[i].Edit {
		case condense.EditMasked, condense.EditCleared, condense.EditSummary, condense.EditDropped, condense.EditTruncated:
			return true
		}
	}
	return false
}

// render writes the rendering r as a body: every group of elements whose
// messages r keeps verbatim and in order goes out as its original bytes,
// everything else (placeholders, summaries, minified messages) as the codec
// writes it. Since a checkpoint renders the same bytes on every call,
// the body only grows at its end between compactions.
func (c *conversation) render(api *wireAPI, model string, pb *parsedBody, r condense.Rendering) ([]byte, error) {
	parts := make([][]byte, 0, len(r)+c.skip)
	parts = append(parts, pb.elems[:c.skip]...)
	var pending []condense.Message
	flush := func() error {
		if len(pending) == 0 {
			return nil
		}
		b, err := api.encode(model, pending)
		if err != nil {
			return fmt.Errorf("proxy: writing the compacted history: %w", err)
		}
		parts = append(parts, b)
		pending = pending[:0]
		return nil
	}
	for i := 0; i < len(r); {
		if g := c.verbatimGroup(r, i); g != nil {
			if err := flush(); err != nil {
				return nil, err
			}
			parts = append(parts, pb.elems[g.firstElem:g.lastElem+1]...)
			i += g.msgEnd - g.msgStart
			continue
		}
		pending = append(pending, r[i].Message)
		i++
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return pb.withArray(parts...), nil
}

// verbatimGroup returns the group whose messages r renders verbatim from
// item i on, or nil.
func (c *conversation) verbatimGroup(r condense.Rendering, i int) *group {
	it := &r[i]
	if it.Edit != condense.EditNone || it.Index < 0 || it.Index >= len(c.groupOf) {
		return nil
	}
	g := &c.groups[c.groupOf[it.Index]]
	if g.msgStart != it.Index || i+(g.msgEnd-g.msgStart) > len(r) {
		return nil
	}
	for k := 0; k < g.msgEnd-g.msgStart; k++ {
		if r[i+k].Edit != condense.EditNone || r[i+k].Index != g.msgStart+k {
			return nil
		}
	}
	return g
}
