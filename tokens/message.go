package tokens

import (
	"unsafe"

	"github.com/condense-dev/condense"
)

// Kinds of text, for counters whose characters-per-token depend on what the
// text is (tool output and code pack fewer characters per token than
// prose).
const (
	kindText       = iota // text parts, the system text
	kindToolInput         // tool call names and JSON inputs, tool definitions
	kindToolOutput        // tool result content
	kindThinking          // thinking text
	numKinds
)

// textCounter counts the tokens of a piece of text of a kind, and carries
// the framing constants of a provider's chat format.
type textCounter interface {
	countText(kind int, s string) int
}

// framing holds the per-piece constants a chat format adds around content.
type framing struct {
	family     string
	message    int // every message: start and end markers, the role
	toolCall   int // every tool call, beside its name, id and input
	toolResult int // every tool result, beside its call id and content
	tool       int // every tool definition, beside name, description, schema
	request    int // the request: reply priming, system framing
	tools      int // once when the request has tools (Anthropic's tool prompt)
	// systemText: the system text is a field of the request, counted
	// without message framing (Anthropic); else it is a system message.
	systemText bool
}

// countMessage counts m with tc under the framing f.
func countMessage(tc textCounter, f *framing, m *condense.Message) int {
	n := f.message + tc.countText(kindText, string(m.Role))
	for i := range m.Parts {
		n += countPart(tc, f, &m.Parts[i], kindText)
	}
	return n
}

// countPart counts one part; kind is the kind of its text (tool result
// content is tool output).
func countPart(tc textCounter, f *framing, p *condense.Part, kind int) int {
	switch p.Type {
	case condense.PartText:
		return tc.countText(kind, p.Text)
	case condense.PartThinking:
		return tc.countText(kindThinking, p.Text) + opaqueTokens(len(p.Redacted))
	case condense.PartToolCall:
		return f.toolCall + tc.countText(kindToolInput, p.ID) +
			tc.countText(kindToolInput, p.Name) + tc.countText(kindToolInput, view(p.Input))
	case condense.PartToolResult:
		n := f.toolResult + tc.countText(kindToolInput, p.CallID)
		for i := range p.Content {
			n += countPart(tc, f, &p.Content[i], kindToolOutput)
		}
		return n
	case condense.PartImage:
		return imageTokens(f.family, p)
	case condense.PartProvider:
		return opaqueTokens(len(p.Raw))
	default:
		// An unknown part type: count what text it carries.
		return tc.countText(kind, p.Text) + opaqueTokens(len(p.Raw)+len(p.Input))
	}
}

// countOverhead counts the system text and the tool definitions.
func countOverhead(tc textCounter, f *framing, system string, tools []condense.Tool) int {
	n := f.request
	switch {
	case system == "":
	case f.systemText:
		n += tc.countText(kindText, system)
	default:
		n += f.message + tc.countText(kindText, string(condense.RoleSystem)) + tc.countText(kindText, system)
	}
	if len(tools) > 0 {
		n += f.tools
	}
	for i := range tools {
		t := &tools[i]
		n += f.tool + tc.countText(kindToolInput, t.Name) +
			tc.countText(kindText, t.Description) + tc.countText(kindToolInput, view(t.InputSchema))
	}
	return n
}

// opaqueTokens estimates an opaque blob of n bytes: a redacted thinking
// block or a provider block (encrypted reasoning or compaction items). The
// blob is ciphertext, base64 or JSON around it, about 4/3 the size of what
// the model reads; at 3 characters per token that is n/4 tokens.
func opaqueTokens(n int) int {
	return (n + 3) / 4
}

// view returns b as a string without copying it. Counters only read the
// text for the duration of the call and never keep it.
func view(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
