package agent

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/journal"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

func defaultCounter(model string, reg condense.Registry) condense.Counter {
	return tokens.ForModel(model, reg)
}

// runSummarizer is the summarizer a run's preflight hands to every
// strategy (condense.CompactionContext.Summarizer), built in or custom:
// live it asks Agent.Summarizer (or the agent's model) and journals the
// answer as a step:done of kind llm with compaction_for; on resume and
// replay it serves the recorded answers in order.
type runSummarizer struct{ r *run }

var _ condense.Summarizer = runSummarizer{}

func (s runSummarizer) Summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	return s.r.summarize(ctx, req)
}

func (r *run) summarize(ctx context.Context, req condense.SummaryRequest) (*condense.Summary, error) {
	if r.fatal != nil {
		return nil, r.fatal
	}
	if req.Instructions == "" {
		req.Instructions = r.a.SummaryInstructions
	}
	// The fingerprint covers the previous summary as a leading message,
	// as journals have always recorded it.
	msgs := req.Messages
	if req.Previous != "" {
		msgs = append([]condense.Message{condense.UserText("Previous summary:\n" + req.Previous)}, msgs...)
	}
	r.calls++
	index := r.calls
	step := journal.Step{StepKind: journal.StepLLM, CallIndex: index, CompactionFor: r.current,
		Fingerprint: messagesFingerprint(msgs, req.Instructions), Messages: len(msgs)}
	served, err := r.rec.Serve(step)
	if err != nil {
		r.fatal = err
		return nil, err
	}
	if served != nil {
		r.made++
		out := &condense.Summary{Text: served.Summary}
		if served.Usage != nil {
			r.usage = r.usage.Add(*served.Usage)
			out.Usage = *served.Usage
		}
		if served.Error != nil {
			return nil, recordedError(served.Error)
		}
		return out, nil
	}
	if err := r.a.Limits.check(r.made, r.usage, index); err != nil {
		r.fatal = err
		return nil, err
	}
	r.kinds[CallSummarize]++
	if err := r.before(ctx, CallSummarize, r.kinds[CallSummarize]); err != nil {
		r.fatal = err
		return nil, err
	}
	start := time.Now()
	text, u, model, err := r.liveSummary(ctx, req)
	if cerr := ctx.Err(); cerr != nil && err != nil {
		r.fatal = cerr
		return nil, cerr
	}
	r.made++
	step.Model = model
	step.Usage = &u
	step.Summary = text
	step.Error = journal.ErrorOf(err)
	r.usage = r.usage.Add(u)
	// A summary that came back is journaled even when the run is being
	// cancelled: it was paid for, and a resumed run is served it.
	if jerr := r.rec.Step(context.WithoutCancel(ctx), step, time.Since(start)); jerr != nil {
		r.fatal = jerr
		return nil, jerr
	}
	if cerr := ctx.Err(); cerr != nil {
		r.fatal = cerr
		return nil, cerr
	}
	if err != nil {
		return nil, err
	}
	return &condense.Summary{Text: text, Usage: u}, nil
}

// liveSummary asks Agent.Summarizer for the summary of req, or, without
// one, the agent's model with the summary prompt of the summarize package.
func (r *run) liveSummary(ctx context.Context, req condense.SummaryRequest) (string, condense.Usage, string, error) {
	if s := r.a.Summarizer; s != nil {
		out, err := s.Summarize(ctx, req)
		if err != nil {
			return "", condense.Usage{}, "", err
		}
		u := condense.Usage{InputTokens: out.Usage.InputTokens, OutputTokens: out.Usage.OutputTokens,
			CacheReadTokens: out.Usage.CacheReadTokens, CacheWriteTokens: out.Usage.CacheWriteTokens, CostUSD: out.Usage.CostUSD}
		if u.CostUSD == 0 {
			u.CostUSD = r.a.prices().Cost(out.Usage.Model, u)
		}
		return out.Text, u, out.Usage.Model, nil
	}
	if r.a.Model == nil {
		return "", condense.Usage{}, "", errNoModel
	}
	// The same bounds as the provider summarizers: the request passes its
	// own input budget (the model's window less the output cap) and a
	// payload limit, and one summary may take two minutes at most.
	info, _ := r.a.registry().Lookup(r.req.Model)
	maxOut := summarize.OutputCap(req.MaxOutputTokens, info.MaxOutput)
	lim := summarize.Limits{MaxPayloadBytes: summarize.DefaultMaxPayloadBytes}
	if info.Window > maxOut {
		lim.MaxInputTokens = info.Window - maxOut
	}
	p, err := summarize.BuildPrompt(req, lim)
	if err != nil {
		return "", condense.Usage{}, "", err
	}
	mreq := &condense.Request{
		Model:           r.req.Model,
		System:          p.System,
		Messages:        []condense.Message{condense.UserText(p.User)},
		MaxOutputTokens: maxOut,
	}
	timeout := r.a.SummaryTimeout
	if timeout <= 0 {
		timeout = summarize.DefaultTimeout
	}
	sctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	resp, err := r.a.Model.Generate(sctx, mreq)
	if err != nil {
		if ctx.Err() == nil && sctx.Err() != nil {
			err = fmt.Errorf("agent: summary timed out after %v: %w", timeout, context.DeadlineExceeded)
		}
		return "", condense.Usage{}, "", err
	}
	resp.Usage.CostUSD = r.cost(resp)
	text := strings.TrimSpace(resp.Text())
	if err := summarize.Check(text, string(resp.StopReason), resp.Message.HasToolCalls(), string(StopMaxTokens)); err != nil {
		return "", resp.Usage, resp.Model, err
	}
	return text, resp.Usage, resp.Model, nil
}
