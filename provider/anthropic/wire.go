package anthropic

import (
	"encoding/json"
	"strings"

	"github.com/condense-dev/condense"
)

// The Messages API's JSON shapes, as much of them as condense sends and
// reads (docs.claude.com/en/api/messages, /en/api/messages-count-tokens).

type messagesRequest struct {
	Model     string         `json:"model"`
	MaxTokens int            `json:"max_tokens,omitempty"`
	System    []contentBlock `json:"system,omitempty"`
	Messages  []message      `json:"messages"`
	Tools     []tool         `json:"tools,omitempty"`
}

type message struct {
	Role    string         `json:"role"`
	Content []contentBlock `json:"content"`
}

// contentBlock is any block of a request or response; which fields are set
// depends on Type.
type contentBlock struct {
	Type string `json:"type"`
	Text string `json:"text,omitempty"`

	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`

	// tool_result
	ToolUseID string         `json:"tool_use_id,omitempty"`
	Content   []contentBlock `json:"content,omitempty"`
	IsError   bool           `json:"is_error,omitempty"`

	// thinking, redacted_thinking
	Thinking  string `json:"thinking,omitempty"`
	Signature string `json:"signature,omitempty"`
	Data      string `json:"data,omitempty"`

	// image
	Source *imageSource `json:"source,omitempty"`

	// raw is an opaque provider block, sent as it is.
	raw json.RawMessage
}

func (b contentBlock) MarshalJSON() ([]byte, error) {
	if b.raw != nil {
		return b.raw, nil
	}
	type plain contentBlock
	return json.Marshal(plain(b))
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      []byte `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type messagesResponse struct {
	ID         string         `json:"id"`
	Type       string         `json:"type"`
	Model      string         `json:"model"`
	Content    []contentBlock `json:"content"`
	StopReason string         `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		OutputTokens             int `json:"output_tokens"`
	} `json:"usage"`
}

type countResponse struct {
	InputTokens int `json:"input_tokens"`
}

type errorBody struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// text joins the text blocks of r and says whether any block is a tool use,
// of a client, server or MCP tool.
func (r *messagesResponse) text() (string, bool) {
	var b strings.Builder
	toolUse := false
	for _, c := range r.Content {
		switch c.Type {
		case "text":
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		case "tool_use", "server_tool_use", "mcp_tool_use":
			toolUse = true
		}
	}
	return b.String(), toolUse
}

// usage returns the usage of r. Input tokens include the cache writes and
// reads, which are billed input too.
func (r *messagesResponse) usage(requested string) condense.Usage {
	model := r.Model
	if model == "" {
		model = requested
	}
	u := r.Usage
	return condense.Usage{
		Provider:     Provider,
		Model:        model,
		InputTokens:  u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
		OutputTokens: u.OutputTokens,
		CostUSD:      Cost(model, u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens, u.OutputTokens),
	}
}
