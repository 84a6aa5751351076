package strategy_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/internal/redact/redacttest"
	"github.com/condense-dev/condense/strategy"
	"github.com/condense-dev/condense/tokens"
)

// Made-up secrets of real shapes.
const (
	plantedOpenAI = redacttest.OpenAIKey
	plantedGitHub = redacttest.GitHubKey
	plantedAWS    = redacttest.AWSKey
)

var checkLogRedacted = redacttest.Check

// prepareLogged runs one Prepare of s over msgs at window and returns what
// it logged, every level included.
func prepareLogged(t *testing.T, s condense.Strategy, window int, msgs []condense.Message) (*condense.Result, string) {
	t.Helper()
	log, buf := redacttest.Logger()
	pf := condense.NewPreflight(tokens.Heuristic("anthropic"), s, &condense.Options{Settings: condense.Settings{Window: window, ReservedOutput: 500}, Logger: log})
	res, err := pf.Prepare(context.Background(), condense.Request{Messages: msgs})
	if err != nil {
		t.Fatalf("Prepare: %v", err)
	}
	return res, buf.String()
}

// TestPipelineLogRedactsStageError: a stage whose error quotes a tool
// output holding keys is logged without them, and the next stage runs.
func TestPipelineLogRedactsStageError(t *testing.T) {
	msgs := turns(6, 4000)
	quoting := condense.Func("quoting", func(context.Context, *condense.CompactionContext) ([]condense.Message, error) {
		return nil, fmt.Errorf("stage gave up on call_3, whose output was %q", "aws_access_key_id = "+plantedAWS+"\nGH_TOKEN="+plantedGitHub)
	})
	full := condense.CountRequest(tokens.Heuristic("anthropic"), &condense.Request{Messages: msgs})
	res, out := prepareLogged(t, strategy.NewPipeline(quoting, strategy.DropOldest{}), full/2, msgs)
	if len(res.Records) != 1 {
		t.Fatalf("the next stage did not compact: records %v, rejected %v", res.Records, res.Rejected)
	}
	checkLogRedacted(t, out, "pipeline stage failed", "stage=quoting", "stage gave up on call_3, whose output was", "aws_access_key_id = [REDACTED]", "GH_TOKEN=[REDACTED]")
}

// TestSummarizerErrorLogRedacted: a summarizer's API error whose body
// quotes the key it was given is logged without it.
func TestSummarizerErrorLogRedacted(t *testing.T) {
	msgs := turns(6, 4000)
	fs := &fakeSummarizer{f: func(context.Context, condense.SummaryRequest) (*condense.Summary, error) {
		return nil, &condense.APIError{Provider: "openai", Status: 401, Type: "invalid_request_error",
			Message: "Incorrect API key provided: " + plantedOpenAI + ". You can find your API key at https://platform.openai.com/account/api-keys.",
			Kind:    condense.ErrAuth}
	}}
	full := condense.CountRequest(tokens.Heuristic("anthropic"), &condense.Request{Messages: msgs})
	res, out := prepareLogged(t, withSummarizer(strategy.Summarize{}, fs), full+2000, msgs)
	if fs.calls != 1 || len(res.Rejected) != 1 {
		t.Fatalf("summarizer called %d times, rejected %v", fs.calls, res.Rejected)
	}
	checkLogRedacted(t, out, "compaction candidate refused", "strategy=summarize", "openai: HTTP 401 invalid_request_error: Incorrect API key provided: [REDACTED]. You can find your API key")
}
