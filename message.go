package condense

import (
	"encoding/json"
)

// Role is the author of a message.
type Role string

// The roles a message can have. Tool results always travel in RoleTool
// messages; a RoleTool message never starts a turn.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Status says how a message ended. The zero value is StatusComplete.
type Status string

// Message statuses. Failed and aborted assistant replies stay in the history
// but are left out of summaries: a reply that did not finish is not a
// statement the agent made.
const (
	StatusComplete Status = ""
	StatusFailed   Status = "failed"
	StatusAborted  Status = "aborted"
)

// PartType names the kind of a Part.
type PartType string

// The part types. They are also the "type" values of the condense JSON
// form.
const (
	PartText       PartType = "text"
	PartToolCall   PartType = "tool_call"
	PartToolResult PartType = "tool_result"
	PartThinking   PartType = "thinking"
	PartImage      PartType = "image"
	PartProvider   PartType = "provider"
)

// Part is one ordered piece of a message. Which fields are meaningful depends
// on Type; the constructors (Text, ToolCall, ToolResult, Thinking, ImageData,
// ImageURL, ProviderBlock) set exactly those.
type Part struct {
	Type PartType

	// Text is the text of a text or thinking part.
	Text string

	// ID is a tool call's id; CallID is the id of the call a tool result
	// answers.
	ID     string
	CallID string
	// Name is the tool a call invokes.
	Name string
	// Input is a tool call's raw JSON input, carried as given.
	Input json.RawMessage

	// Content is a tool result's content (text and image parts).
	Content []Part
	// IsError marks a tool result that reports a failure.
	IsError bool

	// Signature is a thinking part's provider signature; Redacted holds the
	// opaque data of a redacted thinking block.
	Signature string
	Redacted  string

	// MediaType, Data and URL describe an image: its bytes or its address.
	// Width and Height are its pixel size when known (0 when not).
	MediaType string
	Data      []byte
	URL       string
	Width     int
	Height    int

	// Provider names the provider of an opaque block ("anthropic",
	// "openai"); Raw is the block, carried byte for byte.
	Provider string
	Raw      json.RawMessage
}

// Text returns a text part.
func Text(s string) Part { return Part{Type: PartText, Text: s} }

// ToolCall returns a tool call part. input must be JSON; it is carried as given.
func ToolCall(id, name string, input json.RawMessage) Part {
	return Part{Type: PartToolCall, ID: id, Name: name, Input: input}
}

// ToolResult returns a tool result part answering the call callID.
func ToolResult(callID string, isError bool, content ...Part) Part {
	return Part{Type: PartToolResult, CallID: callID, IsError: isError, Content: content}
}

// Thinking returns a thinking part with its provider signature.
func Thinking(text, signature string) Part {
	return Part{Type: PartThinking, Text: text, Signature: signature}
}

// RedactedThinking returns a thinking part whose content the provider
// encrypted; data is carried as given.
func RedactedThinking(data string) Part {
	return Part{Type: PartThinking, Redacted: data}
}

// ImageData returns an image part holding the image's bytes.
func ImageData(mediaType string, data []byte) Part {
	return Part{Type: PartImage, MediaType: mediaType, Data: data}
}

// ImageURL returns an image part referring to an image by address.
func ImageURL(mediaType, url string) Part {
	return Part{Type: PartImage, MediaType: mediaType, URL: url}
}

// ProviderBlock returns an opaque provider block, carried byte for byte.
func ProviderBlock(provider string, raw json.RawMessage) Part {
	return Part{Type: PartProvider, Provider: provider, Raw: raw}
}

// Message is one provider-neutral message of a history.
type Message struct {
	// ID identifies the message. Optional; when every message has one, the
	// preflight recognises the prefix it has seen by id.
	ID     string
	Role   Role
	Parts  []Part
	Status Status
	// Pinned messages survive every compaction verbatim: the built-in
	// strategies never mask, summarize or drop them.
	Pinned bool
}

// UserText returns a user message with one text part.
func UserText(s string) Message { return Message{Role: RoleUser, Parts: []Part{Text(s)}} }

// AssistantText returns an assistant message with one text part.
func AssistantText(s string) Message {
	return Message{Role: RoleAssistant, Parts: []Part{Text(s)}}
}

// ToolCalls returns the tool call parts of m, in order.
func (m *Message) ToolCalls() []Part {
	var calls []Part
	for _, p := range m.Parts {
		if p.Type == PartToolCall {
			calls = append(calls, p)
		}
	}
	return calls
}

// HasToolCalls reports whether m is an assistant message that calls tools.
func (m *Message) HasToolCalls() bool {
	for i := range m.Parts {
		if m.Parts[i].Type == PartToolCall {
			return true
		}
	}
	return false
}

// TextContent returns the concatenated text parts of m, separated by
// newlines. Tool inputs, results and thinking are not included.
func (m *Message) TextContent() string {
	var n int
	var out []byte
	for _, p := range m.Parts {
		if p.Type != PartText {
			continue
		}
		if n > 0 {
			out = append(out, '\n')
		}
		out = append(out, p.Text...)
		n++
	}
	return string(out)
}

// Tool is a tool definition offered to the model.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// Request is what goes to a model.
type Request struct {
	Model    string
	System   string
	Tools    []Tool
	Messages []Message
	// MaxOutputTokens is the request's output cap; 0 means unset.
	MaxOutputTokens int
	// ThinkingBudget is the extended-thinking budget the request enables;
	// it is reserved on top of the output.
	ThinkingBudget int
}

// Clone returns a copy of r whose slices are new: appending to or assigning
// elements of the copy never touches r. Parts are shared read-only.
func (r Request) Clone() Request {
	r.Tools = append([]Tool(nil), r.Tools...)
	r.Messages = append([]Message(nil), r.Messages...)
	return r
}
