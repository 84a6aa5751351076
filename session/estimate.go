package session

import (
	"context"

	"github.com/condense-dev/condense"
)

// Estimate is what the next request would hold if it were prepared now,
// before any compaction: its estimated tokens and the budget they are
// measured against.
type Estimate struct {
	// Tokens is the estimate of the current rendering (the latest
	// checkpoint's overlay and every message appended since, verbatim)
	// with the request template's system text and tools.
	Tokens int
	// Messages counts the messages of that rendering.
	Messages int
	Budget   condense.Budget
	Counter  string
	Exact    bool
}

// Percent returns Tokens as a share of the budget's input limit, in
// percent (0 when the window is unknown).
func (e Estimate) Percent() float64 {
	lim := e.Budget.InputLimit()
	if lim <= 0 {
		return 0
	}
	return float64(e.Tokens) * 100 / float64(lim)
}

// Estimate measures the next request without preparing it: nothing is
// compacted, saved or remembered, so it may be asked for as often as a
// status page likes. It waits for a compaction in progress (the session
// lock, shared like an append's), decodes nothing the rendering hides, and
// counts with the session's counter and budget settings.
func (s *Session) Estimate(ctx context.Context) (Estimate, error) {
	if err := s.lk.lock(ctx, false); err != nil {
		return Estimate{}, err
	}
	defer s.lk.unlock(false)
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Estimate{}, ErrClosed
	}
	req := s.template
	r := s.pf.Rendering()
	seen := 0
	msgs := make([]condense.Message, 0, len(r)+len(s.hist))
	for i := range r {
		msgs = append(msgs, r[i].Message)
		seen = max(seen, r[i].Index+1, r[i].Covers.End)
	}
	msgs = append(msgs, s.hist[min(seen, len(s.hist)):]...)
	for _, b := range s.pending {
		msgs = append(msgs, b.Messages...)
	}
	s.mu.Unlock()
	req.Messages = msgs
	var info condense.ModelInfo
	if reg := s.opts.Preflight.Registry; reg != nil {
		info, _ = reg.Lookup(req.Model)
	}
	e := Estimate{
		Tokens:   condense.CountRequest(s.counter, &req),
		Messages: len(msgs),
		Budget:   condense.ResolveBudget(&req, info, s.opts.Preflight.Settings, s.opts.Preflight.Client),
		Counter:  s.counter.Name(),
		Exact:    s.counter.Exact(),
	}
	return e, nil
}
