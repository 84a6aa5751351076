package strategy_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"reflect"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/summarize"
	"github.com/condense-dev/condense/tokens"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// builtins returns fresh instances of every built-in strategy.
func builtins() map[string]condense.Strategy {
	return map[string]condense.Strategy{
		"minify":            strategy.Minify{},
		"mask":              strategy.Mask{},
		"mask-2":            strategy.Mask{KeepSteps: 2},
		"drop-oldest":       strategy.DropOldest{},
		"clear-tool-uses":   strategy.ClearToolUses{ClearInputs: true},
		"pipeline":          strategy.Default(),
		"summarize":         strategy.Summarize{},
		"summarize-flaky":   withSummarizer(strategy.Summarize{}, &flaky{}),
		"segments":          strategy.Segments{},
		"segments-lossy":    strategy.Segments{Mode: strategy.Lossy},
		"segments-adaptive": strategy.Segments{Mode: strategy.Adaptive},
	}
}

// checkInvariants checks I1–I4, I8 and I9 for one prepared request.
func checkInvariants(t *rapid.T, history, before []condense.Message, res *condense.Result, earlierDemoted int) {
	msgs := res.Request.Messages
	// I1
	if err := condense.Validate(msgs); err != nil {
		t.Fatalf("I1: %v", err)
	}
	// I2
	if res.Budget.Known() && res.Tokens > res.Budget.InputLimit() {
		t.Fatalf("I2: %d tokens over input limit %d", res.Tokens, res.Budget.InputLimit())
	}
	// I9
	if !reflect.DeepEqual(history, before) {
		t.Fatalf("I9: caller's history modified")
	}
	verbatim := map[int]bool{}
	for _, it := range res.Rendering {
		if it.Index >= 0 && it.Edit == condense.EditNone {
			if !reflect.DeepEqual(it.Message, history[it.Index]) {
				t.Fatalf("item claims verbatim log %d but differs", it.Index)
			}
			verbatim[it.Index] = true
		}
	}
	// I3: first user message and pinned messages verbatim.
	firstUser, lastUser := -1, -1
	for i, m := range history {
		if m.Role == condense.RoleUser {
			if firstUser < 0 {
				firstUser = i
			}
			lastUser = i
		}
		if m.Pinned && !verbatim[i] {
			t.Fatalf("I3: pinned message %d not verbatim", i)
		}
	}
	if firstUser >= 0 && !verbatim[firstUser] {
		t.Fatalf("I3: task (message %d) not verbatim", firstUser)
	}
	// I4: newest user message and newest step verbatim.
	if lastUser >= 0 && !verbatim[lastUser] {
		t.Fatalf("I4: newest user message %d not verbatim", lastUser)
	}
	if s, ok := condense.LastStep(history); ok {
		for i := s.Start; i < s.End; i++ {
			if !verbatim[i] {
				t.Fatalf("I4: newest step message %d not verbatim", i)
			}
		}
	}
	// I8: ledger items of what was compacted appear verbatim, or are
	// counted as demoted.
	demoted := earlierDemoted
	for _, r := range res.Records {
		demoted += r.Demoted
	}
	raw, _ := json.Marshal(condense.DocumentOf(res.Request))
	var text strings.Builder
	for _, m := range msgs {
		text.WriteString(m.TextContent())
		for _, p := range m.Parts {
			for _, c := range p.Content {
				text.WriteString(c.Text)
			}
		}
	}
	_ = raw
	missing := map[string]bool{}
	for _, it := range res.Rendering {
		switch {
		case it.Edit == condense.EditSummary && it.Covers.End <= len(history) && it.Covers.Len() > 0:
			span := make([]condense.Message, 0, it.Covers.Len())
			for i := it.Covers.Start; i < it.Covers.End; i++ {
				if verbatim[i] {
					span = append(span, condense.Message{Role: history[i].Role})
					continue
				}
				span = append(span, history[i])
			}
			for _, li := range ledger.Extract(span, it.Covers.Start) {
				if li.Kind != ledger.KindTask && !strings.Contains(text.String(), li.Value) {
					missing[li.Key()] = true
				}
			}
		case it.Edit == condense.EditMasked || it.Edit == condense.EditCleared:
			orig := history[it.Index]
			for k := range orig.Parts {
				p := &orig.Parts[k]
				if p.Type != condense.PartToolResult {
					continue
				}
				rendered := it.Message.Parts[k]
				if len(rendered.Content) == 1 && strings.HasPrefix(rendered.Content[0].Text, "[condense: tool output") {
					for _, li := range ledger.ExtractResult(nil, p, it.Index) {
						if !strings.Contains(text.String(), li.Value) {
							missing[li.Key()] = true
						}
					}
				}
			}
		}
	}
	if len(missing) > demoted+countCallContextItems(res) {
		for k := range missing {
			t.Logf("missing %s", k)
		}
		for _, r := range res.Records {
			t.Logf("record %+v", r)
		}
		t.Fatalf("I8: %d ledger items missing, %d demoted", len(missing), demoted)
	}
}

// countCallContextItems allows for items the extractor derives from the call
// (command context) when the check above extracts without the call.
func countCallContextItems(*condense.Result) int { return 0 }

func TestStrategiesKeepInvariants(t *testing.T) {
	counter := tokens.Heuristic("openai")
	for name, s := range builtins() {
		if s == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			fresh := func() condense.Strategy { return builtins()[name] }
			rapid.Check(t, func(t *rapid.T) {
				history := genHistory(t)
				before := append([]condense.Message(nil), history...)
				for i := range before {
					before[i].Parts = append([]condense.Part(nil), history[i].Parts...)
				}
				full := condense.CountRequest(counter, &condense.Request{Messages: history})
				window := rapid.IntRange(max(300, full/4), full*2+400).Draw(t, "window")
				opts := &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 100}, Logger: quiet}
				req := condense.Request{Model: "test", Messages: history}
				res, err := condense.NewPreflight(counter, fresh(), opts).Prepare(context.Background(), req)
				if errors.Is(err, condense.ErrContextWindowExceeded) {
					return // I2 by refusal
				}
				if err != nil {
					t.Fatalf("Prepare: %v", err)
				}
				checkInvariants(t, history, before, res, 0)
				// I7: a fresh preflight renders the same bytes.
				res2, err := condense.NewPreflight(counter, fresh(), opts).Prepare(context.Background(), req)
				if err != nil {
					t.Fatalf("second Prepare: %v", err)
				}
				a, _ := json.Marshal(condense.DocumentOf(res.Request))
				b, _ := json.Marshal(condense.DocumentOf(res2.Request))
				if string(a) != string(b) {
					t.Fatalf("I7: renderings differ")
				}
			})
		})
	}
}

// TestPreflightIncrementalKeepsInvariants feeds a history one message at a
// time, as an agent loop does, checking every request.
func TestPreflightIncrementalKeepsInvariants(t *testing.T) {
	counter := tokens.Heuristic("anthropic")
	rapid.Check(t, func(t *rapid.T) {
		history := genHistory(t)
		full := condense.CountRequest(counter, &condense.Request{Messages: history})
		window := rapid.IntRange(max(400, full/5), full+400).Draw(t, "window")
		pf := condense.NewPreflight(counter, strategy.Default(), &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 100}, Logger: quiet})
		demoted := 0
		for n := 1; n <= len(history); n++ {
			prefix := history[:n]
			// Only prepare where an agent would call the model: after a user
			// message or a complete batch of results.
			if m := prefix[n-1]; m.Role == condense.RoleAssistant {
				continue
			}
			if n < len(history) && history[n].Role == condense.RoleTool {
				continue
			}
			before := append([]condense.Message(nil), prefix...)
			res, err := pf.Prepare(context.Background(), condense.Request{Messages: prefix})
			var we *condense.WindowError
			if errors.As(err, &we) {
				for _, r := range we.Records {
					demoted += r.Demoted
				}
				continue
			}
			if err != nil {
				t.Fatalf("Prepare at %d: %v", n, err)
			}
			checkInvariants(t, prefix, before, res, demoted)
			for _, r := range res.Records {
				demoted += r.Demoted
			}
		}
	})
}

// flaky is a summarizer that fails, returns junk, or returns something
// longer than its input, in turn with good summaries.
type flaky struct{ n int }

func (f *flaky) Summarize(ctx context.Context, in condense.SummaryRequest) (*condense.Summary, error) {
	f.n++
	switch f.n % 4 {
	case 0:
		return nil, &summarize.RejectedError{Reason: summarize.ErrTruncated, StopReason: "max_tokens"}
	case 1:
		return &condense.Summary{Text: "\x00junk ]]] <summary> not markdown"}, nil
	case 2:
		var b strings.Builder
		for _, m := range in.Messages {
			b.WriteString(m.TextContent())
			b.WriteString(strings.Repeat(" padding", 200))
		}
		return &condense.Summary{Text: b.String()}, nil
	}
	return summarize.Extractive{}.Summarize(ctx, in)
}
