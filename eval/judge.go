package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/transcript"
)

// Judge answers a question about a conversation: seed 002's check of a
// compaction ("run with full context and with compacted context; if the
// outcomes diverge, the compaction is too lossy").
type Judge interface {
	Ask(ctx context.Context, context []condense.Message, question string) (string, error)
}

// JudgeSystem is the system text of a judge's request.
const JudgeSystem = "You answer questions about the conversation above. Answer in one line, quoting exact strings " +
	"(paths, commands, error messages, identifiers, numbers with their units) as they appear. " +
	"If the conversation does not contain the answer, reply exactly NOT FOUND."

// judgeMaxTokens caps a judge's answer.
const judgeMaxTokens = 512

// JudgeError is an error answer of a judge's provider.
type JudgeError struct {
	Provider string
	Status   int
	Type     string
	Message  string
}

func (e *JudgeError) Error() string {
	s := fmt.Sprintf("judge %s: HTTP %d", e.Provider, e.Status)
	if e.Type != "" {
		s += " " + e.Type
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// ErrNoKey: the judge's API key is not set.
var ErrNoKey = errors.New("API key not set")

// AnthropicJudge asks through the Anthropic Messages API.
type AnthropicJudge struct {
	// BaseURL defaults to https://api.anthropic.com (the request goes to
	// BaseURL + "/v1/messages").
	BaseURL string
	APIKey  string
	Model   string
	// Tools are the transcript's tool definitions: a history with tool
	// uses must be sent with them.
	Tools  []condense.Tool
	Client *http.Client
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
	body, err := judgeBody(transcript.FormatAnthropic, j.Model, j.Tools, msgs, question)
	if err != nil {
		return "", err
	}
	base := strings.TrimRight(j.BaseURL, "/")
	if base == "" {
		base = "https://api.anthropic.com"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/v1/messages", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("x-api-key", j.APIKey)
	req.Header.Set("anthropic-version", "2023-06-01")
	raw, status, err := do(j.Client, req)
	if err != nil {
		return "", fmt.Errorf("judge anthropic: %w", err)
	}
	if status/100 != 2 {
		var e struct {
			Error struct {
				Type    string `json:"type"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(raw, &e)
		return "", &JudgeError{Provider: "anthropic", Status: status, Type: e.Error.Type, Message: e.Error.Message}
	}
	var resp struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return "", fmt.Errorf("judge anthropic: bad response: %w", err)
	}
	var parts []string
	for _, c := range resp.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.TrimSpace(strings.Join(parts, "\n")), nil
}

// OpenAIJudge asks through the OpenAI Chat Completions API (or a
// compatible server).
type OpenAIJudge struct {
	// BaseURL defaults to https://api.openai.com/v1 (the request goes to
	// BaseURL + "/chat/completions").
	BaseURL string
	APIKey  string
	Model   string
	Tools   []condense.Tool
	Client  *http.Client
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
	body, err := judgeBody(transcript.FormatOpenAI, j.Model, j.Tools, msgs, question)
	if err != nil {
		return "", err
	}
	base := strings.TrimRight(j.BaseURL, "/")
	if base == "" {
		base = "https://api.openai.com/v1"
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return "", err
	}
	req.Header.Set("content-type", "application/json")
	req.Header.Set("authorization", "Bearer "+j.APIKey)
	raw, status, err := do(j.Client, req)
	if err != nil {
		return "", fmt.Errorf("judge openai: %w", err)
	}
	if status/100 != 2 {
		var e struct {
			Error struct {
				Type    string `json:"type"`
				Code    any    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.Unmarshal(raw, &e)
		return "", &JudgeError{Provider: "openai", Status: status, Type: e.Error.Type, Message: e.Error.Message}
	}
	var resp struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &resp); err != nil {
		return "", fmt.Errorf("judge openai: bad response: %w", err)
	}
	if len(resp.Choices) == 0 {
		return "", errors.New("judge openai: response has no choices")
	}
	return strings.TrimSpace(resp.Choices[0].Message.Content), nil
}

// JudgeTimeout bounds one question to a judge, as summaries are bounded
// (DESIGN B15): a stalled server fails the question instead of hanging eval.
const JudgeTimeout = 2 * time.Minute

func do(c *http.Client, req *http.Request) ([]byte, int, error) {
	if c == nil {
		c = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(req.Context(), JudgeTimeout)
	defer cancel()
	resp, err := c.Do(req.WithContext(ctx))
	if err != nil {
		return nil, 0, err
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	return raw, resp.StatusCode, err
}

// judgeBody writes the provider body: the conversation (without a newest
// step still waiting for its results), then the question as a user message.
func judgeBody(f transcript.Format, model string, tools []condense.Tool, msgs []condense.Message, question string) ([]byte, error) {
	n := len(msgs)
	if n > 0 && msgs[n-1].Role == condense.RoleAssistant && msgs[n-1].HasToolCalls() {
		n--
	}
	all := append(append(make([]condense.Message, 0, n+1), msgs[:n]...), condense.UserText(question))
	req := condense.Request{Model: model, System: JudgeSystem, Tools: tools, Messages: all, MaxOutputTokens: judgeMaxTokens}
	var buf bytes.Buffer
	if err := transcript.Write(&buf, f, req); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Verdict is a judge's answers on one probe.
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
