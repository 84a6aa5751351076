package agent

import (
	"context"
	"errors"
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

// summarize is the journaled summarize helper handed to strategies
// (condense.CompactionContext.Summarize, DESIGN B13, B27): live it asks the
// summarizer (or the agent's model) and journals the answer as a step:done
// of kind llm with compaction_for; on resume and replay it serves the
// recorded answers in order.
func (r *run) summarize(ctx context.Context, msgs []condense.Message, instructions string) (string, error) {
	if r.fatal != nil {
		return "", r.fatal
	}
	if instructions == "" {
		instructions = r.a.SummaryInstructions
	}
	r.calls++
	index := r.calls
	step := journal.Step{StepKind: journal.StepLLM, CallIndex: index, CompactionFor: r.current,
		Fingerprint: messagesFingerprint(msgs, instructions), Messages: len(msgs)}
	served, err := r.rec.Serve(step)
	if err != nil {
		r.fatal = err
		return "", err
	}
	if served != nil {
		r.made++
		if served.Usage != nil {
			r.usage = r.usage.Add(*served.Usage)
		}
		if served.Error != nil {
			return "", recordedError(served.Error)
		}
		return served.Summary, nil
	}
	if err := r.a.Limits.check(r.made, r.usage, index); err != nil {
		r.fatal = err
		return "", err
	}
	r.kinds[CallSummarize]++
	if err := r.before(ctx, CallSummarize, r.kinds[CallSummarize]); err != nil {
		r.fatal = err
		return "", err
	}
	start := time.Now()
	text, u, model, err := r.liveSummary(ctx, msgs, instructions)
	if cerr := ctx.Err(); cerr != nil && err != nil {
		r.fatal = cerr
		return "", cerr
	}
	r.made++
	step.Model = model
	step.Usage = &u
	step.Summary = text
	step.Error = journal.ErrorOf(err)
	r.usage = r.usage.Add(u)
	// A summary that came back is journaled even when the run is being
	// cancelled: it was paid for, and a resumed run is served it (B28).
	if jerr := r.rec.Step(context.WithoutCancel(ctx), step, time.Since(start)); jerr != nil {
		r.fatal = jerr
		return "", jerr
	}
	if cerr := ctx.Err(); cerr != nil {
		r.fatal = cerr
		return "", cerr
	}
	return text, err
}

func (r *run) liveSummary(ctx context.Context, msgs []condense.Message, instructions string) (string, condense.Usage, string, error) {
	in := summarize.Input{Messages: msgs, Instructions: instructions}
	if s := r.a.Summarizer; s != nil {
		out, err := s.Summarize(ctx, in)
		if err != nil {
			return "", condense.Usage{}, "", err
		}
		u := condense.Usage{InputTokens: out.Usage.InputTokens, OutputTokens: out.Usage.OutputTokens, CostUSD: out.Usage.CostUSD}
		if u.CostUSD == 0 {
			u.CostUSD = r.a.prices().Cost(out.Usage.Model, u)
		}
		return out.Text, u, out.Usage.Model, nil
	}
	if r.a.Model == nil {
		return "", condense.Usage{}, "", errNoModel
	}
	p, err := summarize.BuildPrompt(in, summarize.Limits{})
	if err != nil {
		return "", condense.Usage{}, "", err
	}
	req := &condense.Request{
		Model:           r.req.Model,
		System:          p.System,
		Messages:        []condense.Message{condense.UserText(p.User)},
		MaxOutputTokens: summarize.DefaultMaxOutput,
	}
	resp, err := r.a.Model.Generate(ctx, req)
	if err != nil {
		return "", condense.Usage{}, "", err
	}
	resp.Usage.CostUSD = r.cost(resp)
	text := strings.TrimSpace(resp.Text())
	if err := summarize.Check(text, string(resp.StopReason), resp.Message.HasToolCalls(), string(StopMaxTokens)); err != nil {
		return "", resp.Usage, resp.Model, err
	}
	return text, resp.Usage, resp.Model, nil
}

// JournaledSummarizer returns a summarize.Summarizer for built-in
// strategies (strategy.Summarize{Summarizer: agent.JournaledSummarizer()})
// that routes their summaries through the running agent's journaled
// summarize helper, so they are journaled, counted toward the limits and
// served on replay like a custom strategy's. Outside a run, and for a run
// whose preflight has no helper, it returns an error.
func JournaledSummarizer() summarize.Summarizer { return journaledSummarizer{} }

type journaledSummarizer struct{}

type runKey struct{}

func (journaledSummarizer) Summarize(ctx context.Context, in summarize.Input) (*summarize.Output, error) {
	r, _ := ctx.Value(runKey{}).(*run)
	if r == nil {
		return nil, errors.New("agent: JournaledSummarizer used outside an agent run")
	}
	msgs := in.Messages
	instructions := in.Instructions
	if in.Previous != "" {
		msgs = append([]condense.Message{condense.UserText("Previous summary:\n" + in.Previous)}, msgs...)
	}
	text, err := r.summarize(ctx, msgs, instructions)
	if err != nil {
		return nil, err
	}
	return &summarize.Output{Text: text}, nil
}
