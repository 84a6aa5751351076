package tokens

import (
	"fmt"

	"github.com/condense-dev/condense"
	"github.com/condense-dev/condense/tokens/internal/bpe"
)

// BPECounter counts tokens exactly with one of OpenAI's byte-pair encodings,
// offline. Text, thinking, tool names, inputs, ids and results are
// tokenized; images follow OpenAI's tile rule (OpenAIImageTokens); the chat
// framing follows OpenAI's published accounting: 3 tokens per message plus
// its role, 3 tokens priming the reply.
//
// The framing of tool calls, tool results and tool definitions is not
// published; BPECounter tokenizes them as JSON (which is longer than the
// TypeScript-like form the models see) plus a few tokens each, so it errs
// high there. A BPECounter is safe for concurrent use.
type BPECounter struct {
	name string
	f    framing
}

var _ condense.Counter = (*BPECounter)(nil)

// The OpenAI chat framing (OpenAI cookbook, "How to count tokens with
// tiktoken": tokens_per_message = 3, every reply is primed with
// <|start|>assistant<|message|>, 3 tokens).
const (
	openAIPerMessage = 3
	openAIReply      = 3
	// Not published: a tool call is rendered as the function name and its
	// arguments between markers, a tool result carries its call id, a tool
	// definition is rendered in a namespace block. These constants are
	// estimates chosen to err high, not measurements.
	openAIPerToolCall   = 4
	openAIPerToolResult = 4
	openAIPerTool       = 8
	openAIToolsBlock    = 12
)

var openAIFraming = framing{
	family:     FamilyOpenAI,
	message:    openAIPerMessage,
	toolCall:   openAIPerToolCall,
	toolResult: openAIPerToolResult,
	tool:       openAIPerTool,
	request:    openAIReply,
	tools:      openAIToolsBlock,
}

// BPE returns the exact counter of encoding: "o200k_base" (GPT-4o, GPT-4.1,
// GPT-5, the o-series) or "cl100k_base" (GPT-4, GPT-3.5). The vocabulary is
// loaded on first use (it takes a fraction of a second) and shared by all
// counters of that encoding.
func BPE(encoding string) (*BPECounter, error) {
	if !bpe.Known(encoding) {
		return nil, fmt.Errorf("tokens: unknown encoding %q (want %q or %q)", encoding, O200kBase, Cl100kBase)
	}
	return &BPECounter{name: encoding, f: openAIFraming}, nil
}

// encoding returns the loaded encoding. The vocabularies are embedded in
// the binary, so loading one fails only if the build is broken.
func (c *BPECounter) encoding() *bpe.Encoding {
	enc, err := bpe.Get(c.name)
	if err != nil {
		panic(fmt.Sprintf("tokens: %v", err))
	}
	return enc
}

// Name returns the encoding name.
func (c *BPECounter) Name() string { return c.name }

// Exact reports true: text is tokenized with the model's own encoding.
func (c *BPECounter) Exact() bool { return true }

// CountMessage returns the tokens of m with its framing.
func (c *BPECounter) CountMessage(m *condense.Message) int {
	return countMessage(c, &c.f, m)
}

// CountOverhead returns the tokens of the system message, the tool
// definitions and the reply priming.
func (c *BPECounter) CountOverhead(system string, tools []condense.Tool) int {
	return countOverhead(c, &c.f, system, tools)
}

// CountText returns the tokens of s, without framing.
func (c *BPECounter) CountText(s string) int {
	return c.countText(kindText, s)
}

// countText counts s as tiktoken would (invalid UTF-8 is read as U+FFFD,
// which is what a JSON request carries in its place).
func (c *BPECounter) countText(_ int, s string) int {
	if s == "" {
		return 0
	}
	return c.encoding().Count(s)
}
