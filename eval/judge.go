package eval

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/ledger"
	"github.com/condense-dev/condense/provider/anthropic"
	"github.com/condense-dev/condense/provider/openai"
)

// Judge answers a question about a conversation. Asking it the same
// question against the full history and against the compacted rendering
// checks a compaction: when the answers diverge, the compaction lost
// something the question needed.
type Judge interface {
	Ask(ctx context.Context, context []condense.Message, question string) (string, error)
}

// JudgeSystem is the system text of a judge's request.
const JudgeSystem = "You answer questions about the conversation above. Answer in one line, quoting exact strings " +
	"(paths, commands, error messages, identifiers, numbers with their units) as they appear. " +
	"If the conversation does not contain the answer, reply exactly NOT FOUND."

// judgeMaxTokens caps a judge's answer.
const judgeMaxTokens = 512

// JudgeTimeout bounds one question to a judge, retries included, as a
// summary request is bounded: a stalled server fails the question instead
// of hanging eval.
const JudgeTimeout = 2 * time.Minute

// ErrNoKey: the judge's API key is not set.
var ErrNoKey = errors.New("API key not set")

// AnthropicJudge asks through the Anthropic Messages API with
// provider/anthropic's client. A provider's error answer is a
// *condense.APIError.
type AnthropicJudge struct {
	// BaseURL is the API's address without "/v1"; "" means
	// $ANTHROPIC_BASE_URL, else https://api.anthropic.com.
	BaseURL string
	// APIKey authenticates; "" means $ANTHROPIC_API_KEY.
	APIKey string
	Model  string
	// Tools are the transcript's tool definitions: a history with tool
	// uses must be sent with them.
	Tools      []condense.Tool
	HTTPClient *http.Client
}

// NewAnthropicJudge returns a judge configured from ANTHROPIC_API_KEY and
// ANTHROPIC_BASE_URL; model "" means claude-sonnet-4-5.
func NewAnthropicJudge(model string) (*AnthropicJudge, error) {
	j := &AnthropicJudge{BaseURL: os.Getenv("ANTHROPIC_BASE_URL"), APIKey: os.Getenv("ANTHROPIC_API_KEY"), Model: model}
	if j.Model == "" {
		j.Model = "claude-sonnet-4-5"
	}
	if j.APIKey == "" {
		return nil, fmt.Errorf("judge anthropic: %w: set ANTHROPIC_API_KEY", ErrNoKey)
	}
	return j, nil
}

// Ask sends the conversation and the question and returns the answer text.
func (j *AnthropicJudge) Ask(ctx context.Context, msgs []condense.Message, question string) (string, error) {
	c, err := anthropic.NewClient(anthropic.Options{APIKey: j.APIKey, BaseURL: j.BaseURL, HTTPClient: j.HTTPClient, Timeout: JudgeTimeout})
	if err != nil {
		return "", fmt.Errorf("judge anthropic: %w", err)
	}
	resp, err := c.Send(ctx, &anthropic.Request{Request: judgeRequest(j.Model, j.Tools, msgs, question)})
	if err != nil {
		return "", fmt.Errorf("judge anthropic: %w", err)
	}
	return strings.TrimSpace(resp.Text()), nil
}

// OpenAIJudge asks through the OpenAI Chat Completions API (or a
// compatible server) with provider/openai's client. A provider's error
// answer is a *condense.APIError.
type OpenAIJudge struct {
	// BaseURL is the API's address, "/v1" included; "" means
	// $OPENAI_BASE_URL, else https://api.openai.com/v1.
	BaseURL string
	// APIKey authenticates; "" means $OPENAI_API_KEY.
	APIKey     string
	Model      string
	Tools      []condense.Tool
	HTTPClient *http.Client
}

// NewOpenAIJudge returns a judge configured from OPENAI_API_KEY and
// OPENAI_BASE_URL; model "" means gpt-4.1.
func NewOpenAIJudge(model string) (*OpenAIJudge, error) {
	j := &OpenAIJudge{BaseURL: os.Getenv("OPENAI_BASE_URL"), APIKey: os.Getenv("OPENAI_API_KEY"), Model: model}
	if j.Model == "" {
		j.Model = "gpt-4.1"
	}
	if j.APIKey == "" {
		return nil, fmt.Errorf("judge openai: %w: set OPENAI_API_KEY", ErrNoKey)
	}
	return j, nil
}

// Ask sends the conversation and the question and returns the answer text.
func (j *OpenAIJudge) Ask(ctx context.Context, msgs []condense.Message, question string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, JudgeTimeout)
	defer cancel()
	c := openai.NewClient(openai.ClientOptions{APIKey: j.APIKey, BaseURL: j.BaseURL, HTTPClient: j.HTTPClient})
	resp, err := c.Chat(ctx, &openai.ChatRequest{Request: judgeRequest(j.Model, j.Tools, msgs, question)})
	if err != nil {
		return "", fmt.Errorf("judge openai: %w", err)
	}
	return strings.TrimSpace(resp.Text()), nil
}

// judgeRequest is what a judge sends: the conversation (without a newest
// step still waiting for its results), then the question as a user message.
func judgeRequest(model string, tools []condense.Tool, msgs []condense.Message, question string) condense.Request {
	n := len(msgs)
	if n > 0 && msgs[n-1].Role == condense.RoleAssistant && msgs[n-1].HasToolCalls() {
		n--
	}
	all := append(append(make([]condense.Message, 0, n+1), msgs[:n]...), condense.UserText(question))
	return condense.Request{Model: model, System: JudgeSystem, Tools: tools, Messages: all, MaxOutputTokens: judgeMaxTokens}
}

// Verdict is a judge's answers on one probe. Expect, Question and the
// answers quote the history: they are reported with secrets redacted
// (ledger.Redact).
type Verdict struct {
	Category string `json:"category"`
	Expect   string `json:"expect"`
	Question string `json:"question"`
	// Full and Compacted are the answers; Full is empty when the full
	// context was not asked (it does not fit the judge).
	Full      string `json:"full,omitempty"`
	Compacted string `json:"compacted"`
	// Verdict: "same" (both answers hold the probe, or agree), "lost" (the
	// full context's answer holds it, the compacted one's does not),
	// "kept" / "missing" (judged on the compacted answer alone), "gained"
	// (only the compacted answer holds it), "differs".
	Verdict string `json:"verdict"`
}

// Question returns what a judge is asked about a probe: its own question,
// or a request to quote the specific of its category that matches the
// regexp or starts with the first half of the text (the whole text would
// give the answer away).
func Question(p Resolved) string {
	if p.Probe.Question != "" {
		return p.Probe.Question
	}
	if p.Regex != "" {
		return fmt.Sprintf("Quote the %s from the conversation that matches the regular expression %q.", p.Category, p.Regex)
	}
	hint := p.Text
	if n := utf8.RuneCountInString(hint); n > 3 {
		r := []rune(hint)
		hint = string(r[:max(3, n/2)])
	}
	return fmt.Sprintf("Quote the %s from the conversation that starts with %q, in full.", p.Category, hint)
}

// JudgeProbes asks j every probe present in the original, against the full
// history (unless askFull is false: it does not fit the judge) and against
// the compacted rendering, and compares the answers.
func JudgeProbes(ctx context.Context, j Judge, full, compacted []condense.Message, probes []Resolved, askFull bool) ([]Verdict, error) {
	var out []Verdict
	for _, p := range probes {
		if p.Absent {
			continue
		}
		v := Verdict{Category: p.Category, Expect: p.Expect, Question: Question(p)}
		var err error
		if askFull {
			if v.Full, err = j.Ask(ctx, full, v.Question); err != nil {
				return nil, err
			}
		}
		if v.Compacted, err = j.Ask(ctx, compacted, v.Question); err != nil {
			return nil, err
		}
		v.Verdict = compare(askFull, v.Full, v.Compacted, p.Expect)
		// The answers and the expected text quote the history: what is
		// reported has its secrets redacted.
		v.Expect, v.Question = ledger.Redact(v.Expect), ledger.Redact(v.Question)
		v.Full, v.Compacted = ledger.Redact(v.Full), ledger.Redact(v.Compacted)
		out = append(out, v)
	}
	return out, nil
}

func compare(askFull bool, full, compacted, expect string) string {
	inC := strings.Contains(compacted, expect)
	if !askFull {
		if inC {
			return "kept"
		}
		return "missing"
	}
	inF := strings.Contains(full, expect)
	switch {
	case inF && inC:
		return "same"
	case inF:
		return "lost"
	case inC:
		return "gained"
	case normalize(full) == normalize(compacted):
		return "same"
	}
	return "differs"
}

func normalize(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(strings.Trim(s, " .\n\t`\"'")), " "))
}
