package transcript

import (
	"fmt"
	"io"

	"github.com/condense-dev/condense"
)

// Write writes req to w in format f, one JSON document followed by a
// newline. f is FormatOpenAI, FormatAnthropic or FormatCondense.
//
// FormatOpenAI writes {"model","messages","tools"} and, when
// req.MaxOutputTokens is set, "max_completion_tokens": the system text as a
// leading system message, one "tool" message per tool result, images as
// image_url parts (bytes as data: URLs). Thinking is dropped (chat
// completions have no place to send reasoning back), and so are is_error,
// images inside tool results (written as the text "[image]"), anthropic
// provider blocks and openai provider blocks that are not chat content parts.
//
// FormatAnthropic writes {"model","max_tokens","system","messages","tools"}
// (plus "thinking" when req.ThinkingBudget is set). max_tokens is always
// there: req.MaxOutputTokens, the caller's reserved output, or 4096 when it
// is 0. Tool messages become user messages of tool_result blocks, and
// consecutive messages of one role merge (tool results first) so roles
// alternate; system messages after the start go out as user text. Anthropic
// provider blocks are written back byte for byte and cache markers go back
// onto their block. Thinking without a signature (another provider's
// reasoning, which the API rejects) and openai provider blocks are dropped.
//
// Both provider formats leave out failed assistant replies without tool
// calls (an "API Error: overloaded" line of Claude Code): they are not the
// model's words, and a model sent them would read them as its own. Aborted
// replies, which the model did write, stay.
//
// FormatCondense writes condense.DocumentOf(req), every message included.
//
// The provider formats are written so that the API accepts them as they
// are (CheckWritten finds nothing in them). To that end the writers: put a
// user message holding LeadingUserText first when an Anthropic request
// would start with an assistant message; give a tool call without a result
// (the newest step's) StandInResult, as an error; make tool call ids unique
// and, for Anthropic, rewrite each character outside [a-zA-Z0-9_-] as "_"
// (adding "_2", "_3", … until unused), and for OpenAI shorten ids over 40
// characters, in the call and its results alike;
// rewrite tool names the same way (cut to 64 characters); define every
// tool called but not defined with the schema AnyObjectSchema, and make
// every schema an object of type "object"; leave out blank text and a final
// assistant message's trailing whitespace for Anthropic, and raise a
// thinking budget below anthropic.MinThinkingBudget, with max_tokens above
// it. docs/formats.md lists the rules.
func Write(w io.Writer, f Format, req condense.Request) error {
	return WriteWith(w, f, req, WriteOptions{})
}

// WriteOptions says how WriteWith writes.
type WriteOptions struct {
	// OriginalIDs maps tool call ids to the ids the transcript's file gave
	// them (Transcript.OriginalIDs). FormatCondense writes each as the
	// "original_id" of its tool call, which the condense reader reads back
	// into Transcript.OriginalIDs; the provider formats never write them
	// (their APIs take only the unique ids).
	OriginalIDs map[string]string
}

// WriteWith is Write with options.
func WriteWith(w io.Writer, f Format, req condense.Request, opts WriteOptions) error {
	out, err := Encode(f, req, opts)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// Encode returns the body WriteWith writes, newline included. It is
// allocated once, at about its size: a caller that needs the body as well
// as writing it (to check it, say) holds it once.
func Encode(f Format, req condense.Request, opts WriteOptions) ([]byte, error) {
	return AppendEncode(nil, f, req, opts)
}

// AppendEncode appends the body Encode returns to dst and returns the
// extended slice, so that a caller writing many requests (a server) can
// reuse one buffer.
func AppendEncode(dst []byte, f Format, req condense.Request, opts WriteOptions) ([]byte, error) {
	var out []byte
	var err error
	switch f {
	case FormatOpenAI:
		out, err = writeOpenAI(dst, req)
	case FormatAnthropic:
		out, err = writeAnthropic(dst, req)
	case FormatCondense:
		out, err = writeCondense(req, opts.OriginalIDs)
		if err == nil && len(dst) > 0 {
			out = append(dst, out...)
		}
	default:
		return nil, fmt.Errorf("%w %q for writing (want %s)", ErrUnknownFormat, f, formatList(WriteFormats))
	}
	if err != nil {
		return nil, err
	}
	return append(out, '\n'), nil
}

// failedReply reports whether m is a failed assistant reply that provider
// formats leave out: failed, and holding no tool call whose result follows.
func failedReply(m *condense.Message) bool {
	return m.Role == condense.RoleAssistant && m.Status == condense.StatusFailed && !m.HasToolCalls()
}
