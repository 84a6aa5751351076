package eval

import (
	"context"
	"errors"
	"log/slog"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/tokens"
)

// Replay is what one policy did over a turn-by-turn replay of a transcript:
// at every assistant step the request that produced it is rendered from the
// history so far, by one stateful preflight fed the growing history, the
// way an agent uses it.
type Replay struct {
	// Steps is the number of requests replayed (assistant messages).
	Steps int `json:"steps"`
	// Sent counts the requests that fit; Overflows those that did not
	// (context_window_exceeded: no request).
	Sent      int `json:"sent"`
	Overflows int `json:"overflows"`
	// InputTokens sums the sent requests' estimates; CachedTokens the
	// part of each that repeats the previous sent request from its start
	// (what a provider's prompt cache can serve). OutputTokens sums the
	// transcript's assistant messages answering the sent requests.
	InputTokens  int64 `json:"input_tokens"`
	CachedTokens int64 `json:"cached_tokens"`
	OutputTokens int64 `json:"output_tokens"`
	// PeakTokens is the largest request estimate, sent or not.
	PeakTokens int `json:"peak_tokens"`
	// Compactions counts accepted compactions.
	Compactions int `json:"compactions"`
	// SummarizerCalls counts the summaries asked for, with their tokens.
	SummarizerCalls        int   `json:"summarizer_calls"`
	SummarizerInputTokens  int64 `json:"summarizer_input_tokens"`
	SummarizerOutputTokens int64 `json:"summarizer_output_tokens"`
	// Complete: every request fit, so an agent under this policy gets
	// through the whole session. A request over the input limit is refused
	// by the provider (context_length_exceeded) and not billed, but the
	// agent cannot go on from it: the session stops there. CompletedSteps
	// counts the requests before the first that overflowed (Steps when
	// Complete); Incomplete is 1 when the replay is not complete (Aggregate
	// sums it: the transcripts the policy did not complete).
	Complete       bool `json:"complete"`
	CompletedSteps int  `json:"completed_steps"`
	Incomplete     int  `json:"incomplete"`
	// CostUSD prices the sent requests, their outputs and the summaries;
	// refused requests cost nothing. When the replay is not Complete it is
	// not the cost of the session, which did not finish, and compares with
	// no complete policy's cost. Priced is false when the model has no
	// price.
	CostUSD float64 `json:"cost_usd"`
	Priced  bool    `json:"priced"`
	// TokensPerStep is each request's estimate (after compaction, or the
	// smallest reached when it did not fit); OverflowSteps and
	// CompactionSteps list 0-based step numbers.
	TokensPerStep   []int `json:"tokens_per_step"`
	CachedPerStep   []int `json:"cached_per_step"`
	OverflowSteps   []int `json:"overflow_steps"`
	CompactionSteps []int `json:"compaction_steps"`
}

// Validity counts renderings that break turn safety (condense.Validate): a
// tool call separated from its result, a parallel batch split.
type Validity struct {
	Renderings int    `json:"renderings"`
	Invalid    int    `json:"invalid"`
	First      string `json:"first_error,omitempty"`
}

// Valid reports whether every rendering passed.
func (v *Validity) Valid() bool { return v.Invalid == 0 }

func (v *Validity) check(msgs []condense.Message) {
	v.Renderings++
	if err := condense.Validate(msgs); err != nil {
		v.Invalid++
		if v.First == "" {
			v.First = ledger.Redact(err.Error()) // it may quote the history
		}
	}
}

// CountSteps returns the number of requests a replay of msgs makes: one per
// assistant message that has history before it.
func CountSteps(msgs []condense.Message) int {
	n := 0
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role == condense.RoleAssistant {
			n++
		}
	}
	return n
}

// msgKey identifies a message by the identity of its parts: rendered
// messages share their parts with the log (or with the overlay that made
// them), so equal keys mean equal content and the fingerprint and count
// need computing once.
type msgKey struct {
	parts  *condense.Part
	n      int
	role   condense.Role
	id     string
	status condense.Status
	pinned bool
}

type msgInfo struct {
	fp     uint64
	tokens int
}

type memo struct {
	counter condense.Counter
	m       map[msgKey]msgInfo
}

func newMemo(c condense.Counter) *memo { return &memo{counter: c, m: map[msgKey]msgInfo{}} }

func (mm *memo) info(m *condense.Message) msgInfo {
	if len(m.Parts) == 0 {
		return msgInfo{fp: condense.Fingerprint(m), tokens: mm.counter.CountMessage(m)}
	}
	k := msgKey{parts: &m.Parts[0], n: len(m.Parts), role: m.Role, id: m.ID, status: m.Status, pinned: m.Pinned}
	if in, ok := mm.m[k]; ok {
		return in
	}
	in := msgInfo{fp: condense.Fingerprint(m), tokens: mm.counter.CountMessage(m)}
	mm.m[k] = in
	return in
}

// run is one policy's replay of one transcript and its final rendering.
type run struct {
	replay   Replay
	validity Validity
	final    []condense.Message
	tokens   int
	fits     bool
	strategy string
}

func replayPolicy(ctx context.Context, t *Transcript, pol *Policy, cfg *Config, prices tokens.Prices, log *slog.Logger) (*run, error) {
	progress := cfg.Progress
	s := pol.strategy()
	settings := t.Budget.Settings(&t.Request)
	if pol.Fraction > 0 {
		settings.Fraction = pol.Fraction
	}
	pf := condense.NewPreflight(t.Counter, s, &condense.Options{Settings: settings, Summarizer: cfg.Summarizer, Logger: log})
	r := &run{strategy: "none"}
	if s != nil {
		r.strategy = s.Name()
	}
	mm := newMemo(t.Counter)
	msgs := t.Request.Messages
	req := t.Request
	overhead := t.Counter.CountOverhead(req.System, req.Tools)
	price, priced := prices.Lookup(req.Model)
	rp := &r.replay
	rp.Priced = priced
	rp.TokensPerStep = []int{}
	rp.CachedPerStep = []int{}
	rp.OverflowSteps = []int{}
	rp.CompactionSteps = []int{}

	var prev []uint64 // fingerprints of the previous sent request
	var cur []uint64
	pending := 0
	for i := 1; i < len(msgs); i++ {
		if msgs[i].Role != condense.RoleAssistant {
			continue
		}
		step := rp.Steps
		rp.Steps++
		if pending++; pending == 16 && progress != nil {
			progress(pending)
			pending = 0
		}
		req.Messages = msgs[:i]
		res, err := pf.Prepare(ctx, req)
		var we *condense.WindowError
		if errors.As(err, &we) {
			if rp.Overflows == 0 {
				rp.CompletedSteps = step
			}
			rp.Overflows++
			rp.OverflowSteps = append(rp.OverflowSteps, step)
			rp.TokensPerStep = append(rp.TokensPerStep, we.Tokens)
			rp.CachedPerStep = append(rp.CachedPerStep, 0)
			rp.PeakTokens = max(rp.PeakTokens, we.Tokens)
			continue
		}
		if err != nil {
			return nil, err
		}
		r.account(res, price, priced, step)
		out := res.Request.Messages
		r.validity.check(out)

		// Cached: the prefix shared with the previous sent request,
		// compared by fingerprint from the start.
		cur = cur[:0]
		cached, shared := 0, prev != nil
		for k := range out {
			in := mm.info(&out[k])
			cur = append(cur, in.fp)
			if shared && k < len(prev) && prev[k] == in.fp {
				cached += in.tokens
			} else {
				shared = false
			}
		}
		if prev != nil {
			cached = min(res.Tokens, cached+overhead)
		}
		prev, cur = cur, prev

		output := mm.info(&msgs[i]).tokens
		rp.Sent++
		rp.InputTokens += int64(res.Tokens)
		rp.CachedTokens += int64(cached)
		rp.OutputTokens += int64(output)
		rp.PeakTokens = max(rp.PeakTokens, res.Tokens)
		rp.TokensPerStep = append(rp.TokensPerStep, res.Tokens)
		rp.CachedPerStep = append(rp.CachedPerStep, cached)
		if priced {
			// What is not read from the cache is written to it, as an
			// agent that marks its prompt for caching has it: Anthropic
			// charges a surcharge for the write, OpenAI does not.
			rp.CostUSD += price.Cost(condense.Usage{InputTokens: res.Tokens, CacheReadTokens: cached,
				CacheWriteTokens: res.Tokens - cached, OutputTokens: output})
		}
	}
	if pending > 0 && progress != nil {
		progress(pending)
	}
	rp.Complete = rp.Overflows == 0
	if rp.Complete {
		rp.CompletedSteps = rp.Steps
	} else {
		rp.Incomplete = 1
	}

	// The final rendering: the request after the whole transcript, what
	// "condense compact" would send.
	req.Messages = msgs
	res, err := pf.Prepare(ctx, req)
	var we *condense.WindowError
	switch {
	case errors.As(err, &we):
		r.final = pf.Rendering().Messages()
		r.tokens = we.Tokens
	case err != nil:
		return nil, err
	default:
		r.account(res, price, priced, -1)
		r.final = res.Request.Messages
		r.tokens = res.Tokens
		r.fits = true
	}
	r.validity.check(r.final)
	return r, nil
}

// account adds res's compactions and summaries (step < 0: the final
// request, counted in the totals but not in the per-step lists).
func (r *run) account(res *condense.Result, price tokens.Price, priced bool, step int) {
	if len(res.Records) == 0 {
		return
	}
	rp := &r.replay
	rp.Compactions += len(res.Records)
	if step >= 0 {
		rp.CompactionSteps = append(rp.CompactionSteps, step)
	}
	for _, rec := range res.Records {
		for _, u := range rec.Usage {
			rp.SummarizerCalls++
			rp.SummarizerInputTokens += int64(u.InputTokens)
			rp.SummarizerOutputTokens += int64(u.OutputTokens)
			switch {
			case u.CostUSD > 0:
				rp.CostUSD += u.CostUSD
			case priced:
				rp.CostUSD += price.Cost(u)
			}
		}
	}
}
