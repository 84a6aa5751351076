package eval

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"sync"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens"
)

// Transcript is one transcript to evaluate: its request (model, system,
// tools, the whole log), the counter and the budget to render it with.
type Transcript struct {
	Name    string
	Format  string
	Request condense.Request
	Counter condense.Counter
	Budget  condense.Budget
	// Probes, when not nil, are this transcript's own probes, used instead
	// of Config.Probes (a corpus whose sessions each plant their own).
	Probes []Probe
}

// Config configures Evaluate. The zero value compares DefaultPolicies()
// with tokens.DefaultPrices(), summarizing with the extractive summarizer.
type Config struct {
	// Policies are compared; nil means DefaultPolicies().
	Policies []Policy
	// Summarizer writes the policies' summaries; nil means the extractive
	// summarizer.
	Summarizer condense.Summarizer
	// Probes are the user's must-keep specifics (--probes).
	Probes []Probe
	// Prices price the replay; nil means tokens.DefaultPrices().
	Prices tokens.Prices
	// Workers bounds the replays run at once; 0 means GOMAXPROCS.
	Workers int
	// Progress, when set, is called (from any goroutine) with the number
	// of replay steps just done; CountSteps(msgs) × len(Policies) per
	// transcript add up to the total.
	Progress func(steps int)
	// Logger receives the preflights' warnings; nil discards them.
	Logger *slog.Logger
}

// Report is the evaluation of one transcript.
type Report struct {
	File       string `json:"file"`
	Format     string `json:"format"`
	Model      string `json:"model"`
	Counter    string `json:"counter"`
	Exact      bool   `json:"exact"`
	Window     int    `json:"window"`
	InputLimit int    `json:"input_limit"`
	Threshold  int    `json:"threshold"`
	Messages   int    `json:"messages"`
	Steps      int    `json:"steps"`
	// Tokens is the estimate of the whole transcript as one request.
	Tokens int `json:"tokens"`
	// Specifics counts what the extractor found in the original, per
	// category.
	Specifics map[string]int `json:"specifics"`
	// Price is the model's price, when the table has one.
	Price    *tokens.Price  `json:"price,omitempty"`
	Policies []PolicyReport `json:"policies"`

	original  []condense.Message
	resolved  []Resolved
	specifics []Specific
	index     *Index
}

// Original returns the transcript's messages.
func (r *Report) Original() []condense.Message { return r.original }

// ResolvedProbes returns the probes as resolved against the original.
func (r *Report) ResolvedProbes() []Resolved { return r.resolved }

// PolicyReport is one policy on one transcript (or, from Aggregate, on all
// of them).
type PolicyReport struct {
	Name     string  `json:"name"`
	Describe string  `json:"describe"`
	Strategy string  `json:"strategy"`
	Fraction float64 `json:"fraction,omitempty"`
	// Final is the rendering after the whole transcript: what "condense
	// compact" would send. When it does not fit (Final.Fits is false) it is
	// the smallest rendering the policy reached, which cannot be sent; for
	// "none" that is the transcript itself.
	Final Final `json:"final"`
	// Retention of the extractor's specifics by Final's rendering. A
	// rendering that does not fit retains nothing: every specific counts
	// as lost and Retention.Unsent is 1.
	Retention Retention `json:"retention"`
	// Probes is the retention of the --probes, when given, scored the same
	// way.
	Probes *ProbeRetention `json:"probes,omitempty"`
	// Validity of every rendering of the replay and of Final.
	Validity Validity `json:"validity"`
	// Replay is the turn-by-turn replay.
	Replay Replay `json:"replay"`

	rendered []condense.Message
}

// Rendered returns the messages of the final rendering.
func (p *PolicyReport) Rendered() []condense.Message { return p.rendered }

// Final is the final rendering's size.
type Final struct {
	Tokens   int  `json:"tokens"`
	Messages int  `json:"messages"`
	Fits     bool `json:"fits"`
	// Compression is the share of the original's tokens saved, in [0, 1);
	// Ratio is original tokens / final tokens.
	Compression float64 `json:"compression"`
	Ratio       float64 `json:"ratio"`
}

// Evaluate replays every transcript under every policy and measures
// retention, compression, validity and cost. Reports come back in the
// order of ts. Only cancellation and broken histories are errors.
func Evaluate(ctx context.Context, ts []Transcript, cfg Config) ([]*Report, error) {
	pols := cfg.Policies
	if pols == nil {
		pols = DefaultPolicies()
	}
	prices := cfg.Prices
	if prices == nil {
		prices = tokens.DefaultPrices()
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	reports := make([]*Report, len(ts))
	for i := range ts {
		reports[i] = &Report{Policies: make([]PolicyReport, len(pols))}
	}
	var (
		mu       sync.Mutex
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
			cancel()
		}
		mu.Unlock()
	}
	parallel(workers, len(ts), func(i int) {
		if ctx.Err() == nil {
			probes := cfg.Probes
			if ts[i].Probes != nil {
				probes = ts[i].Probes
			}
			prepare(reports[i], &ts[i], probes, prices)
		}
	})
	parallel(workers, len(ts)*len(pols), func(j int) {
		if ctx.Err() != nil {
			return
		}
		ti, pi := j/len(pols), j%len(pols)
		r, err := replayPolicy(ctx, &ts[ti], &pols[pi], &cfg, prices, log)
		if err != nil {
			fail(err)
			return
		}
		reports[ti].Policies[pi] = finish(reports[ti], &pols[pi], r)
	})
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, r := range reports {
		r.index = nil // large; not needed any more
	}
	return reports, nil
}

// parallel runs f(0..n-1) on up to workers goroutines.
func parallel(workers, n int, f func(int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < min(workers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}

func prepare(rep *Report, t *Transcript, probes []Probe, prices tokens.Prices) {
	msgs := t.Request.Messages
	*rep = Report{
		File: t.Name, Format: t.Format, Model: t.Request.Model,
		Counter: t.Counter.Name(), Exact: t.Counter.Exact(),
		Window: t.Budget.Window, InputLimit: t.Budget.InputLimit(), Threshold: t.Budget.Threshold(),
		Messages: len(msgs), Steps: CountSteps(msgs), Tokens: condense.CountRequest(t.Counter, &t.Request),
		Specifics: map[string]int{}, Policies: rep.Policies, original: msgs,
	}
	if pr, ok := prices.Lookup(t.Request.Model); ok {
		rep.Price = &pr
	}
	rep.specifics = Extract(msgs)
	for _, c := range Categories {
		rep.Specifics[string(c)] = 0
	}
	for _, s := range rep.specifics {
		rep.Specifics[string(s.Category)]++
	}
	full := Flatten(msgs)
	rep.index = NewIndex(full)
	if len(probes) > 0 {
		rep.resolved = Resolve(probes, full, rep.index)
	}
}

func finish(rep *Report, pol *Policy, r *run) PolicyReport {
	pr := PolicyReport{Name: pol.Name, Describe: pol.Describe, Strategy: r.strategy, Fraction: pol.Fraction,
		Validity: r.validity, Replay: r.replay, rendered: r.final}
	pr.Final = Final{Tokens: r.tokens, Messages: len(r.final), Fits: r.fits}
	if rep.Tokens > 0 {
		pr.Final.Compression = 1 - float64(r.tokens)/float64(rep.Tokens)
	}
	if r.tokens > 0 {
		pr.Final.Ratio = float64(rep.Tokens) / float64(r.tokens)
	}
	// A final rendering that does not fit cannot be sent: it keeps nothing
	// (a nil index), however much of the original it holds.
	var idx *Index
	switch {
	case !r.fits:
	case sameMessages(r.final, rep.original):
		idx = rep.index
	default:
		idx = NewIndex(Flatten(r.final))
	}
	pr.Retention = Measure(rep.specifics, idx)
	if rep.resolved != nil {
		p := MeasureProbes(rep.resolved, idx)
		pr.Probes = &p
	}
	return pr
}

// sameMessages reports whether a renders exactly b (the "none" policy, or
// a policy that never compacted).
func sameMessages(a, b []condense.Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i].Parts) != len(b[i].Parts) {
			return false
		}
		if len(a[i].Parts) > 0 && &a[i].Parts[0] == &b[i].Parts[0] {
			continue
		}
		if condense.Fingerprint(&a[i]) != condense.Fingerprint(&b[i]) {
			return false
		}
	}
	return true
}

// Aggregate sums the reports' policies over all transcripts: replay
// totals, retention and validity; Final holds the summed tokens and
// messages, and Fits only if every transcript's final rendering fit.
// Retention pools each category's items over the transcripts (a rendering
// that did not fit adds its items as lost) and Overall is the mean over
// the pooled categories. The replay is Complete only if every transcript's
// was; Incomplete counts those that were not.
func Aggregate(reports []*Report) []PolicyReport {
	if len(reports) == 0 {
		return nil
	}
	var orig int
	out := make([]PolicyReport, len(reports[0].Policies))
	for i, p := range reports[0].Policies {
		out[i] = PolicyReport{Name: p.Name, Describe: p.Describe, Strategy: p.Strategy, Fraction: p.Fraction,
			Final: Final{Fits: true}, Replay: Replay{Priced: true},
			Retention: Retention{ByCategory: map[string]Tally{}}}
	}
	for _, rep := range reports {
		orig += rep.Tokens
		for i := range out {
			p, a := &rep.Policies[i], &out[i]
			a.Final.Tokens += p.Final.Tokens
			a.Final.Messages += p.Final.Messages
			a.Final.Fits = a.Final.Fits && p.Final.Fits
			a.Retention.Add(p.Retention)
			if p.Probes != nil {
				if a.Probes == nil {
					a.Probes = &ProbeRetention{}
				}
				a.Probes.Add(*p.Probes)
			}
			a.Validity.Renderings += p.Validity.Renderings
			a.Validity.Invalid += p.Validity.Invalid
			if a.Validity.First == "" {
				a.Validity.First = p.Validity.First
			}
			r, ar := &p.Replay, &a.Replay
			ar.Steps += r.Steps
			ar.Sent += r.Sent
			ar.Overflows += r.Overflows
			ar.InputTokens += r.InputTokens
			ar.CachedTokens += r.CachedTokens
			ar.OutputTokens += r.OutputTokens
			ar.PeakTokens = max(ar.PeakTokens, r.PeakTokens)
			ar.Compactions += r.Compactions
			ar.SummarizerCalls += r.SummarizerCalls
			ar.SummarizerInputTokens += r.SummarizerInputTokens
			ar.SummarizerOutputTokens += r.SummarizerOutputTokens
			ar.CostUSD += r.CostUSD
			ar.Priced = ar.Priced && r.Priced
			ar.CompletedSteps += r.CompletedSteps
			ar.Incomplete += r.Incomplete
		}
	}
	for i := range out {
		a := &out[i]
		a.Retention.score()
		if a.Probes != nil {
			a.Probes.score()
		}
		a.Replay.Complete = a.Replay.Incomplete == 0
		if orig > 0 {
			a.Final.Compression = 1 - float64(a.Final.Tokens)/float64(orig)
		}
		if a.Final.Tokens > 0 {
			a.Final.Ratio = float64(orig) / float64(a.Final.Tokens)
		}
	}
	return out
}
