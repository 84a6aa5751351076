package openai

import (
	"encoding/json"

	"github.com/condense-dev/condense"
)

// The Chat Completions API's JSON shapes, as much of them as condense sends
// and reads (platform.openai.com/docs/api-reference/chat).

type chatRequest struct {
	Model               string        `json:"model"`
	Messages            []chatMessage `json:"messages"`
	MaxCompletionTokens int           `json:"max_completion_tokens,omitempty"`
	MaxTokens           int           `json:"max_tokens,omitempty"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatResponse struct {
	ID      string `json:"id"`
	Model   string `json:"model"`
	Choices []struct {
		Index        int    `json:"index"`
		FinishReason string `json:"finish_reason"`
		Message      struct {
			Role         string            `json:"role"`
			Content      string            `json:"content"`
			Refusal      string            `json:"refusal"`
			ToolCalls    []json.RawMessage `json:"tool_calls"`
			FunctionCall json.RawMessage   `json:"function_call"`
		} `json:"message"`
	} `json:"choices"`
	Usage struct {
		PromptTokens        int `json:"prompt_tokens"`
		CompletionTokens    int `json:"completion_tokens"`
		PromptTokensDetails struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
}

// usage returns the usage of r. Prompt tokens include the cached ones,
// which are billed at the cached price.
func (r *chatResponse) usage(requested string) condense.Usage {
	model := r.Model
	if model == "" {
		model = requested
	}
	u := r.Usage
	return condense.Usage{
		Provider:     Provider,
		Model:        model,
		InputTokens:  u.PromptTokens,
		OutputTokens: u.CompletionTokens,
		CostUSD:      Cost(model, u.PromptTokens, u.PromptTokensDetails.CachedTokens, u.CompletionTokens),
	}
}
